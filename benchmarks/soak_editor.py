"""A long scripted editor session (issue #13): mixed edits at a user's pace on a copy of the
bundled pack, with scenario III (Gazala, two maps) and its board open, and the object
lifecycle, undo/redo, saves and board hovering mixed in. Reports whether the process lived,
how the reference count of None moved (it must not fall: PySide6 6.12.0 made it fall on
every binding call and Python 3.11 aborted), and the edits made.

    QT_QPA_PLATFORM=offscreen .venv/bin/python benchmarks/soak_editor.py --minutes 30
    (add --json for one JSON line; --pace seconds between edits, default 2)
"""
from __future__ import annotations

import argparse
import json
import os
import random
import resource
import shutil
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--minutes", type=float, default=30.0)
    ap.add_argument("--pace", type=float, default=2.0, help="seconds between edits (a user's pace)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)

    from PySide6.QtCore import QPoint, QPointF, Qt
    from PySide6.QtGui import QMouseEvent
    from PySide6.QtWidgets import QApplication

    from sandtable.rules.catalog import bundled_pack
    app = QApplication.instance() or QApplication([])
    tmp = Path(tempfile.mkdtemp(prefix="sandtable-soak-"))
    os.environ["SANDTABLE_SETTINGS"] = str(tmp / "settings.ini")
    os.environ["SANDTABLE_AUTOSAVE_DIR"] = str(tmp / "autosave")
    os.environ["SANDTABLE_NO_VIEWER"] = "1"
    pack = tmp / "packs" / "desert-steel"
    shutil.copytree(bundled_pack(), pack, ignore=shutil.ignore_patterns("__pycache__", "*.py", "NOTES*"))
    from sandtable.editor.app import MainWindow
    w = MainWindow(pack, autosave_seconds=2)
    w.ask = lambda title, text, buttons: "Rename" if "Rename" in buttons else buttons[0]
    w.resize(1300, 740)
    w.show()
    rng = random.Random(args.seed)

    def pump(seconds: float) -> None:
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            app.processEvents()
            time.sleep(0.01)

    form = w.open_object("scenario", "gazala")
    form.tabs.setCurrentWidget(form.board)
    pump(1.0)

    def bound(f, pointer):
        return next(x for p, x in f.bindings if p == pointer)

    def hover() -> None:
        if not form.board.isVisible():
            return
        vp = form.board.view.viewport()
        for _ in range(60):
            p = QPoint(rng.randrange(max(1, vp.width())), rng.randrange(max(1, vp.height())))
            app.sendEvent(vp, QMouseEvent(QMouseEvent.MouseMove, QPointF(p), QPointF(vp.mapToGlobal(p)), Qt.NoButton,
                                          Qt.NoButton, Qt.NoModifier))

    life = w.doc.lifecycle
    made = []

    def lifecycle() -> str:
        choice = rng.choice(["dup-card", "new-scenario", "rename-made", "delete-made"])
        if choice == "dup-card":
            made.append(("formation-card", life.duplicate("formation-card", rng.choice(["161", "322", "423"]))))
        elif choice == "new-scenario":
            oid = life.suggest_id("scenario", "gazala")
            made.append(("scenario", life.new_object("scenario", oid, like="gazala")))
        elif choice == "rename-made" and made:
            kind, oid = made.pop()
            if w.ws.exists(kind, oid):
                made.append((kind, life.rename(kind, oid, life.suggest_id(kind, oid))))
        elif choice == "delete-made" and made:
            kind, oid = made.pop()
            if w.ws.exists(kind, oid):
                life.delete(kind, oid, cascade=True)
        return choice

    actions = {
        "turns": lambda: bound(form, "/conditions/turns").setValue(rng.randint(6, 15)),
        "relief": lambda: bound(form, "/conditions/relief/value").setCurrentText(rng.choice(["flat", "rolling", "hilly"])),
        "tab": lambda: form.tabs.setCurrentIndex(rng.choice([0, 1, 2, form.tabs.indexOf(form.board)])),
        "board": lambda: form.tabs.setCurrentWidget(form.board),
        "hover": hover,
        "undo": lambda: w.doc.undo_stack.undo(),
        "redo": lambda: w.doc.undo_stack.redo(),
        "unit": lambda: w.doc.set("unit-type", "de-pz-iii-j", "/defense", rng.randint(3, 9)),
        "lifecycle": lifecycle,
        "save": lambda: w.save(),
    }
    weights = {"turns": 6, "relief": 3, "tab": 2, "board": 2, "hover": 4, "undo": 2, "redo": 1, "unit": 2,
               "lifecycle": 2, "save": 1}
    names = list(weights)
    done: dict[str, int] = {n: 0 for n in names}
    start_none = sys.getrefcount(None)
    low = start_none
    t0 = time.monotonic()
    while time.monotonic() - t0 < args.minutes * 60:
        name = rng.choices(names, [weights[n] for n in names])[0]
        try:
            actions[name]()
        except Exception as exc:  # noqa: BLE001 - a refused lifecycle step is part of the session
            if type(exc).__name__ != "LifecycleError":
                raise
        done[name] += 1
        pump(args.pace)
        low = min(low, sys.getrefcount(None))
    end_none = sys.getrefcount(None)
    out = {"minutes": round((time.monotonic() - t0) / 60, 1), "edits": sum(done.values()), "by_action": done,
           "alive": True, "none_refcount_start": start_none, "none_refcount_end": end_none,
           "none_refcount_lowest": low, "max_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024),
           "python": sys.version.split()[0], "pyside6": __import__("PySide6").__version__}
    w.ask = lambda *a: "Discard"
    w.close()
    print(json.dumps(out) if args.json else "\n".join(f"{k}: {v}" for k, v in out.items()))
    shutil.rmtree(tmp, ignore_errors=True)
    return 0 if low >= start_none - 1000 else 1


if __name__ == "__main__":
    sys.exit(main())
