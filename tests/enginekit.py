"""Helpers shared by the engine tests."""
from sandtable.rules.desert_steel.bots.core import make_bot
from sandtable.rules.desert_steel.engine.invariants import assert_ok


def play_checked(game, bots, limit: int = 40000):
    """Play a game to its end with bots, checking every invariant after every action."""
    players = {"allied": make_bot(bots[0], 1), "axis": make_bot(bots[1], 2)}
    assert_ok(game)
    for _ in range(limit):
        if game.is_terminal():
            break
        game.apply(players[game.current_player()].choose(game, game.legal_actions()))
        assert_ok(game)
    assert game.is_terminal() and "winner" in game.returns()
    return game


def ladder_game(catalog, scenario_id, seed=None):
    """A game of the scenario on its sample setup, with the ladder's first seed unless told."""
    from sandtable.rules.desert_steel.engine.game import Game
    from sandtable.rules.desert_steel.engine.runner import game_seed, sample_setup
    scenario = catalog.model.scenario(scenario_id)
    return Game(catalog.model, scenario, sample_setup(catalog, scenario), game_seed(1, 0) if seed is None else seed)


def play_until_turn(game, players, turn):
    """Play on (players: side -> bot) until the game reaches ``turn`` or ends."""
    steps = 0
    while not game.is_terminal() and game.state.turn < turn:
        game.apply(players[game.current_player()].choose(game, game.legal_actions()))
        steps += 1
        assert steps < 100_000
