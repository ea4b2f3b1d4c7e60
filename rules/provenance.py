"""Provenance of pack values: where each number or word comes from.

An object's ``provenance`` maps JSON pointers (relative to the object) to a source; the
longest pointer that is a prefix of a value's path wins, and ``""`` is the default.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Iterator

from .findings import Finding
from .jsondoc import escape

SOURCES = ("rulebook", "example", "reconstructed", "checked", "authored")  # authored: new content of a designer


@dataclass(frozen=True)
class Leaf:
    pointer: str
    value: object
    source: str | None  # None: no provenance covers it
    section: str | None
    note: str | None


def leaves(value, pointer: str = "") -> Iterator[tuple[str, object]]:
    """Every scalar inside a JSON value, with its pointer; provenance itself is skipped."""
    if isinstance(value, dict):
        for k, v in value.items():
            if pointer == "" and k in ("provenance", "kind", "$schema", "id"):  # identity, not a value
                continue
            yield from leaves(v, f"{pointer}/{escape(str(k))}")
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from leaves(v, f"{pointer}/{i}")
    else:
        yield pointer, value


def _covers(prefix: str, pointer: str) -> bool:
    return prefix == "" or pointer == prefix or pointer.startswith(prefix + "/")


def resolve(obj: dict) -> list[Leaf]:
    table = obj.get("provenance") or {}
    keys = sorted(table, key=len, reverse=True)
    out = []
    for ptr, v in leaves(obj):
        key = next((k for k in keys if _covers(k, ptr)), None)
        p = table.get(key) if key is not None else None
        out.append(Leaf(ptr, v, p and p.get("source"), p and p.get("section"), p and p.get("note")))
    return out


def _exists(obj, pointer: str) -> bool:
    from jsonpointer import JsonPointer, JsonPointerException
    try:
        JsonPointer(pointer).resolve(obj)
        return True
    except (JsonPointerException, TypeError):
        return False


def check(catalog) -> list[Finding]:
    """Provenance pointers must exist; every value must be covered by some source."""
    out: list[Finding] = []
    for table in catalog.objects.values():
        for entry in table.values():
            prov = entry.value.get("provenance")
            if not isinstance(prov, dict):
                continue
            for ptr in prov:
                if ptr and not _exists(entry.value, ptr):
                    out.append(entry.finding("provenance-pointer",
                                             f"provenance names {ptr!r}, which is not a field of this object",
                                             f"/provenance/{escape(ptr)}"))
            if "" not in prov:
                uncovered = [leaf.pointer for leaf in resolve(entry.value) if leaf.source is None]
                if uncovered:
                    out.append(entry.finding(
                        "provenance-missing",
                        f"{len(uncovered)} value(s) have no provenance, first {uncovered[0]!r}; "
                        "add a default (\"\") or an entry for them", "/provenance"))
    return out


def summary(catalog) -> dict[str, Counter]:
    """Counts of values by source, per object kind (kinds that carry provenance: not setups,
    which are a player's choices rather than the game's values)."""
    out: dict[str, Counter] = {}
    for kind, table in sorted(catalog.objects.items()):
        if not any("provenance" in e.value for e in table.values()):
            continue
        c = out.setdefault(kind, Counter())
        for entry in table.values():
            for leaf in resolve(entry.value):
                c[leaf.source or "none"] += 1
    return out
