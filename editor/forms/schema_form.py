"""Form fields generated from the JSON Schemas, where that gives a good result.

Scalars, enums, fire factors, localized texts and nested objects of scalars become proper
widgets (with the schema's bounds and descriptions as tooltips); anything else (arrays,
expressions) becomes a JSON field. Hand-made forms call ``add_fields`` for the plain
parts and draw the rest themselves.
"""
from __future__ import annotations

from functools import lru_cache

from PySide6.QtWidgets import QFormLayout, QGroupBox, QWidget

from sandtable.rules import rulesets
from sandtable.rules.schemas import default_schemas

from .fields import (BoolField, EnumField, FactorField, IntField, JsonField, LongTextField, NumberField, ObjectForm,
                     TextField)

TEXT_REF = "common.schema.json#/$defs/text"
LONG_TEXTS = {"notes", "background", "designer_notes", "year_note", "text", "description"}


def humanize(key: str) -> str:
    special = {"c3": "C3", "ai": "AI", "av": "AV", "hq": "HQ", "id": "Id"}
    if key in special:
        return special[key]
    return key.replace("_", " ").capitalize()


class SchemaIndex:
    def __init__(self):
        self.schemas = default_schemas().schemas

    def resolve(self, node: dict, rel: str) -> tuple[dict, str]:
        seen = 0
        while isinstance(node, dict) and "$ref" in node and seen < 20:
            seen += 1
            ref = node["$ref"]
            path, _, frag = ref.partition("#")
            if path:
                base = rel.rsplit("/", 1)[0] + "/" if "/" in rel else ""
                parts = (base + path).split("/")
                norm: list[str] = []
                for p in parts:
                    if p == "..":
                        if norm:
                            norm.pop()
                    elif p not in ("", "."):
                        norm.append(p)
                rel = "/".join(norm)
            target = self.schemas.get(rel, {})
            for tok in [t for t in frag.split("/") if t]:
                target = target.get(tok, {})
            merged = dict(target)
            for k, v in node.items():  # siblings of $ref (descriptions, narrowed properties)
                if k != "$ref":
                    merged.setdefault(k, v)
            node = merged
        return node, rel

    def object_schema(self, ruleset: str, kind: str) -> tuple[dict, str]:
        dk = rulesets.get(ruleset).object_kinds()[kind]
        schema = self.schemas[dk.schema]
        if dk.items:
            return self.resolve({"$ref": f"#/$defs/{dk.item_def}"}, dk.schema)
        return schema, dk.schema

    def property(self, schema: dict, rel: str, key: str) -> tuple[dict, str]:
        return self.resolve(schema.get("properties", {}).get(key, {}), rel)


@lru_cache(maxsize=1)
def index() -> SchemaIndex:
    return SchemaIndex()


def widget_for(node: dict, rel: str, key: str, required: bool):
    """A field widget for a resolved schema node, or None for "draw it yourself"."""
    optional = not required
    if "const" in node:
        return None
    types = node.get("type")
    types = set(types) if isinstance(types, list) else {types} if types else set()
    if "oneOf" in node:
        alts = node["oneOf"]
        if any(a.get("const") == "cannot-fire" for a in alts):
            return FactorField()
        nums = [a for a in alts if a.get("type") in ("number", "integer")]
        if nums:
            return JsonField(optional, lines=1)
    if "enum" in node:
        return EnumField(node["enum"], optional=optional)
    if "integer" in types:
        return IntField(node.get("minimum", 0), node.get("maximum", 9999), optional=optional or "null" in types)
    if "number" in types:
        return NumberField(node.get("minimum", 0), node.get("maximum", 9999), node.get("multipleOf", 1),
                           optional=optional)
    if "boolean" in types:
        return BoolField("", optional=True)
    if "string" in types:
        return LongTextField(optional) if key in LONG_TEXTS else TextField(optional)
    return JsonField(optional)


def add_fields(form: ObjectForm, layout: QFormLayout, schema: dict, rel: str, pointer: str = "",
               only: list[str] | None = None, skip: tuple = ("provenance", "kind", "$schema"),
               labels: dict | None = None) -> None:
    """Rows for the properties of an object schema (in ``only``'s order when given)."""
    idx = index()
    props = schema.get("properties", {})
    required = set(schema.get("required", []))
    keys = only if only is not None else [k for k in props if k not in skip]
    for key in keys:
        if key not in props:
            continue
        raw = props[key]
        node, nrel = idx.resolve(raw, rel)
        ptr = f"{pointer}/{key}"
        label = (labels or {}).get(key, humanize(key))
        tip = node.get("description", "")
        if isinstance(raw, dict) and raw.get("$ref", "").endswith(TEXT_REF):
            long = key in LONG_TEXTS
            form.row(layout, f"{label} (en)", f"{ptr}/en", LongTextField(False) if long else TextField(False), tip)
            form.row(layout, f"{label} (fr)", f"{ptr}/fr", LongTextField(True) if long else TextField(True),
                     "The rulebook's French, verbatim.")
            continue
        if node.get("type") == "object" and node.get("properties") and all(
                idx.resolve(v, nrel)[0].get("type") in ("integer", "number", "string", "boolean")
                or "enum" in idx.resolve(v, nrel)[0] for v in node["properties"].values()):
            box = QGroupBox(label)
            box.setToolTip(tip)
            inner = QFormLayout(box)
            add_fields(form, inner, node, nrel, ptr)
            layout.addRow(box)
            continue
        w = widget_for(node, nrel, key, key in required)
        if w is None:
            continue
        form.row(layout, label, ptr, w, tip)


def generated_form(form: ObjectForm, ruleset: str, pointer: str = "", only=None, skip=("provenance", "kind", "$schema"),
                   labels=None) -> QWidget:
    schema, rel = index().object_schema(ruleset, form.kind)
    w = QWidget()
    lay = QFormLayout(w)
    add_fields(form, lay, schema, rel, pointer, only, skip, labels)
    return w
