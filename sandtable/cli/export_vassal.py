"""sandtable export vassal: a VASSAL 3.6 module of a pack, each scenario a predefined setup."""
from __future__ import annotations

import sys
import time

from sandtable.rules import atomic

from .common import add_json_flags, add_pack_option, load_pack, print_json, usage_error


def add_parser(kinds) -> None:
    k = kinds.add_parser("vassal", help="a VASSAL module (.vmod) of the pack: maps with the rulebook's hex ids, "
                         "counters, cards, charts, dice, turn track, every scenario as a predefined setup",
                         description="Write a VASSAL 3.6 module of the pack (mod packs included): boards drawn "
                         "as the print maps with a grid named by the rulebook's hex ids, every counter with both "
                         "faces, facing and hiding, cards, play aids, dice, a turn track, each scenario's text, and "
                         "each scenario as a predefined setup (the pack's sample setup, or the automatic one). "
                         "Opens in VASSAL 3.6 and later; the players enforce the rules.")
    k.add_argument("scenarios", nargs="*", metavar="SCENARIO", help="the scenarios to set up (default: all)")
    k.add_argument("-o", "--output", required=True, metavar="FILE.vmod", help="the module to write")
    k.add_argument("--setup", metavar="SETUP.json", help="a setup of your own for its scenario (replaces the "
                   "pack's sample setup of that scenario; the scenario is added if not named)")
    k.add_argument("--name", help="the module's name (default: Desert Steel)")
    add_pack_option(k)
    add_json_flags(k)
    k.set_defaults(run=run)


def run(args) -> int:
    from sandtable.exports.desert_steel import vassal as desert_steel
    from sandtable.exports.vassal import module, raster

    from .export_cmd import _setup
    started = time.perf_counter()
    catalog = load_pack(args.pack)
    if catalog.errors:
        print("sandtable: the pack has errors; fix them before exporting (see 'sandtable validate')", file=sys.stderr)
        return 1
    try:
        setup = _setup(args.setup, catalog)
        chosen = desert_steel.scenario_setups(catalog, list(args.scenarios), setup, args.setup or "")
        mod = desert_steel.build_module(catalog, chosen, name=args.name)
    except (LookupError, desert_steel.ExportError) as exc:
        return usage_error(str(exc).strip("'\""))
    except raster.RasterError as exc:
        print(f"sandtable: {exc}", file=sys.stderr)
        return 1
    data = module.write_module(mod)
    atomic.write_bytes(args.output, data)
    seconds = time.perf_counter() - started
    report = {"output": str(args.output), "bytes": len(data), "seconds": round(seconds, 2),
              "images": len(mod.images), "pieces": sum(len(f[1]) for p in mod.palettes for f in p.folders),
              "setups": [{"name": s.name, "file": s.file, "pieces": len(s.pieces),
                          "on_map": sum(1 for p in s.pieces if p.map_name == desert_steel.BATTLEFIELD)}
                         for s in mod.setups]}
    if args.format == "json":
        print_json(report)
    else:
        print(f"wrote {args.output}: {len(data) / 1e6:.1f} MB, {report['pieces']} piece kinds, "
              f"{len(mod.setups)} predefined setup(s), {seconds:.1f} s")
        for s in report["setups"]:
            print(f"  {s['name']}: {s['pieces']} pieces ({s['on_map']} on the maps)")
    return 0
