"""The printed counters on the editor's boards: each front drawn by the print code
(``exports.desert_steel.counters.draw_front``, ReportLab) and rasterised by poppler as the VASSAL module's
images are (``exports.vassal.raster``), so a board shows the counter a player cuts out.

Rendering takes a few tenths of a second for a scenario's faces (a pdftoppm run), so it runs on
a thread, in batches, and each board draws with the editor's own painter (``counter.paint_counter``)
until its faces arrive (``ready``), or for good when poppler is missing or the unit's data
cannot be drawn.
"""
from __future__ import annotations

import hashlib
import json
import threading

from PySide6.QtCore import QObject, QTimer, Signal
from PySide6.QtGui import QImage, QPixmap

PIXELS = 128  # the faces' resolution: sharp up to about 4x the board's default zoom


def face_key(unit: dict, designation: str) -> str:
    return hashlib.sha1(json.dumps([unit, designation], sort_keys=True, default=str).encode()).hexdigest()


class PrintedFaces(QObject):
    ready = Signal()  # new faces are in: boards repaint
    _rendered = Signal(object)  # {key: png bytes or None}, from the rendering thread

    def __init__(self):
        super().__init__()
        self.pixmaps: dict[str, QPixmap | None] = {}  # None: cannot be drawn (fallback painter)
        self._wanted: dict[str, tuple[dict, str]] = {}
        self._busy = False
        self.available = True
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(30)  # a board's stacks ask in one paint: rendered as one batch
        self._timer.timeout.connect(self._start)
        self._rendered.connect(self._arrived)

    def get(self, unit: dict, designation: str, key: str | None = None) -> QPixmap | None:
        """The printed front, or None for now (asked for; ``ready`` fires when it is in).
        ``key``: ``face_key(unit, designation)`` when the caller keeps it (a board paints often)."""
        key = key or face_key(unit, designation)
        if key in self.pixmaps:
            return self.pixmaps[key]
        if self.available and key not in self._wanted:
            self._wanted[key] = (unit, designation)
            if not self._busy:
                self._timer.start()
        return None

    def _start(self) -> None:
        if self._busy or not self._wanted:
            return
        batch, self._wanted = self._wanted, {}
        self._busy = True
        threading.Thread(target=self._work, args=(batch,), name="sandtable-counter-faces", daemon=True).start()

    def _work(self, batch: dict) -> None:
        out: dict = {}
        try:
            out = render(batch)
        except Exception:  # noqa: BLE001 - no poppler, a broken unit: the editor's painter draws instead
            out = {k: None for k in batch}
            self.available = False
        try:
            self._rendered.emit(out)
        except RuntimeError:
            pass

    def _arrived(self, out: dict) -> None:
        for key, png in out.items():
            image = QImage.fromData(png) if png else None
            self.pixmaps[key] = QPixmap.fromImage(image) if image is not None and not image.isNull() else None
        self._busy = False
        if self._wanted:
            self._timer.start()
        self.ready.emit()


def render(batch: dict[str, tuple[dict, str]]) -> dict[str, bytes | None]:
    """PNG fronts for (unit type JSON, designation) pairs, drawn by the print code."""
    from sandtable.exports.desert_steel.counters import CounterSpec, draw_front
    from sandtable.exports.page import COUNTER_SIZES, INK, NATIONALITY_COLOUR
    from sandtable.exports.vassal import raster
    from sandtable.rules.desert_steel.model import UnitType
    from reportlab.lib.colors import white
    s = COUNTER_SIZES["5/8"]
    keys, faces, out = [], [], {}
    for key, (unit, designation) in batch.items():
        try:
            spec = CounterSpec(UnitType.from_json(unit), designation or "", None)
        except (KeyError, TypeError, ValueError, AttributeError):
            out[key] = None  # incomplete data (a new unit type): the editor's painter shows it
            continue
        faces.append(raster.Face((s, s), (PIXELS, PIXELS), lambda d, x, y, sp=spec: draw_front(d, x, y, s, sp),
                                 NATIONALITY_COLOUR.get(spec.unit.nationality, white), INK))
        keys.append(key)
    if faces:
        out.update(zip(keys, raster.render(faces, "sandtable editor counters")))
    return out


_FACES: PrintedFaces | None = None


def faces() -> PrintedFaces:
    """The one cache of the editor (made on first use, on the UI thread)."""
    global _FACES
    if _FACES is None:
        _FACES = PrintedFaces()
    return _FACES
