"""A structured JSON editor: a tree of keys and values bound to a pointer of an object.

Scalars are edited in place (the text is read as JSON, else kept as a string); fields and
items are added, duplicated and removed from the context menu; any node can be edited as
JSON text. Used for zone and victory expressions, special rules and as every object's
"JSON" tab.
"""
from __future__ import annotations

import json

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor
from PySide6.QtWidgets import (QDialog, QDialogButtonBox, QHeaderView, QInputDialog, QLabel, QMenu, QPlainTextEdit,
                               QTreeWidget, QTreeWidgetItem, QVBoxLayout, QWidget)

from .. import jsonptr
from ..document import current_source
from ..jsonptr import MISSING
from .fields import Field

PTR = Qt.UserRole + 1


def _short(value) -> str:
    if isinstance(value, dict):
        return "{…}" if value else "{}"
    if isinstance(value, list):
        return f"[{len(value)}]"
    return json.dumps(value, ensure_ascii=False)


class JsonTree(QWidget, Field):
    def __init__(self, form=None, pointer_base: str = "", optional: bool = True, expand_depth: int = 2,
                 show_provenance: bool = True):
        super().__init__()
        self.form = form
        self.optional = optional
        self.expand_depth = expand_depth
        self.show_provenance = show_provenance
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        self.tree = QTreeWidget()
        self.tree.setColumnCount(3 if show_provenance else 2)
        self.tree.setHeaderLabels(["Key", "Value", "Source"][: self.tree.columnCount()])
        self.tree.header().setSectionResizeMode(0, QHeaderView.ResizeToContents)
        self.tree.header().setSectionResizeMode(1, QHeaderView.Stretch)
        self.tree.setContextMenuPolicy(Qt.CustomContextMenu)
        self.tree.customContextMenuRequested.connect(self._menu)
        self.tree.itemChanged.connect(self._item_changed)
        self.tree.setAlternatingRowColors(True)
        self.tree.setUniformRowHeights(True)
        self.tree.itemExpanded.connect(self._expand_lazy)
        lay.addWidget(self.tree)
        hint = QLabel("Double-click a value to edit it; right-click to add, remove or edit as JSON.")
        hint.setStyleSheet("color: #666")
        lay.addWidget(hint)
        self.value = None
        self._expanded: set[str] = set()

    # --- loading ----------------------------------------------------------------------

    def load(self, value) -> None:
        self._loading = True
        self._remember()
        self.value = None if value is MISSING else value
        self.tree.blockSignals(True)
        self.tree.clear()
        whole = self.form.value() if self.form is not None else {}
        if self.value is not None:
            root = QTreeWidgetItem(["(value)", _short(self.value)])
            root.setData(0, PTR, "")
            self.tree.addTopLevelItem(root)
            self._fill(root, self.value, "", 0, whole)
            root.setExpanded(True)
        self.tree.blockSignals(False)
        self._loading = False

    def _remember(self) -> None:
        if self.tree.topLevelItemCount() == 0:
            return
        stack = [self.tree.topLevelItem(0)]
        self._expanded.clear()
        while stack:
            it = stack.pop()
            if it.isExpanded():
                self._expanded.add(it.data(0, PTR))
            stack.extend(it.child(i) for i in range(it.childCount()))

    def _fill(self, parent: QTreeWidgetItem, value, ptr: str, depth: int, whole) -> None:
        items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
        big = isinstance(value, (dict, list)) and len(value) > 400
        for k, v in items:
            p = jsonptr.child(ptr, k)
            it = QTreeWidgetItem([str(k), _short(v)])
            it.setData(0, PTR, p)
            if not isinstance(v, (dict, list)):
                it.setFlags(it.flags() | Qt.ItemIsEditable)
            elif v and not big:
                self._fill(it, v, p, depth + 1, whole)
            elif v:
                it.setData(1, Qt.UserRole, "lazy")
                it.addChild(QTreeWidgetItem(["…"]))
            if self.show_provenance and self.form is not None and isinstance(whole, dict) and "provenance" in whole:
                entry = current_source(whole, (self.pointer or "") + p)
                src = entry.get("source") if entry else None
                if src:
                    it.setText(2, src + (f" §{entry['section']}" if entry.get("section") else ""))
                    if src == "reconstructed":
                        it.setForeground(2, QColor("#e65100"))
            parent.addChild(it)
            if p in self._expanded or depth + 1 < self.expand_depth:
                it.setExpanded(True)

    def _expand_lazy(self, item: QTreeWidgetItem) -> None:
        if item.data(1, Qt.UserRole) != "lazy":
            return
        item.setData(1, Qt.UserRole, None)
        self.tree.blockSignals(True)
        item.takeChildren()
        ptr = item.data(0, PTR)
        whole = self.form.value() if self.form is not None else {}
        saved, self.expand_depth = self.expand_depth, 0
        self._fill(item, jsonptr.get(self.value, ptr), ptr, 1, whole)
        self.expand_depth = saved
        self.tree.blockSignals(False)

    # --- editing ----------------------------------------------------------------------

    def _item_changed(self, item: QTreeWidgetItem, column: int) -> None:
        if self._loading or column != 1:
            return
        text = item.text(1)
        try:
            new = json.loads(text)
        except ValueError:
            new = text
        self.commit_at(item.data(0, PTR), new)

    def commit_at(self, rel: str, new) -> None:
        """One field changed: edit just that field (finer undo steps, provenance per value)."""
        if self._loading:
            return
        if self.form is not None and rel:
            self.form.set(self.pointer + rel, new)
        else:
            self.commit(jsonptr.set_in(self.value, rel, new) if rel else new)

    def _menu(self, pos) -> None:
        item = self.tree.itemAt(pos)
        menu = QMenu(self)
        if item is None:
            if self.value is None:
                menu.addAction("Create as {}", lambda: self.commit({}))
                menu.addAction("Create as []", lambda: self.commit([]))
            menu.exec(self.tree.viewport().mapToGlobal(pos))
            return
        ptr = item.data(0, PTR)
        node = jsonptr.get(self.value, ptr)
        if isinstance(node, dict):
            menu.addAction("Add field…", lambda: self._add_field(ptr))
        if isinstance(node, list):
            menu.addAction("Append item (copy of the last)", lambda: self._append(ptr))
        if ptr:
            parent = jsonptr.get(self.value, ptr.rsplit("/", 1)[0])
            if isinstance(parent, list):
                menu.addAction("Duplicate item", lambda: self._duplicate(ptr))
            menu.addAction("Remove", lambda: self.commit_at(ptr, MISSING))
        menu.addAction("Edit as JSON…", lambda: self._edit_json(ptr))
        menu.exec(self.tree.viewport().mapToGlobal(pos))

    def _add_field(self, ptr: str) -> None:
        key, ok = QInputDialog.getText(self, "Add field", "Field name:")
        if ok and key:
            self.commit_at(jsonptr.child(ptr, key), None)

    def _append(self, ptr: str) -> None:
        node = jsonptr.get(self.value, ptr)
        self.commit_at(ptr, list(node) + [node[-1] if node else None])

    def _duplicate(self, ptr: str) -> None:
        parent_ptr, idx = ptr.rsplit("/", 1)
        node = list(jsonptr.get(self.value, parent_ptr))
        node.insert(int(idx) + 1, node[int(idx)])
        self.commit_at(parent_ptr, node)

    def _edit_json(self, ptr: str) -> None:
        dlg = QDialog(self)
        dlg.setWindowTitle(f"Edit {ptr or '(value)'} as JSON")
        lay = QVBoxLayout(dlg)
        edit = QPlainTextEdit(json.dumps(jsonptr.get(self.value, ptr), ensure_ascii=False, indent=2))
        lay.addWidget(edit)
        err = QLabel("")
        err.setStyleSheet("color: #c62828")
        lay.addWidget(err)
        buttons = QDialogButtonBox(QDialogButtonBox.Ok | QDialogButtonBox.Cancel)
        lay.addWidget(buttons)
        dlg.resize(600, 400)

        def ok():
            try:
                new = json.loads(edit.toPlainText())
            except ValueError as exc:
                err.setText(str(exc))
                return
            dlg.accept()
            self.commit_at(ptr, new)
        buttons.accepted.connect(ok)
        buttons.rejected.connect(dlg.reject)
        dlg.exec()

    def select_pointer(self, rel: str) -> bool:
        """Select the tree node at a pointer relative to this tree's value."""
        stack = [self.tree.topLevelItem(i) for i in range(self.tree.topLevelItemCount())]
        best = None
        while stack:
            it = stack.pop()
            p = it.data(0, PTR)
            if p is not None and jsonptr.is_prefix(p, rel) and (best is None or len(p) > len(best.data(0, PTR))):
                best = it
            stack.extend(it.child(i) for i in range(it.childCount()))
        if best is None:
            return False
        parent = best.parent()
        while parent is not None:
            parent.setExpanded(True)
            parent = parent.parent()
        self.tree.setCurrentItem(best)
        self.tree.scrollToItem(best)
        return True
