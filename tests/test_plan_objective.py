"""The 'objective' plan (plan_objective.py): a side the enemy beats by holding small places
(XIII: the Axis must hold 2620, 3018 and 3121 at the end) stands on them itself and weighs
shots at their holders up; the heuristic's side only blocks the enemy's way and leaves them empty."""
from types import SimpleNamespace

import pytest

from sandtable.rules.desert_steel.bots import plan_objective  # noqa: F401 - registers the plan
from enginekit import ladder_game, play_until_turn

from sandtable.rules.desert_steel.bots.core import make_bot
from sandtable.rules.desert_steel.bots.heuristic import HeuristicBot2
from sandtable.rules.desert_steel.bots.plan_objective import (MapEdgeBot, ObjectiveBot, deny_border, deny_hexes,
                                                                 deny_zones)
from sandtable.rules.desert_steel.engine.runner import game_seed
from sandtable.rules.desert_steel.bots.search_policies import PLAN_CLASSES, VariantBot

RIDGE = {"B2620", "B3018", "B3121"}

_game = ladder_game
_play_until = play_until_turn


def _played(catalog, scenario_id, variant, turn):
    """A game of the scenario (ladder seed 0) to the start of ``turn``: the Allies play
    ``variant``, the Axis the heuristic."""
    seed = game_seed(1, 0)
    game = _game(catalog, scenario_id)
    me = VariantBot(seed, variant)
    me.me = "allied"
    _play_until(game, {"allied": me, "axis": make_bot("heuristic", seed + 1)}, turn)
    return game


def test_registered():
    assert PLAN_CLASSES["objective"] is ObjectiveBot
    assert PLAN_CLASSES["objective-map"] is MapEdgeBot
    assert type(VariantBot(3, "objective-map")) is MapEdgeBot
    bot = VariantBot(3, "objective")
    assert type(bot) is ObjectiveBot and bot.variant == "objective"


@pytest.mark.parametrize("scenario_id", ["I", "II", "III", "IV", "V", "VII", "VIII", "IX", "X", "XI", "XII",
                                         "XIII", "XIV", "XV"])
def test_applies_only_where_the_enemy_holds_small_places(catalog, scenario_id):
    """Only XIII's terms count units in small zones (the Axis's three ridge hexes); map counts
    (III, XI, VIII) and exits are not places to stand on."""
    game = _game(catalog, scenario_id)
    assert ObjectiveBot.applies(game, "allied") is (scenario_id == "XIII")
    assert ObjectiveBot.applies(game, "axis") is False


def test_places_read_from_the_terms(catalog):
    game = _game(catalog, "XIII")
    assert sorted(sorted(z) for z in deny_zones(game, "allied")) == [["B2620"], ["B3018"], ["B3121"]]
    assert deny_hexes(game, "allied") == RIDGE
    assert deny_hexes(game, "axis") == frozenset()


def test_goal_is_the_ridge_where_the_heuristic_has_none(catalog):
    game = _game(catalog, "XIII")
    seed = game_seed(1, 0)
    plan, heuristic = VariantBot(seed, "objective"), HeuristicBot2(seed)
    plan.me = "allied"
    u = next(x for x in game.state.units.values() if x.side == "allied" and x.on_map
             and x.type.unit_class == "infantry")
    assert heuristic._goal_distance(game, "allied", None, u) == {}
    goal = plan._goal_distance(game, "allied", None, u)
    assert all(goal[h] == 0 for h in RIDGE)
    assert goal[u.hex] > 0 and plan._wants_to_move(game, u)
    # the enemy's goal is the heuristic's own (the same ridge): the plan does not change it
    assert plan._goal_distance(game, "axis") == heuristic._goal_distance(game, "axis")


def _on_ridge(game):
    return sum(1 for u in game.state.units.values() if u.side == "allied" and u.on_map and u.hex in RIDGE)


def test_allies_stand_on_the_ridge_early_and_the_heuristic_does_not(catalog):
    """XIII, start of turn 3: the plan's Allies stand on the ridge hexes; the heuristic's block
    the Axis's way elsewhere and leave them empty."""
    counts = {variant: _on_ridge(_played(catalog, "XIII", variant, 3)) for variant in ("heuristic", "objective")}
    assert counts["heuristic"] == 0
    assert counts["objective"] >= 3


def test_shots_at_holders_weigh_more(catalog):
    game = _game(catalog, "XIII")
    plan = VariantBot(1, "objective")
    card = next(c for c, f in game.state.formations.items() if f.side == "axis")
    on, off = SimpleNamespace(hex="B3018", side="axis", card=card), SimpleNamespace(hex="B1202", side="axis", card=card)
    assert plan._holder_weight(game, off) == (1.0, 0.0)
    scale, bonus = plan._holder_weight(game, on)
    assert scale > 1 and bonus > 0
    game.state.turn = game.ctx.scenario.turns  # the last turn: a holder is worth still more
    assert plan._holder_weight(game, on)[0] > scale


def test_plays_a_game_to_the_end_and_survives_a_switch(catalog):
    """A whole XIII game as the Allies, switched from the heuristic to the plan at turn 5 (as
    the search does), and one of III (where the plan does not apply) to the end."""
    seed = game_seed(1, 1)
    game = _game(catalog, "XIII", seed)
    me = VariantBot(seed, "heuristic")
    me.me = "allied"
    players = {"allied": me, "axis": make_bot("heuristic", seed + 1)}
    _play_until(game, players, 5)
    was = me
    me = players["allied"] = me.with_plan("objective")
    assert type(me) is ObjectiveBot and type(was) is VariantBot  # a new bot for the plan, no class swapped
    _play_until(game, players, 99)
    assert game.is_terminal() and game.returns()["winner"] in ("allied", "axis", "draw", None)
    game = _game(catalog, "III", seed)
    me = VariantBot(seed, "objective")
    me.me = "allied"
    _play_until(game, {"allied": me, "axis": make_bot("heuristic", seed + 1)}, 99)
    assert game.is_terminal()


@pytest.mark.parametrize("scenario_id, allied, axis", [
    ("III", True, False),  # German units on B decide; the Allies have no place of their own
    ("VIII", False, False),  # the Axis wins as things stand: the heuristic holds already
    ("XI", False, False),  # both sides score by their own units on the other's map
    ("XIII", False, False),  # small places: the 'objective' plan's
    ("IX", False, False),
])
def test_map_plan_applies(catalog, scenario_id, allied, axis):
    game = _game(catalog, scenario_id)
    assert MapEdgeBot.applies(game, "allied") is allied
    assert MapEdgeBot.applies(game, "axis") is axis


def test_map_plan_stands_on_its_map_edge_where_the_heuristic_crosses(catalog):
    """III, start of turn 4: the heuristic's Grants have driven onto the Axis's map A; the
    plan's stand on B, on a line inside its edge towards A."""
    game = _game(catalog, "III")
    edge = deny_border(game, "allied")
    board = game.ctx.field.board
    assert edge and all(board.cells[h].map_id == "B" for h in edge)
    where = {}
    for variant in ("heuristic", "objective-map"):
        game = _played(catalog, "III", variant, 4)
        mine = [u for u in game.state.units.values() if u.side == "allied" and u.on_map]
        where[variant] = (sum(board.cells[u.hex].map_id == "A" for u in mine), sum(u.hex in edge for u in mine), len(mine))
    assert where["heuristic"][0] >= 4
    on_a, on_edge, n = where["objective-map"]
    assert on_a == 0
