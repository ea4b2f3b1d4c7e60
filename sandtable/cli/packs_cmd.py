"""sandtable packs: load order of packs and what each mod adds, overrides and removes."""
from __future__ import annotations

from collections import Counter
from pathlib import Path

from sandtable.rules.catalog import load_catalog
from sandtable.rules.findings import Severity
from sandtable.rules.validation import unusable_arguments

from .common import add_json_flags, print_findings, print_json

HELP = "show the load order of packs and each mod pack's impact"


def register(sub) -> None:
    p = sub.add_parser("packs", help=HELP, description=HELP + " (adds, overrides, removes, conflicts).")
    p.add_argument("paths", nargs="*", metavar="PACK", help="pack folders or zips; default: the bundled pack")
    p.add_argument("--search", action="append", default=[], metavar="DIR",
                   help="another folder holding packs that dependencies may come from")
    add_json_flags(p)
    p.set_defaults(run=run)


def _count(items) -> dict[str, int]:
    return dict(sorted(Counter(kind for kind, _ in items).items()))


def run(args) -> int:
    catalog = load_catalog(args.paths or None, search=[Path(s) for s in args.search])
    status = 2 if unusable_arguments(catalog, [Path(p) for p in args.paths]) else 1 if catalog.errors else 0
    rows = []
    for i, pack in enumerate(catalog.packs, 1):
        rows.append({
            "order": i,
            "id": pack.id,
            "version": pack.version,
            "ruleset": pack.manifest["ruleset"],
            "source": pack.source.label,
            "depends_on": pack.depends_on,
            "adds": [f"{k} {key}" for k, key in pack.added],
            "overrides": [f"{k} {key}" for k, key in pack.overridden],
            "removes": [f"{k} {key}" for k, key in pack.removed],
            "conflicts": pack.conflicts,
        })
    if args.format == "json":
        print_json({"packs": rows, "bases": catalog.bases, "findings": [f.to_json() for f in catalog.findings]})
        return status
    if not rows:
        print("no pack could be loaded")
    for row, pack in zip(rows, catalog.packs):
        deps = ", ".join(f"{d['id']} {d.get('version', '')}".strip() for d in row["depends_on"]) or "none"
        print(f"{row['order']}. {row['id']} {row['version']}  ({row['ruleset']}, from {row['source']}; depends on {deps})")
        added = _count(pack.added)
        print("   adds:      " + (", ".join(f"{n} {k}" for k, n in added.items()) or "nothing"))
        if row["depends_on"]:  # only a mod can override, remove or conflict
            print("   overrides: " + (", ".join(row["overrides"]) or "nothing"))
            print("   removes:   " + (", ".join(row["removes"]) or "nothing"))
            print("   conflicts: " + ("; ".join(row["conflicts"]) or "none"))
    errors = [f for f in catalog.findings if f.severity >= Severity.WARNING]
    if errors:
        print()
        print_findings(errors)
    return status
