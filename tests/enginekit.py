"""Helpers shared by the engine tests."""
from sandtable.rules.desert_steel.engine.bots import make_bot
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
