"""Desert Steel's ``board`` contribution: line of sight, zones, paths and automatic setups on a
scenario's battlefield, for the CLI's board commands and the editor.

A thin facade over battlefield.Battlefield, zones and autosetup, which keep their own names.
Each method takes the pack's model and scenario and hex references as a user types them, and
raises only built-in kinds of error, so a caller outside the ruleset needs none of its types:
LookupError for what the user named wrong (a hex, a unit type, a card; exit 2), ValueError for
a zone the board cannot evaluate, RuntimeError for an automatic setup that cannot be made.
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Sight:
    """The line of sight from ``frm`` to ``to`` (hex keys) and the battlefield's visibility."""

    frm: str
    to: str
    visibility: int
    result: object  # battlefield.LosResult: visible, distance, reason, section, cover, steps, to_json()


@dataclass(frozen=True)
class Zone:
    how: str  # 'setup' or 'enter'
    turn: int
    expression: dict
    hexes: list


@dataclass(frozen=True)
class Route:
    frm: str
    to: str
    unit: object  # model.UnitType
    allowance: int
    path: list | None  # None: no way
    cost: float | None


class DesertSteelBoard:
    def field(self, model, scenario, turn: int = 1):
        from ..board import BoardError
        from .battlefield import Battlefield
        try:
            return Battlefield.for_scenario(model, scenario, turn)
        except BoardError as exc:
            raise LookupError(str(exc)) from None

    def hex(self, field, ref: str) -> str:
        key = field.board.resolve(ref.upper())
        if key is None:
            raise LookupError(f"no hex {ref!r} on this board (maps {', '.join(field.board.maps())}; write e.g. "
                              f"{field.board.maps()[0]}2213)")
        return key

    def los(self, model, scenario, frm: str, to: str, turn: int = 1) -> Sight:
        field = self.field(model, scenario, turn)
        a, b = self.hex(field, frm), self.hex(field, to)
        return Sight(a, b, field.visibility, field.los(a, b))

    def formation_zone(self, model, scenario, side: str, card: int) -> Zone:
        """Where the formation of card ``card`` of a side sets up or enters (LookupError: no
        such formation with a zone; ValueError: the zone cannot be evaluated)."""
        from .zones import ZoneError
        field = self.field(model, scenario)
        groups = scenario.sides[side]
        rows = [(g, "setup", g.get("setup"), 1) for g in groups.groups if "setup" in g]
        rows += [(g, "enter", g["enter"]["zone"], g["enter"]["turn"]) for g in groups.groups if "enter" in g]
        rows += [(r, "enter", r.get("zone"), r["turn"]) for r in groups.reinforcements]
        match = next(((how, z, turn) for g, how, z, turn in rows if card in g["cards"]), None)
        if match is None or match[1] is None:
            raise LookupError(f"card {card} has no zone among the {side} formations of {scenario.id}")
        how, expression, turn = match
        try:
            hexes = sorted(field.zone(expression))
        except ZoneError as exc:
            raise ValueError(str(exc)) from None
        return Zone(how, turn, expression, hexes)

    def path(self, model, scenario, unit_id: str, frm: str, to: str) -> Route:
        import networkx as nx
        field = self.field(model, scenario)
        a, b = self.hex(field, frm), self.hex(field, to)
        unit = model.unit_types.get(unit_id)
        if unit is None:
            raise LookupError(f"no unit type {unit_id!r}")
        try:
            route, cost = field.path(unit, a, b)
        except nx.NetworkXNoPath:
            route, cost = None, None
        return Route(a, b, unit, field.allowance(unit), route, cost)

    def zones(self, catalog_or_model, scenario) -> dict:
        """Side -> card -> hexes of the formation's setup or entry zone (what the editor draws)."""
        model = getattr(catalog_or_model, "model", catalog_or_model)
        out: dict = {}
        for side in scenario.sides:
            for g in [*scenario.sides[side].groups, *scenario.sides[side].reinforcements]:
                for card in g["cards"]:
                    try:
                        out.setdefault(side, {})[card] = self.formation_zone(model, scenario, side, card).hexes
                    except (LookupError, ValueError):
                        continue
        return out

    def auto_setup(self, model, scenario, seed: int = 0) -> dict:
        """A legal setup made automatically (RuntimeError when the forces cannot be placed)."""
        from .autosetup import auto_setup
        self.field(model, scenario)  # a board that cannot be built is the user's to fix (LookupError)
        return auto_setup(model, scenario, seed)


BOARD = DesertSteelBoard()
