"""Sheets of pieces to cut out (counters, markers, cards), fronts and backs on facing pages.

Pieces sit edge to edge in a grid centred on the page (shared cut lines, as die-cut
sheets), within the margins: half-inch counters fit 14 x 21 = 294 on A4 with 10 mm
margins, 5/8-inch ones 11 x 17 = 187. Each front page is followed by its back page,
where every piece lands behind its front (``PrinterProfile.back_rect``). A piece's
colour bleeds past every cut line that has no neighbour, so a cut that wanders shows
colour, not paper. Crop marks continue the cut lines into the margin and four
registration marks sit off the grid's corners; both are on the front by default.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable, Sequence

from reportlab.lib.colors import Color

from .page import CUT, DEFAULT_MARGIN, MM, Doc, crop_marks, page_note, registration_mark

Draw = Callable[[Doc, float, float], None]


@dataclass(frozen=True)
class Piece:
    """One thing to cut out: its colours and how to draw each face's content at (x, y)."""

    subject: str
    front: Draw
    front_colour: Color
    back: Draw | None = None
    back_colour: Color | None = None
    group: str = ""  # a change of group starts a new row when rows_by_group is set


@dataclass(frozen=True)
class Grid:
    cols: int
    rows: int
    x0: float  # left edge of the grid
    top: float  # top edge of the grid (y of the first row's upper cut line)
    cell_w: float
    cell_h: float

    @property
    def capacity(self) -> int:
        return self.cols * self.rows

    def xy(self, col: int, row: int) -> tuple[float, float]:
        """Lower-left corner of a cell (rows from the top)."""
        return self.x0 + col * self.cell_w, self.top - (row + 1) * self.cell_h

    @property
    def xs(self) -> list[float]:
        return [self.x0 + i * self.cell_w for i in range(self.cols + 1)]

    def ys(self, rows: int | None = None) -> list[float]:
        return [self.top - i * self.cell_h for i in range((self.rows if rows is None else rows) + 1)]


def grid_for(page_w: float, page_h: float, cell_w: float, cell_h: float, margin: float = DEFAULT_MARGIN) -> Grid:
    """As many cells as fit inside the margins, the grid centred on the page."""
    eps = 1e-6
    cols = int(math.floor((page_w - 2 * margin + eps) / cell_w))
    rows = int(math.floor((page_h - 2 * margin + eps) / cell_h))
    if cols < 1 or rows < 1:
        raise ValueError("the pieces are larger than the printable area of the page")
    x0 = (page_w - cols * cell_w) / 2
    top = page_h - (page_h - rows * cell_h) / 2
    return Grid(cols, rows, x0, top, cell_w, cell_h)


@dataclass(frozen=True)
class Placed:
    index: int  # into the pieces
    col: int
    row: int
    x: float
    y: float


def plan(pieces: Sequence[Piece], grid: Grid, rows_by_group: bool = False, gutter: float = 0.0
         ) -> list[list[Placed]]:
    """Pieces in reading order, page after page; optionally a new row for each new group, with a
    gutter (empty strip) above it, so no cut line is shared by two colours."""
    pages: list[list[Placed]] = []
    current: list[Placed] = []
    col = row = 0
    offset = 0.0  # the gutters above the current row, on this page
    lowest = grid.top - grid.rows * grid.cell_h - 1e-6
    previous = None
    for i, piece in enumerate(pieces):
        if rows_by_group and previous is not None and piece.group != previous:
            if col > 0:
                col, row = 0, row + 1
            if current:
                offset += gutter
        if col >= grid.cols:
            col, row = 0, row + 1
        y = grid.top - (row + 1) * grid.cell_h - offset
        if y < lowest:
            pages.append(current)
            current, col, row, offset = [], 0, 0, 0.0
            y = grid.top - grid.cell_h
        current.append(Placed(i, col, row, grid.x0 + col * grid.cell_w, y))
        previous = piece.group
        col += 1
    if current:
        pages.append(current)
    return pages


def _bleed_rect(x: float, y: float, w: float, h: float, bleed: float, open_sides: set[str]) -> tuple:
    left = bleed if "left" in open_sides else 0
    right = bleed if "right" in open_sides else 0
    bottom = bleed if "bottom" in open_sides else 0
    top = bleed if "top" in open_sides else 0
    return x - left, y - bottom, w + left + right, h + bottom + top


def _open_sides(p: Placed, taken: dict[tuple[int, int], float], cell_h: float) -> set[str]:
    """The sides of a piece with no piece against them (a gutter leaves a side open)."""
    sides = set()
    if (p.col - 1, p.row) not in taken:
        sides.add("left")
    if (p.col + 1, p.row) not in taken:
        sides.add("right")
    above, below = taken.get((p.col, p.row - 1)), taken.get((p.col, p.row + 1))
    if above is None or abs(above - (p.y + cell_h)) > 0.01:
        sides.add("top")
    if below is None or abs(below - (p.y - cell_h)) > 0.01:
        sides.add("bottom")
    return sides


_MIRROR_LONG = {"left": "right", "right": "left", "top": "top", "bottom": "bottom"}
_MIRROR_SHORT = {"left": "left", "right": "right", "top": "bottom", "bottom": "top"}


def draw_sheets(doc: Doc, pieces: Sequence[Piece], cell_w: float, cell_h: float, *, heading: str,
                backs: bool = True, bleed: float = 1.5 * MM, cut_lines: bool = True, margin: float = DEFAULT_MARGIN,
                rows_by_group: bool = False, bookmark: str | None = None, gutter: float | None = None
                ) -> list[list[Placed]]:
    """Front page, back page, front page... Returns the plan (for tests and the kit).

    With rows_by_group, each group (a colour) starts a row below a gutter of twice the bleed
    plus 1 mm: both sides bleed into it and a white hairline is left between them."""
    c = doc.c
    grid = grid_for(doc.size[0], doc.size[1], cell_w, cell_h, margin)
    if gutter is None:
        gutter = 2 * bleed + 1 * MM if rows_by_group else 0.0
    pages = plan(pieces, grid, rows_by_group, gutter)
    tight = grid.top > doc.size[1] - 9 * MM  # no room above the sheet: the page notes go in the side margins
    profile = doc.profile
    if backs:
        doc.to_odd_page()
    for n, placed in enumerate(pages, start=1):
        taken = {(p.col, p.row): p.y for p in placed}
        ys = sorted({round(v, 4) for p in placed for v in (p.y, p.y + cell_h)})
        for face in ("front", "back") if backs else ("front",):
            doc.begin()
            W, H = doc.w, doc.h
            if n == 1 and face == "front" and bookmark:
                doc.bookmark(bookmark)
            label = doc.t("sheet {n} of {total}, back (back of the page before)" if face == "back" else
                          "sheet {n} of {total}, front", n=n, total=len(pages))
            page_note(doc, heading, label, side=tight)
            for p in placed:
                piece = pieces[p.index]
                open_sides = _open_sides(p, taken, cell_h)
                if face == "front":
                    x, y = p.x, p.y
                    colour, draw = piece.front_colour, piece.front
                else:
                    x, y = profile.back_rect(p.x, p.y, cell_w, cell_h, W, H)
                    colour = piece.back_colour or piece.front_colour
                    draw = piece.back
                    mirror = _MIRROR_SHORT if profile.flip == "short" else _MIRROR_LONG
                    open_sides = {mirror[s] for s in open_sides}
                c.setFillColor(colour)
                c.rect(*_bleed_rect(x, y, cell_w, cell_h, bleed, open_sides), stroke=0, fill=1)
                if draw is not None:
                    if face == "back" and profile.upside_down:
                        c.saveState()
                        c.translate(x + cell_w / 2, y + cell_h / 2)
                        c.rotate(180)
                        draw(doc, -cell_w / 2, -cell_h / 2)
                        c.restoreState()
                    else:
                        draw(doc, x, y)
                if cut_lines:
                    c.setStrokeColor(CUT)
                    c.setLineWidth(0.25)
                    c.rect(x, y, cell_w, cell_h, stroke=1, fill=0)
            # the sheet is cut along the outer cut lines of the pieces: its TrimBox; the bleed beyond
            xs_used = [p.x for p in placed] + [p.x + cell_w for p in placed]
            x0, x1 = min(xs_used), max(xs_used)
            y0, y1 = min(ys), max(ys)
            if face == "back":
                bx0, by0 = profile.back_rect(x0, y0, x1 - x0, y1 - y0, W, H)
                x0, y0, x1, y1 = bx0, by0, bx0 + (x1 - x0), by0 + (y1 - y0)
            doc.set_trim((x0, y0, x1, y1), bleed)
            if face == "front" or profile.marks == "both":
                _marks(doc, grid, ys, bleed, face)
    return pages


def _marks(doc: Doc, grid: Grid, ys: list[float], bleed: float, face: str) -> None:
    if doc.profile.marks == "none":
        return
    W, H = doc.w, doc.h
    xs = grid.xs
    if face == "back":
        xs = sorted(doc.profile.back_rect(x, 0, 0, 0, W, H)[0] for x in xs)
        ys = sorted(doc.profile.back_rect(0, y, 0, 0, W, H)[1] for y in ys)
    # room between the bleed and the page note lines (6.2 mm from the top and bottom edges)
    room = min(min(xs), W - max(xs), H - max(ys) - 8 * MM, min(ys) - 8 * MM) - bleed - 1 * MM
    room = max(room, min(H - max(ys), min(ys)) - bleed - 1.5 * MM)  # a tight sheet: marks to the page edge
    length = max(1.5 * MM, min(4 * MM, room))
    crop_marks(doc.c, xs, ys, bleed, length)
    d = bleed + 1 * MM + 2.4 * MM
    for x, y in ((min(xs) - d, min(ys) - d), (max(xs) + d, min(ys) - d), (min(xs) - d, max(ys) + d),
                 (max(xs) + d, max(ys) + d)):
        registration_mark(doc.c, x, y, r=max(0.8 * MM, min(2.2 * MM, d - bleed - 0.6 * MM, H - max(ys) - d - 0.4 * MM,
                                                          min(ys) - d - 0.4 * MM)))
