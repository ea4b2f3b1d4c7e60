"""Effective terrain: what each printed hex is under a scenario's battle conditions (§3).

The map prints colours, building symbols and red/brown lines; the terrain-effects table
says what they are under the scenario's urbanization, zone, relief and road network.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping

from ..board import Board


@dataclass(frozen=True)
class HexTerrain:
    level: int  # 0-3 (§3.4)
    building: bool  # a building hex under this urbanization (§3.2): cover, blocks LOS
    ground: str  # movement column of the zone for clear hexes (§3.3)
    symbols: tuple[str, ...]

    @property
    def cover(self) -> bool:
        """Cover of the hex itself; a higher target is in cover too (§9.16), see los."""
        return self.building


@dataclass(frozen=True)
class Conditions:
    relief: str
    zone: str
    urbanization: str
    road_network: str
    relief_by_map: Mapping[str, str]
    level_by_map: Mapping[str, int]  # scenario special rule: a whole map at one level

    @classmethod
    def of_scenario(cls, scenario: Mapping) -> "Conditions":
        c = scenario["conditions"]
        fixed = {r["map"]: r["level"] for r in scenario.get("special_rules", ())
                 if r.get("type") == "level-override" and "map" in r and "level" in r}
        return cls(c["relief"]["value"], c["zone"]["value"], c["urbanization"]["value"],
                   c["road_network"]["value"], dict(c["relief"].get("by_map", {})), fixed)


class TerrainMap:
    """Effective terrain of every cell of a board, and the road hexsides."""

    def __init__(self, board: Board, maps: Mapping[str, Mapping], effects: Mapping, conditions: Conditions):
        self.board = board
        self.conditions = conditions
        zone = effects["zone"]["values"][conditions.zone]
        urban = effects["urbanization"]["values"][conditions.urbanization]
        roads = effects["road_network"]["values"][conditions.road_network]
        self.hexes: dict[str, HexTerrain] = {}
        for key, cell in board.cells.items():
            m = maps[cell.map_id]
            printed = m.get("hexes", {}).get(cell.hex_id, {})
            colour = printed.get("colour", m["default_colour"])
            if cell.map_id in conditions.level_by_map:
                level = conditions.level_by_map[cell.map_id]
            else:
                relief = conditions.relief_by_map.get(cell.map_id, conditions.relief)
                level = effects["relief"]["values"][relief]["levels"].get(colour, 0)
            building = bool(printed.get("building")) and urban["building_hexes"] == "building"
            self.hexes[key] = HexTerrain(level, building, zone["ground"], tuple(printed.get("symbols", ())))
        # Road hexsides: (key, key) -> "road" | "track"; a red or brown line may be plain ground.
        self.road_sides: dict[frozenset, str] = {}
        ends: list[tuple[str, str]] = []  # (hex key, kind) of each road end marked `leaves_map`
        for map_id in board.maps():
            for road in maps[map_id].get("roads", ()):
                kind = roads[road["type"]]
                if kind == "clear":
                    continue
                chain = [f"{map_id}{h}" for h in road["hexes"]]
                for a, b in zip(chain, chain[1:]):
                    if a in board.cells and b in board.cells:
                        self.road_sides[frozenset((a, b))] = kind
                for end in road.get("leaves_map", ()):
                    ends.append((chain[0 if end == "start" else -1], kind))
        # A road that leaves its map at a seam goes on along the road that leaves the next map there: the
        # two maps are one battlefield (§2.5, §8.3). Where a road meets a track, the hexside is a track
        # (the slower rate: a unit keeps the road rate only while both hexes are on the same road).
        ends_at = dict(ends)
        for a, kind in ends:
            if a not in board.cells:
                continue
            for b in board.neighbours(a):
                if board.cells[b].map_id != board.cells[a].map_id and b in ends_at:
                    pair = frozenset((a, b))
                    slower = kind if kind == ends_at[b] else "track"
                    self.road_sides.setdefault(pair, slower)
        self.entrenchment_allowed = bool(zone["entrenchment"])

    def level(self, key: str) -> int:
        return self.hexes[key].level

    def road_between(self, a: str, b: str) -> str | None:
        return self.road_sides.get(frozenset((a, b)))
