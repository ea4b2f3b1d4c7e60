"""The heuristic's answers kept per context (shared by every game of a scenario) equal the answers
made afresh, at every asking of whole games: their keys cover all that they read."""
from __future__ import annotations

import pytest

from sandtable.rules.desert_steel.bots.heuristic import HeuristicBot2
from sandtable.rules.desert_steel.engine.game import make_context
from sandtable.rules.desert_steel.engine.runner import play, sample_setup


def _heuristic_games(model, catalog, number: str, games: int):
    """Seeds 0 .. games-1 of the heuristic against itself on the scenario, on one shared context
    (as a batch plays them: what is kept per context carries from game to game); the context."""
    scenario = model.scenario(number)
    ctx, setup = make_context(model, scenario), sample_setup(catalog, scenario)
    for seed in range(games):
        play(model, scenario, setup, seed, ("heuristic", "heuristic"), context=ctx)
    return ctx


@pytest.mark.parametrize("number,games", [("I", 4), ("II", 2), ("IV", 2), ("XIV", 1)])
def test_exit_answers_kept_per_context_equal_fresh_ones(model, catalog, monkeypatch, number, games):
    """Scenarios whose victory terms score exits: _exit_pays' per-context answers (the position,
    the turn, the unit, the spec) against the same question asked with nothing kept."""
    asked = {"kept": 0, "all": 0}
    kept_answer = HeuristicBot2._exit_raises_margin

    def checked(game, u, spec, shared=True):
        memo = game.ctx.memo.get("bots.exit_pays", {})
        asked["all"] += 1
        asked["kept"] += any(k[2] == u.id and k[3] == id(spec) and k[1] == game.state.turn for k in memo)
        got = kept_answer(game, u, spec)
        assert got == kept_answer(game, u, spec, shared=False)
        return got
    monkeypatch.setattr(HeuristicBot2, "_exit_raises_margin", staticmethod(checked))
    _heuristic_games(model, catalog, number, games)
    assert asked["all"] > 0
    if number == "I":
        assert asked["kept"] > asked["all"] / 2  # most are answered from what an earlier game kept


def test_the_position_key_follows_all_that_victory_reads(model, catalog):
    """What the per-context answers are kept under changes with every unit's hex, status,
    suppression and fate and every formation's shaken marker (what victory's terms read)."""
    from sandtable.rules.desert_steel.bots.heuristic import _position_key
    from sandtable.rules.desert_steel.engine.game import Game
    scenario = model.scenario("I")
    game = Game(model, scenario, sample_setup(catalog, scenario), 1)
    s = game.state
    u = next(x for x in s.units.values() if x.hex)
    f = s.formations[u.card]
    keys = [_position_key(s)]
    for change in (lambda: setattr(u, "hex", next(iter(game.ctx.field.board.neighbours(u.hex)))),
                   lambda: setattr(u, "suppressed", not u.suppressed), lambda: setattr(u, "status", "exited"),
                   lambda: setattr(u, "fate", {"turn": 1, "edge": "west"}), lambda: setattr(f, "shaken", not f.shaken)):
        change()
        keys.append(_position_key(s))
    assert len(set(keys)) == len(keys)
    u.fate = {"unhashable": []}
    assert _position_key(s) is None


@pytest.mark.parametrize("number,games", [("I", 3), ("VIII", 1), ("XIII", 1), ("XV", 1)])
def test_shot_values_kept_per_context_equal_fresh_ones(model, catalog, monkeypatch, number, games):
    """tactics.expected_effect keeps each shot's value per context (both units' fields, the map's
    markers, the bot's class): every value it answers, kept or not, equals the shot weighed afresh
    (scenarios with hidden units, entrenchments, minefields, wire, smoke)."""
    from sandtable.rules.desert_steel.bots import tactics
    kept_value, seen = tactics.expected_effect, {"kept": 0, "all": 0}

    def checked(bot, game, firer, target, opportunity=False, move_fire=False, mode=None, same_hex=False):
        before = len(game.ctx.memo.get("bots.effects", {}))
        got = kept_value(bot, game, firer, target, opportunity, move_fire, mode, same_hex)
        seen["all"] += 1
        seen["kept"] += len(game.ctx.memo.get("bots.effects", {})) == before
        assert got == tactics._effect(bot._p_spot, game, firer, target, opportunity, move_fire, mode, same_hex)
        return got
    monkeypatch.setattr(HeuristicBot2, "expected_effect", checked)
    _heuristic_games(model, catalog, number, games)
    assert seen["all"] > 100 and seen["kept"] > seen["all"] / 4


@pytest.mark.parametrize("number,games", [("I", 3), ("IX", 1), ("XIII", 1), ("XV", 1)])
def test_line_of_sight_to_an_enemy_kept_equals_a_fresh_look(model, catalog, monkeypatch, number, games):
    """_sees_an_enemy keeps the enemy's places in the view's memo while the enemy's units stand
    where they are: at every asking of whole games its answer equals a look made afresh (every
    enemy unit on the map, the line of sight from the unit's hex), and where it says no enemy is
    in sight the engine offers no target (scenarios with hidden units, smoke and changing
    visibility)."""
    from sandtable.rules.desert_steel.engine.context import other
    kept_answer, seen = HeuristicBot2._sees_an_enemy, {True: 0, False: 0}

    def checked(self, game, u):
        got = kept_answer(self, game, u)
        fresh = False
        if u.status == "on-map" and not u.carried_by and u.hex is not None:
            table = game.ctx.table(game.state.visibility)
            fresh = any(table.visible(u.hex, e.hex) for e in game.state.units.values()
                        if e.side == other(u.side) and e.status == "on-map")
        assert got == fresh
        if not got:
            assert game.targets(u) == []
        seen[got] += 1
        return got
    monkeypatch.setattr(HeuristicBot2, "_sees_an_enemy", checked)
    _heuristic_games(model, catalog, number, games)
    assert seen[True] > 20 and seen[False] > 20


def test_side_specs_kept_per_context_equal_fresh_ones(model, catalog):
    """The count specs of a side's victory terms, kept per context, are the side's own: each
    side's equal a walk of the expression made afresh, for every scenario."""
    from sandtable.rules.desert_steel.bots.heuristic import _side_specs
    from sandtable.rules.desert_steel.engine.game import Game
    from sandtable.rules.desert_steel.routes import count_specs
    differ = 0
    for number in ("I", "II", "IV", "VII", "XI", "XIV", "XV"):
        scenario = model.scenario(number)
        game = Game(model, scenario, sample_setup(catalog, scenario), 1)
        expression = scenario.raw["victory"].get("expression", {})
        answers = {}
        for side in ("allied", "axis", "allied"):
            fresh = [s for t in expression.get("points", {}).get(side, ()) for s in count_specs(t["value"])]
            fresh += [s for o in expression.get("outcomes", ()) if o["result"]["winner"] == side
                      for s in count_specs(o["when"])]
            fresh = [s for s in fresh if s.get("units", {}).get("side", side) == side]
            answers[side] = _side_specs(game, side)
            assert list(answers[side]) == fresh
        differ += answers["allied"] != answers["axis"]
    assert differ > 0


@pytest.mark.parametrize("number,games", [("I", 3), ("VII", 1), ("XI", 1), ("XV", 1)])
def test_ways_down_a_goal_kept_per_battlefield_equal_fresh_ones(model, catalog, number, games):
    """A holding side's corridor walks down the enemy's goal distance by the steepest neighbour,
    kept per battlefield with each goal table (heuristic._downhill): after whole games every kept
    step equals the steepest neighbour read afresh from the table it is kept with, and two tables
    of one battlefield keep their steps apart (it fails if they share one set of steps)."""
    from sandtable.rules.desert_steel.bots.heuristic import _downhill, _steepest
    from sandtable.rules.desert_steel.routes import reverse_costs
    ctx = _heuristic_games(model, catalog, number, games)
    board, kept = ctx.field.board, ctx.field.memo.get("bots.downhill", {})
    steps = 0
    for goal, down in kept.values():
        for h, n in down.items():
            assert n == _steepest(board.neighbours(h), goal)
            steps += 1
    assert steps > 50
    hexes = sorted(board.usable)
    west, east = reverse_costs(ctx.field, {hexes[0]}, None), reverse_costs(ctx.field, {hexes[-1]}, None)
    middle = hexes[len(hexes) // 2]
    _downhill(ctx.field, west)[middle] = _steepest(board.neighbours(middle), west)
    assert _downhill(ctx.field, east).get(middle, _steepest(board.neighbours(middle), east)) \
        == _steepest(board.neighbours(middle), east) != _steepest(board.neighbours(middle), west)
