"""Hypothesis: whatever a document holds, loading and validating report findings, never raise.

Valid documents of every kind from ``tests/fixtures/base`` are mutated — as parsed JSON (keys
deleted, values of random types, unknown keys, wrapping, huge numbers, deep nesting, odd
unicode) and as raw bytes (truncation, random bytes, flipped bytes, invalid UTF-8, BOM, NaN,
duplicate keys) — written into a copy of the pack, and loaded. Every outcome must be findings
with a known code and a file; lines and columns must lie inside the document.
"""
from __future__ import annotations

import contextlib
import copy
import functools
import io
import json
import re
import shutil

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st
from jsonschema import Draft202012Validator

from fixture_packs import BASE, BASE_DOCUMENTS, MODS, copy_base, zip_folder
from sandtable.cli import main
from sandtable.rules.catalog import load_catalog
from sandtable.rules.findings import CODES, Finding, Severity
from sandtable.rules.jsondoc import SourceMap, escape, parse
from sandtable.rules.schemas import BASE_URI, default_schemas
from sandtable.rules.validation import validate_paths

SETTINGS = settings(max_examples=150, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

ODD_TEXT = ["\ud800", "\udfff", "\U0001f600", "\ufeff", "\x00", "\u202e", "e\u0301", "\U0001d518", "\U0010ffff",
            "'\"\\/~0~1", "a/b", "~", "", " ", "\n\t", "</script>", "NaN", "null", "0101", "de-tank", "1942"]
HUGE_NUMBERS = [10 ** 30, -10 ** 30, 2 ** 63, -2 ** 63 - 1, 10 ** 400, -1, 0, 1e308, -1e308, 5e-324, 0.5, -0.0,
                1900, 2101, 9999, 10000]

scalars = (st.none() | st.booleans() | st.integers() | st.sampled_from(HUGE_NUMBERS)
           | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=12) | st.sampled_from(ODD_TEXT))
json_values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=3)
                           | st.dictionaries(st.text(max_size=8) | st.sampled_from(ODD_TEXT), inner, max_size=3),
                           max_leaves=8)


# --- the workspace: one copy of the base pack (and a mod) shared by the examples -------------

@pytest.fixture(scope="module")
def workspace(tmp_path_factory):
    root = tmp_path_factory.mktemp("fuzz")
    copy_base(root / "pack")
    shutil.copytree(MODS / "mod-clean", root / "mod-clean")
    return root


class Swap:
    """Put bytes in a file of the workspace for one example, and the original back afterwards."""

    def __init__(self, path, data: bytes):
        self.path, self.data = path, data

    def __enter__(self):
        self.original = self.path.read_bytes()
        self.path.write_bytes(self.data)
        return self.path

    def __exit__(self, *exc):
        self.path.write_bytes(self.original)


def check_findings(findings: list[Finding], mutated=None, data: bytes = b"") -> None:
    """Every finding has a known code at its severity, a message, a file; positions inside the text."""
    lines = data.split(b"\n")
    for f in findings:
        assert f.code in CODES
        assert isinstance(f.severity, Severity) and f.message
        assert f.location.file, f
        f.line_text().encode("utf-8")  # printable: no lone surrogates reach the terminal
        json.dumps(f.to_json(), ensure_ascii=False).encode("utf-8")
        if mutated is not None and f.location.file == str(mutated) and f.location.line is not None:
            assert 1 <= f.location.line <= len(lines), f.line_text()
            assert 1 <= (f.location.column or 1) <= len(lines[f.location.line - 1]) + 1, f.line_text()


# --- mutations of the parsed JSON ---------------------------------------------------------------

def nodes(value, path=()):
    """Every (path, value) inside a JSON value, the root first."""
    yield path, value
    if isinstance(value, dict):
        for k, v in value.items():
            yield from nodes(v, path + (k,))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from nodes(v, path + (i,))


def get(value, path):
    for p in path:
        value = value[p]
    return value


def put(root, path, new):
    if not path:
        return new
    get(root, path[:-1])[path[-1]] = new
    return root


def deep(depth: int, inner, kind: str):
    for _ in range(depth):
        inner = [inner] if kind == "list" else {"x": inner}
    return inner


OPERATIONS = ["delete", "replace", "insert-key", "wrap", "number", "nest", "odd-text", "empty"]


def mutate(draw, value):
    value = copy.deepcopy(value)
    for _ in range(draw(st.integers(1, 3))):
        candidates = list(nodes(value))
        path, node = candidates[draw(st.integers(0, len(candidates) - 1))]
        op = draw(st.sampled_from(OPERATIONS))
        if op == "delete" and path:
            parent = get(value, path[:-1])
            del parent[path[-1]]
        elif op == "replace":
            value = put(value, path, draw(json_values))
        elif op == "insert-key" and isinstance(node, dict):
            node[draw(st.text(max_size=10) | st.sampled_from(ODD_TEXT))] = draw(json_values)
        elif op == "wrap":
            value = put(value, path, [node])
        elif op == "number":
            value = put(value, path, draw(st.sampled_from(HUGE_NUMBERS) | st.integers()))
        elif op == "nest":
            value = put(value, path, deep(draw(st.integers(1, 90)), node, draw(st.sampled_from(["list", "dict"]))))
        elif op == "odd-text":
            value = put(value, path, draw(st.sampled_from(ODD_TEXT) | st.text(max_size=20)))
        elif op == "empty":
            value = put(value, path, draw(st.sampled_from([{}, [], "", 0, None])))
    return value


def serialize(draw, value) -> bytes:
    indent = draw(st.sampled_from([None, 0, 2, "\t"]))
    ascii_only = draw(st.booleans())
    text = json.dumps(value, indent=indent, ensure_ascii=ascii_only)
    return text.encode("utf-8", "surrogatepass")  # a lone surrogate becomes invalid UTF-8 bytes


@SETTINGS
@given(st.data())
def test_mutated_json_loads_as_findings(workspace, data):
    rel = data.draw(st.sampled_from(BASE_DOCUMENTS), label="document")
    original = json.loads((BASE / rel).read_text(encoding="utf-8"))
    raw = serialize(data.draw, mutate(data.draw, original))
    pack = workspace / "pack"
    with Swap(pack / rel, raw) as path:
        catalog = load_catalog([pack])
    check_findings(catalog.findings, path, raw)


@SETTINGS
@given(st.data())
def test_mutated_json_validates_as_findings(workspace, data):
    rel = data.draw(st.sampled_from(BASE_DOCUMENTS), label="document")
    original = json.loads((BASE / rel).read_text(encoding="utf-8"))
    raw = serialize(data.draw, mutate(data.draw, original))
    pack = workspace / "pack"
    with Swap(pack / rel, raw) as path:
        result = validate_paths([pack])
        alone = data.draw(st.integers(0, 3), label="also alone") == 0
        single = validate_paths([path]) if alone else result  # the document alone, checked within its pack
    check_findings(result.findings, path, raw)
    check_findings(single.findings, path, raw)
    assert result.exit_code in (0, 1, 2)
    assert {f.code for f in single.findings} <= {f.code for f in result.findings}


# --- mutations of the raw bytes -------------------------------------------------------------------

_NUMBER = re.compile(rb"(?<![\w.\"])-?\d+(?:\.\d+)?(?![\w\"])")
_KEY = re.compile(rb'"([a-z_]+)"\s*:')


def mutate_bytes(draw, data: bytes) -> bytes:
    for _ in range(draw(st.integers(1, 3))):
        op = draw(st.sampled_from(["truncate", "insert", "flip", "invalid-utf8", "bom", "constant",
                                   "duplicate-key", "delete-slice", "structural"]))
        at = draw(st.integers(0, len(data)))
        if op == "truncate":
            data = data[:at]
        elif op == "insert":
            data = data[:at] + draw(st.binary(min_size=1, max_size=8)) + data[at:]
        elif op == "flip" and data:
            i = min(at, len(data) - 1)
            data = data[:i] + bytes([data[i] ^ draw(st.integers(1, 255))]) + data[i + 1:]
        elif op == "invalid-utf8":
            data = data[:at] + draw(st.sampled_from([b"\xff", b"\xc3", b"\xe2\x82", b"\xed\xa0\x80", b"\xc0\xaf"])) \
                + data[at:]
        elif op == "bom":
            data = b"\xef\xbb\xbf" + data
        elif op == "constant":
            numbers = list(_NUMBER.finditer(data))
            if numbers:
                m = numbers[draw(st.integers(0, len(numbers) - 1))]
                data = data[:m.start()] + draw(st.sampled_from([b"NaN", b"Infinity", b"-Infinity"])) + data[m.end():]
        elif op == "duplicate-key":
            keys = list(_KEY.finditer(data))
            if keys:
                m = keys[draw(st.integers(0, len(keys) - 1))]
                brace = data.rfind(b"{", 0, m.start())
                if brace >= 0:
                    data = data[:brace + 1] + b'"' + m.group(1) + b'": 0, ' + data[brace + 1:]
        elif op == "delete-slice":
            end = draw(st.integers(at, min(len(data), at + 40)))
            data = data[:at] + data[end:]
        elif op == "structural":
            data = data[:at] + draw(st.sampled_from([b"{", b"}", b"[", b"]", b",", b":", b'"', b"\\", b"\\u",
                                                     b"\\ud800", b"/*", b"\x00"])) + data[at:]
    return data


@SETTINGS
@given(st.data())
def test_mutated_bytes_load_as_findings(workspace, data):
    rel = data.draw(st.sampled_from(BASE_DOCUMENTS), label="document")
    raw = mutate_bytes(data.draw, (BASE / rel).read_bytes())
    pack = workspace / "pack"
    with Swap(pack / rel, raw) as path:
        catalog = load_catalog([pack])
    check_findings(catalog.findings, path, raw)
    doc, found = parse(str(path), raw)
    if doc is None:  # the document was refused: the catalog says why, at a place in it
        assert any(f.location.file == str(path) and f.severity == Severity.ERROR for f in catalog.findings)
        assert found and found[-1].severity == Severity.ERROR


# --- mutations of a mod's overrides (JSON Patch operations) -----------------------------------------

def pointers(value):
    return ["".join(f"/{escape(str(p))}" for p in path) for path, _ in nodes(value)]


@SETTINGS
@given(st.data())
def test_random_patches_load_as_findings(workspace, data):
    target = json.loads((BASE / "units/unit-types.json").read_text(encoding="utf-8"))["units"][0]
    paths = st.sampled_from(pointers(target) + ["/-", "/provenance/-", "/movement/x", "/nope/deeper", "",
                                                "/~2", "no-slash", "/units/0"]) | st.text(max_size=10)
    op = st.fixed_dictionaries(
        {"op": st.sampled_from(["add", "remove", "replace", "move", "copy", "test"]), "path": paths},
        optional={"from": paths, "value": scalars | st.lists(scalars, max_size=2)
                  | st.dictionaries(st.text(max_size=5), scalars, max_size=2)})
    overrides = {"kind": "overrides", "overrides": [
        {"target": {"kind": data.draw(st.sampled_from(["unit-type", "formation-card", "map", "vehicle"])),
                    "id": data.draw(st.sampled_from(["de-tank", "gb-tank", 101, "A", "nope"]))},
         "patch": data.draw(st.lists(op, min_size=1, max_size=4))}
        for _ in range(data.draw(st.integers(1, 3)))]}
    raw = json.dumps(overrides, indent=2).encode("utf-8", "surrogatepass")
    mod = workspace / "mod-clean"
    with Swap(mod / "overrides.json", raw) as path:
        catalog = load_catalog([mod], search=[workspace])
    check_findings(catalog.findings, path, raw)
    # whatever the patches did, every object left in the catalog still follows its schema
    for kind in ("unit-type", "formation-card", "map"):
        for entry in catalog.entries(kind):
            assert not list(object_validator(catalog, kind).iter_errors(entry.value)), entry.subject


@functools.lru_cache(maxsize=None)
def _validator(ref: str) -> Draft202012Validator:
    return Draft202012Validator({"$ref": ref}, registry=default_schemas().registry)


def object_validator(catalog, kind: str) -> Draft202012Validator:
    return _validator(catalog.ruleset.object_kinds()[kind].object_schema_ref(BASE_URI))


# --- zips with damaged bytes --------------------------------------------------------------------------

@pytest.fixture(scope="module")
def zipped(tmp_path_factory):
    root = tmp_path_factory.mktemp("fuzz-zip")
    zip_folder(BASE, root / "pristine.zip")
    return root


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_damaged_zip_loads_as_findings(zipped, data):
    root = zipped
    raw = bytearray((root / "pristine.zip").read_bytes())
    for _ in range(data.draw(st.integers(1, 4))):
        i = data.draw(st.integers(0, len(raw) - 1))
        if data.draw(st.booleans()):
            raw[i] ^= data.draw(st.integers(1, 255))
        else:
            del raw[i:i + data.draw(st.integers(1, 64))]
    target = root / "damaged.zip"
    target.write_bytes(bytes(raw))
    result = validate_paths([target])
    check_findings(result.findings)
    assert result.exit_code in (0, 1, 2)


# --- the parser alone -----------------------------------------------------------------------------------

@settings(max_examples=150, deadline=None)
@given(st.binary(max_size=300))
def test_parse_arbitrary_bytes(data):
    doc, findings = parse("fuzz.json", data)
    assert all(f.code in CODES and f.location.file == "fuzz.json" for f in findings)
    if doc is None:
        assert findings and findings[-1].severity == Severity.ERROR
    else:
        assert all(f.severity < Severity.ERROR for f in findings)


@settings(max_examples=150, deadline=None)
@given(st.text(max_size=200) | st.text(alphabet='{}[]":,\\ 0123456789.eE+-tfnrualsNIy\n', max_size=80))
def test_parse_arbitrary_text(text):
    data = text.encode("utf-8", "surrogatepass")
    doc, findings = parse("fuzz.json", data)
    assert all(f.code in CODES for f in findings)
    if doc is None:
        assert findings and findings[-1].severity == Severity.ERROR
        f = findings[-1]
        if f.location.line is not None:
            assert 1 <= f.location.line <= text.count("\n") + 1
    else:
        assert doc.value == json.loads(text.removeprefix("\ufeff"))
        SourceMap(text)  # never raises, whatever the text


FIRST_CHAR = {dict: "{", list: "[", str: '"', bool: "tf", type(None): "n", int: "-0123456789", float: "-0123456789"}


@settings(max_examples=150, deadline=None)
@given(json_values, st.sampled_from([None, 0, 1, 2, "\t"]), st.booleans())
def test_source_map_points_at_every_value(value, indent, ascii_only):
    """For valid JSON, the position of each pointer is where that value's text starts."""
    text = json.dumps(value, indent=indent, ensure_ascii=ascii_only)
    doc, findings = parse("v.json", text.encode("utf-8", "surrogatepass"))
    if doc is None:  # lone surrogates are refused as not UTF-8 text, huge numbers as over the limits
        assert [f.code for f in findings] in (["json-encoding"], ["limit-exceeded"])
        return
    lines = text.split("\n")
    for path, node in nodes(value):
        ptr = "".join(f"/{escape(str(p))}" for p in path)
        line, col = doc.locate(ptr)
        assert lines[line - 1][col - 1] in FIRST_CHAR[type(node)], (ptr, line, col)


@settings(max_examples=150, deadline=None)
@given(st.dictionaries(st.sampled_from(["a", "b", "c"]), st.integers(-10 ** 15, 10 ** 15), min_size=1, max_size=3),
       st.sampled_from(["a", "b", "c"]), st.integers(0, 3))
def test_duplicate_key_is_located_at_the_second_key(obj, key, depth):
    inner = json.dumps(obj)[:-1] + (", " if obj else "") + f'"{key}": 0' + "}"
    text = "[" * depth + "\n" + inner + "\n" + "]" * depth
    doc, findings = parse("d.json", text.encode())
    if key in obj:
        (f,) = findings
        assert f.code == "json-duplicate-key" and f.location.line == 2
        assert inner[f.location.column - 1:].startswith(f'"{key}": 0}}')
    else:
        assert doc is not None and not findings


# --- setups checked against their scenario -------------------------------------------------------------

@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])  # a board per example
@given(st.data())
def test_mutated_setup_checks_as_findings(workspace, data):
    """`sandtable check-setup` on a mutated setup file: a verdict and findings, never a traceback."""
    original = json.loads((BASE / "setups/skirmish-setup.json").read_text(encoding="utf-8"))
    raw = serialize(data.draw, mutate(data.draw, original))
    pack = workspace / "pack"
    out = io.StringIO()
    with Swap(pack / "setups/skirmish-setup.json", raw) as path, \
            contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        code = main(["check-setup", str(path), "--pack", str(pack), "--json"])
    assert code in (0, 1, 2)
    if code != 2 and out.getvalue().lstrip().startswith("{"):
        for f in json.loads(out.getvalue())["findings"]:
            assert f["code"] in CODES and f["file"]
