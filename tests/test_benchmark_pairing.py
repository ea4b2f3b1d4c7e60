"""The A/B benchmarks (benchmarks/bench_engine.py --against, benchmarks/search_budget.py) hand both
checkouts the same work in alternating order and pair their results game by game; no timing here."""
from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"


def _module(name):
    sys.path.insert(0, str(BENCHMARKS))
    try:
        spec = importlib.util.spec_from_file_location(f"_bench_{name}", BENCHMARKS / f"{name}.py")
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return module
    finally:
        sys.path.remove(str(BENCHMARKS))


def test_search_budget_plays_each_game_for_both_checkouts_side_by_side_in_alternating_order():
    budget = _module("search_budget")
    tasks = budget._tasks(["old", "new"], ["V", "XII"], 2, 11)
    assert len(tasks) == 2 * 2 * 2 * 2
    pairs = [tasks[i:i + 2] for i in range(0, len(tasks), 2)]
    for a, b in pairs:  # each game twice, one after the other: the same scenario, side and seed
        assert {a["label"], b["label"]} == {"old", "new"}
        assert (a["scenario"], a["searcher"], a["seed"]) == (b["scenario"], b["searcher"], b["seed"])
    firsts = [a["label"] for a, _ in pairs]
    assert firsts == ["old", "new"] * (len(pairs) // 2)  # who goes first swaps game by game
    assert {t["seed"] for t in tasks} == {11, 12} and {t["searcher"] for t in tasks} == {"allied", "axis"}


def test_search_budget_pairs_results_game_by_game():
    budget = _module("search_budget")
    rows = [{"label": label, "scenario": "V", "searcher": side, "seed": 1, "result": result, "cpu": 2.0}
            for label, side, result in (("old", "allied", "loss"), ("new", "allied", "win"),
                                        ("old", "axis", "win"), ("new", "axis", "draw"))]
    rows.append({"label": "new", "scenario": "XII", "searcher": "axis", "seed": 1, "error": "boom"})
    assert budget.paired(rows) == {"games": 2, "new_better": 1, "same": 0, "new_worse": 1, "sign_p": 1.0}
    assert budget.sign_test(0, 0) == 1.0 and budget.sign_test(3, 3) == 1.0
    assert abs(budget.sign_test(9, 1) - 2 * 11 / 1024) < 1e-12  # P(X <= 1) for 10 fair coins, both tails
    assert budget.sign_test(1, 9) == budget.sign_test(9, 1)
    summary = budget.summarise(rows, "new")
    assert summary["all"]["games"] == 2 and summary["all"]["wins"] == 1 and summary["all"]["draws"] == 1
    assert summary["failed"] == ["boom"] and 0 < summary["all"]["win_rate_95"][0] < 0.5 < summary["all"]["win_rate_95"][1]


def test_bench_engine_measures_both_checkouts_on_the_same_seeds():
    bench = _module("bench_engine")
    plan = bench._plan(quick=True)
    assert [m["key"] for m in plan] == ["random_playout_I_ms", "heuristic_I_s", "heuristic_XV_s", "clone_us"]
    assert [m["goal"] for m in plan] == [5.0, 3.0, 3.0, bench.NO_SLOWER]
    assert plan[0]["request"](3) == {"op": "game", "scenario": "I", "seed": 3, "bots": ["random", "random"]}
    assert next(m for m in plan if m["key"] == "heuristic_XV_s")["rounds"] == bench.QUICK_XV_GAMES


def test_search_budget_combines_saved_runs():
    budget = _module("search_budget")

    def run(seed, results):
        rows = [{"label": label, "scenario": "V", "searcher": "allied", "seed": seed, "result": r, "cpu": 1.0}
                for label, r in zip(("old", "new"), results)]
        return {"budget": "0.02s", "jobs": 2, "checkouts": {"old": {}, "new": {}}, "scenarios": ["V"], "games": 1,
                "seed": seed, "minutes": 1.0, "summary": {"old": {}, "new": {}}, "games_played": rows}
    out = budget.combine([run(11, ("loss", "win")), run(12, ("win", "win"))])
    assert out["games"] == 2 and out["minutes"] == 2.0 and out["seed"] == "11, 12"
    assert out["summary"]["new"]["all"]["wins"] == 2 and out["summary"]["old"]["all"]["wins"] == 1
    assert out["paired"]["new_better"] == 1 and out["paired"]["same"] == 1


def test_search_budget_counts_overrules_and_plan_changes():
    """A game's overrules (the search chose other than the heuristic) and plan changes (its plan
    searches' log) are reported a game; runs saved before they were recorded report none."""
    budget = _module("search_budget")
    assert budget._plan_changes(None) is None and budget._plan_changes([]) == 0
    assert budget._plan_changes([(1, "block", {}, 10), (2, "block", None, 0), (3, "hold", {}, 3)]) == 2
    rows = [{"label": "new", "scenario": "V", "searcher": "allied", "seed": s, "result": "win", "cpu": 1.0,
             "overruled": o, "plan_changes": c} for s, o, c in ((1, 1, 0), (2, 3, 2))]
    summary = budget.summarise(rows, "new")
    assert summary["overruled_per_game"] == 2 and summary["plan_changes_per_game"] == 1
    old = budget.summarise([{k: v for k, v in r.items() if k not in ("overruled", "plan_changes")} for r in rows], "new")
    assert old["overruled_per_game"] is None and budget._or_dash(None) == "-"


def test_search_budget_may_give_the_old_checkout_another_budget():
    """--old-budget: the two checkouts compared at the same CPU a game (741c123's search spent more
    than its budget a decision); the report says each one's budget."""
    budget = _module("search_budget")
    rows = [{"label": label, "scenario": "V", "searcher": "allied", "seed": 1, "result": "win", "cpu": 1.0}
            for label in ("old", "new")]
    saved = {"budget": "0.017s", "budgets": {"old": "0.005s", "new": "0.017s"}, "jobs": 2,
             "checkouts": {"old": {"checkout": "/o", "commit": "a"}, "new": {"checkout": "/n", "commit": "b"}},
             "scenarios": ["V"], "games": 1, "seed": 1, "minutes": 1.0, "summary": {"old": {}, "new": {}},
             "games_played": rows}
    out = budget.combine([saved])
    assert out["budgets"] == {"old": "0.005s", "new": "0.017s"}
    assert "(old search:0.005s, new search:0.017s)" in budget._report(out).splitlines()[0]
    alike = budget.combine([{**saved, "budgets": {"old": "0.02s", "new": "0.02s"}}])
    assert "old search:" not in budget._report(alike).splitlines()[0]


def test_search_budget_names_the_commit_its_workers_played_and_a_checkout_that_moved():
    """A checkout's commit is read before the run (its workers import it at the first game): one
    committed to during a long run is reported as played, with the commit it moved to."""
    budget = _module("search_budget")
    rows = [{"label": label, "scenario": "V", "searcher": "allied", "seed": 1, "result": "win", "cpu": 1.0}
            for label in ("old", "new")]
    saved = {"budget": "0.02s", "jobs": 1, "scenarios": ["V"], "games": 1, "seed": 1, "minutes": 1.0,
             "checkouts": {"old": {"checkout": "/o", "commit": "a"},
                           "new": {"checkout": "/n", "commit": "b", "moved_to": "c"}},
             "summary": {"old": {}, "new": {}}, "games_played": rows}
    report = budget._report(budget.combine([saved]))
    assert "new: /n (b; its checkout moved to c during the run)" in report
    assert "old: /o (a)," in report
