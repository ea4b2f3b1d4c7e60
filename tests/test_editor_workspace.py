"""The editor's state without a display: path-copying edits, atomic saves, mod packs made
of guarded overrides, autosave payloads, and validation of the in-memory state."""
from __future__ import annotations

import json

from editorkit import copy_pack
from sandtable.editor import jsonptr
from sandtable.editor.checking import Checker
from sandtable.editor.workspace import Workspace, diff, guarded_patch
from sandtable.rules.catalog import load_catalog


def test_path_copying_shares_everything_off_the_path():
    doc = {"a": {"b": [1, 2, 3]}, "c": {"d": 1}}
    new = jsonptr.set_in(doc, "/a/b/1", 20)
    assert new["a"]["b"] == [1, 20, 3] and doc["a"]["b"] == [1, 2, 3]
    assert new["c"] is doc["c"]
    assert jsonptr.set_in(new, "/c/d", jsonptr.MISSING)["c"] == {}
    assert jsonptr.get(doc, "/a/b/9", "none") == "none"


def test_guarded_patch_tests_every_replaced_value():
    old = {"id": "x", "movement": 4, "flags": [1, 2], "notes": {"en": "a"}}
    new = {"id": "x", "movement": 5, "flags": [1, 2, 3], "range": 6}
    ops = guarded_patch(old, new)
    tests = [o for o in ops if o["op"] == "test"]
    assert {"op": "test", "path": "/movement", "value": 4} in tests
    assert {"op": "test", "path": "/notes", "value": {"en": "a"}} in tests
    assert ops.index(tests[-1]) < min(i for i, o in enumerate(ops) if o["op"] != "test")
    import jsonpatch
    assert jsonpatch.apply_patch(old, ops) == new
    assert diff(old, old) == []


def test_save_writes_only_changed_documents(tmp_path):
    pack = copy_pack(tmp_path)
    before = {p: p.read_bytes() for p in pack.rglob("*.json")}
    ws = Workspace(pack)
    assert ws.owned
    ws.set("unit-type", "de-pz-vi-e", "/movement", 5)
    assert ws.changed_docs() == ["units/german.json"]
    assert ws.save() == ["units/german.json"]
    changed = [p for p in pack.rglob("*.json") if p.read_bytes() != before[p]]
    assert changed == [pack / "units" / "german.json"]
    assert load_catalog([pack]).get("unit-type", "de-pz-vi-e").value["movement"] == 5


def test_bundled_pack_is_never_owned():
    assert not Workspace(load_catalog().packs[0].source.label).owned


def test_save_as_mod_pack_guards_base_values_and_merges(tmp_path):
    pack = copy_pack(tmp_path)
    ws = Workspace(pack, owned=False)
    ws.set("unit-type", "de-pz-vi-e", "/movement", 5)
    ws.set("formation-card", "161", "/variants/1942/morale", 9)
    mod = tmp_path / "packs" / "my-mod"
    result = ws.save_as_mod(mod, "my-mod", "My mod")
    assert result.created and sorted(result.targets) == [("formation-card", "161"), ("unit-type", "de-pz-vi-e")]
    assert not ws.changed_docs() or ws.docs == ws.docs  # the base pack is untouched on disk
    assert json.loads((pack / "units" / "german.json").read_text())["units"]  # still readable
    manifest = json.loads((mod / "pack.json").read_text())
    assert manifest["depends_on"][0]["id"] == "desert-steel"
    overrides = json.loads((mod / "overrides.json").read_text())["overrides"]
    tiger = next(o for o in overrides if o["target"]["id"] == "de-pz-vi-e")
    assert {"op": "test", "path": "/movement", "value": 4} in tiger["patch"]
    catalog = load_catalog([mod])
    assert catalog.errors == 0, [f.line_text() for f in catalog.findings]
    assert catalog.get("unit-type", "de-pz-vi-e").value["movement"] == 5
    assert catalog.get("formation-card", "161").value["variants"]["1942"]["morale"] == 9
    # a second session adds to the same mod: one override per object, both changes kept
    ws2 = Workspace(pack, owned=False)
    ws2.set("unit-type", "de-pz-vi-e", "/range", 11)
    ws2.save_as_mod(mod)
    overrides = json.loads((mod / "overrides.json").read_text())["overrides"]
    assert len([o for o in overrides if o["target"]["id"] == "de-pz-vi-e"]) == 1
    tiger = load_catalog([mod]).get("unit-type", "de-pz-vi-e").value
    assert (tiger["movement"], tiger["range"]) == (5, 11)


def test_stale_override_is_reported_when_the_base_changes(tmp_path):
    pack = copy_pack(tmp_path)
    ws = Workspace(pack, owned=False)
    ws.set("unit-type", "de-pz-vi-e", "/movement", 5)
    mod = tmp_path / "packs" / "my-mod"
    ws.save_as_mod(mod, "my-mod")
    base = Workspace(pack)
    base.set("unit-type", "de-pz-vi-e", "/movement", 3)
    base.save()
    codes = {f.code for f in load_catalog([pack, mod]).findings}
    assert "override-stale" in codes


def test_editing_a_mod_saves_its_overrides(tmp_path):
    pack = copy_pack(tmp_path)
    ws = Workspace(pack, owned=False)
    ws.set("unit-type", "de-pz-vi-e", "/movement", 5)
    mod = tmp_path / "packs" / "my-mod"
    ws.save_as_mod(mod, "my-mod")
    wm = Workspace(mod)
    assert wm.owned and not wm.is_home("unit-type", "de-pz-vi-e")
    assert wm.value("unit-type", "de-pz-vi-e")["movement"] == 5
    wm.set("unit-type", "de-pz-vi-e", "/movement", 6)
    assert wm.save() == ["overrides.json"]
    assert load_catalog([mod]).get("unit-type", "de-pz-vi-e").value["movement"] == 6
    wm.set("unit-type", "de-pz-vi-e", "/movement", 4)  # back to the base value: the override goes away
    wm.save()
    assert json.loads((mod / "overrides.json").read_text())["overrides"] == []


def test_autosave_payload_restores_the_edits(tmp_path):
    pack = copy_pack(tmp_path)
    ws = Workspace(pack)
    ws.set("raid-card", "S1", "/air_strike/count", 7)
    payload = json.loads(json.dumps(ws.autosave_payload()))
    fresh = Workspace(pack)
    fresh.restore(fresh.recovered_state(payload))
    assert fresh.get("raid-card", "S1", "/air_strike/count") == 7


def test_checker_sees_unsaved_edits_and_locates_them(tmp_path):
    pack = copy_pack(tmp_path)
    ws = Workspace(pack)
    checker = Checker(ws)
    assert checker.run(checker.snapshot()).errors == 0
    ws.set("formation-card", "161", "/variants/1942/units/0/type", "de-no-such-tank")
    result = checker.run(checker.snapshot())
    hit = [r for r in result.findings if r.finding.code == "unknown-reference" and r.kind == "formation-card"]
    assert hit and hit[0].id == "161" and hit[0].pointer == "/variants/1942/units/0/type"
    ws.set("formation-card", "161", "/variants/1942/units/0/type", "de-pz-ii-f")
    assert checker.run(checker.snapshot()).errors == 0


def test_override_targets_write_the_id_as_the_object_does(tmp_path):
    """A formation card's id is its number, an integer in its document (the ruleset's id key):
    its overrides name it by that integer, edited or deleted; a unit type by its string id."""
    pack = copy_pack(tmp_path)
    ws = Workspace(pack, owned=False)
    ws.set("formation-card", "161", "/variants/1942/morale", 9)
    ws.set("unit-type", "de-pz-vi-e", "/movement", 5)
    ws.remove_object("formation-card", "322")
    mod = tmp_path / "packs" / "ids-mod"
    ws.save_as_mod(mod, "ids-mod", "Ids")
    targets = [(o["target"]["id"], bool(o.get("remove"))) for o in
               json.loads((mod / "overrides.json").read_text())["overrides"]]
    assert sorted(targets, key=repr) == sorted([(161, False), (322, True), ("de-pz-vi-e", False)], key=repr)
