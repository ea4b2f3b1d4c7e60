"""Bot speed: CPU time per game of a scenario for two bots, interleaved seed by seed so that a
shared machine's load falls on both alike (issue 15: a default heuristic game of Beda Fomm must
stay within 1.5x of the first heuristic's time).

    python benchmarks/bench_bots.py [--scenario I] [--seeds 20] [--bots heuristic-v1,heuristic]
                                    [--opponent heuristic]

Each bot plays both sides of its games unless --opponent names the bot it plays against (on the
other side, sides alternating seed by seed): e.g. ``--bots search:16 --opponent heuristic --seeds 2``
times the search bot's games against the heuristic (issue 15: a search game under 30 s).
"""
from __future__ import annotations

import argparse
import statistics
import time

from sandtable.rules.catalog import load_catalog
from sandtable.rules.desert_steel.bots.core import bot_names
from sandtable.rules.desert_steel.engine.game import make_context
from sandtable.rules.desert_steel.engine.runner import play, sample_setup


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--scenario", default="I")
    ap.add_argument("--seeds", type=int, default=20)
    ap.add_argument("--bots", default="heuristic-v1,heuristic")
    ap.add_argument("--opponent", help="the bot the timed bots play against (default: themselves)")
    args = ap.parse_args()
    try:
        bot_names(args.bots + (f",{args.opponent}" if args.opponent else ""))
    except ValueError as exc:
        ap.error(str(exc))
    if args.seeds < 1:
        ap.error("--seeds takes a number of games of at least 1")
    catalog = load_catalog()
    model = catalog.model
    scenario = model.scenario(args.scenario)
    ctx, setup = make_context(model, scenario), sample_setup(catalog, scenario)
    bots = args.bots.split(",")
    times: dict[str, list[float]] = {b: [] for b in bots}
    for seed in range(args.seeds):
        for b in bots:
            pair = (b, b) if not args.opponent else (b, args.opponent) if seed % 2 == 0 else (args.opponent, b)
            start = time.process_time()
            play(model, scenario, setup, seed, pair, context=ctx)
            times[b].append(time.process_time() - start)
    for b, ts in times.items():
        print(f"{scenario.number} {b}: median {statistics.median(ts):.3f} CPU s a game, mean {statistics.mean(ts):.3f}")
    if len(bots) == 2:
        ratio = statistics.median(times[bots[1]]) / statistics.median(times[bots[0]])
        print(f"{bots[1]} / {bots[0]}: {ratio:.2f}x")


if __name__ == "__main__":
    main()
