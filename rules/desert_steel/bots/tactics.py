"""What the two heuristic bots share (``heuristic-v1``, core.HeuristicBot, and ``heuristic``,
heuristic.HeuristicBot2): the expected effect of a shot, an indirect fire, a raid or an assault
(spotting chance times the chance of each combat result, from the pack's tables, memoised for
one decision in ``bot._spots``), the move scores of the first bot, and the answers to the
decisions neither bot changes. Each is a function of the bot and the game: both classes bind
them as methods, so a bot's own overrides (its goal distances, its view of a move) are the ones
called. Neither bot inherits from the other."""
from __future__ import annotations

import dataclasses
import itertools
import operator
from functools import lru_cache

from ..engine.context import other
from ..engine.state import Unit
from ..engine.tables import hit_value
from ..setup_rules import doctrine_radius

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

_VALUE = {"miss": 0.0, "destroyed": 1.0}


def result_value(result: str) -> float:
    if result in _VALUE:
        return _VALUE[result]
    return 0.25 + 0.1 * (hit_value(result) or 0)


@lru_cache(maxsize=1)
def three_d6() -> list[tuple[int, float]]:
    counts: dict[int, int] = {}
    for dice in itertools.product(range(1, 7), repeat=3):
        counts[sum(dice)] = counts.get(sum(dice), 0) + 1
    return sorted((total, n / 216) for total, n in counts.items())


_EXPECTED: dict = {}


def expected_result(tables, column: str, shift: float) -> float:
    """Expected value of a fire with this total shift on 3d6 (memoised per table)."""
    key = (id(tables.raw), column, shift)
    if key not in _EXPECTED:
        _EXPECTED[key] = sum(p * result_value(tables.crt(column, int(raw + shift))) for raw, p in three_d6())
    return _EXPECTED[key]


def enemy_positions(game, side: str) -> tuple[list, set]:
    """Enemy positions (axial) and hexes, for move_view."""
    axial = game.ctx.field.board.axials
    enemies = [x for x in game.state.units.values() if x.status == "on-map" and x.side != side]
    return [axial[x.hex] for x in enemies], {x.hex for x in enemies}


def nearest_positions(positions: list, here, n: int = 4) -> list:
    """The n positions nearest to here, in their order when distances tie (a stable sort)."""
    hq, hr = here
    dist = [max(abs(q - hq), abs(r - hr), abs(q - hq + r - hr)) for q, r in positions]  # axial_distance
    return [positions[i] for i in sorted(range(len(positions)), key=dist.__getitem__)[:n]]


def known_mines(game, side: str) -> dict:
    """Minefields the side knows of and what entering one costs in the move score: a revealed
    enemy one attacks every time (§15.13), its own only on 2 or 12 (§15.14), none if exempt."""
    if not game.state.minefields:
        return {}
    own = 0 if game.exempt_from_own_mines(side) else 0.5
    return {m["hex"]: (own if m["side"] == side else 6) for m in game.state.minefields
            if m["active"] and (m["revealed"] or m["side"] == side)}


def best_of(actions, kind: str, default: tuple, value) -> tuple:
    """The action of that kind worth most (strictly more than 0), else the default; the first wins ties."""
    best, top = default, 0.0
    for a in actions:
        if a[0] == kind:
            v = value(a)
            if v > top:
                best, top = a, v
    return best


def p_spot(bot, game, spotter, target, opportunity=False, move_fire=False) -> float:
    memo = bot._spots
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


# what expected_effect reads of a unit (its type apart, by identity): every field but its fate
_FACE = operator.attrgetter(*(f.name for f in dataclasses.fields(Unit) if f.name not in ("fate", "type")))


def _markers(memo: dict, game):
    """What expected_effect reads of the map's markers (entrenchments, bunkers, minefields, wire,
    smoke: the modifier table's), as a key, once per decision and game (held with the game: its
    id is not taken by another while it stands); None when there are none, TypeError when one
    holds something unhashable."""
    s = game.state
    if not (s.entrenchments or s.bunkers or s.minefields or s.wire or s.smoke):
        return None
    hit = memo.get(("markers", id(game)))
    if hit is None or hit[0] is not game:
        marks = (tuple(tuple(sorted(e.items())) for e in s.entrenchments),
                 tuple(tuple(sorted(b.items())) for b in s.bunkers),
                 tuple(tuple(sorted(m.items())) for m in s.minefields), tuple(sorted(s.wire.items())), tuple(s.smoke))
        hash(marks)
        hit = memo[("markers", id(game))] = (game, marks)
    return hit[1]


def expected_effect(bot, game, firer, target, opportunity=False, move_fire=False, mode=None,
                    same_hex=False) -> float:
    """The expected effect of the shot (destroyed = 1): memoised for one decision in
    ``bot._spots``, and kept per context under all that it reads (both units' every field but
    their fates, their types by identity, the map's markers, the bot's class, the shot's
    circumstances): the same shots are weighed decision after decision while the units stand
    (an activation's units, one by one), and game after game (I: 65 % of the shots weighed)."""
    memo = bot._spots  # one choose(): the game stands still (as for _p_spot)
    key = ("effect", id(game), firer.id, target.id, opportunity, move_fire, mode, same_hex)
    if memo is not None and key in memo:
        return memo[key]
    kept = shared = None
    if memo is not None:
        try:
            shared = (type(bot), id(firer.type), id(target.type), _FACE(firer), _FACE(target), opportunity,
                      move_fire, mode, same_hex, _markers(memo, game))
            kept = game.ctx.memo.setdefault("bots.effects", {})
            hit = kept.get(shared)
        except TypeError:  # something unhashable: weighed afresh, unkept
            kept = hit = None
        if hit is not None and hit[0] is firer.type and hit[1] is target.type:
            memo[key] = hit[2]
            return hit[2]
    value = _effect(bot._p_spot, game, firer, target, opportunity, move_fire, mode, same_hex)
    if kept is not None:
        if len(kept) > 8192:  # (a few megabytes: XV weighs some 7,000 new shots a game)
            kept.clear()
        kept[shared] = (firer.type, target.type, value)
    if memo is not None:
        memo[key] = value
    return value


def _effect(spot, game, firer, target, opportunity, move_fire, mode, same_hex) -> float:
    """expected_effect weighed afresh; ``spot``: the bot's _p_spot."""
    t = game.ctx.tables
    mode = mode or game.natural_mode(target)
    p_spot = spot(game, firer, target, opportunity, move_fire)
    if p_spot == 0:
        value = 0.0
    else:
        column = "vehicle" if target.type.is_vehicle else "non_vehicle"
        factor = game.factor(firer, mode == "av") + game.self_spotting(firer)
        mods = game.fire_modifiers(firer, target, move_fire, game.cover(firer, target), mode,
                                   same_hex and firer.flipped)
        shift = factor - target.type.defense + sum(mods.values())
        value = p_spot * expected_result(t, column, shift)
    return value


def expected_indirect(bot, game, firer, spotter, target, mode=None) -> float:
    """Spotting chance times the effect on the target, plus the zone's effect on the others."""
    t = game.ctx.tables
    mode = mode or game.natural_mode(target)
    p_spot = bot._p_spot(game, spotter, target)
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
        value += expected_result(t, column, factor + bonus - x.type.defense + mods)
    return p_spot * value


def command(bot, game, actions):
    if ("rally",) in actions:
        return ("rally",)
    best, score = ("decline",), 0
    for a in actions:
        if a[0] == "activate":
            n = sum(1 for c in a[1] for u in game.units_of(c) if u.ready or u.status == "off-map")
            if n > score:
                best, score = a, n
    return best


def engineer_plan(bot, game, u):
    """Clear where it stands; else step into an obstacle that lies on its way to the goal."""
    if game.engineer_clearable(u):
        return ("clear",)
    goal = bot._goal_distance(game, u.side)
    here = goal.get(u.hex, 99) if goal else 99
    obstacles = [n for n in game.engineer_steps(u)
                 if n in game.state.wire or game.minefield_at(n, known_to=u.side) is not None]
    ahead = sorted((goal.get(n, 99), n) for n in obstacles if goal and goal.get(n, 99) < here)
    return ("step", ahead[0][1]) if ahead else None


def engineer(bot, game, actions):
    plan = bot._engineer_plan(game, game.state.units[game.decision.unit])
    return plan if plan in actions else ("cancel",)


def wants_to_move(bot, game, u) -> bool:
    goal = bot._goal_distance(game, u.side)
    if goal:
        return goal.get(u.hex, 99) > 0 or game.ctx.field.exit_cost(u.type, u.hex) is not None
    enemies = game.state.by_placement(("bot-enemies", u.side), lambda: enemy_positions(game, u.side),
                                      (other(u.side),))[0]
    if not enemies:
        return False
    reach = game.range(u, True) or 1
    q, r = game.ctx.field.board.axials[u.hex]
    nearest = min([max(abs(eq - q), abs(er - r), abs(eq - q + er - r)) for eq, er in enemies])  # distance
    return nearest > max(1, reach // 2)


def move_view(bot, game, u, goal: bool = True) -> dict:
    """What scoring a move needs, gathered once per decision (axial positions: cheap distances);
    ``goal=False``: without the goal distances (a caller that puts its own)."""
    axial = game.ctx.field.board.axials
    state = game.state
    enemies, enemy_hexes = state.by_placement(("bot-enemies", u.side), lambda: enemy_positions(game, u.side),
                                              (other(u.side),))
    # its formation's units on the map (the card index: a seat's view keeps it from one decision to the next)
    mates = [axial[m.hex] for m in state.of_card(u.card) if m.status == "on-map" and m is not u]
    if mates:  # the farthest mate from a hex, in O(1): hex distance is the largest of three spans
        qs, rs, ss = [q for q, _ in mates], [r for _, r in mates], [q + r for q, r in mates]
        mates = (min(qs), max(qs), min(rs), max(rs), min(ss), max(ss))
    if u.hex is not None and len(enemies) > 4:  # candidates are next door: the nearest few decide
        enemies = state.by_placement(("nearest-enemies", u.side, u.hex),
                                     lambda: nearest_positions(enemies, axial[u.hex]), (other(u.side),))
    return {"goal": bot._goal_distance(game, u.side, u.type) if goal else None, "enemies": enemies,
            "friends": lambda h: sum(1 for x in state.here(h) if x.side == u.side and x.type.is_vehicle
                                     and x is not u) if state.here(h) else 0,  # other friendly vehicles
            "mates": mates, "enemy_hexes": enemy_hexes, "axial": axial,
            "radius": doctrine_radius(game.ctx.field.settings, game.ctx.model.cards[u.card])
            if u.card in game.ctx.model.cards else None,
            "reach": max(1, (game.range(u, True) or 2) // 2),
            "limit": game.ctx.tables.stacking()["vehicles"], "mines": known_mines(game, u.side)}


def score_hex(bot, game, u, hex_, view=None) -> float:
    """Lower is better: movement points to the goal (or distance to the enemy), staying with
    the formation, and never ending where the stacking limit would be broken (§8.52)."""
    view = view or bot._view(game, u)
    scorer = view.get("hex_scorer")
    if scorer is None:
        scorer = view["hex_scorer"] = hex_scorer(u, view)
    return scorer(hex_, hex_ == u.hex)


def hex_scorer(u, view):
    """score_hex of one unit's view as a function of (hex, whether the unit stands there), the
    view's fields read once: a move scores the hexes around it at every step. It keeps only the
    unit's type (a move's later steps hand in a new copy of the unit)."""
    axial, goal, enemies, reach = view["axial"], view["goal"], view["enemies"], view["reach"]
    mates = view["mates"] if view["mates"] and view["radius"] is not None else None
    radius = view["radius"]
    enemy_hexes, mines, friends, limit = view["enemy_hexes"], view["mines"], view["friends"], view["limit"]
    vehicle = u.type.is_vehicle

    def score(hex_, here: bool) -> float:
        aq, ar = axial[hex_]
        if goal:
            s = goal.get(hex_, 99)
        elif enemies:
            s = abs(min([max(abs(q - aq), abs(r - ar), abs(q - aq + r - ar)) for q, r in enemies])
                    - reach)  # axial_distance, inlined: the hottest loop of a move
        else:
            s = 0
        if mates:
            q0, q1, r0, r1, s0, s1 = mates  # max over mates of axial_distance(hex, mate)
            far = max(q1 - aq, aq - q0, r1 - ar, ar - r0, s1 - aq - ar, aq + ar - s0)
            s += 0.2 * max(0, far - 2 * radius)  # less than a road hex (0.5 MP) of progress
        if hex_ in enemy_hexes:
            s += 2  # entering an enemy hex ends the move
        if vehicle and not here and friends(hex_) >= limit:
            s += 50
        if mines and not here:
            s += mines.get(hex_, 0)
        return s
    return score


def assault_value(bot, game, u, v) -> float:
    if v.side == u.side or not game.fire_modes(u, v):
        return 0.0
    t = game.ctx.tables
    mode = game.fire_modes(u, v)[-1] if v.type.lightly_armored else "av"
    factor = game.factor(u, mode == "av")
    if factor is None:
        return 0.0
    shift = factor - v.type.defense + t.range_modifier(0) + t.fire("close_assault")
    return expected_result(t, "vehicle", shift)


def assault_hex(bot, game, actions):
    u = game.state.units[game.decision.unit]
    return best_of(actions, "hex", ("cancel",), lambda a: max(
        (bot._assault_value(game, u, x) for x in game.state.at(a[1])), default=0.0))


def assault_join(bot, game, actions):
    joins = [a for a in actions if a[0] == "join"]
    return joins[0] if joins else ("go",)


def assault_fire(bot, game, actions):
    x = game.assault_shooter()
    return max(actions, key=lambda a: bot.expected_effect(game, x, game.state.units[a[1]],
                                                           mode=a[2] if len(a) > 2 else None))


def assault_react(bot, game, actions):
    units = game.state.units
    return best_of(actions, "react-fire", ("react-pass",), lambda a: bot.expected_effect(
        game, units[a[1]], units[a[2]], opportunity=True, mode=a[3] if len(a) > 3 else None))


def overrun_react(bot, game, actions):
    u = game.state.units[game.decision.unit]
    return best_of(actions, "react-fire", ("react-pass",), lambda a: bot.expected_effect(
        game, game.state.units[a[1]], u, opportunity=True, mode=a[2] if len(a) > 2 else None, same_hex=True))


def overrun_target(bot, game, actions):
    u = game.state.units[game.decision.unit]
    return best_of(actions, "target", ("hold",),
                 lambda a: bot.expected_effect(game, u, game.state.units[a[1]], mode="ai"))


def smoke_hex(bot, game, actions):
    u = game.state.units[game.decision.unit]
    h = bot._smoke_choice(game, u, {a[1] for a in actions if a[0] == "hex"})
    return ("hex", h) if h else ("cancel",)


def spotter(bot, game, actions):
    plan = getattr(bot, "_plan", None)
    if plan and ("spotter", plan[0]) in actions:
        return ("spotter", plan[0])
    u = game.state.units[game.decision.unit]
    best, value = ("cancel",), 0.0
    for sp, t in game.indirect_plans(u):
        v = bot.expected_indirect(game, u, sp, t)
        if v > value and ("spotter", sp.id) in actions:
            best, value = ("spotter", sp.id), v
    return best


def best_target(bot, game, actions, weigh=None) -> tuple:
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
                v = bot.expected_indirect(game, u, game.state.units[spotter], target, mode)
            else:
                v = bot.expected_effect(game, u, target, move_fire=d.move_fire, mode=mode)
            if weigh is not None:
                v = weigh(target, v)
            if v > value:
                best, value = a, v
    return best, value


def target(bot, game, actions):
    u = game.state.units[game.decision.unit]
    best, value = bot._best_target(game, actions)
    bot._plan = None
    if ("smoke",) in actions and value < 0.2 and bot._smoke_choice(game, u):
        return ("smoke",)  # nothing worth shooting: blind the enemy that sees most of us (§17.3)
    return best or actions[-1]


def smoke_choice(bot, game, u, hexes=None):
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


def opportunity(bot, game, actions, threshold: float = 0.25):
    """Fire at the mover when the best shot's expected effect beats ``threshold``."""
    mover = game.state.units[game.decision.mover]
    best, value = ("opp-pass",), threshold
    for a in actions:
        if a[0] in ("opp-fire", "same-hex-fire"):
            mode = a[2] if len(a) > 2 else None
            v = bot.expected_effect(game, game.state.units[a[1]], mover, opportunity=True, mode=mode,
                                     same_hex=a[0] == "same-hex-fire")
            if a[0] == "same-hex-fire":
                v += 1.0  # free: not an operation (§12.14)
            if v > value:
                best, value = a, v
    return best


def air_strike(bot, game, actions):
    return ("air-strike",) if game.air_targets(game.side_to_act, []) else ("pass",)


def bombard(bot, game, actions):
    d = game.decision
    raid = game.ctx.model.raid_cards[d.raid_card].bombardment
    marked = [t for _, t in d.markers]
    best, best_value = ("fire-bombardment",), 0.0
    for a in actions:
        if a[0] != "bombard":
            continue
        fo, t = game.state.units[a[1]], game.state.units[a[2]]
        v = bot._p_spot(game, fo, t) * bot.expected_raid(game, t, raid) * 0.5 ** marked.count(t.id)
        if v > best_value:
            best, best_value = a, v
    return best if best in actions else actions[0]


def expected_raid(bot, game, target, raid) -> float:
    mode = game.raid_mode(target, raid)
    factor = raid["anti_vehicle" if mode == "av" else "anti_infantry"]
    column = "vehicle" if target.type.is_vehicle else "non_vehicle"
    shift = factor - target.type.defense + sum(game.raid_modifiers(target, mode).values())
    return expected_result(game.ctx.tables, column, shift)


def air_target(bot, game, actions):
    d = game.decision
    raid = game.ctx.model.raid_cards[d.raid_card].air_strike
    marked = d.markers
    return max(actions, key=lambda a: bot.expected_raid(game, game.state.units[a[1]], raid)
               * 0.5 ** marked.count(a[1]))


def lowest(bot, game, actions):
    return actions[0]


# method name -> the function both heuristic bots answer with (a bot's own method of that name wins)
SHARED = {
    # the odds
    "_p_spot": p_spot, "expected_effect": expected_effect, "expected_indirect": expected_indirect,
    "expected_raid": expected_raid, "_assault_value": assault_value,
    # the first bot's moves (the second builds on them)
    "_wants_to_move": wants_to_move, "_view": move_view, "_score_hex": score_hex,
    # the answers
    "_command": command, "_engineer_plan": engineer_plan, "_engineer": engineer, "_assault_hex": assault_hex,
    "_assault_join": assault_join, "_assault_fire": assault_fire, "_assault_react": assault_react,
    "_overrun_react": overrun_react, "_overrun_target": overrun_target, "_smoke_hex": smoke_hex,
    "_spotter": spotter, "_best_target": best_target, "_target": target, "_smoke_choice": smoke_choice,
    "_opportunity": opportunity, "_air_strike": air_strike, "_bombard": bombard, "_air_target": air_target,
    "_lowest": lowest,
}


def takes_shared(cls: type) -> type:
    """Class decorator: ``cls`` answers with the shared functions it does not define itself."""
    for name, function in SHARED.items():
        if name not in vars(cls):
            setattr(cls, name, function)
    return cls
