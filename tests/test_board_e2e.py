"""End to end on the board workbench: a new two-map scenario gets a hand-painted setup
zone and a placed setup in the editor, is saved, and then validates clean, passes
check-setup, prints and plays, all through the command line."""
from __future__ import annotations

import json
import subprocess
import sys

from PySide6.QtCore import QPointF, Qt
from PySide6.QtTest import QTest

from editorkit import copy_pack

SID = "hand-made-pass"


def run(*args):
    return subprocess.run([sys.executable, "-m", "sandtable", *args], capture_output=True, text=True)


def open_ctx(pack):
    from sandtable.editor.context import EditorContext
    from sandtable.editor.document import PackDocument
    from sandtable.editor.workspace import Workspace
    return EditorContext(PackDocument(Workspace(pack), autosave_seconds=0))


def test_new_two_map_scenario_painted_placed_saved_checked_printed_played(qtbot, tmp_path, monkeypatch):
    monkeypatch.setenv("SANDTABLE_AUTOSAVE_DIR", str(tmp_path / "autosave"))
    monkeypatch.setenv("SANDTABLE_SETTINGS", str(tmp_path / "settings.ini"))
    pack = copy_pack(tmp_path)
    # the new scenario: Kasserine's forces on the two maps, under another id and number
    src = json.loads((pack / "scenarios" / "15-kasserine-pass.json").read_text())
    src.update(id=SID, number="XVI", name={"en": "Hand-made Pass", "fr": "Col fait main"})
    (pack / "scenarios" / "16-hand-made-pass.json").write_text(json.dumps(src, indent=1))
    for f in (pack / "setups").glob("*.json"):
        if f.name != "15-kasserine-pass.json":
            f.unlink()

    from sandtable.editor.desert_steel.board_setup import SetupWorkbench
    ctx = open_ctx(pack)
    w = SetupWorkbench(ctx, SID)
    w.resize(1300, 850)
    qtbot.addWidget(w)
    w.show()
    qtbot.waitExposed(w)
    w.view.fit()
    assert len(w.field.board.maps()) == 2
    # paint the axis setup zone: a rectangle over the left third of the board
    w.use_tool("zone")
    panel = w.zones
    panel.target.setCurrentIndex(next(i for i in range(panel.target.count())
                                      if (panel.target.itemData(i) or "").startswith("/sides/axis/formations/0")))
    panel.mode_box.setCurrentIndex(panel.mode_box.findData("rect"))
    r = w.canvas.geo.rect()
    a = w.view.mapFromScene(QPointF(r.left() - 4, r.top() - 4))
    b = w.view.mapFromScene(QPointF(r.left() + r.width() * 0.3, r.bottom() + 4))
    vp = w.view.viewport()
    QTest.mousePress(vp, Qt.LeftButton, Qt.NoModifier, a)
    QTest.mouseMove(vp, b)
    QTest.mouseRelease(vp, Qt.LeftButton, Qt.NoModifier, b)
    painted = set(panel.painted)
    assert len(painted) > 200 and "hexes" not in panel.expression
    assert panel.apply()  # into the scenario, unsaved: the workbench re-reads the edited pack
    assert set(w.field.zone(w.formation("axis", 161).zone)) == painted
    w.use_tool("place")
    # place: the automatic setup, then one formation taken off and dragged back by hand from
    # the palette into the painted zone
    w.start("auto", 0)
    refs = [("axis", "placements", i) for i, p in enumerate(w.setup["sides"]["axis"]["placements"])
            if p["card"] == 161]
    w.remove(refs)
    w.set_side("axis")
    from test_board_workbench import drop, formation_row
    w.view.fit()
    target = sorted(painted)[len(painted) // 2]
    drop(w.view, w.palette.mime_for(formation_row(w, 161)), target)
    assert not [f for f in w.findings if f.severity == 2], [f.message for f in w.findings]
    w.setup["id"] = f"{SID}-hand"
    assert w.write_to_pack()  # a new setup object of the pack, one undoable step
    assert ctx.ws.value("setup", f"{SID}-hand") == w.setup
    ctx.doc.save()
    w.save_to(tmp_path / "hand.json")

    done = run("validate", str(pack))
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    for setup in (str(tmp_path / "hand.json"), f"{SID}-hand"):  # the file, and the pack's object (saved)
        done = run("check-setup", setup, "--pack", str(pack))
        assert done.returncode == 0, done.stdout + done.stderr
    done = run("export", "scenario", "XVI", "--pack", str(pack), "-o", str(tmp_path / "xvi.pdf"))
    assert done.returncode == 0 and (tmp_path / "xvi.pdf").stat().st_size > 1000, done.stderr
    done = run("simulate", "XVI", "--games", "1", "--no-progress", "--setup", str(tmp_path / "hand.json"),
               "--pack", str(pack), "--json")
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    assert json.loads(done.stdout)
