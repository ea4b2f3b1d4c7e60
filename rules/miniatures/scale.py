"""Scale of the miniatures fragment (M§A): distances are given in centimetres and a hex is
crossed every 5 cm, rounded down ("1H" the adjacent hex, "2H" the second hex out).
All rounding in the fragment is down (M§3.d)."""
from __future__ import annotations

import math
from fractions import Fraction


def hexes(cm: float, cm_per_hex: float = 5) -> int:
    """Hexes a distance in cm spans: 20 cm -> 4H, 24 cm -> 4H, 25 cm -> 5H (rounded down)."""
    if cm <= 0:
        return 0
    return math.floor(Fraction(str(cm)) / Fraction(str(cm_per_hex)))


def cm(hex_count: int, cm_per_hex: float = 5) -> float:
    """The shortest distance in cm that spans this many hexes."""
    return hex_count * cm_per_hex
