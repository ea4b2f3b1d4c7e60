"""The schema set: every schema file, checked against the metaschema, one validator per kind.

Schemas reference each other by relative ``$ref`` under one ``$id`` base; all of them are
loaded into a ``referencing`` registry up front, so nothing is ever fetched from a network.

jsonschema (Python) is the reference: every finding and message comes from it. It is
slow on large packs, so jsonschema-rs (a compiled validator of the same schemas, offline)
answers first whether a document is valid at all; only a document it rejects is walked by
jsonschema for its errors. Tests prove the two agree; without jsonschema-rs installed,
everything goes through jsonschema.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from pathlib import Path

from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError, best_match
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

try:  # optional accelerator: see the module docstring
    import jsonschema_rs
except ImportError:  # pragma: no cover - exercised where the wheel is missing
    jsonschema_rs = None

from .findings import Finding, finding
from .jsondoc import Document, escape, pointer_of

BASE_URI = "https://schemas.sandtable.invalid/"


def schema_root() -> Path:
    return Path(str(resources.files("sandtable.schemas")))


@dataclass
class SchemaSet:
    root: Path
    schemas: dict[str, dict] = field(default_factory=dict)  # relative path -> schema
    findings: list[Finding] = field(default_factory=list)
    _validators: dict[str, Draft202012Validator] = field(default_factory=dict)
    registry: Registry = field(default_factory=Registry)
    _fast: dict[str, object] = field(default_factory=dict)
    use_fast: bool = jsonschema_rs is not None

    @classmethod
    def load(cls, root: Path | None = None) -> "SchemaSet":
        root = root or schema_root()
        self = cls(root)
        resources_ = []
        for path in sorted(root.rglob("*.schema.json")):
            rel = path.relative_to(root).as_posix()
            try:
                schema = json.loads(path.read_text(encoding="utf-8"))
            except (OSError, ValueError) as exc:
                self.findings.append(finding("schema-broken", f"cannot read schema: {exc}", file=str(path)))
                continue
            problem = _metaschema_problem(schema)
            if problem is not None:
                self.findings.append(finding(
                    "schema-broken", f"not a valid JSON Schema 2020-12: {problem.message}",
                    file=str(path), pointer=pointer_of(problem.absolute_path)))
                continue
            if schema.get("$id") != BASE_URI + rel:
                self.findings.append(finding(
                    "schema-broken", f"$id must be {BASE_URI + rel!r} so relative $refs resolve",
                    file=str(path), pointer="/$id"))
                continue
            self.schemas[rel] = schema
            resources_.append((schema["$id"], Resource.from_contents(schema, default_specification=DRAFT202012)))
        self.registry = Registry().with_resources(resources_).crawl()
        return self

    def validator(self, rel: str) -> Draft202012Validator | None:
        if rel not in self._validators:
            schema = self.schemas.get(rel)
            if schema is None:
                return None
            self._validators[rel] = Draft202012Validator(schema, registry=self.registry)
        return self._validators[rel]

    def fast_validator(self, rel: str):
        """The compiled jsonschema-rs validator of a schema, or None."""
        if not self.use_fast or rel not in self.schemas:
            return None
        if rel not in self._fast:
            try:
                registry = jsonschema_rs.Registry([(s["$id"], s) for s in self.schemas.values()])
                self._fast[rel] = jsonschema_rs.validator_for(self.schemas[rel], registry=registry,
                                                              base_uri=BASE_URI + rel)
            except Exception:  # noqa: BLE001 - any failure of the accelerator falls back to jsonschema
                self._fast[rel] = None
        return self._fast[rel]

    def validate(self, doc: Document, rel: str, value=None, base_pointer: str = "") -> list[Finding]:
        """Schema findings for a document (or for ``value`` standing at ``base_pointer`` in it)."""
        validator = self.validator(rel)
        if validator is None:
            return [finding("schema-broken", f"schema {rel} is missing or broken; {doc.path} was not checked",
                            file=doc.path)]
        instance = doc.value if value is None else value
        fast = self.fast_validator(rel)
        if fast is not None:
            try:
                if fast.is_valid(instance):
                    return []
            except Exception:  # noqa: BLE001 - e.g. a value jsonschema-rs cannot convert: use jsonschema
                pass
        out = []
        for error in validator.iter_errors(instance):
            out.append(_to_finding(doc, error, base_pointer))
        return out


def _metaschema_problem(schema) -> ValidationError | None:
    """The first reason a schema is not valid JSON Schema 2020-12, or None."""
    if jsonschema_rs is not None:
        try:
            if jsonschema_rs.meta.is_valid(schema):
                return None
        except Exception:  # noqa: BLE001 - let jsonschema say what is wrong
            pass
    return best_match(Draft202012Validator(Draft202012Validator.META_SCHEMA).iter_errors(schema))


def _deepest(error: ValidationError) -> ValidationError:
    """For oneOf/anyOf, the alternative that got furthest says most about the mistake."""
    while error.context:
        best = best_match(error.context)
        if best is None or best is error:
            break
        error = best
    return error


def _to_finding(doc: Document, error: ValidationError, base_pointer: str) -> Finding:
    error = _deepest(error)
    pointer = base_pointer + pointer_of(error.absolute_path)
    message = error.message
    if error.validator == "additionalProperties" and error.validator_value is False:
        extra = sorted(set(error.instance) - set(error.schema.get("properties", {})))
        if extra:
            known = ", ".join(sorted(error.schema.get("properties", {})))
            message = f"unknown field {extra[0]!r}" + (f" (known fields: {known})" if known else "")
            pointer = f"{pointer}/{escape(extra[0])}"
            line, col = doc.source_map.key_position(pointer)
            return finding("schema", message, file=doc.path, pointer=pointer, line=line, column=col)
    if error.validator == "required":
        message = message.replace("is a required property", "is required here")
    elif error.validator is False or error.validator_value is False:
        message = "this field is not allowed here"
    if len(message) > 300:
        message = message[:297] + "..."
    line, col = doc.locate(pointer)
    return finding("schema", message, file=doc.path, pointer=pointer or None, line=line, column=col)


@lru_cache(maxsize=1)
def default_schemas() -> SchemaSet:
    return SchemaSet.load()
