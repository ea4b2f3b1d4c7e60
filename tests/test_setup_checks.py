"""Setup checks: each sample setup is legal; an illegal variant produces each finding."""
import json

import pytest
from conftest import DATA

from sandtable.rules.catalog import load_catalog
from sandtable.rules.desert_steel.autosetup import auto_setup
from sandtable.rules.desert_steel.setup_checks import check_setup
from sandtable.rules.findings import CODES, finding

SETUPS = sorted((DATA / "desert-steel" / "setups").glob("*.json"))
SEEN: set[str] = set()


@pytest.fixture(scope="module")
def model():
    return load_catalog().model


def run(model, setup):
    found = check_setup(model, setup, lambda code, msg, ptr="", **kw: finding(code, msg, pointer=ptr, **kw))
    SEEN.update(f.code for f in found)
    return found


def sample(number: str) -> dict:
    path = next(p for p in SETUPS if p.name.startswith(number))
    return json.loads(path.read_text(encoding="utf-8"))


def codes(found):
    return sorted({f.code for f in found})


@pytest.mark.parametrize("path", SETUPS, ids=lambda p: p.stem)
def test_sample_setup_is_legal(model, path):
    assert run(model, json.loads(path.read_text(encoding="utf-8"))) == []


def test_every_scenario_with_units_on_the_map_has_a_sample(model):
    with_units = {s.id for s in model.scenarios.values()
                  if any("setup" in g for side in s.sides.values() for g in side.groups)}
    assert with_units == {json.loads(p.read_text())["scenario"] for p in SETUPS}


def test_auto_setup_is_deterministic_and_legal_for_other_seeds(model):
    s = model.scenario("X")
    assert auto_setup(model, s, 3) == auto_setup(model, s, 3)
    assert run(model, auto_setup(model, s, 3)) == []


def test_half_hex_is_never_usable(model):
    setup = sample("13")
    setup["sides"]["allied"]["placements"][0]["hex"] = "B2201"  # an even column's row 01: half hex
    found = run(model, setup)
    assert "setup-hex" in codes(found)
    assert next(f for f in found if f.code == "setup-hex").section == "18.4"


def test_outside_setup_zone(model):
    setup = sample("01")  # Beda Fomm: British within 10 hexes of B's east edge
    setup["sides"]["allied"]["placements"][0]["hex"] = "B1415"
    found = run(model, setup)
    assert "setup-zone" in codes(found)


def test_formation_that_enters_later_cannot_set_up(model):
    setup = sample("01")
    extra = dict(setup["sides"]["allied"]["placements"][0], card=420)  # B/9 enters on turn 6
    setup["sides"]["allied"]["placements"].append(extra)
    assert "setup-formation" in codes(run(model, setup))


def test_units_must_match_the_card_less_undermanned(model):
    setup = sample("02")
    setup["sides"]["allied"]["placements"].pop()
    found = run(model, setup)
    assert codes(found) == ["setup-units"] and "missing" in found[0].message
    setup = sample("02")
    setup["sides"]["allied"]["placements"].append(dict(setup["sides"]["allied"]["placements"][0]))
    found = run(model, setup)
    assert "setup-units" in codes(found) and "not on the card" in next(
        f for f in found if f.code == "setup-units").message


def test_stacking_limit_per_side_per_hex(model):
    setup = sample("10")
    placements = setup["sides"]["axis"]["placements"]
    vehicles = [p for p in placements if model.unit_types[p["type"]].is_vehicle][:4]
    for p in vehicles:
        p["hex"] = vehicles[0]["hex"]
    found = run(model, setup)
    assert "setup-stacking" in codes(found)
    assert next(f for f in found if f.code == "setup-stacking").section == "8.5"


def test_scenario_transports_count_as_vehicles_for_stacking(model):
    # §2.11: "Les véhicules comprennent les chars, les chasseurs de chars, les camions et autres moyens
    # de transport" ; §8.5: "La limite maximale d'empilement est de 6 unités par hex. ; et pas plus de 3
    # d'entre elles peuvent être des véhicules." 3 tanks and 1 truck: refused (issue #16 item 7).
    setup = sample("07")
    side = setup["sides"]["allied"]
    tanks = [p for p in side["placements"] if model.unit_types[p["type"]].is_vehicle and not p.get("loaded_in")][:3]
    hex_ = tanks[0]["hex"]
    side["placements"] = [p for p in side["placements"] if p["hex"] != hex_ or p in tanks]
    for p in tanks:
        p["hex"] = hex_
    side["transports"] = [t for t in side["transports"] if t["hex"] != hex_]
    assert "setup-stacking" not in codes(run(model, setup))
    side["transports"].append({"type": "gb-truck", "hex": hex_})
    found = [f for f in run(model, setup) if f.code == "setup-stacking"]
    assert found and "4 vehicles, 1 of them scenario transports" in found[0].message
    assert found[0].location.pointer == f"/sides/allied/transports/{len(side['transports']) - 1}/hex"


def test_separated_formation_names_best_centre_and_units_outside(model):
    setup = sample("03")  # Gazala: German companies, radius 3
    placements = [p for p in setup["sides"]["axis"]["placements"] if p["card"] == 162]
    placements[0]["hex"] = "A3710" if placements[0]["hex"][1:3] < "25" else "A1210"
    found = [f for f in run(model, setup) if f.code == "setup-separated"]
    assert found and "best centre" in found[0].message and found[0].section == "11"


def test_hidden_units_only_forward_observers_where_allowed(model):
    setup = sample("02")  # Battleaxe: basic rules, no hidden observers
    setup["sides"]["allied"]["placements"][0]["hidden"] = True
    found = run(model, setup)
    assert "setup-hidden" in codes(found)


def _fo(model, setup, side, card=None):
    return next(p for p in setup["sides"][side]["placements"]
                if model.unit_types[p["type"]].unit_class == "forward-observer" and card in (None, p["card"]))


def test_12_21_hidden_observers_set_up_where_the_scenario_says(model):
    # §12.21: "Dans certains scénarios, l'emplacement de déploiement de vos OA peut être géographiquement
    # limité, dans d'autres vous pourrez les placer où bon vous semble." (issue #16 item 2)
    from sandtable.rules.desert_steel.battlefield import Battlefield
    # IX: "Les OA débutent le scénario cachés en n'importe quel endroit de la carte." -- also within 6
    # hexes of an edge, where the Allied formations may not set up
    setup = sample("09")
    fo = _fo(model, setup, "allied")
    field = Battlefield.for_scenario(model, model.scenario("IX"))
    near_edge = sorted(set(field.board.usable) - field.zone({"away_from_edges": {"at_least": 6}}))[0]
    fo.update(hex=near_edge, hidden=True)
    assert run(model, setup) == []
    fo["hidden"] = False  # placed openly, it sets up with its formation
    assert codes(run(model, setup)) == ["setup-zone"]
    # XI: "Les observateurs avancés alliés peuvent être secrètement positionnés sur la carte B dans les 20
    # hexes à partir du bord est de la carte." / "Les observateurs avancés de l'Axe sont placés
    # secrètement en tout point des deux cartes."
    setup = sample("11")
    field = Battlefield.for_scenario(model, model.scenario("XI"))
    allied_fo, axis_fo = _fo(model, setup, "allied"), _fo(model, setup, "axis")
    twenty = field.zone({"all": [{"map": "B"}, {"near_edge": {"edge": "east", "within": 20, "map": "B"}}]})
    ten = field.zone({"all": [{"map": "B"}, {"near_edge": {"edge": "east", "within": 10, "map": "B"}}]})
    allied_fo.update(hex=sorted(twenty - ten)[0], hidden=True)
    axis_fo.update(hex=sorted(h for h in field.board.usable if h.startswith("A"))[40], hidden=True)
    assert run(model, setup) == []
    allied_fo["hex"] = sorted(h for h in field.board.usable if h.startswith("B") and h not in twenty)[0]
    found = run(model, setup)
    assert codes(found) == ["setup-hidden"] and found[0].section == "12.21"
    # VI: "Les observateurs avancés italiens ne peuvent pas être déployés cachés."
    setup = sample("06")
    _fo(model, setup, "axis")["hidden"] = True
    assert codes(run(model, setup)) == ["setup-hidden"]
    # VII says nothing: §12.21 "tous les OA de vos forces initiales peuvent être déployés de manière
    # cachée", with their formation
    setup = sample("07")
    _fo(model, setup, "allied")["hidden"] = True
    assert run(model, setup) == []


def test_fortification_allowance_zone_and_rules(model):
    setup = sample("07")  # Tobruk: Allied 18 wire and 15 entrenchments on level 1, 20 minefields on level 0
    field_hexes = [p["hex"] for p in setup["sides"]["allied"]["placements"]]
    side = setup["sides"]["allied"]
    side["fortifications"] = [{"type": "wire", "hex": field_hexes[0]}, {"type": "wire", "hex": field_hexes[0]}]
    found = run(model, setup)
    assert "setup-fortification" in codes(found) and "setup-obstacle" in codes(found)
    side["fortifications"] = [{"type": "bunker", "hex": field_hexes[0]} for _ in range(4)]
    assert any("allows allied 3" in f.message for f in run(model, setup))


def test_unit_in_minefield_hex(model):
    setup = sample("07")
    setup["sides"]["allied"]["minefields"] = [setup["sides"]["allied"]["placements"][0]["hex"]]
    assert "setup-obstacle" in codes(run(model, setup))


def test_transport_counts_and_capacity(model):
    setup = sample("07")
    side = setup["sides"]["allied"]
    hex_ = side["placements"][0]["hex"]
    side["transports"] = [{"type": "gb-truck", "hex": hex_} for _ in range(4)]  # Tobruk gives 3
    assert "setup-transport" in codes(run(model, setup))
    side["transports"] = [{"type": "gb-truck", "hex": hex_}]
    for p in side["placements"][:5]:
        p["hex"], p["loaded_in"] = hex_, 0
    found = [f for f in run(model, setup) if f.code == "setup-transport"]
    assert found and found[0].section in ("13.34", "13.3")


def test_special_rule_no_stacking(model):
    setup = sample("06")  # Sidi Barrani: Italian units may not set up stacked
    placements = setup["sides"]["axis"]["placements"]
    placements[1]["hex"] = placements[0]["hex"]
    found = run(model, setup)
    assert "setup-special-rule" in codes(found)


def test_zone_that_cannot_be_evaluated_is_a_finding(tmp_path):
    # A mod whose setup zone cannot be drawn on the board: rows run across the page, so no
    # hex is "east of row 14" when north is up.
    mod = tmp_path / "bad-zone"
    mod.mkdir()
    (mod / "pack.json").write_text(json.dumps({"kind": "pack", "id": "bad-zone", "name": "x", "version": "1.0",
                                               "ruleset": "desert-steel", "depends_on": [{"id": "desert-steel"}]}))
    (mod / "overrides.json").write_text(json.dumps({"kind": "overrides", "overrides": [{
        "target": {"kind": "scenario", "id": "beda-fomm"},
        "patch": [{"op": "replace", "path": "/sides/allied/formations/0/setup",
                   "value": {"beyond_line": {"direction": "east", "row": 14}}}]}]}))
    model = load_catalog([mod]).model
    found = run(model, sample("01"))
    assert codes(found) == ["zone-invalid"] and "rows run across the page" in found[0].message


def test_what_only_the_engine_checks_is_a_finding_too(model):
    """One truth (#26): raids planned beyond the scenario's are refused by the engine at set-up;
    check-setup asks it last and reports the refusal in its words."""
    setup = sample("15")
    assert run(model, setup) == []
    setup["sides"]["allied"]["raids"] = [{"kind": "air-strike", "turn": 3}]  # 5 on-call bombardments, no strike
    found = run(model, setup)
    assert codes(found) == ["setup-unplayable"] and found[0].message.endswith(
        "the setup plans 1 air strikes for the allied side, the scenario gives 0 (§16.21)")
    setup = sample("13")  # Lightfoot: two Italian air strikes for the Axis
    assert run(model, setup) == []
    setup["sides"]["axis"]["raids"] = [{"kind": "air-strike", "turn": 3}, {"kind": "air-strike", "turn": 3}]
    found = run(model, setup)
    assert codes(found) == ["setup-unplayable"] and found[0].message.endswith(
        "one air strike per player per turn (§16.21)")


def test_setup_codes_are_all_exercised():
    expected = {c for c in CODES if c.startswith("setup-")}
    assert expected <= SEEN, f"no test produces {sorted(expected - SEEN)}"


def test_auto_setup_places_the_starting_transports_beside_towed_guns(model):
    s = model.scenario("VIII")  # Crusader: the Allies have 2 trucks for their towed 25-pounders
    setup = auto_setup(model, s, 0)
    trucks = setup["sides"]["allied"]["transports"]
    assert len(trucks) == 2 and all(model.unit_types[t["type"]].transport_capacity == "truck" for t in trucks)
    guns = {p["hex"] for p in setup["sides"]["allied"]["placements"] if model.unit_types[p["type"]].towed}
    assert trucks[0]["hex"] in guns  # beside the guns first, while the stacking limit leaves room
    assert run(model, setup) == []


def test_a_setup_inside_a_pack_folder_is_checked_against_that_pack(capsys):
    # issue #16 item 12: no --pack needed for data/holland44/setups/...
    from sandtable.cli import main
    assert main(["check-setup", str(DATA / "holland44" / "setups" / "s1-initial.json")]) == 0
    assert "OK: 1 file(s) checked" in capsys.readouterr().out


def test_a_setup_of_another_ruleset_says_which_pack_it_belongs_to(tmp_path, capsys):
    from sandtable.cli import main
    moved = tmp_path / "s1.json"  # outside any pack: checked against the bundled Desert Steel pack
    moved.write_bytes((DATA / "holland44" / "setups" / "s1-initial.json").read_bytes())
    assert main(["check-setup", str(moved)]) == 2
    out = capsys.readouterr()
    assert "is a holland44 setup, not a desert-steel one: check it with --pack" in out.err
    assert "holland44" in out.err.rsplit("--pack", 1)[1] and "schema" not in out.out + out.err
    assert main(["check-setup", str(SETUPS[0]), "--pack", str(DATA / "holland44")]) == 2
    assert "is a desert-steel setup, not a holland44 one" in capsys.readouterr().err
