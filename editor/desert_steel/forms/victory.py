"""Victory conditions as a form: one row per condition of a common kind, previewed as the
sentences a scenario sheet prints, templates from the pack's scenarios; the JSON tree below
stays for what the rows cannot say (rows of that kind are shown by their sentence).

The rows are ``rules.desert_steel.victory_rows``: every change writes the whole expression back
as one undoable edit, so the JSON tree, the findings and the quick game see it at once.
"""
from __future__ import annotations

import copy

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (QComboBox, QDoubleSpinBox, QFrame, QHBoxLayout, QLabel, QLineEdit, QPushButton,
                               QSpinBox, QVBoxLayout, QWidget)

from sandtable.rules.desert_steel import victory_rows as vr

from ...forms.fields import Field

KIND_TITLES = (("points", "+ points per unit"), ("win-count", "+ wins on a count"),
               ("win-points", "+ wins on points"))
EVENT_WORDS = {"destroyed": "destroyed", "eliminated": "eliminated (exits as losses)", "exited": "exited",
               "on-map": "on the map at the end", "in-zone": "in a zone at the end"}
OP_WORDS = {">=": "≥", ">": ">", "<=": "≤", "<": "<", "==": "=", "!=": "≠"}


def _combo(items, current, width: int | None = None) -> QComboBox:
    box = QComboBox()
    for value, text in items:
        box.addItem(text, value)
    i = box.findData(current)
    box.setCurrentIndex(i if i >= 0 else 0)
    if width:
        box.setMaximumWidth(width)
    return box


SIDE_ITEMS = [("allied", "Allied"), ("axis", "Axis")]
WINNER_ITEMS = SIDE_ITEMS + [("draw", "draw")]
LEVEL_ITEMS = [("", "—"), ("decisive", "decisive"), ("marginal", "marginal")]


class VictoryRows(QWidget, Field):
    """Bound to ``/victory/expression``: rows, "+" buttons, templates and the sentence preview."""

    def __init__(self, form):
        super().__init__()
        self.form = form
        self.rows: list[vr.Row] = []
        self.loaded = None
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        top = QHBoxLayout()
        top.addWidget(QLabel("Start from the conditions of"))
        self.template = QComboBox()
        self.template.setMinimumContentsLength(18)
        self.template.setSizeAdjustPolicy(QComboBox.AdjustToMinimumContentsLengthWithIcon)
        top.addWidget(self.template, 1)
        use = QPushButton("Use")
        use.setToolTip("Replace these conditions by a copy of that scenario's (one undoable edit)")
        use.clicked.connect(self.use_template)
        top.addWidget(use)
        lay.addLayout(top)
        self.list = QVBoxLayout()
        self.list.setSpacing(2)
        lay.addLayout(self.list)
        adds = QHBoxLayout()
        for kind, text in KIND_TITLES:
            b = QPushButton(text)
            b.clicked.connect(lambda _=False, k=kind: self.add(k))
            adds.addWidget(b)
        adds.addStretch(1)
        lay.addLayout(adds)
        self.preview = QLabel("")
        self.preview.setWordWrap(True)
        self.preview.setTextInteractionFlags(Qt.TextSelectableByMouse)
        self.preview.setFrameShape(QFrame.StyledPanel)
        self.preview.setStyleSheet("padding: 6px; background: #fbf8ef")
        lay.addWidget(QLabel("As the scenario sheet says it:"))
        lay.addWidget(self.preview)
        copy_row = QHBoxLayout()
        to_text = QPushButton("Use as the printed text (en)")
        to_text.clicked.connect(self.to_text)
        copy_row.addWidget(to_text)
        copy_row.addStretch(1)
        lay.addLayout(copy_row)

    # --- Field ---------------------------------------------------------------------------

    def load(self, value) -> None:
        self._loading = True
        self.loaded = value if isinstance(value, dict) else None
        self.rows = vr.rows(self.loaded or {})
        self._fill_templates()
        self._build()
        self._loading = False

    def _fill_templates(self) -> None:
        current = self.template.currentData()
        self.template.clear()
        scenarios = self.form.ctx.values("scenario")
        for sid, s in scenarios.items():
            if sid != self.form.oid and isinstance((s or {}).get("victory", {}).get("expression"), dict):
                self.template.addItem(f"{s.get('number', '')} {(s.get('name') or {}).get('en', sid)}", sid)
        i = self.template.findData(current)
        self.template.setCurrentIndex(max(0, i))

    def _write(self, text: str) -> None:
        if self._loading:
            return
        self.form.set(self.pointer, vr.expression(self.rows, self.loaded), text=text)

    def use_template(self) -> None:
        sid = self.template.currentData()
        expr = (self.form.ctx.values("scenario").get(sid) or {}).get("victory", {}).get("expression")
        if isinstance(expr, dict):
            self.form.set(self.pointer, copy.deepcopy(expr),
                          text=f"Victory conditions of {self.template.currentText().strip()}")

    def to_text(self) -> None:
        self.form.set("/victory/text/en", vr.sentences(vr.expression(self.rows, self.loaded)),
                      text="Victory text from the conditions")

    def add(self, kind: str) -> None:
        row = vr.Row(kind)
        if kind == "win-count":
            row.count = vr.Count("eliminated", "allied")
            row.value = 10
        elif kind == "win-points":
            row.value = 10
        self.rows.insert(len(self.rows) - 1, row)  # before "otherwise"
        self._write(f"Add a victory condition ({kind})")

    def remove(self, row: vr.Row) -> None:
        self.rows.remove(row)
        self._write("Remove a victory condition")

    # --- rows ------------------------------------------------------------------------------

    def _build(self) -> None:
        while self.list.count():
            item = self.list.takeAt(0)
            if item.widget():
                item.widget().deleteLater()
        for row in self.rows:
            self.list.addWidget(self._row_widget(row))
        self.preview.setText(" ".join(vr.sentence(r) for r in self.rows))

    def _row_widget(self, row: vr.Row) -> QWidget:
        w = QFrame()
        w.setFrameShape(QFrame.StyledPanel)
        v = QVBoxLayout(w)
        v.setContentsMargins(4, 2, 4, 2)
        line = QHBoxLayout()
        v.addLayout(line)

        def changed(what: str):
            return lambda *_: self._write(f"Edit victory condition: {what}")

        def winner_level():
            win = _combo(WINNER_ITEMS, row.winner, 90)
            win.currentIndexChanged.connect(lambda _: (setattr(row, "winner", win.currentData()), changed("winner")()))
            line.addWidget(win)
            line.addWidget(QLabel("wins" if row.kind != "otherwise" else "wins / result"))
            lev = _combo(LEVEL_ITEMS, row.level, 90)
            lev.currentIndexChanged.connect(lambda _: (setattr(row, "level", lev.currentData()), changed("level")()))
            line.addWidget(lev)

        if row.kind == "points":
            side = _combo(SIDE_ITEMS, row.side, 80)
            side.currentIndexChanged.connect(lambda _: (setattr(row, "side", side.currentData()), changed("side")()))
            line.addWidget(side)
            line.addWidget(QLabel("scores"))
            line.addWidget(self._number(row, "points"))
            line.addWidget(QLabel("per unit:"))
            v.addLayout(self._count(row.count, changed))
        elif row.kind == "win-count":
            winner_level()
            line.addWidget(QLabel("if"))
            v.addLayout(self._count(row.count, changed, row))
        elif row.kind == "win-points":
            winner_level()
            line.addWidget(QLabel("if"))
            side = _combo(SIDE_ITEMS, row.side, 80)
            side.currentIndexChanged.connect(lambda _: (setattr(row, "side", side.currentData()), changed("side")()))
            line.addWidget(side)
            line.addWidget(QLabel("points"))
            line.addWidget(self._op(row, changed))
            versus = _combo([(False, "the number"), (True, "the other side's points")], row.versus, 150)
            versus.currentIndexChanged.connect(
                lambda _: (setattr(row, "versus", versus.currentData()), changed("compared with")()))
            line.addWidget(versus)
            if not row.versus:
                line.addWidget(self._number(row, "value"))
        elif row.kind == "otherwise":
            line.addWidget(QLabel("Otherwise:"))
            winner_level()
        else:
            text = QLabel(vr.sentence(row) + "  (edit it in the JSON below)")
            text.setWordWrap(True)
            text.setStyleSheet("color: #555")
            line.addWidget(text, 1)
        line.addStretch(1)
        if row.kind != "otherwise":
            rm = QPushButton("−")
            rm.setToolTip("Remove this condition")
            rm.setMaximumWidth(28)
            rm.clicked.connect(lambda _=False: self.remove(row))
            line.addWidget(rm)
        return w

    def _number(self, row: vr.Row, what: str) -> QDoubleSpinBox:
        spin = QDoubleSpinBox()
        spin.setDecimals(1 if not float(row.value).is_integer() else 0)
        spin.setRange(-99, 999)
        spin.setValue(row.value)
        spin.setKeyboardTracking(False)
        spin.setMaximumWidth(70)
        spin.valueChanged.connect(lambda v: (setattr(row, "value", v), self._write(f"Edit victory condition: {what}")))
        return spin

    def _op(self, row: vr.Row, changed) -> QComboBox:
        op = _combo([(o, OP_WORDS[o]) for o in vr.OPS], row.op, 50)
        op.currentIndexChanged.connect(lambda _: (setattr(row, "op", op.currentData()), changed("comparison")()))
        return op

    def _count(self, c: vr.Count, changed, row: vr.Row | None = None) -> QHBoxLayout:
        """Whose units, which (nationality, unit types), what happened, where; with a comparison."""
        line = QHBoxLayout()
        line.setContentsMargins(16, 0, 0, 0)
        if row is not None:
            line.addWidget(self._op(row, changed))
            line.addWidget(self._number(row, "number"))
        side = _combo(SIDE_ITEMS, c.side, 80)
        side.currentIndexChanged.connect(lambda _: (setattr(c, "side", side.currentData()), changed("units")()))
        line.addWidget(side)
        nation = _combo([("", "any nation")] + [(n, vr.NATION_NAME[n]) for n in vr.NATIONS],
                        c.nationality[0] if len(c.nationality) == 1 else "", 100)
        nation.currentIndexChanged.connect(
            lambda _: (setattr(c, "nationality", [nation.currentData()] if nation.currentData() else []),
                       changed("nationality")()))
        line.addWidget(nation)
        types = QLineEdit(", ".join(c.types))
        types.setPlaceholderText("any type (or ids, comma-separated)")
        types.setMinimumWidth(120)
        types.editingFinished.connect(
            lambda: (setattr(c, "types", [t.strip() for t in types.text().split(",") if t.strip()]),
                     changed("unit types")()) if [t.strip() for t in types.text().split(",") if t.strip()] != c.types
            else None)
        line.addWidget(types, 1)
        event = _combo([(e, EVENT_WORDS[e]) for e in vr.EVENTS], c.event, 150)
        event.currentIndexChanged.connect(lambda _: (setattr(c, "event", event.currentData()), changed("event")()))
        line.addWidget(event)
        if c.event == "exited":
            edge = _combo([("", "any edge")] + [(e, f"{e} edge") for e in vr.EDGES], c.edge, 100)
            edge.currentIndexChanged.connect(lambda _: (setattr(c, "edge", edge.currentData()), changed("edge")()))
            line.addWidget(edge)
        if c.event == "in-zone":  # holding hexes: the zone as a list of hexes (other zones: in the JSON)
            if c.zone is None or (isinstance(c.zone, dict) and set(c.zone) == {"hexes"}):
                hexes = QLineEdit(", ".join((c.zone or {}).get("hexes", [])))
                hexes.setPlaceholderText("hexes held, e.g. B2620, B3018")
                hexes.setMinimumWidth(120)

                def set_hexes():
                    ids = [h.strip() for h in hexes.text().replace(";", ",").split(",") if h.strip()]
                    if ids != (c.zone or {}).get("hexes", []):
                        c.zone = {"hexes": ids} if ids else None
                        changed("hexes held")()
                hexes.editingFinished.connect(set_hexes)
                line.addWidget(hexes, 1)
            else:
                line.addWidget(QLabel(vr.zone_text(c.zone)))
        if c.event in ("exited", "on-map"):
            maps = sorted(self.form.ctx.values("map"))
            where = _combo([("", "any map")] + [(m, f"map {m}") for m in maps], c.map, 90)
            where.currentIndexChanged.connect(lambda _: (setattr(c, "map", where.currentData()), changed("map")()))
            line.addWidget(where)
        turn = QSpinBox()
        turn.setRange(0, 40)
        turn.setSpecialValueText("by game end")
        turn.setPrefix("by turn ")
        turn.setValue(c.by_turn)
        turn.setKeyboardTracking(False)
        turn.setMaximumWidth(110)
        turn.valueChanged.connect(lambda v: (setattr(c, "by_turn", v), changed("turn")()))
        line.addWidget(turn)
        return line

