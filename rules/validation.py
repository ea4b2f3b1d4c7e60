"""Validation of what a user names: packs, zips, or one document inside (or outside) a pack."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from . import limits, rulesets
from .catalog import MANIFEST, load_catalog
from .findings import Finding, Severity, finding, sort_key
from . import jsondoc
from .jsondoc import parse
from .schemas import default_schemas

USAGE_CODES = {"file-missing", "file-unreadable", "zip-corrupt", "pack-manifest-missing", "schema-broken"}


@dataclass
class Result:
    findings: list[Finding] = field(default_factory=list)
    files: int = 0
    packs: list[str] = field(default_factory=list)
    bases: list[dict] = field(default_factory=list)  # each mod's base, as Catalog.bases
    unusable: bool = False  # an argument could not be used at all: exit 2

    @property
    def exit_code(self) -> int:
        if self.unusable:
            return 2
        return 1 if any(f.severity == Severity.ERROR for f in self.findings) else 0


def enclosing_pack(path: Path) -> Path | None:
    for parent in [path.parent, *path.parent.parents]:
        if (parent / MANIFEST).is_file():
            return parent
    return None


def validate_paths(paths: list[str | Path] | None, search: list[Path] | None = None) -> Result:
    result = Result()
    packs, documents = [], []
    for p in paths or []:
        path = Path(p)
        if path.is_file() and path.suffix.lower() == ".json":
            documents.append(path)
        else:
            packs.append(path)
    if packs or not documents:
        catalog = load_catalog(packs or None, search=search)
        result.findings += catalog.findings
        result.files += catalog.files_checked
        result.packs += [f"{p.id} {p.version}" for p in catalog.packs]
        result.bases += catalog.bases
        result.unusable = unusable_arguments(catalog, packs)
    for doc in documents:
        _validate_document(doc, search, result)
    result.findings.sort(key=sort_key)
    return result


def unusable_arguments(catalog, packs) -> bool:
    """Whether a pack argument yielded no pack at all (missing, not a pack, not a zip): a usage
    error (exit 2) rather than a finding about a pack."""
    loaded = {str(p.source.label) for p in catalog.packs}
    return any(str(p) not in loaded for p in packs) and \
        any(f.code in USAGE_CODES for f in catalog.findings)


def _validate_document(path: Path, search, result: Result) -> None:
    """One document: checked within its pack when it has one, else against its schema alone."""
    pack_dir = enclosing_pack(path)
    result.files += 1
    if pack_dir is not None:
        catalog = load_catalog([pack_dir], search=search)
        result.bases += catalog.bases
        shown = str(pack_dir / path.resolve().relative_to(pack_dir.resolve()))
        result.findings += [f for f in catalog.findings if f.location.file in (shown, str(path))]
        return
    try:  # a regular file, its size checked with stat before a byte is read
        data = limits.read_regular(path, jsondoc.MAX_BYTES)
    except limits.InputError as exc:
        message = str(exc).split(": ", 1)[-1]
        code = "file-too-large" if "limit" in message else "file-unreadable"
        result.findings.append(finding(code, message, file=str(path)))
        result.unusable = code == "file-unreadable"
        return
    doc, found = parse(str(path), data)
    result.findings += found
    if doc is None:
        return
    kind = doc.value.get("kind") if isinstance(doc.value, dict) else None
    schemas = default_schemas()
    schema = {"pack": "pack.schema.json", "overrides": "overrides.schema.json"}.get(kind)
    for name in sorted(rulesets.names(), key=lambda n: n not in rulesets._BUILTIN):  # guests last: each is a probe
        ruleset = rulesets.get(name) if schema is None else None
        dk = ruleset.document_kind(kind) if ruleset is not None else None
        if dk is not None:
            schema = dk.schema
            break
    if schema is None:
        result.findings.append(doc.finding("unknown-kind", f"kind {kind!r} is not a known document kind", "/kind"))
        return
    result.findings += schemas.validate(doc, schema)
