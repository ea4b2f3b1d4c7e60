"""Hex arithmetic in axial coordinates (Red Blob Games), and exact lines of sight.

A line from one hex centre to another is traced exactly (rational arithmetic) against
every hexagon it meets, and classified: hexes whose interior it crosses, and hexsides it
runs exactly along (§9.13: such a line is blocked only if both hexes of the side block).
Lines depend only on the vector between the two hexes, so each vector is traced once and
cached; a query then costs a lookup.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

Axial = tuple[int, int]  # (q, r)

DIRECTIONS: tuple[Axial, ...] = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
# Corners of the hex at the origin, in axial coordinates times 3 (so they are integers),
# going round the hexagon; and the neighbour across the side from corner i to corner i+1.
_CORNERS3 = ((2, -1), (1, -2), (-1, -1), (-2, 1), (-1, 2), (1, 1))
_SIDE_NEIGHBOUR = ((1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1), (1, 0))


def add(a: Axial, b: Axial) -> Axial:
    return a[0] + b[0], a[1] + b[1]


def sub(a: Axial, b: Axial) -> Axial:
    return a[0] - b[0], a[1] - b[1]


def length(v: Axial) -> int:
    q, r = v
    return max(abs(q), abs(r), abs(q + r))


def distance(a: Axial, b: Axial) -> int:
    """Hexes from a to b, counting b but not a (§9.14)."""
    return length(sub(a, b))


def neighbours(a: Axial) -> list[Axial]:
    return [add(a, d) for d in DIRECTIONS]


def ring(center: Axial, radius: int) -> list[Axial]:
    if radius == 0:
        return [center]
    out = []
    h = add(center, (DIRECTIONS[4][0] * radius, DIRECTIONS[4][1] * radius))
    for i in range(6):
        for _ in range(radius):
            out.append(h)
            h = add(h, DIRECTIONS[i])
    return out


def within(center: Axial, radius: int) -> list[Axial]:
    return [(center[0] + q, center[1] + r) for q in range(-radius, radius + 1)
            for r in range(max(-radius, -q - radius), min(radius, -q + radius) + 1)]


@dataclass(frozen=True)
class LinePattern:
    """What a line from (0, 0) to a vector crosses, in order from the start.

    ``steps`` holds, in order along the line, either ``(hex,)`` for a hex whose interior
    the line crosses or ``(hex_a, hex_b)`` for a hexside it runs along (both hexes on
    the side). The start and end hexes are not included.
    """

    vector: Axial
    steps: tuple[tuple[Axial, ...], ...]


def _trace(h: Axial, d3: Axial):
    """How the segment from 0 to d3 (coordinates times 3) meets hexagon h.

    Returns None (no contact or a single point), ("in", t) when it crosses the interior,
    or ("side", t, neighbour) when it runs exactly along a side; t orders the contacts.
    Integer arithmetic only: ties are exact, never an epsilon nudge.
    """
    cx, cy = 3 * h[0], 3 * h[1]
    lo_n, lo_d, hi_n, hi_d = 0, 1, 1, 1  # t0 = 0, t1 = 1 as fractions n/d with d > 0
    along = None
    for i in range(6):
        ax, ay = cx + _CORNERS3[i][0], cy + _CORNERS3[i][1]
        bx, by = cx + _CORNERS3[(i + 1) % 6][0], cy + _CORNERS3[(i + 1) % 6][1]
        ex, ey = bx - ax, by - ay
        # The corners go clockwise in this frame, so inside is where the cross product <= 0.
        f0 = -(ex * (0 - ay) - ey * (0 - ax))
        df = -(ex * d3[1] - ey * d3[0])
        if df == 0:
            if f0 < 0:
                return None
            if f0 == 0:
                along = i
            continue
        n, den = -f0, df
        if den > 0:
            if n * lo_d > lo_n * den:
                lo_n, lo_d = n, den
        else:
            n, den = -n, -den
            if n * hi_d < hi_n * den:
                hi_n, hi_d = n, den
        if lo_n * hi_d >= hi_n * lo_d:
            return None  # empty, or a single point: the line passes beside the hex
    t = (lo_n / lo_d + hi_n / hi_d) / 2
    if along is not None:
        return "side", t, add(h, _SIDE_NEIGHBOUR[along])
    return "in", t


def line_pattern(vector: Axial, policy: str = "exact") -> LinePattern:
    """The hexes a line of sight crosses, by a ruleset's policy.

    ``exact``: the hexagons the segment really passes through; a hexside counts only
    when the line runs along it. ``sampled``: the hex under the line at each whole hex of
    distance (the thread-from-centre-to-centre reading of Tank Leader's rules); a
    sample that falls exactly on a hexside gives both hexes. Both are exact, integer
    arithmetic: a tie is found, never nudged to one side.
    """
    if policy == "sampled":
        return _sampled_pattern(vector)
    if policy == "exact":
        return _exact_pattern(vector)
    raise ValueError(f"unknown line-of-sight policy {policy!r} (exact, sampled)")


@lru_cache(maxsize=None)
def _sampled_pattern(vector: Axial) -> LinePattern:
    n = length(vector)
    steps = []
    for i in range(1, n):
        # The sample i/n of the way, scaled by n to stay in integers.
        pq, pr = vector[0] * i, vector[1] * i
        base = (round(pq / n), round(pr / n))
        best, nearest = None, []
        for h in within(base, 1):
            dq, dr = pq - n * h[0], pr - n * h[1]
            d2 = dq * dq + dr * dr + (dq + dr) * (dq + dr)
            if best is None or d2 < best:
                best, nearest = d2, [h]
            elif d2 == best:
                nearest.append(h)
        steps.append(tuple(sorted(nearest)))
    return LinePattern(vector, tuple(steps))


@lru_cache(maxsize=None)
def _exact_pattern(vector: Axial) -> LinePattern:
    n = length(vector)
    d3 = (3 * vector[0], 3 * vector[1])
    # Every hex the segment can touch lies within one hex of a point sampled on it.
    candidates = set()
    for i in range(n + 1):
        base = (round(vector[0] * i / n), round(vector[1] * i / n)) if n else (0, 0)
        candidates.update(within(base, 1))
    candidates.discard((0, 0))
    candidates.discard(vector)
    steps: dict[tuple[Axial, ...], float] = {}
    for h in candidates:
        contact = _trace(h, d3)
        if contact is None:
            continue
        if contact[0] == "in":
            steps[(h,)] = contact[1]
        else:
            steps[tuple(sorted((h, contact[2])))] = contact[1]
    ordered = sorted(steps.items(), key=lambda kv: kv[1])
    return LinePattern(vector, tuple(k for k, _ in ordered))
