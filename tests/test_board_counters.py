"""Counters drawn as counters on every board (#26): the placement board and the scenario's
read-only board draw each placed unit with the counter painter (the look of the printed
sheet), sized with the zoom; a stack fans out under the pointer; a drag from the formation
list carries the counter's own picture, as big as on the board."""
from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint, QPointF

from editorkit import shot
from sandtable.rules.catalog import bundled_pack


@pytest.fixture(scope="module")
def ws(catalog):
    from sandtable.editor.workspace import Workspace
    return Workspace(bundled_pack(), catalog=catalog)


@pytest.fixture
def ctx(qtbot, ws):
    from sandtable.editor.context import EditorContext
    from sandtable.editor.document import PackDocument
    return EditorContext(PackDocument(ws, autosave_seconds=0))


def test_placement_board_counters_fan_and_drag_image(qtbot, ctx):
    from sandtable.editor.desert_steel.board_canvas import StackItem
    from sandtable.editor.desert_steel.board_setup import SetupWorkbench
    w = SetupWorkbench(ctx, "kasserine-pass")
    w.resize(1300, 850)
    qtbot.addWidget(w)
    w.show()
    qtbot.waitExposed(w)
    w.start("auto", 0)
    stacks = [i for i in w.canvas.items() if isinstance(i, StackItem)]
    assert stacks
    big = max(stacks, key=lambda i: len(i.entries))
    assert len(big.entries) > 1
    w.view.zoom_on(big.key, 3.0)
    qtbot.wait(50)
    # under the pointer the stack fans out: every counter of the hex face up, side by side
    width = big.boundingRect().width()
    big.hoverEnterEvent(None)
    assert big.fanned and big.boundingRect().width() > width * 1.5
    # the faces are the print code's (as in the printed sheet and the VASSAL module), rendered
    # on a thread: the board draws them once they are in
    from sandtable.editor.desert_steel.counter_faces import face_key, faces
    keys = {face_key(e["unit"], e["designation"]): e for s in stacks for e in s.entries}
    for k, e in keys.items():
        faces().get(e["unit"], e["designation"], k)
    qtbot.waitUntil(lambda: all(k in faces().pixmaps for k in keys), timeout=60000)
    assert all(faces().pixmaps[k] is not None for k in keys)
    from PySide6.QtWidgets import QSplitter
    w.findChild(QSplitter).setSizes([300, 1000])
    w.view.zoom_on(big.key, 2.2)
    w.view.centerOn(big.pos() + QPointF(big.boundingRect().width() / 2, 0))  # the fan and its neighbours
    qtbot.wait(100)
    shot(w, "board-counters")
    big.hoverLeaveEvent(None)
    assert not big.fanned
    # the hover line names the units of the hex first
    w._hover(big.key)
    assert f"{len(big.entries)} counter(s)" in w.cursor.text()
    # the drag picture is the counter, as big as the board draws it at this zoom
    w.start("empty", None)
    palette = w.palette
    item = palette.topLevelItem(0).child(0)
    zoomed = palette.drag_pixmap(item)
    w.view.zoom_on(big.key, 1.0)
    plain = palette.drag_pixmap(item)
    assert zoomed is not None and plain is not None and zoomed.width() > plain.width()
    formation = palette.drag_pixmap(palette.topLevelItem(0))
    assert formation.width() > plain.width()  # the stack's badge and the counters beneath


def test_the_scenario_board_draws_counters(qtbot, ctx):
    from sandtable.editor.desert_steel.board_canvas import StackItem
    from sandtable.editor.desert_steel.boardview import BoardWidget
    setup = next(oid for oid in ctx.ws.keys("setup") if ctx.ws.value("setup", oid)["scenario"] == "kasserine-pass")
    w = BoardWidget(ctx, scenario="kasserine-pass")
    w.resize(1100, 800)
    qtbot.addWidget(w)
    w.show()
    qtbot.waitExposed(w)
    w.setup.setCurrentIndex(w.setup.findData(setup))
    qtbot.wait(50)
    stacks = [i for i in w.scene.items() if isinstance(i, StackItem)]
    placed = sum(len(d.get("placements", [])) for d in ctx.ws.value("setup", setup)["sides"].values())
    assert stacks and sum(len(s.entries) for s in stacks) == placed
    key = stacks[0].key
    assert "units:" in w.scene.describe(key)
    assert QPoint  # noqa: B018
