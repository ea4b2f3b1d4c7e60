"""Which fields of a pack's objects name other objects, and what follows from that (no Qt).

The editor's object lifecycle (new, duplicate, rename, delete) and the catalog's grouping
of follow-on findings both need one answer to "who refers to card 322?". Each ruleset
declares its reference fields (its ``Scheme``, ``Ruleset.scheme``) as JSON-pointer patterns
over one object (``*`` is any key or index), plus expression keys that may appear anywhere
inside its zones and victory expressions. From that:

- ``find_references``: every (object, pointer) naming a given object;
- ``rename_edits``: the edits that rename an object and every reference to it;
- ``delete_plan``: what deleting an object breaks, and the edits (dropping list entries,
  deleting wholly dependent objects) a cascade makes;
- ``blank_object``: a new object from its schema's required fields;
- ``dropped_objects`` / ``group_consequences``: objects the catalog left out because their
  schema is broken, and the "does not exist" findings that only echo that root cause,
  folded into one finding per broken object.

Values are never changed in place: an edit is (kind, id, pointer, old, new) for the caller
to apply (the editor as undoable steps, a script with ``jsonptr``).
"""
from __future__ import annotations

import copy
import re
from dataclasses import dataclass, field, replace
from typing import Any, Callable, Iterable, Iterator, Mapping

from .findings import Finding
from .jsondoc import escape

MISSING = object()


@dataclass(frozen=True)
class RefField:
    """A field (pointer pattern over one object) naming an object of ``target``.

    ``drop`` is the pattern of what a cascading delete removes with the reference: the
    reference itself (a card in a list), the enclosing entry (a placement), ``""`` for the
    whole referring object (a setup of a deleted scenario), or None when the reference
    cannot go (a scenario's map configuration): the delete is then refused."""

    pattern: str
    target: str
    drop: str | None = None
    prefix: bool = False  # a hex reference: the map id is the part before the 4-digit hex id
    key: bool = False  # the pattern's last ``*`` matches the keys of an object (ids used as keys)


@dataclass(frozen=True)
class ExprKey:
    """A key that names objects wherever it appears inside ``within`` (expressions)."""

    key: str
    target: str
    many: bool  # a list of ids (drop the item) or one id (cannot be dropped)
    within: tuple[str, ...]
    exclude: tuple[str, ...] = ()
    prefix: bool = False  # hex references ("B2620"): the map id before the hex id


@dataclass(frozen=True)
class Scheme:
    fields: dict[str, tuple[RefField, ...]]  # object kind -> its reference fields
    expressions: dict[str, tuple[ExprKey, ...]] = field(default_factory=dict)
    id_keys: dict[str, str] = field(default_factory=dict)  # object kind -> id field (default "id")
    int_ids: frozenset[str] = frozenset()  # kinds whose id is a JSON integer


def scheme(ruleset) -> Scheme | None:
    """The reference scheme a ruleset declares (rulesets.Ruleset.scheme), by ruleset or by name."""
    if isinstance(ruleset, str):
        from . import rulesets
        ruleset = rulesets.get(ruleset)
    try:
        found = ruleset.reference_scheme() if ruleset is not None else None
    except Exception:  # noqa: BLE001 - a plug-in's reference to its scheme that does not load: it has none
        return None
    return found if isinstance(found, Scheme) else None


# --- pointers ---------------------------------------------------------------------------

def _split(pointer: str) -> list[str]:
    return [p.replace("~1", "/").replace("~0", "~") for p in pointer.split("/")[1:]] if pointer else []


def _join(parts: Iterable[str]) -> str:
    return "".join("/" + escape(str(p)) for p in parts)


def _expand(value: Any, parts: list[str], done: tuple = ()) -> Iterator[tuple[tuple, Any]]:
    """(path, value) of every place a pattern (with ``*``) matches in value."""
    if not parts:
        yield done, value
        return
    head, rest = parts[0], parts[1:]
    if isinstance(value, dict):
        keys = list(value) if head == "*" else ([head] if head in value else [])
        for k in keys:
            yield from _expand(value[k], rest, done + (k,))
    elif isinstance(value, list):
        idxs = range(len(value)) if head == "*" else ([int(head)] if head.isdigit() and int(head) < len(value) else [])
        for i in idxs:
            yield from _expand(value[i], rest, done + (str(i),))


def _matches(pattern: str, pointer: str) -> bool:
    a, b = _split(pattern), _split(pointer)
    return len(a) == len(b) and all(x == "*" or x == y for x, y in zip(a, b))


def _prefix_match(pattern: str, pointer: str) -> bool:
    a, b = _split(pattern), _split(pointer)
    return len(a) <= len(b) and all(x == "*" or x == y for x, y in zip(a, b))


def _fill(pattern: str, path: tuple) -> str:
    """The pattern with its wildcards taken from a concrete path (same leading shape)."""
    parts = _split(pattern)
    return _join(path[i] if p == "*" else p for i, p in enumerate(parts))


def get(value: Any, pointer: str, default: Any = MISSING) -> Any:
    for p in _split(pointer):
        if isinstance(value, dict) and p in value:
            value = value[p]
        elif isinstance(value, list) and p.isdigit() and int(p) < len(value):
            value = value[int(p)]
        else:
            return default
    return value


def set_in(value: Any, pointer: str, new: Any) -> Any:
    """A copy of value with ``new`` at pointer (MISSING removes); the rest is shared."""
    parts = _split(pointer)
    if not parts:
        return new
    head, rest = parts[0], _join(parts[1:])
    if isinstance(value, list):
        i = int(head)
        out = list(value)
        if not rest and new is MISSING:
            del out[i]
        else:
            out[i] = set_in(value[i], rest, new)
        return out
    out = dict(value)
    if not rest and new is MISSING:
        out.pop(head, None)
    else:
        out[head] = set_in(value.get(head), rest, new)
    return out


# --- finding references ----------------------------------------------------------------

@dataclass(frozen=True)
class Reference:
    kind: str  # the referring object
    id: str
    pointer: str  # where in it
    target_kind: str
    target_id: str
    drop: str | None  # what a cascade removes (pointer in the referring object), None: cannot
    prefix: bool = False  # the target id is the map part of a hex reference
    key: bool = False  # the target id is the last key of the pointer (an object keyed by ids)


def _hex_map(v) -> str | None:
    """The map id of a hex reference ``B2620`` (None for ``2620`` or anything else)."""
    return v[:-4] if isinstance(v, str) and len(v) > 4 and v[-4:].isdigit() else None


def references_in(sch: Scheme, kind: str, oid: str, value: Any) -> Iterator[Reference]:
    """Every reference an object makes."""
    if not isinstance(value, dict):
        return
    for rf in sch.fields.get(kind, ()):
        if rf.key:
            parts = _split(rf.pattern)
            for path, v in _expand(value, parts[:-1]):
                if isinstance(v, dict):
                    for k in v:
                        ptr = _join(path + (k,))
                        yield Reference(kind, oid, ptr, rf.target, str(k), ptr if rf.drop else None, key=True)
            continue
        for path, v in _expand(value, _split(rf.pattern)):
            if rf.prefix:
                mid = _hex_map(v)
                if mid is not None:
                    yield Reference(kind, oid, _join(path), rf.target, mid, None, True)
            elif isinstance(v, (str, int)) and not isinstance(v, bool):
                drop = None if rf.drop is None else ("" if rf.drop == "" else _fill(rf.drop, path))
                yield Reference(kind, oid, _join(path), rf.target, str(v), drop)
    keys = sch.expressions.get(kind, ())
    if keys:
        yield from _expression_refs(keys, kind, oid, value, "", ())


def _expression_refs(keys, kind, oid, value, ptr, stack) -> Iterator[Reference]:
    if isinstance(value, dict):
        for k, v in value.items():
            p = f"{ptr}/{escape(k)}"
            for ek in keys:
                if ek.key != k or not any(_prefix_match(w, p) for w in ek.within) \
                        or any(_matches(x, p) for x in ek.exclude):
                    continue
                if ek.prefix:
                    for q, item in ([(f"{p}/{i}", x) for i, x in enumerate(v)] if isinstance(v, list) else [(p, v)]):
                        mid = _hex_map(item)
                        if mid is not None:
                            yield Reference(kind, oid, q, ek.target, mid, None, True)
                elif ek.many and isinstance(v, list):
                    for i, item in enumerate(v):
                        if isinstance(item, (str, int)) and not isinstance(item, bool):
                            yield Reference(kind, oid, f"{p}/{i}", ek.target, str(item), f"{p}/{i}")
                elif not ek.many and isinstance(v, (str, int)) and not isinstance(v, bool):
                    yield Reference(kind, oid, p, ek.target, str(v), None)
            yield from _expression_refs(keys, kind, oid, v, p, stack)
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _expression_refs(keys, kind, oid, v, f"{ptr}/{i}", stack)


Objects = Mapping[str, Mapping[str, Any]]  # kind -> id -> value


def find_references(sch: Scheme, objects: Objects, target_kind: str, target_id: str) -> list[Reference]:
    """Every reference to one object, in a stable order (kind, id, pointer)."""
    out = []
    target_id = str(target_id)
    for kind in sorted(sch.fields.keys() | sch.expressions.keys()):
        for oid, value in (objects.get(kind) or {}).items():
            for ref in references_in(sch, kind, oid, value):
                if ref.target_kind == target_kind and ref.target_id == target_id:
                    out.append(ref)
    return sorted(out, key=lambda r: (r.kind, r.id, r.pointer))


def override_references(overrides_doc: Any, target_kind: str, target_id: str) -> list[str]:
    """Pointers (in an overrides document) of the items that target an object."""
    items = overrides_doc.get("overrides", []) if isinstance(overrides_doc, dict) else []
    return [f"/overrides/{i}/target/id" for i, it in enumerate(items)
            if isinstance(it, dict) and isinstance(it.get("target"), dict)
            and it["target"].get("kind") == target_kind and str(it["target"].get("id")) == str(target_id)]


# --- references inside overrides (a mod pack's patches) ---------------------------------

# Patch operations whose value becomes part of the target (so its references are the target
# kind's). A ``test`` value is never renamed: it guards the value of a pack below, which a
# rename in this pack does not change (and a pack below cannot name this pack's objects).
_VALUE_OPS = ("add", "replace")


def _skeleton(path: str, value: Any) -> dict:
    """``value`` placed at ``path`` of an otherwise empty object, so the target kind's
    reference patterns (``*`` matches a key or an index alike) can be matched against it."""
    out: Any = value
    for part in reversed(_split(path)):
        out = {part: out}
    return out if isinstance(out, dict) else {}


def override_value_edits(sch: Scheme, overrides_doc: Any, kind: str, old_id: str,
                         new_id: str) -> list[tuple[str, Any, Any]]:
    """(pointer in the overrides document, old, new) for every reference to ``kind old_id``
    inside its override values: the ``value`` of ``add``/``replace`` patch operations and
    ``replace`` objects, read with the target kind's reference fields (a card number in a
    scenario's formation list, a unit type in a card's units, a hex ``B2620``), never by
    text search. Target ids are ``override_references``'s."""
    items = overrides_doc.get("overrides", []) if isinstance(overrides_doc, dict) else []
    new_typed = typed_id(sch, kind, new_id)
    out: list[tuple[str, Any, Any]] = []

    def rename_in(base_ptr: str, target_kind: str, target_id: str, path: str, value: Any) -> None:
        whole = _skeleton(path, value)
        for ref in references_in(sch, target_kind, target_id, whole):
            if ref.target_kind != kind or ref.target_id != str(old_id) or ref.key:
                continue  # ids used as keys (by_map) would move a patch's path: left to the user
            head = _split(path)
            parts = _split(ref.pointer)
            if parts[:len(head)] != head:
                continue
            inner = _join(parts[len(head):])
            old = get(value, inner)
            out.append((base_ptr + inner, old, _renamed_value(sch, kind, ref, old, new_id, new_typed)))

    for i, it in enumerate(items):
        if not isinstance(it, dict) or not isinstance(it.get("target"), dict):
            continue
        tk, tid = it["target"].get("kind"), it["target"].get("id")
        if not isinstance(tk, str) or not isinstance(tid, (str, int)):
            continue
        if isinstance(it.get("replace"), dict):
            rename_in(f"/overrides/{i}/replace", tk, str(tid), "", it["replace"])
        for j, op in enumerate(it.get("patch") or []):
            if isinstance(op, dict) and op.get("op") in _VALUE_OPS and "value" in op \
                    and isinstance(op.get("path"), str):
                rename_in(f"/overrides/{i}/patch/{j}/value", tk, str(tid), op["path"], op["value"])
    return out


_PROSE_MIN = 3  # shorter ids (map letters "A", "B") are words of ordinary text: not listed


def prose_mentions(sch: Scheme, objects: Objects, kind: str, oid: str,
                   documents: Mapping[str, Any] | None = None) -> list[tuple[str, str, str]]:
    """Texts that mention an id as a word (a description, a rule's text, a note): (where,
    pointer, excerpt). A rename does not change prose (``322`` may be a number, not the card):
    the preview lists these so the user can reword them. Reference fields are not prose and
    are left out; so are ids shorter than three characters. ``documents`` (name -> value)
    adds documents such as overrides."""
    oid = str(oid)
    if len(oid) < _PROSE_MIN:
        return []
    word = re.compile(r"(?<![A-Za-z0-9_-])" + re.escape(oid) + r"(?![A-Za-z0-9_-])")
    out: list[tuple[str, str, str]] = []

    def scan(where: str, value: Any, ptr: str, skip: set[str]) -> None:
        if ptr in skip:
            return
        if isinstance(value, str):
            m = word.search(value)
            if m and not ptr.endswith("/id"):
                a, b = max(0, m.start() - 30), min(len(value), m.end() + 30)
                out.append((where, ptr, ("…" if a else "") + value[a:b] + ("…" if b < len(value) else "")))
        elif isinstance(value, dict):
            for k, v in value.items():
                scan(where, v, f"{ptr}/{escape(str(k))}", skip)
        elif isinstance(value, list):
            for i, v in enumerate(value):
                scan(where, v, f"{ptr}/{i}", skip)

    for k in sorted(objects):
        for i, value in sorted((objects.get(k) or {}).items()):
            if k == kind and str(i) == oid:
                continue  # the object's own texts name itself: they are not references to fix
            skip = {r.pointer for r in references_in(sch, k, i, value)}
            scan(f"{k} {i}", value, "", skip)
    for name, doc in sorted((documents or {}).items()):
        scan(name, doc, "", _override_non_prose(sch, doc, kind, oid))
    return out


def _override_non_prose(sch: Scheme, doc: Any, kind: str, oid: str) -> set[str]:
    """Pointers of an overrides document that are not prose: the references a rename
    rewrites, the paths of patch operations and the base values ``test`` operations guard."""
    if not isinstance(doc, dict) or doc.get("kind") != "overrides":
        return set()
    skip = {p for p, _, _ in override_value_edits(sch, doc, kind, oid, oid)}
    for i, it in enumerate(doc.get("overrides") or []):
        for j, op in enumerate((it.get("patch") or []) if isinstance(it, dict) else []):
            base = f"/overrides/{i}/patch/{j}"
            skip |= {f"{base}/path", f"{base}/from"}
            if isinstance(op, dict) and op.get("op") not in _VALUE_OPS:
                skip.add(f"{base}/value")
    return skip


# --- renaming ---------------------------------------------------------------------------

@dataclass(frozen=True)
class Edit:
    kind: str
    id: str
    pointer: str  # in the object ("" = the whole object)
    old: Any
    new: Any  # MISSING: remove

    def describe(self) -> str:
        if self.new is MISSING:
            return f"{self.kind} {self.id}: remove {self.pointer or 'the object'}"
        return f"{self.kind} {self.id} {self.pointer}: {_short(self.old)} → {_short(self.new)}"


def _short(v: Any) -> str:
    s = repr(v)
    return s if len(s) <= 40 else s[:37] + "..."


def id_key(sch: Scheme, kind: str) -> str:
    return sch.id_keys.get(kind, "id")


def typed_id(sch: Scheme, kind: str, oid: str) -> Any:
    """An id as the object stores it (card numbers are integers)."""
    if kind in sch.int_ids:
        return int(oid)
    return oid


_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$")


def check_new_id(sch: Scheme, objects: Objects, kind: str, new_id: str) -> str | None:
    """Why an id cannot be used for a new or renamed object, or None."""
    new_id = str(new_id).strip()
    if kind in sch.int_ids:
        if not new_id.isdigit() or not 1 <= int(new_id) <= 9999:
            return f"a {kind} number is a whole number from 1 to 9999"
        new_id = str(int(new_id))
    elif not _ID.match(new_id):
        return "an id is 1 to 64 letters, digits, dots, dashes or underscores, starting with a letter or digit"
    if new_id in (objects.get(kind) or {}):
        return f"{kind} {new_id} already exists"
    return None


def rename_edits(sch: Scheme, objects: Objects, kind: str, old_id: str, new_id: str) -> list[Edit]:
    """The references to update when ``kind old_id`` becomes ``new_id`` (the object's own id
    field is the caller's: it moves the object). Each edit keeps the stored type."""
    new_typed = typed_id(sch, kind, new_id)
    edits = []
    for ref in find_references(sch, objects, kind, old_id):
        value = objects[ref.kind][ref.id]
        old = get(value, ref.pointer)
        if ref.key:  # {"B": "hilly"} -> {"C": "hilly"}: the object holding the key is rewritten, order kept
            parent = ref.pointer.rsplit("/", 1)[0]
            holder = get(value, parent)
            edits.append(Edit(ref.kind, ref.id, parent, holder,
                              {(str(new_id) if k == str(old_id) else k): v for k, v in holder.items()}))
            continue
        edits.append(Edit(ref.kind, ref.id, ref.pointer, old, _renamed_value(sch, kind, ref, old, new_id, new_typed)))
    return edits


def _renamed_value(sch: Scheme, kind: str, ref: Reference, old: Any, new_id: str, new_typed: Any) -> Any:
    """What a reference's stored value becomes, keeping its stored type."""
    if ref.prefix:  # B2620 -> C2620
        return f"{new_id}{old[-4:]}"
    if isinstance(old, str) and kind in sch.int_ids:
        return str(new_id)  # an expression that spelt the number as text keeps text
    return new_typed if isinstance(old, int) or kind in sch.int_ids else str(new_id)


def renamed(sch: Scheme, kind: str, value: dict, new_id: str) -> dict:
    """The object itself under its new id."""
    return {**value, id_key(sch, kind): typed_id(sch, kind, new_id)}


# --- deleting ---------------------------------------------------------------------------

@dataclass
class DeletePlan:
    references: list[Reference]
    edits: list[Edit]  # what a cascade changes in the referring objects
    deletes: list[tuple[str, str]]  # objects a cascade deletes with it (wholly dependent)
    blockers: list[Reference]  # references a cascade cannot remove: the delete is refused

    @property
    def free(self) -> bool:
        return not self.references

    @property
    def can_cascade(self) -> bool:
        return not self.blockers


def delete_plan(sch: Scheme, objects: Objects, kind: str, oid: str) -> DeletePlan:
    refs = find_references(sch, objects, kind, oid)
    deletes: list[tuple[str, str]] = []
    blockers = [r for r in refs if r.drop is None]
    drops: dict[tuple[str, str], set[str]] = {}
    for r in refs:
        if r.drop == "":
            if (r.kind, r.id) not in deletes:
                deletes.append((r.kind, r.id))
        elif r.drop is not None:
            drops.setdefault((r.kind, r.id), set()).add(r.drop)
    edits = []
    for (k, i), pointers in sorted(drops.items()):
        if (k, i) in deletes:
            continue
        # remove deepest first, and later list items before earlier ones, so pointers stay valid
        for p in sorted(_outermost(pointers), key=_removal_order, reverse=True):
            edits.append(Edit(k, i, p, get(objects[k][i], p), MISSING))
    return DeletePlan(refs, edits, deletes, blockers)


def _outermost(pointers: set[str]) -> list[str]:
    """Drop pointers inside another dropped pointer (removing the outer one is enough)."""
    out = []
    for p in pointers:
        if not any(q != p and (p + "/").startswith(q + "/") for q in pointers):
            out.append(p)
    return out


def _removal_order(pointer: str):
    return tuple(int(x) if x.isdigit() else -1 for x in _split(pointer)), len(pointer)


def apply_edits(value: Any, edits: Iterable[Edit]) -> Any:
    """Apply edits of one object (in order) to its value."""
    for e in edits:
        value = set_in(value, e.pointer, e.new)
    return value


# --- new objects ------------------------------------------------------------------------

def blank_object(schema_set, ruleset, kind: str, oid: str, provenance: dict | None = None) -> dict:
    """A new object holding only what its schema requires: each required field gets the
    simplest value its schema allows (first enum value, the minimum, "", [], {}); lists
    that must not be empty stay empty, so the object is listed with those fields' findings
    until the user fills them in."""
    dk = ruleset.object_kinds()[kind]
    schema = schema_set.schemas[dk.schema]
    node = schema["$defs"][dk.item_def] if dk.items else schema
    resolver = _Resolver(schema_set, dk.schema)
    value = resolver.blank(node, dk.schema)
    if not isinstance(value, dict):
        value = {}
    if not dk.items:
        value["kind"] = dk.kind
    value[dk.id_key] = int(oid) if _is_int_id(node, dk.id_key, resolver, dk.schema) else str(oid)
    if "provenance" in value or "provenance" in (node.get("properties") or {}):
        value["provenance"] = {"": dict(provenance or {"source": "reconstructed", "note": "authored in sandtable edit"})}
    return value


def id_pattern(schema_set, ruleset, kind: str) -> str | None:
    """The pattern an id of this kind must match, as its schema says (maps: ``^[A-Z]...``)."""
    dk = ruleset.object_kinds().get(kind)
    if dk is None:
        return None
    schema = schema_set.schemas.get(dk.schema, {})
    node = (schema.get("$defs") or {}).get(dk.item_def, {}) if dk.items else schema
    resolver = _Resolver(schema_set, dk.schema)
    prop, _ = resolver.resolve((node.get("properties") or {}).get(dk.id_key) or {}, dk.schema)
    return prop.get("pattern") if isinstance(prop, dict) else None


def _is_int_id(node: dict, key: str, resolver: "_Resolver", where: str) -> bool:
    prop = (node.get("properties") or {}).get(key) or {}
    prop, _ = resolver.resolve(prop, where)
    return prop.get("type") == "integer"


class _Resolver:
    def __init__(self, schema_set, rel: str):
        self.set = schema_set

    def resolve(self, node: dict, where: str) -> tuple[dict, str]:
        seen = 0
        while isinstance(node, dict) and "$ref" in node and seen < 20:
            ref = node["$ref"]
            file, _, frag = ref.partition("#")
            target = where
            if file:
                base = where.rsplit("/", 1)[0] + "/" if "/" in where else ""
                target = _normalise(base + file)
            doc = self.set.schemas.get(target, {})
            node = get(doc, frag, {}) if frag else doc
            where = target
            seen += 1
        return node, where

    def blank(self, node: dict, where: str, depth: int = 0) -> Any:
        node, where = self.resolve(node, where)
        if not isinstance(node, dict) or depth > 12:
            return None
        if "const" in node:
            return copy.deepcopy(node["const"])
        if "enum" in node:
            return copy.deepcopy(node["enum"][0])
        if "default" in node:
            return copy.deepcopy(node["default"])
        for alt in ("oneOf", "anyOf"):
            if alt in node and "type" not in node:
                return self.blank(node[alt][0], where, depth + 1)
        t = node.get("type")
        if isinstance(t, list):
            t = t[0]
        if t == "object" or "properties" in node:
            out = {}
            props = node.get("properties") or {}
            for key in node.get("required", []):
                if key in ("$schema",):
                    continue
                v = self.blank(props.get(key, {}), where, depth + 1)
                if v is not None:
                    out[key] = v
            return out
        if t == "array":
            return []
        if t == "string":
            return "" if not node.get("minLength") else "?"
        if t == "integer" or t == "number":
            return node.get("minimum", 0)
        if t == "boolean":
            return False
        return None


def _normalise(path: str) -> str:
    out: list[str] = []
    for part in path.split("/"):
        if part == "..":
            if out:
                out.pop()
        elif part and part != ".":
            out.append(part)
    return "/".join(out)


def duplicate(sch: Scheme, kind: str, value: dict, new_id: str) -> dict:
    """A copy of an object under a new id (its references are kept: a copy of a scenario
    still uses the same cards and map configuration)."""
    return renamed(sch, kind, copy.deepcopy(value), new_id)


def suggest_id(sch: Scheme, objects: Objects, kind: str, base: str) -> str:
    """A free id near ``base``: ``gazala-2`` (or the next free card number)."""
    existing = objects.get(kind) or {}
    if kind in sch.int_ids:
        n = int(base) if str(base).isdigit() else 1
        while str(n) in existing:
            n += 1
        return str(n)
    stem = re.sub(r"-\d+$", "", str(base)) or "new"
    i = 2
    while f"{stem}-{i}" in existing:
        i += 1
    return f"{stem}-{i}" if str(base) in existing or not base else str(base)


# --- objects the catalog left out, and the findings that only echo them ---------------

def dropped_objects(catalog) -> dict[tuple[str, str], tuple[Any, str]]:
    """(kind, id) -> (document, pointer) of objects a pack defines that are not in the
    catalog because their schema is broken (removals by an override are not "dropped")."""
    ruleset = catalog.ruleset
    if ruleset is None:
        return {}
    removed = {k for p in catalog.packs for k in p.removed}
    out = {}
    for pack in catalog.packs:
        for doc in pack.documents:
            v = doc.value
            dk = ruleset.document_kind(v.get("kind")) if isinstance(v, dict) and isinstance(v.get("kind"), str) else None
            if dk is None:
                continue
            if dk.items is None:
                found = [(v.get(dk.id_key), v, "")]
            else:
                items = v.get(dk.items)
                found = [(it.get(dk.id_key), it, f"/{dk.items}/{i}") for i, it in enumerate(items)
                         if isinstance(it, dict)] if isinstance(items, list) else []
            for oid, _, ptr in found:
                if isinstance(oid, (str, int)) and not isinstance(oid, bool):
                    key = (dk.object_kind, str(oid))
                    if catalog.get(*key) is None and key not in removed and key not in out:
                        out[key] = (doc, ptr)
    return out


def group_consequences(catalog, findings: list[Finding]) -> list[Finding]:
    """Fold "does not exist" findings about objects that do exist but break their schema
    into one finding per broken object, naming the root cause and the references left
    unchecked. Every other finding is kept as it is."""
    sch = scheme(catalog.ruleset) if catalog.ruleset is not None else None
    dropped = dropped_objects(catalog) if sch is not None else {}
    if not dropped:
        return findings
    by_file: dict[str, list[tuple[str, str, str]]] = {}
    for kind, table in catalog.objects.items():
        for oid, entry in table.items():
            by_file.setdefault(entry.doc.path, []).append((entry.pointer, kind, oid))
    echoes: dict[tuple[str, str], list[Finding]] = {}
    kept = []
    for f in findings:
        target = _echoed_target(f, catalog, sch, by_file, dropped) if f.code == "unknown-reference" else None
        if target is None:
            kept.append(f)
        else:
            echoes.setdefault(target, []).append(f)
    for (kind, oid), group in echoes.items():
        doc, ptr = dropped[(kind, oid)]
        where = ", ".join(f"{f.subject or f.location.file} {f.location.pointer}" for f in group[:4])
        more = f" and {len(group) - 4} more" if len(group) > 4 else ""
        kept.append(replace(group[0], message=f"{kind} {oid} is defined ({doc.path} {ptr or '/'}) but breaks its "
                            f"schema (see that finding); {len(group)} reference(s) to it are not checked until it is "
                            f"fixed: {where}{more}"))
    return kept


def _echoed_target(f: Finding, catalog, sch: Scheme, by_file, dropped) -> tuple[str, str] | None:
    ptr = f.location.pointer or ""
    best = None
    for optr, kind, oid in by_file.get(f.location.file, ()):
        if (ptr == optr or ptr.startswith(optr + "/") or optr == "") and (best is None or len(optr) > len(best[0])):
            best = (optr, kind, oid)
    if best is None:
        return None
    optr, kind, oid = best
    rel = ptr[len(optr):]
    value = catalog.objects[kind][oid].value
    for ref in references_in(sch, kind, oid, value):
        if ref.pointer == rel and (ref.target_kind, ref.target_id) in dropped:
            return ref.target_kind, ref.target_id
    return None


def objects_of(values: Callable[[str], Mapping[str, Any]], kinds: Iterable[str]) -> dict[str, dict[str, Any]]:
    """A kind -> id -> value mapping from a per-kind accessor (a workspace, a catalog)."""
    return {k: dict(values(k)) for k in kinds}


# --- packs that depend on the edited one ------------------------------------------------------

def dependent_uses(sch: Scheme, ruleset, docs: Mapping[str, Any], kind: str, oid: str) -> list[str]:
    """How a pack's documents (``rel -> value``) use one object of a pack it depends on: overrides
    that target it, patch values that name it, and its own objects that refer to it. A rename or
    delete there would leave this pack broken (override-stale, unknown reference)."""
    out: list[str] = []
    objects: dict[str, dict[str, Any]] = {}
    for rel, value in sorted(docs.items()):
        if not isinstance(value, dict):
            continue
        if value.get("kind") == "overrides":
            out += [f"{rel} {p} overrides it" for p in override_references(value, kind, oid)]
            out += [f"{rel} {p} names it in a patch" for p, _, _ in override_value_edits(sch, value, kind, oid,
                                                                                         f"{oid}-renamed")]
            continue
        dk = ruleset.document_kind(value.get("kind")) if ruleset is not None and isinstance(value.get("kind"), str) \
            else None
        if dk is None:
            continue
        items = value.get(dk.items) if dk.items else [value]
        for item in items if isinstance(items, list) else []:
            if isinstance(item, dict) and isinstance(item.get(dk.id_key), (str, int)):
                objects.setdefault(dk.object_kind, {})[str(item[dk.id_key])] = item
    out += [f"{r.kind} {r.id} {r.pointer} refers to it" for r in find_references(sch, objects, kind, oid)]
    return out
