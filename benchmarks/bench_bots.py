"""Bot speed: CPU time per game of a scenario for two bots, interleaved seed by seed so that a
shared machine's load falls on both alike (issue 15: a default heuristic game of Beda Fomm must
stay within 1.5x of the first heuristic's time).

    python benchmarks/bench_bots.py [--scenario I] [--seeds 20] [--bots heuristic-v1,heuristic]
"""
from __future__ import annotations

import argparse
import statistics
import time

from sandtable.rules.catalog import load_catalog
from sandtable.rules.desert_steel.engine.game import make_context
from sandtable.rules.desert_steel.engine.runner import play, sample_setup


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--scenario", default="I")
    ap.add_argument("--seeds", type=int, default=20)
    ap.add_argument("--bots", default="heuristic-v1,heuristic")
    args = ap.parse_args()
    catalog = load_catalog()
    model = catalog.model
    scenario = model.scenario(args.scenario)
    ctx, setup = make_context(model, scenario), sample_setup(catalog, scenario)
    bots = args.bots.split(",")
    times: dict[str, list[float]] = {b: [] for b in bots}
    for seed in range(args.seeds):
        for b in bots:
            start = time.process_time()
            play(model, scenario, setup, seed, (b, b), context=ctx)
            times[b].append(time.process_time() - start)
    for b, ts in times.items():
        print(f"{scenario.number} {b}: median {statistics.median(ts):.3f} CPU s a game, mean {statistics.mean(ts):.3f}")
    if len(bots) == 2:
        ratio = statistics.median(times[bots[1]]) / statistics.median(times[bots[0]])
        print(f"{bots[1]} / {bots[0]}: {ratio:.2f}x")


if __name__ == "__main__":
    main()
