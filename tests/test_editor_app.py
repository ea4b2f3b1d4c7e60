"""The main window: explorer search, save as mod pack, layout restored on restart,
recent packs, print and quick test games (run and cancel)."""
from __future__ import annotations

import json

import pytest
from PySide6.QtCore import QSettings

from editorkit import close, copy_pack, isolate, settle, window
from sandtable.editor import hooks
from sandtable.rules.catalog import load_catalog


@pytest.fixture
def pack(tmp_path, monkeypatch):
    isolate(monkeypatch, tmp_path)
    return copy_pack(tmp_path)


def shown_objects(explorer) -> set[tuple[str, str]]:
    out = set()
    proxy = explorer.proxy
    stack = [proxy.index(r, 0) for r in range(proxy.rowCount())]
    while stack:
        idx = stack.pop()
        src = explorer.model.itemFromIndex(proxy.mapToSource(idx))
        if src is not None and src.data(explorer_kind_role()):
            out.add((src.data(explorer_kind_role()), src.data(explorer_kind_role() + 1)))
        stack += [proxy.index(r, 0, idx) for r in range(proxy.rowCount(idx))]
    return out


def explorer_kind_role():
    from sandtable.editor.explorer import KIND_ROLE
    return KIND_ROLE


def test_explorer_finds_by_name_number_and_hex(qtbot, pack):
    w = window(qtbot, pack)
    ex = w.explorer
    ex.proxy.set_query("tiger")
    assert ("unit-type", "de-pz-vi-e") in shown_objects(ex)
    ex.proxy.set_query("178")
    assert ("formation-card", "178") in shown_objects(ex)
    ex.proxy.set_query("B2620")
    found = shown_objects(ex)
    assert ("map", "B") in found and ("map", "A") not in found
    assert any(k == "scenario" for k, _ in found)
    ex.proxy.set_query("")
    # which pack each object comes from
    item = ex.items[("unit-type", "de-pz-vi-e")]
    assert item.parent().child(item.row(), 1).text() == "desert-steel"
    ex.activated.emit("unit-type", "de-pz-vi-e")
    assert w.current_object() == ("unit-type", "de-pz-vi-e")
    close(w)


def test_save_as_mod_pack_from_the_window_and_reopen(qtbot, pack, tmp_path):
    w = window(qtbot, pack, owned=False)
    assert "read-only" in w.windowTitle()
    form = w.open_object("raid-card", "S2")
    spin = next(x for p, x in form.bindings if p == "/bombardment/count")
    spin.setValue(spin.value() + 2)
    new = w.doc.get("raid-card", "S2", "/bombardment/count")
    mod = tmp_path / "packs" / "house-rules"
    w.save_as_mod(mod, "house-rules", "House rules")
    # the window now edits the mod pack; the base pack on disk is unchanged
    assert w.ws.pack_id == "house-rules" and not w.isWindowModified()
    assert w.ws.value("raid-card", "S2")["bombardment"]["count"] == new
    assert load_catalog([pack]).get("raid-card", "S2").value["bombardment"]["count"] == new - 2
    item = w.explorer.items[("raid-card", "S2")]
    assert "house-rules" in item.parent().child(item.row(), 1).text()
    settle(qtbot, w)
    # no errors (a copy of the base pack on the search path may be reported as shadowed)
    assert w.counts.text() == "valid" or w.counts.text().startswith("0 error(s)")
    close(w)
    overrides = json.loads((mod / "overrides.json").read_text())["overrides"]
    assert overrides[0]["target"] == {"kind": "raid-card", "id": "S2"}
    assert overrides[0]["patch"][0]["op"] == "test"


def test_layout_and_recent_packs_restored(qtbot, pack, tmp_path):
    w = window(qtbot, pack)
    w.docks["quickgame"].show()
    w.docks["provenance"].hide()
    w.resize(1234, 777)
    close(w)
    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.IniFormat)
    assert str(pack) in settings.value("recent")
    w2 = window(qtbot, pack)
    assert w2.docks["quickgame"].isVisible() and not w2.docks["provenance"].isVisible()
    assert settings.value("geometry") is not None  # (offscreen screens clamp sizes, so not compared)
    assert w2.recent_menu.actions()[0].text() == str(pack)
    close(w2)


def test_print_hook_says_what_is_missing_or_prints(qtbot, pack, tmp_path):
    w = window(qtbot, pack)
    w.settings.setValue("print_folder", str(tmp_path / "prints"))
    w.open_object("formation-card", "161")
    message = w.print_current()
    ok, status = hooks.print_kit_status()
    if not ok:
        assert "not installed yet" in message and w.asked and "not installed" in w.asked[-1][1]
    else:
        assert message == "printing"
        qtbot.waitUntil(lambda: w.last_print is not None, timeout=30000)
        assert w.last_print["message"].startswith("wrote "), w.last_print
        assert all(f.exists() and f.read_bytes().startswith(b"%PDF") for f in w.last_print["files"])
    close(w)


@pytest.mark.skipif(not hooks.simulator_status()[0], reason="the batch simulator (issue 5) is not installed")
def test_quick_game_runs_and_cancels(qtbot, pack):
    w = window(qtbot, pack)
    w.open_object("scenario", "beda-fomm")
    w.quick_game()
    panel = w.quickgame
    assert panel.scenario.currentData() == "beda-fomm"
    panel.games.setValue(2)
    panel.run()
    qtbot.waitUntil(lambda: not panel.running, timeout=60000)
    assert panel.last["played"] == 2 and not panel.last["cancelled"], panel.last
    assert panel.progress.value() == 2 and panel.chart.counts
    panel.games.setValue(500)
    panel.run()
    panel.cancel()
    qtbot.waitUntil(lambda: not panel.running, timeout=60000)
    assert panel.last["cancelled"] and panel.last["played"] < 500
    close(w)


def test_quick_game_refuses_scenarios_the_engine_cannot_play(qtbot, pack, monkeypatch):
    from sandtable.rules.desert_steel.engine import game as engine_game

    def refuse(model, scenario, allow=()):  # every bundled scenario plays: a mod may need more
        raise engine_game.EngineError(f"{scenario.id}: missing: scenario rule sandstorm (§18.7)")
    monkeypatch.setattr(engine_game, "make_context", refuse)
    w = window(qtbot, pack)
    panel = w.quickgame
    if not panel.available:
        assert "not installed yet" in panel.status.text() and not panel.run_button.isEnabled()
        close(w)
        return
    panel.set_scenario("sidi-barrani")
    panel.games.setValue(1)
    panel.run()
    qtbot.waitUntil(lambda: not panel.running, timeout=30000)
    assert "error" in panel.last
    close(w)
