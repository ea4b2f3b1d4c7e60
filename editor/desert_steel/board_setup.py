"""Setup placement on the board: the scenario's formations as counters, dragged onto hexes,
between hexes and off the board, with the setup rules' findings after every drop.

The setup being edited is a plain dict (a setup document); every gesture replaces it with
a new one through ``rules.desert_steel.setup_edit`` and pushes the change on this tab's
undo stack. The findings are those of ``sandtable check-setup`` (``check_setup``), so a
setup saved from here is judged the same way on the command line.
"""
from __future__ import annotations

import json
import threading
import time
from pathlib import Path

from PySide6.QtCore import QMimeData, QObject, QPoint, QPointF, QRectF, QSize, Qt, QTimer, Signal
from PySide6.QtGui import QAction, QColor, QDrag, QFont, QIcon, QPainter, QPen, QPixmap, QUndoCommand, QUndoStack
from PySide6.QtWidgets import (QApplication, QComboBox, QFileDialog, QHBoxLayout, QLabel, QListWidget,
                               QListWidgetItem, QMenu,
                               QPlainTextEdit, QSpinBox, QStackedWidget,
                               QPushButton, QSplitter, QTreeWidget, QTreeWidgetItem, QVBoxLayout, QWidget)

from sandtable.rules import atomic, board_style
from sandtable.rules.board import BoardError
from sandtable.rules.desert_steel import setup_edit as se
from sandtable.rules.desert_steel.autosetup import AutoSetupError, auto_setup
from sandtable.rules.desert_steel.battlefield import Battlefield
from sandtable.rules.desert_steel.setup_checks import check_setup
from sandtable.rules.desert_steel.zones import ZoneContext, ZoneError
from sandtable.rules.findings import Severity, finding, sort_key

from .board_tools import LosTool, MoveTool
from .board_zones import ZonePaintTool, ZonePanel
from .board_canvas import R, UNITS_MIME, BoardCanvas, CanvasView, Minimap, StackItem, overlay_colour
from .counter import paint_counter
from .counter_faces import faces
from ..usertext import internal_error
from ..lazytab import LazyTab  # noqa: F401  (moved; mapconf and tests import it from here)

FACINGS = ("up the page", "upper right", "lower right", "down the page", "lower left", "upper left")


_ICONS: dict = {}


def counter_icon(unit: dict, designation: str, size: int = 40) -> QIcon:
    key = (json.dumps(unit, sort_keys=True, default=str), designation, size)
    if key in _ICONS:
        return _ICONS[key]
    if len(_ICONS) > 500:
        _ICONS.clear()
    _ICONS[key] = icon = _paint_icon(unit, designation, size)
    return icon


def _paint_icon(unit: dict, designation: str, size: int) -> QIcon:
    pix = QPixmap(size, size)
    pix.fill(Qt.transparent)
    p = QPainter(pix)
    paint_counter(p, QRectF(1, 1, size - 2, size - 2), unit, designation)
    p.end()
    return QIcon(pix)


class SetupChange(QUndoCommand):
    def __init__(self, bench: "SetupWorkbench", old: dict, new: dict, text: str):
        super().__init__(text)
        self.bench, self.old, self.new = bench, old, new

    def redo(self) -> None:
        self.bench._apply(self.new)

    def undo(self) -> None:
        self.bench._apply(self.old)


class FormationPalette(QTreeWidget):
    """Formations of one side (what is left to place), each unit type with its counter."""

    def __init__(self, bench: "SetupWorkbench"):
        super().__init__()
        self.bench = bench
        self.setHeaderLabels(["Formation / unit", "Left"])
        self.setIconSize(QSize(34, 34))
        self.setColumnWidth(0, 230)
        self.setDragEnabled(True)
        self.setDragDropMode(QTreeWidget.DragOnly)
        self.setDefaultDropAction(Qt.CopyAction)
        self.setSelectionMode(QTreeWidget.SingleSelection)
        self._rows: dict[int, tuple] = {}  # id(item) -> ("formation", card) | ("unit", card, type)
        self._keep: list[QTreeWidgetItem] = []

    def fill(self, side: str) -> None:
        expanded = {self.topLevelItem(i).text(0) for i in range(self.topLevelItemCount())
                    if self.topLevelItem(i).isExpanded()}
        self.clear()
        self._rows, self._keep = {}, []
        b = self.bench
        for f in b.rosters.get(side, ()):
            left = se.remaining(f, b.setup)
            top = QTreeWidgetItem([f.label, f"{sum(left.values())}/{sum(f.units.values())}"])
            top.setToolTip(0, "Drag the formation to place all its counters left, spread from the hex you drop on "
                              "over its setup zone within stacking limits.")
            self.addTopLevelItem(top)
            self._rows[id(top)] = ("formation", f.card)
            self._keep.append(top)
            for type_id, n in sorted(f.units.items()):
                unit = b.unit(type_id)
                child = QTreeWidgetItem([unit.get("name", type_id), f"{left.get(type_id, 0)}/{n}"])
                child.setIcon(0, counter_icon(unit, "" if f.card == se.TRANSPORTS else f.designation))
                if not left.get(type_id):
                    child.setDisabled(True)
                top.addChild(child)
                self._rows[id(child)] = ("unit", f.card, type_id)
                self._keep.append(child)
            top.setExpanded(f.label in expanded or not expanded)
        allowance = se.fortification_allowance(b.scenario, side)
        if allowance:
            placed = se.fortifications_placed(b.setup, side)
            top = QTreeWidgetItem(["Fortifications (§15)", ""])
            top.setToolTip(0, "Drag a marker onto a hex; right-click the hex to take it off.")
            self.addTopLevelItem(top)
            self._keep.append(top)
            for kind, (count, zone) in sorted(allowance.items()):
                child = QTreeWidgetItem([kind, f"{max(0, count - placed.get(kind, 0))}/{count}"])
                if placed.get(kind, 0) >= count:
                    child.setDisabled(True)
                top.addChild(child)
                self._rows[id(child)] = ("fort", kind)
                self._keep.append(child)
            top.setExpanded(True)

    def payload(self, item: QTreeWidgetItem) -> dict | None:
        """What dragging a row carries: one counter, or every counter of a formation left."""
        row = self._rows.get(id(item))
        if row is None:
            return None
        side = self.bench.side
        if row[0] == "fort":
            count = se.fortification_allowance(self.bench.scenario, side)[row[1]][0]
            left = count - se.fortifications_placed(self.bench.setup, side).get(row[1], 0)
            return {"side": side, "items": [], "fort": row[1]} if left > 0 else None
        f = next(f for f in self.bench.rosters[side] if f.card == row[1])
        left = se.remaining(f, self.bench.setup)
        if row[0] == "unit":
            items = [[row[1], row[2]]] if left.get(row[2]) else []
        else:
            items = [[row[1], t] for t in sorted(left.elements())]
        return {"side": side, "items": items} if items else None

    def mime_for(self, item: QTreeWidgetItem) -> QMimeData | None:
        data = self.payload(item)
        if data is None:
            return None
        mime = QMimeData()
        mime.setData(UNITS_MIME, json.dumps(data).encode())
        mime.setText(data.get("fort") or ", ".join(f"{c}:{t}" for c, t in data["items"]))
        return mime

    def supportedDropActions(self):
        return Qt.CopyAction  # dragging a counter out never removes the row

    def mimeTypes(self):
        return [UNITS_MIME]

    def mimeData(self, items):
        return self.mime_for(items[0]) if items else None

    def startDrag(self, actions) -> None:
        """The counter itself follows the pointer (as big as on the board at its zoom, see-through
        so the target hex shows), not the list row."""
        items = self.selectedItems()
        mime = self.mimeData(items) if items else None
        if mime is None:
            return
        drag = QDrag(self)
        drag.setMimeData(mime)
        pix = self.drag_pixmap(items[0])
        if pix is not None:
            drag.setPixmap(pix)
            drag.setHotSpot(QPoint(pix.width() // 2, pix.height() // 2))
        drag.exec(Qt.CopyAction)

    def drag_pixmap(self, item: QTreeWidgetItem) -> QPixmap | None:
        data = self.payload(item)
        if not data or not data.get("items"):
            return None
        card, type_id = data["items"][0]
        b = self.bench
        scale = b.view.transform().m11() if hasattr(b, "view") else 1.0
        size = int(max(22, min(160, R * board_style.COUNTER_SIZE * scale)))
        n = len(data["items"])
        pix = QPixmap(size + (8 if n > 1 else 0), size + (8 if n > 1 else 0))
        pix.fill(Qt.transparent)
        p = QPainter(pix)
        p.setRenderHint(QPainter.Antialiasing)
        p.setOpacity(0.8)
        if n > 1:  # a formation: the counters beneath peek out, as a stack on the board
            p.fillRect(QRectF(6, 6, size, size), QColor("#555"))
        unit, designation = b.unit(type_id), "" if card == se.TRANSPORTS else b.designation(card)
        printed = faces().get(unit, designation)  # the counter as the board draws it
        if printed is not None:
            p.setRenderHint(QPainter.SmoothPixmapTransform)
            p.drawPixmap(QRectF(1, 1, size - 2, size - 2), printed, QRectF(printed.rect()))
        else:
            paint_counter(p, QRectF(1, 1, size - 2, size - 2), unit, designation)
        if n > 1:
            p.setOpacity(1.0)
            p.setPen(QPen(QColor("#fff"), 1))
            p.setBrush(QColor("#263238"))
            badge = QRectF(size - 10, 0, 16, 14)
            p.drawEllipse(badge)
            p.setFont(QFont("DejaVu Sans", 7, QFont.Bold))
            p.drawText(badge, Qt.AlignCenter, str(n))
        p.end()
        return pix


class PlacementTool:
    """Press on a stack and drag: the top counter moves (Shift: the whole stack; Ctrl: the
    whole formation, keeping its shape). Release on a hex to put it there, off the map to
    take it off. Right-click a stack for facing, entrenched, hidden, loaded."""

    def __init__(self, bench: "SetupWorkbench"):
        self.bench = bench
        self.refs: list = []
        self.origin: str | None = None
        self.ghost: StackItem | None = None

    def press(self, view: CanvasView, key, event) -> bool:
        if event.button() != Qt.LeftButton or key is None:
            return False
        b = self.bench
        stack = b.stack_refs(key)
        if not stack:
            return False
        top = stack[0]
        mods = event.modifiers()
        if mods & Qt.ControlModifier and top[1] == "placements":
            card = se.entry(b.setup, top)["card"]
            data = b.setup["sides"][top[0]]["placements"]
            self.refs = [(top[0], "placements", i) for i, p in enumerate(data) if p["card"] == card]
        elif mods & Qt.ShiftModifier:
            self.refs = list(stack)
        else:
            self.refs = [top]
        self.origin = key
        b.feedback_for(top)
        self.ghost = StackItem(key, view.canvas().centre(key), [b.entry_view(r) for r in self.refs[:4]])
        self.ghost.setOpacity(0.75)
        self.ghost.setZValue(60)
        view.canvas().addItem(self.ghost)
        return True

    def move(self, view: CanvasView, key, event) -> None:
        if self.ghost is not None:
            self.ghost.setPos(view.mapToScene(event.position().toPoint()))

    def release(self, view: CanvasView, key, event) -> None:
        if self.ghost is not None:
            view.canvas().removeItem(self.ghost)
            self.ghost = None
        refs, origin, self.refs, self.origin = self.refs, self.origin, [], None
        if not refs:
            return
        b = self.bench
        if key is None:
            b.remove(refs)
        elif key != origin:
            b.move(refs, origin, key)
        else:
            b.show_feedback()

    def drag_over(self, view: CanvasView, key, mime) -> None:
        try:
            data = json.loads(bytes(mime.data(UNITS_MIME)).decode())
            if "fort" in data:
                self.bench.feedback_for_fort(data["side"], data["fort"])
                return
            card = data["items"][0][0]
        except (ValueError, KeyError, IndexError, TypeError):
            return
        self.bench.feedback_for_card(data.get("side", self.bench.side), card)

    def context_menu(self, view: CanvasView, key) -> QMenu | None:
        return self.bench.stack_menu(key) if key else None


FOLLOWED_KINDS = {"scenario", "map", "map-configuration", "formation-card", "unit-type", "terrain-effects",
                  "rule-tables"}
FOLLOW_MS = 150  # edits in a burst (typing, a brush stroke) are read once


def edited_model(ctx, force: bool = False):
    """The rules model of the pack as edited (unsaved edits included: a zone painted into a
    scenario must be the zone the placement checks), or as opened when nothing changed."""
    if not force and not ctx.doc.dirty:
        return ctx.ws.catalog.model
    from ..checking import Checker
    checker = Checker(ctx.ws)
    catalog = checker.run(checker.snapshot(), defer_setups=True).catalog  # the setup rules judge, not build
    return catalog.model if catalog is not None and catalog.model is not None else ctx.ws.catalog.model


class _ReloadBridge(QObject):
    done = Signal(int, object)  # generation, (model, scenario, field, LOS field, rosters) or why not


def _read_scenario(checker, snap, sid: str, turn: int):
    """The scenario as edited, laid out (on the reading thread): or a sentence saying why not."""
    catalog = checker.run(snap, defer_setups=True).catalog  # the setup rules judge, not build
    model = catalog.model if catalog is not None else None
    scenario = model.scenario(sid) if model is not None else None
    if scenario is None:
        return "The edited pack has errors that keep this scenario out; fix them to re-read it."
    try:
        field = Battlefield.for_scenario(model, scenario)
        los_field = field if turn == 1 else Battlefield.for_scenario(model, scenario, turn)
    except (BoardError, KeyError, ZoneError) as exc:
        return f"The edited scenario's board cannot be laid out: {exc}"
    rosters = {side: se.roster(model, scenario, side, field) for side in se.SIDES}
    return model, scenario, field, los_field, rosters


class SetupWorkbench(QWidget):
    """The setup tab of a scenario: palette, board with live feedback, findings."""

    changed = Signal()

    def __init__(self, ctx, scenario_id: str, parent=None, setup_id: str | None = None):
        super().__init__(parent)
        self.ctx = ctx
        self.pack_setup: str | None = None  # the pack's setup this board started from, followed
        self.model = edited_model(ctx)
        self.scenario = self.model.scenario(scenario_id) if self.model else None
        self.undo = QUndoStack(self)
        self.side = "allied"
        self.setup: dict = {}
        self.findings: list = []
        self.check_ms = 0.0
        self.current_card: tuple[str, int] | None = None
        self.rosters: dict[str, list[se.Formation]] = {}
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        if self.scenario is None:
            lay.addWidget(QLabel(f"Scenario {scenario_id} cannot be set up: it is not in the checked pack "
                                 "(fix its findings first)."))
            self.field = None
            return
        try:
            self.field = Battlefield.for_scenario(self.model, self.scenario)
        except (BoardError, KeyError, ZoneError) as exc:
            lay.addWidget(QLabel(f"Scenario {scenario_id}: its board cannot be laid out: {exc}"))
            self.field = None
            return
        for side in se.SIDES:
            self.rosters[side] = se.roster(self.model, self.scenario, side, self.field)
        bar = QHBoxLayout()
        self.side_box = QComboBox()
        for side in se.SIDES:
            self.side_box.addItem(f"{side.capitalize()} ({self.scenario.sides[side].year})", side)
        self.side_box.currentIndexChanged.connect(lambda _: self.set_side(self.side_box.currentData()))
        bar.addWidget(QLabel("Side"))
        bar.addWidget(self.side_box)
        self.start_box = QComboBox()
        self.start_box.addItem("Start: empty", ("empty", None))
        self.start_box.addItem("Start: automatic legal setup", ("auto", 0))
        for oid in ctx.ws.keys("setup"):
            if (ctx.ws.value("setup", oid) or {}).get("scenario") == self.scenario.id:
                self.start_box.addItem(f"Start: pack setup {oid}", ("pack", oid))
        self.start_box.activated.connect(lambda _: self.start(*self.start_box.currentData()))
        bar.addWidget(self.start_box)
        for text, slot in (("Undo", self.undo.undo), ("Redo", self.undo.redo), ("Zoom to fit", lambda: self.view.fit()),
                           ("Save into pack", self._save_pack), ("Save as file…", self._save_dialog),
                           ("Export PNG…", self._export_dialog)):
            btn = QPushButton(text)
            btn.clicked.connect(slot)
            bar.addWidget(btn)
            if text == "Undo":
                self.undo.canUndoChanged.connect(btn.setEnabled)
                btn.setEnabled(False)
            if text == "Redo":
                self.undo.canRedoChanged.connect(btn.setEnabled)
                btn.setEnabled(False)
        bar.addStretch(1)
        lay.addLayout(bar)
        bar2 = QHBoxLayout()
        self.tool_box = QComboBox()
        for label, name in (("Place counters", "place"), ("Line of sight (Shift: all it sees)", "los"),
                            ("Movement reach and path", "move"), ("Paint a zone", "zone")):
            self.tool_box.addItem(label, name)
        bar2.addWidget(QLabel("Tool"))
        bar2.addWidget(self.tool_box)
        self.unit_box = QComboBox()
        seen_types = set()
        for side in se.SIDES:
            for f in self.rosters[side]:
                for type_id in sorted(f.units):
                    if type_id not in seen_types:
                        seen_types.add(type_id)
                        self.unit_box.addItem(f"{self.unit(type_id).get('name', type_id)} ({side})", type_id)
        self.unit_label = QLabel("Unit type")
        bar2.addWidget(self.unit_label)
        bar2.addWidget(self.unit_box)
        self.turn_label = QLabel("Turn")
        self.turn = QSpinBox()  # visibility may change by turn (nightfall, §3)
        self.turn.setRange(1, max(1, int((self.scenario.conditions or {}).get("turns", 1) or 1)))
        self.turn.valueChanged.connect(self._turn_changed)
        bar2.addWidget(self.turn_label)
        bar2.addWidget(self.turn)
        self.cursor = QLabel("")
        self.cursor.setMinimumWidth(320)
        bar2.addStretch(1)
        bar2.addWidget(self.cursor)
        lay.addLayout(bar2)
        split = QSplitter(Qt.Horizontal)
        left = QWidget()
        lv = QVBoxLayout(left)
        lv.setContentsMargins(0, 0, 0, 0)
        self.palette = FormationPalette(self)
        self.left_pages = QStackedWidget()
        self.left_pages.addWidget(self.palette)
        lv.addWidget(self.left_pages, 1)
        self.canvas = BoardCanvas(self)
        self.canvas.set_board(self.field.board, self.field.terrain,
                              {m.id: m.raw for m in self.scenario.configuration.maps})
        self.view = CanvasView(self.canvas)
        self.tool = PlacementTool(self)
        self.view.tool = self.tool
        self.view.drop_handler = self.drop
        self.minimap = Minimap(self.canvas, self.view)
        lv.addWidget(self.minimap, 0, Qt.AlignHCenter)
        split.addWidget(left)
        right = QWidget()
        rv = QVBoxLayout(right)
        rv.setContentsMargins(0, 0, 0, 0)
        rv.addWidget(self.view, 1)
        self.info = QLabel("Drag counters or formations from the list onto the board.")
        self.info.setWordWrap(True)
        rv.addWidget(self.info)
        self.answer = QPlainTextEdit()
        self.answer.setReadOnly(True)
        self.answer.setMaximumHeight(130)
        self.answer.setFont(QFont("DejaVu Sans Mono", 9))
        rv.addWidget(self.answer)
        self.findings_list = QListWidget()
        self.findings_list.setMaximumHeight(130)
        self.findings_list.currentRowChanged.connect(self._finding_chosen)
        rv.addWidget(self.findings_list)
        split.addWidget(right)
        split.setSizes([300, 900])
        lay.addWidget(split, 1)
        self.view.hovered.connect(self._hover)
        self.tools = {"place": self.tool,
                      "los": LosTool(self.field, self.canvas, self.answer.setPlainText),
                      "move": MoveTool(self.field, self.model, self.canvas, self.answer.setPlainText,
                                       self.unit_box.currentData)}
        self.zones = ZonePanel(ctx, self.scenario.id, self.field, self.canvas)
        self.zones.applied.connect(lambda *_: self.reload_rules())
        self.left_pages.addWidget(self.zones)
        self.tools["zone"] = ZonePaintTool(self.zones)
        self.tool_box.currentIndexChanged.connect(lambda _: self.use_tool(self.tool_box.currentData()))
        if setup_id and ctx.ws.exists("setup", setup_id):  # editing a setup of the pack
            self.start_box.setCurrentIndex(max(0, self.start_box.findData(("pack", setup_id))))
            self.start("pack", setup_id, undoable=False)
        else:
            self.start("empty", None, undoable=False)
        self.use_tool("place")
        # The pack edited anywhere else (a map painted, a card renumbered, a zone typed in the
        # form) is read again here: the board, its LOS and movement tools, the lists and the
        # checks never show an older pack than the last edit (principle 12). Hidden: on show.
        self._stale = False
        self.reloading = False  # the edited pack being read on a thread (reload_rules)
        self._follow = QTimer(self)
        self._follow.setSingleShot(True)
        self._follow.setInterval(FOLLOW_MS)
        self._follow.timeout.connect(self._follow_pack)
        ctx.doc.changed.connect(self._doc_changed)
        ctx.doc.reset.connect(self._doc_reset)
        ctx.doc.structure.connect(self._doc_structure)

    def _doc_changed(self, kind: str, oid: str, pointer: str) -> None:
        if kind in FOLLOWED_KINDS and (kind != "scenario" or oid == self.scenario.id):
            self._mark_stale()
        elif kind == "setup" and oid == self.pack_setup:
            # the pack's setup shown here, edited elsewhere (its JSON, an undo of "Save into pack"):
            # shown as it is now, one step of this board's own undo
            value = self.ctx.ws.value("setup", oid)
            if isinstance(value, dict) and value != self.setup:
                self.push(json.loads(json.dumps(value)), f"Setup {oid} as edited in the pack")

    def _doc_reset(self) -> None:
        self._mark_stale()

    def _doc_structure(self, touched: list) -> None:
        """A renamed card or unit type: the setup being made follows its new id."""
        if len(touched) >= 2 and touched[0][0] == touched[1][0] and not self.ctx.ws.exists(*touched[0]):
            kind, old, new = touched[0][0], touched[0][1], touched[1][1]
            key = {"formation-card": "card", "unit-type": "type"}.get(kind)
            if key is not None and self.ctx.ws.exists(kind, new):
                for side in (self.setup.get("sides") or {}).values():
                    for p in side.get("placements", ()):
                        if str(p.get(key)) == str(old):
                            p[key] = int(new) if key == "card" else new
        self._mark_stale()

    def _mark_stale(self) -> None:
        self._stale = True
        if self.isVisible():
            self._follow.start()

    def _follow_pack(self) -> None:
        if not self._stale or not self.isVisible():
            return
        self._stale = False
        self.reload_rules()

    def _turn_changed(self, turn: int) -> None:
        """Line of sight at that turn's visibility (the same as ``sandtable los --turn``)."""
        self.tools["los"].field = Battlefield.for_scenario(self.model, self.scenario, turn)
        self.tools["los"].clear()
        self.answer.setPlainText(f"Turn {turn}: visibility {self.tools['los'].field.visibility} hexes.")

    def reload_rules(self, wait: bool = False) -> bool:
        """Read the scenario again from the pack as edited (after a zone is painted into it,
        or any edit elsewhere): zones, formations and the checks follow; the setup stays.
        The pack is checked and the board laid out on a thread (0.2-0.4 s: the zone "Apply"
        froze the window that long); ``wait``: block until it is done (scripts)."""
        from ..checking import Checker
        checker = Checker(self.ctx.ws)
        snap = checker.snapshot()
        self._reload_gen = gen = getattr(self, "_reload_gen", 0) + 1
        self.reloading = True
        self._stale = False  # read now: a pending follow-up has nothing left to read
        if hasattr(self, "_follow"):
            self._follow.stop()
        sid, turn = self.scenario.id, self.turn.value()

        def work():
            try:
                out = _read_scenario(checker, snap, sid, turn)
            except Exception as exc:  # noqa: BLE001 - a bug: said in the panel, details on stderr
                out = internal_error("reading the edited scenario", exc)
            try:
                self._reload_bridge.done.emit(gen, out)
            except RuntimeError:
                pass  # the workbench was closed meanwhile
        if not hasattr(self, "_reload_bridge"):
            self._reload_bridge = _ReloadBridge(self)
            self._reload_bridge.done.connect(self._reloaded)
        thread = threading.Thread(target=work, name="sandtable-reload", daemon=True)
        thread.start()
        if wait:
            thread.join()
            QApplication.sendPostedEvents(self._reload_bridge)
        return True

    def _reloaded(self, gen: int, out) -> None:
        if gen != getattr(self, "_reload_gen", 0):
            return  # a newer edit is being read: it will be shown instead
        self.reloading = False
        if isinstance(out, str):
            self.info.setText(out)
            return
        model, scenario, field, los_field, rosters = out
        same_board = (self.field is not None and field.board.cells.keys() == self.field.board.cells.keys()
                      and field.terrain.hexes == self.field.terrain.hexes
                      and field.terrain.road_sides == self.field.terrain.road_sides)
        self.model, self.scenario, self.field = model, scenario, field
        self.rosters = rosters
        if not same_board:  # a zone or a card edited: the hexes stay drawn (0.1 s saved)
            self.canvas.set_board(field.board, field.terrain, {m.id: m.raw for m in scenario.configuration.maps})
        self.tools["los"].field = los_field
        self.tools["move"].field, self.tools["move"].model = field, model
        self.zones.field = field
        self.zones.zctx = ZoneContext(field.board, field.terrain)
        self.zones.refresh_targets()
        self.current_card = None
        self._apply(self.setup)
        if self.view.tool in (self.tools["los"], self.tools["move"]):
            self.view.tool.refresh()  # the answer on screen is asked again of the new terrain

    # --- data helpers -----------------------------------------------------------------

    def unit(self, type_id: str) -> dict:
        return self.ctx.ws.value("unit-type", type_id) or {"id": type_id, "name": type_id}

    def designation(self, card: int) -> str:
        c = self.model.cards.get(card)
        return c.designation if c is not None and card != se.TRANSPORTS else ""

    def resolve(self, ref: str) -> str | None:
        return self.field.board.resolve(ref)

    def stack_refs(self, key: str) -> list:
        return se.at_hex(self.setup, key, self.resolve)

    def entry_view(self, ref) -> dict:
        e = se.entry(self.setup, ref)
        card = e.get("card", se.TRANSPORTS)
        return {"unit": self.unit(e["type"]), "designation": self.designation(card), "facing": e.get("facing"),
                "hidden": e.get("hidden"), "entrenched": e.get("entrenched"), "loaded": "loaded_in" in e,
                "ref": ref}

    def formation(self, side: str, card: int) -> se.Formation | None:
        return next((f for f in self.rosters.get(side, ()) if f.card == card), None)

    # --- edits ------------------------------------------------------------------------

    def start(self, how: str, arg=None, undoable: bool = True) -> None:
        if how == "auto":
            try:
                new = auto_setup(self.model, self.scenario, arg or 0)
            except AutoSetupError as exc:
                self.info.setText(f"No automatic setup: {exc}")
                return
        elif how == "pack":
            new = json.loads(json.dumps(self.ctx.ws.value("setup", arg)))
            self.pack_setup = arg
        else:
            new = se.empty_setup(self.scenario)
        if undoable:
            self.push(new, f"Start from {how}")
        else:
            self._apply(new)

    def push(self, new: dict, text: str) -> None:
        self.undo.push(SetupChange(self, self.setup, new, text))

    def _apply(self, setup: dict) -> None:
        self.setup = setup
        t0 = time.perf_counter()
        self.recheck()
        self.check_ms = (time.perf_counter() - t0) * 1000
        self.redraw()
        self.changed.emit()

    def drop(self, key: str | None, mime) -> bool:
        """A palette drag dropped on the board (key None: off the map, nothing happens)."""
        try:
            data = json.loads(bytes(mime.data(UNITS_MIME)).decode())
            side, items = data["side"], [tuple(i) for i in data["items"]]
        except (ValueError, KeyError, TypeError):
            return False
        if key is not None and data.get("fort") in se.FORT_TYPES:
            self.push(se.add_fortification(self.setup, side, data["fort"], key), f"Place {data['fort']} in {key}")
            return True
        if key is None or not items:
            return False
        card = items[0][0]
        f = self.formation(side, card)
        allowed = None
        if f is not None and f.zone is not None:
            try:
                allowed = set(self.field.zone(f.zone))
            except ZoneError:
                allowed = None
        hexes = [key] if len(items) == 1 else se.allocate(self.model, self.field, self.setup, side, items, key, allowed)
        self.current_card = (side, card)
        what = f"{len(items)} counters of {f.label if f else card}" if len(items) > 1 else \
            f"{self.unit(items[0][1]).get('name', items[0][1])}"
        self.push(se.place(self.setup, side, items, hexes), f"Place {what} in {key}")
        return True

    def move(self, refs: list, origin: str, key: str) -> None:
        """Move counters from ``origin`` to ``key``; a formation keeps its shape."""
        if len(refs) > 1 and len({self.resolve(se.entry(self.setup, r)["hex"]) for r in refs}) > 1:
            board = self.field.board
            (oq, or_), (kq, kr) = board.axial(origin), board.axial(key)
            hexes = []
            for r in refs:
                q, rr = board.axial(self.resolve(se.entry(self.setup, r)["hex"]))
                target = board.usable_at.get((q + kq - oq, rr + kr - or_))
                if target is None:
                    self.info.setText(f"The formation would leave the board if moved to {key}; nothing moved.")
                    return
                hexes.append(target)
        else:
            hexes = [key] * len(refs)
        first = se.entry(self.setup, refs[0])
        self.current_card = (refs[0][0], first.get("card", se.TRANSPORTS))
        self.push(se.move(self.setup, refs, hexes), f"Move {len(refs)} counter(s) from {origin} to {key}")

    def remove(self, refs: list) -> None:
        self.push(se.remove(self.setup, refs), f"Take {len(refs)} counter(s) off the board")

    def set_flag(self, ref, name: str, value) -> None:
        e = se.entry(self.setup, ref)
        self.push(se.set_flag(self.setup, ref, name, value), f"{name} of {e['type']} in {e['hex']}")

    def use_tool(self, name: str) -> None:
        """Switch what a click on the board does; the analysis tools hide the placement lights."""
        self.tool_box.setCurrentIndex(self.tool_box.findData(name))
        for n in ("los-line", "los-steps", "los-block", "seen", "los-from", "reach", "path", "range"):
            self.canvas.clear_overlay(n)
        self.view.tool = self.tools[name]
        placing = name == "place"
        self.left_pages.setCurrentWidget(self.zones if name == "zone" else self.palette)
        if "paint" in self.canvas.overlays:
            self.canvas.overlays["paint"].setVisible(name == "zone")
        self.unit_box.setVisible(name == "move")
        self.unit_label.setVisible(name == "move")
        self.turn.setVisible(name == "los")
        self.turn_label.setVisible(name == "los")
        self.answer.setVisible(name in ("los", "move"))
        self.findings_list.setVisible(placing)
        for n in ("legal", "full", "radius"):
            if n in self.canvas.overlays:
                self.canvas.overlays[n].setVisible(placing)
        if name in ("los", "move"):
            self.answer.setPlainText({"los": "Click a hex, then the target hex. Shift-click a hex: every hex it sees.",
                                      "move": "Choose a unit type, click its hex: where it goes this turn. "
                                              "Click another hex: the cheapest path."}[name])

    def set_side(self, side: str) -> None:
        self.side = side
        self.side_box.blockSignals(True)
        self.side_box.setCurrentIndex(self.side_box.findData(side))
        self.side_box.blockSignals(False)
        self.palette.fill(side)
        self.show_feedback()

    # --- checking and drawing -----------------------------------------------------------

    def recheck(self) -> None:
        def report(code, message, pointer="", **kw):
            return finding(code, message, file="(setup being placed)", pointer=pointer or None,
                           subject=f"setup {self.setup.get('id')}", **kw)
        try:
            self.findings = sorted(check_setup(self.model, self.setup, report, self.field), key=sort_key)
        except (KeyError, TypeError, ValueError) as exc:  # a hand-broken document loaded from the pack
            self.findings = [report("setup-hex", f"this setup cannot be checked: {exc}")]

    def redraw(self) -> None:
        stacks: dict[str, list[dict]] = {}
        for side in se.SIDES:
            data = (self.setup.get("sides") or {}).get(side) or {}
            for lst in ("placements", "transports"):
                for i, p in enumerate(data.get(lst, ())):
                    key = self.resolve(p["hex"])
                    if key is not None:
                        stacks.setdefault(key, []).append(self.entry_view((side, lst, i)))
        for key in stacks:  # units on top of the transports that carry them
            stacks[key].sort(key=lambda e: e["ref"][1] == "transports")
        self.canvas.set_stacks(stacks)
        self.palette.fill(self.side)
        self.findings_list.clear()
        for f in self.findings:
            sec = f" [§{f.section}]" if f.section else ""
            item = QListWidgetItem(f"{f.severity} {f.code}: {f.message}{sec}")
            item.setForeground(QColor("#b71c1c") if f.severity == Severity.ERROR else QColor("#8d6e00"))
            self.findings_list.addItem(item)
        errors = sum(1 for f in self.findings if f.severity == Severity.ERROR)
        placed = sum(len(((self.setup.get("sides") or {}).get(s) or {}).get(l, ()))
                     for s in se.SIDES for l in ("placements", "transports"))
        self.info.setText(f"{placed} counters on the board · {errors} error(s), "
                          f"{len(self.findings) - errors} warning(s)")
        hexes = set()
        for f in self.findings:
            key = self._finding_hex(f)
            if key:
                hexes.add(key)
        self.canvas.overlay("finding", hexes, outline=overlay_colour("finding"), z=25)
        self.show_feedback()

    def _finding_hex(self, f) -> str | None:
        ptr = (f.location.pointer or "").split("/")
        if len(ptr) >= 5 and ptr[1] == "sides" and ptr[3] in ("placements", "transports", "fortifications"):
            try:
                e = self.setup["sides"][ptr[2]][ptr[3]][int(ptr[4])]
            except (KeyError, IndexError, ValueError):
                return None
            return self.resolve(e.get("hex", ""))
        return None

    def _finding_chosen(self, row: int) -> None:
        if 0 <= row < len(self.findings):
            key = self._finding_hex(self.findings[row])
            if key:
                self.view.centerOn(self.canvas.centre(key))

    def feedback_for(self, ref) -> None:
        e = se.entry(self.setup, ref)
        self.feedback_for_card(ref[0], e.get("card", se.TRANSPORTS), e["type"])

    def feedback_for_card(self, side: str, card: int, type_id: str | None = None) -> None:
        if self.current_card != (side, card):
            self.current_card = (side, card)
            self.show_feedback(type_id)

    def feedback_for_fort(self, side: str, kind: str) -> None:
        """While a fortification marker is dragged: where the scenario allows it."""
        if self.current_card == (side, kind):
            return
        self.current_card = (side, kind)
        for name in ("legal", "full", "radius"):
            self.canvas.clear_overlay(name)
        count, zone = se.fortification_allowance(self.scenario, side).get(kind, (0, None))
        legal = set(self.field.board.usable)
        if zone is not None:
            try:
                legal = set(self.field.zone(zone))
            except ZoneError:
                pass
        self.canvas.overlay("legal", legal, z=5)
        self.info.setText(f"{side} {kind}: {count} allowed, anywhere legal in {len(legal)} hexes")

    def show_feedback(self, type_id: str | None = None) -> None:
        """The current formation's legal hexes, full hexes, and its separation radius."""
        for name in ("legal", "full", "radius", "fortifications"):
            self.canvas.clear_overlay(name)
        self._draw_fortifications()
        if self.current_card is None:
            return
        side, card = self.current_card
        if isinstance(card, str):  # a fortification marker was the last thing dragged
            return
        f = self.formation(side, card)
        if f is None:
            return
        legal = set(self.field.board.usable)
        if f.zone is not None:
            try:
                legal = set(self.field.zone(f.zone))
            except ZoneError:
                pass
        unit = self.model.unit_types.get(type_id) if type_id else None
        full = se.full_hexes(self.model, self.field, self.setup, side, bool(unit and unit.is_vehicle))
        hidden = (self.scenario.sides[side].raw.get("hidden_observers") or {})
        if unit is not None and unit.unit_class == "forward-observer" and hidden.get("allowed") and "zone" in hidden:
            try:  # where this FO may set up hidden (§12.21)
                self.canvas.overlay("hidden-zone", self.field.zone(hidden["zone"]), outline=QColor("#1a237e"), z=8)
            except ZoneError:
                pass
        else:
            self.canvas.clear_overlay("hidden-zone")
        self.canvas.overlay("legal", legal - full, z=5)
        self.canvas.overlay("full", full, z=6)
        centre, radius, outside = se.formation_centre(self.model, self.field, self.setup, side, card)
        text = f"{f.label}: {len(legal)} legal setup hexes"
        if centre and radius is not None:
            # the edge of the radius (hexes at exactly that distance) and its centre
            ring = [k for k in self.field.board.usable if self.field.board.distance(k, centre) == radius]
            self.canvas.overlay("radius", ring + [centre], outline=overlay_colour("radius"), z=7)
            text += f"; separation radius {radius} around {centre}"
            if outside:
                text += f", outside it: {', '.join(outside)}"
        self.info.setText(text + f" · setup checked in {self.check_ms:.0f} ms")

    def _draw_fortifications(self) -> None:
        forts, labels = [], {}
        for side in se.SIDES:
            data = (self.setup.get("sides") or {}).get(side) or {}
            for ref in data.get("minefields", ()):
                key = self.resolve(ref)
                if key:
                    forts.append(key)
                    labels[key] = "mines"
            for f in data.get("fortifications", ()):
                key = self.resolve(f["hex"])
                if key:
                    forts.append(key)
                    labels[key] = {"wire": "wire", "entrenchment": "trench", "bunker": "bunker"}[f["type"]]
        if forts:
            self.canvas.overlay("fortifications", forts, fill=QColor(90, 60, 40, 60), labels=labels, z=4)

    def _hover(self, key: str) -> None:
        t = self.field.terrain.hexes[key]
        refs = self.stack_refs(key)
        # the units first: when placing, what stands in a hex matters more than its ground
        units = "; ".join(f"{self.designation(se.entry(self.setup, r).get('card', 0))} "
                          f"{self.unit(se.entry(self.setup, r)['type']).get('name')}".strip() for r in refs)
        parts = [f"{key}: " + (f"{len(refs)} counter(s) — {units} · " if refs else "") + f"level {t.level}",
                 "building" if t.building else t.ground]
        roads = sorted({kind for pair, kind in self.field.terrain.road_sides.items() if key in pair})
        if roads:
            parts.append(" and ".join(roads))
        if t.symbols:
            parts.append(", ".join(t.symbols))
        self.cursor.setText(" · ".join(parts))
        self.view.setToolTip(" · ".join(parts))

    # --- right-click menu -------------------------------------------------------------

    def stack_menu(self, key: str) -> QMenu | None:
        refs = self.stack_refs(key)
        forts = se.fortifications_at(self.setup, key, self.resolve)
        if not refs and not forts:
            return None
        menu = QMenu(self)
        for side, kind in sorted(set(forts)):
            act = menu.addAction(f"Take off one {side} {kind.rstrip('s')} marker")
            act.triggered.connect(lambda _=False, s_=side, k=kind: self.push(
                se.remove_fortification(self.setup, s_, k, key, self.resolve), f"Take {k} off {key}"))
        if not refs:
            return menu
        side_transports = {}
        for r in refs:
            if r[1] == "transports":
                side_transports.setdefault(r[0], []).append(r[2])
        for ref in refs:
            e = se.entry(self.setup, ref)
            unit = self.unit(e["type"])
            sub = menu.addMenu(f"{self.designation(e.get('card', 0))} {unit.get('name', e['type'])}".strip())
            face = sub.addMenu("Facing")
            for i, name in enumerate(FACINGS):
                act = face.addAction(f"{i}: {name}")
                act.setCheckable(True)
                act.setChecked(e.get("facing") == i)
                act.triggered.connect(lambda _=False, r=ref, i=i: self.set_flag(r, "facing", i))
            if ref[1] == "placements":
                for flag, label in (("entrenched", "Entrenched"), ("hidden", "Hidden"), ("in_bunker", "In a bunker")):
                    act = sub.addAction(label)
                    act.setCheckable(True)
                    act.setChecked(bool(e.get(flag)))
                    act.triggered.connect(lambda checked, r=ref, f=flag: self.set_flag(r, f, bool(checked)))
                for t in side_transports.get(ref[0], ()):
                    tr = self.setup["sides"][ref[0]]["transports"][t]
                    act = sub.addAction(f"Loaded in transport {t} ({self.unit(tr['type']).get('name', tr['type'])})")
                    act.setCheckable(True)
                    act.setChecked(e.get("loaded_in") == t)
                    act.triggered.connect(lambda checked, r=ref, t=t: self.set_flag(r, "loaded_in",
                                                                                    t if checked else None))
            act = sub.addAction("Take off the board")
            act.triggered.connect(lambda _=False, r=ref: self.remove([r]))
        menu.addSeparator()
        act = menu.addAction("Take the whole stack off")
        act.triggered.connect(lambda _=False, rs=refs: self.remove(rs))
        return menu

    # --- saving -----------------------------------------------------------------------

    def save_to(self, path: str | Path) -> Path:
        path = Path(path)
        atomic.write_json(path, self.setup)
        return path

    def write_to_pack(self) -> bool:
        """Write the setup into the pack as the setup object of its id, a new one if need be
        (one undoable step of the pack's history; saved with the pack or as a mod pack)."""
        oid = self.setup.get("id")
        if not oid:
            return False
        doc = self.ctx.doc
        value = json.loads(json.dumps(self.setup))
        if not self.ctx.ws.exists("setup", oid):
            lifecycle = getattr(doc, "lifecycle", None)
            if lifecycle is None:
                return False
            doc.undo_stack.beginMacro(f"New setup {oid} placed on the board")
            try:
                lifecycle.new_setup(self.scenario.id, oid, automatic=False)
                doc.set("setup", oid, "", value, text=f"Placed setup {oid}")
            finally:
                doc.undo_stack.endMacro()
            return True
        doc.set("setup", oid, "", value, text=f"Placed setup {oid}")
        return True

    def _save_pack(self) -> None:
        try:
            done = self.write_to_pack()
        except ValueError as exc:  # the lifecycle refuses the id (it says why)
            self.info.setText(f"Not written: {exc}")
            return
        self.info.setText(f"Setup {self.setup.get('id')} written into the pack (save the pack to keep it)." if done
                          else "This editor cannot add objects to the pack: save the setup as a file.")

    def _save_dialog(self) -> None:
        path, _ = QFileDialog.getSaveFileName(self, "Save setup", f"{self.setup.get('id', 'setup')}.json",
                                              "Setup (*.json)")
        if path:
            self.save_to(path)
            self.info.setText(f"Saved {path}; check it with: sandtable check-setup {path}")

    def _export_dialog(self) -> None:
        path, _ = QFileDialog.getSaveFileName(self, "Export the view", "board.png", "PNG (*.png)")
        if path:
            self.view.export_png(path)

    def showEvent(self, event) -> None:
        super().showEvent(event)
        if getattr(self, "_stale", False):
            self._follow.start()
        if self.field is not None and not getattr(self, "_fitted", False):
            self._fitted = True
            self.view.fit()
            self.minimap.refit()
