"""Drawing a board: hex centres and corners on the page, terrain, zones.

The board (``rules/board.py``) places every hex centre at x in sixths of a column step
and y in half hex heights, y running down the page. With regular flat-topped hexes of
radius R, a column step is 1.5 R = 6 x units, so an x unit is R/4 (``k`` points); a y
unit is half a hex height, (√3/2)·R = 2√3·k points (``ky``).
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Iterable

from reportlab.lib.colors import Color, HexColor, white
from reportlab.pdfgen.canvas import Canvas

from sandtable.rules import hexmath
from sandtable.rules.board import Board

from sandtable.rules import board_style

from .page import TERRAIN_COLOUR

SQRT3 = math.sqrt(3)
_COS = tuple(math.cos(math.radians(a)) for a in range(0, 360, 60))
_SIN = tuple(math.sin(math.radians(a)) for a in range(0, 360, 60))
HALF_HEX = HexColor(board_style.HALF_HEX)  # the style table's (its contrast is tested)


@dataclass
class BoardGeometry:
    board: Board
    k: float  # points per x unit (a quarter of the hex radius)
    x0: float  # page x of the board's left edge
    top: float  # page y of the board's top edge

    @property
    def ky(self) -> float:
        return 2 * SQRT3 * self.k

    @property
    def radius(self) -> float:
        return 4 * self.k

    @property
    def bounds(self) -> dict:
        return self.board.page_edges["*"]

    @property
    def width(self) -> float:
        b = self.bounds
        return (b["right"] - b["left"]) * self.k

    @property
    def height(self) -> float:
        b = self.bounds
        return (b["bottom"] - b["top"]) * self.ky

    @classmethod
    def fit(cls, board: Board, max_w: float, max_h: float, x0: float = 0, top: float = 0) -> "BoardGeometry":
        b = board.page_edges["*"]
        k = min(max_w / (b["right"] - b["left"]), max_h / ((b["bottom"] - b["top"]) * 2 * SQRT3))
        return cls(board, k, x0, top)

    def units_to_page(self, gx: float, gy: float) -> tuple[float, float]:
        b = self.bounds
        return self.x0 + (gx - b["left"]) * self.k, self.top - (gy - b["top"]) * self.ky

    def centre(self, key: str) -> tuple[float, float]:
        return self.units_to_page(*self.board.page_xy(key))

    def corners(self, key: str) -> list[tuple[float, float]]:
        cx, cy = self.centre(key)
        r = self.radius
        return [(cx + r * math.cos(math.radians(a)), cy + r * math.sin(math.radians(a))) for a in range(0, 360, 60)]

    def edge(self, key: str, direction: tuple[int, int]) -> tuple[tuple[float, float], tuple[float, float]]:
        """The side of a hex toward an axial direction (whether or not a hex lies there)."""
        dq, dr = direction
        dx, dy = 6 * dq * self.k, -(2 * dr + dq) * self.ky
        theta = math.atan2(dy, dx)
        cx, cy = self.centre(key)
        r = self.radius
        a, b = theta - math.pi / 6, theta + math.pi / 6
        return (cx + r * math.cos(a), cy + r * math.sin(a)), (cx + r * math.cos(b), cy + r * math.sin(b))

    def hex_literal(self, key: str, shrink: float = 1.0) -> str:
        """The hexagon as raw PDF path operators (many hexes make one path: fast to write and to print)."""
        cx, cy = self.centre(key)
        r = self.radius * shrink
        pts = [(cx + r * _COS[i], cy + r * _SIN[i]) for i in range(6)]
        return ("%.2f %.2f m " % pts[0] + " ".join("%.2f %.2f l" % pt for pt in pts[1:]) + " h")

    def fill_hexes(self, c: Canvas, keys: Iterable[str], fill: Color, stroke: Color | None = None,
                   line_width: float = 0.3, shrink: float = 1.0, alpha: float | None = None) -> None:
        """Fill (and outline) hexes of one colour in a single path."""
        keys = list(keys)
        if not keys:
            return
        c.setFillColor(fill)
        if alpha is not None:  # after the colour, which brings its own alpha
            c.setFillAlpha(alpha)
        if stroke is not None:
            c.setStrokeColor(stroke)
            c.setLineWidth(line_width)
        body = " ".join(self.hex_literal(k, shrink) for k in keys)
        c.addLiteral(body + (" B" if stroke is not None else " f"))

    def clip_to_board(self, c: Canvas) -> None:
        """Clip drawing to the paper of the maps (half hexes are cut by the edge)."""
        p = c.beginPath()
        for m in self.board.maps():
            e = self.board.page_edges[m]
            x0, y0 = self.units_to_page(e["left"], e["bottom"])
            x1, y1 = self.units_to_page(e["right"], e["top"])
            p.rect(x0, y0, x1 - x0, y1 - y0)
        c.clipPath(p, stroke=0, fill=0)


def draw_terrain(c: Canvas, geo: BoardGeometry, maps: dict, keys: Iterable[str], outline: Color | None,
                 line_width: float = 0.3, faded: bool = False) -> None:
    """Fill each hex with its printed colour band (§3.4); half hexes grey."""
    board = geo.board
    by_colour: dict[str, list[str]] = {}
    for key in keys:
        cell = board.cells[key]
        if cell.half:
            by_colour.setdefault("_half", []).append(key)
        else:
            m = maps[cell.map_id]
            colour = m.hexes.get(cell.hex_id, {}).get("colour", m.default_colour)
            by_colour.setdefault(colour, []).append(key)
    for colour in sorted(by_colour):
        fill = HALF_HEX if colour == "_half" else TERRAIN_COLOUR.get(colour, white)
        if faded:
            fill = Color(1 - (1 - fill.red) * 0.55, 1 - (1 - fill.green) * 0.55, 1 - (1 - fill.blue) * 0.55)
        geo.fill_hexes(c, by_colour[colour], fill, outline, line_width)


def zone_outline(c: Canvas, geo: BoardGeometry, hexes: frozenset[str] | set[str], colour: Color,
                 line_width: float) -> None:
    """The boundary of a set of hexes: every side whose other hex is outside the set."""
    board = geo.board
    axial_in = {board.cells[h].axial for h in hexes}
    c.setStrokeColor(colour)
    c.setLineWidth(line_width)
    c.setLineCap(1)
    p = c.beginPath()
    for h in sorted(hexes):
        a = board.cells[h].axial
        for d in hexmath.DIRECTIONS:
            if hexmath.add(a, d) not in axial_in:
                (x1, y1), (x2, y2) = geo.edge(h, d)
                p.moveTo(x1, y1)
                p.lineTo(x2, y2)
    c.drawPath(p, stroke=1, fill=0)
    c.setLineCap(0)
