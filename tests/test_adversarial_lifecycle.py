"""Issue #29, class 8: rename and delete keep every pack valid. A rename or delete that a
dependent mod pack relies on (its override targets the object, a patch value names it, an
object of its own refers to it) is refused with the reason, naming the mod; one that would
leave the edited pack with new errors is refused and changes nothing; what the lifecycle
rewrites (a mod's own patch values, zones naming a map) saves a pack that validates.
Driven through the real window."""
from __future__ import annotations

import copy
import json

import pytest

from editorkit import close, copy_pack, isolate, window
from packbuilder import write_pack
from sandtable.editor import lifecycle_ui as ui
from sandtable.editor.lifecycle import LifecycleError
from sandtable.rules.catalog import load_catalog

TIGER = "de-pz-vi-e"


def errors(cat) -> set[tuple[str, str]]:
    return {(f.code, f.message) for f in cat.findings if f.severity >= 2}


@pytest.fixture
def shelf(tmp_path, monkeypatch):
    """A copy of the base pack in a folder of packs, as a designer keeps them."""
    isolate(monkeypatch, tmp_path)
    return copy_pack(tmp_path)


def _tiger_card():
    card = json.loads((copy_pack.__globals__["bundled_pack"]() / "cards/german.json").read_text())
    found = next(c for c in card["cards"] if c["number"] == 178)
    mine = copy.deepcopy(found)
    mine["number"] = 9178
    mine.pop("provenance", None)
    return mine


MODS = {
    "overrides it": {"overrides.json": {"kind": "overrides", "overrides": [
        {"target": {"kind": "unit-type", "id": TIGER}, "reason": "faster Tigers",
         "patch": [{"op": "replace", "path": "/movement", "value": 5}]}]}},
    "names it in a patch": {"overrides.json": {"kind": "overrides", "overrides": [
        {"target": {"kind": "formation-card", "id": 176}, "reason": "Tigers instead",
         "patch": [{"op": "replace", "path": "/variants/1942/units/0/type", "value": TIGER}]}]}},
}


@pytest.mark.parametrize("how", sorted(MODS))
def test_a_rename_a_dependent_mod_relies_on_is_refused_naming_it(qtbot, shelf, how):
    mod = write_pack(shelf.parent, "tiger-mod", MODS[how], depends_on=[{"id": "desert-steel"}])
    before = errors(load_catalog([mod], search=[shelf.parent]))
    w = window(qtbot, shelf)
    dialog = ui.RenameDialog(w.doc, "unit-type", TIGER, parent=w)
    dialog.id.setText("de-tiger-e")
    dialog._update()
    assert not dialog.ok_button().isEnabled()
    text = dialog.problem.text()
    assert "tiger-mod" in text and how in text and "cannot be renamed" in text, text
    dialog.deleteLater()
    # delete, from the explorer: refused the same way, nothing changed
    assert w.explorer.lifecycle_action("Delete…", "unit-type", TIGER) is None
    assert "cannot be deleted" in w.statusBar().currentMessage() and "tiger-mod" in w.statusBar().currentMessage()
    assert w.ws.exists("unit-type", TIGER)
    assert w.save()
    assert errors(load_catalog([mod], search=[shelf.parent])) == before
    close(w)


def test_a_dependent_mods_own_object_counts_too(qtbot, shelf):
    mod = write_pack(shelf.parent, "card-mod", {"cards/extra.json": {"kind": "formation-cards",
                                                                      "cards": [_tiger_card()]}},
                     depends_on=[{"id": "desert-steel"}])
    w = window(qtbot, shelf)
    with pytest.raises(LifecycleError, match="card-mod.*refers to it"):
        w.doc.lifecycle.rename_preview("unit-type", TIGER, "de-tiger-e")
    close(w)
    assert mod.is_dir()


def test_an_unrelated_dependent_mod_does_not_block(qtbot, shelf):
    write_pack(shelf.parent, "other-mod", MODS["overrides it"], depends_on=[{"id": "desert-steel"}])
    w = window(qtbot, shelf)
    preview = w.doc.lifecycle.rename_preview("unit-type", "gb-a9", "gb-a9b")
    assert preview.new == "gb-a9b"
    close(w)


def test_a_change_that_would_add_errors_is_refused_and_undone(qtbot, shelf):
    w = window(qtbot, shelf)
    life, ws = w.doc.lifecycle, w.ws
    count = w.doc.undo_stack.count()
    with pytest.raises(LifecycleError, match="would leave the pack invalid"):
        life._step("break", [], life._keeping_valid("breaking it", lambda: ws.set("unit-type", TIGER, "/movement",
                                                                                  "fast")))
    assert ws.value("unit-type", TIGER)["movement"] == 4 and w.doc.undo_stack.count() == count
    close(w)


def test_in_a_mod_renaming_a_base_unit_its_patch_names_saves_a_valid_mod(qtbot, shelf):
    mod = write_pack(shelf.parent, "tiger-mod", MODS["names it in a patch"], depends_on=[{"id": "desert-steel"}])
    before = errors(load_catalog([mod], search=[shelf.parent]))
    w = window(qtbot, mod, search=[shelf.parent])
    dialog = ui.RenameDialog(w.doc, "unit-type", TIGER, parent=w)
    dialog.id.setText("de-tiger-e")
    dialog._update()
    shown = [dialog.list.item(i).text() for i in range(dialog.list.count())]
    assert any("overrides overrides.json /overrides/0/patch/0/value" in t for t in shown), shown  # the rewrite, shown
    dialog.apply()
    assert w.save()
    cat = load_catalog([mod], search=[shelf.parent])
    assert not (errors(cat) - before), errors(cat) - before
    assert cat.get("unit-type", "de-tiger-e") is not None
    close(w)


@pytest.mark.parametrize("kind, oid, new", [("map", "A", "C"), ("formation-card", "178", "9178")])
def test_rename_a_map_used_in_zones_or_a_card_keeps_the_pack_valid(qtbot, shelf, kind, oid, new):
    before = errors(load_catalog([shelf]))
    w = window(qtbot, shelf)
    try:
        w.doc.lifecycle.rename(kind, oid, new)
    except LifecycleError as exc:  # refused, with its reason, and nothing changed
        assert "invalid" in str(exc) or "cannot" in str(exc)
        assert w.ws.exists(kind, oid)
        print("refused:", exc)
    else:
        assert w.save()
        assert errors(load_catalog([shelf])) <= before
    close(w)


def test_delete_with_cascade_in_a_mod_keeps_it_valid(qtbot, shelf):
    mod = write_pack(shelf.parent, "tiger-mod", MODS["overrides it"], depends_on=[{"id": "desert-steel"}])
    before = errors(load_catalog([mod], search=[shelf.parent]))
    w = window(qtbot, mod, search=[shelf.parent])
    try:
        w.doc.lifecycle.delete("unit-type", TIGER, cascade=True)
    except LifecycleError as exc:
        assert "cannot" in str(exc) or "invalid" in str(exc)
    else:
        assert w.save()
        assert not (errors(load_catalog([mod], search=[shelf.parent])) - before)
    close(w)


# --- crash recovery when the file on disk changed later (issue #29, small items) -----------------

def _crashed_with_an_edit(qtbot, pack):
    """An editor with an unsaved edit (the Tiger's range 12) that dies: its autosave is left."""
    import shutil
    w = window(qtbot, pack)
    w.doc.set("unit-type", TIGER, "/range", 12)
    path = w.doc.autosave(force=True)
    w.doc.autosave_slot.abandon()
    kept = path.with_name(path.name + ".kept")
    shutil.copy(path, kept)
    close(w)
    shutil.move(kept, path)  # as a kill leaves it
    return path


def _change_on_disk_later(pack):
    import os
    import time
    units = pack / "units/german.json"
    doc = json.loads(units.read_text())
    tiger = next(u for u in doc["units"] if u["id"] == TIGER)
    tiger["defense"] = 9
    units.write_text(json.dumps(doc, indent=2))
    later = time.time() + 120
    os.utime(units, (later, later))


@pytest.mark.parametrize("answer", ["Use my edits", "Save my edits as a copy", "Keep the files on disk"])
def test_edits_to_a_file_changed_on_disk_later_are_offered_side_by_side(qtbot, shelf, answer):
    autosave = _crashed_with_an_edit(qtbot, shelf)
    _change_on_disk_later(shelf)
    w = window(qtbot, shelf, answers={"Unsaved edits conflict with the files on disk": answer,
                                      "Recover unsaved edits?": "Recover"})
    qtbot.waitUntil(lambda: any(t.startswith("Unsaved edits conflict") for t, _ in w.asked), timeout=5000)
    title, text = next((t, x) for t, x in w.asked if t.startswith("Unsaved edits conflict"))
    assert f"/range: on disk 10 | unsaved 12" in text and "units/german.json" in text  # side by side
    if answer == "Use my edits":
        qtbot.waitUntil(lambda: w.doc.get("unit-type", TIGER, "/range") == 12, timeout=5000)
        assert w.isWindowModified()
    elif answer == "Save my edits as a copy":
        qtbot.waitUntil(lambda: any(shelf.parent.glob("desert-steel.recovered-*/units/german.json")), timeout=5000)
        copy = next(shelf.parent.glob("desert-steel.recovered-*/units/german.json"))
        saved = json.loads(copy.read_text())
        assert next(u for u in saved["units"] if u["id"] == TIGER)["range"] == 12
        assert w.doc.get("unit-type", TIGER, "/defense") == 9  # the file on disk is what is open
        assert not autosave.exists()
    else:
        qtbot.wait(50)
        assert w.doc.get("unit-type", TIGER, "/range") == 10 and not autosave.exists()
    close(w)
