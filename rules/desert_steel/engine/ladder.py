"""A balance verdict that holds as the bots get stronger: one scenario played at increasing
strength on both sides (the heuristic against itself, then the search bot against itself at
growing budgets), and whether the result is stable as strength grows, shifts, or flips.

Only a result that holds at the strongest level may read as the scenario's (by design); one that
shifts or flips says the weaker bots decided it. Each level's result carries its games and
95 % Wilson intervals; with few games a level's interval is wide, and the verdict says so.
"""
from __future__ import annotations

from ...stats import wilson

DEFAULT_BUDGETS = ("search:4", "search:16")
EDGE = 0.6  # a side's score (wins + half the draws) from which it is favoured at a level


def levels_for(budgets=DEFAULT_BUDGETS) -> list[str]:
    return ["heuristic", *budgets]


def score(allied: int, axis: int, draws: int) -> float:
    n = allied + axis + draws
    return (allied + draws / 2) / n if n else 0.5


def favoured(allied: int, axis: int, draws: int) -> str:
    s = score(allied, axis, draws)
    return "allied" if s >= EDGE else "axis" if s <= 1 - EDGE else "even"


def verdict(levels: list[dict]) -> dict:
    """levels: [{"bot", "games", "allied", "axis", "draws"}], weakest first. 'flips' when the
    strongest level favours the other side than the heuristic's; 'stable' when every level favours
    the same side (or none) and the 95 % intervals of the heuristic's and the strongest level's
    Allied scores overlap; else 'shifts'. 'too few games' is added when the strongest level's interval
    spans more than half the scale."""
    base, top = levels[0], levels[-1]
    sides = [favoured(lv["allied"], lv["axis"], lv["draws"]) for lv in levels]
    lo, hi = wilson(base["allied"] + base["draws"] / 2, base["games"])
    top_lo, top_hi = wilson(top["allied"] + top["draws"] / 2, top["games"])
    if {sides[0], sides[-1]} == {"allied", "axis"}:
        word = "flips"
    elif len(set(sides)) == 1 and top_lo <= hi + 1e-9 and lo <= top_hi + 1e-9:
        word = "stable"
    else:
        word = "shifts"
    return {"verdict": word, "favoured": sides, "by_design": word == "stable" and sides[-1] != "even",
            "too_few_games": top_hi - top_lo > 0.5}


def strength_ladder(batch, scenario_id: str, games: int, search_games: int, seed: int = 1,
                    budgets=DEFAULT_BUDGETS) -> dict:
    """Play the scenario at each level (the same bot on both sides): ``games`` games with the
    heuristic, ``search_games`` with each search budget; the levels and the verdict.

    ``batch(bots, n)`` plays n games of those bots from ``seed`` and returns the batch summary's
    JSON: the caller's batch runner (the lab's, on this process, worker processes or a cluster),
    so a level is exactly the batch ``simulate --bots B,B --games n --seed S`` plays."""
    out = []
    for bot in levels_for(budgets):
        n = games if bot == "heuristic" else search_games
        if n < 1:
            continue
        summary = batch((bot, bot), n)
        a, x, d = summary["sides"]["allied"]["wins"], summary["sides"]["axis"]["wins"], summary["draws"]
        out.append({"bot": bot, "games": n, "allied": a, "axis": x, "draws": d,
                    "allied_score": round(score(a, x, d), 3),
                    "allied_score_95": [round(v, 3) for v in wilson(a + d / 2, n)],
                    "median_game_seconds": summary["median_game_seconds"],
                    "engagement": summary.get("engagement"), "warnings": summary.get("warnings", []),
                    "diagnostics": summary.get("diagnostics"), "most_common_cause": summary.get("most_common_cause")})
    return {"scenario": scenario_id, "seed": seed, "levels": out, **verdict(out)}
