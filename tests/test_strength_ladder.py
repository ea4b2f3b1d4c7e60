"""Verdicts that hold as the bots get stronger (issue 25): the strength ladder's verdict, and
`simulate --ladder` (heuristic vs heuristic, then search vs search at growing budgets)."""
from __future__ import annotations

import json

from sandtable.cli import main
from sandtable.rules.desert_steel.engine.ladder import favoured, verdict


def _lv(bot, allied, axis, draws=0):
    return {"bot": bot, "games": allied + axis + draws, "allied": allied, "axis": axis, "draws": draws}


def test_the_verdict_says_stable_shifts_or_flips():
    assert favoured(8, 2, 0) == "allied" and favoured(2, 8, 0) == "axis" and favoured(5, 4, 1) == "even"
    stable = verdict([_lv("heuristic", 18, 2), _lv("search:4", 9, 1), _lv("search:16", 17, 3)])
    assert stable["verdict"] == "stable" and stable["by_design"]
    flips = verdict([_lv("heuristic", 2, 18), _lv("search:4", 5, 5), _lv("search:16", 9, 1)])
    assert flips["verdict"] == "flips" and not flips["by_design"]
    shifts = verdict([_lv("heuristic", 19, 1), _lv("search:4", 6, 4), _lv("search:16", 5, 5)])
    assert shifts["verdict"] == "shifts" and not shifts["by_design"]
    assert verdict([_lv("heuristic", 20, 0), _lv("search:16", 2, 0)])["too_few_games"]


def test_simulate_ladder_plays_each_level_and_gives_a_verdict(capsys, monkeypatch):
    from sandtable.rules.desert_steel.bots.search import SearchBot
    monkeypatch.setattr(SearchBot, "REPLAN", ())  # a cheap search bot: the ladder's plumbing is tested here
    assert main(["simulate", "V", "--ladder", "--games", "2", "--search-games", "1",
                 "--ladder-budgets", "search:2,search:4", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert [lv["bot"] for lv in out["levels"]] == ["heuristic", "search:2", "search:4"]
    assert [lv["games"] for lv in out["levels"]] == [2, 1, 1]
    assert out["verdict"] in ("stable", "shifts", "flips") and "allied_score_95" in out["levels"][0]
    assert main(["simulate", "V", "--ladder", "--ladder-budgets", "heuristic"]) == 2
