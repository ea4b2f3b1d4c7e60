"""The generic editor reaches a ruleset only through its declared editor contribution: the
hand-made forms, the grids of every object, the slow checks and the explorer's names are what
the ruleset declares (Desert Steel), and a ruleset declaring none (Holland '44) gets its own
sections, JSON trees, no grids and a one-pass check; declaring costs no Qt import."""
from __future__ import annotations

import ast
import dataclasses
import subprocess
import sys
from pathlib import Path

import pytest

from editorkit import close, isolate, settle, window
from sandtable.editor import door
from sandtable.rules import rulesets
from sandtable.rules.catalog import bundled_pack

ROOT = Path(__file__).resolve().parents[1]
# The play door's side of the editor (issue 27, item 3): tests/test_layers.py holds them to it.
_PLAY_SIDE = {"quickgame.py", "balancelab.py", "hooks.py"}


def test_reading_the_declaration_imports_neither_qt_nor_the_editor():
    code = ("import sys; from sandtable.rules import rulesets; rs = rulesets.get('desert-steel'); "
            "assert rs.editor is not None and rs.editor.forms is not None; "
            "print(sorted(m for m in sys.modules if m.startswith(('PySide6', 'sandtable.editor'))))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]"


def test_generic_editor_modules_import_no_rulesets_own_code():
    found = []
    for path in sorted((ROOT / "editor").rglob("*.py")):
        rel = path.relative_to(ROOT / "editor")
        if rel.parts[0] == "desert_steel" or rel.name in _PLAY_SIDE:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else \
                [node.module or ""] if isinstance(node, ast.ImportFrom) else []
            found += [f"{rel}:{node.lineno} {n}" for n in names if "desert_steel" in n or "holland44" in n
                      or "miniatures" in n]
            if isinstance(node, ast.Constant) and node.value in ("desert-steel", "holland44", "miniatures"):
                found.append(f"{rel}:{node.lineno} compares with the name {node.value!r}")
    assert found == []


def test_the_door_answers_from_the_declaration_only():
    ds = rulesets.get("desert-steel")
    assert set(door.bulk_titles(ds)) == {"unit-type", "formation-card"}
    assert door.form_class(ds, "scenario").__module__.startswith("sandtable.editor.desert_steel.")
    assert door.form_class(ds, "no-such-kind") is None
    silent = dataclasses.replace(ds, editor=None)
    assert door.form_class(silent, "scenario") is None and door.bulk_titles(silent) == {}
    assert door.deferred_check(silent) is None and door.deferred_check(None) is None
    wrong = dataclasses.replace(ds, editor=rulesets.EditorContribution(forms="sandtable.editor.door:contribution"))
    with pytest.raises(TypeError, match="desert-steel ruleset's editor forms"):
        door.form_class(wrong, "scenario")


def test_desert_steel_pack_gets_its_forms_grids_and_second_pass(qtbot, tmp_path, monkeypatch):
    from editorkit import copy_pack
    isolate(monkeypatch, tmp_path)
    w = window(qtbot, copy_pack(tmp_path))
    try:
        settle(qtbot, w)
        scenario = w.ws.keys("scenario")[0]
        assert type(w.open_object("scenario", scenario)).__name__ == "ScenarioForm"
        assert w.open_bulk("unit-type") is not None
        assert w.validator.first_seconds, "the setup rules did not come in a second pass"
    finally:
        close(w)


def test_a_ruleset_declaring_no_editor_parts_gets_the_generic_editor(qtbot, tmp_path, monkeypatch):
    import shutil
    from sandtable.editor.forms.generic import GenericForm
    isolate(monkeypatch, tmp_path)
    pack = tmp_path / "holland44"
    shutil.copytree(bundled_pack("holland44"), pack)
    assert rulesets.get("holland44").editor is None
    w = window(qtbot, pack)
    try:
        settle(qtbot, w)
        model = w.explorer.model  # its own sections, in its order: none of Desert Steel's
        shown = [model.item(r).text().rsplit(" (", 1)[0] for r in range(model.rowCount())]
        assert shown == [d.title for d in rulesets.get("holland44").documents] + ["Packs"]
        kind = next(k for k in w.ws.kinds() if w.ws.keys(k))
        assert isinstance(w.open_object(kind, w.ws.keys(kind)[0]), GenericForm)
        assert w.open_bulk(kind) is None
        assert not w.validator.first_seconds  # nothing deferred: one pass
        from sandtable.editor.lifecycle import LifecycleError
        scenario = w.ws.keys("scenario")[0]
        with pytest.raises(LifecycleError, match="holland44 ruleset makes no automatic setups"):
            w.doc.lifecycle.new_setup(scenario, "mine", automatic=True)  # its board declares none
    finally:
        close(w)


def _notes_panel(ctx):
    from PySide6.QtWidgets import QLabel
    return QLabel(f"{len(ctx.ws.kinds())} kinds")


def test_declared_grids_and_panels_are_offered_for_the_pack_open(qtbot, tmp_path, monkeypatch):
    import shutil
    from editorkit import copy_pack
    isolate(monkeypatch, tmp_path)
    w = window(qtbot, copy_pack(tmp_path))
    try:
        bulk = [a.text() for a in w._bulk_actions]
        assert bulk == ["Bulk edit &unit types (grid, CSV)", "Bulk edit &formation cards × years (grid, CSV)"]
        assert not [n for n in w.docks if n.startswith("panel:")]
        h44 = rulesets.get("holland44")
        monkeypatch.setitem(rulesets._REGISTRY, "holland44", dataclasses.replace(h44, editor=rulesets.EditorContribution(
            panels=(rulesets.EditorPanel("notes", "Notes", "test_editor_door:_notes_panel"),))))
        pack = tmp_path / "holland44"
        shutil.copytree(bundled_pack("holland44"), pack)
        w.load_pack(pack)
        settle(qtbot, w)
        assert w._bulk_actions == []  # Desert Steel's grids went with its pack
        dock = w.docks["panel:notes"]
        assert dock.windowTitle() == "Notes" and dock.widget().text().endswith("kinds")
        assert dock.toggleViewAction() in w.view_menu.actions()
    finally:
        close(w)
