"""Typed Holland '44 objects built from a loaded catalog, and positions built from setups.

The model holds the pack's counters, markers, entry areas, schedule, rule constants,
terrain, maps, victory values and scenarios. A ``Position`` is one setup placed on its
scenario's map: the pieces, bridge states and turn that stacking, zones of control,
bonds, supply and victory points are computed from.
"""
from __future__ import annotations

from typing import Callable, Mapping

from ..findings import Finding
# The pieces are the layer below; positions, supply and the rest sit between: model is on top.
from .pieces import ALLIED_NATIONALITIES, SIDES, Counter, EntryArea, Marker, Piece, Position, enemy  # noqa: F401
from .position import build_position
from .supply import trace
from .terrain import HollandMap

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
        position, _ = build_position(self, setup, report or _ignore)
        if position is None:
            raise LookupError(f"setup {setup.get('id')!r} cannot be placed on a map")
        return position

    def supply_trace(self, setup: Mapping, unit: str):
        """The supply line of one unit of a setup (``sandtable supply``); LookupError if no such unit."""
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
