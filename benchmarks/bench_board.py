"""Board benchmark: build a two-map board, line of sight for all pairs, one query, check-setup.

Run: python benchmarks/bench_board.py  (after the README's install). Prints medians of
several repetitions; pinned to one core where the OS allows.
"""
from __future__ import annotations

import json
import os
import random
import statistics
import time
from pathlib import Path

from sandtable.rules.board import Board
from sandtable.rules.catalog import bundled_pack, load_catalog
from sandtable.rules.desert_steel.battlefield import Battlefield
from sandtable.rules.desert_steel.setup_checks import check_setup
from sandtable.rules.desert_steel.visibility import VisibilityTable
from sandtable.rules.findings import finding


def median_time(fn, repeat=5):
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times), min(times)


def main() -> None:
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    model = load_catalog().model
    scenario = model.scenario("XV")  # Kasserine: maps A and B side by side, the largest scenario
    conf = scenario.configuration
    maps = [[dict(m.raw) for m in row] for row in conf.layout]
    results = {}
    results["board_build_s"] = median_time(lambda: Board.from_sheets(maps, conf.north).graph)
    results["battlefield_build_s"] = median_time(lambda: Battlefield.for_scenario(model, scenario).board.graph)
    field = Battlefield.for_scenario(model, scenario)
    field.visibility = 12
    table = VisibilityTable(field)
    results["los_all_pairs_vis12_s"] = median_time(lambda: VisibilityTable(field), repeat=3)
    results["los_pairs_visible"] = table.pairs
    rng = random.Random(1)
    keys = sorted(field.board.usable)
    pairs = [(a, b) for a, b in ((rng.choice(keys), rng.choice(keys)) for _ in range(20000))
             if field.board.distance(a, b) <= 12]
    t = time.perf_counter()
    for a, b in pairs:
        field.los(a, b)
    results["los_explained_query_us"] = (time.perf_counter() - t) / len(pairs) * 1e6
    t = time.perf_counter()
    for a, b in pairs * 10:
        table.visible(a, b)
    results["los_table_query_us"] = (time.perf_counter() - t) / (len(pairs) * 10) * 1e6
    setup = json.loads((bundled_pack() / "setups" / "15-kasserine-pass.json").read_text())
    report = lambda code, msg, ptr="", **kw: finding(code, msg, pointer=ptr, **kw)  # noqa: E731
    results["check_setup_kasserine_s"] = median_time(lambda: check_setup(model, setup, report))
    results["catalog_load_s"] = median_time(lambda: load_catalog(), repeat=3)
    out = Path(__file__).parent / ".generated"
    out.mkdir(exist_ok=True)
    (out / "board.json").write_text(json.dumps(results, indent=2))
    goals = {"board_build_s": 0.3, "los_all_pairs_vis12_s": 2.0, "los_table_query_us": 50,
             "check_setup_kasserine_s": 0.1}
    for key, value in results.items():
        shown = f"{value[0]:.4f} s (min {value[1]:.4f})" if isinstance(value, tuple) else f"{value:,.1f}"
        goal = goals.get(key)
        print(f"{key:<28} {shown}" + (f"   goal < {goal}" if goal else ""))


if __name__ == "__main__":
    main()
