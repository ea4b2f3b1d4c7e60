"""Normalized summaries of Desert Steel scenarios for scripts (`sandtable show`, `scenarios`)."""
from __future__ import annotations

from .model import DesertSteel, Scenario

_CONDITIONS = ("relief", "zone", "urbanization", "road_network")
_FORTIFICATIONS = ("wire", "entrenchments", "bunkers", "minefields")
_TRANSPORTS = {"truck": "trucks", "motorcycle": "motorcycles", "halftrack": "halftracks"}


def scenario_row(s: Scenario) -> dict:
    return {"id": s.id, "number": s.number, "name": s.name, "year": s.year, "rules": s.rules, "turns": s.turns}


def scenario_list(model: DesertSteel) -> list[dict]:
    return [scenario_row(s) for s in model.scenarios.values()]


def _side(s: Scenario, name: str) -> dict:
    side = s.sides[name]
    raw = side.raw
    raids = raw.get("raids", {})
    out = {
        "setup_cards": sorted(c.number for c in side.setup_cards),
        "reinforcements": [{"turn": r["turn"], "cards": sorted(r["cards"])}
                           for r in sorted(side.reinforcements, key=lambda r: r["turn"])],
        "smoke": raw.get("smoke", 0),
        "air_strikes": sum(a["count"] for a in raids.get("air_strikes", ())),
        "preplanned_bombardments": raids.get("preplanned_bombardments", 0),
        "on_call_bombardments": raids.get("on_call_bombardments", 0),
    }
    for key in _TRANSPORTS.values():
        out[key] = 0
    for t in raw.get("transports", ()):
        out[_TRANSPORTS[t["type"]]] += t["count"]
    fortifications = raw.get("fortifications", {})
    for key in _FORTIFICATIONS:
        out[key] = fortifications.get(key, {}).get("count", 0)
    return out


def scenario_summary(s: Scenario) -> dict:
    return {
        "id": s.id,
        "number": s.number,
        "name": s.name,
        "rules": s.rules,
        "year": s.year,
        "year_override": {side: y for side, y in s.raw.get("year_override", {}).items() if y != s.year},
        "layout": s.configuration.layout_ids,
        "north": s.configuration.north,
        "turns": s.turns,
        "visibility": s.visibility,
        "conditions": {k: s.conditions[k]["value"] for k in _CONDITIONS},
        "sides": {name: _side(s, name) for name in ("allied", "axis")},
    }
