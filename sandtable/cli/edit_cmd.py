"""sandtable edit: the PySide6 editor (the only command that needs a display)."""
from __future__ import annotations

HELP = "open the editor on a pack folder or .zip (default: the bundled Desert Steel pack, read-only)"


def register(sub) -> None:
    p = sub.add_parser("edit", help=HELP, description=HELP + ". Edits to a pack you do not own "
                       "(the bundled pack, a zip, a read-only folder) are saved as a mod pack.")
    p.add_argument("pack", nargs="?", metavar="PACK", help="pack folder or .zip")
    p.add_argument("--search", action="append", default=[], metavar="DIR",
                   help="another folder holding packs that dependencies may come from")
    p.set_defaults(run=run)


def run(args) -> int:
    import sys

    from sandtable.editor.desktop import problem
    missing = problem()  # before Qt, whose own message names another package
    if missing:
        print(f"sandtable edit: {missing}", file=sys.stderr)
        return 2
    try:
        from sandtable.editor.binding_guard import refusal
        from sandtable.editor.splash import start  # PySide6 only: the editor's modules load behind it
    except ImportError as exc:  # PySide6 missing or no Qt platform libraries
        print(f"sandtable: the editor needs PySide6: {exc}", file=sys.stderr)
        return 2
    why = refusal()  # a binding that would abort the editor after a few edits (issue #13)
    if why:
        print(why, file=sys.stderr)
        return 2
    if args.pack:
        from pathlib import Path

        from sandtable.editor.splash import pack_problem
        problem = pack_problem(Path(args.pack))  # e.g. "/": said at once, never scanned
        if problem:
            print(f"sandtable edit: {problem}", file=sys.stderr)
            return 2
    return start(pack=args.pack, search=args.search)
