"""The heuristic's forward observers and preplanned bombardments (issue 15: wasted bombardments).
An FO goes where it sees an enemy, not into it; a bombardment the forecast has no sighting for is
planned next to the turns it did see the enemy, not on the distance guess before any contact."""
from __future__ import annotations

from sandtable.rules.desert_steel.bots.heuristic import HeuristicBot2
from sandtable.rules.desert_steel.engine.dice import ScriptedDice
from test_engine_advanced import advanced_game, place, start_phase


def _observer_facing_a_grant(model, fo_card, fo_type, stance):
    """An Axis FO at B2113 and an Allied Grant 8 hexes off (visibility 5: out of sight), the
    bot's stance for the Axis set."""
    game = advanced_game(model, ScriptedDice([]))
    game.state.visibility = 5
    fo = place(game, f"{fo_card}.1", fo_card, fo_type, "B2113", "axis")
    tank = place(game, "410.1", 410, "gb-grant", "B2105", "allied")
    start_phase(game)
    bot = HeuristicBot2(0)
    bot._stances[(game.state.turn, "axis")] = stance
    return game, fo, tank, bot


def test_an_observer_moves_to_see_an_enemy_and_stays_once_it_does(model):
    """IX's FO crept a hex a turn towards the enemy and stood 6 hexes off (visibility 5) at its
    preplanned bombardments: they came down on nothing."""
    game, fo, tank, bot = _observer_facing_a_grant(model, 166, "de-fo", "attack")
    board = game.ctx.field.board
    assert not game.visible(fo.hex, tank.hex)  # 8 hexes: beyond the visibility
    assert bot._wants_to_move(game, fo)
    view = bot._make_view(game, fo)
    assert view["watch"] == [tank.hex]
    watching = next(h for h in ("B2109", "B2108", "B2110") if game.visible(h, tank.hex))
    beside = "B2106"
    assert board.distance(beside, tank.hex) == 1
    assert bot._score_hex(game, fo, watching, view) < bot._score_hex(game, fo, beside, view)
    assert bot._score_hex(game, fo, watching, view) < bot._score_hex(game, fo, fo.hex, view)
    fo.hex = watching  # there: it stays and watches
    assert not bot._wants_to_move(game, fo)


def test_a_bombardment_without_a_forecast_sighting_goes_next_to_the_turns_that_had_one(model):
    """IX: the forecast saw the enemy at turns 12-13 only; the third bombardment went on the
    distance guess, turn 3, when no FO could see anything."""
    bot = HeuristicBot2(0)

    class Stub:  # only what _plan_bombardment reads
        side_to_act = "axis"

        class state:
            raids = [{"side": "axis", "kind": "bombardment", "turn": t, "spotting_card": 166} for t in (12, 13)]

    bot._contact_turn = lambda game, side: 3
    bot._sightings = lambda game, side: {(t, 166): (2 if t in (12, 13) else 0) for t in range(1, 21)}
    actions = [("bombardment-plan", t, 166) for t in range(1, 21) if t not in (12, 13)]
    assert bot._plan_bombardment(Stub, actions) in (("bombardment-plan", 14, 166), ("bombardment-plan", 11, 166))
    assert bot._plan_bombardment(Stub, actions) == ("bombardment-plan", 14, 166)  # after contact, not before
    bot._sightings = lambda game, side: {}  # nothing seen ahead: the distance guess
    assert bot._plan_bombardment(Stub, actions) == ("bombardment-plan", 3, 166)


def _duty(game, card, turn):
    game.state.raids.append({"side": "axis", "kind": "bombardment", "turn": turn, "spotting_card": card,
                             "done": False, "origin": "preplanned"})


def test_an_observer_with_bombardments_to_spot_walks_into_sight_and_leaves_a_place_to_reach_first(model):
    """An FO on duty walks the last hexes into sight (its carrier keeps out of the guns' reach),
    also on a holding side; where its side scores by reaching a place, it goes there (Tobruk's
    Axis lost exits when its FO stayed to watch)."""
    game, fo, tank, bot = _observer_facing_a_grant(model, 514, "it-fo", "hold")
    assert not bot._on_duty(game, fo)
    assert not bot._wants_to_move(game, fo)  # holding, nothing to spot: it stays
    _duty(game, 514, game.state.turn + 2)
    assert bot._on_duty(game, fo)
    assert bot._wants_to_move(game, fo)  # not in sight yet
    assert bot._make_view(game, fo)["watch"] == [tank.hex]
    assert not bot._rides(game, fo)  # the last hexes into sight on foot
    fo.hex = "B2109"
    assert not bot._wants_to_move(game, fo)  # in sight: it stays for the bombardment
    game.state.turn += 3  # the booked turn is past: the duty is over
    assert not bot._on_duty(game, fo)
    game.state.turn -= 3
    fo.hex = "B2113"
    bot._goal_distance = lambda *a, **k: {"B2113": 5, "B2112": 4}  # a place to reach
    assert bot._make_view(game, fo)["watch"] is None  # the objective leads


def test_a_carrier_with_an_observer_on_duty_keeps_out_of_the_reach_of_seen_guns(model):
    """XV: the truck carrying the Italian FO and its three howitzers drove 9 hexes from a seen
    gun; one shot lost the formation and its three preplanned bombardments."""
    from test_engine_advanced import truck
    game = advanced_game(model, ScriptedDice([]))
    game.state.visibility = 12
    t = truck(game, "TX.1", "de-truck", "B2113", "axis")
    fo = place(game, "514.4", 514, "it-fo", "B2113", "axis")
    fo.carried_by = t.id
    gun = place(game, "410.1", 410, "gb-grant", "B2105", "allied")
    start_phase(game)
    bot = HeuristicBot2(0)
    assert bot._make_view(game, t)["guns"] == []  # no bombardment to spot: only the usual caution
    _duty(game, 514, game.state.turn + 1)
    view = bot._make_view(game, t)
    reach = view["guns"][0][1]
    assert view["guns"] == [(gun.hex, reach)] and reach >= 2
    board = game.ctx.field.board
    inside = next(h for h in ("B2109", "B2108", "B2110") if game.visible(gun.hex, h))
    assert board.distance(inside, gun.hex) <= reach
    far = "B2125"
    assert board.distance(far, gun.hex) > reach
    guarded = bot._score_hex(game, t, inside, view) - bot._score_hex(game, t, far, view)
    game.state.raids.clear()
    plain_view = bot._make_view(game, t)
    plain = bot._score_hex(game, t, inside, plain_view) - bot._score_hex(game, t, far, plain_view)
    assert guarded - plain == 10.0


def test_an_observer_on_its_way_to_a_place_gets_into_sight_the_turn_before_its_bombardment(model):
    """XV: the FO rode on towards the exit and was out of sight when its bombardment came down
    at its formation's next activation."""
    game, fo, tank, bot = _observer_facing_a_grant(model, 514, "it-fo", "attack")
    bot._goal_distance = lambda *a, **k: {"B2113": 5, "B2112": 4}  # a place to reach
    _duty(game, 514, game.state.turn + 3)
    assert bot._make_view(game, fo)["watch"] is None  # not yet: the objective leads
    game.state.turn += 2  # the bombardment is next turn
    assert bot._booked_next_turn(game, fo)
    assert bot._make_view(game, fo)["watch"] == [tank.hex]
    assert bot._wants_to_move(game, fo)
    fo.hex = "B2109"
    assert not bot._wants_to_move(game, fo)  # in sight: it waits for the bombardment
