"""Every finding code is produced by some bad input, with its severity, a clear message, the file,
and (inside a JSON document) the exact line, column and JSON pointer — never by a traceback.

The cases come from ``tests/fixtures`` (see ``fixture_packs``): variants of a small valid pack
that break one thing each, mod packs over it, and zips built here at run time. The last
tests check that these cases together produce every code of ``CODES``: a new code without a
fixture fails the suite.
"""
from __future__ import annotations

import json
import os
import shutil
import struct
import warnings
import zipfile
from pathlib import Path
from typing import Callable

import pytest

from fixture_packs import (BASE, FIXTURES, MODS, SYMLINK_MODE, VARIANTS, add_member, copy_base, variant,
                           zip_folder)
from ruleset_variants import RUNTIME_CASES
from sandtable.cli import main
from sandtable.rules import jsondoc, packsource
from sandtable.rules.catalog import load_catalog
from sandtable.rules.findings import CODES, Finding, Severity
from sandtable.rules.schemas import SchemaSet, schema_root
from sandtable.rules.validation import validate_paths

WARNING_CODES = {c for c, spec in CODES.items() if spec.severity == Severity.WARNING}


def text_at(path: Path, line: int, column: int) -> str:
    """The text of a file from (line, column), both 1-based, to the end of that line."""
    lines = path.read_bytes().decode("utf-8", "replace").split("\n")
    return lines[line - 1][column - 1:]


def the(findings: list[Finding], code: str, file: str | Path, pointer: str | None = "any") -> Finding:
    """The one finding of this code about this file (and pointer); fails with the list otherwise."""
    hits = [f for f in findings if f.code == code and f.location.file == str(file)
            and (pointer == "any" or f.location.pointer == pointer)]
    listing = "\n".join(f.line_text() for f in findings)
    assert len(hits) == 1, f"expected one {code} in {file} at {pointer}, got:\n{listing}"
    return hits[0]


def check_shape(f: Finding) -> None:
    """What every finding must carry: a known code at its severity, a message, a file."""
    assert f.code in CODES
    assert f.severity == CODES[f.code].severity
    assert f.message and f.message.strip() == f.message and "Traceback" not in f.message
    assert f.location.file
    line = f.line_text()
    assert f" {f.severity} {f.code} {f.message}" in line
    assert json.loads(json.dumps(f.to_json()))["code"] == f.code


# --- variants of the base pack: one broken thing each ------------------------------------

# variant, code, file in the pack, line, column, pointer, what the file holds at (line, column)
VARIANT_CASES = [
    ("json-syntax", "json-syntax", "units/unit-types.json", 47, 3, None, "]"),
    ("json-encoding", "json-encoding", "cards/raid-cards.json", 6, 38, None, "\ufffd87"),
    ("json-bom", "json-bom", "tables/rule-tables.json", 1, 1, None, None),
    ("json-constant", "json-constant", "tables/rule-tables.json", 19, 27, None, "NaN,"),
    ("json-duplicate-key", "json-duplicate-key", "scenarios/skirmish.json", 12, 5, None, '"turns": 8,'),
    ("json-too-deep", "json-too-deep", "extras/deep.json", 1, 1, None, '{"kind"'),
    ("not-data", "not-data", "scripts/install.sh", None, None, None, None),
    ("unknown-kind", "unknown-kind", "extras/mystery.json", 2, 11, "/kind", '"mystery"'),
    ("unknown-kind-missing", "unknown-kind", "extras/list.json", 1, 1, None, "["),
    ("unknown-kind-ruleset", "unknown-kind", "pack.json", 6, 14, "/ruleset", '"chess"'),
    ("schema-unknown-field", "schema", "units/unit-types.json", 10, 7, "/units/0/armour", '"armour": 7'),
    ("schema-wrong-type", "schema", "units/unit-types.json", 40, 18, "/units/2/defense", '"thick"'),
    ("schema-missing", "schema", "cards/formation-cards.json", 44, 5, "/cards/2", "{"),
    ("duplicate-id", "duplicate-id", "units/unit-types.json", 48, 13, "/units/3/id", '"gb-tank"'),
    ("unknown-reference", "unknown-reference", "cards/formation-cards.json", 13, 30,
     "/cards/0/variants/1941/units/0/type", '"de-panther"'),
    ("card-year-missing", "card-year-missing", "scenarios/skirmish.json", 20, 20,
     "/sides/allied/formations/0/cards/0", "201]"),
    ("card-year-outside-dates", "card-year-outside-dates", "cards/formation-cards.json", 52, 17,
     "/cards/2/variants/1942", "{"),
    ("card-year-outside-dates-scenario", "card-year-outside-dates", "scenarios/skirmish.json", 26, 20,
     "/sides/axis/formations/0/cards/0", "101]"),
    ("card-side-mismatch", "card-side-mismatch", "cards/formation-cards.json", 71, 29,
     "/cards/3/subordinates/1", "101]"),
    ("card-wrong-kind", "card-wrong-kind", "cards/formation-cards.json", 38, 29, "/cards/1/subordinates/1", "200]"),
    ("card-number-in-use", "card-number-in-use", "cards/formation-cards.json", 48, 30,
     "/cards/2/aliases/0/number", "101,"),
    ("scenario-unplayable", "scenario-unplayable", "scenarios/skirmish.json", 26, 20,
     "/sides/axis/formations/0/cards/0", "101]"),
    ("scenario-side-mismatch", "scenario-side-mismatch", "scenarios/skirmish.json", 20, 25,
     "/sides/allied/formations/0/cards/1", "101]"),
    ("hex-unknown", "hex-unknown", "maps/map-a.json", 15, 13, "/hexes/0907", '{"colour": "tan"}'),
    ("hex-unknown-setup", "hex-unknown", "setups/skirmish-setup.json", 15, 49,
     "/sides/allied/placements/0/hex", '"0609"'),
    ("road-gap", "road-gap", "maps/map-a.json", 18, 48, "/roads/0/hexes/2", '"0401"'),
    ("map-configuration-invalid", "map-configuration-invalid", "maps/map-configurations.json", 14, 26,
     "/configurations/1/layout/1/0", '"A"]]'),
    ("provenance-missing", "provenance-missing", "units/unit-types.json", 42, 21, "/units/2/provenance", "{"),
    ("provenance-pointer", "provenance-pointer", "cards/raid-cards.json", 10, 30,
     "/cards/0/provenance/~1air_strike~1speed", '{"source": "rulebook"'),
    ("table-gap", "table-gap", "tables/rule-tables.json", 10, 9, "/combat_results/columns/vehicle/2",
     '{"min": 15'),
]

# Other findings a variant may cause downstream (an unreadable document leaves references dangling).
CASCADE = {"unknown-reference"}


def test_every_variant_has_a_case():
    assert sorted(p.name for p in VARIANTS.iterdir()) == sorted(c[0] for c in VARIANT_CASES)


def test_base_pack_is_valid_and_clean(tmp_path):
    result = validate_paths([BASE])
    assert [f.line_text() for f in result.findings] == []
    assert result.exit_code == 0
    assert result.packs == ["fixture-base 1.0.0"]
    catalog = load_catalog([BASE])
    assert {kind: len(t) for kind, t in catalog.objects.items()} == {
        "unit-type": 3, "formation-card": 4, "raid-card": 1, "map": 1, "map-configuration": 1,
        "terrain-effects": 1, "rule-tables": 1, "scenario": 1, "setup": 1}


@pytest.mark.parametrize("name, code, rel, line, column, pointer, text", VARIANT_CASES,
                         ids=[c[0] for c in VARIANT_CASES])
def test_variant(tmp_path, name, code, rel, line, column, pointer, text):
    pack = variant(name, tmp_path / "pack")
    result = validate_paths([pack])
    file = pack / rel
    f = the(result.findings, code, file, pointer)
    check_shape(f)
    assert (f.location.line, f.location.column) == (line, column)
    if text is not None:
        assert text_at(file, line, column).startswith(text)
    if line is not None:
        assert f.line_text().startswith(f"{file}:{line}:{column}: {f.severity} {code} ")
    else:
        assert f.line_text().startswith(f"{file}: {f.severity} {code} ")
    for other in result.findings:
        check_shape(other)
        assert other.code in {code} | CASCADE, other.line_text()
    assert result.exit_code == (0 if code in WARNING_CODES else 1)


def test_json_bom_is_read_anyway(tmp_path):
    pack = variant("json-bom", tmp_path / "pack")
    catalog = load_catalog([pack])
    assert [f.code for f in catalog.findings] == ["json-bom"]
    assert catalog.get("rule-tables", "rule-tables") is not None


def test_not_data_is_never_run(tmp_path):
    pack = variant("not-data", tmp_path / "pack")
    catalog = load_catalog([pack])
    assert all("install.sh" not in d.path for p in catalog.packs for d in p.documents)


# --- mod packs over the base --------------------------------------------------------------

# mods loaded (in that order), code, file under tests/fixtures/mods, line, column, pointer, text there
MOD_CASES = [
    (["mod-target-missing"], "override-target-missing", "mod-target-missing/overrides.json", 5, 17,
     "/overrides/0/target", "{"),
    (["mod-conflict-a", "mod-conflict-b"], "override-conflict", "mod-conflict-b/overrides.json", 5, 17,
     "/overrides/0/target", "{"),
    (["mod-stale"], "override-stale", "mod-stale/overrides.json", 11, 9, "/overrides/0/patch/0", "{"),
    (["mod-patch"], "override-patch", "mod-patch/overrides.json", 9, 16, "/overrides/0/patch", "["),
    (["mod-invalid"], "override-invalid", "mod-invalid/overrides.json", 9, 16, "/overrides/0/patch", "["),
    (["mod-duplicate"], "duplicate-id", "mod-duplicate/units.json", 5, 13, "/units/0/id", '"de-tank"'),
    (["mod-unknown-kind"], "unknown-kind", "mod-unknown-kind/overrides.json", 6, 17, "/overrides/0/target/kind",
     '"vehicle"'),
    (["mod-dependency-missing"], "pack-dependency-missing", "mod-dependency-missing/pack.json", 12, 5,
     "/depends_on/1", '{'),
    (["mod-dependency-version"], "pack-dependency-version", "mod-dependency-version/pack.json", 10, 18,
     "/depends_on/0/version", '">=2.0"'),
    (["mod-cycle-a"], "pack-dependency-cycle", "mod-cycle-a/pack.json", 7, 17, "/depends_on", "["),
    (["mod-ruleset"], "pack-ruleset-mismatch", "mod-ruleset/pack.json", 6, 14, "/ruleset", '"other-game"'),
]


@pytest.mark.parametrize("mods, code, rel, line, column, pointer, text", MOD_CASES, ids=[c[1] for c in MOD_CASES])
def test_mod(mods, code, rel, line, column, pointer, text):
    catalog = load_catalog([MODS / m for m in mods], search=[FIXTURES, MODS])
    file = MODS / rel
    f = the(catalog.findings, code, file, pointer)
    check_shape(f)
    assert (f.location.line, f.location.column) == (line, column)
    assert text_at(file, line, column).startswith(text)
    assert [g.code for g in catalog.findings] == [code], [g.line_text() for g in catalog.findings]


def test_every_mod_has_a_case():
    used = {m for c in MOD_CASES for m in c[0]} | {"mod-clean", "mod-cycle-b"}
    assert sorted(p.name for p in MODS.iterdir()) == sorted(used)


def test_clean_mod_adds_replaces_patches_and_removes():
    catalog = load_catalog([MODS / "mod-clean"], search=[FIXTURES])
    assert [f.line_text() for f in catalog.findings] == []
    assert [p.id for p in catalog.packs] == ["fixture-base", "mod-clean"]
    assert catalog.get("unit-type", "gb-tank").value["movement"] == 7
    assert catalog.get("unit-type", "de-tank").value["movement"] == 6
    assert catalog.get("formation-card", 101).value["variants"]["1942"]["morale"] == 10
    assert catalog.get("raid-card", "S1") is None
    assert catalog.get("unit-type", "it-tank") is not None


def test_later_mod_wins_a_conflict():
    catalog = load_catalog([MODS / "mod-conflict-b", MODS / "mod-conflict-a"], search=[FIXTURES])
    assert catalog.get("unit-type", "gb-tank").value["movement"] == 8  # b loads after a (by id)
    assert catalog.packs[-1].conflicts


def test_stale_override_names_the_failed_test():
    catalog = load_catalog([MODS / "mod-stale"], search=[FIXTURES])
    (f,) = catalog.findings
    assert "9" in f.message and "fixture-base" in f.message and f.subject == "unit-type de-tank"
    assert catalog.get("unit-type", "de-tank").value["movement"] == 5  # left as the base has it


# --- cases built at run time ---------------------------------------------------------------

def _file_missing(tmp: Path) -> list[Finding]:
    result = validate_paths([tmp / "no-such-pack"])
    assert result.exit_code == 2
    return result.findings


def _member_offset(zip_path: Path, name: str) -> int:
    """Offset of a member's data in the archive (after its local header)."""
    data = zip_path.read_bytes()
    with zipfile.ZipFile(zip_path) as zf:
        header = zf.getinfo(name).header_offset
    name_len, extra_len = struct.unpack("<HH", data[header + 26:header + 30])
    return header + 30 + name_len + extra_len


def _file_unreadable(tmp: Path) -> list[Finding]:
    z = zip_folder(BASE, tmp / "crc.zip", compression=zipfile.ZIP_STORED)
    data = bytearray(z.read_bytes())
    data[_member_offset(z, "units/unit-types.json") + 5] ^= 0x01  # the CRC no longer matches
    z.write_bytes(bytes(data))
    return load_catalog([z]).findings


def _file_too_large(tmp: Path) -> list[Finding]:
    pack = copy_base(tmp / "pack")
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(packsource, "MAX_BYTES", 1000)
        return load_catalog([pack]).findings


def _file_too_large_parse(tmp: Path) -> list[Finding]:
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(jsondoc, "MAX_BYTES", 10)
        doc, found = jsondoc.parse("big.json", b'{"kind": "map", "id": "A"}')
    assert doc is None
    return found


def _broken_schemas(tmp: Path) -> Path:
    root = tmp / "schemas"
    shutil.copytree(schema_root(), root, ignore=shutil.ignore_patterns("*.py", "__pycache__"))
    m = root / "desert-steel/map.schema.json"
    m.write_text(m.read_text(encoding="utf-8").replace('"type": "object",', '"type": 5,', 1), encoding="utf-8")
    r = root / "desert-steel/rule-tables.schema.json"
    r.write_text(r.read_text(encoding="utf-8").replace("rule-tables.schema.json", "tables.schema.json", 1),
                 encoding="utf-8")
    (root / "desert-steel/setup.schema.json").write_text("{ not json", encoding="utf-8")
    return root


def _schema_broken(tmp: Path) -> list[Finding]:
    schemas = SchemaSet.load(_broken_schemas(tmp))
    return load_catalog([BASE], schemas=schemas).findings


def _pack_manifest_missing(tmp: Path) -> list[Finding]:
    pack = copy_base(tmp / "pack")
    (pack / "pack.json").unlink()
    result = validate_paths([pack])
    assert result.exit_code == 2
    return result.findings


def _pack_duplicate(tmp: Path) -> list[Finding]:
    return load_catalog([copy_base(tmp / "a"), copy_base(tmp / "b")]).findings


def _pack_link_folder(tmp: Path) -> list[Finding]:
    pack = copy_base(tmp / "pack")
    (pack / "extras").mkdir()
    os.symlink("/etc/passwd", pack / "extras/passwd.json")
    os.symlink(pack / "units", pack / "linked-units", target_is_directory=True)
    os.mkfifo(pack / "extras/pipe.json")  # would block forever if it were read
    return load_catalog([pack]).findings


def _pack_link_zip(tmp: Path) -> list[Finding]:
    z = zip_folder(BASE, tmp / "link.zip")
    add_member(z, "extras/passwd.json", b"/etc/passwd", mode=SYMLINK_MODE)
    return load_catalog([z]).findings


def _zip_corrupt(tmp: Path) -> list[Finding]:
    z = tmp / "garbage.zip"
    z.write_bytes(b"PK\x03\x04 this is not really a zip archive")
    result = validate_paths([z])
    assert result.exit_code == 2
    return result.findings


def _zip_corrupt_directory(tmp: Path) -> list[Finding]:
    """The end record is there (so it looks like a zip), the central directory is garbage."""
    z = zip_folder(BASE, tmp / "cd.zip")
    data = bytearray(z.read_bytes())
    start = data.rfind(b"PK\x01\x02", 0, len(data) - 22)
    data[start:start + 4] = b"XXXX"
    z.write_bytes(bytes(data))
    return load_catalog([z]).findings


def _zip_unsafe_path(tmp: Path) -> list[Finding]:
    z = zip_folder(BASE, tmp / "unsafe.zip")
    for name in ("../evil.json", "/etc/x.json", "C:\\x.json", "units/../../up.json"):
        add_member(z, name, b'{"kind": "setup"}')
    return load_catalog([z]).findings


def _zip_duplicate(tmp: Path) -> list[Finding]:
    z = zip_folder(BASE, tmp / "dup.zip")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # zipfile warns "Duplicate name" while writing it
        add_member(z, "units/unit-types.json", b'{"kind": "unit-types", "units": []}')
    return load_catalog([z]).findings


def _zip_too_many(tmp: Path) -> list[Finding]:
    z = zip_folder(BASE, tmp / "many.zip")
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(packsource, "MAX_MEMBERS", 5)
        return load_catalog([z]).findings


def _zip_too_large_member(tmp: Path) -> list[Finding]:
    z = zip_folder(BASE, tmp / "large.zip")
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(packsource, "MAX_BYTES", 1500)  # pack.json is smaller, formation-cards.json larger
        return load_catalog([z]).findings


def _zip_too_large_total(tmp: Path) -> list[Finding]:
    z = zip_folder(BASE, tmp / "total.zip")
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(packsource, "MAX_TOTAL_BYTES", 3000)
        return load_catalog([z]).findings


def _zip_bomb(tmp: Path) -> list[Finding]:
    z = zip_folder(BASE, tmp / "bomb.zip")
    add_member(z, "padding.json", b"[" + b" " * 200_000 + b"]")  # deflates about 500:1
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(packsource, "RATIO_FLOOR", 10_000)
        mp.setattr(packsource, "MAX_RATIO", 50)
        return load_catalog([z]).findings


RUNTIME: dict[str, Callable[[Path], list[Finding]]] = {
    "file-missing": _file_missing,
    "file-unreadable": _file_unreadable,
    "file-too-large": _file_too_large,
    "file-too-large-parse": _file_too_large_parse,
    "schema-broken": _schema_broken,
    "pack-manifest-missing": _pack_manifest_missing,
    "pack-duplicate": _pack_duplicate,
    "pack-link-folder": _pack_link_folder,
    "pack-link-zip": _pack_link_zip,
    "zip-corrupt": _zip_corrupt,
    "zip-corrupt-directory": _zip_corrupt_directory,
    "zip-unsafe-path": _zip_unsafe_path,
    "zip-duplicate": _zip_duplicate,
    "zip-too-many": _zip_too_many,
    "zip-too-large-member": _zip_too_large_member,
    "zip-too-large-total": _zip_too_large_total,
    "zip-bomb": _zip_bomb,
}
RUNTIME.update(RUNTIME_CASES)  # Holland '44 and miniatures: a broken sample pack per code
from export_helpers import PRINT_RUNTIME_CASES  # noqa: E402
RUNTIME.update(PRINT_RUNTIME_CASES)  # print-text-too-small, from the print-kit tests
from limits_cases import LIMIT_RUNTIME_CASES  # noqa: E402
RUNTIME.update(LIMIT_RUNTIME_CASES)  # limit-exceeded, pack-shadowed (issue #19)


def test_file_missing(tmp_path):
    f = the(RUNTIME["file-missing"](tmp_path), "file-missing", tmp_path / "no-such-pack")
    check_shape(f)
    assert f.location.line is None and f.location.pointer is None
    assert f.line_text() == f"{tmp_path / 'no-such-pack'}: error file-missing {f.message}"


def test_file_unreadable_bad_crc(tmp_path):
    findings = RUNTIME["file-unreadable"](tmp_path)
    f = the(findings, "file-unreadable", f"{tmp_path / 'crc.zip'}!units/unit-types.json")
    check_shape(f)
    assert "CRC" in f.message


def test_file_too_large(tmp_path):
    findings = RUNTIME["file-too-large"](tmp_path)
    f = the(findings, "file-too-large", tmp_path / "pack/units/unit-types.json")
    check_shape(f)
    assert "1,000-byte limit" in f.message
    (g,) = RUNTIME["file-too-large-parse"](tmp_path)
    assert (g.code, g.location.file) == ("file-too-large", "big.json")


def test_schema_broken(tmp_path):
    findings = RUNTIME["schema-broken"](tmp_path)
    root = tmp_path / "schemas/desert-steel"
    meta = the(findings, "schema-broken", root / "map.schema.json")
    assert meta.location.pointer == "/type" and "not a valid JSON Schema" in meta.message
    wrong_id = the(findings, "schema-broken", root / "rule-tables.schema.json")
    assert wrong_id.location.pointer == "/$id"
    unreadable = the(findings, "schema-broken", root / "setup.schema.json")
    assert "cannot read schema" in unreadable.message
    unchecked = the(findings, "schema-broken", BASE / "maps/map-a.json")
    assert "was not checked" in unchecked.message
    for f in findings:
        check_shape(f)


def test_pack_manifest_missing(tmp_path):
    f = the(RUNTIME["pack-manifest-missing"](tmp_path), "pack-manifest-missing", tmp_path / "pack")
    check_shape(f)
    assert "pack.json" in f.message


def test_empty_zip_has_no_manifest(tmp_path):
    z = tmp_path / "empty.zip"
    zipfile.ZipFile(z, "w").close()
    result = validate_paths([z])
    the(result.findings, "pack-manifest-missing", z)
    assert result.exit_code == 2


def test_pack_duplicate(tmp_path):
    findings = RUNTIME["pack-duplicate"](tmp_path)
    f = the(findings, "pack-duplicate", tmp_path / "b/pack.json", "/id")
    check_shape(f)
    assert (f.location.line, f.location.column) == (3, 9)
    assert str(tmp_path / "a") in f.message


def test_pack_link_in_a_folder(tmp_path):
    findings = RUNTIME["pack-link-folder"](tmp_path)
    pack = tmp_path / "pack"
    for rel in ("extras/passwd.json", "linked-units", "extras/pipe.json"):
        check_shape(the(findings, "pack-link", pack / rel))
    assert not any("linked-units/" in f.location.file for f in findings)  # not followed


def test_pack_link_in_a_zip(tmp_path):
    findings = RUNTIME["pack-link-zip"](tmp_path)
    check_shape(the(findings, "pack-link", f"{tmp_path / 'link.zip'}!extras/passwd.json"))


@pytest.mark.parametrize("case", ["zip-corrupt", "zip-corrupt-directory"])
def test_zip_corrupt(tmp_path, case):
    findings = RUNTIME[case](tmp_path)
    (f,) = [f for f in findings if f.code == "zip-corrupt"]
    check_shape(f)
    assert f.location.file.startswith(str(tmp_path)) and f.location.file.endswith(".zip")


def test_zip_unsafe_paths(tmp_path):
    findings = RUNTIME["zip-unsafe-path"](tmp_path)
    z = tmp_path / "unsafe.zip"
    for name in ("../evil.json", "/etc/x.json", "C:\\x.json", "units/../../up.json"):
        f = the(findings, "zip-unsafe-path", f"{z}!{name}")
        check_shape(f)
        assert repr(name) in f.message
    assert not (tmp_path / "evil.json").exists() and not (tmp_path.parent / "up.json").exists()
    assert {f.code for f in findings} == {"zip-unsafe-path"}  # the rest of the pack still loads


def test_zip_duplicate(tmp_path):
    f = the(RUNTIME["zip-duplicate"](tmp_path), "zip-duplicate", f"{tmp_path / 'dup.zip'}!units/unit-types.json")
    check_shape(f)


def test_zip_too_many(tmp_path):
    f = the(RUNTIME["zip-too-many"](tmp_path), "zip-too-many", tmp_path / "many.zip")
    check_shape(f)
    assert "the limit is 5" in f.message


def test_zip_too_large(tmp_path):
    member = the(RUNTIME["zip-too-large-member"](tmp_path), "zip-too-large",
                 f"{tmp_path / 'large.zip'}!cards/formation-cards.json")
    check_shape(member)
    total = the(RUNTIME["zip-too-large-total"](tmp_path), "zip-too-large", tmp_path / "total.zip")
    check_shape(total)
    assert "3,000 bytes" in total.message


def test_zip_bomb(tmp_path):
    f = the(RUNTIME["zip-bomb"](tmp_path), "zip-bomb", f"{tmp_path / 'bomb.zip'}!padding.json")
    check_shape(f)
    assert ":1" in f.message


@pytest.mark.parametrize("prefix", ["", "fixture-base/"], ids=["flat", "top-level-folder"])
def test_clean_zip_validates(tmp_path, prefix):
    z = zip_folder(BASE, tmp_path / "fixture-base.zip", prefix=prefix)
    result = validate_paths([z])
    assert [f.line_text() for f in result.findings] == []
    assert result.exit_code == 0 and result.packs == ["fixture-base 1.0.0"]


def test_zip_with_corrupt_compressed_data(tmp_path):
    z = zip_folder(BASE, tmp_path / "inflate.zip")
    data = bytearray(z.read_bytes())
    start = _member_offset(z, "units/unit-types.json")
    for i in range(start, start + 40):
        data[i] ^= 0x55
    z.write_bytes(bytes(data))
    findings = load_catalog([z]).findings
    check_shape(the(findings, "file-unreadable", f"{z}!units/unit-types.json"))


# --- setups, checked against their scenario by `sandtable check-setup` -------------------------

SETUP_VARIANTS = FIXTURES / "setup-variants"

# variant (= the code it produces), line, column, pointer in setups/skirmish-setup.json, text there
SETUP_CASES = [
    ("board-invalid", 4, 15, "/scenario", '"skirmish"'),
    ("zone-invalid", 15, 18, "/sides/allied/placements/0/card", "201,"),
    ("setup-hex", 17, 49, "/sides/allied/placements/2/hex", '"0409"'),
    ("setup-zone", 17, 49, "/sides/allied/placements/2/hex", '"0403"'),
    ("setup-formation", 17, 18, "/sides/allied/placements/2/card", "200,"),
    ("setup-units", 14, 21, "/sides/allied/placements", "["),
    ("setup-stacking", 15, 49, "/sides/allied/placements/0/hex", '"0605"'),
    ("setup-separated", 15, 49, "/sides/allied/placements/0/hex", '"0605"'),
    ("setup-hidden", 17, 80, "/sides/allied/placements/2/hidden", "true"),
    ("setup-fortification", 12, 22, "/sides/axis/minefields/0", '"0303"'),
    ("setup-obstacle", 16, 49, "/sides/allied/placements/0/hex", '"0605"'),
    ("setup-transport", 19, 31, "/sides/allied/transports/0/type", '"gb-tank"'),
    ("setup-special-rule", 15, 49, "/sides/allied/placements/0/hex", '"0605"'),
    ("setup-unplayable", 5, 12, "/sides", "{"),
]


def check_setup_findings(capsys, pack: Path) -> tuple[int, list[dict]]:
    """`sandtable check-setup --json` on the pack's setup file: exit code and findings."""
    capsys.readouterr()
    code = main(["check-setup", str(pack / "setups/skirmish-setup.json"), "--pack", str(pack), "--json"])
    out, _ = capsys.readouterr()
    return code, json.loads(out)["findings"]


def test_every_setup_variant_has_a_case():
    assert sorted(p.name for p in SETUP_VARIANTS.iterdir()) == sorted(c[0] for c in SETUP_CASES)


def test_base_setup_is_legal(capsys):
    assert check_setup_findings(capsys, BASE) == (0, [])


@pytest.mark.parametrize("name, line, column, pointer, text", SETUP_CASES, ids=[c[0] for c in SETUP_CASES])
def test_setup_variant(tmp_path, capsys, name, line, column, pointer, text):
    pack = copy_base(tmp_path / "pack")
    shutil.copytree(SETUP_VARIANTS / name, pack, dirs_exist_ok=True)
    code, findings = check_setup_findings(capsys, pack)
    file = pack / "setups/skirmish-setup.json"
    hits = [f for f in findings if f["code"] == name and f["pointer"] == pointer]
    assert len(hits) == 1, findings
    (f,) = hits
    assert f["severity"] == str(CODES[name].severity) and f["message"]
    assert (f["file"], f["line"], f["column"]) == (str(file), line, column)
    assert text_at(file, line, column).startswith(text)
    assert f["subject"] == "setup skirmish-setup"
    assert code == 1


# --- every code is covered ------------------------------------------------------------------

def test_every_code_is_produced_by_some_fixture(tmp_path, capsys):
    produced: dict[str, str] = {}
    for name, *_ in SETUP_CASES:
        pack = copy_base(tmp_path / "s" / name)
        shutil.copytree(SETUP_VARIANTS / name, pack, dirs_exist_ok=True)
        for f in check_setup_findings(capsys, pack)[1]:
            produced.setdefault(f["code"], name)
    for case in VARIANT_CASES:
        name = case[0]
        for f in validate_paths([variant(name, tmp_path / "v" / name)]).findings:
            produced.setdefault(f.code, name)
    for mods, *_ in MOD_CASES:
        for f in load_catalog([MODS / m for m in mods], search=[FIXTURES, MODS]).findings:
            produced.setdefault(f.code, "+".join(mods))
    for name, produce in RUNTIME.items():
        (tmp_path / "r" / name).mkdir(parents=True)
        for f in produce(tmp_path / "r" / name):
            produced.setdefault(f.code, name)
    missing = sorted(set(CODES) - set(produced))
    assert not missing, f"finding codes no fixture produces: {missing}"
    assert set(produced) == set(CODES)


def test_the_code_list_is_well_formed():
    for code, spec in CODES.items():
        assert spec.code == code and code == code.lower() and " " not in code
        assert spec.summary.endswith(".")
    with pytest.raises(ValueError):
        Finding("no-such-code", "x")


# --- the command line --------------------------------------------------------------------------

def _run(capsys, *argv) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_cli_clean_pack_exits_0(capsys):
    code, out, _ = _run(capsys, "validate", BASE)
    assert code == 0
    assert out.splitlines() == ["OK: 10 file(s) checked, 0 error(s), 0 warning(s)"]


def test_cli_warnings_only_exit_0(tmp_path, capsys):
    pack = variant("json-bom", tmp_path / "pack")
    code, out, _ = _run(capsys, "validate", pack)
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == f"{pack / 'tables/rule-tables.json'}:1:1: warning json-bom starts with a UTF-8 byte-order mark"
    assert lines[-1] == "OK: 10 file(s) checked, 0 error(s), 1 warning(s)"


def test_cli_errors_exit_1_with_compiler_style_lines(tmp_path, capsys):
    pack = variant("unknown-reference", tmp_path / "pack")
    code, out, _ = _run(capsys, "validate", pack)
    assert code == 1
    lines = out.splitlines()
    file = pack / "cards/formation-cards.json"
    assert lines[0] == (f"{file}:13:30: error unknown-reference unit type 'de-panther' does not exist "
                        f"(formation-card 101) at /cards/0/variants/1941/units/0/type")
    assert lines[-1] == "FAILED: 10 file(s) checked, 1 error(s), 0 warning(s)"


def test_cli_quiet_prints_errors_only(tmp_path, capsys):
    pack = variant("json-bom", tmp_path / "pack")
    shutil.copytree(VARIANTS / "table-gap", pack, dirs_exist_ok=True)
    (pack / "tables/rule-tables.json").write_bytes(b"\xef\xbb\xbf" + (pack / "tables/rule-tables.json").read_bytes())
    code, out, _ = _run(capsys, "validate", "-q", pack)
    assert code == 1
    lines = out.splitlines()
    assert [ln.split(": ")[1].split(" ")[:2] for ln in lines[:-1]] == [["error", "table-gap"]]
    assert lines[-1] == "FAILED: 10 file(s) checked, 1 error(s), 1 warning(s)"


def test_cli_json_output(tmp_path, capsys):
    pack = variant("road-gap", tmp_path / "pack")
    code, out, _ = _run(capsys, "validate", "--format", "json", pack)
    assert code == 1
    report = json.loads(out)
    assert (report["files"], report["errors"], report["warnings"]) == (10, 1, 0)
    assert report["packs"] == ["fixture-base 1.0.0"]
    (f,) = report["findings"]
    assert {"code", "severity", "message", "file", "line", "column", "pointer"} <= set(f)
    assert f["code"] == "road-gap" and f["severity"] == "error"
    assert f["file"] == str(pack / "maps/map-a.json")
    assert (f["line"], f["column"], f["pointer"]) == (18, 48, "/roads/0/hexes/2")
    assert f["message"] == "0201 and 0401 are not adjacent"


def test_cli_json_clean(capsys):
    code, out, _ = _run(capsys, "validate", "--json", BASE)
    assert code == 0
    assert json.loads(out)["findings"] == []


def test_cli_missing_path_exits_2(tmp_path, capsys):
    missing = tmp_path / "nowhere"
    code, out, _ = _run(capsys, "validate", missing)
    assert code == 2
    assert f"{missing}: error file-missing no such file or folder" in out.splitlines()
    assert out.splitlines()[-1].startswith("FAILED: ")


def test_cli_corrupt_zip_exits_2(tmp_path, capsys):
    z = tmp_path / "broken.zip"
    z.write_bytes(b"not a zip")
    code, out, _ = _run(capsys, "validate", "--json", z)
    assert code == 2
    assert [f["code"] for f in json.loads(out)["findings"]] == ["zip-corrupt"]


@pytest.mark.parametrize("argv", [["validate", "--no-such-option"], ["validate", "--format", "xml"],
                                  ["no-such-command"]])
def test_cli_bad_arguments_exit_2(capsys, argv):
    with pytest.raises(SystemExit) as exc:
        main(argv)
    assert exc.value.code == 2
    _, err = capsys.readouterr()
    assert "error:" in err and "--help" in err


def test_cli_without_command_exits_2(capsys):
    assert main([]) == 2


def test_cli_single_document(tmp_path, capsys):
    pack = variant("schema-wrong-type", tmp_path / "pack")
    doc = pack / "units/unit-types.json"
    code, out, _ = _run(capsys, "validate", doc)
    assert code == 1
    lines = out.splitlines()  # only the findings about that document, though checked within its pack
    assert lines[:-1] == [f"{doc}:40:18: error schema 'thick' is not of type 'integer' at /units/2/defense"]
    assert lines[-1] == "FAILED: 1 file(s) checked, 1 error(s), 0 warning(s)"


def test_cli_single_document_outside_a_pack(tmp_path, capsys):
    doc = tmp_path / "lonely.json"
    doc.write_text('{\n  "kind": "map-configurations",\n  "configurations": [{"id": "X"}]\n}\n', encoding="utf-8")
    code, out, _ = _run(capsys, "validate", doc)
    assert code == 1
    assert out.splitlines()[0].startswith(f"{doc}:3:22: error schema 'layout' is required here")
    doc.write_text('{"kind": "nonsense"}', encoding="utf-8")
    code, out, _ = _run(capsys, "validate", doc)
    assert code == 1 and f"{doc}:1:10: error unknown-kind" in out


def test_cli_packs_shows_order_and_impact(capsys):
    code, out, _ = _run(capsys, "packs", MODS / "mod-clean", "--search", FIXTURES)
    assert code == 0
    lines = out.splitlines()
    assert lines[0].startswith("1. fixture-base 1.0.0")
    assert any(ln.startswith("2. mod-clean 1.0.0") for ln in lines)
    assert "   overrides: unit-type gb-tank, unit-type de-tank, formation-card 101" in lines
    assert "   removes:   raid-card S1" in lines


def test_cli_packs_json_and_exit_codes(capsys):
    code, out, _ = _run(capsys, "packs", "--json", MODS / "mod-conflict-a", MODS / "mod-conflict-b",
                        "--search", FIXTURES)
    assert code == 0  # a conflict is a warning
    report = json.loads(out)
    assert [p["id"] for p in report["packs"]] == ["fixture-base", "mod-conflict-a", "mod-conflict-b"]
    assert report["packs"][2]["conflicts"] and [f["code"] for f in report["findings"]] == ["override-conflict"]
    code, out, _ = _run(capsys, "packs", "--json", MODS / "mod-stale", "--search", FIXTURES)
    assert code == 1
    assert [f["code"] for f in json.loads(out)["findings"]] == ["override-stale"]


# --- regressions: inputs that once raised, hung or pointed at the wrong place ----------------------

@pytest.mark.parametrize("text, code, column", [
    ('{"a": NaN, 1}', "json-constant", 7),  # malformed after the NaN: the position scan once raised
    ('[{"a": 1, "a": 2}, {1}]', "json-duplicate-key", 11),
    ('{"a": 1, "a": 2, "n": NaN}', "json-constant", 23),  # the NaN, not the duplicate json.loads never saw
    ('{"a": 1, "a": {"b": 1, "b": 2}}', "json-duplicate-key", 24),  # the key json.loads rejected: "b"
    ('{"a": "\\ud800"}', "json-encoding", 8),  # a lone surrogate cannot be printed or saved as UTF-8
])
def test_parse_rejections_point_at_the_problem(text, code, column):
    doc, (f,) = jsondoc.parse("x.json", text.encode())
    assert doc is None and f.code == code and (f.location.line, f.location.column) == (1, column)


def test_surrogate_pair_escapes_are_fine():
    doc, findings = jsondoc.parse("x.json", b'{"a": "\\ud83d\\ude00", "b": "\\\\ud800"}')
    assert findings == [] and doc.value == {"a": "\U0001f600", "b": "\\ud800"}


def test_unknown_field_pointer_is_escaped(tmp_path):
    pack = copy_base(tmp_path / "pack")
    doc = pack / "setups/skirmish-setup.json"
    doc.write_text('{"kind": "setup", "id": "s", "scenario": "skirmish", "sides": {},\n "a/b~c": 1}\n')
    f = the(load_catalog([pack]).findings, "schema", doc)
    assert (f.location.pointer, f.location.line, f.location.column) == ("/a~1b~0c", 2, 2)


def test_collection_that_is_not_a_list(tmp_path):
    pack = copy_base(tmp_path / "pack")
    doc = pack / "units/unit-types.json"
    doc.write_text('{"kind": "unit-types",\n "units": 5}\n')
    f = the(load_catalog([pack]).findings, "schema", doc)
    assert (f.location.pointer, f.location.line) == ("/units", 2)


def test_patch_that_replaces_the_whole_object(tmp_path):
    copy_base(tmp_path / "base")
    mod = tmp_path / "mod"
    mod.mkdir()
    (mod / "pack.json").write_text(json.dumps({"kind": "pack", "id": "mod", "name": "m", "version": "1.0.0",
                                               "ruleset": "desert-steel", "depends_on": [{"id": "fixture-base"}]}))
    (mod / "overrides.json").write_text(json.dumps({"kind": "overrides", "overrides": [
        {"target": {"kind": "unit-type", "id": "de-tank"}, "patch": [{"op": "replace", "path": "", "value": [1]}]}]}))
    f = the(load_catalog([mod], search=[tmp_path]).findings, "override-patch", mod / "overrides.json")
    assert "must leave an object" in f.message


def test_zip_written_by_writestr_is_not_a_special_file(tmp_path):
    """ZipFile.writestr records permissions without a file type: that is a plain file."""
    z = tmp_path / "writestr.zip"
    with zipfile.ZipFile(z, "w") as zf:
        for path in sorted(BASE.rglob("*.json")):
            zf.writestr(path.relative_to(BASE).as_posix(), path.read_bytes())
    result = validate_paths([z])
    assert [f.line_text() for f in result.findings] == [] and result.exit_code == 0


def test_zip_of_a_newer_zip_version_is_corrupt_not_a_crash(tmp_path):
    z = zip_folder(BASE, tmp_path / "v84.zip")
    data = bytearray(z.read_bytes())
    start = data.find(b"PK\x01\x02")
    data[start + 6:start + 8] = struct.pack("<H", 84)  # "version needed to extract" 8.4
    z.write_bytes(bytes(data))
    result = validate_paths([z])
    assert [f.code for f in result.findings] == ["zip-corrupt"] and result.exit_code == 2
