"""Which printed values are reconstructed: the discreet dagger a play aid or card carries.

The rulebook prints few of the charts and cards (D4); every value's provenance says
where it comes from (``rules/provenance.py``). A value is marked when any part of it
is ``reconstructed``, so a player with the published game knows what to check.
"""
from __future__ import annotations

import bisect

from sandtable.rules import provenance

from .page import thaw

DAGGER = "\u2020"
_CACHE: dict[int, tuple[object, "Sources"]] = {}


class Sources:
    """Leaf sources of one object, queried by JSON pointer prefix."""

    def __init__(self, obj):
        self.leaves = provenance.resolve(thaw(obj)) if obj is not None else []
        self._pointers = sorted(leaf.pointer for leaf in self.leaves if leaf.source == "reconstructed")

    def reconstructed(self, pointer: str) -> bool:
        """True if the value at pointer, or any value inside it, is reconstructed."""
        ps = self._pointers
        i = bisect.bisect_left(ps, pointer)
        if i < len(ps) and ps[i] == pointer:
            return True
        inside = pointer + "/"  # everything under pointer sorts together, from pointer + "/" on
        j = bisect.bisect_left(ps, inside)
        return j < len(ps) and ps[j].startswith(inside)

    def all_reconstructed(self, pointers) -> bool:
        return all(self.reconstructed(p) for p in pointers)

    def mark(self, pointer: str) -> str:
        return DAGGER if self.reconstructed(pointer) else ""


def sources(obj) -> Sources:
    """The sources of an object of the model (cached: the model is immutable)."""
    hit = _CACHE.get(id(obj))
    if hit is not None and hit[0] is obj:
        return hit[1]
    if len(_CACHE) > 4096:
        _CACHE.clear()
    s = Sources(obj)
    _CACHE[id(obj)] = (obj, s)
    return s
