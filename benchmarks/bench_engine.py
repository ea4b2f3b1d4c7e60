"""Engine benchmark: heuristic against heuristic, random playouts, clone().

Plain run (``python benchmarks/bench_engine.py``, about two minutes): on one pinned core, the
median full-game time (wall clock) for Beda Fomm (I) and Kasserine Pass (XV, the largest
scenario), games per second for every scenario I-XV (those the engine refuses say why), Beda
Fomm's games per second with 2 worker processes, a random playout of Beda Fomm (random against
random, as a search's rollout plays: per game and per decision), memory of a game state, and
the cost of clone(). ``--quick``: Beda Fomm, Kasserine (5 games), the random playout and clone()
only. ``--json``: the figures as JSON on stdout.

Against another checkout (issue #30's "must show"):

    python benchmarks/bench_engine.py --against /work/base [--quick] [--json]

PATH is another checkout of sandtable with its own ``.venv`` (``PATH/.venv/bin/python`` with
that checkout installed in it). One run times both engines: two worker subprocesses, each this
file (``--serve``) run by its checkout's python, so each imports its own package; both pinned
to the same single core, and the driver hands them the same work in turns, game by game
(seed 0 to the old engine then to the new, seed 1 to the new then the old, ...: the order
swaps every round so a load that drifts during the run falls on both alike, and only one of the
two runs at any moment). The figures are CPU seconds of the worker (``time.process_time``: on
a shared machine the wall clock of a pinned process counts its neighbours' turns on that core;
the JSON has the wall clock too). The table: each measure, old, new, the ratio old/new, the
goal (heuristic games of I and of XV 3x faster, random playouts 5x faster, clone() no slower:
a ratio of at least 0.95, the spread of alternating medians on a loaded machine) and whether
it is met. The worker uses only the public surface 741c123 already had (runner.play,
runner.sample_setup, make_context, Game.legal_actions/apply/clone): an older engine without
newer features is timed all the same. ``--quick`` plays XV 5 games a side instead of 20 (the
whole comparison then takes some 3 minutes on an idle core against 741c123, twice that loaded).
"""
from __future__ import annotations

import argparse
import importlib
import json
import os
import statistics
import subprocess
import sys
import time
import tracemalloc
from pathlib import Path

SCENARIOS = ("I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X", "XI", "XII", "XIII", "XIV", "XV")
MEDIAN_GAMES = 20  # Beda Fomm and Kasserine: the median of this many seeds
QUICK_XV_GAMES = 5
BUDGET_S = 6.0  # the other scenarios: games until this much time is spent (at least 2, at most 20)
RANDOM_GAMES = 20  # random playouts of Beda Fomm: the median of this many seeds
CLONE_CALLS = 1000  # clone() timed over this many calls a round
CLONE_ROUNDS = 9
GOALS = {"beda_fomm_median_game_s": "<= 0.1", "kasserine_median_game_s": "<= 1", "clone_ms": "<= 1"}
NO_SLOWER = 0.95  # "no slower": old/new at least this (alternating medians differ by a few % under load)
ENGINE = "sandtable.rules.desert_steel.engine"


class Engine:
    """The public surface of whichever engine the running python imports: load_catalog,
    runner.play/sample_setup, make_context, Game and EngineError, found where 741c123 had them
    or where a later layout puts them; and the lab's batch runner (simulate)."""

    def __init__(self):
        from sandtable.rules.catalog import load_catalog
        self.load_catalog = load_catalog
        runner = importlib.import_module(f"{ENGINE}.runner")
        self.play, self.sample_setup = runner.play, runner.sample_setup
        # A batch goes through the lab's runner, the only one since; 741c123 has it too.
        self.simulate = importlib.import_module("sandtable.rules.lab.simulate").simulate
        game = importlib.import_module(f"{ENGINE}.game")
        self.Game = getattr(runner, "Game", None) or game.Game
        self.make_context = getattr(runner, "make_context", None) or game.make_context
        self.EngineError = getattr(runner, "EngineError", None) or importlib.import_module(f"{ENGINE}.context").EngineError


class Bench:
    """The measures, in this process: one game, one playout, a round of clone() calls. A
    scenario's context is made once and shared by its games, as a batch does."""

    def __init__(self):
        self.engine = Engine()
        self.catalog = self.engine.load_catalog()
        self.model = self.catalog.model
        self._contexts: dict = {}
        self._mid_game = None

    def context(self, sid: str):
        if sid not in self._contexts:
            scenario = self.model.scenario(sid)
            self._contexts[sid] = (scenario, self.engine.make_context(self.model, scenario),
                                   self.engine.sample_setup(self.catalog, scenario))
        return self._contexts[sid]

    def game(self, sid: str, seed: int, bots=("heuristic", "heuristic")) -> dict:
        """One game from ``seed``: its CPU and wall seconds and its decisions."""
        scenario, ctx, setup = self.context(sid)
        wall, cpu = time.perf_counter(), time.process_time()
        game = self.engine.play(self.model, scenario, setup, seed, tuple(bots), context=ctx)
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
        actions = getattr(game, "actions", None)
        return {"cpu": cpu, "wall": wall, "decisions": len(actions) if actions is not None else None}

    def mid_game(self):
        """Beda Fomm after 300 decisions (first legal action each): units on the map, markers set."""
        if self._mid_game is None:
            scenario, ctx, setup = self.context("I")
            game = self.engine.Game(self.model, scenario, setup, seed=1, context=ctx)
            for _ in range(300):
                if game.is_terminal():
                    break
                game.apply(game.legal_actions()[0])
            self._mid_game = game
        return self._mid_game

    def clone(self, calls: int = CLONE_CALLS) -> dict:
        """Seconds per clone() of the mid-game state, over ``calls`` calls."""
        game = self.mid_game()
        wall, cpu = time.perf_counter(), time.process_time()
        for _ in range(calls):
            game.clone()
        return {"cpu": (time.process_time() - cpu) / calls, "wall": (time.perf_counter() - wall) / calls}

    def state_bytes(self) -> int:
        game = self.mid_game()
        tracemalloc.start()
        before = tracemalloc.get_traced_memory()[0]
        copy = game.clone()
        size = tracemalloc.get_traced_memory()[0] - before
        tracemalloc.stop()
        del copy
        return size


def pin(core: int | None = None) -> set | None:
    """Pin this process to one core (``core``, else the lowest allowed); returns the former set."""
    if not hasattr(os, "sched_getaffinity"):
        return None
    affinity = os.sched_getaffinity(0)
    os.sched_setaffinity(0, {core if core in affinity else min(affinity)})
    return affinity


# --- the plain run (this checkout only) ---------------------------------------------------------

def _game_times(bench: Bench, scenario_id: str, games: int, budget: float | None = None) -> list[float]:
    """Wall seconds per game, seeds 0, 1, ...; raises EngineError when the engine refuses the scenario."""
    times: list[float] = []
    start = time.perf_counter()
    while len(times) < games and (budget is None or len(times) < 2 or time.perf_counter() - start < budget):
        times.append(bench.game(scenario_id, len(times))["wall"])
    return times


def _random_playouts(bench: Bench, out: dict) -> None:
    games = [bench.game("I", seed, ("random", "random")) for seed in range(RANDOM_GAMES)]
    out["beda_fomm_random_playout_ms"] = 1000 * statistics.median(g["wall"] for g in games)
    if all(g["decisions"] for g in games):
        out["beda_fomm_random_decision_us"] = 1e6 * sum(g["wall"] for g in games) / sum(g["decisions"] for g in games)


def _one_core(bench: Bench, out: dict, quick: bool = False) -> list[str]:
    """Timings pinned to one core; returns the per-scenario report lines."""
    _random_playouts(bench, out)
    beda = _game_times(bench, "I", MEDIAN_GAMES)
    out["beda_fomm_median_game_s"] = statistics.median(beda)
    out["beda_fomm_games_per_s_one_core"] = 1 / statistics.mean(beda)
    kasserine = _game_times(bench, "XV", QUICK_XV_GAMES if quick else MEDIAN_GAMES)
    out["kasserine_median_game_s"] = statistics.median(kasserine)
    per_scenario, lines = {}, []
    if quick:
        return lines
    for sid in SCENARIOS:
        try:
            bench.context(sid)
        except bench.engine.EngineError as e:  # what the engine cannot play yet, and why
            per_scenario[sid] = f"refused: {e}"
            lines.append(f"  {sid:<5} refused: {e}")
            continue
        times = {"I": beda, "XV": kasserine}.get(sid) or _game_times(bench, sid, 20, BUDGET_S)
        per_scenario[sid] = round(1 / statistics.mean(times), 3)
        lines.append(f"  {sid:<5} {per_scenario[sid]:>8.2f} games/s   ({len(times)} games, median "
                     f"{statistics.median(times):.3f} s)")
    out["games_per_s_one_core"] = per_scenario
    return lines


def plain(quick: bool, as_json: bool) -> None:
    bench = Bench()
    out: dict = {}
    affinity = pin()
    lines = _one_core(bench, out, quick)
    if affinity:
        os.sched_setaffinity(0, affinity)
    if not quick:
        scenario, _, setup = bench.context("I")
        t = time.perf_counter()
        bench.engine.simulate(bench.catalog, scenario, setup, 100, 1, ("heuristic", "heuristic"), jobs=2)
        out["beda_fomm_games_per_s_jobs_2"] = 100 / (time.perf_counter() - t)
    out["game_state_bytes"] = bench.state_bytes()
    out["clone_ms"] = 1000 * bench.clone()["wall"]
    if not quick:
        path = Path(__file__).parent / ".generated"
        path.mkdir(exist_ok=True)
        (path / "engine.json").write_text(json.dumps(out, indent=2))
    if as_json:
        print(json.dumps(out, indent=2))
        return
    for k, v in out.items():
        if k == "games_per_s_one_core" and lines:
            print("games per second, one core, heuristic against heuristic:")
            print("\n".join(lines))
            continue
        print(f"{k:<34} {v:,.4f}" + (f"   goal {GOALS[k]}" if k in GOALS else ""))


# --- the worker (--serve) and the comparison (--against) ----------------------------------------

def serve_requests(make, answer) -> None:
    """The worker's loop: one JSON request a line on stdin, one JSON line back on stdout (the
    engine's own prints go to stderr); ``make()`` builds the worker's state at the first request,
    ``answer(state, request)`` replies; an error is replied as {"error": ...} for the driver to report."""
    channel = sys.stdout
    sys.stdout = sys.stderr
    state = None
    for line in sys.stdin:
        request = json.loads(line)
        try:
            if state is None:
                state = make()
            reply = answer(state, request)
        except Exception as exc:  # noqa: BLE001 - the driver reports it against the measure
            reply = {"error": f"{type(exc).__name__}: {exc}"}
        channel.write(json.dumps(reply) + "\n")
        channel.flush()


def serve(core: int | None) -> None:
    """The --serve worker: {"op": "hello"|"game"|"clone"|"bytes", ...}."""
    pin(core)

    def answer(bench: Bench, request: dict) -> dict:
        op = request["op"]
        if op == "hello":
            import sandtable
            return {"package": str(Path(sandtable.__file__).resolve().parent), "python": sys.version.split()[0]}
        if op == "game":
            return bench.game(request["scenario"], request["seed"], request["bots"])
        if op == "clone":
            return bench.clone(request.get("calls", CLONE_CALLS))
        if op == "bytes":
            return {"bytes": bench.state_bytes()}
        return {"error": f"unknown op {op!r}"}
    serve_requests(Bench, answer)


class Worker:
    """A ``--serve`` subprocess of one checkout: its python, this file (or ``script``)."""

    def __init__(self, label: str, checkout: Path, python: Path, core: int | None, script: Path | None = None):
        self.label, self.checkout = label, checkout
        env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
        command = [str(python), str((script or Path(__file__)).resolve()), "--serve"] + \
            (["--core", str(core)] if core is not None else [])
        self.process = subprocess.Popen(command, cwd=str(checkout), env=env, stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, text=True)
        self.commit = _commit(checkout)

    def ask(self, **request) -> dict:
        self.process.stdin.write(json.dumps(request) + "\n")
        self.process.stdin.flush()
        line = self.process.stdout.readline()
        if not line:
            return {"error": f"the {self.label} worker ended (exit {self.process.wait()})"}
        return json.loads(line)

    def close(self) -> None:
        self.process.stdin.close()
        self.process.wait(timeout=30)


def _commit(checkout: Path) -> str:
    try:
        return subprocess.run(["git", "-C", str(checkout), "rev-parse", "--short", "HEAD"], capture_output=True,
                              text=True, timeout=30).stdout.strip() or "?"
    except (OSError, subprocess.SubprocessError):
        return "?"


def _plan(quick: bool) -> list[dict]:
    """The measures: name, what a request is, how many rounds, the goal as a least ratio old/new."""
    return [
        {"key": "random_playout_I_ms", "label": "random playout of I, median (ms)", "scale": 1000,
         "request": lambda i: {"op": "game", "scenario": "I", "seed": i, "bots": ["random", "random"]},
         "rounds": RANDOM_GAMES, "goal": 5.0, "goal_text": ">= 5x"},
        {"key": "heuristic_I_s", "label": "heuristic game of I, median (s)", "scale": 1,
         "request": lambda i: {"op": "game", "scenario": "I", "seed": i, "bots": ["heuristic", "heuristic"]},
         "rounds": MEDIAN_GAMES, "goal": 3.0, "goal_text": ">= 3x"},
        {"key": "heuristic_XV_s", "label": "heuristic game of XV, median (s)", "scale": 1,
         "request": lambda i: {"op": "game", "scenario": "XV", "seed": i, "bots": ["heuristic", "heuristic"]},
         "rounds": QUICK_XV_GAMES if quick else MEDIAN_GAMES, "goal": 3.0, "goal_text": ">= 3x"},
        {"key": "clone_us", "label": f"clone() of I mid-game, median of {CLONE_ROUNDS}x{CLONE_CALLS} (us)",
         "scale": 1e6, "request": lambda i: {"op": "clone", "calls": CLONE_CALLS},
         "rounds": CLONE_ROUNDS, "goal": NO_SLOWER, "goal_text": "no slower (>= 0.95x)"},
    ]


def other_python(other: Path, tool: str) -> Path | None:
    """The python of another checkout (PATH/.venv/bin/python), or None after saying what is missing."""
    python = other / ".venv" / "bin" / "python"
    if not python.exists():
        print(f"{tool}: --against {other}: no {python} (make it: cd {other} && python3 -m venv .venv && "
              f".venv/bin/pip install -e .)", file=sys.stderr)
        return None
    return python


def compare(other: Path, quick: bool, as_json: bool, rounds: int | None = None) -> int:
    other = other.resolve()
    here = Path(__file__).resolve().parents[1]
    python = other_python(other, "bench_engine")
    if python is None:
        return 2
    affinity = os.sched_getaffinity(0) if hasattr(os, "sched_getaffinity") else None
    core = max(affinity) if affinity else None
    workers = {"old": Worker("old", other, python, core), "new": Worker("new", here, Path(sys.executable), core)}
    try:
        info = {}
        for side, w in workers.items():
            hello = w.ask(op="hello")
            if "error" in hello:
                print(f"bench_engine: the {side} checkout ({w.checkout}) cannot run: {hello['error']}", file=sys.stderr)
                return 2
            info[side] = {"checkout": str(w.checkout), "commit": w.commit, **hello}
        load = [os.getloadavg()[0]] if hasattr(os, "getloadavg") else []
        samples: dict = {}
        start = time.perf_counter()
        for m in _plan(quick):
            got = samples[m["key"]] = {"old": [], "new": [], "errors": [], "decisions": {"old": 0, "new": 0}}
            m["rounds"] = min(m["rounds"], rounds or m["rounds"])
            for i in range(m["rounds"]):
                for side in (("old", "new") if i % 2 == 0 else ("new", "old")):
                    reply = workers[side].ask(**m["request"](i))
                    if "error" in reply:
                        got["errors"].append(f"{side}: {reply['error']}")
                        continue
                    got[side].append(reply)
                    got["decisions"][side] += reply.get("decisions") or 0
            if not as_json:
                print(f"  measured {m['label']} ({m['rounds']} rounds)", file=sys.stderr, flush=True)
        bytes_ = {side: w.ask(op="bytes").get("bytes") for side, w in workers.items()}
        if hasattr(os, "getloadavg"):
            load.append(os.getloadavg()[0])
    finally:
        for w in workers.values():
            w.close()
    rows = []
    for m in _plan(quick):
        got = samples[m["key"]]
        row = {"measure": m["key"], "label": m["label"], "goal": m["goal_text"], "errors": got["errors"]}
        for clock in ("cpu", "wall"):
            for side in ("old", "new"):
                xs = [r[clock] for r in got[side]]
                row[f"{side}_{clock}"] = m["scale"] * statistics.median(xs) if xs else None
        old, new = row["old_cpu"], row["new_cpu"]
        row["ratio"] = old / new if old and new else None
        row["met"] = row["ratio"] is not None and row["ratio"] >= m["goal"]
        if m["key"] == "random_playout_I_ms":
            for side in ("old", "new"):
                d = got["decisions"][side]
                row[f"{side}_cpu_per_decision_us"] = 1e6 * sum(r["cpu"] for r in got[side]) / d if d else None
        rows.append(row)
    out = {"old": info["old"], "new": info["new"], "quick": quick, "core": core, "load_1min": load,
           "minutes": round((time.perf_counter() - start) / 60, 1), "state_bytes": bytes_, "rows": rows,
           "clock": "CPU seconds of each worker (time.process_time); wall clock in *_wall"}
    if as_json:
        print(json.dumps(out, indent=2))
    else:
        print(_table(out))
    return 0


def _table(out: dict) -> str:
    old, new = out["old"], out["new"]
    head = f"old = {old['commit']} ({old['checkout']}), new = {new['commit']} ({new['checkout']})"
    lines = [head, f"one run, alternating game by game on core {out['core']}, CPU time; load "
             f"{' -> '.join(f'{x:.1f}' for x in out['load_1min'])}; {out['minutes']} min", "",
             f"{'measure':<48} {'old':>9} {'new':>9} {'ratio':>7}  {'goal':<21} met"]
    for r in out["rows"]:
        fmt = (lambda x: "n/a" if x is None else f"{x:.3f}" if x < 10 else f"{x:.1f}")
        ratio = "n/a" if r["ratio"] is None else f"{r['ratio']:.2f}x"
        lines.append(f"{r['label']:<48} {fmt(r['old_cpu']):>9} {fmt(r['new_cpu']):>9} {ratio:>7}  {r['goal']:<21} "
                     f"{'yes' if r['met'] else 'no'}")
        if r.get("old_cpu_per_decision_us"):
            lines.append(f"{'  a decision of it (us)':<48} {fmt(r['old_cpu_per_decision_us']):>9} "
                         f"{fmt(r.get('new_cpu_per_decision_us')):>9}")
        for e in r["errors"][:3]:
            lines.append(f"  error: {e}")
    b = out["state_bytes"]
    lines.append(f"{'game state (bytes, mid-game I)':<48} {b['old'] or 'n/a':>9} {b['new'] or 'n/a':>9}")
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="I, XV (5 games), the random playout and clone() only")
    ap.add_argument("--json", action="store_true", help="the figures as JSON on stdout")
    ap.add_argument("--against", metavar="PATH", help="another checkout with its own .venv: time both, alternating")
    ap.add_argument("--rounds", type=int, help="with --against: at most this many rounds a measure (a smoke run)")
    ap.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--core", type=int, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.serve:
        serve(args.core)
    elif args.against:
        sys.exit(compare(Path(args.against), args.quick, args.json, args.rounds))
    else:
        plain(args.quick, args.json)


if __name__ == "__main__":
    main()
