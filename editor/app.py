"""The editor's main window: pack explorer, editors in tabs, findings and provenance docks,
quick test games, print; undo/redo, save, save as mod pack, autosave and recovery,
recent packs, shortcuts, and a window layout that is restored on restart."""
from __future__ import annotations

import gc
import os
import sys
import tempfile
import threading
import time
from pathlib import Path

from PySide6.QtCore import QObject, QSettings, Qt, QTimer, QUrl, Signal
from PySide6.QtGui import QAction, QDesktopServices, QKeySequence
from PySide6.QtWidgets import (QApplication, QComboBox, QDialog, QDialogButtonBox, QDockWidget, QFileDialog,
                               QFormLayout, QHBoxLayout, QLabel, QLineEdit, QMainWindow, QMessageBox, QProgressBar,
                               QPushButton, QScrollArea, QTabWidget, QToolBar, QVBoxLayout, QWidget)

from sandtable.rules.catalog import bundled_pack
from sandtable.rules.rulesets import deferring_slow_checks

from . import door, hooks
from .checking import locate
from .context import EditorContext
from .document import CHECKED, PackDocument
from .explorer import Explorer, label
from .findings_dock import FindingsDock
from .forms import form_for
from .provenance_dock import ProvenanceDock
from .quickgame import QuickGamePanel
from .balancelab import BalanceLabPanel
from .packpath import pack_problem  # noqa: F401 - the command line and tests import it from here
from .usertext import internal_error
from .validator import ValidationController
from .workspace import Workspace

APP_NAME = "sandtable editor"
PROVENANCE_POLICIES = [
    ("Edits are: authored by me", "authored"),  # resolved per pack: {"source": "authored", "pack": id}
    ("Edits are: checked against my copy", CHECKED),
    ("Edits are: reconstructed", {"source": "reconstructed", "note": "changed in sandtable edit"}),
    ("Edits keep their provenance", None),
]


def app_settings() -> QSettings:
    path = os.environ.get("SANDTABLE_SETTINGS")
    if path:
        return QSettings(path, QSettings.IniFormat)
    return QSettings("sandtable", "editor")


class _PrintBridge(QObject):
    done = Signal(object)


class _LoadBridge(QObject):
    loaded = Signal(object, object)  # the workspace read on the loading thread, or None and why


class ModPackDialog(QDialog):
    """Where to save the edits as a mod pack: a new folder, or an existing mod pack."""

    def __init__(self, ws: Workspace, parent=None):
        super().__init__(parent)
        self.setWindowTitle("Save as mod pack")
        form = QFormLayout(self)
        note = QLabel(f"Your changes to {ws.pack_id} go into a mod pack as explicit overrides, each guarded by a "
                      f"test of the base value; {ws.pack_id} itself is not changed.")
        note.setWordWrap(True)
        form.addRow(note)
        row = QHBoxLayout()
        self.folder = QLineEdit(str(suggested_mod_folder(ws)))
        browse = QPushButton("Choose…")
        browse.clicked.connect(self._browse)
        row.addWidget(self.folder, 1)
        row.addWidget(browse)
        form.addRow("Mod pack folder", row)
        self.pack_id = QLineEdit(f"{ws.pack_id}-mod")
        self.name = QLineEdit(f"My changes to {ws.pack.manifest.get('name', ws.pack_id) if ws.pack else ws.pack_id}")
        form.addRow("Pack id (new packs)", self.pack_id)
        form.addRow("Name (new packs)", self.name)
        buttons = QDialogButtonBox(QDialogButtonBox.Save | QDialogButtonBox.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        form.addRow(buttons)
        self.resize(560, 200)

    def _browse(self) -> None:
        folder = QFileDialog.getExistingDirectory(self, "Mod pack folder (new or existing)", self.folder.text())
        if folder:
            self.folder.setText(folder)
            self.pack_id.setText(Path(folder).name)


class MainWindow(QMainWindow):
    def __init__(self, pack: str | Path | None = None, search: list[Path] | None = None,
                 settings: QSettings | None = None, autosave_seconds: float | None = None,
                 owned: bool | None = None, background: bool = False):
        """``background``: show the window at once and read the pack on a thread (``sandtable
        edit``); otherwise the pack is open when the constructor returns (scripts, tests)."""
        super().__init__()
        self.t0 = time.perf_counter()
        self.settings = settings or app_settings()
        self.autosave_seconds = autosave_seconds if autosave_seconds is not None else \
            float(self.settings.value("autosave_delay_seconds", 2))
        self.ask = self._ask  # tests replace it to answer dialogs
        self.setObjectName("MainWindow")
        self.tabs = QTabWidget()
        self.tabs.setTabsClosable(True)
        self.tabs.setMovable(True)
        self.tabs.setDocumentMode(True)
        self.tabs.tabCloseRequested.connect(self.close_tab)
        self.tabs.currentChanged.connect(self._tab_changed)
        self.setCentralWidget(self.tabs)
        self.docks: dict[str, QDockWidget] = {}
        for name, title, area in (("explorer", "Pack explorer", Qt.LeftDockWidgetArea),
                                  ("findings", "Findings", Qt.BottomDockWidgetArea),
                                  ("provenance", "Provenance", Qt.BottomDockWidgetArea),
                                  ("quickgame", "Quick test game", Qt.RightDockWidgetArea),
                                  ("balancelab", "Balance lab", Qt.RightDockWidgetArea)):
            dock = QDockWidget(title, self)
            dock.setObjectName(f"dock-{name}")
            self.addDockWidget(area, dock)
            self.docks[name] = dock
        self.tabifyDockWidget(self.docks["findings"], self.docks["provenance"])
        self.docks["quickgame"].hide()
        self.docks["balancelab"].hide()
        self.counts = QLabel("")
        self.validating = QLabel("")
        self.statusBar().addPermanentWidget(self.validating)
        self.statusBar().addPermanentWidget(self.counts)
        self.doc: PackDocument | None = None
        self._balancelab = None
        self.docks["balancelab"].visibilityChanged.connect(self._balancelab_shown)
        self._print_thread: threading.Thread | None = None
        self._print_bridge = _PrintBridge()
        self._print_bridge.done.connect(self._printed)
        self.last_print: dict | None = None
        self.validator: ValidationController | None = None
        self.forms: dict[tuple[str, str], QWidget] = {}
        self.bulk: dict[str, QWidget] = {}  # bulk-edit grids by object kind
        self._build_actions()
        self.resize(first_size(self.screen().availableGeometry().size() if self.screen() else None))
        self.restore_layout()
        self.loaded_seconds: float | None = None
        self.switching = False  # a mod pack just saved being opened on a thread (switch_to)
        if background:
            self._load_in_background(Path(pack) if pack else bundled_pack(), search, owned)
        else:
            self.load_pack(Path(pack) if pack else bundled_pack(), search=search, owned=owned)
            self.loaded_seconds = time.perf_counter() - self.t0
        self.ready_seconds = time.perf_counter() - self.t0

    def _load_in_background(self, path: Path, search, owned) -> None:
        """The window shows at once with a progress bar; the pack is read and checked on a
        thread (most of the opening time), then the views are made on the UI thread."""
        page = QWidget()
        lay = QVBoxLayout(page)
        lay.addStretch(1)
        self.loading_label = QLabel(f"Opening {path.name}: reading and checking its documents…")
        self.loading_label.setAlignment(Qt.AlignCenter)
        lay.addWidget(self.loading_label)
        bar = QProgressBar()
        bar.setRange(0, 0)  # busy: the reading has no steps worth counting
        bar.setMaximumWidth(420)
        lay.addWidget(bar, 0, Qt.AlignHCenter)
        lay.addStretch(2)
        self.tabs.addTab(page, "Opening…")
        self.tabs.setTabsClosable(False)
        for w in (self.menuBar(), *self.findChildren(QToolBar)):
            w.setEnabled(False)  # nothing to save, print or undo until the pack is open
        self._load_bridge = _LoadBridge()
        self._load_bridge.loaded.connect(lambda ws, why: self._loaded(path, search, owned, ws, why))
        sys.setswitchinterval(0.001)  # the UI thread keeps painting while the thread reads

        def work():
            try:
                with deferring_slow_checks():
                    ws = Workspace(path, search=list(search or []), owned=owned)
                self._load_bridge.loaded.emit(ws, None)
            except Exception as exc:  # noqa: BLE001 - said in the window, never a traceback
                self._load_bridge.loaded.emit(None, internal_error("opening the pack", exc))
        self._loader = threading.Thread(target=work, name="sandtable-open", daemon=True)
        self._loader.start()

    def _loaded(self, path: Path, search, owned, ws, why) -> None:
        self._loader = None
        if getattr(self, "_closed", False):
            return  # closed while the pack was read: nothing to show it in
        if ws is None:
            self.loading_label.setText(f"{path} could not be opened: {why}")
            self.menuBar().setEnabled(True)
            return
        self.tabs.setTabsClosable(True)
        self.load_pack(path, search=search, owned=owned, workspace=ws)

    def _views_open(self) -> None:
        for w in (self.menuBar(), *self.findChildren(QToolBar)):
            w.setEnabled(True)
        self.loaded_seconds = time.perf_counter() - self.t0

    # --- packs ------------------------------------------------------------------------

    def load_pack(self, path: Path, search: list[Path] | None = None, owned: bool | None = None,
                  workspace: Workspace | None = None) -> None:
        first = self.doc is None
        if self.doc is not None:
            self.validator.shutdown()
            self.quickgame.shutdown()
            if self._balancelab is not None:
                self._balancelab.shutdown()
            self.doc.close()
            self.doc.changed.disconnect()
            self.doc.reset.disconnect()
            self.doc.deleteLater()
            self.validator.debounce.stop()
            self.validator.deleteLater()
        for i in reversed(range(self.tabs.count())):
            w = self.tabs.widget(i)
            self.tabs.removeTab(i)
            w.deleteLater()
        self.forms.clear()
        self.bulk.clear()
        self.search_paths = list(search or [])
        ws = workspace
        if ws is None:
            with deferring_slow_checks():  # the validator adds them in the background right after
                ws = Workspace(path, search=self.search_paths, owned=owned)
        self.ws = ws
        self.doc = PackDocument(ws, self, autosave_seconds=self.autosave_seconds)
        self._policy_changed(self.policy.currentIndex())
        self.ctx = EditorContext(self.doc, open_object=self.open_object, status=self.statusBar().showMessage,
                                 show_provenance=self.act_marks.isChecked())
        self.validator = ValidationController(self.doc, parent=self)
        self.validator.started.connect(lambda: self.validating.setText("validating…"))
        self.validator.finished.connect(self._validated)
        self.explorer = Explorer(self.ctx)
        self.explorer.activated.connect(lambda k, i: self.open_object(k, i, ""))
        self.docks["explorer"].setWidget(self.explorer)
        if workspace is not None:  # opened in the background: the explorer paints, then the rest
            QTimer.singleShot(0, self, lambda: self._open_views(path, workspace, first))
        else:
            self._open_views(path, workspace, first)

    def _open_views(self, path: Path, workspace, first: bool) -> None:
        """The second half of opening a pack: docks, findings, title; then the full check."""
        ws = self.ws
        self.findings = FindingsDock()
        self.findings.jump.connect(self.open_object)
        self.docks["findings"].setWidget(self.findings)
        self.provenance = ProvenanceDock(self.ctx)
        self.provenance.jump.connect(self.open_object)
        self.docks["provenance"].setWidget(self.provenance)
        self.provenance.set_on_screen(not self.docks["provenance"].visibleRegion().isEmpty())
        self.docks["provenance"].visibilityChanged.connect(self.provenance.set_on_screen)
        self.quickgame = QuickGamePanel(self.ctx, self.current_catalog)
        self.docks["quickgame"].setWidget(dock_scroll(self.quickgame))
        # The Balance lab imports the game engine (about 1 s): it is made when first shown.
        self._balancelab = None
        if self.docks["balancelab"].isVisible():
            self.balancelab  # noqa: B018 - shown by the restored layout: make it now
        self.ctx.extras["sweep_value"] = self.sweep_value  # forms offer "Sweep this value…" on right-click
        self._offer_ruleset_parts()
        self._wire_undo()
        self.doc.undo_stack.cleanChanged.connect(self._update_title)
        self.doc.changed.connect(self._retitle)
        self.doc.reset.connect(lambda: [self._retitle(k, i, "") for k, i in list(self.forms)])
        self.doc.saved.connect(self.explorer.mark_saved)
        self.doc.autosaved.connect(lambda p: self.statusBar().showMessage(f"autosaved to {p}", 3000))
        self.doc.autosave_failed.connect(lambda m: self.statusBar().showMessage(m, 10000))
        self.set_findings(locate(ws.catalog))
        self.docks["findings"].raise_()
        self._update_title()
        self._remember_recent(path)
        if first:  # at start: a dead editor's unsaved work in another pack is said, not forgotten
            QTimer.singleShot(0, self, self._offer_other_packs)
        self.act_save.setToolTip("Save the pack" if ws.owned else
                                 f"{ws.pack_id} is not yours to change: Save writes a mod pack")
        self.statusBar().showMessage(f"opened {ws.pack_id} ({path})" + ("" if ws.owned else " — read-only: "
                                     "edits are saved as a mod pack"), 8000)
        # What a pack's opening made lives as long as the pack is open: moved out of the cyclic
        # garbage collector's sight, a full collection (triggered by any validation's
        # allocations, on whichever thread) no longer stops the UI for 100 ms walking it.
        # (The previous pack's objects are unfrozen first, and again on close, so they can go.)
        gc.unfreeze()
        if not first:  # nothing of an earlier pack to free at the first opening (0.1 s saved)
            gc.collect()
        gc.freeze()
        if workspace is not None:  # opened in the background: the new views paint first
            QTimer.singleShot(60, self, self.validator.run_now)
            self._views_open()
        else:
            self.validator.run_now()  # the complete findings (the setup rules too), off the UI thread
        payload = self.doc.pending_recovery()
        if payload is not None:
            QTimer.singleShot(0, self, lambda: self._offer_recovery(payload))

    def _offer_recovery(self, payload: dict) -> None:
        when = time.strftime("%Y-%m-%d %H:%M", time.localtime(payload.get("saved_at", 0)))
        payload = self._resolve_conflicts(payload, when)
        n = len(payload.get("docs", {})) + len(payload.get("foreign", []))
        if not n:
            if not payload.get("conflicts"):  # all settled above; a copy that failed keeps the autosave
                self.doc.discard_recovery(payload)
            return
        answer = self.ask("Recover unsaved edits?",
                          f"An editor of {self.ws.pack_id} was closed without saving. Unsaved edits from {when} "
                          f"({n} document(s) or object(s)) were kept. Recover them?",
                          ["Recover", "Discard"])
        if answer == "Recover":
            self.doc.recover(payload)
            self.statusBar().showMessage("recovered the unsaved edits (Undo takes them back)", 8000)
        else:
            self.doc.discard_recovery(payload)
        nxt = self.doc.pending_recovery()  # several editors may have died with edits
        if nxt is not None and nxt.get("_file") != payload.get("_file"):
            QTimer.singleShot(0, self, lambda: self._offer_recovery(nxt))

    def _resolve_conflicts(self, payload: dict, when: str) -> dict:
        """Unsaved edits of documents whose files changed on disk since: shown side by side with
        the file, and the user chooses (use them, save them as a copy beside the pack, keep the
        file). Returns the payload with the edits to recover."""
        conflicts = payload.get("conflicts") or {}
        if not conflicts:
            return payload
        lines = [line for rel, value in conflicts.items() for line in self.ws.side_by_side(rel, value)]
        answer = self.ask("Unsaved edits conflict with the files on disk",
                          f"Unsaved edits from {when} are to documents changed on disk since "
                          f"({', '.join(conflicts)}):\n" + "\n".join(lines[:20]) + ("\n…" if len(lines) > 20 else "")
                          + "\n\nUse my edits (over the files' new content, unsaved until you save), save my edits "
                          "as a copy beside the pack, or keep the files on disk?",
                          ["Use my edits", "Save my edits as a copy", "Keep the files on disk"])
        if answer == "Use my edits":
            return {**payload, "docs": {**payload.get("docs", {}), **conflicts}, "conflicts": {}}
        if answer == "Save my edits as a copy":
            try:
                folder = self.ws.save_recovered_copy(conflicts)
                self.statusBar().showMessage(f"your unsaved edits were written to {folder}", 15000)
            except OSError as exc:
                self.statusBar().showMessage(f"could not write the copy of your edits: {exc}", 15000)
                return payload  # kept: offered again next time
        return {**payload, "conflicts": {}}

    def current_catalog(self):
        v = self.validator
        if v is not None and self.doc is not None and self.doc.generation == 0 and v.last is None:
            return self.ws.catalog  # nothing edited yet: the catalog read at open is current
        if v is None or v.busy or v.debounce.isActive():
            return None
        if v.last is not None and getattr(v.last, "catalog", None) is not None:
            return v.last.catalog
        return self.ws.catalog

    # --- actions ----------------------------------------------------------------------

    def _build_actions(self) -> None:
        mb = self.menuBar()
        fm = mb.addMenu("&File")
        self.act_open = self._action(fm, "&Open pack folder…", QKeySequence.Open, self.open_folder_dialog)
        self._action(fm, "Open pack &zip…", "Ctrl+Shift+O", self.open_zip_dialog)
        self.recent_menu = fm.addMenu("Open &recent")
        fm.addSeparator()
        self.act_save = self._action(fm, "&Save", QKeySequence.Save, self.save)
        self.act_save_mod = self._action(fm, "Save as &mod pack…", "Ctrl+Shift+S", self.save_as_mod_dialog)
        fm.addSeparator()
        self.act_print = self._action(fm, "&Print the selection…", QKeySequence.Print, self.print_current)
        fm.addSeparator()
        self._action(fm, "&Quit", QKeySequence.Quit, self.close)
        self.edit_menu = mb.addMenu("&Edit")
        self.undo_action = QAction("&Undo", self)
        self.undo_action.setShortcut(QKeySequence.Undo)
        self.redo_action = QAction("&Redo", self)
        self.redo_action.setShortcuts([QKeySequence.Redo, QKeySequence("Ctrl+Y")])
        self.edit_menu.addAction(self.undo_action)
        self.edit_menu.addAction(self.redo_action)
        self.edit_menu.addSeparator()
        self._action(self.edit_menu, "&Find in pack", QKeySequence.Find, self.focus_search)
        vm = mb.addMenu("&View")
        self.view_menu = vm
        for name, dock in self.docks.items():
            vm.addAction(dock.toggleViewAction())
        vm.addSeparator()
        self.act_marks = QAction("Mark &reconstructed values", self, checkable=True, checked=True)
        self.act_marks.toggled.connect(self._toggle_marks)
        vm.addAction(self.act_marks)
        self._action(vm, "Reset &layout", None, self.reset_layout)
        tm = mb.addMenu("&Tools")
        self._action(tm, "&Validate now", "F5", lambda: self.validator and self.validator.run_now())
        self._action(tm, "&Next finding", "F8", self.next_finding)
        self._action(tm, "&Quick test game", "Ctrl+T", self.quick_game)
        self._action(tm, "&Balance lab (sweep values)", None, self.balance_lab)
        tm.addSeparator()
        self.tools_menu = tm
        self._bulk_actions: list[QAction] = []  # the grids the pack's ruleset offers (set when it opens)
        self._bulk_anchor = tm.addSeparator()
        self._action(tm, "&Close editor tab", QKeySequence.Close, lambda: self.close_tab(self.tabs.currentIndex()))
        tb = QToolBar("Main")
        tb.setObjectName("toolbar-main")
        self.addToolBar(tb)
        for a in (self.act_open, self.act_save, self.act_save_mod, self.undo_action, self.redo_action, self.act_print):
            tb.addAction(a)
        tb.addSeparator()
        self.policy = QComboBox()
        for text, _ in PROVENANCE_POLICIES:
            self.policy.addItem(text)
        self.policy.setToolTip("The provenance each edited value gets (set it per value with the badge beside a field)")
        self.policy.currentIndexChanged.connect(self._policy_changed)
        tb.addWidget(self.policy)

    def _offer_ruleset_parts(self) -> None:
        """The Tools menu's grids and the docks of the pack's ruleset's own panels, as its editor
        contribution declares them (another pack's are taken away)."""
        for a in self._bulk_actions:
            self.tools_menu.removeAction(a)
        self._bulk_actions = []
        ruleset = self.ws.catalog.ruleset
        for kind, title in door.bulk_titles(ruleset).items():
            what = title[4:] if title.startswith("All ") else title
            a = QAction(f"Bulk edit &{what} (grid, CSV)", self)
            a.triggered.connect(lambda checked=False, k=kind: self.open_bulk(k))
            self.tools_menu.insertAction(self._bulk_anchor, a)
            self._bulk_actions.append(a)
        for name in [n for n in self.docks if n.startswith("panel:")]:
            dock = self.docks.pop(name)
            self.view_menu.removeAction(dock.toggleViewAction())
            self.removeDockWidget(dock)
            dock.deleteLater()
        contribution = door.contribution(ruleset)
        for panel in contribution.panels if contribution is not None else ():
            dock = QDockWidget(panel.title, self)
            dock.setObjectName(f"dock-panel-{panel.name}")
            dock.setWidget(panel.widget.load()(self.ctx))
            self.addDockWidget(Qt.RightDockWidgetArea, dock)
            self.docks[f"panel:{panel.name}"] = dock
            self.view_menu.addAction(dock.toggleViewAction())

    def _action(self, menu, text, shortcut, slot) -> QAction:
        a = QAction(text, self)
        if shortcut is not None:
            a.setShortcut(QKeySequence(shortcut) if isinstance(shortcut, str) else shortcut)
        a.triggered.connect(lambda checked=False: slot())
        menu.addAction(a)
        return a

    def _wire_undo(self) -> None:
        stack = self.doc.undo_stack
        for a in (self.undo_action, self.redo_action):
            try:
                a.triggered.disconnect()
            except (RuntimeError, TypeError):
                pass
        self.undo_action.triggered.connect(stack.undo)
        self.redo_action.triggered.connect(stack.redo)
        stack.canUndoChanged.connect(self.undo_action.setEnabled)
        stack.canRedoChanged.connect(self.redo_action.setEnabled)
        stack.undoTextChanged.connect(self._undo_text)
        stack.redoTextChanged.connect(self._redo_text)
        self.undo_action.setEnabled(False)
        self.redo_action.setEnabled(False)

    def _undo_text(self, text: str) -> None:
        """The Edit menu names the step ("Undo Paint zone …"); the toolbar keeps its short word."""
        self.undo_action.setText(f"&Undo {text}" if text else "&Undo")
        self.undo_action.setIconText("Undo")
        self.undo_action.setToolTip(f"Undo {text}" if text else "Undo")

    def _redo_text(self, text: str) -> None:
        self.redo_action.setText(f"&Redo {text}" if text else "&Redo")
        self.redo_action.setIconText("Redo")
        self.redo_action.setToolTip(f"Redo {text}" if text else "Redo")

    def _policy_changed(self, i: int) -> None:
        policy = PROVENANCE_POLICIES[i][1]
        self.doc.edit_provenance = self.doc.authored if policy == "authored" else policy

    def _toggle_marks(self, on: bool) -> None:
        if self.doc is None:
            return
        self.ctx.show_provenance = on
        for form in self.forms.values():
            form.reload()

    # --- editors ----------------------------------------------------------------------

    def open_object(self, kind: str, oid: str, pointer: str = "") -> QWidget | None:
        oid = str(oid)
        if not self.ws.exists(kind, oid):
            self.statusBar().showMessage(f"{kind} {oid} is not in the loaded packs", 5000)
            return None
        key = (kind, oid)
        form = self.forms.get(key)
        if form is None:
            form = form_for(self.ctx, kind, oid)
            fit_form(form)
            self.forms[key] = form
            if hasattr(form, "show_findings"):  # a scenario's tab titles count their findings
                form.show_findings(self.findings.model.rows)
            self.tabs.addTab(form, tab_title(kind, oid, self.ws.value(kind, oid), self.ws.catalog.ruleset))
            self.tabs.setTabToolTip(self.tabs.indexOf(form), f"{kind} {oid}")
        self.tabs.setCurrentWidget(form)
        self.explorer.select(kind, oid)
        if pointer:
            QTimer.singleShot(0, form, lambda: form.focus_pointer(pointer))
        return form

    def open_bulk(self, kind: str) -> QWidget | None:
        """The grid of every object of a kind (unit types; formation cards x year variants)."""
        grid = self.bulk.get(kind)
        if grid is None:
            make = door.bulk_grid(self.ws.catalog.ruleset, kind) if kind in self.ws.kinds() else None
            if make is None:
                self.statusBar().showMessage(f"no bulk grid for {kind} in this pack", 5000)
                return None
            grid = make(self.ctx, kind)
            grid.tell = lambda title, text: self.ask(title, text, ["OK"])
            grid.set_findings(self.findings.model.rows)
            self.bulk[kind] = grid
            self.tabs.addTab(grid, grid.title)
        self.tabs.setCurrentWidget(grid)
        return grid

    def close_tab(self, index: int) -> None:
        if index < 0:
            return
        w = self.tabs.widget(index)
        for k, g in list(self.bulk.items()):
            if g is w:
                del self.bulk[k]
        for k, f in list(self.forms.items()):
            if f is w:
                del self.forms[k]
        self.tabs.removeTab(index)
        w.deleteLater()

    def current_object(self) -> tuple[str, str] | None:
        w = self.tabs.currentWidget()
        return (w.kind, w.oid) if w is not None and hasattr(w, "kind") else None

    def _retitle(self, kind: str, oid: str, pointer: str) -> None:
        """A tab's title follows its object's name, number or designation as they are typed."""
        form = self.forms.get((kind, str(oid)))
        if form is not None and self.ws.exists(kind, oid):
            i = self.tabs.indexOf(form)
            title = tab_title(kind, oid, self.ws.value(kind, oid), self.ws.catalog.ruleset)
            if i >= 0 and self.tabs.tabText(i) != title:
                self.tabs.setTabText(i, title)

    def _tab_changed(self, _) -> None:
        cur = self.current_object()
        if hasattr(self, "findings"):
            self.findings.set_current(*(cur or (None, None)))
        if cur is not None and cur[0] == "scenario" and hasattr(self, "quickgame"):
            self.quickgame.set_scenario(cur[1])  # a quick game plays the scenario being edited

    def focus_search(self) -> None:
        self.docks["explorer"].show()
        self.explorer.search.setFocus()
        self.explorer.search.selectAll()

    # --- validation -------------------------------------------------------------------

    def _validated(self, result) -> None:
        self.validating.setText(f"checked in {result.seconds * 1000:.0f} ms")
        if getattr(result, "error", None):
            self.statusBar().showMessage(f"validation failed: {result.error}")
            return
        if result.generation != self.doc.generation:
            return  # an edit came in meanwhile: a newer result follows
        self.set_findings(result.findings)

    def set_findings(self, rows) -> None:
        self.findings.set_findings(rows)
        self.explorer.show_problems(rows)  # incomplete objects are marked where they are listed
        for form in self.forms.values():
            if hasattr(form, "show_findings"):
                form.show_findings(rows)
        for grid in getattr(self, "bulk", {}).values():
            grid.set_findings(rows)
        errors = sum(1 for r in rows if r.finding.severity == 2)
        warnings = sum(1 for r in rows if r.finding.severity == 1)
        self.counts.setText(f"{errors} error(s), {warnings} warning(s)" if rows else "valid")
        self.counts.setStyleSheet("color: #c62828; font-weight: bold" if errors else
                                  "color: #ef6c00" if warnings else "color: #2e7d32")
        self.docks["findings"].setWindowTitle(f"Findings ({errors} errors, {warnings} warnings)")

    def next_finding(self) -> None:
        rows = self.findings.visible_rows()
        if not rows:
            return
        self._finding_index = (getattr(self, "_finding_index", -1) + 1) % len(rows)
        loc = rows[self._finding_index]
        if loc.kind:
            self.open_object(loc.kind, loc.id, loc.pointer)

    # --- saving -----------------------------------------------------------------------

    def save(self) -> bool:
        self._flush_editors()
        if not self.ws.owned:
            self.statusBar().showMessage(f"{self.ws.pack_id} is not yours to change: saving as a mod pack", 5000)
            return self.save_as_mod_dialog()
        overwrite = False
        clash = self.ws.external_conflicts()
        if clash:
            merged = self.ws.merge_external(clash)
            answer = self.ask("Changed on disk",
                              f"{', '.join(clash)} changed on disk since you opened {self.ws.pack_id} (another editor "
                              "or program saved it). " + ("Your edits and theirs touch different values: Merge keeps "
                                                          "both. " if merged is not None else
                                                          "Your edits and theirs change the same values. ") +
                              "Overwrite replaces their changes with yours; Reload drops your edits and reads the "
                              "files again.", (["Merge"] if merged is not None else []) + ["Overwrite", "Reload", "Cancel"])
            if answer == "Merge":
                self.ws.adopt_merge(merged)
                self.doc.reset.emit()
            elif answer == "Overwrite":
                overwrite = True
            elif answer == "Reload":
                self.doc.undo_stack.setClean()
                self.load_pack(self.ws.path, search=self.search_paths, owned=self.ws.owned)
                return False
            else:
                return False
        try:
            written = self.doc.save(overwrite=overwrite)
        except OSError as exc:
            return self._save_failed(exc)
        self.statusBar().showMessage(f"saved {len(written)} file(s)" if written else "nothing to save", 5000)
        self._update_title()
        return True

    def _save_failed(self, exc: OSError) -> bool:
        """A save that could not write (disk full, permissions): nothing is lost — the window
        keeps the edits (still unsaved) and they are autosaved at once."""
        self.doc.autosave(force=True)
        reason = exc.strerror or str(exc)
        where = f" ({exc.filename})" if getattr(exc, "filename", None) else ""
        message = (f"Could not save {self.ws.pack_id}: {reason}{where}. Your changes are kept in the editor and in "
                   "its autosave; free some space (or fix the permissions) and save again, or save as a mod pack "
                   "elsewhere.")
        self.ask("Save failed", message, ["OK"])
        self.statusBar().showMessage(f"save failed: {reason}", 15000)
        self._update_title()
        return False

    def save_as_mod_dialog(self) -> bool:
        self._flush_editors()
        dlg = ModPackDialog(self.ws, self)
        accepted = dlg.exec() == QDialog.Accepted
        folder, pack_id, name = dlg.folder.text(), dlg.pack_id.text().strip(), dlg.name.text().strip()
        dlg.deleteLater()  # a child of the window: each use would keep one otherwise
        if not accepted:
            return False
        result = self.save_as_mod(Path(folder), pack_id or None, name or None, wait=False)
        return bool(result is not None and result.ok)

    def save_as_mod(self, folder: Path, pack_id: str | None = None, name: str | None = None, reopen: bool = True,
                    wait: bool = True):
        """``wait``: the mod pack is open for editing when this returns; otherwise it is read on
        a thread (0.2 s) and the window takes no input meanwhile (the Save as dialog)."""
        folder = Path(folder)
        if inside_installation(folder):
            message = (f"{folder} is inside sandtable's installation, which an update replaces: choose a folder of "
                       f"your own (for example {suggested_mod_folder(self.ws)}).")
            self.ask("Mod pack not saved", message, ["OK"])
            self.statusBar().showMessage("mod pack not saved: " + message, 10000)
            return None
        try:
            result = self.doc.save_as_mod(folder, pack_id, name)
        except OSError as exc:
            self._save_failed(exc)
            return None
        if not result.ok:
            lines = [f.line_text() for f in result.findings]
            self.ask("Mod pack not saved", f"{folder} is not a mod pack the edits can be added to; nothing was "
                     "written:\n" + "\n".join(lines[:12]) + ("\n…" if len(lines) > 12 else ""), ["OK"])
            self.statusBar().showMessage(f"mod pack not saved: {len(lines)} problem(s) in {folder}", 10000)
            return result
        msg = f"saved {len(result.targets)} change(s) as overrides in mod pack {result.pack_id} ({folder})"
        if result.conflicts:
            msg += "; " + "; ".join(result.conflicts)
        if reopen:
            base_parent = self.ws.path.resolve().parent
            search = list(self.search_paths) + [base_parent]
            self.switch_to(Path(folder), search, wait=wait)
        self.statusBar().showMessage(msg, 10000)
        return result

    def switch_to(self, folder: Path, search: list[Path], wait: bool = True) -> None:
        def read():
            with deferring_slow_checks():  # the validator adds them in the background right after
                return Workspace(folder, search=search)
        if wait:
            self._switch(folder, search, read())
            return
        self.switching = True
        self.setEnabled(False)
        if not hasattr(self, "_switch_bridge"):
            self._switch_bridge = _LoadBridge()
            self._switch_bridge.loaded.connect(lambda ws, args: self._switched(ws, *args))

        def work():
            try:
                ws, why = read(), None
            except Exception as exc:  # noqa: BLE001 - said in the status bar
                ws, why = None, internal_error("opening the mod pack", exc)
            self._switch_bridge.loaded.emit(ws, (folder, search, why))
        threading.Thread(target=work, name="sandtable-switch", daemon=True).start()

    def _switched(self, ws, folder, search, why) -> None:
        if ws is None:
            self._switch_done()
            self.statusBar().showMessage(f"saved, but {folder} could not be opened: {why}", 10000)
            return
        self._switch(folder, search, ws, staged=True)

    def _switch_done(self) -> None:
        self.switching = False
        self.setEnabled(True)

    def _switch(self, folder: Path, search: list[Path], ws, staged: bool = False) -> None:
        """Go on editing in the mod pack just saved, keeping the open tabs and the undo history.

        The base pack's objects are foreign objects of the mod pack, so every recorded edit
        (a SetValue at a pointer of an object) undoes and redoes the same way there, as an
        override of the mod. Other recorded steps (a recovery, which restores a whole state)
        only make sense in the pack they were made in: then the history starts afresh."""
        from .checking import Checker
        from .document import SetValue, autosave_dir
        from .workspace import AutosaveSlot
        if ws.pack is None or not ws.owned:
            self.load_pack(folder, search=search)
            if staged:
                self._switch_done()
            return
        stack = self.doc.undo_stack
        if not all(isinstance(stack.command(i), SetValue) for i in range(stack.count())):
            stack.clear()
        self.doc.autosave_slot.release()
        self.doc.ws = ws
        self.doc.autosave_slot = AutosaveSlot(autosave_dir(), ws.path)
        self.ws = ws
        self.search_paths = list(search)
        self.validator.checker = Checker(ws)
        self._policy_changed(self.policy.currentIndex())  # authored now names the mod pack
        stack.setClean()
        self.explorer.rebuilding = True  # rebuilt below: no restyling of the old tree first
        self.doc.reset.emit()

        def rest():
            self.explorer.rebuilding = False
            self.explorer.build()
            self.set_findings(locate(ws.catalog))
            self._update_title()
            self._remember_recent(folder)
            self.act_save.setToolTip("Save the pack")
        if staged:  # the open views refresh in one turn of the event loop, the explorer in the next
            QTimer.singleShot(0, self, lambda: (rest(), self._switch_done()))
        else:
            rest()

    def _flush_editors(self) -> None:
        """Commit a field still being typed in (texts commit when they lose focus)."""
        w = QApplication.focusWidget()
        if w is not None and hasattr(w, "flush"):
            w.flush()
        elif w is not None and hasattr(w, "editingFinished"):
            w.editingFinished.emit()

    def _update_title(self, *args) -> None:
        ws = self.ws
        self.setWindowTitle(f"{ws.pack_id} {ws.pack.version if ws.pack else ''}"
                            f"{'' if ws.owned else ' (read-only: saves as a mod pack)'} — {APP_NAME}[*]")
        self.setWindowModified(self.doc.dirty)

    # --- print and quick games ---------------------------------------------------------

    def print_current(self) -> str:
        """Every print-kit document for the current object, written on a worker thread; the
        PDFs open in the system viewer (this Qt build has no PDF preview widget)."""
        cur = self.current_object()
        ok, message = hooks.print_kit_status()
        if not ok:
            self.last_print = {"message": message, "files": []}
            self.ask("Print", message, ["OK"])
            self.statusBar().showMessage(message, 10000)
            return message
        if cur is None:
            message = "Open the object to print (a scenario, card, unit type, raid card or map configuration) first."
            self.statusBar().showMessage(message, 6000)
            return message
        catalog = self.current_catalog()
        if catalog is None:
            return "validation is still running; try again in a moment"
        if self._print_thread is not None:
            return "already printing"
        folder = Path(self.settings.value("print_folder", str(Path(tempfile.gettempdir()) / "sandtable-print")))
        folder = folder / self.ws.pack_id
        self.last_print = None
        self.statusBar().showMessage(f"printing {cur[0]} {cur[1]}…")

        def work():
            try:
                files = hooks.print_documents(catalog, cur[0], cur[1], folder)
                out = {"message": f"wrote {len(files)} document(s) to {folder}", "files": files}
            except (ValueError, LookupError, RuntimeError, OSError) as exc:  # the kit's own messages, said for users
                reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
                out = {"message": f"printing failed: {reason}", "files": [], "error": True}
            except Exception as exc:  # noqa: BLE001 - a bug: said as one, the details on stderr
                from .usertext import internal_error
                out = {"message": internal_error("printing", exc), "files": [], "error": True}
            try:
                self._print_bridge.done.emit(out)
            except RuntimeError:
                pass
        self._print_thread = threading.Thread(target=work, name="sandtable-print", daemon=True)
        self._print_thread.start()
        return "printing"

    def _printed(self, out: dict) -> None:
        self._print_thread = None
        self.last_print = out
        if out.get("error"):
            self.ask("Print", out["message"], ["OK"])
        elif not os.environ.get("SANDTABLE_NO_VIEWER"):
            for f in out["files"]:
                QDesktopServices.openUrl(QUrl.fromLocalFile(str(f)))
        self.statusBar().showMessage(out["message"], 10000)

    @property
    def balancelab(self) -> BalanceLabPanel:
        if self._balancelab is None:
            self._balancelab = BalanceLabPanel(self.ctx)
            self.docks["balancelab"].setWidget(dock_scroll(self._balancelab))
        return self._balancelab

    def _balancelab_shown(self, visible: bool) -> None:
        if visible and self.doc is not None:
            self.balancelab  # noqa: B018 - made on first show (View menu, restored layout)

    def balance_lab(self) -> None:
        self.docks["balancelab"].show()
        self.docks["balancelab"].raise_()
        cur = self.current_object()
        if cur and cur[0] == "scenario":
            self.balancelab.set_scenario(cur[1])

    def sweep_value(self, kind: str, oid: str, pointer: str, value) -> None:
        """A form's "Sweep this value…": the balance lab with that field's line added."""
        self.balance_lab()
        self.balancelab.add_vary(kind, oid, pointer, value)

    def _offer_other_packs(self) -> None:
        from .document import autosave_dir
        from .recovery_scan import other_packs
        others = other_packs(autosave_dir(), self.ws.path)
        if not others:
            return
        u = others[0]
        when = time.strftime("%Y-%m-%d %H:%M", time.localtime(u.saved_at))
        more = "".join(f"\n• {o.pack_id} ({o.pack})" for o in others[1:])
        answer = self.ask("Unsaved work in another pack",
                          f"An editor of {u.pack_id} ({u.pack}) closed without saving on {when}: "
                          f"{u.documents} document(s) or object(s) of unsaved edits were kept."
                          + (f"\nAlso unsaved work in:{more}" if more else "")
                          + f"\n\nOpen {u.pack_id} to recover them?", [f"Open {u.pack_id}", "Not now"])
        if answer.startswith("Open") and self.confirm_discard():
            self.load_pack(u.pack)  # its own recovery question follows

    def quick_game(self) -> None:
        self.docks["quickgame"].show()
        self.docks["quickgame"].raise_()
        cur = self.current_object()
        if cur and cur[0] == "scenario":
            self.quickgame.set_scenario(cur[1])
        elif cur and cur[0] == "setup":
            self.quickgame.set_scenario((self.ws.value("setup", cur[1]) or {}).get("scenario", ""))

    # --- settings and layout ----------------------------------------------------------

    def recent_packs(self) -> list[str]:
        """The recent list as stored. QSettings gives a one-entry list back as a plain string
        (and nothing as None), so it is normalised here, never iterated character by character."""
        value = self.settings.value("recent", [])
        if value is None:
            return []
        if isinstance(value, str):
            value = [value]
        return [str(v) for v in value if isinstance(v, str) and v.strip()]

    def _remember_recent(self, path: Path) -> None:
        recent = [p for p in self.recent_packs() if p != str(path)]
        recent.insert(0, str(path))
        self.settings.setValue("recent", recent[:10])
        self.recent_menu.clear()
        for p in recent[:10]:
            self.recent_menu.addAction(p, lambda p=p: self.open_pack(Path(p)))

    def restore_layout(self) -> None:
        geo = self.settings.value("geometry")
        state = self.settings.value("window_state")
        if geo is not None:
            self.restoreGeometry(geo)
        if state is not None:
            self.restoreState(state)
        else:
            self.reset_layout()

    def reset_layout(self) -> None:
        for name in ("explorer", "findings", "provenance"):
            self.docks[name].show()
        self.docks["quickgame"].hide()
        self.docks["balancelab"].hide()
        self.resizeDocks([self.docks["explorer"]], [380], Qt.Horizontal)
        self.resizeDocks([self.docks["findings"]], [max(120, min(220, self.height() // 5))], Qt.Vertical)
        self.docks["findings"].raise_()

    def save_layout(self) -> None:
        self.settings.setValue("geometry", self.saveGeometry())
        self.settings.setValue("window_state", self.saveState())
        self.settings.sync()

    def open_folder_dialog(self) -> None:
        folder = QFileDialog.getExistingDirectory(self, "Open pack folder", str(self.ws.path.parent))
        if folder:
            self.open_pack(Path(folder))

    def open_zip_dialog(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, "Open pack zip", str(self.ws.path.parent), "Pack archives (*.zip)")
        if path:
            self.open_pack(Path(path))

    def open_pack(self, path: Path) -> bool:
        """Open another pack; a path that is not a pack is said so and nothing changes (the pack
        already open stays, with its edits)."""
        problem = pack_problem(Path(path))
        if problem:
            problem += ". Nothing was opened: the pack already open stays open."
            self.ask("Not a pack", problem, ["OK"])
            self.statusBar().showMessage(problem, 10000)
            return False
        if not self.confirm_discard():
            return False
        self.load_pack(Path(path), search=self.search_paths)
        return True

    def confirm_discard(self) -> bool:
        if self.doc is None or not self.doc.dirty:
            return True
        answer = self.ask("Unsaved changes", f"Save the changes to {self.ws.pack_id}?", ["Save", "Discard", "Cancel"])
        if answer == "Save":
            return self.save() and not self.doc.dirty
        return answer == "Discard"

    def closeEvent(self, event) -> None:
        if getattr(self, "_loader", None) is not None:
            self._loader.join(30)  # a pack still being read: let the thread end first
            self._closed = True
        if not self.confirm_discard():
            event.ignore()
            return
        self.save_layout()
        if self._print_thread is not None:
            self._print_thread.join(120)
        if self.doc is not None:
            self.validator.shutdown()
            self.quickgame.shutdown()
            if self._balancelab is not None:
                self._balancelab.shutdown()
            self.doc.close()
        gc.unfreeze()  # what the window held can be collected again
        event.accept()

    def _ask(self, title: str, text: str, buttons: list[str]) -> str:
        box = QMessageBox(self)
        box.setWindowTitle(title)
        box.setText(text)
        made = [box.addButton(b, QMessageBox.AcceptRole if i == 0 else QMessageBox.RejectRole if b == "Cancel"
                              else QMessageBox.DestructiveRole) for i, b in enumerate(buttons)]
        box.exec()
        clicked = box.clickedButton()
        box.deleteLater()  # a child of the window: every question asked would stay otherwise
        return buttons[made.index(clicked)] if clicked in made else buttons[-1]


# The smallest screen the editor is made for: a 1366x768 laptop, less a taskbar and the title bar.
SMALL_SCREEN = (1366, 768 - 40 - 30)
# The most a form may ask for before it scrolls instead of growing the window past that screen
# (the explorer on the left, the menus, toolbar, findings and status bar take the rest).
FORM_BUDGET = (760, 330)


def dock_scroll(panel: QWidget) -> QScrollArea:
    """A tall dock (the quick game's 787 px, the balance lab's 822 px) scrolls inside itself:
    opening it never grows the window past a 1366x768 screen."""
    area = QScrollArea()
    area.setWidgetResizable(True)
    area.setFrameShape(QScrollArea.NoFrame)
    area.setWidget(panel)
    area.setMinimumHeight(160)
    return area


def tab_title(kind: str, oid: str, value, ruleset=None) -> str:
    title = label(kind, oid, value, ruleset).strip() or f"{kind} {oid}"
    return title if len(title) < 32 else title[:30] + "…"


def first_size(available=None):
    """The window's size on first launch: roomy, but never larger than the screen it is on."""
    from PySide6.QtCore import QSize
    w, h = 1500, 950
    if available is not None and available.width() > 0 and available.height() > 0:
        w, h = min(w, available.width()), min(h, available.height() - 30)
    return QSize(min(w, 1500), max(400, min(h, 950)))


def fit_form(form: QWidget) -> None:
    """Let a form that needs more room than FORM_BUDGET scroll inside its tab rather than grow
    the window off a small screen: its layout moves, unchanged, into a scroll area."""
    from PySide6.QtWidgets import QFrame, QScrollArea, QVBoxLayout
    hint = form.minimumSizeHint()
    lay = form.layout()
    if lay is None or (hint.width() <= FORM_BUDGET[0] and hint.height() <= FORM_BUDGET[1]):
        return
    inner = QWidget()
    inner.setObjectName("form-content")
    inner.setLayout(lay)  # takes the layout (and so every field widget) from the form
    area = QScrollArea()
    area.setWidgetResizable(True)
    area.setFrameShape(QFrame.NoFrame)
    area.setWidget(inner)
    outer = QVBoxLayout(form)
    outer.setContentsMargins(0, 0, 0, 0)
    outer.addWidget(area)


def inside_installation(folder: Path) -> bool:
    """Whether a folder lies inside the installed sandtable package (bundled packs included)."""
    import sandtable
    roots = [Path(sandtable.__file__).resolve().parent, bundled_pack().resolve().parent]
    try:
        target = Path(folder).resolve()
    except OSError:
        return False
    return any(target == r or r in target.parents for r in roots)


def suggested_mod_folder(ws: Workspace) -> Path:
    """Where a new mod pack goes by default: under the user's documents (QStandardPaths), never
    inside the installation (which an update replaces) nor beside a pack that may be shared."""
    from PySide6.QtCore import QStandardPaths
    name = f"{ws.pack_id or 'pack'}-mod"
    docs = QStandardPaths.writableLocation(QStandardPaths.DocumentsLocation) or str(Path.home())
    return Path(docs) / "sandtable" / name


def main(argv: list[str] | None = None, pack: str | None = None, search: list[str] | None = None) -> int:
    app = QApplication.instance() or QApplication(sys.argv[:1] if argv is None else argv)
    app.setApplicationName("sandtable")
    app.setOrganizationName("sandtable")
    window = MainWindow(pack, search=[Path(s) for s in (search or [])], background=True)
    window.show()
    return app.exec()


if __name__ == "__main__":
    sys.exit(main())
