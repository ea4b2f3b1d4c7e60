"""The engine's speed-ups change no result: the hex index and the placement memos follow every
change to a unit (and survive clone()), the memoised fire, line-of-sight and movement facts agree
with a direct computation, in whole games of several scenarios."""
import random

import pytest

from sandtable.rules.desert_steel.battlefield import Battlefield
from sandtable.rules.desert_steel.bots.core import make_bot
from sandtable.rules.desert_steel.engine.game import Game, make_context
from sandtable.rules.desert_steel.engine.runner import sample_setup
from sandtable.rules.desert_steel.engine.state import DESTROYED, OFF_MAP, ON_MAP, Unit


def _game(catalog, sid, seed=1):
    scenario = catalog.model.scenario(sid)
    return Game(catalog.model, scenario, sample_setup(catalog, scenario), seed,
                context=make_context(catalog.model, scenario))


def _play(game, actions, seed=0):
    bots = {"allied": make_bot("heuristic", seed), "axis": make_bot("heuristic", seed + 1)}
    for _ in range(actions):
        if game.is_terminal():
            return
        game.apply(bots[game.current_player()].choose(game, game.legal_actions()))


def _assert_index(state):
    """at(), here(), on_map() and of_card() as a scan of every unit gives them."""
    units = list(state.units.values())
    for h in {u.hex for u in units} | {None}:
        expected = [u for u in units if u.hex == h and u.status == ON_MAP]
        assert state.at(h) == expected and list(state.here(h)) == expected
    for side in ("allied", "axis"):
        assert list(state.on_map(side)) == [u for u in units if u.side == side and u.status == ON_MAP]
    for card in {u.card for u in units}:
        assert list(state.of_card(card)) == [u for u in units if u.card == card]


def test_hex_index_follows_every_change_to_a_unit(catalog):
    game = _game(catalog, "XV")
    state, rng = game.state, random.Random(3)
    hexes = sorted(game.ctx.field.board.usable)
    _assert_index(state)
    for step in range(400):
        u = rng.choice(list(state.units.values()))
        change = step % 7
        if change < 3:
            u.hex = rng.choice(hexes)  # moves, several in a row, some between two checks
        elif change == 3:
            u.status = rng.choice((ON_MAP, OFF_MAP, DESTROYED))
        elif change == 4:
            u.hidden = not u.hidden
        elif change == 5:  # a unit replaced under its key, and a new one
            state.units[u.id] = Unit(u.id, u.card, u.type, u.side, rng.choice(hexes), 0, ON_MAP)
            state.units[f"new.{step}"] = Unit(f"new.{step}", u.card, u.type, u.side, rng.choice(hexes), 0, ON_MAP)
        else:
            u.side = "axis" if u.side == "allied" else "allied"
        if step % 3:
            _assert_index(state)
    _assert_index(state)


def test_hex_index_survives_clone_and_many_moves_between_two_looks(catalog):
    game = _game(catalog, "XV")
    _play(game, 400)
    _assert_index(game.state)
    copy = game.clone()
    _assert_index(copy.state)
    _play(copy, 300, seed=5)  # the copy moves on: the original's index must not follow it
    _assert_index(game.state)
    _assert_index(copy.state)
    hexes = sorted(game.ctx.field.board.usable)
    for u in list(game.state.units.values())[:100]:  # more changes than the index patches in place
        u.hex, u.status = hexes[len(u.id) % len(hexes)], ON_MAP
    _assert_index(game.state)
    _assert_index(copy.state)


def _modes_direct(game, firer, target, indirect=False):
    """_fire_modes as the rules read (no memo)."""
    if not (firer.on_map and target.on_map) or target.hidden or target.carried_by or firer.carried_by:
        return []
    if not indirect and firer.hex != target.hex and game.bunker_of(firer) is not None \
            and game.in_flank(firer, target.hex):
        return []  # §15.24
    tt, advanced = target.type, game.ctx.advanced
    modes = ["av" if tt.is_vehicle else "ai"]
    if advanced and tt.is_vehicle and tt.lightly_armored:
        modes.append("ai")
    d = game.ctx.field.board.distance(firer.hex, target.hex)
    friends = [x for x in game.state.at(target.hex) if x.side == firer.side] if firer.hex != target.hex else []
    out = []
    for m in modes:
        factor = game.factor(firer, m == "av")
        reach = firer.type.range if indirect and advanced else game.range(firer, m == "av")
        if factor is None or reach is None or d > reach:
            continue
        if m == "av" and not (indirect and advanced) and any(x.type.is_vehicle for x in friends):
            continue
        if advanced and m == "ai" and any(not x.type.is_vehicle or x.type.lightly_armored for x in friends):
            continue
        if advanced and indirect and friends:
            continue
        out.append(m)
    return out


def _can_target_direct(game, firer, target):
    if not _modes_direct(game, firer, target):
        return False
    if firer.hex != target.hex and any(e.side != firer.side and not e.hidden for e in game.state.at(firer.hex)):
        return False
    return game.visible(firer.hex, target.hex)


@pytest.mark.parametrize("sid,actions", [("I", 600), ("VIII", 500), ("XV", 900)])
def test_fire_modes_targets_and_opportunity_firers_match_the_rules(catalog, sid, actions):
    game = _game(catalog, sid)
    for _ in range(3):
        _play(game, actions // 3)
        units = list(game.state.units.values())
        for f in units:
            for t in units:
                if f.side != t.side:
                    assert game.fire_modes(f, t) == _modes_direct(game, f, t)
                    assert game.fire_modes(f, t, indirect=True) == _modes_direct(game, f, t, indirect=True)
            assert game.targets(f) == [t for t in units if t.side != f.side and _can_target_direct(game, f, t)]
            firers = [u for u in units if u.side != f.side and u.ready and not game.state.formations[u.card].shaken
                      and not (u.opportunity_fired and not u.flash_kill) and _can_target_direct(game, u, f)]
            assert game.opportunity_firers(f) == firers


def test_visibility_rows_and_columns_are_the_matrix(catalog):
    game = _game(catalog, "XV")
    table = game.ctx.table(game.state.visibility)
    rng = random.Random(1)
    for _ in range(200):
        a, b = rng.choice(table.keys), rng.choice(table.keys)
        i, j = table.index[a], table.index[b]
        assert table.visible(a, b) == bool(table.matrix[i, j])
        assert bool(table.row(a)[j]) == bool(table.matrix[i, j]) == bool(table.column(b)[i])


def test_movement_memos_follow_the_cost_table_and_wire(catalog):
    model = catalog.model
    f = Battlefield.for_scenario(model, model.scenario("XIII"))
    fresh = Battlefield.for_scenario(model, model.scenario("XIII"))
    stuart, infantry = model.unit_types["gb-stuart"], model.unit_types["de-infantry"]
    pairs = [(a, b) for a in sorted(f.board.usable)[:300] for b in f.board.neighbours(a)]
    for unit, column in ((stuart, "vehicle"), (infantry, "non_vehicle")):
        assert [f.enter_cost(unit, a, b) for a, b in pairs] == \
            [fresh._terrain_cost(unit, column, fresh._costs(), a, b) for a, b in pairs]
        assert [f.exit_cost(unit, k) for k in f.board.usable] == [fresh.exit_cost(unit, k) for k in f.board.usable]
    a, b = pairs[0]
    assert f.board.neighbours(a) == fresh.board.neighbours(a) and f.board.neighbours(a) is not f.board.neighbours(a)
    f.wire = {b}
    assert f.enter_cost(stuart, a, b) == "all"  # wire is never memoised
    f.wire = set()
    f.tables = dict(f.tables)  # a new cost table: the memo starts again
    terrain = {k: {"vehicle": 9, "non_vehicle": 9} for k in f.tables["movement_costs"]["terrain"]}
    f.tables["movement_costs"] = {**f.tables["movement_costs"], "terrain": terrain}
    assert f.enter_cost(stuart, a, b) == 9


def _move_actions_direct(game, d):
    """A move's legal actions as §5.3, §8, §8.4, §13.35, §14 and §7 read (no memo): the steps in
    the board's order, overruns, exits, the change to a move-and-fire, stop."""
    u, f = game.state.units[d.unit], game.ctx.field
    if not u.on_map:
        return None  # entering: its own memo, not looked at here
    first, out = d.steps == 0, []
    for n in f.board.neighbours(u.hex):
        cost = game.enter_cost(u, u.hex, n)
        if not game.may_enter_zone(u, n) or cost == "prohibited" or (cost == "all" and not first):
            continue
        enemies = [e for e in game.state.at(n) if e.side != u.side and not e.hidden]
        if d.loaded and any(e.type.unit_class != "forward-observer" for e in enemies):
            continue
        if not u.type.is_vehicle and game.ctx.advanced and any(
                e.type.is_vehicle and e.type.transport_capacity not in ("truck", "motorcycle") for e in enemies):
            continue
        if first or cost == "all" or d.spent + cost <= d.mp:
            out.append(("step", n))
    if d.overrun == "pending":
        out += [("overrun", n) for n in f.board.neighbours(u.hex) if game.overrun_cost(u, n) is not None]
    exit_cost = f.exit_cost(u.type, u.hex)
    if exit_cost is not None and (first or d.spent + exit_cost <= d.mp):
        out += [("exit", e) for e in ("north", "east", "south", "west") if f.board.edge_distance(u.hex, e) == 1]
    activation = game.activation
    if d.op == "move" and not d.overrun and not d.entering and u.type.is_vehicle and not u.flash_kill \
            and u.type.anti_vehicle is not None and d.spent <= game.move_fire_mp(u) \
            and (activation is None or u.id not in activation.cancelled):
        out.append(("move-fire",))
    return out + [("stop",)]


@pytest.mark.parametrize("sid,bots", [("I", "random"), ("I", "heuristic"), ("VIII", "random"), ("XIII", "heuristic")])
def test_memoised_move_steps_are_the_rules_steps(catalog, sid, bots):
    """Every move decision of whole games (the step lists memoised per context by hex, unit type
    and side: many games share the memo, as a batch's do)."""
    scenario = catalog.model.scenario(sid)
    ctx, setup = make_context(catalog.model, scenario), sample_setup(catalog, scenario)
    moves = 0
    for seed in range(3):
        game = Game(catalog.model, scenario, setup, seed, context=ctx)
        players = {"allied": make_bot(bots, seed), "axis": make_bot(bots, seed + 1)}
        while not game.is_terminal():
            legal = game.legal_actions()
            if game.mode == "move":
                direct = _move_actions_direct(game, game.decision)
                if direct is not None:
                    assert legal == direct, (sid, seed, game.decision)
                    moves += 1
            game.apply(players[game.current_player()].choose(game, legal))
    assert moves > 100
