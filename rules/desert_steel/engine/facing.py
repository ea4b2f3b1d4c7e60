"""Hexsides and facing: which side of a hex faces another."""
from __future__ import annotations

import functools
import math

from ... import hexmath


def direction(a, b) -> int:
    """Hexside index (0 up the page, clockwise) of the neighbour b of a."""
    return sector(a, b)


_AXIAL_SIDE = {(0, -1): 0, (1, -1): 1, (1, 0): 2, (0, 1): 3, (-1, 1): 4, (-1, 0): 5}


@functools.lru_cache(maxsize=None)  # positions only: the same pairs come back all game
def sector(a, b) -> int:
    """Which of a's six hexsides faces towards b (0 up the page, clockwise)."""
    d = hexmath.sub(b, a)
    if d in _AXIAL_SIDE:
        return _AXIAL_SIDE[d]
    x = 1.5 * d[0]
    y = math.sqrt(3) * (d[1] + d[0] / 2)
    angle = math.degrees(math.atan2(y, x))  # screen coordinates: y down
    return int(((angle + 90) % 360 + 30) // 60) % 6
