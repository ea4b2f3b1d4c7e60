"""sandtable codes: the documented list of finding codes."""
from __future__ import annotations

from sandtable.rules.findings import CODES

from .common import add_json_flags, print_json

HELP = "list every finding code with its severity and meaning"


def register(sub) -> None:
    p = sub.add_parser("codes", help=HELP, description=HELP + ".")
    add_json_flags(p)
    p.set_defaults(run=run)


def run(args) -> int:
    from sandtable.rules import rulesets
    for name in rulesets.names():  # each ruleset's own codes join the list when it loads
        rulesets.get(name)
    if args.format == "json":
        print_json([{"code": c.code, "severity": str(c.severity), "summary": c.summary} for c in CODES.values()])
        return 0
    width = max(len(c) for c in CODES)
    for c in CODES.values():
        print(f"{c.code:<{width}}  {str(c.severity):<7}  {c.summary}")
    return 0
