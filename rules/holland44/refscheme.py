"""Holland '44's reference scheme: which fields of its objects name other objects (rules/references.py
uses it for the editor's rename and delete and the catalog's grouped findings)."""
from __future__ import annotations

from ..references import ExprKey, RefField, Scheme  # noqa: F401 - ExprKey: schemes with expressions

_SIDE = "/sides/*"

# Holland '44: the references its checks resolve (rules/holland44/checks.py, position.py).
SCHEME = Scheme(
    fields={
        "counter": (
            RefField("/remnant", "counter", drop="/remnant"),
            RefField("/arrival/entry_area", "entry-area", drop=None),
        ),
        "reinforcement": (
            RefField("/counters/*", "counter", drop="/counters/*"),
            RefField("/arrives/entry_area", "entry-area", drop=None),
        ),
        "map": (RefField("/entry_areas/*/area", "entry-area", drop="/entry_areas/*"),),
        "scenario": (RefField("/map", "map", drop=None),),
        "setup": (
            RefField("/scenario", "scenario", drop=""),
            RefField(f"{_SIDE}/units/*/counter", "counter", drop=f"{_SIDE}/units/*"),
            RefField(f"{_SIDE}/units/*/entry_area", "entry-area", drop=f"{_SIDE}/units/*"),
            RefField(f"{_SIDE}/units/*/markers/*", "marker", drop=f"{_SIDE}/units/*/markers/*"),
            RefField(f"{_SIDE}/eliminated/*", "counter", drop=f"{_SIDE}/eliminated/*"),
        ),
    },
)
