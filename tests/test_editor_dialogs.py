"""The lifecycle and save dialogs driven through their real modal path (``exec``), as a
user does: the explorer's action opens the dialog, the test fills it and presses its
button while it is shown (a timer in the dialog's own event loop), and the result is
checked in the pack: new like a template, rename with its preview (references inside a
mod pack's own patches follow, texts naming the old number are listed), delete with its
cascade, save as mod pack, open recent with the real question boxes."""
from __future__ import annotations

import json
from pathlib import Path

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QDialogButtonBox

from editorkit import close, copy_pack, isolate, settle, window
from packbuilder import write_pack
from sandtable.editor.app import inside_installation
from sandtable.rules.catalog import load_catalog


class Modal:
    """Answers the next modal dialog: ``step(dialog, tick)`` runs on each tick (every 20 ms)
    while one is shown, until it presses a button; what the dialog showed is kept in
    ``seen``."""

    def __init__(self, step):
        self.step, self.ticks, self.seen = step, 0, {}
        self.timer = QTimer()
        self.timer.setInterval(20)
        self.timer.timeout.connect(self._tick)
        self.timer.start()

    def _tick(self) -> None:
        dialog = QApplication.activeModalWidget()
        if dialog is None:
            return
        self.ticks += 1
        self.seen.setdefault("title", dialog.windowTitle())
        self.step(self, dialog, self.ticks)

    def stop(self) -> None:
        self.timer.stop()


def press(dialog, which=QDialogButtonBox.Ok) -> None:
    box = dialog.findChild(QDialogButtonBox)
    box.button(which).click()


def test_new_scenario_like_gazala_through_the_dialog(qtbot, tmp_path, monkeypatch):
    isolate(monkeypatch, tmp_path)
    w = window(qtbot, copy_pack(tmp_path))

    def fill(m, dialog, tick):
        if tick == 1:
            m.seen["start"] = dialog.start.currentData()  # preset to the template chosen
            m.seen["suggested"] = dialog.id.text()
            dialog.id.setText("gazala-night")
            press(dialog)
    modal = Modal(fill)
    made = w.explorer.lifecycle_action("New like…", "scenario", "gazala")
    modal.stop()
    assert modal.seen["title"] == "New scenario" and modal.seen["start"] == "gazala"
    assert modal.seen["suggested"] == "gazala-2"
    assert made == "gazala-night"
    ws = w.ws
    new, old = ws.value("scenario", "gazala-night"), ws.value("scenario", "gazala")
    assert new["sides"] == old["sides"] and new["map_configuration"] == old["map_configuration"]
    assert new["provenance"][""]["source"] == "authored"
    assert ("scenario", "gazala-night") in w.forms  # opened for editing
    w.doc.undo_stack.undo()
    assert not ws.exists("scenario", "gazala-night")
    close(w)


def test_a_cancelled_dialog_changes_nothing(qtbot, tmp_path, monkeypatch):
    isolate(monkeypatch, tmp_path)
    w = window(qtbot, copy_pack(tmp_path))
    modal = Modal(lambda m, dialog, tick: (dialog.id.setText("9322"), press(dialog, QDialogButtonBox.Cancel)))
    assert w.explorer.lifecycle_action("Rename…", "formation-card", "322") is None
    modal.stop()
    assert w.ws.exists("formation-card", "322") and not w.ws.exists("formation-card", "9322")
    assert w.doc.undo_stack.count() == 0
    close(w)


def _mod_pack(tmp_path):
    """A mod pack of the user's over the bundled pack: its own card 9001, which its own
    patch of Gazala adds to an Axis formation and names in a special rule."""
    base = copy_pack(tmp_path)
    german = json.loads((base / "cards" / "german.json").read_text())
    mine = {**next(c for c in german["cards"] if c["number"] == 161), "number": 9001, "designation": "Late company"}
    mod = write_pack(tmp_path / "packs", "my-mod", {
        "cards.json": {"kind": "formation-cards", "cards": [mine]},
        "overrides.json": {"kind": "overrides", "overrides": [
            {"target": {"kind": "scenario", "id": "gazala"}, "reason": "a late company", "patch": [
                {"op": "add", "path": "/sides/axis/formations/0/cards/-", "value": 9001},
                {"op": "add", "path": "/special_rules/-", "value": {
                    "id": "late-company", "type": "text-only", "side": "axis", "cards": [9001],
                    "text": {"en": "Card 9001 arrives on turn 3."}}}]}]},
    }, depends_on=[{"id": "desert-steel"}])
    return base, mod


def _errors(cat):
    return sorted(f.code for f in cat.findings if f.severity >= 2)


def test_rename_through_the_dialog_shows_references_and_rewrites_the_mod_packs_patch(qtbot, tmp_path, monkeypatch):
    isolate(monkeypatch, tmp_path)
    base, mod = _mod_pack(tmp_path)
    before = _errors(load_catalog([mod], search=[base.parent]))
    w = window(qtbot, mod, search=[base.parent])
    assert w.ws.owned and w.ws.pack_id == "my-mod"

    def fill(m, dialog, tick):
        if tick == 1:
            dialog.id.setText("9002")
        elif dialog.list.count():  # the preview is shown (after its short debounce)
            m.seen["summary"] = dialog.summary.text()
            m.seen["lines"] = [dialog.list.item(i).text() for i in range(dialog.list.count())]
            press(dialog)
    modal = Modal(fill)
    assert w.explorer.lifecycle_action("Rename…", "formation-card", "9001") == "9002"
    modal.stop()
    lines = modal.seen["lines"]
    assert "scenario gazala /sides/axis/formations/0/cards/4: 9001 → 9002" in lines
    assert "overrides overrides.json /overrides/0/patch/0/value: 9001 → 9002" in lines
    assert "overrides overrides.json /overrides/0/patch/1/value/cards/0: 9001 → 9002" in lines
    assert any(x.startswith("text, not changed: scenario gazala /special_rules/") and "Card 9001 arrives" in x
               for x in lines)
    assert "text(s) mention 9001" in modal.seen["summary"]
    ws = w.ws
    assert ws.exists("formation-card", "9002") and not ws.exists("formation-card", "9001")
    assert ws.value("scenario", "gazala")["sides"]["axis"]["formations"][0]["cards"][-1] == 9002
    settle(qtbot, w)
    assert w.save()
    saved = json.loads((mod / "overrides.json").read_text())["overrides"]
    # the user's own patch is kept as written (its reason, its two operations), the id inside it renamed
    assert len(saved) == 1 and saved[0]["reason"] == "a late company"
    assert [op["op"] for op in saved[0]["patch"]] == ["add", "add"]
    assert saved[0]["patch"][0]["value"] == 9002 and saved[0]["patch"][1]["value"]["cards"] == [9002]
    assert saved[0]["patch"][1]["value"]["text"]["en"] == "Card 9001 arrives on turn 3."  # prose is the user's
    cat = load_catalog([mod], search=[base.parent])
    assert _errors(cat) == before
    assert 9002 in cat.get("scenario", "gazala").value["sides"]["axis"]["formations"][0]["cards"]
    close(w)


def test_delete_through_the_dialog_lists_references_and_cascades(qtbot, tmp_path, monkeypatch):
    isolate(monkeypatch, tmp_path)
    w = window(qtbot, copy_pack(tmp_path))

    def confirm(m, dialog, tick):
        m.seen["lines"] = [dialog.list.item(i).text() for i in range(dialog.list.count())]
        m.seen["cascade"] = dialog.cascade.isChecked() and dialog.cascade.isVisibleTo(dialog)
        press(dialog)
    modal = Modal(confirm)
    w.explorer.lifecycle_action("Delete…", "formation-card", "322")
    modal.stop()
    assert modal.seen["cascade"]
    assert any(x.startswith("formation-card 321 /subordinates/0") for x in modal.seen["lines"])
    ws = w.ws
    assert not ws.exists("formation-card", "322")
    assert 322 not in ws.value("formation-card", "321").get("subordinates", [])
    w.doc.undo_stack.undo()
    assert ws.exists("formation-card", "322") and 322 in ws.value("formation-card", "321")["subordinates"]
    # a delete that something needs is refused in the dialog: its button is disabled, Cancel leaves
    refused = Modal(lambda m, dialog, tick: (m.seen.setdefault("enabled", dialog.ok_button().isEnabled()),
                                             press(dialog, QDialogButtonBox.Cancel)))
    assert w.explorer.lifecycle_action("Delete…", "map-configuration", "A-left-of-B-north-right") is None
    refused.stop()
    assert refused.seen["enabled"] is False and ws.exists("map-configuration", "A-left-of-B-north-right")
    close(w)


def test_save_as_mod_pack_through_the_dialog(qtbot, tmp_path, monkeypatch):
    isolate(monkeypatch, tmp_path)
    pack = copy_pack(tmp_path)
    w = window(qtbot, pack, owned=False)
    w.doc.set("unit-type", "de-pz-vi-e", "/movement", 5)
    folder = tmp_path / "mods" / "faster-tigers"

    def fill(m, dialog, tick):
        m.seen["suggested"] = dialog.folder.text()
        dialog.folder.setText(str(folder))
        dialog.pack_id.setText("faster-tigers")
        press(dialog, QDialogButtonBox.Save)
    modal = Modal(fill)
    assert w.save_as_mod_dialog()
    modal.stop()
    assert not inside_installation(Path(modal.seen["suggested"]))  # suggested: a folder of the user's
    cat = load_catalog([folder], search=[pack.parent])
    assert cat.get("unit-type", "de-pz-vi-e").value["movement"] == 5
    assert w.switching and not w.isEnabled()  # the mod pack is read on a thread, the window waits
    qtbot.waitUntil(lambda: not w.switching, timeout=15000)
    assert w.ws.pack_id == "faster-tigers" and w.isEnabled()
    assert w.doc.undo_stack.canUndo()  # Save as keeps the undo history (README)
    close(w)


def press_text(dialog, text: str) -> None:
    from PySide6.QtWidgets import QPushButton
    next(b for b in dialog.findChildren(QPushButton) if b.text().replace("&", "") == text).click()


def test_open_recent_through_the_menu_and_the_real_question_boxes(qtbot, tmp_path, monkeypatch):
    isolate(monkeypatch, tmp_path)
    first = copy_pack(tmp_path)
    second = copy_pack(tmp_path, "other-copy")
    w = window(qtbot, second)
    w.load_pack(first)  # now two recent packs: first, then second
    w.ask = w._ask  # the real question box, answered below as a user would
    recent = {a.text(): a for a in w.recent_menu.actions()}
    assert list(recent) == [str(first), str(second)]
    # a recent pack moved away since: said so, nothing changes
    moved = tmp_path / "moved"
    second.rename(moved)
    answer = Modal(lambda m, box, tick: (m.seen.setdefault("text", box.text()), press_text(box, "OK")))
    recent[str(second)].trigger()
    answer.stop()
    assert answer.seen["title"] == "Not a pack" and str(second) in answer.seen["text"]
    assert w.ws.path == first
    moved.rename(second)
    # unsaved edits: the real box asks; Cancel keeps them, Discard opens the other pack
    w.doc.set("unit-type", "de-pz-vi-e", "/movement", 5)
    cancel = Modal(lambda m, box, tick: press_text(box, "Cancel"))
    recent[str(second)].trigger()
    cancel.stop()
    assert cancel.seen["title"] == "Unsaved changes" and w.ws.path == first and w.doc.dirty
    discard = Modal(lambda m, box, tick: press_text(box, "Discard"))
    recent[str(second)].trigger()
    discard.stop()
    assert w.ws.path == second and not w.doc.dirty
    close(w)
