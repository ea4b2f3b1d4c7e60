"""The catalog: the one way every part of sandtable reads pack data.

``load_catalog`` reads one or more packs (folders or zips) with their dependencies, in a
deterministic order (dependencies first, then by id), validates every document against
its schema, layers mod packs over their bases (add, override by replace or JSON Patch,
remove — always explicit, by kind and id), and runs the ruleset's cross-reference checks.
Problems are findings; loading never raises on bad data.
"""
from __future__ import annotations

import copy
import json
import os
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

import jsonpatch
import jsonpointer
from packaging.specifiers import InvalidSpecifier, SpecifierSet
from packaging.version import InvalidVersion, Version

from . import limits, provenance, rulesets
from .findings import Finding, Severity, finding, sort_key
from .jsondoc import Document, parse, pointer_of
from .packsource import PackSource, open_source
from .schemas import BASE_URI, SchemaSet, default_schemas

MANIFEST = "pack.json"


def bundled_packs_dir() -> Path:
    return Path(str(resources.files("sandtable.data")))


def bundled_pack(pack_id: str = "desert-steel") -> Path:
    return bundled_packs_dir() / pack_id


@dataclass
class Change:
    """One thing a pack did to an object: added, replaced, patched or removed it."""

    pack: str
    action: str  # "add" | "replace" | "patch" | "remove"
    doc: Document
    pointer: str
    reason: str = ""


@dataclass
class Entry:
    """An object of the catalog as layered: its current value and where that came from."""

    kind: str
    id: str
    value: dict
    pack: str  # the pack that defined it first
    doc: Document  # where the current value stands (for line numbers)
    pointer: str
    history: list[Change] = field(default_factory=list)

    @property
    def subject(self) -> str:
        return f"{self.kind} {self.id}"

    def finding(self, code: str, message: str, pointer: str = "", **kw) -> Finding:
        """A finding located at a field of this object (pointer relative to the object)."""
        return self.doc.finding(code, message, self.pointer + pointer, subject=self.subject, **kw)


@dataclass
class LoadedPack:
    source: PackSource
    manifest: dict
    manifest_doc: Document
    documents: list[Document] = field(default_factory=list)
    added: list[tuple[str, str]] = field(default_factory=list)
    overridden: list[tuple[str, str]] = field(default_factory=list)
    removed: list[tuple[str, str]] = field(default_factory=list)
    conflicts: list[str] = field(default_factory=list)

    @property
    def id(self) -> str:
        return self.manifest["id"]

    @property
    def version(self) -> str:
        return self.manifest["version"]

    @property
    def depends_on(self) -> list[dict]:
        return self.manifest.get("depends_on", [])


@dataclass
class Catalog:
    packs: list[LoadedPack] = field(default_factory=list)
    ruleset: rulesets.Ruleset | None = None
    objects: dict[str, dict[str, Entry]] = field(default_factory=dict)
    findings: list[Finding] = field(default_factory=list)
    files_checked: int = 0
    # For each mod: the base it was checked against (pack, version, base, base_version, base_source, bundled).
    bases: list[dict] = field(default_factory=list)
    _model: object = field(default=None, repr=False)

    @property
    def model(self):
        """The ruleset's typed, immutable view of the layered objects (built once)."""
        if self._model is None and self.ruleset is not None and self.ruleset.build is not None:
            self._model = self.ruleset.build(self)
        return self._model

    def get(self, kind: str, key) -> Entry | None:
        return self.objects.get(kind, {}).get(str(key))

    def entries(self, kind: str) -> list[Entry]:
        return list(self.objects.get(kind, {}).values())

    def values(self, kind: str) -> list[dict]:
        return [e.value for e in self.entries(kind)]

    @property
    def errors(self) -> int:
        return sum(1 for f in self.findings if f.severity == Severity.ERROR)

    @property
    def warnings(self) -> int:
        return sum(1 for f in self.findings if f.severity == Severity.WARNING)


# --- reading packs -----------------------------------------------------------------------

def read_pack(source: PackSource, schemas: SchemaSet) -> tuple[LoadedPack | None, list[Finding]]:
    """Read and schema-check a pack's manifest; the documents are read later, once ordered."""
    findings = list(source.findings)
    if MANIFEST not in source.members:
        if source.members or not findings:
            findings.append(finding("pack-manifest-missing",
                                     f"no {MANIFEST}: a pack needs a manifest naming its id, version and ruleset",
                                     file=source.label))
        return None, findings
    data, problem = source.read(MANIFEST)
    if problem:
        return None, findings + [problem]
    doc, parse_findings = parse(source.display(MANIFEST), data)
    findings += parse_findings
    if doc is None:
        return None, findings
    schema_findings = schemas.validate(doc, "pack.schema.json")
    if schema_findings:
        return None, findings + schema_findings
    return LoadedPack(source, doc.value, doc), findings


def _read_documents(pack: LoadedPack, findings: list[Finding], budget: list[int] | None = None) -> list[Document]:
    """Parse every data file of a pack (parse findings go to findings).

    ``budget`` holds the JSON values still allowed in this load (limit load-values): each
    document's count is known from the scan before parsing, so a pack of many
    documents, each under the per-document limit, cannot add up to gigabytes.
    """
    budget = budget if budget is not None else [limits.LOAD_VALUES]
    files = [rel for rel in pack.source.data_files() if rel != MANIFEST]
    sizes = [_member_size(pack.source.members[rel]) for rel in files]
    total = sum(n for n in sizes if n <= limits.DOCUMENT_BYTES)  # a larger one is refused alone, unread
    if total > limits.PACK_BYTES:  # from the zip's directory or stat, before a byte of data is read
        findings.append(finding("limit-exceeded", f"the pack's documents hold {total:,} bytes; the limit is "
                                f"{limits.PACK_BYTES:,} (limit pack-bytes); none was read", file=pack.source.label))
        return pack.documents
    for rel in files:
        if budget[0] < 0:
            break
        data, problem = pack.source.read(rel)
        if problem:
            findings.append(problem)
            continue
        doc, parse_findings = parse(pack.source.display(rel), data)
        findings.extend(parse_findings)
        if doc is None:  # refused, but scanned: its bytes count (at most one value per 2 bytes), or a pack
            budget[0] -= len(data) // 2  # of many refused documents costs minutes of scanning
            if budget[0] < 0:
                findings.append(finding("limit-exceeded", f"the documents read so far hold more than "
                                        f"{limits.LOAD_VALUES:,} JSON values; the rest of {pack.id!r} was not read "
                                        "(limit load-values)", file=pack.source.display(rel)))
                break
        if doc is not None:
            budget[0] -= doc.size
            if budget[0] < 0:
                findings.append(finding("limit-exceeded", f"the documents loaded so far hold more than "
                                        f"{limits.LOAD_VALUES:,} JSON values; this document and the rest of "
                                        f"{pack.id!r} were not read (limit load-values)", file=doc.path))
                break
            pack.documents.append(doc)
    return pack.documents


def _member_size(member) -> int:
    size = getattr(member, "file_size", None)  # a ZipInfo
    if size is None and isinstance(member, Path):  # a file of a folder (a bundle's members are bytes in memory)
        try:
            size = os.stat(member).st_size
        except OSError:
            size = 0
    return size or 0


_SHARED_KINDS = {"overrides": "overrides.schema.json"}


def _document_kind(doc: Document, ruleset: rulesets.Ruleset, findings: list[Finding]):
    value = doc.value
    kind = value.get("kind") if isinstance(value, dict) else None
    if not isinstance(kind, str):
        findings.append(doc.finding("unknown-kind", 'a document must be a JSON object with a "kind"',
                                    "/kind" if isinstance(value, dict) else ""))
        return None
    if kind in _SHARED_KINDS:
        return kind
    dk = ruleset.document_kind(kind)
    if dk is None:
        known = ", ".join(sorted([d.kind for d in ruleset.documents] + list(_SHARED_KINDS)))
        findings.append(doc.finding("unknown-kind", f"kind {kind!r} is not a {ruleset.name} document ({known})",
                                    "/kind"))
    return dk


def _objects(doc: Document, dk: rulesets.DocumentKind, bad_pointers: set[str]):
    """(id, value, pointer) of each object a valid document holds, skipping broken ones."""
    def broken(ptr: str) -> bool:
        return any(b == ptr or b.startswith(ptr + "/") or (ptr == "" and b) for b in bad_pointers)

    if dk.items is None:
        if not broken("") and dk.id_key in doc.value:
            yield str(doc.value[dk.id_key]), doc.value, ""
        return
    items = doc.value.get(dk.items, [])
    for i, item in enumerate(items if isinstance(items, list) else []):
        ptr = f"/{dk.items}/{i}"
        if isinstance(item, dict) and dk.id_key in item and not broken(ptr):
            yield str(item[dk.id_key]), item, ptr


# --- ordering packs ----------------------------------------------------------------------

def _order(requested: list[LoadedPack], available: dict[str, LoadedPack],
           findings: list[Finding]) -> list[LoadedPack]:
    """Dependencies first; among packs free at the same time, by id (deterministic)."""
    needed: dict[str, LoadedPack] = {}
    stack = list(requested)
    while stack:
        pack = stack.pop()
        if pack.id in needed:
            continue
        needed[pack.id] = pack
        for dep in pack.depends_on:
            target = available.get(dep["id"])
            where = pack.manifest_doc
            if target is None:
                findings.append(where.finding("pack-dependency-missing",
                                              f"pack {pack.id!r} needs pack {dep['id']!r}, which was not found",
                                              f"/depends_on/{pack.depends_on.index(dep)}"))
                continue
            _check_version(pack, dep, target, findings)
            stack.append(target)
    order: list[LoadedPack] = []
    placed: set[str] = set()
    pending = dict(needed)
    while pending:
        ready = sorted((p for p in pending.values()
                        if all(d["id"] in placed or d["id"] not in needed for d in p.depends_on)),
                       key=lambda p: p.id)
        if not ready:
            cycle = ", ".join(sorted(pending))
            first = pending[sorted(pending)[0]]
            findings.append(first.manifest_doc.finding("pack-dependency-cycle",
                                                       f"these packs depend on each other in a cycle: {cycle}",
                                                       "/depends_on"))
            order.extend(sorted(pending.values(), key=lambda p: p.id))
            break
        for p in ready:
            order.append(p)
            placed.add(p.id)
            del pending[p.id]
    return order


def _check_version(pack: LoadedPack, dep: dict, target: LoadedPack, findings: list[Finding]) -> None:
    spec = dep.get("version")
    if not spec:
        return
    idx = pack.depends_on.index(dep)
    try:
        ok = Version(target.version) in SpecifierSet(spec)
    except (InvalidSpecifier, InvalidVersion) as exc:
        findings.append(pack.manifest_doc.finding("pack-dependency-version", f"unusable version range: {exc}",
                                                  f"/depends_on/{idx}/version"))
        return
    if not ok:
        findings.append(pack.manifest_doc.finding(
            "pack-dependency-version",
            f"pack {pack.id!r} was made for {dep['id']} {spec}, but {dep['id']} {target.version} is loaded",
            f"/depends_on/{idx}/version"))
        pack.conflicts.append(f"made for {dep['id']} {spec}, found {target.version}")


# --- layering ----------------------------------------------------------------------------

class Layering:
    """Adds a pack's objects and applies its overrides, in load order (see the module doc)."""

    def __init__(self, catalog: Catalog, schemas: SchemaSet, ruleset: rulesets.Ruleset):
        self.catalog = catalog
        self.schemas = schemas
        self.ruleset = ruleset
        self.touched: dict[tuple[str, str], str] = {}  # (kind, id) -> mod pack that last changed it
        self._object_validators: dict[str, object] = {}

    def add(self, pack: LoadedPack, doc: Document, dk: rulesets.DocumentKind, key: str, value: dict, ptr: str):
        table = self.catalog.objects.setdefault(dk.object_kind, {})
        if key in table:
            first = table[key]
            how = "in the same pack" if first.pack == pack.id else f"already defined by pack {first.pack!r}"
            self.catalog.findings.append(doc.finding(
                "duplicate-id",
                f"{dk.object_kind} {key!r} is {how} ({first.doc.path}); a mod changes an object with an explicit override",
                f"{ptr}/{dk.id_key}", subject=f"{dk.object_kind} {key}"))
            return
        table[key] = Entry(dk.object_kind, key, value, pack.id, doc, ptr, [Change(pack.id, "add", doc, ptr)])
        pack.added.append((dk.object_kind, key))

    def override(self, pack: LoadedPack, doc: Document, index: int, item: dict):
        ptr = f"/overrides/{index}"
        target = item["target"]
        kind, key = target["kind"], str(target["id"])
        subject = f"{kind} {key}"
        dk = self.ruleset.object_kinds().get(kind)
        if dk is None:
            known = ", ".join(sorted(self.ruleset.object_kinds()))
            self.catalog.findings.append(doc.finding("unknown-kind", f"no object kind {kind!r} ({known})",
                                                     f"{ptr}/target/kind", subject=subject))
            return
        entry = self.catalog.get(kind, key)
        if entry is None:
            self.catalog.findings.append(doc.finding(
                "override-target-missing", f"{subject} is not defined by any pack loaded before {pack.id!r}",
                f"{ptr}/target", subject=subject))
            return
        previous = self.touched.get((kind, key))
        if previous and previous != pack.id:
            self.catalog.findings.append(doc.finding(
                "override-conflict", f"{subject} is also changed by mod pack {previous!r}; {pack.id!r} loads later and wins",
                f"{ptr}/target", subject=subject))
            pack.conflicts.append(f"{subject} also changed by {previous}")
        reason = item.get("reason", "")
        if item.get("remove"):
            del self.catalog.objects[kind][key]
            pack.removed.append((kind, key))
            self.touched[(kind, key)] = pack.id
            return
        if "replace" in item:
            new = item["replace"]
            if str(new.get(dk.id_key)) != key:
                self.catalog.findings.append(doc.finding(
                    "override-patch", f"a replacement must keep the id {key!r} (use remove and add to rename)",
                    f"{ptr}/replace/{dk.id_key}", subject=subject))
                return
            new_doc, new_ptr, action = doc, f"{ptr}/replace", "replace"
        else:
            try:
                new = apply_patch(entry.value, item["patch"])
            except PatchError as exc:
                if exc.test:
                    self.catalog.findings.append(doc.finding(
                        "override-stale", f"{exc.op['path']} of {subject} is not {json.dumps(exc.op.get('value'))} "
                        f"as this override expects: it was made for another version of {entry.pack}",
                        f"{ptr}/patch/{exc.index}", subject=subject))
                    pack.conflicts.append(f"{subject}: stale patch")
                elif exc.limit:
                    self.catalog.findings.append(doc.finding("limit-exceeded", str(exc),
                                                             f"{ptr}/patch" + (f"/{exc.index}" if exc.index >= 0 else ""),
                                                             subject=subject))
                else:
                    self.catalog.findings.append(doc.finding("override-patch", f"cannot apply the patch: {exc}",
                                                             f"{ptr}/patch", subject=subject))
                return
            if not isinstance(new, dict) or str(new.get(dk.id_key)) != key:
                self.catalog.findings.append(doc.finding("override-patch", "a patch may not change the id"
                                                         if isinstance(new, dict) else "a patch must leave an object",
                                                         f"{ptr}/patch", subject=subject))
                return
            new_doc, new_ptr, action = entry.doc, entry.pointer, "patch"
        problems = self._check_object(dk, new)
        breaches = limits.count_breaches(self.ruleset, dk.kind, new) if dk.items is None else []
        if breaches and not problems:  # counts that multiply later work (the ruleset's declared limits)
            p, n, lim = breaches[0]
            self.catalog.findings.append(doc.finding(
                "limit-exceeded", f"after this override {subject} has {n:g} at {p}, over the limit of {lim.value:g} "
                f"{lim.unit} (limit {lim.key})", f"{ptr}/{'replace' if action == 'replace' else 'patch'}",
                subject=subject))
            return
        if problems:
            self.catalog.findings.append(doc.finding(
                "override-invalid", f"after this override {subject} breaks its schema: {problems[0]}",
                f"{ptr}/{'replace' if action == 'replace' else 'patch'}", subject=subject))
            return
        entry.value = new
        entry.doc, entry.pointer = new_doc, new_ptr
        entry.history.append(Change(pack.id, action, doc, ptr, reason))
        pack.overridden.append((kind, key))
        self.touched[(kind, key)] = pack.id

    def _check_object(self, dk: rulesets.DocumentKind, value: dict) -> list[str]:
        from jsonschema import Draft202012Validator
        ref = dk.object_schema_ref(BASE_URI)
        validator = self._object_validators.get(ref)
        if validator is None:
            validator = Draft202012Validator({"$ref": ref}, registry=self.schemas.registry)
            self._object_validators[ref] = validator
        return [f"{pointer_of(e.absolute_path) or '/'}: {e.message}" for e in validator.iter_errors(value)]


class PatchError(Exception):
    """A patch that cannot be applied: a failed ``test`` (stale), a limit, or a bad operation."""

    def __init__(self, message: str, index: int, op: dict | None, *, test: bool = False, limit: bool = False):
        super().__init__(message)
        self.index, self.op, self.test, self.limit = index, op or {}, test, limit


_PATCH_ERRORS = (jsonpatch.JsonPatchException, jsonpointer.JsonPointerException, TypeError, KeyError, IndexError,
                 ValueError)


def apply_patch(value, ops: list):
    """An RFC 6902 patch applied to a copy of value: one deep copy, then every operation in place.

    Linear in the patch and the values it adds. Before each operation its growth is counted
    (the value of an add, replace or test... the subtree a copy duplicates) against
    limits.PATCH_VALUES, so a patch that copies a subtree onto itself stops with a finding
    instead of taking gigabytes; a failed ``test`` is located by the same pass (no op-by-op
    re-application from deep copies).
    """
    if not isinstance(ops, list):
        raise PatchError("a patch is a list of operations", -1, None)
    if len(ops) > limits.PATCH_OPS:
        raise PatchError(f"{len(ops):,} operations; the limit is {limits.PATCH_OPS:,} (limit patch-ops)", -1, None,
                         limit=True)
    doc = copy.deepcopy(value)
    grown = 0
    for i, op in enumerate(ops):
        if not isinstance(op, dict):
            raise PatchError(f"operation {i} is not an object", i, None)
        kind = op.get("op")
        room = limits.PATCH_VALUES - grown
        try:
            if kind in ("add", "replace"):
                grown += limits.count_values(op.get("value"), room)
                # The patch's own value is copied so that later operations never change the override document.
                op = dict(op, value=copy.deepcopy(op.get("value"))) if grown <= limits.PATCH_VALUES else op
            elif kind == "copy":
                grown += limits.count_values(jsonpointer.resolve_pointer(doc, op.get("from", "")), room)
            if grown > limits.PATCH_VALUES:
                raise PatchError(f"operation {i} would grow the object past {limits.PATCH_VALUES:,} added values "
                                 "(limit patch-values)", i, op, limit=True)
            doc = jsonpatch.JsonPatch([op]).apply(doc, in_place=True)
        except jsonpatch.JsonPatchTestFailed as exc:
            raise PatchError(str(exc), i, op, test=True) from None
        except _PATCH_ERRORS as exc:
            raise PatchError(str(exc) or type(exc).__name__, i, op) from None
    return doc


# --- entry point -------------------------------------------------------------------------

def discover(folder: Path, schemas: SchemaSet) -> dict[str, LoadedPack]:
    """Packs found as direct subfolders (or zips) of a folder, by id (the first of an id wins)."""
    return {pid: packs[0] for pid, packs in _discover_all(folder, schemas).items()}


def _discover_all(folder: Path, schemas: SchemaSet) -> dict[str, list[LoadedPack]]:
    found: dict[str, list[LoadedPack]] = {}
    if not folder.is_dir():
        return found
    try:
        children = sorted(folder.iterdir())
    except OSError:
        return found
    for child in children:
        try:
            usable = (child.is_dir() and (child / MANIFEST).is_file()) or \
                (child.suffix.lower() == ".zip" and child.is_file())
        except OSError:
            continue
        if usable:
            # Only the manifest is read now (a neighbour of many files costs nothing); the whole
            # pack is opened if it turns out to be needed (_full_source).
            source = PackSource(str(child), "folder", {MANIFEST: child / MANIFEST}) if child.is_dir() \
                else open_source(child)
            pack, _ = read_pack(source, schemas)
            if pack is not None:
                found.setdefault(pack.id, []).append(pack)
    return found


def _full_source(pack: LoadedPack) -> None:
    """Open the whole folder of a pack found by discovery (only its manifest was read)."""
    if pack.source.kind == "folder" and list(pack.source.members) == [MANIFEST]:
        pack.source = open_source(pack.source.label)


def _available(search: list[Path] | None, schemas: SchemaSet):
    """Packs dependencies may come from: the bundled packs, then the --search folders, in order.

    Never the folder a named pack happens to sit in: a neighbour would be parsed (and could
    hang or crash a load) and could silently replace the bundled base by claiming its id.
    When an id is found in more than one place, the bundled pack (else the first found)
    is kept and the others are returned as shadowed, to be warned about if the id is used.
    """
    available: dict[str, LoadedPack] = {}
    shadowed: dict[str, list[LoadedPack]] = {}
    for folder in [bundled_packs_dir(), *(Path(p) for p in (search or []))]:
        for pid, packs in _discover_all(folder, schemas).items():
            for pack in packs:
                if pid not in available:
                    available[pid] = pack
                elif Path(pack.source.label).resolve() != Path(available[pid].source.label).resolve():
                    shadowed.setdefault(pid, []).append(pack)
    return available, shadowed


def _report_sources(catalog: Catalog, shadowed: dict[str, list[LoadedPack]]) -> None:
    """Warn about ids found twice that this load uses; tell each mod which base it was checked against."""
    loaded = {p.id: p for p in catalog.packs}
    for pid, others in shadowed.items():
        used = loaded.get(pid)
        if used is None:
            continue
        where = "the bundled pack" if _is_bundled(used) else "the pack"
        for other in others:
            if Path(other.source.label).resolve() == Path(used.source.label).resolve():
                continue
            catalog.findings.append(other.manifest_doc.finding(
                "pack-shadowed", f"pack {pid!r} {other.version} here is ignored: {where} {pid} {used.version} "
                f"from {used.source.label} is used", "/id"))
    for pack in catalog.packs:
        for dep in pack.depends_on:
            base = loaded.get(dep.get("id"))
            if base is not None:
                catalog.bases.append({"pack": pack.id, "version": pack.version, "base": base.id,
                                      "base_version": base.version, "base_source": str(base.source.label),
                                      "bundled": _is_bundled(base)})


def _is_bundled(pack: LoadedPack) -> bool:
    try:
        return Path(pack.source.label).resolve().parent == bundled_packs_dir().resolve()
    except OSError:
        return False


def load_catalog(paths: list[str | Path] | None = None, *, search: list[Path] | None = None,
                 schemas: SchemaSet | None = None) -> Catalog:
    """Load packs (default: the bundled Desert Steel pack) with their dependencies."""
    schemas = schemas or default_schemas()
    catalog = Catalog()
    catalog.findings.extend(schemas.findings)
    paths = list(paths) if paths else [bundled_pack()]
    requested: list[LoadedPack] = []
    for path in paths:
        pack, found = read_pack(open_source(path), schemas)
        catalog.findings.extend(found)
        if pack is not None:
            requested.append(pack)
    available, shadowed = _available(search, schemas)
    unique: dict[str, LoadedPack] = {}
    for pack in requested:
        if pack.id in unique:
            catalog.findings.append(pack.manifest_doc.finding(
                "pack-duplicate", f"pack id {pack.id!r} is also the id of {unique[pack.id].source.label}", "/id"))
            continue
        unique[pack.id] = available[pack.id] = pack
    requested = list(unique.values())
    if not requested:
        _finish(catalog)
        return catalog
    catalog.packs = _order(requested, available, catalog.findings)
    catalog.files_checked = len(catalog.packs)
    _report_sources(catalog, shadowed)
    base_ruleset = catalog.packs[0].manifest["ruleset"]
    ruleset = rulesets.get(base_ruleset)
    if ruleset is None:
        catalog.findings.append(catalog.packs[0].manifest_doc.finding(
            "unknown-kind", f"ruleset {base_ruleset!r} could not be loaded ({rulesets.LOAD_ERRORS[base_ruleset]})"
            if base_ruleset in rulesets.LOAD_ERRORS else
            f"ruleset {base_ruleset!r} is not known (known: {', '.join(rulesets.names())}; a ruleset is installed "
            "as a Python package declaring a 'sandtable.rulesets' entry point)",
            "/ruleset"))
        _finish(catalog)
        return catalog
    catalog.ruleset = ruleset
    if base_ruleset in rulesets.CLASHES:  # a plug-in claimed the built-in's name: said, and refused
        catalog.findings.append(catalog.packs[0].manifest_doc.finding(
            "ruleset-plugin", rulesets.CLASHES[base_ruleset], "/ruleset", severity=Severity.WARNING))
    layering = Layering(catalog, schemas, ruleset)
    budget = [limits.LOAD_VALUES]  # JSON values still allowed in this load, over every pack
    for pack in catalog.packs:
        _full_source(pack)
        if pack.manifest["ruleset"] != ruleset.name:
            catalog.findings.append(pack.manifest_doc.finding(
                "pack-ruleset-mismatch", f"pack {pack.id!r} is for {pack.manifest['ruleset']!r}, "
                f"but the packs it is loaded with are {ruleset.name!r}", "/ruleset"))
            continue
        layer_documents(catalog, pack, _read_documents(pack, catalog.findings, budget), ruleset, layering,
                        schemas.validate)
    run_checks(catalog)
    return catalog


def layer_documents(catalog: Catalog, pack: LoadedPack, docs: list[Document], ruleset: rulesets.Ruleset,
                    layering: "Layering", validate) -> None:
    """Schema-check a pack's documents (``validate(doc, schema)`` → findings), add their
    objects to the catalog, then apply the pack's overrides."""
    overrides = []
    for doc in docs:
        dk = _document_kind(doc, ruleset, catalog.findings)
        if dk is None:
            continue
        schema = _SHARED_KINDS[dk] if isinstance(dk, str) else dk.schema
        problems = validate(doc, schema)
        catalog.findings.extend(problems)
        if isinstance(dk, str):
            if not problems:
                overrides.append(doc)
            continue
        bad = {f.location.pointer or "" for f in problems}
        if not problems:  # counts that multiply later work (the ruleset's declared limits): refused before any command uses them
            for pointer, number, lim in limits.count_breaches(ruleset, dk.kind, doc.value):
                catalog.findings.append(doc.finding(
                    "limit-exceeded", f"{number:g} is over the limit of {lim.value:g} {lim.unit} (limit {lim.key})",
                    pointer))
                bad.add(pointer)
        for key, value, ptr in _objects(doc, dk, bad):
            layering.add(pack, doc, dk, key, value, ptr)
    for doc in overrides:
        for i, item in enumerate(doc.value["overrides"]):
            layering.override(pack, doc, i, item)


def run_checks(catalog: Catalog) -> None:
    """The checks across objects once every pack is layered: provenance and the ruleset's."""
    catalog.files_checked = sum(len(p.documents) + 1 for p in catalog.packs)
    catalog.findings.extend(provenance.check(catalog))
    if catalog.ruleset is not None:
        # An object left out for a schema error is reported once with the references to it,
        # not as one "does not exist" per reference (issue #13).
        from .references import group_consequences
        catalog.findings.extend(group_consequences(catalog, catalog.ruleset.check(catalog)))
    _finish(catalog)


def _finish(catalog: Catalog) -> None:
    unique = {}
    for f in catalog.findings:
        unique.setdefault((f.code, f.message, f.location), f)
    catalog.findings = sorted(unique.values(), key=sort_key)
