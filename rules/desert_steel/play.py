"""Desert Steel's ``play`` contribution: what the CLI, the balance lab and the editor use to play
games of this ruleset, without knowing its engine.

A thin facade over the engine's public functions (engine.runner, engine.seats, engine.diagnostics,
autosetup, setup_pool, narration): the engine stays where it is and keeps its own names; this
module is the one door to it. Every method works on the pack's model and scenario objects as
the catalog built them.
"""
from __future__ import annotations

from collections import Counter

from .autosetup import AutoSetupError
from .engine.context import EngineError

# The words of --bots in the CLI's help and its usage errors.
BOT_HELP = ("random, heuristic-v1, heuristic, search:N (N rollouts a decision, 1 to 10,000) or search:Ts "
            "(T seconds a decision, up to 60, e.g. search:0.5s)")


class DesertSteelPlay:
    """New games, bots, game records and narration for Desert Steel (rules I-V)."""

    # A game that cannot start or go on (the engine refuses the scenario, a setup, a log).
    GameError = EngineError
    # An automatic setup that cannot place a scenario's forces.
    SetupError = AutoSetupError
    bot_help = BOT_HELP
    sides = ("allied", "axis")

    @property
    def bots(self) -> tuple[str, ...]:
        from .engine.seats import BOTS, registry
        registry()
        return tuple(BOTS)

    def valid_bot(self, name: str) -> bool:
        from .engine.seats import valid_bot
        return valid_bot(name)

    def game_seed(self, batch_seed: int, index: int) -> int:
        """Game i's seed in a batch seeded ``batch_seed``: ``play --seed`` of it replays game i."""
        from .engine.runner import game_seed
        return game_seed(batch_seed, index)

    # --- setups ----------------------------------------------------------------------------

    def sample_setup(self, catalog, scenario) -> dict:
        from .engine.runner import sample_setup
        return sample_setup(catalog, scenario)

    def setup_pool(self, catalog_or_model, scenario, count: int, sample: dict) -> list:
        """The sample then ``count`` automatic setups (seeds 1..count), made now."""
        from .engine.runner import setup_pool
        return setup_pool(catalog_or_model, scenario, count, sample)

    def lazy_setup_pool(self, model, scenario, count: int, sample: dict) -> list:
        """The same setups, each made when a game first needs it (the first at once)."""
        from .setup_pool import LazySetupPool
        return LazySetupPool(model, scenario, count, sample)

    # --- one game --------------------------------------------------------------------------

    def unmeasurable(self, scenario) -> str | None:
        """Why a batch of games of this scenario measures nothing (nobody can win), or None."""
        if "expression" not in scenario.raw.get("victory", {}):
            return "its 'victory' has no 'expression'"
        return None

    def context(self, model, scenario):
        """What every game of a scenario shares, built once (GameError: the engine cannot play it)."""
        from .engine.game import make_context
        return make_context(model, scenario)

    def recorder(self):
        """A watcher of one game: where units began, what the bots did (diagnostics)."""
        from .engine.diagnostics import Recorder
        return Recorder()

    def play(self, model, scenario, setup: dict, seed: int, bots, *, options=None, recorder=None, context=None):
        """Play one game to its end with bots and return it."""
        from .engine.runner import play
        return play(model, scenario, setup, seed, tuple(bots), context=context, options=options, recorder=recorder)

    def result(self, game) -> dict:
        return game.returns()

    def record(self, game, recorder=None) -> dict:
        """What a batch keeps of a finished game: result, length, losses by unit type and, with a
        recorder, the diagnostics. No timings: a record never depends on the machine."""
        from .engine.diagnostics import game_diagnostics
        result = game.returns()
        losses = {side: Counter() for side in self.sides}
        for u in game.state.units.values():
            if u.status == "destroyed" or (u.status == "exited" and (u.fate or {}).get("counts_as_loss")):
                losses[u.side][u.type.id] += 1
        record = {"winner": result["winner"], "level": result["level"], "points": result["points"],
                  "cause": result["cause"], "actions": len(game.actions), "turns": game.state.turn,
                  "losses": {s: dict(sorted(c.items())) for s, c in losses.items()}}
        if recorder is not None:
            record["diagnostics"] = game_diagnostics(game, recorder)
        return record

    def narrate(self, game, recorder=None) -> list[str]:
        """The turn-by-turn account of a finished game (``sandtable play``)."""
        from .narration import account
        return account(game, recorder.start_hex if recorder is not None else None)

    # --- logs ------------------------------------------------------------------------------

    def write_log(self, path, game, setup: dict, bots, packs: list | None = None) -> None:
        from .engine.runner import write_log
        write_log(path, game, setup, bots, packs=packs)

    def replay(self, model, path):
        """(game rebuilt from its log, the result the log recorded)."""
        from .engine.runner import replay
        return replay(model, path)

    def digest(self, game) -> dict:
        from .engine.runner import digest
        return digest(game)

    # --- batches ---------------------------------------------------------------------------

    def summary(self, scenario_id: str, games: int, seed: int, bots):
        """The balance report of a batch; ``add`` each game's record (with index, seed, setup,
        seconds) and ``to_json`` it."""
        from .engine.runner import Summary
        return Summary(scenario_id, games, seed, tuple(bots))

    def aggregate(self, diagnostics: list[dict]) -> dict:
        from .engine.diagnostics import aggregate
        return aggregate(diagnostics)

    def not_engaged_warning(self, summary: dict) -> str | None:
        from .engine.diagnostics import not_engaged_warning
        return not_engaged_warning(summary)

    def strength_ladder(self, batch, scenario_id: str, games: int, search_games: int, seed: int, budgets) -> dict:
        """The scenario at growing bot strength on both sides (the heuristic, then each search
        budget), and whether its result holds. ``batch(bots, n)`` plays n games of those bots
        and returns the batch summary's JSON (the caller's batch runner)."""
        from .engine.ladder import strength_ladder
        return strength_ladder(batch, scenario_id, games, search_games, seed, budgets)


PLAY = DesertSteelPlay()
