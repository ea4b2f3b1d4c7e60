"""Balance lab panel: `sandtable sweep` from the editor, with progress, cancel and the chart.

The sweep runs as a child process (``python -m sandtable sweep ... --progress-lines``), not
in a thread of the editor: its worker processes are forked from a process without Qt, a
cancel is a signal that ends the sweep and its workers at once, and a cancelled sweep is
kept on disk so it can be resumed (``--resume``) without replaying the finished games.

It sweeps the pack as saved on disk: the panel says so when the editor holds unsaved edits.
"""
from __future__ import annotations

import json
import shlex
import sys
import tempfile
from pathlib import Path

from PySide6.QtCore import QProcess, Qt, QTimer, QUrl, Signal
from PySide6.QtGui import QDesktopServices, QPixmap
from PySide6.QtWidgets import (QComboBox, QFileDialog, QFormLayout, QHBoxLayout, QLabel, QLineEdit, QPlainTextEdit,
                               QProgressBar, QPushButton, QSizePolicy, QSpinBox, QVBoxLayout, QWidget)

from .scenario_list import fill_scenarios, follow_scenarios

# The sweep's charts, in the order the chart menu offers them; the first that exists is shown.
CHARTS = (("heatmap.png", "Heat map"), ("winrate.png", "Win rate"), ("difference.png", "Difference to the pack"),
          ("points.png", "Victory points"))


def suggest_values(value) -> str:
    """Values to try around a field's current value, as --vary writes them."""
    if isinstance(value, bool):
        return "true,false"
    if isinstance(value, int):
        lo = max(0, value - 2) if value >= 0 else value - 2
        return f"{lo}..{value + 2}"
    if isinstance(value, float):
        return ",".join(json.dumps(round(value * f, 3)) for f in (0.5, 0.75, 1.0, 1.25, 1.5))
    return json.dumps(value, ensure_ascii=False)


class BalanceLabPanel(QWidget):
    """Pick a scenario and the values to vary, run, watch the progress, see the chart."""

    finished = Signal(object)  # the sweep's --json output, or {"error": ...} / {"cancelled": folder}

    def __init__(self, ctx, parent=None):
        super().__init__(parent)
        self.ctx = ctx
        lay = QVBoxLayout(self)
        self.note = QLabel("Plays the same games (same seeds and setups) with each value, so differences are "
                           "the change, not the dice. Right-click a field in a form → “Sweep this value…”.")
        self.note.setWordWrap(True)
        lay.addWidget(self.note)
        form = QFormLayout()
        self.scenario = QComboBox()
        fill_scenarios(self.scenario, ctx.ws)
        follow_scenarios(self.scenario, ctx)  # the quick game's list and this one follow the pack alike
        self.varies = QPlainTextEdit()
        self.varies.setPlaceholderText("one value a line: KIND:ID/POINTER=VALUES\n"
                                       "unit-type:it-m13-40/defense=2..5\nscenario:gazala/conditions/turns=10,12,14")
        self.varies.setFixedHeight(70)
        self.games = QSpinBox()
        self.games.setRange(1, 100_000)
        self.games.setValue(50)
        self.setups = QSpinBox()
        self.setups.setRange(0, 200)
        self.setups.setToolTip("also play on this many seeded automatic setups")
        self.jobs = QSpinBox()
        self.jobs.setRange(1, 256)
        self.scheduler = QLineEdit()
        self.scheduler.setPlaceholderText("local processes; or tcp://HOST:8786 for a Dask cluster")
        from . import hooks
        play = hooks.play_of(ctx.ws.catalog)  # the bots are the pack's ruleset's
        self.bots = {side: QComboBox() for side in ("allied", "axis")}
        for b in self.bots.values():
            b.addItems(list(play.bots) if play is not None else [])
            b.setCurrentText("heuristic")
        self.folder = QLineEdit()
        self.folder.setPlaceholderText("a new temporary folder")
        browse = QPushButton("…")
        browse.setFixedWidth(28)
        browse.clicked.connect(self._browse)
        where = QHBoxLayout()
        where.addWidget(self.folder, 1)
        where.addWidget(browse)
        form.addRow("Scenario", self.scenario)
        form.addRow("Vary", self.varies)
        form.addRow("Games a point", self.games)
        form.addRow("Automatic setups", self.setups)
        form.addRow("Worker processes", self.jobs)
        form.addRow("Dask scheduler", self.scheduler)
        form.addRow("Allied bot", self.bots["allied"])
        form.addRow("Axis bot", self.bots["axis"])
        form.addRow("Output folder", where)
        lay.addLayout(form)
        row = QHBoxLayout()
        self.run_button = QPushButton("Run sweep")
        self.run_button.clicked.connect(self.run)
        self.cancel_button = QPushButton("Cancel")
        self.cancel_button.clicked.connect(self.cancel)
        self.cancel_button.setEnabled(False)
        self.resume_button = QPushButton("Resume")
        self.resume_button.setToolTip("continue the cancelled sweep without replaying its finished games")
        self.resume_button.clicked.connect(self.resume)
        self.resume_button.setEnabled(False)
        self.report_button = QPushButton("Open report")
        self.report_button.clicked.connect(self.open_report)
        self.report_button.setEnabled(False)
        for b in (self.run_button, self.cancel_button, self.resume_button, self.report_button):
            row.addWidget(b)
        lay.addLayout(row)
        self.progress = QProgressBar()
        self.progress.setFormat("%v / %m games")
        lay.addWidget(self.progress)
        self.status = QLabel("")
        self.status.setWordWrap(True)
        self.status.setTextFormat(Qt.RichText)
        self.status.setAlignment(Qt.AlignTop | Qt.AlignLeft)
        lay.addWidget(self.status)
        self.which = QComboBox()  # which chart: a win rate pinned at 100 % says less than the difference chart
        self.which.currentIndexChanged.connect(self._chart_chosen)
        self.which.setEnabled(False)
        lay.addWidget(self.which)
        self.chart = QLabel()
        self.chart.setAlignment(Qt.AlignCenter)
        self.chart.setSizePolicy(QSizePolicy.Ignored, QSizePolicy.Ignored)
        self.chart.setMinimumHeight(220)
        lay.addWidget(self.chart, 1)
        self.proc: QProcess | None = None
        self.out_dir: Path | None = None
        self.last: dict | None = None
        self._err = b""
        self._cancelled = False
        self._pixmap: QPixmap | None = None
        self._messages: list[str] = []  # stderr lines of the running sweep that are not progress
        self._messages_done: list[str] = []

    # --- choosing what to sweep ---------------------------------------------------------

    def add_vary(self, kind: str, oid: str, pointer: str, value=None) -> None:
        """Add a line for one field of one object (the forms' "Sweep this value…")."""
        if kind == "scenario":
            self.set_scenario(oid)
        line = f"{kind}:{oid}{pointer}={suggest_values(value)}"
        text = self.varies.toPlainText().rstrip()
        self.varies.setPlainText(f"{text}\n{line}" if text else line)

    def set_scenario(self, sid: str) -> None:
        i = self.scenario.findData(sid)
        if i >= 0:
            self.scenario.setCurrentIndex(i)

    def _browse(self) -> None:
        d = QFileDialog.getExistingDirectory(self, "Folder for the sweep's results")
        if d:
            self.folder.setText(d)

    # --- running ------------------------------------------------------------------------

    @property
    def running(self) -> bool:
        return self.proc is not None

    def arguments(self) -> list[str]:
        """The sweep command's arguments for what the panel shows."""
        args = ["sweep", self.scenario.currentData() or ""]
        for line in self.varies.toPlainText().splitlines():
            if line.strip():
                args += ["--vary", line.strip()]
        args += ["--games", str(self.games.value()), "--bots",
                 f"{self.bots['allied'].currentText()},{self.bots['axis'].currentText()}"]
        if self.setups.value():
            args += ["--setups", str(self.setups.value())]
        args += self._backend()
        args += ["--pack", str(self.ctx.ws.path), "-o", str(self.out_dir)]
        return args

    def _backend(self) -> list[str]:
        if self.scheduler.text().strip():
            return ["--scheduler", self.scheduler.text().strip()]
        return ["--jobs", str(self.jobs.value())]

    def run(self) -> None:
        if self.running:
            return
        if not self.varies.toPlainText().strip():
            self.status.setText("Say what to vary: one KIND:ID/POINTER=VALUES a line, or right-click a field "
                                "in a form → “Sweep this value…”.")
            return
        self.out_dir = Path(self.folder.text().strip() or tempfile.mkdtemp(prefix="sandtable-sweep-"))
        unsaved = getattr(self.ctx.doc, "dirty", False)
        self._start(self.arguments(), "Sweeping the pack as saved on disk" +
                    (" (your unsaved edits are not in it: save to sweep them)" if unsaved else "") + "…")

    def resume(self) -> None:
        if self.running or self.out_dir is None:
            return
        self._start(["sweep", "--resume", str(self.out_dir), *self._backend()], "Resuming…")

    def _start(self, args: list[str], message: str) -> None:
        self._err = b""
        self._cancelled = False
        self.last = None
        self.chart.clear()
        self.which.clear()
        self.which.setEnabled(False)
        self._pixmap = None
        self.progress.setRange(0, 0)
        self.status.setText(message)
        self.proc = QProcess(self)
        self.proc.setProgram(sys.executable)
        self.proc.setArguments(["-m", "sandtable", *args, "--json", "--no-progress", "--progress-lines"])
        self.proc.readyReadStandardError.connect(self._read_err)
        self.proc.finished.connect(self._finished)
        self.command = "sandtable " + " ".join(shlex.quote(a) for a in args)
        self.proc.start()
        for b, on in ((self.run_button, False), (self.cancel_button, True), (self.resume_button, False),
                      (self.report_button, False)):
            b.setEnabled(on)

    def _read_err(self) -> None:
        if self.proc is None:
            return
        self._err += bytes(self.proc.readAllStandardError())
        *lines, self._err = self._err.split(b"\n")
        for raw in lines:
            line = raw.decode("utf-8", "replace")
            if line.startswith("progress "):
                try:
                    done, total = (int(x) for x in line.split()[1:3])
                except ValueError:
                    continue
                self.progress.setRange(0, max(total, 1))
                self.progress.setValue(done)
            elif line.strip():
                self._messages.append(line)

    def cancel(self) -> None:
        if self.proc is None:
            return
        self._cancelled = True
        self.status.setText("Cancelling…")
        self.proc.terminate()  # SIGTERM: the sweep stops its workers; finished games stay on disk
        QTimer.singleShot(5000, self, self._kill)  # bound: a closed panel is never called

    def _kill(self) -> None:
        if self.proc is not None and self.proc.state() != QProcess.NotRunning:
            self.proc.kill()

    def shutdown(self) -> None:
        """The editor is closing: stop a running sweep (it can be resumed from its folder)."""
        if self.proc is not None:
            self._cancelled = True
            self.proc.terminate()
            if not self.proc.waitForFinished(5000):
                self.proc.kill()
                self.proc.waitForFinished(5000)

    def _finished(self, code: int, _status) -> None:
        proc, self.proc = self.proc, None
        self._messages_done = list(self._messages)
        out_text = bytes(proc.readAllStandardOutput()).decode("utf-8", "replace")
        self._read_err_rest(proc)
        proc.deleteLater()
        self.run_button.setEnabled(True)
        self.cancel_button.setEnabled(False)
        if self._cancelled:
            self.progress.setRange(0, 1)
            self.resume_button.setEnabled(True)
            self.status.setText(f"Cancelled. The finished games are kept in {self.out_dir}: <b>Resume</b> continues "
                                "without replaying them.")
            self.last = {"cancelled": str(self.out_dir)}
            self.finished.emit(self.last)
            return
        try:
            out = json.loads(out_text)
        except json.JSONDecodeError:
            errors = [m for m in self._messages_done if not m.startswith("progress ")]
            self.status.setText("<span style='color:#c62828'>" + _html("\n".join(errors[-6:]) or
                                                                       f"the sweep stopped (exit {code})") + "</span>")
            self.last = {"error": "\n".join(errors) or f"exit {code}"}
            self.finished.emit(self.last)
            return
        self.last = out
        from . import hooks
        self.status.setText(summary_html(out, hooks.play_of(self.ctx.ws.catalog)))
        self.report_button.setEnabled((self.out_dir / "report.html").is_file())
        self.show_chart()
        self.finished.emit(out)

    def _read_err_rest(self, proc) -> None:
        self._err += bytes(proc.readAllStandardError())
        for raw in self._err.split(b"\n"):
            line = raw.decode("utf-8", "replace")
            if line.strip() and not line.startswith("progress "):
                self._messages_done.append(line)
        self._err = b""
        self._messages.clear()

    def show_chart(self) -> None:
        """Offer the charts the sweep drew and show the first."""
        self.which.blockSignals(True)
        self.which.clear()
        for name, title in CHARTS:
            if self.out_dir is not None and (self.out_dir / name).is_file():
                self.which.addItem(title, name)
        self.which.blockSignals(False)
        self.which.setEnabled(self.which.count() > 0)
        self._chart_chosen(0)

    def _chart_chosen(self, i: int) -> None:
        name = self.which.itemData(i)
        if name and self.out_dir is not None:
            self._pixmap = QPixmap(str(self.out_dir / name))
            self._fit()

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        self._fit()

    def _fit(self) -> None:
        if self._pixmap is not None and not self._pixmap.isNull():
            self.chart.setPixmap(self._pixmap.scaled(self.chart.size(), Qt.KeepAspectRatio, Qt.SmoothTransformation))

    def open_report(self) -> None:
        if self.out_dir is not None and (self.out_dir / "report.html").is_file():
            QDesktopServices.openUrl(QUrl.fromLocalFile(str(self.out_dir / "report.html")))


def _html(text: str) -> str:
    import html
    return html.escape(text).replace("\n", "<br>")


def summary_html(out: dict, play=None) -> str:
    """The sweep's table in a few lines: each point's win rates and difference to the baseline, and
    the engagement warning of a point whose games had mostly no fire or no loss (in the words of
    ``play``, the pack's ruleset's play contribution)."""
    lines = [f"<b>{out.get('played', 0)} games played</b> ({out.get('reused', 0)} kept from before), "
             f"{out.get('games_per_second', 0):.2f} games/s, {_html(out.get('backend', ''))}"]
    for p in out.get("points", []):
        if not p.get("valid"):
            first = (p.get("findings") or [{}])[0]
            lines.append(f"<span style='color:#c62828'>{_html(p['label'])}: invalid, not played — "
                         f"{_html(first.get('message', ''))}</span>")
            continue
        al, ax = p["sides"]["allied"], p["sides"]["axis"]
        m = p.get("margin") or {}
        diff = "" if p.get("baseline") else (f"; Δ allied {100 * al['difference_to_baseline']:+.0f} "
                                             f"[{100 * al['difference_95'][0]:+.0f}, {100 * al['difference_95'][1]:+.0f}]"
                                             + (f"; Δ points margin {m['difference_to_baseline']:+.1f}" if m else ""))
        lines.append(f"{_html(p['label'])}: allied {100 * al['win_rate']:.0f}% "
                     f"[{100 * al['win_rate_95'][0]:.0f}–{100 * al['win_rate_95'][1]:.0f}], "
                     f"axis {100 * ax['win_rate']:.0f}%{diff}")
        idle = play.not_engaged_warning({"diagnostics": p.get("diagnostics")}) if play is not None else None
        if idle:  # a point whose games nobody fought in measures nothing
            lines.append(f"<span style='color:#c62828'>{_html(p['label'])}: {_html(idle)}</span>")
    return "<br>".join(lines)
