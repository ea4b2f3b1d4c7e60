"""The findings dock: what validation reports, filtered by severity and by object;
double-click jumps to the object and the field."""
from __future__ import annotations

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QSortFilterProxyModel, Qt, Signal
from PySide6.QtGui import QColor
from PySide6.QtWidgets import (QCheckBox, QComboBox, QHBoxLayout, QHeaderView, QLabel, QLineEdit, QTableView,
                               QVBoxLayout, QWidget)

from sandtable.rules.findings import Severity

from .checking import Located

SEVERITY_COLOURS = {Severity.ERROR: QColor("#c62828"), Severity.WARNING: QColor("#ef6c00"), Severity.INFO: QColor("#1565c0")}
COLUMNS = ["Severity", "Code", "Object", "Field", "Message", "Where"]


class FindingsModel(QAbstractTableModel):
    def __init__(self, parent=None):
        super().__init__(parent)
        self.rows: list[Located] = []

    def set_findings(self, rows: list[Located]) -> None:
        self.beginResetModel()
        self.rows = list(rows)
        self.endResetModel()

    def rowCount(self, parent=QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self.rows)

    def columnCount(self, parent=QModelIndex()) -> int:
        return len(COLUMNS)

    def headerData(self, section, orientation, role=Qt.DisplayRole):
        if orientation == Qt.Horizontal and role == Qt.DisplayRole:
            return COLUMNS[section]
        return None

    def data(self, index, role=Qt.DisplayRole):
        loc = self.rows[index.row()]
        f = loc.finding
        col = index.column()
        if role == Qt.DisplayRole:
            if col == 0:
                return str(f.severity)
            if col == 1:
                return f.code
            if col == 2:
                return f"{loc.kind} {loc.id}" if loc.kind else (f.subject or "")
            if col == 3:
                return loc.pointer
            if col == 4:
                return f.message + (f" [§{f.section}]" if f.section else "")
            if col == 5:
                return loc.where() if hasattr(loc, "where") else str(f.location)
        if role == Qt.ForegroundRole and col == 0:
            return SEVERITY_COLOURS.get(f.severity)
        if role == Qt.ToolTipRole:
            return loc.line_text() if hasattr(loc, "line_text") else f.line_text()
        if role == Qt.UserRole:
            return loc
        return None


class FindingsFilter(QSortFilterProxyModel):
    def __init__(self, parent=None):
        super().__init__(parent)
        self.min_severity = Severity.INFO
        self.text = ""
        self.only: tuple[str, str] | None = None

    def filterAcceptsRow(self, row, parent) -> bool:
        loc: Located = self.sourceModel().rows[row]
        if loc.finding.severity < self.min_severity:
            return False
        if self.only is not None and (loc.kind, loc.id) != self.only:
            return False
        if self.text:
            hay = f"{loc.kind} {loc.id} {loc.finding.code} {loc.finding.message} {loc.finding.location}".lower()
            return all(w in hay for w in self.text.lower().split())
        return True


class FindingsDock(QWidget):
    jump = Signal(str, str, str)  # kind, id, pointer

    def __init__(self, parent=None):
        super().__init__(parent)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(2, 2, 2, 2)
        bar = QHBoxLayout()
        self.severity = QComboBox()
        self.severity.addItem("All findings", int(Severity.INFO))
        self.severity.addItem("Warnings and errors", int(Severity.WARNING))
        self.severity.addItem("Errors only", int(Severity.ERROR))
        self.text = QLineEdit()
        self.text.setPlaceholderText("Filter by object, code or text")
        self.text.setClearButtonEnabled(True)
        self.current_only = QCheckBox("Current object only")
        self.counts = QLabel("")
        bar.addWidget(self.severity)
        bar.addWidget(self.text, 1)
        bar.addWidget(self.current_only)
        bar.addWidget(self.counts)
        lay.addLayout(bar)
        self.model = FindingsModel(self)
        self.proxy = FindingsFilter(self)
        self.proxy.setSourceModel(self.model)
        self.view = QTableView()
        self.view.setModel(self.proxy)
        self.view.setSelectionBehavior(QTableView.SelectRows)
        self.view.setSortingEnabled(True)
        self.view.verticalHeader().setVisible(False)
        self.view.setWordWrap(False)
        h = self.view.horizontalHeader()
        for i, mode in enumerate([QHeaderView.ResizeToContents] * 4 + [QHeaderView.Stretch, QHeaderView.Interactive]):
            h.setSectionResizeMode(i, mode)
        self.view.doubleClicked.connect(self._jump)
        self.view.activated.connect(self._jump)
        lay.addWidget(self.view, 1)
        self.empty = QLabel("No findings: the pack is valid.")
        self.empty.setStyleSheet("color: #2e7d32; padding: 4px")
        lay.addWidget(self.empty)
        self.severity.currentIndexChanged.connect(self._refilter)
        self.text.textChanged.connect(self._refilter)
        self.current_only.toggled.connect(self._refilter)
        self.current: tuple[str, str] | None = None

    def set_findings(self, rows: list[Located]) -> None:
        self.model.set_findings(rows)
        errors = sum(1 for r in rows if r.finding.severity == Severity.ERROR)
        warnings = sum(1 for r in rows if r.finding.severity == Severity.WARNING)
        self.counts.setText(f"{errors} error(s), {warnings} warning(s)")
        self.empty.setVisible(not rows)
        self._refilter()

    def set_current(self, kind: str | None, oid: str | None) -> None:
        self.current = (kind, oid) if kind else None
        if self.current_only.isChecked():
            self._refilter()

    def _refilter(self, *args) -> None:
        self.proxy.min_severity = Severity(self.severity.currentData())
        self.proxy.text = self.text.text().strip()
        self.proxy.only = self.current if self.current_only.isChecked() else None
        self.proxy.invalidate()

    def _jump(self, index) -> None:
        loc: Located = self.proxy.data(index, Qt.UserRole)
        if loc is not None and loc.kind:
            self.jump.emit(loc.kind, loc.id, loc.pointer)

    def visible_rows(self) -> list[Located]:
        return [self.proxy.data(self.proxy.index(r, 0), Qt.UserRole) for r in range(self.proxy.rowCount())]
