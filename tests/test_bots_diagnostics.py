"""Batch diagnostics (overstacking, fortified units leaving, opportunity fire, move-and-fire,
wasted bombardments, objective progress), simulate's refusal of a scenario nobody can win, and
balance over several setups (issue 15)."""
from __future__ import annotations

import json

from sandtable.rules.desert_steel.engine.diagnostics import Recorder, aggregate, game_diagnostics, warnings
from sandtable.rules.desert_steel.engine.game import Game
from sandtable.rules.desert_steel.engine.runner import sample_setup, setup_pool, setup_variance


def test_simulate_refuses_a_scenario_without_victory_conditions(capsys):
    from sandtable.cli import main
    assert main(["simulate", "VI", "--games", "2", "--no-progress"]) == 1
    err = capsys.readouterr().err
    assert "VI" in err and "no victory conditions" in err and "Traceback" not in err


def test_simulate_json_reports_diagnostics_and_setup_variance(capsys):
    from sandtable.cli import main
    assert main(["simulate", "I", "--games", "3", "--setups", "2", "--seed", "5", "--no-progress", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    for side in ("allied", "axis"):
        d = out["diagnostics"][side]
        assert {"overstack_losses", "fortified_units_leaving_turn1", "opportunity_fires", "move_and_fire",
                "wasted_bombardments", "objective_progress"} <= set(d)
    assert out["diagnostics"]["allied"]["objective_progress"] is None  # the British only destroy and hold
    assert 0 <= out["diagnostics"]["axis"]["objective_progress"] <= 1  # the Italians exit south
    assert out["setups"]["count"] == 3 and sum(s["games"] for s in out["setups"]["per_setup"]) == 3
    assert isinstance(out["warnings"], list)
    assert main(["simulate", "I", "--games", "2", "--setups", "-1"]) == 2


def test_setup_pool_starts_with_the_sample_and_adds_seeded_automatic_setups(catalog):
    scenario = catalog.model.scenario("I")
    sample = sample_setup(catalog, scenario)
    pool = setup_pool(catalog, scenario, 2, sample)
    assert pool[0] is sample and len(pool) == 3
    assert pool[1] == setup_pool(catalog, scenario, 1, sample)[1]  # seeded: the same setup every time
    assert pool[1] != pool[2]


def test_setup_variance_splits_between_and_within_setups():
    # setup 0: the allies always win; setup 1: never. All the variance is the setups'.
    results = [{"winner": "allied", "setup": 0}] * 4 + [{"winner": "axis", "setup": 1}] * 4
    v = setup_variance(results)
    assert v["sides"]["allied"]["setup_share_of_variance"] == 1.0
    assert v["sides"]["allied"]["variance_within_setups"] == 0
    mixed = [{"winner": w, "setup": s} for s in (0, 1) for w in ("allied", "axis")]
    assert setup_variance(mixed)["sides"]["allied"]["setup_share_of_variance"] == 0.0


def test_diagnostics_count_from_the_event_log(model, catalog):
    scenario = model.scenario("X")  # the British set up in entrenchments and bunkers
    game = Game(model, scenario, sample_setup(catalog, scenario), seed=1)
    rec = Recorder()
    rec.start(game)
    assert rec.fortified, "X's sample setup has fortified British units"
    leaver, stayer = list(rec.fortified)[:2]
    british = game.state.units[leaver]
    game.state.units[leaver].hex = next(iter(game.ctx.field.board.neighbours(rec.fortified[leaver])))
    axis_unit = next(u for u in game.state.units.values() if u.side == "axis")
    game.log("destroyed", unit=axis_unit.id, how="overstacked", hex=None)
    game.log("destroyed", unit=british.id, how="fire", hex=None)
    game.log("opportunity-fire", unit=british.id, target=axis_unit.id)
    game.log("action", side="axis", action=["op", axis_unit.id, "move-fire"])
    game.log("bombardment-cancelled", side="axis", spotting_card=1)
    game.state.turn = 2
    rec.step(game)
    d = game_diagnostics(game, rec)
    assert d["axis"]["overstack_losses"] == 1 and d["allied"]["overstack_losses"] == 0  # not the fire loss
    assert d["allied"]["opportunity_fires"] == 1 and d["axis"]["move_and_fire"] == 1
    assert d["axis"]["wasted_bombardments"] == 1
    assert d["allied"]["fortified_units"] == len(rec.fortified)
    assert d["allied"]["fortified_units_leaving_turn1"] == 1  # the stayer stayed
    assert stayer != leaver
    agg = aggregate([d, d])
    assert agg["allied"]["fortified_share_leaving_turn1"] == round(1 / len(rec.fortified), 3)


def test_warnings_name_what_dominates_a_result():
    side = {"overstack_losses": 3.0, "fortified_units": 10, "fortified_units_leaving_turn1": 9,
            "opportunity_fires": 0, "move_and_fire": 0, "wasted_bombardments": 0, "objective_progress": 0.2,
            "fortified_share_leaving_turn1": 0.9}
    summary = {"games": 20, "diagnostics": {"allied": side, "axis": dict(side, objective_progress=None,
                                                                           fortified_share_leaving_turn1=None,
                                                                           overstack_losses=0)},
               "sides": {"allied": {"average_losses_by_type": {"x": 6}, "win_rate": 0.1},
                         "axis": {"average_losses_by_type": {"x": 6}, "win_rate": 0.9}}}
    text = "\n".join(warnings(summary))
    assert "overstacking" in text and "fortified" in text and "objective" in text and "opportunity" in text


def test_batches_measure_only_scenarios_with_victory_conditions():
    # the ladder and the balance document share this list: VI (no victory terms) is refused with
    # its reason, the others are kept in the pack's order, and a filter takes numbers or ids
    from sandtable.rules.catalog import load_catalog
    from sandtable.rules.desert_steel.engine.runner import measurable_scenarios
    model = load_catalog().model
    playable, refused = measurable_scenarios(model)
    assert [s.number for s, _ in refused] == ["VI"] and "no victory conditions" in refused[0][1]
    assert len(playable) == 14 and playable[0].number == "I"
    assert [s.number for s in measurable_scenarios(model, ["tobruk", "IV", "VI"])[0]] == ["IV", "VII"]
