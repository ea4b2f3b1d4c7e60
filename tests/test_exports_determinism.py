"""Identical input, identical bytes: two exports of the same data compare equal (so two versions of a
mod pack can be compared by their PDFs)."""
from __future__ import annotations

import hashlib


from sandtable.exports.desert_steel import cards, counters, scenario_sheet
from sandtable.exports.desert_steel.kit import build_kit
from sandtable.rules.catalog import load_catalog


def test_documents_are_byte_identical(catalog):
    model = catalog.model
    s = model.scenario("XV")
    for make in (lambda: counters.counters_pdf(model, s)[0],
                 lambda: cards.cards_pdf(model, scenario=s, backs=True)[0],
                 lambda: scenario_sheet.scenario_pdf(model, s)[0]):
        assert make() == make()


def test_a_fresh_catalog_gives_the_same_bytes(catalog):
    a = counters.counters_pdf(catalog.model, catalog.model.scenario("I"), size="1/2")[0]
    again = load_catalog().model
    assert counters.counters_pdf(again, again.scenario("I"), size="1/2")[0] == a


def test_kit_is_reproducible(tmp_path, catalog):
    model = catalog.model
    s = model.scenario("II")
    one = build_kit(model, s, tmp_path / "one", catalog=catalog)
    two = build_kit(model, s, tmp_path / "two", catalog=catalog)
    names = [p.name for p in one.files]
    assert names == [p.name for p in two.files] and "kit-02-battleaxe-duplex.pdf" in names
    for a, b in zip(one.files, two.files):
        assert hashlib.sha256(a.read_bytes()).digest() == hashlib.sha256(b.read_bytes()).digest(), a.name


def test_a_change_in_the_data_changes_the_bytes(tmp_path, catalog):
    import json
    mod = tmp_path / "tiger5"
    mod.mkdir()
    (mod / "pack.json").write_text(json.dumps({"kind": "pack", "id": "tiger5", "name": "x", "version": "1.0",
                                               "ruleset": "desert-steel", "depends_on": [{"id": "desert-steel"}]}))
    (mod / "overrides.json").write_text(json.dumps({"kind": "overrides", "overrides": [{
        "target": {"kind": "unit-type", "id": "de-pz-vi-e"},
        "patch": [{"op": "replace", "path": "/movement", "value": 5}]}]}))
    modded = load_catalog([mod]).model
    base = catalog.model
    assert counters.counters_pdf(modded, modded.scenario("V"))[0] != counters.counters_pdf(base, base.scenario("V"))[0]
