"""Analysis tools of the board workbench: line of sight, what a hex sees, movement reach
and cheapest path. Each asks the scenario's ``Battlefield`` — the functions behind
``sandtable los --explain`` and ``sandtable path`` — and only draws the answer.
"""
from __future__ import annotations

import networkx as nx
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QPen

from sandtable.rules.desert_steel.battlefield import Battlefield, LosResult

from .board_canvas import overlay_colour


def explain(field: Battlefield, a: str, b: str, result: LosResult) -> str:
    """The LOS answer in the words ``sandtable los --explain`` prints."""
    word = "visible" if result.visible else "blocked"
    section = "" if "§" in result.reason else f" [§{result.section}]"
    lines = [f"{a} -> {b}: {word}, {result.distance} hexes (visibility {field.visibility}) — {result.reason}{section}"]
    if result.visible:
        lines.append(f"spotting number {result.spotting_number} (target {'in cover' if result.cover else 'in the open'})")
    for step in result.steps:
        where = "/".join(step.hexes)
        lv = "/".join(str(x) for x in step.levels)
        lines.append(f"  {'hexside ' if len(step.hexes) > 1 else ''}{where} level {lv}: "
                     f"{'BLOCKS' if step.blocks else 'clear'}{' — ' + step.reason if step.reason else ''}")
    return "\n".join(lines)


class LosTool:
    """Click a hex, then another: the line, every hex it crosses, the blocking hex and its
    rule, the spotting number. Shift-click one hex: every hex it sees, shaded."""

    def __init__(self, field: Battlefield, canvas, say):
        self.field, self.canvas, self.say = field, canvas, say
        self.first: str | None = None
        self.result: LosResult | None = None
        self.seen: set[str] = set()

    def clear(self) -> None:
        for name in ("los-line", "los-steps", "los-block", "seen", "los-from"):
            self.canvas.clear_overlay(name)

    def press(self, view, key, event) -> bool:
        if event.button() != Qt.LeftButton or key is None:
            return False
        if event.modifiers() & Qt.ShiftModifier:
            self.sees(key)
            return True
        if self.first is None or self.result is not None:
            self.clear()
            self.first, self.result = key, None
            self.canvas.overlay("los-from", [key], outline=QColor("#0d47a1"), z=45)
            self.say(f"Line of sight from {key}: click the target hex (Shift-click: every hex {key} sees).")
        else:
            self.trace(self.first, key)
        return True

    def move(self, view, key, event) -> None:
        pass

    def release(self, view, key, event) -> None:
        pass

    def refresh(self) -> None:
        """The last question asked again (the pack changed: a map painted, the conditions), so the
        answer shown is never the old terrain's."""
        if self.result is not None and self.first is not None and getattr(self, "target", None):
            self.trace(self.first, self.target)
        elif self.seen and getattr(self, "seen_from", None):
            self.sees(self.seen_from)

    def trace(self, a: str, b: str) -> LosResult:
        self.clear()
        self.first, self.target = a, b
        result = self.result = self.field.los(a, b)
        crossed = [h for s in result.steps for h in s.hexes if h in self.canvas.geo.centres]
        self.canvas.overlay("los-steps", crossed, fill=QColor(13, 71, 161, 45), z=41)
        if result.blocking:
            self.canvas.overlay("los-block", [h for h in result.blocking if h in self.canvas.geo.centres],
                                outline=QColor("#c62828"), z=46)
        pen = QPen(QColor("#2e7d32") if result.visible else QColor("#c62828"), 2.2)
        if not result.visible:
            pen.setStyle(Qt.DashLine)
        self.canvas.polyline("los-line", [a, b], pen, z=47)
        self.say(explain(self.field, a, b, result))
        return result

    def sees(self, a: str) -> set[str]:
        """Every hex a unit in ``a`` sees at the scenario's visibility (§9.1)."""
        self.clear()
        board = self.field.board
        self.seen = {k for k in board.usable if board.distance(a, k) <= self.field.visibility
                     and self.field.los(a, k).visible}
        self.canvas.overlay("seen", self.seen, z=40)
        self.canvas.overlay("los-from", [a], outline=QColor("#0d47a1"), z=45)
        self.first, self.result, self.seen_from = None, None, a
        self.say(f"{a} sees {len(self.seen)} hexes at visibility {self.field.visibility}.")
        return self.seen


class MoveTool:
    """Pick a unit type, click a hex: the hexes it reaches this turn with their MP costs;
    click a second hex: the cheapest path there. Shift-click starts again."""

    def __init__(self, field: Battlefield, model, canvas, say, unit_id):
        self.field, self.model, self.canvas, self.say = field, model, canvas, say
        self.unit_id = unit_id  # callable: the chosen unit type id
        self.start: str | None = None
        self.reach: dict[str, float] = {}
        self.route: list[str] = []
        self.cost = 0.0

    def press(self, view, key, event) -> bool:
        if event.button() != Qt.LeftButton or key is None:
            return False
        unit = self.model.unit_types.get(self.unit_id())
        if unit is None:
            self.say("Choose a unit type first.")
            return True
        if self.start is None or event.modifiers() & Qt.ShiftModifier or key == self.start:
            self.show_reach(unit, key)
        else:
            self.show_path(unit, key)
        return True

    def move(self, view, key, event) -> None:
        pass

    def release(self, view, key, event) -> None:
        pass

    def refresh(self) -> None:
        """Reach and path shown again for the pack as it is now (see LosTool.refresh)."""
        unit = self.model.unit_types.get(self.unit_id())
        if unit is None or self.start is None:
            return
        end = self.route[-1] if self.route else None
        self.show_reach(unit, self.start)
        if end is not None and end != self.start:
            self.show_path(unit, end)

    def show_reach(self, unit, key: str) -> dict[str, float]:
        self.canvas.clear_overlay("path")
        self.start = key
        self.reach = self.field.reachable(unit, key)
        labels = {k: f"{v:g}" for k, v in self.reach.items() if k != key}
        self.canvas.overlay("reach", self.reach, fill=overlay_colour("reach"), labels=labels, z=40)
        board = self.field.board
        if unit.range:  # the range overlay: the ring of hexes at the unit's range
            ring = [k for k in board.usable if board.distance(k, key) == unit.range]
            self.canvas.overlay("range", ring, outline=QColor("#4a148c"), z=42)
        else:
            self.canvas.clear_overlay("range")
        self.say(f"{unit.name} ({self.field.allowance(unit):g} MP) from {key}: reaches {len(self.reach) - 1} hexes "
                 "this turn (MP spent shown)" + (f"; its range {unit.range} outlined" if unit.range else "")
                 + ". Click a hex for the cheapest path.")
        return self.reach

    def show_path(self, unit, key: str) -> list[str]:
        try:
            self.route, self.cost = self.field.path(unit, self.start, key)
        except nx.NetworkXNoPath:
            self.route, self.cost = [], 0.0
            self.say(f"{unit.name} cannot go from {self.start} to {key}.")
            return []
        pen = QPen(overlay_colour("path"), 3.0)
        pen.setCapStyle(Qt.RoundCap)
        self.canvas.polyline("path", self.route, pen, z=47)
        turns = -(-self.cost // self.field.allowance(unit))
        self.say(f"{unit.name}: {' '.join(self.route)} — {self.cost:g} MP ({turns:g} turn(s) at full MP)")
        return self.route
