"""The pieces of a Holland '44 position: counters, markers, entry areas, a piece on the map and
the position itself (one setup placed on its map). The bottom layer of the ruleset: position,
stacking, zoc, supply and victory compute from these; model (the catalog's objects) sits on top.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Mapping

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
    model: "Holland"  # model.Holland (the layer above)
    setup: Mapping
    scenario: Mapping
    map: HollandMap
    turn: int
    pieces: list[Piece]
    bridge_states: dict[str, str]
    # Facts the modules above compute from the position once (zoc.zones, zoc.bonds_of): kept
    # here so they are computed once per position, asked for there so this layer imports none.
    derived: dict = field(default_factory=dict, compare=False, repr=False)

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

    @property
    def rules(self) -> Mapping:
        return self.model.rules

