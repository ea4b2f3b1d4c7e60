"""A scenario list (quick game, balance lab) that follows the pack as it is edited."""
from __future__ import annotations

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QComboBox


def scenario_title(ws, sid: str) -> str:
    s = ws.value("scenario", sid) or {}
    number = s.get("number") or "?"
    return f"{number} {(s.get('name') or {}).get('en') or sid} ({s.get('rules') or '?'})"


def fill_scenarios(box: QComboBox, ws) -> None:
    """The pack's scenarios as they are now, keeping the choice when it still exists."""
    current = box.currentData()
    box.blockSignals(True)
    box.clear()
    for sid in ws.keys("scenario"):
        box.addItem(scenario_title(ws, sid), sid)
    i = box.findData(current)
    box.setCurrentIndex(i if i >= 0 else 0)
    box.blockSignals(False)


def follow_scenarios(box: QComboBox, ctx) -> None:
    """Keep a scenario list true to the pack: new, renamed and deleted scenarios, new names
    and numbers show at once (principle 12)."""
    def changed(kind, oid, pointer):
        if kind == "scenario":
            i = box.findData(oid)
            if i < 0:
                fill_scenarios(box, ctx.ws)
            else:
                box.setItemText(i, scenario_title(ctx.ws, oid))

    def structure(touched):
        if any(k == "scenario" for k, _ in touched):
            fill_scenarios(box, ctx.ws)
    # connected with the box as context: the connections go when the box is deleted
    _connect(ctx.doc.changed, box, changed)
    _connect(ctx.doc.structure, box, structure)
    _connect(ctx.doc.reset, box, lambda: fill_scenarios(box, ctx.ws))


def _connect(signal, owner, slot) -> None:
    """A connection that ends with ``owner`` (a lambda connected alone would outlive its widget)."""
    relay = _Relay(owner, slot)
    signal.connect(relay.fire)


class _Relay(QObject):
    def __init__(self, owner, slot):
        super().__init__(owner)
        self.slot = slot

    def fire(self, *args) -> None:
        self.slot(*args)
