"""sandtable rulesets: every installed ruleset, its distribution and what it can do.

The one command that loads every ruleset plug-in (others load only the one a pack names),
each through the guarded loader (rules/rulesets.py): one that fails is listed with why.
"""
from __future__ import annotations

from sandtable.rules import rulesets

from .common import add_json_flags, print_json

HELP = "list the installed rulesets (built-in and plug-ins), their distribution and capabilities"


def register(sub) -> None:
    p = sub.add_parser("rulesets", help=HELP, description=HELP + ". A plug-in that cannot be loaded is listed "
                       "with the reason (it is loaded in a child process bounded in time and memory first).")
    add_json_flags(p)
    p.set_defaults(run=run)


def run(args) -> int:
    plugins = rulesets._plugins()
    rows = []
    for name in sorted(plugins):
        plugin = plugins[name]
        ruleset = rulesets.get(name)
        rows.append({"name": name, "distribution": plugin.distribution, "entry_point": plugin.target,
                     "built_in": name in rulesets._BUILTIN, "loaded": ruleset is not None,
                     "title": ruleset.title if ruleset else None,
                     "capabilities": sorted(ruleset.capabilities) if ruleset else [],
                     "problem": rulesets.LOAD_ERRORS.get(name) or rulesets.CLASHES.get(name)})
    if args.format == "json":
        print_json(rows)
    else:
        for r in rows:
            state = f"{r['title']} — {len(r['capabilities'])} capabilities" if r["loaded"] else "NOT LOADED"
            print(f"{r['name']:<16} {r['distribution']:<20} {state}")
            if r["problem"]:
                print(f"    {r['problem']}")
    return 1 if any(not r["loaded"] for r in rows) else 0
