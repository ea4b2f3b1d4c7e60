"""rules/references.py: who refers to what, renaming with every reference, deleting with
its consequences, blank objects from the schema, and findings grouped under their root cause."""
from __future__ import annotations

import pytest

from packbuilder import base_pack, combat_card, unit, write_pack
from sandtable.rules import references as R
from sandtable.rules.catalog import load_catalog
from sandtable.rules.schemas import default_schemas

SCH = R.scheme("desert-steel")


@pytest.fixture(scope="module")
def objects(catalog):
    return {k: {i: e.value for i, e in t.items()} for k, t in catalog.objects.items()}


def test_references_to_a_card_cover_scenarios_commands_and_setups(objects):
    refs = R.find_references(SCH, objects, "formation-card", "322")
    where = {(r.kind, r.id, r.pointer) for r in refs}
    assert ("formation-card", "321", "/subordinates/0") in where  # a command card's subordinate
    assert ("scenario", "sidi-bou-said", "/sides/allied/undermanned/0/card") in where
    assert any(k == "setup" and p.endswith("/card") for k, _, p in where)
    for r in refs:  # each pointer really holds the number
        assert R.get(objects[r.kind][r.id], r.pointer) == 322


def test_rename_updates_every_reference_and_the_pack_validates(objects, catalog):
    edits = R.rename_edits(SCH, objects, "unit-type", "de-pz-vi-e", "de-tiger-e")
    assert edits and all(e.old == "de-pz-vi-e" and e.new == "de-tiger-e" for e in edits)
    assert {e.kind for e in edits} >= {"formation-card", "setup", "scenario"}
    new = {k: dict(t) for k, t in objects.items()}
    new["unit-type"]["de-tiger-e"] = R.renamed(SCH, "unit-type", new["unit-type"].pop("de-pz-vi-e"), "de-tiger-e")
    for e in edits:
        new[e.kind][e.id] = R.apply_edits(new[e.kind][e.id], [e])
    assert not R.find_references(SCH, new, "unit-type", "de-pz-vi-e")
    assert len(R.find_references(SCH, new, "unit-type", "de-tiger-e")) == len(edits)
    # card numbers stay integers
    card_edits = R.rename_edits(SCH, objects, "formation-card", "322", "9322")
    assert all(e.new == 9322 for e in card_edits)


def test_delete_plans(objects):
    scen = R.delete_plan(SCH, objects, "scenario", "gazala")
    assert scen.deletes == [("setup", "gazala-sample")] and scen.can_cascade  # its setup goes with it
    conf = R.delete_plan(SCH, objects, "map-configuration", "A-left-of-B-north-right")
    assert not conf.can_cascade and {b.id for b in conf.blockers} == {"gazala", "kasserine-pass"}
    card = R.delete_plan(SCH, objects, "formation-card", "322")
    assert card.can_cascade and card.edits
    after = {k: dict(t) for k, t in objects.items()}
    for e in card.edits:
        after[e.kind][e.id] = R.apply_edits(after[e.kind][e.id], [e])
    assert not R.find_references(SCH, after, "formation-card", "322")
    assert R.delete_plan(SCH, objects, "raid-card", "S2").free


def test_new_ids_and_blank_objects(objects, catalog):
    assert R.check_new_id(SCH, objects, "scenario", "gazala") == "scenario gazala already exists"
    assert "letters" in R.check_new_id(SCH, objects, "scenario", "new scenario")
    assert "whole number" in R.check_new_id(SCH, objects, "formation-card", "12a")
    assert R.check_new_id(SCH, objects, "formation-card", "9001") is None
    assert R.suggest_id(SCH, objects, "scenario", "gazala") == "gazala-2"
    schemas = default_schemas()
    for kind in catalog.ruleset.object_kinds():
        oid = "9001" if kind == "formation-card" else "fresh"
        value = R.blank_object(schemas, catalog.ruleset, kind, oid)
        dk = catalog.ruleset.object_kinds()[kind]
        assert str(value[dk.id_key]) == oid
    unit_type = R.blank_object(schemas, catalog.ruleset, "unit-type", "fresh")
    assert {"name", "nationality", "class", "defense", "provenance"} <= set(unit_type)


def test_a_schema_error_does_not_cascade_into_missing_references(tmp_path):
    broken = unit("de-b", defense="strong")  # one bad value
    cards = [combat_card(160 + i, "de-b") for i in range(6)]
    pack = write_pack(tmp_path, "p", {
        "units.json": {"kind": "unit-types", "units": [unit("de-a"), broken]},
        "cards.json": {"kind": "formation-cards", "cards": cards},
    })
    cat = load_catalog([pack])
    codes = [f.code for f in cat.findings]
    assert codes.count("schema") >= 1
    missing = [f for f in cat.findings if f.code == "unknown-reference"]
    assert len(missing) == 1, [f.message for f in missing]  # one grouped finding, not six
    assert "breaks its schema" in missing[0].message and "6 reference(s)" in missing[0].message
    assert ("unit-type", "de-b") in R.dropped_objects(cat)


def test_a_really_missing_reference_is_still_reported(tmp_path):
    base = base_pack(tmp_path)
    cat = load_catalog([base])
    assert not [f for f in cat.findings if f.code == "unknown-reference"]
    pack = write_pack(tmp_path, "q", {"cards.json": {"kind": "formation-cards", "cards": [combat_card(170, "de-zz")]},
                                      "units.json": {"kind": "unit-types", "units": [unit("de-a")]}})
    cat = load_catalog([pack])
    assert [f.message for f in cat.findings if f.code == "unknown-reference"] == ["unit type 'de-zz' does not exist"]


@pytest.mark.parametrize("ruleset,kind", [("holland44", "counter"), ("miniatures", "unit")])
def test_other_rulesets_references_resolve_and_rename(ruleset, kind):
    from sandtable.rules.catalog import bundled_pack
    cat = load_catalog([bundled_pack(ruleset)])
    sch = R.scheme(ruleset)
    objs = {k: {i: e.value for i, e in t.items()} for k, t in cat.objects.items()}
    found = 0
    for k, table in objs.items():
        for oid, value in table.items():
            for ref in R.references_in(sch, k, oid, value):
                assert ref.target_id in objs.get(ref.target_kind, {}), ref
                found += 1
    assert found
    target = next(c for c in objs[kind] if R.find_references(sch, objs, kind, c))
    edits = R.rename_edits(sch, objs, kind, target, target + "-x")
    assert edits and not [e for e in edits if e.new != target + "-x"]


def test_ids_used_as_keys_are_references_too(objects):
    refs = [r for r in R.find_references(SCH, objects, "map", "A") if r.key]
    assert [(r.kind, r.id, r.pointer) for r in refs] == [("scenario", "kasserine-pass", "/conditions/relief/by_map/A")]
    edits = [e for e in R.rename_edits(SCH, objects, "map", "A", "Z") if e.pointer.endswith("by_map")]
    assert edits and "Z" in edits[0].new and "A" not in edits[0].new


def test_grouping_works_for_any_ruleset(tmp_path):
    """The grouping sits in the catalog: a Holland '44 counter with a bad value, named by a
    reinforcement and a setup, is one root cause plus one grouped finding."""
    import json
    import shutil

    from sandtable.rules.catalog import bundled_pack
    pack = tmp_path / "h44"
    shutil.copytree(bundled_pack("holland44"), pack, ignore=shutil.ignore_patterns("__pycache__", "*.py"))
    base = load_catalog([pack])
    before = sum(1 for f in base.findings if f.code == "unknown-reference")
    objs = {k: {i: e.value for i, e in t.items()} for k, t in base.objects.items()}
    sch = R.scheme("holland44")
    # a counter that reinforcement entries name (their check runs whatever else is wrong)
    target = max(objs["counter"], key=lambda c: sum(r.kind == "reinforcement"
                                                    for r in R.find_references(sch, objs, "counter", c)))
    refs = [r for r in R.find_references(sch, objs, "counter", target) if r.kind == "reinforcement"]
    assert refs
    for path in pack.rglob("*.json"):
        doc = json.loads(path.read_text())
        if doc.get("kind") == "counters":
            for c in doc["counters"]:
                if c["id"] == target:
                    c["steps"] = "many"  # one value breaks the schema
            path.write_text(json.dumps(doc))
    cat = load_catalog([pack])
    missing = [f for f in cat.findings if f.code == "unknown-reference"]
    assert len(missing) - before == 1, [f.message for f in missing]
    assert any("breaks its schema" in f.message and f"counter {target}" in f.message for f in missing)


OVERRIDES = {"kind": "overrides", "overrides": [
    {"target": {"kind": "scenario", "id": "gazala"}, "reason": "a late card", "patch": [
        {"op": "test", "path": "/sides/axis/formations/0/cards/0", "value": 322},  # guards the base
        {"op": "add", "path": "/sides/axis/formations/0/cards/-", "value": 322},
        {"op": "add", "path": "/special_rules/-", "value": {
            "id": "late", "type": "text-only", "side": "axis", "cards": [322], "text": {"en": "Card 322 arrives late."}}},
    ]},
    {"target": {"kind": "formation-card", "id": 321}, "replace": {"number": 321, "subordinates": [322, 323]}},
    {"target": {"kind": "setup", "id": "gazala-sample"}, "patch": [
        {"op": "add", "path": "/sides/axis/placements/-", "value": {"card": 322, "type": "de-pz-vi-e", "hex": "B2620"}},
    ]},
]}


def test_rename_rewrites_references_inside_override_values_by_their_fields():
    edits = R.override_value_edits(SCH, OVERRIDES, "formation-card", "322", "9322")
    assert edits == [("/overrides/0/patch/1/value", 322, 9322),  # a card in a formation list
                     ("/overrides/0/patch/2/value/cards/0", 322, 9322),  # a card named by a rule's expression
                     ("/overrides/1/replace/subordinates/0", 322, 9322),  # inside a whole replacement
                     ("/overrides/2/patch/0/value/card", 322, 9322)]  # a placement's card
    # not the test that guards the base value, not the rule's text, not 323
    assert R.override_value_edits(SCH, OVERRIDES, "unit-type", "de-pz-vi-e", "de-tiger-e") == [
        ("/overrides/2/patch/0/value/type", "de-pz-vi-e", "de-tiger-e")]
    assert R.override_value_edits(SCH, OVERRIDES, "map", "B", "C") == [
        ("/overrides/2/patch/0/value/hex", "B2620", "C2620")]  # hex references keep their hex
    assert R.override_value_edits(SCH, OVERRIDES, "formation-card", "999", "998") == []
    after = OVERRIDES
    for ptr, _, new in edits:
        after = R.set_in(after, ptr, new)
    assert R.override_value_edits(SCH, after, "formation-card", "322", "9322") == []


def test_texts_that_mention_an_id_are_listed_not_rewritten(objects):
    docs = {"mod/overrides.json": OVERRIDES}
    found = R.prose_mentions(SCH, {"scenario": {"s": {"id": "s", "background": {"en": "Tiger de-pz-vi-e, and 1322"},
                                                       "sides": {"axis": {"transports": [{"unit_type": "de-pz-vi-e"}]}}}}},
                             "unit-type", "de-pz-vi-e", docs)
    assert found == [("scenario s", "/background/en", "Tiger de-pz-vi-e, and 1322")]  # the reference field is not prose
    found = R.prose_mentions(SCH, {}, "formation-card", "322", docs)
    assert found == [("mod/overrides.json", "/overrides/0/patch/2/value/text/en", "Card 322 arrives late.")]
    assert R.prose_mentions(SCH, objects, "map", "B") == []  # a one-letter id is any text's word
