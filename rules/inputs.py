"""Game inputs a user names on the command line — setups and game logs — read and checked
before any game work, as findings (file, line, pointer), never as tracebacks.

A setup is read as a regular file within the document limits (rules/limits.py), parsed,
checked against its ruleset's setup schema, and checked to be for the scenario asked
for. A game log (JSON lines) is checked line by line against the shape ``replay`` needs:
a header object with the log version, scenario, seed, setup and bots, then event
objects whose actions are lists. A log records the packs it was played with (id, version
and a hash of their documents); ``pack_changes`` says what differs at replay.
"""
from __future__ import annotations

import hashlib
import json
from pathlib import Path

from . import limits
from .findings import Finding, finding
from .jsondoc import Document, parse
from .schemas import default_schemas


def read_document(path: str | Path, schema: str | None = None) -> tuple[Document | None, list[Finding]]:
    """A JSON document from a regular file within the limits, checked against a schema if given."""
    shown = str(path)
    try:
        data = limits.read_regular(path)
    except limits.InputError as exc:
        message = str(exc).split(": ", 1)[-1]
        return None, [finding("file-too-large" if "limit" in message else
                              "file-missing" if "no such" in message else "file-unreadable", message, file=shown)]
    if not data.strip():
        return None, [finding("json-syntax", "the file is empty", file=shown, line=1, column=1)]
    doc, found = parse(shown, data)
    if doc is None or schema is None:
        return doc, found
    if not isinstance(doc.value, dict):
        return None, found + [doc.finding("schema", f"a {Path(schema).name.split('.')[0]} document is a JSON object, "
                                          f"not {_json_type(doc.value)}")]
    problems = default_schemas().validate(doc, schema)
    return (None if problems else doc), found + problems


def _json_type(value) -> str:
    return {dict: "an object", list: "a list", str: "a string", bool: "true or false", type(None): "null"}.get(
        type(value), "a number")


def load_setup(path: str | Path, catalog, scenario=None) -> tuple[dict | None, list[Finding]]:
    """A setup file for the catalog's ruleset, and for ``scenario`` when given (its id or number)."""
    ruleset = catalog.ruleset
    kind = ruleset.document_kind("setup") if ruleset is not None else None
    if kind is None:
        return None, [finding("unknown-kind", f"the {ruleset.name if ruleset else 'pack'} ruleset has no setups",
                              file=str(path))]
    doc, found = read_document(path, kind.schema)
    if doc is None:
        return None, found
    value = doc.value
    if value.get("kind") != "setup":
        return None, found + [doc.finding("unknown-kind", f"kind {value.get('kind')!r} is not a setup", "/kind")]
    if scenario is not None:
        named = value.get("scenario")
        lookup = getattr(catalog.model, "scenario", None)  # the same id-or-roman lookup as check-setup's
        same = named in (scenario.id, getattr(scenario, "number", None)) or (
            isinstance(named, str) and lookup is not None and lookup(named) is scenario)
        if not same:
            return None, found + [doc.finding(
                "unknown-reference", f"this setup is for scenario {named!r}, not {scenario.id!r} "
                f"({getattr(scenario, 'number', '')} {getattr(scenario, 'name', '')})".rstrip(), "/scenario")]
    off_board = _hexes_off_board(value, catalog, doc)
    if off_board:  # a game or a form cannot place a unit on a hex that does not exist
        return None, found + off_board
    return value, found


def _hexes_off_board(value: dict, catalog, doc: Document) -> list[Finding]:
    """The ruleset's setup check, reduced to hexes not on the scenario's board (``setup-hex``).

    The other findings of check-setup (stacking, zones...) are the designer's to weigh; a hex
    that does not exist is not: the engine and the print code have nowhere to put the unit.
    """
    ruleset, model = catalog.ruleset, catalog.model
    if ruleset is None or ruleset.check_setup is None or model is None:
        return []
    found = ruleset.check_setup(model, value, lambda code, message, pointer="", **kw: doc.finding(
        code, message, pointer, **kw))
    return [f for f in found if f.code == "setup-hex"]


# --- game logs ----------------------------------------------------------------------------------

LOG_HEADER_SCHEMA = {
    "type": "object",
    "required": ["sandtable_log", "scenario", "seed", "setup", "bots"],
    "properties": {
        "sandtable_log": {"type": "integer"},
        "scenario": {"type": "string"},
        "seed": {"type": "integer"},
        "setup": {"type": "object"},
        "bots": {"type": "array", "items": {"type": "string"}},
        "options": {"type": ["object", "null"]},
        "packs": {"type": "array", "items": {"type": "object", "required": ["id", "version", "hash"],
                                             "properties": {"id": {"type": "string"}, "version": {"type": "string"},
                                                            "hash": {"type": "string"}}}},
    },
}


def read_log(path: str | Path, version: int, read_event) -> tuple[dict | None, list, list[Finding]]:
    """(header, events, findings) of a game log; header None when the log cannot be replayed.
    This checks the file, its JSON lines and the header; what an event is, the ruleset says:
    ``read_event`` is its reader of one event (its typed outcome; ValueError when the line is no
    event of its rules, with a ``pointer`` attribute when it can say where), applied to each, its
    refusal a finding at the event's line. ``events`` are (line number, event) pairs: a replay
    that the game refuses at some event names its line too."""
    from jsonschema import Draft202012Validator
    shown = str(path)
    try:
        data = limits.read_regular(path)
    except limits.InputError as exc:
        message = str(exc).split(": ", 1)[-1]
        return None, [], [finding("file-too-large" if "limit" in message else
                                  "file-missing" if "no such" in message else "file-unreadable", message, file=shown)]
    try:
        lines = data.decode("utf-8").splitlines()
    except UnicodeDecodeError as exc:
        return None, [], [finding("json-encoding", f"not UTF-8 text: {exc.reason}", file=shown)]
    if not any(line.strip() for line in lines):
        return None, [], [finding("json-syntax", "the log is empty: a game log starts with its header line",
                                  file=shown, line=1, column=1)]
    events: list[tuple[int, object]] = []
    header = None
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        doc, found = parse(f"{shown}:{number}", line.encode("utf-8"))
        if doc is None:
            f = found[0]
            return None, [], [finding(f.code, f.message, file=shown, line=number, column=f.location.column)]
        value = doc.value
        if header is None:
            errors = sorted(Draft202012Validator(LOG_HEADER_SCHEMA).iter_errors(value), key=lambda e: list(e.path))
            if errors:
                e = errors[0]
                where = "".join(f"/{p}" for p in e.path)
                return None, [], [finding("schema", f"not a sandtable game log header: {e.message}", file=shown,
                                          line=number, column=1, pointer=where or None)]
            if value["sandtable_log"] != version:
                return None, [], [finding("schema", f"log version {value['sandtable_log']}; this sandtable reads "
                                          f"version {version}", file=shown, line=number, column=1,
                                          pointer="/sandtable_log")]
            header = value
            continue
        try:
            value = read_event(value)
        except ValueError as exc:  # the reader's pointer, when it says where in the event
            return None, [], [finding("schema", f"not an event of the rules: {exc}", file=shown,
                                      line=number, column=1, pointer=getattr(exc, "pointer", "") or None)]
        events.append((number, value))
    return header, events, []


def pack_fingerprints(catalog) -> list[dict]:
    """Each loaded pack's id, version and a SHA-256 of its manifest and documents (by path)."""
    out = []
    for pack in catalog.packs:
        h = hashlib.sha256()
        docs = [pack.manifest_doc, *pack.documents]
        root = str(pack.source.label)
        for doc in sorted(docs, key=lambda d: d.path):
            rel = doc.path[len(root):].lstrip("/!") if doc.path.startswith(root) else doc.path
            h.update(rel.encode("utf-8") + b"\0" + doc.text.encode("utf-8") + b"\0")
        out.append({"id": pack.id, "version": pack.version, "hash": h.hexdigest()[:16]})
    return out


def pack_changes(recorded: list[dict] | None, current: list[dict]) -> list[str]:
    """Plain sentences for each pack that differs between a log and the packs loaded now."""
    if recorded is None:
        return ["the log does not record the packs it was played with (made by an older sandtable)"]
    now = {p["id"]: p for p in current}
    then = {p["id"]: p for p in recorded}
    out = []
    for pid, p in then.items():
        q = now.get(pid)
        if q is None:
            out.append(f"pack {pid} {p['version']} was used but is not loaded now")
        elif (p["version"], p["hash"]) != (q["version"], q["hash"]):
            what = f"version {p['version']} then, {q['version']} now" if p["version"] != q["version"] else \
                f"same version {p['version']}, but its content changed (hash {p['hash']} then, {q['hash']} now)"
            out.append(f"pack {pid}: {what}")
    out += [f"pack {pid} {q['version']} is loaded now but was not used" for pid, q in now.items() if pid not in then]
    return out


# --- one object typed by a user (the editor's bulk grid, CSV imports) ----------------------------

_OBJECT_VALIDATORS: dict = {}


def number_problem_of(value) -> str | None:
    """Why a parsed number breaks the limits pack data keeps (jsondoc refuses it on reading)."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return limits.number_problem(str(value)) if abs(value) > limits.NUMBER_MAGNITUDE else None
    if isinstance(value, float):
        if value != value or value in (float("inf"), float("-inf")):
            return f"{value} is not a finite number (JSON has only finite numbers)"
        if abs(value) > limits.NUMBER_MAGNITUDE:
            return f"{value:g} is larger than {limits.NUMBER_MAGNITUDE:g} (limit number-magnitude)"
    return None


def object_problems(ruleset, kind: str, value) -> list[tuple[str, str]]:
    """(pointer, why) of what ``validate`` would refuse in one object of a pack: its depth, numbers,
    strings and lists against the limits (walked without recursion, before any validator could
    recurse), then the object's schema. The editor asks this before it changes anything."""
    stack, bad = [(value, "", 1)], []
    while stack:
        v, ptr, depth = stack.pop()
        if depth > limits.DEPTH:
            return [(ptr, f"nests more than {limits.DEPTH} levels deep (limit depth)")]
        why = number_problem_of(v)
        if why:
            bad.append((ptr, why))
        elif isinstance(v, dict):
            stack.extend((x, f"{ptr}/{str(k).replace('~', '~0').replace('/', '~1')}", depth + 1) for k, x in v.items())
        elif isinstance(v, list):
            stack.extend((x, f"{ptr}/{i}", depth + 1) for i, x in enumerate(v))
    if bad:
        return bad
    problem = limits.value_problem(value)
    if problem:
        return [problem]
    if limits.count_values(value, limits.DOCUMENT_VALUES) > limits.DOCUMENT_VALUES:
        return [("", f"more than {limits.DOCUMENT_VALUES:,} JSON values (limit document-values)")]
    dk = ruleset.object_kinds().get(kind) if ruleset is not None else None
    if dk is None:
        return []
    from jsonschema import Draft202012Validator

    from .schemas import BASE_URI
    ref = dk.object_schema_ref(BASE_URI)
    validator = _OBJECT_VALIDATORS.get(ref)
    if validator is None:
        validator = _OBJECT_VALIDATORS[ref] = Draft202012Validator({"$ref": ref},
                                                                   registry=default_schemas().registry)
    from .jsondoc import pointer_of
    return [(pointer_of(e.absolute_path) or "", _schema_message(e)) for e in validator.iter_errors(value)]


def _schema_message(error) -> str:
    """jsonschema's message with a long value it quotes said in a few words ("a list of 10,000 items")."""
    text, shown = error.message, repr(error.instance)
    if len(shown) > 80 and text.startswith(shown):
        v = error.instance
        what = (f"a list of {len(v):,} items" if isinstance(v, list) else f"an object of {len(v):,} keys"
                if isinstance(v, dict) else f"a text of {len(v):,} characters" if isinstance(v, str) else shown[:60])
        text = what + text[len(shown):]
    return text[:300]
