"""Playing games: one game with bots and a log, replay from a log, and a batch's report.

A game is its seed plus its decisions: the log (JSON lines) holds a header, every action
and every event (rolls included); replaying the actions with the same seed rebuilds the
game exactly. In a batch, game i gets its own seed derived from the batch seed (game_seed), so
the results are the same whatever plays them. Batches themselves are played by the one batch
runner, rules/lab (local processes or a Dask cluster), through the ruleset's play contribution;
Summary is the report it fills.
"""
from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field

from ...atomic import write_text
from ...stats import wilson
from ..autosetup import auto_setup
from ..model import DesertSteel, Scenario
from .seats import make_bot
from . import outcomes
from .diagnostics import Recorder, aggregate, engagement, warnings
from .context import EngineError
from .game import Game, SIDES, make_context
from .tally import Tally

LOG_VERSION = 1


def sample_setup(catalog, scenario: Scenario) -> dict:
    """The pack's setup for the scenario if it ships one, else an automatic legal setup."""
    for e in catalog.entries("setup"):
        if e.value["scenario"] == scenario.id:
            return json.loads(json.dumps(e.value))
    return auto_setup(catalog.model, scenario, 0)


def measurable_scenarios(model: DesertSteel, wanted=None) -> tuple[list, list]:
    """The scenarios a batch can measure (the engine plays them and they have victory conditions)
    and the others with the reason, in the pack's order; ``wanted`` filters by number or id."""
    playable, refused = [], []
    for scenario in model.scenarios.values():
        if wanted and scenario.number not in wanted and scenario.id not in wanted:
            continue
        try:
            make_context(model, scenario)
        except EngineError as exc:
            refused.append((scenario, str(exc).split(": ", 1)[-1]))
            continue
        if "expression" not in scenario.raw.get("victory", {}):
            refused.append((scenario, "no victory conditions: nothing to win, so no balance to measure"))
            continue
        playable.append(scenario)
    return playable, refused


def game_seed(batch_seed: int, index: int) -> int:
    return (batch_seed * 1_000_003 + index * 7919 + 17) % (2 ** 31)


def play(model: DesertSteel, scenario: Scenario, setup: dict, seed: int, bots=("heuristic", "heuristic"),
         context=None, max_actions: int = 200_000, options=None, recorder: Recorder | None = None) -> Game:
    """Play one game to the end; a recorder (diagnostics.Recorder) watches it if given."""
    game = Game(model, scenario, setup, seed, context=context, options=options)
    players = {"allied": make_bot(bots[0], seed), "axis": make_bot(bots[1], seed + 1)}
    if recorder is not None:
        recorder.start(game)
    # the game's methods and action list bound once (a random playout makes ~1,000 decisions)
    is_terminal, legal_actions, apply, played = game.is_terminal, game.legal_actions, game.apply, game.actions
    while not is_terminal():
        actions = legal_actions()
        apply(players[game.side_to_act].choose(game, actions))
        if recorder is not None:
            recorder.step(game)
        if len(played) > max_actions:
            raise RuntimeError(f"game did not end after {max_actions} actions")
    return game


def setup_pool(catalog_or_model, scenario: Scenario, setups: int, sample: dict) -> list[dict]:
    """The setups a batch plays on: the sample (or given) setup, then ``setups`` automatic legal
    setups (auto_setup seeds 1..N), each game on setup ``index % len(pool)``."""
    model = getattr(catalog_or_model, "model", catalog_or_model)
    return [sample] + [auto_setup(model, scenario, i) for i in range(1, setups + 1)]


def write_log(path, game: Game, setup: dict, bots, packs: list | None = None) -> None:
    """``packs``: the packs played with (inputs.pack_fingerprints), so replay can say when they differ."""
    header = {"sandtable_log": LOG_VERSION, "scenario": game.ctx.scenario.id, "seed": game.seed, "bots": list(bots),
              "options": game.options, "setup": setup}
    if packs is not None:
        header["packs"] = packs
    lines = [json.dumps(header, ensure_ascii=False)]
    lines += [json.dumps(e, ensure_ascii=False) for e in game.events]
    write_text(path, "\n".join(lines) + "\n")


def replay(model: DesertSteel, path) -> tuple[Game, dict]:
    """Rebuild a game from its log; returns the game and the result the log recorded.

    The log's shape is checked first (inputs.read_log: header, then each event read into its
    typed outcome, engine/outcomes.py: an action of no kind of the rules, or whose fields do not
    fit, is such a problem); a problem raises ValueError naming the line and where in it. The
    header is kept as ``game.log_header`` (it records the packs the game was played with)."""
    from ...inputs import read_log
    header, events, problems = read_log(path, LOG_VERSION, read_event=outcomes.from_json)
    if header is None:
        f = problems[0]
        raise ValueError((f"line {f.location.line}: " if f.location.line else "") + f.message
                         + (f" (at {f.location.pointer})" if f.location.pointer else ""))
    scenario = model.scenario(header["scenario"])
    if scenario is None:
        raise ValueError(f"scenario {header['scenario']!r} is not in the pack")
    try:
        game = Game(model, scenario, header["setup"], header["seed"], options=header.get("options"))
    except (KeyError, TypeError, ValueError, AttributeError, IndexError) as exc:
        raise ValueError(f"the log's setup cannot start a game of {scenario.id}: {exc!r}") from None
    game.log_header = header
    recorded = None
    for line, event in events:
        if isinstance(event, outcomes.ActionPlayed):
            action = event.action  # an action of the rules (a log whose action is none was refused at its line)
            try:
                game.apply(action)
            except EngineError as exc:  # the game refuses it: the log does not replay, from this line
                raise EngineError(f"line {line}: {exc}") from None
            except (KeyError, TypeError, ValueError, AttributeError, IndexError) as exc:
                raise ValueError(f"line {line}: action {event.to_json()['action']!r} cannot be applied: {exc!r}") from None
        elif isinstance(event, outcomes.GameOver):
            recorded = event.result()
    return game, recorded


def digest(game: Game) -> dict:
    """The final state in a comparable form."""
    return {"turn": game.state.turn,
            "units": sorted((u.id, u.status, u.hex, u.suppressed, u.flipped) for u in game.state.units.values()),
            "shaken": sorted(c for c, f in game.state.formations.items() if f.shaken),
            "result": getattr(game, "result", None)}


# --- batches -------------------------------------------------------------------------------

@dataclass
class Summary:
    scenario: str
    games: int
    seed: int
    bots: tuple
    results: list = field(default_factory=list)
    # Past KEEP results, the older ones are folded into running totals (tally.Tally), so a batch
    # of a billion games keeps a bounded amount in memory; ``results`` then holds the latest only.
    folded: Tally | None = None
    KEEP = 10_000

    def add(self, result: dict) -> None:
        self.results.append(result)
        if len(self.results) > 2 * self.KEEP:
            if self.folded is None:
                self.folded = Tally()
            for r in self.results[:-self.KEEP]:
                self.folded.add(r)
            del self.results[:-self.KEEP]

    @property
    def played(self) -> int:
        return len(self.results) + (self.folded.n if self.folded is not None else 0)

    def to_json(self) -> dict:
        out = self._to_json()
        if self.folded is None:  # each game's seed: `sandtable play SCEN --seed S` plays it again
            out["per_game"] = [{"index": r["index"], "seed": r["seed"], "setup": r.get("setup", 0),
                                "winner": r["winner"], "level": r["level"], "turns": r["turns"],
                                "actions": r["actions"]} for r in sorted(self.results, key=lambda r: r["index"])]
        else:
            out["per_game_note"] = (f"past {2 * self.KEEP} games the batch keeps running totals only; game i's seed "
                                    f"is ({self.seed} * 1000003 + i * 7919 + 17) mod 2^31")
        out["engagement"] = engagement(out)
        out["warnings"] = warnings(out)
        return out

    def _to_json(self) -> dict:
        if self.folded is not None:
            tally = self.folded.copy()
            for r in self.results:
                tally.add(r)
            return tally.to_json(self.scenario, self.seed, self.bots, wilson)
        n = len(self.results)
        wins = Counter(r["winner"] for r in self.results)
        sides = {}
        for side in SIDES:
            lo, hi = wilson(wins[side], n)
            losses = Counter()
            for r in self.results:
                losses.update(r["losses"][side])
            sides[side] = {"bot": self.bots[SIDES.index(side)], "wins": wins[side], "losses": n - wins[side] - wins["draw"],
                           "win_rate": wins[side] / n if n else 0, "win_rate_95": [round(lo, 4), round(hi, 4)],
                           "average_losses_by_type": {t: round(c / n, 3) for t, c in sorted(losses.items())},
                           "points": dict(sorted(Counter(r["points"][side] for r in self.results).items()))}
        levels = Counter(f"{r['winner']}:{r['level'] or '-'}" for r in self.results)
        causes = Counter(f"{r['winner']} by {r['cause']}" for r in self.results)
        draw_lo, draw_hi = wilson(wins["draw"], n)
        return {"scenario": self.scenario, "games": n, "seed": self.seed, "bots": list(self.bots),
                "draws": wins["draw"], "draw_rate_95": [round(draw_lo, 4), round(draw_hi, 4)], "sides": sides,
                "results_by_level": dict(sorted(levels.items())),
                "most_common_cause": causes.most_common(1)[0][0] if causes else None,
                "average_actions": round(sum(r["actions"] for r in self.results) / n, 1) if n else 0,
                "average_turns": round(sum(r["turns"] for r in self.results) / n, 2) if n else 0,
                "median_game_seconds": round(sorted(r["seconds"] for r in self.results)[n // 2], 4) if n else 0,
                "games_per_second_one_core": round(n / sum(r["seconds"] for r in self.results), 2) if n else 0,
                "diagnostics": aggregate([r["diagnostics"] for r in self.results if "diagnostics" in r]),
                **({"setups": setup_variance(self.results)} if len({r.get("setup", 0) for r in self.results}) > 1
                   else {})}


def setup_variance(results: list) -> dict:
    """Per setup, the games and wins; per side, how much of the variance of its win (a 0/1
    outcome per game) lies between setups (the setup decides) rather than within them (the dice
    and the bots' play decide): the law of total variance, Var = E[Var | setup] + Var[E | setup]."""
    by_setup: dict[int, list] = {}
    for r in results:
        by_setup.setdefault(r.get("setup", 0), []).append(r)
    n = len(results)
    per_setup = [{"setup": k, "kind": "sample" if k == 0 else f"auto-setup seed {k}", "games": len(rs),
                  **{f"{side}_wins": sum(r["winner"] == side for r in rs) for side in SIDES},
                  "draws": sum(r["winner"] == "draw" for r in rs)} for k, rs in sorted(by_setup.items())]
    sides = {}
    for side in SIDES:
        mean = sum(r["winner"] == side for r in results) / n
        between = sum(len(rs) * (sum(r["winner"] == side for r in rs) / len(rs) - mean) ** 2
                      for rs in by_setup.values()) / n
        within = sum(sum(r["winner"] == side for r in rs) / len(rs) * (1 - sum(r["winner"] == side for r in rs)
                     / len(rs)) * len(rs) for rs in by_setup.values()) / n
        rates = [s[f"{side}_wins"] / s["games"] for s in per_setup]
        sides[side] = {"win_rate_by_setup_min": round(min(rates), 3), "win_rate_by_setup_max": round(max(rates), 3),
                       "variance_between_setups": round(between, 4), "variance_within_setups": round(within, 4),
                       "setup_share_of_variance": round(between / (between + within), 3) if between + within else 0.0}
    return {"count": len(by_setup), "per_setup": per_setup, "sides": sides}
