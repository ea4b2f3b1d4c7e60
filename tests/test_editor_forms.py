"""Each editor driven as a user would: change a value in its widget, undo, redo, save,
reopen and see it kept; see the finding appear and go away."""
from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from editorkit import close, copy_pack, isolate, settle, window
from sandtable.editor.desert_steel.forms.card import UnitsTable
from sandtable.editor.forms.fields import FactorField, IntField
from sandtable.editor.forms.grid import JsonGrid
from sandtable.rules.catalog import load_catalog


@pytest.fixture
def win(qtbot, tmp_path, monkeypatch):
    isolate(monkeypatch, tmp_path)
    pack = copy_pack(tmp_path)
    w = window(qtbot, pack)
    yield w
    close(w)


def field(form, pointer):
    return form.field(pointer)  # makes the tab holding it first (a scenario's tabs are made when shown)


def codes(w):
    return {(r.finding.code, r.kind, r.id) for r in w.findings.model.rows}


def test_unit_type_edit_undo_redo_save_reopen(win, qtbot, tmp_path):
    form = win.open_object("unit-type", "de-pz-vi-e")
    spin = field(form, "/defense")
    assert isinstance(spin, IntField) and spin.value() == 9
    spin.setValue(8)
    assert win.doc.get("unit-type", "de-pz-vi-e", "/defense") == 8
    assert form.preview.unit["defense"] == 8  # the counter preview follows
    assert win.isWindowModified()
    # the edited value is marked as authored (new content of the designer), naming the pack
    assert win.doc.get("unit-type", "de-pz-vi-e", "/provenance/~1defense")["source"] == "authored"
    win.undo_action.trigger()
    assert spin.value() == 9 and win.doc.get("unit-type", "de-pz-vi-e", "/provenance/~1defense") is None
    assert not win.isWindowModified()
    win.redo_action.trigger()
    assert spin.value() == 8
    av = field(form, "/anti_vehicle")
    assert isinstance(av, FactorField)
    av.setValue(-1)  # the printed dot
    assert win.doc.get("unit-type", "de-pz-vi-e", "/anti_vehicle") == "cannot-fire"
    assert win.save()
    assert not win.isWindowModified()
    tiger = load_catalog([win.ws.path]).get("unit-type", "de-pz-vi-e").value
    assert (tiger["defense"], tiger["anti_vehicle"]) == (8, "cannot-fire")


def test_finding_appears_jumps_and_disappears(win, qtbot):
    form = win.open_object("formation-card", "161")
    table = field(form, "/variants/1942/units")
    assert isinstance(table, UnitsTable)
    table._edit(0, "type", "de-no-such-tank")  # what choosing an unknown type in the row does
    settle(qtbot, win)
    assert ("unknown-reference", "formation-card", "161") in codes(win)
    assert "error" in win.counts.text()
    # jump: double-click the finding's row
    view = win.findings.view
    row = next(r for r in range(win.findings.proxy.rowCount())
               if win.findings.proxy.index(r, 1).data() == "unknown-reference"
               and win.findings.proxy.index(r, 2).data() == "formation-card 161")
    win.close_tab(win.tabs.indexOf(form))
    view.doubleClicked.emit(win.findings.proxy.index(row, 0))
    qtbot.waitUntil(lambda: win.current_object() == ("formation-card", "161"))
    form = win.tabs.currentWidget()
    qtbot.waitUntil(lambda: form.focusWidget() is not None or True)
    assert form.focus_pointer("/variants/1942/units/0/type")
    win.undo_action.trigger()
    settle(qtbot, win)
    assert ("unknown-reference", "formation-card", "161") not in codes(win)
    assert win.counts.text() == "valid"


def test_card_variants_copy_and_command_subordinates(win, qtbot):
    form = win.open_object("formation-card", "161")
    assert "1940" not in win.doc.get("formation-card", "161", "/variants")
    form.copy_variant("1941", "1940")
    assert win.doc.get("formation-card", "161", "/variants/1940") == win.doc.get("formation-card", "161", "/variants/1941")
    settle(qtbot, win)
    assert ("card-year-outside-dates", "formation-card", "161") in codes(win)
    assert any(p == "/variants/1940/morale" for p, _ in form.bindings)  # the new column is there
    win.undo_action.trigger()
    settle(qtbot, win)
    assert ("card-year-outside-dates", "formation-card", "161") not in codes(win)
    cmd = win.open_object("formation-card", "160")
    picker = cmd.picker
    item = next(picker.item(i) for i in range(picker.count()) if picker.item(i).data(Qt.UserRole) == 166)
    item.setCheckState(Qt.Checked)
    assert win.doc.get("formation-card", "160", "/subordinates")[-1] == 166
    assert 166 in cmd.hq._values


def test_raid_card_and_tables_as_grids(win, qtbot):
    raid = win.open_object("raid-card", "S1")
    count = field(raid, "/air_strike/count")
    count.setValue(count.value() + 1)
    assert win.doc.get("raid-card", "S1", "/air_strike/count") == count.value()
    tables = win.open_object("rule-tables", "desert-steel")
    grid = field(tables, "/combat_results/columns/vehicle")
    assert isinstance(grid, JsonGrid)
    grid.table.item(0, 1).setText("9")  # max total of the first (miss) band
    assert win.doc.get("rule-tables", "desert-steel", "/combat_results/columns/vehicle/0/max") == 9
    settle(qtbot, win)
    assert ("table-gap", "rule-tables", "desert-steel") in codes(win)
    win.undo_action.trigger()
    effects = win.open_object("terrain-effects", "desert-steel")
    relief = field(effects, "/relief/values")
    col = next(c for c, spec in enumerate(relief.columns) if spec.sub == "/levels/brown")
    row = relief.rows.index("hills")
    relief.table.item(row, col).setText("2")
    assert win.doc.get("terrain-effects", "desert-steel", "/relief/values/hills/levels/brown") == 2
    settle(qtbot, win)
    assert win.counts.text() == "valid"


def test_map_configuration_and_scenario(win, qtbot):
    conf = win.open_object("map-configuration", "A-over-B-north-up")
    north = field(conf, "/north")
    north.setCurrentText("down")
    assert win.doc.get("map-configuration", "A-over-B-north-up", "/north") == "down"
    qtbot.waitUntil(lambda: conf.board.scene.board is not None and conf.board.scene.board.north == "down")
    scen = win.open_object("scenario", "battleaxe")
    turns = field(scen, "/conditions/turns")
    turns.setValue(13)
    assert win.doc.get("scenario", "battleaxe", "/conditions/turns") == 13
    picker = field(scen, "/sides/allied/formations/0/cards")
    texts = [picker.item(i).text() for i in range(picker.count())]
    assert any(t.startswith("432 ") and "4 Matilda" in t for t in texts)  # units of the scenario year
    scen.show_zone(win.doc.get("scenario", "battleaxe", "/sides/allied/formations/0/setup"))
    assert scen.tabs.currentWidget() is scen.board
    assert scen.board.scene.overlay is not None
    win.doc.undo_stack.undo()
    assert win.doc.get("scenario", "battleaxe", "/conditions/turns") == 12


def test_scenario_tabs_are_made_when_first_shown_or_jumped_to(win, qtbot):
    """Opening a scenario makes its General tab only; a side, special rules and victory are made
    when shown, when a field in them is asked for, or when a finding jumps to one of them."""
    from sandtable.editor.desert_steel.forms.scenario import CardPicker
    scen = win.open_object("scenario", "gazala")
    bound = [p for p, _ in scen.bindings]
    assert "/conditions/turns" in bound and not any(p.startswith(("/sides/", "/victory", "/special_rules"))
                                                    for p in bound)
    assert scen.formations == {}
    # shown by the user: the Allied tab and its first sub-tab (formations, first group selected)
    scen.tabs.setCurrentIndex(1)
    qtbot.waitUntil(lambda: "allied" in scen.formations)
    assert isinstance(scen.field("/sides/allied/formations/0/cards"), CardPicker)
    assert not any(p.startswith("/sides/allied/reinforcements") for p, _ in scen.bindings)  # its own sub-tab
    # fields made later carry their provenance badge and follow edits like the others
    text = scen.field("/victory/text/en")
    assert any(b.pointer == "/victory/text/en" for b in scen.badges)
    win.doc.set("scenario", "gazala", "/victory/text/en", "Changed.")
    assert text.toPlainText() == "Changed."
    with pytest.raises(KeyError):
        scen.field("/no/such/field")
    # a finding's jump into a tab never shown: the Axis side's reinforcements grid, focused
    beda = win.open_object("scenario", "beda-fomm")
    assert beda.focus_pointer("/sides/axis/reinforcements/0/turn")
    grid = beda.field("/sides/axis/reinforcements")
    assert beda.tabs.currentIndex() == 2 and grid.isVisible() and grid.table.currentRow() == 0
    assert grid.table.item(0, 0).text() == str(win.doc.get("scenario", "beda-fomm",
                                                           "/sides/axis/reinforcements/0/turn"))
    assert beda.tabs.widget(1).content is None  # the other side's tab stays unmade
    # a finding about the whole object jumps to General without making any tab
    supercharge = win.open_object("scenario", "supercharge")
    assert supercharge.focus_pointer("")
    assert supercharge.tabs.currentIndex() == 0
    assert all(supercharge.tabs.widget(i).content is None for i in range(1, 5))
    # into the second formation group of a side never shown: that group selected, its field shown
    cauldron = win.open_object("scenario", "cauldron")
    assert cauldron.focus_pointer("/sides/axis/formations/1/cards")
    assert cauldron.formations["axis"].selected == 1
    picker = cauldron.field("/sides/axis/formations/1/cards")
    qtbot.waitUntil(picker.isVisible)  # a group's fields are shown on the next turn of the event loop


def test_scenario_tab_titles_count_the_findings_about_their_fields(win, qtbot):
    scen = win.open_object("scenario", "gazala")
    titles = [scen.tabs.tabText(i) for i in range(5)]
    assert titles == ["General", "Allied", "Axis", "Special rules", "Victory"]  # the pack is clean
    win.doc.set("scenario", "gazala", "/sides/axis/formations/0/cards", [99999])  # no such card
    settle(qtbot, win)
    mine = [r for r in win.findings.model.rows if r.id == "gazala" and r.pointer.startswith("/sides/axis/")]
    assert mine and scen.tabs.tabText(2) == f"Axis ({len(mine)})"
    assert [scen.tabs.tabText(i) for i in (0, 1, 3, 4)] == ["General", "Allied", "Special rules", "Victory"]
    assert scen.tabs.widget(2).content is None  # counted without making the tab
    win.doc.undo_stack.undo()
    settle(qtbot, win)
    assert scen.tabs.tabText(2) == "Axis"
