"""Diagnostics of a batch: what says whether a result measures the scenario or the bots' habits.

Each is defined here, once, and counted from the game's event log (plus two snapshots the
:class:`Recorder` takes: the start, and the end of turn 1). Per game and per side, averaged over
a batch by :func:`aggregate`:

- ``overstack_losses``: units destroyed at Morale step 4 by their own side's stacking (§8.52);
- ``fortified_units``, ``fortified_units_leaving_turn1``: units that began the game in an
  entrenchment or a bunker, and how many of them stood in another hex when turn 1 ended (those
  that left to close-assault are not counted: that is an attack, not a desertion);
- ``opportunity_fires``: every fire at a moving or attacking enemy outside the firer's own
  activation: ordinary opportunity fire (§9.4) and the reactions to a close assault (§14.11),
  ``same_hex_fires`` (infantry firing at a unit entering its hex, §12.14) and ``overrun_fires``
  (the defenders' fire at an overrunner, §14.2); the last two are also given on their own;
- ``move_and_fire``: move-and-fire operations, declared (§9.5) or converted from a declared move
  part way (§7: ``move-becomes-move-fire``); ``move_and_fire_converted`` the converted ones alone;
- ``bombardments``: the side's bombardments that were due (landed, cancelled, lost, or delayed past
  the last turn or the game's end); ``wasted_bombardments`` those that achieved nothing: no
  target, cancelled (§16.32), lost (§16.32), landing with no spotting roll succeeding (§16.33),
  or delayed beyond the game (§16.36: an on-call delay past the last turn, or the game over first);
- ``objective_progress``: for a side whose victory terms reward reaching a place (an exit edge,
  a zone, a map), over its units that those terms count, the share of the distance to the place
  they covered: the sum over those units of (distance at the start − nearest they came) over the
  sum of their distances at the start (a unit that exits where it scores came all the way); units
  that start on the place are left out (nothing to cover); 0 when none moved nearer; None for a
  side whose terms reward no place or whose scoring units all start on it;
- ``fires``: attacks rolled against the side's enemies (direct, opportunity, indirect, raids,
  fire zones, minefields: every ``fire`` event), and ``losses``: the side's units destroyed or
  exited where exiting counts as a loss; ``no_fire_game`` and ``no_loss_game`` (the same in both
  sides' rows): 1 when the whole game had no fire, or no loss, else 0: their average is the share
  of such games, the **engagement** of a batch (:func:`engagement`).
"""
from __future__ import annotations

from .context import SIDES, other

FIELDS = ("overstack_losses", "fortified_units", "fortified_units_leaving_turn1", "opportunity_fires",
          "same_hex_fires", "overrun_fires", "move_and_fire", "move_and_fire_converted", "bombardments",
          "wasted_bombardments", "fires", "losses", "no_fire_game", "no_loss_game", "objective_progress")
NOT_ENGAGED = "the bots did not engage: the result says nothing about balance"
ENGAGEMENT_SHARE = 0.5  # games without fire or without losses, from this share on the batch warns


class Recorder:
    """Watches a game being played: call start() once, then step() after every action."""

    def __init__(self):
        self.fortified: dict[str, str] = {}  # unit id -> hex at the start
        self.start_hex: dict[str, str] = {}
        self.after_turn1: dict[str, str | None] | None = None

    def start(self, game) -> None:
        s = game.state
        ids = {e["occupant"] for e in s.entrenchments if e["done"] and e["occupant"]}
        ids |= {b["occupant"] for b in s.bunkers if b["occupant"]}
        self.fortified = {uid: s.units[uid].hex for uid in sorted(ids) if s.units[uid].on_map}
        self.start_hex = {u.id: u.hex for u in s.units.values() if u.on_map}

    def step(self, game) -> None:
        if self.after_turn1 is None and (game.state.turn > 1 or game.is_terminal()):
            units = game.state.units
            self.after_turn1 = {uid: (units[uid].hex if units[uid].on_map else None) for uid in self.fortified}


def game_diagnostics(game, recorder: Recorder) -> dict:
    """The diagnostics of one finished game, per side (see the module docstring)."""
    out = {side: {f: 0 for f in FIELDS} for side in SIDES}
    for side in SIDES:
        out[side]["objective_progress"] = None
    units = game.state.units
    last_turn = game.ctx.scenario.turns
    assaulted_t1: set[str] = set()
    landing = None  # the bombardment coming down: {"side", "hits"}

    def landed() -> None:
        if landing is not None:
            out[landing["side"]]["bombardments"] += 1
            if not landing["hits"]:
                out[landing["side"]]["wasted_bombardments"] += 1

    for e in game.events:
        k = e["e"]
        if k == "destroyed":
            side = units[e["unit"]].side
            out[side]["losses"] += 1
            if e.get("how") == "overstacked":
                out[side]["overstack_losses"] += 1
        elif k == "exit" and e.get("counts_as_loss"):
            out[units[e["unit"]].side]["losses"] += 1
        elif k == "fire":
            target = units.get(e.get("target"))
            if target is not None:
                out[other(target.side)]["fires"] += 1
        elif k in ("opportunity-fire", "same-hex-fire", "overrun-fire"):
            side = units[e["unit"]].side
            out[side]["opportunity_fires"] += 1
            if k != "opportunity-fire":
                out[side]["same_hex_fires" if k == "same-hex-fire" else "overrun_fires"] += 1
        elif k == "move-becomes-move-fire":
            side = units[e["unit"]].side
            out[side]["move_and_fire"] += 1
            out[side]["move_and_fire_converted"] += 1
        elif k == "action":
            a = e["action"]
            if a[0] == "op" and len(a) > 2:
                if a[2] == "move-fire":
                    out[e["side"]]["move_and_fire"] += 1
                elif a[2] == "assault" and e["t"] == 1:
                    assaulted_t1.add(a[1])
            elif a[0] == "join" and e["t"] == 1 and len(a) > 1:
                assaulted_t1.add(a[1])
        elif k == "bombardment" or (k == "bombardment-call" and e.get("delay") == 0):
            landed()
            landing = {"side": e["side"], "hits": 0}
        elif k == "spot" and "bombardment" in e and landing is not None:
            landing["hits"] += bool(e.get("success"))
        elif k == "bombardment-no-target" and landing is not None:
            landing["hits"] = 0
        elif k in ("bombardment-cancelled", "bombardment-lost") and e.get("side") in out:
            out[e["side"]]["bombardments"] += 1
            out[e["side"]]["wasted_bombardments"] += 1
        elif k == "bombardment-delayed" and e.get("side") in out and e.get("turn", 0) > last_turn:
            out[e["side"]]["bombardments"] += 1
            out[e["side"]]["wasted_bombardments"] += 1
    landed()
    for r in game.state.raids:  # due, but the game ended before their turn came
        if r["kind"] == "bombardment" and not r.get("done") and r.get("turn") is not None and r["side"] in out:
            out[r["side"]]["bombardments"] += 1
            out[r["side"]]["wasted_bombardments"] += 1
    after = recorder.after_turn1 or {}
    for uid, hex_ in recorder.fortified.items():
        side = units[uid].side
        out[side]["fortified_units"] += 1
        now = after.get(uid, hex_)
        if now is not None and now != hex_ and uid not in assaulted_t1:
            out[side]["fortified_units_leaving_turn1"] += 1
    no_fire = int(not any(out[s]["fires"] for s in SIDES))
    no_loss = int(not any(out[s]["losses"] for s in SIDES))
    for side in SIDES:
        out[side]["no_fire_game"], out[side]["no_loss_game"] = no_fire, no_loss
        out[side]["objective_progress"] = objective_progress(game, side, recorder.start_hex)
    for side, use in modifier_use(game).items():
        out[side]["modifiers"] = use
    return out


def modifier_use(game) -> dict:
    """Per side, how many of the side's spotting and fire rolls each row of the one modifier table
    (rules_tables.MODIFIERS) entered, by the row's name in the table's order: what shaped its shots."""
    from ..rules_tables import MODIFIERS, row_of
    units = game.state.units
    counts: dict = {side: {} for side in SIDES}
    for e in game.events:
        if e["e"] not in ("spot", "fire") or not e.get("modifiers") or e.get("target") not in units:
            continue
        side = other(units[e["target"]].side)  # the roller is the target's enemy (a raid's, a minefield's too)
        for key in e["modifiers"]:
            found = row_of(key)
            if found is not None:
                counts[side][found[0].name] = counts[side].get(found[0].name, 0) + 1
    order = [m.name for m in MODIFIERS]
    return {side: {n: c[n] for n in order if n in c} for side, c in counts.items()}


def modifier_rates(rows: list[dict]) -> list[dict]:
    """The modifiers of a batch, named by the table (label, \u00a7): how many of a side's rolls each entered a game."""
    from ..rules_tables import MODIFIERS
    n = len(rows)
    out = []
    for m in MODIFIERS:
        total = sum((r.get("modifiers") or {}).get(m.name, 0) for r in rows)
        if total:
            out.append({"modifier": m.name, "label": m.label, "section": m.section, "a_game": round(total / n, 3)})
    return out


def scoring_targets(game, side: str, unit) -> frozenset:
    """The hexes the side's victory terms reward this unit for reaching (an exit edge's last row,
    a zone, a map), from the count specs of its points and of the outcomes it wins that count it."""
    from . import victory
    from ..routes import count_specs, spec_targets  # the specs as the bots read them
    expression = game.ctx.scenario.raw["victory"].get("expression") or {}
    specs = [spec for term in expression.get("points", {}).get(side, ()) for spec in count_specs(term["value"])]
    specs += [spec for o in expression.get("outcomes", ()) if o["result"]["winner"] == side
              for spec in count_specs(o["when"])]
    hexes: set = set()
    for spec in specs:
        if spec.get("event") in ("on-map", "exited", "in-zone") and spec.get("units", {}).get("side", side) == side \
                and victory._matches(game, unit, spec.get("units", {})):
            hexes |= spec_targets(game.ctx.field, spec)
    return frozenset(hexes)


def objective_progress(game, side: str, start_hex: dict) -> float | None:
    """See the module docstring: the share of the distance to the places the side's terms reward
    that its scoring units covered (hexes, the nearest they came; an exit there counts as 0)."""
    from ..routes import reverse_costs
    units = game.state.units
    # Per scenario context, shared by the games of a batch: a unit's places depend only on the
    # scenario's terms and what a count's unit filter reads (victory._matches: side, card, type),
    # their distances only on the battlefield (most of the diagnostics' time before, in random games).
    memo = game.ctx.memo
    distances: dict = memo.setdefault("objective_distances", {})
    goals: dict = memo.setdefault("objective_goals", {})
    start: dict[str, float] = {}
    best: dict[str, float] = {}
    goal_of: dict = {}

    def goal(u):
        if u.id not in goal_of:
            key = (side, u.side, u.card, u.type.id)
            if key not in goals:
                targets = scoring_targets(game, side, u) if u.card >= 0 else frozenset()
                if targets and targets not in distances:
                    distances[targets] = reverse_costs(game.ctx.field, set(targets), None)
                goals[key] = distances.get(targets) if targets else None
            goal_of[u.id] = goals[key]
        return goal_of[u.id]

    for uid, h in start_hex.items():
        u = units[uid]
        if u.side == side and goal(u) is not None and h in goal(u):
            start[uid] = best[uid] = goal(u)[h]
    for e in game.events:
        k = e["e"]
        if k not in ("enter", "move", "overrun", "exit"):
            continue
        u = units.get(e.get("unit"))
        if u is None or u.side != side or goal(u) is None:
            continue
        d = goal(u).get(e.get("hex"))
        if d is None:
            continue
        start.setdefault(u.id, d)
        best[u.id] = min(best.get(u.id, d), d)
    total = sum(d for d in start.values() if d > 0)
    if not total:
        return None
    return round(sum(start[uid] - best[uid] for uid in start if start[uid] > 0) / total, 3)


def aggregate(per_game: list[dict]) -> dict:
    """Per side, the average over games of each diagnostic (objective progress over the games
    that have it), plus the share of fortified units that left on turn 1."""
    n = len(per_game)
    out = {}
    for side in SIDES:
        rows = [g[side] for g in per_game]
        d = {f: round(sum(r.get(f, 0) for r in rows) / n, 3) if n else 0.0 for f in FIELDS if f != "objective_progress"}
        progress = [r["objective_progress"] for r in rows if r["objective_progress"] is not None]
        d["objective_progress"] = round(sum(progress) / len(progress), 3) if progress else None
        d["modifiers"] = modifier_rates(rows)
        fortified = sum(r["fortified_units"] for r in rows)
        d["fortified_share_leaving_turn1"] = round(sum(r["fortified_units_leaving_turn1"] for r in rows)
                                                   / fortified, 3) if fortified else None
        out[side] = d
    return out


def engagement(summary: dict) -> dict | None:
    """A batch's engagement: fires and losses a game (both sides), the share of games without any
    fire and without any loss, and whether the bots engaged (neither share reaches ENGAGEMENT_SHARE)."""
    diag = summary.get("diagnostics")
    if not diag or "no_fire_game" not in diag.get("allied", {}):
        return None
    no_fire, no_loss = diag["allied"]["no_fire_game"], diag["allied"]["no_loss_game"]
    return {"fires_a_game": round(sum(diag[s]["fires"] for s in SIDES), 3),
            "losses_a_game": round(sum(diag[s]["losses"] for s in SIDES), 3),
            "games_without_fire": no_fire, "games_without_losses": no_loss,
            "engaged": no_fire < ENGAGEMENT_SHARE and no_loss < ENGAGEMENT_SHARE}


def not_engaged_warning(summary: dict) -> str | None:
    """The warning a batch of games with mostly no fire or no losses gets (simulate, the editor's
    quick game and balance lab show it), or None."""
    e = engagement(summary)
    if e is None or e["engaged"]:
        return None
    return (f"{NOT_ENGAGED} ({100 * e['games_without_fire']:.0f} % of the games without a shot, "
            f"{100 * e['games_without_losses']:.0f} % without a loss)")


def warnings(summary: dict) -> list[str]:
    """Plain-language warnings when a batch's result may measure the bots rather than the scenario."""
    diag = summary.get("diagnostics")
    if not diag:
        return []
    out = []
    idle = not_engaged_warning(summary)
    if idle:
        out.append(idle)
    for side in SIDES:
        d = diag[side]
        losses = sum(summary["sides"][side]["average_losses_by_type"].values())
        if d["overstack_losses"] >= 0.5 or (d["overstack_losses"] >= 0.2 and d["overstack_losses"] >= 0.1 * losses):
            out.append(f"{side}: {d['overstack_losses']:g} units a game destroyed by their own overstacking "
                       f"({100 * d['overstack_losses'] / max(losses, 1e-9):.0f} % of the side's losses)")
        share = d.get("fortified_share_leaving_turn1")
        if share is not None and share >= 0.2:
            out.append(f"{side}: {100 * share:.0f} % of the units set up fortified leave their position on turn 1")
        if d["wasted_bombardments"] >= 0.5:
            out.append(f"{side}: {d['wasted_bombardments']:g} of {d.get('bombardments', 0):g} bombardments a game "
                       "wasted (no target, no spotting succeeded, cancelled, lost or delayed past the end)")
        progress = d.get("objective_progress")
        if progress is not None and progress < 0.5 and summary["sides"][side]["win_rate"] < 0.5:
            out.append(f"{side}: its scoring units cover only {100 * progress:.0f} % of the way to its objective "
                       "on average: the side may be losing by not trying")
    if summary.get("games", 0) >= 10 and all(diag[s]["opportunity_fires"] == 0 for s in SIDES):
        out.append("no opportunity fire in any game: the bots may be interrupting rather than waiting")
    return out
