"""Side views: the CPU time of a seat's view per decision (view.side_view with the seat's
ViewCopies), on heuristic games of a scenario replayed from their actions, so the bots' time is
left out and the same views are made at every round.

    python benchmarks/bench_views.py [--scenario I] [--seeds 6] [--rounds 5] [--fresh]

Each round replays the games once, timing every side_view call with the thread's CPU clock (the
clock's own cost, measured first, is taken off). The figure is the minimum over the rounds (on a
shared machine the load only adds); the median is printed beside it. ``--fresh``: views made
afresh at every decision (no seat copies), as the search bot makes them. Issue #30's goal for a
heuristic game of I: the view's share <= 0.012 s a game.
"""
from __future__ import annotations

import argparse
import statistics
import time

from sandtable.rules.catalog import load_catalog
from sandtable.rules.desert_steel.engine.game import Game, make_context
from sandtable.rules.desert_steel.engine.runner import play, sample_setup
from sandtable.rules.desert_steel.engine.view import ViewCopies, side_view

CLOCK = time.thread_time_ns


def clock_cost() -> float:
    """The clock's own cost a call, in ns (median of many)."""
    costs = []
    for _ in range(100_000):
        t = CLOCK()
        costs.append(CLOCK() - t)
    return statistics.median(costs)


def replay_views(model, scenario, setup, ctx, logs: dict, fresh: bool) -> tuple[int, int]:
    """Replay each game, timing every side view: (ns in all, views made)."""
    spent = made = 0
    for seed, actions in logs.items():
        game = Game(model, scenario, setup, seed, context=ctx)
        seats = {"allied": ViewCopies(), "axis": ViewCopies()}
        for action in actions:
            side = game.side_to_act
            copies = None if fresh else seats[side]
            t = CLOCK()
            side_view(game, side, copies)
            spent += CLOCK() - t
            made += 1
            game.apply(action)
    return spent, made


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--scenario", default="I")
    ap.add_argument("--seeds", type=int, default=6, help="games (seeds 1..N)")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--fresh", action="store_true", help="views made afresh (no seat copies)")
    args = ap.parse_args()
    catalog = load_catalog()
    model = catalog.model
    scenario = model.scenario(args.scenario)
    ctx, setup = make_context(model, scenario), sample_setup(catalog, scenario)
    logs = {s: list(play(model, scenario, setup, s, ("heuristic", "heuristic"), context=ctx).actions)
            for s in range(1, args.seeds + 1)}
    cost = clock_cost()
    per_view = []
    for _ in range(args.rounds):
        spent, made = replay_views(model, scenario, setup, ctx, logs, args.fresh)
        per_view.append((spent / made - cost) / 1000)
    decisions = made / len(logs)
    best = min(per_view)
    print(f"{args.scenario}, {len(logs)} heuristic games replayed, {decisions:.0f} decisions a game, "
          f"{'fresh views' if args.fresh else 'seat views'}: {best:.2f} us a view (median of "
          f"{args.rounds} rounds {statistics.median(per_view):.2f}), {best * decisions / 1e6:.4f} s a game")


if __name__ == "__main__":
    main()
