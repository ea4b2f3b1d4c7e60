"""The miniatures sample pack: it validates clean through the unchanged commands, its setups are
legal, and a broken variant produces each miniatures finding."""
from __future__ import annotations

import pytest
from conftest import DATA
from ruleset_variants import CASES, broken

from sandtable.cli import main
from sandtable.rules.catalog import load_catalog
from sandtable.rules.findings import CODES
from sandtable.rules.validation import validate_paths

PACK = DATA / "miniatures"
SETUPS = sorted((PACK / "setups").glob("*.json"))


def test_validates_clean(capsys):
    result = validate_paths([PACK])
    assert [f.line_text() for f in result.findings] == [] and result.packs == ["miniatures 0.1.0"]
    assert main(["validate", str(PACK)]) == 0
    assert capsys.readouterr().out.splitlines()[-1].endswith(", 0 error(s), 0 warning(s)")


def test_every_document_kind_is_used():
    catalog = load_catalog([PACK])
    assert {k for k, t in catalog.objects.items() if t} == {d.object_kind for d in catalog.ruleset.documents}


def test_the_fragment_s_light_weapons():
    catalog = load_catalog([PACK])
    powers = {e.id: (e.value["power"], e.value["ammunition"], e.value["rapid_fire"]) for e in catalog.entries("weapon")
              if e.value["class"] == "light"}
    assert powers == {"rifle": (1, [], False), "at-rifle": (2, ["AP"], False), "smg": (1, [], True),
                      "mg": (2, [], True), "light-mortar": (3, ["HE"], False)}


@pytest.mark.parametrize("path", SETUPS, ids=[p.stem for p in SETUPS])
def test_sample_setups_are_legal(capsys, path):
    code = main(["check-setup", str(path), "--pack", str(PACK)])
    out = capsys.readouterr().out
    assert code == 0 and out.splitlines()[-1] == "OK: 1 file(s) checked, 0 error(s), 0 warning(s)", out


MINI_CASES = sorted(c for c in CASES if c.startswith("mini-"))


def test_every_miniatures_code_has_a_broken_variant():
    assert MINI_CASES == sorted(c for c in CODES if c.startswith("mini-"))


@pytest.mark.parametrize("code", MINI_CASES)
def test_broken_variant(tmp_path, capsys, code):
    pack = broken(code, tmp_path)
    _, rel, _, pointer = CASES[code]
    findings = validate_paths([pack]).findings
    assert [f.code for f in findings] == [code], [f.line_text() for f in findings]
    (f,) = findings
    assert f.section.startswith("M§") and f.location.line
    setup = pack / "setups/village-1.json"
    assert (f.location.file, f.location.pointer) == (str(pack / rel) if rel.startswith("units") else str(setup), pointer)
    if not rel.startswith("units"):  # the setup rules, through check-setup as well
        assert main(["check-setup", str(setup), "--pack", str(pack), "--json"]) == 1
        assert f'"code": "{code}"' in capsys.readouterr().out
