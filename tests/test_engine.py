"""The basic-rules engine: worked examples with scripted dice, rule sentences, determinism."""
import json
from dataclasses import replace

import pytest

from sandtable.rules.catalog import load_catalog
from sandtable.rules.desert_steel.battlefield import Battlefield
from sandtable.rules.desert_steel.bots.core import HeuristicBot, RandomBot
from sandtable.rules.desert_steel.engine.dice import ScriptedDice
from sandtable.rules.desert_steel.engine.game import EngineError, Game, sector, make_context
from sandtable.rules.desert_steel.engine.priority import priority
from sandtable.rules.desert_steel.engine.runner import digest, play, replay, sample_setup, write_log
from sandtable.rules.desert_steel.engine.state import ON_MAP, Unit
from sandtable.rules.desert_steel.engine.decisions import Activation


def supercharge_on_map_b(model, dice):
    """Scenario IV (1942: A/1, A/15, C/15) played on map B, where the §9.42 hexes are."""
    scenario = model.scenario("IV")
    ctx = make_context(model, scenario)
    ctx.field = Battlefield.for_scenario(model, model.scenario("XIII"))
    game = Game(model, scenario, {}, dice=dice, context=ctx)
    game.state.units.clear()
    game.state.visibility = 12
    return game


def place(game, uid, card, type_id, hex_, side, facing=0):
    u = Unit(uid, card, game.ctx.model.unit_types[type_id], side, hex_, facing, ON_MAP)
    game.state.units[uid] = u
    return u


def events(game, kind):
    return [e for e in game.events if e["e"] == kind]


def test_9_42_first_opportunity_fire_hit_plus_1(model):
    game = supercharge_on_map_b(model, ScriptedDice([6, 4, 5, 5, 3, 3]))
    panzer = place(game, "161.1", 161, "de-pz-iii-j", "B2312", "axis", facing=1)
    sherman = place(game, "429.1", 429, "gb-sherman", "B2607", "allied", facing=4)
    panzer.moved = True  # it has just entered 2312 from 2213
    game.shoot(sherman, panzer, opportunity=True, move_fire=False)
    spot, fire = events(game, "spot")[-1], events(game, "fire")[-1]
    assert spot["number"] == 3 and spot["roll"] == 6 and spot["success"]
    assert spot["modifiers"] == {"target_veteran": -1, "spotter_green": -1, "moving_target": -1}
    assert fire["differential"] == 3 and sum(fire["dice"]) == 14
    assert {k: v for k, v in fire["modifiers"].items() if v} == {"moving_target": -2, "target_veteran": -1,
                                                                "firer_green": -1}
    assert fire["total"] == 13 and fire["result"] == "hit+1"
    check = events(game, "unit-check")[-1]
    assert check["modifiers"]["hit_plus_x"] == 1  # the Panzer checks morale at +1
    assert sherman.flipped and panzer.spotted == "C"  # C/15 is C3 C: Spotted C (§9.18)


def test_9_42_second_fire_destroyed_flash_kill(model):
    game = supercharge_on_map_b(model, ScriptedDice([4, 6, 6, 5]))
    board = game.ctx.field.board
    # The mover fixes its facing for opportunity fire (§9.41): the example has no flank modifier.
    panzer = place(game, "161.1", 161, "de-pz-iii-j", "B2412", "axis",
                   facing=sector(board.axial("B2412"), board.axial("B2010")))
    sherman = place(game, "427.1", 427, "gb-sherman", "B2010", "allied", facing=2)
    panzer.moved = True
    assert board.distance("B2010", "B2412") == 4
    flash = game.shoot(sherman, panzer, opportunity=True, move_fire=False)
    spot, fire = events(game, "spot")[-1], events(game, "fire")[-1]
    assert spot["number"] == 2 and spot["success"]  # in cover: ceil(4/2)
    assert sum(spot["modifiers"].values()) == -2
    assert {k: v for k, v in fire["modifiers"].items() if v} == {"moving_target": -2, "target_veteran": -1,
                                                                "target_in_cover": -1, "range": 1}
    assert fire["total"] == 17 and fire["result"] == "destroyed"
    assert flash and sherman.flash_kill and not sherman.flipped  # §9.36
    assert panzer.status == "destroyed"


def test_9_36_one_flash_kill_per_turn_and_none_from_move_and_fire(model):
    game = supercharge_on_map_b(model, ScriptedDice([6, 6, 6, 6] * 3))
    a = place(game, "161.1", 161, "de-pz-iii-j", "B2412", "axis")
    b = place(game, "161.2", 161, "de-pz-iii-j", "B2413", "axis")
    sherman = place(game, "427.1", 427, "gb-sherman", "B2010", "allied", facing=2)
    assert game.shoot(sherman, a, opportunity=False, move_fire=False)
    assert not game.shoot(sherman, b, opportunity=False, move_fire=False)  # second one: ordinary
    assert sherman.flipped and not sherman.flash_kill
    other_game = supercharge_on_map_b(model, ScriptedDice([6, 6, 6, 6]))
    c = place(other_game, "161.1", 161, "de-pz-iii-j", "B2412", "axis")
    s2 = place(other_game, "427.1", 427, "gb-sherman", "B2010", "allied", facing=2)
    assert not other_game.shoot(s2, c, opportunity=False, move_fire=True)
    assert c.status == "destroyed" and s2.flipped


def test_10_12_tiger_morale_example(model):
    scenario = model.scenario("V")
    game = Game(model, scenario, sample_setup(load_catalog(), scenario), dice=ScriptedDice([3, 4, 3, 4]))
    tiger = next(u for u in game.state.units.values() if u.card == 178)
    game.state.formations[178].losses = 1 + game.state.formations[178].losses * 0  # one Tiger already lost
    game.unit_check(tiger, 1, flank=False)
    check = events(game, "unit-check")[-1]
    assert check["modifiers"] == {"losses": 2, "hit_plus_x": 1} and sum(check["dice"]) == 7
    assert check["result"] == "failed" and tiger.suppressed  # 7 + 3 = 10 > 9
    game.unit_check(tiger, 1, flank=False)  # already suppressed: eliminated (§10.12)
    assert tiger.status == "destroyed"


def test_18_5_undermanned_formation_counts_its_removed_units(model):
    game = Game(model, model.scenario("IV"), {}, seed=1)
    assert game.state.formations[419].losses == 2  # two Crusader CS removed, affecting morale
    assert game.loss_modifier(419) == 2  # twice A/9's +1
    beda = Game(model, model.scenario("I"), sample_setup(load_catalog(), model.scenario("I")), seed=1)
    assert beda.state.formations[419].losses == 0  # Beda Fomm: removals do not affect morale


def test_6_43_priority_order_of_the_worked_example(model):
    year = 1942
    key = lambda n: priority(model, n, year)  # noqa: E731
    # C3 first; at equal C3 a command card beats a combat card; then experience; then nationality.
    b_cards = [n for n, c in model.cards.items() if getattr(c, "variant", None) and c.variant(year)
               and c.variant(year).c3 == "B"]
    c_cards = [n for n, c in model.cards.items() if getattr(c, "variant", None) and c.variant(year)
               and c.variant(year).c3 == "C"]
    assert all(key(b) > key(c) for b in b_cards for c in c_cards)
    commands_c = [n for n, c in model.cards.items() if not hasattr(c, "variants") and c.c3 == "C"]
    assert all(key(cmd) > key(c) for cmd in commands_c for c in c_cards)
    vet = [n for n in c_cards if model.cards[n].variant(year).experience == "veteran"]
    sea = [n for n in c_cards if model.cards[n].variant(year).experience == "seasoned"]
    assert vet and sea and all(key(v) > key(s) for v in vet for s in sea)
    german = [n for n in sea if model.cards[n].nationality == "german"]
    allied = [n for n in sea if model.cards[n].side == "allied"]
    assert german and allied and all(key(g) > key(a) for g in german for a in allied)


def test_scenarios_needing_unplayed_rules_are_refused_clearly(model):
    import dataclasses
    scenario = model.scenario("VII")
    odd = dataclasses.replace(scenario, raw={**scenario.raw, "special_rules": [{"id": "x", "type": "sandstorm"}]})
    with pytest.raises(EngineError, match="advanced rules.*sandstorm"):
        Game(model, odd, {}, seed=0)


def test_18_9_turn_one_has_no_reinforcement_phase_and_reinforcements_arrive_later(model):
    scenario = model.scenario("I")
    game = Game(model, scenario, sample_setup(load_catalog(), scenario), seed=2)
    hand = set(game.state.hands["allied"]) | set(game.state.played) | set(game.state.stack)
    assert 420 not in hand and 421 not in hand  # B/9 on turn 6, C/9 on turn 8
    bot = RandomBot(1)
    while game.state.turn < 6 and not game.is_terminal():
        game.apply(bot.choose(game, game.legal_actions()))
    cards_turn_6 = set(game.state.hands["allied"]) | game.state.played | set(game.state.stack)
    assert 420 in cards_turn_6


def test_same_seed_same_game_and_replay(model, catalog, tmp_path):
    scenario = model.scenario("II")
    setup = sample_setup(catalog, scenario)
    a = play(model, scenario, setup, 7, ("heuristic", "random"))
    b = play(model, scenario, setup, 7, ("heuristic", "random"))
    assert a.events == b.events
    log = tmp_path / "game.jsonl"
    write_log(log, a, setup, ("heuristic", "random"))
    replayed, recorded = replay(model, log)
    assert digest(replayed) == digest(a) and replayed.returns() == recorded


@pytest.mark.parametrize("number", ["I", "II", "III", "IV", "V"])
def test_full_game_to_a_victory_result(model, catalog, number):
    scenario = model.scenario(number)
    game = play(model, scenario, sample_setup(catalog, scenario), 11, ("heuristic", "heuristic"))
    result = game.returns()
    assert result["winner"] in ("allied", "axis", "draw") and game.state.turn == scenario.turns
    assert events(game, "game-over")


def test_clone_is_independent(model, catalog):
    scenario = model.scenario("III")
    game = Game(model, scenario, sample_setup(catalog, scenario), seed=4)
    copy = game.clone()
    bot = HeuristicBot(0)
    for _ in range(30):
        copy.apply(bot.choose(copy, copy.legal_actions()))
    assert len(game.actions) == 0 and game.legal_actions() == Game(model, scenario, sample_setup(catalog, scenario),
                                                                   seed=4).legal_actions()


def test_illegal_action_is_refused(model, catalog):
    game = Game(model, model.scenario("III"), sample_setup(catalog, model.scenario("III")), seed=4)
    with pytest.raises(EngineError):
        game.apply(("teleport",))


def test_observation_hides_the_opponents_hand(model, catalog):
    game = Game(model, model.scenario("III"), sample_setup(catalog, model.scenario("III")), seed=4)
    obs = game.observation("allied")
    assert "hand" in obs and isinstance(obs["opponent_cards_in_hand"], int)
    assert json.dumps(obs)  # serialisable for bots and logs


def test_simulate_gives_the_same_results_whatever_the_number_of_jobs(catalog):
    from sandtable.rules.lab.simulate import simulate  # the one batch runner
    scenario = catalog.model.scenario("II")
    setup = sample_setup(catalog, scenario)
    one = simulate(catalog, scenario, setup, 4, 9, ("random", "heuristic"), jobs=1)
    two = simulate(catalog, scenario, setup, 4, 9, ("random", "heuristic"), jobs=2)
    strip = lambda s: [{k: v for k, v in r.items() if k != "seconds"} for r in s.results]  # noqa: E731
    assert strip(one) == strip(two)
    summary = one.to_json()
    assert summary["games"] == 4 and set(summary["sides"]) == {"allied", "axis"}
    assert summary["sides"]["allied"]["wins"] + summary["sides"]["axis"]["wins"] + summary["draws"] == 4
    lo, hi = summary["sides"]["allied"]["win_rate_95"]
    assert 0 <= lo <= summary["sides"]["allied"]["win_rate"] <= hi <= 1


def test_cli_simulate_json_has_the_documented_keys(capsys):
    from sandtable.cli import main
    assert main(["simulate", "V", "--games", "2", "--seed", "3", "--bots", "heuristic,random", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert {"games", "seed", "draws", "sides"} <= set(out)
    assert {"wins"} <= set(out["sides"]["allied"]) and {"wins"} <= set(out["sides"]["axis"])
    assert main(["simulate", "I", "--bots", "clever,random"]) == 2


def test_heuristic_bot_heads_for_what_its_side_scores(model, catalog):
    """Exit edges, zones and maps come from the victory expression (read-only JSON)."""
    beda = Game(model, model.scenario("I"), sample_setup(catalog, model.scenario("I")), seed=1)
    goal = HeuristicBot(0)._goal_distance(beda, "axis")  # Italians exit off map B's south edge
    exits = [k for k, d in goal.items() if d == 0]
    assert exits and all(k.startswith("B") and beda.ctx.field.board.edge_distance(k, "south", "B") == 1
                         for k in exits)
    gazala = Game(model, model.scenario("III"), sample_setup(catalog, model.scenario("III")), seed=1)
    on_b = [k for k, d in HeuristicBot(0)._goal_distance(gazala, "axis").items() if d == 0]
    assert on_b and all(k.startswith("B") for k in on_b)  # the Axis wins with 8 German units on map B


def test_a_result_names_the_victory_condition_that_held_in_words(model):
    from sandtable.rules.desert_steel.engine.victory import describe
    crusader = model.scenario("VIII").raw["victory"]["expression"]["outcomes"][0]["when"]
    assert describe(crusader) == "allied gb-stuart/gb-25pdr units on map A ≥ 1"
    assert describe({"cmp": [{"sub": [{"points": "axis"}, {"points": "allied"}]}, ">=", 4]}) == \
        "(axis points − allied points) ≥ 4"
    assert describe({"not": {"path_exists": {"side": "axis"}}}) == "not (a path for the axis out of the enemy's reach)"


def test_10_22_overstacking_losses_of_step_4_trigger_no_formation_check(model):
    # §4.3 step 2 tests "toutes les formations de combat qui ont perdu une unité au cours du tour de jeu";
    # §10.22 says when: "qui ont perdu au moins une unité lors de la précédente Phase des opérations".
    # Step 4 ("doivent éliminer les unités dépassant les limites d'empilement", §8.52) comes after step 2,
    # in the Morale Phase: its losses count in the loss modifier from now on but trigger no check, this
    # turn or the next (issue #16 item 10, NOTES.md).
    from sandtable.rules.desert_steel.engine.dice import Dice
    game = supercharge_on_map_b(model, Dice(3))
    tanks = [place(game, f"161.{i}", 161, "de-pz-iii-j", "B2120", "axis") for i in range(1, 5)]
    before = game.state.formations[161].losses
    game.morale_phase()
    gone = [e for e in events(game, "destroyed") if e["how"] == "overstacked"]
    assert [e["unit"] for e in gone] == [tanks[0].id]  # 4 vehicles, 3 allowed (§8.5)
    assert not [e for e in events(game, "formation-check") if e["card"] == 161]
    f = game.state.formations[161]
    assert f.losses == before + 1 and f.lost_this_turn == 0  # nothing carried into next turn's step 2


def test_8_22_an_activated_formation_turns_a_unit_without_an_operation(model):
    # §8.22: "Une unité peut changer son orientation à chaque fois que sa formation est activée. [...]
    # Une unité qui change son orientation sans effectuer d'opération n'est pas retournée à l'envers."
    # (issue #16 item 5)
    game = supercharge_on_map_b(model, ScriptedDice([]))
    tank = place(game, "429.1", 429, "gb-sherman", "B2120", "allied", facing=0)
    game.state.formations.setdefault(429, game.state.formations.get(429))
    game.ask(Activation("allied", cards=(429,)))
    legal = game.legal_actions()
    assert {("face", tank.id, s) for s in range(1, 6)} <= set(legal) and ("face", tank.id, 0) not in legal
    game.apply(("face", tank.id, 3))
    assert tank.facing == 3 and not tank.flipped and game.mode == "activation"
    assert events(game, "face")[-1]["section"] == "8.22"
    assert not [a for a in game.legal_actions() if a[0] == "face"]  # once per activation
    assert ("op", tank.id, "move") in game.legal_actions()  # and it may still operate


def test_8_22_9_41_an_opportunity_firer_turns_only_after_a_successful_spot(model):
    # §8.22: "Une unité peut également modifier son orientation après avoir effectué un repérage réussi
    # pour un tir d'opportunité (9.4)." §8.21: "Une unité peut effectuer un repérage ou ouvrir le feu par
    # ses côtés d'hexes de flanc, mais une pénalité s'applique alors (9.15 et 9.23)." The mover is in the
    # Sherman's flank arc: the spotting roll bears the penalty, the fire no longer does.
    game = supercharge_on_map_b(model, ScriptedDice([6, 4, 5, 5, 3, 3]))
    board = game.ctx.field.board
    towards = sector(board.axial("B2120"), board.axial("B2117"))  # 3 hexes, open ground: spotting number 1
    away = (towards + 3) % 6
    panzer = place(game, "161.1", 161, "de-pz-iii-j", "B2117", "axis", facing=3)
    sherman = place(game, "429.1", 429, "gb-sherman", "B2120", "allied", facing=away)
    panzer.moved = True
    game.shoot(sherman, panzer, opportunity=True, move_fire=False)
    spot, fire = events(game, "spot")[-1], events(game, "fire")[-1]
    assert spot["success"] and spot["modifiers"]["through_own_flank"] == game.ctx.tables.spot("through_own_flank")
    assert "through_own_flank" not in fire["modifiers"]
    assert sherman.facing == towards
    missed = supercharge_on_map_b(model, ScriptedDice([1]))  # a failed spot: it keeps its facing
    p2 = place(missed, "161.1", 161, "de-pz-iii-j", "B2117", "axis", facing=3)
    s2 = place(missed, "429.1", 429, "gb-sherman", "B2120", "allied", facing=away)
    p2.moved = True
    missed.shoot(s2, p2, opportunity=True, move_fire=False)
    assert not events(missed, "spot")[-1]["success"] and s2.facing == away and s2.flipped


def test_7_a_declared_move_may_become_a_move_and_fire(model):
    # §7: "si l'une de vos unités effectue une opération en mouvement (8) et que vous vous rendez compte
    # que vous ne pouvez pas déplacer l'unité en question du nombre d'hexes souhaité, changez alors votre
    # décision, et déclarez que vous effectuez une opération de tir en mouvement (9.5)." (issue #16 item 6)
    game = supercharge_on_map_b(model, ScriptedDice([6, 6, 6, 6, 6, 6]))
    tank = place(game, "429.1", 429, "gb-sherman", "B2120", "allied", facing=0)
    enemy = place(game, "161.1", 161, "de-pz-iii-j", "B2116", "axis", facing=3)
    game.state.formations[161].shaken = True  # no opportunity fire in the way
    game.ask(Activation("allied", cards=(429,)))
    game.apply(("op", tank.id, "move"))
    assert ("move-fire",) in game.legal_actions()
    game.apply(("step", "B2119"))
    game.apply(("move-fire",))
    half = game.ctx.field.allowance(tank.type) // 2  # §9.52: half, rounded down
    assert game.decision.op == "move-fire" and game.decision.mp == half
    assert events(game, "move-becomes-move-fire")[-1]["section"] == "7"
    assert ("move-fire",) not in game.legal_actions()
    game.apply(("stop",))
    assert game.mode == "target" and ("target", enemy.id) in game.legal_actions()
    game.apply(("target", enemy.id))
    fire = events(game, "fire")[-1]
    assert fire["modifiers"]["move_and_fire"] == game.ctx.tables.fire("move_and_fire")
    assert tank.flipped and not tank.flash_kill  # §9.51: never a flash kill
    # once it has spent more than half its points, the move stays a move
    game2 = supercharge_on_map_b(model, ScriptedDice([]))
    t2 = place(game2, "429.1", 429, "gb-sherman", "B2120", "allied", facing=0)
    game2.ask(Activation("allied", cards=(429,)))
    game2.apply(("op", t2.id, "move"))
    game2.ask(*game2.pending[:-1], replace(game2.decision, spent=half + 1))
    assert ("move-fire",) not in game2.legal_actions()


def test_facing_and_move_fire_actions_in_whole_games_keep_every_invariant_and_replay(model, catalog, tmp_path):
    # The random bot takes the new kinds of action (§8.22 facing, §7 move -> move-and-fire): invariants hold
    # after every action, and the log (JSON) replays to the same game.
    from enginekit import play_checked
    scenario = model.scenario("IV")
    setup = sample_setup(catalog, scenario)
    game = play_checked(Game(model, scenario, setup, seed=5), ("random", "random"))
    kinds = {e["e"] for e in game.events}
    assert {"face", "move-becomes-move-fire"} <= kinds
    from sandtable.rules.desert_steel.narration import account  # 'sandtable play' tells both
    text = "\n".join(account(game))
    assert "turns to face hexside" in text and "move becomes a move-and-fire" in text
    log = tmp_path / "game.jsonl"
    write_log(log, game, setup, ("random", "random"))
    replayed, recorded = replay(model, log)
    assert digest(replayed) == digest(game) and replayed.returns() == recorded
