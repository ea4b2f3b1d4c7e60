"""How the editor names, groups and finds Desert Steel's own kinds (its editor contribution's
``naming``): a unit type by its name, a card by number and designation, both grouped by
nationality; aliases and card numbers found by the explorer's search. No Qt.
"""
from __future__ import annotations

NATION_LABELS = {"german": "German", "italian": "Italian", "british": "British", "us": "US"}


class DesertSteelNaming:
    # kinds whose JSON names hexes, found by the explorer's hex search (besides maps, scenarios, setups)
    hex_kinds = ("map-configuration",)

    def label(self, kind: str, oid: str, v: dict) -> str | None:
        if kind == "unit-type":
            return f"{v.get('name', oid)}  ({oid})"
        if kind == "formation-card":
            return f"{oid}  {v.get('designation', '')} — {v.get('name', '')}".rstrip(" —")
        if kind == "raid-card":
            return f"{oid}  {(v.get('air_strike') or {}).get('aircraft', '')} / " \
                   f"{(v.get('bombardment') or {}).get('battery', '')}"
        if kind == "map-configuration":
            return v.get("name") or oid
        if kind == "rule-tables":
            return f"Rule tables {oid}"
        if kind == "terrain-effects":
            return f"Battle conditions {oid}"
        return None

    def search_words(self, kind: str, oid: str, v: dict) -> list[str]:
        aliases = v.get("aliases", [])
        if kind == "unit-type":
            return [" ".join(aliases)]
        if kind == "formation-card":
            return [a.get("designation", "") for a in aliases if isinstance(a, dict)] + \
                [str(a.get("number", "")) for a in aliases if isinstance(a, dict)]
        return []

    def group(self, kind: str, v: dict) -> list[str]:
        if kind not in ("unit-type", "formation-card"):
            return []
        nat = NATION_LABELS.get(v.get("nationality"), str(v.get("nationality", "?")).capitalize())
        if kind == "unit-type":
            return [nat, str(v.get("class", "?")).replace("-", " ")]
        return [nat, "Command cards" if v.get("type") == "command" else "Combat cards"]


NAMING = DesertSteelNaming()
