"""Refuse to start the editor on a Qt binding that would abort it.

PySide6 6.12.0 returns ``None`` from every void binding call (``QLabel.setText``,
``QGraphicsItem.setPos``, ``QObject.setObjectName``...) without taking a new reference. On
CPython 3.11, where ``None`` is not immortal, its count falls with every call until Python
frees it and aborts ("none_dealloc") — after a few edits of a two-map scenario, losing
unsaved work. pyproject.toml pins a range without the bug; this guard catches an
environment that installed another version anyway, before any work is done.
"""
from __future__ import annotations

import sys

_KEEP: list = []  # references that make up for what the probe itself took from None


def none_leak(calls: int = 200) -> int:
    """References to None lost over ``calls`` void calls (0 on a sound binding)."""
    from PySide6.QtCore import QObject
    probe = QObject()
    before = sys.getrefcount(None)
    for _ in range(calls):
        probe.setObjectName("probe")
    lost = before - sys.getrefcount(None)
    if lost > 0:
        _KEEP.extend([None] * lost)  # give back what the probe took, so the message can be printed
    return lost


def refusal() -> str | None:
    """Why the editor must not start here, or None. Python 3.12+ makes None immortal: the
    leak is then harmless and nothing is refused."""
    if sys.version_info >= (3, 12):
        return None
    lost = none_leak()
    if lost < 100:
        return None
    import PySide6
    return (f"sandtable: PySide6 {PySide6.__version__} loses a reference to None on every call ({lost} in 200); "
            f"on Python {sys.version_info.major}.{sys.version_info.minor} the editor would abort after a few edits. "
            "Install a sound version: pip install 'PySide6-Essentials>=6.8,<6.12'")
