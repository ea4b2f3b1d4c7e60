"""Scenario editor: general data and battle conditions; per side the formations (a card
picker showing each card's units in the scenario year), setup and entry zones,
reinforcements, undermanned units, smoke, raids, motorization, fortifications and hidden
observers; special rules; victory conditions (structured expression plus text); and the
board with any zone as an overlay."""
from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor
from PySide6.QtWidgets import (QButtonGroup, QFormLayout, QGroupBox, QHBoxLayout, QHeaderView, QLabel, QListWidget,
                               QListWidgetItem, QPushButton, QRadioButton, QScrollArea, QSplitter, QTableWidget,
                               QTableWidgetItem, QTabWidget, QVBoxLayout, QWidget)

from ... import jsonptr
from ..boardview import BoardWidget
from ...jsonptr import MISSING
from ...lazytab import LazyTab
from ...forms.fields import BoolField, EnumField, Field, Heading, IntField, LongTextField, ObjectForm, TextField, scrolled
from ...forms.grid import Col, JsonGrid
from ...forms.jsontree import JsonTree
from ...forms.schema_form import add_fields, index

SIDES = {"allied": ("british", "us"), "axis": ("german", "italian")}
NATIONALITIES = ["german", "italian", "british", "us"]


def units_text(card: dict, year: int, units: dict) -> str:
    if card.get("type") == "command":
        return f"command card, C3 {card.get('c3', '?')}, subordinates {', '.join(map(str, card.get('subordinates', [])))}"
    variant = (card.get("variants") or {}).get(str(year))
    if variant is None:
        return f"no {year} variant"
    return ", ".join(f"{u.get('count')} {(units.get(u.get('type')) or {}).get('name', u.get('type'))}"
                     for u in variant.get("units", [])) + \
        f" · {variant.get('experience', '')}, C3 {variant.get('c3', '')}, morale {variant.get('morale', '')}"


def filled_scroll(fill) -> QScrollArea:
    """A scroll area around a page laid out by ``fill(page)``. The page goes in while still
    empty: QScrollArea.setWidget sizes what it is given, and a full page's size would be
    worked out twice (there and when shown; 5 ms for the General page)."""
    page = QWidget()
    area = scrolled(page)
    fill(page)
    return area


class CardPicker(QListWidget, Field):
    """The side's formation cards; checked ones are in the group. Each shows its units in
    the scenario year (red when the card has no variant for that year)."""

    def __init__(self, form: "ScenarioForm", side: str):
        super().__init__()
        self.form, self.side = form, side
        self.current: list = []
        self.itemChanged.connect(self._toggled)
        self.setMinimumHeight(180)

    def load(self, value) -> None:
        self._loading = True
        self.blockSignals(True)
        self.current = list(value) if isinstance(value, list) else []
        self.clear()
        year = self.form.side_year(self.side)
        units = self.form.ctx.values("unit-type")
        cards = self.form.ctx.values("formation-card")
        ordered = sorted(cards.items(), key=lambda kv: (int(kv[0]) not in self.current, int(kv[0])))
        for number, card in ordered:
            if not card or card.get("nationality") not in SIDES[self.side]:
                continue
            text = units_text(card, year, units)
            it = QListWidgetItem(f"{number} {card.get('designation', '')} — {text}")
            it.setData(Qt.UserRole, int(number))
            it.setFlags(it.flags() | Qt.ItemIsUserCheckable)
            it.setCheckState(Qt.Checked if int(number) in self.current else Qt.Unchecked)
            if text.startswith("no "):
                it.setForeground(QColor("#c62828"))
            self.addItem(it)
        self.blockSignals(False)
        self._loading = False

    def _toggled(self, item) -> None:
        n = item.data(Qt.UserRole)
        cards = [c for c in self.current if c != n]
        if item.checkState() == Qt.Checked:
            cards.append(n)
        if cards:
            self.commit(cards)
        else:
            self.load(self.current)
            self.form.ctx.status("a group needs at least one card (remove the group instead)")


class FormationsEditor(QWidget):
    """The side's formation groups: a list, and the selected group's details."""

    def __init__(self, form: "ScenarioForm", side: str):
        super().__init__()
        self.form, self.side = form, side
        self.base = f"/sides/{side}/formations"
        lay = QHBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        left = QVBoxLayout()
        self.table = QTableWidget(0, 3)
        self.table.setHorizontalHeaderLabels(["Cards", "Placement", "Order"])
        self.table.horizontalHeader().setSectionResizeMode(0, QHeaderView.Stretch)
        self.table.horizontalHeader().setSectionResizeMode(1, QHeaderView.Stretch)
        self.table.setSelectionBehavior(QTableWidget.SelectRows)
        self.table.setSelectionMode(QTableWidget.SingleSelection)
        self.table.setEditTriggers(QTableWidget.NoEditTriggers)
        self.table.verticalHeader().setVisible(False)
        self.table.currentCellChanged.connect(lambda r, *_: self.select(r))
        left.addWidget(self.table)
        row = QHBoxLayout()
        add = QPushButton("+ group")
        add.clicked.connect(self._add)
        rem = QPushButton("− group")
        rem.clicked.connect(self._remove)
        row.addWidget(add)
        row.addWidget(rem)
        row.addStretch(1)
        left.addLayout(row)
        lw = QWidget()
        lw.setLayout(left)
        lw.setMinimumWidth(300)
        self.detail = QWidget()
        self.detail_layout = QVBoxLayout(self.detail)
        split = QSplitter(Qt.Horizontal)
        split.addWidget(lw)
        split.addWidget(scrolled(self.detail))
        split.setSizes([360, 640])
        lay.addWidget(split)
        self.selected = -1
        self._shape = None

    def groups(self) -> list:
        return self.form.get(self.base) or []

    def refresh(self) -> None:
        groups = self.groups()
        cards = self.form.ctx.values("formation-card")
        self.table.blockSignals(True)
        self.table.setRowCount(len(groups))
        for i, g in enumerate(groups):
            names = ", ".join(f"{n} {(cards.get(str(n)) or {}).get('designation', '?')}" for n in g.get("cards", []))
            if "setup" in g:
                how = "set up in zone"
            elif "enter" in g:
                how = f"enters turn {g['enter'].get('turn')}"
            else:
                how = "hand only (no counters)"
            self.table.setItem(i, 0, QTableWidgetItem(names))
            self.table.setItem(i, 1, QTableWidgetItem(how))
            self.table.setItem(i, 2, QTableWidgetItem(str(g.get("order", ""))))
        self.table.blockSignals(False)
        sel = self.selected if 0 <= self.selected < len(groups) else (0 if groups else -1)
        shape = (sel, tuple(sorted(k for k in (groups[sel] if sel >= 0 else {}))) if groups else None, len(groups))
        if shape != self._shape:
            self._shape = shape
            self.select(sel, force=True)
        if sel >= 0:
            self.table.blockSignals(True)
            self.table.selectRow(sel)
            self.table.blockSignals(False)

    def select(self, row: int, force: bool = False) -> None:
        if row == self.selected and not force:
            return
        self.selected = row
        f = self.form
        f.unbind_prefix(self.base + "/")
        while self.detail_layout.count():
            it = self.detail_layout.takeAt(0)
            if it.widget():
                it.widget().deleteLater()
        groups = self.groups()
        if not 0 <= row < len(groups):
            self.detail_layout.addWidget(QLabel("No group selected."))
            return
        g = groups[row]
        p = f"{self.base}/{row}"
        self._shape = (row, tuple(sorted(g)), len(groups))
        year = f.side_year(self.side)
        box = QGroupBox(f"Cards of this group (units shown for {year})")
        bl = QVBoxLayout(box)
        bl.addWidget(f.bind(f"{p}/cards", CardPicker(f, self.side)))
        self.detail_layout.addWidget(box)
        how = QGroupBox("Placement")
        hl = QVBoxLayout(how)
        radios = QHBoxLayout()
        group = QButtonGroup(how)
        kinds = [("setup", "Set up"), ("enter", "Enter on a turn"), ("hand_only", "Hand only")]
        current = next((k for k, _ in kinds if k in g), "setup")
        for k, label in kinds:
            rb = QRadioButton(label)
            rb.setChecked(k == current)
            rb.toggled.connect(lambda on, k=k: on and self._placement(row, k))
            group.addButton(rb)
            radios.addWidget(rb)
        hl.addLayout(radios)
        form = QFormLayout()
        if current == "enter":
            f.row(form, "Turn", f"{p}/enter/turn", IntField(1, 99))
            zone_ptr = f"{p}/enter/zone"
        elif current == "setup":
            zone_ptr = f"{p}/setup"
        else:
            zone_ptr = None
        f.row(form, "Setup order", f"{p}/order", IntField(1, 9, optional=True), "1 sets up first.")
        hl.addLayout(form)
        if zone_ptr:
            hl.addWidget(QLabel("Zone expression (near_edge, away_from_edges, beyond_line, hexes, map, all/any/not…)"))
            tree = JsonTree(f, expand_depth=4, show_provenance=False)
            tree.setMinimumHeight(160)
            hl.addWidget(f.bind(zone_ptr, tree))
            show = QPushButton("Show this zone on the board")
            show.clicked.connect(lambda: f.show_zone(f.get(zone_ptr)))
            hl.addWidget(show)
        self.detail_layout.addWidget(how)
        tb = QGroupBox("Instruction as printed")
        tf = QFormLayout(tb)
        f.row(tf, "Text (en)", f"{p}/text/en", LongTextField(False))
        f.row(tf, "Text (fr)", f"{p}/text/fr", LongTextField())
        self.detail_layout.addWidget(tb)
        self.detail_layout.addStretch(1)

    def _placement(self, row: int, kind: str) -> None:
        g = dict(self.groups()[row])
        for k in ("setup", "enter", "hand_only"):
            g.pop(k, None)
        if kind == "setup":
            g["setup"] = {"everywhere": True}
        elif kind == "enter":
            g["enter"] = {"turn": 1, "zone": {"near_edge": {"edge": "south", "within": 1}}}
        else:
            g["hand_only"] = True
        self.form.set(f"{self.base}/{row}", g, text=f"Placement of group {row + 1}")

    def _add(self) -> None:
        groups = list(self.groups())
        cards = self.form.ctx.values("formation-card")
        first = next((int(n) for n, c in sorted(cards.items(), key=lambda kv: int(kv[0]))
                      if c and c.get("nationality") in SIDES[self.side] and c.get("type") == "combat"), None)
        if first is None:
            return
        groups.append({"cards": [first], "setup": {"everywhere": True}})
        self.selected = len(groups) - 1
        self.form.set(self.base, groups, text="Add a formation group")

    def _remove(self) -> None:
        groups = list(self.groups())
        if 0 <= self.selected < len(groups):
            del groups[self.selected]
            self.selected = min(self.selected, len(groups) - 1)
            self.form.set(self.base, groups, text="Remove a formation group")


class ScenarioForm(ObjectForm):
    def __init__(self, ctx, kind, oid, parent=None):
        super().__init__(ctx, kind, oid, parent)
        self.schema, self.rel = index().object_schema(ctx.ruleset, kind)
        s = self.value()
        lay = QVBoxLayout(self)
        lay.addWidget(Heading(f"Scenario {s.get('number', '')} — {(s.get('name') or {}).get('en', oid)}"))
        self.tabs = QTabWidget()
        lay.addWidget(self.tabs, 1)
        self.tabs.addTab(filled_scroll(self._general), "General")
        self.formations: dict[str, FormationsEditor] = {}
        # Only the General tab is made now: the sides, special rules and victory (two thirds of
        # the form's widgets, ~0.1 s for Gazala) are made when first shown, or when a field in
        # them is asked for (``field``, ``focus_pointer``): see ``ensure_built``.
        self._lazy: list[tuple[tuple[str, ...], LazyTab]] = []
        for side in ("allied", "axis"):
            self._add_lazy(self.tabs, side.capitalize(), (f"/sides/{side}",), lambda side=side: self._side(side))
        self._add_lazy(self.tabs, "Special rules", ("/special_rules",), self._special_rules)
        self._add_lazy(self.tabs, "Victory", ("/victory", "/exits"), lambda: filled_scroll(self._victory))
        self.board = BoardWidget(ctx, scenario=oid)
        self.tabs.addTab(self.board, "Board")

        def workbench():
            from ..board_setup import SetupWorkbench  # the board modules load when the tab is first shown
            return SetupWorkbench(ctx, oid)
        self.tabs.addTab(LazyTab(workbench), "Setup placement")
        self.refresh("")

    # The main tabs whose titles count the findings about their fields: (title, the pointers
    # its fields are under; None: the general data, whatever no other tab holds).
    COUNTED = (("General", None), ("Allied", ("/sides/allied",)), ("Axis", ("/sides/axis",)),
               ("Special rules", ("/special_rules",)), ("Victory", ("/victory", "/exits")))

    def show_findings(self, rows) -> None:
        """Titles such as "Axis (2)": the findings about a tab's fields, whether the tab is made
        yet or not (the findings list jumps to them, making the tab first)."""
        ptrs = [r.pointer or "" for r in rows if r.kind == self.kind and str(r.id) == self.oid]
        held = [p for _, prefixes in self.COUNTED if prefixes for p in prefixes]
        for i, (title, prefixes) in enumerate(self.COUNTED):
            if prefixes is None:
                n = sum(1 for ptr in ptrs if ptr and not jsonptr.is_prefix("/provenance", ptr)
                        and not any(jsonptr.is_prefix(p, ptr) for p in held))
            else:
                n = sum(1 for ptr in ptrs if any(jsonptr.is_prefix(p, ptr) for p in prefixes))
            self.tabs.setTabText(i, f"{title} ({n})" if n else title)

    def _add_lazy(self, tabs: QTabWidget, title: str, prefixes: tuple[str, ...], build) -> None:
        """A tab of ``tabs`` made when first shown; ``prefixes``: the pointers its fields are under."""
        tab = LazyTab(build, on_built=self._built)
        self._lazy.append((prefixes, tab))
        tabs.addTab(tab, title)

    def _built(self, tab: LazyTab) -> None:
        # what __init__'s refresh did for the tabs made with the form: groups listed and the
        # first selected, reconstructed values tinted (fields and badges load themselves on bind)
        for fe in self.formations.values():
            if tab.isAncestorOf(fe):
                fe.refresh()
        self.mark_reconstructed()

    def ensure_built(self, pointer: str, under: bool = True) -> None:
        """Make the tabs not yet shown that hold ``pointer``, and with ``under`` those with
        fields under it (every tab for ""), so its fields are bound and can be read
        (``field``), changed or focused."""
        i = 0
        while i < len(self._lazy):  # a side's tab, once made, adds its own lazy tabs to the list
            prefixes, tab = self._lazy[i]
            if tab.content is None and any(jsonptr.is_prefix(p, pointer) or (under and jsonptr.is_prefix(pointer, p))
                                           for p in prefixes):
                tab.build()
            i += 1

    def side_year(self, side: str) -> int:
        return self.get(f"/year_override/{side}") or self.get("/year") or 0

    def unbind_prefix(self, prefix: str) -> None:
        self.bindings = [(p, w) for p, w in self.bindings if not p.startswith(prefix)]
        self.badges = [b for b in self.badges if not b.pointer.startswith(prefix)]

    def show_zone(self, expr) -> None:
        if expr:
            self.tabs.setCurrentWidget(self.board)
            self.board.select_zone(expr)

    # --- tabs -------------------------------------------------------------------------

    def _general(self, w: QWidget) -> None:
        v = QVBoxLayout(w)
        box = QGroupBox("Scenario")
        f = QFormLayout(box)
        add_fields(self, f, self.schema, self.rel, "", ["number", "name", "rules", "date", "year", "year_override",
                                                        "year_note"])
        confs = self.ctx.values("map-configuration")  # shown by name ("A left of B, north to the right")
        self.row(f, "Map configuration", "/map_configuration",
                 EnumField(list(confs), labels={c: f"{(v or {}).get('name') or c}  ({c})" for c, v in confs.items()}))
        v.addWidget(box)
        cb = QGroupBox("Battle conditions (§3)")
        cf = QFormLayout(cb)
        self.row(cf, "Turns", "/conditions/turns", IntField(1, 99))
        self.row(cf, "Visibility", "/conditions/visibility", IntField(1, 99))
        effects = self._effects()
        for cond in ("relief", "zone", "urbanization", "road_network"):
            values = list(((effects.get(cond) or {}).get("values") or {}).keys())
            label = cond.replace("_", " ").capitalize()
            self.row(cf, label, f"/conditions/{cond}/value", EnumField(values))
            self.row(cf, f"{label}: printed word", f"/conditions/{cond}/printed", TextField())
            self.row(cf, f"{label}: variable (*)", f"/conditions/{cond}/variable", BoolField())
        vc = JsonGrid(self, [Col("From turn", "/turn", "int"), Col("Visibility", "/visibility", "int")],
                      new_row=lambda: {"turn": 2, "visibility": 6})
        vc.setMinimumHeight(110)
        cf.addRow("Visibility changes", self.bind("/conditions/visibility_changes", vc))
        v.addWidget(cb)
        tb = QGroupBox("Background and notes")
        tf = QFormLayout(tb)
        add_fields(self, tf, self.schema, self.rel, "", ["background", "designer_notes"])
        v.addWidget(tb)
        v.addStretch(1)

    def _effects(self) -> dict:
        ids = self.ctx.ws.keys("terrain-effects")
        return self.ctx.ws.value("terrain-effects", ids[0]) if ids else {}

    def _side(self, side: str) -> QWidget:
        """A side's tabs, each made when first shown (the formations first)."""
        base = f"/sides/{side}"
        tabs = QTabWidget()
        self._add_lazy(tabs, "Formations", (f"{base}/formations",), lambda: self._formations(side))
        self._add_lazy(tabs, "Reinforcements", (f"{base}/reinforcements",), lambda: self._reinforcements(base))
        self._add_lazy(tabs, "Undermanned", (f"{base}/undermanned",), lambda: self._undermanned(base))
        self._add_lazy(tabs, "Smoke, raids, motorization",
                       tuple(f"{base}/{k}" for k in ("smoke", "raids", "transports", "hidden_observers")),
                       lambda: filled_scroll(lambda page: self._support(page, base)))
        self._add_lazy(tabs, "Fortifications", (f"{base}/fortifications",),
                       lambda: filled_scroll(lambda page: self._forts(page, base)))
        return tabs

    def _formations(self, side: str) -> QWidget:
        fe = FormationsEditor(self, side)
        self.formations[side] = fe
        return fe

    def _reinforcements(self, base: str) -> QWidget:
        re = JsonGrid(self, [Col("Turn", "/turn", "int"), Col("Cards", "/cards", "json"),
                             Col("Entry zone", "/zone", "json"), Col("Hand only", "/hand_only", "bool"),
                             Col("Text (en)", "/text/en", "text")],
                      new_row=lambda: {"turn": 2, "cards": [], "zone": {"near_edge": {"edge": "south", "within": 1}}})
        return self._with_note(self.bind(f"{base}/reinforcements", re),
                               "Formations that arrive later (§5): turn, cards and the zone they enter through.")

    def _undermanned(self, base: str) -> QWidget:
        um = JsonGrid(self, [Col("Card", "/card", "int"), Col("Units removed", "/remove", "json"),
                             Col("Counts for morale", "/affects_morale", "bool")],
                      new_row=lambda: {"card": 0, "remove": [{"type": "", "count": 1}], "affects_morale": False})
        return self._with_note(self.bind(f"{base}/undermanned", um),
                               "Units a card lacks in this scenario (§18.5); 'counts for morale': the removed "
                               "units count as destroyed for morale.")

    def _support(self, support: QWidget, base: str) -> None:
        sf = QFormLayout(support)
        self.row(sf, "Smoke points (§17)", f"{base}/smoke", IntField(0, 99, optional=True))
        self.row(sf, "Preplanned bombardments", f"{base}/raids/preplanned_bombardments", IntField(0, 99, optional=True))
        self.row(sf, "On-call bombardments", f"{base}/raids/on_call_bombardments", IntField(0, 99, optional=True))
        air = JsonGrid(self, [Col("Count", "/count", "int"), Col("Nationality", "/nationality", "str",
                                                                 tuple(NATIONALITIES))],
                       new_row=lambda: {"count": 1})
        air.setMinimumHeight(110)
        sf.addRow("Air strikes (§16)", self.bind(f"{base}/raids/air_strikes", air))
        tr = JsonGrid(self, [Col("Type", "/type", "str", ("truck", "motorcycle", "halftrack")),
                             Col("Counter", "/unit_type", "str"), Col("Count", "/count", "int"),
                             Col("Arrives turn", "/turn", "int"),
                             Col("Nationality", "/nationality", "str", tuple(NATIONALITIES))],
                      new_row=lambda: {"type": "truck", "count": 1})
        tr.setMinimumHeight(140)
        sf.addRow("Motorization (§13.3)", self.bind(f"{base}/transports", tr))
        self.row(sf, "Hidden observers allowed", f"{base}/hidden_observers/allowed", BoolField())

    def _forts(self, forts: QWidget, base: str) -> None:
        fv = QVBoxLayout(forts)
        for kind in ("wire", "entrenchments", "bunkers", "minefields"):
            box = QGroupBox(kind.capitalize())
            bf = QFormLayout(box)
            self.row(bf, "Allowance", f"{base}/fortifications/{kind}/count", IntField(0, 99, optional=True))
            zt = JsonTree(self, expand_depth=3, show_provenance=False)
            zt.setMinimumHeight(90)
            bf.addRow("Zone", self.bind(f"{base}/fortifications/{kind}/zone", zt))
            fv.addWidget(box)
        fv.addStretch(1)

    @staticmethod
    def _with_note(widget: QWidget, note: str) -> QWidget:
        w = QWidget()
        v = QVBoxLayout(w)
        lab = QLabel(note)
        lab.setWordWrap(True)
        lab.setStyleSheet("color: #555")
        v.addWidget(lab)
        v.addWidget(widget, 1)
        return w

    def _special_rules(self) -> QWidget:
        w = QWidget()
        v = QVBoxLayout(w)
        rule, _ = index().resolve({"$ref": "#/$defs/specialRule"}, "desert-steel/scenario.schema.json")
        types = rule["properties"]["type"]["enum"]  # the schema's list: new rule types appear by themselves
        grid = JsonGrid(self, [Col("Id", "/id", "str"), Col("Type", "/type", "str", tuple(types)),
                               Col("Side", "/side", "str", ("allied", "axis", "both")),
                               Col("Text (en)", "/text/en", "text")],
                        new_row=lambda: {"id": "new-rule", "type": "text-only", "text": {"en": ""}})
        v.addWidget(self._with_note(self.bind("/special_rules", grid),
                                    "Each rule: structured fields where the engine can apply it (type, side, cards, "
                                    "units, zone, value…), and its text. Details in the tree below."), 1)
        v.addWidget(self.bind("/special_rules", JsonTree(self, expand_depth=1)), 1)
        return w

    def _victory(self, w: QWidget) -> None:
        v = QVBoxLayout(w)
        tb = QGroupBox("Victory conditions as printed")
        tf = QFormLayout(tb)
        self.row(tf, "Text (en)", "/victory/text/en", LongTextField(False, lines=5))
        self.row(tf, "Text (fr)", "/victory/text/fr", LongTextField(True, lines=5))
        self.row(tf, "Unresolved because", "/victory/unresolved", TextField(),
                 "When the rulebook gives no conditions: say why there is no expression.")
        v.addWidget(tb)
        # bound first, so field("/victory/expression") stays the JSON tree (scripts and tests use it)
        tree = self.bind("/victory/expression", JsonTree(self, expand_depth=4))
        tree.setMinimumHeight(300)
        fb = QGroupBox("Victory conditions (points per unit, wins on a count or on points, otherwise)")
        fl = QVBoxLayout(fb)
        from .victory import VictoryRows
        self.victory_rows = self.bind("/victory/expression", VictoryRows(self))
        fl.addWidget(self.victory_rows)
        v.addWidget(fb)
        eb = QGroupBox("The same as JSON (for what the rows above cannot say: and/or, paths, minimums)")
        el = QVBoxLayout(eb)
        el.addWidget(tree)
        v.addWidget(eb, 1)
        xb = QGroupBox("Exits (§8.4)")
        xl = QVBoxLayout(xb)
        xt = JsonTree(self, expand_depth=3)
        xt.setMinimumHeight(140)
        xl.addWidget(self.bind("/exits", xt))
        v.addWidget(xb)

    # --- refresh ----------------------------------------------------------------------

    def refresh_extra(self, pointer: str) -> None:
        for fe in self.formations.values():
            fe.refresh()

    def other_changed(self, kind, oid) -> None:
        if kind in ("formation-card", "unit-type"):
            for ptr, w in self.bindings:
                if isinstance(w, CardPicker):
                    w.load(self.get(ptr, MISSING))

    def focus_extra(self, pointer: str) -> bool:
        for side, fe in self.formations.items():
            if pointer.startswith(fe.base + "/"):
                row = int(pointer[len(fe.base) + 1:].split("/")[0])
                self.tabs.setCurrentIndex(1 if side == "allied" else 2)
                fe.select(row, force=True)
                return ObjectForm.focus_pointer(self, pointer) if self._bound(pointer) else True
        return False

    def _bound(self, pointer: str) -> bool:
        return any(jsonptr.is_prefix(p, pointer) for p, _ in self.bindings)

    def focus_pointer(self, pointer: str) -> bool:
        self.ensure_built(pointer, under=False)  # a finding about a tab not shown yet: make it, then jump
        for fe in self.formations.values():
            if pointer.startswith(fe.base + "/"):
                return self.focus_extra(pointer)
        return super().focus_pointer(pointer)
