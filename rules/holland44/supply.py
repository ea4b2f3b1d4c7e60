"""Supply lines (H§18), traced per unit on the board.

A line runs from the unit's hex: first an overland leg of at most ``overland_hexes`` (4)
hexes through passable terrain, then a road leg of any length along uncut road, to a
friendly source: an entry area friendly on this turn (H§18.2, H§19.2), or an Airborne
Supply Head of the unit's own division until the end of turn 5 (H§18.2). Neither leg
enters a hex enemy units hold or crosses an enemy ZOC bond (H§7.4.2, H§18.3); a plain
enemy zone of control does not block supply.

Entering an entry area counts as one hex of the overland leg; a road leg reaches an
area where its road leaves the map there. A road is cut where a watercourse crosses it
without an open road bridge (a minor river under a drawn road counts as bridged, H§8.4).
Allied motorized or mechanized infantry whose best line must cross an unbridged canal is
Dismounted (H§18.6): lines without such a crossing are preferred.
"""
from __future__ import annotations

import heapq
from dataclasses import dataclass, field

from .pieces import Piece, Position, enemy
from .zoc import blocks


@dataclass
class SupplyTrace:
    unit: str
    side: str
    hex: str | None  # the unit's printed hex id (None: in an entry area)
    supplied: bool
    source: str | None = None  # "entry area N" | "supply head <id>"
    path: list[tuple[str, str]] = field(default_factory=list)  # (printed hex id, "start" | "overland" | "road")
    dismounted: bool = False  # the line crosses an unbridged canal (H§18.6)
    reason: str = ""

    def to_json(self) -> dict:
        return {"unit": self.unit, "side": self.side, "hex": self.hex, "supplied": self.supplied,
                "source": self.source, "path": [{"hex": h, "leg": leg} for h, leg in self.path],
                "dismounted": self.dismounted, "reason": self.reason}

    def text(self) -> str:
        where = self.hex or "an entry area"
        if not self.supplied:
            return f"{self.unit} at {where}: out of supply: {self.reason}"
        lines = [f"{self.unit} at {where}: in supply from {self.source}"]
        for leg in ("overland", "road"):
            hexes = [h for h, lg in self.path if lg == leg]
            if hexes:
                lines.append(f"  {leg} ({len(hexes)} hex{'es' if len(hexes) > 1 else ''}): {' '.join(hexes)}")
        if self.dismounted:
            lines.append("  crosses an unbridged canal: Allied motorized infantry is Dismounted (H§18.6)")
        return "\n".join(lines)


def trace(position: Position, piece: Piece) -> SupplyTrace:
    hmap, states = position.map, position.bridge_states
    side = piece.side
    result = SupplyTrace(piece.id, side, None if piece.hex is None else hmap.label(piece.hex), False)
    if piece.hex is None:
        result.supplied, result.source = True, f"entry area {piece.area}"
        return result
    limit = position.rules["supply"]["overland_hexes"]
    last_head_turn = position.rules["supply"]["supply_head_last_turn"]
    foe = position.occupied[enemy(side)]
    bond_hexes, bond_sides = blocks(position, enemy(side))
    areas = [a for a in hmap.area_hexes if position.area_friendly(a, side)]
    area_of: dict[str, list[str]] = {}
    for a in areas:
        for k in hmap.area_hexes[a]:
            area_of.setdefault(k, []).append(a)
    heads = {}
    if position.turn <= last_head_turn and piece.counter.formation:
        for p in position.on_map(side):
            if p.counter.is_supply_head and p.counter.formation == piece.counter.formation and p is not piece:
                heads.setdefault(p.hex, p.id)
    if not areas and not heads:
        result.reason = (f"no entry area is friendly to the {side} side on turn {position.turn}"
                         + (" and no supply head serves its division" if piece.counter.formation else ""))
        return result
    blocked: list[str] = []

    def refuse(why: str) -> None:
        if why not in blocked:
            blocked.append(why)

    def may_enter(a: str, b: str) -> bool:
        if b in foe:
            refuse(f"enemy units in {hmap.label(b)}")
            return False
        if b in bond_hexes or frozenset((a, b)) in bond_sides:
            refuse(f"an enemy ZOC bond between {hmap.label(a)} and {hmap.label(b)}")
            return False
        return True

    # Dijkstra over (hex, leg, overland hexes used); cost = (canal crossings, hexes).
    start = (piece.hex, "overland", 0)
    best = {start: (0, 0)}
    parent: dict[tuple, tuple | None] = {start: None}
    heap = [(0, 0, 0, start)]
    counter = 1
    found = None
    while heap:
        canals, length, _, state = heapq.heappop(heap)
        if best.get(state) != (canals, length):
            continue
        key, leg, used = state
        source = _source(hmap, key, leg, used, limit, area_of, heads)
        if source is not None:
            found = (state, source)
            break
        steps = []
        if leg == "overland" and hmap.is_road_hex(key):
            steps.append(((key, "road", used), 0, 0))
        for n in hmap.neighbours(key):
            if leg == "overland":
                if used >= limit:
                    continue
                ok, water = hmap.supply_crosses(key, n, states)
                if not ok:
                    refuse(f"impassable {'water' if water else 'terrain'} between {hmap.label(key)} and {hmap.label(n)}")
                    continue
                if not may_enter(key, n):
                    continue
                dismount = 1 if water is not None and water.props.get("dismounts_supply") else 0
                steps.append(((n, "overland", used + 1), dismount, 1))
            elif hmap.road_open(key, n, states) and may_enter(key, n):
                steps.append(((n, "road", used), 0, 1))
        for nxt, dc, dl in steps:
            cost = (canals + dc, length + dl)
            if nxt not in best or cost < best[nxt]:
                best[nxt] = cost
                parent[nxt] = state
                heapq.heappush(heap, (cost[0], cost[1], counter, nxt))
                counter += 1
    if found is None:
        sources = ", ".join([f"entry area {a}" for a in areas] + [f"supply head {h}" for h in heads.values()])
        why = f"no line of at most {limit} hexes overland then uncut road reaches {sources}"
        if blocked:
            why += "; blocked by " + "; ".join(blocked[:6]) + ("; ..." if len(blocked) > 6 else "")
        result.reason = why
        return result
    state, source = found
    chain = []
    while state is not None:
        chain.append(state)
        state = parent[state]
    chain.reverse()
    path: list[tuple[str, str]] = []
    for i, (key, leg, _) in enumerate(chain):
        label = hmap.label(key)
        if i == 0:
            path.append((label, "start"))
        elif path[-1][0] != label:
            path.append((label, leg))
    result.supplied, result.source, result.path = True, source, path
    result.dismounted = best[found[0]][0] > 0
    return result


def _source(hmap, key, leg, used, limit, area_of, heads) -> str | None:
    if key in heads:
        return f"supply head {heads[key]}"
    for area in area_of.get(key, ()):
        if leg == "road" and key in hmap.road_exits:
            return f"entry area {area}"
        if leg == "overland" and used + 1 <= limit:
            return f"entry area {area}"
    return None


def supply_of(position: Position) -> dict[str, SupplyTrace]:
    """The supply line of every unit on the map that needs one (not supply heads)."""
    return {p.id: trace(position, p) for p in position.on_map() if not p.counter.is_supply_head}
