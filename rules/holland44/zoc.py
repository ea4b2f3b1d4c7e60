"""Zones of control and ZOC bonds on the board (H§7).

A zone of control is the six hexes around a combat unit, except lakes and hexes across
an unbridged major river (H§7.1); a unit in Full Retreat has none (H§14.3).

A hex holding at least two good-order combat steps can bond (H§7.4.1). Two such friendly
hexes two apart form a bond:

- in line, through the one hex between them: a *hex bond*. Enemy units in that hex cancel
  it (H§7.4.3); a City or lake there, or an unbridged major river on the way, breaks it
  (H§7.4.6).
- not in line, along the hexside shared by the two hexes between them: a *hexside bond*.
  Enemy units in both of those hexes cancel it (H§7.4.3); it breaks if both are City or
  lake hexes, if an unbridged major river runs along that hexside, or if one closes off
  either end (runs along both of an end hex's sides towards the pair).

An eligible hex also bonds along a hexside with a friendly entry area beyond the map edge
(H§7.4.5): the area's off-map cells act as the other end. Vehicles project a bond only
where they could go (H§7.4.6): their steps count towards an end only if they could enter
one of the hexes the bond runs through. Crossing enemy bonds block each other (H§7.4.4),
so neither cancels the other: both stay.
"""
from __future__ import annotations

from dataclasses import dataclass

from .. import hexmath
from .pieces import SIDES, Position, enemy


@dataclass(frozen=True)
class Bond:
    side: str
    kind: str  # "hex" | "hexside" | "area"
    ends: tuple[str, str]  # board keys; for an area bond the second end is "area X"
    middle: str | None = None  # the hex a hex bond runs through
    hexside: frozenset | None = None  # the two hexes whose common side a hexside bond runs along

    def blocks_hex(self, key: str) -> bool:
        return self.middle == key

    def blocks_step(self, a: str, b: str) -> bool:
        return self.hexside is not None and self.hexside == frozenset((a, b))

    def describe(self, label) -> str:
        a = label(self.ends[0])
        b = self.ends[1] if self.ends[1].startswith("area ") else label(self.ends[1])
        if self.kind == "hex":
            return f"{self.side} hex bond {a}-{b} through {label(self.middle)}"
        x, y = sorted(label(k) for k in self.hexside)
        return f"{self.side} hexside bond {a}-{b} along {x}|{y}"


def zone_of_control(position: Position, side: str) -> frozenset[str]:
    hmap, states = position.map, position.bridge_states
    out = set()
    for key, pieces in position.by_hex.items():
        if any(p.side == side and p.exerts_zoc for p in pieces):
            out.update(n for n in hmap.neighbours(key) if hmap.zoc_reaches(key, n, states))
    return frozenset(out)


def _bond_steps(position: Position, key: str, side: str, targets: list[str]) -> int:
    """Good-order combat steps in key that project a bond towards any of targets."""
    hmap, states = position.map, position.bridge_states
    total = 0
    for p in position.at(key, side):
        if p.status != "good-order" or not p.takes_space:
            continue
        if p.counter.is_vehicle and not any(hmap.vehicle_enters(key, t, states) for t in targets):
            continue
        total += p.steps
    return total


def bonds(position: Position, side: str) -> list[Bond]:
    hmap, states = position.map, position.bridge_states
    need = position.rules["zoc_bonds"]["min_steps"]
    foe = position.occupied[enemy(side)]
    board = hmap.board
    at = board.usable_at
    capable = [k for k in position.by_hex if sum(p.steps for p in position.at(k, side)) >= need]
    out: list[Bond] = []

    def terrain_breaks(k: str) -> bool:
        props = hmap.hex_props(k)
        return bool(props.get("breaks_bonds")) or not props.get("passable", True)

    for x in capable:
        ax = board.axial(x)
        for ay in hexmath.ring(ax, 2):
            y = at.get(ay)
            if y is None or y <= x or y not in position.by_hex:
                continue
            common = [at.get(c) for c in hexmath.neighbours(ax) if hexmath.distance(c, ay) == 1]
            if len(common) == 1:  # in line: a hex bond through the middle hex
                m = common[0]
                if m is None or m in foe or terrain_breaks(m):
                    continue
                if not (hmap.bond_crosses(x, m, states) and hmap.bond_crosses(m, y, states)):
                    continue
                if _bond_steps(position, x, side, [m]) >= need and _bond_steps(position, y, side, [m]) >= need:
                    out.append(Bond(side, "hex", (x, y), middle=m))
            else:
                a, b = common
                if a is None or b is None:
                    continue
                bond = _hexside_bond(position, side, x, y, a, b, foe, terrain_breaks, need)
                if bond is not None:
                    out.append(bond)
    out += _area_bonds(position, side, capable, foe, terrain_breaks, need)
    return out


def _hexside_bond(position, side, x, y, a, b, foe, terrain_breaks, need) -> Bond | None:
    hmap, states = position.map, position.bridge_states
    if (a in foe and b in foe) or (terrain_breaks(a) and terrain_breaks(b)):
        return None
    if not hmap.bond_crosses(a, b, states):
        return None
    for end in (x, y):
        if end is not None and not (hmap.bond_crosses(end, a, states) or hmap.bond_crosses(end, b, states)):
            return None
    for end in (x, y):
        if end is not None and _bond_steps(position, end, side, [a, b]) < need:
            return None
    return Bond(side, "hexside" if y is not None else "area", (x, y or ""), hexside=frozenset((a, b)))


def _area_bonds(position: Position, side: str, capable, foe, terrain_breaks, need) -> list[Bond]:
    hmap = position.map
    at = hmap.board.usable_at
    out = []
    for area, cells in hmap.area_cells.items():
        if not position.area_friendly(area, side):
            continue
        for x in capable:
            ax = hmap.board.axial(x)
            for cell in cells:
                if hexmath.distance(ax, cell) != 2:
                    continue
                common = [at.get(c) for c in hexmath.neighbours(ax) if hexmath.distance(c, cell) == 1]
                if len(common) != 2 or None in common:
                    continue
                a, b = common
                bond = _hexside_bond(position, side, x, None, a, b, foe, terrain_breaks, need)
                if bond is not None:
                    out.append(Bond(side, "area", (x, f"area {area}"), hexside=bond.hexside))
    unique = {(b.ends, b.hexside): b for b in out}
    return list(unique.values())


def blocks(position: Position, side: str) -> tuple[frozenset[str], frozenset[frozenset]]:
    """What the bonds of side forbid to the other side: hexes (hex bonds) and hexsides."""
    hexes = frozenset(b.middle for b in bonds_of(position)[side] if b.middle is not None)
    sides = frozenset(b.hexside for b in bonds_of(position)[side] if b.hexside is not None)
    return hexes, sides


def zones(position: Position) -> dict[str, frozenset[str]]:
    """Each side's zone of control in a position, computed once per position."""
    if "zoc" not in position.derived:
        position.derived["zoc"] = {s: zone_of_control(position, s) for s in SIDES}
    return position.derived["zoc"]


def bonds_of(position: Position) -> dict[str, tuple]:
    """Each side's bonds in a position, computed once per position."""
    if "bonds" not in position.derived:
        position.derived["bonds"] = {s: tuple(bonds(position, s)) for s in SIDES}
    return position.derived["bonds"]
