"""The 'block' plan (plan_block.py): a side whose enemy scores by reaching a place stands across
the enemy's way, ahead of it, instead of where the heuristic waits (nearer the objective)."""
import pytest

from sandtable.rules.desert_steel.bots import plan_block  # noqa: F401 - registers the plan
from enginekit import ladder_game, play_until_turn

from sandtable.rules.desert_steel.bots.core import make_bot
from sandtable.rules.desert_steel.bots.heuristic import HeuristicBot2
from sandtable.rules.desert_steel.bots.plan_block import BlockBot
from sandtable.rules.desert_steel.engine.runner import game_seed
from sandtable.rules.desert_steel.bots.search_policies import PLAN_CLASSES, VariantBot

_game = ladder_game
_play_until = play_until_turn


def test_registered():
    assert PLAN_CLASSES["block"] is BlockBot
    bot = VariantBot(3, "block")
    assert type(bot) is BlockBot and bot.variant == "block"


@pytest.mark.parametrize("scenario_id, allied, axis", [
    ("I", True, False),  # the Italians exit off B's south edge; the British have no place to reach
    ("V", True, False),  # the Axis exits south
    ("XV", True, False),  # the Axis exits off B's north edge
    ("IX", False, False),  # an attrition race: no place for either side
    ("II", False, True),  # the Matildas exit north; the Axis has no place of its own
])
def test_applies(catalog, scenario_id, allied, axis):
    game = _game(catalog, scenario_id)
    assert BlockBot.applies(game, "allied") is allied
    assert BlockBot.applies(game, "axis") is axis


def test_band_stands_ahead_of_the_enemy_not_at_its_exit(catalog):
    """V, turn 3 (both sides heuristic until then): the heuristic's blockers wait where the way
    meets the exit edge; the plan's band lies between the enemy and the edge, at least AHEAD
    hexes in front of the enemy's leading quarter and away from the edge."""
    game = _game(catalog, "V")
    seed = game_seed(1, 0)
    _play_until(game, {"allied": make_bot("heuristic", seed), "axis": make_bot("heuristic", seed + 1)}, 3)
    heuristic, plan = HeuristicBot2(seed), VariantBot(seed, "block")
    plan.me = "allied"
    goal = plan._goal_distance(game, "axis")  # hexes to the Axis's exit
    mine = plan._block_distance(game, "allied")
    theirs = heuristic._block_distance(game, "allied")
    front = {h for h, d in mine.items() if d == 0}
    old_front = {h for h, d in theirs.items() if d == 0}
    assert front and old_front
    assert min(goal[h] for h in old_front) == 0  # the heuristic's front runs to the edge
    enemy = sorted(goal[u.hex] for u in game.state.units.values() if u.side == "axis" and u.on_map)
    lead = enemy[int(BlockBot.LEADQ * (len(enemy) - 1))]
    assert all(goal[h] <= lead - BlockBot.AHEAD for h in front)
    assert min(goal[h] for h in front) > 0  # not at the edge


def test_blockers_move_out_to_meet_the_enemy(catalog):
    """V, turn 3: a free Allied tank standing at the exit edge wants to move under the plan
    (towards the band; the heuristic keeps it there) and scores a hex farther from the edge better than its own."""
    game = _game(catalog, "V")
    seed = game_seed(1, 0)
    _play_until(game, {"allied": make_bot("heuristic", seed), "axis": make_bot("heuristic", seed + 1)}, 3)
    plan = VariantBot(seed, "block")
    plan.me = "allied"
    heuristic = HeuristicBot2(seed)
    goal = plan._goal_distance(game, "axis")
    edge = [u for u in game.state.units.values() if u.side == "allied" and u.on_map and u.type.is_vehicle
            and u.type.movement and goal.get(u.hex, 99) <= 1 and not heuristic._wants_to_move(game, u)]
    assert edge  # the heuristic keeps these at the edge
    movers = [u for u in edge if plan._wants_to_move(game, u)]
    assert movers
    u = movers[0]
    board = game.ctx.field.board
    farther = [n for n in board.neighbours(u.hex) if goal.get(n, -1) > goal[u.hex]]
    assert any(plan._score_hex(game, u, n) < plan._score_hex(game, u, u.hex) for n in farther)


def test_plays_a_game_to_the_end(catalog):
    """V with the plan for the Allies against the heuristic, switched in after turn 1 as the
    search does (with_plan), to the end without errors."""
    game = _game(catalog, "V")
    seed = game_seed(1, 0)
    me = VariantBot(seed, "heuristic")
    me.me = "allied"
    players = {"allied": me, "axis": make_bot("heuristic", seed + 1)}
    _play_until(game, players, 2)
    me = players["allied"] = me.with_plan("block")
    assert type(me) is BlockBot
    _play_until(game, players, 99)
    assert game.is_terminal()
    assert game.returns()["winner"] in ("allied", "axis", "draw", None)
