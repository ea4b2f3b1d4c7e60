"""Zone painting on the board: brush, rectangle, flood fill and edge pick; the right button
erases. The painted hexes are written as the simplest zone expression the language has
(``rules.desert_steel.zone_simplify``), shown with their count and editable as text;
"Apply" writes the expression into the scenario (one undoable edit of the pack).
"""
from __future__ import annotations

import json

from PySide6.QtCore import QPointF, QRectF, Qt, Signal
from PySide6.QtGui import QColor, QFont, QPen, QUndoCommand, QUndoStack
from PySide6.QtWidgets import (QComboBox, QFormLayout, QHBoxLayout, QLabel, QPlainTextEdit, QPushButton, QSpinBox,
                               QVBoxLayout, QWidget)

from sandtable.rules import hexmath
from sandtable.rules.desert_steel.zone_simplify import simplify
from sandtable.rules.desert_steel.zones import ZoneContext, ZoneError, evaluate

from .board_canvas import overlay_colour

MODES = (("Brush", "brush"), ("Rectangle", "rect"), ("Fill: same elevation", "fill-level"),
         ("Fill: same terrain", "fill-terrain"), ("Fill: up to a road", "fill-road"))


def zone_targets(s: dict) -> list[tuple[str, str, dict | None]]:
    """(label, JSON pointer in the scenario, current expression) of every zone it names."""
    out = []
    for side in ("allied", "axis"):
        data = (s.get("sides") or {}).get(side) or {}
        for i, g in enumerate(data.get("formations", [])):
            cards = ", ".join(str(n) for n in g.get("cards", []))
            if "setup" in g:
                out.append((f"{side}: setup of {cards}", f"/sides/{side}/formations/{i}/setup", g["setup"]))
            elif "enter" in g:
                out.append((f"{side}: entry of {cards} (turn {g['enter'].get('turn')})",
                            f"/sides/{side}/formations/{i}/enter/zone", g["enter"].get("zone")))
        for i, r in enumerate(data.get("reinforcements", [])):
            if "zone" in r:
                out.append((f"{side}: reinforcements {', '.join(str(n) for n in r['cards'])} (turn {r['turn']})",
                            f"/sides/{side}/reinforcements/{i}/zone", r["zone"]))
        for kind, f in (data.get("fortifications") or {}).items():
            if "zone" in f:
                out.append((f"{side}: {kind} zone", f"/sides/{side}/fortifications/{kind}/zone", f["zone"]))
        if "zone" in (data.get("hidden_observers") or {}):
            out.append((f"{side}: hidden observers", f"/sides/{side}/hidden_observers/zone",
                        data["hidden_observers"]["zone"]))
    return out


def flood(field, start: str, how: str) -> set[str]:
    """Hexes joined to ``start`` through neighbours of the same elevation, the same terrain,
    or any terrain but not past a road (road hexes are the fill's border)."""
    t = field.terrain
    road_hexes = {k for pair in t.road_sides for k in pair}

    def same(a, b):
        if how == "fill-level":
            return t.level(a) == t.level(b)
        if how == "fill-terrain":
            ha, hb = t.hexes[a], t.hexes[b]
            return (ha.level, ha.building, ha.ground, ha.symbols) == (hb.level, hb.building, hb.ground, hb.symbols)
        return True
    out, frontier = {start}, [start]
    while frontier:
        k = frontier.pop()
        if how == "fill-road" and k in road_hexes and k != start:
            continue
        for n in field.board.neighbours(k):
            if n not in out and same(start, n):
                out.add(n)
                frontier.append(n)
    return out


class ZonePaintTool:
    def __init__(self, panel: "ZonePanel"):
        self.panel = panel
        self.erasing = False
        self.anchor: QPointF | None = None
        self.band = None

    def press(self, view, key, event) -> bool:
        if event.button() not in (Qt.LeftButton, Qt.RightButton):
            return False
        self.erasing = event.button() == Qt.RightButton
        mode = self.panel.mode()
        if mode == "rect":
            self.anchor = view.mapToScene(event.position().toPoint())
            self.band = view.canvas().addRect(QRectF(self.anchor, self.anchor), QPen(QColor("#d81b60"), 1.5,
                                                                                    Qt.DashLine))
            self.band.setZValue(60)
        elif mode.startswith("fill"):
            if key is not None:
                self.panel.stroke(flood(self.panel.field, key, mode), self.erasing)
        elif key is not None:
            self.panel.stroke(self.brush(key), self.erasing, finish=False)
        return True

    def brush(self, key: str) -> set[str]:
        board = self.panel.field.board
        at = board.usable_at
        return {at[a] for a in hexmath.within(board.axial(key), self.panel.size.value()) if a in at}

    def move(self, view, key, event) -> None:
        mode = self.panel.mode()
        if mode == "rect" and self.band is not None:
            self.band.setRect(QRectF(self.anchor, view.mapToScene(event.position().toPoint())).normalized())
        elif mode == "brush" and key is not None:
            self.panel.stroke(self.brush(key), self.erasing, finish=False)

    def release(self, view, key, event) -> None:
        mode = self.panel.mode()
        if mode == "rect" and self.band is not None:
            rect = QRectF(self.anchor, view.mapToScene(event.position().toPoint())).normalized()
            view.canvas().removeItem(self.band)
            self.band = None
            geo = view.canvas().geo
            self.panel.stroke({k for k in geo.board.usable if rect.contains(geo.centres[k])}, self.erasing)
        elif mode == "brush":
            self.panel.finish()

    def context_menu(self, view, key):
        return None  # the right button erases here


class PaintStep(QUndoCommand):
    """One change of the painted hexes (a stroke, a fill, a zone shown, a clear): undoable in the
    panel, apart from the pack's history until "Apply" writes it."""

    def __init__(self, panel: "ZonePanel", old, new, text: str):
        super().__init__(text)
        self.panel, self.old, self.new = panel, old, new

    def redo(self) -> None:
        self.panel._show_state(*self.new)

    def undo(self) -> None:
        self.panel._show_state(*self.old)


class ZonePanel(QWidget):
    """Which zone, how to paint, and the expression (editable) with its hex count."""

    applied = Signal(str, object)  # pointer, expression

    def __init__(self, ctx, scenario_id: str, field, canvas, parent=None):
        super().__init__(parent)
        self.ctx, self.sid, self.field, self.canvas = ctx, scenario_id, field, canvas
        self.zctx = ZoneContext(field.board, field.terrain)
        self.painted: set[str] = set()
        lay = QVBoxLayout(self)
        lay.setContentsMargins(4, 4, 4, 4)
        form = QFormLayout()
        self.target = QComboBox()
        self.target.addItem("(a new zone, not yet in the scenario)", None)
        for label, ptr, expr in zone_targets(ctx.ws.value("scenario", scenario_id) or {}):
            self.target.addItem(label, ptr)
        self.target.setSizeAdjustPolicy(QComboBox.AdjustToMinimumContentsLengthWithIcon)  # long labels: no wide panel
        self.target.setMinimumContentsLength(16)
        self.target.currentIndexChanged.connect(lambda _: self.target_chosen())
        self.history = QUndoStack(self)
        self.dirty = False  # painted since the zone was last shown or applied
        zrow = QHBoxLayout()
        zrow.addWidget(self.target, 1)
        self.load_button = QPushButton("Show its zone")
        self.load_button.setToolTip("Replace the painting with the zone the scenario has now (undoable)")
        self.load_button.clicked.connect(self.load_target)
        zrow.addWidget(self.load_button)
        form.addRow("Zone", zrow)
        self.mode_box = QComboBox()
        for label, name in MODES:
            self.mode_box.addItem(label, name)
        form.addRow("Paint with", self.mode_box)
        self.size = QSpinBox()
        self.size.setRange(0, 6)
        form.addRow("Brush radius (hexes)", self.size)
        edge_row = QHBoxLayout()
        self.edge = QComboBox()
        self.edge.addItems(["north", "east", "south", "west"])
        self.depth = QSpinBox()
        self.depth.setRange(1, 40)
        self.depth.setValue(3)
        self.edge_map = QComboBox()
        self.edge_map.addItem("whole board", None)
        for m in field.board.maps():
            self.edge_map.addItem(f"map {m}", m)
        pick = QPushButton("Pick edge")
        pick.clicked.connect(self.pick_edge)
        for w in (self.edge, self.depth, self.edge_map, pick):
            edge_row.addWidget(w)
        form.addRow("Edge", edge_row)
        lay.addLayout(form)
        hint = QLabel("Left button paints, right button erases. The expression below is the simplest "
                      "the zone language writes for the painted hexes; edit it and press Show.")
        hint.setWordWrap(True)
        hint.setStyleSheet("color: #555")
        lay.addWidget(hint)
        self.count = QLabel("")
        lay.addWidget(self.count)
        self.text = QPlainTextEdit()
        self.text.setFont(QFont("DejaVu Sans Mono", 9))
        lay.addWidget(self.text, 1)
        row = QHBoxLayout()
        for label, slot in (("Show", self.show_text), ("Clear", self.clear), ("Apply to scenario", self.apply)):
            b = QPushButton(label)
            b.clicked.connect(slot)
            row.addWidget(b)
        lay.addLayout(row)
        urow = QHBoxLayout()
        for label, slot, signal in (("Undo paint", self.history.undo, self.history.canUndoChanged),
                                    ("Redo paint", self.history.redo, self.history.canRedoChanged)):
            b = QPushButton(label)
            b.clicked.connect(slot)
            b.setEnabled(False)
            signal.connect(b.setEnabled)
            urow.addWidget(b)
        urow.addStretch(1)
        lay.addLayout(urow)
        self.note = QLabel("")
        self.note.setWordWrap(True)
        self.note.setStyleSheet("color: #1b5e20")
        lay.addWidget(self.note)
        self.error = QLabel("")
        self.error.setStyleSheet("color: #b71c1c")
        self.error.setWordWrap(True)
        lay.addWidget(self.error)
        self.expression: dict = {"hexes": []}

    def mode(self) -> str:
        return self.mode_box.currentData()

    # --- painting ---------------------------------------------------------------------

    def stroke(self, keys: set[str], erase: bool, finish: bool = True) -> None:
        if not hasattr(self, "_before"):
            self._before = (frozenset(self.painted), self.expression)  # where this stroke started
        if erase:
            self.painted -= keys
        else:
            self.painted |= keys
        self.canvas.overlay("paint", self.painted, z=12)
        self.count.setText(f"{len(self.painted)} hexes painted")
        if finish:
            self.finish()

    def finish(self) -> None:
        """Write the painted hexes as an expression (on release: simplifying takes a moment),
        one undoable step of the panel from where the stroke started."""
        before = getattr(self, "_before", (frozenset(self.painted), self.expression))
        if hasattr(self, "_before"):
            del self._before
        expr = simplify(self.painted, self.zctx)
        after = (frozenset(self.painted), expr)
        if after[0] == before[0]:
            self._show_state(*after)
            return
        self.dirty = True
        self.history.push(PaintStep(self, before, after, "Paint"))

    def _show_state(self, hexes, expr) -> None:
        self.painted = set(hexes)
        self.expression = expr
        self.canvas.overlay("paint", self.painted, z=12)
        self.text.setPlainText(json.dumps(expr, indent=1))
        self.count.setText(f"{len(self.painted)} hexes · {len(json.dumps(expr))} characters")
        self.error.setText("")

    def set_hexes(self, keys) -> None:
        self._before = (frozenset(self.painted), self.expression)
        self.painted = set(keys)
        self.finish()

    def pick_edge(self) -> None:
        expr = {"near_edge": {"edge": self.edge.currentText(), "within": self.depth.value()}}
        if self.edge_map.currentData():
            expr["near_edge"]["map"] = self.edge_map.currentData()
        self.show_expression(expr)

    def clear(self) -> None:
        self.set_hexes(set())

    def show_expression(self, expr, text: str = "Show an expression") -> bool:
        try:
            hexes = evaluate(expr, self.zctx)
        except (ZoneError, KeyError, TypeError, ValueError, AttributeError, StopIteration, IndexError) as exc:
            self.error.setText(f"This expression cannot be evaluated: {exc}")
            return False
        self.history.push(PaintStep(self, (frozenset(self.painted), self.expression), (frozenset(hexes), expr), text))
        self.count.setText(f"{len(hexes)} hexes")
        return True

    def show_text(self) -> bool:
        try:
            expr = json.loads(self.text.toPlainText())
        except ValueError as exc:
            self.error.setText(f"Not JSON: {exc}")
            return False
        if not isinstance(expr, dict) or len(expr) != 1:
            self.error.setText("A zone expression is an object with one operator, e.g. {\"map\": \"B\"}")
            return False
        return self.show_expression(expr)

    def refresh_targets(self) -> None:
        """The scenario's zones as they are now (a group added or removed elsewhere)."""
        ptr = self.target.currentData()
        self.target.blockSignals(True)
        while self.target.count() > 1:
            self.target.removeItem(1)
        for label, p, _ in zone_targets(self.ctx.ws.value("scenario", self.sid) or {}):
            self.target.addItem(label, p)
        i = self.target.findData(ptr)
        self.target.setCurrentIndex(i if i >= 0 else 0)
        self.target.blockSignals(False)

    def target_chosen(self) -> None:
        """A zone chosen before painting is shown, to paint from; chosen after painting, the
        painting stays, to be applied to it ("Show its zone" brings the scenario's in, undoably)."""
        ptr = self.target.currentData()
        if ptr is None:
            self.note.setText("")
            return
        if self.dirty and self.painted:
            self.note.setText(f"Your {len(self.painted)} painted hexes are kept: \"Apply to scenario\" writes them "
                              f"into {self.target.currentText()}; \"Show its zone\" shows its zone now.")
            return
        self.load_target()

    def load_target(self) -> None:
        ptr = self.target.currentData()
        if ptr is None:
            return
        expr = self.ctx.ws.get("scenario", self.sid, ptr)
        if expr and self.show_expression(expr, f"Show the zone of {self.target.currentText()}"):
            self.dirty = False
            self.note.setText("")

    def apply(self) -> bool:
        ptr = self.target.currentData()
        if ptr is None:
            self.error.setText("Choose the zone of the scenario to write (or copy the expression).")
            return False
        self.ctx.doc.set("scenario", self.sid, ptr, json.loads(json.dumps(self.expression)),
                         text=f"Paint zone {ptr} of {self.sid}")
        self.dirty = False
        self.note.setText(f"Written into {self.target.currentText()} (Edit ▸ Undo takes it back).")
        self.applied.emit(ptr, self.expression)
        return True
