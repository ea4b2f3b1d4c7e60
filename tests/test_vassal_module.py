"""sandtable export vassal, with the real VASSAL engine as the oracle (tests/vassalkit.py).

One module of the whole bundled pack and one of a mod pack with a scenario of its own are each
checked once, in a JVM of their own: the engine loads them with no warning, error or dialog, builds
and draws every piece, finds every prototype, re-encodes every piece as written, starts every
predefined setup and finds each piece at the hex centre named by the setup's hex id.
"""
from __future__ import annotations

import json
import os
import re
import shutil
import time
import zipfile
from collections import Counter
from pathlib import Path

import pytest

import vassalkit
from conftest import DATA

pytestmark = pytest.mark.skipif(not vassalkit.java_present(),
                                reason="the VASSAL checks need Java (java and javac); CI installs it")


@pytest.fixture(scope="session")
def oracle(tmp_path_factory):
    try:
        cp = vassalkit.classpath(vassalkit.engine_jar())
        classes = vassalkit.compile_checker(tmp_path_factory.mktemp("vassal-classes"), cp)
        xvfb = vassalkit.Xvfb()
    except vassalkit.OracleMissing as exc:
        pytest.fail(str(exc))
    yield vassalkit.Oracle(classes, cp, xvfb, tmp_path_factory.mktemp("vassal-home"))
    xvfb.stop()


def _export(catalog, refs, folder: Path, setup=None):
    from sandtable.exports.desert_steel import vassal as desert_steel
    from sandtable.exports.vassal import module
    started = time.perf_counter()
    mod = desert_steel.build_module(catalog, desert_steel.scenario_setups(catalog, refs, setup, "my-setup.json"))
    vmod = folder / "module.vmod"
    vmod.write_bytes(module.write_module(mod))
    seconds = time.perf_counter() - started
    vassalkit.write_expected(mod, folder / "expected.tsv")
    return mod, vmod, seconds


@pytest.fixture(scope="session")
def pack_module(catalog, oracle, tmp_path_factory):
    folder = tmp_path_factory.mktemp("vassal-pack")
    mod, vmod, seconds = _export(catalog, [], folder)
    shot = folder / "kasserine.png"
    result = oracle.check(vmod, folder / "expected.tsv", "kasserine", shot)
    print(f"whole pack: export {seconds:.1f} s, {vmod.stat().st_size / 1e6:.1f} MB; engine check {result.seconds:.1f} s")
    return mod, vmod, result, shot


def test_the_engine_loads_the_whole_pack_with_no_problem(pack_module):
    mod, _, result, _ = pack_module
    assert result.problems == [], "\n".join(result.problems[:20])
    assert result.returncode == 0 and "CHECK OK" in result.output
    kinds = sum(len(pieces) for p in mod.palettes for _, pieces in p.folders)
    kinds += sum(len(d.cards) for m in mod.maps for d in m.decks)  # a new game's deal: the raid cards
    assert f"pieces {kinds}\n" in result.output  # every palette piece built, measured, re-encoded


def test_every_scenario_starts_with_each_piece_on_its_hex(pack_module, model):
    mod, _, result, _ = pack_module
    assert len(mod.setups) == len(model.scenarios)
    for s in mod.setups:
        assert f"setup {s.file}: {len(s.pieces)} pieces placed, 3 decks" in result.output
        assert f"notes {s.file}: {s.notes[0]} ({len(s.notes)} lines)" in result.output  # the scenario's text
        from sandtable.exports.vassal.module import turn_state
        assert f"turn {s.file}: {turn_state(mod, s.turns)}\n" in result.output  # turn 1 of the scenario's turns


def _setup_hexes(board, setup: dict, side: str) -> Counter:
    """The hexes a setup file puts pieces on, as full ids (A2711), one per piece."""
    sd = setup["sides"].get(side, {})
    transports = sd.get("transports", [])
    out = Counter()
    for p in sd.get("placements", []):
        ref = transports[p["loaded_in"]]["hex"] if "loaded_in" in p else p["hex"]
        out[board.resolve(ref)] += 2 if p.get("entrenched") else 1  # its entrenchment marker too
    for t in transports:
        out[board.resolve(t["hex"])] += 1
    for f in sd.get("fortifications", []):
        out[board.resolve(f["hex"])] += 1
    for ref in sd.get("minefields", []):
        out[board.resolve(ref)] += 1
    return out


def test_the_setups_pieces_stand_on_the_setup_files_hexes(pack_module, model):
    """The expectations the engine checks come from the setup files, not from the writer."""
    from sandtable.rules.board import Board
    mod, _, _, _ = pack_module
    by_name = {s.file: s for s in mod.setups}
    for scenario in model.scenarios.values():
        saved = next(s for f, s in by_name.items() if f.endswith(f"-{scenario.id}.vsav"))
        setup = next((v for v in model.setups.values() if v.get("scenario") == scenario.id), None)
        if setup is None:
            assert "(automatic setup)" in saved.name
            continue
        conf = scenario.configuration
        board = Board.from_sheets([[dict(m.raw) for m in row] for row in conf.layout], conf.north)
        want = _setup_hexes(board, setup, "allied") + _setup_hexes(board, setup, "axis")
        north = [p for p in saved.pieces if any(t.type == "mark;Marker" and t.state == "north" for t in p.traits)]
        got = Counter(p.location for p in saved.pieces if p.map_name == "Battlefield" and p not in north)
        assert got == want, scenario.id
        # and the north arrow, on the first sheet's corner, turned as the configuration says
        assert len(north) == 1 and north[0].location.startswith(conf.layout[0][0].id)
        turned = next(t.state for t in north[0].traits if t.type.startswith("rotate;4;"))
        assert turned == str(["up", "right", "down", "left"].index(conf.north))


def test_reinforcements_wait_off_board_in_their_turns_box(pack_module, model):
    mod, _, _, _ = pack_module
    scenario = model.scenario("IX")  # B/9, A/12, D/11 enter on turn 3
    saved = next(s for s in mod.setups if s.file.endswith("-totensonntag.vsav"))
    boxed = Counter(p.location for p in saved.pieces if p.map_name == "Off-board")
    from sandtable.exports.desert_steel.counters import scenario_counters
    arriving = sum(1 for c in scenario_counters(model, scenario) if c.card in (420, 423, 435))
    assert boxed["Allied turn 3"] == arriving > 0


def test_the_module_is_a_vassal_36_module_with_each_image_once(pack_module):
    _, vmod, _, _ = pack_module
    with zipfile.ZipFile(vmod) as z:
        names = set(z.namelist())
        build = z.read("buildFile.xml").decode("utf-8")
        meta = z.read("moduledata").decode("utf-8")
        images = {n: z.read(n) for n in names if n.startswith("images/")}
    assert 'VassalVersion="3.6.0"' in build and "<VassalVersion>3.6.0</VassalVersion>" in meta
    assert len(set(images.values())) == len(images)  # shared images stored once
    for ref in set(re.findall(r"[\w.-]+\.png", build)):
        assert "images/" + ref in names, ref
    # only traits VASSAL 3.6 knows
    traits = set(re.findall(r"(?:^|[\t\\/])([a-z]+[0-9]?);", build, re.M)) - {"null"}  # "null;": a state
    assert traits <= {"piece", "prototype", "mark", "emb2", "rotate", "hide", "restrict", "obs"}, traits
    assert vmod.stat().st_size < 10e6


def test_a_picture_of_the_module_in_the_player_window(pack_module):
    from PIL import Image
    _, _, _, shot = pack_module
    with Image.open(shot) as im:
        assert im.size == (1600, 1000)
        assert len(im.convert("RGB").getcolors(1 << 20) or ()) > 50  # a map and counters, not a blank window
    target = os.environ.get("SANDTABLE_SCREENSHOTS")
    if target:  # docs/screenshots: a 256-colour copy, a third of the size
        with Image.open(shot) as im:
            im.convert("RGB").quantize(256).save(Path(target) / "vassal-kasserine.png")


def _mod_pack(root: Path) -> Path:
    """The example mod (a new unit and card) with a scenario of its own: Kasserine with S/501."""
    mod = root / "kasserine-mod"
    shutil.copytree(DATA / "example-mod", mod)
    manifest = json.loads((mod / "pack.json").read_text())
    manifest.update(id="kasserine-mod", name="Kasserine with S/501")
    (mod / "pack.json").write_text(json.dumps(manifest))
    scenario = json.loads((DATA / "desert-steel" / "scenarios" / "15-kasserine-pass.json").read_text())
    scenario.update(id="kasserine-s501", number="XVI", name={"en": "Kasserine Pass with S/501"})
    scenario["sides"]["axis"]["formations"][0]["cards"].append(180)
    (mod / "scenarios").mkdir()
    (mod / "scenarios" / "16-kasserine-s501.json").write_text(json.dumps(scenario))
    return mod


def test_a_mod_pack_with_a_scenario_of_its_own_and_a_players_setup(oracle, tmp_path):
    from sandtable.rules.catalog import load_catalog
    catalog = load_catalog([_mod_pack(tmp_path)])
    assert not catalog.errors, [f.line_text() for f in catalog.findings][:5]
    mine = json.loads((DATA / "desert-steel" / "setups" / "15-kasserine-pass.json").read_text())
    mine["sides"]["allied"]["placements"][0]["facing"] = 3
    mod, vmod, _ = _export(catalog, ["XVI"], tmp_path, setup=mine)
    result = oracle.check(vmod, tmp_path / "expected.tsv")
    assert result.problems == [], "\n".join(result.problems[:20])
    assert result.returncode == 0
    new, players = mod.setups
    assert "(automatic setup)" in new.name and "(my-setup.json setup)" in players.name
    assert any("S/501" in p.traits[-1].type for p in new.pieces)  # the mod's counters are in its scenario
    turned = [p.location for p in players.pieces for t in p.traits if t.type.startswith("rotate;") and t.state == "3"]
    assert turned == [mine["sides"]["allied"]["placements"][0]["hex"]]  # the player's facing, 180 degrees
    for s in mod.setups:
        assert f"setup {s.file}: {len(s.pieces)} pieces placed, 3 decks" in result.output


def test_the_command_line(tmp_path, capsys):
    from sandtable.cli import main
    out = tmp_path / "kasserine.vmod"
    assert main(["export", "vassal", "XV", "-o", str(out), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["setups"][0]["file"] == "setups/15-kasserine-pass.vsav" and out.stat().st_size == report["bytes"]
    assert main(["export", "vassal", "XCIX", "-o", str(tmp_path / "x.vmod")]) == 2
    assert "no scenario 'XCIX'" in capsys.readouterr().err
    assert main(["export", "vassal", "--setup", str(tmp_path / "none.json"), "-o", str(tmp_path / "x.vmod")]) == 2
    assert not (tmp_path / "x.vmod").exists()


def _png(w: int, h: int, colour) -> bytes:
    import io
    from PIL import Image
    buf = io.BytesIO()
    Image.new("RGB", (w, h), colour).save(buf, format="PNG")
    return buf.getvalue()


def test_the_checker_catches_what_the_engine_would_let_pass(oracle, tmp_path):
    """A module with a fault of each kind VASSAL only logs or ignores: the checker names each one."""
    from sandtable.exports.vassal import encode, module
    grid = module.HexNumbering(72, 84, 36, 42, 12, 1, "A")
    mod = module.Module("Faults", "1", "faults", ["Allies", "Axis"])
    mod.images = {"board.png": _png(600, 600, (230, 220, 200)), "tank.png": _png(60, 60, (90, 120, 60))}
    mod.maps = [module.Map("Battlefield", [module.Board("A", "board.png", 600, 600, grid)])]
    tank = [encode.marker({"Side": "Allies"}), encode.basic_piece("Tank", "tank.png")]
    ghost = [encode.marker({"Side": "Axis"}), encode.basic_piece("Ghost", "missing.png")]
    orphan = [encode.use_prototype("No such prototype"), encode.basic_piece("Orphan", "tank.png")]
    mod.palettes = [module.Palette("Counters", [("All", [module.PieceDef("Tank", tank), module.PieceDef("Ghost", ghost),
                                                          module.PieceDef("Orphan", orphan)])])]
    x, y = grid.centre(13, 2)
    mod.setups = [module.SavedSetup("One", "setups/one.vsav", {"Battlefield": [("A", 0, 0)]}, [
        module.Placed("p1", tank, "Battlefield", x, y, "A1302"),  # right
        module.Placed("p2", tank, "Battlefield", x, y, "A1303"),  # not where the setup says
        module.Placed("p3", tank, "Battlefield", x + 20, y, "A1302")])]  # off the hex centre
    vmod = tmp_path / "faults.vmod"
    vmod.write_bytes(module.write_module(mod))
    vassalkit.write_expected(mod, tmp_path / "expected.tsv")
    result = oracle.check(vmod, tmp_path / "expected.tsv")
    problems = "\n".join(result.problems)
    assert result.returncode == 1
    assert "missing.png" in problems  # the engine's own warning of a missing image
    assert "no prototype No such prototype" in problems
    assert "piece p2 (Tank) at Battlefield A1302, expected Battlefield A1303" in problems
    assert "piece p3 at java.awt.Point" in problems and "is not at a grid point" in problems
    assert "piece p1 " not in problems
