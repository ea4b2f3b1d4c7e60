"""Rulesets plug in here: each names its document kinds, their schemas and its checks.

Shared code never names a ruleset; a pack's manifest says which one it uses, and the
catalog asks this registry. Adding a ruleset = a module that calls ``register`` and is
listed in ``_BUILTIN``.
"""
from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from typing import Callable


@dataclass(frozen=True)
class DocumentKind:
    """One value of a document's ``kind``: its schema and how it holds objects.

    ``items`` is the key of the list of objects in a collection document (unit types,
    cards...); None when the document is itself the object (a map, a scenario).
    """

    kind: str
    schema: str
    object_kind: str
    items: str | None = None
    id_key: str = "id"
    title: str = ""
    item_def: str | None = None  # $defs name of one object in a collection document

    def object_schema_ref(self, base_uri: str) -> str:
        """URI of the schema one object must follow (for re-checking an overridden object)."""
        uri = base_uri + self.schema
        return f"{uri}#/$defs/{self.item_def}" if self.items else uri


@dataclass(frozen=True)
class Ruleset:
    name: str
    title: str
    documents: tuple[DocumentKind, ...]
    # (catalog) -> list of findings: cross-references and content checks.
    check: Callable = field(default=lambda catalog: [])
    # (catalog) -> domain model object built from the merged raw objects.
    build: Callable | None = None
    # (model, setup as JSON, report) -> findings: the setup rules (report(code, message, pointer, **kw)
    # builds a finding located in the setup's document).
    check_setup: Callable | None = None
    # (model) -> rows for `sandtable scenarios`; (scenario) -> the `show scenario` summary.
    scenario_list: Callable | None = None
    scenario_summary: Callable | None = None

    def document_kind(self, kind: str) -> DocumentKind | None:
        return next((d for d in self.documents if d.kind == kind), None)

    def object_kinds(self) -> dict[str, DocumentKind]:
        return {d.object_kind: d for d in self.documents}


_REGISTRY: dict[str, Ruleset] = {}
_BUILTIN = {"desert-steel": "sandtable.rules.desert_steel", "holland44": "sandtable.rules.holland44",
            "miniatures": "sandtable.rules.miniatures"}


def register(ruleset: Ruleset) -> None:
    _REGISTRY[ruleset.name] = ruleset


def get(name: str) -> Ruleset | None:
    if name not in _REGISTRY and name in _BUILTIN:
        importlib.import_module(_BUILTIN[name])
    return _REGISTRY.get(name)


def names() -> list[str]:
    return sorted(set(_REGISTRY) | set(_BUILTIN))
