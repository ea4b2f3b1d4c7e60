"""``sandtable simulate``: a sweep of one point. N games of a scenario played by the batch runner
(batch.py) in this process, local worker processes or on a Dask cluster, reported by the
ruleset's own balance summary; the same seed gives the same report whatever the backend.

Unlike a sweep it keeps no folder: records stream into the summary in game order (a batch of a
billion games is never listed, and the summary folds what it no longer needs).
"""
from __future__ import annotations

import os
from typing import Callable

import sandtable

from . import batch as batches
from . import bundle as bundles

# Chunks in flight on a cluster: enough to keep many workers busy, few enough that the batch
# is never listed whole.
WINDOW = 256


def summary_row(record: dict) -> dict:
    """A game record as the ruleset's batch summary takes it: numbered by ``index``, no point."""
    row = {k: v for k, v in record.items() if k not in ("point", "game")}
    row["index"] = record["game"]
    return row


def simulate(catalog, scenario, setups, games: int, seed: int, bots, *, jobs: int = 1, scheduler: str | None = None,
             connect_timeout: float = 20.0, options: dict | None = None,
             progress: Callable[[int, int], None] | None = None):
    """The ruleset's summary (``to_json``) of ``games`` games; game i has seed game_seed(seed, i)
    and setup ``setups[i % len(setups)]`` (a list, made up front or lazily).

    BatchError: the engine cannot play the scenario, or the cluster cannot be used; the play
    contribution's SetupError: a lazily made setup cannot be made."""
    play = batches.play_door(catalog)
    setups = setups if isinstance(setups, list) else [setups]
    batch = batches.Batch({"scenario": scenario.id, "setups": setups, "bots": list(bots), "options": options or {},
                           "timed": True}, {0: (bundles.bundle_of(catalog), [])})
    summary = play.summary(scenario.id, games, seed, tuple(bots))

    def add(record: dict) -> None:
        if "error" in record:
            raise batches.BatchError(record["error"])
        summary.add(summary_row(record))
        if progress:
            progress(summary.played, games)
    ordered = batches.Ordered(add)

    def sink(result: dict) -> None:
        if result["version"] != sandtable.__version__:
            raise batches.BatchError(f"a worker runs sandtable {result['version']}, this machine "
                                     f"{sandtable.__version__}: install the same version everywhere")
        ordered(result["records"])

    tasks = batch.tasks(seed, games)
    if scheduler:
        size = max(1, min(games // 16, 64))
        batches.run_dask(batch, batches.chunked(tasks, size), scheduler, sink, connect_timeout,
                         window=WINDOW)
    else:
        jobs = max(1, min(jobs, games, os.cpu_count() or 1))  # more workers than games or CPUs only cost memory
        size = max(1, min(games // (jobs * 8), 64))
        batches.run_local(batch, batches.chunked(tasks, size), jobs, sink, ordered=True)
    if ordered.held:  # a chunk never came back: said, never a report of fewer games
        raise batches.BatchError(f"{len(ordered.held)} games came back without the games before them")
    summary.results.sort(key=lambda r: r["index"])
    return summary


def ladder(catalog, scenario, setups, games: int, search_games: int, seed: int, budgets, *, jobs: int = 1,
           scheduler: str | None = None, connect_timeout: float = 20.0, options: dict | None = None,
           progress: Callable[[str, int, int], None] | None = None):
    """The ruleset's strength ladder (``simulate --ladder``): each level a batch of this runner,
    the same games ``simulate --bots B,B --games n --seed S`` plays, whatever --jobs or
    --scheduler. ``progress(bot, done, total)`` as a level's games finish.

    BatchError as simulate's."""
    play = batches.play_door(catalog)

    def batch(bots, n):
        tick = (lambda done, total: progress(bots[0], done, total)) if progress else None
        return simulate(catalog, scenario, setups, n, seed, bots, jobs=jobs, scheduler=scheduler,
                        connect_timeout=connect_timeout, options=options, progress=tick).to_json()
    return play.strength_ladder(batch, scenario.id, games, search_games, seed, budgets)
