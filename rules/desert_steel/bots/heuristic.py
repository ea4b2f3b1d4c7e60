"""The heuristic bot, second version (``heuristic``; the first stays as ``heuristic-v1``).

What it adds to the first (issue 15), each for a habit that made balance tables measure the
bot rather than the scenario:

- a **stance** per side and turn, read from the victory terms: the side that would win if the
  game ended now holds (its fortified units stay put, its other units block the enemy's way to
  its objective, it fires when the shot is good and otherwise stays face-up for opportunity
  fire); the other side attacks (towards its objective, or the enemy);
- **stacking** counted on every unit, passengers included, against both limits (§8.52, §13.13);
- its **own minefields** avoided unless the scenario exempts it (§15.14);
- **deadlines**: an objective that only counts until a turn (XIV's exits by turn 10) is pursued
  while it counts, and a unit that needs all the turns left to get there moves instead of firing;
- **paths** planned over the movement points left (around blockers, minefields and overstacked
  hexes) instead of one greedy step at a time;
- **move-and-fire** for vehicles that can afford half their movement;
- **interrupts** only when the interrupting formation has a good shot at the formation about to
  act (otherwise the card waits and its units stay face-up);
- preplanned **bombardments and air strikes** timed to the expected contact.

It copes with actions it does not know (new rules add new kinds): it never picks them by
accident, and in a decision it has no handler for it takes a 'pass'-like action if there is one.
"""
from __future__ import annotations

import heapq
import math
import random

from ..engine import victory
from . import forecast, tactics
from .tactics import HANDLERS
from ..routes import axial_distance, count_specs, reverse_costs, spec_targets, step_table
from ..engine.context import other
from ..engine.facing import sector
from ..engine.seats import register_bot

# actions that leave things as they are, in order of preference, for decisions the bot does not know
_NEUTRAL = ("pass", "opp-pass", "react-pass", "end", "stop", "hold", "decline", "cancel", "go")


def fallback(actions: list) -> tuple:
    """A safe choice among actions the bot has no rule for: a neutral one, else the first."""
    kinds = {a[0]: a for a in reversed(actions)}
    for k in _NEUTRAL:
        if k in kinds:
            return kinds[k]
    return actions[0]


def _winner(game):
    """victory.evaluate(game)'s winner, kept per context under all that its point terms and
    count conditions read of the position: each unit's id, card, type, side, status, hex,
    suppression and fate, and the formations shaken (the same positions come back at the start
    of turns game after game: 155 of 221 evaluations in 8 games of I). Not for a path_exists
    condition, which reads lines of sight (the caller asks victory.evaluate). The key is made of
    the side's view alone: an entry another seat finds is what its own view gives."""
    key = _position_key(game.state)
    if key is None:  # a fate holding something unhashable: evaluate, unkept
        return victory.evaluate(game)["winner"]
    winners = game.ctx.memo.setdefault("bots.winners", {})
    winner = winners.get(key)
    if winner is None:
        if len(winners) > 4096:
            winners.clear()
        winner = winners[key] = victory.evaluate(game)["winner"]
    return winner


def _side_specs(game, side: str) -> tuple:
    """The count specs of the side's victory terms (its points' and the outcomes it wins by) that
    count the side's own units, in the terms' order: read of the scenario's victory expression
    alone (read-only, the context's own), kept per context (a walk of the whole expression,
    made anew for each side and turn, cost more than the rest of _specs)."""
    kept = game.ctx.memo.setdefault("bots.side_specs", {})
    specs = kept.get(side)
    if specs is None:
        expression = game.ctx.scenario.raw["victory"].get("expression", {})
        specs = [spec for term in expression.get("points", {}).get(side, ()) for spec in count_specs(term["value"])]
        specs += [spec for outcome in expression.get("outcomes", ())
                  if outcome["result"]["winner"] == side for spec in count_specs(outcome["when"])]
        specs = kept[side] = tuple(s for s in specs if s.get("units", {}).get("side", side) == side)
    return specs


def _position_key(state):
    """All that victory's point terms and count conditions read of a position (each unit's id,
    card, type, side, status, hex, suppression and fate, the formations shaken), as a key; None
    when a fate holds something unhashable."""
    try:
        key = (tuple([(u.id, u.card, u.type.id, u.side, u.status, u.hex, u.suppressed,
                       u.fate and tuple(u.fate.items())) for u in state.units.values()]),
               frozenset([c for c, f in state.formations.items() if f.shaken]))
        hash(key)
    except TypeError:
        return None
    return key


def hex_steps(field, sources) -> dict:
    """reverse_costs(field, sources, None), the same distances, by breadth: every step costs 1
    without a unit type, so the hexes come in rings and a heap has nothing to order (a holding
    side's front is a new set of hexes most turns, and its distances cover the whole map: on
    I's map 0.55 ms against the heap's 2.6)."""
    steps = step_table(field, None)
    dist = {k: 0.0 for k in sources if k in steps}
    ring, d = list(dist), 0.0
    while ring:
        d += 1.0
        out = []
        for k in ring:
            for n, _ in steps[k]:
                if n not in dist:
                    dist[n] = d
                    out.append(n)
        ring = out
    return dist


class _Position:
    """What victory's point terms read of a game (its context, its units and formations: count()
    and the terms over it; conditions, path_exists, read more and are not asked of it), with a
    units table of its own: a unit replaced in it changes nothing of the game's. Cheaper than
    clone(), which copies the event log."""

    class _State:
        __slots__ = ("units", "formations")

    __slots__ = ("ctx", "state")

    def __init__(self, game):
        self.ctx = game.ctx
        self.state = self._State()
        self.state.units = dict(game.state.units)
        self.state.formations = game.state.formations


def _steepest(hexes, goal: dict) -> str:
    """The hex with the lowest goal distance (99 off the map of distances), the lowest id on a
    tie: min by (distance, hex) without a key tuple made per hex (the corridor's inner loop)."""
    best, low = None, None
    for n in hexes:
        d = goal.get(n, 99)
        if low is None or d < low or (d == low and n < best):
            best, low = n, d
    return best


def _downhill(field, goal: dict) -> dict:
    """Hex -> its _steepest neighbour down ``goal`` (filled as asked), kept per battlefield with
    the goal table itself (by identity, the table held: its id is not reused while it is kept).
    A goal table is made once and only read (the goal caches hand out the same object), so the
    way down from a hex is the same at every asking: a holding side's corridor walks its four
    ways down the enemy's goal distance anew each turn, up to 60 hexes each, over hexes walked
    the turn and the game before. Read of the table and the board alone: what a bot finds here
    is what its own walk over the table it holds gives."""
    kept = field.memo.setdefault("bots.downhill", {})
    held = kept.get(id(goal))
    if held is None or held[0] is not goal:
        if len(kept) > 256:  # tables of transient goals come and go
            kept.clear()
        held = kept[id(goal)] = (goal, {})
    return held[1]


@tactics.takes_shared
class HeuristicBot2:
    """The current heuristic bot (the module docstring): its own stance, goals, moves, cards and
    raids; the odds and the answers it shares with ``heuristic-v1`` from tactics.py."""
    name = "heuristic"
    FIRE = 0.3  # a shot worth at least this (expected hits, destroyed = 1) beats waiting
    ATTACK_FIRE = 0.12  # attacking, in place (at its objective, or in range): take any real chance
    HOLD_FIRE = 0.35  # holding: below this, a ready enemy is better left to opportunity fire
    INTERRUPT = 0.45  # interrupt only to shoot first at the formation about to act this well
    URGENT_INTERRUPT = True  # interrupt to get a unit moving that needs every turn left
    GUNNER = 4  # an enemy whose best factor reaches this kills a transport at close range
    GUNNER_DETOUR = 3  # MP a transport's way pays for each hex within 2 of a seen enemy gunner
    SAFE_PASS = 10  # hexes from the nearest enemy beyond which a move may cross a full friendly hex

    def __init__(self, seed: int = 0, forecasting: bool = False):
        """``forecasting``: a bot of a forecast (it forecasts nothing itself)."""
        self.rng = random.Random(seed)
        self._spots: dict | None = None  # spotting chances during one choose(): the game stands still
        self._stances: dict = {}
        self._memo: dict = {}
        self._view_cache: tuple | None = None
        self._tried: dict = {}  # (turn, cards, op) -> times chosen in that activation
        self._route: tuple | None = None  # (unit id, [hexes still to go])
        self._forecasting = forecasting

    # --- the decision loop --------------------------------------------------------------------

    def choose(self, game, actions: list) -> tuple:
        name = HANDLERS.get(game.mode)
        handler = getattr(self, name) if name else None
        self._spots = {}
        try:
            if handler is not None:
                choice = handler(game, actions)
            else:
                choice = self._unknown(game, actions)
        finally:
            self._spots = None
        return choice if choice in actions else fallback(actions)

    def _unknown(self, game, actions):
        """A decision the bot has no rule for. Facing choices (a kind naming 'fac', a hexside
        0-5) turn the unit towards the nearest enemy; anything else takes a neutral action."""
        facings = [a for a in actions if "fac" in str(a[0]) and len(a) > 1 and isinstance(a[-1], int)]
        uid = getattr(game.decision, "unit", None)
        if facings and uid in game.state.units and game.state.units[uid].hex:
            u = game.state.units[uid]
            axial = game.ctx.field.board.axials
            enemies = [e for e in game.state.units.values() if e.side != u.side and e.on_map and not e.hidden]
            if enemies:
                e = min(enemies, key=lambda x: axial_distance(axial[x.hex], axial[u.hex]))
                if e.hex != u.hex:
                    want = sector(axial[u.hex], axial[e.hex])
                    return min(facings, key=lambda a: (min((a[-1] - want) % 6, (want - a[-1]) % 6), a))
        return fallback(actions)

    # --- what the side wants ------------------------------------------------------------------

    def stance(self, game, side: str) -> str:
        """'hold' when the side would win if the game ended now, else 'attack'; read each turn
        (a path test, XIV's, is costly: read once)."""
        key = (game.state.turn, side)
        if key in self._stances:
            return self._stances[key]
        expression = game.ctx.scenario.raw["victory"].get("expression")
        if not expression:
            return "attack"
        if "costly" not in self._memo:
            self._memo["costly"] = "path_exists" in str(expression)
        if self._memo["costly"]:
            key = (0, side)
        if key not in self._stances:
            try:
                winner = victory.evaluate(game)["winner"] if self._memo["costly"] else _winner(game)
            except Exception:  # noqa: BLE001 - an expression the engine cannot read mid-game: attack
                winner = None
            self._stances[key] = "hold" if winner == side else "attack"
        self._stances[(game.state.turn, side)] = self._stances[key]
        return self._stances[key]

    def _specs(self, game, side: str) -> list:
        """The count specs of the side's victory terms still open this turn (a by_turn past
        no longer rewards anything)."""
        key = ("specs", side, game.state.turn)
        if key not in self._memo:
            expression = game.ctx.scenario.raw["victory"].get("expression", {})
            turn = game.state.turn
            specs = [s for s in _side_specs(game, side) if "by_turn" not in s or turn <= s["by_turn"]]
            cap = self._points_needed(game, side)
            if cap is not None:
                terms = expression.get("points", {})
                if victory.points(game, side, terms, {}) >= cap + 2:
                    # enough already left the map (XIV: 6 wins): the rest stay to keep the way open
                    specs = [s for s in specs if s["event"] != "exited"]
            self._memo[key] = specs
        return self._memo[key]

    def _kills_score(self, game, side: str) -> bool:
        """The side's victory terms count enemy losses (VII: one point a British unit destroyed):
        a hit on the way is progress too, not only the hexes made towards the exit."""
        key = ("kills-score", side)
        if key not in self._memo:
            expression = game.ctx.scenario.raw["victory"].get("expression") or {}
            specs = [spec for term in expression.get("points", {}).get(side, ()) for spec in count_specs(term["value"])]
            specs += [spec for outcome in expression.get("outcomes", ())
                      if outcome["result"]["winner"] == side for spec in count_specs(outcome["when"])]
            self._memo[key] = any(s.get("event") in ("eliminated", "destroyed")
                                  and s.get("units", {}).get("side") == other(side) for s in specs)
        return self._memo[key]

    def _points_needed(self, game, side: str):
        """The fixed number of points that wins for the side (an outcome 'side points >= N'), or None."""
        expression = game.ctx.scenario.raw["victory"].get("expression", {})
        needs = []
        for o in expression.get("outcomes", ()):
            cmp = o["when"].get("cmp") if hasattr(o["when"], "get") else None
            if o["result"]["winner"] == side and cmp and len(cmp) == 3 and cmp[1] in (">=", ">") \
                    and hasattr(cmp[0], "get") and cmp[0].get("points") == side and isinstance(cmp[2], (int, float)):
                needs.append(cmp[2] + (1 if cmp[1] == ">" else 0))
        return min(needs) if needs else None

    def _unit_specs(self, game, side: str, unit=None) -> list:
        """The side's open specs, only those that count this unit when one is given (II's exits
        count Matildas only: the other British units have no reason to leave)."""
        specs = self._specs(game, side)
        if unit is None or not specs:
            return specs
        key = ("unit-specs", side, unit.type.id, unit.card, game.state.turn)
        if key not in self._memo:
            self._memo[key] = [s for s in specs if victory.matches(game, unit, s.get("units", {}))
                               and (s["event"] != "exited" or self._exit_pays(game, unit, s))]
        return self._memo[key]

    def _exit_pays(self, game, u, spec) -> bool:
        """Whether this unit leaving by the spec's edge raises its side's points over the enemy's,
        all terms counted (IV: the exit scores 1, but it also counts as a loss, -1). Asked of the
        victory terms themselves, of a copy of the game with the unit off the map."""
        key = ("exit-pays", u.type.id, u.card, id(spec))
        if key not in self._memo:
            self._memo[key] = self._exit_raises_margin(game, u, spec)
        return self._memo[key]

    @staticmethod
    def _exit_raises_margin(game, u, spec, shared: bool = True) -> bool:
        """_exit_pays' answer in this position, kept per context (``shared``) under all that it
        reads: the position as _winner keys it (the unit's hex and status among it), the turn (the
        exit's fate, which a by_turn spec reads), the unit and the spec (the scenario's own, alive
        as long as the context). The games of a scenario ask it in the same early positions: 21
        answers for 96 askings in 10 games of I."""
        terms = game.ctx.scenario.raw["victory"].get("expression", {}).get("points", {})
        if not terms or u.status not in ("on-map", "off-map"):
            return True
        position = _position_key(game.state) if shared else None
        kept = game.ctx.memo.setdefault("bots.exit_pays", {}) if position is not None else None
        key = (position, game.state.turn, u.id, id(spec))
        if kept is not None and key in kept:
            return kept[key]

        def margin(g):
            cache: dict = {}
            return victory.points(g, u.side, terms, cache) - victory.points(g, other(u.side), terms, cache)
        map_id = spec.get("map") or (game.ctx.field.board.cells[u.hex].map_id if u.hex else None)
        gone = _Position(game)  # the unit put off the map on a copy: the bot's view stays as it was handed
        w = gone.state.units[u.id] = u.copy()
        w.status = "exited"
        w.fate = {"turn": game.state.turn, "edge": spec["edge"], "map": map_id,
                  "counts_as_loss": victory.exit_counts_as_loss(game.ctx.exits, u.side, spec["edge"], map_id)}
        pays = margin(gone) > margin(game)
        if kept is not None:
            if len(kept) > 4096:
                kept.clear()
            kept[key] = pays
        return pays

    def _goal_distance(self, game, side: str, unit_type=None, unit=None) -> dict:
        """Hex -> MP (for a unit type; hexes without one) to what the side's open victory specs
        reward reaching; only the specs counting ``unit`` when it is given (asked a few thousand
        times a game: read once a decision, while the game stands still)."""
        now = self._spots
        if now is None:
            return self._find_goal_distance(game, side, unit_type, unit)
        key = ("goal", id(game), side, unit_type.id if unit_type else None, unit.card if unit else None,
               unit.type.id if unit else None)
        hit = now.get(key)
        if hit is None:
            hit = now[key] = self._find_goal_distance(game, side, unit_type, unit)
        return hit

    def _find_goal_distance(self, game, side: str, unit_type, unit) -> dict:
        mines = self._mine_costs(game, side)
        if unit_type is not None and unit_type.unit_class == "transport":
            mines = self._gunner_costs(game, side) | mines
        mkey = ("goal", side, unit_type.id if unit_type else None, unit.card if unit else None,
                unit.type.id if unit else None, game.state.turn, len(game.ctx.field.wire), mines)
        hit = self._memo.get(mkey)
        if hit is not None:  # its specs were read (and kept, per turn) when it was made: the key covers them
            return hit
        specs = self._unit_specs(game, side, unit)
        goals = game.ctx.field.memo.setdefault("bots.bot2_goals", {})
        key = (game.ctx.scenario.id, side, unit_type.id if unit_type else None, frozenset(game.ctx.field.wire),
               tuple(sorted(id(s) for s in specs)), mines)
        if key in goals:
            self._memo[mkey] = goals[key]
            return goals[key]
        targets: set[str] = set()
        for spec in specs:
            targets |= spec_targets(game.ctx.field, spec)
        if len(goals) > 1024:  # each newly revealed minefield makes new distances: keep the cache bounded
            goals.clear()
        goals[key] = reverse_costs(game.ctx.field, targets, unit_type, dict(mines)) if targets else {}
        self._memo[mkey] = goals[key]
        return goals[key]

    def _gunner_costs(self, game, side: str) -> frozenset:
        """(hex, cost) of the hexes next to a seen enemy gunner, for a transport's way to its place:
        round them, not through them (a carrier is defence 1, its load dies with it, §8.4, and
        where losses score for the enemy each costs points: XI's carriers took the shortest way
        to map A through the Axis positions and 4 a game died on it against a random Axis)."""
        key = ("gunner-costs", side, game.state.turn, len(game.state.played))
        if key not in self._memo:
            board = game.ctx.field.board
            guns = {x.hex for x in game.state.units.values()
                    if x.side != side and x.status == "on-map" and not x.hidden and x.carried_by is None
                    and max(x.type.anti_infantry or 0, x.type.anti_vehicle or 0) >= self.GUNNER}
            near = set(guns)
            for h in guns:
                for n in board.neighbours(h):
                    near.add(n)
                    near.update(board.neighbours(n))
            self._memo[key] = frozenset((h, self.GUNNER_DETOUR) for h in near)
        return self._memo[key]

    def _mine_costs(self, game, side: str) -> frozenset:
        """(hex, cost) of the minefields the side knows of, as the move score prices them: a
        revealed enemy one attacks every unit entering (§15.13), its own only on 2 or 12 (§15.14).
        The way to an objective goes round them (a road through a revealed minefield stopped
        Tobruk's panzers four hexes short of the edge for the rest of the game)."""
        fields = game.state.minefields
        if not fields:
            return frozenset()
        # keyed on where they are: a search sample redraws unrevealed ones, and one can be cleared
        key = ("mines", side, tuple((m["hex"], m["side"], m["active"], m["revealed"]) for m in fields))
        if key not in self._memo:
            own = 0 if game.exempt_from_own_mines(side) else 3
            self._memo[key] = frozenset((m["hex"], own if m["side"] == side else 6) for m in fields
                                        if m["active"] and (m["revealed"] or m["side"] == side)
                                        and (own or m["side"] != side))
        return self._memo[key]

    def _deadline(self, game, side: str) -> int:
        turns = [s["by_turn"] for s in self._specs(game, side) if "by_turn" in s]
        return min(turns) if turns else game.ctx.scenario.turns

    PACE = 1.5  # turns a move really takes for one on a clear board (stops, jams, opportunity fire)

    def _slack(self, game, u):
        """Turns the unit could spare on its way to its side's objective (deadline, distance in
        MP at a realistic pace), or None when it has no place to reach or is there."""
        goal = self._goal_distance(game, u.side, u.type, u)
        if not goal or u.hex is None:
            return None
        d = goal.get(u.hex, 99)
        if d <= 0:
            return None
        mp = max(1.0, game.ctx.field.allowance(u.type))
        return self._deadline(game, u.side) - game.state.turn + 1 - self.PACE * d / mp

    def _urgent(self, game, u) -> bool:
        """The unit needs (nearly) every turn left to reach its side's objective, and can still
        make it moving every turn at full speed (a hopeless walker, Tobruk's infantry at one hex
        a turn, trickling forward alone only dies on the way: better it fights or rides)."""
        slack = self._slack(game, u)
        if slack is None or slack > 1 or self._kills_score(game, u.side):
            return False  # where enemy losses score too, a shot on the way is worth a hex
        return slack + (self.PACE - 1) * self._turns_to_goal(game, u) >= 0

    def _turns_to_goal(self, game, u) -> float:
        goal = self._goal_distance(game, u.side, u.type, u)
        return goal.get(u.hex, 99) / max(1.0, game.ctx.field.allowance(u.type))

    def _fortified(self, game, u) -> bool:
        return game.entrenched(u) or game.bunker_of(u) is not None

    def _block_distance(self, game, side: str) -> dict:
        """Hex -> distance to the enemy's way to its objective (the hexes its leading units would
        cross), for a holding side's free units; empty when the enemy has no place to reach."""
        enemy = other(side)
        memo = self._memo  # one bot plays one game (and its clones, in search): per turn is enough
        key = ("block", side, game.state.turn)
        if key in memo:
            return memo[key]
        goal = self._goal_distance(game, enemy)
        out: dict = {}
        if goal:
            board = game.ctx.field.board
            starts = [e.hex for e in game.state.units.values() if e.side == enemy and e.on_map and not e.hidden]
            if not starts:
                starts = sorted({h for f in game.state.formations.values() if f.side == enemy
                                 for h in f.entry_zone})
            starts = sorted(starts, key=lambda h: goal.get(h, 99))[:4]
            downhill = _downhill(game.ctx.field, goal)
            corridor: set[str] = set()
            for h in starts:  # follow the steepest way down the enemy's goal distance
                seen = 0
                while h in goal and goal[h] > 0 and seen < 60:
                    corridor.add(h)
                    down = downhill.get(h)
                    if down is None:
                        down = downhill[h] = _steepest(board.neighbours(h), goal)
                    h = down
                    seen += 1
                if h in goal:
                    corridor.add(h)
            # the half of the way nearer the objective: blockers wait for the enemy, not run into it
            far = max((goal[h] for h in corridor), default=0)
            front = {h for h in corridor if goal[h] <= max(2, far / 2)}
            if corridor:  # the same front comes back turn after turn: shared per battlefield
                fronts = game.ctx.field.memo.setdefault("bots.bot2_fronts", {})
                fkey = frozenset(front or corridor)
                if fkey not in fronts:
                    if len(fronts) > 256:
                        fronts.clear()
                    fronts[fkey] = hex_steps(game.ctx.field, fkey)
                out = fronts[fkey]
        memo[key] = out
        return out

    # --- cards --------------------------------------------------------------------------------

    def _interrupt(self, game, actions):
        s = game.state
        me = game.side_to_act
        top = s.stack[-1]
        if s.formations[top].side == me or len(actions) == 1:
            return ("pass",)
        threat = {top} | set(self._subordinates(game, top))
        targets = [e for e in s.units.values() if e.card in threat and e.on_map and not e.hidden]
        cards = sorted((a for a in actions if a[0] == "interrupt"), key=lambda a: game.priority(a[1]))
        for a in cards:
            mine = [a[1]] if s.formations[a[1]].kind != "command" else self._subordinates(game, a[1])
            if self._best_shot_at(game, mine, targets) >= self.INTERRUPT:
                return a
            if self.stance(game, me) == "attack" and self.URGENT_INTERRUPT and any(
                    self._urgent(game, u) for c in mine for u in game.units_of(c) if u.ready):
                return a
        return ("pass",)

    def _subordinates(self, game, card: int) -> list[int]:
        c = game.ctx.model.cards.get(card)
        return [x.number for x in getattr(c, "subordinates", ()) or () if x.number in game.state.formations]

    def _best_shot_at(self, game, cards, targets) -> float:
        if not targets:
            return 0.0
        wanted = {t.id for t in targets}
        table = game.ctx.table(game.state.visibility)
        places = [table.index[t.hex] for t in targets]
        best = 0.0
        for c in cards:
            if game.state.formations[c].shaken:
                continue
            for u in game.units_of(c):
                if not u.ready:
                    continue
                sees = table.row(u.hex)
                if not any(sees[i] for i in places):
                    continue  # none of them in its line of sight: game.targets(u) holds none of them
                for t in game.targets(u):  # the engine's scan, line of sight first: cheaper than can_target each
                    if t.id in wanted:
                        for m in game.fire_modes(u, t):
                            best = max(best, self.expected_effect(game, u, t, mode=m))
        return best

    # --- activation ---------------------------------------------------------------------------

    def _activation(self, game, actions):
        choice = self._activation_choice(game, actions)
        if choice[0] == "op":  # an op withdrawn (nothing to load, no target) must not come back forever
            key = (game.state.turn, tuple(getattr(game.decision, "cards", ())), choice)
            self._tried[key] = self._tried.get(key, 0) + 1
            if len(self._tried) > 4096:
                self._tried.clear()
        return choice

    def _activation_choice(self, game, actions):
        key = (game.state.turn, tuple(getattr(game.decision, "cards", ())))
        ops = [a for a in actions if a[0] == "op" and len(a) > 2 and self._tried.get(key + (a,), 0) < 3]
        if not ops:
            return ("end",) if ("end",) in actions else fallback(actions)
        units = game.state.units
        enter = [a for a in ops if units[a[1]].status == "off-map" and a[2] in ("move", "transport")]
        if enter:  # arrival cannot wait (§5.1); carriers first, so infantry rides in
            return min(enter, key=lambda a: (a[2] != "transport", a[1]))
        side = game.side_to_act
        for a in ops:
            if a[2] == "call-bombardment" and self._bombardment_pays(game, units[a[1]]):
                return a
        holding = self.stance(game, side) == "hold"
        by_unit: dict[str, dict[str, tuple]] = {}
        for a in ops:
            by_unit.setdefault(a[1], {})[a[2]] = a
        # the best shot of each unit (direct or indirect)
        shots = []
        for uid, kinds in by_unit.items():
            u = units[uid]
            value, action = self._unit_shot(game, u, kinds)
            if action is not None:
                shots.append((value, uid, action))
        shots.sort(key=lambda x: (-x[0], x[1]))
        # urgent movers first: a unit that needs every turn left does not stop to shoot
        for uid in sorted(by_unit):
            u, kinds = units[uid], by_unit[uid]
            if "move" in kinds and self._urgent(game, u) and self._wants_to_move(game, u):
                return self._ride(game, u, ops) or kinds["move"]
        for value, uid, action in shots:
            u = units[uid]
            need = self.FIRE
            racing = bool(self._goal_distance(game, other(side)))  # the enemy heads for a place: stop it now
            if holding and racing and not self._wants_to_move(game, u):
                need = self.ATTACK_FIRE
            elif holding and self._only_fresh_targets(game, u):
                need = self.HOLD_FIRE  # a ready enemy will move or fire: opportunity fire may do better
            elif not holding and not self._wants_to_move(game, u):
                need = self.ATTACK_FIRE  # attacking with nowhere better to be: every chance counts
            elif not holding:
                slack = self._slack(game, u)
                goal = self._goal_distance(game, side, u.type, u)
                if slack is not None and not self._open_step(game, u, goal):
                    need = self.ATTACK_FIRE  # the enemy bars the way on: shooting it is the progress
                elif slack is not None and not self._kills_score(game, side):
                    need = self.FIRE + 0.6 / max(slack, 0.5)  # a turn spent shooting is a turn less to get there
            if value >= need:
                return action
        for a in ops:  # infantry assaults enemy vehicles it may reach (§14.1)
            if a[2] == "assault":
                u = units[a[1]]
                for h in game.assault_hexes(u):
                    if any(self._assault_value(game, u, v) > 0.3 for v in game.state.at(h) if game.armour(v)):
                        return a
        for a in ops:  # tanks overrun soft targets nearby (§14.2)
            if a[2] == "overrun" and not (holding and self._fortified(game, units[a[1]])):
                u = units[a[1]]
                near = [e for e in game.state.units.values() if e.side != u.side and e.on_map and not e.hidden
                        and not e.type.is_vehicle and not e.suppressed
                        and game.ctx.field.board.distance(u.hex, e.hex) <= max(1, (u.type.movement or 1) // 3)]
                if near:
                    return a
        for a in ops:  # transports carry what wants to go somewhere (§13.3)
            if a[2] == "transport":
                carrier = units[a[1]]
                riders = [p for p in game.riders(carrier) if game.can_load(carrier, p, [])]
                if any(self._rides(game, p) for p in riders):
                    return a
        for a in ops:
            if a[2] == "engineer" and self._engineer_plan(game, units[a[1]]) is not None:
                return a
        for uid in sorted(by_unit):
            u, kinds = units[uid], by_unit[uid]
            if "move" not in kinds and "move-fire" not in kinds:
                continue
            if not self._wants_to_move(game, u):
                continue
            if "move-fire" in kinds and self._move_fire_pays(game, u):
                return kinds["move-fire"]
            if "move" in kinds:
                return self._ride(game, u, ops) or kinds["move"]
        dig = [a for a in ops if a[2] == "entrench" and not self._enemy_near(game, units[a[1]], 6)]
        if dig:
            return dig[0]
        face = self._facing_change(game, actions)
        if face is not None:
            return face
        return ("end",) if ("end",) in actions else ops[0]

    def _ride(self, game, u, ops):
        """A transport op of a faster carrier in the unit's hex that can take it (§13.3), for a
        unit on foot that wants to go somewhere: walking off would leave the carrier behind
        (Tobruk's infantry, 1 MP a turn, walked 20 hexes beside empty trucks)."""
        if u.type.is_vehicle or u.hex is None:
            return None
        field = game.ctx.field
        units = game.state.units
        for a in ops:
            if a[2] == "transport":
                carrier = units[a[1]]
                if carrier.hex == u.hex and field.allowance(carrier.type) > field.allowance(u.type) \
                        and game.can_load(carrier, u, []):
                    return a
        return None

    def _opportunity(self, game, actions):
        """Fire at a moving enemy when it pays; a mover on its way to an objective is worth a
        long shot (each hex it makes is a step towards the enemy's points)."""
        mover = game.state.units[game.decision.mover]
        threshold = 0.1 if self._goal_distance(game, mover.side, None, mover) else 0.25
        choice = tactics.opportunity(self, game, actions, threshold)
        if choice[0] == "opp-pass":  # a unit that cannot act again this turn loses nothing by firing
            best = self.FREE_SHOT
            for a in actions:
                if a[0] == "opp-fire" and self._spent(game, game.state.units[a[1]]):
                    v = self.expected_effect(game, game.state.units[a[1]], mover, opportunity=True,
                                             mode=a[2] if len(a) > 2 else None)
                    if v > best:
                        best, choice = v, a
        return choice

    FREE_SHOT = 0.05  # an opportunity shot by a unit with nothing left to do this turn

    def _spent(self, game, u) -> bool:
        """The unit's formation has been activated this turn and nothing can activate it again
        (its card is set aside, no command card in hand or on the stack has it under it, §6.54):
        a face-up unit of it (one that did not operate) has no other use this turn than
        opportunity fire. XII: the Allies always act first, so the Axis moves past face-up Allied
        units that stood still, and the heuristic let every such shot go (none worth 0.25 under
        the dust's -1 on every roll): no opportunity fire in 24 games."""
        s = game.state
        if u.card not in s.played or u.card in s.stack or u.card in s.hands[u.side]:
            return False
        return not any(s.formations[c].kind == "command" and u.card in self._subordinates(game, c)
                       for c in list(s.hands[u.side]) + list(s.stack) if c in s.formations)

    def _facing_change(self, game, actions):
        """§8.22 (a free facing change, where the engine offers one as ("face", unit, hexside)):
        turn a unit that stays to face the nearest enemy it now shows a flank to."""
        faces = [a for a in actions if a[0] == "face" and len(a) == 3]
        if not faces:
            return None
        axial = game.ctx.field.board.axials
        enemies = [axial[e.hex] for e in game.state.units.values()
                   if e.side != game.side_to_act and e.on_map and not e.hidden]
        if not enemies:
            return None
        for uid in sorted({a[1] for a in faces}):
            u = game.state.units[uid]
            here = axial[u.hex]
            near = min(enemies, key=lambda e: (axial_distance(e, here), e))
            if near == here or axial_distance(near, here) > 12:
                continue
            want = sector(here, near)
            if min((u.facing - want) % 6, (want - u.facing) % 6) > 1 and ("face", uid, want) in actions:
                return ("face", uid, want)
        return None

    def _bombardment_pays(self, game, fo) -> bool:
        """§16.35-16.36: an on-call bombardment may come turns later; call it on enemies that will
        still be there: fortified ones, or a holding enemy's, at least two within spotting reach."""
        board = game.ctx.field.board
        enemy = other(fo.side)
        holding = self.stance(game, enemy) == "hold"
        staying = [e for e in game.state.units.values()
                   if e.side == enemy and e.on_map and not e.hidden and board.distance(fo.hex, e.hex) <= 9
                   and game.visible(fo.hex, e.hex) and (holding or self._fortified(game, e) or e.pinned)]
        return len(staying) >= 2

    def _unit_shot(self, game, u, kinds) -> tuple[float, tuple | None]:
        best, action = 0.0, None
        if "fire" in kinds and self._sees_an_enemy(game, u):
            for t in game.targets(u):
                for m in game.fire_modes(u, t):
                    v = self.expected_effect(game, u, t, mode=m)
                    if v > best:
                        best, action = v, kinds["fire"]
        if "indirect" in kinds:
            for sp, t in game.indirect_plans(u):
                for m in game.fire_modes(u, t, indirect=True):
                    v = self.expected_indirect(game, u, sp, t, m) - (0.05 if sp is not u else 0)
                    if v > best:
                        best, action = v, kinds["indirect"]
                        self._plan = (sp.id, t.id, m)
        return best, action

    def _sees_an_enemy(self, game, u) -> bool:
        """Whether an enemy unit on the map stands in the unit's line of sight: without one,
        game.targets(u) is empty (its first test of each target is that line of sight, over the
        same units: state.on_map of the other side). Each activation asks it of every unit with a
        fire op, and 3 in 5 of them (Beda Fomm) see no enemy at all: the targets' scan, a hex
        index brought up to date and a memo stamp each, is not made for them. The enemy's places
        are kept in the view's memo while the enemy's units stay where they are (by_placement,
        scoped to the enemy's side: they stand still through the side's own activation)."""
        if u.status != "on-map" or u.carried_by or u.hex is None:
            return False  # targets() is empty too (no fire modes)
        state, enemy = game.state, other(u.side)
        table = game.ctx.table(state.visibility)
        places = state.by_placement(("bots.enemy-places", enemy, state.visibility), lambda: tuple(
            {table.index[t.hex] for t in state.on_map(enemy)}), (enemy,))
        sees = table.row(u.hex)
        for i in places:
            if sees[i]:
                return True
        return False

    def _only_fresh_targets(self, game, u) -> bool:
        """Every enemy it could shoot is still face up (it will act: wait for it to move)."""
        return all(t.ready for t in game.targets(u))

    def _enemy_near(self, game, u, hexes: int) -> bool:
        axial = game.ctx.field.board.axials
        here = axial[u.hex]
        return any(e.side != u.side and e.on_map and axial_distance(axial[e.hex], here) <= hexes
                   for e in game.state.units.values())

    def _move_fire_pays(self, game, u) -> bool:
        """Half the movement still gets there in time, and an enemy is within reach of a shot."""
        if self._urgent(game, u):
            return False
        goal = self._goal_distance(game, u.side, u.type, u)
        if not goal or goal.get(u.hex, 99) <= 0:
            return False  # moving to fight, not to get somewhere: better a full move, then a steady shot
        half = max(1.0, game.ctx.field.allowance(u.type) / 2)
        left = self._deadline(game, u.side) - game.state.turn + 1
        if self.PACE * goal.get(u.hex, 99) / half >= left - 2:
            return False
        if not self._open_step(game, u, goal):
            return False  # the way ahead is blocked: a way round needs every MP
        reach = (game.range(u, True) or 0) + max(1, int(game.ctx.field.allowance(u.type) // 2))
        return self._enemy_near(game, u, reach)

    def _open_step(self, game, u, goal) -> bool:
        """A neighbouring hex nearer the goal with no enemy and room for the unit."""
        here = goal.get(u.hex, 99)
        limits = game.ctx.tables.stacking()
        for n in game.ctx.field.board.neighbours(u.hex):
            if goal.get(n, 99) >= here:
                continue
            there = game.state.at(n)
            if any(x.side != u.side for x in there):
                continue
            if len(there) < limits["units"] and (not u.type.is_vehicle or
                                                 sum(x.type.is_vehicle for x in there) < limits["vehicles"]):
                return True
        return False

    def _rides(self, game, p) -> bool:
        """A passenger worth carrying: a towed gun, or a unit that wants to go somewhere (not a
        holding defender in its entrenchment or bunker)."""
        if self._fortified(game, p) and self.stance(game, p.side) == "hold":
            return False
        if p.type.unit_class == "forward-observer" and p.hex is not None and self._on_duty(game, p) \
                and self._watch_targets(game, p):
            return False  # the last hexes into sight on foot: its carrier keeps out of the guns' reach
        return p.type.towed or self._wants_to_move(game, p)

    def _wants_to_move(self, game, u) -> bool:
        if u.hex is None:
            return True
        if u.pinned:
            return False
        if u.type.unit_class == "forward-observer" and self._on_duty(game, u) and not self._fortified(game, u) \
                and (not self._goal_distance(game, u.side, None, u) or self._booked_next_turn(game, u)):
            # bombardments to spot: it goes into sight even on a holding side (it is no loss, §12.2);
            # where its side scores by reaching a place it goes there (an FO watching instead of
            # leaving cost Tobruk's Axis exits: 19 wins of 24 against a random Allied player, not 22)
            return not self._watching(game, u.hex, self._watch_targets(game, u))
        stance = self.stance(game, u.side)
        goal = self._goal_distance(game, u.side, None, u)
        if goal:
            if goal.get(u.hex, 99) > 0:
                return True
            if self._exit_counts(game, u):
                return game.ctx.field.exit_cost(u.type, u.hex) is not None
            if stance == "attack":  # there, and it is not enough: go for the enemy within reach
                return tactics.wants_to_move(self, game, u)
            return False
        if stance == "hold":
            if self._fortified(game, u) or u.type.unit_class == "forward-observer" or u.type.towed:
                return False
            if game.targets(u):
                return False  # in the fight already: stay, shoot, or wait face-up for opportunity fire
            block = self._block_distance(game, u.side)
            return bool(block) and block.get(u.hex, 99) > 1
        if u.type.unit_class == "forward-observer":
            return not self._watching(game, u.hex, self._watch_targets(game, u))
        return tactics.wants_to_move(self, game, u)

    # an FO's work is to see (§16.33: a bombardment comes down only on enemies its FOs see when its
    # formation is activated; §13.2: it spots for indirect fire): it goes where it sees an enemy,
    # not into it (IX's FO crept 1 hex a turn towards the enemy and stood 6 hexes off, visibility 5,
    # at each preplanned bombardment: 1.5 a game came down on nothing)
    def _watch_targets(self, game, fo) -> list:
        board = game.ctx.field.board
        reach = game.state.visibility + 4
        return [e.hex for e in game.state.units.values() if e.side != fo.side and e.on_map and not e.hidden
                and not e.carried_by and board.distance(fo.hex, e.hex) <= reach]

    def _on_duty(self, game, fo) -> bool:
        """The FO has bombardments still to spot: one booked for its formation in this turn or a
        later one, or on-call ones its side has left."""
        turn = game.state.turn
        return any(r["side"] == fo.side and not r["done"] and (
            r["kind"] == "on-call" or (r["kind"] == "bombardment" and r.get("spotting_card") == fo.card
                                       and (r.get("turn") or 0) >= turn)) for r in game.state.raids)

    def _booked_next_turn(self, game, fo) -> bool:
        """Its formation spots a bombardment next turn (it comes down at the formation's activation,
        before the FO can move): this turn the FO gets into sight, even on its way to a place."""
        turn = game.state.turn + 1
        return any(r["side"] == fo.side and not r["done"] and r["kind"] == "bombardment"
                   and r.get("spotting_card") == fo.card and r.get("turn") == turn for r in game.state.raids)

    def _watching(self, game, hex_, targets) -> bool:
        """An enemy in sight from the hex, but not next to it."""
        board = game.ctx.field.board
        return any(board.distance(hex_, e) >= 2 and game.visible(hex_, e) for e in targets)

    def _exit_counts(self, game, u) -> bool:
        return any(s["event"] == "exited" for s in self._unit_specs(game, u.side, u))

    # --- movement -----------------------------------------------------------------------------

    def _move(self, game, actions):
        u = game.state.units[game.decision.unit]
        kinds = [a[0] for a in actions]  # (comprehensions: a step's actions are sorted at every step)
        if "overrun" in kinds:
            return actions[kinds.index("overrun")]
        steps = [a for a in actions if a[0] == "step"]
        exits = [a for a in actions if a[0] == "exit"] if "exit" in kinds else []
        if exits or not steps:
            # (with steps and no exit, the view reads the same goal: its specs are read, and kept
            # for the turn, in the same position either way)
            load = game.passengers(u) if u.type.transport_capacity else []
            who = load[0] if load else u  # passengers leave with their carrier (§8.4)
            goal = self._goal_distance(game, u.side, None, who)
            if exits and goal and goal.get(u.hex, 99) == 0 and self._exit_counts(game, who):
                edges = {sp["edge"] for sp in self._unit_specs(game, u.side, who) if sp["event"] == "exited"}
                good = [a for a in exits if a[1] in edges]  # a corner hex offers two edges: the one that scores
                if good:
                    return good[0]
        if not steps:
            return self._stop(game, u, actions)
        view = self._view(game, u)
        if u.status == "off-map":
            return self._best_step(game, u, steps, view)[0]
        route = self._route if game.decision.steps else None  # a new move plans afresh
        if route and route[0] == u.id and route[1] and ("step", route[1][0]) in actions:
            nxt = route[1][0]
            self._route = (u.id, route[1][1:])
            return ("step", nxt)
        self._route = None
        best, top = self._best_step(game, u, steps, view)
        if best[1] not in view["enemy_hexes"] and self._below_here(game, u, top, view):
            return best  # (the test below, without scoring the unit's own hex)
        here = self._score_hex(game, u, u.hex, view)
        if top < here - 0.01 and best[1] not in view["enemy_hexes"]:
            return best  # one step nearer: the common case, no search needed
        # stuck (a blocker, an overstacked hex, a minefield ahead) short of the goal: look for a way round
        goal = view["goal"]
        if not goal or goal.get(u.hex, 99) <= 0 or view["close_in"]:
            return best if top < here - 0.01 else self._stop(game, u, actions)
        path = self._plan_path(game, u, {a[1] for a in steps}, view, here)
        if not path:
            return best if top < here - 0.01 else self._stop(game, u, actions)
        self._route = (u.id, path[1:])
        return ("step", path[0])

    def _stop(self, game, u, actions):
        """Stop; but a declared move that stops within half its MP becomes a move-and-fire when
        the engine offers it (§7) and there is something worth shooting from here."""
        if ("move-fire",) in actions and any(self.expected_effect(game, u, t) >= self.FIRE for t in game.targets(u)):
            return ("move-fire",)
        return ("stop",)

    def _plan_path(self, game, u, first_steps: set, view, here: float, budget: int = 80) -> list:
        """The hexes to the best place reachable with the MP left (Dijkstra over real costs;
        enemy hexes and known minefields end a path), or [] to stay."""
        d = game.decision
        mp_left = d.mp - d.spent
        blocked = bool(d.loaded) or not u.type.is_vehicle  # transports never enter enemy hexes; infantry only by assault
        neighbours = game.ctx.field.board.neighbours
        enemy_hexes = view["enemy_hexes"]
        mines = view["mines"]
        passable = view["passable"]
        prohibited = game.prohibited(u.side)  # §18.7, what may_enter_zone asks
        rows = self._enter_costs(game, u)
        start = u.hex
        dist: dict[str, float] = {}
        prev: dict[str, str | None] = {}
        heap = []
        for n in sorted(first_steps):
            c = game.enter_cost(u, start, n)
            c = mp_left if c == "all" else c
            if c == "prohibited" or not passable(n):
                continue
            dist[n], prev[n] = min(c, mp_left), None
            heap.append((dist[n], n))
        heapq.heapify(heap)
        reach = mp_left + 1e-9
        while heap and len(dist) < budget:
            d, h = heapq.heappop(heap)
            if d > dist.get(h, math.inf) or h in enemy_hexes or h in mines:
                continue  # entering an enemy hex or a known minefield ends the move
            row = rows.get(h)
            if row is None:  # the neighbours a move may enter from h, with their costs, in the board's order
                row = rows[h] = tuple((n, c) for n in neighbours(h) for c in (game.enter_cost(u, h, n),)
                                      if isinstance(c, (int, float)))
            for n, c in row:
                if n == start or (blocked and n in enemy_hexes):
                    continue
                dn = d + c
                if dn > reach or dn >= dist.get(n, math.inf):
                    continue  # (no nearer this way: the hex's own tests below need not be asked)
                if n in prohibited or not passable(n):
                    continue  # a move can stop anywhere (opportunity fire): not through a full hex near the enemy
                dist[n], prev[n] = dn, h
                heapq.heappush(heap, (dn, n))
        if not dist:
            return []
        best, score = self._lowest_hex(game, u, dist, view, dist)
        if score >= here - 0.01:
            return []
        path = [best]
        while prev[path[-1]] is not None:
            path.append(prev[path[-1]])
        return path[::-1]

    @staticmethod
    def _enter_costs(game, u) -> dict:
        """Hex -> ((next hex, game.enter_cost for the unit) for each neighbour a move may enter,
        in the board's order), kept per context under all that cost reads (§8, §15.32: the
        battlefield, the unit's type and the game's wire, which the side sees whole): a way round
        is searched over the same hexes turn after turn."""
        tables = game.ctx.memo.setdefault("bots.enter_rows", {})
        key = (u.type.id, frozenset(game.state.wire))
        table = tables.get(key)
        if table is None:
            if len(tables) > 64:  # each wire hex an engineer clears makes new tables
                tables.clear()
            table = tables[key] = {}
        return table

    def _view(self, game, u) -> dict:
        """As the first bot's, built once per move operation (other units stand still meanwhile;
        crowding is read live), with the stance's goal, full stacking and own minefields."""
        # one operation: the same unit, activation and operation, its steps counting up (the bot is
        # handed a new view of the game at every step, so the decision context is a new object)
        move, activation = game.decision, game.activation
        cards = activation.cards if activation is not None else ()
        op = (u.id, game.state.turn, tuple(cards), getattr(move, "op", None), len(game.state.played))
        steps = getattr(move, "steps", 0) or 0
        cached = self._view_cache
        if cached is not None and cached[1] < steps and cached[0] == op:
            self._view_cache = (op, steps, cached[2])
            return cached[2]
        view = self._make_view(game, u)
        self._view_cache = (op, steps, view)
        return view

    def _make_view(self, game, u) -> dict:
        view = tactics.move_view(self, game, u, goal=False)  # its own goal below
        side = u.side
        passengers_now = game.passengers(u) if u.type.transport_capacity else []
        # a transport goes where its load wants to go (scenario transports count for nothing, §13.31)
        goal = self._goal_distance(game, side, u.type, passengers_now[0] if passengers_now else u)
        stance = self.stance(game, side)
        place = bool(goal)
        if not goal and stance == "hold":
            goal = self._block_distance(game, side)  # holding: stand across the enemy's way
        view["goal"] = goal
        # attacking and already where the terms want it (a map, a zone): close in on the enemy there
        view["close_in"] = bool(goal) and stance == "attack" and not self._exit_counts(
            game, passengers_now[0] if passengers_now else u)
        state = game.state
        passengers = len(game.passengers(u)) if u.type.transport_capacity else 0
        vehicle = 1 if u.type.is_vehicle else 0
        limits = game.ctx.tables.stacking()

        counts: dict = {}  # hex -> [units, vehicles] of the side, the mover and its load aside
        for x in state.on_map(side):  # (the view's memo: kept from one decision to the next)
            if x is not u and x.carried_by != u.id:
                c = counts.setdefault(x.hex, [0, 0])
                c[0] += 1
                c[1] += x.type.is_vehicle
        units_room = limits["units"] - 1 - passengers
        vehicles_room = limits["vehicles"] - vehicle

        def crowded(h) -> bool:
            c = counts.get(h)
            return c is not None and (c[0] > units_room or c[1] > vehicles_room)
        view["crowded"] = crowded
        axial = view["axial"]
        near_enemies = view["enemies"]

        def passable(h) -> bool:
            """Through a full hex only out of the enemy's reach: a move stops early only under
            opportunity fire, and a column nose to tail on a road otherwise jams (XV's panzers
            waited turns behind full stacks)."""
            if not crowded(h):
                return True
            q, r = axial[h]
            return all(axial_distance((q, r), e) > self.SAFE_PASS for e in near_enemies)
        view["passable"] = passable
        view["friends"] = lambda h: 0  # crowded() decides
        mines = dict(view["mines"])
        if mines:
            exempt = game.exempt_from_own_mines(side)
            for m in game.state.minefields:
                if m["active"] and m["side"] == side and m["hex"] in mines:
                    mines[m["hex"]] = 0 if exempt else 3  # a 1 in 18 attack (§15.14): not worth it
        view["mines"] = mines
        # an FO with no place to reach, or with a bombardment to spot next turn, goes into sight
        view["watch"] = None
        if u.type.unit_class == "forward-observer" and u.hex is not None and (
                not place or self._booked_next_turn(game, u)):
            view["watch"] = self._watch_targets(game, u)
        # a transport (a carrier, a truck: defence 1) next to a seen enemy gun or tank is a loss
        # for nothing, and its load dies with it (§8.4): XI's carriers drove within 2 hexes of
        # the panzers turn after turn (4.75 carriers lost a game against a random Axis)
        view["gunners"] = []
        if u.type.unit_class == "transport":
            view["gunners"] = [axial[x.hex] for x in state.units.values()
                               if x.side != side and x.status == "on-map" and not x.hidden
                               and x.carried_by is None and max(x.type.anti_infantry or 0,
                                                                x.type.anti_vehicle or 0) >= self.GUNNER]
        # ... and one carrying an FO with bombardments still to spot keeps out of every seen gun's
        # reach: XV's Italian FO rode with its three howitzers in one truck 9 hexes from a seen
        # gun, and one shot lost the formation and its three preplanned bombardments
        view["guns"] = []
        if u.type.unit_class == "transport" and any(
                p.type.unit_class == "forward-observer" and self._on_duty(game, p) for p in passengers_now):
            vis = state.visibility
            view["guns"] = [(x.hex, min(vis, max(game.range(x, True) or 0, game.range(x, False) or 0)))
                            for x in state.units.values() if x.side != side and x.status == "on-map"
                            and not x.hidden and x.carried_by is None and (x.type.anti_infantry or x.type.anti_vehicle)]
        view["scores"] = {}  # (hex, the unit's own) -> _view_score: the view stands for the whole operation
        return view

    def _score_hex(self, game, u, hex_, view=None) -> float:
        view = view or self._view(game, u)
        here = hex_ == u.hex
        scores = view.get("scores")  # what reads the view only, kept for the operation (_make_view)
        parts = scores.get((hex_, here)) if scores is not None else None
        if parts is None:
            parts = self._view_score(game, u, hex_, view)
            if scores is not None and not view.get("watch"):  # an FO's watch reads the game: afresh
                scores[(hex_, here)] = parts
        score, gunners = parts
        if here and self._fortified(game, u):
            score -= 1.0  # leaving an entrenchment or bunker needs a real gain
        if gunners:
            score += gunners
        if view.get("guns"):
            board = game.ctx.field.board
            if any(board.distance(hex_, h) <= reach and game.visible(h, hex_) for h, reach in view["guns"]):
                score += 10.0
        return score

    def _scores_kept(self, view) -> bool:
        """Whether a hex's _score_hex, the unit elsewhere, is its kept _view_score alone: the
        move's view keeps scores (_make_view's), the hex is scored this class's way (not a plan's
        own _score_hex), and neither an FO's watch (it reads the game) nor guns to keep out of
        sight of add to it. Read once per view and class (asked at every step; a plan's bot may
        take over the view, search_policies.VariantBot.with_plan)."""
        kind = type(self)
        kept = view.get("scores_kept")
        if kept is None or kept[0] is not kind:
            alone = view.get("scores") is not None and not view.get("watch") and not view.get("guns")
            kept = view["scores_kept"] = (kind, alone and self._score_hex.__func__ is HeuristicBot2._score_hex)
        return kept[1]

    def _step_scores(self, game, u, hexes, view) -> dict:
        """Hex -> _score_hex, for hexes the unit may step to: from the scores the view keeps for
        the operation where they stand alone (_scores_kept), else hex by hex."""
        if not self._scores_kept(view):
            return {h: self._score_hex(game, u, h, view) for h in hexes}
        kept, here = view["scores"], u.hex
        out = {}
        for h in hexes:
            parts = kept.get((h, False))
            if parts is None:
                if h == here:
                    out[h] = self._score_hex(game, u, h, view)
                    continue
                parts = kept[(h, False)] = self._view_score(game, u, h, view)
            score, gunners = parts
            out[h] = score + gunners if gunners else score
        return out

    def _best_step(self, game, u, steps, view) -> tuple[tuple, float]:
        """The step action whose hex scores lowest (_score_hex; the lowest hex on a tie) and its score."""
        actions = {a[1]: a for a in steps}
        hex_, score = self._lowest_hex(game, u, actions, view)
        return actions[hex_], score

    def _below_here(self, game, u, score: float, view) -> bool:
        """Whether ``score`` is surely below the unit's own hex's less 0.01 (_move's test) from
        the goal distance alone: outside an entrenchment or bunker its score is at least that."""
        goal = view["goal"]
        if not goal or not self._scores_kept(view):
            return False
        return score < goal.get(u.hex, 99) - 0.01 and not self._fortified(game, u)

    def _lowest_hex(self, game, u, hexes, view, spent: dict | None = None) -> tuple[str, float]:
        """The hex (none the unit's own) with the lowest _score_hex plus a thousandth of what
        ``spent`` gives it (MP to get there), the lowest hex on a tie, and its score. Where the
        move score is the goal distance plus terms that only add (formation, enemy hex, stacking,
        minefields, closing in, gunners), a hex whose goal distance alone is above the best so
        far cannot win and is not scored: hexes are tried nearest the goal first."""
        goal = view["goal"]
        if not goal or not self._scores_kept(view):
            scores = self._step_scores(game, u, hexes, view)
            if spent is None:
                best = min(hexes, key=lambda h: (scores[h], h))
            else:
                best = min(hexes, key=lambda h: (scores[h] + 0.001 * spent[h], h))
            return best, scores[best]
        if spent is None:
            bounds = sorted([(goal.get(h, 99), h) for h in hexes])
        else:
            bounds = sorted([(goal.get(h, 99) + 0.001 * spent[h], h) for h in hexes])
        scorer = view.get("view_scorer")  # _step_scores' kept path, one hex at a time, inlined
        if scorer is None:
            scorer = view["view_scorer"] = self._view_scorer(u, view)
        kept, here = view["scores"], u.hex
        best = top = score = None
        for bound, h in bounds:
            if top is not None and bound > top:
                break  # a score is at least its goal distance: none from here on can win
            parts = kept.get((h, False))
            if parts is None and h == here:
                s = self._score_hex(game, u, h, view)
            else:
                if parts is None:
                    parts = kept[(h, False)] = scorer(h, False, None)
                s, gunners = parts
                if gunners:
                    s += gunners
            value = s if spent is None else s + 0.001 * spent[h]
            if top is None or value < top or (value == top and h < best):
                best, top, score = h, value, s
        return best, score

    def _view_score(self, game, u, hex_, view) -> tuple[float, float]:
        """The score of the hex from the move's view (before the unit's own entrenchment), and
        what being near a seen gunner adds to it (a transport waits behind the fighting)."""
        scorer = view.get("view_scorer")
        if scorer is None:
            scorer = view["view_scorer"] = self._view_scorer(u, view)
        if view.get("watch"):
            return scorer(hex_, hex_ == u.hex, self._watch_score(game, hex_, view))
        return scorer(hex_, hex_ == u.hex, None)

    @staticmethod
    def _view_scorer(u, view):
        """_view_score as a function of (hex, whether the unit stands there, the hex's own score
        or None for the plain move score), the view's fields read once (see tactics.hex_scorer)."""
        plain = tactics.hex_scorer(u, view)
        axial, reach, crowded, gunners = view["axial"], view["reach"], view["crowded"], view.get("gunners")
        close = view["enemies"] if view["close_in"] and view["enemies"] else None

        def parts(hex_, here: bool, score) -> tuple[float, float]:
            if score is None:
                score = plain(hex_, here)
            if close:
                aq, ar = axial[hex_]
                near = min([max(abs(q - aq), abs(r - ar), abs(q - aq + r - ar)) for q, r in close])
                score += 0.3 * abs(near - reach)
            if not here and crowded(hex_):
                score += 50  # §8.52: the surplus is destroyed at the Morale Phase
            far = 0.0
            if gunners:
                aq, ar = axial[hex_]
                near = min([max(abs(q - aq), abs(r - ar), abs(q - aq + r - ar)) for q, r in gunners])
                if near <= 3:  # worth more than 2-3 MP of progress
                    far = 3.0 if near <= 2 else 1.0
            return score, far
        return parts

    def _watch_score(self, game, hex_, view) -> float:
        """An FO's hex: 0 where it sees an enemy (a little better farther off, out of harm's way),
        else how far it is from seeing distance; never into an enemy hex."""
        board = game.ctx.field.board
        targets = view["watch"]
        if hex_ in view["enemy_hexes"]:
            return 50.0
        near = min(board.distance(hex_, e) for e in targets)
        if self._watching(game, hex_, targets):
            return -0.05 * near
        return 1.0 + max(0, near - max(2, game.state.visibility - 1))

    # --- transport: only what fits ---------------------------------------------------------------

    def _load(self, game, actions):
        loads = [a for a in actions if a[0] == "load"]
        for a in loads:
            if self._rides(game, game.state.units[a[1]]):
                return a
        return next((a for a in actions if a[0] != "load"), actions[-1])

    # --- raids: timed to the expected contact -------------------------------------------------------

    def _contact_turn(self, game, side: str) -> int:
        """The turn the sides are first expected within a few hexes: the distance between
        the nearest units (or entry zones) at about six hexes a turn, after the enemy arrives."""
        s = game.state
        axial = game.ctx.field.board.axials
        mine = [axial[u.hex] for u in s.units.values() if u.side == side and u.on_map]
        mine += [axial[h] for f in s.formations.values() if f.side == side for h in list(f.entry_zone)[:20]]
        turns = []
        for f in s.formations.values():
            if f.side == side or f.kind != "combat":
                continue
            places = [axial[u.hex] for u in game.units_of(f.card) if u.on_map] or \
                [axial[h] for h in list(f.entry_zone)[:20]]
            if not places or not mine:
                continue
            d = min(axial_distance(a, b) for a in places for b in mine)
            turns.append(f.arrival + max(0, math.ceil((d - 8) / 6)))
        if not turns:
            return 2
        turns.sort()
        return max(1, min(turns[len(turns) // 2], game.ctx.scenario.turns))

    def _plan_raid(self, game, actions):
        want = self._contact_turn(game, game.side_to_act) + 1
        turns = [a[1] for a in actions]
        return ("raid-turn", min(turns, key=lambda t: (abs(t - want), t)))

    def _plan_bombardment(self, game, actions):
        """§16.31: a preplanned bombardment lands when its formation is activated in the planned
        turn, on enemies its FOs then see; with none in sight it is wasted. The turn and the
        formation are taken where a forecast (games played ahead from here, this bot on both
        sides) saw the most enemies from that formation's FOs; a guess from distances when the
        forecast saw none (the old rule planned IX's and XV's on turns 3-5, before any contact)."""
        side = game.side_to_act
        want = self._contact_turn(game, side)
        seen = self._sightings(game, side)
        planned = {(r["turn"], r["spotting_card"]) for r in game.state.raids
                   if r["side"] == side and r["kind"] == "bombardment" and r["turn"]}
        if seen:
            def value(a):  # fewer for a turn another bombardment already covers (its markers take the best)
                return seen.get((a[1], a[2]), 0) - 2 * sum(1 for t, _ in planned if t == a[1])
            best = max(actions, key=lambda a: (value(a), -abs(a[1] - want), -a[1], -a[2]))
            if seen.get((best[1], best[2]), 0) > 0:
                return best
            # the forecast met the enemy, only not in as many turns as there are bombardments: next
            # to the turns it did (IX: a third planned on the distance guess, turn 3, before any FO
            # could see; the forecast's sightings were at turns 12-13)
            met = [t for (t, c), v in seen.items() if v > 0]
            if met:
                return min(actions, key=lambda a: (min(abs(a[1] - t) for t in met), a[1] < min(met), a[1], a[2]))
        return min(actions, key=lambda a: (abs(a[1] - want), a[1], a[2]))

    FORECAST_GAMES = 2

    def _sightings(self, game, side: str) -> dict:
        """(turn, card) -> enemies in sight of the card's ready FOs when it was activated, summed
        over a few games played ahead from this position by this bot on both sides (forecast.py).
        This bot reads it once per side and start position (its own memory: a game's later
        decisions keep the first forecast); the forecast itself is kept per context under the
        view's complete key (forecast.sightings)."""
        if self._forecasting:
            return {}
        cache = self._memo.setdefault("sightings", {})
        key = (side, game.state.turn, tuple(sorted((u.id, u.hex, u.status) for u in game.state.units.values())))
        if key in cache:
            return cache[key]
        seen = forecast.sightings(game, side, forecaster, self.FORECAST_GAMES, "heuristic")
        if len(cache) > 64:
            cache.clear()
        cache[key] = seen
        return seen


def forecaster(seed: int) -> "HeuristicBot2":
    """A bot of a forecast: this bot, forecasting nothing itself."""
    return HeuristicBot2(seed, forecasting=True)


register_bot("heuristic", HeuristicBot2)
