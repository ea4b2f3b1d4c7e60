"""No lost work in the editor (#19 item 4): two editors on one pack, each editor's own
autosave, recovery checked against the files on disk, a save that fails on a full disk, and
a mod pack that cannot take the edits."""
from __future__ import annotations

import errno
import json
import os
import time

import pytest

from editorkit import close, copy_pack, isolate, window
from sandtable.editor.workspace import ExternalChange, Workspace
from sandtable.rules import atomic

TIGER = ("unit-type", "de-pz-vi-e")


def _on_disk(pack, pointer):
    """The Tiger's field as the file on disk has it (read directly: no catalog to load)."""
    units = json.loads((pack / "units" / "german.json").read_text())["units"]
    tiger = next(u for u in units if u["id"] == TIGER[1])
    return tiger.get(pointer.strip("/"))


def test_a_second_editor_s_save_is_noticed_and_merged(qtbot, tmp_path, monkeypatch):
    isolate(monkeypatch, tmp_path)
    pack = copy_pack(tmp_path)
    first = window(qtbot, pack, answers={"Changed on disk": "Merge"})
    second = window(qtbot, pack)
    first.doc.set(*TIGER, "/movement", 5)
    second.doc.set(*TIGER, "/range", 11)
    assert second.save() and not second.asked
    assert first.save()  # different values: merged, nothing of either is lost
    assert first.asked[-1][0] == "Changed on disk"
    assert (_on_disk(pack, "/movement"), _on_disk(pack, "/range")) == (5, 11)
    assert not first.isWindowModified()
    close(first)
    close(second)


def test_a_clash_on_the_same_value_is_never_silently_overwritten(qtbot, tmp_path, monkeypatch):
    isolate(monkeypatch, tmp_path)
    pack = copy_pack(tmp_path)
    ws = Workspace(pack)
    ws.set(*TIGER, "/range", 3)
    other = Workspace(pack)
    other.set(*TIGER, "/range", 4)
    other.save()
    with pytest.raises(ExternalChange):
        ws.save()
    assert ws.merge_external(ws.external_conflicts()) is None  # both changed /range: no simple merge
    w = window(qtbot, pack)
    offered = []
    w.ask = lambda title, text, buttons: offered.append((title, buttons)) or "Cancel"
    w.doc.set(*TIGER, "/range", 7)
    third = Workspace(pack)
    third.set(*TIGER, "/range", 8)
    third.save()
    assert not w.save() and _on_disk(pack, "/range") == 8 and w.isWindowModified()
    assert offered == [("Changed on disk", ["Overwrite", "Reload", "Cancel"])]
    w.ask = lambda title, text, buttons: "Overwrite" if title == "Changed on disk" else buttons[0]
    assert w.save() and _on_disk(pack, "/range") == 7
    close(w)


def test_each_editor_has_its_own_autosave(qtbot, tmp_path, monkeypatch):
    isolate(monkeypatch, tmp_path)
    pack = copy_pack(tmp_path)
    a = window(qtbot, pack)
    b = window(qtbot, pack)
    a.doc.set(*TIGER, "/movement", 5)
    b.doc.set(*TIGER, "/range", 11)
    pa, pb = a.doc.autosave(), b.doc.autosave()
    assert pa != pb and pa.exists() and pb.exists()
    c = window(qtbot, pack)  # a and b are alive: their autosaves are theirs, not offered
    assert c.doc.pending_recovery() is None and not c.asked
    close(a)
    assert not pa.exists() and pb.exists()  # a clean close removes only its own autosave
    close(b)
    close(c)
    assert not list((tmp_path / "autosave").glob("*.autosave.json"))


def test_recovery_over_a_newer_file_is_shown_side_by_side_and_can_be_declined(qtbot, tmp_path, monkeypatch):
    # Issue #29: the edits were dropped without a word; they are shown beside the file now.
    isolate(monkeypatch, tmp_path)
    pack = copy_pack(tmp_path)
    w = window(qtbot, pack)
    w.doc.set(*TIGER, "/movement", 5)
    path = w.doc.autosave()
    w.doc.autosave_slot.abandon()  # the editor dies: its autosave stays, its lock goes
    w.validator.shutdown()
    w.hide()
    later = Workspace(pack)  # then the same file is saved from elsewhere, after the autosave
    later.set(*TIGER, "/range", 12)
    time.sleep(0.01)
    later.save()
    os.utime(pack / "units" / "german.json", (time.time() + 5, time.time() + 5))
    w2 = window(qtbot, pack, answers={"Unsaved edits conflict with the files on disk": "Keep the files on disk"})
    qtbot.waitUntil(lambda: bool(w2.asked), timeout=5000)
    qtbot.wait(50)
    assert [t for t, _ in w2.asked] == ["Unsaved edits conflict with the files on disk"]
    assert "/movement: on disk 4 | unsaved 5" in w2.asked[0][1]
    assert not path.exists()  # declined: gone
    assert w2.doc.get(*TIGER, "/movement") == 4
    close(w2)


def test_recovery_merges_into_a_file_changed_before_the_autosave(qtbot, tmp_path, monkeypatch):
    isolate(monkeypatch, tmp_path)
    pack = copy_pack(tmp_path)
    ws = Workspace(pack)
    ws.set(*TIGER, "/movement", 5)
    payload = json.loads(json.dumps(ws.autosave_payload()))
    other = Workspace(pack)
    other.set(*TIGER, "/range", 12)
    other.save()
    os.utime(pack / "units" / "german.json", (payload["saved_at"] - 60, payload["saved_at"] - 60))
    fresh = Workspace(pack)
    offer, notes = fresh.recoverable(payload)
    assert not notes
    fresh.restore(fresh.recovered_state(offer))
    assert (fresh.get(*TIGER, "/movement"), fresh.get(*TIGER, "/range")) == (5, 12)


def test_a_full_disk_keeps_the_window_its_edits_and_an_autosave(qtbot, tmp_path, monkeypatch):
    isolate(monkeypatch, tmp_path)
    pack = copy_pack(tmp_path)
    real = atomic.write_json

    def full(path, value):
        if str(pack) in str(path):
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(path))
        real(path, value)
    monkeypatch.setattr(atomic, "write_json", full)
    w = window(qtbot, pack, answers={"Unsaved changes": "Save"})
    w.doc.set(*TIGER, "/movement", 5)
    assert not w.save()
    assert w.asked[-1][0] == "Save failed" and "No space left" in w.asked[-1][1]
    assert "Errno" not in w.asked[-1][1] and w.isWindowModified()
    autosaves = list((tmp_path / "autosave").glob("*.autosave.json"))
    assert autosaves and json.loads(autosaves[0].read_text())["docs"]
    assert not w.close() and w.isVisible()  # closing tries to save, fails, stays open
    assert w.doc.get(*TIGER, "/movement") == 5 and _on_disk(pack, "/movement") == 4
    monkeypatch.setattr(atomic, "write_json", real)
    assert w.save() and _on_disk(pack, "/movement") == 5
    close(w)


@pytest.mark.parametrize("case", ["manifest-list", "override-without-target", "corrupt-overrides"])
def test_save_as_mod_over_a_broken_mod_reports_and_writes_nothing(qtbot, tmp_path, monkeypatch, case):
    isolate(monkeypatch, tmp_path)
    pack = copy_pack(tmp_path)
    mod = tmp_path / "mod"
    mod.mkdir()
    manifest = [{"id": "x"}] if case == "manifest-list" else \
        {"kind": "pack", "id": "mod", "name": "m", "version": "0.1.0", "ruleset": "desert-steel"}
    (mod / "pack.json").write_text(json.dumps(manifest))
    if case == "override-without-target":
        (mod / "overrides.json").write_text(json.dumps({"kind": "overrides", "overrides": [
            {"patch": [{"op": "replace", "path": "/range", "value": 1}]}]}))
    elif case == "corrupt-overrides":
        (mod / "overrides.json").write_text('{"kind": "overrides", "overrides": [')
    before = {p.name: p.read_bytes() for p in mod.iterdir()}
    w = window(qtbot, pack, owned=False)
    w.doc.set(*TIGER, "/movement", 5)
    result = w.save_as_mod(mod)
    assert not result.ok and all(str(mod) in f.location.file for f in result.findings)
    line = result.findings[0].line_text()
    assert ("pack.json" if case == "manifest-list" else "overrides.json") in line
    assert w.asked[-1][0] == "Mod pack not saved"
    assert {p.name: p.read_bytes() for p in mod.iterdir()} == before
    assert w.isWindowModified() and w.ws.path == pack  # still on the base pack, edits kept
    close(w)


def test_autosave_is_debounced_after_the_last_edit(qtbot, tmp_path, monkeypatch):
    isolate(monkeypatch, tmp_path)
    pack = copy_pack(tmp_path)
    w = window(qtbot, pack, autosave_seconds=0.3)
    timer = w.doc.autosave_timer
    assert not timer.isActive()  # nothing to save, nothing scheduled
    w.doc.set(*TIGER, "/movement", 5)
    assert timer.isActive() and timer.isSingleShot() and timer.interval() <= 300
    qtbot.waitUntil(lambda: bool(list((tmp_path / "autosave").glob("*.autosave.json"))), timeout=5000)
    close(w)
