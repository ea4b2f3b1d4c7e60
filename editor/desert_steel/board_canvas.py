"""The board workbench's canvas: a scene that draws a board once per change, overlays,
counter stacks, a view that hands mouse gestures to the active tool, and a minimap.

Nothing the program needs is kept in Qt item data (architecture principle 9, and PySide6
6.12 leaks a reference on every ``QGraphicsItem.data()``): hexes are found from scene
positions with a Python-side index, and items carry their hex in plain attributes.
Colours and symbols come from ``rules.board_style``, the table the print map uses too.
"""
from __future__ import annotations

import math
from typing import Callable, Iterable

from PySide6.QtCore import QPointF, QRectF, Qt, Signal
from PySide6.QtGui import QBrush, QColor, QFont, QImage, QPainter, QPainterPath, QPen, QPolygonF
from PySide6.QtWidgets import QGraphicsItem, QGraphicsScene, QGraphicsView, QStyleOptionGraphicsItem

from sandtable.rules import board_style as style
from sandtable.rules.board import Board

from .counter import NATION_COLOURS, paint_counter
from .counter_faces import face_key, faces

R = 18.0  # hex radius in scene units
SQ3 = math.sqrt(3.0)


def colour(value: str, alpha: int = 255) -> QColor:
    c = QColor(value)
    c.setAlpha(alpha)
    return c


def overlay_colour(name: str) -> QColor:
    value, alpha = style.OVERLAYS[name]
    return colour(value, alpha)


def hex_polygon(c: QPointF, r: float = R) -> QPolygonF:
    return QPolygonF([QPointF(c.x() + r * math.cos(math.radians(a)), c.y() + r * math.sin(math.radians(a)))
                      for a in range(0, 360, 60)])


class Geometry:
    """Where each hex of a board sits in the scene, and which hex a scene point falls in."""

    def __init__(self, board: Board):
        self.board = board
        self.centres: dict[str, QPointF] = {}
        self.polys: dict[str, QPolygonF] = {}
        self.inner: dict[str, QPolygonF] = {}  # a little smaller: outlines drawn inside the hex
        self._buckets: dict[tuple[int, int], list[str]] = {}
        for key in board.cells:
            x, y = board.page_xy(key)
            c = QPointF(x * R / 4.0, y * R * SQ3 / 2.0)
            self.centres[key] = c
            self.polys[key] = hex_polygon(c)
            self.inner[key] = hex_polygon(c, R - 1.2)
            self._buckets.setdefault(self._bucket(c.x(), c.y()), []).append(key)
        ids: dict[str, set] = {}
        for key, cell in board.cells.items():
            ids.setdefault(cell.hex_id, set()).add(cell.map_id)
        # ids printed on two maps are shown with their map letter (B2213), the others as printed
        self.shared_ids = {h for h, maps in ids.items() if len(maps) > 1}

    @staticmethod
    def _bucket(x: float, y: float) -> tuple[int, int]:
        return round(x / (1.5 * R)), round(y / (R * SQ3 / 2))

    def key_at(self, pos: QPointF, usable_only: bool = True) -> str | None:
        bx, by = self._bucket(pos.x(), pos.y())
        best, best_d = None, R * R
        for dx in (-1, 0, 1):
            for dy in (-2, -1, 0, 1, 2):
                for key in self._buckets.get((bx + dx, by + dy), ()):
                    c = self.centres[key]
                    d = (c.x() - pos.x()) ** 2 + (c.y() - pos.y()) ** 2
                    usable = key in self.board.usable
                    if usable_only and not usable:
                        continue
                    if d < best_d - 1e-6 or (abs(d - best_d) < 1e-6 and usable):
                        best, best_d = key, d
        return best

    def label(self, key: str) -> str:
        cell = self.board.cells[key]
        return key if cell.hex_id in self.shared_ids else cell.hex_id

    def side(self, a: str, b: str) -> tuple[QPointF, QPointF]:
        """The two corners of the hexside between adjacent hexes a and b."""
        ca, cb = self.centres[a], self.centres[b]
        ang = math.degrees(math.atan2(cb.y() - ca.y(), cb.x() - ca.x()))
        i = round((ang - 30) / 60) % 6
        pts = []
        for k in (i, i + 1):
            t = math.radians(60 * k)
            pts.append(QPointF(ca.x() + R * math.cos(t), ca.y() + R * math.sin(t)))
        return pts[0], pts[1]

    def rect(self) -> QRectF:
        xs = [c.x() for c in self.centres.values()]
        ys = [c.y() for c in self.centres.values()]
        return QRectF(min(xs) - R, min(ys) - R, max(xs) - min(xs) + 2 * R, max(ys) - min(ys) + 2 * R)


class TerrainLayer(QGraphicsItem):
    """Every hex, road, contour and label of the board, painted in one item (fast to pan).

    ``terrain`` is a TerrainMap (effective terrain) or None (printed colours only);
    ``maps`` the raw map documents (printed colours, labels).
    """

    def __init__(self, geo: Geometry, terrain, maps: dict):
        super().__init__()
        self.geo, self.terrain, self.maps = geo, terrain, maps
        self.show_ids = True
        self.show_levels = False
        self._bounds = geo.rect().adjusted(-4, -4, 4, 4)
        self.setFlag(QGraphicsItem.ItemUsesExtendedStyleOption)  # a real exposedRect, to draw only what shows
        self.refresh()

    def refresh(self) -> None:
        """Recompute what is drawn (after a terrain edit)."""
        board, terrain = self.geo.board, self.terrain
        self.polys = self.geo.polys
        self._pixmap = None
        self.fill: dict[str, QColor] = {}
        for key, cell in board.cells.items():
            if key not in board.usable:
                continue
            if terrain is not None:
                self.fill[key] = QColor(style.level_colour(terrain.hexes[key].level))
            else:
                m = self.maps.get(cell.map_id) or {}
                name = ((m.get("hexes") or {}).get(cell.hex_id) or {}).get("colour", m.get("default_colour", ""))
                self.fill[key] = QColor(style.terrain_colour(name))
        self.contours: list[tuple[QPointF, QPointF]] = []
        self.roads: list[tuple[QPointF, QPointF, str]] = []
        if terrain is not None:
            for key in board.usable:
                lv = terrain.hexes[key].level
                for n in board.neighbours(key):
                    if terrain.hexes[n].level < lv:  # a contour on the high side of every slope
                        self.contours.append(self.geo.side(key, n))
            for pair, kind in terrain.road_sides.items():
                a, b = sorted(pair)
                self.roads.append((self.geo.centres[a], self.geo.centres[b], kind))
        else:
            for mid, m in self.maps.items():
                for road in (m or {}).get("roads", ()):
                    chain = [f"{mid}{h}" for h in road.get("hexes", ())]
                    for a, b in zip(chain, chain[1:]):
                        if a in self.geo.centres and b in self.geo.centres:
                            self.roads.append((self.geo.centres[a], self.geo.centres[b], road.get("type", "road")))
        self.update()

    def boundingRect(self) -> QRectF:
        return self._bounds

    PICTURE_BELOW = 1.2  # zoom under which the picture is drawn (hex ids appear above it)

    def paint(self, p: QPainter, option: QStyleOptionGraphicsItem, widget=None) -> None:
        lod = QStyleOptionGraphicsItem.levelOfDetailFromTransform(p.worldTransform())
        if lod <= self.PICTURE_BELOW:
            # zoomed out, most hexes are on screen: one picture of the board at this zoom, made
            # once per zoom level (and terrain change), then only blitted while panning
            device = p.worldTransform().mapRect(self._bounds)
            size = (max(1, round(device.width())), max(1, round(device.height())))
            if self._pixmap is None or self._pixmap[0] != size:
                self._pixmap = (size, self._picture(size))
            p.save()
            p.resetTransform()
            p.drawImage(device.topLeft(), self._pixmap[1])
            p.restore()
            return
        self._paint(p, option.exposedRect, lod)

    def _picture(self, size: tuple[int, int]) -> QImage:
        b = self._bounds
        img = QImage(size[0], size[1], QImage.Format_ARGB32_Premultiplied)
        img.fill(Qt.transparent)
        q = QPainter(img)
        q.scale(size[0] / b.width(), size[1] / b.height())
        q.translate(-b.left(), -b.top())
        self._paint(q, b, size[0] / b.width())
        q.end()
        return img

    def _paint(self, p: QPainter, exposed_rect: QRectF, lod: float) -> None:
        board, terrain, geo = self.geo.board, self.terrain, self.geo
        exposed = exposed_rect.adjusted(-R, -R, R, R)
        # hexes tile exactly: their fills need no antialiasing (three times faster to draw)
        p.setRenderHint(QPainter.Antialiasing, False)
        line = QPen(QColor(style.HEX_LINE), 0.6 if lod > 0.8 else 0)
        half = QBrush(QColor(style.HALF_HEX), Qt.BDiagPattern)
        visible = [k for k, c in geo.centres.items() if exposed.contains(c)]
        for key in visible:
            p.setPen(line if lod > 0.35 else Qt.NoPen)
            p.setBrush(self.fill.get(key) or half)
            p.drawPolygon(self.polys[key])
        p.setRenderHint(QPainter.Antialiasing, lod > 0.6)
        # contours: a dark line on the upper side of each slope, legible at every zoom
        p.setPen(QPen(QColor(style.MAP_EDGE), 1.6 if lod > 0.5 else 2.4 / max(lod, 0.2)))
        for a, b in self.contours:
            if exposed.contains(a):
                p.drawLine(a, b)
        if terrain is not None:
            p.setPen(Qt.NoPen)
            p.setBrush(QColor(style.BUILDING))
            for key in visible:
                t = terrain.hexes.get(key)
                if t is not None and t.building and key in board.usable:
                    c = geo.centres[key]
                    p.drawRect(QRectF(c.x() - R * 0.3, c.y() - R * 0.3, R * 0.6, R * 0.6))
        for a, b, kind in self.roads:
            if not (exposed.contains(a) or exposed.contains(b)):
                continue
            if kind == "road":
                pen = QPen(QColor(style.ROAD), R * style.ROAD_WIDTH)
            elif kind == "track":
                pen = QPen(QColor(style.TRACK), R * style.TRACK_WIDTH)
                pen.setStyle(Qt.DashLine)
            else:
                pen = QPen(QColor(style.CLEAR_ROAD), R * style.TRACK_WIDTH)
            pen.setCapStyle(Qt.RoundCap)
            p.setPen(pen)
            p.drawLine(a, b)
        if lod > self.PICTURE_BELOW:
            font = QFont("DejaVu Sans")
            font.setPixelSize(5)
            p.setFont(font)
            for key in visible:
                if key not in board.usable:
                    continue
                c = geo.centres[key]
                p.setPen(QColor(style.ID_INK))
                if self.show_ids:
                    p.drawText(QRectF(c.x() - R, c.y() - R * 0.92, 2 * R, 7), Qt.AlignHCenter | Qt.AlignTop,
                               geo.label(key))
                t = terrain.hexes.get(key) if terrain is not None else None
                if t is not None and t.symbols:
                    glyph = style.SYMBOL_GLYPHS.get(t.symbols[0], t.symbols[0][:3])
                    p.setPen(QColor("#5d4037"))
                    p.drawText(QRectF(c.x() - R, c.y() + R * 0.2, 2 * R, 8), Qt.AlignHCenter, glyph)
                cell = board.cells[key]
                label = (((self.maps.get(cell.map_id) or {}).get("hexes") or {}).get(cell.hex_id) or {}).get("label")
                if label:  # a place name printed in the hex
                    p.setPen(QColor(style.MAP_EDGE))
                    p.drawText(QRectF(c.x() - R, c.y() + R * 0.45, 2 * R, 7), Qt.AlignHCenter, label)
                if self.show_levels and t is not None:
                    p.setPen(QColor(style.LEVEL_INK))
                    p.drawText(QRectF(c.x() + R * 0.35, c.y() - R * 0.2, R * 0.5, 7), Qt.AlignLeft, str(t.level))
        # map outlines and letters
        p.setBrush(Qt.NoBrush)
        p.setPen(QPen(QColor(style.MAP_EDGE), 2))
        for mid in board.maps():
            e = board.page_edges[mid]
            rect = QRectF(e["left"] * R / 4, e["top"] * R * SQ3 / 2, (e["right"] - e["left"]) * R / 4,
                          (e["bottom"] - e["top"]) * R * SQ3 / 2)
            p.drawRect(rect)
            font = QFont("DejaVu Sans", 14, QFont.Bold)
            p.setFont(font)
            p.setPen(colour(style.MAP_EDGE, 150))
            p.drawText(rect.adjusted(8, 6, 0, 0), Qt.AlignLeft | Qt.AlignTop, f"Map {mid}")
            p.setPen(QPen(QColor(style.MAP_EDGE), 2))


class HexOverlay(QGraphicsItem):
    """A set of hexes filled (or outlined) in one colour, with optional text per hex."""

    def __init__(self, geo: Geometry, keys: Iterable[str], fill: QColor | None, outline: QColor | None = None,
                 labels: dict[str, str] | None = None, z: float = 10):
        super().__init__()
        self.geo = geo
        self.keys = [k for k in keys if k in geo.centres]
        self.fill, self.outline, self.labels = fill, outline, labels or {}
        self.setZValue(z)
        self.setFlag(QGraphicsItem.ItemUsesExtendedStyleOption)
        if self.keys:
            xs = [geo.centres[k].x() for k in self.keys]
            ys = [geo.centres[k].y() for k in self.keys]
            self._bounds = QRectF(min(xs) - R - 3, min(ys) - R - 3, max(xs) - min(xs) + 2 * R + 6,
                                  max(ys) - min(ys) + 2 * R + 6)
        else:
            self._bounds = QRectF()

    def boundingRect(self) -> QRectF:
        return self._bounds

    def paint(self, p: QPainter, option, widget=None) -> None:
        exposed = option.exposedRect.adjusted(-R, -R, R, R)
        polys = self.geo.inner if self.outline is not None else self.geo.polys
        p.setRenderHint(QPainter.Antialiasing, self.outline is not None)  # fills tile: no need
        p.setPen(QPen(self.outline, 2.0) if self.outline is not None else Qt.NoPen)
        p.setBrush(self.fill if self.fill is not None else Qt.NoBrush)
        centres = self.geo.centres
        for k in self.keys:
            if exposed.contains(centres[k]):
                p.drawPolygon(polys[k])
        if self.labels:
            font = QFont("DejaVu Sans")
            font.setPixelSize(7)
            font.setBold(True)
            p.setFont(font)
            p.setPen(QColor("#102027"))
            for k, text in self.labels.items():
                c = centres.get(k)
                if c is not None and exposed.contains(c):
                    p.drawText(QRectF(c.x() - R, c.y() - 4, 2 * R, 10), Qt.AlignCenter, text)


class StackItem(QGraphicsItem):
    """The counters in one hex, drawn like the printed ones: the top counter, the others
    peeking out below it, a count badge, and marks for facing, hidden, entrenched, loaded."""

    def __init__(self, key: str, centre: QPointF, entries: list[dict]):
        super().__init__()
        self.key = key  # plain attribute, not item data
        self.entries = entries  # [{"unit": dict, "designation": str, "facing", "hidden", "entrenched", "loaded"}]
        self.setPos(centre)
        self.setZValue(30)
        s = R * style.COUNTER_SIZE
        self._rect = QRectF(-s / 2, -s / 2, s, s)
        depth = min(len(entries) - 1, 3) * 2.0
        self._bounds = self._rect.adjusted(-2, -2, depth + 8, depth + 4)
        self.fanned = False
        self.setAcceptHoverEvents(len(entries) > 1)
        self._keys = [face_key(e["unit"], e.get("designation", "")) for e in entries[:self.FAN_MAX]]

    FAN_STEP = 1.04  # of a counter's width: side by side, every face whole
    FAN_MAX = 8

    def boundingRect(self) -> QRectF:
        if self.fanned:
            shown = min(len(self.entries), self.FAN_MAX)
            return self._rect.adjusted(-2, -2, (shown - 1) * self._rect.width() * self.FAN_STEP + 4, 4)
        return self._bounds

    # A stack under the pointer fans out to the right: every counter of the hex shown face up.
    def hoverEnterEvent(self, event) -> None:
        self.prepareGeometryChange()
        self.fanned = True
        self.setZValue(45)
        self.update()

    def hoverLeaveEvent(self, event) -> None:
        self.prepareGeometryChange()
        self.fanned = False
        self.setZValue(30)
        self.update()

    def paint(self, p: QPainter, option, widget=None) -> None:
        if self.fanned:
            step = self._rect.width() * self.FAN_STEP
            for i, e in enumerate(self.entries[:self.FAN_MAX]):
                r = self._rect.translated(i * step, 0)
                p.setPen(QPen(QColor("#111"), 0.8))
                p.setBrush(QColor("#fff"))
                p.drawRect(r.adjusted(-0.5, -0.5, 0.5, 0.5))
                self._face(p, r, e, self._keys[i])
            return
        lod = QStyleOptionGraphicsItem.levelOfDetailFromTransform(p.worldTransform())
        n = len(self.entries)
        for i in range(min(n - 1, 3), 0, -1):  # the ones below, offset down-right
            e = self.entries[min(i, n - 1)]
            p.setPen(QPen(QColor("#303030"), 0.6))
            p.setBrush(NATION_COLOURS.get(e["unit"].get("nationality"), QColor("#bbb")).darker(110))
            p.drawRect(self._rect.translated(i * 2.0, i * 2.0))
        top = self.entries[0]
        if lod * self._rect.width() < 22:  # too small to read: the counter's colour and class
            p.setPen(QPen(QColor("#202020"), 0.8))
            p.setBrush(NATION_COLOURS.get(top["unit"].get("nationality"), QColor("#bbb")))
            p.drawRect(self._rect)
        else:
            self._face(p, self._rect, top, self._keys[0])
        r = self._rect
        if top.get("hidden"):
            pen = QPen(QColor("#1a237e"), 1.4)
            pen.setStyle(Qt.DashLine)
            p.setPen(pen)
            p.setBrush(colour("#ffffff", 110))
            p.drawRect(r)
            p.setPen(QColor("#1a237e"))
            p.setFont(_font(7, True))
            p.drawText(r, Qt.AlignCenter, "H")
        if top.get("entrenched"):
            p.setPen(Qt.NoPen)
            p.setBrush(QColor("#5d4037"))
            p.drawRect(QRectF(r.left(), r.bottom() - 2.2, r.width(), 2.2))
        if top.get("loaded"):
            p.setPen(QColor("#0d47a1"))
            p.setFont(_font(6, True))
            p.drawText(QRectF(r.left() - 1, r.top() - 7, 8, 7), Qt.AlignLeft, "L")
        facing = top.get("facing")
        if facing is not None:  # hexside the counter's top faces: 0 up the page, clockwise
            a = math.radians(-90 + 60 * facing)
            tip = QPointF(math.cos(a) * R * 0.95, math.sin(a) * R * 0.95)
            base = QPointF(math.cos(a) * R * 0.6, math.sin(a) * R * 0.6)
            side = QPointF(-math.sin(a) * 3, math.cos(a) * 3)
            p.setPen(Qt.NoPen)
            p.setBrush(QColor("#b71c1c"))
            p.drawPolygon(QPolygonF([tip, base + side, base - side]))
        if n > 1:
            p.setPen(QPen(QColor("#fff"), 0.6))
            p.setBrush(QColor("#263238"))
            badge = QRectF(r.right() - 3, r.top() - 5, 9, 8)
            p.drawEllipse(badge)
            p.setFont(_font(6, True))
            p.drawText(badge, Qt.AlignCenter, str(n))


    @staticmethod
    def _face(p: QPainter, r: QRectF, entry: dict, key: str) -> None:
        """The printed counter (the print code's drawing, as in VASSAL) once rendered; until
        then, or without poppler, the editor's own painter."""
        pix = faces().get(entry["unit"], entry.get("designation", ""), key)
        if pix is None:
            paint_counter(p, r, entry["unit"], entry.get("designation", ""))
            return
        p.save()
        p.setRenderHint(QPainter.SmoothPixmapTransform)
        p.drawPixmap(r, pix, QRectF(pix.rect()))
        p.restore()


def _font(px: float, bold: bool = False) -> QFont:
    f = QFont("DejaVu Sans")
    f.setPixelSize(max(1, int(px)))
    f.setBold(bold)
    return f


class BoardCanvas(QGraphicsScene):
    """A board with named overlays and counter stacks; rebuilt only when the board changes."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.geo: Geometry | None = None
        self.layer: TerrainLayer | None = None
        self.overlays: dict[str, QGraphicsItem] = {}
        self.stacks: dict[str, StackItem] = {}
        faces().ready.connect(self._faces_ready)

    def _faces_ready(self) -> None:
        for item in self.stacks.values():  # the printed counters arrived: only the stacks repaint
            item.update()
        self.setBackgroundBrush(QColor("#fafafa"))

    @property
    def board(self) -> Board | None:
        return self.geo.board if self.geo else None

    def set_board(self, board: Board, terrain, maps: dict) -> None:
        self.clear()
        self.overlays, self.stacks = {}, {}
        self.geo = Geometry(board)
        self.layer = TerrainLayer(self.geo, terrain, maps)
        self.addItem(self.layer)
        self.setSceneRect(self.geo.rect().adjusted(-30, -30, 30, 30))

    def set_terrain(self, terrain, maps: dict | None = None) -> None:
        if self.layer is not None:
            self.layer.terrain = terrain
            if maps is not None:
                self.layer.maps = maps
            self.layer.refresh()

    def centre(self, key: str) -> QPointF:
        return self.geo.centres[key]

    def key_at(self, pos: QPointF, usable_only: bool = True) -> str | None:
        return self.geo.key_at(pos, usable_only) if self.geo else None

    # --- overlays -----------------------------------------------------------------------

    def clear_overlay(self, name: str) -> None:
        item = self.overlays.pop(name, None)
        if item is not None:
            self.removeItem(item)

    def overlay(self, name: str, keys: Iterable[str], fill: QColor | None = None, outline: QColor | None = None,
                labels: dict[str, str] | None = None, z: float = 10) -> None:
        self.clear_overlay(name)
        if self.geo is None:
            return
        if fill is None and outline is None:
            fill = overlay_colour(name) if name in style.OVERLAYS else overlay_colour("zone")
        item = HexOverlay(self.geo, keys, fill, outline, labels, z)
        self.addItem(item)
        self.overlays[name] = item

    def polyline(self, name: str, keys: list[str], pen: QPen, z: float = 40) -> None:
        self.clear_overlay(name)
        if self.geo is None or len(keys) < 2:
            return
        path = QPainterPath(self.geo.centres[keys[0]])
        for k in keys[1:]:
            path.lineTo(self.geo.centres[k])
        item = self.addPath(path, pen)
        item.setZValue(z)
        self.overlays[name] = item

    # --- counters -----------------------------------------------------------------------

    def set_stacks(self, stacks: dict[str, list[dict]]) -> None:
        for item in self.stacks.values():
            self.removeItem(item)
        self.stacks = {}
        if self.geo is None:
            return
        for key, entries in stacks.items():
            if key in self.geo.centres and entries:
                item = StackItem(key, self.geo.centres[key], entries)
                self.addItem(item)
                self.stacks[key] = item


class CanvasView(QGraphicsView):
    """Zoom with the wheel, pan by dragging where the tool does not act; mouse gestures go
    to ``tool`` (an object with press/move/release(view, key, event) returning True when
    it handled the event). ``hovered`` gives the hex under the cursor."""

    hovered = Signal(str)

    def __init__(self, scene: BoardCanvas, parent=None):
        super().__init__(scene, parent)
        self.setRenderHint(QPainter.Antialiasing)
        self.setDragMode(QGraphicsView.ScrollHandDrag)
        self.setMouseTracking(True)
        self.setTransformationAnchor(QGraphicsView.AnchorUnderMouse)
        self.setViewportUpdateMode(QGraphicsView.SmartViewportUpdate)
        self.tool = None
        self._last = None
        self._tool_grab = False
        self.drop_handler: Callable | None = None  # (key or None, mime, QPointF) -> bool
        self.setAcceptDrops(True)

    def canvas(self) -> BoardCanvas:
        return self.scene()

    def key_at_event(self, event) -> str | None:
        return self.canvas().key_at(self.mapToScene(event.position().toPoint()))

    def wheelEvent(self, event) -> None:
        factor = 1.15 if event.angleDelta().y() > 0 else 1 / 1.15
        self.scale(factor, factor)

    def mousePressEvent(self, event) -> None:
        if self.tool is not None and self.tool.press(self, self.key_at_event(event), event):
            self._tool_grab = True
            event.accept()
            return
        super().mousePressEvent(event)

    def mouseMoveEvent(self, event) -> None:
        key = self.key_at_event(event)
        if self._tool_grab and self.tool is not None:
            self.tool.move(self, key, event)
        else:
            super().mouseMoveEvent(event)
            if self.tool is not None and hasattr(self.tool, "hover"):
                self.tool.hover(self, key, event)
        if key and key != self._last:
            self._last = key
            self.hovered.emit(key)

    def mouseReleaseEvent(self, event) -> None:
        if self._tool_grab and self.tool is not None:
            self._tool_grab = False
            self.tool.release(self, self.key_at_event(event), event)
            event.accept()
            return
        super().mouseReleaseEvent(event)

    def contextMenuEvent(self, event) -> None:
        if self.tool is not None and hasattr(self.tool, "context_menu"):
            key = self.canvas().key_at(self.mapToScene(event.pos()))
            menu = self.tool.context_menu(self, key)
            if menu is not None and not menu.isEmpty():
                menu.exec(event.globalPos())
                # the menu is a child of the long-lived workbench: without this every
                # right-click on the board left one behind until the window closed
                menu.deleteLater()
                return
        super().contextMenuEvent(event)

    # drops from the formation palette (a QDrag carrying units)
    def dragEnterEvent(self, event) -> None:
        if self.drop_handler is not None and event.mimeData().hasFormat(UNITS_MIME):
            event.acceptProposedAction()
        else:
            super().dragEnterEvent(event)

    def dragMoveEvent(self, event) -> None:
        if self.drop_handler is not None and event.mimeData().hasFormat(UNITS_MIME):
            key = self.canvas().key_at(self.mapToScene(event.position().toPoint()))
            if self.tool is not None and hasattr(self.tool, "drag_over"):
                self.tool.drag_over(self, key, event.mimeData())
            event.acceptProposedAction()
        else:
            super().dragMoveEvent(event)

    def dropEvent(self, event) -> None:
        if self.drop_handler is not None and event.mimeData().hasFormat(UNITS_MIME):
            key = self.canvas().key_at(self.mapToScene(event.position().toPoint()))
            if self.drop_handler(key, event.mimeData()):
                event.setDropAction(Qt.CopyAction)  # a copy: the palette keeps its rows
                event.accept()
                return
        super().dropEvent(event)

    def fit(self) -> None:
        r = self.canvas().geo.rect() if self.canvas().geo else self.canvas().itemsBoundingRect()
        if not r.isEmpty():
            self.fitInView(r.adjusted(-10, -10, 10, 10), Qt.KeepAspectRatio)

    def zoom_on(self, key: str, scale: float = 3.0) -> None:
        self.resetTransform()
        self.scale(scale, scale)
        self.centerOn(self.canvas().centre(key))

    def export_png(self, path: str, scale: float = 2.0) -> QImage:
        """What the view shows, rendered at ``scale`` times the screen resolution."""
        vp = self.viewport().rect()
        img = QImage(int(vp.width() * scale), int(vp.height() * scale), QImage.Format_ARGB32)
        img.fill(QColor("#fafafa"))
        p = QPainter(img)
        p.setRenderHint(QPainter.Antialiasing)
        self.render(p, QRectF(img.rect()), vp)
        p.end()
        img.save(path)
        return img


UNITS_MIME = "application/x-sandtable-units"


class Minimap(QGraphicsView):
    """The whole board small, with the main view's visible area framed; click to go there."""

    def __init__(self, scene: BoardCanvas, main: CanvasView, parent=None):
        super().__init__(scene, parent)
        self.main = main
        self.setInteractive(False)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarAlwaysOff)
        self.setVerticalScrollBarPolicy(Qt.ScrollBarAlwaysOff)
        self.setFixedSize(180, 150)
        self.setRenderHint(QPainter.Antialiasing, False)
        main.horizontalScrollBar().valueChanged.connect(lambda _: self.viewport().update())
        main.verticalScrollBar().valueChanged.connect(lambda _: self.viewport().update())

    def refit(self) -> None:
        if self.scene().geo:
            self.fitInView(self.scene().geo.rect(), Qt.KeepAspectRatio)

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        self.refit()

    def drawForeground(self, p: QPainter, rect: QRectF) -> None:
        seen = self.main.mapToScene(self.main.viewport().rect()).boundingRect()
        p.setPen(QPen(QColor("#d32f2f"), 0))
        p.setBrush(colour("#d32f2f", 30))
        p.drawRect(seen)

    def mousePressEvent(self, event) -> None:
        self.main.centerOn(self.mapToScene(event.position().toPoint()))
        self.viewport().update()
