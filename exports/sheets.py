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

from reportlab.lib.colors import Color, black

from .page import CUT, DEFAULT_MARGIN, MM, SIDE_NOTE_BAND, Doc, page_note, registration_mark

_GAP = 1.0 * MM  # between a piece's bleed and its crop marks
_TIGHT_GAP = 0.3 * MM  # the same where a side has no bleed (no colour to clear)
_MIN_MARK = 0.9 * MM  # a crop mark shorter than this is not worth printing
_NOTES = 4.2 * MM  # the head and foot lines' strip inside the safe margin (crop marks stop short of it)

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
    # never into the printer's unprintable strip: a wider safe margin costs a row, not a cut piece
    grid = grid_for(doc.size[0], doc.size[1], cell_w, cell_h, max(margin, doc.profile.safe + 0.3 * MM))
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
            # the sheet is cut along the outer cut lines of the pieces: its TrimBox; the bleed beyond
            xs_used = [p.x for p in placed] + [p.x + cell_w for p in placed]
            x0, x1 = min(xs_used), max(xs_used)
            y0, y1 = min(ys), max(ys)
            if face == "back":
                bx0, by0 = profile.back_rect(x0, y0, x1 - x0, y1 - y0, W, H)
                x0, y0, x1, y1 = bx0, by0, bx0 + (x1 - x0), by0 + (y1 - y0)
            marks = doc.profile.marks != "none" and (face == "front" or profile.marks == "both")
            limits = _limits(doc, tight)
            outer = _outer_bleed(bleed, (x0, y0, x1, y1), (W, H), limits, marks)
            clip = (x0 - outer["left"], y0 - outer["bottom"], x1 + outer["right"], y1 + outer["top"])
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
                c.rect(*_clamp(_bleed_rect(x, y, cell_w, cell_h, bleed, open_sides), clip), stroke=0, fill=1)
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
            doc.set_trim((x0, y0, x1, y1), max(outer.values()))
            if marks:
                _marks(doc, grid, ys, outer, limits, face)
    return pages


def _limits(doc: Doc, tight: bool) -> dict[str, float]:
    """How far from each paper edge marks and bleed must stay: the printer's safe margin, and the
    page notes' strip (above and below the sheet, or up the side margins of a tight sheet)."""
    safe = doc.profile.safe
    notes = safe + (SIDE_NOTE_BAND if tight else 0)
    ends = safe if tight else safe + _NOTES
    return {"left": notes, "right": notes, "top": ends, "bottom": ends}


def _outer_bleed(bleed: float, trim: tuple[float, float, float, float], page: tuple[float, float],
                 limits: dict[str, float], marks: bool) -> dict[str, float]:
    """The bleed on each outer side of the sheet: none where the bleed, a gap and a crop mark would
    not fit before the limit (Letter's nine poker cards leave 6.35 mm above and below), so the
    colour never enters the unprintable strip and the marks stay outside the cut."""
    W, H = page
    x0, y0, x1, y1 = trim
    room = {"left": x0 - limits["left"], "right": W - limits["right"] - x1, "bottom": y0 - limits["bottom"],
            "top": H - limits["top"] - y1}
    need = _GAP + _MIN_MARK if marks else 0.0
    return {k: bleed if r >= bleed + need else (0.0 if marks else max(0.0, min(bleed, r)))
            for k, r in room.items()}


def _clamp(rect: tuple, clip: tuple) -> tuple:
    x, y, w, h = rect
    cx0, cy0, cx1, cy1 = clip
    nx0, ny0 = max(x, cx0), max(y, cy0)
    nx1, ny1 = min(x + w, cx1), min(y + h, cy1)
    return nx0, ny0, max(0.0, nx1 - nx0), max(0.0, ny1 - ny0)


def _marks(doc: Doc, grid: Grid, ys: list[float], outer: dict[str, float], limits: dict[str, float],
           face: str) -> None:
    """Crop marks in line with every cut line, outside the bleed and inside the limits; a
    registration mark off each corner where one fits."""
    W, H = doc.w, doc.h
    c = doc.c
    xs = grid.xs
    if face == "back":
        xs = sorted(doc.profile.back_rect(x, 0, 0, 0, W, H)[0] for x in xs)
        ys = sorted(doc.profile.back_rect(0, y, 0, 0, W, H)[1] for y in ys)
    x0, x1, y0, y1 = min(xs), max(xs), min(ys), max(ys)
    c.setStrokeColor(black)
    c.setLineWidth(0.3)
    def gap(side: str) -> float:
        return outer[side] + (_GAP if outer[side] > 0 else _TIGHT_GAP)
    spans = {"top": (y1 + gap("top"), H - limits["top"]),
             "bottom": (y0 - gap("bottom"), limits["bottom"]),
             "left": (x0 - gap("left"), limits["left"]),
             "right": (x1 + gap("right"), W - limits["right"])}
    for side, (start, stop) in spans.items():
        length = min(4 * MM, abs(stop - start))
        if (stop - start) * (1 if side in ("top", "right") else -1) < _MIN_MARK:
            continue
        end = start + length if side in ("top", "right") else start - length
        for v in (xs if side in ("top", "bottom") else ys):
            if side in ("top", "bottom"):
                c.line(v, start, v, end)
            else:
                c.line(start, v, end, v)
    for sx, sy in (("left", "bottom"), ("right", "bottom"), ("left", "top"), ("right", "top")):
        # the corner's mark sits diagonally off the grid, within both sides' room
        ax, bx = sorted(spans[sx])
        ay, by = sorted(spans[sy])
        r = min(2.2 * MM, (bx - ax) / 2, (by - ay) / 2)
        if r < 0.8 * MM:
            continue
        cx = ax + r if sx == "right" else bx - r
        cy = ay + r if sy == "top" else by - r
        registration_mark(c, cx, cy, r=r)
