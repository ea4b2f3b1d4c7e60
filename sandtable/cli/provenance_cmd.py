"""sandtable provenance: how many values come from the rulebook, examples or reconstruction."""
from __future__ import annotations

import sys
from pathlib import Path

from sandtable.rules import provenance
from sandtable.rules.catalog import load_catalog
from sandtable.rules.findings import Severity

from .common import add_json_flags, print_findings, print_json

HELP = "count values by provenance (rulebook, example, reconstructed) per kind; --list the reconstructed ones"


def register(sub) -> None:
    p = sub.add_parser("provenance", help=HELP, description=HELP + ": what a player with the physical game "
                       "would check.")
    p.add_argument("paths", nargs="*", metavar="PACK", help="pack folders or zips; default: the bundled pack")
    p.add_argument("--list", action="store_true", help="list every reconstructed value with its file, line and path")
    p.add_argument("--source", default="reconstructed", choices=provenance.SOURCES + ("none",),
                   help="with --list: which source to list (default: reconstructed)")
    add_json_flags(p)
    p.set_defaults(run=run)


def _listing(catalog, source: str) -> list[dict]:
    rows = []
    for kind, table in sorted(catalog.objects.items()):
        for entry in table.values():
            if "provenance" not in entry.value:
                continue
            for leaf in provenance.resolve(entry.value):
                if (leaf.source or "none") != source:
                    continue
                line, col = entry.doc.locate(entry.pointer + leaf.pointer)
                rows.append({"kind": kind, "id": entry.id, "path": leaf.pointer, "value": leaf.value,
                             "file": entry.doc.path, "line": line, "note": leaf.note})
    return rows


def run(args) -> int:
    catalog = load_catalog([Path(p) for p in args.paths] or None)
    if catalog.errors:  # the exit status is 1: say why (on stderr, so --json stays JSON alone)
        print_findings([f for f in catalog.findings if f.severity == Severity.ERROR], sys.stderr)
    counts = provenance.summary(catalog)
    sources = [s for s in provenance.SOURCES + ("none",) if any(c[s] for c in counts.values())]
    if args.format == "json":
        out = {"by_kind": {k: dict(c) for k, c in counts.items()},
               "total": {s: sum(c[s] for c in counts.values()) for s in sources}}
        if args.list:
            out["values"] = _listing(catalog, args.source)
        print_json(out)
        return 1 if catalog.errors else 0
    if args.list:
        for r in _listing(catalog, args.source):
            print(f"{r['file']}:{r['line']}: {r['kind']} {r['id']} {r['path']} = {r['value']!r}")
        return 1 if catalog.errors else 0
    width = max([len(k) for k in counts] + [5])
    print(f"{'kind':<{width}}  " + "  ".join(f"{s:>13}" for s in sources))
    for kind, c in counts.items():
        print(f"{kind:<{width}}  " + "  ".join(f"{c[s]:>13}" for s in sources))
    print(f"{'total':<{width}}  " + "  ".join(f"{sum(c[s] for c in counts.values()):>13}" for s in sources))
    return 1 if catalog.errors else 0
