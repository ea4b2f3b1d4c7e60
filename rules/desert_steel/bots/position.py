"""A position's key: everything a game played ahead from it could read, as one digest.

A bot that plays games ahead (the heuristic's bombardment forecast) may keep what it found for
a position and hand it to every game of the batch that reaches the same position, but only
under a key that covers all the look-ahead reads: a key that missed one thing (the raid deck)
once made a batch's results depend on which games a worker had played before. So the key is
not a list of chosen fields: it is the whole position the look-ahead starts from, as the engine
names it (``Game.position()``: all but the static context, the dice and the legal actions' cache),
walked field by field. A value of a kind the walk does not know
makes the position unkeyable (None): the caller then computes afresh, never guesses.
"""
from __future__ import annotations

import dataclasses
import hashlib

from ..model import UnitType

_ATOMS = (str, int, float, bool, type(None))


class Unkeyable(Exception):
    """A value the walk does not know how to spell completely."""


def position_key(game) -> str | None:
    """The SHA-256 of ``game``'s position (the module docstring), or None when something in it
    cannot be spelt completely."""
    position = game.position()
    out: list = [type(game).__qualname__]
    try:
        for name in sorted(position):
            out.append(name)
            _spell(position[name], out)
    except Unkeyable:
        return None
    return hashlib.sha256(repr(out).encode()).hexdigest()


def _spell(value, out: list) -> None:
    """Append a complete spelling of ``value`` to ``out``: containers in their own order (the
    engine iterates them in that order, so two orders are two positions), dataclasses field by
    field (the fields declared as caches, compare=False, left out), unit types by id (the
    model's, static)."""
    kind = type(value)
    if kind in _ATOMS:
        out.append(value)
    elif kind is dict:
        out.append(("dict", len(value)))
        for k, v in value.items():
            _spell(k, out)
            _spell(v, out)
    elif kind in (list, tuple, set, frozenset):
        out.append((kind.__name__, len(value)))
        for v in value:
            _spell(v, out)
    elif isinstance(value, UnitType):
        out.append(("type", value.id))
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        out.append(kind.__qualname__)
        for f in dataclasses.fields(value):
            if f.compare:
                out.append(f.name)
                _spell(getattr(value, f.name), out)
    else:
        raise Unkeyable(kind.__qualname__)
