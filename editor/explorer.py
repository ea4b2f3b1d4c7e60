"""The pack explorer: every object of the loaded packs in a tree, with the pack it comes
from and what mods change; a search box that finds by name, id, card number or hex id;
and the object lifecycle (new, new like, duplicate, rename, delete) from its buttons and
context menu (``lifecycle_ui``)."""
from __future__ import annotations

import json
import re

from PySide6.QtCore import QSortFilterProxyModel, Qt, QTimer, Signal
from PySide6.QtGui import QBrush, QColor, QFont, QStandardItem, QStandardItemModel
from PySide6.QtWidgets import QHBoxLayout, QHeaderView, QLineEdit, QMenu, QPushButton, QTreeView, QVBoxLayout, QWidget

# Below both the explorer and the lifecycle dialogs it opens (lifecycle_ui), so that the
# explorer -> lifecycle_ui order stays one-way.
from . import labels
from .labels import label  # noqa: F401 - label is the explorer's public name too

KIND_ROLE = Qt.UserRole + 1
ID_ROLE = Qt.UserRole + 2
SEARCH_ROLE = Qt.UserRole + 3
HEX_ROLE = Qt.UserRole + 4

HEX_QUERY = re.compile(r"^([A-Z][A-Z0-9]{0,3})?(\d{4})$", re.I)


def search_text(kind: str, oid: str, v: dict | None, ruleset=None) -> str:
    v = v or {}
    parts = [oid, label(kind, oid, v, ruleset), v.get("full_name", ""), *labels.search_words(kind, oid, v, ruleset)]
    if kind == "scenario":
        parts.append((v.get("name") or {}).get("fr", ""))
    return " ".join(p for p in parts if p).lower()


ROMAN = ("I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X", "XI", "XII", "XIII", "XIV", "XV", "XVI",
         "XVII", "XVIII", "XIX", "XX")


def sort_key(kind: str, oid: str, v: dict | None):
    v = v or {}
    if kind == "scenario":
        number = v.get("number", "")
        return (ROMAN.index(number) if number in ROMAN else 99, oid)
    if kind == "setup":
        return (0, v.get("scenario", ""), oid)
    return (int(oid) if oid.isdigit() else 0, oid)


def has_hex(kind: str, v: dict | None, map_letter: str | None, hex_id: str, blob: str) -> bool:
    if kind == "map":
        g = (v or {}).get("grid") or {}
        try:
            col, row = int(hex_id[:2]), int(hex_id[2:])
            inside = g["columns"]["first"] <= col <= g["columns"]["last"] and g["rows"]["first"] <= row <= g["rows"]["last"]
        except (KeyError, TypeError, ValueError):
            return False
        return inside and (map_letter is None or map_letter.upper() == (v or {}).get("id"))
    return hex_id in blob  # the other kinds that name hexes (labels.hex_kinds)


class ExplorerFilter(QSortFilterProxyModel):
    def __init__(self, parent=None):
        super().__init__(parent)
        self.query = ""
        self.setRecursiveFilteringEnabled(True)

    def set_query(self, text: str) -> None:
        self.query = text.strip()
        self.invalidate()

    def filterAcceptsRow(self, row, parent) -> bool:
        if not self.query:
            return True
        idx = self.sourceModel().index(row, 0, parent)
        kind = idx.data(KIND_ROLE)
        if kind is None:
            return False
        m = HEX_QUERY.match(self.query)
        value = idx.data(HEX_ROLE) if m else None  # set on the kinds that name hexes only
        if value is not None:
            if has_hex(kind, value, m.group(1), m.group(2), json.dumps(value) if kind != "map" else ""):
                return True
        words = self.query.lower().split()
        text = idx.data(SEARCH_ROLE) or ""
        return all(w in text for w in words)


class Explorer(QWidget):
    activated = Signal(str, str)  # kind, id

    def __init__(self, ctx, parent=None):
        super().__init__(parent)
        self.ctx = ctx
        lay = QVBoxLayout(self)
        lay.setContentsMargins(2, 2, 2, 2)
        self.search = QLineEdit()
        self.search.setPlaceholderText("Search: name, id, card number or hex id (e.g. B2620)")
        self.search.setClearButtonEnabled(True)
        lay.addWidget(self.search)
        self.model = QStandardItemModel(self)
        self.model.setHorizontalHeaderLabels(["Object", "Pack"])
        self.proxy = ExplorerFilter(self)
        self.proxy.setSourceModel(self.model)
        self.tree = QTreeView()
        self.tree.setModel(self.proxy)
        self.tree.setUniformRowHeights(True)
        self.tree.header().setSectionResizeMode(0, QHeaderView.Stretch)
        self.tree.header().setSectionResizeMode(1, QHeaderView.ResizeToContents)
        self.tree.header().setStretchLastSection(False)
        self.tree.activated.connect(self._activated)
        self.tree.doubleClicked.connect(self._activated)
        self.tree.setContextMenuPolicy(Qt.CustomContextMenu)
        self.tree.customContextMenuRequested.connect(self._context_menu)
        bar = QHBoxLayout()
        self.buttons = {}
        for name, tip in (("New…", "A new object of the selected kind: blank, or like the selected one"),
                          ("Duplicate", "A copy of the selected object under a new id"),
                          ("Rename…", "A new id or number; every reference across the pack follows"),
                          ("Delete…", "Shows what refers to it first")):
            b = QPushButton(name)
            b.setToolTip(tip)
            b.clicked.connect(lambda _=False, n=name: self.lifecycle_action(n))
            bar.addWidget(b)
            self.buttons[name] = b
        lay.addLayout(bar)
        lay.addWidget(self.tree, 1)
        self.section_kind: dict[int, str] = {}  # row of a top-level section -> its object kind
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(150)
        self._timer.timeout.connect(self._apply_search)
        self.search.textChanged.connect(lambda _: self._timer.start())
        self.items: dict[tuple[str, str], QStandardItem] = {}
        self.problems: dict[tuple[str, str], list[str]] = {}  # (kind, id) -> its errors, "field: message"
        self._regroup = QTimer(self)  # several objects regrouped by one edit: one rebuild
        self._regroup.setSingleShot(True)
        self._regroup.setInterval(0)
        self._regroup.timeout.connect(self._rebuild_keeping_place)
        self.build()
        ctx.doc.changed.connect(self._changed)
        ctx.doc.reset.connect(self._refresh_all)
        ctx.doc.structure.connect(self._structure_changed)
        # an id typed into a field or a JSON tree is a rename: ask first, through the window
        from .lifecycle_ui import confirm_rename
        ctx.doc.confirm_rename = confirm_rename(self._ask)
        ctx.doc.rename_refused.connect(lambda why: self.ctx.status(f"not renamed: {why}"))
        self.tree.selectionModel().currentChanged.connect(lambda *_: self._enable_buttons())
        self._enable_buttons()

    def build(self) -> None:
        ws = self.ctx.ws
        self.model.removeRows(0, self.model.rowCount())
        self.items.clear()
        self.section_kind = {}
        bold = QFont()
        bold.setBold(True)
        ruleset = ws.catalog.ruleset
        hexes = labels.hex_kinds(ruleset)
        for kind, title in labels.sections(ruleset):  # every section of the ruleset, empty ones too
            ids = ws.keys(kind)
            self.section_kind[self.model.rowCount()] = kind
            top = QStandardItem(f"{title} ({len(ids)})")
            top.setFont(bold)
            top.setEditable(False)
            groups: dict[tuple, QStandardItem] = {}
            for oid in sorted(ids, key=lambda i: sort_key(kind, i, ws.value(kind, i))):
                v = ws.value(kind, oid)
                parent = top
                path = ()
                for g in labels.group(kind, v, ruleset):
                    path += (g,)
                    if path not in groups:
                        gi = QStandardItem(g)
                        gi.setEditable(False)
                        parent.appendRow([gi, QStandardItem("")])
                        groups[path] = gi
                    parent = groups[path]
                item = QStandardItem(label(kind, oid, v, ruleset))
                item.setEditable(False)
                item.setData(kind, KIND_ROLE)
                item.setData(oid, ID_ROLE)
                item.setData(search_text(kind, oid, v, ruleset), SEARCH_ROLE)
                if kind in hexes:
                    item.setData(v, HEX_ROLE)
                pack = QStandardItem(self._pack_text(kind, oid))
                pack.setEditable(False)
                self._style(item, pack, kind, oid)
                parent.appendRow([item, pack])
                self.items[(kind, oid)] = item
            for gi in groups.values():
                gi.setText(f"{gi.text()} ({self._count(gi)})")
            self.model.appendRow([top, QStandardItem("")])
        packs = QStandardItem(f"Packs ({len(ws.catalog.packs)})")
        packs.setFont(bold)
        for p in ws.catalog.packs:
            pi = QStandardItem(f"{p.id} {p.version}" + ("  (editing)" if p is ws.pack else ""))
            pi.setToolTip(str(p.source.label))
            for what, pairs in (("adds", p.added), ("overrides", p.overridden), ("removes", p.removed)):
                if pairs:
                    wi = QStandardItem(f"{what} {len(pairs)} object(s)")
                    for kind, oid in pairs[:500]:
                        oi = QStandardItem(f"{kind} {oid}")
                        oi.setData(kind, KIND_ROLE)
                        oi.setData(oid, ID_ROLE)
                        oi.setData(f"{kind} {oid}".lower(), SEARCH_ROLE)
                        wi.appendRow(oi)
                    pi.appendRow(wi)
            for c in p.conflicts:
                ci = QStandardItem(f"conflict: {c}")
                ci.setForeground(QBrush(QColor("#c62828")))
                pi.appendRow(ci)
            packs.appendRow([pi, QStandardItem("")])
        self.model.appendRow([packs, QStandardItem("")])
        for r in range(self.proxy.rowCount()):
            self.tree.expand(self.proxy.index(r, 0))

    def _count(self, item: QStandardItem) -> int:
        n = 0
        for r in range(item.rowCount()):
            c = item.child(r)
            n += 1 if c.data(KIND_ROLE) else self._count(c)
        return n

    def _pack_text(self, kind: str, oid: str) -> str:
        ws = self.ctx.ws
        text = ws.defining_pack(kind, oid) if ws.catalog.get(kind, oid) is not None else \
            ws.pack_id + ("" if (kind, oid) in ws.saved_home else " (new)")
        over = ws.overridden_by(kind, oid)
        if over:
            text += " ← " + ", ".join(o.split(" ")[0] for o in over)
        return text

    def _style(self, item: QStandardItem, pack: QStandardItem, kind: str, oid: str) -> None:
        ws = self.ctx.ws
        over = ws.overridden_by(kind, oid)
        edited = ws.value(kind, oid) != ws.saved_value(kind, oid)
        problems = self.problems.get((kind, oid))
        f = QFont()
        f.setItalic(bool(over))
        f.setBold(edited)
        item.setFont(f)
        tip = f"{kind} {oid}\ndefined by {ws.defining_pack(kind, oid)}"
        if over:
            tip += "\nchanged by " + ", ".join(over)
            pack.setForeground(QBrush(QColor("#6a1b9a")))
        if edited:
            tip += "\nedited (unsaved)"
        if problems:
            tip += f"\n{len(problems)} error(s):\n" + "\n".join(problems[:8]) + ("\n…" if len(problems) > 8 else "")
        item.setToolTip(tip)
        item.setForeground(QBrush(QColor("#c62828")) if problems else QBrush())
        item.setText(("● " if edited else "") + ("⚠ " if problems else "") + label(kind, oid, ws.value(kind, oid), ws.catalog.ruleset))

    def _changed(self, kind: str, oid: str, pointer: str) -> None:
        item = self.items.get((kind, oid))
        if item is None:
            return
        pack_item = item.parent().child(item.row(), 1) if item.parent() else None
        v = self.ctx.ws.value(kind, oid)
        ruleset = self.ctx.ws.catalog.ruleset
        if self._group_path(item) != tuple(labels.group(kind, v, ruleset)):
            self._regroup.start()  # a new nationality or class: the object moves to its group
        item.setData(search_text(kind, oid, v, ruleset), SEARCH_ROLE)
        if kind in labels.hex_kinds(ruleset):
            item.setData(v, HEX_ROLE)
        self._style(item, pack_item or QStandardItem(), kind, oid)

    def _group_path(self, item: QStandardItem) -> tuple:
        """The group names an object sits under (without their counts), below its kind's section."""
        path = []
        parent = item.parent()
        while parent is not None and parent.parent() is not None:
            path.append(parent.text().rsplit(" (", 1)[0])
            parent = parent.parent()
        return tuple(reversed(path))

    def _rebuild_keeping_place(self) -> None:
        current = self.selected()
        self.build()
        if self.search.text():
            self._apply_search()
        if current[0] is not None and current[1] is not None and current in self.items:
            self.select(*current)

    def show_problems(self, rows) -> None:
        """Mark the objects that have errors (an incomplete new object, a broken value); the
        tooltip names each field and its problem."""
        problems: dict[tuple[str, str], list[str]] = {}
        for r in rows:
            if r.kind and r.finding.severity >= 2:
                problems.setdefault((r.kind, str(r.id)), []).append(f"{r.pointer or '(object)'}: {r.finding.message}")
        changed = set(problems) ^ set(self.problems) | {k for k in problems if problems[k] != self.problems.get(k)}
        self.problems = problems
        for key in changed:
            if key in self.items:
                self._changed(key[0], key[1], "")

    def _refresh_all(self) -> None:
        if getattr(self, "rebuilding", False):
            return  # the tree is made again right after (Save as): restyling it first is wasted
        for (kind, oid) in list(self.items):
            self._changed(kind, oid, "")

    def mark_saved(self) -> None:
        self._refresh_all()

    def _apply_search(self) -> None:
        self.proxy.set_query(self.search.text())
        if self.search.text():
            self.tree.expandAll()
        else:
            self.tree.collapseAll()
            for r in range(self.proxy.rowCount()):
                self.tree.expand(self.proxy.index(r, 0))

    def _activated(self, index) -> None:
        src = self.proxy.mapToSource(index.siblingAtColumn(0))
        item = self.model.itemFromIndex(src)
        if item is not None and item.data(KIND_ROLE):
            self.activated.emit(item.data(KIND_ROLE), item.data(ID_ROLE))

    # --- lifecycle ------------------------------------------------------------------------

    def selected(self) -> tuple[str | None, str | None]:
        """(kind, id) of the selected object; (kind, None) on a section or group of a kind."""
        index = self.tree.currentIndex()
        if not index.isValid():
            return None, None
        item = self.model.itemFromIndex(self.proxy.mapToSource(index.siblingAtColumn(0)))
        while item is not None:
            kind = item.data(KIND_ROLE)
            if kind:
                return kind, item.data(ID_ROLE)
            if item.parent() is None:
                return self.section_kind.get(item.row()), None
            item = item.parent()
        return None, None

    def _ask(self, title: str, text: str, buttons: list[str]) -> str:
        ask = getattr(self.window(), "ask", None)
        return ask(title, text, buttons) if callable(ask) else buttons[0]

    def _enable_buttons(self) -> None:
        kind, oid = self.selected()
        self.buttons["New…"].setEnabled(kind is not None)
        for name in ("Duplicate", "Rename…", "Delete…"):
            self.buttons[name].setEnabled(oid is not None)

    def lifecycle_action(self, name: str, kind: str | None = None, oid: str | None = None):
        """Run one lifecycle dialog for the selection (or the given object)."""
        from . import lifecycle_ui as ui
        from .lifecycle import LifecycleError
        if kind is None:
            kind, oid = self.selected()
        if kind is None:
            return None
        doc = self.ctx.doc
        try:
            if name.startswith("New setup"):
                dialog = ui.NewObjectDialog(doc, "setup", like=oid, parent=self)
            elif name.startswith("New"):
                dialog = ui.NewObjectDialog(doc, kind, like=oid if name == "New like…" else None, parent=self)
            elif name == "Duplicate":
                made = doc.lifecycle.duplicate(kind, oid)
                self.ctx.open_object(kind, made, "")
                return made
            elif name.startswith("Rename"):
                dialog = ui.RenameDialog(doc, kind, oid, parent=self)
            elif name.startswith("Delete"):
                dialog = ui.DeleteDialog(doc, kind, oid, parent=self)
            else:
                return None
        except LifecycleError as exc:
            self.ctx.status(str(exc))
            return None
        made = ui.run(dialog, self)
        if made and not name.startswith("Delete"):
            self.ctx.open_object("setup" if name.startswith("New setup") else kind, made, "")
        return made

    def _context_menu(self, pos) -> None:
        index = self.tree.indexAt(pos)
        if index.isValid():
            self.tree.setCurrentIndex(index)
        kind, oid = self.selected()
        if kind is None:
            return
        menu = QMenu(self)
        title = kind.replace("-", " ")
        menu.addAction(f"New {title}…", lambda: self.lifecycle_action("New…", kind, None))
        if oid is not None:
            menu.addAction(f"New {title} like {oid}…", lambda: self.lifecycle_action("New like…", kind, oid))
            menu.addAction("Duplicate", lambda: self.lifecycle_action("Duplicate", kind, oid))
            menu.addAction("Rename…", lambda: self.lifecycle_action("Rename…", kind, oid))
            menu.addAction("Delete…", lambda: self.lifecycle_action("Delete…", kind, oid))
            if kind == "scenario":
                menu.addSeparator()
                menu.addAction("New setup of this scenario…", lambda: self.lifecycle_action("New setup…", kind, oid))
        menu.exec(self.tree.viewport().mapToGlobal(pos))
        menu.deleteLater()  # a child of the explorer: kept until the window closed otherwise

    def _structure_changed(self, touched: list) -> None:
        """Objects were made, renamed or deleted: rebuild the tree (keeping the search), close
        the editors of objects that no longer exist, select what was made."""
        ws = self.ctx.ws
        win = self.window()
        forms = getattr(win, "forms", None)
        reopen = None
        if isinstance(forms, dict) and hasattr(win, "close_tab"):
            for (kind, oid), form in list(forms.items()):
                if not ws.exists(kind, oid):
                    win.close_tab(win.tabs.indexOf(form))
                    # a renamed object's editor comes back under its new id
                    if len(touched) > 1 and tuple(touched[0]) == (kind, oid) and ws.exists(*touched[1]):
                        reopen = tuple(touched[1])
        self.build()
        if self.search.text():
            self._apply_search()
        made = next(((k, i) for k, i in touched[:2] if ws.exists(k, i) and (k, i) in self.items), None)
        if made:
            self.select(*made)
        if reopen is not None:
            self.ctx.open_object(reopen[0], reopen[1], "")
        self._enable_buttons()

    def select(self, kind: str, oid: str) -> None:
        item = self.items.get((kind, oid))
        if item is not None:
            idx = self.proxy.mapFromSource(item.index())
            if idx.isValid():
                self.tree.setCurrentIndex(idx)
                self.tree.scrollTo(idx)
