"""How the editor names the objects of a pack: its sections (kind, title) in explorer order and
an object's one-line label. No Qt: the explorer, the lifecycle dialogs and the app all use it."""
from __future__ import annotations

SECTIONS = [
    ("unit-type", "Unit types"), ("formation-card", "Formation cards"), ("raid-card", "Raid cards"),
    ("map", "Maps"), ("map-configuration", "Map configurations"),
    ("terrain-effects", "Battle conditions and terrain effects"), ("rule-tables", "Rule tables"),
    ("scenario", "Scenarios"), ("setup", "Setups"),
]


def label(kind: str, oid: str, v: dict | None) -> str:
    v = v or {}
    if kind == "unit-type":
        return f"{v.get('name', oid)}  ({oid})"
    if kind == "formation-card":
        return f"{oid}  {v.get('designation', '')} — {v.get('name', '')}".rstrip(" —")
    if kind == "raid-card":
        return f"{oid}  {(v.get('air_strike') or {}).get('aircraft', '')} / {(v.get('bombardment') or {}).get('battery', '')}"
    if kind == "scenario":
        return f"{v.get('number', '')}  {(v.get('name') or {}).get('en', oid)}"
    if kind == "map":
        return f"Map {oid}" + (f" — {v['name']}" if v.get("name") and v.get("name") != f"Map {oid}" else "")
    if kind == "map-configuration":
        return v.get("name") or oid
    if kind == "setup":
        return f"{oid}  (scenario {v.get('scenario', '?')})"
    if kind == "rule-tables":
        return f"Rule tables {oid}"
    if kind == "terrain-effects":
        return f"Battle conditions {oid}"
    return oid
