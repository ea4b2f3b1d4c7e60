"""sandtable supply: the supply line of one unit of a setup, or why it has none.

Works for any ruleset whose model offers ``supply_trace(setup, unit)`` (Holland '44 does);
the command names no ruleset.
"""
from __future__ import annotations

import sys
from pathlib import Path

from sandtable.rules.findings import Severity
from sandtable.rules.jsondoc import parse
from sandtable.rules.limits import InputError, read_regular
from sandtable.rules.schemas import default_schemas

from .common import add_json_flags, add_pack_option, load_pack, print_findings, print_json

HELP = "trace the supply line of one unit of a setup (rulesets with supply rules)"


def register(sub) -> None:
    p = sub.add_parser("supply", help=HELP,
                       description="Trace a unit's supply line in a setup or position: the hexes of its overland "
                       "and road legs and the source it reaches, or why no line exists. Exit 0 in supply, 1 out "
                       "of supply, 2 when the arguments cannot be used.")
    p.add_argument("setup", metavar="SETUP", help="setup JSON file or setup id of the pack")
    p.add_argument("unit", metavar="UNIT", help="the unit (counter id) to trace")
    add_pack_option(p)
    add_json_flags(p)
    p.set_defaults(run=run)


def run(args) -> int:
    catalog = load_pack(args.pack)
    if catalog.errors:  # exit 1 means "out of supply": a broken pack is said, and is not that
        print("sandtable: the pack has errors: run 'sandtable validate' first", file=sys.stderr)
        return 2
    model = catalog.model
    trace = getattr(model, "supply_trace", None)
    if trace is None:
        print("sandtable: the pack's ruleset has no supply rules", file=sys.stderr)
        return 2
    path = Path(args.setup)
    if path.is_file():
        try:  # a regular file within the size limit; unreadable is a message, not a traceback
            data = read_regular(path)
        except InputError as exc:
            print(f"sandtable: {exc}", file=sys.stderr)
            return 2
        doc, found = parse(str(path), data)
        kind = catalog.ruleset.document_kind("setup") if catalog.ruleset else None
        if doc is not None and kind is not None:
            found += default_schemas().validate(doc, kind.schema)
        if doc is None or any(f.severity == Severity.ERROR for f in found):
            print_findings(found, sys.stderr)
            return 2
        setup = doc.value
    else:
        entry = catalog.get("setup", args.setup)
        if entry is None:
            print(f"sandtable: {args.setup!r} is neither a file nor a setup id of the pack", file=sys.stderr)
            return 2
        setup = entry.value
    try:
        result = trace(setup, args.unit)
    except LookupError as exc:
        print(f"sandtable: {exc.args[0] if exc.args else exc}", file=sys.stderr)
        return 2
    if args.format == "json":
        print_json(result.to_json())
    else:
        print(result.text())
    return 0 if result.supplied else 1
