"""The Holland '44 sample pack: it validates clean through the unchanged commands, its map
excerpt has every feature the checks need, its setups are legal, `sandtable supply` traces
lines, and a broken variant produces each Holland '44 finding."""
from __future__ import annotations

import json

import pytest
from conftest import DATA
from ruleset_variants import CASES, broken

from sandtable.cli import main
from sandtable.rules.catalog import load_catalog
from sandtable.rules.findings import CODES
from sandtable.rules.holland44.supply import supply_of
from sandtable.rules.holland44.victory import score
from sandtable.rules.holland44.zoc import bonds_of
from sandtable.rules.validation import validate_paths

PACK = DATA / "holland44"
SETUPS = sorted((PACK / "setups").glob("*.json"))


@pytest.fixture(scope="module")
def catalog():
    return load_catalog([PACK])


def run(capsys, *argv) -> tuple[int, str]:
    capsys.readouterr()
    code = main([str(a) for a in argv])
    return code, capsys.readouterr().out


def test_validates_clean(capsys):
    result = validate_paths([PACK])
    assert [f.line_text() for f in result.findings] == [] and result.packs == ["holland44 0.1.0"]
    code, out = run(capsys, "validate", PACK)
    assert code == 0 and out.splitlines()[-1].endswith(", 0 error(s), 0 warning(s)")


def test_every_document_kind_is_used(catalog):
    assert {k for k, t in catalog.objects.items() if t} == {d.object_kind for d in catalog.ruleset.documents}


def test_the_map_excerpt_has_every_feature(catalog):
    hmap = catalog.model.map("H")
    types = {w.type for w in hmap.water.values()}
    assert types == {"major-river", "minor-river", "canal"}
    assert {hmap.hex_terrain[k] for k in hmap.board.usable} == set(catalog.model.terrain["hexes"])
    assert {b.state for b in hmap.bridges.values()} == {"wired", "intact"}
    assert {b.carries for b in hmap.bridges.values()} == {"road", "railway"}
    assert any(b.watercourse == "minor-river" for b in hmap.bridges.values()) and hmap.ferries and hmap.railways
    assert {"N", "M", "G", "H", "L"} <= set(hmap.area_hexes)
    assert sorted(n for k, n in hmap.names.items() if hmap.hex_props(k).get("city")) == ["Arnhem"] * 3 + ["Nijmegen"] * 2
    rhine = hmap.regions["north-of-lower-rhine"]
    assert hmap.key("6122") in rhine and hmap.key("6022") not in rhine
    assert hmap.has_minor_river_inside(hmap.key("4818")) and not hmap.has_minor_river_inside(hmap.key("6222"))


def test_the_printed_bridges_sit_on_their_rivers(catalog):
    hmap = catalog.model.map("H")
    for bid, pair, never in (("grave", ("4816", "4817"), False), ("nijmegen", ("5321", "5421"), True),
                             ("arnhem", ("6122", "6022"), True), ("westervoort", ("6123", "6124"), True)):
        b = hmap.bridges[bid]
        assert b.side == hmap.side(*pair) and b.watercourse == "major-river" and b.never_blown is never
        assert b.state == ("intact" if never else "wired")


def test_schedule_follows_the_text(catalog):
    entries = {e.id: e.value for e in catalog.entries("reinforcement")}
    assert entries["g6-pz-107"]["arrives"] == {"entry_area": "K"} and entries["g6-pz-107"]["turn"] == 6
    assert entries["g20-506"]["turn"] == 20 and entries["a9-43-div"]["last_turn"] == 12
    assert entries["g1-406-div"]["roll"] == {"arrives_on": [1, 2], "all_by_turn": 4}
    assert entries["g2-erdmann"]["units"]["fr"] == "Erdmann (aire L)"


@pytest.mark.parametrize("path", SETUPS, ids=[p.stem for p in SETUPS])
def test_sample_setups_are_legal(capsys, path):
    code, out = run(capsys, "check-setup", path, "--pack", PACK)
    assert code == 0, out
    assert out.splitlines()[-1] == "OK: 1 file(s) checked, 0 error(s), 0 warning(s)"


def test_position_on_turn_3(catalog):
    pos = catalog.model.position(catalog.model.setup("s1-turn3"))
    supply = supply_of(pos)
    assert not supply["gb-2-para"].supplied  # cut off at the Arnhem bridge
    assert supply["gb-3-para"].source == "supply head gb-1-abn-sh"
    assert supply["de-nijmegen-gar"].source == "entry area H"
    german = [b.describe(pos.map.label) for b in bonds_of(pos)["german"]]
    assert "german hexside bond 6121-6220 along 6120|6221" in german
    s = score(pos, supply)
    assert (s.allied, s.german, s.automatic, s.scenario_victory) == (4, 0.5, None, False)


def test_supply_command(capsys):
    code, out = run(capsys, "supply", PACK / "setups/s1-turn3.json", "gb-3-irish-gds", "--pack", PACK)
    assert code == 0 and out.splitlines()[0] == "gb-3-irish-gds at 5018: in supply from entry area M"
    code, out = run(capsys, "supply", "s1-turn3", "gb-2-para", "--pack", PACK)
    assert code == 1 and "out of supply" in out and "enemy units in 6121" in out
    code, out = run(capsys, "supply", "s1-turn3", "us-508", "--pack", PACK, "--json")
    report = json.loads(out)
    assert code == 0 and report["supplied"] and report["source"] == "supply head us-82-sh"
    assert [p["leg"] for p in report["path"]][0] == "start" and report["path"][-1]["hex"] == "5124"


def test_supply_command_usage(capsys):
    assert run(capsys, "supply", "s1-turn3", "nobody", "--pack", PACK)[0] == 2
    assert run(capsys, "supply", "no-such-setup", "gb-2-para", "--pack", PACK)[0] == 2
    assert run(capsys, "supply", "s1-turn3", "gb-2-para")[0] == 2  # the default pack has no supply rules


H44_CASES = sorted(c for c in CASES if c.startswith("h44-"))


def test_every_holland_code_has_a_broken_variant():
    assert H44_CASES == sorted(c for c in CODES if c.startswith("h44-"))


@pytest.mark.parametrize("code", H44_CASES)
def test_broken_variant(tmp_path, code):
    pack = broken(code, tmp_path)
    _, rel, _, pointer = CASES[code]
    findings = validate_paths([pack]).findings
    hits = [f for f in findings if f.code == code]
    assert len(hits) == 1, [f.line_text() for f in findings]
    (f,) = hits
    assert f.location.file == str(pack / rel) and f.location.pointer == pointer and f.location.line
    assert f.severity == CODES[code].severity
    assert f.section and (f.section.startswith("H§") or code == "h44-map")
    extra = {g.code for g in findings} - {code}
    assert extra <= ({"h44-overstack"} if code == "h44-step-limit" else set()), [g.line_text() for g in findings]
