"""Crash recovery offered at start for any pack (#26): after an editor of a mod pack died with
unsaved edits, the next `sandtable edit` — on another pack — names that pack and opens it, where
its own recovery question follows."""
from __future__ import annotations

from editorkit import close, copy_pack, isolate, window


def crash(w) -> None:
    w.doc.autosave()
    w.doc.autosave_timer.stop()
    w.validator.shutdown()
    w.setParent(None)
    w.hide()  # no close event: the autosave stays
    w.doc.autosave_slot.abandon()  # and its lock dies with the process


def test_unsaved_work_in_another_pack_is_offered_at_start(qtbot, tmp_path, monkeypatch):
    isolate(monkeypatch, tmp_path)
    mine = copy_pack(tmp_path, "my-mod")
    other = copy_pack(tmp_path, "other")
    w = window(qtbot, mine)
    w.doc.set("raid-card", "S1", "/air_strike/count", 7)
    crash(w)
    # declined: the pack opened stays, the work stays offered for later
    w2 = window(qtbot, other, answers={"Unsaved work in another pack": "Not now"})
    qtbot.waitUntil(lambda: bool(w2.asked), timeout=5000)
    title, text = w2.asked[0]
    assert title == "Unsaved work in another pack" and str(mine) in text
    assert w2.ws.path == other
    close(w2)
    # accepted: that pack opens, and its own recovery brings the edit back
    w3 = window(qtbot, other, answers={"Unsaved work in another pack": "Open my-mod",
                                       "Recover unsaved edits?": "Recover"})
    qtbot.waitUntil(lambda: len(w3.asked) >= 2, timeout=5000)
    assert w3.ws.path.resolve() == mine.resolve()
    assert [t for t, _ in w3.asked] == ["Unsaved work in another pack", "Recover unsaved edits?"]
    assert w3.doc.get("raid-card", "S1", "/air_strike/count") == 7
    close(w3)


def test_no_question_when_the_opened_pack_is_the_one(qtbot, tmp_path, monkeypatch):
    isolate(monkeypatch, tmp_path)
    mine = copy_pack(tmp_path, "my-mod")
    w = window(qtbot, mine)
    w.doc.set("raid-card", "S1", "/air_strike/count", 7)
    crash(w)
    w2 = window(qtbot, mine, answers={"Recover unsaved edits?": "Discard"})
    qtbot.waitUntil(lambda: bool(w2.asked), timeout=5000)
    qtbot.wait(50)
    assert [t for t, _ in w2.asked] == ["Recover unsaved edits?"]
    close(w2)
