"""The advanced rules in the engine (§12, §13.1-13.4, §14, §17, §18.4/18.6): each rule sentence by
itself with scripted dice, the §13.28 worked example replayed, the bots' use of the new operations,
and the invariants checked after every action of whole games (I, V and VIII)."""
import pytest
from enginekit import play_checked

from sandtable.rules.desert_steel.battlefield import Battlefield
from sandtable.rules.desert_steel.engine import outcomes as oc
from sandtable.rules.desert_steel.engine.dice import ScriptedDice
from sandtable.rules.desert_steel.engine.game import EngineError, Game, make_context, missing_rules
from sandtable.rules.desert_steel.engine.state import ON_MAP, Formation, Unit
from sandtable.rules.desert_steel.engine.decisions import Activation, Move


def advanced_game(model, dice):
    """An empty map B (scenario XIII's) in 1942 with the advanced rules in force; tests place units."""
    scenario = model.scenario("IV")
    ctx = make_context(model, scenario)
    ctx.field = Battlefield.for_scenario(model, model.scenario("XIII"))
    ctx.advanced = True
    ctx.years = {"allied": 1942, "axis": 1942}
    game = Game(model, scenario, {}, dice=dice, context=ctx)
    game.state.units.clear()
    game.state.visibility = 12
    game.ctx.visibility.clear()
    return game


def place(game, uid, card, type_id, hex_, side, facing=0, **kw):
    u = Unit(uid, card, game.ctx.model.unit_types[type_id], side, hex_, facing, ON_MAP, **kw)
    game.state.units[uid] = u
    game.state.formations.setdefault(card, Formation(card, side, "combat"))
    return u


def events(game, kind):
    return [e for e in game.events if e["e"] == kind]


def activate(game, side, cards):
    game.ask(Activation(side, cards=tuple(cards)))


def _move(game):
    """The pending move (under the questions about it: overrun fire, opportunity fire)."""
    return [d for d in game.pending if d.kind == "move"][-1]


def moving(game, unit, side, mp=10):
    game.ask(Activation(side, cards=(unit.card,)), Move(side, unit=unit.id, op="move", mp=mp))


# --- §12.1 infantry ------------------------------------------------------------------------------


def test_12_12_infantry_moves_one_point_on_the_non_vehicle_column(model):
    game = advanced_game(model, ScriptedDice([]))
    inf = place(game, "429.5", 429, "gb-infantry", "B2120", "allied")
    activate(game, "allied", [429])
    assert ("op", inf.id, "move") in game.legal_actions()
    assert ("op", inf.id, "move-fire") not in game.legal_actions()  # move-and-fire: vehicles only
    game.apply(("op", inf.id, "move"))
    assert game.decision.mp == 1
    game.apply(("step", "B2119"))
    assert inf.hex == "B2119" and inf.flipped  # one hex, and the operation is over


def test_11_5_separated_green_non_vehicles_may_not_move(model):
    # §11.5: "les unités (non véhicules seulement) Bleues doivent ajouter +4 [...] et tout déplacement
    # leur est en outre interdit (règles avancées)." A/3 (330) is Green in 1942 (issue #16 item 4).
    game = advanced_game(model, ScriptedDice([]))
    inf = place(game, "330.1", 330, "us-infantry", "B2120", "allied", separated=True)
    jeep = place(game, "330.6", 330, "us-jeep", "B2120", "allied", separated=True)
    for u in (inf, jeep):
        u.start_hex = u.hex
    assert game.experience(inf) == "green"
    activate(game, "allied", [330])
    legal = game.legal_actions()
    assert ("op", inf.id, "move") not in legal  # no move...
    assert ("op", jeep.id, "move") in legal  # (a vehicle: only the +2/-2)
    assert ("op", jeep.id, "transport") not in legal  # ...nor a ride in its Jeep
    inf.separated = False
    activate(game, "allied", [330])
    assert {("op", inf.id, "move"), ("op", jeep.id, "transport")} <= set(game.legal_actions())


def test_12_13_anti_vehicle_fire_only_in_own_hex_without_a_second_range_box(model):
    game = advanced_game(model, ScriptedDice([]))
    tank = place(game, "429.1", 429, "gb-sherman", "B2220", "allied")
    de = place(game, "167.1", 167, "de-infantry", "B2120", "axis")  # one box: AI range 3
    us = place(game, "330.1", 330, "us-infantry", "B2119", "allied")  # AI 2 / AV 3
    panzer = place(game, "161.1", 161, "de-pz-iii-j", "B2118", "axis")
    assert game.range(de, True) == 0 and game.fire_modes(de, tank) == []
    assert game.fire_modes(us, panzer) == ["av"]
    tank.hex = de.hex
    assert game.fire_modes(de, tank) == ["av"]


def test_12_14_same_hex_opportunity_fire_plus_6_and_not_an_operation(model):
    game = advanced_game(model, ScriptedDice([4, 4, 4, 3, 3]))
    inf = place(game, "330.1", 330, "us-infantry", "B2120", "allied")
    tank = place(game, "161.1", 161, "de-pz-iii-j", "B2119", "axis", facing=3)
    moving(game, tank, "axis")
    game.apply(("step", "B2120"))
    assert game.mode == "opportunity" and ("same-hex-fire", inf.id) in game.legal_actions()
    game.apply(("same-hex-fire", inf.id))
    fire = events(game, "fire")[-1]
    assert fire["modifiers"]["range"] == 6 and fire["differential"] == 1 - 4
    assert not inf.flipped and not inf.opportunity_fired  # §12.14: not an operation


def test_12_14_flipped_infantry_has_only_the_adjacent_modifier(model):
    game = advanced_game(model, ScriptedDice([4, 4, 4, 3, 3, 4, 4, 4, 3, 3]))
    inf = place(game, "330.1", 330, "us-infantry", "B2120", "allied", flipped=True)
    tank = place(game, "161.1", 161, "de-pz-iii-j", "B2119", "axis", facing=3)
    moving(game, tank, "axis")
    game.apply(("step", "B2120"))
    game.apply(("same-hex-fire", inf.id))
    assert events(game, "fire")[-1]["modifiers"]["range"] == 3  # adjacent AV
    foe = place(game, "167.1", 167, "de-infantry", "B2119", "axis")
    moving(game, foe, "axis")
    game.apply(("step", "B2120"))
    game.apply(("same-hex-fire", inf.id))
    assert events(game, "fire")[-1]["modifiers"]["range"] == 2  # adjacent AI


def test_12_14_suppressed_infantry_cannot_fire(model):
    game = advanced_game(model, ScriptedDice([]))
    place(game, "330.1", 330, "us-infantry", "B2120", "allied", flipped=True, suppressed=True)
    tank = place(game, "161.1", 161, "de-pz-iii-j", "B2119", "axis", facing=3)
    moving(game, tank, "axis")
    game.apply(("step", "B2120"))
    assert game.mode != "opportunity"


# --- §12.2 forward observers ---------------------------------------------------------------------


def test_12_2_observers_cannot_fire_and_are_no_loss(model):
    game = advanced_game(model, ScriptedDice([]))
    fo = place(game, "505.2", 505, "it-fo", "B2120", "axis")
    place(game, "429.1", 429, "gb-sherman", "B2121", "allied")
    activate(game, "axis", [505])
    assert ("op", fo.id, "fire") not in game.legal_actions() and ("op", fo.id, "move") in game.legal_actions()
    game.destroy(fo, "fire")
    assert game.state.formations[505].losses == 0 if 505 in game.state.formations else True


def test_12_2_entering_an_observer_hex_need_not_stop_and_12_22_reveals_it(model):
    game = advanced_game(model, ScriptedDice([]))
    fo = place(game, "505.2", 505, "it-fo", "B2120", "axis", hidden=True)
    tank = place(game, "429.1", 429, "gb-sherman", "B2119", "allied", facing=3)
    assert all(u["id"] != fo.id for u in game.observation("allied")["units"])  # §12.21: on paper
    assert any(u["id"] == fo.id for u in game.observation("axis")["units"])
    assert not game.can_target(tank, fo)
    moving(game, tank, "allied")
    game.apply(("step", "B2120"))
    assert not fo.hidden and events(game, "reveal")[-1]["unit"] == fo.id
    assert game.mode == "move"  # the Sherman may go on (§12.2)


def test_12_22_an_observer_leaving_its_hex_is_revealed(model):
    game = advanced_game(model, ScriptedDice([]))
    fo = place(game, "505.2", 505, "it-fo", "B2120", "axis", hidden=True)
    moving(game, fo, "axis", mp=1)
    game.apply(("step", "B2119"))
    assert not fo.hidden


def test_12_21_hidden_deployment_only_for_initial_forces_set_up_on_the_map(model, catalog):
    from sandtable.rules.desert_steel.engine.runner import sample_setup
    scenario = model.scenario("V")  # B/91 has an FO; the scenario sets it up on the map
    ctx = make_context(model, scenario)
    ctx.advanced = True
    setup = sample_setup(catalog, scenario)
    try:
        game = Game(model, scenario, setup, seed=1, context=ctx)
    except EngineError:
        pytest.skip("the pack's setup of V does not place the FO (basic rules leave it out)")
    fos = [u for u in game.state.units.values() if u.type.unit_class == "forward-observer"]
    assert fos and all(u.hidden == (u.status == ON_MAP) for u in fos)


# --- §12.3 artillery ----------------------------------------------------------------------------


def test_12_3_towed_artillery_cannot_move_without_transport(model):
    game = advanced_game(model, ScriptedDice([]))
    gun = place(game, "414.3", 414, "gb-2pdr", "B2120", "allied")
    mortar = place(game, "414.4", 414, "gb-3in-mortar", "B2121", "allied")
    activate(game, "allied", [414])
    legal = game.legal_actions()
    assert ("op", gun.id, "move") not in legal and ("op", mortar.id, "move") in legal
    assert game.ctx.field.allowance(mortar.type) == 1


# --- §13.1 anti-infantry fire ---------------------------------------------------------------------


def test_13_1_anti_infantry_fire_spills_on_non_vehicles_and_light_armour(model):
    # Sherman (AI) at an infantry stack with an MG, a truck and a tank: target, MG and truck attacked.
    game = advanced_game(model, ScriptedDice([6] + [1, 1, 1] * 4))
    sherman = place(game, "429.1", 429, "gb-sherman", "B2121", "allied", facing=0)
    inf = place(game, "167.1", 167, "de-infantry", "B2120", "axis")
    mg = place(game, "167.2", 167, "de-mg", "B2120", "axis")
    truck = place(game, "167.3", 167, "de-truck", "B2120", "axis")
    tank = place(game, "161.1", 161, "de-pz-iii-j", "B2120", "axis")
    game.shoot(sherman, inf, opportunity=False, move_fire=False)
    fires = events(game, "fire")
    assert [f["target"] for f in fires] == [inf.id, mg.id, truck.id]
    assert "anti_infantry_stack" not in fires[0]["modifiers"]
    assert fires[1]["modifiers"]["anti_infantry_stack"] == -2 and fires[1]["modifiers"]["range"] == 2
    assert fires[2]["modifiers"]["anti_infantry_vs_lightly_armored"] == -2
    assert fires[0]["differential"] == sherman.type.anti_infantry - 1
    assert tank.status == ON_MAP and all(f["target"] != tank.id for f in fires)


def test_13_12_anti_infantry_fire_at_a_lightly_armoured_vehicle_is_a_choice(model):
    game = advanced_game(model, ScriptedDice([6, 6, 6, 6]))
    sherman = place(game, "429.1", 429, "gb-sherman", "B2121", "allied")
    car = place(game, "162.1", 162, "de-sdkfz-222", "B2120", "axis")
    tank = place(game, "161.1", 161, "de-pz-iii-j", "B2119", "axis")
    assert game.fire_modes(sherman, car) == ["av", "ai"] and game.fire_modes(sherman, tank) == ["av"]
    assert not game.shoot(sherman, car, opportunity=False, move_fire=False, mode="ai")  # §13.13: no flash kill
    fire = events(game, "fire")[-1]
    assert fire["modifiers"]["anti_infantry_vs_lightly_armored"] == -2
    assert car.status == "destroyed" and sherman.flipped


def test_13_13_no_anti_infantry_fire_into_a_hex_with_friendly_non_vehicles(model):
    game = advanced_game(model, ScriptedDice([]))
    sherman = place(game, "429.1", 429, "gb-sherman", "B2121", "allied")
    inf = place(game, "167.1", 167, "de-infantry", "B2120", "axis")
    assert game.fire_modes(sherman, inf) == ["ai"]
    place(game, "330.1", 330, "us-infantry", "B2120", "allied")
    assert game.fire_modes(sherman, inf) == []
    sherman.hex = "B2120"  # same-hex combat is allowed
    assert game.fire_modes(sherman, inf) == ["ai"]


# --- §13.2 indirect fire --------------------------------------------------------------------------


def _far_hex(game, hex_, distance):
    board = game.ctx.field.board
    return next(k for k in sorted(board.usable) if board.distance(k, hex_) == distance)


def test_13_28_worked_example(model):
    """65th: QG/65's FO spots for the 81 mm mortar (differential 6, range −3): 12 → 15 Hit +2 on A/3,
    the second A/3 at +1: 9 → 10 Hit; 1/65's HQ spots for the 45 mm mortar (+2): 16 → 18 Hit +4."""
    dice = ScriptedDice([6, 4, 4, 4, 3, 3, 3, 3, 3, 3, 3, 6, 6, 5, 5, 2, 2])
    game = advanced_game(model, dice)
    a3_1 = place(game, "330.1", 330, "us-infantry", "B2120", "allied")
    a3_2 = place(game, "330.2", 330, "us-infantry", "B2120", "allied")
    a3_3 = place(game, "330.3", 330, "us-infantry", "B2218", "allied")
    mortar81 = place(game, "505.3", 505, "it-81mm-mortar", _far_hex(game, "B2120", 15), "axis")
    fo = place(game, "505.2", 505, "it-fo", "B2020", "axis")
    mortar45 = place(game, "506.6", 506, "it-45mm-mortar", "B2219", "axis")
    hq = place(game, "506.1", 506, "it-hq", "B2217", "axis")
    activate(game, "axis", [505, 506])  # both activated by the 65th's command card (504)
    assert ("op", mortar81.id, "indirect") in game.legal_actions()
    game.apply(("op", mortar81.id, "indirect"))
    assert {("spotter", fo.id), ("spotter", hq.id)} <= set(game.legal_actions())
    game.apply(("spotter", fo.id))
    game.apply(("target", a3_1.id))
    fires = events(game, "fire")
    assert fires[0]["target"] == a3_1.id and fires[0]["differential"] == 6
    assert fires[0]["modifiers"] == {"range": -3} and sum(fires[0]["dice"]) == 12
    assert fires[0]["total"] == 15 and fires[0]["result"] == "hit+2"
    assert fires[1]["target"] == a3_2.id and fires[1]["modifiers"] == {"range": -3, "fire_zone": -2}
    assert fires[1]["total"] == 10 and fires[1]["result"] == "hit"
    zone = events(game, "fire-zone")[-1]
    assert zone["hex"] == "B2120" and zone["anti_infantry"] == 7 and zone["anti_vehicle"] == 1
    assert fo.flipped and mortar81.flipped and fo.if_spotted
    game.apply(("op", mortar45.id, "indirect"))
    assert ("spotter", fo.id) not in game.legal_actions()  # one IF spotting per turn (§13.23)
    game.apply(("spotter", hq.id))
    game.apply(("target", a3_3.id))
    fire = events(game, "fire")[-1]
    assert fire["differential"] == 2 and fire["modifiers"] == {"range": 0}
    assert fire["total"] == 18 and fire["result"] == "hit+4"
    zones = [(z["hex"], z["anti_infantry"], z["anti_vehicle"]) for z in game.state.fire_zones]
    assert zones == [("B2120", 7, 1), ("B2218", 3, 2)]
    assert dice.rolls == []


def test_13_24_failed_spotting_flips_spotter_and_firer(model):
    game = advanced_game(model, ScriptedDice([1]))
    target = place(game, "330.1", 330, "us-infantry", "B2120", "allied")
    mortar = place(game, "505.3", 505, "it-81mm-mortar", _far_hex(game, "B2120", 15), "axis")
    fo = place(game, "505.2", 505, "it-fo", _far_hex(game, "B2120", 7), "axis")
    if not game.ctx.table(12).visible(fo.hex, target.hex):
        fo.hex = "B2020"
    activate(game, "axis", [505])
    game.apply(("op", mortar.id, "indirect"))
    game.apply(("spotter", fo.id))
    game.apply(("target", target.id))
    assert fo.flipped and mortar.flipped and not events(game, "fire") and not game.state.fire_zones


def test_13_22_spotter_must_be_of_an_activated_formation(model):
    game = advanced_game(model, ScriptedDice([]))
    place(game, "330.1", 330, "us-infantry", "B2120", "allied")
    mortar = place(game, "505.3", 505, "it-81mm-mortar", _far_hex(game, "B2120", 15), "axis")
    other_fo = place(game, "506.2", 506, "it-hq", "B2020", "axis")
    activate(game, "axis", [505])
    assert all(sp is not other_fo for sp in game.spotters(mortar))
    activate(game, "axis", [505, 506])
    assert any(sp is other_fo for sp in game.spotters(mortar))


def test_13_21_no_indirect_fire_at_a_hex_holding_friendly_units(model):
    game = advanced_game(model, ScriptedDice([]))
    target = place(game, "330.1", 330, "us-infantry", "B2120", "allied")
    mortar = place(game, "505.3", 505, "it-81mm-mortar", _far_hex(game, "B2120", 15), "axis")
    assert game.fire_modes(mortar, target, indirect=True) == ["ai"]
    place(game, "506.3", 506, "it-infantry", "B2120", "axis")
    assert game.fire_modes(mortar, target, indirect=True) == []


def test_13_26_later_entrants_are_attacked_and_the_zone_goes_with_its_firer(model):
    game = advanced_game(model, ScriptedDice([3, 3, 3, 3, 3, 3]))
    mortar = place(game, "505.3", 505, "it-81mm-mortar", _far_hex(game, "B2120", 15), "axis")
    game.state.fire_zones.append({"hex": "B2120", "side": "axis", "firer": mortar.id, "firer_hex": mortar.hex,
                                  "anti_vehicle": 1, "anti_infantry": 7, "turn": 1})
    inf = place(game, "330.1", 330, "us-infantry", "B2119", "allied")
    moving(game, inf, "allied", mp=1)
    game.apply(("step", "B2120"))
    fire = events(game, "fire")[-1]
    assert fire["target"] == inf.id and fire["modifiers"]["fire_zone"] == -2 and fire["modifiers"]["range"] == -3
    assert fire["differential"] == 6 and fire["total"] == 9 + 6 - 3 - 2
    game.destroy(mortar, "fire")
    assert game.state.fire_zones == []


def test_13_26_zones_go_in_morale_step_5(model):
    game = advanced_game(model, ScriptedDice([]))
    game.state.fire_zones.append({"hex": "B2120", "side": "axis", "firer": "x", "firer_hex": "B2121",
                                  "anti_vehicle": 1, "anti_infantry": 7, "turn": 1})
    place(game, "x", 505, "it-81mm-mortar", "B2121", "axis", if_spotted=True)
    game.morale_phase()
    assert game.state.fire_zones == [] and not game.state.units["x"].if_spotted


def test_13_28_self_spotting_adds_3_to_direct_fire_of_indirect_capable_units(model):
    game = advanced_game(model, ScriptedDice([6, 3, 3, 3, 3, 3]))
    mortar = place(game, "505.3", 505, "it-81mm-mortar", "B2121", "axis")
    inf = place(game, "330.1", 330, "us-infantry", "B2120", "allied")
    game.shoot(mortar, inf, opportunity=False, move_fire=False)
    assert events(game, "fire")[-1]["differential"] == 7 + 3 - 1


# --- scope -----------------------------------------------------------------------------------------


def test_advanced_scenarios_are_refused_naming_the_missing_rules(model):
    assert missing_rules(model, model.scenario("VIII")) == []  # Crusader needs only what is played
    import dataclasses
    scenario = model.scenario("VII")
    odd = dataclasses.replace(scenario, raw={**scenario.raw, "special_rules": [{"id": "x", "type": "sandstorm"}]})
    assert missing_rules(model, odd) == ["scenario rule sandstorm (§18.7)"]
    with pytest.raises(EngineError, match="missing: scenario rule sandstorm"):
        make_context(model, odd)
    assert missing_rules(model, model.scenario("I")) == []


# --- bots and invariants ---------------------------------------------------------------------------


def test_heuristic_bot_fires_indirect_with_an_observer(model):
    from sandtable.rules.desert_steel.bots.core import HeuristicBot
    from sandtable.rules.desert_steel.engine.dice import Dice
    game = advanced_game(model, Dice(3))
    place(game, "330.1", 330, "us-infantry", "B2120", "allied")
    place(game, "330.2", 330, "us-infantry", "B2120", "allied")
    mortar = place(game, "505.3", 505, "it-81mm-mortar", _far_hex(game, "B2120", 15), "axis")
    fo = place(game, "505.2", 505, "it-fo", "B2020", "axis")
    activate(game, "axis", [505])
    bot = HeuristicBot(1)
    assert bot.choose(game, game.legal_actions()) == ("op", mortar.id, "indirect")
    game.apply(("op", mortar.id, "indirect"))
    assert bot.choose(game, game.legal_actions()) == ("spotter", fo.id)
    game.apply(("spotter", fo.id))
    assert bot.choose(game, game.legal_actions())[0] == "target"


def test_heuristic_bot_takes_same_hex_fire(model):
    from sandtable.rules.desert_steel.bots.core import HeuristicBot
    game = advanced_game(model, ScriptedDice([1, 1, 1, 1, 1]))
    inf = place(game, "330.1", 330, "us-infantry", "B2120", "allied", flipped=True)
    tank = place(game, "161.1", 161, "de-pz-iii-j", "B2119", "axis", facing=3)
    moving(game, tank, "axis")
    game.apply(("step", "B2120"))
    assert HeuristicBot(0).choose(game, game.legal_actions()) == ("same-hex-fire", inf.id)


@pytest.mark.parametrize("number,bots", [("I", ("heuristic", "heuristic")), ("V", ("heuristic", "random")),
                                         ("V", ("random", "heuristic")), ("VIII", ("heuristic", "heuristic")),
                                         ("VIII", ("random", "random")), ("VIII", ("heuristic", "random"))])
def test_invariants_hold_after_every_action(catalog, number, bots):
    from sandtable.rules.desert_steel.engine.runner import sample_setup
    model = catalog.model
    scenario = model.scenario(number)
    ctx = make_context(model, scenario)
    ctx.advanced = number in ("V", "VIII")  # V's FO plays under the advanced rules (§12.2)
    game = Game(model, scenario, sample_setup(catalog, scenario), seed=2, context=ctx)
    play_checked(game, bots, 20000)


# --- §13.4 entrenchment ---------------------------------------------------------------------------


def test_13_4_entrenching_takes_two_operations_on_two_turns(model):
    game = advanced_game(model, ScriptedDice([]))
    inf = place(game, "330.1", 330, "us-infantry", "B2120", "allied")
    tank = place(game, "429.1", 429, "gb-sherman", "B2121", "allied")
    activate(game, "allied", [330, 429])
    assert ("op", tank.id, "entrench") not in game.legal_actions()  # §13.41: non-vehicles only
    game.apply(("op", inf.id, "entrench"))
    assert inf.flipped and not game.entrenched(inf) and game.state.entrenchments[0]["occupant"] == inf.id
    inf.flipped = False
    activate(game, "allied", [330])
    assert ("op", inf.id, "entrench") not in game.legal_actions()  # not twice in one turn
    game.state.turn += 1
    activate(game, "allied", [330])
    game.apply(("op", inf.id, "entrench"))
    assert game.entrenched(inf)
    inf.flipped = False
    activate(game, "allied", [330])
    assert ("op", inf.id, "entrench") not in game.legal_actions()  # already entrenched


def test_13_41_no_entrenching_with_an_enemy_in_the_hex_nor_beyond_six(model):
    game = advanced_game(model, ScriptedDice([]))
    inf = place(game, "330.1", 330, "us-infantry", "B2120", "allied")
    enemy = place(game, "167.1", 167, "de-infantry", "B2120", "axis")
    assert not game.may_entrench(inf)
    enemy.hex = "B2020"
    assert game.may_entrench(inf)
    game.state.entrenchments = [{"hex": "B2120", "occupant": None, "done": False, "turn": 1}] * 6
    assert not game.may_entrench(inf)


def test_13_41_an_entrenchment_stays_when_its_unit_leaves_and_goes_when_it_dies(model):
    game = advanced_game(model, ScriptedDice([]))
    inf = place(game, "330.1", 330, "us-infantry", "B2120", "allied")
    game.state.entrenchments.append({"hex": "B2120", "occupant": inf.id, "done": True, "turn": 1})
    moving(game, inf, "allied", mp=1)
    game.apply(("step", "B2119"))
    assert game.state.entrenchments == [{"hex": "B2120", "occupant": None, "done": True, "turn": 1}]
    other_unit = place(game, "330.2", 330, "us-infantry", "B2120", "allied")
    game.entrench(other_unit)  # an empty entrenchment is occupied at once
    assert game.entrenched(other_unit)
    game.destroy(other_unit, "fire")
    assert game.state.entrenchments == []


def test_13_43_fire_at_an_entrenched_target_spotting_minus_1_fire_minus_3(model):
    game = advanced_game(model, ScriptedDice([6, 1, 1, 1]))
    sherman = place(game, "429.1", 429, "gb-sherman", "B2020", "allied", facing=2)
    inf = place(game, "167.1", 167, "de-infantry", "B2120", "axis")
    game.state.entrenchments.append({"hex": "B2120", "occupant": inf.id, "done": True, "turn": 1})
    game.shoot(sherman, inf, opportunity=False, move_fire=False)
    assert events(game, "spot")[-1]["modifiers"]["target_entrenched"] == -1
    assert events(game, "fire")[-1]["modifiers"]["target_entrenched"] == -3


def test_heuristic_bot_digs_in_when_it_stays(model):
    from sandtable.rules.desert_steel.bots.core import HeuristicBot
    game = advanced_game(model, ScriptedDice([]))
    inf = place(game, "330.1", 330, "us-infantry", "B2120", "allied")
    place(game, "167.1", 167, "de-infantry", "B2020", "axis", flipped=True)
    activate(game, "allied", [330])
    assert HeuristicBot(0).choose(game, game.legal_actions()) in (("op", inf.id, "entrench"), ("op", inf.id, "fire"))


# --- §17 smoke -------------------------------------------------------------------------------------


def _line(game, length):
    """Three hexes in a straight line on level ground with a clear line of sight end to end."""
    board = game.ctx.field.board
    table = game.ctx.table(game.state.visibility)
    for a in sorted(board.usable):
        pa = board.axial(a)
        for d in ((1, 0), (0, 1), (1, -1)):
            cells = [(pa[0] + d[0] * i, pa[1] + d[1] * i) for i in range(length + 1)]
            keys = [board.by_axial.get(c) for c in cells]
            if all(keys) and all(len(k) == 1 for k in keys):
                names = [k[0].key if hasattr(k[0], "key") else k[0] for k in keys]
                try:
                    names = [board.resolve(n) for n in names]
                except Exception:
                    continue
                if table.visible(names[0], names[-1]):
                    return names
    raise AssertionError("no straight clear line on the map")


def test_17_smoke_from_a_cs_tank_blocks_sight_and_costs_a_point(model):
    game = advanced_game(model, ScriptedDice([]))
    game.state.smoke_points = {"allied": 2, "axis": 0}
    line = _line(game, 4)
    cs = place(game, "419.1", 419, "gb-crusader-cs", line[0], "allied")
    foe = place(game, "161.1", 161, "de-pz-iii-j", line[4], "axis")
    activate(game, "allied", [419])
    game.apply(("op", cs.id, "fire"))
    assert ("smoke",) in game.legal_actions()
    game.apply(("smoke",))
    assert ("hex", line[2]) in game.legal_actions()
    game.apply(("hex", line[2]))
    assert game.state.smoke == [line[2]] and game.state.smoke_points["allied"] == 1 and cs.flipped
    assert not game.visible(line[0], line[4]) and not game.can_target(foe, cs)  # §17.3
    cs.flipped = False
    activate(game, "allied", [419])
    game.apply(("op", cs.id, "fire"))
    assert ("smoke",) not in game.legal_actions()  # one smoke fire per CS tank per turn


def test_17_3_smoke_in_the_end_hexes_does_not_block_but_spotting_is_minus_2(model):
    game = advanced_game(model, ScriptedDice([]))
    line = _line(game, 4)
    a = place(game, "429.1", 429, "gb-sherman", line[0], "allied")
    b = place(game, "161.1", 161, "de-pz-iii-j", line[4], "axis")
    game.state.smoke = [line[0], line[4]]
    assert game.visible(line[0], line[4])
    assert game.spot_modifiers(a, b, False, False)["smoke"] == -2  # not cumulative


def test_17_2_indirect_smoke_needs_no_spotting_roll(model):
    game = advanced_game(model, ScriptedDice([]))
    game.state.smoke_points = {"allied": 0, "axis": 1}
    mortar = place(game, "505.3", 505, "it-81mm-mortar", "B2121", "axis")
    fo = place(game, "505.2", 505, "it-fo", "B2020", "axis")
    activate(game, "axis", [505])
    assert ("op", mortar.id, "indirect") in game.legal_actions()  # no enemy: smoke only
    game.apply(("op", mortar.id, "indirect"))
    game.apply(("spotter", fo.id))
    assert game.legal_actions() == [("cancel",), ("smoke",)] or set(game.legal_actions()) == {("cancel",), ("smoke",)}
    game.apply(("smoke",))
    game.apply(("hex", "B2120"))
    assert game.state.smoke == ["B2120"] and fo.flipped and fo.if_spotted and mortar.flipped
    assert not events(game, "spot")


def test_17_4_smoke_removed_on_1_to_3_in_the_morale_phase(model):
    game = advanced_game(model, ScriptedDice([3, 4] + [6] * 30))  # an empty map: turns roll on
    game.state.smoke = ["B2120", "B2020"]
    game.morale_phase()
    first = [(e["hex"], e["removed"]) for e in events(game, "smoke-check")][:2]
    assert first == [("B2120", True), ("B2020", False)]


# --- §13.3 transport --------------------------------------------------------------------------------


def truck(game, uid, type_id, hex_, side):
    from sandtable.rules.desert_steel.engine.game import TRANSPORT_POOL
    pool = TRANSPORT_POOL[side]
    game.state.formations.setdefault(pool, Formation(pool, side, "transport"))
    u = Unit(uid, pool, game.ctx.model.unit_types[type_id], side, hex_, 0, ON_MAP)
    game.state.units[uid] = u
    return u


def start_phase(game):
    for u in game.state.units.values():
        u.start_hex = u.hex


def test_13_3_a_truck_carries_face_up_infantry_with_its_full_allowance(model):
    game = advanced_game(model, ScriptedDice([]))
    t = truck(game, "TA.1", "gb-truck", "B2120", "allied")
    infs = [place(game, f"330.{i}", 330, "us-infantry", "B2120", "allied") for i in range(1, 5)]
    gun = place(game, "332.4", 332, "us-57mm", "B2120", "allied")
    start_phase(game)
    activate(game, "allied", [330, 332])
    assert ("op", t.id, "transport") in game.legal_actions()
    game.apply(("op", t.id, "transport"))
    for u in infs[:3] + [gun]:
        game.apply(("load", u.id))
    assert game.mode == "move" and game.decision.mp == t.type.movement  # full load: off it goes
    assert infs[3].carried_by is None  # §13.34: never four infantry in a truck
    game.apply(("step", "B2119"))
    assert all(u.hex == "B2119" and u.flipped and u.carried_by == t.id for u in infs[:3] + [gun])
    game.apply(("stop",))
    assert t.flipped and game.mode == "activation"
    assert not game.fire_modes(place(game, "161.1", 161, "de-pz-iii-j", "B2118", "axis"), infs[0])  # §13.36
    game.state.units.pop("161.1")
    game.morale_phase()
    assert all(u.carried_by is None for u in infs)  # §13.3 step 4: off at Morale step 1


def test_13_3_only_what_shared_the_hex_when_the_phase_began(model):
    game = advanced_game(model, ScriptedDice([]))
    t = truck(game, "TA.1", "gb-truck", "B2120", "allied")
    inf = place(game, "330.1", 330, "us-infantry", "B2119", "allied")
    start_phase(game)
    inf.hex = "B2120"  # walked in during the phase
    activate(game, "allied", [330])
    assert ("op", t.id, "transport") not in game.legal_actions()


def test_13_33_motorcycles_cannot_tow_and_light_carriers_take_one_infantry(model):
    game = advanced_game(model, ScriptedDice([]))
    bike = truck(game, "TX.1", "de-motorcycle", "B2120", "axis")
    gun = place(game, "170.1", 170, "de-pak-38", "B2120", "axis")
    start_phase(game)
    activate(game, "axis", [170])
    assert not game.can_load(bike, gun, [])
    ht = truck(game, "TX.2", "de-sdkfz-251", "B2020", "axis")
    a = place(game, "167.1", 167, "de-infantry", "B2020", "axis")
    b = place(game, "167.2", 167, "de-infantry", "B2020", "axis")
    start_phase(game)
    activate(game, "axis", [167])
    assert game.can_load(ht, a, []) and not game.can_load(ht, b, [a])


def test_13_36_a_suppressed_carrier_drops_suppressed_passengers_a_destroyed_one_kills_them(model):
    game = advanced_game(model, ScriptedDice([6, 6]))
    t = truck(game, "TA.1", "gb-truck", "B2120", "allied")
    inf = place(game, "330.1", 330, "us-infantry", "B2120", "allied", flipped=True, carried_by="TA.1")
    game.unit_check(t, 2, flank=False)  # 12: rout? no — 6+6 is a rout: destroyed with its load
    assert t.status == "destroyed" and inf.status == "destroyed"
    assert game.state.formations[330].losses == 1  # the passenger counts, the truck does not
    game = advanced_game(model, ScriptedDice([5, 6]))
    t = truck(game, "TA.1", "gb-truck", "B2120", "allied")
    inf = place(game, "330.1", 330, "us-infantry", "B2120", "allied", flipped=True, carried_by="TA.1")
    game.unit_check(t, 0, flank=False)  # 11 > 7: suppressed
    assert t.suppressed and inf.suppressed and inf.carried_by is None


def test_13_35_a_transport_does_not_enter_an_enemy_hex(model):
    game = advanced_game(model, ScriptedDice([]))
    t = truck(game, "TA.1", "gb-truck", "B2120", "allied")
    inf = place(game, "330.1", 330, "us-infantry", "B2120", "allied")
    place(game, "167.1", 167, "de-infantry", "B2119", "axis", flipped=True)
    place(game, "505.2", 505, "it-fo", "B2121", "axis")
    start_phase(game)
    activate(game, "allied", [330])
    game.apply(("op", t.id, "transport"))
    game.apply(("load", inf.id))  # nothing else to load: the move starts
    legal = game.legal_actions()
    assert ("step", "B2119") not in legal and ("step", "B2121") in legal


def test_12_3_towed_guns_move_only_in_tow(model):
    game = advanced_game(model, ScriptedDice([]))
    gun = place(game, "414.3", 414, "gb-2pdr", "B2120", "allied")
    carrier = place(game, "414.5", 414, "gb-carrier", "B2120", "allied")
    start_phase(game)
    activate(game, "allied", [414])
    legal = game.legal_actions()
    assert ("op", gun.id, "move") not in legal and ("op", carrier.id, "transport") in legal


def test_heuristic_bot_loads_and_drives(model):
    from sandtable.rules.desert_steel.bots.core import HeuristicBot
    game = advanced_game(model, ScriptedDice([]))
    t = truck(game, "TA.1", "gb-truck", "B2120", "allied")
    gun = place(game, "414.3", 414, "gb-2pdr", "B2120", "allied")
    place(game, "167.1", 167, "de-infantry", _far_hex(game, "B2120", 12), "axis", flipped=True)
    start_phase(game)
    activate(game, "allied", [414])
    bot = HeuristicBot(0)
    assert bot.choose(game, game.legal_actions()) == ("op", t.id, "transport")
    game.apply(("op", t.id, "transport"))
    assert bot.choose(game, game.legal_actions()) == ("load", gun.id)


# --- §14.2 overrun ----------------------------------------------------------------------------------


def _open_pair(game):
    """Two adjacent hexes of clear ground on the same level (no cover)."""
    terrain, board = game.ctx.field.terrain, game.ctx.field.board
    for a in sorted(board.usable):
        for b in board.neighbours(a):
            if not terrain.hexes[b].building and terrain.level(b) == terrain.level(a) and \
                    not terrain.hexes[a].building and isinstance(game.ctx.field.enter_cost(
                        game.ctx.model.unit_types["de-pz-iii-j"], a, b), (int, float)):
                return a, b
    raise AssertionError


def test_14_2_overrun_morale_reaction_fire_and_the_tank_fires_ai(model):
    # both defenders check 2d6 = 5 (pass), reaction fire 3d6 = 3 (miss), tank AI fire 3d6 = 3 (+6 in
    # the hex: a hit, morale 2d6 = 5), the spill on the FO 3d6 = 3 (a hit too, morale 5)
    game = advanced_game(model, ScriptedDice([2, 3, 2, 3, 1, 1, 1, 1, 1, 1, 2, 3, 1, 1, 1, 2, 3]))
    a, b = _open_pair(game)
    tank = place(game, "161.1", 161, "de-pz-iii-j", a, "axis")
    inf = place(game, "330.1", 330, "us-infantry", b, "allied")
    fo = place(game, "330.9", 330, "us-fo", b, "allied")
    activate(game, "axis", [161])
    game.apply(("op", tank.id, "overrun"))
    mp = game.decision.mp
    assert ("overrun", b) in game.legal_actions()
    game.apply(("overrun", b))
    assert _move(game).spent == game.ctx.field.enter_cost(tank.type, a, b) + -(-tank.type.movement // 2)
    checks = events(game, "unit-check")
    assert [c["unit"] for c in checks] == [inf.id, fo.id] and all(c["why"] == "overrun" for c in checks)
    assert all("flank_or_same_hex" not in c["modifiers"] for c in checks)
    assert game.mode == "overrun-react" and game.side_to_act == "allied"
    game.apply(("react-fire", inf.id))
    assert events(game, "fire")[-1]["modifiers"]["range"] == 6 and not inf.flipped
    assert game.mode == "overrun-target"
    game.apply(("target", inf.id))
    fires = events(game, "fire")[-2:]
    assert fires[0]["differential"] == tank.type.anti_infantry - 1 and fires[1]["target"] == fo.id
    assert game.mode in ("move", "opportunity") and _move(game).spent <= mp


def test_14_2_a_shaken_formation_does_not_fire_at_the_overrunner(model):
    # §14.2: "Les unités le réussissant peuvent immédiatement effectuer un tir d'opportunité contre les
    # véhicules." §10.14: "Les unités d'une formation ébranlée ne peuvent pas effectuer de tir
    # d'opportunité." The morale test is still taken (issue #16 item 8).
    game = advanced_game(model, ScriptedDice([2, 3, 2, 3] + [1] * 30))
    a, b = _open_pair(game)
    tank = place(game, "161.1", 161, "de-pz-iii-j", a, "axis")
    inf = place(game, "330.1", 330, "us-infantry", b, "allied")
    game.state.formations[330].shaken = True
    activate(game, "axis", [161])
    game.apply(("op", tank.id, "overrun"))
    game.apply(("overrun", b))
    assert [c["unit"] for c in events(game, "unit-check")] == [inf.id] and not inf.suppressed
    assert game.mode == "overrun-target" and game.side_to_act == "axis"
    assert not events(game, "overrun-fire")


def test_14_21_no_overrun_into_a_hex_with_enemy_tanks_or_cover(model):
    game = advanced_game(model, ScriptedDice([]))
    a, b = _open_pair(game)
    tank = place(game, "161.1", 161, "de-pz-iii-j", a, "axis")
    place(game, "330.1", 330, "us-infantry", b, "allied")
    game.ask(Move("axis", unit=tank.id, mp=10))
    assert game.overrun_cost(tank, b) is not None
    sherman = place(game, "429.1", 429, "gb-sherman", b, "allied")
    assert game.overrun_cost(tank, b) is None
    sherman.hex = None
    game.state.units.pop("429.1")
    truck(game, "TA.1", "gb-truck", b, "allied")
    assert game.overrun_cost(tank, b) is not None  # trucks do not prevent it
    game.ask(Move("axis", unit=tank.id, mp=10, spent=9))
    assert game.overrun_cost(tank, b) is None  # not enough movement points


def test_14_infantry_enters_a_tank_hex_only_by_close_assault(model):
    game = advanced_game(model, ScriptedDice([]))
    a, b = _open_pair(game)
    inf = place(game, "330.1", 330, "us-infantry", a, "allied")
    place(game, "161.1", 161, "de-pz-iii-j", b, "axis", flipped=True)
    moving(game, inf, "allied", mp=1)
    assert ("step", b) not in game.legal_actions()


def test_18_6_a_carrier_tows_a_gun_onto_the_map(model):
    game = advanced_game(model, ScriptedDice([]))
    board = game.ctx.field.board
    edge = sorted(k for k in board.usable if board.edge_distance(k, "west") == 1)[:3]
    f = Formation(414, "allied", "combat", arrival=1, entry_zone=frozenset(edge))
    game.state.formations[414] = f
    gun = Unit("414.3", 414, model.unit_types["gb-2pdr"], "allied", None, 0, "off-map")
    carrier = Unit("414.5", 414, model.unit_types["gb-carrier"], "allied", None, 0, "off-map")
    game.state.units.update({gun.id: gun, carrier.id: carrier})
    activate(game, "allied", [414])
    legal = game.legal_actions()
    assert ("op", gun.id, "move") not in legal and ("op", carrier.id, "transport") in legal
    game.apply(("op", carrier.id, "transport"))
    game.apply(("load", gun.id))
    game.apply(("step", edge[0]))
    assert gun.status == ON_MAP and gun.hex == carrier.hex == edge[0] and gun.carried_by == carrier.id


# --- §14.1 close assault ----------------------------------------------------------------------------


def _flank_setup(game):
    """An infantry unit next to a tank whose rear faces it (so it enters through the flank arc)."""
    a, b = _open_pair(game)
    board = game.ctx.field.board
    from sandtable.rules.desert_steel.engine.game import sector
    away = (sector(board.axial(b), board.axial(a)) + 3) % 6  # the tank faces away from a
    return a, b, away


def test_14_1_close_assault_morale_then_move_in_and_fire_with_plus_6_and_the_assault_modifier(model):
    # morale 2d6 = 5 (pass), the tank does not react (flipped), fire 3d6 = 3 → miss; flipped after
    game = advanced_game(model, ScriptedDice([2, 3, 1, 1, 1]))
    a, b, away = _flank_setup(game)
    inf = place(game, "330.1", 330, "us-infantry", a, "allied")
    tank = place(game, "161.1", 161, "de-pz-iii-j", b, "axis", facing=away, flipped=True)
    activate(game, "allied", [330])
    assert ("op", inf.id, "assault") in game.legal_actions()
    game.apply(("op", inf.id, "assault"))
    game.apply(("hex", b))
    game.apply(("go",))
    assert inf.hex == b and game.mode == "assault-fire"
    game.apply(("target", tank.id))
    fire = events(game, "fire")[-1]
    assert fire["modifiers"]["range"] == 6 and fire["modifiers"]["close_assault"] == 2
    assert "target_in_cover" not in fire["modifiers"] and inf.flipped and inf.pinned
    typed = oc.read(game.events)  # the assault as its typed outcomes tell it (engine/outcomes.py)
    assert [e for e in typed if isinstance(e, oc.CloseAssault)] == [oc.CloseAssault(t=1, units=(inf.id,), hex=b,
                                                                                 section="14.1")]
    assert oc.Move(t=1, unit=inf.id, hex=b, close_assault=True) in typed
    inf.flipped = False
    activate(game, "allied", [330])
    assert ("op", inf.id, "move") not in game.legal_actions()  # §14.11: it stays while the tank does


def test_14_1_failed_morale_flips_and_stays(model):
    game = advanced_game(model, ScriptedDice([6, 5]))
    a, b, away = _flank_setup(game)
    inf = place(game, "330.1", 330, "us-infantry", a, "allied")
    place(game, "161.1", 161, "de-pz-iii-j", b, "axis", facing=away, flipped=True)
    activate(game, "allied", [330])
    game.apply(("op", inf.id, "assault"))
    game.apply(("hex", b))
    game.apply(("go",))
    assert inf.hex == a and inf.flipped and not events(game, "fire")


def test_14_11_only_from_the_flank_cover_or_an_entrenchment_and_not_with_enemy_infantry(model):
    game = advanced_game(model, ScriptedDice([]))
    a, b, away = _flank_setup(game)
    inf = place(game, "330.1", 330, "us-infantry", a, "allied")
    tank = place(game, "161.1", 161, "de-pz-iii-j", b, "axis", facing=(away + 3) % 6)  # facing the infantry
    activate(game, "allied", [330])
    assert not game.may_assault(inf, b)
    game.state.entrenchments.append({"hex": a, "occupant": inf.id, "done": True, "turn": 1})
    assert game.may_assault(inf, b)
    place(game, "167.1", 167, "de-infantry", b, "axis")
    assert not game.may_assault(inf, b)
    assert tank.on_map


def test_14_11_the_assaulted_vehicle_fires_back(model):
    # morale 5 pass; the tank reacts: spotting automatic, 3d6 = 3 (+6...) then the infantry fires
    game = advanced_game(model, ScriptedDice([2, 3] + [1, 1, 1] + [2, 3] * 3 + [1, 1, 1] * 3))
    a, b, away = _flank_setup(game)
    inf = place(game, "330.1", 330, "us-infantry", a, "allied")
    tank = place(game, "161.1", 161, "de-pz-iii-j", b, "axis", facing=away)
    activate(game, "allied", [330])
    game.apply(("op", inf.id, "assault"))
    game.apply(("hex", b))
    game.apply(("go",))
    assert game.mode == "assault-react" and game.side_to_act == "axis"
    assert ("react-fire", tank.id, inf.id) in game.legal_actions()


def test_18_4_entrenchments_placed_at_set_up(model, catalog):
    from sandtable.rules.desert_steel.engine.runner import sample_setup
    scenario = model.scenario("VIII")
    setup = sample_setup(catalog, scenario)
    allied = setup["sides"]["allied"]
    infantry_like = next(p for p in allied["placements"] if model.unit_types[p["type"]].unit_class != "vehicle")
    infantry_like["entrenched"] = True
    allied["fortifications"] = [{"type": "entrenchment", "hex": infantry_like["hex"]}]
    game = Game(model, scenario, setup, seed=0)
    marks = game.state.entrenchments
    assert len(marks) == 2 and all(e["done"] for e in marks)
    others = [u for u in game.state.at(game.ctx.field.board.resolve(infantry_like["hex"]))
              if not u.type.is_vehicle]
    # the entrenched placement holds one; the empty one is manned by another non-vehicle there, if any
    assert sum(1 for e in marks if e["occupant"]) == min(2, len(others))


def test_heuristic_bot_smokes_the_enemy_that_sees_most_of_its_units(model):
    from sandtable.rules.desert_steel.bots.core import HeuristicBot
    game = advanced_game(model, ScriptedDice([]))
    game.state.smoke_points = {"allied": 3, "axis": 0}
    line = _line(game, 4)
    cs = place(game, "419.1", 419, "gb-crusader-cs", line[0], "allied")
    place(game, "419.2", 419, "gb-crusader-cs", line[1], "allied", flipped=True)
    place(game, "161.1", 161, "de-pz-iii-j", line[4], "axis")
    activate(game, "allied", [419])
    game.apply(("op", cs.id, "fire"))
    bot = HeuristicBot(0)
    assert bot.choose(game, game.legal_actions()) == ("smoke",)  # AV 1 at a Panzer III: not worth a shot
    game.apply(("smoke",))
    assert bot.choose(game, game.legal_actions()) == ("hex", line[4])


def test_14_2_and_12_14_only_infantry_fires_at_an_overrunner_flipped_or_more_than_once(model):
    # §14.2: "Les unités le réussissant peuvent immédiatement effectuer un tir d'opportunité contre les
    # véhicules." Opportunity fire is a face-up unit's, once a turn (§9.4). §12.14 makes the exception
    # for infantry only: "Les unités d'infanterie disposent d'une aptitude particulière pour effectuer
    # des tirs d'opportunité : à chaque fois qu'une unité ennemie pénètre l'hex. où se trouve une unité
    # d'infanterie, celle-ci pourra ouvrir le feu contre elle", "Si l'unité d'infanterie est retournée à
    # l'envers [...] elle ne bénéficiera pas du modificateur de +6", "Un tir d'opportunité contre une
    # unité située dans le même hex. n'est pas une opération ; les unités ouvrant le feu pour l'effectuer
    # ne sont dès lors pas retournées à l'envers". A gun in an overrun hex fired back flipped, free and
    # again and again (26 of 55 reactions in an audit, issue 25).
    game = advanced_game(model, ScriptedDice([1] * 400))  # every morale test passes, every fire misses
    a, b = _open_pair(game)
    first = place(game, "161.1", 161, "de-pz-iii-j", a, "axis")
    second = place(game, "161.2", 161, "de-pz-iii-j", a, "axis")
    gun = place(game, "414.1", 414, "gb-6pdr", b, "allied")
    flipped_gun = place(game, "414.2", 414, "gb-6pdr", b, "allied")
    inf = place(game, "330.1", 330, "us-infantry", b, "allied")
    flipped_gun.flipped = inf.flipped = True
    activate(game, "axis", [161])
    game.apply(("op", first.id, "overrun"))
    game.apply(("overrun", b))
    assert {c["unit"] for c in events(game, "unit-check")} == {gun.id, flipped_gun.id, inf.id}  # all test
    reactors = {x[1] for x in game.legal_actions() if x[0] == "react-fire"}
    assert reactors == {gun.id, inf.id}  # the flipped gun may not fire; the flipped infantry may
    game.apply(next(x for x in game.legal_actions() if x[:2] == ("react-fire", gun.id)))
    assert gun.flipped and gun.opportunity_fired  # opportunity fire: the gun has fired its turn
    assert events(game, "overrun-fire")[-1]["fire"] == "opportunity"
    game.apply(next(x for x in game.legal_actions() if x[:2] == ("react-fire", inf.id)))
    shot = events(game, "fire")[-1]
    assert shot["unit"] == inf.id and shot["modifiers"]["range"] != 6  # flipped: no +6 (§12.14)
    assert events(game, "overrun-fire")[-1]["fire"] == "same-hex"
    while game.mode != "activation":  # the first tank holds its fire and stops
        game.apply(next(x for x in game.legal_actions() if x[0] in ("hold", "stop", "opp-pass", "react-pass")))
    game.apply(("op", second.id, "overrun"))
    game.apply(("overrun", b))
    reactors = {x[1] for x in game.legal_actions() if x[0] == "react-fire"}
    assert reactors == {inf.id}  # the gun fired its opportunity this turn; infantry fires each time
