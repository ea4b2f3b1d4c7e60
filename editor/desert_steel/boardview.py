"""The board view (read-only): a map configuration drawn with its terrain under chosen
battle conditions, hex ids on demand, a zone as an overlay, what a setup places where,
and hover information for each hex (elevation, cover, road, units).

Nothing about a hex is stored in Qt item data: the hex under the mouse is computed from
the scene position (``HexLocator``), so hovering costs no binding call per item. A board
is redrawn only while it is visible (a hidden tab redraws when shown) and only when what
it draws changed: editing a scenario's turns leaves its terrain alone."""
from __future__ import annotations

import math

from PySide6.QtCore import QPointF, QRectF, Qt, QTimer, Signal
from PySide6.QtGui import QBrush, QColor, QFont, QPainter, QPainterPath, QPen, QPolygonF
from PySide6.QtWidgets import (QCheckBox, QComboBox, QGraphicsItem, QGraphicsPathItem, QGraphicsPolygonItem,
                               QGraphicsScene, QGraphicsSimpleTextItem, QGraphicsView, QHBoxLayout, QLabel,
                               QSizePolicy, QVBoxLayout, QWidget)

from sandtable.rules import board_style
from sandtable.rules.board import Board, BoardError
from sandtable.rules.desert_steel.terrain import Conditions, TerrainMap
from sandtable.rules.desert_steel.zones import ZoneContext, ZoneError, evaluate


R = 18.0  # hex radius in scene pixels
LEVEL_COLOURS = [QColor(c) for c in board_style.LEVEL_COLOURS]  # the print map's style table
CONDITIONS = ("relief", "zone", "urbanization", "road_network")
SYMBOL_GLYPHS = board_style.SYMBOL_GLYPHS


def hex_centre(board: Board, key: str) -> QPointF:
    x, y = board.page_xy(key)
    return QPointF(x * R / 4.0, y * R * math.sqrt(3) / 2.0)


class HexLocator:
    """The hex drawn at a scene position: the inverse of ``hex_centre`` on the board's axial
    lattice (nearest centre by cube rounding), so no item needs to carry its hex key."""

    def __init__(self, board: Board):
        self.board = board
        key = next(iter(board.cells), None)
        if key is None:
            self.origin = None
            return
        gx, gy = board.page_xy(key)
        q, r = board.cells[key].axial
        self.origin = (gx - 6 * q, gy - q - 2 * r)

    def key_at(self, x: float, y: float) -> str | None:
        if self.origin is None:
            return None
        gx, gy = x * 4.0 / R, y * 2.0 / (R * math.sqrt(3))
        qf = (gx - self.origin[0]) / 6.0
        rf = (gy - self.origin[1] - qf) / 2.0
        q, r = axial_round(qf, rf)
        cells = self.board.by_axial.get((q, r))
        if not cells:
            return None
        usable = self.board.usable
        # the drawn cell: the usable one, else the first placed (as ``BoardScene.build`` draws)
        return next((c.key for c in cells if c.key in usable), cells[0].key)


def axial_round(qf: float, rf: float) -> tuple[int, int]:
    sf = -qf - rf
    q, r, s = round(qf), round(rf), round(sf)
    dq, dr, ds = abs(q - qf), abs(r - rf), abs(s - sf)
    if dq > dr and dq > ds:
        q = -r - s
    elif dr > ds:
        r = -q - s
    return int(q), int(r)


_CORNERS = tuple((math.cos(math.radians(a)), math.sin(math.radians(a))) for a in range(0, 360, 60))


def hex_polygon(c: QPointF, r: float = R) -> QPolygonF:
    x, y = c.x(), c.y()
    return QPolygonF([QPointF(x + r * cx, y + r * cy) for cx, cy in _CORNERS])


class BoardScene(QGraphicsScene):
    """Everything drawn for one board; rebuilt when its inputs change."""

    def __init__(self, parent=None):
        super().__init__(parent)
        from .counter_faces import faces
        faces().ready.connect(self._faces_ready)
        self.board: Board | None = None
        self.terrain: TerrainMap | None = None
        self.maps: dict = {}
        self.id_items: list[QGraphicsItem] = []
        self.overlay: QGraphicsPathItem | None = None
        self.unit_items: list[QGraphicsItem] = []
        self.units_at: dict[str, list[str]] = {}
        self.locator: HexLocator | None = None
        self.error = ""
        self._generation = 0
        self._pending: list[tuple[float, float, int]] = []  # hexes still to add: (x, y, fill)

    HEXES_PER_SLICE = 300  # ~20-40 ms of item making each

    def reset(self) -> None:
        """Nothing drawn: the items, the board and its locator go; slices of an earlier build
        still queued add nothing."""
        self._generation += 1
        self._pending = []
        self.clear()
        self.id_items, self.overlay, self.unit_items, self.units_at = [], None, [], {}
        self.board = self.terrain = None
        self.locator = None
        self.maps = {}
        self.error = ""

    def build(self, layout, north, maps: dict, effects: dict | None, conditions: Conditions) -> None:
        self.reset()
        self.maps = maps
        try:
            self.board = Board.from_sheets([[maps[m] for m in row] for row in layout], north)
            if effects:
                self.terrain = TerrainMap(self.board, maps, effects, conditions)
        except (BoardError, KeyError, TypeError, ValueError) as exc:
            self.error = f"cannot draw this board: {exc}"
            self.addSimpleText(self.error)
            return
        board = self.board
        self.locator = HexLocator(board)
        usable = board.usable
        drawn = set()
        # The hexes are added a slice at a time, one slice per turn of the event loop: a
        # two-map board is ~1,600 polygon items, 0.15-0.25 s of item making on the UI thread
        # (the window froze when a board tab opened or redrew). Everything else — symbols,
        # buildings, roads, outlines, hover — is there at once; ``finish`` adds the rest now.
        # (One path per fill was tried: building is cheaper, but painting a path of a
        # thousand antialiased polygons cost 0.3 s at every repaint.)
        kx, ky = R / 4.0, R * math.sqrt(3) / 2.0
        page_xy, terrain_hexes = board.page_xy, self.terrain.hexes if self.terrain else {}
        hexes = []
        for key, cell in board.cells.items():
            if cell.axial in drawn and key not in usable:
                continue
            drawn.add(cell.axial)
            x, y = page_xy(key)
            cx, cy = x * kx, y * ky
            t = terrain_hexes.get(key)
            hexes.append((cx, cy, -1 if key not in usable else max(0, min(3, t.level if t else 0))))
            if t and t.building:
                b = self.addRect(QRectF(cx - R * 0.3, cy - R * 0.3, R * 0.6, R * 0.6), QPen(Qt.NoPen),
                                 QColor("#37474f"))
                b.setZValue(2)
            if t and t.symbols:
                glyph = SYMBOL_GLYPHS.get(t.symbols[0], t.symbols[0][:3])
                s = self.addSimpleText(glyph)
                s.setFont(QFont("DejaVu Sans", 9 if len(glyph) == 1 else 5))
                s.setBrush(QColor("#5d4037"))
                br = s.boundingRect()
                s.setPos(cx - br.width() / 2, cy - br.height() / 2 + R * 0.25)
                s.setZValue(3)
                s.setToolTip(", ".join(t.symbols))
        self._pending = hexes
        self._add_hexes(self._generation)
        # roads and tracks under these conditions
        if self.terrain:
            for pair, kind in self.terrain.road_sides.items():
                a, b = sorted(pair)
                pen = QPen(QColor(board_style.ROAD) if kind == "road" else QColor(board_style.TRACK), 2.4 if kind == "road" else 1.6)
                if kind == "track":
                    pen.setStyle(Qt.DashLine)
                seg = self.addLine(hex_centre(board, a).x(), hex_centre(board, a).y(),
                                   hex_centre(board, b).x(), hex_centre(board, b).y(), pen)
                seg.setZValue(4)
        # map outlines and letters
        for mid in board.maps():
            e = board.page_edges[mid]
            rect = QRectF(e["left"] * R / 4, e["top"] * R * math.sqrt(3) / 2, (e["right"] - e["left"]) * R / 4,
                          (e["bottom"] - e["top"]) * R * math.sqrt(3) / 2)
            self.addRect(rect, QPen(QColor("#3e2723"), 2)).setZValue(5)
            lab = self.addSimpleText(f"Map {mid}")
            lab.setFont(QFont("DejaVu Sans", 14, QFont.Bold))
            lab.setBrush(QColor(62, 39, 35, 150))
            lab.setPos(rect.left() + 8, rect.top() + 6)
            lab.setZValue(6)
        self._north_arrow(north)

    _UNIT = hex_polygon(QPointF(0.0, 0.0))

    def _add_hexes(self, generation: int, everything: bool = False) -> None:
        if generation != self._generation or not self._pending:
            return
        n = len(self._pending) if everything else self.HEXES_PER_SLICE
        todo, self._pending = self._pending[:n], self._pending[n:]
        line = QPen(QColor(board_style.HEX_LINE), 0.6)
        half = QBrush(QColor(board_style.HALF_HEX), Qt.BDiagPattern)
        fills = [QBrush(c) for c in LEVEL_COLOURS]
        unit = self._UNIT
        for x, y, fill in todo:
            item = QGraphicsPolygonItem(unit.translated(x, y))
            item.setBrush(half if fill < 0 else fills[fill])
            item.setPen(line)
            self.addItem(item)
        if self._pending:
            QTimer.singleShot(0, self, lambda: self._add_hexes(generation))  # bound: dropped with the scene

    def finish(self) -> None:
        """Add the hexes still queued now (for a picture of the whole board)."""
        self._add_hexes(self._generation, everything=True)

    @property
    def complete(self) -> bool:
        return not self._pending

    def _north_arrow(self, north: str) -> None:
        r = self.itemsBoundingRect()
        c = QPointF(r.right() + 40, r.top() + 50)
        angle = {"up": 0, "right": 90, "down": 180, "left": 270}.get(north, 0)
        path = QPainterPath()
        path.moveTo(0, -28)
        path.lineTo(10, 10)
        path.lineTo(0, 2)
        path.lineTo(-10, 10)
        path.closeSubpath()
        item = self.addPath(path, QPen(QColor("#222"), 1), QColor("#222"))
        item.setRotation(angle)
        item.setPos(c)
        n = self.addSimpleText("N")
        n.setFont(QFont("DejaVu Sans", 12, QFont.Bold))
        off = {"up": (-5, -50), "right": (30, -10), "down": (-5, 30), "left": (-45, -10)}[north if north in
                                                                                    ("up", "right", "down", "left") else "up"]
        n.setPos(c.x() + off[0], c.y() + off[1])

    def show_ids(self, on: bool) -> None:
        if on and not self.id_items and self.board:
            font = QFont("DejaVu Sans", 4)
            maps_of: dict[str, set] = {}
            for cell in self.board.cells.values():
                maps_of.setdefault(cell.hex_id, set()).add(cell.map_id)
            for key in self.board.usable:
                c = hex_centre(self.board, key)
                hid = self.board.cells[key].hex_id
                # an id printed on two maps is shown with its map letter (B2213)
                t = QGraphicsSimpleTextItem(key if len(maps_of[hid]) > 1 else hid)
                t.setFont(font)
                t.setBrush(QColor("#3e2723"))
                br = t.boundingRect()
                t.setPos(c.x() - br.width() / 2, c.y() - R * 0.8)
                t.setZValue(7)
                self.addItem(t)
                self.id_items.append(t)
        for t in self.id_items:
            t.setVisible(on)

    def show_zone(self, keys) -> None:
        if self.overlay is not None:
            self.removeItem(self.overlay)
            self.overlay = None
        if not keys or not self.board:
            return
        path = QPainterPath()
        path.setFillRule(Qt.WindingFill)
        for k in keys:
            path.addPolygon(hex_polygon(hex_centre(self.board, k), R))
        item = QGraphicsPathItem(path)
        item.setBrush(QColor(30, 90, 200, 60))
        item.setPen(QPen(Qt.NoPen))
        item.setZValue(8)
        self.addItem(item)
        self.overlay = item

    def _faces_ready(self) -> None:
        for item in self.unit_items:  # the printed counters arrived
            item.update()

    def show_setup(self, setup: dict | None, labels, entry=None) -> None:
        """The setup's counters drawn as on the placement board and in print (``entry(p)``: what
        a counter shows), stacks fanned under the pointer; ``labels(p)`` names them on hover."""
        from .board_canvas import StackItem
        for it in self.unit_items:
            self.removeItem(it)
        self.unit_items, self.units_at = [], {}
        if not setup or not self.board:
            return
        stacks: dict[str, list[dict]] = {}
        for side, data in (setup.get("sides") or {}).items():
            for p in data.get("placements", []):
                key = self.board.resolve(p.get("hex", ""))
                if key is None:
                    continue
                self.units_at.setdefault(key, []).append(labels(p))
                if entry is not None:
                    stacks.setdefault(key, []).append(entry(p))
        for key, entries in stacks.items():
            item = StackItem(key, hex_centre(self.board, key), entries)
            self.addItem(item)
            self.unit_items.append(item)

    def key_at(self, pos: QPointF) -> str | None:
        return self.locator.key_at(pos.x(), pos.y()) if self.locator else None

    def describe(self, key: str) -> str:
        board, terrain = self.board, self.terrain
        cell = board.cells[key]
        parts = [f"<b>{key}</b>"]
        if key not in board.usable:
            parts.append("half hex (never usable, §2.51)")
        m = self.maps.get(cell.map_id, {})
        printed = (m.get("hexes") or {}).get(cell.hex_id, {})
        colour = printed.get("colour", m.get("default_colour", ""))
        if terrain:
            t = terrain.hexes[key]
            parts.append(f"level {t.level} ({colour})")
            parts.append("building: cover, blocks line of sight" if t.building else "open")
            parts.append(f"ground {t.ground}")
            roads = sorted({kind for pair, kind in terrain.road_sides.items() if key in pair})
            if roads:
                parts.append("on a " + " and ".join(roads))
            if t.symbols:
                parts.append("symbols: " + ", ".join(t.symbols))
        if printed.get("label"):
            parts.append(f"“{printed['label']}”")
        units = self.units_at.get(key)
        if units:
            parts.append("units: " + ", ".join(u.split("|", 1)[1] for u in units))
        return " · ".join(parts)


class BoardGraphicsView(QGraphicsView):
    hovered = Signal(str)

    def __init__(self, scene: BoardScene, parent=None):
        super().__init__(scene, parent)
        self.setRenderHint(QPainter.Antialiasing)
        self.setDragMode(QGraphicsView.ScrollHandDrag)
        self.setMouseTracking(True)
        self.setTransformationAnchor(QGraphicsView.AnchorUnderMouse)
        self.setBackgroundBrush(QColor("#fafafa"))
        self._last = None

    def wheelEvent(self, event) -> None:
        factor = 1.15 if event.angleDelta().y() > 0 else 1 / 1.15
        self.scale(factor, factor)

    def mouseMoveEvent(self, event) -> None:
        super().mouseMoveEvent(event)
        key = self.scene().key_at(self.mapToScene(event.position().toPoint()))
        if key and key != self._last:
            self._last = key
            self.hovered.emit(key)

    def fit(self) -> None:
        r = self.scene().itemsBoundingRect()
        if not r.isEmpty():
            self.fitInView(r.adjusted(-10, -10, 10, 10), Qt.KeepAspectRatio)


class BoardWidget(QWidget):
    """Board view with its controls. ``fixed`` pins a configuration, map, scenario or setup."""

    def __init__(self, ctx, configuration: str | None = None, scenario: str | None = None, map_id: str | None = None,
                 setup: str | None = None, parent=None):
        super().__init__(parent)
        self.ctx = ctx
        self.fixed_map = map_id
        self.fixed_scenario = scenario
        self.fixed_setup = setup
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        bar = QHBoxLayout()
        # Parented here: a pinned choice is hidden and never enters a layout, and a parentless
        # combo outlived the closed tab as a top-level widget whose signal lambdas kept this
        # widget's Python side (scene, board, terrain) alive: a leak per board opened.
        self.config = QComboBox(self)
        self.scenario = QComboBox(self)
        self.cond = {c: QComboBox() for c in CONDITIONS}
        self.ids = QCheckBox("Hex ids")
        self.zone = QComboBox()
        self.zone.setMinimumWidth(180)
        self.setup = QComboBox()
        for label, w in (("Map configuration", self.config), ("Scenario", self.scenario)):
            if (w is self.config and (map_id or configuration or scenario)) or (w is self.scenario and (scenario or map_id)):
                w.setVisible(False)
                continue
            bar.addWidget(QLabel(label))
            bar.addWidget(w)
        bar.addStretch(1)
        lay.addLayout(bar)
        bar2 = QHBoxLayout()
        for c, w in self.cond.items():
            bar2.addWidget(QLabel(c.replace("_", " ").capitalize()))
            bar2.addWidget(w)
        bar2.addWidget(self.ids)
        bar2.addStretch(1)
        lay.addLayout(bar2)
        bar3 = QHBoxLayout()
        bar3.addWidget(QLabel("Zone overlay"))
        bar3.addWidget(self.zone, 2)
        bar3.addWidget(QLabel("Setup"))
        bar3.addWidget(self.setup, 1)
        lay.addLayout(bar3)
        self.scene = BoardScene(self)
        self.view = BoardGraphicsView(self.scene)
        self.view.setSizePolicy(QSizePolicy.Expanding, QSizePolicy.Expanding)
        self.view.setMinimumHeight(300)
        lay.addWidget(self.view, 1)
        self.info = QLabel("Hover a hex for its terrain.")
        self.info.setTextFormat(Qt.RichText)
        self.info.setWordWrap(True)
        self.info.setMinimumHeight(36)
        lay.addWidget(self.info)
        self.view.hovered.connect(lambda k: self.info.setText(self.scene.describe(k)))
        self._rebuild_timer = QTimer(self)
        self._rebuild_timer.setSingleShot(True)
        self._rebuild_timer.setInterval(150)
        self._rebuild_timer.timeout.connect(self._refresh)
        self._fill_choices(configuration)
        self.config.currentIndexChanged.connect(lambda _: self._config_chosen())
        self.scenario.currentIndexChanged.connect(lambda _: self._scenario_chosen())
        for w in self.cond.values():
            w.currentIndexChanged.connect(lambda _: self._rebuild_timer.start())
        self.ids.toggled.connect(self.scene.show_ids)
        self.zone.currentIndexChanged.connect(lambda _: self._show_zone())
        self.setup.currentIndexChanged.connect(lambda _: self._show_setup())
        ctx.doc.changed.connect(self._doc_changed)
        ctx.doc.reset.connect(self._doc_reset)
        # What the scene was last drawn from (compared by identity: the workspace's values are
        # immutable, an edit replaces only the objects it changes) and what is on top of it.
        self._drawn: tuple | None = None
        self._overlaid: tuple | None = None
        self._stale = False  # an input changed while hidden: redraw when shown
        self._first_fit = True
        self._scenario_chosen(initial=True)

    # --- choices ----------------------------------------------------------------------

    def _fill_choices(self, configuration) -> None:
        ws = self.ctx.ws
        self.config.blockSignals(True)
        self.config.clear()
        for cid in ws.keys("map-configuration"):
            self.config.addItem(cid, cid)
        if configuration:
            self.config.setCurrentIndex(max(0, self.config.findData(configuration)))
        self.config.blockSignals(False)
        self.scenario.blockSignals(True)
        self.scenario.clear()
        self.scenario.addItem("(choose conditions)", None)
        for sid in ws.keys("scenario"):
            s = ws.value("scenario", sid) or {}
            self.scenario.addItem(f"{s.get('number', '')} {((s.get('name') or {}).get('en', sid))}", sid)
        if self.fixed_scenario:
            self.scenario.setCurrentIndex(max(0, self.scenario.findData(self.fixed_scenario)))
        self.scenario.blockSignals(False)
        effects = self._effects() or {}
        defaults = {"relief": "rolling", "zone": "sandy", "urbanization": "inhabited", "road_network": "moderate"}
        for c, w in self.cond.items():
            w.blockSignals(True)
            w.clear()
            for v in (effects.get(c) or {}).get("values", {}):
                w.addItem(v, v)
            w.setCurrentIndex(max(0, w.findData(defaults[c])))
            w.blockSignals(False)

    def _effects(self) -> dict | None:
        ws = self.ctx.ws
        ids = ws.keys("terrain-effects")
        return ws.value("terrain-effects", ids[0]) if ids else None

    def scenario_value(self) -> dict | None:
        sid = self.scenario.currentData()
        return self.ctx.ws.value("scenario", sid) if sid else None

    def _scenario_chosen(self, initial: bool = False) -> None:
        s = self.scenario_value()
        if s:
            for c, w in self.cond.items():
                w.blockSignals(True)
                w.setCurrentIndex(max(0, w.findData(((s.get("conditions") or {}).get(c) or {}).get("value"))))
                w.blockSignals(False)
            self.config.blockSignals(True)
            self.config.setCurrentIndex(max(0, self.config.findData(s.get("map_configuration"))))
            self.config.blockSignals(False)
        self._fill_zones()
        self._fill_setups()
        self.rebuild()

    def _config_chosen(self) -> None:
        self._rebuild_timer.start()

    def _fill_zones(self) -> None:
        self.zone.blockSignals(True)
        current = self.zone.currentText()
        self.zone.clear()
        self.zone.addItem("(none)", None)
        s = self.scenario_value()
        for side, expr, label in zones_of(s or {}):
            self.zone.addItem(f"{side}: {label}", expr)
        if current:
            self.zone.setCurrentIndex(max(0, self.zone.findText(current)))
        self.zone.blockSignals(False)

    def _fill_setups(self) -> None:
        keep = self.setup.currentData()
        self.setup.blockSignals(True)
        self.setup.clear()
        self.setup.addItem("(none)", None)
        sid = self.scenario.currentData()
        for oid in self.ctx.ws.keys("setup"):
            st = self.ctx.ws.value("setup", oid) or {}
            if sid and st.get("scenario") == sid:
                self.setup.addItem(oid, oid)
        chosen = self.fixed_setup or keep
        if chosen:
            self.setup.setCurrentIndex(max(0, self.setup.findData(chosen)))
        self.setup.blockSignals(False)

    def select_zone(self, expr) -> None:
        for i in range(self.zone.count()):
            if self.zone.itemData(i) == expr:
                self.zone.setCurrentIndex(i)
                return
        self.zone.addItem("(selected)", expr)
        self.zone.setCurrentIndex(self.zone.count() - 1)

    # --- drawing ----------------------------------------------------------------------

    def _doc_changed(self, kind, oid, pointer) -> None:
        if kind not in ("map", "map-configuration", "terrain-effects", "scenario", "setup", "unit-type",
                        "formation-card"):
            return
        if kind == "scenario" and oid == self.scenario.currentData():
            self._follow_scenario = True
        if kind == "setup":
            self._setups_changed = True
        self._request()

    def _doc_reset(self) -> None:
        self._follow_scenario = self._setups_changed = True
        self._request()

    _follow_scenario = False
    _setups_changed = False

    def _request(self) -> None:
        """Redraw soon if shown; a hidden board only notes that it is stale."""
        if self.isVisible():
            self._rebuild_timer.start()
        else:
            self._stale = True

    def _refresh(self) -> None:
        """After edits: take the scenario's current configuration, north and conditions,
        then redraw what changed."""
        if self._follow_scenario:
            self._follow_scenario = False
            self._setups_changed = False
            self._scenario_chosen()
            return
        if self._setups_changed:
            self._setups_changed = False
            self._fill_setups()
        self.rebuild()

    def conditions(self) -> Conditions:
        s = self.scenario_value() or {}
        cond = s.get("conditions") or {}
        fixed = {r["map"]: r["level"] for r in s.get("special_rules", ())
                 if r.get("type") == "level-override" and "map" in r and "level" in r}
        return Conditions(self.cond["relief"].currentData() or "flat", self.cond["zone"].currentData() or "sandy",
                          self.cond["urbanization"].currentData() or "desert",
                          self.cond["road_network"].currentData() or "none",
                          dict((cond.get("relief") or {}).get("by_map", {})), fixed)

    def rebuild(self, force: bool = False) -> None:
        """Draw the board if what it shows changed (``force``: redraw anyway)."""
        if not self.isVisible() and not force:
            self._stale = True
            return
        self._stale = False
        ws = self.ctx.ws
        if self.fixed_map:
            layout, north = [[self.fixed_map]], "up"
        else:
            conf = ws.value("map-configuration", self.config.currentData()) if self.config.currentData() else None
            if not conf:
                if self._drawn != ():
                    self.scene.reset()
                    self._drawn, self._overlaid = (), None
                return
            layout, north = conf.get("layout", []), conf.get("north", "up")
        used = [m for row in layout if isinstance(row, list) for m in row]
        maps = {mid: ws.value("map", mid) for mid in ws.keys("map") if mid in used}
        effects, conditions = self._effects(), self.conditions()
        inputs = (layout, north, tuple(maps.items()), effects, conditions)
        if force or not _same(inputs, self._drawn):
            self.scene.build(layout, north, maps, effects, conditions)
            self._drawn, self._overlaid = inputs, None
            if self.scene.error:
                self.info.setText(self.scene.error)
            self.scene.show_ids(self.ids.isChecked())
            self.view.fit()
        self._overlays()

    def _overlays(self) -> None:
        """Zone and setup overlays, redrawn only when their inputs changed."""
        sid = self.setup.currentData()
        ws = self.ctx.ws
        inputs = (self.zone.currentData(), self.zone.currentText(), sid, ws.value("setup", sid) if sid else None,
                  tuple(ws.value("unit-type", k) for k in ws.keys("unit-type")) if sid else (),
                  tuple(ws.value("formation-card", k) for k in ws.keys("formation-card")) if sid else ())
        if _same(inputs, self._overlaid):
            return
        self._overlaid = inputs
        self._show_zone()
        self._show_setup()

    def _show_zone(self) -> None:
        expr = self.zone.currentData()
        if not expr or not self.scene.board:
            self.scene.show_zone(None)
            return
        try:
            keys = evaluate(expr, ZoneContext(self.scene.board, self.scene.terrain))
        except (ZoneError, KeyError, TypeError, ValueError, StopIteration) as exc:
            self.info.setText(f"zone cannot be drawn: {exc}")
            self.scene.show_zone(None)
            return
        self.scene.show_zone(keys)
        self.info.setText(f"{self.zone.currentText()}: {len(keys)} hexes")

    def _show_setup(self) -> None:
        sid = self.setup.currentData()
        setup = self.ctx.ws.value("setup", sid) if sid else None
        units = self.ctx.values("unit-type")
        cards = self.ctx.values("formation-card")

        def label(p):
            u = units.get(p.get("type")) or {}
            c = cards.get(str(p.get("card"))) or {}
            return f"{u.get('nationality', '')}|{c.get('designation', p.get('card'))} {u.get('name', p.get('type'))}"

        def entry(p):
            c = cards.get(str(p.get("card"))) or {}
            return {"unit": units.get(p.get("type")) or {"id": p.get("type"), "name": p.get("type")},
                    "designation": c.get("designation", ""), "facing": p.get("facing"), "hidden": p.get("hidden"),
                    "entrenched": p.get("entrenched"), "loaded": "loaded_in" in p}
        self.scene.show_setup(setup, label, entry)

    def showEvent(self, event) -> None:
        super().showEvent(event)
        if self._stale:
            self._refresh()
        if self._first_fit:
            self._first_fit = False
            QTimer.singleShot(0, self.view, self.view.fit)  # bound: never fires on a deleted view

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        self.view.fit()


def _same(a, b) -> bool:
    """Equal inputs: the same objects (identity, cheap for the big map and effects values),
    or equal small values (conditions, ids, the layout)."""
    if a is None or b is None or len(a) != len(b):
        return a is b
    for x, y in zip(a, b):
        if x is y:
            continue
        if isinstance(x, tuple) and isinstance(y, tuple):
            if not _same(x, y):
                return False
        elif x != y:
            return False
    return True


def zones_of(s: dict) -> list[tuple[str, dict, str]]:
    """Every zone expression a scenario names, labelled for the overlay menu."""
    out = []
    for side in ("allied", "axis"):
        data = (s.get("sides") or {}).get(side) or {}
        for g in data.get("formations", []):
            cards = ", ".join(str(n) for n in g.get("cards", []))
            if "setup" in g:
                out.append((side, g["setup"], f"setup of {cards}"))
            elif "enter" in g:
                out.append((side, g["enter"]["zone"], f"entry of {cards} (turn {g['enter'].get('turn')})"))
        for r in data.get("reinforcements", []):
            if "zone" in r:
                out.append((side, r["zone"], f"reinforcements {', '.join(str(n) for n in r['cards'])} (turn {r['turn']})"))
        for kind, f in (data.get("fortifications") or {}).items():
            if "zone" in f:
                out.append((side, f["zone"], f"{kind} zone"))
        ho = data.get("hidden_observers") or {}
        if "zone" in ho:
            out.append((side, ho["zone"], "hidden observers"))
    return out
