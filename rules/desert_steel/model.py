"""Typed, immutable Desert Steel objects built from a loaded catalog, references resolved.

The catalog holds layered JSON; this module turns it into frozen dataclasses that the
board, the engine and the print kit use. An object whose references are broken is left
out (the catalog already reported why); everything that is built is whole.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Mapping

SIDE = {"german": "axis", "italian": "axis", "british": "allied", "us": "allied"}
# §6.2: nationality number used to break ties, lower is better.
NATIONALITY_NUMBER = {"german": 1, "british": 2, "us": 2, "italian": 3}
ROMAN = ("I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X", "XI", "XII", "XIII", "XIV", "XV",
         "XVI", "XVII", "XVIII", "XIX", "XX")


def freeze(value: Any) -> Any:
    """Deep read-only copy of JSON data: dicts become mapping proxies, lists tuples."""
    if isinstance(value, dict):
        return MappingProxyType({k: freeze(v) for k, v in value.items()})
    if isinstance(value, list):
        return tuple(freeze(v) for v in value)
    return value


def _factor(value) -> int | None:
    return None if value == "cannot-fire" else value


class _Nationality:
    """Side and tie-break number (§6.2) of anything that has a nationality."""

    nationality: str

    @property
    def side(self) -> str:
        return SIDE[self.nationality]

    @property
    def nationality_number(self) -> int:
        return NATIONALITY_NUMBER[self.nationality]


VEHICLE_CLASSES = ("vehicle", "transport")  # the unit classes that are vehicles (UnitType.is_vehicle)


@dataclass(frozen=True)
class UnitType(_Nationality):
    id: str
    name: str
    nationality: str
    unit_class: str
    movement: int | None
    range: int | None
    anti_vehicle_range: int | None
    indirect_fire: bool
    anti_vehicle: int | None  # None: cannot fire (the printed dot)
    defense: int
    anti_infantry: int | None
    lightly_armored: bool
    towed: bool
    spotter: bool
    close_support: bool
    engineer: bool
    counts_as_observer: bool
    transport_capacity: str | None
    formation_transport: bool
    raw: Mapping = field(repr=False, compare=False)

    @property
    def is_vehicle(self) -> bool:
        return self.unit_class in VEHICLE_CLASSES

    @classmethod
    def from_json(cls, v: dict) -> "UnitType":
        t = v.get("transport", {})
        return cls(v["id"], v["name"], v["nationality"], v["class"], v.get("movement"), v.get("range"),
                   v.get("anti_vehicle_range"), v.get("indirect_fire", False), _factor(v["anti_vehicle"]),
                   v["defense"], _factor(v["anti_infantry"]), v.get("lightly_armored", False),
                   v.get("towed", False), v.get("spotter", False), v.get("close_support", False),
                   v.get("engineer", False), v.get("counts_as_observer", False), t.get("capacity"),
                   t.get("formation_transport", False), freeze(v))


@dataclass(frozen=True)
class UnitCount:
    unit: UnitType
    count: int


@dataclass(frozen=True)
class CardVariant:
    year: int
    units: tuple[UnitCount, ...]
    experience: str
    c3: str
    morale: int
    loss_modifier: float

    @property
    def unit_total(self) -> int:
        return sum(u.count for u in self.units)


@dataclass(frozen=True)
class CombatCard(_Nationality):
    number: int
    designation: str
    name: str
    nationality: str
    formation: str
    years: tuple[int, int]
    variants: Mapping[int, CardVariant]
    raw: Mapping = field(repr=False, compare=False)

    def variant(self, year: int) -> CardVariant | None:
        return self.variants.get(year)


@dataclass(frozen=True)
class CommandCard(_Nationality):
    number: int
    designation: str
    name: str
    nationality: str
    c3: str
    years: tuple[int, int]
    subordinates: tuple[CombatCard, ...]
    hq: CombatCard | None
    raw: Mapping = field(repr=False, compare=False)


Card = CombatCard | CommandCard


@dataclass(frozen=True)
class RaidCard:
    id: str
    air_strike: Mapping
    bombardment: Mapping


@dataclass(frozen=True)
class MapSheet:
    id: str
    name: str
    columns: tuple[int, int]
    rows: tuple[int, int]
    shifted_columns: str
    half_hexes: Mapping
    colours: tuple[str, ...]
    default_colour: str
    hexes: Mapping
    roads: tuple
    raw: Mapping = field(repr=False, compare=False)


@dataclass(frozen=True)
class MapConfiguration:
    id: str
    layout: tuple[tuple[MapSheet, ...], ...]
    north: str

    @property
    def layout_ids(self) -> list[list[str]]:
        return [[m.id for m in row] for row in self.layout]

    @property
    def maps(self) -> tuple[MapSheet, ...]:
        return tuple(m for row in self.layout for m in row)


@dataclass(frozen=True)
class ScenarioSide:
    name: str
    year: int
    groups: tuple[Mapping, ...]
    reinforcements: tuple[Mapping, ...]
    setup_cards: tuple[Card, ...]  # the cards listed under "Formations", in scenario order
    raw: Mapping = field(repr=False, compare=False)


@dataclass(frozen=True)
class Scenario:
    id: str
    number: str
    name: str
    rules: str
    year: int
    configuration: MapConfiguration
    turns: int
    visibility: int
    conditions: Mapping
    sides: Mapping[str, ScenarioSide]
    raw: Mapping = field(repr=False, compare=False)

    @property
    def ordinal(self) -> int:
        return ROMAN.index(self.number) + 1 if self.number in ROMAN else 0


@dataclass(frozen=True)
class DesertSteel:
    """Everything a Desert Steel catalog holds, typed."""

    unit_types: Mapping[str, UnitType]
    cards: Mapping[int, Card]
    raid_cards: Mapping[str, RaidCard]
    maps: Mapping[str, MapSheet]
    configurations: Mapping[str, MapConfiguration]
    scenarios: Mapping[str, Scenario]
    setups: Mapping[str, Mapping]
    terrain_effects: Mapping | None
    rule_tables: Mapping | None

    def scenario(self, ref: str) -> Scenario | None:
        """By id or by roman number, case-insensitive and with surrounding spaces ignored (``XV``,
        ``xv``, ``Kasserine-Pass``), as every command accepts."""
        if ref in self.scenarios:
            return self.scenarios[ref]
        up = ref.strip().upper()
        return next((s for s in self.scenarios.values() if s.number == up or s.id.upper() == up), None)

    def combat_cards(self) -> list[CombatCard]:
        return [c for c in self.cards.values() if isinstance(c, CombatCard)]


def build(catalog) -> DesertSteel:
    units = {e.id: UnitType.from_json(e.value) for e in catalog.entries("unit-type")}
    combat: dict[int, CombatCard] = {}
    for e in catalog.entries("formation-card"):
        v = e.value
        if v["type"] != "combat":
            continue
        variants = {}
        for year, var in v["variants"].items():
            if any(u["type"] not in units for u in var["units"]):
                break
            variants[int(year)] = CardVariant(int(year), tuple(UnitCount(units[u["type"]], u["count"])
                                                               for u in var["units"]),
                                              var["experience"], var["c3"], var["morale"], var["loss_modifier"])
        else:
            combat[v["number"]] = CombatCard(v["number"], v["designation"], v.get("name", v["designation"]),
                                             v["nationality"], v["formation"],
                                             (v["years"]["from"], v["years"]["to"]),
                                             MappingProxyType(variants), freeze(v))
    cards: dict[int, Card] = dict(combat)
    for e in catalog.entries("formation-card"):
        v = e.value
        if v["type"] != "command" or any(n not in combat for n in v["subordinates"]):
            continue
        cards[v["number"]] = CommandCard(v["number"], v["designation"], v.get("name", v["designation"]),
                                         v["nationality"], v["c3"], (v["years"]["from"], v["years"]["to"]),
                                         tuple(combat[n] for n in v["subordinates"]),
                                         combat.get(v.get("hq")), freeze(v))
    maps = {e.id: _map(e.value) for e in catalog.entries("map")}
    configurations = {}
    for e in catalog.entries("map-configuration"):
        v = e.value
        if all(mid in maps for row in v["layout"] for mid in row):
            configurations[e.id] = MapConfiguration(e.id, tuple(tuple(maps[m] for m in row) for row in v["layout"]),
                                                    v["north"])
    scenarios = {}
    for e in catalog.entries("scenario"):
        s = _scenario(e.value, cards, configurations)
        if s is not None:
            scenarios[s.id] = s
    raids = {e.id: RaidCard(e.id, freeze(e.value["air_strike"]), freeze(e.value["bombardment"]))
             for e in catalog.entries("raid-card")}
    effects = catalog.entries("terrain-effects")
    tables = catalog.entries("rule-tables")
    return DesertSteel(
        MappingProxyType(units), MappingProxyType(cards), MappingProxyType(raids), MappingProxyType(maps),
        MappingProxyType(configurations),
        MappingProxyType(dict(sorted(scenarios.items(), key=lambda kv: (kv[1].ordinal, kv[0])))),
        MappingProxyType({e.id: freeze(e.value) for e in catalog.entries("setup")}),
        freeze(effects[0].value) if effects else None, freeze(tables[0].value) if tables else None)


def _map(v: dict) -> MapSheet:
    g = v["grid"]
    return MapSheet(v["id"], v["name"], (g["columns"]["first"], g["columns"]["last"]),
                    (g["rows"]["first"], g["rows"]["last"]), g["shifted_columns"], freeze(g.get("half_hexes", {})),
                    tuple(v["colours"]), v["default_colour"], freeze(v.get("hexes", {})), freeze(v.get("roads", [])),
                    freeze(v))


def _scenario(v: dict, cards: Mapping[int, Card], configurations) -> Scenario | None:
    conf = configurations.get(v["map_configuration"])
    if conf is None:
        return None
    sides = {}
    for name, side in v["sides"].items():
        numbers = [n for g in side["formations"] for n in g["cards"]]
        numbers += [n for r in side.get("reinforcements", []) for n in r["cards"]]
        if any(n not in cards for n in numbers):
            return None
        year = v.get("year_override", {}).get(name, v["year"])
        sides[name] = ScenarioSide(name, year, freeze(side["formations"]), freeze(side.get("reinforcements", [])),
                                   tuple(cards[n] for g in side["formations"] for n in g["cards"]), freeze(side))
    c = v["conditions"]
    return Scenario(v["id"], v["number"], v["name"]["en"], v["rules"], v["year"], conf, c["turns"], c["visibility"],
                    freeze(c), MappingProxyType(sides), freeze(v))
