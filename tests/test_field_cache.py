"""Battlefields kept between validations (rules/desert_steel/field_cache.py): reused while
their documents are unchanged, rebuilt as soon as a map, map configuration, terrain table
or the scenario's conditions change, so an edit still changes the setup findings."""
import json
from pathlib import Path

from sandtable.rules.catalog import load_catalog
from sandtable.rules.desert_steel import field_cache


def _mod(root, target: dict, patch: list):
    m = root / "mod"
    m.mkdir()
    (m / "pack.json").write_text(json.dumps({"kind": "pack", "id": "mod", "name": "mod", "version": "1.0",
                                             "ruleset": "desert-steel", "depends_on": [{"id": "desert-steel"}]}))
    (m / "overrides.json").write_text(json.dumps({"kind": "overrides",
                                                  "overrides": [{"target": target, "patch": patch}]}))
    return m


def _setup_findings(catalog):
    return sorted((f.code, Path(f.location.file).name, f.location.pointer) for f in catalog.findings)


def test_a_map_edit_changes_the_setup_findings_after_a_cached_run(tmp_path):
    assert _setup_findings(load_catalog()) == []  # every sample setup legal; their boards cached
    assert field_cache.size() > 0
    # Map B's east column becomes half hexes (never usable, §2.51): Beda Fomm's British, set up
    # along that edge, now stand on unusable hexes -- the cached board of B must not be reused.
    mod = _mod(tmp_path, {"kind": "map", "id": "B"},
               [{"op": "replace", "path": "/grid/half_hexes/right", "value": True}])
    edited = _setup_findings(load_catalog([mod]))
    assert ("setup-hex", "01-beda-fomm.json", "/sides/allied/placements/0/hex") in edited
    # and back: the unedited pack is clean again (its boards were not replaced by the edited ones)
    assert _setup_findings(load_catalog()) == []


def test_boards_are_reused_only_while_their_documents_are_unchanged(tmp_path):
    model = load_catalog().model
    gazala = model.scenario("III")
    first = field_cache.battlefield(model, gazala)
    again = field_cache.battlefield(model, gazala)
    assert again.board is first.board and again.terrain is first.terrain and again._zones is first._zones
    assert again.scenario is gazala and again.visibility == first.visibility

    # a map configuration edit (north) is a new board
    conf_mod = _mod(tmp_path, {"kind": "map-configuration", "id": gazala.configuration.id},
                    [{"op": "replace", "path": "/north", "value": "down" if gazala.configuration.north != "down"
                      else "up"}])
    turned = load_catalog([conf_mod]).model
    assert field_cache.battlefield(turned, turned.scenario("III")).board is not first.board


def test_a_conditions_edit_is_new_terrain_and_visibility_is_never_cached(tmp_path):
    model = load_catalog().model
    gazala = model.scenario("III")
    first = field_cache.battlefield(model, gazala)
    relief = gazala.conditions["relief"]["value"]
    other = next(v for v in model.terrain_effects["relief"]["values"] if v != relief)
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    seen = _mod(tmp_path / "a", {"kind": "scenario", "id": gazala.id},
                [{"op": "replace", "path": "/conditions/visibility", "value": gazala.visibility + 1}])
    edited = load_catalog([seen]).model
    field = field_cache.battlefield(edited, edited.scenario("III"))
    assert field.board is first.board and field.visibility == first.visibility + 1  # same board, new visibility
    hills = _mod(tmp_path / "b", {"kind": "scenario", "id": gazala.id},
                 [{"op": "replace", "path": "/conditions/relief/value", "value": other}])
    edited = load_catalog([hills]).model
    field = field_cache.battlefield(edited, edited.scenario("III"))
    assert field.terrain is not first.terrain and field.terrain.conditions.relief == other
