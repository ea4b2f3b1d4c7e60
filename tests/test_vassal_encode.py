"""The VASSAL writer without the engine: encodings, grid numbering, bad input (no Java needed)."""
from __future__ import annotations

import json
import zipfile
from xml.etree import ElementTree as ET

import pytest

from sandtable.exports.desert_steel import vassal as desert_steel
from sandtable.exports.vassal import encode, module


def test_sequence_encoding_escapes_as_vassal_does():
    assert encode.seq(["a;b", "", "c"], ";") == "a\\;b;;c"
    assert encode.seq(["\\x", "'q'", "it's"], ";") == "'\\x';''q'';it's"  # quoted: a leading \\ or '...'
    assert encode.seq([True, 0, 1.0, None], ",") == "true,0,1.0,"
    # a chain nests each inner level, escaping its tabs once more
    assert encode.chain(["a", "b", "c"]) == "a\tb\\\tc"


def test_a_piece_command_and_its_prototype_free_type():
    traits = [encode.marker({"Side": "Axis"}), encode.basic_piece("Pz III", "x.png", "Battlefield", 10, 20)]
    assert encode.add_piece("7", traits) == "+/7/mark;Side\tpiece;;;x.png;Pz III/Axis\tBattlefield;10;20;;0"


def _vassal_name(grid: module.HexNumbering, x: int, y: int) -> str:
    """HexGridNumbering.locationName for a point, as the engine computes it (not sideways, no stagger)."""
    nx = round((x - grid.x0) / grid.dx)
    ny = round((y - grid.y0) / grid.dy) if nx % 2 == 0 else round((y - grid.y0 - grid.dy / 2) / grid.dy)
    col, row = nx + grid.column_offset, ny + grid.row_offset
    return f"{grid.prefix}{col:02d}{row:02d}"


@pytest.mark.parametrize("map_id", ["A", "B"])
def test_every_hex_centre_is_named_by_its_rulebook_id_and_drawn_there(model, map_id):
    images = desert_steel._Images()
    sb = desert_steel._sheet_board(model.maps[map_id], images)
    grid = sb.board.grid
    face = images.faces[sb.face]
    e = sb.rules.page_edges["*"]
    for key, cell in sb.rules.cells.items():
        if cell.half:
            continue
        col, row = int(cell.hex_id[:2]), int(cell.hex_id[2:])
        x, y = grid.centre(col, row)
        assert _vassal_name(grid, x, y) == key
        gx, gy = sb.rules.page_xy(key)  # where the board image draws it: the same whole pixel
        assert ((gx - e["left"]) * desert_steel.K, (gy - e["top"]) * desert_steel.KY) == (x, y), key
    assert face.pixels == (sb.board.width, sb.board.height)


def test_build_file_and_saves_are_well_formed(catalog, tmp_path):
    mod = module.Module("T", "1", "test", ["Allies", "Axis"])
    board = module.Board("A", "a.png", 100, 100, module.HexNumbering(72, 83.1, 0, 0, 12, 1, "A"))
    mod.maps = [module.Map("Battlefield", [board])]
    piece = [encode.marker({"Side": "Allies"}), encode.basic_piece("Tank", "t.png")]
    mod.palettes = [module.Palette("Counters", [("Allied", [module.PieceDef("Tank", piece)])])]
    mod.images = {"a.png": b"png", "t.png": b"png"}
    mod.setups = [module.SavedSetup("One", "setups/one.vsav", {"Battlefield": [("A", 0, 0)]},
                                    [module.Placed("p1", piece, "Battlefield", 0, 0, "A1201")])]
    data = module.write_module(mod, saved_ms=0)
    path = tmp_path / "t.vmod"
    path.write_bytes(data)
    with zipfile.ZipFile(path) as z:
        root = ET.fromstring(z.read("buildFile.xml"))
        assert root.get("VassalVersion") == "3.6.0"
        assert [e.text for e in root.iter("entry")] == ["Allies", "Axis"]
        save = zipfile.ZipFile(z.open("setups/one.vsav"))
        text = save.read("savedGame").decode()
    assert text.split(encode.ESC)[0] == "begin_save" and text.endswith("end_save")
    assert "BattlefieldBoardPicker\tA\t0\t0" in text


def test_bad_input_is_a_finding_not_a_traceback(tmp_path, capsys):
    from sandtable.cli import main
    src = json.loads(open(_sample("15-kasserine-pass.json"), encoding="utf-8").read())
    src["sides"]["allied"]["placements"][0]["hex"] = "B9999"  # off the maps
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(src))
    assert main(["export", "vassal", "--setup", str(bad), "-o", str(tmp_path / "x.vmod")]) == 2
    err = capsys.readouterr().err
    assert "B9999" in err and "Traceback" not in err
    assert main(["export", "vassal", "--pack", str(_data("holland44")), "-o", str(tmp_path / "x.vmod")]) == 2
    assert "VASSAL module export" in capsys.readouterr().err
    assert not (tmp_path / "x.vmod").exists()


def _data(name: str):
    from conftest import DATA
    return DATA / name


def _sample(name: str):
    return _data("desert-steel") / "setups" / name


@pytest.mark.parametrize("first, shifted, half_top", [(12, "even", True), (1, "odd", False), (1, "even", False),
                                                      (9, "odd", True)])
def test_any_grid_a_mod_map_may_have_is_named_by_its_ids(model, first, shifted, half_top):
    """Other first columns, shifted columns and edges than the bundled maps' (a mod's map C)."""
    from sandtable.rules.desert_steel.model import _map
    from sandtable.exports.page import thaw
    raw = thaw(model.maps["A"].raw)
    raw.update(id="C", hexes={}, roads=[])
    raw["grid"].update(columns={"first": first, "last": first + 9}, rows={"first": 1, "last": 8},
                       shifted_columns=shifted, half_hexes={"top": half_top, "bottom": False, "left": False,
                                                            "right": True})
    sb = desert_steel._sheet_board(_map(raw), desert_steel._Images())
    e = sb.rules.page_edges["*"]
    named = 0
    for key, cell in sb.rules.cells.items():
        if not cell.half:
            col, row = int(cell.hex_id[:2]), int(cell.hex_id[2:])
            gx, gy = sb.rules.page_xy(key)
            assert sb.board.grid.centre(col, row) == ((gx - e["left"]) * desert_steel.K, (gy - e["top"]) * desert_steel.KY)
            assert _vassal_name(sb.board.grid, *sb.board.grid.centre(col, row)) == key
            named += 1
    assert named > 50
