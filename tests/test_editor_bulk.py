"""Bulk editing (#13 part 3): every unit type, and every formation card x year variant, in a
grid that sorts, filters, takes multi-cell pastes, exports and imports CSV that round-trips,
and shows findings on their cells; every change is one undo step."""
from __future__ import annotations

import csv
import io

import pytest
from PySide6.QtCore import Qt

from editorkit import close, copy_pack, isolate, settle, window
from sandtable.editor.desert_steel.bulk import parse_units, show_units


@pytest.fixture
def win(qtbot, tmp_path, monkeypatch):
    isolate(monkeypatch, tmp_path)
    w = window(qtbot, copy_pack(tmp_path))
    yield w
    close(w)


def col(grid, key):
    return next(i for i, c in enumerate(grid.model.columns) if c.key == key)


def row(grid, oid, year=""):
    return grid.model.index_of[(oid, year)]


def test_unit_type_grid_edits_sorts_filters_and_pastes(win):
    grid = win.open_bulk("unit-type")
    m = grid.model
    assert m.rowCount() == len(win.ws.keys("unit-type"))
    assert {"movement", "defense", "anti_vehicle", "nationality", "towed"} <= {c.key for c in m.columns}
    mv, df = col(grid, "movement"), col(grid, "defense")
    tiger = row(grid, "de-pz-vi-e")
    # one cell, typed
    assert m.setData(m.index(tiger, mv), "5")
    assert win.doc.get("unit-type", "de-pz-vi-e", "/movement") == 5
    assert not m.setData(m.index(tiger, mv), "fast")  # said in words, nothing changes
    assert "“fast” is not a whole number" in win.statusBar().currentMessage()
    win.undo_action.trigger()
    assert win.doc.get("unit-type", "de-pz-vi-e", "/movement") == 4
    # sort by a number column: numbers in numeric order, not as text
    grid.view.sortByColumn(mv, Qt.AscendingOrder)
    shown = [grid.proxy.index(r, mv).data(Qt.UserRole) for r in range(grid.proxy.rowCount())]
    assert shown == sorted(shown)
    # filter on any text
    grid.filter.setText("italian")
    assert 0 < grid.proxy.rowCount() < m.rowCount()
    nat = col(grid, "nationality")
    assert all(grid.proxy.index(r, nat).data() == "italian" for r in range(grid.proxy.rowCount()))
    # a block pasted from a spreadsheet (2 rows x 2 columns) lands in the visible order, as one undo step
    stack = win.doc.undo_stack
    src = [grid.proxy.mapToSource(grid.proxy.index(r, 0)).row() for r in range(2)]
    ids = [m.rows[r].oid for r in src]
    assert m.columns[mv + 1].kind == "int"
    before = stack.index()
    assert grid.paste_text("3\t7\n2\t6\n", top=0, left=mv) == []
    assert stack.index() == before + 1
    got = [(win.doc.get("unit-type", i, "/movement"), win.doc.get("unit-type", i, m.columns[mv + 1].sub)) for i in ids]
    assert got == [(3, 7), (2, 6)]
    win.undo_action.trigger()
    assert [win.doc.get("unit-type", i, "/movement") for i in ids] != [3, 2]
    # one value pasted over a selection fills every selected cell
    sel = grid.view.selectionModel()
    for r in range(2):
        sel.select(grid.proxy.index(r, df), sel.SelectionFlag.Select)
    assert grid.paste_text("8") == []
    assert [win.doc.get("unit-type", i, "/defense") for i in ids] == [8, 8]
    # a paste with one bad cell changes nothing and names the cell
    before = stack.index()
    problems = grid.paste_text("3\tx\n", top=0, left=mv)
    assert problems and "“x” is not a whole number" in problems[0] and win.asked[-1][0] == "Paste not applied"
    assert stack.index() == before


def test_csv_round_trips_and_imports_as_one_undo_step(win, tmp_path):
    grid = win.open_bulk("formation-card")
    m = grid.model
    years = sum(len((win.ws.value("formation-card", c) or {}).get("variants") or {}) or 1
                for c in win.ws.keys("formation-card"))
    assert m.rowCount() == years
    path = tmp_path / "cards.csv"
    grid.export_csv(path)
    count = win.doc.undo_stack.count()
    assert grid.import_csv(path) == [] and win.doc.undo_stack.count() == count  # round trip: no change
    table = list(csv.reader(io.StringIO(path.read_text())))
    head = table[0]
    assert head[:2] == ["id", "year"] and "morale" in head and "units" in head
    line = next(i for i, r in enumerate(table) if r[0] == "161" and r[1] == "1942")
    table[line][head.index("morale")] = "7"
    table[line][head.index("units")] = "2×de-pz-ii-f; 3×de-pz-iii-j"
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows(table)
    path.write_text(out.getvalue())
    assert grid.import_csv(path) == []
    assert win.doc.get("formation-card", "161", "/variants/1942/morale") == 7
    assert win.doc.get("formation-card", "161", "/variants/1942/units") == [
        {"type": "de-pz-ii-f", "count": 2}, {"type": "de-pz-iii-j", "count": 3}]
    assert win.doc.undo_stack.count() == count + 1  # the whole import: one undo step
    win.undo_action.trigger()
    assert win.doc.get("formation-card", "161", "/variants/1942/morale") == 10
    # bad cells and unknown rows: nothing changes, each problem names its line and column
    table[line][head.index("morale")] = "seven"
    table.append(["99999", "1942"] + [""] * (len(head) - 2))
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows(table)
    path.write_text(out.getvalue())
    problems = grid.import_csv(path)
    assert any("no formation-card 99999" in p and f"line {len(table)}" in p for p in problems)
    path.write_text(out.getvalue().replace("99999,1942" + "," * (len(head) - 2) + "\n", ""))
    problems = grid.import_csv(path)
    assert problems == [f"cards.csv, line {line + 1}, column morale: “seven” is not a whole number"]
    assert win.doc.get("formation-card", "161", "/variants/1942/morale") == 10


def test_findings_show_on_their_cells(win, qtbot):
    grid = win.open_bulk("formation-card")
    m = grid.model
    r, c = row(grid, "161", "1942"), col(grid, "units")
    assert m.setData(m.index(r, c), "2×de-no-such-tank")
    settle(qtbot, win)
    hits = m.findings.get((r, c))
    assert hits and hits[0].finding.code == "unknown-reference"
    assert m.data(m.index(r, c), Qt.BackgroundRole) is not None
    assert "de-no-such-tank" in m.data(m.index(r, c), Qt.ToolTipRole)
    # the row header is wide enough for every row's label, as Qt would have made it (it measures
    # the labels itself; Qt's own size hint calls the model thousands of times)
    from PySide6.QtWidgets import QHeaderView
    header = grid.view.verticalHeader()
    assert header.sizeHint().width() >= QHeaderView.sizeHint(header).width()
    assert header.sectionsClickable() and header.width() >= header.sizeHint().width()


def test_units_text_round_trips():
    units = [{"type": "de-pz-ii-f", "count": 3}, {"type": "de-pz-iii-j", "count": 2}]
    assert parse_units(show_units(units)) == units
    assert parse_units("3x de-pz-ii-f, 2 * de-pz-iii-j") == units
    assert parse_units("de-pz-ii-f") == [{"type": "de-pz-ii-f", "count": 1}]
    with pytest.raises(ValueError, match="count×unit-type"):
        parse_units("three tigers")
