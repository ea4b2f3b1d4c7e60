"""Statistics shared by the engines' batches and the lab (a ruleset's engine must not import
the lab, and the lab knows no ruleset: both import this)."""
from __future__ import annotations

import math


def wilson(k: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """Wilson's score interval of ``k`` successes in ``n`` trials (``k`` may count a draw as a
    half); (0, 0) for no trials."""
    if n == 0:
        return 0.0, 0.0
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)
