"""Fortifications in the engine (§15.1 minefields, §15.2 bunkers, §15.3 wire, §15.4 engineers) and
the scenario rules that bend them (engineer abilities, prohibited hexes, exempt friendly
minefields): each rule sentence by itself with scripted dice, and the §15.13 example replayed."""
import copy
from dataclasses import replace

import pytest

from sandtable.rules.catalog import load_catalog
from sandtable.rules.desert_steel.battlefield import Battlefield
from sandtable.rules.desert_steel.engine.dice import ScriptedDice
from sandtable.rules.desert_steel.engine.game import EngineError, Game, missing_rules
from sandtable.rules.desert_steel.engine.runner import sample_setup
from test_engine_advanced import activate, advanced_game, events, moving, place
from sandtable.rules.desert_steel.engine.decisions import Move


@pytest.fixture(scope="module")
def model():
    return load_catalog().model


def mine(game, hex_, side, revealed=False):
    m = {"hex": hex_, "side": side, "active": True, "revealed": revealed}
    game.state.minefields.append(m)
    return m


def bunker(game, hex_, side, occupant=None):
    b = {"hex": hex_, "side": side, "occupant": occupant}
    game.state.bunkers.append(b)
    return b


# --- §15.1 minefields ------------------------------------------------------------------------------


def test_15_13_worked_example_panzer_iv_e_destroyed_by_a_minefield(model):
    game = advanced_game(model, ScriptedDice([4, 4, 4]))  # 3d6 = 12
    tank = place(game, "161.1", 161, "de-pz-iv-e", "B2120", "axis")
    m = mine(game, "B2119", "allied")
    moving(game, tank, "axis")
    game.apply(("step", "B2119"))
    fire = events(game, "fire")[-1]
    assert events(game, "minefield-attack")[-1]["factor"] == 12
    assert fire["differential"] == 12 - 4 and fire["modifiers"] == {} and fire["total"] == 20
    assert fire["result"] == "destroyed" and tank.status == "destroyed"
    assert m["revealed"]


def test_15_13_a_unit_that_survives_stops_and_checks_morale_at_plus_2(model):
    game = advanced_game(model, ScriptedDice([1, 1, 2, 3, 3]))  # 4 + 8 = 12: hit; morale 6
    tank = place(game, "161.1", 161, "de-pz-iv-e", "B2120", "axis")
    mine(game, "B2119", "allied")
    moving(game, tank, "axis")
    game.apply(("step", "B2119"))
    check = events(game, "unit-check")[-1]
    assert check["modifiers"].get("flank_or_same_hex") == 2
    assert events(game, "stop")[-1]["section"] == "15.13"
    assert tank.hex == "B2119" and tank.flipped and game.mode != "move"


def test_15_13_anti_infantry_8_against_infantry_and_lightly_armoured_vehicles(model):
    game = advanced_game(model, ScriptedDice([1] * 10))
    inf = place(game, "167.1", 167, "de-infantry", "B2120", "axis")
    car = place(game, "165.1", 165, "de-sdkfz-222", "B2220", "axis")
    mine(game, "B2119", "allied")
    mine(game, "B2219", "allied")
    moving(game, inf, "axis")
    game.apply(("step", "B2119"))
    moving(game, car, "axis")
    game.apply(("step", "B2219"))
    assert [e["factor"] for e in events(game, "minefield-attack")] == [8, 8]


def test_15_12_a_unit_starting_in_the_minefield_leaves_without_attack(model):
    game = advanced_game(model, ScriptedDice([]))
    tank = place(game, "161.1", 161, "de-pz-iv-e", "B2119", "axis")
    mine(game, "B2119", "allied", revealed=True)
    moving(game, tank, "axis")
    game.apply(("step", "B2118"))
    assert not events(game, "minefield-attack")


def test_15_13_minefield_attack_before_fire_zones(model):
    game = advanced_game(model, ScriptedDice([1] * 20))
    tank = place(game, "161.1", 161, "de-pz-iv-e", "B2120", "axis")
    mine(game, "B2119", "allied")
    game.state.fire_zones.append({"hex": "B2119", "side": "allied", "firer": None, "firer_hex": None,
                                  "anti_vehicle": 8, "anti_infantry": 8, "experience": "seasoned", "turn": 1})
    moving(game, tank, "axis")
    game.apply(("step", "B2119"))
    kinds = [e["e"] for e in game.events if e["e"] in ("minefield-attack", "fire-zone-attack")]
    assert kinds == ["minefield-attack", "fire-zone-attack"]


def test_15_14_friendly_minefield_attacks_only_on_2_or_12(model):
    game = advanced_game(model, ScriptedDice([3, 4, 6, 6, 1, 1, 1]))
    tank = place(game, "429.1", 429, "gb-sherman", "B2120", "allied")
    mine(game, "B2119", "allied")
    mine(game, "B2118", "allied")
    moving(game, tank, "allied")
    game.apply(("step", "B2119"))  # 7: nothing
    assert not events(game, "minefield-attack") and game.mode == "move"
    game.apply(("step", "B2118"))  # 12: attacked
    assert events(game, "friendly-minefield-roll")[-1]["triggered"]
    assert len(events(game, "minefield-attack")) == 1


def test_exempt_friendly_minefields_need_no_roll(model):
    game = advanced_game(model, ScriptedDice([]))
    game.ctx.special = ({"type": "exempt-friendly-minefields", "side": "axis"},)
    tank = place(game, "161.1", 161, "de-pz-iv-e", "B2120", "axis")
    mine(game, "B2119", "axis")
    moving(game, tank, "axis")
    game.apply(("step", "B2119"))
    assert not events(game, "friendly-minefield-roll") and not events(game, "minefield-attack")


def test_15_12_fire_at_a_unit_in_a_revealed_minefield_hex_plus_1_and_hits_check_at_plus_2(model):
    game = advanced_game(model, ScriptedDice([]))
    tank = place(game, "429.1", 429, "gb-sherman", "B2123", "allied", facing=0)
    foe = place(game, "161.1", 161, "de-pz-iv-e", "B2119", "axis", facing=3)
    m = mine(game, "B2119", "allied")
    assert "target_in_minefield_hex" not in game.fire_modifiers(tank, foe, False, False)  # still on paper
    m["revealed"] = True
    assert game.fire_modifiers(tank, foe, False, False)["target_in_minefield_hex"] == 1
    game.dice = ScriptedDice([1, 1])
    game.unit_check(foe, 1, flank=False)
    assert events(game, "unit-check")[-1]["modifiers"]["minefield"] == 2


def _cauldron(catalog, allied=None):
    """Scenario X (the Cauldron: Allied minefields, wire and bunkers) on its sample setup, the
    Allied side's setup changed by ``allied(side_setup)``."""
    scenario = catalog.model.scenario("X")
    setup = copy.deepcopy(sample_setup(catalog, scenario))
    if allied is not None:
        allied(setup["sides"]["allied"])
    return Game(catalog.model, scenario, setup, seed=1), setup["sides"]["allied"]


def test_15_11_minefields_are_recorded_from_the_setup_and_forbid_entrenching(catalog):
    def fortify(side):
        side["minefields"] = ["B2119"]
        side["fortifications"] = [f for f in side["fortifications"] if f["type"] == "bunker"] + \
            [{"type": "wire", "hex": "B2118"}]
    game, _ = _cauldron(catalog, fortify)
    assert game.state.minefields == [{"hex": "B2119", "side": "allied", "active": True, "revealed": False}]
    assert game.state.wire == {"B2118": "allied"}
    inf = next(u for u in game.state.units.values() if u.side == "allied" and u.on_map
               and u.type.unit_class == "infantry" and game.bunker_of(u) is None and game.may_entrench(u))
    inf.hex = "B2119"
    assert not game.may_entrench(inf)


# --- §15.2 bunkers ---------------------------------------------------------------------------------


def test_15_24_fire_at_a_bunker_occupant_minus_6_and_never_flank(model):
    game = advanced_game(model, ScriptedDice([]))
    inf = place(game, "429.5", 429, "gb-infantry", "B2119", "allied", facing=0)
    tank = place(game, "161.1", 161, "de-pz-iv-e", "B2120", "axis", facing=0)  # behind it: its flank
    assert game.fire_modifiers(tank, inf, False, False, "ai").get("flank_fire") == 2
    bunker(game, "B2119", "allied", inf.id)
    mods = game.fire_modifiers(tank, inf, False, False, "ai")
    assert mods["target_in_bunker"] == -6 and "flank_fire" not in mods


def test_15_24_a_flank_hit_gives_no_morale_plus_2_unless_from_the_same_hex(model):
    game = advanced_game(model, ScriptedDice([]))
    inf = place(game, "429.5", 429, "gb-infantry", "B2119", "allied", facing=0)
    bunker(game, "B2119", "allied", inf.id)
    assert not game.flank_hit(inf, "B2120") and game.flank_hit(inf, "B2119")


def test_15_22_bunker_occupant_keeps_its_facing_when_firing(model):
    game = advanced_game(model, ScriptedDice([6, 6, 6, 6, 1, 1]))
    inf = place(game, "429.5", 429, "gb-infantry", "B2119", "allied", facing=0)
    bunker(game, "B2119", "allied", inf.id)
    foe = place(game, "167.1", 167, "de-infantry", "B2219", "axis")
    game.shoot(inf, foe, opportunity=False, move_fire=False)
    assert inf.facing == 0


def test_15_23_the_bunker_goes_when_its_occupant_is_destroyed(model):
    game = advanced_game(model, ScriptedDice([]))
    inf = place(game, "429.5", 429, "gb-infantry", "B2119", "allied")
    bunker(game, "B2119", "allied", inf.id)
    game.destroy(inf, "fire")
    assert game.state.bunkers == []


def test_15_22_infantry_enters_an_empty_bunker_vehicles_never(model):
    game = advanced_game(model, ScriptedDice([]))
    b = bunker(game, "B2119", "allied")
    tank = place(game, "429.1", 429, "gb-sherman", "B2120", "allied")
    moving(game, tank, "allied")
    game.apply(("step", "B2119"))
    assert b["occupant"] is None
    inf = place(game, "429.5", 429, "gb-infantry", "B2120", "allied")
    moving(game, inf, "allied")
    game.apply(("step", "B2119"))
    assert b["occupant"] == inf.id and events(game, "enter-bunker")
    moving(game, inf, "allied")
    game.apply(("step", "B2118"))
    assert b["occupant"] is None  # it stays behind, empty


def test_15_21_setup_puts_units_in_their_bunkers_and_rejects_a_missing_bunker(catalog):
    game, setup = _cauldron(catalog)
    inside = [p for p in setup["placements"] if p.get("in_bunker")]
    bunkers = [f["hex"] for f in setup["fortifications"] if f["type"] == "bunker"]
    assert inside
    occupied = {b["hex"]: game.state.units[b["occupant"]] for b in game.state.bunkers if b["occupant"]}
    assert sorted(occupied) == sorted(p["hex"] for p in inside)
    assert all((u.card, u.type.id) in {(p["card"], p["type"]) for p in inside} and u.hex == h
               for h, u in occupied.items())
    assert {b["hex"] for b in game.state.bunkers} == set(bunkers) and all(b["side"] == "allied" for b in game.state.bunkers)
    lost = inside[0]["hex"]

    def without_its_bunker(side):
        side["fortifications"] = [f for f in side["fortifications"] if f["hex"] != lost]
    with pytest.raises(EngineError, match="15.21"):
        _cauldron(catalog, without_its_bunker)


# --- §15.3 wire --------------------------------------------------------------------------------------


def test_15_32_non_vehicles_and_lightly_armoured_never_enter_wire(model):
    game = advanced_game(model, ScriptedDice([]))
    game.state.wire["B2119"] = "allied"
    inf = place(game, "167.1", 167, "de-infantry", "B2120", "axis")
    car = place(game, "165.1", 165, "de-sdkfz-222", "B2120", "axis")
    assert game.enter_cost(inf, "B2120", "B2119") == "prohibited"
    assert game.enter_cost(car, "B2120", "B2119") == "prohibited"
    moving(game, inf, "axis")
    assert ("step", "B2119") not in game.legal_actions()


def test_15_32_vehicles_spend_all_mp_to_enter_and_to_leave_wire_never_wire_to_wire(model):
    game = advanced_game(model, ScriptedDice([]))
    game.state.wire.update({"B2119": "allied", "B2118": "allied"})
    tank = place(game, "161.1", 161, "de-pz-iv-e", "B2120", "axis")
    moving(game, tank, "axis")
    game.ask(*game.pending[:-1], replace(game.decision, steps=1, spent=1))
    assert ("step", "B2119") not in game.legal_actions()  # all MP: only as the first hex
    moving(game, tank, "axis")
    game.apply(("step", "B2119"))
    assert events(game, "move")[-1]["spent"] == 10  # every MP the operation had
    assert game.enter_cost(tank, "B2119", "B2118") == "prohibited"
    assert game.enter_cost(tank, "B2119", "B2120") == "all"


# --- §15.4 engineers ---------------------------------------------------------------------------------


def test_15_4_an_engineer_enters_wire_and_a_hidden_minefield_is_revealed_and_rolled_for(model):
    game = advanced_game(model, ScriptedDice([3, 4]))  # 7: the minefield spares it
    eng = place(game, "410.4", 410, "gb-engineers", "B2120", "allied")
    game.state.wire["B2119"] = "axis"
    m = mine(game, "B2119", "axis")
    eng.start_hex = eng.hex
    activate(game, "allied", [410])
    assert ("op", eng.id, "engineer") in game.legal_actions()
    game.apply(("op", eng.id, "engineer"))
    game.apply(("step", "B2119"))
    assert eng.hex == "B2119" and m["revealed"] and events(game, "friendly-minefield-roll")
    assert not events(game, "minefield-attack") and eng.flipped


def test_15_4_an_engineer_clears_wire_and_minefield_of_the_hex_it_started_in(model):
    game = advanced_game(model, ScriptedDice([]))
    eng = place(game, "410.4", 410, "gb-engineers", "B2119", "allied")
    game.state.wire["B2119"] = "axis"
    m = mine(game, "B2119", "axis", revealed=True)
    eng.start_hex = "B2119"
    activate(game, "allied", [410])
    game.apply(("op", eng.id, "engineer"))
    assert ("clear",) in game.legal_actions()
    game.apply(("clear",))
    assert "B2119" not in game.state.wire and not m["active"] and eng.flipped


def test_15_4_clearing_needs_the_hex_held_since_the_operations_phase_began(model):
    game = advanced_game(model, ScriptedDice([]))
    eng = place(game, "410.4", 410, "gb-engineers", "B2119", "allied")
    game.state.wire["B2119"] = "axis"
    eng.start_hex = "B2120"
    assert not game.engineer_clearable(eng)


def test_15_41_non_engineers_never_clear(model):
    game = advanced_game(model, ScriptedDice([]))
    inf = place(game, "429.5", 429, "gb-infantry", "B2119", "allied")
    game.state.wire["B2118"] = "axis"
    inf.start_hex = inf.hex
    activate(game, "allied", [429])
    assert ("op", inf.id, "engineer") not in game.legal_actions()


def test_scenario_vi_british_may_enter_wire_but_not_clear_it(model):
    game = advanced_game(model, ScriptedDice([]))
    game.ctx.special = tuple(model.scenario("VI").raw["special_rules"])
    inf = place(game, "429.5", 429, "gb-infantry", "B2119", "allied")
    game.state.wire.update({"B2119": "axis", "B2118": "axis"})
    inf.start_hex = inf.hex
    assert not game.engineer_clearable(inf)
    assert "B2118" in game.engineer_steps(inf)


def test_scenario_x_german_infantry_clear_as_engineers(model):
    game = advanced_game(model, ScriptedDice([]))
    game.ctx.special = tuple(model.scenario("X").raw["special_rules"])
    inf = place(game, "167.1", 167, "de-infantry", "B2119", "axis")
    game.state.wire["B2119"] = "allied"
    inf.start_hex = inf.hex
    assert game.engineer_clearable(inf)
    it_inf = place(game, "501.1", 501, "it-infantry", "B2219", "axis")
    game.state.wire["B2219"] = "allied"
    it_inf.start_hex = it_inf.hex
    assert not game.engineer_clearable(it_inf)  # only the Italian HQs


# --- scenario limits ---------------------------------------------------------------------------------


def test_lightfoot_allied_units_never_enter_the_prohibited_hexes(model):
    scenario = model.scenario("XIII")
    prohibited = Battlefield.for_scenario(model, scenario).zone(
        next(r for r in scenario.raw["special_rules"] if r["type"] == "prohibited-hexes")["zone"])
    game = advanced_game(model, ScriptedDice([]))
    game.ctx.special = tuple(scenario.raw["special_rules"])
    board = game.ctx.field.board
    inside, outside = next((h, n) for h in sorted(prohibited) for n in board.neighbours(h)
                           if n not in prohibited and game.ctx.field.enter_cost(
                               model.unit_types["gb-sherman"], n, h) != "prohibited")
    tank = place(game, "429.1", 429, "gb-sherman", outside, "allied")
    moving(game, tank, "allied")
    assert ("step", inside) not in game.legal_actions()
    foe = place(game, "161.1", 161, "de-pz-iv-e", outside, "axis")
    assert game.may_enter_zone(foe, inside)


def test_fortification_scenarios_are_no_longer_refused_for_their_fortifications(model):
    for number in ("VII", "IX", "X"):
        assert missing_rules(model, model.scenario(number)) == []


def test_a_fortified_setup_plays_a_whole_game(model):
    """Tobruk with the sample setup plus wire, a bunker and minefields in front of the Allies."""
    from enginekit import play_checked
    catalog = load_catalog()
    scenario = model.scenario("VII")
    from sandtable.rules.desert_steel.engine.runner import sample_setup
    setup = sample_setup(catalog, scenario)
    allied = setup["sides"]["allied"]
    inf = next(p for p in allied["placements"] if p["type"] == "gb-infantry")
    inf["in_bunker"] = True
    allied.setdefault("fortifications", []).append({"type": "bunker", "hex": inf["hex"]})
    game = Game(model, scenario, setup, seed=3)
    assert game.state.bunkers and game.state.bunkers[0]["occupant"]
    play_checked(game, ("heuristic", "heuristic"))


def test_the_heuristic_engineer_clears_the_wire_it_stands_in(model):
    from sandtable.rules.desert_steel.bots.core import make_bot
    game = advanced_game(model, ScriptedDice([]))
    eng = place(game, "410.4", 410, "gb-engineers", "B2119", "allied")
    game.state.wire["B2119"] = "axis"
    eng.start_hex = eng.hex
    activate(game, "allied", [410])
    bot = make_bot("heuristic", 1)
    action = bot.choose(game, game.legal_actions())
    assert action == ("op", eng.id, "engineer")
    game.apply(action)
    assert bot.choose(game, game.legal_actions()) == ("clear",)


def test_the_heuristic_bot_steps_around_a_revealed_enemy_minefield(model):
    from sandtable.rules.desert_steel.bots.core import make_bot
    game = advanced_game(model, ScriptedDice([]))
    tank = place(game, "161.1", 161, "de-pz-iv-e", "B2120", "axis")
    bot = make_bot("heuristic", 1)
    moving(game, tank, "axis")
    view = bot._view(game, tank)
    before = {h: bot._score_hex(game, tank, h, view) for h in ("B2119", "B2221")}
    mine(game, "B2119", "allied", revealed=True)
    mine(game, "B2221", "allied")  # not revealed: the bot cannot know
    view = bot._view(game, tank)
    assert bot._score_hex(game, tank, "B2119", view) == before["B2119"] + 6
    assert bot._score_hex(game, tank, "B2221", view) == before["B2221"]


def test_15_24_a_bunker_occupant_never_fires_into_its_flank_arc(model):
    game = advanced_game(model, ScriptedDice([]))
    inf = place(game, "429.5", 429, "gb-infantry", "B2119", "allied", facing=0)  # facing up the page
    ahead = place(game, "167.1", 167, "de-infantry", "B2118", "axis")
    behind = place(game, "167.2", 167, "de-infantry", "B2120", "axis")
    assert game.fire_modes(inf, behind) == ["ai"]  # free to turn and fire
    bunker(game, "B2119", "allied", inf.id)
    assert game.fire_modes(inf, ahead) == ["ai"] and game.fire_modes(inf, behind) == []


def test_15_32_no_overrun_into_wire_and_15_13_an_overrun_sets_off_a_minefield(model):
    from test_engine_advanced import _open_pair
    game = advanced_game(model, ScriptedDice([6, 6, 6]))  # the minefield's 3d6: 18 + 12 − 4 = destroyed
    a, b = _open_pair(game)
    tank = place(game, "161.1", 161, "de-pz-iv-e", a, "axis")
    place(game, "330.1", 330, "us-infantry", b, "allied")
    game.ask(Move("axis", unit=tank.id, mp=10))
    game.state.wire[b] = "allied"
    assert game.overrun_cost(tank, b) is None
    del game.state.wire[b]
    mine(game, b, "allied")
    activate(game, "axis", [161])
    game.apply(("op", tank.id, "overrun"))
    game.apply(("overrun", b))
    assert events(game, "minefield-attack") and tank.status == "destroyed"
    assert not events(game, "unit-check")  # nothing left to overrun them: no morale test
