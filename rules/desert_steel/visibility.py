"""Line of sight between every pair of hexes at once, vectorised with numpy.

``Battlefield.los`` answers one question and explains it; the engine and bots ask
thousands. Lines depend only on the vector between two hexes, so for each vector up to
the visibility the same §9.12-9.13 rules are applied to every origin hex in one array
operation. Tests prove this table and ``Battlefield.los`` agree on every pair.
"""
from __future__ import annotations

import numpy as np

from .. import hexmath
from .battlefield import Battlefield


class VisibilityTable:
    """``visible(a, b)`` for every pair of usable hexes within the visibility, precomputed."""

    def __init__(self, field: Battlefield):
        self.field = field
        board = field.board
        self.keys = sorted(board.usable)
        self.index = {k: i for i, k in enumerate(self.keys)}
        axials = np.array([board.cells[k].axial for k in self.keys], dtype=np.int32)
        q0, r0 = axials.min(axis=0) - field.visibility - 1
        size = axials.max(axis=0) - (q0, r0) + field.visibility + 2
        # Dense grids over the axial bounding box (cells off the board: level -1, never block).
        level = np.full(size, -1, dtype=np.int8)
        building = np.zeros(size, dtype=bool)
        smoke = np.zeros(size, dtype=bool)
        usable_id = np.full(size, -1, dtype=np.int32)
        for key, cell in board.cells.items():
            q, r = cell.axial[0] - q0, cell.axial[1] - r0
            t = field.terrain.hexes[key]
            if level[q, r] < 0 or not cell.half:  # a merged seam cell takes the first map's terrain
                level[q, r] = t.level
                building[q, r] = t.building
            smoke[q, r] |= key in field.smoke
        for i, key in enumerate(self.keys):
            q, r = board.cells[key].axial
            usable_id[q - q0, r - r0] = i
        self.n = len(self.keys)
        self._rows: dict[str, bytes] = {}
        self._columns: dict[str, bytes] = {}
        self.matrix = np.zeros((self.n, self.n), dtype=bool)
        aq, ar = axials[:, 0] - q0, axials[:, 1] - r0
        la = level[aq, ar].astype(np.int16)
        policy = field.los_policy
        self.matrix[np.arange(self.n), np.arange(self.n)] = True
        # What lies at each offset from every origin, gathered once: many lines cross the same offsets.
        self._at: dict = {}
        self._grids = (aq, ar, level, building, smoke)
        for v in hexmath.within((0, 0), field.visibility):
            # A line of sight is the same both ways (§9.12 speaks of the higher and the lower unit, never
            # of who looks): each pair of opposite vectors is traced once, from its first member.
            if v == (0, 0) or v < (-v[0], -v[1]):
                continue
            bq, br = aq + v[0], ar + v[1]
            targets = usable_id[bq, br]
            valid = targets >= 0
            if not valid.any():
                continue
            blocked = np.zeros(self.n, dtype=bool)
            if hexmath.length(v) > 1:
                lb = self._gather(v)[0]
                blocked = self._blocked(v, policy, la, lb)
            rows = np.nonzero(valid & ~blocked)[0]
            self.matrix[rows, targets[rows]] = True
            self.matrix[targets[rows], rows] = True
        del self._at, self._grids

    def _gather(self, o):
        """Level (int16), building and smoke of the cell at offset o from every origin."""
        got = self._at.get(o)
        if got is None:
            aq, ar, level, building, smoke = self._grids
            hq, hr = aq + o[0], ar + o[1]
            got = self._at[o] = (level[hq, hr].astype(np.int16), building[hq, hr], smoke[hq, hr])
        return got

    def _blocked(self, v, policy, la, lb):
        low, high = np.minimum(la, lb), np.maximum(la, lb)
        same = la == lb
        a_is_low = la <= lb
        blocked = np.zeros(len(la), dtype=bool)
        for step in hexmath.line_pattern(v, policy).steps:
            step_blocks = np.ones(len(la), dtype=bool)
            for o in step:
                lvl, building_o, smoke_o = self._gather(o)
                near_a = hexmath.length(o) == 1
                near_b = hexmath.length(hexmath.sub(v, o)) == 1
                near_low = np.where(a_is_low, near_a, near_b)
                near_high = np.where(a_is_low, near_b, near_a)
                hb = smoke_o | (lvl > high)
                hb |= same & building_o & (lvl >= la)
                hb |= ~same & (lvl >= high)
                hb |= ~same & (low < lvl) & (lvl < high) & near_low & ~near_high
                step_blocks &= hb
            blocked |= step_blocks
        return blocked

    def visible(self, a: str, b: str) -> bool:
        return self.row(a)[self.index[b]] != 0

    def row(self, a: str) -> bytes:
        """What hex a sees: one byte per hex in ``index`` order, non-zero where visible (bytes
        are far cheaper to index than numpy arrays)."""
        row = self._rows.get(a)
        if row is None:
            row = self._rows[a] = self.matrix[self.index[a]].tobytes()
        return row

    def column(self, b: str) -> bytes:
        """Which hexes see hex b, as ``row``."""
        col = self._columns.get(b)
        if col is None:
            col = self._columns[b] = self.matrix[:, self.index[b]].tobytes()
        return col

    def seen_from(self, a: str) -> list[str]:
        row = self.matrix[self.index[a]]
        return [self.keys[i] for i in np.nonzero(row)[0]]

    @property
    def pairs(self) -> int:
        return int(self.matrix.sum()) - self.n
