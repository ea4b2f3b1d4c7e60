"""The Holland '44 map as the rules see it: the shared hex board plus terrain and features.

``Board`` (rules/board.py) knows the geometry; this layer adds what the map prints —
hex terrain, watercourses along hexsides, roads, railways, bridges with their states,
ferries, entry areas beyond the edges and named regions — and answers the questions
the rules ask of it: does a zone of control reach across this hexside (H§7.1), may a
vehicle enter (H§2.3.14), may supply cross (H§18.3), is this road open.

What each terrain does comes from the pack's terrain document, never from names here.
"""
from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from functools import cached_property
from typing import Iterable, Mapping

from ..board import Board
from .. import hexmath

OPEN_DEFAULT = {"wired": True, "intact": True, "blown": False, "under-repair": False}


@dataclass(frozen=True)
class Bridge:
    id: str
    name: str
    side: frozenset  # the two board keys of its hexside
    carries: str  # "road" | "railway"
    state: str  # state at the start
    never_blown: bool
    immune_allied_turn_1: bool
    watercourse: str | None  # type of the watercourse it spans, None if it spans none


@dataclass(frozen=True)
class Water:
    id: str
    type: str
    props: Mapping


class HollandMap:
    """One map (or excerpt) of Holland '44 on the shared board."""

    def __init__(self, doc: Mapping, terrain: Mapping):
        self.doc = doc
        self.terrain = terrain
        self.id = doc["id"]
        self.board = Board.from_sheets([[doc]], doc["north"])
        self.hex_terrain: dict[str, str] = {}
        self.names: dict[str, str] = {}
        self.minor_river_inside: set[str] = set()
        printed = doc.get("hexes", {})
        for key, cell in self.board.cells.items():
            h = printed.get(cell.hex_id, {})
            self.hex_terrain[key] = h.get("terrain", doc["default_terrain"])
            if "name" in h:
                self.names[key] = h["name"]
            if h.get("minor_river"):
                self.minor_river_inside.add(key)
        self.water: dict[frozenset, Water] = {}
        for w in doc.get("watercourses", ()):
            props = terrain["watercourses"].get(w["type"], {})
            for pair in w["hexsides"]:
                side = self.side(*pair)
                if side is not None:
                    self.water[side] = Water(w["id"], w["type"], props)
        self.roads = self._lines(doc.get("roads", ()))
        self.railways = self._lines(doc.get("railways", ()))
        self.road_exits: set[str] = set()
        for road in doc.get("roads", ()):
            for end in road.get("leaves_map", ()):
                key = self.key(road["hexes"][0 if end == "start" else -1])
                if key is not None:
                    self.road_exits.add(key)
        self.bridges: dict[str, Bridge] = {}
        self.bridges_at: dict[frozenset, list[Bridge]] = {}
        for b in doc.get("bridges", ()):
            side = self.side(*b["hexside"])
            if side is None:
                continue
            water = self.water.get(side)
            bridge = Bridge(b["id"], b.get("name", b["id"]), side, b["carries"], b["state"],
                            bool(b.get("never_blown")), bool(b.get("immune_allied_turn_1")),
                            water.type if water else None)
            self.bridges[bridge.id] = bridge
            self.bridges_at.setdefault(side, []).append(bridge)
        self.ferries: dict[frozenset, str] = {}
        for f in doc.get("ferries", ()):
            side = self.side(*f["hexside"])
            if side is not None:
                self.ferries[side] = f["id"]
        self.area_hexes: dict[str, frozenset[str]] = {}
        for a in doc.get("entry_areas", ()):
            keys = {self.key(h) for h in a["hexes"]}
            self.area_hexes[a["area"]] = frozenset(k for k in keys if k is not None)
        self.open_states = {k: v["open"] for k, v in terrain.get("bridge_states", {}).items()} or OPEN_DEFAULT

    # --- lookups ------------------------------------------------------------------------

    def key(self, hex_id: str) -> str | None:
        return self.board.resolve(hex_id)

    def label(self, key: str) -> str:
        return self.board.cells[key].hex_id

    def side(self, a: str, b: str) -> frozenset | None:
        """The hexside between two printed hex ids, or None if they are not adjacent hexes of the map."""
        ka, kb = self.key(a), self.key(b)
        if ka is None or kb is None or self.board.distance(ka, kb) != 1:
            return None
        return frozenset((ka, kb))

    def _lines(self, lines: Iterable[Mapping]) -> set[frozenset]:
        out = set()
        for line in lines:
            chain = [self.key(h) for h in line["hexes"]]
            for a, b in zip(chain, chain[1:]):
                if a is not None and b is not None and self.board.distance(a, b) == 1:
                    out.add(frozenset((a, b)))
        return out

    def hex_props(self, key: str) -> Mapping:
        return self.terrain["hexes"].get(self.hex_terrain[key], {})

    def usable(self, key: str) -> bool:
        return key in self.board.usable

    def neighbours(self, key: str) -> list[str]:
        return self.board.neighbours(key)

    def has_minor_river_inside(self, key: str) -> bool:
        """An intra-hex minor river, unless the hex's terrain ignores it (City, Marsh: H§2.2.3)."""
        return key in self.minor_river_inside and not self.hex_props(key).get("ignores_minor_rivers")

    def road(self, a: str, b: str) -> bool:
        return frozenset((a, b)) in self.roads

    def is_road_hex(self, key: str) -> bool:
        return any(frozenset((key, n)) in self.roads for n in self.neighbours(key))

    # --- crossings ----------------------------------------------------------------------

    def bridge_state(self, bridge: Bridge, states: Mapping[str, str]) -> str:
        return states.get(bridge.id, bridge.state)

    def bridged(self, a: str, b: str, states: Mapping[str, str], *, by_road: bool = False) -> bool:
        """An open bridge spans the hexside (a road bridge if by_road), or a road drawn across a
        watercourse that counts as bridged under a road (H§8.4)."""
        side = frozenset((a, b))
        for bridge in self.bridges_at.get(side, ()):
            if (not by_road or bridge.carries == "road") and self.open_states.get(self.bridge_state(bridge, states)):
                return True
        water = self.water.get(side)
        return bool(water and water.props.get("road_is_bridge") and side in self.roads)

    def unbridged_water(self, a: str, b: str, states: Mapping[str, str], *, by_road: bool = False) -> Water | None:
        """The watercourse on this hexside if nothing bridges it, else None."""
        water = self.water.get(frozenset((a, b)))
        if water is None or self.bridged(a, b, states, by_road=by_road):
            return None
        return water

    def zoc_reaches(self, a: str, b: str, states: Mapping[str, str]) -> bool:
        """A zone of control extends from a into adjacent b (H§7.1): not into lakes, not across
        an unbridged major river."""
        if not self.hex_props(b).get("zoc", True):
            return False
        water = self.unbridged_water(a, b, states)
        return water is None or bool(water.props.get("zoc_unbridged"))

    def bond_crosses(self, a: str, b: str, states: Mapping[str, str]) -> bool:
        """A ZOC bond may run across the hexside a|b (H§7.4.6)."""
        water = self.unbridged_water(a, b, states)
        return water is None or bool(water.props.get("bonds_unbridged"))

    def vehicle_enters(self, a: str, b: str, states: Mapping[str, str]) -> bool:
        """A vehicle-type unit may move from a into b (H§2.3.14, H§8.5.2, H§8.6.2)."""
        if not self.hex_props(b).get("passable", True) or self.hex_props(b).get("vehicles") == "prohibited":
            return False
        if "road-only" in (self.hex_props(a).get("vehicles"), self.hex_props(b).get("vehicles")) and not self.road(a, b):
            return False
        water = self.unbridged_water(a, b, states)
        return water is None or bool(water.props.get("vehicles_unbridged"))

    def vehicle_may_stand(self, key: str) -> bool:
        """A vehicle may stand in a hex: not prohibited terrain, and road-only terrain only on a road."""
        props = self.hex_props(key)
        if not props.get("passable", True) or props.get("vehicles") == "prohibited":
            return False
        return props.get("vehicles") != "road-only" or self.is_road_hex(key)

    def supply_crosses(self, a: str, b: str, states: Mapping[str, str]) -> tuple[bool, Water | None]:
        """Whether the overland leg of a supply line may step from a to b (H§18.3), and the
        unbridged watercourse it crosses on the way, if any."""
        if not self.hex_props(b).get("passable", True):
            return False, None
        water = self.unbridged_water(a, b, states)
        if water is None:
            return True, None
        return bool(water.props.get("supply_unbridged")), water

    def road_open(self, a: str, b: str, states: Mapping[str, str]) -> bool:
        """The road runs from a to b and is not cut by water without a road bridge (H§18.3)."""
        if not self.road(a, b) or not self.hex_props(b).get("passable", True):
            return False
        return self.unbridged_water(a, b, states, by_road=True) is None

    # --- edges, entry areas and regions --------------------------------------------------

    @cached_property
    def area_cells(self) -> dict[str, frozenset]:
        """Off-map lattice cells beyond each entry area's edge hexes (where the area lies)."""
        out = {}
        for area, keys in self.area_hexes.items():
            cells = set()
            for k in keys:
                for n in hexmath.neighbours(self.board.axial(k)):
                    if n not in self.board.by_axial:
                        cells.add(n)
            out[area] = frozenset(cells)
        return out

    def on_edge(self, key: str) -> bool:
        return any(n not in self.board.by_axial for n in hexmath.neighbours(self.board.axial(key)))

    def region(self, seed: str, bounded_by: Iterable[str]) -> frozenset[str] | None:
        """Hexes reached from seed without crossing the named watercourses (bridged or not)."""
        start = self.key(seed)
        if start is None:
            return None
        bounds = set(bounded_by)
        seen = {start}
        todo = deque([start])
        while todo:
            k = todo.popleft()
            for n in self.neighbours(k):
                water = self.water.get(frozenset((k, n)))
                if n in seen or (water is not None and water.id in bounds):
                    continue
                seen.add(n)
                todo.append(n)
        return frozenset(seen)

    @cached_property
    def regions(self) -> dict[str, frozenset[str]]:
        out = {}
        for r in self.doc.get("regions", ()):
            hexes = self.region(r["seed"], r["bounded_by"])
            if hexes is not None:
                out[r["id"]] = hexes
        return out
