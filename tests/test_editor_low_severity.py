"""The low-severity list of #26: a setup saved into a pack without setups goes to setups/;
undo and redo name their action in the menu; the quick game rounds its figures; the map
configuration is chosen by name."""
from __future__ import annotations

import shutil

from editorkit import close, copy_pack, isolate, window


def test_a_first_setup_goes_to_setups(qtbot, tmp_path, monkeypatch):
    isolate(monkeypatch, tmp_path)
    pack = copy_pack(tmp_path)
    shutil.rmtree(pack / "setups")
    w = window(qtbot, pack)
    assert w.ws.owned and not w.ws.keys("setup")
    w.doc.lifecycle.new_setup("gazala", "my-gazala", automatic=True)
    assert w.ws.home[("setup", "my-gazala")][0] == "setups/my-gazala.json"
    w.save()
    assert (pack / "setups" / "my-gazala.json").is_file()
    close(w)


def test_undo_and_redo_name_their_action(qtbot, tmp_path, monkeypatch):
    isolate(monkeypatch, tmp_path)
    w = window(qtbot, copy_pack(tmp_path))
    assert w.undo_action.text() == "&Undo"
    w.doc.set("unit-type", "de-pz-vi-e", "/movement", 5, text="Edit Tiger movement")
    assert w.undo_action.text() == "&Undo Edit Tiger movement" and w.undo_action.iconText() == "Undo"
    w.doc.undo_stack.undo()
    assert w.redo_action.text() == "&Redo Edit Tiger movement" and w.undo_action.text() == "&Undo"
    close(w)


def test_quick_game_figures_are_rounded():
    from sandtable.editor.quickgame import summary_html
    html = summary_html({"played": 3, "scenario": "beda-fomm", "draws": 0, "average_turns": 11.333333,
                         "median_game_seconds": 0.123456,
                         "sides": {"allied": {"bot": "heuristic", "wins": 1, "win_rate": 1 / 3,
                                              "win_rate_95": [0.0615, 0.7923]},
                                   "axis": {"bot": "heuristic", "wins": 2, "win_rate": 2 / 3,
                                            "win_rate_95": [0.2077, 0.9385]}}})
    assert "11.3 turns" in html and "0.12 s" in html and "33%" in html


def test_map_configurations_are_chosen_by_name(qtbot, tmp_path, monkeypatch):
    isolate(monkeypatch, tmp_path)
    w = window(qtbot, copy_pack(tmp_path))
    form = w.open_object("scenario", "gazala")
    box = form.field("/map_configuration")
    names = [box.itemText(i) for i in range(box.count())]
    conf = w.ws.value("map-configuration", "A-left-of-B-north-right")
    assert any(t.startswith(conf["name"]) for t in names), names
    close(w)


def test_a_card_form_follows_a_unit_type_renamed_elsewhere(qtbot, tmp_path, monkeypatch):
    isolate(monkeypatch, tmp_path)
    from sandtable.editor.desert_steel.forms.card import UnitsTable
    w = window(qtbot, copy_pack(tmp_path))
    form = w.open_object("formation-card", "161")
    w.doc.set("unit-type", "de-pz-ii-f", "/name", "Panzer II F (renamed)")
    tables = [x for p, x in form.bindings if isinstance(x, UnitsTable)]
    texts = [t.table.cellWidget(r, 0).currentText() for t in tables for r in range(t.table.rowCount())]
    assert any(t.startswith("Panzer II F (renamed)") for t in texts), texts
    close(w)
