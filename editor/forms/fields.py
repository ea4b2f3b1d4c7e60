"""Field widgets bound to one JSON pointer of one object, and the form base class.

A field shows the value at its pointer, commits the user's change as one undoable edit
and reloads when the document says the object changed. Optional fields show "—" when
the value is absent; choosing "—" removes the key. Each field carries a provenance badge
(where the value comes from; reconstructed values are marked), which also lets the user
set the value's provenance.
"""
from __future__ import annotations

import json
from typing import Any, Callable

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import (QAbstractSpinBox, QCheckBox, QComboBox, QDialog, QDialogButtonBox, QDoubleSpinBox, QFormLayout,
                               QHBoxLayout, QLabel, QLineEdit, QMenu, QPlainTextEdit, QPushButton, QScrollArea,
                               QSpinBox, QTabWidget, QToolButton, QVBoxLayout, QWidget)

from .. import jsonptr
from ..usertext import json_error
from ..document import current_source
from ..jsonptr import MISSING

SOURCE_STYLE = {
    "rulebook": ("§", "#2e7d32", "printed in the rulebook"),
    "example": ("ex", "#1565c0", "from a worked example of the rulebook"),
    "reconstructed": ("≈", "#e65100", "reconstructed: not printed, made to fit the rules"),
    "checked": ("✓", "#00796b", "checked by a user against the physical game"),
    "authored": ("✎", "#6a1b9a", "authored: new content a designer made for a pack"),
    None: ("?", "#c62828", "no provenance"),
}
RECONSTRUCTED_TINT = QColor(255, 243, 224)


class Field:
    """Mixin: a widget that shows and edits the value at ``pointer``."""

    pointer: str = ""
    optional: bool = True
    on_edit: Callable[[Any], None] | None = None
    _loading = False

    # Each field class defines load(value): show a value without recording an edit.

    def commit(self, value: Any) -> None:
        if not self._loading and self.on_edit is not None:
            self.on_edit(value)


class IntField(QSpinBox, Field):
    def __init__(self, minimum: int = 0, maximum: int = 99, optional: bool = False, special: str = "—"):
        super().__init__()
        self.optional = optional
        self._min = minimum
        self.setRange(minimum - 1 if optional else minimum, maximum)
        if optional:
            self.setSpecialValueText(special)
        self.setKeyboardTracking(False)
        self.setAccelerated(True)
        self.valueChanged.connect(self._changed)
        self.setMinimumWidth(70)

    def _changed(self, v: int) -> None:
        self.commit(MISSING if self.optional and v < self._min else v)

    def load(self, value: Any) -> None:
        self._loading = True
        if value is MISSING or value is None or isinstance(value, (str, dict, list)):
            self.setValue(self.minimum())
        else:
            self.setValue(int(value))
        self._loading = False


class FactorField(IntField):
    """A fire factor: a number, or the printed dot (cannot fire, §2.11)."""

    def __init__(self):
        super().__init__(0, 99, optional=True, special="• cannot fire")

    def _changed(self, v: int) -> None:
        self.commit("cannot-fire" if v < 0 else v)

    def load(self, value: Any) -> None:
        self._loading = True
        self.setValue(-1 if value in ("cannot-fire", MISSING, None) else int(value))
        self._loading = False


class NumberField(QDoubleSpinBox, Field):
    def __init__(self, minimum: float = 0, maximum: float = 99, step: float = 0.5, optional: bool = False):
        super().__init__()
        self.optional = optional
        self._min = minimum
        self.setDecimals(1 if step < 1 else 0)
        self.setSingleStep(step)
        self.setRange(minimum - step if optional else minimum, maximum)
        if optional:
            self.setSpecialValueText("—")
        self.setKeyboardTracking(False)
        self.valueChanged.connect(self._changed)

    def _changed(self, v: float) -> None:
        if self.optional and v < self._min:
            self.commit(MISSING)
        else:
            self.commit(int(v) if float(v).is_integer() else v)

    def load(self, value: Any) -> None:
        self._loading = True
        self.setValue(self.minimum() if value in (MISSING, None) else float(value))
        self._loading = False


class TextField(QLineEdit, Field):
    def __init__(self, optional: bool = True, placeholder: str = ""):
        super().__init__()
        self.optional = optional
        self.setPlaceholderText(placeholder or ("—" if optional else ""))
        self.editingFinished.connect(self._finished)
        self._shown = ""

    def _finished(self) -> None:
        text = self.text()
        if text == self._shown:
            return
        self._shown = text
        self.commit(MISSING if self.optional and text == "" else text)

    def load(self, value: Any) -> None:
        self._loading = True
        self._shown = "" if value in (MISSING, None) else str(value)
        self.setText(self._shown)
        self._loading = False


class LongTextField(QPlainTextEdit, Field):
    """Multi-line text, committed when the field loses focus."""

    def __init__(self, optional: bool = True, lines: int = 3):
        super().__init__()
        self.optional = optional
        self._shown = ""
        self.setTabChangesFocus(True)
        self.setFixedHeight(12 + lines * self.fontMetrics().lineSpacing())

    def focusOutEvent(self, event) -> None:
        super().focusOutEvent(event)
        self.flush()

    def flush(self) -> None:
        text = self.toPlainText()
        if text != self._shown:
            self._shown = text
            self.commit(MISSING if self.optional and text == "" else text)

    def load(self, value: Any) -> None:
        self._loading = True
        self._shown = "" if value in (MISSING, None) else str(value)
        if self.toPlainText() != self._shown:
            self.setPlainText(self._shown)
        self._loading = False


class EnumField(QComboBox, Field):
    def __init__(self, values: list, optional: bool = False, labels: dict | None = None):
        super().__init__()
        self.optional = optional
        self._values = ([MISSING] if optional else []) + list(values)
        self.addItems(self._texts(labels))  # one call, not one a value (a scenario form has ~80 of them)
        self.currentIndexChanged.connect(self._changed)

    def _texts(self, labels: dict | None) -> list[str]:
        return ["—" if v is MISSING else str((labels or {}).get(v, v)) for v in self._values]

    def set_values(self, values: list, labels: dict | None = None) -> None:
        self._loading = True
        current = self.current()
        self.clear()
        self._values = ([MISSING] if self.optional else []) + list(values)
        self.addItems(self._texts(labels))
        self.load(current)
        self._loading = False

    def current(self) -> Any:
        i = self.currentIndex()
        return self._values[i] if 0 <= i < len(self._values) else MISSING

    def _changed(self, i: int) -> None:
        if 0 <= i < len(self._values):
            self.commit(self._values[i])

    def load(self, value: Any) -> None:
        self._loading = True
        if value not in self._values and value is not MISSING:
            self._values.append(value)
            self.addItem(f"{value} (unknown)")
        self.setCurrentIndex(self._values.index(value) if value in self._values else -1)
        self._loading = False


class BoolField(QCheckBox, Field):
    """A flag; unchecking an optional flag removes it (absent means false)."""

    def __init__(self, label: str = "", optional: bool = True):
        super().__init__(label)
        self.optional = optional
        self.toggled.connect(lambda on: self.commit(True if on else (MISSING if self.optional else False)))

    def load(self, value: Any) -> None:
        self._loading = True
        self.setChecked(value is True)
        self._loading = False


class JsonField(QWidget, Field):
    """Any JSON value as text, applied explicitly (Ctrl+Return or the button)."""

    def __init__(self, optional: bool = True, lines: int = 6):
        super().__init__()
        self.optional = optional
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        self.edit = QPlainTextEdit()
        self.edit.setFixedHeight(12 + lines * self.edit.fontMetrics().lineSpacing())
        font = self.edit.font()
        font.setFamily("monospace")
        self.edit.setFont(font)
        row = QHBoxLayout()
        self.status = QLabel("")
        self.status.setStyleSheet("color: #c62828")
        self.apply = QPushButton("Apply")
        self.apply.setToolTip("Apply the JSON (Ctrl+Return)")
        self.apply.clicked.connect(self._apply)
        row.addWidget(self.status, 1)
        row.addWidget(self.apply)
        lay.addWidget(self.edit)
        lay.addLayout(row)
        self._shown = None

    def keyPressEvent(self, event) -> None:
        if event.key() in (Qt.Key_Return, Qt.Key_Enter) and event.modifiers() & Qt.ControlModifier:
            self._apply()
            return
        super().keyPressEvent(event)

    def _apply(self) -> None:
        text = self.edit.toPlainText().strip()
        if not text and self.optional:
            self.status.setText("")
            self.commit(MISSING)
            return
        try:
            value = json.loads(text)
        except ValueError as exc:
            self.status.setText(json_error(exc))
            return
        self.status.setText("")
        self.commit(value)

    def load(self, value: Any) -> None:
        self._loading = True
        text = "" if value in (MISSING, None) else json.dumps(value, ensure_ascii=False, indent=1)
        if text != self.edit.toPlainText():
            self.edit.setPlainText(text)
        self.status.setText("")
        self._loading = False


class ProvenanceBadge(QToolButton):
    """Where a value comes from; click to set it (e.g. checked against my copy)."""

    def __init__(self, form: "ObjectForm", pointer: str):
        # Made inside the form: a badge without a parent shown by refresh() would be a
        # top-level window for a moment (a native window each, 54 in a scenario form).
        super().__init__(form)
        self.form, self.pointer = form, pointer
        self.setAutoRaise(True)
        self.setFixedWidth(30)
        self.setPopupMode(QToolButton.InstantPopup)
        # The menu's actions are made when it first opens: a scenario form has ~50 badges, and
        # their 300 actions and the style sheets below were 0.15 s of the form's opening.
        menu = QMenu(self)
        menu.aboutToShow.connect(self._fill_menu)
        self.setMenu(menu)
        font = self.font()
        font.setBold(True)
        self.setFont(font)
        self.source = None

    def _fill_menu(self) -> None:
        menu = self.menu()
        if menu.actions():
            return
        menu.addAction("Authored by me", lambda: self._set(dict(self.form.doc.authored)))
        menu.addAction("Checked against my copy", lambda: self._set({"source": "checked",
                                                                     "note": "checked against my copy of the game"}))
        menu.addAction("Rulebook section…", lambda: self._ask("rulebook"))
        menu.addAction("Worked example…", lambda: self._ask("example"))
        menu.addAction("Reconstructed…", lambda: self._ask("reconstructed"))
        menu.addSeparator()
        menu.addAction("Use the object's default", lambda: self._set(None))

    def refresh(self, value: dict | None) -> None:
        entry = current_source(value or {}, self.pointer) if value and "provenance" in value else None
        has = bool(value and "provenance" in value)
        if self.isHidden() == has:  # every badge refreshes on every edit: only when it changes
            self.setVisible(has)
        source = entry.get("source") if entry else None
        self.source = source
        mark, colour, meaning = SOURCE_STYLE.get(source, SOURCE_STYLE[None])
        self.setText(mark)
        if colour != getattr(self, "_colour", None):  # a palette, not a style sheet (a re-polish each)
            self._colour = colour
            pal = self.palette()
            pal.setColor(QPalette.ButtonText, QColor(colour))
            pal.setColor(QPalette.WindowText, QColor(colour))
            self.setPalette(pal)
        tip = meaning
        if entry and entry.get("section"):
            tip += f" (§{entry['section']})"
        if entry and entry.get("pack"):
            tip += f" (pack {entry['pack']})"
        if entry and entry.get("note"):
            tip += f"\n{entry['note']}"
        self.setToolTip(tip + "\nClick to set where this value comes from.")

    def _set(self, entry: dict | None) -> None:
        self.form.doc.set_provenance(self.form.kind, self.form.oid, self.pointer, entry)

    def _ask(self, source: str) -> None:
        dlg = ProvenanceDialog(source, self)
        if dlg.exec() == QDialog.Accepted:
            self._set(dlg.entry())
        dlg.deleteLater()


class ProvenanceDialog(QDialog):
    def __init__(self, source: str, parent=None):
        super().__init__(parent)
        self.setWindowTitle("Where does this value come from?")
        self.source = source
        form = QFormLayout(self)
        self.section = QLineEdit()
        self.section.setPlaceholderText("e.g. 9.42 or scenario VII")
        self.note = QLineEdit()
        form.addRow("Source", QLabel(source))
        form.addRow("Section", self.section)
        form.addRow("Note", self.note)
        buttons = QDialogButtonBox(QDialogButtonBox.Ok | QDialogButtonBox.Cancel)
        buttons.accepted.connect(self._ok)
        buttons.rejected.connect(self.reject)
        form.addRow(buttons)

    def _ok(self) -> None:
        if self.source in ("rulebook", "example") and not self.section.text().strip():
            self.section.setFocus()
            self.section.setStyleSheet("background: #ffebee")
            return
        self.accept()

    def entry(self) -> dict:
        out = {"source": self.source}
        if self.section.text().strip():
            out["section"] = self.section.text().strip()
        if self.note.text().strip():
            out["note"] = self.note.text().strip()
        return out


class ObjectForm(QWidget):
    """Base of every editor: binds fields to pointers of one object and keeps them fresh."""

    title_prefix = ""

    def __init__(self, ctx, kind: str, oid: str, parent=None):
        super().__init__(parent)
        self.ctx, self.doc, self.kind, self.oid = ctx, ctx.doc, kind, str(oid)
        self.bindings: list[tuple[str, QWidget]] = []
        self.badges: list[ProvenanceBadge] = []
        self.doc.changed.connect(self._on_changed)
        self.doc.reset.connect(self.reload)

    # --- binding ----------------------------------------------------------------------

    def value(self) -> dict:
        return self.doc.value(self.kind, self.oid) or {}

    def get(self, pointer: str, default=None):
        return self.doc.get(self.kind, self.oid, pointer, default)

    def set(self, pointer: str, value, text: str | None = None) -> None:
        self.doc.set(self.kind, self.oid, pointer, value, text)

    def bind(self, pointer: str, widget: QWidget) -> QWidget:
        widget.pointer = pointer
        widget.on_edit = lambda v, p=pointer: self.set(p, v)
        self.bindings.append((pointer, widget))
        widget.load(self.get(pointer, MISSING))
        return widget

    def badge(self, pointer: str) -> ProvenanceBadge:
        b = ProvenanceBadge(self, pointer)
        self.badges.append(b)
        b.refresh(self.value())
        return b

    def row(self, layout: QFormLayout, label: str, pointer: str, widget: QWidget, tip: str = "") -> QWidget:
        """A labelled field with its provenance badge."""
        self.bind(pointer, widget)
        box = QWidget()
        h = QHBoxLayout(box)
        h.setContentsMargins(0, 0, 0, 0)
        h.addWidget(widget, 1)
        h.addWidget(self.badge(pointer))
        lab = QLabel(label)
        if tip:
            lab.setToolTip(tip)
            widget.setToolTip(tip)
        if getattr(self.ctx, "extras", {}).get("sweep_value"):  # right-click label or field: the balance lab
            for w in (lab, widget) if isinstance(widget, (QAbstractSpinBox, QLineEdit, QComboBox)) else (lab,):
                w.setContextMenuPolicy(Qt.CustomContextMenu)
                w.customContextMenuRequested.connect(lambda pos, p=pointer, a=w: self._field_menu(a, p, pos))
        layout.addRow(lab, box)
        return widget

    def _field_menu(self, anchor: QWidget, pointer: str, pos) -> None:
        menu = self.field_menu(anchor, pointer)
        menu.exec(anchor.mapToGlobal(pos))
        menu.deleteLater()  # parented to the field: one per right-click would stay otherwise

    def field_menu(self, anchor: QWidget, pointer: str) -> QMenu:
        """A field's context menu: its usual entries (copy, paste…) and "Sweep this value…"."""
        edit = anchor.lineEdit() if isinstance(anchor, (QAbstractSpinBox, QComboBox)) else anchor
        menu = edit.createStandardContextMenu() if isinstance(edit, QLineEdit) else QMenu(anchor)
        menu.addSeparator()
        menu.addAction("Sweep this value…", lambda: self.sweep_field(pointer))
        return menu

    def sweep_field(self, pointer: str) -> None:
        """Hand this field and its value to the balance lab (editor/balancelab.py)."""
        getattr(self.ctx, "extras", {})["sweep_value"](self.kind, self.oid, pointer, self.get(pointer))

    # --- refreshing -------------------------------------------------------------------

    def _on_changed(self, kind: str, oid: str, pointer: str) -> None:
        if kind == self.kind and oid == self.oid:
            self.refresh(pointer)
        else:
            self.other_changed(kind, oid)

    def other_changed(self, kind: str, oid: str) -> None:
        """Another object changed (e.g. a unit type a card shows)."""

    def refresh(self, pointer: str = "") -> None:
        value = self.value()
        for ptr, w in self.bindings:
            if jsonptr.is_prefix(ptr, pointer) or jsonptr.is_prefix(pointer, ptr) or pointer.startswith("/provenance"):
                w.load(jsonptr.get(value, ptr, MISSING))
        for b in self.badges:
            b.refresh(value)
        self.refresh_extra(pointer)
        self.mark_reconstructed()

    def refresh_extra(self, pointer: str) -> None:
        """Hand-made parts of a form refresh here."""

    def reload(self) -> None:
        if self.doc.value(self.kind, self.oid) is None:
            return
        self.refresh("")

    def mark_reconstructed(self) -> None:
        """Tint the fields whose value is reconstructed (when the setting is on)."""
        show = getattr(self.ctx, "show_provenance", True)
        value = self.value()
        for ptr, w in self.bindings:
            entry = current_source(value, ptr) if "provenance" in value else None
            rec = show and entry is not None and entry.get("source") == "reconstructed"
            target = w.edit if isinstance(w, JsonField) else w
            pal = target.palette()
            pal.setColor(QPalette.Base, RECONSTRUCTED_TINT if rec else self.palette().color(QPalette.Base))
            target.setPalette(pal)

    # --- fields made later -------------------------------------------------------------

    def ensure_built(self, pointer: str, under: bool = True) -> None:
        """Make the parts of the form that hold ``pointer`` (and, with ``under``, those with
        fields under it) if they are not made yet: forms that make some tabs only when first
        shown override this."""

    def field(self, pointer: str) -> QWidget:
        """The widget bound to exactly ``pointer`` (its tab made first if need be)."""
        self.ensure_built(pointer)
        for p, w in self.bindings:
            if p == pointer:
                return w
        raise KeyError(f"no field of {self.kind} {self.oid} is bound to {pointer}")

    # --- jumping ----------------------------------------------------------------------

    def focus_pointer(self, pointer: str) -> bool:
        """Show and focus the field that holds ``pointer`` (or its nearest enclosing field)."""
        # a finding about a tab not shown yet: make the tab that holds it (not every tab with
        # a field under it: "" would make them all), and only if no field is found, those too
        self.ensure_built(pointer, under=False)
        best = self._nearest_field(pointer)
        if best is None:
            self.ensure_built(pointer)
            best = self._nearest_field(pointer)
        if best is None:
            return self.focus_extra(pointer)
        reveal(best[1])
        if hasattr(best[1], "select_pointer"):
            best[1].select_pointer(pointer[len(best[0]):] if jsonptr.is_prefix(best[0], pointer) else "")
        best[1].setFocus(Qt.OtherFocusReason)
        flash(best[1])
        return True

    def _nearest_field(self, pointer: str):
        best = None
        for ptr, w in self.bindings:
            if jsonptr.is_prefix(ptr, pointer) or jsonptr.is_prefix(pointer, ptr):
                if best is None or len(ptr) > len(best[0]) or (jsonptr.is_prefix(ptr, pointer) and
                                                               not jsonptr.is_prefix(best[0], pointer)):
                    best = (ptr, w)
        return best

    def focus_extra(self, pointer: str) -> bool:
        return False


def reveal(widget: QWidget) -> None:
    """Switch every enclosing tab to the widget and scroll it into view."""
    child = widget
    parent = widget.parentWidget()
    while parent is not None:
        if isinstance(parent, QTabWidget):
            for i in range(parent.count()):
                page = parent.widget(i)
                if page is child or page.isAncestorOf(widget):
                    parent.setCurrentIndex(i)
        if isinstance(parent, QScrollArea):
            parent.ensureWidgetVisible(widget)
        child = parent
        parent = parent.parentWidget()


def flash(widget: QWidget) -> None:
    old = widget.styleSheet()
    widget.setStyleSheet(old + "; border: 2px solid #d81b60;")
    # The widget as the timer's context: Qt drops the call if the widget is deleted first.
    QTimer.singleShot(900, widget, lambda: widget.setStyleSheet(old))


def scrolled(widget: QWidget) -> QScrollArea:
    area = QScrollArea()
    area.setWidgetResizable(True)
    area.setWidget(widget)
    area.setFrameShape(QScrollArea.NoFrame)
    return area


class Heading(QLabel):
    def __init__(self, text: str):
        super().__init__(text)
        f = self.font()
        f.setPointSizeF(f.pointSizeF() * 1.25)
        f.setBold(True)
        self.setFont(f)

