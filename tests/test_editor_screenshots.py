"""Screenshots of the editor's main views, saved in docs/screenshots/ for the README.

Each view is opened as a user would open it, on a private copy of the reference pack.
"""
from __future__ import annotations

from PySide6.QtWidgets import QApplication

from editorkit import SCREENSHOTS, close, copy_pack, isolate, settle, shot, window
from sandtable.editor import hooks
from sandtable.editor.app import ModPackDialog


def test_screenshots_of_the_main_views(qtbot, tmp_path, monkeypatch):
    isolate(monkeypatch, tmp_path)
    pack = copy_pack(tmp_path)
    w = window(qtbot, pack)
    w.resize(1600, 1000)
    made = []

    def editor(kind, oid, name, prepare=None):
        form = w.open_object(kind, oid)
        if prepare:
            prepare(form)
        qtbot.wait(60)
        made.append(shot(w.tabs, name))
        return form

    # editors, with the bottom docks out of the way
    w.docks["findings"].hide()
    w.docks["provenance"].hide()
    qtbot.wait(50)
    editor("unit-type", "de-pz-vi-e", "unit-type")
    editor("formation-card", "161", "formation-card-variants")
    editor("formation-card", "160", "command-card")
    editor("raid-card", "S3", "raid-card")
    editor("rule-tables", "desert-steel", "rule-tables")
    editor("terrain-effects", "desert-steel", "terrain-effects", lambda f: f.tabs.setCurrentIndex(0))
    editor("map-configuration", "A-over-B-north-up", "map-configuration")
    grid = w.open_bulk("formation-card")  # the bulk grid, filtered to one nationality
    grid.filter.setText("italian")
    qtbot.wait(60)
    made.append(shot(w.tabs, "bulk-formation-cards"))

    def board(form):
        form.tabs.setCurrentWidget(form.board)
        b = form.board
        b.ids.setChecked(True)
        b.setup.setCurrentIndex(1)
        b.zone.setCurrentIndex(1)
        QApplication.processEvents()
        b.scene.finish()  # the hexes still queued (a board is drawn a slice per event-loop turn)
        b.view.fit()
        b.view.scale(2.4, 2.4)  # hex ids are for zooming in: show a corner of the board
        b.view.centerOn(b.scene.itemsBoundingRect().center().x() * 1.45, b.scene.itemsBoundingRect().center().y() * 1.2)
    form = editor("scenario", "gazala", "scenario-board", board)
    form.tabs.setCurrentIndex(1)
    editor("scenario", "gazala", "scenario-formations")
    # the main window: an edit that breaks a reference, its finding listed
    w.docks["findings"].show()
    w.docks["provenance"].show()
    w.tabifyDockWidget(w.docks["findings"], w.docks["provenance"])
    w.docks["findings"].raise_()
    w.open_object("scenario", "battleaxe").tabs.setCurrentIndex(1)
    w.doc.set("formation-card", "432", "/variants/1941/units/0/type", "gb-matilda")
    settle(qtbot, w)
    w.explorer.search.setText("matilda")
    qtbot.wait(300)
    made.append(shot(w, "main-window"))
    w.doc.undo_stack.undo()
    settle(qtbot, w)
    w.explorer.search.setText("")
    w.docks["provenance"].raise_()
    w.open_object("unit-type", "gb-crusader")
    qtbot.waitUntil(lambda: w.provenance.model.rowCount() > 0, timeout=5000)
    w.provenance.text.setText("crusader")
    qtbot.waitUntil(lambda: 0 < w.provenance.model.rowCount() < 100, timeout=5000)
    made.append(shot(w, "provenance"))
    if hooks.simulator_status()[0]:
        w.docks["findings"].raise_()
        w.open_object("scenario", "beda-fomm")
        w.quick_game()
        w.quickgame.games.setValue(6)
        w.quickgame.run()
        qtbot.waitUntil(lambda: not w.quickgame.running, timeout=60000)
        made.append(shot(w, "quick-test-game"))
    dlg = ModPackDialog(w.ws, w)
    dlg.show()
    qtbot.waitExposed(dlg)
    made.append(shot(dlg, "save-as-mod-pack"))
    dlg.close()
    close(w)
    assert all(p.exists() and p.stat().st_size > 10_000 for p in made)
    assert {p.parent for p in made} == {SCREENSHOTS}
