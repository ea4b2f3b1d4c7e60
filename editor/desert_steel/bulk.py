"""Bulk editing, as designers do it in spreadsheets: every unit type in one grid, every
formation card x year variant in another.

Columns come from the schemas (the scalar fields of an object, and of a card's year
variant; a variant's units as "3×de-pz-ii-f; 2×de-pz-iii-j"). The grid sorts by any column
(numbers as numbers), filters on any text, takes multi-cell pastes from a spreadsheet, and
exports and imports CSV that round-trips. Every change goes through the document's undo
stack (a paste or an import is one undo step), and the validator's findings are shown on
the cell they are about.

A paste or import that has a bad cell changes nothing: its problems are listed by row and
column, in words, and the user fixes them first.
"""
from __future__ import annotations

import csv
import io
import json
import re
from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QSize, QSortFilterProxyModel, Qt
from PySide6.QtGui import QBrush, QColor, QFont, QFontMetrics, QGuiApplication, QKeySequence, QShortcut
from PySide6.QtWidgets import (QAbstractItemView, QComboBox, QFileDialog, QHBoxLayout, QHeaderView, QLabel,
                               QLineEdit, QMessageBox, QPushButton, QStyle, QStyleOptionHeader, QTableView,
                               QVBoxLayout, QWidget)

from sandtable.rules import limits
from sandtable.rules.spreadsheet import restore, safe_text

from .. import jsonptr
from ..jsonptr import MISSING
from ..forms.grid import parse_cell, show_cell
from ..forms.jsontree import _properties, _resolved, schema_at

# Roles and orientations read once: Qt asks data() and headerData() thousands of times when a
# grid opens, and PySide6's short spelling (Qt.DisplayRole) costs ~5 µs a look-up, more than
# the rest of data() (Qt.ItemDataRole.DisplayRole: 0.2 µs; a module name: 0.01 µs).
DISPLAY, EDIT, USER = Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.EditRole, Qt.ItemDataRole.UserRole
BACKGROUND, TOOLTIP = Qt.ItemDataRole.BackgroundRole, Qt.ItemDataRole.ToolTipRole
HORIZONTAL, VERTICAL = Qt.Orientation.Horizontal, Qt.Orientation.Vertical
EDITABLE = Qt.ItemFlag.ItemIsEditable
ERROR_TINT = QColor(255, 205, 210)
WARNING_TINT = QColor(255, 236, 179)
SKIP = {"id", "kind", "$schema", "provenance", "notes", "aliases", "art", "transport", "years", "variants",
        "subordinates", "number"}


@dataclass(frozen=True)
class BulkCol:
    key: str  # header in the grid and in CSV files
    sub: str  # pointer inside the row's object ("" scope) or inside its year variant ("variant" scope)
    kind: str  # int | number | bool | str | json | units
    scope: str = ""  # "" (the object) | "variant" (the row's year variant)
    choices: tuple = ()


@dataclass(frozen=True)
class BulkRow:
    kind: str
    oid: str
    year: str = ""  # the variant of a formation-card row ("" when the card has none)

    def pointer(self, col: BulkCol) -> str | None:
        if col.scope == "variant":
            return f"/variants/{jsonptr.escape(self.year)}{col.sub}" if self.year else None
        return col.sub


def _col_kind(node: dict) -> tuple[str, tuple] | None:
    """How a schema node is typed in a cell, or None for what a cell cannot hold."""
    if node.get("enum"):
        return "str", tuple(str(v) for v in node["enum"])
    if "oneOf" in node:
        alts = node["oneOf"]
        if all("const" in a or a.get("type") in ("integer", "number", "string") for a in alts):
            return "json", ()
        return None
    types = node.get("type")
    types = [t for t in (types if isinstance(types, list) else [types]) if t and t != "null"]
    if not types:
        return None
    t = types[0]
    return {"integer": ("int", ()), "number": ("number", ()), "boolean": ("bool", ()),
            "string": ("str", ())}.get(t)


def columns_for(ruleset: str, kind: str) -> list[BulkCol]:
    """The scalar fields of an object kind (and, for formation cards, of their year variants)."""
    out = []
    props = _properties(schema_at(ruleset, kind, ""))
    for key, (raw, rel) in props.items():
        if key in SKIP:
            continue
        typed = _col_kind(_resolved(raw, rel)[0])
        if typed:
            out.append(BulkCol(key, "/" + jsonptr.escape(key), typed[0], "", typed[1]))
    if kind == "formation-card":
        # what changes year by year comes right after the designation, the rest of the card after
        first, rest = [c for c in out if c.key in ("designation", "type")], [c for c in out if c.key not in
                                                                             ("designation", "type")]
        out = first
        vprops = _properties(schema_at(ruleset, kind, "/variants/1942"))
        for key, (raw, rel) in vprops.items():
            if key == "units":
                out.append(BulkCol("units", "/units", "units", "variant"))
                continue
            typed = _col_kind(_resolved(raw, rel)[0])
            if typed:
                out.append(BulkCol(f"{key} (year)" if key in props else key, "/" + jsonptr.escape(key), typed[0],
                                   "variant", typed[1]))
        out += rest
    return out


def show_units(value) -> str:
    if value is MISSING or value is None:
        return ""
    if isinstance(value, list) and all(isinstance(u, dict) and set(u) == {"type", "count"} for u in value):
        return "; ".join(f"{u['count']}×{u['type']}" for u in value)
    return json.dumps(value, ensure_ascii=False)


def parse_units(text: str):
    """"3×de-pz-ii-f; 2×de-pz-iii-j" (x or * also do; a missing count is 1), or JSON."""
    text = text.strip()
    if not text:
        return MISSING
    if text.startswith("["):
        try:
            return json.loads(text)
        except ValueError:
            raise ValueError("the units are not valid JSON; write them as “3×de-pz-ii-f; 2×de-pz-iii-j”") from None
    out = []
    for part in [p.strip() for p in text.replace(",", ";").split(";") if p.strip()]:
        for sep in ("×", "x", "X", "*"):
            count, s, utype = part.partition(sep)
            if s and count.strip().isdigit():
                out.append({"type": utype.strip(), "count": int(count)})
                break
        else:
            if " " in part:
                raise ValueError(f"“{part}” is not “count×unit-type”")
            out.append({"type": part, "count": 1})
    return out


def cell_text(value, col: BulkCol) -> str:
    return show_units(value) if col.kind == "units" else show_cell(value, col.kind)


def export_text(value, col: BulkCol) -> str:
    """A cell of an exported CSV: plain true/false for booleans, formulas neutralised."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return safe_text(cell_text(value, col))


_NUMBER = re.compile(r"\s*[-+]?(\d[\d_]*)(\.\d*)?([eE][-+]?\d+)?\s*")


def text_problem(text: str, col: BulkCol) -> str | None:
    """Why a cell's text is refused before it is parsed: what pack data may not hold either."""
    if len(text) > limits.STRING_CHARS:
        return f"{len(text):,} characters; the limit is {limits.STRING_CHARS:,} (limit string-chars)"
    t = text.strip()
    if col.kind in ("json", "units") and t[:1] in ("[", "{"):
        return limits.user_json(t)[1]
    if col.kind in ("int", "number", "json"):
        if _NUMBER.fullmatch(t):
            return limits.number_problem(t.replace("_", "").lstrip("+"))
        if t.lower().lstrip("+-") in ("nan", "inf", "infinity"):
            return f"“{t}” is not a finite number (JSON has only finite numbers)"
    return None


def cell_value(text: str, col: BulkCol):
    if col.kind == "units":
        return parse_units(text)
    if col.kind == "bool":
        t = text.strip().lower()
        if t in ("", "—"):
            return MISSING
        if t in ("1", "true", "yes", "y", "x", "✓"):
            return True
        if t in ("0", "false", "no", "n", "-"):
            return False
        raise ValueError(f"“{text.strip()}” is not yes/no (write ✓, yes, true, 1 or leave it empty)")
    return parse_cell(text, col.kind, col.choices)


class BulkModel(QAbstractTableModel):
    def __init__(self, ctx, kind: str, parent=None):
        super().__init__(parent)
        self.ctx, self.kind = ctx, kind
        self.columns = columns_for(ctx.ruleset, kind)
        self.rows: list[BulkRow] = []
        self.findings: dict[tuple[int, int], list] = {}
        self.row_findings: dict[int, list] = {}
        self.last_changes = 0  # cells the last apply() changed (an import of an unchanged file: 0)
        self.last_consequences = 0  # new errors elsewhere the last import brought (setups no longer matching...)
        self.rebuild()

    @property
    def doc(self):
        return self.ctx.doc

    def rebuild(self) -> None:
        self.beginResetModel()
        ws = self.ctx.ws
        rows = []
        for oid in sorted(ws.keys(self.kind), key=lambda i: (len(i), i) if i.isdigit() else (0, i)):
            value = ws.value(self.kind, oid)
            variants = value.get("variants") if isinstance(value, dict) and self.kind == "formation-card" else None
            if isinstance(variants, dict) and variants:
                rows += [BulkRow(self.kind, oid, str(y)) for y in variants]
            else:
                rows.append(BulkRow(self.kind, oid))
        self.rows = rows
        self._texts: dict[int, list[str]] = {}  # shown texts per row, made when first asked
        self._labels = [f"{r.oid} {r.year}".strip() for r in rows]
        self.index_of = {}
        for i, r in enumerate(rows):
            self.index_of.setdefault((r.oid, r.year), i)
            self.index_of.setdefault((r.oid, None), i)
        self.endResetModel()

    # --- the table ------------------------------------------------------------------

    def rowCount(self, parent=QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self.rows)

    def columnCount(self, parent=QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self.columns)

    def headerData(self, section, orientation, role=DISPLAY):
        if role == DISPLAY:
            if orientation == HORIZONTAL:
                return self.columns[section].key
            return self._labels[section]
        if role not in _ROLES:
            return None
        if role == TOOLTIP and orientation == HORIZONTAL:
            c = self.columns[section]
            return f"{c.key}: {'the year variant' if c.scope else 'the object'}'s {c.sub}" + (
                f"\none of: {', '.join(c.choices)}" if c.choices else "")
        if role == BACKGROUND and orientation == VERTICAL and section in self.row_findings:
            return QBrush(ERROR_TINT)
        if role == TOOLTIP and orientation == VERTICAL and section in self.row_findings:
            return "\n".join(_say(loc) for loc in self.row_findings[section])
        return None

    def raw(self, row: int, col: int):
        r, c = self.rows[row], self.columns[col]
        ptr = r.pointer(c)
        return MISSING if ptr is None else self.ctx.ws.get(r.kind, r.oid, ptr, MISSING)

    def texts(self, row: int) -> list[str]:
        got = self._texts.get(row)
        if got is None:
            r = self.rows[row]
            value = self.ctx.ws.value(r.kind, r.oid)  # once a row, not once a cell (as raw() does)
            got = self._texts[row] = [cell_text(MISSING if (ptr := r.pointer(col)) is None else
                                                jsonptr.get(value, ptr, MISSING), col) for col in self.columns]
        return got

    def data(self, index, role=DISPLAY):
        # Qt asks for a dozen roles per cell and per repaint: the common ones come first, and
        # the texts are made once per row (until that object changes).
        if role == DISPLAY or role == EDIT:
            return self.texts(index.row())[index.column()]
        if role not in _ROLES or not index.isValid():
            return None
        row, col = index.row(), index.column()
        if role == USER:  # the sort key: numbers as numbers, texts without case
            v = self.raw(row, col)
            if isinstance(v, bool):
                return (1, int(v), "")
            if isinstance(v, (int, float)):
                return (1, v, "")
            if v is MISSING or v is None:
                return (2, 0, "")
            return (1, float("inf"), cell_text(v, self.columns[col]).lower())
        hits = self.findings.get((row, col))
        if role == BACKGROUND and hits:
            return QBrush(ERROR_TINT if any(h.finding.severity == 2 for h in hits) else WARNING_TINT)
        if role == TOOLTIP and hits:
            return "\n".join(_say(h) for h in hits)
        return None

    def flags(self, index):
        base = super().flags(index)
        if index.isValid() and self.rows[index.row()].pointer(self.columns[index.column()]) is not None:
            return base | EDITABLE
        return base

    def setData(self, index, value, role=EDIT) -> bool:
        if role != EDIT or not index.isValid():
            return False
        problems = self.apply({(index.row(), index.column()): str(value)}, "Edit")
        if problems:
            self.ctx.status(problems[0] + "; the cell keeps its value")
            return False
        return True

    # --- edits ------------------------------------------------------------------------

    def parse(self, cells: dict[tuple[int, int], str], where=None) -> tuple[list[tuple], list[str]]:
        """Typed values for texts at (row, column); problems named by ``where(row, col)``."""
        where = where or (lambda r, c: f"{self.headerData(r, VERTICAL)}, {self.columns[c].key}")
        changes, problems = [], []
        for (row, col), text in cells.items():
            r, c = self.rows[row], self.columns[col]
            ptr = r.pointer(c)
            if ptr is not None and text == cell_text(self.raw(row, col), c):
                continue  # as shown: unchanged (an exported CSV imports as no change at all)
            if ptr is None:
                if text.strip():
                    problems.append(f"{where(row, col)}: card {r.oid} has no year variant to hold {c.key}")
                continue
            why = text_problem(text, c)
            if why:
                problems.append(f"{where(row, col)}: {why}")
                continue
            try:
                new = cell_value(restore(text) if c.kind in ("str", "json") else text, c)
            except (ValueError, RecursionError, OverflowError) as exc:
                problems.append(f"{where(row, col)}: {str(exc)[:300]}")
                continue
            if cell_text(new, c) != cell_text(self.raw(row, col), c) or (new is MISSING) != (self.raw(row, col) is MISSING):
                changes.append((r, ptr, new, (row, col)))
        return changes, problems

    def refusals(self, changes: list[tuple], where) -> list[str]:
        """What ``validate`` would refuse in the objects once changed (limits, then the schema),
        each named by the cell that caused it: the editor refuses it now, not after saving."""
        from sandtable.rules import rulesets
        from sandtable.rules.inputs import object_problems
        ruleset = rulesets.get(self.ctx.ruleset)
        by_object: dict[tuple[str, str], list] = {}
        for change in changes:
            by_object.setdefault((change[0].kind, change[0].oid), []).append(change)
        problems = []
        for (kind, oid), group in by_object.items():
            value = old = self.ctx.ws.value(kind, oid)
            for _, ptr, new, _cell in group:
                value = jsonptr.set_in(value, ptr, new)
            had = set(object_problems(ruleset, kind, old))  # an object's old schema error does not block a fix
            for pointer, why in [pb for pb in object_problems(ruleset, kind, value) if pb not in had][:20]:
                cell = next((cl for _, ptr, _, cl in group if jsonptr.is_prefix(ptr, pointer)
                             or jsonptr.is_prefix(pointer, ptr)), None)
                place = where(*cell) if cell else f"{kind} {oid}"
                problems.append(f"{place}: {why}" + (f" (at {pointer})" if pointer and not cell else ""))
        return problems

    def new_errors(self, changes: list[tuple], where) -> list[str]:
        """The errors the changed objects would gain (cross-references, the ruleset's checks), found
        by the editor's checker on a trial of the changes, then undone; each named by the cell it
        is about when there is one."""
        from ..checking import Checker
        ws = self.ctx.ws
        checker = getattr(self, "_checker", None)
        if checker is None or checker.ws is not ws:
            checker = self._checker = Checker(ws)

        def errors():
            return [loc for loc in checker.run(checker.snapshot()).findings if loc.finding.severity == 2]
        before = errors()
        state = ws.state()
        try:
            for r, ptr, new, _cell in changes:
                ws.set(r.kind, r.oid, ptr, new)
            after = errors()
        finally:
            ws.restore(state)
        # Errors in the changed objects themselves (a unit type that does not exist...): what their
        # consequences elsewhere (a setup no longer matching a card) ask of the designer is a finding.
        changed = {(r.kind, r.oid) for r, *_ in changes}
        known = {(loc.finding.code, loc.finding.message) for loc in before}
        new = [loc for loc in after if (loc.finding.code, loc.finding.message) not in known]
        new_here = [loc for loc in new if (loc.kind, loc.id) in changed]
        self.last_consequences = len(new) - len(new_here)
        out = []
        for loc in new_here[:15]:
            cell = next((cl for r, ptr, _, cl in changes if (r.kind, r.oid) == (loc.kind, loc.id)
                         and (jsonptr.is_prefix(ptr, loc.pointer or "") or jsonptr.is_prefix(loc.pointer or "", ptr))),
                        None)
            place = where(*cell) if cell else f"{loc.kind or ''} {loc.id or ''}".strip() or "the pack"
            out.append(f"{place}: {loc.finding.message[:300]} (validate would report {loc.finding.code})")
        return out

    def apply(self, cells: dict[tuple[int, int], str], label: str, where=None) -> list[str]:
        """Change cells as one undo step; nothing changes when any cell is wrong."""
        where = where or (lambda r, c: f"{self.headerData(r, VERTICAL)}, {self.columns[c].key}")
        changes, problems = self.parse(cells, where)
        if not problems and changes:
            problems = self.refusals(changes, where)
        if not problems and changes and label == "Import":  # a file of many changes: as validate would judge it
            problems = self.new_errors(changes, where)
        self.last_changes = 0 if problems else len(changes)
        if problems or not changes:
            return problems
        stack = self.doc.undo_stack
        if len(changes) > 1:
            stack.beginMacro(f"{label} {len(changes)} cells of the {self.kind} grid")
        try:
            for r, ptr, new, _cell in changes:
                self.doc.set(r.kind, r.oid, ptr, new)
        finally:
            if len(changes) > 1:
                stack.endMacro()
        return []

    def object_changed(self, kind: str, oid: str) -> None:
        if kind != self.kind:
            return
        value = self.ctx.ws.value(kind, oid)
        now = set(value.get("variants") or {}) if self.kind == "formation-card" and isinstance(value, dict) else set()
        had = {r.year for r in self.rows if r.oid == oid and r.year}
        if (oid, None) not in self.index_of or value is None or now != had:
            self.rebuild()  # a new, deleted or renamed object, or a year variant added or removed
            return
        rows = [i for i, r in enumerate(self.rows) if r.oid == oid]
        for i in rows:
            self._texts.pop(i, None)
        self.dataChanged.emit(self.index(min(rows), 0), self.index(max(rows), len(self.columns) - 1))

    # --- findings ---------------------------------------------------------------------

    def set_findings(self, located) -> None:
        cells, rows = {}, {}
        for loc in located:
            if loc.kind != self.kind or loc.id is None:
                continue
            ptr = loc.pointer or ""
            year = None
            if ptr.startswith("/variants/"):
                year = jsonptr.unescape(ptr.split("/")[2])
            row = self.index_of.get((loc.id, year)) if year else self.index_of.get((loc.id, None))
            if row is None:
                continue
            placed = False
            for c, col in enumerate(self.columns):
                cp = self.rows[row].pointer(col)
                if cp is not None and ptr and jsonptr.is_prefix(cp, ptr):
                    targets = [row] if col.scope or year else [i for i, r in enumerate(self.rows) if r.oid == loc.id]
                    for t in targets:
                        cells.setdefault((t, c), []).append(loc)
                    placed = True
            if not placed:
                rows.setdefault(row, []).append(loc)
        self.findings, self.row_findings = cells, rows
        if self.rows:
            self.dataChanged.emit(self.index(0, 0), self.index(len(self.rows) - 1, len(self.columns) - 1))
            self.headerDataChanged.emit(VERTICAL, 0, len(self.rows) - 1)

    # --- CSV --------------------------------------------------------------------------

    def key_headers(self) -> list[str]:
        return ["id", "year"] if self.kind == "formation-card" else ["id"]

    def to_csv(self, rows: list[int] | None = None) -> str:
        """The rows (all, or those given: the grid's filtered ones, in its order) as CSV; booleans
        as true/false, and a text a spreadsheet would run as a formula neutralised (OWASP)."""
        out = io.StringIO()
        w = csv.writer(out, lineterminator="\n")
        w.writerow(self.key_headers() + [c.key for c in self.columns])
        for i in (range(len(self.rows)) if rows is None else rows):
            r = self.rows[i]
            keys = [r.oid, r.year] if self.kind == "formation-card" else [r.oid]
            w.writerow([safe_text(k) for k in keys] + [export_text(self.raw(i, c), col)
                                                       for c, col in enumerate(self.columns)])
        return out.getvalue()

    def from_csv(self, text: str, name: str = "the CSV file") -> list[str]:
        """Take a CSV made by ``to_csv`` (or edited in a spreadsheet): matching rows and
        columns are compared and the differences applied as one undo step. Unknown rows or
        columns and bad cells are problems, named by line and column; then nothing changes."""
        text = text.lstrip("\ufeff")  # spreadsheets like to add a byte-order mark
        try:
            reader = list(csv.reader(io.StringIO(text)))
        except csv.Error as exc:
            return [f"{name}: not a CSV file ({exc})"]
        if not reader:
            return [f"{name}: empty"]
        header = [h.strip() for h in reader[0]]
        keys = self.key_headers()
        if header[:len(keys)] != keys:
            return [f"{name}, line 1: the first column(s) must be {', '.join(keys)} (as exported)"]
        by_key = {c.key: i for i, c in enumerate(self.columns)}
        problems = [f"{name}, line 1: unknown column “{h}”" for h in header[len(keys):] if h and h not in by_key]
        cells, where, seen = {}, {}, {}
        for n, line in enumerate(reader[1:], start=2):
            if not any(x.strip() for x in line):
                continue
            oid = restore(line[0].strip())
            year = line[1].strip() if len(keys) > 1 and len(line) > 1 else ""
            row = self.index_of.get((oid, year)) if year or (oid, "") in self.index_of else None
            if row is None:
                problems.append(f"{name}, line {n}: no {self.kind} {oid[:80]}{' year ' + year[:20] if year else ''} "
                                "in the pack")
                continue
            if row in seen:  # two lines for one object: which one is meant?
                problems.append(f"{name}, line {n}: the same {self.kind} {oid}{' year ' + year if year else ''} "
                                f"as line {seen[row]}; give each row once")
                continue
            seen[row] = n
            for h, value in zip(header[len(keys):], line[len(keys):]):
                if h in by_key:
                    cells[(row, by_key[h])] = value
                    where[(row, by_key[h])] = f"{name}, line {n}, column {h}"
        if problems:
            return problems
        return self.apply(cells, "Import", lambda r, c: where[(r, c)])


_ROLES = {USER, BACKGROUND, TOOLTIP}


def _say(loc) -> str:
    f = loc.finding
    return f"{f.severity}: {f.message}" + (f" [§{f.section}]" if f.section else "")


class SortFilter(QSortFilterProxyModel):
    def lessThan(self, left, right) -> bool:
        a, b = left.data(USER), right.data(USER)
        try:  # ties keep the pack's order, so rows do not swap places after an edit
            return (tuple(a), left.row()) < (tuple(b), right.row())
        except TypeError:
            return (str(a), left.row()) < (str(b), right.row())


class RowHeader(QHeaderView):
    """The grid's row labels ("161 1942"). Its width is measured here from the labels: Qt's own
    size hint asks the model ~7 roles for each of up to 200 rows, through the sort proxy (about
    4,000 calls into Python, 10-20 ms of the cards grid's opening)."""

    def __init__(self, model: BulkModel, parent=None):
        super().__init__(Qt.Orientation.Vertical, parent)
        self.source = model
        self.setSectionsClickable(True)  # as QTableView's own row header: a click selects the row
        self.setHighlightSections(True)
        self._key, self._hint, self._labels = None, QSize(), None

    def sizeHint(self) -> QSize:
        labels = self.source._labels  # a new list when the rows change (rebuild)
        # the list itself, not its id(): a rebuilt list can reuse a freed one's id
        key = (len(labels), self.font().key(), self.defaultSectionSize())
        if labels is not self._labels or key != self._key:
            self._labels = labels
            bold = QFont(self.font())
            bold.setBold(True)  # as Qt measures a section: a highlighted row's label is bold
            opt = QStyleOptionHeader()
            self.initStyleOption(opt)
            opt.fontMetrics = QFontMetrics(bold)
            opt.text = max(labels, key=opt.fontMetrics.horizontalAdvance, default="")
            hint = self.style().sizeFromContents(QStyle.ContentsType.CT_HeaderSection, opt, QSize(), self)
            self._key, self._hint = key, QSize(hint.width(), self.defaultSectionSize())
        return self._hint


class BulkGrid(QWidget):
    """A tab of the main window: one kind's objects (or card x year variants) as a grid."""

    def __init__(self, ctx, kind: str, parent=None):
        super().__init__(parent)
        from .. import door
        self.ctx, self.bulk_kind = ctx, kind
        self.title = door.bulk_titles(ctx.ws.catalog.ruleset).get(kind, kind)  # as the ruleset declares it
        self.model = BulkModel(ctx, kind, self)
        self.proxy = SortFilter(self)
        self.proxy.setSourceModel(self.model)
        self.proxy.setFilterCaseSensitivity(Qt.CaseInsensitive)
        self.proxy.setFilterKeyColumn(-1)
        lay = QVBoxLayout(self)
        top = QHBoxLayout()
        self.filter = QLineEdit()
        self.filter.setMinimumWidth(160)  # room to read what is typed when the window is narrow
        self.filter.setPlaceholderText("Filter: any text in a row (an id, a nationality, a value…)")
        self.filter.textChanged.connect(self.proxy.setFilterFixedString)
        self.filter_column = QComboBox()
        self.filter_column.addItem("in any column", -1)
        for i, c in enumerate(self.model.columns):
            self.filter_column.addItem(f"in {c.key}", i)
        self.filter_column.currentIndexChanged.connect(
            lambda _: self.proxy.setFilterKeyColumn(self.filter_column.currentData()))
        export = QPushButton("Export CSV…")
        export.clicked.connect(self._export_dialog)
        imp = QPushButton("Import CSV…")
        imp.clicked.connect(self._import_dialog)
        top.addWidget(QLabel(self.title))
        top.addWidget(self.filter, 1)
        top.addWidget(self.filter_column)
        top.addWidget(export)
        top.addWidget(imp)
        lay.addLayout(top)
        self.view = QTableView()
        self.view.setVerticalHeader(RowHeader(self.model, self.view))
        self.view.setModel(self.proxy)
        self.view.horizontalHeader().setSortIndicator(-1, Qt.AscendingOrder)  # the pack's order first
        self.view.setSortingEnabled(True)
        self.view.setSelectionMode(QAbstractItemView.ExtendedSelection)
        self.view.setAlternatingRowColors(True)
        self.view.horizontalHeader().setSectionResizeMode(QHeaderView.Interactive)
        self.view.verticalHeader().setDefaultSectionSize(22)
        self._size_columns()
        lay.addWidget(self.view, 1)
        hint = QLabel("Double-click a cell to edit it; paste a block copied from a spreadsheet with Ctrl+V (one "
                      "undo step); a red cell has a finding (hover it).")
        hint.setStyleSheet("color: #666")
        hint.setWordWrap(True)  # on one line it was 800 px wide: opening the grid widened the window
        lay.addWidget(hint)
        QShortcut(QKeySequence.Paste, self.view, activated=self.paste_clipboard, context=Qt.WidgetShortcut)
        QShortcut(QKeySequence.Copy, self.view, activated=self.copy_selection, context=Qt.WidgetShortcut)
        self.tell = None  # the main window answers with its own dialogs (tests replace them)
        ctx.doc.changed.connect(self._changed)
        ctx.doc.reset.connect(self.model.rebuild)

    SIZED_ROWS = 40

    def _size_columns(self) -> None:
        """Column widths from the header and the first rows' texts, measured here: Qt's
        resizeColumnsToContents asks the model a dozen roles per cell through the delegate
        (0.3 s for the cards grid even on 40 rows, a stall of the whole window)."""
        fm = self.view.fontMetrics()
        head = self.view.horizontalHeader().fontMetrics()
        rows = range(min(self.SIZED_ROWS, self.model.rowCount()))
        texts = [self.model.texts(r) for r in rows]
        for c, col in enumerate(self.model.columns):
            width = max([head.horizontalAdvance(col.key) + 24] +  # room for the sort arrow
                        [fm.horizontalAdvance(t[c]) + 12 for t in texts])
            self.view.setColumnWidth(c, min(max(width, 60), 260))

    def _changed(self, kind: str, oid: str, pointer: str) -> None:
        self.model.object_changed(kind, oid)

    def reload(self) -> None:
        self.model.rebuild()

    def set_findings(self, located) -> None:
        self.model.set_findings(located)

    # --- paste and copy ---------------------------------------------------------------

    def paste_text(self, text: str, top: int | None = None, left: int | None = None) -> list[str]:
        """Paste tab-separated rows (a spreadsheet's clipboard) from the current cell, in the
        grid's visible (sorted, filtered) order; one value fills every selected cell."""
        rows = [line.split("\t") for line in text.rstrip("\r\n").replace("\r\n", "\n").split("\n")]
        selected = self.view.selectionModel().selectedIndexes()
        if top is None:
            cur = self.view.currentIndex()
            top, left = (cur.row(), cur.column()) if cur.isValid() else (0, 0)
        cells: dict[tuple[int, int], str] = {}
        if len(rows) == 1 and len(rows[0]) == 1 and len(selected) > 1:
            for idx in selected:
                src = self.proxy.mapToSource(idx)
                cells[(src.row(), src.column())] = rows[0][0]
        else:
            if top + len(rows) > self.proxy.rowCount() or left + max(len(r) for r in rows) > self.proxy.columnCount():
                return [f"the pasted block ({len(rows)} rows × {max(len(r) for r in rows)} columns) does not fit "
                        "the grid from the current cell"]
            for i, line in enumerate(rows):
                for j, value in enumerate(line):
                    src = self.proxy.mapToSource(self.proxy.index(top + i, left + j))
                    cells[(src.row(), src.column())] = value
        problems = self.model.apply(cells, "Paste")
        if problems:
            self._tell("Paste not applied", problems)
        return problems

    def paste_clipboard(self) -> None:
        self.paste_text(QGuiApplication.clipboard().text())

    def copy_selection(self) -> str:
        idx = sorted(self.view.selectionModel().selectedIndexes(), key=lambda i: (i.row(), i.column()))
        if not idx:
            return ""
        rows: dict[int, dict[int, str]] = {}
        for i in idx:
            rows.setdefault(i.row(), {})[i.column()] = i.data() or ""
        cols = sorted({c for r in rows.values() for c in r})
        text = "\n".join("\t".join(r.get(c, "") for c in cols) for _, r in sorted(rows.items()))
        QGuiApplication.clipboard().setText(text)
        return text

    # --- CSV --------------------------------------------------------------------------

    def export_csv(self, path: Path) -> None:
        """The rows the grid shows (its filter and order) as CSV."""
        from sandtable.rules import atomic
        atomic.write_text(path, self.model.to_csv(self.visible_rows()))

    def visible_rows(self) -> list[int]:
        """The model's rows the grid shows, in its (sorted, filtered) order."""
        return [self.proxy.mapToSource(self.proxy.index(i, 0)).row() for i in range(self.proxy.rowCount())]

    def import_csv(self, path: Path) -> list[str]:
        """Problems (nothing changed), or [] — then ``model.last_changes`` says how many cells changed.
        Only a regular file within the size limit is read: a FIFO would block, /dev/zero never end."""
        from sandtable.rules import limits
        try:
            data = limits.read_regular(path, limits.CSV_BYTES, what="CSV file")
            text = data.decode("utf-8")
        except limits.InputError as exc:
            return [str(exc).replace("(limit document-bytes)", "(limit csv-bytes)")]
        except UnicodeDecodeError:
            return [f"{path}: cannot be read (not UTF-8 text)"]
        self.model.last_changes = self.model.last_consequences = 0
        return self.model.from_csv(text, Path(path).name)

    def _export_dialog(self) -> None:
        path, _ = QFileDialog.getSaveFileName(self, "Export CSV", f"{self.bulk_kind}.csv", "CSV (*.csv)")
        if path:
            try:
                self.export_csv(Path(path))
                self.ctx.status(f"wrote {path}")
            except OSError as exc:
                self._tell("Export failed", [f"{path}: {exc.strerror or exc}"])

    def _import_dialog(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, "Import CSV", "", "CSV (*.csv)")
        if path:
            problems = self.import_csv(Path(path))
            if problems:
                self._tell("Import not applied", problems)
            elif not self.model.last_changes:
                self.ctx.status(f"no change: {path} holds what the grid shows")
            else:
                more = self.model.last_consequences
                self.ctx.status(f"imported {path}: {self.model.last_changes} cell(s) changed (Undo takes it back)"
                                + (f"; {more} new error(s) elsewhere follow from it: see Findings" if more else ""))

    def _tell(self, title: str, problems: list[str]) -> None:
        self.ctx.status(f"{title}: {problems[0]}")
        text = "Nothing was changed:\n" + "\n".join(problems[:15]) + ("\n…" if len(problems) > 15 else "")
        if self.tell is not None:
            self.tell(title, text)
        elif self.isVisible():
            QMessageBox.warning(self, title, text)
