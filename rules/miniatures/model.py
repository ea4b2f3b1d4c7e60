"""Typed miniatures objects built from a loaded catalog: units and HQs, weapons, tables.

Command radii (M§B.4): a unit takes orders within ``company_radius_cm`` (20 cm, 4H) of its
company HQ, a company HQ within ``battalion_radius_cm`` (30 cm, 6H) of its battalion HQ;
a battalion or company HQ without radio loses ``no_radio_radius_cm`` (10 cm, 2H) of its
radius and ``no_radio_competence`` (1) of its competence. Higher echelons have radios and
no distance limit. An HQ's radius is the one its own radio decides.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Mapping

from ..board import Board
from .scale import hexes

ECHELONS = ("company", "battalion", "regiment", "division")


@dataclass(frozen=True)
class Unit:
    id: str
    name: str
    side: str
    category: str
    training: int
    weapons: tuple[str, ...]
    echelon: str | None
    competence: int | None
    radio: bool | None
    commander: str | None
    raw: Mapping = field(repr=False, compare=False)

    @property
    def is_hq(self) -> bool:
        return self.category == "hq"

    @classmethod
    def of(cls, v: Mapping) -> "Unit":
        return cls(v["id"], v["name"], v["side"], v["category"], v["training"], tuple(v["weapons"]), v.get("echelon"),
                   v.get("competence"), v.get("radio"), v.get("commander"), v)


class Table:
    """A table on the shared hex board, with its shelter groups."""

    def __init__(self, doc: Mapping):
        self.doc = doc
        self.id = doc["id"]
        self.board = Board.from_sheets([[doc]], doc["north"])
        self.shelters = {s["id"]: frozenset(k for k in (self.board.resolve(h) for h in s["hexes"]) if k)
                         for s in doc.get("shelters", ())}

    def key(self, hex_id: str) -> str | None:
        return self.board.resolve(hex_id)

    def label(self, key: str) -> str:
        return self.board.cells[key].hex_id


class Miniatures:
    def __init__(self, catalog):
        rules = sorted(catalog.entries("rules"), key=lambda e: e.id)
        self.rules = rules[0].value
        self.weapons = {e.id: e.value for e in catalog.entries("weapon")}
        self.units = {e.id: Unit.of(e.value) for e in catalog.entries("unit")}
        self.table_docs = {e.id: e.value for e in catalog.entries("table")}
        self.scenarios = {e.id: e.value for e in catalog.entries("scenario")}
        self.setups = {e.id: e.value for e in catalog.entries("setup")}
        self._tables: dict[str, Table] = {}

    @property
    def cm_per_hex(self) -> float:
        return self.rules["scale"]["cm_per_hex"]

    def hexes(self, cm: float) -> int:
        """A distance of the rules, in cm, as hexes (M§A: 5 cm a hex, rounded down)."""
        return hexes(cm, self.cm_per_hex)

    def scenario(self, scenario_id: str) -> Mapping | None:
        return self.scenarios.get(scenario_id)

    def table(self, table_id: str) -> Table | None:
        if table_id not in self._tables and table_id in self.table_docs:
            self._tables[table_id] = Table(self.table_docs[table_id])
        return self._tables.get(table_id)

    def power(self, unit: Unit) -> int:
        """A unit's power: that of its strongest weapon (M§B.2)."""
        return max((self.weapons[w]["power"] for w in unit.weapons if w in self.weapons), default=0)

    def has_radio(self, hq: Unit) -> bool:
        return bool(hq.radio) or hq.echelon in self.rules["command"]["radio_echelons"]

    def command_radius(self, hq: Unit) -> int | None:
        """Hexes within which the units an HQ commands take its orders; None: no limit (M§B.4)."""
        c = self.rules["command"]
        if hq.echelon in c["radio_echelons"]:
            return None
        cm = {"company": c["company_radius_cm"], "battalion": c["battalion_radius_cm"]}.get(hq.echelon)
        if cm is None:
            return None
        if not self.has_radio(hq):
            cm -= c["no_radio_radius_cm"]
        return self.hexes(max(cm, 0))

    def competence(self, hq: Unit) -> int:
        """Competence in play: less the no-radio penalty for a battalion or company HQ (M§B.4)."""
        c = self.rules["command"]
        if hq.echelon in ("company", "battalion") and not self.has_radio(hq):
            return hq.competence - c["no_radio_competence"]
        return hq.competence

    def successor_competence(self, hq: Unit) -> int:
        """Competence of the unit that takes over a destroyed HQ (M§B.4)."""
        return hq.competence - self.rules["command"].get("replacement_competence", 1)

    def separation(self, units) -> int:
        """Hexes the two sides must at least be apart: strongest power x 10 cm (M§C.1)."""
        strongest = max((self.power(u) for u in units), default=0)
        return self.hexes(strongest * self.rules["deployment"]["separation_cm_per_power"])

    @cached_property
    def edge_depth(self) -> int:
        return self.hexes(self.rules["deployment"]["edge_depth_cm"])


def build(catalog) -> Miniatures | None:
    if not catalog.entries("rules"):
        return None
    return Miniatures(catalog)
