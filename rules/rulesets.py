"""Rulesets plug in here: each names its document kinds, their schemas, its checks and what
it can do (its capabilities).

Shared code never names a ruleset; a pack's manifest says which one it uses, and the
catalog asks this registry. A ruleset is found through the Python entry-point group
``sandtable.rulesets`` (name = the ruleset's name, value = ``module:RULESET``, a Ruleset),
so a third party can ``pip install`` one; the built-in three are registered the same way
in pyproject.toml (and, for a source tree whose metadata was not rebuilt, in ``_BUILTIN``).

Each command asks ``COMMAND_NEEDS`` what capability it needs and the ruleset whether it
has it (``Ruleset.capabilities``); a command a ruleset cannot serve says so plainly.
"""
from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from typing import Callable

# What a ruleset can offer beyond validation, with the words used when it does not.
CAPABILITIES: dict[str, str] = {
    "scenarios": "scenario list and summaries",
    "check-setup": "setup rules",
    "auto-setup": "automatic setups",
    "los": "line of sight",
    "zone": "setup and entry zones",
    "path": "movement paths",
    "play": "game engine (play, simulate, replay)",
    "supply": "supply lines",
    "export-cards": "printable cards",
    "export-raids": "printable raid cards",
    "export-counters": "printable counters",
    "export-markers": "printable markers",
    "export-record": "printable record sheet",
    "export-scenario": "printable scenario sheet",
    "export-raid-form": "printable raid record form",
    "export-aids": "printable play aids",
    "export-map": "printable map sheets",
    "export-kit": "printable play kit",
}

# Command (as typed, with the export kind) -> the capability it needs. Commands not listed
# (validate, packs, provenance, codes, edit, export calibration/profile, sweep...) work on any
# ruleset or check for themselves.
COMMAND_NEEDS: dict[str, str] = {
    "scenarios": "scenarios", "show": "scenarios", "check-setup": "check-setup", "setup": "auto-setup",
    "los": "los", "zone": "zone", "path": "path", "play": "play", "simulate": "play", "replay": "play",
    "supply": "supply",
    **{f"export {k}": f"export-{k}" for k in ("cards", "raids", "counters", "markers", "record", "scenario",
                                               "raid-form", "aids", "map", "kit")},
}


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
    # What it can do beyond validation: keys of CAPABILITIES (declared with the ruleset).
    capabilities: frozenset = frozenset()

    def supports(self, capability: str) -> bool:
        return capability in self.capabilities

    def commands(self) -> list[str]:
        """The commands that need a capability this ruleset has (for the 'cannot' message)."""
        return [c for c, need in COMMAND_NEEDS.items() if need in self.capabilities]

    def document_kind(self, kind: str) -> DocumentKind | None:
        return next((d for d in self.documents if d.kind == kind), None)

    def object_kinds(self) -> dict[str, DocumentKind]:
        return {d.object_kind: d for d in self.documents}


_REGISTRY: dict[str, Ruleset] = {}
GROUP = "sandtable.rulesets"
# The built-in rulesets as their entry points say (pyproject.toml); used when the installed
# metadata predates the entry points (a source tree not reinstalled).
_BUILTIN = {"desert-steel": "sandtable.rules.desert_steel:RULESET", "holland44": "sandtable.rules.holland44:RULESET",
            "miniatures": "sandtable.rules.miniatures:RULESET"}
LOAD_ERRORS: dict[str, str] = {}  # ruleset name -> why its plugin could not be loaded


def register(ruleset: Ruleset) -> None:
    _REGISTRY[ruleset.name] = ruleset


def _entry_points() -> dict[str, str]:
    """name -> "module:attribute" of every ruleset plugin, the built-in ones included."""
    found = dict(_BUILTIN)
    try:
        from importlib.metadata import entry_points
        for ep in entry_points(group=GROUP):
            found[ep.name] = ep.value
    except Exception:  # noqa: BLE001 - broken metadata of some other package must not stop sandtable
        pass
    return found


def get(name: str) -> Ruleset | None:
    if name not in _REGISTRY:
        target = _entry_points().get(name)
        if target is None:
            return None
        module, _, attribute = target.partition(":")
        try:
            obj = importlib.import_module(module)
            for part in filter(None, attribute.split(".")):
                obj = getattr(obj, part)
        except Exception as exc:  # noqa: BLE001 - a third party's plugin failing is a finding, not a crash
            LOAD_ERRORS[name] = f"{type(exc).__name__}: {exc}"
            return None
        if isinstance(obj, Ruleset) and obj.name == name:
            register(obj)
        elif name not in _REGISTRY:
            LOAD_ERRORS[name] = f"entry point {target!r} is not a Ruleset named {name!r}"
    return _REGISTRY.get(name)


def names() -> list[str]:
    return sorted(set(_REGISTRY) | set(_entry_points()))
