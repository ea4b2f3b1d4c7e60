"""A scenario's battlefield: its board, effective terrain, line of sight and movement.

Procedures live here; numbers (movement costs, spotting divisors, climb rounding) come
from the pack's rule tables.
"""
from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from functools import cached_property
from typing import Iterable, Mapping

import networkx as nx

from .. import hexmath
from ..board import Board
from .model import VEHICLE_CLASSES, DesertSteel, Scenario, UnitType
from .terrain import Conditions, TerrainMap
from .zones import ZoneContext, evaluate


@dataclass(frozen=True)
class LosStep:
    hexes: tuple[str, ...]  # one hex the line crosses, or the two hexes of a hexside it runs along
    levels: tuple[int, ...]
    blocks: bool
    reason: str = ""


@dataclass(frozen=True)
class LosResult:
    visible: bool
    distance: int
    reason: str
    section: str
    blocking: tuple[str, ...] = ()
    steps: tuple[LosStep, ...] = ()
    cover: bool = False
    spotting_number: int | None = None  # 0: automatic (same hex); None: no line of sight

    def to_json(self) -> dict:
        return {"visible": self.visible, "distance": self.distance, "reason": self.reason, "section": self.section,
                "blocking": list(self.blocking), "cover": self.cover, "spotting_number": self.spotting_number,
                "steps": [{"hexes": list(s.hexes), "levels": list(s.levels), "blocks": s.blocks, "reason": s.reason}
                          for s in self.steps]}


@dataclass
class Battlefield:
    board: Board
    terrain: TerrainMap
    visibility: int
    tables: Mapping
    scenario: Scenario | None = None
    smoke: set[str] = field(default_factory=set)
    wire: set[str] = field(default_factory=set)
    _zones: dict = field(default_factory=dict, repr=False)
    # memoised movement facts (the engine asks them for every step): costs off wire, valid for
    # the movement cost table they were read from; hexes one may exit from (geometry)
    _enter_costs: tuple = field(default=(None, None), repr=False, compare=False)
    _exit_hexes: dict = field(default_factory=dict, repr=False, compare=False)
    # what readers outside the rules derive from this battlefield and keep (the bots' goal distances):
    # each under its own key, a pure function of the battlefield and the scenario
    memo: dict = field(default_factory=dict, repr=False, compare=False)

    @classmethod
    def for_scenario(cls, model: DesertSteel, scenario: Scenario, turn: int = 1) -> "Battlefield":
        conf = scenario.configuration
        board = Board.from_sheets([[dict(m.raw) for m in row] for row in conf.layout], conf.north)
        terrain = TerrainMap(board, {m.id: m.raw for m in conf.maps}, model.terrain_effects,
                             Conditions.of_scenario(scenario.raw))
        return cls(board, terrain, visibility_on(scenario, turn), model.rule_tables or {}, scenario)

    @property
    def settings(self) -> Mapping:
        return self.tables.get("settings", {})

    @property
    def los_policy(self) -> str:
        """How a line of sight is traced (hexmath.line_pattern): "exact", the straight line of §9.11
        ("une ligne droite [...] du centre de l'hex. [...] au centre de l'hex."), by default; a pack may
        name "sampled" (one hex per hex of distance) instead."""
        return self.settings.get("line_of_sight_policy", "exact")

    def zone(self, expression: Mapping) -> frozenset[str]:
        """Hexes of a zone expression (cached: many formations share one instruction)."""
        key = json.dumps(expression, sort_keys=True, default=_thaw)
        if key not in self._zones:
            self._zones[key] = evaluate(expression, ZoneContext(self.board, self.terrain))
        return self._zones[key]

    # --- line of sight (§9.11-9.13) --------------------------------------------------------

    def line(self, a: str, b: str) -> list[tuple[str | None, ...]]:
        """The hexes and hexsides between two hexes, in order (keys; seam halves by first map).

        A position off every map is None: it has no terrain and never blocks, but it still
        makes its hexside a hexside (§9.13).
        """
        origin = self.board.axial(a)
        pattern = hexmath.line_pattern(hexmath.sub(self.board.axial(b), origin), self.los_policy)
        out = []
        for step in pattern.steps:
            keys = []
            for rel in step:
                cells = self.board.by_axial.get(hexmath.add(origin, rel))
                keys.append(cells[0].key if cells else None)
            if any(keys):
                out.append(tuple(keys))
        return out

    def _blocks(self, h: str | None, la: int, lb: int, low_key: str, high_key: str) -> str:
        """Why hex h blocks a line between units at levels la and lb ('' if it does not)."""
        if h is None:
            return ""
        t = self.terrain.hexes[h]
        low, high = min(la, lb), max(la, lb)
        if h in self.smoke:
            return "smoke blocks line of sight (§17.3)"
        if t.level > high:
            return f"level {t.level} is higher than both units (§9.12)"
        if la == lb:
            if t.building and t.level >= la:
                return f"building at level {t.level}, not below the units' level {la} (§9.12)"
            return ""
        if t.level >= high:
            return f"level {t.level} reaches the higher unit's level {high} (§9.12)"
        if low < t.level < high and self.board.distance(h, low_key) == 1 and self.board.distance(h, high_key) != 1:
            return (f"level {t.level} next to the lower unit, above it and below the higher unit, "
                    f"which is not adjacent to it (§9.12)")
        return ""

    def los(self, a: str, b: str) -> LosResult:
        d = self.board.distance(a, b)
        la, lb = self.terrain.level(a), self.terrain.level(b)
        cover = self.terrain.hexes[b].building or lb > la  # §9.16: building, or elevated target
        if a == b:
            return LosResult(True, 0, "same hex: spotting is automatic", "9.14", cover=cover, spotting_number=0)
        if d > self.visibility:
            return LosResult(False, d, f"{d} hexes is beyond the visibility of {self.visibility}", "9.11")
        number = self.spotting_number(d, cover)
        if d == 1:
            return LosResult(True, d, "adjacent units always see each other", "9.11", cover=cover,
                             spotting_number=number)
        low_key, high_key = (a, b) if la <= lb else (b, a)
        steps = []
        blocking: tuple[str, ...] = ()
        for hexes in self.line(a, b):
            reasons = [self._blocks(h, la, lb, low_key, high_key) for h in hexes]
            blocks = all(reasons)  # a hexside blocks only if both its hexes do (§9.13)
            side = len(hexes) > 1
            reason = "; ".join(f"{h}: {r}" for h, r in zip(hexes, reasons) if r)
            if side:
                reason = ("hexside, both hexes block (§9.13): " if blocks else
                          "hexside, blocked only if both hexes block (§9.13)" + (": " if reason else "")) + reason
            steps.append(LosStep(tuple(h or "off-map" for h in hexes),
                                 tuple(self.terrain.level(h) if h else -1 for h in hexes), blocks, reason))
            if blocks and not blocking:
                blocking = hexes
        if blocking:
            first = next(s for s in steps if s.blocks)
            return LosResult(False, d, first.reason, "9.13" if len(blocking) > 1 else "9.12", blocking,
                             tuple(steps), cover)
        return LosResult(True, d, "clear line of sight", "9.11", (), tuple(steps), cover, number)

    def spotting_number(self, distance: int, cover: bool) -> int:
        """ceil(d/3) in the open, ceil(d/2) in cover (§9.14); divisors from the rule tables."""
        divisor = self.settings.get("spotting_divisor_cover" if cover else "spotting_divisor_open", 2 if cover else 3)
        return math.ceil(distance / divisor)

    # --- movement (§8) ---------------------------------------------------------------------

    def _costs(self) -> Mapping:
        return self.tables["movement_costs"]["terrain"]

    def enter_cost(self, unit: UnitType, frm: str, to: str) -> float | str:
        """MP to enter ``to`` from the adjacent ``frm``: a number, "all" or "prohibited"."""
        # asked for every step of the engine and every hex of a bot's route: the memo read first
        wire = self.wire
        if wire and (to in wire or frm in wire):
            return self._wire_cost(unit, "vehicle" if unit.is_vehicle else "non_vehicle", entering=to in wire)
        costs = self.tables["movement_costs"]["terrain"]  # _costs()
        table, memo = self._enter_costs
        if table is not costs:
            table, memo = self._enter_costs = (costs, {})
        vehicle = unit.unit_class in VEHICLE_CLASSES  # unit.is_vehicle
        key = (frm, to, vehicle, unit.movement)  # all the terrain cost depends on besides the map
        cost = memo.get(key)
        if cost is None:
            cost = memo[key] = self._terrain_cost(unit, "vehicle" if vehicle else "non_vehicle", costs, frm, to)
        return cost

    def _terrain_cost(self, unit: UnitType, column: str, costs: Mapping, frm: str, to: str) -> float | str:
        road = self.terrain.road_between(frm, to)
        if road is not None:
            return costs[road][column]  # on the road: no climb, no mud (§8.3)
        t = self.terrain.hexes[to]
        cost = costs["building" if t.building else t.ground][column]
        if isinstance(cost, str):
            return cost
        if t.level > self.terrain.level(frm):
            mp = unit.movement or 1
            climb = mp * self.settings.get("climb_cost_fraction", 0.5)
            climb = math.ceil(climb) if self.settings.get("climb_cost_rounding", "up") == "up" else math.floor(climb)
            cost = max(cost, climb)  # §8: entering a higher hex costs half the MP, rounded up
        return cost

    def _wire_cost(self, unit: UnitType, column: str, entering: bool) -> str:
        """§15.32: vehicles spend all their MP to enter wire, and all of them to leave it for a
        wire-free hex; non-vehicles and lightly armoured vehicles cannot enter it."""
        if entering and unit.lightly_armored and not self.settings.get("lightly_armored_may_enter_wire", False):
            return "prohibited"
        cost = self._costs().get("wire", {}).get(column, "prohibited" if column == "non_vehicle" else "all")
        return cost if entering else "all"

    def exit_cost(self, unit: UnitType, key: str) -> float | None:
        """MP to leave the map from a hex (§8.4): only next to the map edge or an edge half
        hex; None where the unit cannot exit from there."""
        if key not in self._exit_hexes:
            board = self.board
            next_to_edge = len(hexmath.neighbours(board.axial(key))) != len(
                [n for n in hexmath.neighbours(board.axial(key)) if n in board.by_axial])
            next_to_half = any(c.half for n in hexmath.neighbours(board.axial(key))
                               for c in board.by_axial.get(n, ()))
            self._exit_hexes[key] = next_to_edge or next_to_half
        if not self._exit_hexes[key]:
            return None
        return self._costs().get("exit_map", {}).get("vehicle" if unit.is_vehicle else "non_vehicle", 1)

    def allowance(self, unit: UnitType) -> float:
        return unit.movement if unit.movement is not None else 1  # §12.12, §12.3: MA 1

    def reachable(self, unit: UnitType, start: str, allowance: float | None = None) -> dict[str, float]:
        """Every hex the unit can reach with its MP from start, with the cheapest cost.

        The first hex may always be entered (§8.1: minimum move); "all" costs every MP
        and can only be the first hex entered; "prohibited" is never entered.
        """
        budget = self.allowance(unit) if allowance is None else allowance
        best = {start: 0.0}
        frontier = [(0.0, start)]
        import heapq
        while frontier:
            spent, here = heapq.heappop(frontier)
            if spent > best.get(here, math.inf):
                continue
            for nxt in self.board.neighbours(here):
                cost = self.enter_cost(unit, here, nxt)
                if cost == "prohibited":
                    continue
                if cost == "all":
                    total = budget if here == start else math.inf
                else:
                    total = spent + cost
                    if total > budget and here == start:
                        total = budget  # minimum move: one hex, whatever it costs
                if total <= budget and total < best.get(nxt, math.inf):
                    best[nxt] = total
                    heapq.heappush(frontier, (total, nxt))
        return best

    def path(self, unit: UnitType, start: str, goal: str) -> tuple[list[str], float]:
        """Cheapest path and its cost, ignoring the MP limit (networkx Dijkstra)."""
        def weight(u, v, _):
            cost = self.enter_cost(unit, u, v)
            if cost == "prohibited":
                return None
            return self.allowance(unit) if cost == "all" else cost
        route = nx.dijkstra_path(self.board.graph, start, goal, weight=weight)
        total = sum(weight(u, v, None) for u, v in zip(route, route[1:]))
        return route, total

    @cached_property
    def all_hexes(self) -> tuple[str, ...]:
        return tuple(self.board.usable)


def _thaw(value):
    """JSON form of the read-only mappings and tuples the model holds."""
    return dict(value) if isinstance(value, Mapping) else list(value)


def visibility_on(scenario: Scenario, turn: int) -> int:
    vis = scenario.visibility
    for change in sorted(scenario.conditions.get("visibility_changes", ()), key=lambda c: c["turn"]):
        if change["turn"] <= turn:
            vis = change["visibility"]
    return vis


def keys(board: Board, refs: Iterable[str]) -> list[str]:
    return [board.resolve(r) for r in refs]
