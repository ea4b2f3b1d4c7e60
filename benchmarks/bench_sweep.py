"""Sweep benchmark: games per second of one sweep on 1 and 2 local worker processes and on a
real 2-worker Dask cluster on this machine (dask scheduler + 2 dask worker processes on
127.0.0.1), the speed-up over one worker, the cluster's per-game overhead, and a check that
the three backends return the same games.

Run: python benchmarks/bench_sweep.py [--scenario III] [--games 24] [--bots heuristic,heuristic]
(two points: the pack as it is and one changed value; about 3 x 2 x GAMES games in all).
Needs the 'cluster' extra (pip install -e '.[cluster]'). Writes benchmarks/.generated/sweep.json.

The timed part is playing (sweep.run): building and validating the points happens once before,
as in `sandtable sweep`, and the cluster's start-up is reported apart. On a machine shared with
other work the figures move with the load: the 1-worker run is timed between the others (1, 2,
cluster, 1 again) and the mean of its two runs is used.
"""
from __future__ import annotations

import argparse
import json
import os
import tempfile
import time
from pathlib import Path

from sandtable.cli.sweep_cmd import build_plan
from sandtable.rules.lab import sweep as sw
from sandtable.rules.lab.cluster import local_cluster

OUT = Path(__file__).resolve().parent / ".generated" / "sweep.json"
VARY = {"I": "unit-type:it-m13-40/defense=4", "III": "scenario:gazala/conditions/turns=10",
        "II": "scenario:battleaxe/conditions/turns=10"}


def timed(plan, *, jobs=1, scheduler=None, chunk=2) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        sw.start_folder(folder, plan)
        records, stats = sw.run(plan, folder, jobs=jobs, scheduler=scheduler, chunk_size=chunk)
    return {"games": stats.played, "seconds": round(stats.seconds, 3),
            "games_per_second": round(stats.played / stats.seconds, 3),
            "game_seconds_in_workers": round(stats.game_seconds, 3), "records": records}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scenario", default="III", choices=sorted(VARY))
    ap.add_argument("--games", type=int, default=24, help="games at each of the two points")
    ap.add_argument("--bots", default="heuristic,heuristic")
    ap.add_argument("--chunk", type=int, default=2, help="games a task")
    args = ap.parse_args()
    arguments = {"scenario": args.scenario, "vary": [VARY[args.scenario]], "packs": [], "pack": [],
                 "games": args.games, "setups": 0, "bots": args.bots, "seed": 0, "options": {}}
    plan, _, scenario = build_plan(arguments)
    games = 2 * args.games
    print(f"{scenario.number} {scenario.name}, {games} games a run (2 points), bots {args.bots}, "
          f"{args.chunk} games a task, {os.cpu_count()} CPUs, load {os.getloadavg()[0]:.1f}")

    one_a = timed(plan, jobs=1, chunk=args.chunk)
    print(f"  1 local worker : {one_a['games_per_second']:.2f} games/s")
    two = timed(plan, jobs=2, chunk=args.chunk)
    print(f"  2 local workers: {two['games_per_second']:.2f} games/s")
    t0 = time.perf_counter()
    with local_cluster(workers=2, threads=1) as address:
        startup = time.perf_counter() - t0
        dask = timed(plan, scheduler=address, chunk=args.chunk)
    print(f"  Dask, 2 workers: {dask['games_per_second']:.2f} games/s (cluster start {startup:.1f} s, not timed)")
    one_b = timed(plan, jobs=1, chunk=args.chunk)
    print(f"  1 local worker : {one_b['games_per_second']:.2f} games/s (again)")

    same = one_a["records"] == two["records"] == dask["records"] == one_b["records"]
    one_gps = (one_a["games_per_second"] + one_b["games_per_second"]) / 2
    per_game_two = two["seconds"] / games
    per_game_dask = dask["seconds"] / games
    # What a worker spends per game outside playing it (task transfer, scheduling, results back):
    # 2 workers' wall time less the time inside play_chunk, per game.
    idle_two = (2 * two["seconds"] - two["game_seconds_in_workers"]) / games
    idle_dask = (2 * dask["seconds"] - dask["game_seconds_in_workers"]) / games
    out = {"scenario": scenario.id, "games_per_run": games, "bots": args.bots, "games_per_task": args.chunk,
           "cpus": os.cpu_count(), "load_average_at_start": round(os.getloadavg()[0], 2),
           "games_per_second": {"local_1": round(one_gps, 3), "local_2": two["games_per_second"],
                                "dask_2": dask["games_per_second"]},
           "speedup_over_1": {"local_2": round(two["games_per_second"] / one_gps, 2),
                              "dask_2": round(dask["games_per_second"] / one_gps, 2)},
           "cluster_overhead_ms_per_game": round(1000 * (per_game_dask - per_game_two), 1),
           "worker_time_outside_games_ms_per_game": {"local_2": round(1000 * idle_two, 1),
                                                     "dask_2": round(1000 * idle_dask, 1)},
           "cluster_startup_s": round(startup, 2), "same_games_on_every_backend": same}
    print(f"  speed-up over 1 worker: local x{out['speedup_over_1']['local_2']}, Dask x{out['speedup_over_1']['dask_2']}")
    print(f"  cluster overhead: {out['cluster_overhead_ms_per_game']:+.1f} ms a game against 2 local workers; "
          f"worker time outside games: local {1000 * idle_two:.0f} ms, Dask {1000 * idle_dask:.0f} ms a game")
    print(f"  same games on every backend: {same}")
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(out, indent=2) + "\n")
    print(f"wrote {OUT}")
    if not same:
        raise SystemExit("the backends returned different games")


if __name__ == "__main__":
    main()
