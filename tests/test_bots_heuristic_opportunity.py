"""The heuristic's opportunity fire (issue 15, XII: no opportunity fire in any game): a face-up
unit whose formation cannot be activated again this turn takes any real shot at a mover, since
firing costs it nothing; one that will still act keeps to the usual threshold."""
from __future__ import annotations

from sandtable.rules.desert_steel.bots.heuristic import HeuristicBot2
from sandtable.rules.desert_steel.engine.dice import ScriptedDice
from test_engine_advanced import advanced_game, place, start_phase
from sandtable.rules.desert_steel.engine.decisions import Opportunity


def test_a_unit_with_nothing_left_to_do_this_turn_takes_a_long_opportunity_shot(model):
    game = advanced_game(model, ScriptedDice([]))
    grant = place(game, "410.1", 410, "gb-grant", "B2105", "allied")
    panzer = place(game, "166.1", 166, "de-pz-iii-j", "B2110", "axis")
    start_phase(game)
    game.ask(Opportunity("allied", mover=panzer.id))
    actions = [("opp-fire", grant.id), ("opp-pass",)]
    bot = HeuristicBot2(0)
    bot.expected_effect = lambda *a, **k: 0.09  # a long shot: under every threshold of a unit still to act
    s = game.state
    s.hands["allied"] = [410]  # its card is still to come: it waits to act
    assert bot._opportunity(game, actions) == ("opp-pass",)
    s.hands["allied"], s.played = [], {410}  # activated already, it stood still: the shot is free
    assert bot._spent(game, grant)
    assert bot._opportunity(game, actions) == ("opp-fire", grant.id)
    s.stack = [410]  # (a card on the stack will still activate it)
    assert not bot._spent(game, grant)
    s.stack = []
    bot.expected_effect = lambda *a, **k: 0.01  # no real chance: not worth the Fired marker
    assert bot._opportunity(game, actions) == ("opp-pass",)
