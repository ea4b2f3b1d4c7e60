"""Validation of the editor's in-memory state (no Qt): the same findings ``sandtable
validate`` would print if the edits were saved.

The catalog is rebuilt from the packs read at open, with the opened pack's documents
taken from memory and the edited objects of lower packs laid over their layered value.
It uses ``catalog.load_catalog``'s own steps (``layer_documents``, ``run_checks``); what it saves is I/O and parsing: an unchanged document is
the one read at open, its schema findings are computed once, and a changed document is
serialised once per version (values are immutable, so identity is the cache key).
"""
from __future__ import annotations

import re
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

from sandtable.rules import catalog as cat
from sandtable.rules.atomic import dumps_json
from sandtable.rules.findings import Finding
from sandtable.rules.jsondoc import Document
from sandtable.rules.references import dropped_objects
from sandtable.rules.schemas import default_schemas

from . import door, jsonptr
from .workspace import Key, Workspace


@dataclass(frozen=True)
class Snapshot:
    docs: dict[str, Any]
    foreign: dict[Key, Any]
    generation: int = 0
    removed: frozenset = frozenset()  # objects of lower packs deleted in the editor


@dataclass
class Located:
    """A finding with the object and field it is about (for jumping to it)."""

    finding: Finding
    kind: str | None = None
    id: str | None = None
    pointer: str = ""  # relative to the object
    # About an object with unsaved edits: the file and line it names are not what is on disk
    # (the edited text exists only in memory), so it is shown and reached by object and field.
    unsaved: bool = False

    def where(self) -> str:
        """Where to look, in words a user can act on."""
        if self.unsaved and self.kind:
            return f"unsaved edit: {self.kind} {self.id}" + (f", field {self.pointer}" if self.pointer else "")
        return str(self.finding.location)

    def line_text(self) -> str:
        if not self.unsaved:
            return self.finding.line_text()
        f = self.finding
        return f"{self.where()}: {f.severity} {f.code} {f.message}" + (f" [§{f.section}]" if f.section else "")


@dataclass
class Result:
    findings: list[Located] = field(default_factory=list)
    seconds: float = 0.0
    generation: int = 0
    catalog: cat.Catalog | None = None
    partial: bool = False  # the setup rules are still to come (Checker.finish)
    setup_located: list = field(default_factory=list)  # the setup rules' findings (complete results)

    @property
    def errors(self) -> int:
        return sum(1 for f in self.findings if f.finding.severity == 2)

    @property
    def warnings(self) -> int:
        return sum(1 for f in self.findings if f.finding.severity == 1)


class Checker:
    """Re-validates snapshots of one workspace; safe to call from one worker thread at a time."""

    def __init__(self, ws: Workspace):
        self.ws = ws
        self.schemas = default_schemas()
        self._lock = threading.Lock()
        # Least recently used first. Each entry holds a whole document's text (40-60 kB for a
        # cards or units file) and, once a finding was located in it, its source map: the
        # caches used to keep 256 and 512 versions (cleared only when full), most of the
        # editor's growth in an endurance session. The versions that matter are the current
        # one and the few an undo/redo brings back.
        self._schema_cache: OrderedDict[int, tuple[Document, list[Finding]]] = OrderedDict()
        self._doc_cache: OrderedDict[tuple[str, int], tuple[Any, Document]] = OrderedDict()
        self.opened = ws.catalog

    def snapshot(self, generation: int = 0) -> Snapshot:
        return Snapshot(dict(self.ws.docs), dict(self.ws.foreign), generation, self.ws.removed)

    def _document(self, rel: str, value: Any) -> Document:
        original = self.ws.documents.get(rel)
        if original is not None and original.value is value:
            return original
        key = (rel, id(value))
        hit = self._doc_cache.get(key)
        if hit is not None and hit[0] is value:
            self._doc_cache.move_to_end(key)
            return hit[1]
        path = original.path if original is not None else self.ws.pack.source.display(rel)
        doc = Document(path, dumps_json(value), value)
        _put(self._doc_cache, key, (value, doc))
        return doc

    def _schema(self, doc: Document, schema: str) -> list[Finding]:
        hit = self._schema_cache.get(id(doc))
        if hit is not None and hit[0] is doc:
            self._schema_cache.move_to_end(id(doc))
            return hit[1]
        found = self.schemas.validate(doc, schema)
        _put(self._schema_cache, id(doc), (doc, found))
        return found

    def run(self, snap: Snapshot, defer_setups: bool = False) -> Result:
        """Every finding of a snapshot. With ``defer_setups`` the setup rules (most of the
        time, a battlefield per setup) are left for ``finish``: the rest shows at once."""
        with self._lock:
            t0 = time.perf_counter()
            catalog = self._build(snap, defer_setups)
            found = locate(catalog)
            self._mark_unsaved(snap, found)
            result = Result(found, time.perf_counter() - t0, snap.generation, catalog)
            result.partial = defer_setups and _has_deferred(catalog)
            result.snap = snap
            return result

    def finish(self, first: Result) -> Result:
        """The setup rules of a result made with ``defer_setups``: the complete result."""
        if not getattr(first, "partial", False):
            return first
        with self._lock:
            t0 = time.perf_counter()
            catalog = first.catalog
            extra = door.deferred_check(catalog.ruleset).check(catalog)
            catalog.findings.extend(extra)
            cat._finish(catalog)
            found = locate(catalog)
            self._mark_unsaved(first.snap, found)
            result = Result(found, first.seconds + time.perf_counter() - t0, first.generation, catalog)
            result.setup_located = [loc for loc in found if loc.finding in extra]
            return result

    def _mark_unsaved(self, snap: Snapshot, found: list[Located]) -> None:
        ws = self.ws
        changed_files = {ws.documents[rel].path for rel, v in snap.docs.items()
                         if rel in ws.documents and v is not ws.saved_docs.get(rel) and v != ws.saved_docs.get(rel)}
        edited_foreign = {key for key, v in snap.foreign.items() if v != ws.saved_value(*key)}
        homes: dict[str, list[tuple[str, str, str]]] = {}
        for (kind, oid), (rel, ptr) in list(ws.home.items()):
            if rel in ws.documents and ws.documents[rel].path in changed_files:
                homes.setdefault(ws.documents[rel].path, []).append((ptr, kind, oid))
        for loc in found:
            file = loc.finding.location.file
            if file in changed_files and not loc.kind:
                # e.g. a schema finding on an object the catalog could not take: find it by pointer
                ptr = loc.finding.location.pointer or ""
                hits = [h for h in homes.get(file, ()) if jsonptr.is_prefix(h[0], ptr)]
                if hits:
                    optr, loc.kind, loc.id = max(hits, key=lambda h: len(h[0]))
                    loc.pointer = ptr[len(optr):]
            if loc.kind and (file in changed_files or (loc.kind, loc.id) in edited_foreign):
                loc.unsaved = True

    def _build(self, snap: Snapshot, defer_setups: bool = False) -> cat.Catalog:
        opened = self.opened
        catalog = cat.Catalog()
        catalog.defer_slow_checks = defer_setups
        catalog.findings.extend(self.schemas.findings)
        # Findings about reading and ordering packs do not change while editing.
        catalog.findings.extend(f for f in opened.findings if f.code.startswith(("pack-", "zip-", "file-", "json-",
                                                                                   "not-data")))
        ruleset = opened.ruleset
        catalog.ruleset = ruleset
        if ruleset is None:
            return catalog
        layering = cat.Layering(catalog, self.schemas, ruleset)
        for old in opened.packs:
            pack = cat.LoadedPack(old.source, old.manifest, old.manifest_doc)
            catalog.packs.append(pack)
            if pack.manifest["ruleset"] != ruleset.name:
                continue
            if old is self.ws.pack:
                # (a deleted whole-document object leaves None until saved)
                docs = [self._document(rel, value) for rel, value in sorted(snap.docs.items()) if value is not None]
            else:
                docs = old.documents
            pack.documents.extend(docs)
            cat.layer_documents(catalog, pack, docs, ruleset, layering, self._schema)
        kinds = ruleset.object_kinds()
        for (kind, oid), value in snap.foreign.items():
            entry = catalog.get(kind, oid)
            if entry is None or kind not in kinds:
                continue
            problems = layering._check_object(kinds[kind], value)
            if problems:
                catalog.findings.append(entry.finding("schema", f"edited value breaks its schema: {problems[0]}"))
                continue
            entry.value = value
        for kind, oid in snap.removed:
            catalog.objects.get(kind, {}).pop(oid, None)
        cat.run_checks(catalog)
        return catalog


CACHE_ENTRIES = 32  # document versions kept (a pack has ~20 documents; a few are being edited)


def _put(cache: OrderedDict, key, entry) -> None:
    cache[key] = entry
    cache.move_to_end(key)
    while len(cache) > CACHE_ENTRIES:
        cache.popitem(last=False)


def _has_deferred(catalog: cat.Catalog) -> bool:
    """Whether the ruleset left part of its check for a second pass, with something to check."""
    deferred = door.deferred_check(catalog.ruleset)
    return deferred is not None and deferred.pending(catalog)


_REQUIRED = re.compile(r"^'([^']+)' is (?:required|a required property)")


def locate(catalog: cat.Catalog) -> list[Located]:
    """Each finding with its object (by subject, else by file and pointer) and field."""
    by_file: dict[str, list[tuple[str, str, str]]] = {}
    for kind, table in catalog.objects.items():
        for oid, entry in table.items():
            by_file.setdefault(entry.doc.path, []).append((entry.pointer, kind, oid))
            for change in entry.history:
                by_file.setdefault(change.doc.path, []).append((change.pointer, kind, oid))
    # objects left out for a schema error: their findings still belong to them (and their field)
    for (kind, oid), (doc, ptr) in dropped_objects(catalog).items():
        by_file.setdefault(doc.path, []).append((ptr, kind, oid))
    out = []
    for f in catalog.findings:
        ptr = f.location.pointer or ""
        best = None
        for optr, kind, oid in by_file.get(f.location.file, ()):
            if jsonptr.is_prefix(optr, ptr) and (best is None or len(optr) > len(best[0])):
                best = (optr, kind, oid)
        if best is not None:
            rel = ptr[len(best[0]):]
            if rel.startswith(("/patch", "/replace")) and best[0].startswith("/overrides/"):
                rel = ""
            missing = _REQUIRED.match(f.message) if f.code == "schema" else None
            if missing:  # a field still to fill in (a new, incomplete object): point at that field
                rel = jsonptr.child(rel, missing.group(1))
            out.append(Located(f, best[1], best[2], rel))
        elif f.subject and " " in f.subject:
            kind, oid = f.subject.split(" ", 1)
            out.append(Located(f, kind, oid, ""))
        else:
            out.append(Located(f))
    return out
