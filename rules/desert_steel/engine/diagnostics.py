"""Diagnostics of a batch: what says whether a result measures the scenario or the bots' habits.

Per game and per side (averaged over a batch by :func:`aggregate`):

- ``overstack_losses``: units destroyed at Morale step 4 by their own side's stacking (§8.52);
- ``fortified_units``, ``fortified_units_leaving_turn1``: units that began the game in an
  entrenchment or a bunker, and how many of them stood in another hex when turn 1 ended (those
  that left to close-assault are not counted: that is an attack, not a desertion);
- ``opportunity_fires``: opportunity fires made (§9.4, §14.11);
- ``move_and_fire``: move-and-fire operations chosen (§9.2);
- ``wasted_bombardments``: bombardments that came down with no target, were cancelled or lost
  (§16.33-16.36);
- ``objective_progress``: for a side whose victory terms reward reaching an exit edge or a zone,
  how far its best unit got, from 0 (never nearer than where it started) to 1 (reached or exited
  there); None for a side without such a goal.

The numbers come from the event log plus two snapshots (the start, and the end of turn 1) taken
by :class:`Recorder` while the game is played, so nothing is added to the engine's hot path.
"""
from __future__ import annotations

from .context import SIDES

FIELDS = ("overstack_losses", "fortified_units", "fortified_units_leaving_turn1", "opportunity_fires",
          "move_and_fire", "wasted_bombardments", "objective_progress")


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
    """The diagnostics of one finished game, per side."""
    out = {side: {"overstack_losses": 0, "fortified_units": 0, "fortified_units_leaving_turn1": 0,
                  "opportunity_fires": 0, "move_and_fire": 0, "wasted_bombardments": 0,
                  "objective_progress": None} for side in SIDES}
    units = game.state.units
    assaulted_t1: set[str] = set()
    last_bombard_side = None
    for e in game.events:
        k = e["e"]
        if k == "destroyed" and e.get("how") == "overstacked":
            out[units[e["unit"]].side]["overstack_losses"] += 1
        elif k == "opportunity-fire":
            out[units[e["unit"]].side]["opportunity_fires"] += 1
        elif k == "action":
            a = e["action"]
            if a[0] == "op" and len(a) > 2:
                if a[2] == "move-fire":
                    out[e["side"]]["move_and_fire"] += 1
                elif a[2] == "assault" and e["t"] == 1:
                    assaulted_t1.add(a[1])
            elif a[0] == "join" and e["t"] == 1 and len(a) > 1:
                assaulted_t1.add(a[1])
        elif k in ("bombardment", "bombardment-call"):
            last_bombard_side = e.get("side")
        elif k in ("bombardment-no-target",) and last_bombard_side:
            out[last_bombard_side]["wasted_bombardments"] += 1
        elif k in ("bombardment-cancelled", "bombardment-lost") and e.get("side") in out:
            out[e["side"]]["wasted_bombardments"] += 1
    after = recorder.after_turn1 or {}
    for uid, hex_ in recorder.fortified.items():
        side = units[uid].side
        out[side]["fortified_units"] += 1
        now = after.get(uid, hex_)
        if now is not None and now != hex_ and uid not in assaulted_t1:
            out[side]["fortified_units_leaving_turn1"] += 1
    for side in SIDES:
        out[side]["objective_progress"] = _progress(game, side, recorder)
    return out


def _progress(game, side: str, recorder: Recorder) -> float | None:
    from .bots import goal_distance  # the bots' reading of the victory terms (no import cycle at load)
    goal = goal_distance(game, side)
    if not goal:
        return None
    units = game.state.units
    first: dict[str, float] = {}
    best: dict[str, float] = {}
    for uid, h in recorder.start_hex.items():
        if units[uid].side == side and h in goal:
            first[uid] = best[uid] = goal[h]
    reached = False
    for e in game.events:
        k = e["e"]
        if k not in ("enter", "move", "overrun", "exit"):
            continue
        uid = e.get("unit")
        u = units.get(uid)
        if u is None or u.side != side or u.card < 0:
            continue
        d = goal.get(e.get("hex"), None)
        if d is None:
            continue
        if k == "exit" and d == 0:
            reached = True
        first.setdefault(uid, d)
        best[uid] = min(best.get(uid, d), d)
    if reached or any(d == 0 for d in best.values()):
        return 1.0
    gains = [(first[uid] - best[uid]) / first[uid] for uid in best if first[uid] > 0]
    return round(max(gains), 3) if gains else 0.0


def aggregate(per_game: list[dict]) -> dict:
    """Per side, the average over games of each diagnostic (objective progress over the games
    that have it), plus the share of fortified units that left on turn 1."""
    n = len(per_game)
    out = {}
    for side in SIDES:
        rows = [g[side] for g in per_game]
        d = {f: round(sum(r[f] for r in rows) / n, 3) if n else 0.0 for f in FIELDS if f != "objective_progress"}
        progress = [r["objective_progress"] for r in rows if r["objective_progress"] is not None]
        d["objective_progress"] = round(sum(progress) / len(progress), 3) if progress else None
        fortified = sum(r["fortified_units"] for r in rows)
        d["fortified_share_leaving_turn1"] = round(sum(r["fortified_units_leaving_turn1"] for r in rows)
                                                   / fortified, 3) if fortified else None
        out[side] = d
    return out


def warnings(summary: dict) -> list[str]:
    """Plain-language warnings when a batch's result may measure the bots rather than the scenario."""
    diag = summary.get("diagnostics")
    if not diag:
        return []
    out = []
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
            out.append(f"{side}: {d['wasted_bombardments']:g} bombardments a game wasted (no target, cancelled "
                       "or lost)")
        progress = d.get("objective_progress")
        if progress is not None and progress < 0.5 and summary["sides"][side]["win_rate"] < 0.5:
            out.append(f"{side}: its best unit gets only {100 * progress:.0f} % of the way to its objective "
                       "on average: the side may be losing by not trying")
    if summary.get("games", 0) >= 10 and all(diag[s]["opportunity_fires"] == 0 for s in SIDES):
        out.append("no opportunity fire in any game: the bots may be interrupting rather than waiting")
    return out
