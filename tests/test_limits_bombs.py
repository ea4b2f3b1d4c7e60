"""Issue #19, class 1: resource bombs are bounded — every limit of rules/limits.py is enforced
before the work it protects and reported as a finding with file, line and pointer.

Each hostile input runs under a deadline (signal.alarm) or in a child process capped in
memory (RLIMIT_AS) with a timeout, so a regression fails here instead of hanging CI.
"""
from __future__ import annotations

import json
import os
import zipfile
from pathlib import Path

import jsonpatch
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bounded import assert_clean, deadline, run_cli
from fixture_packs import BASE, copy_base
from sandtable.rules import limits
from sandtable.rules.catalog import PatchError, apply_patch, load_catalog
from sandtable.rules.jsondoc import parse, scan
from sandtable.rules.validation import validate_paths

ESCAPED_QUOTES = b'{"kind": "unit-types", "units": "' + b'\\"' * (128 * 1024)  # 256 KB, never closed


def codes(findings):
    return [f.code for f in findings]


def write_mod(folder: Path, overrides: list, depends_on="fixture-base") -> Path:
    folder.mkdir(parents=True)
    (folder / "pack.json").write_text(json.dumps({"kind": "pack", "id": folder.name, "name": "m", "version": "1.0.0",
                                                  "ruleset": "desert-steel", "depends_on": [{"id": depends_on}]}))
    (folder / "overrides.json").write_text(json.dumps({"kind": "overrides", "overrides": overrides}, indent=1))
    return folder


# --- the source-position scanner is linear -----------------------------------------------------

def test_unterminated_string_of_escaped_quotes_is_a_syntax_finding_at_once():
    with deadline(5):  # was minutes: the scanner re-scanned from every quote
        doc, findings = parse("bomb.json", ESCAPED_QUOTES)
    assert doc is None and codes(findings) == ["json-syntax"]
    assert findings[0].location.line == 1


def test_the_bomb_in_a_zip_member_and_in_a_search_neighbour(tmp_path):
    pack = copy_base(tmp_path / "pack")
    (pack / "units/unit-types.json").write_bytes(ESCAPED_QUOTES)
    with zipfile.ZipFile(tmp_path / "bomb.zip", "w", zipfile.ZIP_DEFLATED) as zf:
        for p in sorted(pack.rglob("*.json")):
            zf.write(p, p.relative_to(pack).as_posix())
    search = tmp_path / "search"
    search.mkdir()
    (search / "neighbour").mkdir()
    (search / "neighbour/pack.json").write_bytes(b'{"kind": "pack", "id": "' + b'\\"' * (128 * 1024))
    copy_base(search / "base")
    mod = write_mod(tmp_path / "mod", [])
    with deadline(20):
        zipped = validate_paths([tmp_path / "bomb.zip"])
        searched = validate_paths([mod], search=[search])
    assert "json-syntax" in codes(zipped.findings)
    assert not searched.findings, [f.line_text() for f in searched.findings]  # the broken neighbour is not needed


@settings(max_examples=100, deadline=None)
@given(st.recursive(st.none() | st.integers(-1000, 1000) | st.text(alphabet='ab"\\[]{},', max_size=6),
                    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=3), inner, max_size=3),
                    max_leaves=20))
def test_scan_measures_depth_exactly_and_bounds_the_values(value):
    def depth(v):
        if isinstance(v, list):
            return 1 + max(map(depth, v), default=0)
        if isinstance(v, dict):
            return 1 + max(map(depth, v.values()), default=0)
        return 0

    def count(v):
        if isinstance(v, list):
            return 1 + sum(map(count, v))
        if isinstance(v, dict):
            return 1 + sum(map(count, v.values()))
        return 1

    d, n = scan(json.dumps(value))
    assert d == depth(value)
    assert n >= count(value)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(alphabet='"\\ab[]{},:', max_size=300))
def test_scan_never_fails_on_any_text(text):
    d, n = scan(text)
    assert d >= 0 and n >= 1


# --- numbers, strings, lists, values -----------------------------------------------------------

@pytest.mark.parametrize("text, pointer, why", [
    ('{"kind": "map",\n "size": ' + "9" * 4400 + "}", "/size", "4,400 digits"),
    ('{"kind": "map",\n "size_cm": {"width": 1e400}}', "/size_cm/width", "1e400"),
    ('{"kind": "map",\n "name": "' + "x" * (limits.STRING_CHARS + 1) + '"}', "/name", "characters"),
    ('{"kind": "map",\n "roads": [' + ",".join(["0"] * (limits.LIST_ITEMS + 1)) + "]}", "/roads", "items"),
])
def test_values_over_the_limits_are_findings_at_their_line(text, pointer, why):
    with deadline(10):
        doc, findings = parse("big.json", text.encode())
    assert doc is None and codes(findings) == ["limit-exceeded"]
    f = findings[0]
    assert why in f.message and f.location.line == 2
    if f.location.pointer is not None:
        assert f.location.pointer == pointer


def test_many_empty_lists_are_refused_before_parsing():
    data = b"[" + b"[]," * (limits.DOCUMENT_VALUES // 2 + 10) + b"[]]"
    with deadline(10):
        doc, findings = parse("lists.json", data)
    assert doc is None and codes(findings) == ["limit-exceeded"] and "document-values" in findings[0].message


def test_a_zip_of_many_documents_of_empty_lists_stays_small(tmp_path, monkeypatch):
    """Each member is under the per-document limit; together they pass the per-load limit
    (scaled down 50 times here to stay fast: the arithmetic is the same)."""
    monkeypatch.setattr(limits, "LOAD_VALUES", limits.LOAD_VALUES // 50)
    z = tmp_path / "lists.zip"
    member = b'{"kind": "unit-types", "units": [' + b",".join([b"[" + b"[]," * 9_999 + b"[]]"] * 3) + b"]}"
    with zipfile.ZipFile(z, "w", zipfile.ZIP_STORED) as zf:  # stored: not refused as a zip bomb first
        zf.write(BASE / "pack.json", "pack.json")
        for i in range(14):
            zf.writestr(f"units/u{i:02}.json", member)
    with deadline(20):
        found = validate_paths([z]).findings
    (f,) = [f for f in found if f.code == "limit-exceeded"]
    assert "load-values" in f.message and "!units/u" in f.location.file, f.line_text()


# --- files that are not regular files ---------------------------------------------------------------

def test_devices_fifos_and_sparse_giants_are_refused_unread(tmp_path):
    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)
    sparse = tmp_path / "sparse.json"
    with open(sparse, "wb") as fh:
        fh.truncate(6 * 1024 ** 3)  # 6 GB, no blocks on disk
    with deadline(10):
        for path, word in (("/dev/zero", "device"), (fifo, "FIFO"), (sparse, "limit")):
            result = validate_paths([path])
            (f,) = result.findings
            assert word in f.message and f.location.file == str(path), f.line_text()
    pack = copy_base(tmp_path / "pack")
    os.replace(sparse, pack / "units/big.json")
    os.mkfifo(pack / "units/pipe.json")
    with deadline(10):
        found = load_catalog([pack]).findings
    assert {(f.code, Path(f.location.file).name) for f in found} >= {("file-too-large", "big.json"),
                                                                      ("pack-link", "pipe.json")}


def test_cli_on_dev_zero_and_a_fifo_exits_2_under_a_memory_cap(tmp_path):
    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)
    result = run_cli("validate", "/dev/zero", fifo, timeout=20, memory_mb=1024)  # both in one run
    assert_clean(result, (2,))
    assert result.stdout.count("not a regular file") == 2


# --- patches: applied once, in place, within a budget; a failed test located in one pass ------------

def test_a_patch_that_copies_a_subtree_onto_itself_is_stopped(tmp_path):
    copy_base(tmp_path / "base")
    ops = [{"op": "add", "path": "/provenance/x", "value": {"a": list(range(50))}}]
    ops += [{"op": "copy", "from": "/provenance", "path": f"/provenance/c{i}"} for i in range(40)]
    mod = write_mod(tmp_path / "mod", [{"target": {"kind": "unit-type", "id": "de-tank"}, "patch": ops}])
    result = run_cli("validate", mod, "--search", tmp_path, "--json", timeout=30, memory_mb=1024)
    assert_clean(result, (1,))
    (f,) = [f for f in json.loads(result.stdout)["findings"] if f["code"] == "limit-exceeded"]
    assert "patch-values" in f["message"] and f["pointer"].startswith("/overrides/0/patch/")
    assert f["line"] > 1


def test_a_failed_test_after_thousands_of_adds_is_located_in_one_pass(tmp_path):
    n = limits.PATCH_OPS - 1
    ops = [{"op": "add", "path": "/provenance/x", "value": []}]
    ops += [{"op": "add", "path": "/provenance/x/-", "value": i} for i in range(n - 1)]
    ops += [{"op": "test", "path": "/movement", "value": 99}]
    with deadline(20):  # was quadratic: one deep copy per operation
        with pytest.raises(PatchError) as info:
            apply_patch({"movement": 5, "provenance": {}}, ops)
    assert info.value.test and info.value.index == n
    with pytest.raises(PatchError) as info:
        apply_patch({}, ops + [{"op": "test", "path": "", "value": {}}] * 2)
    assert info.value.limit and "patch-ops" in str(info.value)


OPS = st.sampled_from(["add", "remove", "replace", "copy", "move", "test"])
KEYS = st.sampled_from(["a", "b", "c"])


@settings(max_examples=100, deadline=None)
@given(st.dictionaries(KEYS, st.integers(0, 3) | st.lists(st.integers(0, 3), max_size=3), max_size=3),
       st.lists(st.tuples(OPS, KEYS, KEYS, st.integers(0, 3)), max_size=6))
def test_apply_patch_agrees_with_jsonpatch_and_never_changes_its_input(value, steps):
    ops = []
    for op, a, b, v in steps:
        item = {"op": op, "path": f"/{a}"}
        if op in ("add", "replace", "test"):
            item["value"] = v
        if op in ("copy", "move"):
            item["from"] = f"/{b}"
        ops.append(item)
    before = json.dumps(value, sort_keys=True)
    try:
        expected = jsonpatch.apply_patch(value, ops)
    except (jsonpatch.JsonPatchException, jsonpatch.JsonPointerException):
        expected = None
    try:
        got = apply_patch(value, ops)
    except PatchError:
        got = None
    assert got == expected
    assert json.dumps(value, sort_keys=True) == before


# --- counts per scenario and map sizes --------------------------------------------------------------

@pytest.mark.parametrize("rel, edit, pointer", [
    ("scenarios/skirmish.json", lambda d: d["sides"]["allied"].__setitem__(
        "transports", [{"type": "truck", "count": 1_000_000}]), "/sides/allied/transports/0/count"),
    ("scenarios/skirmish.json", lambda d: d["sides"]["axis"].__setitem__(
        "fortifications", {"minefields": {"count": 1_000_000}}), "/sides/axis/fortifications/minefields/count"),
    ("scenarios/skirmish.json", lambda d: d["sides"]["axis"].__setitem__(
        "raids", {"preplanned_bombardments": 10 ** 9}), "/sides/axis/raids/preplanned_bombardments"),
    ("maps/map-a.json", lambda d: d.__setitem__("size_cm", {"width": 1e9, "height": 50}), "/size_cm/width"),
])
def test_absurd_counts_are_refused_when_the_pack_loads(tmp_path, rel, edit, pointer):
    pack = copy_base(tmp_path / "pack")
    doc = json.loads((pack / rel).read_text())
    edit(doc)
    (pack / rel).write_text(json.dumps(doc, indent=2))
    catalog = load_catalog([pack])
    hits = [f for f in catalog.findings if f.code == "limit-exceeded"]
    assert [f.location.pointer for f in hits] == [pointer], [f.line_text() for f in catalog.findings]
    assert hits[0].location.line > 1 and hits[0].location.file == str(pack / rel)


def test_an_override_cannot_raise_a_count_past_its_limit(tmp_path):
    copy_base(tmp_path / "base")
    mod = write_mod(tmp_path / "mod", [{"target": {"kind": "scenario", "id": "skirmish"}, "patch": [
        {"op": "add", "path": "/sides/allied/smoke", "value": 10 ** 9}]}])
    found = load_catalog([mod], search=[tmp_path]).findings
    (f,) = [f for f in found if f.code == "limit-exceeded"]
    assert "smoke-count" in f.message and f.location.pointer == "/overrides/0/patch"


def test_every_limit_is_documented():
    text = (Path(__file__).resolve().parents[1] / "docs/limits.md").read_text(encoding="utf-8")
    for key, lim in limits.LIMITS.items():
        assert f"`{key}`" in text, f"docs/limits.md does not describe {key}"
    from sandtable.rules import rulesets
    for name in ("desert-steel", "holland44", "miniatures"):  # each ruleset declares its count limits
        for rule in rulesets.get(name).limits:
            assert rule.limit in limits.LIMITS


def test_the_editor_applies_a_mods_overrides_with_the_same_bounded_patch():
    """editor/workspace.py re-applies a mod's overrides when saving over it (found by QA: it used
    plain jsonpatch, so a copy bomb in an existing mod's overrides.json took gigabytes there)."""
    from editor.workspace import _apply_items
    bomb = [{"op": "add", "path": "/x", "value": [list(range(100))]}] + \
        [{"op": "copy", "from": "/x", "path": "/x/-"} for _ in range(40)]
    with deadline(20):
        assert _apply_items({"id": "t"}, [{"patch": bomb}]) is None
    assert _apply_items({"id": "t", "m": 4}, [{"patch": [{"op": "replace", "path": "/m", "value": 5}]}]) == {"id": "t", "m": 5}
