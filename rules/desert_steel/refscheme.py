"""Desert Steel's reference scheme: which fields of its objects name other objects (rules/references.py
uses it for the editor's rename and delete and the catalog's grouped findings)."""
from __future__ import annotations

from ..references import ExprKey, RefField, Scheme  # noqa: F401 - ExprKey: schemes with expressions

_SIDE = "/sides/*"

SCHEME = Scheme(
    fields={
        "formation-card": (
            RefField("/variants/*/units/*/type", "unit-type", drop="/variants/*/units/*"),
            RefField("/subordinates/*", "formation-card", drop="/subordinates/*"),
            RefField("/hq", "formation-card", drop="/hq"),
        ),
        "map-configuration": (RefField("/layout/*/*", "map", drop=None),),
        "scenario": (
            RefField("/map_configuration", "map-configuration", drop=None),
            RefField("/conditions/*/by_map/*", "map", drop="/conditions/*/by_map/*", key=True),
            RefField(f"{_SIDE}/formations/*/cards/*", "formation-card", drop=f"{_SIDE}/formations/*/cards/*"),
            RefField(f"{_SIDE}/reinforcements/*/cards/*", "formation-card", drop=f"{_SIDE}/reinforcements/*/cards/*"),
            RefField(f"{_SIDE}/undermanned/*/card", "formation-card", drop=f"{_SIDE}/undermanned/*"),
            RefField(f"{_SIDE}/undermanned/*/remove/*/type", "unit-type", drop=f"{_SIDE}/undermanned/*/remove/*"),
            RefField(f"{_SIDE}/transports/*/unit_type", "unit-type", drop=f"{_SIDE}/transports/*"),
        ),
        "setup": (
            RefField("/scenario", "scenario", drop=""),
            RefField(f"{_SIDE}/placements/*/card", "formation-card", drop=f"{_SIDE}/placements/*"),
            RefField(f"{_SIDE}/placements/*/type", "unit-type", drop=f"{_SIDE}/placements/*"),
            RefField(f"{_SIDE}/placements/*/hex", "map", drop=None, prefix=True),
            RefField(f"{_SIDE}/transports/*/hex", "map", drop=None, prefix=True),
            RefField(f"{_SIDE}/fortifications/*/hex", "map", drop=None, prefix=True),
            RefField(f"{_SIDE}/minefields/*", "map", drop=None, prefix=True),
        ),
    },
    expressions={
        "scenario": (
            ExprKey("types", "unit-type", True, ("/sides", "/special_rules", "/exits", "/victory/expression")),
            ExprKey("exclude_types", "unit-type", True, ("/sides", "/special_rules", "/exits", "/victory/expression")),
            # a side's formation groups list their cards under "cards" too: those are fields above
            ExprKey("cards", "formation-card", True, ("/sides", "/special_rules", "/exits", "/victory/expression"),
                    exclude=(f"{_SIDE}/formations/*/cards", f"{_SIDE}/reinforcements/*/cards")),
            ExprKey("map", "map", False, ("/sides", "/special_rules", "/exits", "/victory/expression")),
            ExprKey("hexes", "map", True, ("/sides", "/special_rules", "/exits", "/victory/expression"), prefix=True),
            ExprKey("from", "map", False, ("/sides", "/special_rules", "/exits", "/victory/expression"), prefix=True),
            ExprKey("to", "map", False, ("/sides", "/special_rules", "/exits", "/victory/expression"), prefix=True),
        ),
    },
    id_keys={"formation-card": "number"},
    int_ids=frozenset({"formation-card"}),
)
