"""Bots choose among the legal actions the engine enumerates: random, and heuristic.

The heuristic bot fires where the expected effect is best (spotting chance times the
chance of each combat result, from the pack's tables), moves towards what its side's
victory terms reward (an exit edge, a zone to hold, or the enemy), keeps formations
inside their doctrine radius, rallies with command cards, and interrupts enemy cards.
"""
from __future__ import annotations

import random

from . import tactics
from .tactics import HANDLERS
from ..routes import axial_distance, count_specs, reverse_costs, spec_targets  # noqa: F401 (axial_distance: tests)
from ..engine.game import Game, other
from ..engine.seats import register_bot


class RandomBot:
    name = "random"
    reads_game = False  # it picks among the actions only: its seat builds no view unless asked

    def __init__(self, seed: int = 0):
        self.rng = random.Random(seed)

    def choose(self, game: Game, actions: list) -> tuple:
        return actions[self.rng.randrange(len(actions))]


@tactics.takes_shared
class HeuristicBot:
    """The first heuristic bot, kept as ``heuristic-v1`` for comparison (heuristic.py has the
    current one, which does not inherit from this one: what both use is in tactics.py)."""
    name = "heuristic-v1"

    def __init__(self, seed: int = 0):
        self.rng = random.Random(seed)
        self._spots: dict | None = None  # spotting chances during one choose(): the game stands still

    # --- where to go -----------------------------------------------------------------------------

    def _goal_distance(self, game: Game, side: str, unit_type=None) -> dict[str, float]:
        """Hex -> movement points to what this side's victory terms and winning conditions
        reward (an exit edge, a zone, a map to occupy), for a unit type (roads count), or in
        hexes when no type is given."""
        # static for a battlefield and victory terms: shared by every game played on it
        goals = game.ctx.field.memo.setdefault("bots.bot_goals", {})
        key = (game.ctx.scenario.id, side, unit_type.id if unit_type else None, frozenset(game.ctx.field.wire))
        if key in goals:
            return goals[key]
        targets: set[str] = set()
        expression = game.ctx.scenario.raw["victory"].get("expression", {})
        specs = [spec for term in expression.get("points", {}).get(side, ()) for spec in count_specs(term["value"])]
        specs += [spec for outcome in expression.get("outcomes", ())
                  if outcome["result"]["winner"] == side for spec in count_specs(outcome["when"])]
        for spec in specs:
            if spec.get("units", {}).get("side", side) != side:
                continue
            targets |= spec_targets(game.ctx.field, spec)
        distance = reverse_costs(game.ctx.field, targets, unit_type) if targets else {}
        goals[key] = distance
        return distance

    # --- choices -------------------------------------------------------------------------------

    def choose(self, game: Game, actions: list) -> tuple:
        name = HANDLERS.get(game.mode)
        handler = getattr(self, name) if name else None
        self._spots = {}
        try:
            choice = handler(game, actions) if handler else None
        finally:
            self._spots = None
        return choice if choice in actions else actions[self.rng.randrange(len(actions))]

    def _interrupt(self, game, actions):
        s = game.state
        me = game.side_to_act
        top = s.stack[-1]
        if s.formations[top].side == me or len(actions) == 1:
            return ("pass",)
        cards = sorted((a for a in actions if a[0] == "interrupt"), key=lambda a: game.priority(a[1]))
        worthwhile = [a for a in cards if game.operable(a[1]) or s.formations[a[1]].kind == "command"]
        return worthwhile[0] if worthwhile else ("pass",)

    def _activation(self, game, actions):
        ops = [a for a in actions if a[0] == "op"]
        if not ops:
            return ("end",)
        # Enter the map first, then fire where it pays, then move.
        enter = [a for a in ops if game.state.units[a[1]].status == "off-map"]
        if enter:
            return enter[0]
        # Observers call on-call bombardments on enemies they see close enough to spot (§16.35).
        for a in ops:
            if a[2] == "call-bombardment":
                fo = game.state.units[a[1]]
                board = game.ctx.field.board
                if any(e.side != fo.side and e.on_map and not e.hidden and board.distance(fo.hex, e.hex) <= 9
                       and game.visible(fo.hex, e.hex) for e in game.state.units.values()):
                    return a
        best, best_value = None, 0.3
        for a in ops:
            if a[2] == "indirect":
                u = game.state.units[a[1]]
                for sp, t in game.indirect_plans(u):
                    for m in game.fire_modes(u, t, indirect=True):
                        # a spotter other than the firer is worth keeping: small preference for self-spotting
                        v = self.expected_indirect(game, u, sp, t, m) - (0.05 if sp is not u else 0)
                        if v > best_value:
                            best, best_value = a, v
                            self._plan = (sp.id, t.id, m)
                continue
            if a[2] != "fire":
                continue
            u = game.state.units[a[1]]
            for t in game.targets(u):
                for m in game.fire_modes(u, t):
                    v = self.expected_effect(game, u, t, mode=m)
                    if v > best_value:
                        best, best_value = a, v
        if best:
            return best
        # Infantry assaults enemy vehicles it may reach (§14.1).
        for a in ops:
            if a[2] == "assault":
                u = game.state.units[a[1]]
                for h in game.assault_hexes(u):
                    if any(self._assault_value(game, u, v) > 0.3 for v in game.state.at(h) if game.armour(v)):
                        return a
        # Tanks overrun soft targets in the open nearby (§14.2).
        for a in ops:
            if a[2] == "overrun":
                u = game.state.units[a[1]]
                near = [e for e in game.state.units.values() if e.side != u.side and e.on_map and not e.hidden
                        and not e.type.is_vehicle and not e.suppressed
                        and game.ctx.field.board.distance(u.hex, e.hex) <= max(1, (u.type.movement or 1) // 3)]
                if near:
                    return a
        # Transports carry infantry and guns that want to go somewhere (§13.3).
        for a in ops:
            if a[2] == "transport":
                carrier = game.state.units[a[1]]
                riders = [p for p in game.riders(carrier) if game.can_load(carrier, p, [])]  # off-map too (§18.6)
                if any(p.type.towed or self._wants_to_move(game, p) for p in riders):
                    return a
        # Engineers clear the wire and minefields they stand in, or open the way through them (§15.4).
        for a in ops:
            if a[2] == "engineer" and self._engineer_plan(game, game.state.units[a[1]]) is not None:
                return a
        moves = [a for a in ops if a[2] == "move" and self._wants_to_move(game, game.state.units[a[1]])]
        if moves:
            return moves[0]
        # Infantry, guns and observers with nothing better to do dig in (§13.4).
        dig = [a for a in ops if a[2] == "entrench"]
        if dig:
            return dig[0]
        return ("end",) if ("end",) in actions else ops[0]

    def _move(self, game, actions):
        u = game.state.units[game.decision.unit]
        overruns = [a for a in actions if a[0] == "overrun"]
        if overruns:
            return overruns[0]
        exits = [a for a in actions if a[0] == "exit"]
        goal = self._goal_distance(game, u.side)
        if exits and goal and goal.get(u.hex, 99) == 0:
            return exits[0]
        steps = [a for a in actions if a[0] == "step"]
        if not steps:
            return ("stop",)
        view = self._view(game, u)
        scores = {a[1]: self._score_hex(game, u, a[1], view) for a in steps}
        best = min(steps, key=lambda a: (scores[a[1]], a[1]))
        if u.status == "off-map" or scores[best[1]] < self._score_hex(game, u, u.hex, view) - 0.01:
            return best
        return ("stop",)

    def _load(self, game, actions):
        loads = [a for a in actions if a[0] == "load"]
        return loads[0] if loads else actions[-1]

    # raids (§16.2): strike in the turn the enemy is all there, at the most damaging units

    def _plan_raid(self, game, actions):
        me = game.side_to_act
        arrivals = [f.arrival for f in game.state.formations.values() if f.side != me and f.kind == "combat"]
        want = min(max(arrivals, default=1) + 1, game.ctx.scenario.turns)
        turns = [a[1] for a in actions]
        return ("raid-turn", min(turns, key=lambda t: (abs(t - want), t)))

    def _plan_bombardment(self, game, actions):
        me = game.side_to_act
        arrivals = [f.arrival for f in game.state.formations.values() if f.side != me and f.kind == "combat"]
        want = min(max(arrivals, default=1) + 1, game.ctx.scenario.turns)
        return min(actions, key=lambda a: (abs(a[1] - want), a[1], a[2]))



def goal_distance(game, side: str, unit_type=None) -> dict[str, float]:
    """Hex -> distance to what the side's victory terms reward reaching (exit edge, zone, map);
    empty when they reward no place. Shared by every game on the battlefield (memoised)."""
    return HeuristicBot._goal_distance(None, game, side, unit_type)


register_bot("random", RandomBot)
register_bot("heuristic-v1", HeuristicBot)


def __getattr__(name):
    """The registry's names, as this module gave them before bots registered themselves."""
    if name in ("BOTS", "make_bot", "valid_bot", "bot_names", "Seat"):
        from ..engine import seats
        seats.registry()
        return getattr(seats, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["RandomBot", "HeuristicBot", "Seat", "make_bot", "valid_bot", "bot_names", "BOTS", "other"]


