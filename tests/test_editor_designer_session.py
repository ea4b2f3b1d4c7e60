"""A designer's session on the real window, by mouse and keyboard (#26): one truth across the
views and the checks. A blank basic-rules scenario given an infantry card gets the engine's
finding at once and, switched to the advanced rules, `simulate` plays it; it is in the quick
game's list as soon as it is made; a map painted in its Paint tab changes what the placement
board's line-of-sight tool answers without reopening anything; a blank card gets its first
(1942) variant through its form; titles, explorer groups and "(outside dates)" follow edits.
"""
from __future__ import annotations

import json

from PySide6.QtCore import Qt, QTimer
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QLabel, QTabWidget, QToolButton

from editorkit import close, copy_pack, isolate, settle, window
from sandtable.cli import main as cli

GAZALA_CONDITIONS = {"turns": 6, "visibility": 10, "relief": {"value": "flat"}, "zone": {"value": "sandy"},
                     "urbanization": {"value": "desert"}, "road_network": {"value": "none"}}
VICTORY = {"outcomes": [{"when": {"cmp": [{"count": {"event": "destroyed", "units": {"side": "axis"}}}, ">=", 3]},
                         "result": {"winner": "allied"}}],
           "otherwise": {"winner": "axis"}}


def click_section(explorer, kind: str) -> None:
    """A mouse click on the explorer's section of a kind ("Scenarios (15)")."""
    tree, proxy = explorer.tree, explorer.proxy
    for r in range(proxy.rowCount()):
        idx = proxy.index(r, 0)
        if explorer.section_kind.get(proxy.mapToSource(idx).row()) == kind:
            tree.scrollTo(idx)
            QTest.mouseClick(tree.viewport(), Qt.LeftButton, Qt.NoModifier, tree.visualRect(idx).center())
            assert explorer.selected() == (kind, None)
            return
    raise AssertionError(f"no section {kind}")


def new_by_dialog(qtbot, w, kind: str, oid: str) -> None:
    """Explorer: click the section, click New…, type the id in the dialog, press Enter."""
    click_section(w.explorer, kind)
    typed = []

    def type_id():
        dialog = QApplication.activeModalWidget()
        if dialog is None or not hasattr(dialog, "id"):
            QTimer.singleShot(50, type_id)
            return
        dialog.id.selectAll()
        QTest.keyClicks(dialog.id, oid)
        typed.append(dialog.id.text())
        QTest.keyClick(dialog.id, Qt.Key_Return)
    QTimer.singleShot(50, type_id)
    QTest.mouseClick(w.explorer.buttons["New…"], Qt.LeftButton)
    assert typed == [oid]
    qtbot.waitUntil(lambda: (kind, oid) in w.forms)


def findings_of(w, oid: str, code: str) -> list[str]:
    return [r.finding.message for r in w.findings.model.rows if str(r.id) == oid and r.finding.code == code]


def test_blank_basic_scenario_with_infantry_gets_the_engines_finding_then_plays(qtbot, tmp_path, monkeypatch,
                                                                                 capsys):
    isolate(monkeypatch, tmp_path)
    w = window(qtbot, copy_pack(tmp_path), owned=False)
    w.resize(1366, 740)
    settle(qtbot, w)
    new_by_dialog(qtbot, w, "scenario", "bir-el-gubi")
    form = w.forms[("scenario", "bir-el-gubi")]
    # the quick game and the balance lab list it at once, and the quick game offers it first
    assert w.quickgame.scenario.currentData() == "bir-el-gubi"
    assert w.balancelab.scenario.findData("bir-el-gubi") >= 0
    # its general data, through its fields; the tab's title and the lists follow the name
    form.field("/name/en").commit("Bir el Gubi")
    form.field("/number").commit("XVI")
    assert w.tabs.tabText(w.tabs.indexOf(form)).startswith("XVI  Bir el Gubi")
    assert w.quickgame.scenario.itemText(w.quickgame.scenario.findData("bir-el-gubi")).startswith("XVI Bir el Gubi")
    doc = w.doc
    doc.set("scenario", "bir-el-gubi", "/year", 1942)
    doc.set("scenario", "bir-el-gubi", "/map_configuration", "A-left-of-B-north-right")
    doc.set("scenario", "bir-el-gubi", "/conditions", GAZALA_CONDITIONS)
    doc.set("scenario", "bir-el-gubi", "/sides/allied/formations",
            [{"cards": [422], "setup": {"near_edge": {"edge": "east", "within": 3, "map": "B"}}}])
    doc.set("scenario", "bir-el-gubi", "/sides/axis/formations",
            [{"cards": [161, 162], "setup": {"near_edge": {"edge": "south", "within": 2, "map": "A"}}}])
    doc.set("scenario", "bir-el-gubi", "/victory/expression", VICTORY)
    settle(qtbot, w)
    assert [r.finding.line_text() for r in w.findings.model.rows
            if str(r.id) == "bir-el-gubi" and r.finding.severity >= 2] == []
    # the infantry card 411 A/6, checked in the allied card list with the keyboard
    form.tabs.setCurrentIndex(1)
    picker = form.field("/sides/allied/formations/0/cards")
    item = next(picker.item(i) for i in range(picker.count()) if picker.item(i).text().startswith("411 "))
    picker.setCurrentItem(item)
    picker.setFocus()
    QTest.keyClick(picker, Qt.Key_Space)
    assert doc.get("scenario", "bir-el-gubi", "/sides/allied/formations/0/cards") == [422, 411]
    settle(qtbot, w)
    sentence = ("basic rules have no infantry (§2.11): card 411 A/6 carries gb-infantry and gb-mg — switch the "
                "scenario to advanced rules or remove the card")
    assert findings_of(w, "bir-el-gubi", "scenario-unplayable") == [sentence]
    # the fix: the rules level, chosen with the keyboard in its box
    form.tabs.setCurrentIndex(0)
    rules = form.field("/rules")
    rules.setFocus()
    QTest.keyClicks(rules, "advanced")
    assert doc.get("scenario", "bir-el-gubi", "/rules") == "advanced"
    settle(qtbot, w)
    assert findings_of(w, "bir-el-gubi", "scenario-unplayable") == []
    mod = tmp_path / "mods" / "bir-el-gubi"
    result = w.save_as_mod(mod, "bir-el-gubi", "Bir el Gubi")
    assert result is not None and result.ok
    close(w)
    capsys.readouterr()
    assert cli(["simulate", "XVI", "--pack", str(mod), "--games", "2", "--no-progress", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["games"] == 2


def level_colour(ws, relief: str, level: int) -> str:
    effects = ws.value("terrain-effects", ws.keys("terrain-effects")[0])
    levels = effects["relief"]["values"][relief]["levels"]
    return next(c for c, n in sorted(levels.items()) if n == level)


def lazy_tab(qtbot, form, title: str):
    from sandtable.editor.lazytab import LazyTab
    tabs = next(t for t in form.findChildren(QTabWidget) if any(t.tabText(i) == title for i in range(t.count())))
    tab = next(tabs.widget(i) for i in range(tabs.count()) if tabs.tabText(i) == title)
    tabs.setCurrentWidget(tab)
    qtbot.waitUntil(lambda: isinstance(tab, LazyTab) and tab.content is not None)
    return tab.content


def click_hex(view, key: str, modifier=Qt.NoModifier) -> None:
    view.zoom_on(key, 2.5)
    QTest.mouseClick(view.viewport(), Qt.LeftButton, modifier, view.mapFromScene(view.canvas().centre(key)))


def test_a_map_painted_changes_the_placement_boards_line_of_sight(qtbot, tmp_path, monkeypatch):
    isolate(monkeypatch, tmp_path)
    w = window(qtbot, copy_pack(tmp_path), owned=False)
    w.resize(1366, 740)
    scenario = w.open_object("scenario", "lightfoot")
    bench = lazy_tab(qtbot, scenario, "Setup placement")
    bench.use_tool("los")
    click_hex(bench.view, "B2412")
    click_hex(bench.view, "B2111")
    los = bench.tools["los"]
    assert not los.result.visible and "B2212" in los.result.blocking  # the §9.14 ridge
    # the ridge's hex painted down to level 0 in map B's Paint tab
    relief = w.ws.value("scenario", "lightfoot")["conditions"]["relief"]["value"]
    flat = level_colour(w.ws, relief, 0)
    before = w.ws.get("map", "B", "/hexes/2212")
    painter = lazy_tab(qtbot, w.open_object("map", "B"), "Paint")
    painter.colour.setCurrentIndex(painter.colour.findData(flat))
    click_hex(painter.view, "B2212")
    assert w.ws.get("map", "B", "/hexes/2212") != before  # the default colour: the hex's entry goes
    # back to the scenario's tab (not reopened): the same tool now answers for the new terrain
    w.tabs.setCurrentWidget(scenario)
    qtbot.waitUntil(lambda: not bench._stale and not bench.reloading, timeout=5000)
    assert bench.tools["los"] is los
    # the answer on screen was asked again of the new terrain, without a click
    assert "B2212" not in los.result.blocking
    click_hex(bench.view, "B2412")
    click_hex(bench.view, "B2111")
    assert "B2212" not in los.result.blocking
    assert los.result.to_json() != {} and bench.field.terrain.level("B2212") == 0
    # the scenario's read-only Board tab shows the new terrain too
    scenario.tabs.setCurrentWidget(scenario.board)
    qtbot.waitUntil(lambda: scenario.board.scene.terrain is not None
                    and scenario.board.scene.terrain.level("B2212") == 0, timeout=5000)
    scenario.tabs.setCurrentIndex(scenario.tabs.count() - 1)  # back to the placement board
    # undone in the map: the answer is the ridge again
    w.doc.undo_stack.undo()
    qtbot.waitUntil(lambda: bench.field.terrain.level("B2212") == 2, timeout=5000)
    assert "B2212" in los.result.blocking  # asked again at once
    click_hex(bench.view, "B2412")
    click_hex(bench.view, "B2111")
    assert not los.result.visible and "B2212" in los.result.blocking
    close(w)


def test_a_blank_card_gets_its_first_variant_through_its_form(qtbot, tmp_path, monkeypatch):
    isolate(monkeypatch, tmp_path)
    w = window(qtbot, copy_pack(tmp_path), owned=False)
    w.resize(1366, 740)
    new_by_dialog(qtbot, w, "formation-card", "990")
    form = w.forms[("formation-card", "990")]
    assert "variants" not in w.ws.value("formation-card", "990")

    def column(year):
        for i in range(form.variants_layout.count()):
            col = form.variants_layout.itemAt(i).widget()
            labels = [lab.text() for lab in col.findChildren(QLabel)]
            if any(t.startswith(f"<b>{year}</b>") for t in labels):
                return col, labels
        raise AssertionError(f"no {year} column")
    col, labels = column("1942")
    assert any("(outside dates)" in t for t in labels)  # a blank card's dates are 1900-1900
    button = next(b for b in col.findChildren(QToolButton) if b.text() == "Add…")
    chosen = []

    def choose():
        menu = button.menu()
        if not menu.isVisible():
            QTimer.singleShot(50, choose)
            return
        action = next(a for a in menu.actions() if a.text() == "New 1942 variant")
        chosen.append(action.text())
        menu.setActiveAction(action)
        QTest.keyClick(menu, Qt.Key_Return)
    QTimer.singleShot(50, choose)
    QTest.mouseClick(button, Qt.LeftButton)
    qtbot.waitUntil(lambda: "1942" in (w.ws.value("formation-card", "990").get("variants") or {}))
    assert chosen == ["New 1942 variant"]
    variant = w.ws.value("formation-card", "990")["variants"]["1942"]
    assert variant["units"] and w.ws.value("unit-type", variant["units"][0]["type"])["nationality"] == "german"
    assert w.doc.undo_stack.undoText() == "New card 990 variant 1942"
    # the dates of use typed in: the column is no longer "outside dates", without reopening
    w.doc.set("formation-card", "990", "/years", {"from": 1941, "to": 1943})
    qtbot.wait(10)
    _, labels = column("1942")
    assert not any("(outside dates)" in t for t in labels)
    # the explorer groups follow a new nationality, the tab title a new designation
    w.doc.set("formation-card", "990", "/designation", "Z/9")
    assert "Z/9" in w.tabs.tabText(w.tabs.indexOf(form))
    w.doc.set("formation-card", "990", "/nationality", "italian")
    qtbot.waitUntil(lambda: w.explorer._group_path(w.explorer.items[("formation-card", "990")])[0] == "Italian")
    close(w)


def test_a_renumbered_card_follows_in_the_open_placement_board(qtbot, tmp_path, monkeypatch):
    from sandtable.editor import lifecycle_ui as ui
    isolate(monkeypatch, tmp_path)
    w = window(qtbot, copy_pack(tmp_path), owned=False)
    w.resize(1366, 740)
    scenario = w.open_object("scenario", "gazala")
    bench = lazy_tab(qtbot, scenario, "Setup placement")
    bench.start("auto", 0)
    assert any(p["card"] == 161 for p in bench.setup["sides"]["axis"]["placements"])
    rename = ui.RenameDialog(w.doc, "formation-card", "161", parent=w)
    rename.id.setText("1161")
    rename.apply()
    rename.deleteLater()
    w.tabs.setCurrentWidget(scenario)
    qtbot.waitUntil(lambda: not bench._stale and not bench.reloading, timeout=10000)
    cards = {p["card"] for p in bench.setup["sides"]["axis"]["placements"]}
    assert 1161 in cards and 161 not in cards  # the setup being made keeps its counters
    bench.set_side("axis")
    rows = [bench.palette.topLevelItem(i).text(0) for i in range(bench.palette.topLevelItemCount())]
    assert any("1161" in r for r in rows) and not any("(161)" in r for r in rows), rows
    assert not [f for f in bench.findings if f.severity == 2]
    close(w)


def test_the_pack_setup_on_its_board_follows_edits_elsewhere(qtbot, tmp_path, monkeypatch):
    isolate(monkeypatch, tmp_path)
    w = window(qtbot, copy_pack(tmp_path), owned=False)
    oid = next(o for o in w.ws.keys("setup") if w.ws.value("setup", o)["scenario"] == "gazala")
    scenario = w.open_object("scenario", "gazala")
    bench = lazy_tab(qtbot, scenario, "Setup placement")
    bench.start_box.setCurrentIndex(bench.start_box.findData(("pack", oid)))
    bench.start("pack", oid)
    first = w.ws.value("setup", oid)["sides"]["axis"]["placements"][0]
    w.doc.set("setup", oid, "/sides/axis/placements/0/facing", (first.get("facing", 3) + 1) % 6)
    assert bench.setup["sides"]["axis"]["placements"][0]["facing"] == (first.get("facing", 3) + 1) % 6
    bench.undo.undo()  # the board's own step: back to what it showed
    assert bench.setup["sides"]["axis"]["placements"][0].get("facing") == first.get("facing")
    close(w)
