"""One truth (principle 12): what the engine refuses is the finding validate, check-setup and the
automatic setup give, in the same words; a setup the checks accept, the engine plays."""
from __future__ import annotations

import json
import shutil

import pytest

from fixture_packs import BASE, VARIANTS, copy_base
from sandtable.cli import main
from sandtable.rules.catalog import load_catalog
from sandtable.rules.desert_steel.autosetup import AutoSetupError, auto_setup
from sandtable.rules.desert_steel.engine.context import EngineError, make_context
from sandtable.rules.desert_steel.engine.game import Game
from sandtable.rules.desert_steel.preflight import scenario_problems
from sandtable.rules.desert_steel.setup_checks import check_setup
from sandtable.rules.findings import finding

def REPORT(code, message, pointer, section=None):
    return finding(code, message, pointer=pointer, section=section)


SENTENCE = ("basic rules have no infantry (§2.11): card 101 A/1 carries de-infantry — switch the scenario to "
            "advanced rules or remove the card")


@pytest.fixture
def infantry_pack(tmp_path):
    pack = copy_base(tmp_path / "pack")
    shutil.copytree(VARIANTS / "scenario-unplayable", pack, dirs_exist_ok=True)
    return pack



def test_every_check_and_the_engine_say_the_same(infantry_pack, capsys):
    catalog = load_catalog([infantry_pack])
    found = [f for f in catalog.findings if f.code == "scenario-unplayable"]
    assert [f.message for f in found] == [SENTENCE]
    assert found[0].location.pointer == "/sides/axis/formations/0/cards/0"
    model = catalog.model
    scenario = model.scenario("I")
    assert [p.message for p in scenario_problems(model, scenario)] == [SENTENCE]
    with pytest.raises(AutoSetupError, match=r"basic rules have no infantry \(§2\.11\)"):
        auto_setup(model, scenario, 0)
    with pytest.raises(EngineError) as exc:
        make_context(model, scenario)
    assert SENTENCE in str(exc.value) and "{" not in str(exc.value)
    setup = json.loads((BASE / "setups/skirmish-setup.json").read_text())
    messages = [f.message for f in check_setup(model, setup, REPORT)]
    assert SENTENCE in messages
    assert main(["check-setup", str(infantry_pack / "setups/skirmish-setup.json")]) == 1
    assert SENTENCE in capsys.readouterr().out


def test_after_the_fix_the_automatic_setup_plays(infantry_pack):
    path = infantry_pack / "scenarios/skirmish.json"
    path.write_text(path.read_text().replace('"rules": "basic"', '"rules": "advanced"'))
    catalog = load_catalog([infantry_pack])
    assert not [f for f in catalog.findings if f.code == "scenario-unplayable"]
    model = catalog.model
    scenario = model.scenario("I")
    setup = auto_setup(model, scenario, 0)
    assert [f.message for f in check_setup(model, setup, REPORT)] == []
    game = Game(model, scenario, setup, seed=1)
    assert any(u.type.id == "de-infantry" for u in game.state.units.values())


def test_basic_rules_set_infantry_aside_the_same_way_everywhere():
    """A card with vehicles and infantry plays its vehicles under the basic rules: the automatic
    setup places only them, check-setup accepts a setup with or without the infantry, the engine
    plays both (the base fixture's setup places its A/1 infantry)."""
    catalog = load_catalog([BASE])
    model = catalog.model
    scenario = model.scenario("I")
    assert scenario_problems(model, scenario) == []
    auto = auto_setup(model, scenario, 0)
    assert {p["type"] for p in auto["sides"]["axis"]["placements"]} == {"de-tank"}
    pack_setup = json.loads((BASE / "setups/skirmish-setup.json").read_text())
    for setup in (auto, pack_setup):
        assert [f.message for f in check_setup(model, setup, REPORT)] == []
        game = Game(model, scenario, setup, seed=1)
        assert {u.type.id for u in game.state.units.values() if u.side == "axis"} == {"de-tank"}


def test_a_card_of_infantry_and_carriers_is_refused_under_basic_rules():
    """Card 411 A/6: infantry, a machine gun and a carrier. Under the basic rules only the carrier
    would be left, a transport with nothing to carry (§13.3 is an advanced rule)."""
    catalog = load_catalog()
    model = catalog.model
    raw = json.loads(json.dumps(catalog.get("scenario", "gazala").value))
    raw["sides"]["allied"]["formations"][0]["cards"].append(411)
    from sandtable.rules.desert_steel.model import _scenario
    scenario = _scenario(raw, model.cards, model.configurations)
    problems = scenario_problems(model, scenario)
    assert [p.message for p in problems] == [
        "basic rules have no infantry (§2.11): card 411 A/6 carries gb-infantry and gb-mg — switch the scenario "
        "to advanced rules or remove the card"]
    assert problems[0].pointer == f"/sides/allied/formations/0/cards/{len(raw['sides']['allied']['formations'][0]['cards']) - 1}"


def test_a_refused_setup_is_described_not_dumped():
    catalog = load_catalog([BASE])
    model = catalog.model
    setup = json.loads((BASE / "setups/skirmish-setup.json").read_text())
    setup["sides"]["axis"]["placements"].append({"card": 101, "type": "de-tank", "hex": "0101"})
    with pytest.raises(EngineError) as exc:
        Game(model, model.scenario("I"), setup, seed=1)
    text = str(exc.value)
    assert text.endswith("not on the scenario's cards: 1 de-tank of card 101 A/1 at 0101")
    assert "{" not in text and "[" not in text


def test_check_setup_asks_the_engine_last():
    """What the engine checks at set-up beyond the setup rules (raids planned, §16.21) is a
    check-setup finding in the engine's words; a setup the engine plays has none."""
    catalog = load_catalog([BASE])
    model = catalog.model
    setup = json.loads((BASE / "setups/skirmish-setup.json").read_text())
    assert check_setup(model, setup, REPORT) == []
    setup["sides"]["allied"]["raids"] = [{"kind": "air-strike", "turn": 2}]
    (f,) = check_setup(model, setup, REPORT)
    assert f.code == "setup-unplayable" and f.message.endswith(
        "the setup plans 1 air strikes for the allied side, the scenario gives 0 (§16.21)")
    with pytest.raises(EngineError, match="1 air strikes"):
        Game(model, model.scenario("I"), setup, seed=1)


@pytest.mark.parametrize("cards, words", [([500], "is not a combat formation of the axis side"),
                                          ([411], "is not a combat formation of the axis side")])
def test_start_shaken_refusals_are_findings_in_the_engines_words(tmp_path, cards, words):
    """VI's start-shaken rule given a command card or an Allied card: validate says what the
    engine says when the game starts (the two are checked against each other here)."""
    from editorkit import copy_pack
    pack = copy_pack(tmp_path)
    path = pack / "scenarios/06-sidi-barrani.json"
    raw = json.loads(path.read_text())
    rule = next(r for r in raw["special_rules"] if r["type"] == "start-shaken")
    rule["cards"] = cards
    path.write_text(json.dumps(raw))
    catalog = load_catalog([pack])
    found = [f.message for f in catalog.findings if f.code == "scenario-unplayable"]
    assert len(found) == 1 and words in found[0]
    model = catalog.model
    with pytest.raises(EngineError) as exc:
        make_context(model, model.scenario("VI"))
    assert found[0] in str(exc.value)


def test_start_shaken_of_an_entering_formation_is_refused_alike(tmp_path):
    from editorkit import copy_pack
    pack = copy_pack(tmp_path)
    path = pack / "scenarios/06-sidi-barrani.json"
    raw = json.loads(path.read_text())
    raw["special_rules"].append({"id": "allies-shaken", "type": "start-shaken", "side": "allied", "cards": [411],
                                 "text": {"en": "A/6 begins shaken."}})
    path.write_text(json.dumps(raw))
    catalog = load_catalog([pack])
    found = [f.message for f in catalog.findings if f.code == "scenario-unplayable"]
    assert found == ["start-shaken rule allies-shaken: formation 411 enters the map; a formation arriving shaken "
                     "is not implemented"]
