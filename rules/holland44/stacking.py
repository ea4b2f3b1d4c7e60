"""Stacking (H§6): what one side's units in one hex count for.

Per hex: ``regular`` (2) regular combat units plus ``free`` (1) free-stacking unit
(H§6.1). Artillery, bridging, engineers and Flak are free-stacking, but only the first
such unit in a hex is free; a 1-step armour unit is free while no other armour unit
shares the hex (H§6.2). Two half-battalions of the same parent count as one unit
(H§6.3). Markers never count; Airborne Supply Heads and face-down Unknowns take no space,
at most one of each per hex (H§6.1). Entry areas have no limit (H§19.3). More is an
overstack (H§6.4), allowed but penalised; above ``step_limit`` (9) steps in a hex the
excess is eliminated at the end of every movement and combat phase (H§6.4.2).
"""
from __future__ import annotations

from dataclasses import dataclass

from .pieces import Piece, Position


@dataclass(frozen=True)
class HexStack:
    hex: str  # board key
    side: str
    pieces: tuple[Piece, ...]
    regular: int  # units counting against the regular limit
    free: int  # units counted as the free one
    steps: int
    supply_heads: int
    unknown: int

    def overstacked(self, rules) -> bool:
        limit = rules["stacking"]
        return self.regular > limit["regular"]


def stack(position: Position, key: str, side: str) -> HexStack:
    rules = position.rules
    pieces = tuple(position.at(key, side))
    armour_types = set(rules["unit_types"]["armour"])
    free_types = set(rules["unit_types"]["free_stacking"])
    spaced = [p for p in pieces if p.takes_space]
    armour = [p for p in spaced if p.counter.type in armour_types]
    slots: list[bool] = []  # one per unit (half-battalion pairs merged): may it be the free one?
    halves: dict[str, list[Piece]] = {}
    for p in spaced:
        if p.counter.half_battalion_of:
            halves.setdefault(p.counter.half_battalion_of, []).append(p)
            continue
        free = p.counter.free_stacking or p.counter.type in free_types
        if p.counter.type in armour_types and p.steps == 1 and len(armour) == 1:
            free = True
        slots.append(free)
    for group in halves.values():
        slots += [False] * ((len(group) + 1) // 2)
    free_slots = min(rules["stacking"]["free"], sum(slots))
    return HexStack(key, side, pieces, len(slots) - free_slots, free_slots,
                    sum(p.steps for p in pieces if not p.hidden and not p.counter.is_supply_head),
                    sum(p.counter.is_supply_head for p in pieces), sum(p.hidden for p in pieces))


def stacks(position: Position) -> list[HexStack]:
    out = []
    for key in sorted(position.by_hex):
        for side in sorted({p.side for p in position.by_hex[key]}):
            out.append(stack(position, key, side))
    return out
