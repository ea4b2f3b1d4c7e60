"""Fast start (#26): `sandtable edit` shows its window with a progress bar at once and reads the
pack on a thread; the views are made when it is read; closing meanwhile is safe."""
from __future__ import annotations

from editorkit import copy_pack, isolate


def test_the_window_shows_first_and_the_pack_follows(qtbot, tmp_path, monkeypatch):
    isolate(monkeypatch, tmp_path)
    from sandtable.editor.app import MainWindow
    w = MainWindow(copy_pack(tmp_path), autosave_seconds=0, background=True)
    qtbot.addWidget(w)
    w.show()
    assert w.tabs.tabText(0) == "Opening…" and "reading and checking" in w.loading_label.text()
    assert not w.menuBar().isEnabled()  # nothing to save or undo yet
    qtbot.waitUntil(lambda: w.loaded_seconds is not None, timeout=30000)
    assert w.doc is not None and w.menuBar().isEnabled()
    assert ("scenario", "gazala") in w.explorer.items and w.tabs.count() == 0
    assert w.open_object("scenario", "gazala") is not None
    qtbot.waitUntil(lambda: w.validator.last is not None, timeout=30000)
    w.ask = lambda *a: "Discard"
    w.close()


def test_closing_while_the_pack_is_read(qtbot, tmp_path, monkeypatch):
    isolate(monkeypatch, tmp_path)
    from sandtable.editor.app import MainWindow
    w = MainWindow(copy_pack(tmp_path), autosave_seconds=0, background=True)
    qtbot.addWidget(w)
    w.show()
    w.close()
    qtbot.wait(50)


def test_a_pack_that_cannot_be_read_is_said_in_the_window(qtbot, tmp_path, monkeypatch):
    isolate(monkeypatch, tmp_path)
    from sandtable.editor import app
    monkeypatch.setattr(app, "Workspace", lambda *a, **k: (_ for _ in ()).throw(RuntimeError("disk on fire")))
    w = app.MainWindow(copy_pack(tmp_path), autosave_seconds=0, background=True)
    qtbot.addWidget(w)
    w.show()
    qtbot.waitUntil(lambda: "could not be opened" in w.loading_label.text(), timeout=10000)
    assert "Traceback" not in w.loading_label.text()
    w.close()


def test_the_splash_comes_before_the_editors_modules():
    """`sandtable edit` shows its splash from a module that imports PySide6 only."""
    import subprocess
    import sys
    code = ("import sys; import sandtable.editor.splash as s; "
            "print(any(m.startswith(('sandtable.editor.app', 'sandtable.rules.catalog', 'jsonschema')) "
            "for m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"
    from sandtable.editor.splash import Splash
    s = Splash("my-mod")
    assert "Opening my-mod" in s.label.text()
    s.deleteLater()
