"""Running totals of a batch of games: what ``Summary`` reports, in memory that does not grow
with the number of games.

``runner.Summary`` keeps each game's result while a batch is small (the tests compare them
game by game) and, past ``KEEP`` results, folds the older ones into a ``Tally``: counters
of winners, levels, causes, points and losses, sums of actions, turns and seconds, sums of
each diagnostic, win counts per setup, and the game times rounded to 0.1 ms (the report's
own precision) so the median stays exact. ``Tally.to_json`` gives the same report as
``Summary._to_json`` over the same results (tests/test_game_inputs.py checks it), except that
ties for the most common cause are broken by first occurrence among the folded results.
"""
from __future__ import annotations

import copy
from collections import Counter

from .context import SIDES
from .diagnostics import aggregate


class Tally:
    def __init__(self):
        self.n = 0
        self.wins: Counter = Counter()
        self.losses = {side: Counter() for side in SIDES}
        self.points = {side: Counter() for side in SIDES}
        self.levels: Counter = Counter()
        self.causes: Counter = Counter()
        self.actions = 0
        self.turns = 0
        self.seconds = 0.0
        self.times: Counter = Counter()  # game seconds rounded to 4 decimals -> games
        self.diag_sums = {side: Counter() for side in SIDES}
        self.diag_counts = {side: Counter() for side in SIDES}  # games where the field is not None
        self.diag_games = 0
        self.by_setup: dict[int, Counter] = {}

    def copy(self) -> "Tally":
        return copy.deepcopy(self)

    def add(self, r: dict) -> None:
        self.n += 1
        self.wins[r["winner"]] += 1
        for side in SIDES:
            self.losses[side].update(r["losses"][side])
            self.points[side][r["points"][side]] += 1
        self.levels[f"{r['winner']}:{r['level'] or '-'}"] += 1
        self.causes[f"{r['winner']} by {r['cause']}"] += 1
        self.actions += r["actions"]
        self.turns += r["turns"]
        self.seconds += r["seconds"]
        self.times[round(r["seconds"], 4)] += 1
        if "diagnostics" in r:
            self.diag_games += 1
            for side in SIDES:
                for key, value in r["diagnostics"][side].items():
                    if isinstance(value, (int, float)) and not isinstance(value, bool):
                        self.diag_sums[side][key] += value
                        self.diag_counts[side][key] += 1
                    elif value is None:
                        self.diag_counts[side][key] += 0
        self.by_setup.setdefault(r.get("setup", 0), Counter())[r["winner"]] += 1

    def _median_time(self) -> float:
        target = self.n // 2
        seen = 0
        for value in sorted(self.times):
            seen += self.times[value]
            if seen > target:
                return value
        return 0.0

    def _diagnostics(self) -> dict:
        """diagnostics.aggregate over one row of averages: its averages are linear, so this equals
        aggregate over every game (and follows any field it adds)."""
        if not self.diag_games:
            return aggregate([])
        row = {side: {key: (self.diag_sums[side][key] / count if count else None)
                      for key, count in self.diag_counts[side].items()} for side in SIDES}
        return aggregate([row])

    def to_json(self, scenario: str, seed: int, bots: tuple, wilson) -> dict:
        n = self.n
        sides = {}
        for side in SIDES:
            lo, hi = wilson(self.wins[side], n)
            sides[side] = {"bot": bots[SIDES.index(side)], "wins": self.wins[side],
                           "losses": n - self.wins[side] - self.wins["draw"],
                           "win_rate": self.wins[side] / n if n else 0, "win_rate_95": [round(lo, 4), round(hi, 4)],
                           "average_losses_by_type": {t: round(c / n, 3) for t, c in sorted(self.losses[side].items())},
                           "points": dict(sorted(self.points[side].items()))}
        draw_lo, draw_hi = wilson(self.wins["draw"], n)
        return {"scenario": scenario, "games": n, "seed": seed, "bots": list(bots),
                "draws": self.wins["draw"], "draw_rate_95": [round(draw_lo, 4), round(draw_hi, 4)], "sides": sides,
                "results_by_level": dict(sorted(self.levels.items())),
                "most_common_cause": self.causes.most_common(1)[0][0] if self.causes else None,
                "average_actions": round(self.actions / n, 1) if n else 0,
                "average_turns": round(self.turns / n, 2) if n else 0,
                "median_game_seconds": round(self._median_time(), 4) if n else 0,
                "games_per_second_one_core": round(n / self.seconds, 2) if n else 0,
                "diagnostics": self._diagnostics(),
                **({"setups": self._setups()} if len(self.by_setup) > 1 else {})}

    def _setups(self) -> dict:
        """runner.setup_variance from the win counts per setup (the law of total variance)."""
        n = self.n
        per_setup = [{"setup": k, "kind": "sample" if k == 0 else f"auto-setup seed {k}", "games": sum(c.values()),
                      **{f"{side}_wins": c[side] for side in SIDES}, "draws": c["draw"]}
                     for k, c in sorted(self.by_setup.items())]
        sides = {}
        for side in SIDES:
            mean = self.wins[side] / n
            between = sum(s["games"] * (s[f"{side}_wins"] / s["games"] - mean) ** 2 for s in per_setup) / n
            within = sum(s[f"{side}_wins"] / s["games"] * (1 - s[f"{side}_wins"] / s["games"]) * s["games"]
                         for s in per_setup) / n
            rates = [s[f"{side}_wins"] / s["games"] for s in per_setup]
            sides[side] = {"win_rate_by_setup_min": round(min(rates), 3), "win_rate_by_setup_max": round(max(rates), 3),
                           "variance_between_setups": round(between, 4), "variance_within_setups": round(within, 4),
                           "setup_share_of_variance": round(between / (between + within), 3) if between + within else 0.0}
        return {"count": len(self.by_setup), "per_setup": per_setup, "sides": sides}
