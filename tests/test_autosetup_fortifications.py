"""The automatic setup places each side's fortifications (§15, §13.4, §18.4): the whole
allowance, legally, minefields and wire between the sides, bunkers manned, the same for a seed."""
import json
from collections import Counter

import pytest
from conftest import DATA

from sandtable.rules.catalog import load_catalog
from sandtable.rules.desert_steel.autosetup import auto_setup
from sandtable.rules.desert_steel.battlefield import Battlefield
from sandtable.rules.desert_steel.setup_checks import check_setup
from sandtable.rules.findings import finding

FORTIFIED = ["VI", "VII", "IX", "X", "XI", "XIII", "XIV"]  # the scenarios granting fortifications
OBSTACLES = ["VI", "VII", "X", "XI"]  # those granting minefields and wire


@pytest.fixture(scope="module")
def model():
    return load_catalog().model


_MADE: dict = {}


def made(model, number: str, seed: int = 0) -> dict:
    """The automatic setup, made once per scenario and seed for the whole module."""
    if (number, seed) not in _MADE:
        _MADE[number, seed] = json.dumps(auto_setup(model, model.scenario(number), seed))
    return json.loads(_MADE[number, seed])


def findings(model, setup):
    return check_setup(model, setup, lambda code, msg, ptr="", **kw: finding(code, msg, pointer=ptr, **kw))


def sample(number: str) -> dict:
    path = next((DATA / "desert-steel" / "setups").glob(f"{number}-*.json"))
    return json.loads(path.read_text(encoding="utf-8"))


def defenders(scenario):
    return [side for side in ("allied", "axis") if scenario.sides[side].raw.get("fortifications")]


def enemy_of(side):
    return "axis" if side == "allied" else "allied"


def placed(data: dict) -> Counter:
    out = Counter({"minefields": len(data.get("minefields", ()))})
    kinds = {"wire": "wire", "bunker": "bunkers", "entrenchment": "entrenchments"}
    out.update(kinds[f["type"]] for f in data.get("fortifications", ()))
    out["entrenchments"] += sum(1 for p in data["placements"] if p.get("entrenched"))
    return +out


def ways_in(field, scenario, side) -> list[frozenset]:
    """Each zone the side starts in or comes on from (each edge of 'any edge' apart)."""
    out = []
    for group in list(scenario.sides[side].groups) + list(scenario.sides[side].reinforcements):
        zone = group.get("setup") or (group.get("enter") or {}).get("zone") or group.get("zone")
        if zone is not None and not group.get("hand_only"):
            out += [field.zone(z) for z in (zone["any"] if set(zone) == {"any"} else [zone])]
    return [w for w in out if w]


def obstacles(data):
    return list(data.get("minefields", ())) + [f["hex"] for f in data.get("fortifications", ()) if f["type"] == "wire"]


@pytest.mark.parametrize("number", FORTIFIED)
def test_the_whole_allowance_is_placed(model, number):
    scenario = model.scenario(number)
    setup = made(model, number)
    for side in defenders(scenario):
        allowance = {k: v["count"] for k, v in scenario.sides[side].raw["fortifications"].items()}
        assert placed(setup["sides"][side]) == allowance
    assert "Fortifications, the whole allowance" in setup["description"]


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("number", FORTIFIED)
def test_every_setup_check_passes(model, number, seed):
    assert findings(model, made(model, number, seed)) == []


@pytest.mark.parametrize("number", OBSTACLES)
def test_minefields_and_wire_lie_between_the_sides(model, number):
    scenario = model.scenario(number)
    field = Battlefield.for_scenario(model, scenario)
    board = field.board
    for seed in (0, 1):
        setup = made(model, number, seed)
        for side in defenders(scenario):
            ways = ways_in(field, scenario, enemy_of(side))
            units = {p["hex"] for p in setup["sides"][side]["placements"]}
            start = frozenset().union(*ways)

            def d(way, h):
                return min(board.distance(h, e) for e in way)

            for h in obstacles(setup["sides"][side]):
                assert h not in start and h not in units
                # in front of a unit of the side, a few hexes off: nearer the enemy than that unit
                assert any(board.distance(h, u) <= 6 and d(w, h) < d(w, u) for u in units for w in ways), h

            def mean(hexes):
                return sum(d(start, h) for h in hexes) / len(hexes)

            assert mean(obstacles(setup["sides"][side])) < mean(units)


@pytest.mark.parametrize("number", OBSTACLES)
def test_obstacles_spread_as_belts_across_the_front(model, number):
    scenario = model.scenario(number)
    board = Battlefield.for_scenario(model, scenario).board
    setup = made(model, number)
    for side in defenders(scenario):
        data = setup["sides"][side]
        units = sorted({p["hex"] for p in data["placements"]})
        mines = data["minefields"]

        def nearest(h):
            return min(units, key=lambda u: (board.distance(u, h), u))

        assert len({nearest(h) for h in mines}) >= min(3, len(units), len(mines))
        assert max(sum(board.distance(o, h) == 1 for o in mines) for h in mines) <= 3  # not one solid block


@pytest.mark.parametrize("number", OBSTACLES)
def test_wire_leaves_the_units_a_way_out(model, number):
    scenario = model.scenario(number)
    board = Battlefield.for_scenario(model, scenario).board
    setup = made(model, number)
    for side in defenders(scenario):
        data = setup["sides"][side]
        wire = {f["hex"] for f in data["fortifications"] if f["type"] == "wire"}
        for unit_hex in {p["hex"] for p in data["placements"]}:
            seen, todo = {unit_hex}, [unit_hex]
            while todo:
                for n in board.neighbours(todo.pop()):
                    if n not in seen and n not in wire:
                        seen.add(n)
                        todo.append(n)
            assert len(seen) >= len(board.usable) // 2, unit_hex


@pytest.mark.parametrize("number", ["VII", "X"])
def test_bunkers_hold_one_infantry_or_forward_observer_each(model, number):
    scenario = model.scenario(number)
    field = Battlefield.for_scenario(model, scenario)
    data = made(model, number)["sides"]["allied"]
    bunkers = Counter(f["hex"] for f in data["fortifications"] if f["type"] == "bunker")
    inside = [p for p in data["placements"] if p.get("in_bunker")]
    assert Counter(p["hex"] for p in inside) == bunkers
    assert {model.unit_types[p["type"]].unit_class for p in inside} <= {"infantry", "forward-observer"}
    assert not any(field.terrain.hexes[h].building for h in bunkers)
    assert not any(p.get("entrenched") for p in inside)


@pytest.mark.parametrize("number", FORTIFIED)
def test_entrenchments_under_non_vehicles_nearest_the_enemy(model, number):
    scenario = model.scenario(number)
    field = Battlefield.for_scenario(model, scenario)
    setup = made(model, number)
    for side in defenders(scenario):
        data = setup["sides"][side]
        start = frozenset().union(*ways_in(field, scenario, enemy_of(side)))
        dug = [p for p in data["placements"] if p.get("entrenched")]
        assert all(not model.unit_types[p["type"]].is_vehicle for p in dug)
        assert max(Counter(p["hex"] for p in dug).values()) <= 6
        assert not {p["hex"] for p in dug} & set(data.get("minefields", ()))
        rest = [p for p in data["placements"] if not p.get("entrenched") and not p.get("in_bunker")
                and not model.unit_types[p["type"]].is_vehicle]
        if rest:
            def mean(ps):
                return sum(min(field.board.distance(p["hex"], e) for e in start) for p in ps) / len(ps)
            assert mean(dug) <= mean(rest)


@pytest.mark.parametrize("number", ["VI", "X"])
def test_the_same_seed_gives_the_same_fortifications(model, number):
    scenario = model.scenario(number)
    assert auto_setup(model, scenario, 1) == made(model, number, 1)
    side = defenders(scenario)[0]
    assert made(model, number, 1)["sides"][side]["minefields"] != made(model, number, 0)["sides"][side]["minefields"]


def test_fewer_than_the_allowance_says_why(tmp_path):
    mod = tmp_path / "more-entrenchments"
    mod.mkdir()
    (mod / "pack.json").write_text(json.dumps({"kind": "pack", "id": "more-entrenchments", "name": "x",
                                               "version": "1.0", "ruleset": "desert-steel",
                                               "depends_on": [{"id": "desert-steel"}]}))
    (mod / "overrides.json").write_text(json.dumps({"kind": "overrides", "overrides": [{
        "target": {"kind": "scenario", "id": "tobruk"},
        "patch": [{"op": "replace", "path": "/sides/allied/fortifications/entrenchments/count", "value": 60}]}]}))
    model = load_catalog([mod]).model
    setup = auto_setup(model, model.scenario("VII"), 0)
    data = setup["sides"]["allied"]
    eligible = [p for p in data["placements"] if not model.unit_types[p["type"]].is_vehicle and not p.get("in_bunker")]
    assert placed(data)["entrenchments"] == len(eligible) < 60
    assert f"{len(eligible)} of 60 entrenchments (one per non-vehicle unit" in setup["description"]
    assert findings(model, setup) == []


# --- the setup checks the automatic setup must pass -----------------------------------------

def sections(model, setup) -> set[str]:
    return {f.section for f in findings(model, setup) if f.code == "setup-fortification"}


def test_checks_count_entrenched_units_and_refuse_entrenched_vehicles(model):
    setup = sample("07")  # Tobruk: 15 entrenchments
    for p in setup["sides"]["allied"]["placements"]:
        p["entrenched"] = True
    found = [f for f in findings(model, setup) if f.code == "setup-fortification"]
    assert any("allows allied 15" in f.message for f in found)
    assert any(f.section == "13.41" and "vehicle" in f.message for f in found)


def test_checks_wire_neither_in_buildings_nor_with_friendly_units(model):
    setup = sample("06")  # Sidi Barrani: inhabited, its building hexes are buildings
    field = Battlefield.for_scenario(model, model.scenario("VI"))
    building = next(k for k, t in sorted(field.terrain.hexes.items()) if t.building and k in field.board.usable)
    axis = setup["sides"]["axis"]
    wire = [f for f in axis["fortifications"] if f["type"] == "wire"]
    wire[0]["hex"], wire[1]["hex"] = building, axis["placements"][0]["hex"]
    found = [f for f in findings(model, setup) if f.section == "15.31"]
    assert any("building" in f.message for f in found) and any("friendly unit" in f.message for f in found)


def test_checks_bunkers_one_infantry_or_fo_each_out_of_minefields(model):
    setup = sample("07")
    allied = setup["sides"]["allied"]
    bunker = next(f for f in allied["fortifications"] if f["type"] == "bunker")
    gun = next(p for p in allied["placements"] if model.unit_types[p["type"]].unit_class == "artillery")
    gun["in_bunker"] = True  # an artillery unit, and a second unit in some one-bunker hex
    assert "15.22" in sections(model, setup)
    gun.pop("in_bunker")
    allied["minefields"][0] = bunker["hex"]
    assert "15.11" in sections(model, setup)
