"""Board commands: setup, los, zone, path (SCENARIO is an id or a roman number).

Each asks the pack's ruleset for its ``board`` contribution (doors.py) and says plainly when it
has none. The contribution raises LookupError for what the user named wrong (exit 2),
ValueError for a zone it cannot evaluate and RuntimeError for a setup it cannot make (exit 1).
"""
from __future__ import annotations

import sys

from .common import add_json_flags, add_pack_option, load_pack, print_json, usage_error
from .doors import board_door


def register(sub) -> None:
    p = sub.add_parser("setup", help="make a legal setup for a scenario automatically",
                       description="Make a legal setup: every formation that sets up on the map placed in its "
                       "zone, unseparated, within stacking limits and the scenario's special rules.")
    p.add_argument("scenario", metavar="SCENARIO")
    p.add_argument("--seed", type=int, default=0, help="vary the placement (default 0)")
    p.add_argument("-o", "--output", metavar="FILE", help="write the setup here (atomically) instead of printing it")
    add_pack_option(p)
    p.set_defaults(run=_pack_checked(run_setup))

    p = sub.add_parser("los", help="line of sight between two hexes",
                       description="Line of sight between two hexes of a scenario's board, the blocking hex and "
                       "rule, and the spotting number.")
    p.add_argument("scenario", metavar="SCENARIO")
    p.add_argument("frm", metavar="FROM", help="hex, e.g. B2412 (or 2412 on a one-map board)")
    p.add_argument("to", metavar="TO")
    p.add_argument("--turn", type=int, default=1, help="turn (visibility may change by turn)")
    p.add_argument("--explain", action="store_true", help="list every hex and hexside the line crosses")
    add_pack_option(p)
    add_json_flags(p)
    p.set_defaults(run=_pack_checked(run_los))

    p = sub.add_parser("zone", help="the hexes of a formation's setup or entry zone",
                       description="The hexes where a formation of a scenario sets up or enters.")
    p.add_argument("scenario", metavar="SCENARIO")
    p.add_argument("side", choices=("allied", "axis"))
    p.add_argument("card", type=int, metavar="CARD")
    add_pack_option(p)
    add_json_flags(p)
    p.set_defaults(run=_pack_checked(run_zone))

    p = sub.add_parser("path", help="cheapest path and its cost for a unit type",
                       description="Cheapest path between two hexes for a unit type, in movement points.")
    p.add_argument("scenario", metavar="SCENARIO")
    p.add_argument("unit", metavar="UNIT", help="unit type id, e.g. gb-stuart")
    p.add_argument("frm", metavar="FROM")
    p.add_argument("to", metavar="TO")
    add_pack_option(p)
    add_json_flags(p)
    p.set_defaults(run=_pack_checked(run_path))


def _model(args):
    catalog = load_pack(args.pack)
    args.pack_errors = int(catalog.errors)
    return catalog


def _pack_checked(run):
    """A command answered from a pack with errors (printed on stderr; a broken override is not
    applied) exits 1, not 0: the answer is about the pack as loaded, not as written."""
    def checked(args) -> int:
        code = run(args)
        return 1 if code == 0 and getattr(args, "pack_errors", 0) else code
    return checked




def _scenario(args):
    catalog = _model(args)
    model = catalog.model
    scenario = model.scenario(args.scenario) if model else None
    if scenario is None:
        known = ", ".join(f"{s.number} ({s.id})" for s in model.scenarios.values()) if model else ""
        raise LookupError(f"no scenario {args.scenario!r}; known: {known}")
    return catalog, model, scenario


def run_setup(args) -> int:
    from sandtable.rules import atomic
    try:
        catalog, model, scenario = _scenario(args)
        auto_setup = board_door(catalog, "auto_setup")
    except (LookupError, ValueError) as exc:
        return usage_error(str(exc))
    try:
        setup = auto_setup(model, scenario, args.seed)
    except RuntimeError as exc:
        print(f"sandtable: {exc}", file=sys.stderr)
        return 1
    if args.output:
        atomic.write_json(args.output, setup)
        print(f"wrote {args.output}: {sum(len(s['placements']) for s in setup['sides'].values())} units")
    else:
        print_json(setup)
    return 0


def run_los(args) -> int:
    try:
        catalog, model, scenario = _scenario(args)
        sight = board_door(catalog, "los")(model, scenario, args.frm, args.to, args.turn)
    except (LookupError, ValueError) as exc:
        return usage_error(str(exc))
    a, b, result = sight.frm, sight.to, sight.result
    if args.format == "json":
        out = result.to_json()
        out.update({"from": a, "to": b, "visibility": sight.visibility})
        if not args.explain:
            out.pop("steps")
        print_json(out)
        return 0
    word = "visible" if result.visible else "blocked"
    section = "" if "§" in result.reason else f" [§{result.section}]"
    print(f"{a} -> {b}: {word}, {result.distance} hexes (visibility {sight.visibility}) — {result.reason}{section}")
    if result.visible:
        kind = "in cover" if result.cover else "in the open"
        print(f"spotting number {result.spotting_number} (target {kind})")
    if args.explain:
        for step in result.steps:
            where = "/".join(step.hexes)
            lv = "/".join(str(x) for x in step.levels)
            print(f"  {'hexside ' if len(step.hexes) > 1 else ''}{where} level {lv}: "
                  f"{'BLOCKS' if step.blocks else 'clear'}{' — ' + step.reason if step.reason else ''}")
    return 0


def run_zone(args) -> int:
    try:
        catalog, model, scenario = _scenario(args)
        zone_of = board_door(catalog, "zone")
    except (LookupError, ValueError) as exc:
        return usage_error(str(exc))
    try:
        zone = zone_of(model, scenario, args.side, args.card)
    except LookupError as exc:
        return usage_error(str(exc))
    except ValueError as exc:
        print(f"sandtable: the zone cannot be evaluated: {exc}", file=sys.stderr)
        return 1
    how, expression, turn, hexes = zone.how, zone.expression, zone.turn, zone.hexes
    if args.format == "json":
        print_json({"scenario": scenario.id, "side": args.side, "card": args.card, "placement": how, "turn": turn,
                    "expression": expression, "count": len(hexes), "hexes": hexes})
    else:
        print(f"{scenario.id} {args.side} card {args.card}: {how} (turn {turn}), {len(hexes)} hexes")
        for i in range(0, len(hexes), 12):
            print("  " + " ".join(hexes[i:i + 12]))
    return 0


def run_path(args) -> int:
    try:
        catalog, model, scenario = _scenario(args)
        route = board_door(catalog, "path")(model, scenario, args.unit, args.frm, args.to)
    except (LookupError, ValueError) as exc:
        return usage_error(str(exc))
    a, b, unit = route.frm, route.to, route.unit
    if route.path is None:
        if args.format == "json":
            print_json({"from": a, "to": b, "unit": unit.id, "path": None, "cost": None})
        else:
            print(f"{unit.name} cannot go from {a} to {b}")
        return 1
    cost = route.cost
    if args.format == "json":
        print_json({"from": a, "to": b, "unit": unit.id, "movement": route.allowance, "path": route.path,
                    "cost": cost, "turns_at_full_mp": -(-cost // route.allowance)})
    else:
        print(f"{unit.name} ({route.allowance} MP): {' '.join(route.path)} — {cost:g} MP")
    return 0
