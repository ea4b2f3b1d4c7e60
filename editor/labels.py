"""How the editor names the objects of a pack: its sections (kind, title) in explorer order,
an object's one-line label, its search words and groups. The ruleset's documents give the
sections; the ruleset's declared ``naming`` (its editor contribution) names its own kinds;
maps, scenarios and setups, and any kind it leaves, are named here. No Qt: the explorer, the
lifecycle dialogs and the app all use it."""
from __future__ import annotations

from . import door


def sections(ruleset) -> list[tuple[str, str]]:
    """(object kind, title) of the ruleset's documents, in the order it declares them."""
    return [(d.object_kind, d.title or d.object_kind) for d in ruleset.documents] if ruleset is not None else []


def kind_title(kind: str, ruleset) -> str:
    return dict(sections(ruleset)).get(kind, kind)


def label(kind: str, oid: str, v: dict | None, ruleset=None) -> str:
    v = v or {}
    naming = door.naming(ruleset)
    text = naming.label(kind, oid, v) if naming is not None else None
    if text is not None:
        return text
    if kind == "scenario":
        return f"{v.get('number', '')}  {(v.get('name') or {}).get('en', oid)}"
    if kind == "map":
        return f"Map {oid}" + (f" — {v['name']}" if v.get("name") and v.get("name") != f"Map {oid}" else "")
    if kind == "setup":
        return f"{oid}  (scenario {v.get('scenario', '?')})"
    return oid


def search_words(kind: str, oid: str, v: dict | None, ruleset=None) -> list[str]:
    naming = door.naming(ruleset)
    return naming.search_words(kind, oid, v or {}) if naming is not None else []


def group(kind: str, v: dict | None, ruleset=None) -> list[str]:
    """The groups (outermost first) an object sits under in its section (none by default)."""
    naming = door.naming(ruleset)
    return naming.group(kind, v or {}) if naming is not None else []


HEX_KINDS = ("map", "scenario", "setup")


def hex_kinds(ruleset) -> tuple[str, ...]:
    """The kinds the explorer's hex search looks into."""
    naming = door.naming(ruleset)
    return HEX_KINDS + tuple(getattr(naming, "hex_kinds", ()) if naming is not None else ())
