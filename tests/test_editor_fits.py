"""The window fits a 1366x768 laptop whatever docks are open (#26): the quick game's and the
balance lab's docks scroll inside themselves; the card form's four years fit without scrolling."""
from __future__ import annotations

from PySide6.QtWidgets import QScrollArea

from editorkit import close, copy_pack, isolate, window


def test_docks_and_card_form_fit_a_small_screen(qtbot, tmp_path, monkeypatch):
    isolate(monkeypatch, tmp_path)
    from sandtable.editor.app import SMALL_SCREEN
    w = window(qtbot, copy_pack(tmp_path))
    w.resize(*SMALL_SCREEN)
    for open_dock in (w.quick_game, w.balance_lab):
        open_dock()
        qtbot.wait(20)
        assert w.minimumSizeHint().height() <= SMALL_SCREEN[1], open_dock.__name__
        assert w.height() <= SMALL_SCREEN[1]
    w.docks["quickgame"].hide()
    w.docks["balancelab"].hide()
    form = w.open_object("formation-card", "161")
    qtbot.wait(20)
    sideways = [a.horizontalScrollBar().maximum() for a in form.findChildren(QScrollArea)]
    assert sideways and max(sideways) == 0, sideways
    close(w)
