"""Helpers for the editor tests: a private copy of the bundled pack, isolated settings and
autosave folders, and a main window whose dialogs are answered by the test."""
from __future__ import annotations

import os
import shutil
import tempfile
import time
from pathlib import Path

from sandtable.rules.catalog import bundled_pack

ROOT = Path(__file__).resolve().parents[1]
# Screenshots go to a scratch folder unless asked for the README's copies:
#   SANDTABLE_SCREENSHOTS=docs/screenshots pytest tests/test_editor_screenshots.py
SCREENSHOTS = Path(os.environ.get("SANDTABLE_SCREENSHOTS") or
                   Path(tempfile.gettempdir()) / "sandtable-screenshots").resolve()


def copy_pack(tmp_path: Path, name: str = "desert-steel") -> Path:
    dest = tmp_path / "packs" / name
    shutil.copytree(bundled_pack(), dest, ignore=shutil.ignore_patterns("__pycache__", "*.py", "NOTES*"))
    return dest


def isolate(monkeypatch, tmp_path: Path) -> None:
    monkeypatch.setenv("SANDTABLE_SETTINGS", str(tmp_path / "settings.ini"))
    monkeypatch.setenv("SANDTABLE_AUTOSAVE_DIR", str(tmp_path / "autosave"))
    monkeypatch.setenv("SANDTABLE_NO_VIEWER", "1")


def window(qtbot, pack: Path, answers: dict | None = None, **kw):
    from sandtable.editor.app import MainWindow
    w = MainWindow(pack, autosave_seconds=kw.pop("autosave_seconds", 0), **kw)
    asked = []

    def ask(title, text, buttons):
        asked.append((title, text))
        return (answers or {}).get(title, buttons[-1] if "Cancel" in buttons else buttons[0])
    w.ask = ask
    w.asked = asked
    qtbot.addWidget(w)
    w.show()
    qtbot.waitExposed(w)
    return w


def settle(qtbot, w, timeout: float = 15.0) -> None:
    """Wait until validation is idle and its result is shown."""
    qtbot.waitUntil(lambda: not w.validator.busy and not w.validator.debounce.isActive()
                    and not w.validator._pending, timeout=int(timeout * 1000))
    qtbot.wait(10)


def close(w) -> None:
    w.ask = lambda *a: "Discard"
    w.close()


def shot(widget, name: str) -> Path:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    widget.grab().save(str(path))
    return path


def wait_for(predicate, timeout: float = 10.0) -> bool:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if predicate():
            return True
        time.sleep(0.05)
    return False
