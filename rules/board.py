"""The board: one or more printed maps joined as a configuration says, as one hex lattice.

This is the one place that knows geometry. Each map's hexes sit in flat-top columns; a
map's paper edge either runs through the centres of its outer hexes (they are half
hexes, never usable, §2.51) or along their outer corners. Maps are laid edge to edge as
the layout prints them; every hex centre is then placed on one global axial lattice
(Red Blob Games' coordinates), where half hexes of two maps that meet at a seam fall on
the same cell. If two maps' grids do not line up, that is a finding, not a guess.

Units: x in sixths of a column step (a column is 6), y in half hex heights (a row is 2).
A full side edge runs halfway between two columns' centres, so a map with full side
edges continues its neighbour's columns; a half-hex side edge runs through its outer
column's centres, so two such maps share that column (merged, unusable).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

import networkx as nx

from . import hexmath
from .hexmath import Axial

PAGE_EDGES = ("top", "right", "bottom", "left")
COMPASS = ("north", "east", "south", "west")
# Where each compass edge is on the page, for each way the north arrow can point.
_COMPASS_TO_PAGE = {
    "up": {"north": "top", "east": "right", "south": "bottom", "west": "left"},
    "right": {"north": "right", "east": "bottom", "south": "left", "west": "top"},
    "down": {"north": "bottom", "east": "left", "south": "top", "west": "right"},
    "left": {"north": "left", "east": "top", "south": "right", "west": "bottom"},
}


class BoardError(ValueError):
    """A configuration that cannot be laid out (the message says why)."""


@dataclass(frozen=True)
class Cell:
    """One printed hex of one map."""

    map_id: str
    hex_id: str  # CCRR as printed
    axial: Axial
    half: bool  # cut by a paper edge: never usable

    @property
    def key(self) -> str:
        return f"{self.map_id}{self.hex_id}"


@dataclass
class _Sheet:
    map_id: str
    columns: tuple[int, int]
    rows: tuple[int, int]
    shifted: str  # "odd" | "even"
    half: dict  # page edge -> bool
    # edges in local units
    left: int = 0
    right: int = 0
    top: int = 0
    bottom: int = 0

    def is_shifted(self, col: int) -> bool:
        return (col % 2 == 1) == (self.shifted == "odd")

    def local(self, col: int, row: int) -> tuple[int, int]:
        return 6 * (col - self.columns[0]), 2 * (row - self.rows[0]) + (1 if self.is_shifted(col) else 0)

    def compute_edges(self) -> None:
        """Where the paper edges run, in local units.

        A half-hex edge runs through hex centres: the first or last column for the sides,
        the first or last row of the raised (unshifted) columns for the top and bottom, so
        that any two maps meet half hex to half hex on every side. A full side edge runs
        halfway to the next column; a full top or bottom edge along the outermost hexes.
        """
        c0, c1 = self.columns
        span = self.rows[1] - self.rows[0]
        self.left = 0 if self.half.get("left") else -3
        self.right = 6 * (c1 - c0) + (0 if self.half.get("right") else 3)
        self.top = 0 if self.half.get("top") else -1
        self.bottom = 2 * span if self.half.get("bottom") else 2 * span + 2
        if self.is_shifted(c0) and self.half.get("top"):
            self.top = 0  # the raised columns are the others; their first row still sits at 0
        if not any(not self.is_shifted(c) for c in range(c0, c1 + 1)):
            self.top, self.bottom = self.top + 1, self.bottom + 1  # a one-column map of lowered hexes


@dataclass
class Board:
    """Geometry of a map configuration. Node keys are the maps' own ids, e.g. ``A2213``."""

    layout: list[list[str]]
    north: str
    cells: dict[str, Cell] = field(default_factory=dict)  # key -> cell (half hexes included)
    by_axial: dict[Axial, list[Cell]] = field(default_factory=dict)
    page_edges: dict[str, dict[str, int]] = field(default_factory=dict)  # map id or "*" -> edge -> coordinate
    _xy: dict[str, tuple[int, int]] = field(default_factory=dict)  # key -> global (x, y) units
    _neighbours: dict[str, tuple[str, ...]] = field(default_factory=dict, repr=False, compare=False)

    @classmethod
    def from_sheets(cls, layout: list[list[dict]], north: str) -> "Board":
        """``layout``: rows of map dicts (the map schema's ``id`` and ``grid``)."""
        board = cls([[m["id"] for m in row] for row in layout], north)
        sheets = [[_sheet(m) for m in row] for row in layout]
        y = 0
        origin_fix = None
        for row in sheets:
            x = 0
            row_height = 0
            for sh in row:
                sh.compute_edges()
                dx, dy = x - sh.left, y - sh.top
                board.page_edges[sh.map_id] = {"left": x, "right": dx + sh.right, "top": y, "bottom": dy + sh.bottom}
                for col in range(sh.columns[0], sh.columns[1] + 1):
                    for r in range(sh.rows[0], sh.rows[1] + 1):
                        lx, ly = sh.local(col, r)
                        gx, gy = dx + lx, dy + ly
                        if origin_fix is None:
                            origin_fix = (gx, gy)
                        hid = f"{col:02d}{r:02d}"
                        if not (sh.left <= lx <= sh.right and sh.top <= ly <= sh.bottom):
                            continue  # beyond the paper: a lowered column's row under a half-hex edge
                        half = not (sh.left < lx < sh.right and sh.top < ly < sh.bottom)
                        board._place(sh.map_id, hid, gx, gy, half, origin_fix)
                x = dx + sh.right
                row_height = max(row_height, dy + sh.bottom - y)
            y += row_height
        edges = board.page_edges.values()
        board.page_edges["*"] = {"left": min(e["left"] for e in edges), "right": max(e["right"] for e in edges),
                                 "top": min(e["top"] for e in edges), "bottom": max(e["bottom"] for e in edges)}
        return board

    def _place(self, map_id, hid, gx, gy, half, origin) -> None:
        ox, oy = origin
        if (gx - ox) % 6:
            raise BoardError(f"map {map_id}: its hex columns do not line up with the first map's "
                             f"(check its half-hex edges)")
        q = (gx - ox) // 6
        if (gy - oy - q) % 2:
            raise BoardError(f"map {map_id}: its hexes sit half a hex off the first map's "
                             f"(check shifted_columns and half-hex edges)")
        r = (gy - oy - q) // 2
        cell = Cell(map_id, hid, (q, r), half)
        self.cells[cell.key] = cell
        self._xy[cell.key] = (gx, gy)
        self.by_axial.setdefault((q, r), []).append(cell)

    # --- lookups ------------------------------------------------------------------------

    @cached_property
    def usable(self) -> dict[str, Cell]:
        """Hexes a unit may enter or stand in: not half, and not merged with another map's half."""
        return {k: c for k, c in self.cells.items() if not c.half and len(self.by_axial[c.axial]) == 1}

    @cached_property
    def usable_at(self) -> dict[Axial, str]:
        return {c.axial: k for k, c in self.usable.items()}

    def maps(self) -> list[str]:
        return [m for row in self.layout for m in row]

    def resolve(self, ref: str) -> str | None:
        """Key of a hex reference: ``B2620``, or ``2620`` on a one-map board."""
        if ref in self.cells:
            return ref
        if len(ref) == 4 and len(self.maps()) == 1:
            key = self.maps()[0] + ref
            return key if key in self.cells else None
        return None

    def axial(self, key: str) -> Axial:
        return self.cells[key].axial

    def distance(self, a: str, b: str) -> int:
        (aq, ar), (bq, br) = self._axials[a], self._axials[b]
        dq, dr = aq - bq, ar - br
        return max(abs(dq), abs(dr), abs(dq + dr))

    @cached_property
    def _axials(self) -> dict[str, Axial]:
        return {k: c.axial for k, c in self.cells.items()}

    @property
    def axials(self) -> dict[str, Axial]:
        """Hex -> axial coordinates, shared (read it, do not write it): one lookup a hex for the
        callers that measure many distances (the bots' move scores)."""
        return self._axials

    def neighbours(self, key: str) -> list[str]:
        """Usable hexes adjacent to a hex (across map seams too)."""
        found = self._neighbours.get(key)
        if found is None:  # memoised: the layout is fixed once built
            at = self.usable_at
            found = self._neighbours[key] = tuple(at[n] for n in hexmath.neighbours(self.cells[key].axial) if n in at)
        return list(found)

    def page_edge(self, compass: str) -> str:
        return _COMPASS_TO_PAGE[self.north][compass]

    def edge_distance(self, key: str, compass: str, map_id: str | None = None) -> int:
        """Hexes from a compass edge (of a map, or of the whole board); the edge row is 1."""
        edge = self.page_edge(compass)
        bounds = self.page_edges[map_id or "*"]
        x, y = self._xy[key]
        if edge == "left":
            return -(-(x - bounds["left"]) // 6)
        if edge == "right":
            return -(-(bounds["right"] - x) // 6)
        if edge == "top":
            return -(-(y - bounds["top"]) // 2)
        return -(-(bounds["bottom"] - y) // 2)

    def page_xy(self, key: str) -> tuple[int, int]:
        """Global page position in sixths of a column step and half hex heights (for drawing)."""
        return self._xy[key]

    # --- graph --------------------------------------------------------------------------

    @cached_property
    def graph(self) -> nx.Graph:
        """Usable hexes as nodes (keyed by map id + hex id); an edge per shared hexside."""
        g = nx.Graph()
        for key, cell in self.usable.items():
            g.add_node(key, map=cell.map_id, hex=cell.hex_id, axial=cell.axial)
        at = self.usable_at
        for key, cell in self.usable.items():
            for n in hexmath.neighbours(cell.axial)[:3]:  # each side once
                other = at.get(n)
                if other is not None:
                    g.add_edge(key, other, seam=self.cells[other].map_id != cell.map_id)
        return g


def _sheet(m: dict) -> _Sheet:
    g = m["grid"]
    return _Sheet(m["id"], (g["columns"]["first"], g["columns"]["last"]), (g["rows"]["first"], g["rows"]["last"]),
                  g["shifted_columns"], dict(g.get("half_hexes", {})))
