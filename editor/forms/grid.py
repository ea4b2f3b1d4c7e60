"""Editable grids over a list of objects, or an object of objects, at one pointer.

Each row is an item (a list index or an object key); each column a field of it, given
by a sub-pointer and how to read what the user types. Cells whose value is reconstructed
are tinted, like the forms' fields.
"""
from __future__ import annotations

import json
from dataclasses import dataclass

from PySide6.QtGui import QBrush
from PySide6.QtWidgets import (QHBoxLayout, QHeaderView, QInputDialog, QPushButton, QTableWidget, QTableWidgetItem,
                               QVBoxLayout, QWidget)

from .. import jsonptr
from ..usertext import parse_int, parse_number
from ..document import current_source
from ..jsonptr import MISSING
from .fields import RECONSTRUCTED_TINT, Field


@dataclass(frozen=True)
class Col:
    title: str
    sub: str  # pointer inside the row item ("" = the item itself)
    kind: str = "json"  # int | number | str | bool | json | cost | text
    choices: tuple = ()


def parse_cell(text: str, kind: str, choices: tuple = ()):
    text = text.strip()
    if text in ("", "—"):
        return MISSING
    if kind == "int":
        return parse_int(text)
    if kind == "number":
        return parse_number(text)
    if kind == "bool":
        return text.lower() in ("1", "true", "yes", "y", "x", "✓")
    if kind == "cost":
        if text in ("prohibited", "all"):
            return text
        try:
            return parse_number(text)
        except ValueError:
            raise ValueError(f"“{text}” is not a cost: a number, “all” or “prohibited”") from None
    if kind in ("str", "text"):
        if choices and text not in choices:
            raise ValueError(f"“{text}” is not one of {', '.join(choices)}")
        return text
    try:
        return json.loads(text)
    except ValueError:
        return text


def show_cell(value, kind: str) -> str:
    if value is MISSING or value is None:
        return ""
    if kind == "bool":
        return "✓" if value else ""
    if isinstance(value, (dict, list)):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


class JsonGrid(QWidget, Field):
    def __init__(self, form, columns: list[Col], keyed: bool = False, key_title: str = "", row_label=None,
                 can_add: bool = True, new_row=None):
        super().__init__()
        self.form = form
        self.columns = columns
        self.keyed = keyed
        self.row_label = row_label
        self.new_row = new_row
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        self.table = QTableWidget(0, len(columns))
        self.table.setHorizontalHeaderLabels([c.title for c in columns])
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.Interactive)
        self.table.horizontalHeader().setStretchLastSection(True)
        self.table.verticalHeader().setVisible(keyed or row_label is not None)
        self.table.setAlternatingRowColors(True)
        self.table.itemChanged.connect(self._changed)
        lay.addWidget(self.table)
        if can_add:
            row = QHBoxLayout()
            add = QPushButton("+ row")
            add.clicked.connect(self._add)
            rem = QPushButton("− row")
            rem.clicked.connect(self._remove)
            row.addWidget(add)
            row.addWidget(rem)
            row.addStretch(1)
            lay.addLayout(row)
        self.value = None
        self.rows: list = []

    def load(self, value) -> None:
        self._loading = True
        self.value = None if value is MISSING else value
        self.table.blockSignals(True)
        if isinstance(self.value, dict):
            self.rows = list(self.value.keys())
        elif isinstance(self.value, list):
            self.rows = list(range(len(self.value)))
        else:
            self.rows = []
        self.table.setRowCount(len(self.rows))
        whole = self.form.value() if self.form is not None else {}
        has_prov = isinstance(whole, dict) and "provenance" in whole
        labels = []
        for r, key in enumerate(self.rows):
            item = self.value[key]
            labels.append(str(key) if self.row_label is None else self.row_label(key, item))
            for c, col in enumerate(self.columns):
                v = jsonptr.get(item, col.sub, MISSING)
                cell = QTableWidgetItem(show_cell(v, col.kind))
                if has_prov:
                    entry = current_source(whole, self.cell_pointer(r, c))
                    if entry and entry.get("source") == "reconstructed" and getattr(self.form.ctx, "show_provenance", True):
                        cell.setBackground(QBrush(RECONSTRUCTED_TINT))
                    if entry:
                        cell.setToolTip(entry.get("source", "") + (f" §{entry['section']}" if entry.get("section") else "")
                                        + (f"\n{entry['note']}" if entry.get("note") else ""))
                self.table.setItem(r, c, cell)
        self.table.setVerticalHeaderLabels(labels)
        self.table.resizeColumnsToContents()
        for c in range(self.table.columnCount()):
            self.table.setColumnWidth(c, min(max(self.table.columnWidth(c), 70), 420))
        rows_h = sum(self.table.rowHeight(r) for r in range(self.table.rowCount()))
        self.table.setMinimumHeight(min(self.table.horizontalHeader().height() + rows_h + 6, 420))
        self.table.blockSignals(False)
        self._loading = False

    def cell_pointer(self, row: int, col: int, absolute: bool = True) -> str:
        rel = jsonptr.child("", self.rows[row]) + self.columns[col].sub
        return (self.pointer + rel) if absolute else rel

    def _changed(self, cell: QTableWidgetItem) -> None:
        if self._loading:
            return
        r, c = cell.row(), cell.column()
        col = self.columns[c]
        try:
            new = parse_cell(cell.text(), col.kind, col.choices)
        except ValueError as exc:
            self.form.ctx.status(f"{col.title}: {exc}; the cell keeps its value")
            self.load(jsonptr.get(self.form.value(), self.pointer, MISSING))
            return
        self.form.set(self.cell_pointer(r, c), new)

    def _add(self) -> None:
        if isinstance(self.value, dict) or (self.value is None and self.keyed):
            key, ok = QInputDialog.getText(self, "New row", "Key:")
            if not ok or not key:
                return
            template = self.new_row() if self.new_row else (next(iter(self.value.values())) if self.value else {})
            self.form.set(jsonptr.child(self.pointer, key), template)
        else:
            items = list(self.value or [])
            template = self.new_row() if self.new_row else (items[-1] if items else {})
            self.form.set(self.pointer, items + [template])

    def _remove(self) -> None:
        r = self.table.currentRow()
        if r < 0 or r >= len(self.rows):
            return
        self.form.set(jsonptr.child(self.pointer, self.rows[r]), MISSING)

    def select_pointer(self, rel: str) -> bool:
        for r in range(len(self.rows)):
            for c in range(len(self.columns)):
                p = self.cell_pointer(r, c, absolute=False)
                if jsonptr.is_prefix(p, rel) or jsonptr.is_prefix(rel, p):
                    self.table.setCurrentCell(r, c)
                    self.table.scrollToItem(self.table.item(r, c))
                    return True
        return False
