"""Engine benchmark: heuristic against heuristic.

Median full-game time on one core for Beda Fomm (I) and Kasserine Pass (XV, the largest
scenario), games per second on one core for every scenario I-XV (those the engine refuses
say why), Beda Fomm's games per second with 2 worker processes, a random playout of Beda Fomm
(random against random, as a search's rollout plays: per game and per decision), memory of a game
state, and the cost of clone(). Run: python benchmarks/bench_engine.py (about two minutes);
``--quick``: Beda Fomm, Kasserine (5 games), the random playout and clone() only. To compare with an older
commit, run this file with that checkout's package on the path (it reads only the public surface).
"""
from __future__ import annotations

import json
import os
import sys
import statistics
import time
import tracemalloc
from pathlib import Path

from sandtable.rules.catalog import load_catalog
from sandtable.rules.desert_steel.engine.context import EngineError
from sandtable.rules.desert_steel.engine.game import Game, make_context
from sandtable.rules.desert_steel.engine.runner import play, sample_setup, simulate

SCENARIOS = ("I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X", "XI", "XII", "XIII", "XIV", "XV")
MEDIAN_GAMES = 20  # Beda Fomm and Kasserine: the median of this many seeds
BUDGET_S = 6.0  # the other scenarios: games until this much time is spent (at least 2, at most 20)
RANDOM_GAMES = 20  # random playouts of Beda Fomm: the median of this many seeds
GOALS = {"beda_fomm_median_game_s": "<= 0.1", "kasserine_median_game_s": "<= 1", "clone_ms": "<= 1"}


def _game_times(catalog, scenario_id: str, games: int, budget: float | None = None) -> list[float]:
    """Seconds per game, seeds 0, 1, ... (one context for all, as a batch uses it). Raises
    EngineError when the engine refuses the scenario."""
    model = catalog.model
    scenario = model.scenario(scenario_id)
    ctx = make_context(model, scenario)
    setup = sample_setup(catalog, scenario)
    times: list[float] = []
    start = time.perf_counter()
    while len(times) < games and (budget is None or len(times) < 2 or time.perf_counter() - start < budget):
        t = time.perf_counter()
        play(model, scenario, setup, len(times), ("heuristic", "heuristic"), context=ctx)
        times.append(time.perf_counter() - t)
    return times


def _random_playouts(catalog, out: dict) -> None:
    model = catalog.model
    scenario = model.scenario("I")
    ctx, setup = make_context(model, scenario), sample_setup(catalog, scenario)
    times, decisions = [], []
    for seed in range(RANDOM_GAMES):
        t = time.perf_counter()
        game = play(model, scenario, setup, seed, ("random", "random"), context=ctx)
        times.append(time.perf_counter() - t)
        decisions.append(len(game.actions))
    out["beda_fomm_random_playout_ms"] = 1000 * statistics.median(times)
    out["beda_fomm_random_decision_us"] = 1e6 * sum(times) / sum(decisions)


def _one_core(catalog, out: dict, quick: bool = False) -> list[str]:
    """Timings pinned to one core; returns the per-scenario report lines."""
    _random_playouts(catalog, out)
    beda = _game_times(catalog, "I", MEDIAN_GAMES)
    out["beda_fomm_median_game_s"] = statistics.median(beda)
    out["beda_fomm_games_per_s_one_core"] = 1 / statistics.mean(beda)
    kasserine = _game_times(catalog, "XV", 5 if quick else MEDIAN_GAMES)
    out["kasserine_median_game_s"] = statistics.median(kasserine)
    per_scenario, lines = {}, []
    if quick:
        return lines
    for sid in SCENARIOS:
        try:
            make_context(catalog.model, catalog.model.scenario(sid))
        except EngineError as e:  # what the engine cannot play yet, and why
            per_scenario[sid] = f"refused: {e}"
            lines.append(f"  {sid:<5} refused: {e}")
            continue
        times = {"I": beda, "XV": kasserine}.get(sid) or _game_times(catalog, sid, 20, BUDGET_S)
        per_scenario[sid] = round(1 / statistics.mean(times), 3)
        lines.append(f"  {sid:<5} {per_scenario[sid]:>8.2f} games/s   ({len(times)} games, median "
                     f"{statistics.median(times):.3f} s)")
    out["games_per_s_one_core"] = per_scenario
    return lines


def main() -> None:
    catalog = load_catalog()
    model = catalog.model
    scenario = model.scenario("I")
    setup = sample_setup(catalog, scenario)
    out: dict = {}
    affinity = os.sched_getaffinity(0) if hasattr(os, "sched_getaffinity") else None
    if affinity:
        os.sched_setaffinity(0, {min(affinity)})
    quick = "--quick" in sys.argv[1:]
    lines = _one_core(catalog, out, quick)
    if affinity:
        os.sched_setaffinity(0, affinity)
    if not quick:
        t = time.perf_counter()
        simulate([], scenario.id, setup, 100, 1, jobs=2)
        out["beda_fomm_games_per_s_jobs_2"] = 100 / (time.perf_counter() - t)
    ctx = make_context(model, scenario)
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
    if not quick:
        path = Path(__file__).parent / ".generated"
        path.mkdir(exist_ok=True)
        (path / "engine.json").write_text(json.dumps(out, indent=2))
    for k, v in out.items():
        if k == "games_per_s_one_core" and lines:
            print("games per second, one core, heuristic against heuristic:")
            print("\n".join(lines))
            continue
        print(f"{k:<34} {v:,.4f}" + (f"   goal {GOALS[k]}" if k in GOALS else ""))


if __name__ == "__main__":
    main()
