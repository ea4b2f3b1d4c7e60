"""Desert Steel board commands: setup, los, zone, path (SCENARIO is an id or a roman number)."""
from __future__ import annotations

import sys

from sandtable.rules.board import BoardError
from sandtable.rules.desert_steel.battlefield import Battlefield
from sandtable.rules.desert_steel.zones import ZoneError

from .common import add_json_flags, add_pack_option, load_pack, print_json, usage_error



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




def _field(args):
    catalog = _model(args)
    model = catalog.model
    scenario = model.scenario(args.scenario) if model else None
    if scenario is None:
        known = ", ".join(f"{s.number} ({s.id})" for s in model.scenarios.values()) if model else ""
        raise LookupError(f"no scenario {args.scenario!r}; known: {known}")
    return model, scenario, Battlefield.for_scenario(model, scenario, getattr(args, "turn", 1))


def _hex(field: Battlefield, ref: str) -> str:
    key = field.board.resolve(ref.upper())
    if key is None:
        raise LookupError(f"no hex {ref!r} on this board (maps {', '.join(field.board.maps())}; write e.g. "
                          f"{field.board.maps()[0]}2213)")
    return key


def run_setup(args) -> int:
    from sandtable.rules import atomic
    from sandtable.rules.desert_steel.autosetup import AutoSetupError, auto_setup
    try:
        model, scenario, _ = _field(args)
    except (LookupError, BoardError) as exc:
        return usage_error(str(exc))
    try:
        setup = auto_setup(model, scenario, args.seed)
    except AutoSetupError as exc:
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
        _, _, field = _field(args)
        a, b = _hex(field, args.frm), _hex(field, args.to)
    except (LookupError, BoardError) as exc:
        return usage_error(str(exc))
    result = field.los(a, b)
    if args.format == "json":
        out = result.to_json()
        out.update({"from": a, "to": b, "visibility": field.visibility})
        if not args.explain:
            out.pop("steps")
        print_json(out)
        return 0
    word = "visible" if result.visible else "blocked"
    section = "" if "§" in result.reason else f" [§{result.section}]"
    print(f"{a} -> {b}: {word}, {result.distance} hexes (visibility {field.visibility}) — {result.reason}{section}")
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
        model, scenario, field = _field(args)
    except (LookupError, BoardError) as exc:
        return usage_error(str(exc))
    side = scenario.sides[args.side]
    groups = [(g, "setup", g.get("setup"), 1) for g in side.groups if "setup" in g]
    groups += [(g, "enter", g["enter"]["zone"], g["enter"]["turn"]) for g in side.groups if "enter" in g]
    groups += [(r, "enter", r.get("zone"), r["turn"]) for r in side.reinforcements]
    match = next(((how, z, turn) for g, how, z, turn in groups if args.card in g["cards"]), None)
    if match is None or match[1] is None:
        return usage_error(f"card {args.card} has no zone among the {args.side} formations of {scenario.id}")
    how, expression, turn = match
    try:
        hexes = sorted(field.zone(expression))
    except ZoneError as exc:
        print(f"sandtable: the zone cannot be evaluated: {exc}", file=sys.stderr)
        return 1
    if args.format == "json":
        print_json({"scenario": scenario.id, "side": args.side, "card": args.card, "placement": how, "turn": turn,
                    "expression": expression, "count": len(hexes), "hexes": hexes})
    else:
        print(f"{scenario.id} {args.side} card {args.card}: {how} (turn {turn}), {len(hexes)} hexes")
        for i in range(0, len(hexes), 12):
            print("  " + " ".join(hexes[i:i + 12]))
    return 0


def run_path(args) -> int:
    import networkx as nx
    try:
        model, _, field = _field(args)
        a, b = _hex(field, args.frm), _hex(field, args.to)
    except (LookupError, BoardError) as exc:
        return usage_error(str(exc))
    unit = model.unit_types.get(args.unit)
    if unit is None:
        return usage_error(f"no unit type {args.unit!r}")
    try:
        route, cost = field.path(unit, a, b)
    except nx.NetworkXNoPath:
        if args.format == "json":
            print_json({"from": a, "to": b, "unit": unit.id, "path": None, "cost": None})
        else:
            print(f"{unit.name} cannot go from {a} to {b}")
        return 1
    if args.format == "json":
        print_json({"from": a, "to": b, "unit": unit.id, "movement": field.allowance(unit), "path": route,
                    "cost": cost, "turns_at_full_mp": -(-cost // field.allowance(unit))})
    else:
        print(f"{unit.name} ({field.allowance(unit)} MP): {' '.join(route)} — {cost:g} MP")
    return 0
