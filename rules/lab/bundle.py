"""Packs as data that travels: a sweep ships its packs with its tasks.

A ``Bundle`` is every file of the packs a catalog loaded, as bytes, in load order. A worker
process, local or on another machine of a Dask cluster, rebuilds the same catalog from it
with the catalog's own steps (read the manifest, parse and schema-check the documents,
layer, run the checks) without reading any disk: nothing needs a shared file system, and
what a worker plays is exactly what the machine that started the sweep validated.

A sweep point is an in-memory mod over a bundle: one ``overrides`` document with JSON
Patch operations, layered last, so it is checked exactly as a mod pack's override would be
(the patched object must keep its schema; cross-references are checked again).
"""
from __future__ import annotations

import functools
import hashlib
import json
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from .. import catalog as cat
from ..atomic import dumps_json
from ..jsondoc import Document
from ..packsource import DATA_SUFFIXES, PackSource
from ..schemas import default_schemas

POINT_PACK = "sweep-point"


@dataclass(frozen=True)
class Bundle:
    """The packs of a catalog: ((label, ((relative path, bytes), ...)), ...) in load order."""

    packs: tuple

    @functools.cached_property  # asked for every task a worker runs: hashed once
    def key(self) -> str:
        """A digest of every byte: equal keys, equal catalogs."""
        h = hashlib.sha256()
        for label, files in self.packs:
            h.update(label.encode() + b"\0")
            for rel, data in files:
                h.update(rel.encode() + b"\0" + hashlib.sha256(data).digest())
        return h.hexdigest()[:16]

    @property
    def labels(self) -> list[str]:
        return [label for label, _ in self.packs]

    @property
    def size(self) -> int:
        return sum(len(data) for _, files in self.packs for _, data in files)


class MemorySource(PackSource):
    """A pack source whose members are bytes already read (see ``Bundle``)."""

    def __init__(self, label: str, files):
        super().__init__(label, "folder", {rel: rel for rel, _ in files})
        self._data = dict(files)

    def read(self, rel: str):
        return self._data[rel], None


def bundle_of(catalog: cat.Catalog) -> Bundle:
    """Read the data files of every pack a catalog loaded (load order, which the
    dependency resolution fixed) into a Bundle."""
    packs = []
    for pack in catalog.packs:
        files = []
        for rel in sorted(pack.source.members):
            if rel != cat.MANIFEST and PurePosixPath(rel).suffix.lower() not in DATA_SUFFIXES:
                continue
            data, problem = pack.source.read(rel)
            if problem is None:
                files.append((rel, data))
        packs.append((pack.source.label, tuple(files)))
    return Bundle(tuple(packs))


def overrides_document(patches: list[dict], label: str) -> Document:
    """One overrides document holding a point's patches, shown to users under ``label``."""
    value = {"kind": "overrides", "description": "sandtable sweep point", "overrides": patches}
    return Document(label, dumps_json(value), value)


def load_bundle(bundle: Bundle, patches: list[dict] | None = None, label: str = POINT_PACK,
                schemas=None, checks: bool = True) -> cat.Catalog:
    """The catalog of a bundle, with a point's overrides layered last (never raises on bad data).
    ``checks=False`` skips the checks across objects (provenance, references, the pack's
    setups): a worker rebuilds points the sweep already validated, and only needs the model."""
    schemas = schemas or default_schemas()
    catalog = cat.Catalog()
    catalog.findings.extend(schemas.findings)
    loaded = []
    for pack_label, files in bundle.packs:
        pack, found = cat.read_pack(MemorySource(pack_label, files), schemas)
        catalog.findings.extend(found)
        if pack is not None:
            loaded.append(pack)
    if not loaded:
        cat.run_checks(catalog)
        return catalog
    from .. import rulesets
    catalog.packs = loaded
    ruleset = rulesets.get(loaded[0].manifest["ruleset"])
    if ruleset is None:
        cat.run_checks(catalog)
        return catalog
    catalog.ruleset = ruleset
    layering = cat.Layering(catalog, schemas, ruleset)
    for pack in loaded:
        cat.layer_documents(catalog, pack, cat._read_documents(pack, catalog.findings), ruleset, layering,
                            schemas.validate)
    if patches:
        manifest = {"kind": "pack", "id": POINT_PACK, "version": "0.0.0", "ruleset": ruleset.name}
        point = cat.LoadedPack(MemorySource(label, ()), manifest, Document(label, "{}", manifest))
        doc = overrides_document(patches, label)
        point.documents.append(doc)
        catalog.packs.append(point)
        cat.layer_documents(catalog, point, [doc], ruleset, layering, schemas.validate)
    if checks:
        cat.run_checks(catalog)
    return catalog


def load_paths(paths: list[str | Path] | None) -> cat.Catalog:
    """The catalog of packs on disk (default: the bundled pack), as every command loads it."""
    return cat.load_catalog([Path(p) for p in paths] if paths else None)


def patch_key(patches: list[dict]) -> str:
    return hashlib.sha256(json.dumps(patches, sort_keys=True).encode()).hexdigest()[:16]
