"""Issue #29, class 6: zones and batches are bounded before work. A ``near_map`` zone whose
``within`` is far larger than the board (3000, 1e9) is the whole board, computed at once; the
bounded growth gives the same hexes as the unbounded one for every smaller ``within``."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from bounded import assert_clean, deadline, run_cli
from sandtable.rules import hexmath
from sandtable.rules.catalog import load_catalog
from sandtable.rules.desert_steel.battlefield import Battlefield
from sandtable.rules.desert_steel.zones import ZoneContext, evaluate

ROOT = Path(__file__).resolve().parents[1]
SCENARIO = ROOT / "data/desert-steel/scenarios/11-first-alamein.json"


@pytest.fixture(scope="module")
def field():
    model = load_catalog().model
    return Battlefield.for_scenario(model, model.scenario("XI"))


def _unbounded(ctx, map_id, within):
    """The growth as it was: over the open lattice."""
    source = ctx.map_hexes(map_id)
    seen = {ctx.board.cells[k].axial for k in source}
    frontier = list(seen)
    for _ in range(within):
        nxt = [n for a in frontier for n in hexmath.neighbours(a) if n not in seen]
        seen.update(nxt)
        frontier = list(set(nxt))
    at = ctx.board.usable_at
    return frozenset(at[a] for a in seen if a in at and ctx.board.cells[at[a]].map_id != map_id)


def test_bounded_growth_is_the_same_zone(field):
    ctx = ZoneContext(field.board, field.terrain)
    for map_id in field.board.maps():
        for within in (0, 1, 2, 5, 9, 17, 33, 60):
            assert evaluate({"near_map": {"map": map_id, "within": within}}, ctx) == _unbounded(ctx, map_id, within)


@pytest.mark.parametrize("within", [3000, 10 ** 9, 10 ** 15])
def test_a_within_larger_than_the_board_is_the_whole_board_at_once(field, within):
    ctx = ZoneContext(field.board, field.terrain)
    with deadline(2):
        zone = evaluate({"near_map": {"map": "A", "within": within}}, ctx)
    assert zone == frozenset(k for k in field.board.usable if field.board.cells[k].map_id != "A")


def _pointer_of_near_map(value, ptr=""):
    if isinstance(value, dict):
        if "near_map" in value:
            return ptr + "/near_map/within"
        items = value.items()
    elif isinstance(value, list):
        items = enumerate(value)
    else:
        return None
    for k, v in items:
        found = _pointer_of_near_map(v, f"{ptr}/{k}")
        if found:
            return found
    return None


@pytest.fixture(scope="module")
def huge_zone_mod(tmp_path_factory):
    scenario = json.loads(SCENARIO.read_text())
    pointer = _pointer_of_near_map(scenario)
    folder = tmp_path_factory.mktemp("mods") / "huge-zone"
    folder.mkdir()
    (folder / "pack.json").write_text(json.dumps({"kind": "pack", "id": "huge-zone", "name": "m", "version": "1.0.0",
                                                  "ruleset": "desert-steel",
                                                  "depends_on": [{"id": "desert-steel"}]}))
    (folder / "overrides.json").write_text(json.dumps({"kind": "overrides", "overrides": [
        {"target": {"kind": "scenario", "id": scenario["id"]}, "reason": "a zone larger than the world",
         "patch": [{"op": "replace", "path": pointer, "value": 1_000_000_000}]}]}))
    return folder


@pytest.mark.parametrize("argv", [["validate"], ["zone", "XI", "axis", "166", "--json"],
                                  ["check-setup", "no-such-setup.json"],
                                  ["simulate", "XI", "--games", "1", "--setups", "1", "--bots", "random,random"]])
def test_commands_on_a_mod_with_a_world_sized_zone(huge_zone_mod, argv):
    """Was 70-80 s and 3 GB before 'out of memory'; each command now answers within 10 s and 1 GB."""
    args = [*argv, huge_zone_mod] if argv == ["validate"] else [*argv, "--pack", huge_zone_mod]
    result = run_cli(*args, timeout=10 if argv[0] != "simulate" else 60, memory_mb=1024)
    assert_clean(result)
    if argv[0] == "zone":
        assert json.loads(result.stdout)["count"] > 100


# --- setups made lazily ------------------------------------------------------------------------

def test_simulate_with_ten_thousand_setups_starts_at_once():
    """Was: every automatic setup placed before the first game."""
    result = run_cli("simulate", "I", "--games", "1", "--setups", "10000", "--bots", "random,random", "--json",
                     timeout=10, memory_mb=1024)
    assert_clean(result, codes=(0,))
    assert json.loads(result.stdout)["games"] == 1


def test_the_lazy_pool_is_the_eager_pool():
    from sandtable.rules.desert_steel.engine.runner import sample_setup, setup_pool
    from sandtable.rules.desert_steel.setup_pool import LazySetupPool
    catalog = load_catalog()
    scenario = catalog.model.scenario("I")
    sample = sample_setup(catalog, scenario)
    eager = setup_pool(catalog, scenario, 3, sample)
    lazy = LazySetupPool(catalog.model, scenario, 3, sample)
    assert isinstance(lazy, list) and len(lazy) == 4
    assert [lazy[i] for i in range(4)] == eager and list(lazy) == eager and lazy[-1] == eager[-1]


# --- pack size read before loading -----------------------------------------------------------

def _empty_lists_zip(path: Path, members: int) -> Path:
    """A zip of documents of empty lists, each 1 MiB unpacked and ~1 KB packed (under the ratio
    floor): 560 KB of zip took 133 s of CPU, every member scanned and parsed."""
    import zipfile
    body = b'{"kind": "unit-types", "units": [' + b"[]," * 349_000 + b"[]]}"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED, compresslevel=1) as z:
        z.writestr("pack.json", json.dumps({"kind": "pack", "id": "lists", "name": "b", "version": "1.0.0",
                                            "ruleset": "desert-steel", "depends_on": [{"id": "desert-steel"}]}))
        for i in range(members):
            z.writestr(f"units/u{i:03}.json", body)
    return path


@pytest.fixture(scope="module")
def bombs(tmp_path_factory):
    folder = tmp_path_factory.mktemp("bombs")
    return {300: _empty_lists_zip(folder / "big.zip", 300), 120: _empty_lists_zip(folder / "many.zip", 120)}


@pytest.mark.parametrize("members, words", [(300, "limit pack-bytes"), (120, "limit load-values")])
def test_a_zip_of_empty_lists_is_refused_in_seconds(bombs, members, words):
    result = run_cli("validate", bombs[members], timeout=10, memory_mb=1024)
    assert_clean(result, codes=(1,))
    assert words in result.stdout


def test_sweep_packs_with_an_oversized_zip(bombs, tmp_path):
    bomb = bombs[300]
    result = run_cli("sweep", "I", "--packs", bomb, "--games", "1", "--no-charts", "--no-progress",
                     "-o", tmp_path / "s", timeout=20, memory_mb=1024)
    assert_clean(result)
