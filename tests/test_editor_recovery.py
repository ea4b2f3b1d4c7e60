"""Autosave and crash recovery: an editor process with unsaved edits is killed; the next
editor on the same pack offers the edits back, and Undo takes them away again."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap

from editorkit import close, copy_pack, isolate, wait_for, window

CHILD = textwrap.dedent("""
    import sys, time
    from PySide6.QtWidgets import QApplication
    app = QApplication(sys.argv[:1])
    from sandtable.editor.app import MainWindow
    w = MainWindow(sys.argv[1])  # the default autosave: debounced, a few seconds after the last edit
    w.show()
    form = w.open_object("unit-type", "de-pz-vi-e")
    spin = next(x for p, x in form.bindings if p == "/range")
    spin.setValue(12)            # an edit, as typed in the form
    print("EDITED", flush=True)
    while True:                  # keep running until killed
        app.processEvents()
        time.sleep(0.02)
""")


def test_autosave_survives_a_killed_editor(qtbot, tmp_path, monkeypatch):
    isolate(monkeypatch, tmp_path)
    pack = copy_pack(tmp_path)
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    child = subprocess.Popen([sys.executable, "-c", CHILD, str(pack)], env=env, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)
    try:
        assert child.stdout.readline().strip() == "EDITED", child.stderr.read()
        found = lambda: sorted((tmp_path / "autosave").glob("*.autosave.json"))  # noqa: E731
        assert wait_for(found, 8), "no autosave within 8 s of the edit"
        target = found()[0]
    finally:
        child.send_signal(signal.SIGKILL)
        child.wait(10)
    assert child.returncode == -signal.SIGKILL
    assert target.exists()  # a crash leaves the autosave behind
    w = window(qtbot, pack, answers={"Recover unsaved edits?": "Recover"})
    qtbot.waitUntil(lambda: w.doc.get("unit-type", "de-pz-vi-e", "/range") == 12, timeout=5000)
    assert w.isWindowModified()
    assert w.asked and w.asked[0][0] == "Recover unsaved edits?"
    w.undo_action.trigger()  # recovery is one undoable step
    assert w.doc.get("unit-type", "de-pz-vi-e", "/range") == 10
    w.redo_action.trigger()
    assert w.save()
    assert not target.exists()  # saving clears the autosave
    close(w)


def test_discarding_the_recovery_removes_it(qtbot, tmp_path, monkeypatch):
    isolate(monkeypatch, tmp_path)
    pack = copy_pack(tmp_path)
    w = window(qtbot, pack)
    w.doc.set("raid-card", "S1", "/air_strike/count", 7)
    path = w.doc.autosave()
    assert path is not None and path.exists()
    w.doc.autosave_timer.stop()
    w.validator.shutdown()
    w.setParent(None)
    w.hide()  # simulate a crash: no close event, the autosave stays
    w.doc.autosave_slot.abandon()  # and its lock dies with the process
    w2 = window(qtbot, pack, answers={"Recover unsaved edits?": "Discard"})
    qtbot.waitUntil(lambda: bool(w2.asked), timeout=5000)
    assert w2.doc.get("raid-card", "S1", "/air_strike/count") != 7 and not path.exists()
    close(w2)
