"""sandtable scenarios / show: list scenarios and print one as a normalized summary."""
from __future__ import annotations

import sys


from .common import add_json_flags, add_pack_option, load_pack, print_json


def register(sub) -> None:
    p = sub.add_parser("scenarios", help="list the scenarios of a pack",
                       description="List the scenarios: id, roman number, name, year, rules level, turns.")
    add_pack_option(p)
    add_json_flags(p)
    p.set_defaults(run=run_list)

    p = sub.add_parser("show", help="print one object as a normalized summary",
                       description="Print one object as a normalized summary, e.g. 'show scenario IV --json'.")
    p.add_argument("what", choices=("scenario",), help="kind of object")
    p.add_argument("ref", metavar="ID", help="scenario id or roman number (e.g. beda-fomm or I)")
    add_pack_option(p)
    add_json_flags(p)
    p.set_defaults(run=run_show)


def load_model(packs: list[str]):
    """The typed model of the given packs (default: bundled); errors are printed, not raised.

    They go to stderr, like every other command's: with --json, stdout holds the JSON alone."""
    catalog = load_pack(packs)
    return catalog, catalog.model


def _unsupported(catalog) -> int:
    name = catalog.ruleset.name if catalog.ruleset else "unknown"
    print(f"sandtable: the {name} ruleset has no scenario summaries", file=sys.stderr)
    return 2


def run_list(args) -> int:
    catalog, model = load_model(args.pack)
    if model is None:
        return 1
    if catalog.ruleset.scenario_list is None:
        return _unsupported(catalog)
    rows = catalog.ruleset.scenario_list(model)
    if args.format == "json":
        print_json(rows)
    else:
        for r in rows:
            print(f"{r['number']:>5}  {r['id']:<16} {r['name']:<28} {r['year']}  {r['rules']:<8} {r['turns']:>2} turns")
    return 1 if catalog.errors else 0


def run_show(args) -> int:
    catalog, model = load_model(args.pack)
    if model is not None and catalog.ruleset.scenario_summary is None:
        return _unsupported(catalog)
    scenario = model.scenario(args.ref) if model else None
    if scenario is None:
        known = ", ".join(f"{s.number} ({s.id})" for s in model.scenarios.values()) if model else ""
        print(f"sandtable: no scenario {args.ref!r}" + (f"; known: {known}" if known else ""), file=sys.stderr)
        return 2
    summary = catalog.ruleset.scenario_summary(scenario)
    if args.format == "json":
        print_json(summary)
    else:
        for key, value in summary.items():
            print(f"{key}: {value}")
    return 1 if catalog.errors else 0  # shown from a pack with errors (printed above): as 'scenarios' does
