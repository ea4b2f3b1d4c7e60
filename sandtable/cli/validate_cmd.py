"""sandtable validate: schema and cross-reference findings for packs and documents."""
from __future__ import annotations

from pathlib import Path

from sandtable.rules import validation
from sandtable.rules.findings import Severity

from .common import add_json_flags, print_findings, print_json, verdict


def base_lines(bases: list[dict]) -> list[str]:
    """What each mod was checked against: its base's id, version and where it came from."""
    return [f"{b['pack']} {b['version']} checked against {b['base']} {b['base_version']} from {b['base_source']}"
            + (" (bundled)" if b["bundled"] else "") for b in bases]

HELP = "check packs (folders or .zip) or single documents; default: the bundled Desert Steel pack"


def register(sub) -> None:
    p = sub.add_parser("validate", help=HELP, description=HELP + ". Exit 0 without errors, 1 with errors, "
                       "2 when an argument cannot be used.")
    p.add_argument("paths", nargs="*", metavar="PATH", help="pack folder, pack .zip or one JSON document")
    p.add_argument("--search", action="append", default=[], metavar="DIR",
                   help="another folder holding packs that dependencies may come from")
    p.add_argument("--quiet", "-q", action="store_true", help="print only errors and the verdict")
    add_json_flags(p)
    p.set_defaults(run=run)


def run(args) -> int:
    result = validation.validate_paths(args.paths or None, search=[Path(s) for s in args.search])
    findings = result.findings
    shown = [f for f in findings if f.severity == Severity.ERROR] if args.quiet else findings
    if args.format == "json":
        print_json({
            "files": result.files,
            "errors": sum(f.severity == Severity.ERROR for f in findings),
            "warnings": sum(f.severity == Severity.WARNING for f in findings),
            "findings": [f.to_json() for f in shown],
            "packs": result.packs,
            "bases": result.bases,
        })
    else:
        print_findings(shown)
        for line in base_lines(result.bases):
            print(line)
        print(verdict(result.files, findings))
    return result.exit_code
