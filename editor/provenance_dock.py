"""The provenance dock: every value with its source; by default the reconstructed ones
(what a user may want to check against their copy of the game). Double-click jumps."""
from __future__ import annotations

import json

from PySide6.QtCore import QAbstractTableModel, QModelIndex, Qt, QTimer, Signal
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QComboBox, QHBoxLayout, QHeaderView, QLabel, QLineEdit, QTableView, QVBoxLayout, QWidget

from sandtable.rules import provenance

COLUMNS = ["Object", "Field", "Value", "Source", "§", "Note"]
SOURCE_COLOURS = {"reconstructed": QColor("#e65100"), "rulebook": QColor("#2e7d32"), "example": QColor("#1565c0"),
                  "checked": QColor("#00796b"), "authored": QColor("#6a1b9a"), None: QColor("#c62828")}


_CACHE: dict[int, tuple[object, list]] = {}


def _resolved(value: dict) -> list:
    """provenance.resolve, once per version of an object (values are immutable)."""
    hit = _CACHE.get(id(value))
    if hit is not None and hit[0] is value:
        return hit[1]
    leaves = provenance.resolve(value)
    if len(_CACHE) > 2000:
        _CACHE.clear()
    _CACHE[id(value)] = (value, leaves)
    return leaves


def leaves_of(ws, source: str | None, kind: str | None, text: str) -> list[tuple]:
    out = []
    words = text.lower().split()
    for k in ws.kinds():
        if kind and k != kind:
            continue
        for oid in ws.keys(k):
            v = ws.value(k, oid)
            if not isinstance(v, dict) or "provenance" not in v:
                continue
            for leaf in _resolved(v):
                if source != "all" and leaf.source != source:
                    continue
                row = (k, oid, leaf.pointer, leaf.value, leaf.source, leaf.section or "", leaf.note or "")
                if words:
                    hay = f"{k} {oid} {leaf.pointer} {leaf.value} {leaf.note}".lower()
                    if not all(w in hay for w in words):
                        continue
                out.append(row)
    return out


class LeafModel(QAbstractTableModel):
    def __init__(self, parent=None):
        super().__init__(parent)
        self.rows: list[tuple] = []

    def set_rows(self, rows) -> None:
        self.beginResetModel()
        self.rows = rows
        self.endResetModel()

    def rowCount(self, parent=QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self.rows)

    def columnCount(self, parent=QModelIndex()) -> int:
        return len(COLUMNS)

    def headerData(self, section, orientation, role=Qt.DisplayRole):
        return COLUMNS[section] if orientation == Qt.Horizontal and role == Qt.DisplayRole else None

    def data(self, index, role=Qt.DisplayRole):
        kind, oid, ptr, value, source, section, note = self.rows[index.row()]
        col = index.column()
        if role == Qt.DisplayRole:
            return [f"{kind} {oid}", ptr, json.dumps(value, ensure_ascii=False)[:80], source or "none", section,
                    note[:200]][col]
        if role == Qt.ForegroundRole and col == 3:
            return SOURCE_COLOURS.get(source)
        if role == Qt.ToolTipRole and col == 5:
            return note
        if role == Qt.UserRole:
            return kind, oid, ptr
        return None


class ProvenanceDock(QWidget):
    jump = Signal(str, str, str)

    def __init__(self, ctx, parent=None):
        super().__init__(parent)
        self.ctx = ctx
        lay = QVBoxLayout(self)
        lay.setContentsMargins(2, 2, 2, 2)
        bar = QHBoxLayout()
        self.source = QComboBox()
        for s in ("reconstructed", "rulebook", "example", "checked", "authored", "all"):
            self.source.addItem(s, s)
        self.source.addItem("no provenance", None)
        self.kind = QComboBox()
        self.kind.addItem("all kinds", None)
        for k in ctx.ws.kinds():
            self.kind.addItem(k, k)
        self.text = QLineEdit()
        self.text.setPlaceholderText("Filter by object, field, value or note")
        self.text.setClearButtonEnabled(True)
        self.count = QLabel("")
        for w in (QLabel("Source"), self.source, self.kind):
            bar.addWidget(w)
        bar.addWidget(self.text, 1)
        bar.addWidget(self.count)
        lay.addLayout(bar)
        self.model = LeafModel(self)
        self.view = QTableView()
        self.view.setModel(self.model)
        self.view.setSelectionBehavior(QTableView.SelectRows)
        self.view.verticalHeader().setVisible(False)
        self.view.setWordWrap(False)
        self.view.verticalHeader().setDefaultSectionSize(self.view.fontMetrics().height() + 6)
        h = self.view.horizontalHeader()
        for i in range(5):
            h.setSectionResizeMode(i, QHeaderView.Interactive)
        h.setStretchLastSection(True)
        self.view.doubleClicked.connect(self._jump)
        lay.addWidget(self.view, 1)
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(300)
        self._timer.timeout.connect(self.refresh)
        for sig in (self.source.currentIndexChanged, self.kind.currentIndexChanged, self.text.textChanged):
            sig.connect(lambda *_: self._timer.start())
        ctx.doc.changed.connect(lambda *_: self._changed())
        ctx.doc.reset.connect(lambda: self._timer.start())
        self._stale = True
        self._sized = False
        self._on_screen: bool | None = None

    def shown(self) -> bool:
        """Really on screen (a dock tabified behind another is "visible" but not shown)."""
        if self._on_screen is not None:
            return self._on_screen and self.isVisible()
        return self.isVisible() and not self.visibleRegion().isEmpty()

    def set_on_screen(self, on: bool) -> None:
        """The enclosing dock's visibilityChanged (tabs raised or hidden)."""
        self._on_screen = on
        if on and self._stale:
            self._timer.start()

    def _changed(self) -> None:
        if self.shown():
            self._timer.start()
        else:
            self._stale = True

    def showEvent(self, event) -> None:
        super().showEvent(event)
        if self._stale:
            self._timer.start()

    def refresh(self) -> None:
        if not self.shown():
            self._stale = True
            return
        self._stale = False
        rows = leaves_of(self.ctx.ws, self.source.currentData(), self.kind.currentData(), self.text.text())
        self.model.set_rows(rows)
        self.count.setText(f"{len(rows)} value(s)")
        if not self._sized:
            self._sized = True
            for i, width in enumerate((220, 260, 160, 110, 90)):
                self.view.setColumnWidth(i, width)

    def _jump(self, index) -> None:
        kind, oid, ptr = self.model.data(index, Qt.UserRole)
        self.jump.emit(kind, oid, ptr)
