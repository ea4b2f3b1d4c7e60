"""Mod-pack layering: explicit adds, replaces, patches and removals, in a stable order."""
from packbuilder import PROV, base_pack, combat_card, unit, write_pack

from sandtable.rules.catalog import load_catalog


def codes(catalog):
    return [f.code for f in catalog.findings]


def overrides(*items):
    return {"overrides.json": {"kind": "overrides", "overrides": list(items)}}


def test_base_pack_loads_clean_with_typed_lookup(tmp_path):
    catalog = load_catalog([base_pack(tmp_path)], search=[])
    assert codes(catalog) == []
    assert catalog.get("unit-type", "de-a").value["defense"] == 4
    assert catalog.get("formation-card", 160).value["designation"] == "C/160"
    assert [p.id for p in catalog.packs] == ["base"]


def test_mod_adds_and_patches_and_removes(tmp_path):
    base_pack(tmp_path)
    mod = write_pack(tmp_path, "mod", {
        "units.json": {"kind": "unit-types", "units": [unit("de-c")]},
        **overrides(
            {"target": {"kind": "unit-type", "id": "de-a"},
             "patch": [{"op": "test", "path": "/defense", "value": 4}, {"op": "replace", "path": "/defense", "value": 7}]},
            {"target": {"kind": "unit-type", "id": "de-b"}, "remove": True},
        ),
    }, depends_on=[{"id": "base", "version": ">=1,<2"}])
    catalog = load_catalog([mod], search=[tmp_path])  # the base is a neighbour: named explicitly
    assert codes(catalog) == []
    assert [p.id for p in catalog.packs] == ["base", "mod"]
    assert catalog.get("unit-type", "de-a").value["defense"] == 7
    assert catalog.get("unit-type", "de-b") is None
    assert catalog.get("unit-type", "de-c") is not None
    mod_pack = catalog.packs[1]
    assert mod_pack.added == [("unit-type", "de-c")]
    assert mod_pack.overridden == [("unit-type", "de-a")]
    assert mod_pack.removed == [("unit-type", "de-b")]
    assert [c.action for c in catalog.get("unit-type", "de-a").history] == ["add", "patch"]


def test_implicit_redefinition_is_refused(tmp_path):
    base_pack(tmp_path)
    mod = write_pack(tmp_path, "mod", {"units.json": {"kind": "unit-types", "units": [unit("de-a", defense=9)]}},
                     depends_on=[{"id": "base"}])
    catalog = load_catalog([mod], search=[tmp_path])  # the base is a neighbour: named explicitly
    assert codes(catalog) == ["duplicate-id"]
    assert catalog.get("unit-type", "de-a").value["defense"] == 4  # the base value stands


def test_stale_patch_is_reported_and_not_applied(tmp_path):
    base_pack(tmp_path)
    mod = write_pack(tmp_path, "mod", overrides(
        {"target": {"kind": "unit-type", "id": "de-a"},
         "patch": [{"op": "test", "path": "/defense", "value": 5}, {"op": "replace", "path": "/defense", "value": 7}]}),
        depends_on=[{"id": "base"}])
    catalog = load_catalog([mod], search=[tmp_path])  # the base is a neighbour: named explicitly
    assert codes(catalog) == ["override-stale"]
    assert catalog.get("unit-type", "de-a").value["defense"] == 4


def test_replacement_must_stay_valid(tmp_path):
    base_pack(tmp_path)
    broken = unit("de-a")
    del broken["defense"]
    mod = write_pack(tmp_path, "mod", overrides({"target": {"kind": "unit-type", "id": "de-a"}, "replace": broken}),
                     depends_on=[{"id": "base"}])
    catalog = load_catalog([mod], search=[tmp_path])  # the base is a neighbour: named explicitly
    assert codes(catalog) == ["override-invalid"]
    finding = catalog.findings[0]
    assert finding.location.file.endswith("overrides.json") and finding.location.line is not None


def test_two_mods_touching_one_object_conflict_and_order_is_by_id(tmp_path):
    base_pack(tmp_path)
    for name, value in (("mod-b", 6), ("mod-a", 5)):
        write_pack(tmp_path, name, overrides(
            {"target": {"kind": "unit-type", "id": "de-a"}, "patch": [{"op": "replace", "path": "/defense", "value": value}]}),
            depends_on=[{"id": "base"}])
    catalog = load_catalog([tmp_path / "mod-b", tmp_path / "mod-a"], search=[tmp_path])
    assert [p.id for p in catalog.packs] == ["base", "mod-a", "mod-b"]
    assert codes(catalog) == ["override-conflict"]
    assert catalog.get("unit-type", "de-a").value["defense"] == 6  # the later pack wins
    assert catalog.packs[2].conflicts == ["unit-type de-a also changed by mod-a"]


def test_dependency_version_and_missing(tmp_path):
    base_pack(tmp_path)
    mod = write_pack(tmp_path, "mod", {}, depends_on=[{"id": "base", "version": ">=2"}, {"id": "nowhere"}])
    catalog = load_catalog([mod], search=[tmp_path])  # the base is a neighbour: named explicitly
    assert sorted(codes(catalog)) == ["pack-dependency-missing", "pack-dependency-version"]


def test_cross_references_follow_the_layered_result(tmp_path):
    base_pack(tmp_path)
    mod = write_pack(tmp_path, "mod", overrides({"target": {"kind": "unit-type", "id": "de-a"}, "remove": True}),
                     depends_on=[{"id": "base"}])
    catalog = load_catalog([mod], search=[tmp_path])  # the base is a neighbour: named explicitly
    # card 160 still names de-a, which the mod removed
    assert codes(catalog) == ["unknown-reference"]
    assert "de-a" in catalog.findings[0].message


def test_cards_keyed_by_number_not_designation(tmp_path):
    folder = write_pack(tmp_path, "p", {
        "units.json": {"kind": "unit-types", "units": [unit("de-a"), unit("gb-a", "british")]},
        "cards.json": {"kind": "formation-cards", "cards": [
            dict(combat_card(167, "de-a"), designation="A/15"),
            dict(combat_card(427, "gb-a", "british"), designation="A/15")]},
    })
    catalog = load_catalog([folder], search=[])
    assert codes(catalog) == []
    assert {e.id for e in catalog.entries("formation-card")} == {"167", "427"}


def test_typed_model_resolves_references_and_is_immutable(tmp_path):
    import dataclasses

    import pytest

    folder = write_pack(tmp_path, "p", {
        "units.json": {"kind": "unit-types", "units": [unit("de-a"), unit("de-fo", anti_vehicle="cannot-fire")]},
        "cards.json": {"kind": "formation-cards", "cards": [
            combat_card(161, "de-a"), combat_card(162, "de-fo"),
            {"number": 160, "type": "command", "designation": "1st", "nationality": "german", "c3": "B",
             "years": {"from": 1941, "to": 1941}, "subordinates": [161, 162], "hq": 162, "provenance": PROV}]},
    })
    catalog = load_catalog([folder], search=[])
    assert codes(catalog) == []
    model = catalog.model
    command = model.cards[160]
    assert [c.number for c in command.subordinates] == [161, 162]
    assert command.hq is model.cards[162]
    assert command.side == "axis" and command.nationality_number == 1
    variant = model.cards[161].variant(1941)
    assert variant.units[0].unit is model.unit_types["de-a"] and variant.unit_total == 3
    assert model.unit_types["de-fo"].anti_vehicle is None  # the printed dot
    with pytest.raises(dataclasses.FrozenInstanceError):
        model.cards[161].designation = "X"
    with pytest.raises(TypeError):
        model.cards[161].raw["designation"] = "X"
