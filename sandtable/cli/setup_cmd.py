"""sandtable check-setup: a setup against its scenario's rules, for any ruleset that has them."""
from __future__ import annotations

import json
import sys
from pathlib import Path

from sandtable.rules import rulesets
from sandtable.rules.catalog import MANIFEST, bundled_packs_dir, load_catalog
from sandtable.rules.findings import Severity, finding, sort_key
from sandtable.rules.limits import InputError, read_regular
from sandtable.rules.jsondoc import parse
from sandtable.rules.schemas import default_schemas

from .common import add_json_flags, add_pack_option, print_findings, print_json, usage_error, verdict

HELP = "check a setup against its scenario's setup rules"


def register(sub) -> None:
    p = sub.add_parser("check-setup", help=HELP,
                       description="Check a setup (a JSON file, or a setup id of the pack) against its scenario: "
                       "every setup rule of the pack's ruleset, as findings with their rule sections. A file inside "
                       "a pack folder is checked against that pack unless --pack is given.")
    p.add_argument("setup", metavar="SETUP", help="setup JSON file or setup id")
    add_pack_option(p)
    add_json_flags(p)
    p.set_defaults(run=run)


def _home_pack(path: Path) -> Path | None:
    """The pack folder a setup file lives in (data/holland44/setups/x.json -> data/holland44)."""
    try:
        parents = path.resolve().parents
    except OSError:
        return None
    return next((d for d in parents if (d / MANIFEST).is_file()), None)


def _ruleset_of(pack: Path) -> str | None:
    try:
        return json.loads((pack / MANIFEST).read_text(encoding="utf-8")).get("ruleset")
    except (OSError, ValueError, AttributeError):
        return None


def _shown(path: Path) -> str:
    """A path as the user would type it: relative to the working directory when below it."""
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except (OSError, ValueError):
        return str(path)


def _packs_of_ruleset(name: str) -> list[str]:
    """Bundled packs that use a ruleset, as paths to give to --pack."""
    return [_shown(m.parent) for m in sorted(bundled_packs_dir().glob(f"*/{MANIFEST}")) if _ruleset_of(m.parent) == name]


def _belongs_to(doc, current: str, home: Path | None) -> str | None:
    """When a setup fails the schema of the ruleset it is checked against, the ruleset whose setup
    schema it does follow, said as the pack to check it with (issue #16 item 12)."""
    for name in rulesets.names():
        if name == current:
            continue
        ruleset = rulesets.get(name)
        kind = ruleset.document_kind("setup") if ruleset else None
        if kind is None or any(f.severity == Severity.ERROR for f in default_schemas().validate(doc, kind.schema)):
            continue
        packs = [_shown(home)] if home and _ruleset_of(home) == name else _packs_of_ruleset(name)
        where = f"--pack {packs[0]}" if packs else f"a {name} pack"
        return (f"{doc.path} is a {name} setup, not a {current} one: check it with {where}")
    return None


def run(args) -> int:
    path = Path(args.setup)
    home = _home_pack(path) if path.is_file() else None
    # A setup inside a pack folder is checked against that pack unless --pack says otherwise.
    packs = [Path(p) for p in args.pack] or ([home] if home else None)
    catalog = load_catalog(packs)
    ruleset = catalog.ruleset
    if catalog.errors:
        print_findings([f for f in catalog.findings if f.severity == Severity.ERROR], sys.stderr)
        args.pack_errors = int(catalog.errors)  # the verdict cannot be OK against a broken pack
    if ruleset is None or ruleset.check_setup is None or catalog.model is None:
        print("sandtable: the pack's ruleset has no setup rules", file=sys.stderr)
        return 2
    if path.is_file():
        try:  # a regular file within the size limit; unreadable is a finding, not a traceback
            data = read_regular(path)
        except InputError as exc:
            return _report(args, [finding("file-unreadable", str(exc).split(": ", 1)[-1], file=str(path))])
        doc, found = parse(str(path), data)
        if doc is not None:
            setup_kind = ruleset.document_kind("setup")
            schema_found = default_schemas().validate(doc, setup_kind.schema)
            if any(f.severity == Severity.ERROR for f in schema_found):
                elsewhere = _belongs_to(doc, ruleset.name, home)
                if elsewhere:
                    return usage_error(elsewhere)
            found += schema_found
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
    pack_errors = getattr(args, "pack_errors", 0)
    if args.format == "json":
        print_json({"errors": errors, "findings": [f.to_json() for f in found], "pack_errors": pack_errors})
    else:
        print_findings(found)
        print(verdict(1, found) + (f"; but the pack has {pack_errors} error(s), listed above" if pack_errors else ""))
    return 1 if errors or pack_errors else 0
