"""Live validation: after each edit (debounced) the pack is re-checked on a worker thread.

The UI thread only takes a snapshot (a dict of references, microseconds) and later
receives the result through a queued signal; it never waits for the checker.
"""
from __future__ import annotations

import sys
import threading
import time

from PySide6.QtCore import QObject, QTimer, Signal

from .checking import Checker, Result
from .usertext import internal_error

# While a worker thread computes, every call from Qt into Python (a paint event, a model's
# data(), each QPainter call that released the GIL) waits for the GIL up to the switch
# interval: 5 ms by default, so a repaint of a few dozen such calls stalls the UI for
# 100 ms and more. A 1 ms interval keeps those waits short; the worker loses a few percent.
SWITCH_INTERVAL = 0.001


class ValidationController(QObject):
    started = Signal()
    finished = Signal(object)  # checking.Result
    _delivered = Signal(object)

    def __init__(self, document, debounce_ms: int = 250, parent=None):
        super().__init__(parent)
        self.document = document
        self.checker = Checker(document.ws)
        self.debounce = QTimer(self)
        self.debounce.setSingleShot(True)
        self.debounce.setInterval(debounce_ms)
        self.debounce.timeout.connect(self.run_now)
        self._thread: threading.Thread | None = None
        self._pending = False
        self.last: Result | None = None
        self.history: list[float] = []  # seconds of each complete run (benchmarks read it)
        self.first_seconds: list[float] = []  # seconds to the first pass's findings
        self._delivered.connect(self._on_result)
        sys.setswitchinterval(SWITCH_INTERVAL)
        document.changed.connect(self.schedule)
        document.reset.connect(self.schedule)

    @property
    def busy(self) -> bool:
        return self._thread is not None

    def schedule(self, *args) -> None:
        self.debounce.start()

    def run_now(self) -> None:
        if self._thread is not None:
            self._pending = True
            return
        snap = self.checker.snapshot(self.document.generation)
        self.started.emit()
        self._thread = threading.Thread(target=self._work, args=(snap,), name="sandtable-validate", daemon=True)
        self._thread.start()

    def _work(self, snap) -> None:
        """Two passes: everything but the setup rules first (shown at once), then the setup
        rules, unless a newer edit is already waiting (its own run will do them)."""
        try:
            result = self.checker.run(snap, defer_setups=True)
            if result.partial:
                # until the setup rules are done again, the last ones found stay listed
                carried = getattr(self.last, "setup_located", None) or []
                shown = Result(result.findings + carried, result.seconds, result.generation, result.catalog)
                try:
                    self._delivered.emit(shown)
                except RuntimeError:
                    return
                if self._pending:
                    result.stale_setups = True  # superseded: the next run completes them
                else:
                    result = self.checker.finish(result)
        except Exception as exc:  # noqa: BLE001 - a checker bug must not kill the editor
            result = Result(generation=snap.generation)
            result.error = internal_error("validation", exc)
        result.final = True
        try:
            self._delivered.emit(result)
        except RuntimeError:  # the controller was deleted meanwhile
            pass

    def _on_result(self, result: Result) -> None:
        if not getattr(result, "final", False):
            self.first_seconds.append(result.seconds)
            self.finished.emit(result)  # the findings of the edit, before the setup rules
            return
        self._thread = None
        self.history.append(result.seconds)
        self.last = result
        if not getattr(result, "stale_setups", False):
            self.finished.emit(result)
        if self._pending:
            self._pending = False
            self.run_now()

    def shutdown(self, timeout: float = 10.0) -> None:
        """Stop scheduling and wait for a running check (before the window goes away)."""
        self.debounce.stop()
        self._pending = False
        thread = self._thread
        if thread is not None:
            thread.join(timeout)
        try:
            self._delivered.disconnect()
        except (RuntimeError, TypeError):
            pass

    def wait(self, timeout: float = 10.0) -> None:
        """Block until idle (tests and benchmarks only: it processes events meanwhile)."""
        from PySide6.QtWidgets import QApplication
        end = time.monotonic() + timeout
        while (self.busy or self.debounce.isActive() or self._pending) and time.monotonic() < end:
            QApplication.processEvents()
            time.sleep(0.002)
