"""Engine benchmark: Beda Fomm, heuristic against heuristic.

Median full-game time on one core, games per second with 2 worker processes, memory of a
game state, and the cost of clone(). Run: python benchmarks/bench_engine.py
"""
from __future__ import annotations

import json
import os
import statistics
import time
import tracemalloc
from pathlib import Path

from sandtable.rules.catalog import load_catalog
from sandtable.rules.desert_steel.engine.game import Game, make_context
from sandtable.rules.desert_steel.engine.runner import play, sample_setup, simulate


def main() -> None:
    catalog = load_catalog()
    model = catalog.model
    scenario = model.scenario("I")
    setup = sample_setup(catalog, scenario)
    out = {}
    affinity = os.sched_getaffinity(0) if hasattr(os, "sched_getaffinity") else None
    if affinity:
        os.sched_setaffinity(0, {min(affinity)})
    ctx = make_context(model, scenario)
    times = []
    for seed in range(20):
        t = time.perf_counter()
        play(model, scenario, setup, seed, ("heuristic", "heuristic"), context=ctx)
        times.append(time.perf_counter() - t)
    out["beda_fomm_median_game_s"] = statistics.median(times)
    out["beda_fomm_games_per_s_one_core"] = 1 / statistics.mean(times)
    if affinity:
        os.sched_setaffinity(0, affinity)
    t = time.perf_counter()
    simulate([], scenario.id, setup, 100, 1, jobs=2)
    out["beda_fomm_games_per_s_jobs_2"] = 100 / (time.perf_counter() - t)
    game = Game(model, scenario, setup, seed=1, context=ctx)
    for _ in range(300):  # mid-game: units on the map, markers set
        if game.is_terminal():
            break
        game.apply(game.legal_actions()[0])
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    copy = game.clone()
    out["game_state_bytes"] = tracemalloc.get_traced_memory()[0] - before
    tracemalloc.stop()
    t = time.perf_counter()
    for _ in range(1000):
        game.clone()
    out["clone_ms"] = (time.perf_counter() - t)
    del copy
    path = Path(__file__).parent / ".generated"
    path.mkdir(exist_ok=True)
    (path / "engine.json").write_text(json.dumps(out, indent=2))
    goals = {"beda_fomm_median_game_s": "<= 0.1", "clone_ms": "<= 1"}
    for k, v in out.items():
        print(f"{k:<34} {v:,.4f}" + (f"   goal {goals[k]}" if k in goals else ""))


if __name__ == "__main__":
    main()
