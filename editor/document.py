"""The editable pack as the UI sees it: undoable edits, dirty state, saving, autosave.

Every change goes through ``PackDocument.set`` as a ``QUndoCommand`` on one
``QUndoStack``; the stack's clean state is the saved state. ``changed`` tells every view
which object (and field) moved, so forms refresh only what they show.
"""
from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, QStandardPaths, QTimer, Signal
from PySide6.QtGui import QUndoCommand, QUndoStack

from . import jsonptr
from .jsonptr import MISSING
from .workspace import AutosaveSlot, Workspace, discard_orphan

# What an edit does to the provenance of the value it changes (the toolbar's choice).
KEEP = None
CHECKED = {"source": "checked", "note": "checked against my copy of the game"}


def authored(pack_id: str) -> dict:
    """The provenance of new content: made by the designer, for the pack that will hold it."""
    return {"source": "authored", "pack": pack_id} if pack_id else {"source": "authored"}


def autosave_dir() -> Path:
    env = os.environ.get("SANDTABLE_AUTOSAVE_DIR")
    if env:
        return Path(env)
    base = QStandardPaths.writableLocation(QStandardPaths.AppDataLocation) or str(Path.home() / ".sandtable")
    return Path(base) / "autosave"


def provenance_key(pointer: str) -> str:
    return "/provenance/" + jsonptr.escape(pointer)


class SetValue(QUndoCommand):
    """Put a value at a pointer of an object (and, optionally, set that value's provenance)."""

    MERGE_WINDOW = 1.5  # seconds: typing in one field is one undo step

    def __init__(self, doc: "PackDocument", kind: str, oid: str, pointer: str, new: Any,
                 provenance: dict | None, text: str):
        super().__init__(text)
        self.doc, self.kind, self.oid, self.pointer, self.new = doc, kind, str(oid), pointer, new
        self.old = doc.ws.get(kind, oid, pointer, MISSING)
        self.provenance = provenance  # as asked: typing on merges only under the same policy
        self.prov_ptr = None
        self.prov_new = self.prov_old = MISSING
        if provenance is not None and new is not MISSING and pointer and not pointer.startswith("/provenance"):
            value = doc.ws.value(kind, oid) or {}
            if "provenance" in value and current_source(value, pointer) != provenance:
                self.prov_ptr = provenance_key(pointer)
                self.prov_old = doc.ws.get(kind, oid, self.prov_ptr, MISSING)
                self.prov_new = dict(provenance)
        self.stamp = time.monotonic()

    # No id(): Qt never merges these steps. Typing on in one field is merged by
    # PackDocument._typed_on instead, because PySide6 never frees the Python object of a command
    # QUndoStack deletes after merging it (a removal, or a list typed after a number, still
    # merged here and leaked a command and its values).

    def redo(self) -> None:
        self.doc.ws.set(self.kind, self.oid, self.pointer, self.new)
        if self.prov_ptr:
            self.doc.ws.set(self.kind, self.oid, self.prov_ptr, self.prov_new)
        self.doc.changed.emit(self.kind, self.oid, self.pointer)

    def undo(self) -> None:
        if self.prov_ptr:
            self.doc.ws.set(self.kind, self.oid, self.prov_ptr, self.prov_old)
        self.doc.ws.set(self.kind, self.oid, self.pointer, self.old)
        self.doc.changed.emit(self.kind, self.oid, self.pointer)


class RestoreState(QUndoCommand):
    """Replace the whole edited state (crash recovery), as one undoable step."""

    def __init__(self, doc: "PackDocument", state, text: str):
        super().__init__(text)
        self.doc, self.new, self.old = doc, state, doc.ws.state()

    def redo(self) -> None:
        self.doc.ws.restore(self.new)
        self.doc.reset.emit()

    def undo(self) -> None:
        self.doc.ws.restore(self.old)
        self.doc.reset.emit()


def current_source(value: dict, pointer: str) -> dict | None:
    """The provenance entry that covers a field (longest matching pointer)."""
    table = value.get("provenance") or {}
    best = None
    for key in table:
        if jsonptr.is_prefix(key, pointer) and (best is None or len(key) > len(best)):
            best = key
    return table.get(best) if best is not None else None


class PackDocument(QObject):
    changed = Signal(str, str, str)  # kind, id, pointer ("" = the whole object)
    reset = Signal()  # everything may have changed (recovery, reload)
    structure = Signal(list)  # objects were made, renamed or deleted: [(kind, id), ...] touched
    rename_refused = Signal(str)  # why an id edit was not applied
    saved = Signal()
    autosaved = Signal(str)
    autosave_failed = Signal(str)

    # Autosave is debounced: written ``autosave_seconds`` after the last edit, and at the
    # latest AUTOSAVE_MAX_WAIT seconds after the first unsaved one while edits keep coming.
    AUTOSAVE_MAX_WAIT = 10.0
    UNDO_LIMIT = 500  # steps of undo history kept (the oldest go first)

    def __init__(self, ws: Workspace, parent: QObject | None = None, autosave_seconds: float = 2.0):
        super().__init__(parent)
        self.ws = ws
        self.undo_stack = QUndoStack(self)
        # Undo history is kept by design, but not without end: each step holds the values it
        # replaced, and an 8-hour session of edits grew the process without limit.
        self.undo_stack.setUndoLimit(self.UNDO_LIMIT)
        self.edit_provenance: dict | None = self.authored
        self._autosave_generation = -1
        self._generation = 0
        self.changed.connect(self._bump)
        self.reset.connect(self._bump)
        self.autosave_slot = AutosaveSlot(autosave_dir(), ws.path)
        self.autosave_timer = QTimer(self)
        self.autosave_timer.setSingleShot(True)
        self.autosave_timer.timeout.connect(self.autosave)
        self._autosave_delay = 0.0
        self._first_unsaved: float | None = None
        self.set_autosave_interval(autosave_seconds)
        self.changed.connect(self._schedule_autosave)
        self.reset.connect(self._schedule_autosave)
        from .lifecycle import Lifecycle
        self.lifecycle = Lifecycle(self)
        # A change of an object's id (a JSON tree, a form field) is a rename with its
        # references; the window sets this to ask first (it gets the preview, returns bool).
        self.confirm_rename = lambda preview: True

    # --- reading ----------------------------------------------------------------------

    @property
    def authored(self) -> dict:
        """Provenance for what is made here: the opened pack when it is the user's, else the mod
        pack its edits will be saved in (renamed to the mod's id on save as mod pack)."""
        return authored(self.ws.pack_id if self.ws.owned else f"{self.ws.pack_id}-mod")

    def value(self, kind: str, oid: str) -> Any:
        return self.ws.value(kind, oid)

    def get(self, kind: str, oid: str, pointer: str, default: Any = None) -> Any:
        return self.ws.get(kind, oid, pointer, default)

    @property
    def dirty(self) -> bool:
        return not self.undo_stack.isClean()

    @property
    def generation(self) -> int:
        return self._generation

    def _bump(self, *args) -> None:
        self._generation += 1

    # --- editing ----------------------------------------------------------------------

    def set(self, kind: str, oid: str, pointer: str, value: Any, text: str | None = None,
            provenance: dict | None | str = "policy") -> None:
        """Change one value (MISSING removes it), as one undoable step."""
        if self.ws.get(kind, oid, pointer, MISSING) == value and value is not MISSING:
            return
        if self._renames(kind, oid, pointer, value):
            return
        prov = self.edit_provenance if provenance == "policy" else provenance
        label = text or f"Edit {kind} {oid} {pointer or '(whole object)'}"
        if self._typed_on(kind, str(oid), pointer, value, prov):
            return
        self.undo_stack.push(SetValue(self, kind, str(oid), pointer, value, prov, label))

    def _typed_on(self, kind: str, oid: str, pointer: str, value: Any, provenance: dict | None) -> bool:
        """Typing on in one field (SetValue.MERGE_WINDOW): the last step takes the new value.
        Done here rather than by QUndoStack's merge: PySide6 never frees the Python object of a
        command Qt deletes after merging it, so every keystroke leaked a command and the values
        it held (an endurance session's steady growth)."""
        stack = self.undo_stack
        if stack.index() != stack.count() or stack.isClean() or stack.index() == 0:
            return False
        top = stack.command(stack.index() - 1)
        if not isinstance(top, SetValue) or (top.kind, top.oid, top.pointer) != (kind, oid, pointer) \
                or top.provenance != provenance:  # another provenance is a step of its own
            return False
        if time.monotonic() - top.stamp > SetValue.MERGE_WINDOW or isinstance(top.new, (dict, list)) \
                or isinstance(value, (dict, list)) or value is MISSING:
            return False
        top.new, top.stamp = value, time.monotonic()
        top.redo()
        return True

    def _renames(self, kind: str, oid: str, pointer: str, value: Any) -> bool:
        """An edit of the id field (or of the whole object with another id) becomes a rename
        that updates every reference, never a silent change that validation later rejects."""
        dk = self.ws.document_kind(kind)
        if dk is None:
            return False
        if pointer == "/" + dk.id_key:
            new_id = value
        elif pointer == "" and isinstance(value, dict):
            new_id = value.get(dk.id_key)
        else:
            return False
        if new_id is MISSING or new_id is None or str(new_id) == str(oid):
            return False
        from .lifecycle import LifecycleError
        try:
            preview = self.lifecycle.rename_preview(kind, oid, str(new_id))
        except LifecycleError as exc:
            self.rename_refused.emit(str(exc))
            self.changed.emit(kind, str(oid), pointer)  # the field shows the id again
            return True
        if not self.confirm_rename(preview):
            self.changed.emit(kind, str(oid), pointer)
            return True
        self.undo_stack.beginMacro(f"Rename {kind} {oid} to {preview.new}")
        self.lifecycle.rename(kind, str(oid), preview.new, preview)
        if pointer == "":  # the rest of the whole-object edit, under the new id
            rest = {**value, dk.id_key: self.ws.value(kind, preview.new)[dk.id_key]}
            if rest != self.ws.value(kind, preview.new):
                self.undo_stack.push(SetValue(self, kind, preview.new, "", rest, None, f"Edit {kind} {preview.new}"))
        self.undo_stack.endMacro()
        return True

    def set_provenance(self, kind: str, oid: str, pointer: str, entry: dict | None) -> None:
        """Set (or remove, with None) the provenance entry of one field."""
        self.set(kind, oid, provenance_key(pointer), MISSING if entry is None else dict(entry),
                 text=f"Provenance of {kind} {oid} {pointer or '(object)'}", provenance=None)

    # --- saving -----------------------------------------------------------------------

    def save(self, overwrite: bool = False) -> list[str]:
        written = self.ws.save(overwrite=overwrite)  # raises before marking anything clean
        self.undo_stack.setClean()
        self.autosave_slot.clear()
        self.saved.emit()
        return written

    def save_as_mod(self, folder, pack_id=None, name=None):
        result = self.ws.save_as_mod(folder, pack_id, name)
        if result.ok:
            self.autosave_slot.clear()
        return result

    # --- autosave ---------------------------------------------------------------------

    def set_autosave_interval(self, seconds: float) -> None:
        """The autosave delay after the last edit (0: no automatic autosave)."""
        self.autosave_timer.stop()
        self._autosave_delay = float(seconds or 0)

    def _schedule_autosave(self, *args) -> None:
        if self._autosave_delay <= 0:
            return
        now = time.monotonic()
        if self._first_unsaved is None:
            self._first_unsaved = now
        wait = min(self._autosave_delay, max(0.0, self._first_unsaved + self.AUTOSAVE_MAX_WAIT - now))
        self.autosave_timer.start(int(wait * 1000))

    def autosave(self, force: bool = False) -> Path | None:
        """Write the unsaved edits to this editor's own autosave file (never over the pack);
        cleared on save. A failed write (disk full) is reported, never raised."""
        self._first_unsaved = None
        if self._autosave_generation == self._generation and not force:
            return None
        self._autosave_generation = self._generation
        if not self.dirty:
            self.autosave_slot.clear()
            return None
        try:
            path = self.autosave_slot.write(self.ws)
        except OSError as exc:
            self._autosave_generation = -1  # try again at the next edit or save
            self.autosave_failed.emit(f"autosave failed: {exc.strerror or exc}")
            return None
        self.autosaved.emit(str(path))
        return path

    def pending_recovery(self) -> dict | None:
        """The newest autosave left by an editor of this pack that died, reduced to what still
        applies to the files on disk (None when nothing does); ``_file`` names it and
        ``_notes`` says what was left out."""
        for path, payload in self.autosave_slot.orphans():
            offer, notes = self.ws.recoverable(payload)
            if offer.get("docs") or offer.get("foreign") or offer.get("conflicts"):  # conflicts: shown, not dropped
                return {**offer, "_file": str(path), "_notes": notes}
            discard_orphan(path)  # everything in it is older than the files on disk
        return None

    def recover(self, payload: dict) -> None:
        self.undo_stack.push(RestoreState(self, self.ws.recovered_state(payload), "Recover unsaved edits"))
        if payload.get("_file"):
            discard_orphan(Path(payload["_file"]))  # the edits are this editor's now
        self.autosave(force=True)

    def discard_recovery(self, payload: dict | None = None) -> None:
        if payload and payload.get("_file"):
            discard_orphan(Path(payload["_file"]))

    def close(self) -> None:
        """A clean close leaves no autosave (and no lock) behind."""
        self.autosave_timer.stop()
        self.autosave_slot.release()
