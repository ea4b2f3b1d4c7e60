"""Dialogs of the object lifecycle: new (blank, like a template, a setup empty or automatic),
duplicate, rename with the list of references it updates, delete with what refers to it.

Each dialog shows what will happen before it happens and applies through
``editor.lifecycle.Lifecycle`` (one undoable step). Tests drive them without ``exec``:
fill the fields, call ``apply()``.
"""
from __future__ import annotations

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import (QComboBox, QDialog, QDialogButtonBox, QFormLayout, QLabel, QLineEdit, QListWidget,
                               QRadioButton, QVBoxLayout, QWidget)

from .labels import kind_title, label
from .lifecycle import LifecycleError

BLANK = "__blank__"
EMPTY_SETUP = "__empty__"
AUTO_SETUP = "__auto__"


class _Dialog(QDialog):
    def __init__(self, doc, title: str, parent=None):
        super().__init__(parent)
        self.doc = doc
        self.life = doc.lifecycle
        self.setWindowTitle(title)
        self.setMinimumWidth(640)
        self.lay = QVBoxLayout(self)
        self.problem = QLabel("")
        self.problem.setStyleSheet("color: #c62828")
        self.problem.setWordWrap(True)
        self.buttons = QDialogButtonBox(QDialogButtonBox.Ok | QDialogButtonBox.Cancel)
        self.buttons.accepted.connect(self._ok)
        self.buttons.rejected.connect(self.reject)
        self.result_id: str | None = None

    def finish_layout(self) -> None:
        self.lay.addWidget(self.problem)
        self.lay.addWidget(self.buttons)

    def _ok(self) -> None:
        try:
            self.apply()
        except LifecycleError as exc:
            self.problem.setText(str(exc))
            return
        self.accept()

    def ok_button(self):
        return self.buttons.button(QDialogButtonBox.Ok)


class NewObjectDialog(_Dialog):
    """New object of a kind: blank from the schema, or like an existing one; for a setup,
    empty or the automatic legal setup of a scenario."""

    def __init__(self, doc, kind: str, like: str | None = None, parent=None):
        super().__init__(doc, f"New {kind_title(kind, doc.ws.catalog.ruleset).rstrip('s').lower()}", parent)
        self.kind = kind
        ws = doc.ws
        form = QFormLayout()
        self.start = QComboBox()
        if kind == "setup":
            self.start.addItem("Empty (place the counters yourself)", EMPTY_SETUP)
            self.start.addItem("Automatic legal setup (as `sandtable setup`)", AUTO_SETUP)
            self.scenario = QComboBox()
            for sid in ws.keys("scenario"):
                self.scenario.addItem(label("scenario", sid, ws.value("scenario", sid), ws.catalog.ruleset), sid)
            if like and ws.exists("scenario", like):
                self.scenario.setCurrentIndex(max(0, self.scenario.findData(like)))
            form.addRow("Scenario", self.scenario)
            self.scenario.currentIndexChanged.connect(lambda _: self._suggest())
        else:
            self.start.addItem("Blank: only the fields the schema requires", BLANK)
            for oid in ws.keys(kind):
                self.start.addItem("Like " + label(kind, oid, ws.value(kind, oid), ws.catalog.ruleset), oid)
            if like is not None:
                self.start.setCurrentIndex(max(0, self.start.findData(str(like))))
        form.addRow("Start from", self.start)
        self.id = QLineEdit()
        form.addRow("Number" if kind in self.life.scheme.int_ids else "Id", self.id)
        self.lay.addLayout(form)
        self.note = QLabel("")
        self.note.setWordWrap(True)
        self.note.setStyleSheet("color: #555")
        self.lay.addWidget(self.note)
        self.finish_layout()
        self.id.textChanged.connect(lambda _: self._validate())
        self.start.currentIndexChanged.connect(lambda _: self._suggest())
        self._suggest()

    def _suggest(self) -> None:
        start = self.start.currentData()
        if self.kind == "setup":
            base = f"{self.scenario.currentData()}-setup"
            self.note.setText("The automatic setup places every formation in its zone, legally (check-setup clean), "
                              "with the defender's fortifications." if start == AUTO_SETUP else
                              "An empty setup: drag the counters onto the board in the setup editor.")
        elif start == BLANK:
            base = ""
            self.note.setText("Fields the schema requires get their simplest value; what is still missing is listed "
                              "in Findings, at its field, until you fill it in.")
        else:
            base = start
            self.note.setText(f"A copy of {self.kind} {start} under a new {'number' if self.kind in self.life.scheme.int_ids else 'id'}: "
                              "it keeps the template's values and references (cards, maps); provenance of the copy "
                              "as a whole: authored.")
        self.id.setText(self.life.suggest_id(self.kind, base))
        self._validate()

    def _validate(self) -> None:
        why = self.life.check_id(self.kind, self.id.text()) if self.id.text().strip() else "give it an id"
        self.problem.setText(why or "")
        self.ok_button().setEnabled(why is None)

    def apply(self) -> str:
        start = self.start.currentData()
        if self.kind == "setup":
            self.result_id = self.life.new_setup(self.scenario.currentData(), self.id.text(), start == AUTO_SETUP)
        else:
            self.result_id = self.life.new_object(self.kind, self.id.text(), None if start == BLANK else start)
        return self.result_id


class RenameDialog(_Dialog):
    """Rename (or renumber) an object; the list shows every reference updated with it."""

    def __init__(self, doc, kind: str, oid: str, parent=None):
        super().__init__(doc, f"Rename {kind} {oid}", parent)
        self.kind, self.oid = kind, str(oid)
        form = QFormLayout()
        form.addRow("Current", QLabel(label(kind, self.oid, doc.ws.value(kind, self.oid), doc.ws.catalog.ruleset)))
        self.id = QLineEdit(self.oid)
        form.addRow("New number" if kind in self.life.scheme.int_ids else "New id", self.id)
        self.lay.addLayout(form)
        self.summary = QLabel("")
        self.lay.addWidget(self.summary)
        self.list = QListWidget()
        self.list.setMinimumHeight(180)
        self.lay.addWidget(self.list, 1)
        self.finish_layout()
        self.preview = None
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(120)
        self._timer.timeout.connect(self._update)
        self.id.textChanged.connect(lambda _: self._timer.start())
        self._update()

    def _update(self) -> None:
        self.list.clear()
        self.preview = None
        new = self.id.text().strip()
        if new == self.oid:
            self.problem.setText("")
            self.summary.setText("Type the new id: every reference to it across the pack follows.")
            self.ok_button().setEnabled(False)
            return
        try:
            self.preview = self.life.rename_preview(self.kind, self.oid, new)
        except LifecycleError as exc:
            self.problem.setText(str(exc))
            self.summary.setText("")
            self.ok_button().setEnabled(False)
            return
        self.problem.setText("")
        n, texts = self.preview.updated, len(self.preview.mentions)
        said = f"{n} reference(s) will be updated" if n else "Nothing else refers to it"
        if texts:
            said += f"; {texts} text(s) mention {self.oid} and are listed, not changed"
        self.summary.setText(said + (":" if n or texts else "."))
        self.list.addItems(self.preview.lines()[1:])
        self.ok_button().setEnabled(True)

    def apply(self) -> str:
        self._update()
        if self.preview is None:
            raise LifecycleError(self.problem.text() or "nothing to rename")
        self.result_id = self.life.rename(self.kind, self.oid, self.preview.new, self.preview)
        return self.result_id


class DeleteDialog(_Dialog):
    """Delete an object: what refers to it; refused, or removed with it when confirmed."""

    def __init__(self, doc, kind: str, oid: str, parent=None):
        super().__init__(doc, f"Delete {kind} {oid}", parent)
        self.kind, self.oid = kind, str(oid)
        self.plan = self.life.delete_plan(kind, self.oid)
        head = QLabel(f"<b>{label(kind, self.oid, doc.ws.value(kind, self.oid), doc.ws.catalog.ruleset)}</b>")
        self.lay.addWidget(head)
        self.list = QListWidget()
        plan = self.plan
        if plan.free:
            self.lay.addWidget(QLabel("Nothing refers to it."))
        else:
            self.lay.addWidget(QLabel(f"{len(plan.references)} reference(s) to it:"))
            for r in plan.references:
                what = "needs it: the delete is refused" if r.drop is None else \
                    "deleted with it" if r.drop == "" else "reference removed" if r.drop == r.pointer else \
                    f"its entry {r.drop.rsplit('/', 2)[-2]}/{r.drop.rsplit('/', 1)[-1]} removed"
                self.list.addItem(f"{r.kind} {r.id} {r.pointer} — {what}")
                self.list.item(self.list.count() - 1).setToolTip(f"a cascade removes {r.drop or 'the object'}"
                                                                 if r.drop is not None else "")
            self.list.setMinimumHeight(160)
            self.lay.addWidget(self.list, 1)
        self.cascade = QRadioButton("Delete it and remove these references" +
                                    (f" (and delete {', '.join(f'{k} {i}' for k, i in plan.deletes)})"
                                     if plan.deletes else ""))
        self.cascade.setChecked(True)
        if plan.references:
            self.lay.addWidget(self.cascade)
        if plan.blockers:
            self.cascade.setEnabled(False)
            self.problem.setText(f"{kind} {oid} cannot be deleted while " + ", ".join(
                sorted({f'{b.kind} {b.id}' for b in plan.blockers})) + " need it: change them first.")
        self.finish_layout()
        self.ok_button().setText("Delete")
        self.ok_button().setEnabled(not plan.blockers)

    def apply(self):
        return self.life.delete(self.kind, self.oid, cascade=bool(self.plan.references) and self.cascade.isChecked())


def run(dialog: QDialog, parent: QWidget | None = None) -> str | None:
    """Show a dialog modally; the id it made (or None when cancelled). The dialog is deleted
    afterwards: it is a child of the explorer, which lives as long as the window."""
    try:
        if dialog.exec() == QDialog.Accepted:
            return getattr(dialog, "result_id", None) or ""
        return None
    finally:
        dialog.deleteLater()


def confirm_rename(ask):
    """For ``PackDocument.confirm_rename``: an id typed into a field or a JSON tree asks first
    (through the window's ``ask(title, text, buttons)``), listing the references it updates."""
    def confirm(preview) -> bool:
        lines = preview.lines()
        refs = "\n".join(lines[1:13]) + ("\n…" if len(lines) > 13 else "")
        text = (f"Rename {preview.kind} {preview.old} to {preview.new}? {preview.updated} reference(s) across the pack "
                "follow" + (f" ({len(preview.mentions)} text(s) naming it are not changed)" if preview.mentions else "")
                + (":\n" + refs if len(lines) > 1 else "."))
        return ask("Rename", text, ["Rename", "Cancel"]) == "Rename"
    return confirm


