"""Bots choose among the legal actions the engine enumerates: random, and heuristic.

The heuristic bot fires where the expected effect is best (spotting chance times the
chance of each combat result, from the pack's tables), moves towards what its side's
victory terms reward (an exit edge, a zone to hold, or the enemy), keeps formations
inside their doctrine radius, rallies with command cards, and interrupts enemy cards.
"""
from __future__ import annotations

import itertools
import random
from functools import lru_cache

from ..routes import axial_distance, count_specs, reverse_costs, spec_targets
from ..setup_rules import doctrine_radius
from ..engine.game import Game, other
from ..engine.seats import register_bot
from ..engine.tables import hit_value

_VALUE = {"miss": 0.0, "destroyed": 1.0}


def _result_value(result: str) -> float:
    if result in _VALUE:
        return _VALUE[result]
    return 0.25 + 0.1 * (hit_value(result) or 0)


@lru_cache(maxsize=1)
def _three_d6() -> list[tuple[int, float]]:
    counts: dict[int, int] = {}
    for dice in itertools.product(range(1, 7), repeat=3):
        counts[sum(dice)] = counts.get(sum(dice), 0) + 1
    return sorted((total, n / 216) for total, n in counts.items())


_EXPECTED: dict = {}

# the decisions the heuristic bots answer, by kind (engine/decisions), and the method answering each
HANDLERS = {
    "lowest": "_lowest", "interrupt": "_interrupt", "command": "_command", "activation": "_activation",
    "move": "_move", "opportunity": "_opportunity", "target": "_target", "smoke-hex": "_smoke_hex",
    "spotter": "_spotter", "load": "_load", "assault-hex": "_assault_hex", "assault-join": "_assault_join",
    "assault-react": "_assault_react", "assault-fire": "_assault_fire", "overrun-react": "_overrun_react",
    "overrun-target": "_overrun_target", "engineer": "_engineer", "plan-raid": "_plan_raid",
    "plan-bombardment": "_plan_bombardment", "air-strike": "_air_strike", "air-target": "_air_target",
    "bombard": "_bombard",
}


def _expected_result(tables, column: str, shift: float) -> float:
    """Expected value of a fire with this total shift on 3d6 (memoised per table)."""
    key = (id(tables.raw), column, shift)
    if key not in _EXPECTED:
        _EXPECTED[key] = sum(p * _result_value(tables.crt(column, int(raw + shift))) for raw, p in _three_d6())
    return _EXPECTED[key]




class RandomBot:
    name = "random"
    reads_game = False  # it picks among the actions only: its seat builds no view unless asked

    def __init__(self, seed: int = 0):
        self.rng = random.Random(seed)

    def choose(self, game: Game, actions: list) -> tuple:
        return actions[self.rng.randrange(len(actions))]


class HeuristicBot:
    """The first heuristic bot, kept as ``heuristic-v1`` for comparison (bots_heuristic.py has
    the current one)."""
    name = "heuristic-v1"

    def __init__(self, seed: int = 0):
        self.rng = random.Random(seed)
        self._spots: dict | None = None  # spotting chances during one choose(): the game stands still

    # --- evaluation --------------------------------------------------------------------------

    def _p_spot(self, game: Game, spotter, target, opportunity=False, move_fire=False) -> float:
        memo = self._spots
        key = (spotter.id, target.id, opportunity, move_fire)
        if memo is not None and key in memo:
            return memo[key]
        t = game.ctx.tables
        d = game.ctx.field.board.distance(spotter.hex, target.hex)
        if d == 0:
            p = 1.0
        else:
            number = t.spotting_number(d, game.cover(spotter, target) and not target.fired)
            mods = sum(game.spot_modifiers(spotter, target, opportunity, move_fire).values())
            p = sum(1 for roll in range(1, 7) if roll + mods >= number) / 6
        if memo is not None:
            memo[key] = p
        return p

    def expected_effect(self, game: Game, firer, target, opportunity=False, move_fire=False, mode=None,
                        same_hex=False) -> float:
        memo = self._spots  # one choose(): the game stands still (as for _p_spot)
        key = ("effect", id(game), firer.id, target.id, opportunity, move_fire, mode, same_hex)
        if memo is not None and key in memo:
            return memo[key]
        t = game.ctx.tables
        mode = mode or game.natural_mode(target)
        p_spot = self._p_spot(game, firer, target, opportunity, move_fire)
        if p_spot == 0:
            value = 0.0
        else:
            column = "vehicle" if target.type.is_vehicle else "non_vehicle"
            factor = game.factor(firer, mode == "av") + game.self_spotting(firer)
            mods = game.fire_modifiers(firer, target, move_fire, game.cover(firer, target), mode,
                                       same_hex and firer.flipped)
            shift = factor - target.type.defense + sum(mods.values())
            value = p_spot * _expected_result(t, column, shift)
        if memo is not None:
            memo[key] = value
        return value

    def expected_indirect(self, game: Game, firer, spotter, target, mode=None) -> float:
        """Spotting chance times the effect on the target, plus the zone's effect on the others."""
        t = game.ctx.tables
        mode = mode or game.natural_mode(target)
        p_spot = self._p_spot(game, spotter, target)
        if p_spot == 0 or game.factor(firer, mode == "av") is None:
            return 0.0
        bonus = t.fire("self_spotting") if spotter is firer else 0
        d = game.ctx.field.board.distance(firer.hex, target.hex)
        value = 0.0
        for x in game.state.at(target.hex):
            if x.side != target.side:
                continue
            m = mode if x is target else game.best_zone_mode(firer, x, bonus)
            factor = game.factor(firer, m == "av")
            if factor is None:
                continue
            mods = sum(game.indirect_modifiers(firer, x, m, d).values()) + (0 if x is target else t.fire("fire_zone"))
            column = "vehicle" if x.type.is_vehicle else "non_vehicle"
            value += _expected_result(t, column, factor + bonus - x.type.defense + mods)
        return p_spot * value

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

    def _command(self, game, actions):
        if ("rally",) in actions:
            return ("rally",)
        best, score = ("decline",), 0
        for a in actions:
            if a[0] == "activate":
                n = sum(1 for c in a[1] for u in game.units_of(c) if u.ready or u.status == "off-map")
                if n > score:
                    best, score = a, n
        return best

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

    def _engineer_plan(self, game, u):
        """Clear where it stands; else step into an obstacle that lies on its way to the goal."""
        if game.engineer_clearable(u):
            return ("clear",)
        goal = self._goal_distance(game, u.side)
        here = goal.get(u.hex, 99) if goal else 99
        obstacles = [n for n in game.engineer_steps(u)
                     if n in game.state.wire or game.minefield_at(n, known_to=u.side) is not None]
        ahead = sorted((goal.get(n, 99), n) for n in obstacles if goal and goal.get(n, 99) < here)
        return ("step", ahead[0][1]) if ahead else None

    def _engineer(self, game, actions):
        plan = self._engineer_plan(game, game.state.units[game.decision.unit])
        return plan if plan in actions else ("cancel",)

    def _wants_to_move(self, game, u) -> bool:
        goal = self._goal_distance(game, u.side)
        if goal:
            return goal.get(u.hex, 99) > 0 or game.ctx.field.exit_cost(u.type, u.hex) is not None
        enemies = game.state.by_placement(("bot-enemies", u.side), lambda: _enemies(game, u.side), (other(u.side),))[0]
        if not enemies:
            return False
        reach = game.range(u, True) or 1
        q, r = game.ctx.field.board.axials[u.hex]
        nearest = min([max(abs(eq - q), abs(er - r), abs(eq - q + er - r)) for eq, er in enemies])  # distance
        return nearest > max(1, reach // 2)

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

    def _view(self, game, u) -> dict:
        """What scoring a move needs, gathered once per decision (axial positions: cheap distances)."""
        axial = game.ctx.field.board.axials
        state = game.state
        enemies, enemy_hexes = state.by_placement(("bot-enemies", u.side), lambda: _enemies(game, u.side),
                                                  (other(u.side),))
        mates = [axial[m.hex] for m in state.of_card(u.card) if m.status == "on-map" and m is not u]
        if mates:  # the farthest mate from a hex, in O(1): hex distance is the largest of three spans
            qs, rs, ss = [q for q, _ in mates], [r for _, r in mates], [q + r for q, r in mates]
            mates = (min(qs), max(qs), min(rs), max(rs), min(ss), max(ss))
        if u.hex is not None and len(enemies) > 4:  # candidates are next door: the nearest few decide
            enemies = state.by_placement(("nearest-enemies", u.side, u.hex), lambda: _nearest(enemies, axial[u.hex]),
                                         (other(u.side),))
        return {"goal": self._goal_distance(game, u.side, u.type), "enemies": enemies,
                "friends": lambda h: sum(1 for x in state.here(h) if x.side == u.side and x.type.is_vehicle
                                         and x is not u) if state.here(h) else 0,  # other friendly vehicles
                "mates": mates, "enemy_hexes": enemy_hexes, "axial": axial,
                "radius": doctrine_radius(game.ctx.field.settings, game.ctx.model.cards[u.card])
                if u.card in game.ctx.model.cards else None,
                "reach": max(1, (game.range(u, True) or 2) // 2),
                "limit": game.ctx.tables.stacking()["vehicles"], "mines": _known_mines(game, u.side)}

    def _score_hex(self, game, u, hex_, view=None) -> float:
        """Lower is better: movement points to the goal (or distance to the enemy), staying with
        the formation, and never ending where the stacking limit would be broken (§8.52)."""
        view = view or self._view(game, u)
        aq, ar = view["axial"][hex_]
        if view["goal"]:
            score = view["goal"].get(hex_, 99)
        elif view["enemies"]:
            score = abs(min([max(abs(q - aq), abs(r - ar), abs(q - aq + r - ar)) for q, r in view["enemies"]])
                        - view["reach"])  # axial_distance, inlined: the hottest loop of a move
        else:
            score = 0
        if view["mates"] and view["radius"] is not None:
            q0, q1, r0, r1, s0, s1 = view["mates"]  # max over mates of axial_distance(hex, mate)
            far = max(q1 - aq, aq - q0, r1 - ar, ar - r0, s1 - aq - ar, aq + ar - s0)
            score += 0.2 * max(0, far - 2 * view["radius"])  # less than a road hex (0.5 MP) of progress
        if hex_ in view["enemy_hexes"]:
            score += 2  # entering an enemy hex ends the move
        if u.type.is_vehicle and hex_ != u.hex and view["friends"](hex_) >= view["limit"]:
            score += 50
        if view["mines"] and hex_ != u.hex:
            score += view["mines"].get(hex_, 0)
        return score

    def _assault_value(self, game, u, v) -> float:
        if v.side == u.side or not game.fire_modes(u, v):
            return 0.0
        t = game.ctx.tables
        mode = game.fire_modes(u, v)[-1] if v.type.lightly_armored else "av"
        factor = game.factor(u, mode == "av")
        if factor is None:
            return 0.0
        shift = factor - v.type.defense + t.range_modifier(0) + t.fire("close_assault")
        return _expected_result(t, "vehicle", shift)

    def _assault_hex(self, game, actions):
        u = game.state.units[game.decision.unit]
        return _best(actions, "hex", ("cancel",), lambda a: max(
            (self._assault_value(game, u, x) for x in game.state.at(a[1])), default=0.0))

    def _assault_join(self, game, actions):
        joins = [a for a in actions if a[0] == "join"]
        return joins[0] if joins else ("go",)

    def _assault_fire(self, game, actions):
        x = game.assault_shooter()
        return max(actions, key=lambda a: self.expected_effect(game, x, game.state.units[a[1]],
                                                               mode=a[2] if len(a) > 2 else None))

    def _assault_react(self, game, actions):
        units = game.state.units
        return _best(actions, "react-fire", ("react-pass",), lambda a: self.expected_effect(
            game, units[a[1]], units[a[2]], opportunity=True, mode=a[3] if len(a) > 3 else None))

    def _overrun_react(self, game, actions):
        u = game.state.units[game.decision.unit]
        return _best(actions, "react-fire", ("react-pass",), lambda a: self.expected_effect(
            game, game.state.units[a[1]], u, opportunity=True, mode=a[2] if len(a) > 2 else None, same_hex=True))

    def _overrun_target(self, game, actions):
        u = game.state.units[game.decision.unit]
        return _best(actions, "target", ("hold",),
                     lambda a: self.expected_effect(game, u, game.state.units[a[1]], mode="ai"))

    def _load(self, game, actions):
        loads = [a for a in actions if a[0] == "load"]
        return loads[0] if loads else actions[-1]

    def _smoke_hex(self, game, actions):
        u = game.state.units[game.decision.unit]
        h = self._smoke_choice(game, u, {a[1] for a in actions if a[0] == "hex"})
        return ("hex", h) if h else ("cancel",)

    def _spotter(self, game, actions):
        plan = getattr(self, "_plan", None)
        if plan and ("spotter", plan[0]) in actions:
            return ("spotter", plan[0])
        u = game.state.units[game.decision.unit]
        best, value = ("cancel",), 0.0
        for sp, t in game.indirect_plans(u):
            v = self.expected_indirect(game, u, sp, t)
            if v > value and ("spotter", sp.id) in actions:
                best, value = ("spotter", sp.id), v
        return best

    def _best_target(self, game, actions, weigh=None) -> tuple:
        """The target action with the best expected effect, and that effect; ``weigh(target, v)``
        may reweigh each (a plan's own priorities)."""
        u = game.state.units[game.decision.unit]
        best, value = None, -1.0
        d = game.decision
        spotter = d.spotter
        for a in actions:
            if a[0] == "target":
                target, mode = game.state.units[a[1]], (a[2] if len(a) > 2 else None)
                if spotter:
                    v = self.expected_indirect(game, u, game.state.units[spotter], target, mode)
                else:
                    v = self.expected_effect(game, u, target, move_fire=d.move_fire, mode=mode)
                if weigh is not None:
                    v = weigh(target, v)
                if v > value:
                    best, value = a, v
        return best, value

    def _target(self, game, actions):
        u = game.state.units[game.decision.unit]
        best, value = self._best_target(game, actions)
        self._plan = None
        if ("smoke",) in actions and value < 0.2 and self._smoke_choice(game, u):
            return ("smoke",)  # nothing worth shooting: blind the enemy that sees most of us (§17.3)
        return best or actions[-1]

    def _smoke_choice(self, game, u, hexes=None):
        """The hex of the enemy unit that sees the most friendly units (its spotting takes −2)."""
        if hexes is None:
            spotter = getattr(game.decision, "spotter", None)
            viewer = game.state.units[spotter] if spotter else u
            hexes = set(game.smoke_hexes(u, viewer))
        best, seen = None, 1
        friends = [f for f in game.state.units.values() if f.side == u.side and f.on_map]
        for e in game.state.units.values():
            if e.side == u.side or not e.on_map or e.hidden or e.hex not in hexes or e.hex in game.state.smoke:
                continue
            n = sum(1 for f in friends if game.can_target(e, f))
            if n > seen:
                best, seen = e.hex, n
        return best

    def _opportunity(self, game, actions, threshold: float = 0.25):
        """Fire at the mover when the best shot's expected effect beats ``threshold``."""
        mover = game.state.units[game.decision.mover]
        best, value = ("opp-pass",), threshold
        for a in actions:
            if a[0] in ("opp-fire", "same-hex-fire"):
                mode = a[2] if len(a) > 2 else None
                v = self.expected_effect(game, game.state.units[a[1]], mover, opportunity=True, mode=mode,
                                         same_hex=a[0] == "same-hex-fire")
                if a[0] == "same-hex-fire":
                    v += 1.0  # free: not an operation (§12.14)
                if v > value:
                    best, value = a, v
        return best

    # raids (§16.2): strike in the turn the enemy is all there, at the most damaging units

    def _plan_raid(self, game, actions):
        me = game.side_to_act
        arrivals = [f.arrival for f in game.state.formations.values() if f.side != me and f.kind == "combat"]
        want = min(max(arrivals, default=1) + 1, game.ctx.scenario.turns)
        turns = [a[1] for a in actions]
        return ("raid-turn", min(turns, key=lambda t: (abs(t - want), t)))

    def _air_strike(self, game, actions):
        return ("air-strike",) if game.air_targets(game.side_to_act, []) else ("pass",)

    def _plan_bombardment(self, game, actions):
        me = game.side_to_act
        arrivals = [f.arrival for f in game.state.formations.values() if f.side != me and f.kind == "combat"]
        want = min(max(arrivals, default=1) + 1, game.ctx.scenario.turns)
        return min(actions, key=lambda a: (abs(a[1] - want), a[1], a[2]))

    def _bombard(self, game, actions):
        d = game.decision
        raid = game.ctx.model.raid_cards[d.raid_card].bombardment
        marked = [t for _, t in d.markers]
        best, best_value = ("fire-bombardment",), 0.0
        for a in actions:
            if a[0] != "bombard":
                continue
            fo, t = game.state.units[a[1]], game.state.units[a[2]]
            v = self._p_spot(game, fo, t) * self.expected_raid(game, t, raid) * 0.5 ** marked.count(t.id)
            if v > best_value:
                best, best_value = a, v
        return best if best in actions else actions[0]

    def expected_raid(self, game, target, raid) -> float:
        mode = game.raid_mode(target, raid)
        factor = raid["anti_vehicle" if mode == "av" else "anti_infantry"]
        column = "vehicle" if target.type.is_vehicle else "non_vehicle"
        shift = factor - target.type.defense + sum(game.raid_modifiers(target, mode).values())
        return _expected_result(game.ctx.tables, column, shift)

    def _air_target(self, game, actions):
        d = game.decision
        raid = game.ctx.model.raid_cards[d.raid_card].air_strike
        marked = d.markers
        return max(actions, key=lambda a: self.expected_raid(game, game.state.units[a[1]], raid)
                   * 0.5 ** marked.count(a[1]))

    def _lowest(self, game, actions):
        return actions[0]


def goal_distance(game, side: str, unit_type=None) -> dict[str, float]:
    """Hex -> distance to what the side's victory terms reward reaching (exit edge, zone, map);
    empty when they reward no place. Shared by every game on the battlefield (memoised)."""
    return HeuristicBot._goal_distance(None, game, side, unit_type)


def _enemies(game, side: str) -> tuple[list, set]:
    """Enemy positions (axial) and hexes, for HeuristicBot._view."""
    axial = game.ctx.field.board.axials
    enemies = [x for x in game.state.units.values() if x.status == "on-map" and x.side != side]
    return [axial[x.hex] for x in enemies], {x.hex for x in enemies}


def _nearest(positions: list, here, n: int = 4) -> list:
    """The n positions nearest to here, in their order when distances tie (a stable sort)."""
    hq, hr = here
    dist = [max(abs(q - hq), abs(r - hr), abs(q - hq + r - hr)) for q, r in positions]  # axial_distance
    return [positions[i] for i in sorted(range(len(positions)), key=dist.__getitem__)[:n]]








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


def _known_mines(game, side: str) -> dict:
    """Minefields the side knows of and what entering one costs in the move score: a revealed
    enemy one attacks every time (§15.13), its own only on 2 or 12 (§15.14), none if exempt."""
    if not game.state.minefields:
        return {}
    own = 0 if game.exempt_from_own_mines(side) else 0.5
    return {m["hex"]: (own if m["side"] == side else 6) for m in game.state.minefields
            if m["active"] and (m["revealed"] or m["side"] == side)}


def _best(actions, kind: str, default: tuple, value) -> tuple:
    """The action of that kind worth most (strictly more than 0), else the default; the first wins ties."""
    best, top = default, 0.0
    for a in actions:
        if a[0] == kind:
            v = value(a)
            if v > top:
                best, top = a, v
    return best
