"""Sweep benchmark: games per second of one sweep on 1 and 2 local worker processes and on a
real 2-worker Dask cluster on this machine (dask scheduler + 2 dask worker processes on
127.0.0.1), the speed-up over one worker, the cluster's per-game overhead, and a check that
the three backends return the same games.

Run: python benchmarks/bench_sweep.py [--scenario III] [--games 24] [--bots heuristic,heuristic]
(two points: the pack as it is and one changed value; REPS x 3 x 2 x GAMES games in all).
Needs the 'cluster' extra (pip install -e '.[cluster]'). Writes benchmarks/.generated/sweep.json.

The timed part is playing (sweep.run): building and validating the points happens once before,
as in `sandtable sweep`, and the cluster's start-up is reported apart. On a machine shared with
other work the figures move with the load: the backends are timed in turn (1, 2,
cluster, repeated --reps times) and the best run of each backend is kept.

Linux's autogroup scheduler (kernel.sched_autogroup_enabled=1, as here) shares the CPU fairly
between *sessions*, not processes: on a busy machine a pool of 2 workers forked in one session
gets the CPU of one, while the Dask workers (each started in its own session, as on separate
machines) get a share each. So that the comparison measures the backends and not the
scheduler, the benchmark starts each local pool worker in its own session (os.setsid in the
pool initializer); --same-session measures the pool as `sandtable sweep --jobs 2` runs it.
On an idle machine the two give the same figures.
"""
from __future__ import annotations

import argparse
import json
import os
import tempfile
import time
from pathlib import Path

from sandtable.cli.sweep_cmd import build_plan
from sandtable.rules.lab import batch as batches
from sandtable.rules.lab import sweep as sw
from sandtable.rules.lab.cluster import local_cluster

OUT = Path(__file__).resolve().parent / ".generated" / "sweep.json"
VARY = {"I": "unit-type:it-m13-40/defense=4", "III": "scenario:gazala/conditions/turns=10",
        "II": "scenario:battleaxe/conditions/turns=10"}


_POOL_INIT = batches._local_init
_MAIN_PID = os.getpid()


def _own_session(table) -> None:
    """Pool worker initializer for the benchmark: each worker in its own session (see the module doc)."""
    if os.getpid() != _MAIN_PID:  # --jobs 1 plays in this process, which keeps its session
        os.setsid()
    _POOL_INIT(table)


def timed(plan, *, jobs=1, scheduler=None, chunk=2) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        sw.start_folder(folder, plan)
        records, stats = sw.run(plan, folder, jobs=jobs, scheduler=scheduler, chunk_size=chunk)
    return {"games": stats.played, "seconds": round(stats.seconds, 3), "setup_seconds": round(stats.setup_seconds, 3),
            "games_per_second": round(stats.played / stats.seconds, 3),
            "game_seconds_in_workers": round(stats.game_seconds, 3), "records": records}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scenario", default="III", choices=sorted(VARY))
    ap.add_argument("--games", type=int, default=24, help="games at each of the two points")
    ap.add_argument("--bots", default="heuristic,heuristic")
    ap.add_argument("--chunk", type=int, default=2, help="games a task")
    ap.add_argument("--reps", type=int, default=3, help="repetitions of each backend, interleaved; the best is kept")
    ap.add_argument("--same-session", action="store_true",
                    help="leave the local pool's workers in this process's session (see the module doc)")
    ap.add_argument("--dask-profile", action="store_true",
                    help="leave the Dask workers' statistical profiler on (Dask's default; off here, see docs)")
    args = ap.parse_args()
    if not args.same_session:
        batches._local_init = _own_session
    arguments = {"scenario": args.scenario, "vary": [VARY[args.scenario]], "packs": [], "pack": [],
                 "games": args.games, "setups": 0, "bots": args.bots, "seed": 0, "options": {}}
    plan, _, scenario = build_plan(arguments)
    games = 2 * args.games
    load = round(os.getloadavg()[0], 2)
    print(f"{scenario.number} {scenario.name}, {games} games a run (2 points), bots {args.bots}, "
          f"{args.chunk} games a task, {os.cpu_count()} CPUs, load average {load}")

    runs: dict[str, list] = {"local_1": [], "local_2": [], "dask_2": []}
    t0 = time.perf_counter()
    with local_cluster(workers=2, threads=1, profile=args.dask_profile) as address:
        startup = time.perf_counter() - t0
        for rep in range(args.reps):  # interleaved, so a change in the machine's load hits every backend
            runs["local_1"].append(timed(plan, jobs=1, chunk=args.chunk))
            runs["local_2"].append(timed(plan, jobs=2, chunk=args.chunk))
            runs["dask_2"].append(timed(plan, scheduler=address, chunk=args.chunk))
            print(f"  rep {rep + 1}: " + ", ".join(f"{k} {v[-1]['games_per_second']:.2f} games/s"
                                                   for k, v in runs.items()))
    best = {k: max(v, key=lambda r: r["games_per_second"]) for k, v in runs.items()}  # the least disturbed run
    records = [r["records"] for v in runs.values() for r in v]
    same = all(r == records[0] for r in records)
    one, two, dask = best["local_1"], best["local_2"], best["dask_2"]
    one_gps = one["games_per_second"]
    # Per game: the wall time once the tasks could start (a pool forked, or a client connected and
    # the packs shipped: paid once a sweep, reported apart).
    per_game_two = (two["seconds"] - two["setup_seconds"]) / games
    per_game_dask = (dask["seconds"] - dask["setup_seconds"]) / games
    # What a worker spends per game outside playing it (task transfer, scheduling, results back):
    # 2 workers' wall time less the time inside play_chunk, per game.
    idle_two = (2 * (two["seconds"] - two["setup_seconds"]) - two["game_seconds_in_workers"]) / games
    idle_dask = (2 * (dask["seconds"] - dask["setup_seconds"]) - dask["game_seconds_in_workers"]) / games
    out = {"scenario": scenario.id, "games_per_run": games, "bots": args.bots, "games_per_task": args.chunk,
           "pool_workers_in_own_sessions": not args.same_session, "dask_worker_profiler": args.dask_profile,
           "reps": args.reps, "cpus": os.cpu_count(), "load_average_at_start": load,
           "load_average_at_end": round(os.getloadavg()[0], 2),
           "games_per_second": {"local_1": one_gps, "local_2": two["games_per_second"],
                                "dask_2": dask["games_per_second"]},
           "all_runs_games_per_second": {k: [r["games_per_second"] for r in v] for k, v in runs.items()},
           "speedup_over_1": {"local_2": round(two["games_per_second"] / one_gps, 2),
                              "dask_2": round(dask["games_per_second"] / one_gps, 2)},
           "cluster_overhead_ms_per_game": round(1000 * (per_game_dask - per_game_two), 1),
           "worker_time_outside_games_ms_per_game": {"local_2": round(1000 * idle_two, 1),
                                                     "dask_2": round(1000 * idle_dask, 1)},
           "setup_seconds_a_sweep": {"local_2": two["setup_seconds"], "dask_2": dask["setup_seconds"]},
           "cluster_startup_s": round(startup, 2), "same_games_on_every_backend": same}
    print(f"  best: 1 local {one_gps:.2f}, 2 local {two['games_per_second']:.2f}, Dask {dask['games_per_second']:.2f} "
          f"games/s (cluster start {startup:.1f} s, not timed)")
    print(f"  speed-up over 1 worker: local x{out['speedup_over_1']['local_2']}, Dask x{out['speedup_over_1']['dask_2']}")
    print(f"  set-up a sweep: pool {two['setup_seconds']:.2f} s, Dask client and packs shipped {dask['setup_seconds']:.2f} s")
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
