"""The editor's Balance lab: a form field handed to it by "Sweep this value…", a sweep run with
progress to its chart, and a cancel that keeps the finished games for a resume."""
from __future__ import annotations

import json

from PySide6.QtCore import QPoint, Qt, QTimer
from PySide6.QtWidgets import QApplication, QLabel

from editorkit import close, copy_pack, isolate, shot, window


def test_sweep_this_value_run_to_the_chart_and_cancel(qtbot, monkeypatch, tmp_path):
    isolate(monkeypatch, tmp_path)
    w = window(qtbot, copy_pack(tmp_path))
    try:
        form = w.open_object("scenario", "gazala", "")
        turns = next(lab for lab in form.findChildren(QLabel) if lab.text() == "Turns")
        spin = next(wi for p, wi in form.bindings if p == "/conditions/turns")
        assert turns.contextMenuPolicy() == spin.contextMenuPolicy() == Qt.CustomContextMenu
        popped = []

        def escape():  # the user's Escape on the menu the right-click popped up
            popup = QApplication.activePopupWidget()
            if popup is not None:
                popped.append(popup)
                popup.close()
        QTimer.singleShot(50, escape)
        spin.customContextMenuRequested.emit(QPoint(5, 5))  # a right-click: exec() returns once it is closed
        assert popped  # the menu was shown
        menu = form.field_menu(spin, "/conditions/turns")  # the menu that right-click pops up
        seen = [a.text() for a in menu.actions()]
        assert "Sweep this value…" in seen and any("Copy" in t for t in seen)  # copy/paste kept
        next(a for a in menu.actions() if a.text() == "Sweep this value…").trigger()
        panel = w.balancelab
        assert w.docks["balancelab"].isVisible()
        assert panel.scenario.currentData() == "gazala"
        assert panel.varies.toPlainText() == "scenario:gazala/conditions/turns=10..14"

        panel.varies.setPlainText("scenario:gazala/conditions/turns=11")
        panel.games.setValue(1)
        for b in panel.bots.values():
            b.setCurrentText("random")
        panel.folder.setText(str(tmp_path / "sweep"))
        with qtbot.waitSignal(panel.finished, timeout=180_000) as done:
            panel.run()
            assert panel.running and panel.cancel_button.isEnabled()
        out = done.args[0]
        assert "error" not in out, out
        assert [p["label"] for p in out["points"]] == ["baseline (turns=12)", "turns=11"]
        assert (panel.progress.value(), panel.progress.maximum()) == (2, 2)
        assert panel.chart.pixmap() is not None and not panel.chart.pixmap().isNull()
        assert [panel.which.itemText(i) for i in range(panel.which.count())] == \
            ["Win rate", "Difference to the pack", "Victory points"]
        panel.which.setCurrentIndex(1)  # the difference chart instead
        assert not panel.chart.pixmap().isNull()
        assert panel.report_button.isEnabled() and not panel.running
        assert json.loads((tmp_path / "sweep" / "results.json").read_text())["sweep"]["scenario"] == "gazala"
        w.docks["balancelab"].resize(520, 820)
        shot(panel, "balance-lab-panel")

        # a long sweep cancelled: the finished games stay for a resume
        panel.set_scenario("gazala")
        panel.varies.setPlainText("scenario:gazala/conditions/visibility=8")
        panel.games.setValue(200)
        for b in panel.bots.values():
            b.setCurrentText("random")
        panel.folder.setText(str(tmp_path / "long"))
        panel.run()
        qtbot.waitUntil(lambda: panel.progress.value() >= 1, timeout=120_000)
        with qtbot.waitSignal(panel.finished, timeout=30_000) as done:
            panel.cancel()
        assert done.args[0] == {"cancelled": str(tmp_path / "long")}
        assert panel.resume_button.isEnabled() and panel.run_button.isEnabled()
        kept = (tmp_path / "long" / "games.jsonl").read_text().splitlines()
        assert 1 <= len(kept) < 400
        assert not (tmp_path / "long" / "results.json").exists()
        assert "Resume" in panel.status.text()
    finally:
        close(w)
