"""Victory conditions as a form (#26): rows of the common kinds read from and written to the
expression, previewed as the scenario sheet's sentences, templates from the pack's scenarios,
the JSON tree still there; every change one undoable edit."""
from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QDoubleSpinBox, QPushButton

from editorkit import close, copy_pack, isolate, shot, window
from sandtable.rules.catalog import load_catalog
from sandtable.rules.desert_steel import victory_rows as vr


def test_every_bundled_expression_reads_as_rows_and_back():
    catalog = load_catalog()
    kinds = set()
    for e in catalog.entries("scenario"):
        expr = e.value["victory"].get("expression")
        if expr is None:
            continue
        rows = vr.rows(expr)
        kinds |= {r.kind for r in rows}
        assert vr.expression(rows, expr) == expr, e.id
        assert "{" not in vr.sentences(expr), e.id
    assert kinds == {"points", "win-count", "win-points", "otherwise", "custom"}
    totensonntag = catalog.get("scenario", "totensonntag").value["victory"]["expression"]
    assert vr.sentences(totensonntag) == (
        "The Axis player wins a decisive victory if 30 or more Allied units (not forward observer) are "
        "eliminated. The Axis player wins a marginal victory if 20 or more Allied units are eliminated. "
        "Otherwise the Allied player wins.")


def test_the_form_edits_previews_and_undoes(qtbot, tmp_path, monkeypatch):
    isolate(monkeypatch, tmp_path)
    w = window(qtbot, copy_pack(tmp_path), owned=False)
    w.resize(1366, 740)
    form = w.open_object("scenario", "kasserine-pass")
    form.tabs.setCurrentIndex(4)  # Victory
    qtbot.waitUntil(lambda: hasattr(form, "victory_rows"))
    rows = form.victory_rows
    assert [r.kind for r in rows.rows] == ["points", "win-points", "win-points", "otherwise"]
    assert "The Axis player wins if the Axis player's points total 10 or more." in rows.preview.text()
    # the Axis target, typed into its number box: one undoable edit of the expression
    spin = [s for s in rows.findChildren(QDoubleSpinBox) if s.value() == 10][0]
    spin.setFocus()
    spin.selectAll()
    QTest.keyClicks(spin, "12")
    QTest.keyClick(spin, Qt.Key_Return)
    outcomes = w.doc.get("scenario", "kasserine-pass", "/victory/expression/outcomes")
    assert outcomes[0]["when"] == {"cmp": [{"points": "axis"}, ">=", 12]}
    qtbot.waitUntil(lambda: "points total 12 or more" in form.victory_rows.preview.text())
    qtbot.wait(150)  # the rows made again from the new expression, laid out and painted
    w.resize(1366, 1250)  # tall enough for the printed text, the rows and the preview in one picture
    qtbot.wait(100)
    shot(form, "victory-form")
    w.resize(1366, 740)
    w.doc.undo_stack.undo()
    assert w.doc.get("scenario", "kasserine-pass", "/victory/expression/outcomes")[0]["when"]["cmp"][2] == 10
    # a new condition of a common kind, with a mouse click
    add = next(b for b in form.victory_rows.findChildren(QPushButton) if b.text() == "+ wins on a count")
    QTest.mouseClick(add, Qt.LeftButton)
    outcomes = w.doc.get("scenario", "kasserine-pass", "/victory/expression/outcomes")
    assert len(outcomes) == 3 and outcomes[2]["when"]["cmp"][0]["count"]["event"] == "eliminated"
    assert w.doc.undo_stack.undoText().startswith("Add a victory condition")
    # a template: Totensonntag's conditions, and the printed text made from them
    rows = form.victory_rows
    rows.template.setCurrentIndex(rows.template.findData("totensonntag"))
    rows.use_template()
    assert w.doc.get("scenario", "kasserine-pass", "/victory/expression") == \
        w.ws.value("scenario", "totensonntag")["victory"]["expression"]
    form.victory_rows.to_text()
    assert w.doc.get("scenario", "kasserine-pass", "/victory/text/en").startswith(
        "The Axis player wins a decisive victory if 30 or more Allied units")
    close(w)


def test_holding_hexes_at_a_turn_is_a_row(qtbot, tmp_path, monkeypatch):
    """'The Axis player wins if 1 or more Axis units are in hex B2620 by the end of turn 8.'"""
    isolate(monkeypatch, tmp_path)
    from PySide6.QtWidgets import QComboBox, QLineEdit, QSpinBox
    w = window(qtbot, copy_pack(tmp_path), owned=False)
    form = w.open_object("scenario", "crusader")
    form.tabs.setCurrentIndex(4)
    qtbot.waitUntil(lambda: hasattr(form, "victory_rows"))
    rows = form.victory_rows
    QTest.mouseClick(next(b for b in rows.findChildren(QPushButton) if b.text() == "+ wins on a count"), Qt.LeftButton)
    rows = form.victory_rows
    new = rows.rows[-2]
    # the new row's event: "in a zone at the end", then its hexes and turn, typed
    frame = rows.list.itemAt(len(rows.rows) - 2).widget()
    event = next(b for b in frame.findChildren(QComboBox) if b.findData("in-zone") >= 0)
    event.setCurrentIndex(event.findData("in-zone"))
    rows = form.victory_rows
    frame = rows.list.itemAt(len(rows.rows) - 2).widget()
    hexes = next(e for e in frame.findChildren(QLineEdit) if "hexes held" in e.placeholderText())
    hexes.setFocus()
    QTest.keyClicks(hexes, "B2620")
    QTest.keyClick(hexes, Qt.Key_Return)
    rows = form.victory_rows
    frame = rows.list.itemAt(len(rows.rows) - 2).widget()
    turn = next(s for s in frame.findChildren(QSpinBox) if s.prefix() == "by turn ")
    turn.setValue(8)
    outcome = w.doc.get("scenario", "crusader", "/victory/expression/outcomes")[-1]
    count = outcome["when"]["cmp"][0]["count"]
    assert count["event"] == "in-zone" and count["zone"] == {"hexes": ["B2620"]} and count["by_turn"] == 8
    assert new.kind == "win-count"
    assert "are in hex B2620 by the end of turn 8." in form.victory_rows.preview.text()
    close(w)
