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
from ..usertext import json_error
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
        self._known: set[str] = set()  # pointers shown before: their expansion is the user's choice
        self._current: str | None = None
        self._scroll = 0

    # --- loading ----------------------------------------------------------------------

    def load(self, value) -> None:
        """Show a value; after an edit the nodes the user expanded or collapsed, the selected
        node and the scroll position stay as they were (the tree is rebuilt, its state kept)."""
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
            root.setExpanded("" in self._expanded or "" not in self._known)
        if self._current is not None:
            item = self._item_at(self._current)
            if item is not None:
                self.tree.setCurrentItem(item)
        self.tree.blockSignals(False)
        self.tree.verticalScrollBar().setValue(self._scroll)
        self._loading = False

    def _remember(self) -> None:
        if self.tree.topLevelItemCount() == 0:
            return
        stack = [self.tree.topLevelItem(0)]
        self._expanded.clear()
        while stack:
            it = stack.pop()
            p = it.data(0, PTR)
            if p is None:
                continue  # a lazy node's placeholder
            self._known.add(p)
            if it.isExpanded():
                self._expanded.add(p)
            stack.extend(it.child(i) for i in range(it.childCount()))
        cur = self.tree.currentItem()
        self._current = cur.data(0, PTR) if cur is not None else None
        self._scroll = self.tree.verticalScrollBar().value()

    def _item_at(self, ptr: str) -> QTreeWidgetItem | None:
        stack = [self.tree.topLevelItem(i) for i in range(self.tree.topLevelItemCount())]
        while stack:
            it = stack.pop()
            if it.data(0, PTR) == ptr:
                return it
            stack.extend(it.child(i) for i in range(it.childCount()))
        return None

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
            if p in self._expanded or (p not in self._known and depth + 1 < self.expand_depth):
                if it.data(1, Qt.UserRole) == "lazy":
                    self._expand_lazy(it)  # signals are blocked while loading: fill it now
                it.setExpanded(True)

    def _expand_lazy(self, item: QTreeWidgetItem) -> None:
        if item.data(1, Qt.UserRole) != "lazy":
            return
        item.setData(1, Qt.UserRole, None)
        blocked = self.tree.blockSignals(True)
        item.takeChildren()
        ptr = item.data(0, PTR)
        whole = self.form.value() if self.form is not None else {}
        saved, self.expand_depth = self.expand_depth, 0
        self._fill(item, jsonptr.get(self.value, ptr), ptr, 1, whole)
        self.expand_depth = saved
        self.tree.blockSignals(blocked)

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
            menu.deleteLater()
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
        menu.deleteLater()  # a child of the tree: one per right-click would stay with it otherwise

    def _schema_at(self, rel: str) -> dict:
        """The schema of the value at a pointer of this tree ({} when unknown)."""
        if self.form is None or not hasattr(self.form, "ctx"):
            return {}
        try:
            return schema_at(self.form.ctx.ruleset, self.form.kind, (self.pointer or "") + rel)
        except Exception:  # noqa: BLE001 - no schema for a kind of another ruleset: plain defaults
            return {}

    def field_choices(self, ptr: str) -> list[str]:
        """The schema's fields of the object at ``ptr`` that it does not have yet."""
        node = jsonptr.get(self.value, ptr)
        props = _properties(self._schema_at(ptr))
        return [k for k in props if not isinstance(node, dict) or k not in node]

    def add_field(self, ptr: str, key: str) -> None:
        """Add a field with its schema's default (or its type's empty value): never null."""
        self.commit_at(jsonptr.child(ptr, key), default_for(self._schema_at(jsonptr.child(ptr, key))))

    def _add_field(self, ptr: str) -> None:
        choices = self.field_choices(ptr)
        if choices:
            key, ok = QInputDialog.getItem(self, "Add field", "Field name (or type a new one):", choices, 0, True)
        else:
            key, ok = QInputDialog.getText(self, "Add field", "Field name:")
        if ok and key:
            self.add_field(ptr, key)

    def _append(self, ptr: str) -> None:
        node = jsonptr.get(self.value, ptr)
        new = node[-1] if node else default_for(self._schema_at(ptr + "/0"))
        self.commit_at(ptr, list(node) + [new])

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
                err.setText(json_error(exc))
                return
            dlg.accept()
            self.commit_at(ptr, new)
        buttons.accepted.connect(ok)
        buttons.rejected.connect(dlg.reject)
        dlg.exec()
        dlg.deleteLater()

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


# --- the schema of a value, and a value to start from --------------------------------------

def _resolved(node, rel: str) -> tuple[dict, str]:
    from .schema_form import index
    return index().resolve(node if isinstance(node, dict) else {}, rel)


def _alternatives(node: dict, rel: str) -> list[tuple[dict, str]]:
    """A node and the alternatives it combines (allOf/anyOf/oneOf, if/then), resolved."""
    out = [(node, rel)]
    for key in ("allOf", "anyOf", "oneOf"):
        for alt in node.get(key, []) or []:
            out += _alternatives(*_resolved(alt, rel))
    for key in ("then", "else"):
        if isinstance(node.get(key), dict):
            out += _alternatives(*_resolved(node[key], rel))
    return out


def _properties(node_rel) -> dict:
    node, rel = node_rel if isinstance(node_rel, tuple) else (node_rel, "")
    props: dict = {}
    for alt, arel in _alternatives(node, rel) if node else []:
        for k, v in (alt.get("properties") or {}).items():
            props.setdefault(k, (v, arel))
    return props


def schema_at(ruleset: str, kind: str, pointer: str) -> tuple[dict, str]:
    """The (resolved) schema of the value at ``pointer`` of an object of ``kind``."""
    import re

    from .schema_form import index
    node, rel = index().object_schema(ruleset, kind)
    for token in [jsonptr.unescape(t) for t in pointer.split("/")[1:]]:
        nxt = None
        for alt, arel in _alternatives(node, rel):
            props = alt.get("properties") or {}
            if token in props:
                nxt = _resolved(props[token], arel)
            else:
                for pat, sub in (alt.get("patternProperties") or {}).items():
                    if re.search(pat, token):
                        nxt = _resolved(sub, arel)
                if nxt is None and isinstance(alt.get("additionalProperties"), dict):
                    nxt = _resolved(alt["additionalProperties"], arel)
                if nxt is None and token.isdigit():
                    prefix = alt.get("prefixItems") or []
                    if int(token) < len(prefix):
                        nxt = _resolved(prefix[int(token)], arel)
                    elif isinstance(alt.get("items"), dict):
                        nxt = _resolved(alt["items"], arel)
            if nxt is not None:
                break
        if nxt is None:
            return {}, rel
        node, rel = nxt
    return node, rel


def default_for(node_rel, depth: int = 0):
    """A value to start a new field from: the schema's default, const or first enum value, else
    its type's empty value with the required fields of an object filled in (never None unless
    the schema allows only null)."""
    node, rel = node_rel if isinstance(node_rel, tuple) else (node_rel, "")
    if not node or depth > 6:
        return ""
    if "default" in node:
        return node["default"]
    if "const" in node:
        return node["const"]
    if node.get("enum"):
        return node["enum"][0]
    types = node.get("type")
    types = [t for t in (types if isinstance(types, list) else [types]) if t and t != "null"]
    if not types:
        for key in ("oneOf", "anyOf", "allOf"):
            if node.get(key):
                return default_for(_resolved(node[key][0], rel), depth + 1)
        return ""
    t = types[0]
    if t == "object":
        props = _properties((node, rel))
        return {k: default_for(_resolved(*props[k]), depth + 1) for k in node.get("required", []) if k in props}
    if t == "array":
        return []
    if t == "boolean":
        return False
    if t in ("integer", "number"):
        low = node.get("minimum")
        if low is None and isinstance(node.get("exclusiveMinimum"), (int, float)):
            low = node["exclusiveMinimum"] + (1 if t == "integer" else 0.5)
        if low is None or low <= 0 <= node.get("maximum", float("inf")):
            return 0
        return int(low) if t == "integer" else low
    return ""
