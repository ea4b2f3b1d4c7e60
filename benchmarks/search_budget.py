"""The search bot at a fixed CPU budget a decision against the heuristic, for this checkout and,
with ``--against PATH``, another one (issue #30: "the search bot stronger at the same CPU budget").

    python benchmarks/search_budget.py --against /work/base [--budget 0.02s] [--old-budget T] [--games 3]
        [--scenarios II,III,IV,V,XII,XIII] [--jobs 2] [--seed 1] [--json] [--save FILE]
    python benchmarks/search_budget.py --combine RUN1.json RUN2.json   # saved runs reported together

Every game is ``search:BUDGET`` on one side and the heuristic on the other, both sides of every
scenario named, ``--games`` seeds each (seed, seed+1, ...): the same games for both checkouts,
so the comparison is paired. Each checkout plays in worker subprocesses of its own (this file run
with ``--serve`` by ``PATH/.venv/bin/python``, so each imports its own package); ``--jobs`` games
run at once, handed out in turns (a game of the old checkout, the same game of the new, the
next...), so the load of the run falls on both alike. The budget is CPU time of the playing
thread: a checkout whose search bot still times its decisions by the wall clock (741c123's
``time.perf_counter``) has that clock read as ``time.thread_time`` by the worker (said in the
output), so both get the same CPU per decision whatever the machine's load. The rest of each bot
is as its checkout has it: 741c123 caps a game's search in decisions played inside rollouts (and a
plan search at 20 times the budget), later checkouts in CPU seconds (see search.py), so the games
of both cost about the same CPU and the faster checkout gets more rollouts out of it.

Printed: per checkout, the search bot's wins, draws and losses, its win rate with a 95 % Wilson
interval, per side and per scenario, the CPU seconds a game, the decisions searched and the
rollouts a searched decision; and the paired count of games the new checkout did better or
worse in, with the exact sign test's p-value over the games that came out differently. With some 30-40 games a checkout the intervals are about +-15 points wide: a gain
shows only when it is large; the paired count says more than the two intervals. A CPU budget is
not reproducible: the rounds a decision gets depend on the machine and its neighbours, so a
rerun differs game by game (each decision draws from its own stream, so less than it could).
Scenarios by default: the small ones where the search and the heuristic both win games (a
scenario one side always wins whoever plays shows no strength).
"""
from __future__ import annotations

import argparse
import importlib
import json
import math
import queue
import statistics
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_engine import Engine, Worker, _commit, other_python, serve_requests  # noqa: E402

DEFAULT_SCENARIOS = "II,III,IV,V,XII,XIII"
DEFAULT_BUDGET = "0.02s"
SIDES = ("allied", "axis")
SEARCH_MODULES = ("sandtable.rules.desert_steel.bots.search", "sandtable.rules.desert_steel.engine.search")


def _cpu_budget() -> str:
    """Make the search bot's time budget CPU time of the thread, whatever its checkout reads."""
    for name in SEARCH_MODULES:
        try:
            module = importlib.import_module(name)
        except ImportError:
            continue
        if hasattr(module, "CLOCK"):
            return f"CPU time ({module.CLOCK.__name__}, its own)"

        class CpuTime:  # the module's ``time`` with perf_counter read as the thread's CPU time
            perf_counter = staticmethod(time.thread_time)

            def __getattr__(self, attr):
                return getattr(time, attr)
        module.time = CpuTime()
        return "CPU time (its wall clock read as time.thread_time by this benchmark)"
    return "no search module found"


class Games:
    """One game of search against the heuristic, in this process; contexts made once a scenario."""

    def __init__(self):
        self.engine = Engine()
        self.catalog = self.engine.load_catalog()
        self.model = self.catalog.model
        self.runner = importlib.import_module("sandtable.rules.desert_steel.engine.runner")
        self._contexts: dict = {}
        self.clock = _cpu_budget()

    def play(self, scenario_id: str, seed: int, searcher: str, budget: str) -> dict:
        if scenario_id not in self._contexts:
            scenario = self.model.scenario(scenario_id)
            self._contexts[scenario_id] = (scenario, self.engine.make_context(self.model, scenario),
                                           self.engine.sample_setup(self.catalog, scenario))
        scenario, ctx, setup = self._contexts[scenario_id]
        made = []
        real = self.runner.make_bot

        def keep(name, bot_seed=0):  # the search bot's counters, read after the game
            made.append(real(name, bot_seed))
            return made[-1]
        bots = (f"search:{budget}", "heuristic") if searcher == "allied" else ("heuristic", f"search:{budget}")
        self.runner.make_bot = keep
        try:
            cpu, wall = time.thread_time(), time.perf_counter()
            game = self.engine.play(self.model, scenario, setup, seed, bots, context=ctx)
            cpu, wall = time.thread_time() - cpu, time.perf_counter() - wall
        finally:
            self.runner.make_bot = real
        bot = made[SIDES.index(searcher)]
        winner = game.returns()["winner"]
        return {"winner": winner, "result": "win" if winner == searcher else "loss" if winner in SIDES else "draw",
                "cpu": cpu, "wall": wall, "searched": getattr(bot, "searched", None),
                "rollouts": getattr(bot, "rollouts", None), "overruled": getattr(bot, "overruled", None),
                "plan_changes": _plan_changes(getattr(bot, "plans", None))}


def _plan_changes(plans) -> int | None:
    """How often the bot changed plan in a game (its plan searches' log: (turn, plan, ...))."""
    if plans is None:
        return None
    chosen = ["heuristic"] + [p[1] for p in plans]
    return sum(a != b for a, b in zip(chosen, chosen[1:]))


def serve() -> None:
    """The --serve worker: {"op": "hello"|"game", ...}."""
    def answer(games: Games, request: dict) -> dict:
        if request["op"] == "hello":
            import sandtable
            return {"package": str(Path(sandtable.__file__).resolve().parent), "clock": games.clock}
        return games.play(request["scenario"], request["seed"], request["searcher"], request["budget"])
    serve_requests(Games, answer)


def _tasks(checkouts: list[str], scenarios: list[str], games: int, seed: int) -> list[dict]:
    """Every game, each checkout's copy of it next to the other's (the order swapping game by game)."""
    out = []
    for g in range(games):
        for s in scenarios:
            for searcher in SIDES:
                order = checkouts if len(out) // len(checkouts) % 2 == 0 else checkouts[::-1]
                for label in order:
                    out.append({"label": label, "scenario": s, "searcher": searcher, "seed": seed + g})
    return out


def run(checkouts: dict, tasks: list[dict], budgets: dict, jobs: int, quiet: bool) -> tuple[list[dict], dict]:
    """Play the tasks, ``jobs`` at a time, each slot with a worker of each checkout; ``budgets``:
    each checkout's label -> its search budget."""
    todo: queue.Queue = queue.Queue()
    for t in tasks:
        todo.put(t)
    results: list[dict] = []
    hello: dict = {}
    lock = threading.Lock()

    def slot():
        workers = {}
        try:
            while True:
                try:
                    task = todo.get_nowait()
                except queue.Empty:
                    return
                label = task["label"]
                if label not in workers:
                    checkout, python = checkouts[label]
                    workers[label] = Worker(label, checkout, python, None, Path(__file__))
                    hi = workers[label].ask(op="hello")
                    with lock:
                        hello[label] = hi
                reply = workers[label].ask(op="game", budget=budgets[label], **{k: task[k] for k in ("scenario", "seed", "searcher")})
                with lock:
                    results.append({**task, **reply})
                    if not quiet:
                        print(f"  [{len(results)}/{len(tasks)}] {label} {task['scenario']} search {task['searcher']} "
                              f"seed {task['seed']}: {reply.get('result', reply.get('error'))} "
                              f"({reply.get('cpu', 0):.1f} s CPU)", file=sys.stderr, flush=True)
        finally:
            for w in workers.values():
                w.close()

    threads = [threading.Thread(target=slot) for _ in range(max(1, jobs))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return results, hello


def summarise(results: list[dict], label: str) -> dict:
    from sandtable.rules.stats import wilson
    mine = [r for r in results if r["label"] == label and "result" in r]

    def record(rows):
        w = sum(r["result"] == "win" for r in rows)
        d = sum(r["result"] == "draw" for r in rows)
        n = len(rows)
        lo, hi = wilson(w, n)
        return {"games": n, "wins": w, "draws": d, "losses": n - w - d, "win_rate": w / n if n else 0.0,
                "win_rate_95": [round(lo, 3), round(hi, 3)], "score": (w + d / 2) / n if n else 0.0}
    searched = [r["searched"] for r in mine if r.get("searched") is not None]
    rollouts = [r["rollouts"] for r in mine if r.get("rollouts") is not None]
    overruled = [r["overruled"] for r in mine if r.get("overruled") is not None]
    changes = [r["plan_changes"] for r in mine if r.get("plan_changes") is not None]
    return {"all": record(mine), **{side: record([r for r in mine if r["searcher"] == side]) for side in SIDES},
            "scenarios": {s: record([r for r in mine if r["scenario"] == s]) for s in sorted({r["scenario"] for r in mine})},
            "cpu_s_per_game": round(statistics.median(r["cpu"] for r in mine), 2) if mine else None,
            "cpu_s_total": round(sum(r["cpu"] for r in mine), 1),
            "searched_per_game": round(statistics.mean(searched), 1) if searched else None,
            "rollouts_per_searched": round(sum(rollouts) / sum(searched), 1) if searched and sum(searched) else None,
            "overruled_per_game": round(statistics.mean(overruled), 2) if overruled else None,
            "plan_changes_per_game": round(statistics.mean(changes), 2) if changes else None,
            "failed": [r["error"] for r in results if r["label"] == label and "error" in r]}


def paired(results: list[dict]) -> dict:
    """Per game (scenario, side, seed) played by both: how often new did better, the same, worse."""
    rank = {"loss": 0, "draw": 1, "win": 2}
    by = {}
    for r in results:
        if "result" in r:
            by.setdefault((r["scenario"], r["searcher"], r["seed"]), {})[r["label"]] = rank[r["result"]]
    both = [v for v in by.values() if "old" in v and "new" in v]
    better, worse = sum(v["new"] > v["old"] for v in both), sum(v["new"] < v["old"] for v in both)
    return {"games": len(both), "new_better": better, "same": len(both) - better - worse, "new_worse": worse,
            "sign_p": sign_test(better, worse)}


def sign_test(better: int, worse: int) -> float:
    """The two-sided exact sign test's p-value: how likely a split at least this uneven of the
    games that came out differently is if neither checkout were the stronger (ties left out)."""
    n = better + worse
    if n == 0:
        return 1.0
    tail = sum(math.comb(n, i) for i in range(min(better, worse) + 1)) / 2 ** n
    return min(1.0, 2 * tail)


def _report(out: dict) -> str:
    pct = lambda x: f"{100 * x:.0f} %"  # noqa: E731
    budgets = out.get("budgets") or {}
    each = ", ".join(f"{label} search:{b}" for label, b in budgets.items()) if len(set(budgets.values())) > 1 else ""
    lines = [f"search:{out['budget']}{' (' + each + ')' if each else ''} (CPU a decision) against the heuristic, both sides of "
             f"{', '.join(out['scenarios'])}, {out['games']} seeds each from {out['seed']}; --jobs {out['jobs']}; "
             f"{out['minutes']} min", "",
             "| checkout | games | wins / draws / losses | win rate (95 %) | allied | axis | CPU s a game | "
             "searched a game | rollouts a searched decision | overruled a game | plan changes a game |",
             "|---|---:|---|---|---|---|---:|---:|---:|---:|---:|"]
    for label, s in out["summary"].items():
        c = out["checkouts"][label]
        a = s["all"]
        lines.append(f"| {label} {c['commit']} | {a['games']} | {a['wins']} / {a['draws']} / {a['losses']} | "
                     f"{pct(a['win_rate'])} ({pct(a['win_rate_95'][0])}-{pct(a['win_rate_95'][1])}) | "
                     f"{pct(s['allied']['win_rate'])} | {pct(s['axis']['win_rate'])} | {s['cpu_s_per_game']} | "
                     f"{s['searched_per_game']} | {s['rollouts_per_searched']} | {_or_dash(s.get('overruled_per_game'))} | "
                     f"{_or_dash(s.get('plan_changes_per_game'))} |")
    lines += ["", "per scenario, search's wins / draws / losses: "
              + "; ".join(f"{sid}: " + ", ".join(f"{label} {s['scenarios'][sid]['wins']}/{s['scenarios'][sid]['draws']}/"
                                                  f"{s['scenarios'][sid]['losses']}"
                                                  for label, s in out["summary"].items() if sid in s["scenarios"])
                          for sid in out["scenarios"])]
    if out.get("paired"):
        p = out["paired"]
        lines.append(f"paired ({p['games']} games both played): new better in {p['new_better']}, the same in "
                     f"{p['same']}, worse in {p['new_worse']}; sign test p = {p['sign_p']:.3g} (two-sided)")
    for label, c in out["checkouts"].items():
        moved = f"; its checkout moved to {c['moved_to']} during the run" if c.get("moved_to") else ""
        lines.append(f"{label}: {c['checkout']} ({c['commit']}{moved}), budget read as {c.get('clock', '?')}")
        for e in out["summary"][label]["failed"][:3]:
            lines.append(f"  failed game: {e}")
    return "\n".join(lines)


def _or_dash(value) -> str:
    """A figure, or '-' where the runs did not record it (saved before it was)."""
    return "-" if value is None else str(value)


def combine(runs: list[dict]) -> dict:
    """One report of several saved runs: their games pooled (a game played in two runs counts
    twice: give the runs different seeds or scenarios)."""
    first = runs[0]
    results = [r for run in runs for r in run["games_played"]]
    labels = list(first["summary"])
    return {**{k: first[k] for k in ("budget", "jobs", "checkouts")}, "budgets": first.get("budgets"),
            "scenarios": sorted({s for run in runs for s in run["scenarios"]}, key=lambda s: (len(s), s)),
            "games": sum(run["games"] for run in runs), "seed": ", ".join(str(run["seed"]) for run in runs),
            "minutes": round(sum(run["minutes"] for run in runs), 1),
            "summary": {label: summarise(results, label) for label in labels},
            "paired": paired(results) if "old" in labels else None}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--against", metavar="PATH", help="another checkout with its own .venv (the 'old' one)")
    ap.add_argument("--budget", default=DEFAULT_BUDGET, help="CPU seconds a decision, as search:Ts takes it")
    ap.add_argument("--old-budget", metavar="T", help="the --against checkout's budget, when not --budget: the two "
                    "compared at the same CPU a game (an older search spent more than its budget a decision)")
    ap.add_argument("--scenarios", default=DEFAULT_SCENARIOS)
    ap.add_argument("--games", type=int, default=3, help="seeds per scenario and side, per checkout")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--save", metavar="FILE", help="write the figures and every game as JSON")
    ap.add_argument("--quiet", action="store_true")
    ap.add_argument("--combine", nargs="+", metavar="FILE",
                    help="report the games of runs saved with --save together (same checkouts and budget), play none")
    ap.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.serve:
        serve()
        return
    if args.combine:
        out = combine([json.loads(Path(f).read_text()) for f in args.combine])
        print(json.dumps(out, indent=2) if args.json else _report(out))
        return
    budget = args.budget if args.budget.endswith("s") else args.budget + "s"
    here = Path(__file__).resolve().parents[1]
    checkouts = {"new": (here, Path(sys.executable))}
    if args.against:
        other = Path(args.against).resolve()
        python = other_python(other, "search_budget")
        if python is None:
            sys.exit(2)
        checkouts = {"old": (other, python), **checkouts}
    scenarios = [s.strip() for s in args.scenarios.split(",") if s.strip()]
    start = time.perf_counter()
    # each checkout's commit as its workers import it: read before the run, not after (a commit
    # made in a checkout during a long run is not what its workers, started at the first game, play)
    commits = {label: _commit(c) for label, (c, _) in checkouts.items()}
    old_budget = (args.old_budget if args.old_budget.endswith("s") else args.old_budget + "s") if args.old_budget else budget
    budgets = {label: old_budget if label == "old" else budget for label in checkouts}
    results, hello = run(checkouts, _tasks(list(checkouts), scenarios, args.games, args.seed), budgets,
                         args.jobs, args.quiet or args.json)
    bad = {label: h["error"] for label, h in hello.items() if "error" in h}
    if bad:
        for label, error in bad.items():
            print(f"search_budget: the {label} checkout cannot play: {error}", file=sys.stderr)
        sys.exit(2)
    now = {label: _commit(c) for label, (c, _) in checkouts.items()}
    out = {"budget": budget, "budgets": budgets, "scenarios": scenarios, "games": args.games, "seed": args.seed, "jobs": args.jobs,
           "minutes": round((time.perf_counter() - start) / 60, 1),
           "checkouts": {label: {"checkout": str(c), "commit": commits[label], **hello.get(label, {}),
                                 **({"moved_to": now[label]} if now[label] != commits[label] else {})}
                         for label, (c, _) in checkouts.items()},
           "summary": {label: summarise(results, label) for label in checkouts},
           "paired": paired(results) if args.against else None}
    if args.save:
        Path(args.save).write_text(json.dumps({**out, "games_played": results}, indent=1))
    print(json.dumps(out, indent=2) if args.json else _report(out))


if __name__ == "__main__":
    main()
