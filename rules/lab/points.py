"""What a sweep varies: ``--vary KIND:ID/JSON/POINTER=VALUES`` and ``--packs A B C``.

``unit-type:it-m13-40/defense=2..5`` names the ``defense`` of the unit type ``it-m13-40``
and four values. VALUES is a comma-separated list whose items are JSON values (``4``,
``true``, ``"x"``), bare words (taken as strings) or inclusive integer ranges ``12..16``
(``0..10/2`` steps by 2). Several ``--vary`` make a grid: every combination is a point.

A point is a list of JSON Patch ``replace`` operations (``add`` for a field the object may
have but does not), applied as an in-memory mod over the pack (see ``bundle``). A path that
names no object, or a pointer that leads nowhere, is a usage error before anything plays;
a value that breaks the pack (a negative defence, a string where a number goes) makes an
invalid point, reported as findings and skipped.
"""
from __future__ import annotations

import itertools
import math
import json
import re
from dataclasses import dataclass, field

import jsonpointer

from .. import limits

MAX_POINTS = 400  # a grid larger than this is a typo more often than a plan
MAX_VARY_CHARS = 4 * limits.STRING_CHARS  # one long string value and its target fit; a paste of megabytes does not
_RANGE = re.compile(r"^\s*(-?\d+)\s*\.\.\s*(-?\d+)\s*(?:/\s*(\d+)\s*)?$")


class SpecError(ValueError):
    """A --vary argument that cannot be understood (a usage error: exit 2)."""


@dataclass(frozen=True)
class Vary:
    """One --vary: an object (kind, id), a JSON pointer inside it, the values to try."""

    kind: str
    id: str
    pointer: str
    values: tuple
    text: str  # as typed, for messages

    @property
    def label(self) -> str:
        return f"{self.kind}:{self.id}{self.pointer}"


@dataclass
class Point:
    """One set of values to play (or, with --packs, one list of packs)."""

    index: int
    label: str
    values: dict = field(default_factory=dict)  # Vary.label -> value (--vary sweeps)
    patches: list = field(default_factory=list)  # overrides items (see bundle.load_bundle)
    packs: list = field(default_factory=list)  # pack paths (--packs sweeps)
    baseline: bool = False


def parse_values(text: str, where: str) -> tuple:
    """``3,4,5`` / ``12..16`` / ``0..10/2`` / ``"a",b,true`` -> a tuple of JSON values."""
    out: list = []
    depth, start, items, in_str = 0, 0, [], False
    for i, ch in enumerate(text):  # split on commas outside JSON strings, arrays and objects
        if ch == '"' and (i == 0 or text[i - 1] != "\\"):
            in_str = not in_str
        elif not in_str and ch in "[{":
            depth += 1
        elif not in_str and ch in "]}":
            depth -= 1
        elif ch == "," and depth == 0 and not in_str:
            items.append(text[start:i])
            start = i + 1
    items.append(text[start:])
    if len(items) > MAX_POINTS:  # before parsing them (and the duplicate check, quadratic in their number)
        raise SpecError(f"{where}: {len(items):,} values; a --vary takes at most {MAX_POINTS}")
    for item in items:
        item = item.strip()
        if not item:
            raise SpecError(f"{where}: an empty value (two commas, or a comma at an end)")
        m = _RANGE.match(item)
        if m:
            for literal in (m[1], m[2], m[3] or "1"):  # before int(): 5,000 digits is Python's ValueError
                why = limits.number_problem(literal)
                if why:
                    raise SpecError(f"{where}: the range {item[:60]!r}: {why}")
            lo, hi, step = int(m[1]), int(m[2]), int(m[3] or 1)
            if step <= 0 or hi < lo:
                raise SpecError(f"{where}: the range {item!r} is empty (write LOW..HIGH, LOW <= HIGH)")
            span = range(lo, hi + 1, step)
            if len(out) + len(span) > MAX_POINTS:  # counted before it is built: 1..10**9 is a typo, not 4 GB
                raise SpecError(f"{where}: the range {item!r} holds {len(span):,} values; a --vary takes at most "
                                f"{MAX_POINTS}")
            out.extend(span)
            continue
        value, why = limits.user_json(item)
        if why is None:
            out.append(value)
            continue
        if item[0] in "[{\"" or not why.startswith("not a JSON"):
            raise SpecError(f"{where}: the value {_shown(item)} is refused: {why}")
        why = limits.text_problem(item, limits.STRING_CHARS, "value")
        if why:
            raise SpecError(f"{where}: the value {_shown(item)} is refused: {why}")
        out.append(item)  # a bare word: a string
    unique = []
    for v in out:
        if not any(type(v) is type(u) and v == u for u in unique):
            unique.append(v)
    return tuple(unique)


def _shown(text: str, n: int = 60) -> str:
    return repr(text if len(text) <= n else text[:n] + "…")


def parse_vary(text: str) -> Vary:
    """``KIND:ID/POINTER=VALUES`` -> Vary (raises SpecError with the argument in the message)."""
    where = f"--vary {_shown(text)}"
    if len(text) > MAX_VARY_CHARS:  # before the character-by-character split below
        raise SpecError(f"{where}: {len(text):,} characters; a --vary takes at most {MAX_VARY_CHARS:,}")
    target, eq, values = text.partition("=")
    why = limits.text_problem(target, what="target KIND:ID/POINTER")
    if why:
        raise SpecError(f"{where}: {why}")
    if not eq or not values.strip():
        raise SpecError(f"{where}: write KIND:ID/POINTER=VALUES, e.g. unit-type:it-m13-40/defense=2..5")
    kind, colon, rest = target.strip().partition(":")
    if not colon or not kind or not rest:
        raise SpecError(f"{where}: the path must start with KIND:ID, e.g. unit-type:it-m13-40/defense")
    oid, slash, pointer = rest.partition("/")
    if not oid or not slash or not pointer:
        raise SpecError(f"{where}: after {kind}:{oid or 'ID'} comes a JSON pointer to a value, e.g. /defense")
    pointer = "/" + pointer
    try:
        jsonpointer.JsonPointer(pointer)
    except jsonpointer.JsonPointerException as exc:
        raise SpecError(f"{where}: {pointer!r} is not a JSON pointer: {exc}") from None
    return Vary(kind.strip(), oid.strip(), pointer, parse_values(values, where), text)


def resolve(vary: Vary, catalog) -> tuple[str, object]:
    """The patch operation this Vary needs in this catalog, and the current value
    (``_MISSING`` when the field is absent but may be added)."""
    where = f"--vary {_shown(vary.text)}"
    kinds = catalog.ruleset.object_kinds() if catalog.ruleset else {}
    if vary.kind not in kinds:
        raise SpecError(f"{where}: no object kind {vary.kind!r} (kinds: {', '.join(sorted(kinds))})")
    entry = catalog.get(vary.kind, vary.id)
    if entry is None:
        some = sorted(catalog.objects.get(vary.kind, {}))[:8]
        raise SpecError(f"{where}: no {vary.kind} {vary.id!r} in the pack (e.g. {', '.join(some)})")
    ptr = jsonpointer.JsonPointer(vary.pointer)
    try:
        return "replace", ptr.resolve(entry.value)
    except jsonpointer.JsonPointerException:
        pass
    parent_ptr = jsonpointer.JsonPointer.from_parts(ptr.parts[:-1])
    try:
        parent = parent_ptr.resolve(entry.value)
    except jsonpointer.JsonPointerException:
        parent = None
    if isinstance(parent, dict):
        return "add", _MISSING
    raise SpecError(f"{where}: {vary.kind} {vary.id} has no value at {vary.pointer}")


class _Missing:
    def __repr__(self):
        return "(absent)"


_MISSING = _Missing()


def grid(varies: list[Vary], catalog) -> list[Point]:
    """Every combination of the values, first --vary slowest; point 0 is the baseline (the
    pack as it is). A combination equal to the pack's current values *is* the baseline and
    is not played twice."""
    ops, current = [], []
    for v in varies:
        op, value = resolve(v, catalog)
        ops.append(op)
        current.append(value)
    size = math.prod(len(v.values) for v in varies)  # counted before the grid is built
    if size > MAX_POINTS:
        raise SpecError(f"the --vary grid has {size:,} points; at most {MAX_POINTS}")
    combos = list(itertools.product(*(v.values for v in varies)))
    names = [v.pointer.rsplit("/", 1)[-1] for v in varies]
    if len(set(names)) < len(names):  # two objects' "defense": name each by its object too
        names = [f"{v.id}{v.pointer}" for v in varies]
    base_values = {v.label: (None if c is _MISSING else c) for v, c in zip(varies, current)}
    points = [Point(0, "baseline", base_values, [], baseline=True)]
    for combo in combos:
        if all(type(a) is type(b) and a == b for a, b in zip(combo, current)):
            continue
        patches = []
        for v, op, value in zip(varies, ops, combo):
            patches.append({"target": {"kind": v.kind, "id": v.id}, "reason": f"sandtable sweep: {v.label}",
                            "patch": [{"op": op, "path": v.pointer, "value": value}]})
        label = ", ".join(f"{name}={json.dumps(value, ensure_ascii=False)}" for name, value in zip(names, combo))
        points.append(Point(len(points), label, {v.label: value for v, value in zip(varies, combo)}, patches))
    points[0].label = "baseline (" + ", ".join(
        f"{name}={'absent' if c is _MISSING else json.dumps(c, ensure_ascii=False)}"
        for name, c in zip(names, current)) + ")"
    return points


def pack_points(base: list[str], packs: list[str]) -> list[Point]:
    """--packs A B C: the base packs (the baseline), then base + each pack."""
    points = [Point(0, "baseline (" + (", ".join(base) if base else "bundled pack") + ")", {}, [], list(base),
                    baseline=True)]
    for p in packs:
        points.append(Point(len(points), str(p), {"pack": str(p)}, [], list(base) + [str(p)]))
    return points
