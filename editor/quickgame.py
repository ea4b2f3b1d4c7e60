"""Quick test game panel: the batch simulator on the current scenario in a background
worker, with a progress bar, a cancel button, the summary and a small chart of outcomes."""
from __future__ import annotations

import html
import threading

from PySide6.QtCore import QObject, QRectF, Qt, Signal
from PySide6.QtGui import QColor, QPainter
from PySide6.QtWidgets import (QComboBox, QFormLayout, QHBoxLayout, QLabel, QProgressBar, QPushButton, QSizePolicy,
                               QSpinBox,
                               QVBoxLayout, QWidget)

from . import hooks
from .scenario_list import fill_scenarios, follow_scenarios
from .usertext import internal_error

BAR_COLOURS = {"allied": QColor("#8d6e63"), "draw": QColor("#9e9e9e"), "axis": QColor("#607d8b")}


class OutcomeChart(QWidget):
    """Bars of the outcome distribution (wins by side and level, draws)."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.counts: list[tuple[str, int]] = []
        self.setMinimumHeight(170)

    def show_summary(self, summary: dict | None) -> None:
        self.counts = sorted((summary or {}).get("results_by_level", {}).items())
        self.update()

    def paintEvent(self, event) -> None:
        p = QPainter(self)
        p.setRenderHint(QPainter.Antialiasing)
        if not self.counts:
            p.setPen(QColor("#777"))
            p.drawText(self.rect(), Qt.AlignCenter, "No games played yet.")
            return
        total = sum(c for _, c in self.counts) or 1
        top, bottom = 24, self.height() - 34
        w = (self.width() - 20) / len(self.counts)
        for i, (label, c) in enumerate(self.counts):
            winner = label.split(":")[0]
            h = (bottom - top) * c / max(n for _, n in self.counts)
            r = QRectF(10 + i * w + w * 0.15, bottom - h, w * 0.7, h)
            p.fillRect(r, BAR_COLOURS.get(winner, QColor("#90a4ae")))
            p.setPen(QColor("#222"))
            p.drawText(QRectF(r.left() - 10, r.top() - 16, r.width() + 20, 14), Qt.AlignCenter,
                       f"{c} ({100 * c / total:.0f}%)")
            text = label.replace(":-", "").replace(":", " ")
            p.drawText(QRectF(10 + i * w, bottom + 4, w, 28), Qt.AlignHCenter | Qt.AlignTop | Qt.TextWordWrap, text)
        p.end()


class _Bridge(QObject):
    progress = Signal(int, int)
    done = Signal(object)


class QuickGamePanel(QWidget):
    finished = Signal(object)

    def __init__(self, ctx, catalog_provider, parent=None):
        super().__init__(parent)
        self.ctx = ctx
        self.catalog_provider = catalog_provider  # () -> the catalog of the current state (or None)
        lay = QVBoxLayout(self)
        ok, message = hooks.simulator_status()
        self.available = ok
        self.status = QLabel(message if not ok else "Plays the scenario with the engine's bots on the pack as "
                             "edited (unsaved changes included).")
        self.status.setWordWrap(True)
        if not ok:
            self.status.setStyleSheet("color: #c62828; font-weight: bold")
        lay.addWidget(self.status)
        form = QFormLayout()
        self.scenario = QComboBox()
        fill_scenarios(self.scenario, ctx.ws)
        follow_scenarios(self.scenario, ctx)
        self.games = QSpinBox()
        self.games.setRange(1, 10000)
        self.games.setValue(20)
        self.seed = QSpinBox()
        self.seed.setRange(0, 2 ** 31 - 1)
        self.bots = {side: QComboBox() for side in ("allied", "axis")}
        for b in self.bots.values():
            # search:8 plays the decisions that matter by 8 determinized rollouts each (seconds a game)
            b.addItems(["heuristic", "heuristic-v1", "search:8", "random"])
        form.addRow("Scenario", self.scenario)
        form.addRow("Games", self.games)
        form.addRow("Seed", self.seed)
        form.addRow("Allied bot", self.bots["allied"])
        form.addRow("Axis bot", self.bots["axis"])
        lay.addLayout(form)
        row = QHBoxLayout()
        self.run_button = QPushButton("Run")
        self.run_button.clicked.connect(self.run)
        self.cancel_button = QPushButton("Cancel")
        self.cancel_button.clicked.connect(self.cancel)
        self.cancel_button.setEnabled(False)
        row.addWidget(self.run_button)
        row.addWidget(self.cancel_button)
        lay.addLayout(row)
        self.progress = QProgressBar()
        self.progress.setFormat("%v / %m games")
        lay.addWidget(self.progress)
        self.summary = QLabel("")
        self.summary.setWordWrap(True)
        self.summary.setTextFormat(Qt.RichText)
        self.summary.setSizePolicy(QSizePolicy.Preferred, QSizePolicy.Minimum)
        self.summary.setMinimumHeight(110)
        self.summary.setAlignment(Qt.AlignTop | Qt.AlignLeft)
        lay.addWidget(self.summary)
        self.chart = OutcomeChart()
        lay.addWidget(self.chart)
        lay.addStretch(1)
        self.run_button.setEnabled(ok)
        self._bridge = _Bridge()
        self._bridge.progress.connect(self._on_progress)
        self._bridge.done.connect(self._on_done)
        self._cancel = threading.Event()
        self._thread: threading.Thread | None = None
        self.last: dict | None = None

    def set_scenario(self, sid: str) -> None:
        i = self.scenario.findData(sid)
        if i >= 0:
            self.scenario.setCurrentIndex(i)

    @property
    def running(self) -> bool:
        return self._thread is not None

    def run(self) -> None:
        if not self.available:
            self.summary.setText(hooks.simulator_status()[1])
            return
        if self.running:
            return
        catalog = self.catalog_provider()
        if catalog is None:
            self.summary.setText("Validation has not finished yet; try again in a moment.")
            return
        self._cancel.clear()
        args = (catalog, self.scenario.currentData(), self.games.value(), self.seed.value(),
                (self.bots["allied"].currentText(), self.bots["axis"].currentText()))
        self.progress.setRange(0, self.games.value())
        self.progress.setValue(0)
        self.summary.setText("Playing…")
        self.run_button.setEnabled(False)
        self.cancel_button.setEnabled(True)
        self._thread = threading.Thread(target=self._work, args=args, name="sandtable-quick-game", daemon=True)
        self._thread.start()

    def cancel(self) -> None:
        self._cancel.set()
        self.summary.setText("Cancelling after the current game…")

    def shutdown(self) -> None:
        self._cancel.set()
        if self._thread is not None:
            self._thread.join(30)
        try:
            self._bridge.done.disconnect()
            self._bridge.progress.disconnect()
        except (RuntimeError, TypeError):
            pass

    def _work(self, catalog, sid, games, seed, bots) -> None:
        try:
            out = hooks.quick_games(catalog, sid, games, seed, bots,
                                    progress=self._emit_progress,
                                    cancelled=self._cancel.is_set)
        except (ValueError, RuntimeError) as exc:  # said for users: no pack, errors, a scenario the engine cannot play
            out = {"error": str(exc)}
        except Exception as exc:  # noqa: BLE001 - a bug: said as one, the details on stderr
            out = {"error": internal_error("the quick game", exc)}
        try:
            self._bridge.done.emit(out)
        except RuntimeError:
            pass

    def _emit_progress(self, i: int, n: int) -> None:
        try:
            self._bridge.progress.emit(i, n)
        except RuntimeError:
            pass

    def _on_progress(self, i: int, n: int) -> None:
        self.progress.setMaximum(n)
        self.progress.setValue(i)

    def _on_done(self, out: dict) -> None:
        self._thread = None
        self.run_button.setEnabled(True)
        self.cancel_button.setEnabled(False)
        self.last = out
        if "error" in out:
            self.summary.setText(f"<span style='color:#c62828'>{out['error']}</span>")
            self.chart.show_summary(None)
        else:
            self.summary.setText(summary_html(out))
            self.chart.show_summary(out)
        self.finished.emit(out)


def summary_html(s: dict, play=None) -> str:
    """The quick game's summary in a few lines; the engagement warning is the ruleset's (``play``,
    its play contribution, or the one hooks.quick_games put in the summary)."""
    n = s.get("played", s.get("games", 0))
    if not n:
        return "Cancelled before any game was played." if s.get("cancelled") else "No games."
    lines = [f"<b>{n} game(s)</b> of {s['scenario']}" + (" (cancelled)" if s.get("cancelled") else "")]
    for side, d in s.get("sides", {}).items():
        lo, hi = d.get("win_rate_95", [0, 0])
        lines.append(f"{side.capitalize()} ({d.get('bot')}): {d['wins']} win(s), {100 * d['win_rate']:.0f}% "
                     f"[95% CI {100 * lo:.0f}–{100 * hi:.0f}%]")
    lines.append(f"Draws: {s.get('draws', 0)}")
    if s.get("most_common_cause"):
        lines.append(f"Most common: {s['most_common_cause']}")
    lines.append(f"Average length {float(s.get('average_turns', 0) or 0):.1f} turns; median game "
                 f"{float(s.get('median_game_seconds', 0) or 0):.2g} s")
    idle = s.get("engagement_warning") or (play.not_engaged_warning(s) if play is not None else None)
    if idle:  # a batch of games nobody fought in is no balance result
        lines.append(f"<span style='color:#c62828'><b>Warning:</b> {html.escape(idle)}</span>")
    return "<br>".join(lines)
