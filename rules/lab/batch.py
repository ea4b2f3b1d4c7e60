"""The one batch runner: game tasks in, game records out, on this process, local worker
processes or a Dask cluster, the same records whichever.

A task is (point, game, seed, setup index); a batch is the packs of each point (a Bundle and
its patches, see bundle.py) and a context (scenario, setups, bots, options) shared by every
game. A game depends only on its pack, point, setup, seed and bots, so no backend changes a
result. ``sandtable sweep`` runs many points; ``sandtable simulate`` is a sweep of one point;
the editor's quick game plays its games through ``play_games`` in its own process.

The games are the pack's ruleset's: a worker rebuilds the catalog from the bundle and asks the
ruleset for its ``play`` contribution; nothing here knows a ruleset.
"""
from __future__ import annotations

import os
import time
from dataclasses import dataclass, field
from typing import Callable, Iterable, Iterator

import sandtable

from . import bundle as bundles
from ..workers import sigint_held, worker_signals


class BatchError(ValueError):
    """A batch that cannot run (no engine, an unreachable cluster...); the message is for the user."""


class SweepError(BatchError):
    """A sweep that cannot start or go on (bad scenario, pack with errors, unusable --resume
    folder, a cluster lost); defined here so the folder checks need not import the sweep."""


def game_seed(batch_seed: int, index: int) -> int:
    """Game i's seed in a batch seeded ``batch_seed`` (what ``play --seed`` takes to replay it).
    The batch's own rule, the one every ruleset's runner has used (tests hold the two equal)."""
    return (batch_seed * 1_000_003 + index * 7919 + 17) % (2 ** 31)


def play_door(catalog):
    """The ``play`` contribution's runner of a catalog's ruleset (BatchError when it has none)."""
    ruleset = getattr(catalog, "ruleset", None)
    if ruleset is None or ruleset.play is None or ruleset.play.runner is None:
        name = getattr(ruleset, "name", None) or "unknown"
        raise BatchError(f"the pack's ruleset ({name}) has no game engine: a batch plays games")
    return ruleset.play.runner.load()


@dataclass
class Batch:
    """What every worker needs: each point's packs and the context the games share."""

    context: dict  # scenario (id), setups (list of setup documents), bots, options
    points: dict  # point index -> (Bundle, patches)

    def tasks(self, seed: int, games: int, valid: Iterable[int] | None = None) -> Iterator[tuple[int, int, int, int]]:
        """(point, game, seed, setup) for every game of every valid point; interleaved so a
        partial batch covers every point evenly; lazily (a billion games are never listed)."""
        valid = sorted(self.points) if valid is None else list(valid)
        setups = len(self.context["setups"])
        for g in range(games):
            s = game_seed(seed, g)
            for p in valid:
                yield p, g, s, g % setups


# --- what a worker runs ------------------------------------------------------------------

_CACHE: dict = {}  # (bundle key, patch key, scenario) -> (play door, model, scenario, game context)


def _prepared(bundle, patches, scenario_id):
    key = (bundle.key, bundles.patch_key(patches), scenario_id)
    hit = _CACHE.get(key)
    if hit is None:
        if len(_CACHE) >= 8:
            _CACHE.pop(next(iter(_CACHE)))
        catalog = bundles.load_bundle(bundle, patches, checks=False)
        play = play_door(catalog)
        model = catalog.model
        scenario = model.scenario(scenario_id)
        try:
            game_context = play.context(model, scenario)
        except play.GameError as exc:  # the engine refuses the scenario: every game of the chunk says so
            raise BatchError(str(exc)) from None
        hit = _CACHE[key] = (play, model, scenario, game_context)
        _settle()
    return hit


def _settle() -> None:
    """In a worker process (a pool's or a Dask worker's, never the caller's own), the pack and
    the scenario's context just made live as long as the worker: taken out of the cyclic
    collector's sweeps (gc.freeze), so the full collections a long batch triggers no longer walk
    them again and again (measured in the commit). Garbage is collected first, so only what lives
    is frozen; a frozen object that dies later is still freed by its reference count.
    SANDTABLE_GC_FREEZE=0 turns it off (to measure it)."""
    import gc
    import multiprocessing
    if os.environ.get("SANDTABLE_GC_FREEZE", "1") != "0" and multiprocessing.parent_process() is not None:
        gc.collect()
        gc.freeze()


def play_games(play, model, scenario, game_context, context: dict, games: list, timed: bool = False) -> list:
    """The records of games [(point, game, seed, setup index), ...] played here.

    A game the engine cannot play is a record with its ``error``; a setup that cannot be made
    (a lazily made automatic one) raises the ruleset's SetupError: no game of the batch can
    stand in for it. ``timed`` adds each game's ``seconds`` (simulate reports them; a sweep's
    results never depend on the machine)."""
    records = []
    for p, g, s, k in games:
        head = {"point": p, "game": g, "seed": s, "setup": k}
        setup = context["setups"][k]
        start = time.perf_counter()
        try:
            recorder = play.recorder()
            game = play.play(model, scenario, setup, s, tuple(context["bots"]), context=game_context,
                             options=context.get("options") or None, recorder=recorder)
            records.append({**head, **play.record(game, recorder)})
        except (play.GameError, RuntimeError, KeyError, ValueError) as exc:  # a point may break the engine
            records.append({**head, "error": f"{type(exc).__name__}: {exc}"})
            continue
        if timed:
            records[-1]["seconds"] = time.perf_counter() - start
    return records


def play_chunk(bundle, patches, context: dict, games: list) -> dict:
    """Play games of one point; the worker-side task. ``bundle`` and ``context`` arrive with the
    task: a worker needs sandtable installed, not the pack."""
    start = time.perf_counter()
    try:
        play, model, scenario, game_context = _prepared(bundle, patches, context["scenario"])
    except BatchError as exc:
        return {"version": sandtable.__version__, "seconds": 0.0,
                "records": [{"point": p, "game": g, "seed": s, "setup": k, "error": str(exc)} for p, g, s, k in games]}
    records = play_games(play, model, scenario, game_context, context, games, timed=context.get("timed", False))
    return {"version": sandtable.__version__, "seconds": time.perf_counter() - start, "records": records}


# --- backends ----------------------------------------------------------------------------

def chunked(tasks: Iterable, size: int) -> Iterator[tuple[int, list]]:
    """Tasks grouped by point into chunks of at most ``size`` games, in task order; the
    unfinished chunks last, by point."""
    open_: dict = {}
    for t in tasks:
        cur = open_.setdefault(t[0], [])
        cur.append(t)
        if len(cur) >= size:
            yield t[0], open_.pop(t[0])
    yield from open_.items()


_LOCAL: dict = {}


def _local_init(table: dict) -> None:
    import multiprocessing
    if multiprocessing.parent_process() is not None:
        worker_signals()
    _LOCAL.clear()
    _LOCAL.update(table)


def _local_chunk(item) -> dict:
    point, games = item
    bundle, patches, context = _LOCAL[point]
    return play_chunk(bundle, patches, context, games)


def run_local(batch: Batch, work: Iterable, jobs: int, sink: Callable, started=lambda: None,
              ordered: bool = False) -> None:
    """Chunks [(point, games), ...] played in this process (jobs 1) or a pool of ``jobs`` processes."""
    import multiprocessing
    import sys
    table = {p: (b, patches, batch.context) for p, (b, patches) in batch.points.items()}
    if jobs <= 1:
        _local_init(table)
        started()
        for item in work:
            sink(_local_chunk(item))
        return
    from ..atomic import terminate_raises
    ctx = multiprocessing.get_context("fork" if sys.platform != "win32" else "spawn")
    # The packs reach the workers once, as the pool's initializer arguments (inherited
    # through fork, pickled with spawn): a chunk carries only its point and games.
    with terminate_raises():
        with sigint_held():  # a Ctrl-C while the workers are forked reaches none of them half-made
            pool = ctx.Pool(jobs, initializer=_local_init, initargs=(table,))
        with pool:
            started()
            for out in (pool.imap if ordered else pool.imap_unordered)(_local_chunk, work):
                sink(out)


def run_dask(batch: Batch, work: Iterable, address: str, sink: Callable, timeout: float = 20.0,
             started=lambda: None, window: int = 0, resumable: bool = False) -> None:
    """Chunks played on the Dask scheduler at ``address``. At most ``window`` chunks are
    submitted at a time (0: all at once), so a long batch never lists every task up front.
    ``resumable``: the caller keeps finished games (a sweep's folder), and its errors say so."""
    try:
        from distributed import Client
    except ImportError:
        raise BatchError("--scheduler needs the 'distributed' package: pip install 'sandtable[cluster]'") from None
    from .scheduler import SchedulerError, normalised, probe
    address = normalised(address)
    try:
        probe(address, timeout)  # a peer that never answers would hold Client() for ever
        client = Client(address, timeout=timeout, set_as_default=False)
    except SchedulerError as exc:
        raise BatchError(str(exc)) from None
    except Exception as exc:  # noqa: BLE001 - OSError, TimeoutError, a protocol error: one line
        raise BatchError(f"cannot reach the Dask scheduler at {address}: {type(exc).__name__}: "
                         f"{' '.join(str(exc).split())[:200]}") from None
    try:
        try:
            if not client.scheduler_info().get("workers"):
                client.wait_for_workers(1, timeout=timeout)
        except Exception as exc:  # noqa: BLE001 - TimeoutError above all: a scheduler nobody works for
            raise BatchError(f"no worker joined the Dask scheduler at {address} within {timeout:g} s "
                             f"({type(exc).__name__}); start 'dask worker {address}' on a machine") from None
        # Each distinct pack goes to the workers once (scatter), not with every task, and never
        # through a shared disk; the tasks name it by its future.
        shipped, by_point = {}, {}
        try:
            context = client.scatter([batch.context], broadcast=True, hash=False,
                                     timeout=timeout)[0]  # a dict would scatter per key
            for p, (b, patches) in batch.points.items():
                if b.key not in shipped:
                    shipped[b.key] = client.scatter(b, broadcast=True, hash=False, timeout=timeout)
                by_point[p] = (shipped[b.key], patches)
        except Exception as exc:  # noqa: BLE001 - TimeoutError above all: workers that do not take the packs
            raise BatchError(f"the packs could not be sent to the Dask workers within {timeout:g} s "
                             f"({type(exc).__name__}: {' '.join(str(exc).split())[:160]})") from None

        def submit(item):
            point, games = item
            return client.submit(play_chunk, *by_point[point], context, games, pure=False, retries=1)
        work = iter(work)
        started()
        try:
            with client.as_current():  # wait() looks for the current client
                _collect(client, work, submit, window, sink, timeout, address, resumable)
        except BatchError:
            raise
        except Exception as exc:  # noqa: BLE001 - a worker without sandtable, a lost connection...: said plainly
            first = " ".join((str(exc).strip().splitlines() or [""])[0].split())[:200]  # Dask's can be 100 KB
            try:
                alone = not client.scheduler_info().get("workers")
            except Exception:  # noqa: BLE001 - the scheduler itself is gone
                alone = False
            why = "its workers were lost" if alone else f"{type(exc).__name__}: {first}"
            raise BatchError(f"the Dask cluster failed: {why}" + (" (the finished games are kept: continue with "
                                                                  "--resume)" if resumable else "")) from None
    finally:
        client.close()


def _collect(client, work: Iterator, submit: Callable, window: int, sink, timeout: float, address: str,
             resumable: bool) -> None:
    """Hand each finished chunk to sink as it ends, keeping ``window`` chunks submitted. A chunk
    may take minutes, so no wait for one is bounded; but a scheduler left without workers for
    ``timeout`` seconds is said and ended instead of waited on for ever."""
    import itertools
    import time as _time

    from distributed import wait
    pending = {submit(item) for item in (itertools.islice(work, window) if window else work)}
    alone_since = None
    while pending:
        try:
            done, pending = wait(pending, timeout=max(1.0, min(timeout, 10.0)), return_when="FIRST_COMPLETED")
        except TimeoutError:
            done = set()
        for fut in done:
            sink(fut.result())
            fut.release()
        if window:
            pending |= {submit(item) for item in itertools.islice(work, len(done))}
        if done:
            alone_since = None
            continue
        if client.scheduler_info().get("workers"):
            alone_since = None
        elif alone_since is None:
            alone_since = _time.monotonic()
        elif _time.monotonic() - alone_since > timeout:
            raise BatchError(f"the Dask scheduler at {address} has had no worker for {timeout:g} s"
                             + ("; the finished games are kept: start workers and continue with --resume"
                                if resumable else ""))


@dataclass
class Ordered:
    """Records handed on in game order whatever order their chunks end in (a report's ties, such
    as the most common cause, are then broken as a one-process run breaks them)."""

    emit: Callable
    next_game: int = 0
    held: dict = field(default_factory=dict)

    def __call__(self, records: list) -> None:
        for r in records:
            self.held[r["game"]] = r
        while self.next_game in self.held:
            self.emit(self.held.pop(self.next_game))
            self.next_game += 1
