"""Typed Holland '44 objects built from a loaded catalog, and positions built from setups.

The model holds the pack's counters, markers, entry areas, schedule, rule constants,
terrain, maps, victory values and scenarios. A ``Position`` is one setup placed on its
scenario's map: the pieces, bridge states and turn that stacking, zones of control,
bonds, supply and victory points are computed from.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Callable, Mapping

from ..findings import Finding
from .terrain import HollandMap

SIDES = ("allied", "german")
ALLIED_NATIONALITIES = frozenset({"us", "uk", "canada", "netherlands", "poland"})


def enemy(side: str) -> str:
    return "german" if side == "allied" else "allied"


@dataclass(frozen=True)
class Counter:
    id: str
    name: str
    side: str
    nationality: str
    type: str
    unit_class: str
    attack: int
    defense: int
    movement: int
    steps: int
    morale: str
    armor: int | None
    free_stacking: bool
    half_battalion_of: str | None
    formation: str | None
    airborne: bool
    unknown: bool
    remnant: str | None
    arrival: Mapping | None
    raw: Mapping = field(repr=False, compare=False)

    @classmethod
    def of(cls, v: Mapping) -> "Counter":
        return cls(v["id"], v["name"], v["side"], v["nationality"], v["type"], v["class"], v["attack"], v["defense"],
                   v["movement"], v["steps"], v["morale"], v.get("armor"), bool(v.get("free_stacking")),
                   v.get("half_battalion_of"), v.get("formation"), bool(v.get("airborne")), bool(v.get("unknown")),
                   v.get("remnant"), v.get("arrival"), v)

    @property
    def is_supply_head(self) -> bool:
        return self.type == "supply-head"

    @property
    def is_vehicle(self) -> bool:
        return self.unit_class == "mechanized-vehicle"


@dataclass(frozen=True)
class Marker:
    id: str
    applies_to: str
    effect: str
    number: int | None = None


@dataclass(frozen=True)
class EntryArea:
    id: str
    friendly: tuple[tuple[str, int, int], ...]  # (side, from turn, to turn)

    def friendly_to(self, side: str, turn: int) -> bool:
        return any(s == side and lo <= turn <= hi for s, lo, hi in self.friendly)


class Holland:
    """The Holland '44 model of a catalog."""

    def __init__(self, catalog):
        self.counters = {e.id: Counter.of(e.value) for e in catalog.entries("counter")}
        self.markers = {e.id: Marker(e.id, e.value["applies_to"], e.value["effect"], e.value.get("number"))
                        for e in catalog.entries("marker")}
        self.areas = {e.id: EntryArea(e.id, tuple((f["side"], f.get("from_turn", 1), f.get("to_turn", 99))
                                                  for f in e.value["friendly"]))
                      for e in catalog.entries("entry-area")}
        self.schedule = tuple(e.value for e in catalog.entries("reinforcement"))
        self.rules = _first(catalog, "rules")
        self.terrain = _first(catalog, "terrain")
        self.victory = _first(catalog, "victory")
        self.map_docs = {e.id: e.value for e in catalog.entries("map")}
        self.scenarios = {e.id: e.value for e in catalog.entries("scenario")}
        self.setups = {e.id: e.value for e in catalog.entries("setup")}
        self._maps: dict[str, HollandMap] = {}
        self.remnant_of = {c.remnant: c.id for c in self.counters.values() if c.remnant}

    def scenario(self, scenario_id: str) -> Mapping | None:
        return self.scenarios.get(scenario_id)

    def map(self, map_id: str) -> HollandMap | None:
        """The map on the board (raises BoardError if its grid cannot be laid out)."""
        if map_id not in self._maps:
            doc = self.map_docs.get(map_id)
            if doc is None or self.terrain is None:
                return None
            self._maps[map_id] = HollandMap(doc, self.terrain)
        return self._maps[map_id]

    def setup(self, setup_id: str) -> Mapping | None:
        return self.setups.get(setup_id)

    def position(self, setup: Mapping, report: Callable[..., Finding] | None = None) -> "Position":
        """A setup placed on its map; problems with references go to report (else are skipped)."""
        from .position import build_position
        position, _ = build_position(self, setup, report or _ignore)
        if position is None:
            raise LookupError(f"setup {setup.get('id')!r} cannot be placed on a map")
        return position

    def supply_trace(self, setup: Mapping, unit: str):
        """The supply line of one unit of a setup (``sandtable supply``); LookupError if no such unit."""
        from .supply import trace
        position = self.position(setup)
        piece = position.piece(unit)
        if piece is None:
            raise LookupError(f"no unit {unit!r} in setup {setup.get('id')!r}")
        return trace(position, piece)


def _first(catalog, kind: str) -> Mapping | None:
    entries = sorted(catalog.entries(kind), key=lambda e: e.id)
    return entries[0].value if entries else None


def _ignore(code, message, pointer="", **kw):
    return None


def build(catalog) -> Holland | None:
    if _first(catalog, "rules") is None or _first(catalog, "terrain") is None:
        return None
    return Holland(catalog)


@dataclass(frozen=True)
class Piece:
    """A counter of a position: on a hex (board key) or in an entry area."""

    counter: Counter
    side: str
    hex: str | None
    area: str | None
    steps: int
    markers: tuple[Marker, ...]
    face_down: bool
    pointer: str

    @property
    def id(self) -> str:
        return self.counter.id

    @cached_property
    def effects(self) -> frozenset[str]:
        return frozenset(m.effect for m in self.markers)

    @property
    def status(self) -> str:
        if "full-retreat" in self.effects:
            return "full-retreat"
        if "disrupted" in self.effects:
            return "disrupted"
        return "good-order"

    @property
    def hidden(self) -> bool:
        """A face-down Unknown counter (H§25)."""
        return self.face_down and self.counter.unknown

    @property
    def takes_space(self) -> bool:
        """Airborne Supply Heads and face-down Unknowns take no stacking space (H§6.1)."""
        return not (self.counter.is_supply_head or self.hidden)

    @property
    def exerts_zoc(self) -> bool:
        """Every combat unit but one in Full Retreat (H§7.1, H§14.3); a supply head has none."""
        return self.status != "full-retreat" and not self.counter.is_supply_head


@dataclass
class Position:
    model: Holland
    setup: Mapping
    scenario: Mapping
    map: HollandMap
    turn: int
    pieces: list[Piece]
    bridge_states: dict[str, str]

    @cached_property
    def by_hex(self) -> dict[str, list[Piece]]:
        out: dict[str, list[Piece]] = {}
        for p in self.pieces:
            if p.hex is not None:
                out.setdefault(p.hex, []).append(p)
        return out

    def at(self, key: str, side: str | None = None) -> list[Piece]:
        return [p for p in self.by_hex.get(key, ()) if side is None or p.side == side]

    @cached_property
    def occupied(self) -> dict[str, frozenset[str]]:
        return {s: frozenset(k for k, ps in self.by_hex.items() if any(p.side == s for p in ps)) for s in SIDES}

    def piece(self, counter_id: str) -> Piece | None:
        return next((p for p in self.pieces if p.counter.id == counter_id), None)

    def on_map(self, side: str | None = None) -> list[Piece]:
        return [p for p in self.pieces if p.hex is not None and (side is None or p.side == side)]

    def area_friendly(self, area: str, side: str) -> bool:
        a = self.model.areas.get(area)
        return a is not None and a.friendly_to(side, self.turn)

    @cached_property
    def zoc(self) -> dict[str, frozenset[str]]:
        from .zoc import zone_of_control
        return {s: zone_of_control(self, s) for s in SIDES}

    @cached_property
    def bonds(self) -> dict[str, tuple]:
        from .zoc import bonds
        return {s: tuple(bonds(self, s)) for s in SIDES}

    @property
    def rules(self) -> Mapping:
        return self.model.rules

