"""Editor endurance: drive the real main window with a mix of edits for N minutes.

Run: QT_QPA_PLATFORM=offscreen python benchmarks/endurance_editor.py --minutes 30 [--json]
(after the README's install). Works on a private copy of the bundled pack in a temporary
folder (settings and autosaves go there too).

The session does what a scenario designer does, at random but seeded: types new values
into scenario III (Gazala)'s turns and battle conditions with its two-map board shown and
hovered, edits unit types and formation cards in their forms, edits and pastes cells of the
bulk grids, undoes and redoes, opens and closes tabs, saves, and lets autosave and the live
validation run. Every minute it prints one line: edits so far, the reference count of None
(it must not fall: the crash of issue #13), resident memory, the longest UI stall, live
widgets, tabs, scene items, Python objects and cache sizes. At the end every tab is closed
and the live widgets are counted again: the same count as at the start (no tab open) means
no widget leaked.

Exit status 0 when the session survived with None's reference count intact and no
exception escaped to Qt's event loop; 1 otherwise. A native abort (the old crash) ends the
process with a signal, which the caller sees as such.
"""
from __future__ import annotations

import argparse
import gc
import json
import os
import random
import resource
import shutil
import sys
import tempfile
import time
import traceback
from pathlib import Path


def rss_mb() -> float:
    try:
        with open("/proc/self/statm") as fh:
            return int(fh.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20
    except OSError:
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _scenes(app) -> list:
    from PySide6.QtWidgets import QGraphicsView
    return list({id(v.scene()): v.scene() for v in app.allWidgets()
                 if isinstance(v, QGraphicsView) and v.scene() is not None}.values())


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--minutes", type=float, default=30.0)
    ap.add_argument("--seed", type=int, default=13)
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--tracemalloc", action="store_true",
                    help="also report where Python memory grew most between the first minute and the end (slower)")
    args = ap.parse_args()
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    tmp = Path(tempfile.mkdtemp(prefix="sandtable-endurance-"))
    os.environ["SANDTABLE_SETTINGS"] = str(tmp / "settings.ini")
    os.environ["SANDTABLE_AUTOSAVE_DIR"] = str(tmp / "autosave")
    os.environ["SANDTABLE_NO_VIEWER"] = "1"
    from sandtable.rules.catalog import bundled_pack
    pack = tmp / "desert-steel"
    shutil.copytree(bundled_pack(), pack, ignore=shutil.ignore_patterns("__pycache__", "*.py"))

    from PySide6.QtCore import QPoint, QPointF, Qt, QTimer
    from PySide6.QtGui import QMouseEvent
    from PySide6.QtWidgets import QApplication
    app = QApplication.instance() or QApplication(sys.argv[:1])
    escaped: list[str] = []
    sys.excepthook = lambda t, v, tb: escaped.append("".join(traceback.format_exception(t, v, tb))[-2000:])

    from sandtable.editor.app import MainWindow
    w = MainWindow(pack, autosave_seconds=2)
    w.ask = lambda title, text, buttons: "Discard" if "Discard" in buttons else buttons[0]
    w.resize(1366, 698)
    w.show()
    rng = random.Random(args.seed)

    stall = {"worst": 0.0, "last": None}
    beat = QTimer()
    beat.setInterval(10)

    def on_beat():
        now = time.perf_counter()
        if stall["last"] is not None:
            stall["worst"] = max(stall["worst"], now - stall["last"] - 0.010)
        stall["last"] = now
    beat.timeout.connect(on_beat)
    beat.start()

    def pump(seconds: float = 0.0) -> None:
        end = time.perf_counter() + seconds
        while True:
            app.processEvents()
            if time.perf_counter() >= end:
                break
            time.sleep(0.002)

    def live_widgets() -> dict[str, int]:
        """Live widgets by class once deferred deletions have run (what a closed tab or menu left)."""
        from PySide6.QtCore import QEvent
        app.sendPostedEvents(None, QEvent.DeferredDelete)
        app.processEvents()
        gc.collect()
        out: dict[str, int] = {}
        for x in app.allWidgets():
            out[type(x).__name__] = out.get(type(x).__name__, 0) + 1
        return out

    def binding(form, pointer):
        return next((x for p, x in form.bindings if p == pointer), None)

    counts: dict[str, int] = {}

    def did(what: str) -> None:
        counts[what] = counts.get(what, 0) + 1

    def gazala():
        form = w.open_object("scenario", "gazala")
        board = getattr(form, "board", None)
        if board is not None and hasattr(form, "tabs"):
            form.tabs.setCurrentWidget(board)
        turns = binding(form, "/conditions/turns")
        if turns is not None:
            for _ in range(rng.randint(1, 6)):
                turns.setValue(rng.randint(5, 20))
                pump()
                did("scenario turns")
        relief = binding(form, "/conditions/relief/value")
        if relief is not None and rng.random() < 0.4:
            relief.setCurrentText(rng.choice(["flat", "rolling", "hills"]))
            did("battle conditions")
        if board is not None and hasattr(board, "view"):
            vp = board.view.viewport()
            for _ in range(rng.randint(20, 80)):
                p = QPoint(rng.randrange(max(1, vp.width())), rng.randrange(max(1, vp.height())))
                ev = QMouseEvent(QMouseEvent.MouseMove, QPointF(p), QPointF(vp.mapToGlobal(p)), Qt.NoButton,
                                 Qt.NoButton, Qt.NoModifier)
                QApplication.sendEvent(vp, ev)
            did("board hover")

    def unit_type():
        oid = rng.choice(w.ws.keys("unit-type"))
        form = w.open_object("unit-type", oid)
        for ptr in ("/range", "/defense", "/movement"):
            spin = binding(form, ptr)
            if spin is not None and hasattr(spin, "setValue") and rng.random() < 0.6:
                spin.setValue(rng.randint(1, 12))
                did("unit-type field")

    def card():
        oid = rng.choice(w.ws.keys("formation-card"))
        variants = (w.ws.value("formation-card", oid) or {}).get("variants") or {}
        w.open_object("formation-card", oid)
        if variants:
            year = rng.choice(list(variants))
            w.doc.set("formation-card", oid, f"/variants/{year}/morale", rng.randint(2, 12))
            did("card morale")

    def grid():
        kind = rng.choice(["unit-type", "formation-card"])
        g = w.open_bulk(kind)
        if g is None:
            return
        m = g.model
        col = next((i for i, c in enumerate(m.columns) if c.kind == "int"), None)
        if col is None:
            return
        rows = rng.sample(range(m.rowCount()), k=min(3, m.rowCount()))
        if rng.random() < 0.5:
            m.setData(m.index(rows[0], col), str(rng.randint(2, 9)))
            did("grid cell")
        else:
            g.filter.setText(rng.choice(["", "german", "british", "1942"]))
            if g.proxy.rowCount() >= 2:
                g.paste_text(f"{rng.randint(2, 9)}\n{rng.randint(2, 9)}", top=0, left=col)
                did("grid paste")
            g.filter.setText("")

    def undo_redo():
        for _ in range(rng.randint(1, 5)):
            (w.undo_action if rng.random() < 0.6 else w.redo_action).trigger()
            did("undo/redo")

    def tabs():
        if w.tabs.count() > 6:
            for _ in range(w.tabs.count() - 3):
                w.close_tab(rng.randrange(w.tabs.count()))
                did("close tab")

    def save():
        if w.doc.dirty:
            w.save()
            did("save")

    actions = [(gazala, 5), (unit_type, 4), (card, 3), (grid, 3), (undo_redo, 2), (tabs, 1), (save, 0.3)]
    pool = [a for a, weight in actions for _ in range(int(weight * 10))]
    slowest: dict[str, float] = {}  # the longest run of each action (seconds), stalls included

    pump(0.5)
    state = {"none_start": sys.getrefcount(None), "t0": time.perf_counter(), "snap": None}
    if args.tracemalloc:
        import tracemalloc
        tracemalloc.start(8)
    state["none_min"] = state["none_start"]
    state["end"] = state["t0"] + args.minutes * 60
    state["next_report"] = state["t0"] + 60
    stall["worst"] = 0.0
    rss_start = rss_mb()
    widgets_start = live_widgets()  # no tab open yet: the window, its docks and their contents

    def step():
        # One action per turn of the real event loop (app.exec), so deferred deletions, queued
        # validation results and timers run as they do for a user.
        action = rng.choice(pool)
        t = time.perf_counter()
        try:
            action()
            took = time.perf_counter() - t
            slowest[action.__name__] = max(slowest.get(action.__name__, 0.0), took)
        except Exception:  # noqa: BLE001 - reported, and the session ends as failed
            escaped.append(traceback.format_exc()[-2000:])
            app.quit()
            return
        state["none_min"] = min(state["none_min"], sys.getrefcount(None))
        now = time.perf_counter()
        if now >= state["next_report"]:
            state["next_report"] += 60
            if args.tracemalloc and state["snap"] is None:
                gc.collect()
                state["snap"] = tracemalloc.take_snapshot()
            row = {"minute": round((now - state["t0"]) / 60, 1), "edits": sum(counts.values()),
                   "none_refcount_delta": sys.getrefcount(None) - state["none_start"], "rss_mb": round(rss_mb(), 1),
                   "worst_stall_s": round(stall["worst"], 3), "undo_steps": w.doc.undo_stack.count(),
                   # what could hold memory: live widgets (closed tabs must go), graphics items,
                   # Python objects the cyclic GC tracks
                   "widgets": len(app.allWidgets()), "top_level_widgets": len(app.topLevelWidgets()),
                   "tabs": w.tabs.count(),
                   "scene_items": sum(len(s.items()) for s in _scenes(app)), "py_objects": len(gc.get_objects()),
                   "checker_docs": len(w.validator.checker._doc_cache),
                   "checker_schema": len(w.validator.checker._schema_cache)}
            print(json.dumps(row), flush=True)
        if now >= state["end"]:
            app.quit()
            return
        QTimer.singleShot(int(rng.uniform(0, 150)), step)

    QTimer.singleShot(0, step)
    app.exec()
    none_start, none_min = state["none_start"], state["none_min"]
    seconds = time.perf_counter() - state["t0"]
    rss_end = rss_mb()
    # every tab closed again: what is still alive beyond the start's widgets was leaked
    while w.tabs.count():
        w.close_tab(0)
    widgets_end = live_widgets()
    w.ask = lambda *a: "Discard"
    w.close()
    pump(0.2)
    report = {"minutes": round(seconds / 60, 2), "survived": True, "actions": counts,
              "edits": sum(counts.values()),
              "none_refcount": {"start": none_start, "min": none_min, "end": sys.getrefcount(None)},
              "rss_mb": {"start": round(rss_start, 1), "end": round(rss_end, 1)},
              "widgets_no_tab_open": {"start": sum(widgets_start.values()), "end": sum(widgets_end.values())},
              # the classes of what was left (or freed) once every tab closed: where a leak is
              "widgets_left_by_class": {k: widgets_end.get(k, 0) - widgets_start.get(k, 0)
                                        for k in sorted(set(widgets_start) | set(widgets_end))
                                        if widgets_end.get(k, 0) != widgets_start.get(k, 0)},
              "worst_ui_stall_s": round(stall["worst"], 3), "exceptions": escaped[:5],
              "slowest_action_s": {k: round(v, 3) for k, v in sorted(slowest.items())},
              "python": sys.version.split()[0]}
    import PySide6
    report["pyside6"] = PySide6.__version__
    if args.tracemalloc and state["snap"] is not None:
        gc.collect()
        growth = tracemalloc.take_snapshot().compare_to(state["snap"], "traceback")[:8]
        report["memory_growth"] = [{"kib": round(g.size_diff / 1024), "blocks": g.count_diff,
                                    "where": [f"{f.filename.split('/main/')[-1]}:{f.lineno}" for f in g.traceback][-4:]}
                                   for g in growth]
    ok = not escaped and none_min >= none_start - 1000
    report["ok"] = ok
    print(json.dumps(report, indent=None if not args.json else 2), flush=True)
    shutil.rmtree(tmp, ignore_errors=True)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
