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


def test_opening_and_closing_gazala_with_its_board_again_and_again_leaves_no_widget(qtbot, tmp_path, monkeypatch):
    # The endurance session's leak (0.4 widgets an action): each Gazala board opened left its
    # two pinned combos (and their popups) alive. Whole widget count, several rounds.
    from PySide6.QtCore import QEvent
    from PySide6.QtWidgets import QApplication

    isolate(monkeypatch, tmp_path)
    w = window(qtbot, copy_pack(tmp_path))
    app = QApplication.instance()

    def round_trip() -> int:
        form = w.open_object("scenario", "gazala")
        form.tabs.setCurrentWidget(form.board)  # the board is made when its tab shows
        app.processEvents()
        while w.tabs.count():
            w.close_tab(0)
        app.sendPostedEvents(None, QEvent.DeferredDelete)
        app.processEvents()
        return len(app.allWidgets())

    first = round_trip()
    assert [round_trip() for _ in range(3)] == [first] * 3
    close(w)


def test_menus_questions_and_dialogs_shown_many_times_leave_no_widget_behind(qtbot, tmp_path, monkeypatch):
    # Right-click menus, question boxes and dialogs were made as children of long-lived
    # widgets (explorer, form, JSON tree, window) and stayed alive once closed: one more
    # widget tree per right-click or question until the window closed. Each path is run
    # many times with exec() answering at once; the count of live widgets must not grow.
    from PySide6.QtCore import QEvent, QPoint, QTimer
    from PySide6.QtWidgets import QApplication

    from sandtable.editor.forms.jsontree import JsonTree

    app = QApplication.instance()
    shown = []

    def close_what_is_open():  # the user's Escape: closes the open menu or the modal dialog
        popup = app.activePopupWidget() or app.activeModalWidget()
        if popup is not None:
            shown.append(type(popup).__name__)
            popup.close()
    closer = QTimer()
    closer.setInterval(5)
    closer.timeout.connect(close_what_is_open)
    closer.start()
    isolate(monkeypatch, tmp_path)
    w = window(qtbot, copy_pack(tmp_path))
    app = QApplication.instance()
    form = w.open_object("formation-card", "161")
    tree = form.bind("", JsonTree(form, expand_depth=1))  # the tree every kind's JSON view uses
    item_pos = tree.tree.visualItemRect(tree.tree.topLevelItem(0)).center()
    pointer, spin = next((p, x) for p, x in form.bindings if p.endswith("/morale"))
    badge = form.badges[0]
    w.explorer.select(*TIGER)
    explorer_pos = w.explorer.tree.visualRect(w.explorer.tree.currentIndex()).center()

    def every_popup():
        w.explorer._context_menu(explorer_pos)
        tree._menu(item_pos)
        tree._edit_json("")
        form._field_menu(spin, pointer, QPoint(2, 2))
        badge._ask("rulebook")
        w._ask("A question", "Go on?", ["Go on", "Cancel"])
        for action in ("New…", "New like…", "Rename…", "Delete…"):
            w.explorer.lifecycle_action(action, *TIGER)
        w.save_as_mod_dialog()

    def live_widgets() -> int:
        app.sendPostedEvents(None, QEvent.DeferredDelete)
        app.processEvents()
        return len(app.allWidgets())

    every_popup()  # first use: anything made once and kept (caches, lazy panels) is made here
    first, before = live_widgets(), len(shown)
    for _ in range(15):
        every_popup()
    assert len(shown) - before == 15 * 11  # every menu and dialog was really shown each time
    assert live_widgets() == first
    closer.stop()
    close(w)


def test_undo_steps_that_follow_an_undo_or_remove_a_value_are_not_leaked(qtbot, tmp_path, monkeypatch):
    # QUndoStack merged a step typed again after an undo, or a removal of the value just typed,
    # into the step below and deleted it; PySide6 never freed such a command's Python object (a
    # leak of a command and its values each time). The document merges typing itself now.
    import gc

    from sandtable.editor.document import SetValue
    from sandtable.editor.jsonptr import MISSING

    isolate(monkeypatch, tmp_path)
    w = window(qtbot, copy_pack(tmp_path))
    doc = w.doc

    def alive() -> int:
        gc.collect()
        return sum(isinstance(o, SetValue) for o in gc.get_objects())
    for i in range(40):
        doc.set(*TIGER, "/notes", f"note {i}")
        doc.set(*TIGER, "/notes", MISSING)  # typed, then cleared at once
        doc.set(*TIGER, "/range", 2 + i % 5)
        doc.set(*TIGER, "/defense", 2 + i % 5)
        doc.undo_stack.undo()  # and the range typed again after an undo
    assert alive() == doc.undo_stack.count()  # every live command is a step of the history
    assert doc.get(*TIGER, "/range") == 2 + 39 % 5
    close(w)


def test_typing_on_under_another_provenance_is_a_step_of_its_own(qtbot, tmp_path, monkeypatch):
    # the document merges keystrokes into the last step; a value typed on with another
    # provenance must not lose it in the merge
    from sandtable.editor.document import current_source

    isolate(monkeypatch, tmp_path)
    w = window(qtbot, copy_pack(tmp_path))
    doc = w.doc
    doc.set(*TIGER, "/range", 7)
    doc.set(*TIGER, "/range", 8)  # typing on: one step
    steps = doc.undo_stack.count()
    checked = {"source": "rulebook", "section": "9.1"}
    doc.set(*TIGER, "/range", 9, provenance=checked)
    assert doc.undo_stack.count() == steps + 1
    assert current_source(doc.ws.value(*TIGER), "/range") == checked
    doc.undo_stack.undo()
    assert doc.get(*TIGER, "/range") == 8
    close(w)


def test_a_board_scene_reset_forgets_its_board_and_queued_hexes(qtbot):
    # the board widget clears a board whose configuration is gone through the scene's own reset
    from sandtable.editor.desert_steel.boardview import BoardScene
    from sandtable.rules.catalog import load_catalog
    catalog = load_catalog()
    scene = BoardScene()
    scene.build([["A"]], "up", {"A": catalog.get("map", "A").value}, None, None)
    assert scene.board is not None and scene.locator is not None and scene.items()
    scene.reset()
    assert scene.board is None and scene.locator is None and not scene.items()
    assert scene._pending == [] and scene.maps == {} and scene.units_at == {}
