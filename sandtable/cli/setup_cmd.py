"""sandtable check-setup: a setup against its scenario's rules, for any ruleset that has them."""
from __future__ import annotations

import sys
from pathlib import Path

from sandtable.rules.catalog import load_catalog
from sandtable.rules.findings import Severity, sort_key
from sandtable.rules.jsondoc import parse
from sandtable.rules.schemas import default_schemas

from .common import add_json_flags, add_pack_option, print_findings, print_json, verdict

HELP = "check a setup against its scenario's setup rules"


def register(sub) -> None:
    p = sub.add_parser("check-setup", help=HELP,
                       description="Check a setup (a JSON file, or a setup id of the pack) against its scenario: "
                       "every setup rule of the pack's ruleset, as findings with their rule sections.")
    p.add_argument("setup", metavar="SETUP", help="setup JSON file or setup id")
    add_pack_option(p)
    add_json_flags(p)
    p.set_defaults(run=run)


def run(args) -> int:
    catalog = load_catalog([Path(p) for p in args.pack] or None)
    ruleset = catalog.ruleset
    if catalog.errors:
        print_findings([f for f in catalog.findings if f.severity == Severity.ERROR], sys.stderr)
    if ruleset is None or ruleset.check_setup is None or catalog.model is None:
        print("sandtable: the pack's ruleset has no setup rules", file=sys.stderr)
        return 2
    path = Path(args.setup)
    if path.is_file():
        doc, found = parse(str(path), path.read_bytes())
        if doc is not None:
            setup_kind = ruleset.document_kind("setup")
            found += default_schemas().validate(doc, setup_kind.schema)
        if doc is None or any(f.severity == Severity.ERROR for f in found):
            return _report(args, found)
        value, subject, locate = doc.value, f"setup {doc.value.get('id')}", doc
        base = ""
    else:
        entry = catalog.get("setup", args.setup)
        if entry is None:
            print(f"sandtable: {args.setup!r} is neither a file nor a setup id of the pack", file=sys.stderr)
            return 2
        value, subject, locate, base, found = entry.value, f"setup {entry.id}", entry.doc, entry.pointer, []

    def report(code, message, pointer="", **kw):
        return locate.finding(code, message, base + pointer, subject=subject, **kw)
    found += ruleset.check_setup(catalog.model, value, report)
    return _report(args, found)


def _report(args, found) -> int:
    found = sorted(found, key=sort_key)
    errors = sum(f.severity == Severity.ERROR for f in found)
    if args.format == "json":
        print_json({"errors": errors, "findings": [f.to_json() for f in found]})
    else:
        print_findings(found)
        print(verdict(1, found))
    return 1 if errors else 0
