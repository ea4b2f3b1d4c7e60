"""The miniatures ruleset's reference scheme: which fields of its objects name other objects (rules/references.py
uses it for the editor's rename and delete and the catalog's grouped findings)."""
from __future__ import annotations

from ..references import ExprKey, RefField, Scheme  # noqa: F401 - ExprKey: schemes with expressions

_SIDE = "/sides/*"

# The miniatures ruleset (rules/miniatures/checks.py, setup_checks.py).
SCHEME = Scheme(
    fields={
        "unit": (
            RefField("/weapons/*", "weapon", drop="/weapons/*"),
            RefField("/commander", "unit", drop=None),
        ),
        "scenario": (
            RefField("/table", "table", drop=None),
            RefField(f"{_SIDE}/units/*", "unit", drop=f"{_SIDE}/units/*"),
        ),
        "setup": (
            RefField("/scenario", "scenario", drop=""),
            RefField("/placements/*/unit", "unit", drop="/placements/*"),
        ),
    },
)
