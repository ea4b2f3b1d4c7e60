"""The editor's undo history is bounded (an endurance session grew the process without
limit): the oldest steps go, the newest still undo, the pack stays unsaved."""
from __future__ import annotations

from editorkit import close, copy_pack, isolate, window
from sandtable.editor.document import PackDocument

TIGER = ("unit-type", "de-pz-vi-e")


def test_undo_history_keeps_the_newest_steps_up_to_its_limit(qtbot, tmp_path, monkeypatch):
    isolate(monkeypatch, tmp_path)
    monkeypatch.setattr(PackDocument, "UNDO_LIMIT", 20)
    w = window(qtbot, copy_pack(tmp_path))
    doc = w.doc
    assert doc.undo_stack.undoLimit() == 20
    for i in range(30):  # two fields in turn: no step merges with the one before
        doc.set(*TIGER, "/range" if i % 2 == 0 else "/defense", 2 + i % 9)
    assert doc.undo_stack.count() == 20
    for _ in range(25):  # more undos than are kept: the last ones do nothing
        doc.undo_stack.undo()
    # the 10 oldest steps are gone: their values stay, and the pack is still unsaved
    assert doc.get(*TIGER, "/range") == 2 + 8 % 9 and doc.get(*TIGER, "/defense") == 2 + 9 % 9
    assert doc.dirty
    doc.undo_stack.redo()
    assert doc.get(*TIGER, "/range") == 2 + 10 % 9
    close(w)


def test_a_closed_scenario_tab_leaves_no_widget_or_board_behind(qtbot, tmp_path, monkeypatch):
    # The scenario's board pins its configuration and scenario: those hidden combos had no
    # parent, outlived the tab as top-level widgets, and their lambdas kept the board's
    # Python side (scene, terrain) alive: a leak at every scenario opened.
    import gc
    import weakref

    from PySide6.QtCore import QEvent
    from PySide6.QtWidgets import QApplication, QComboBox

    isolate(monkeypatch, tmp_path)
    w = window(qtbot, copy_pack(tmp_path))
    app = QApplication.instance()
    before = {id(x) for x in app.topLevelWidgets()}
    form = w.open_object("scenario", "gazala")
    board = getattr(form, "board", None)
    assert board is not None
    gone = weakref.ref(board)
    board = form = None
    while w.tabs.count():
        w.close_tab(0)
    app.sendPostedEvents(None, QEvent.DeferredDelete)
    app.processEvents()
    gc.collect()
    orphans = [x for x in app.topLevelWidgets() if id(x) not in before and isinstance(x, QComboBox)]
    assert orphans == []
    assert gone() is None
    close(w)
