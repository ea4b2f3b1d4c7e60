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
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

import jsonpatch
import jsonpointer
from packaging.specifiers import InvalidSpecifier, SpecifierSet
from packaging.version import InvalidVersion, Version

from . import provenance, rulesets
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


def _read_documents(pack: LoadedPack, findings: list[Finding]) -> list[Document]:
    """Parse every data file of a pack (parse findings go to findings)."""
    for rel in pack.source.data_files():
        if rel == MANIFEST:
            continue
        data, problem = pack.source.read(rel)
        if problem:
            findings.append(problem)
            continue
        doc, parse_findings = parse(pack.source.display(rel), data)
        findings.extend(parse_findings)
        if doc is not None:
            pack.documents.append(doc)
    return pack.documents


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
                new = jsonpatch.apply_patch(copy.deepcopy(entry.value), item["patch"])
            except jsonpatch.JsonPatchTestFailed:
                i, test = _failed_test(entry.value, item["patch"])
                self.catalog.findings.append(doc.finding(
                    "override-stale", f"{test['path']} of {subject} is not {json.dumps(test.get('value'))} as this "
                    f"override expects: it was made for another version of {entry.pack}",
                    f"{ptr}/patch/{i}", subject=subject))
                pack.conflicts.append(f"{subject}: stale patch")
                return
            except (jsonpatch.JsonPatchException, jsonpointer.JsonPointerException, TypeError, KeyError) as exc:
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


def _failed_test(value, patch: list) -> tuple[int, dict]:
    """Index and operation of the first ``test`` of a patch that fails on value."""
    current = copy.deepcopy(value)
    for i, op in enumerate(patch):
        try:
            current = jsonpatch.apply_patch(current, [op])
        except jsonpatch.JsonPatchTestFailed:
            return i, op
        except (jsonpatch.JsonPatchException, jsonpointer.JsonPointerException, TypeError, KeyError):
            break
    return 0, patch[0]


# --- entry point -------------------------------------------------------------------------

def discover(folder: Path, schemas: SchemaSet) -> dict[str, LoadedPack]:
    """Packs found as direct subfolders (or zips) of a folder, by id."""
    found: dict[str, LoadedPack] = {}
    if not folder.is_dir():
        return found
    for child in sorted(folder.iterdir()):
        if (child.is_dir() and (child / MANIFEST).is_file()) or child.suffix.lower() == ".zip":
            pack, _ = read_pack(open_source(child), schemas)
            if pack is not None and pack.id not in found:
                found[pack.id] = pack
    return found


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
    available: dict[str, LoadedPack] = {}
    folders = list(search) if search is not None else []
    folders += [Path(p).resolve().parent for p in paths] + [bundled_packs_dir()]
    for folder in folders:
        for pid, pack in discover(folder, schemas).items():
            available.setdefault(pid, pack)
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
    base_ruleset = catalog.packs[0].manifest["ruleset"]
    ruleset = rulesets.get(base_ruleset)
    if ruleset is None:
        catalog.findings.append(catalog.packs[0].manifest_doc.finding(
            "unknown-kind", f"ruleset {base_ruleset!r} is not known (known: {', '.join(rulesets.names())})",
            "/ruleset"))
        _finish(catalog)
        return catalog
    catalog.ruleset = ruleset
    layering = Layering(catalog, schemas, ruleset)
    for pack in catalog.packs:
        if pack.manifest["ruleset"] != ruleset.name:
            catalog.findings.append(pack.manifest_doc.finding(
                "pack-ruleset-mismatch", f"pack {pack.id!r} is for {pack.manifest['ruleset']!r}, "
                f"but the packs it is loaded with are {ruleset.name!r}", "/ruleset"))
            continue
        layer_documents(catalog, pack, _read_documents(pack, catalog.findings), ruleset, layering, schemas.validate)
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
        catalog.findings.extend(catalog.ruleset.check(catalog))
    _finish(catalog)


def _finish(catalog: Catalog) -> None:
    unique = {}
    for f in catalog.findings:
        unique.setdefault((f.code, f.message, f.location), f)
    catalog.findings = sorted(unique.values(), key=sort_key)
