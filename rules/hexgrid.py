"""Hex geometry of one printed map: CCRR ids in flat-top columns, to cube coordinates.

Red Blob Games' offset coordinates: with ``shifted_columns = "odd"`` the odd columns are
drawn half a hex lower ("odd-q"), with ``"even"`` the even ones ("even-q").
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Grid:
    shifted: str  # "odd" | "even"

    @classmethod
    def from_map(cls, m: dict) -> "Grid":
        return cls(m["grid"]["shifted_columns"])

    def cube(self, hex_id: str) -> tuple[int, int, int]:
        col, row = int(hex_id[:2]), int(hex_id[2:])
        parity = col & 1
        if self.shifted == "odd":
            z = row - (col - parity) // 2
        else:
            z = row - (col + parity) // 2
        x = col
        return x, -x - z, z

    def distance(self, a: str, b: str) -> int:
        ax, ay, az = self.cube(a)
        bx, by, bz = self.cube(b)
        return max(abs(ax - bx), abs(ay - by), abs(az - bz))
