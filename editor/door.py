"""What the generic editor asks a pack's ruleset for: its declared editor contribution.

The editor imports no ruleset's code: a ruleset names its hand-made forms, its grids and its
slow checks by "module:attr" references (rules/rulesets.py, ``EditorContribution``), loaded
here when first asked for. A ruleset that declares none gets the generic editor (JSON trees,
no grids, one-pass checks).
"""
from __future__ import annotations

from collections.abc import Mapping


def contribution(ruleset):
    """The ruleset's ``EditorContribution``, or None (no ruleset, or it declares none)."""
    return getattr(ruleset, "editor", None) if ruleset is not None else None


def form_class(ruleset, kind: str):
    """The ruleset's hand-made form for an object kind (called ``(ctx, kind, oid)``), or None."""
    c = contribution(ruleset)
    if c is None or c.forms is None:
        return None
    forms = c.forms.load()
    if not isinstance(forms, Mapping):
        raise TypeError(f"the {ruleset.name} ruleset's editor forms ({c.forms.target}) are not a mapping "
                        f"object kind -> form, but {type(forms).__name__}")
    return forms.get(kind)


def bulk_titles(ruleset) -> dict[str, str]:
    """Object kind -> title of the grids of every object the ruleset offers (none by default)."""
    c = contribution(ruleset)
    return {g.name: g.title for g in c.bulk} if c is not None else {}


def bulk_grid(ruleset, kind: str):
    """The factory of the ruleset's grid of every object of a kind (called ``(ctx, kind)``), or None."""
    c = contribution(ruleset)
    grid = next((g for g in c.bulk if g.name == kind), None) if c is not None else None
    return grid.widget.load() if grid is not None else None


def deferred_check(ruleset):
    """The ruleset's ``DeferredCheck`` (the part of its check run in a second pass), or None."""
    c = contribution(ruleset)
    return c.deferred.load() if c is not None and c.deferred is not None else None


def naming(ruleset):
    """How the ruleset names, groups and finds its own kinds in the explorer, or None."""
    c = contribution(ruleset)
    return c.naming.load() if c is not None and c.naming is not None else None
