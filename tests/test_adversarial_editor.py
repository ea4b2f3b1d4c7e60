"""Issue #29, class 7 (and three of #26): the editor's bulk CSV import refuses, at import time and
with the cell named, what ``validate`` would refuse after saving (deep JSON, huge integers, NaN,
huge lists and strings, duplicate rows); it reads only regular files within a size cap (a FIFO,
/dev/zero); export honours the grid's filter, writes plain true/false and neutralises formula
cells; re-importing an unchanged file says "no change". Driven through the real window."""
from __future__ import annotations

import csv
import io
import os
from pathlib import Path

import pytest

from bounded import deadline
from editorkit import close, copy_pack, isolate, window
from sandtable.rules.validation import validate_paths


@pytest.fixture
def win(qtbot, tmp_path, monkeypatch):
    isolate(monkeypatch, tmp_path)
    w = window(qtbot, copy_pack(tmp_path))
    yield w
    close(w)



def _export(grid, tmp_path) -> list[list[str]]:
    path = tmp_path / "grid.csv"
    grid.export_csv(path)
    return list(csv.reader(io.StringIO(path.read_text())))


def _import(grid, tmp_path, table) -> list[str]:
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows(table)
    path = tmp_path / "edited.csv"
    path.write_text(out.getvalue())
    with deadline(10):
        return grid.import_csv(path)


HOSTILE = {
    "deep JSON": ("anti_vehicle", "[" * 5000 + "]" * 5000, "limit depth"),
    "4,000-digit integer": ("movement", "9" * 4000, "int-digits"),
    "5,000-digit integer": ("defense", "9" * 5000, "int-digits"),
    "NaN": ("anti_infantry", "NaN", "finite"),
    "Infinity in a number": ("anti_vehicle", "-Infinity", "finite"),
    "1e309": ("anti_vehicle", "1e309", "number-magnitude"),
    "10,000-entry list": ("anti_vehicle", "[" + ",".join(["1"] * 10_000) + "]", None),
    "huge string": ("name", "x" * 120_000, "string-chars"),
    "deep object": ("anti_infantry", '{"a":' * 100 + "1" + "}" * 100, "limit depth"),
}


@pytest.mark.parametrize("case", sorted(HOSTILE))
def test_an_import_refuses_what_validate_refuses_with_the_cell_named(win, tmp_path, case):
    column, value, words = HOSTILE[case]
    grid = win.open_bulk("unit-type")
    table = _export(grid, tmp_path)
    head = table[0]
    line = next(i for i, r in enumerate(table) if r[0] == "de-pz-vi-e")
    table[line][head.index(column)] = value
    stack = win.doc.undo_stack.count()
    problems = _import(grid, tmp_path, table)
    assert problems, case
    assert f"edited.csv, line {line + 1}, column {column}" in problems[0], problems[0][:300]
    if words:
        assert words in problems[0], problems[0][:300]
    assert len(problems[0]) < 1000 and win.doc.undo_stack.count() == stack  # nothing changed
    assert win.save()
    assert validate_paths([tmp_path / "packs/desert-steel"]).exit_code == 0


def test_a_valid_import_saves_a_pack_validate_accepts(win, tmp_path):
    grid = win.open_bulk("unit-type")
    table = _export(grid, tmp_path)
    head = table[0]
    line = next(i for i, r in enumerate(table) if r[0] == "de-pz-vi-e")
    table[line][head.index("movement")] = "5"
    assert _import(grid, tmp_path, table) == [] and grid.model.last_changes == 1
    assert win.save()
    assert validate_paths([tmp_path / "packs/desert-steel"]).exit_code == 0


def test_duplicate_rows_are_refused(win, tmp_path):
    grid = win.open_bulk("unit-type")
    table = _export(grid, tmp_path)
    line = next(i for i, r in enumerate(table) if r[0] == "de-pz-vi-e")
    twin = list(table[line])
    twin[table[0].index("movement")] = "2"
    table.append(twin)
    problems = _import(grid, tmp_path, table)
    assert any(f"line {len(table)}" in p and f"as line {line + 1}" in p for p in problems), problems


def test_a_fifo_and_dev_zero_and_a_giant_are_refused_unread(win, tmp_path):
    grid = win.open_bulk("unit-type")
    fifo = tmp_path / "pipe.csv"
    os.mkfifo(fifo)
    giant = tmp_path / "giant.csv"
    with open(giant, "wb") as fh:
        fh.truncate(3 * 1024 ** 3)
    with deadline(10):
        for path, words in ((fifo, "FIFO"), (Path("/dev/zero"), "device"), (giant, "csv-bytes"),
                            (tmp_path, "folder"), (tmp_path / "none.csv", "no such")):
            problems = grid.import_csv(path)
            assert len(problems) == 1 and words in problems[0], problems


def test_export_honours_the_filter_and_writes_plain_values(win, tmp_path):
    grid = win.open_bulk("unit-type")
    m = grid.model
    name = next(i for i, c in enumerate(m.columns) if c.key == "name")
    tiger = m.index_of[("de-pz-vi-e", "")]
    assert m.setData(m.index(tiger, name), '=HYPERLINK("http://evil.example","x")')
    grid.filter.setText("italian")
    table = _export(grid, tmp_path)
    shown = grid.proxy.rowCount()
    assert 0 < shown == len(table) - 1 < m.rowCount()
    assert [r[0] for r in table[1:]] == [m.rows[i].oid for i in grid.visible_rows()]
    cells = [c for r in table[1:] for c in r]
    assert "True" not in cells and "False" not in cells and "✓" not in cells
    assert {"true", "false"} & set(cells)
    grid.filter.setText("")
    table = _export(grid, tmp_path)
    line = next(r for r in table if r[0] == "de-pz-vi-e")
    assert line[table[0].index("name")].startswith("'=HYPERLINK")
    assert not [c for r in table for c in r if c[:1] in ("=", "+", "@") or (c[:1] == "-" and not _number(c))]
    # the neutralised cell comes back as it was: a round trip changes nothing
    assert _import(grid, tmp_path, table) == [] and m.last_changes == 0
    assert win.doc.get("unit-type", "de-pz-vi-e", "/name").startswith("=HYPERLINK")


def _number(text: str) -> bool:
    try:
        float(text)
        return True
    except ValueError:
        return False


def test_reimporting_an_unchanged_file_says_no_change(win, tmp_path, monkeypatch):
    from PySide6.QtWidgets import QFileDialog
    grid = win.open_bulk("formation-card")
    path = tmp_path / "cards.csv"
    grid.export_csv(path)
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (str(path), "CSV (*.csv)"))
    count = win.doc.undo_stack.count()
    grid._import_dialog()
    assert "no change" in win.statusBar().currentMessage()
    assert win.doc.undo_stack.count() == count


def test_an_import_naming_a_unit_type_that_does_not_exist_is_refused(win, tmp_path):
    grid = win.open_bulk("formation-card")
    table = _export(grid, tmp_path)
    head = table[0]
    line = next(i for i, r in enumerate(table) if r[0] == "161" and r[1] == "1942")
    table[line][head.index("units")] = "2×no-such-tank"
    problems = _import(grid, tmp_path, table)
    assert problems and f"line {line + 1}, column units" in problems[0] and "validate would report" in problems[0], \
        problems
    assert win.doc.get("formation-card", "161", "/variants/1942/units") != [{"type": "no-such-tank", "count": 2}]


def test_an_import_says_what_follows_from_it_elsewhere(win, tmp_path, monkeypatch):
    from PySide6.QtWidgets import QFileDialog
    grid = win.open_bulk("formation-card")
    table = _export(grid, tmp_path)
    head = table[0]
    line = next(i for i, r in enumerate(table) if r[0] == "161" and r[1] == "1942")
    table[line][head.index("units")] = "2×de-pz-ii-f"  # valid on the card; setups and scenarios no longer match
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows(table)
    path = tmp_path / "edited.csv"
    path.write_text(out.getvalue())
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (str(path), "CSV (*.csv)"))
    grid._import_dialog()
    message = win.statusBar().currentMessage()
    assert "1 cell(s) changed" in message and "new error(s) elsewhere" in message, message
