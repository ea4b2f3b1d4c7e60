"""The engagement warning where a designer reads batch results (issue 25): the editor's quick game
and the balance lab say when the bots did not engage (no Qt needed: the summaries are text)."""
from __future__ import annotations

from sandtable.rules.desert_steel.engine.diagnostics import FIELDS, NOT_ENGAGED, aggregate
from sandtable.rules.desert_steel.play import PLAY

QUIET = dict({f: 0 for f in FIELDS}, no_fire_game=1, no_loss_game=1, objective_progress=None)
BUSY = dict(QUIET, fires=9, losses=2, no_fire_game=0, no_loss_game=0)


def _summary(rows):
    return {"games": len(rows), "played": len(rows), "scenario": "V", "draws": 0, "diagnostics": aggregate(rows),
            "sides": {s: {"bot": "heuristic", "wins": 0, "win_rate": 0.0, "win_rate_95": [0, 1]}
                      for s in ("allied", "axis")}}


def test_the_quick_game_says_when_the_bots_did_not_engage():
    from editor.quickgame import summary_html
    assert NOT_ENGAGED in summary_html(_summary([{"allied": QUIET, "axis": QUIET}] * 3), PLAY)
    assert NOT_ENGAGED not in summary_html(_summary([{"allied": BUSY, "axis": BUSY}] * 3), PLAY)


def test_the_balance_lab_says_which_point_did_not_engage():
    from editor.balancelab import summary_html
    side = {"win_rate": 0.5, "win_rate_95": [0.2, 0.8], "difference_to_baseline": 0.0, "difference_95": [0, 0]}
    point = {"valid": True, "label": "base", "baseline": True, "sides": {"allied": side, "axis": side}}
    out = {"played": 6, "points": [dict(point, diagnostics=aggregate([{"allied": QUIET, "axis": QUIET}] * 3)),
                                   dict(point, label="def 3", baseline=False,
                                        diagnostics=aggregate([{"allied": BUSY, "axis": BUSY}] * 3))]}
    text = summary_html(out, PLAY)
    assert text.count(NOT_ENGAGED) == 1 and "base: " + NOT_ENGAGED in text
