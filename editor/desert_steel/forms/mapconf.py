"""Map configuration editor (maps, how they join, north) with a board preview; map and
setup viewers (board plus structured JSON)."""
from __future__ import annotations

from PySide6.QtWidgets import (QComboBox, QFormLayout, QGroupBox, QHBoxLayout, QLabel, QSplitter, QTableWidget,
                               QVBoxLayout, QWidget)
from PySide6.QtCore import Qt

from ..boardview import BoardWidget
from ...forms.fields import EnumField, Field, Heading, LongTextField, ObjectForm, TextField
from ...forms.jsontree import JsonTree


class LayoutGrid(QWidget, Field):
    """Rows of map letters, top to bottom, as the scenario diagram prints them (up to 4×4)."""

    def __init__(self, form):
        super().__init__()
        self.form = form
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        self.table = QTableWidget(4, 4)
        self.table.horizontalHeader().setVisible(False)
        self.table.verticalHeader().setVisible(False)
        for i in range(4):
            self.table.setColumnWidth(i, 64)
            self.table.setRowHeight(i, 30)
        self.table.setFixedSize(4 * 64 + 4, 4 * 30 + 4)
        lay.addWidget(self.table)
        hint = QLabel("Each cell holds a map (or nothing); rows are read top to bottom.")
        hint.setStyleSheet("color: #666")
        hint.setWordWrap(True)
        lay.addWidget(hint)
        self.combos = []
        for r in range(4):
            for c in range(4):
                combo = QComboBox()
                combo.currentIndexChanged.connect(lambda _: self._changed())
                self.table.setCellWidget(r, c, combo)
                self.combos.append(combo)

    def load(self, value) -> None:
        self._loading = True
        maps = [""] + self.form.ctx.ws.keys("map")
        layout = value if isinstance(value, list) else []
        for r in range(4):
            for c in range(4):
                combo = self.combos[r * 4 + c]
                combo.blockSignals(True)
                combo.clear()
                combo.addItems(maps)
                cur = layout[r][c] if r < len(layout) and isinstance(layout[r], list) and c < len(layout[r]) else ""
                if cur not in maps:
                    combo.addItem(cur)
                combo.setCurrentText(cur)
                combo.blockSignals(False)
        self._loading = False

    def _changed(self) -> None:
        rows = []
        for r in range(4):
            row = [self.combos[r * 4 + c].currentText() for c in range(4)]
            row = [m for m in row if m]
            if row:
                rows.append(row)
        self.commit(rows)


class MapConfigurationForm(ObjectForm):
    def __init__(self, ctx, kind, oid, parent=None):
        super().__init__(ctx, kind, oid, parent)
        outer = QHBoxLayout(self)
        left = QWidget()
        left.setMaximumWidth(380)
        lv = QVBoxLayout(left)
        lv.addWidget(Heading(f"Map configuration {oid}"))
        box = QGroupBox("Configuration (§18.3)")
        f = QFormLayout(box)
        self.row(f, "Name", "/name", TextField())
        self.row(f, "North arrow points", "/north", EnumField(["up", "down", "left", "right"]))
        lv.addWidget(box)
        lb = QGroupBox("Maps")
        lbl = QVBoxLayout(lb)
        lbl.addWidget(self.bind("/layout", LayoutGrid(self)))
        lv.addWidget(lb)
        nb = QGroupBox("Notes")
        nf = QFormLayout(nb)
        self.row(nf, "Notes (en)", "/notes/en", LongTextField())
        self.row(nf, "Notes (fr)", "/notes/fr", LongTextField())
        lv.addWidget(nb)
        lv.addStretch(1)
        outer.addWidget(left)
        self.board = BoardWidget(ctx, configuration=oid)
        outer.addWidget(self.board, 1)
        self.refresh("")


class MapForm(ObjectForm):
    def __init__(self, ctx, kind, oid, parent=None):
        super().__init__(ctx, kind, oid, parent)
        lay = QVBoxLayout(self)
        lay.addWidget(Heading(f"Map {oid}"))
        split = QSplitter(Qt.Horizontal)
        tree = JsonTree(self, expand_depth=1)
        self.bind("", tree)
        split.addWidget(tree)
        self.board = BoardWidget(ctx, map_id=oid)
        from PySide6.QtWidgets import QTabWidget
        from ..board_mapedit import MapPainter
        from ..board_setup import LazyTab
        tabs = QTabWidget()
        tabs.addTab(self.board, "Board")
        tabs.addTab(LazyTab(lambda: MapPainter(ctx, oid)), "Paint")
        split.addWidget(tabs)
        split.setSizes([380, 800])
        lay.addWidget(split, 1)
        self.refresh("")


class SetupForm(ObjectForm):
    def __init__(self, ctx, kind, oid, parent=None):
        super().__init__(ctx, kind, oid, parent)
        lay = QVBoxLayout(self)
        st = self.value()
        lay.addWidget(Heading(f"Setup {oid} (scenario {st.get('scenario', '?')})"))
        split = QSplitter(Qt.Horizontal)
        tree = JsonTree(self, expand_depth=3, show_provenance=False)
        self.bind("", tree)
        split.addWidget(tree)
        self.board = BoardWidget(ctx, scenario=st.get("scenario"), setup=oid)
        from PySide6.QtWidgets import QTabWidget
        from ..board_setup import LazyTab, SetupWorkbench
        tabs = QTabWidget()
        tabs.addTab(self.board, "Board")
        tabs.addTab(LazyTab(lambda: SetupWorkbench(ctx, st.get("scenario"), setup_id=oid)), "Placement")
        split.addWidget(tabs)
        split.setSizes([420, 800])
        lay.addWidget(split, 1)
        self.refresh("")

