"""Live validation in two passes: the findings of an edit show at once, the setup rules (a
battlefield per setup, most of the time) follow; together they are what a full check finds."""
from __future__ import annotations

from editorkit import close, copy_pack, isolate, settle, window
from sandtable.editor.checking import Checker
from sandtable.editor.workspace import Workspace
from sandtable.rules.catalog import bundled_pack

SETUP = ("setup", "beda-fomm-sample", "/sides/allied/placements/0/hex")


def test_first_pass_then_setup_rules_equal_a_full_check():
    ws = Workspace(bundled_pack())
    checker = Checker(ws)
    ws.set(*SETUP, "B2010")  # a valid hex outside the allowed zone: only the setup rules see it
    full = checker.run(checker.snapshot())
    first = checker.run(checker.snapshot(), defer_setups=True)
    assert first.partial and "setup-zone" not in {loc.finding.code for loc in first.findings}
    done = checker.finish(first)
    codes = sorted(loc.finding.code for loc in done.findings)
    assert codes == sorted(loc.finding.code for loc in full.findings) and "setup-zone" in codes
    assert {loc.finding.code for loc in done.setup_located} >= {"setup-zone"}
    hit = next(loc for loc in done.findings if loc.finding.code == "setup-zone")
    assert (hit.kind, hit.id, hit.unsaved) == ("setup", "beda-fomm-sample", True)


def test_the_window_shows_the_edit_first_and_keeps_setup_findings_meanwhile(qtbot, tmp_path, monkeypatch):
    isolate(monkeypatch, tmp_path)
    w = window(qtbot, copy_pack(tmp_path))
    settle(qtbot, w)
    shown = []
    w.validator.finished.connect(lambda r: shown.append(sorted(loc.finding.code for loc in r.findings)))
    w.doc.set(*SETUP, "B2010")
    settle(qtbot, w)
    assert shown and "setup-zone" in shown[-1]
    w.doc.set("unit-type", "de-pz-vi-e", "/range", 11)  # another edit: the setup finding stays listed
    n = len(shown)
    settle(qtbot, w)
    assert len(shown) >= n + 1 and all("setup-zone" in s for s in shown[n:])
    close(w)
