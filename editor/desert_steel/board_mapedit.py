"""Map painting: printed colour, building and symbols per hex with a brush or a fill,
roads and tracks drawn hex to hex, undo, and the effective terrain under chosen battle
conditions (level, building or open, ground) drawn live while painting.

A map of the pack is edited through the pack's undo stack (one step per stroke); a new
map made here at a chosen size lives in this tab, with its own undo stack, until it is
saved as a document into a pack folder.
"""
from __future__ import annotations

import copy
import json
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QPen, QUndoCommand, QUndoStack
from PySide6.QtWidgets import (QButtonGroup, QCheckBox, QComboBox, QFileDialog, QFormLayout, QGridLayout,
                               QHBoxLayout, QLabel, QLineEdit, QPushButton, QRadioButton, QSpinBox, QSplitter,
                               QVBoxLayout, QWidget)

from sandtable.rules import atomic, board_style as style, hexmath
from sandtable.rules.board import Board, BoardError
from sandtable.rules.desert_steel import map_edit
from sandtable.rules.desert_steel.terrain import Conditions, TerrainMap

from .board_canvas import BoardCanvas, CanvasView, Minimap

CONDITIONS = ("relief", "zone", "urbanization", "road_network")
SYMBOLS = ("wadi", "oasis", "airfield", "escarpment", "well")


class _MapChange(QUndoCommand):
    def __init__(self, painter: "MapPainter", old: dict, new: dict, text: str):
        super().__init__(text)
        self.painter, self.old, self.new = painter, old, new

    def redo(self) -> None:
        self.painter._set_value(self.new)

    def undo(self) -> None:
        self.painter._set_value(self.old)


class MapPaintTool:
    def __init__(self, painter: "MapPainter"):
        self.p = painter
        self.chain: list[str] = []
        self.erasing = False

    def press(self, view, key, event) -> bool:
        if key is None or event.button() not in (Qt.LeftButton, Qt.RightButton):
            return False
        self.erasing = event.button() == Qt.RightButton
        self.chain = [key]
        if self.p.mode() == "fill":
            self.p.fill(key)
            self.chain = []
        elif self.p.mode() == "brush":
            self.p.brush_at(key, self.erasing)
        return True

    def move(self, view, key, event) -> None:
        if not self.chain or key is None or key == self.chain[-1]:
            return
        if self.p.mode() == "road" and not self.erasing:
            if self.p.board.distance(key, self.chain[-1]) == 1:
                self.chain.append(key)
                self.p.preview_road(self.chain)
        else:
            self.chain.append(key)
            if self.p.mode() == "brush":
                self.p.brush_at(key, self.erasing)
            elif self.p.mode() == "road":
                self.p.preview_road(self.chain)

    def release(self, view, key, event) -> None:
        chain, self.chain = self.chain, []
        if self.p.mode() == "road" and chain:
            self.p.finish_road(chain, self.erasing)
        elif self.p.mode() == "brush":
            self.p.commit("Paint hexes")


class MapPainter(QWidget):
    """Paint one map. ``map_id``: a map of the pack (None: start with a new map)."""

    def __init__(self, ctx, map_id: str | None = None, parent=None):
        super().__init__(parent)
        self.ctx = ctx
        self.map_id = map_id
        self.in_pack = map_id is not None and ctx.ws.exists("map", map_id)
        self.own_undo = QUndoStack(self)
        self.value: dict = copy.deepcopy(ctx.ws.value("map", map_id)) if self.in_pack else \
            map_edit.new_map("N", 12, 10)
        self.saved_value = copy.deepcopy(self.value)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        # conditions under which the effective terrain is drawn
        bar = QHBoxLayout()
        self.scenario = QComboBox()
        self.scenario.addItem("(conditions chosen here)", None)
        for sid in ctx.ws.keys("scenario"):
            s = ctx.ws.value("scenario", sid) or {}
            self.scenario.addItem(f"{s.get('number', '')} {(s.get('name') or {}).get('en', sid)}", sid)
        bar.addWidget(QLabel("Conditions of"))
        bar.addWidget(self.scenario)
        effects = self.effects() or {}
        defaults = {"relief": "hills", "zone": "sandy", "urbanization": "inhabited", "road_network": "moderate"}
        self.cond = {}
        for c in CONDITIONS:
            box = QComboBox()
            for v in (effects.get(c) or {}).get("values", {}):
                box.addItem(v, v)
            box.setCurrentIndex(max(0, box.findData(defaults[c])))
            box.currentIndexChanged.connect(lambda _: self.redraw_terrain())
            bar.addWidget(QLabel(c.replace("_", " ")))
            bar.addWidget(box)
            self.cond[c] = box
        self.scenario.currentIndexChanged.connect(lambda _: self._scenario_chosen())
        bar.addStretch(1)
        lay.addLayout(bar)
        split = QSplitter(Qt.Horizontal)
        left = QWidget()
        lv = QVBoxLayout(left)
        # the palette
        self.modes = QButtonGroup(self)
        grid = QGridLayout()
        for i, (label, name) in enumerate((("Brush", "brush"), ("Fill (same colour)", "fill"),
                                           ("Road / track", "road"))):
            rb = QRadioButton(label)
            rb.setProperty("mode", name)
            rb.setChecked(i == 0)
            self.modes.addButton(rb, i)
            grid.addWidget(rb, 0, i)
        lv.addLayout(grid)
        form = QFormLayout()
        self.colour = QComboBox()
        self.colour.addItem("(keep colour)", None)
        form.addRow("Colour", self.colour)
        self.minor = QComboBox()
        form.addRow("Minor colour", self.minor)
        self._fill_colours()
        self.building = QComboBox()
        for label, v in (("(keep)", None), ("building", True), ("no building", False)):
            self.building.addItem(label, v)
        form.addRow("Building", self.building)
        self.symbol = QComboBox()
        self.symbol.addItem("(keep)", None)
        self.symbol.addItem("(remove symbols)", "")
        for s in SYMBOLS:
            self.symbol.addItem(s, s)
        form.addRow("Symbol", self.symbol)
        self.label = QLineEdit()
        self.label.setPlaceholderText("(keep) a place name to print in the hex")
        form.addRow("Label", self.label)
        self.size = QSpinBox()
        self.size.setRange(0, 5)
        form.addRow("Brush radius", self.size)
        self.road_kind = QComboBox()
        self.road_kind.addItems(["road", "track"])
        form.addRow("Road kind", self.road_kind)
        lv.addLayout(form)
        hint = QLabel("Left button paints (roads: drag from hex to adjacent hex); right button erases "
                      "(back to the default colour, no building, no symbol; roads: cuts them).")
        hint.setWordWrap(True)
        hint.setStyleSheet("color: #555")
        lv.addWidget(hint)
        nb = QHBoxLayout()
        self.new_id = QLineEdit("N")
        self.new_id.setMaximumWidth(40)
        self.new_cols = QSpinBox()
        self.new_cols.setRange(2, 60)
        self.new_cols.setValue(12)
        self.new_rows = QSpinBox()
        self.new_rows.setRange(2, 60)
        self.new_rows.setValue(10)
        make = QPushButton("New map")
        make.clicked.connect(lambda: self.new_map(self.new_id.text().strip().upper() or "N", self.new_cols.value(),
                                                  self.new_rows.value()))
        for w in (QLabel("Id"), self.new_id, QLabel("cols"), self.new_cols, QLabel("rows"), self.new_rows, make):
            nb.addWidget(w)
        lv.addLayout(nb)
        row = QHBoxLayout()
        for text, slot in (("Undo", lambda: self.undo_stack().undo()), ("Redo", lambda: self.undo_stack().redo()),
                           ("Add to pack", self._add_to_pack), ("Save map file…", self._save_dialog),
                           ("Export PNG…", self._export_dialog)):
            b = QPushButton(text)
            b.clicked.connect(slot)
            row.addWidget(b)
        lv.addLayout(row)
        self.info = QLabel("")
        self.info.setWordWrap(True)
        lv.addWidget(self.info)
        lv.addStretch(1)
        self.canvas = BoardCanvas(self)
        self.view = CanvasView(self.canvas)
        self.tool = MapPaintTool(self)
        self.view.tool = self.tool
        self.minimap = Minimap(self.canvas, self.view)
        lv.addWidget(self.minimap, 0, Qt.AlignHCenter)
        split.addWidget(left)
        split.addWidget(self.view)
        split.setSizes([330, 900])
        lay.addWidget(split, 1)
        self.cursor = QLabel("")
        lay.addWidget(self.cursor)
        self.view.hovered.connect(self._hover)
        self._pending: dict | None = None
        self._rebuild()
        if self.in_pack:
            ctx.doc.changed.connect(self._doc_changed)

    # --- state ------------------------------------------------------------------------

    def undo_stack(self) -> QUndoStack:
        return self.ctx.doc.undo_stack if self.in_pack else self.own_undo

    def effects(self) -> dict | None:
        ids = self.ctx.ws.keys("terrain-effects")
        return self.ctx.ws.value("terrain-effects", ids[0]) if ids else None

    def conditions(self) -> Conditions:
        return Conditions(*(self.cond[c].currentData() for c in CONDITIONS), {}, {})

    def mode(self) -> str:
        return self.modes.checkedButton().property("mode")

    def _fill_colours(self) -> None:
        current = self.colour.currentData()
        while self.colour.count() > 1:
            self.colour.removeItem(1)
        minor = self.minor.currentData() if self.minor.count() else None
        self.minor.clear()
        self.minor.addItem("(keep)", None)
        self.minor.addItem("(none: one colour)", "")
        for c in self.value.get("colours", ()):
            self.colour.addItem(c, c)
            self.colour.setItemData(self.colour.count() - 1, QColor(style.terrain_colour(c)), Qt.DecorationRole)
            self.minor.addItem(c, c)
        self.colour.setCurrentIndex(max(1, self.colour.findData(current)) if self.colour.count() > 1 else 0)
        self.minor.setCurrentIndex(max(0, self.minor.findData(minor)))

    def _scenario_chosen(self) -> None:
        sid = self.scenario.currentData()
        s = self.ctx.ws.value("scenario", sid) if sid else None
        if s:
            for c, box in self.cond.items():
                box.setCurrentIndex(max(0, box.findData(((s.get("conditions") or {}).get(c) or {}).get("value"))))
        self.redraw_terrain()

    def _rebuild(self) -> None:
        try:
            self.board = Board.from_sheets([[self.value]], "up")
        except (BoardError, KeyError, TypeError, ValueError) as exc:
            self.info.setText(f"This map cannot be drawn: {exc}")
            return
        self.terrain = self._terrain()
        self.canvas.set_board(self.board, self.terrain, {self.value["id"]: self.value})
        self.canvas.layer.show_levels = True
        self.view.fit()
        self.minimap.refit()

    def _terrain(self, value: dict | None = None) -> TerrainMap | None:
        value = value or self.value
        effects = self.effects()
        if not effects:
            return None
        try:
            return TerrainMap(self.board, {value["id"]: value}, effects, self.conditions())
        except (KeyError, TypeError, ValueError):
            return None

    def redraw_terrain(self, value: dict | None = None) -> None:
        self.terrain = self._terrain(value)
        self.canvas.set_terrain(self.terrain, {(value or self.value)["id"]: value or self.value})

    def _doc_changed(self, kind, oid, pointer) -> None:
        if kind == "map" and oid == self.map_id and self._pending is None:
            value = self.ctx.ws.value("map", self.map_id)
            if value is None:  # taken out of the pack (undo of its creation, a delete): keep it here
                self.in_pack, self.map_id = False, None
                self.ctx.doc.changed.disconnect(self._doc_changed)
                return
            self._set_value(copy.deepcopy(value), from_doc=True)

    def _set_value(self, value: dict, from_doc: bool = False) -> None:
        grid_changed = value.get("grid") != self.value.get("grid") or value.get("id") != self.value.get("id")
        self.value = value
        self._fill_colours()
        if grid_changed:
            self._rebuild()
        else:
            self.redraw_terrain()

    # --- painting ---------------------------------------------------------------------

    def hex_ids(self, keys) -> list[str]:
        return [self.board.cells[k].hex_id for k in keys if k in self.board.usable]

    def _working(self) -> dict:
        if self._pending is None:
            self._pending = copy.deepcopy(self.value)
        return self._pending

    def brush_at(self, key: str, erase: bool) -> None:
        at = self.board.usable_at
        keys = [at[a] for a in hexmath.within(self.board.axial(key), self.size.value()) if a in at]
        self._apply_paint(self.hex_ids(keys), erase)
        self.redraw_terrain(self._pending)

    def _apply_paint(self, ids: list[str], erase: bool) -> None:
        w = self._working()
        if erase:
            w["hexes"] = map_edit.paint(w, ids, colour=w.get("default_colour"), building=False, clear_symbols=True,
                                        minor_colour="", label="")
        else:
            sym = self.symbol.currentData()
            w["hexes"] = map_edit.paint(w, ids, colour=self.colour.currentData(), building=self.building.currentData(),
                                        symbol=sym or None, clear_symbols=sym == "",
                                        minor_colour=self.minor.currentData(), label=self.label.text().strip() or None)

    def fill(self, key: str) -> None:
        """Every hex joined to ``key`` through hexes of its printed colour."""
        colour = map_edit.colour_of(self.value, self.board.cells[key].hex_id)
        region, frontier = {key}, [key]
        while frontier:
            k = frontier.pop()
            for n in self.board.neighbours(k):
                if n not in region and map_edit.colour_of(self.value, self.board.cells[n].hex_id) == colour:
                    region.add(n)
                    frontier.append(n)
        self._apply_paint(self.hex_ids(region), erase=False)
        self.commit(f"Fill {len(region)} hexes")

    def preview_road(self, chain: list[str]) -> None:
        pen = QPen(QColor(style.ROAD if self.road_kind.currentText() == "road" else style.TRACK), 3, Qt.DashLine)
        self.canvas.polyline("road-preview", chain, pen)

    def finish_road(self, chain: list[str], erase: bool) -> None:
        self.canvas.clear_overlay("road-preview")
        w = self._working()
        ids = self.hex_ids(chain)
        if erase:
            w["roads"] = map_edit.erase_roads(w, ids)
            self.commit(f"Cut roads in {len(ids)} hexes")
        elif len(ids) >= 2 and map_edit.chain_ok(self.board, w["id"], ids):
            w["roads"] = map_edit.add_road(w, self.road_kind.currentText(), ids)
            self.commit(f"Draw a {self.road_kind.currentText()} through {len(ids)} hexes")
        else:
            self._pending = None

    def commit(self, text: str) -> None:
        """One undoable step per stroke (the pack's stack for a pack map)."""
        new, self._pending = self._pending, None
        if new is None or new == self.value:
            return
        if self.in_pack:
            for ptr in ("/hexes", "/roads"):
                if new.get(ptr[1:]) != self.value.get(ptr[1:]):
                    self.ctx.doc.set("map", self.map_id, ptr, new.get(ptr[1:]), text=f"{text} (map {self.map_id})")
            self._set_value(copy.deepcopy(self.ctx.ws.value("map", self.map_id)))
        else:
            self.own_undo.push(_MapChange(self, self.value, new, text))

    def new_map(self, map_id: str, columns: int, rows: int) -> dict:
        value = map_edit.new_map(map_id, columns, rows)
        if self.in_pack and self.ctx.doc.ws:
            self.ctx.doc.changed.disconnect(self._doc_changed)
        self.in_pack, self.map_id = False, None
        self.own_undo.clear()
        self.value = value
        self._fill_colours()
        self._rebuild()
        self.info.setText(f"New map {map_id}: {columns} × {rows} hexes. Save it into a pack folder to use it.")
        return value

    # --- output -----------------------------------------------------------------------

    def add_to_pack(self) -> bool:
        """Put a new map into the pack (the object lifecycle's new object, then its painted
        value: one undoable step), and go on painting it there."""
        if self.in_pack:
            return False
        doc, oid = self.ctx.doc, self.value["id"]
        lifecycle = getattr(doc, "lifecycle", None)
        if lifecycle is None:
            return False
        doc.undo_stack.beginMacro(f"New map {oid} painted on the board")
        try:
            lifecycle.new_object("map", oid)
            doc.set("map", oid, "", copy.deepcopy(self.value), text=f"Painted map {oid}")
        finally:
            doc.undo_stack.endMacro()
        self.in_pack, self.map_id = True, oid
        self.own_undo.clear()
        doc.changed.connect(self._doc_changed)
        return True

    def _add_to_pack(self) -> None:
        try:
            done = self.add_to_pack()
        except ValueError as exc:  # the lifecycle refuses the id (it says why)
            self.info.setText(f"Not added: {exc}")
            return
        self.info.setText(f"Map {self.value['id']} is in the pack (save the pack to keep it)." if done else
                          "Only a new map is added; this one is already in the pack.")

    def save_to(self, path: str | Path) -> Path:
        path = Path(path)
        atomic.write_json(path, self.value)
        return path

    def _save_dialog(self) -> None:
        path, _ = QFileDialog.getSaveFileName(self, "Save map", f"map-{self.value['id']}.json", "Map (*.json)")
        if path:
            self.save_to(path)
            self.info.setText(f"Saved {path}.")

    def _export_dialog(self) -> None:
        path, _ = QFileDialog.getSaveFileName(self, "Export the view", f"map-{self.value['id']}.png", "PNG (*.png)")
        if path:
            self.view.export_png(path)

    def _hover(self, key: str) -> None:
        hid = self.board.cells[key].hex_id
        printed = (self.value.get("hexes") or {}).get(hid) or {}
        parts = [f"{self.canvas.geo.label(key)}: printed {printed.get('colour', self.value.get('default_colour'))}"
                 + (" + building" if printed.get("building") else "")
                 + (f" ({', '.join(printed['symbols'])})" if printed.get("symbols") else "")]
        t = getattr(self, "terrain", None)
        if t is not None:
            h = t.hexes[key]
            parts.append(f"effective: level {h.level}, {'building (cover, blocks LOS)' if h.building else 'open'}, "
                         f"ground {h.ground}")
        self.cursor.setText(" → ".join(parts))

    def effective(self, key: str):
        return self.terrain.hexes[key] if getattr(self, "terrain", None) is not None else None
