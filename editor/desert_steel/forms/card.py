"""Formation card editor: combat cards with their year variants side by side (units and
counts, experience, C3, morale, per-loss modifier), copy a variant to another year, and
the card drawn as printed; command cards with a subordinate picker and their HQ."""
from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (QComboBox, QFormLayout, QFrame, QGroupBox, QHBoxLayout, QHeaderView, QLabel,
                               QListWidget, QListWidgetItem, QMenu, QPushButton, QSpinBox, QTableWidget, QToolButton,
                               QVBoxLayout, QWidget)

from ..counter import CardPreview
from ...jsonptr import MISSING
from ...forms.fields import EnumField, Field, Heading, IntField, NumberField, ObjectForm, scrolled
from ...forms.schema_form import add_fields, index

SIDE = {"german": "axis", "italian": "axis", "british": "allied", "us": "allied"}
YEARS = ("1940", "1941", "1942", "1943")
EXPERIENCE = ["green", "seasoned", "veteran"]
C3 = list("ABCDEF")


class UnitsTable(QWidget, Field):
    """The units of one variant: unit type and count per row."""

    def __init__(self, form: "CardForm"):
        super().__init__()
        self.form = form
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        self.table = QTableWidget(0, 2)
        self.table.setHorizontalHeaderLabels(["Unit type", "Count"])
        self.table.horizontalHeader().setSectionResizeMode(0, QHeaderView.Stretch)
        self.table.horizontalHeader().setSectionResizeMode(1, QHeaderView.ResizeToContents)
        self.table.verticalHeader().setVisible(False)
        self.table.setMinimumHeight(120)
        lay.addWidget(self.table)
        row = QHBoxLayout()
        add = QPushButton("+ unit")
        add.clicked.connect(self._add)
        rem = QPushButton("− unit")
        rem.clicked.connect(self._remove)
        row.addWidget(add)
        row.addWidget(rem)
        row.addStretch(1)
        lay.addLayout(row)
        self.units: list = []

    def _types(self) -> list[tuple[str, str]]:
        nat = self.form.get("/nationality")
        types = self.form.ctx.values("unit-type")
        own = sorted((oid for oid, v in types.items() if v and v.get("nationality") == nat))
        rest = sorted(oid for oid in types if oid not in own)
        return [(oid, f"{types[oid].get('name', oid)}  ({oid})") for oid in own + rest]

    def load(self, value) -> None:
        self._loading = True
        self.units = list(value) if isinstance(value, list) else []
        types = self._types()
        self.table.setRowCount(len(self.units))
        for i, u in enumerate(self.units):
            combo = QComboBox()
            # a unit's long name must not widen the four year columns past a laptop's screen
            combo.setSizeAdjustPolicy(QComboBox.AdjustToMinimumContentsLengthWithIcon)
            combo.setMinimumContentsLength(12)
            for oid, label in types:
                combo.addItem(label, oid)
            idx = combo.findData(u.get("type"))
            if idx < 0:
                combo.addItem(f"{u.get('type')} (unknown)", u.get("type"))
                idx = combo.count() - 1
            combo.setCurrentIndex(idx)
            combo.currentIndexChanged.connect(lambda _, r=i, c=combo: self._edit(r, "type", c.currentData()))
            spin = QSpinBox()
            spin.setRange(1, 30)
            spin.setValue(int(u.get("count", 1)))
            spin.setKeyboardTracking(False)
            spin.valueChanged.connect(lambda v, r=i: self._edit(r, "count", v))
            self.table.setCellWidget(i, 0, combo)
            self.table.setCellWidget(i, 1, spin)
        self._loading = False

    def _edit(self, row: int, key: str, value) -> None:
        units = [dict(u) for u in self.units]
        units[row][key] = value
        self.commit(units)

    def _add(self) -> None:
        types = self._types()
        self.commit(list(self.units) + [{"type": types[0][0] if types else "unit", "count": 1}])

    def _remove(self) -> None:
        row = self.table.currentRow()
        if row < 0:
            row = len(self.units) - 1
        if row >= 0 and len(self.units) > 0:
            self.commit([u for i, u in enumerate(self.units) if i != row])


class SubordinatePicker(QListWidget, Field):
    """Combat cards of the same side; the checked ones are the command's subordinates."""

    def __init__(self, form: "CardForm"):
        super().__init__()
        self.form = form
        self.itemChanged.connect(self._toggled)
        self.setMinimumHeight(260)
        self.current: list = []

    def load(self, value) -> None:
        self._loading = True
        self.blockSignals(True)
        self.current = list(value) if isinstance(value, list) else []
        self.clear()
        side = SIDE.get(self.form.get("/nationality"))
        for number, card in sorted(self.form.ctx.values("formation-card").items(), key=lambda kv: int(kv[0])):
            if not card or card.get("type") != "combat" or SIDE.get(card.get("nationality")) != side:
                continue
            yrs = card.get("years", {})
            it = QListWidgetItem(f"{number}  {card.get('designation', '')} — {card.get('name', '')} "
                                 f"({card.get('nationality')}, {yrs.get('from')}–{yrs.get('to')})")
            it.setData(Qt.UserRole, int(number))
            it.setFlags(it.flags() | Qt.ItemIsUserCheckable)
            it.setCheckState(Qt.Checked if int(number) in self.current else Qt.Unchecked)
            self.addItem(it)
        self.blockSignals(False)
        self._loading = False

    def _toggled(self, item: QListWidgetItem) -> None:
        n = item.data(Qt.UserRole)
        subs = [s for s in self.current if s != n]
        if item.checkState() == Qt.Checked:
            subs.append(n)
        self.commit(subs)


class CardForm(ObjectForm):
    def __init__(self, ctx, kind, oid, parent=None):
        super().__init__(ctx, kind, oid, parent)
        self.schema, self.rel = index().object_schema(ctx.ruleset, kind)
        card = self.value()
        self.is_command = card.get("type") == "command"
        outer = QHBoxLayout(self)
        left = QWidget()
        self.lv = QVBoxLayout(left)
        self.lv.addWidget(Heading(f"{'Command' if self.is_command else 'Combat'} card {oid}"))
        head = QGroupBox("Card")
        form = QFormLayout(head)
        keys = ["designation", "name", "nationality", "years"] + (["c3"] if self.is_command else ["formation"])
        add_fields(self, form, self.schema, self.rel, "", keys)
        self.lv.addWidget(head)
        if self.is_command:
            box = QGroupBox("Subordinates (combat cards of the same side)")
            bl = QVBoxLayout(box)
            self.picker = self.bind("/subordinates", SubordinatePicker(self))
            bl.addWidget(self.picker)
            hq_row = QFormLayout()
            self.hq = EnumField([], optional=True)
            self.row(hq_row, "HQ formation", "/hq", self.hq, "The subordinate that is the command's HQ (§6.52).")
            bl.addLayout(hq_row)
            self.lv.addWidget(box)
        else:
            self.variants_box = QGroupBox("Year variants (§6.2, §18.1)")
            self.variants_layout = QHBoxLayout(self.variants_box)
            self.lv.addWidget(self.variants_box)
            self._years_shown: tuple = ()
        more = QGroupBox("Aliases and notes")
        mf = QFormLayout(more)
        add_fields(self, mf, self.schema, self.rel, "", ["aliases", "notes"])
        self.lv.addWidget(more)
        self.lv.addStretch(1)
        outer.addWidget(scrolled(left), 1)
        right_w = QWidget()
        right_w.setFixedWidth(260)
        right = QVBoxLayout(right_w)
        right.setContentsMargins(0, 0, 0, 0)
        if not self.is_command:
            yr = QHBoxLayout()
            yr.addWidget(QLabel("Preview year"))
            self.preview_year = QComboBox()
            self.preview_year.currentIndexChanged.connect(lambda _: self._preview())
            yr.addWidget(self.preview_year, 1)
            right.addLayout(yr)
        self.preview = CardPreview()
        right.addWidget(self.preview, 1)
        outer.addWidget(right_w)
        self.refresh("")

    # --- variants ---------------------------------------------------------------------

    def _years(self) -> list[str]:
        card = self.value()
        ys = set(YEARS) | set((card.get("variants") or {}).keys())
        rng = card.get("years") or {}
        if isinstance(rng.get("from"), int) and isinstance(rng.get("to"), int) and rng["to"] - rng["from"] < 10:
            ys |= {str(y) for y in range(rng["from"], rng["to"] + 1)}
        return sorted(ys)

    def _rebuild_variants(self) -> None:
        variants = self.value().get("variants") or {}
        # whether a year is inside the card's dates is part of what a column shows: a new
        # "from"/"to" relabels the "(outside dates)" columns at once
        shown = tuple((y, y in variants, self._inside(y)) for y in self._years())
        if shown == self._years_shown:
            return
        self._years_shown = shown
        self.bindings = [(p, w) for p, w in self.bindings if not p.startswith("/variants/")]
        keep = [b for b in self.badges if not b.pointer.startswith("/variants/")]
        self.badges = keep
        while self.variants_layout.count():
            item = self.variants_layout.takeAt(0)
            if item.widget():
                item.widget().deleteLater()
        for year, present, _inside in shown:
            self.variants_layout.addWidget(self._variant_column(year, present))

    def _inside(self, year: str) -> bool:
        rng = self.value().get("years") or {}
        return isinstance(rng.get("from"), int) and isinstance(rng.get("to"), int) and \
            rng["from"] <= int(year) <= rng["to"]

    def _variant_column(self, year: str, present: bool) -> QWidget:
        col = QFrame()
        col.setFrameShape(QFrame.StyledPanel)
        col.setMinimumWidth(150)  # four years and the preview side by side on a 1366 px screen
        v = QVBoxLayout(col)
        top = QHBoxLayout()
        title = QLabel(f"<b>{year}</b>")
        if not self._inside(year):
            title.setText(f"<b>{year}</b> <span style='color:#888'>(outside dates)</span>")
            title.setToolTip("This year lies outside the card's dates of use (§6.2).")
        top.addWidget(title, 1)
        menu_btn = QToolButton()
        menu_btn.setText("Copy…" if present else "Add…")
        menu_btn.setPopupMode(QToolButton.InstantPopup)
        menu = QMenu(menu_btn)
        variants = self.value().get("variants") or {}
        if present:
            for other in self._years():
                if other != year:
                    menu.addAction(f"Copy {year} to {other}", lambda o=other, y=year: self.copy_variant(y, o))
            menu.addSeparator()
            menu.addAction(f"Remove the {year} variant", lambda y=year: self.remove_variant(y))
        else:
            # a card's first variant has nothing to copy from: it starts from one unit of its nation
            menu.addAction(f"New {year} variant", lambda y=year: self.new_variant(y))
            if variants:
                menu.addSeparator()
            for other in sorted(variants):
                menu.addAction(f"Copy from {other}", lambda o=other, y=year: self.copy_variant(o, y))
        menu_btn.setMenu(menu)
        top.addWidget(menu_btn)
        v.addLayout(top)
        if not present:
            v.addWidget(QLabel("No variant for this year."))
            v.addStretch(1)
            return col
        base = f"/variants/{year}"
        v.addWidget(self.bind(f"{base}/units", UnitsTable(self)))
        f = QFormLayout()
        f.setFieldGrowthPolicy(QFormLayout.AllNonFixedFieldsGrow)
        self.row(f, "Exp.", f"{base}/experience", EnumField(EXPERIENCE), "Experience: green, seasoned or veteran.")
        self.row(f, "C3", f"{base}/c3", EnumField(C3), "Command, control and communications, A best (§6.2).")
        self.row(f, "Morale", f"{base}/morale", IntField(2, 12))
        self.row(f, "Per loss", f"{base}/loss_modifier", NumberField(0, 6, 0.5),
                 "Per-loss morale modifier: added to morale rolls per eliminated unit; 0.5 is the printed +½.")
        v.addLayout(f)
        return col

    def copy_variant(self, source: str, target: str) -> None:
        variant = (self.value().get("variants") or {}).get(source)
        if variant is not None:
            self.set(f"/variants/{target}", variant, text=f"Copy card {self.oid} variant {source} to {target}")

    def new_variant(self, year: str) -> None:
        """A variant the schema accepts, to edit from: one counter of the card's nationality (the
        first of its unit types, else any), middling experience, C3, morale and loss modifier."""
        nat = self.get("/nationality")
        types = self.ctx.values("unit-type")
        own = sorted(oid for oid, v in types.items() if v and v.get("nationality") == nat)
        first = (own or sorted(types) or ["unit"])[0]
        variant = {"units": [{"type": first, "count": 1}], "experience": "seasoned", "c3": "C", "morale": 8,
                   "loss_modifier": 1}
        self.set(f"/variants/{year}", variant, text=f"New card {self.oid} variant {year}")

    def remove_variant(self, year: str) -> None:
        self.set(f"/variants/{year}", MISSING, text=f"Remove card {self.oid} variant {year}")

    # --- refresh ----------------------------------------------------------------------

    def refresh_extra(self, pointer: str) -> None:
        if self.is_command:
            subs = self.get("/subordinates") or []
            cards = self.ctx.values("formation-card")
            self.hq.set_values(subs, {n: f"{n} {cards.get(str(n), {}).get('designation', '?')}" for n in subs})
        else:
            self._rebuild_variants()
            years = sorted((self.value().get("variants") or {}).keys())
            current = self.preview_year.currentText()
            self.preview_year.blockSignals(True)
            self.preview_year.clear()
            self.preview_year.addItems(years)
            if current in years:
                self.preview_year.setCurrentText(current)
            self.preview_year.blockSignals(False)
        self._preview()

    def _preview(self) -> None:
        year = None if self.is_command else (self.preview_year.currentText() or None)
        self.preview.show_card(self.value(), year, self.ctx.values("unit-type"), self.ctx.values("formation-card"))

    def other_changed(self, kind, oid) -> None:
        if kind in ("unit-type", "formation-card"):
            self._preview()
            # the lists that name other objects follow them (a unit type renamed, a card added)
            for ptr, w in self.bindings:
                if isinstance(w, UnitsTable) and kind == "unit-type" or \
                        isinstance(w, SubordinatePicker) and kind == "formation-card":
                    w.load(self.get(ptr, MISSING))

    def focus_extra(self, pointer: str) -> bool:
        return False
