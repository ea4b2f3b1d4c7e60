"""The recorded games: the same seeds give the same games, event for event, whatever the engine's
inner workings (caches, copies, how decisions are asked). Every scenario, heuristic against
heuristic and random against random, two seeds each, the first QUICK_ACTIONS actions (seconds for
the lot); the ``full`` set plays one seed of each to the end (about a minute, run it with
SANDTABLE_FULL_REPLAY=1 when changing the engine). A digest is the SHA-256 of the event log and
the final state (runner.digest); a game is also rebuilt from its logged actions alone, and each
of its events read into its typed outcome and back to the same JSON (seeds 1 and 3).

Regenerate (only when a rule fix changes games on purpose, and say which in the commit):
    python tests/test_engine_recorded.py
"""
import hashlib
import json
import os
import sys
from pathlib import Path

import pytest

from sandtable.rules.desert_steel.bots.core import make_bot
from sandtable.rules.desert_steel.engine import outcomes
from sandtable.rules.desert_steel.engine.actions import KINDS, from_json
from sandtable.rules.desert_steel.engine.game import Game, make_context
from sandtable.rules.desert_steel.engine.runner import digest, sample_setup

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "engine" / "recorded_games.json"
SCENARIOS = ("I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X", "XI", "XII", "XIII", "XIV", "XV")
QUICK_ACTIONS = 150
QUICK = [(sid, bot, seed, QUICK_ACTIONS) for sid in SCENARIOS for bot in ("heuristic", "random") for seed in (1, 2)]
FULL = [(sid, bot, 3, None) for sid in SCENARIOS for bot in ("heuristic", "random")]
_CONTEXTS: dict = {}


def record(catalog, sid: str, bot: str, seed: int, actions: int | None) -> tuple[Game, str]:
    """Play the game (to ``actions`` actions, or to its end) and return it with its digest."""
    model = catalog.model
    scenario = model.scenario(sid)
    if sid not in _CONTEXTS:
        _CONTEXTS[sid] = (make_context(model, scenario), sample_setup(catalog, scenario))
    ctx, setup = _CONTEXTS[sid]
    game = Game(model, scenario, setup, seed, context=ctx)
    players = {"allied": make_bot(bot, seed), "axis": make_bot(bot, seed + 1)}
    while not game.is_terminal() and (actions is None or len(game.actions) < actions):
        game.apply(players[game.current_player()].choose(game, game.legal_actions()))
    return game, game_digest(game)


def game_digest(game: Game) -> str:
    h = hashlib.sha256()
    for e in game.events:
        h.update(json.dumps(e, sort_keys=True, ensure_ascii=False).encode())
        h.update(b"\n")
    h.update(json.dumps(digest(game), sort_keys=True, default=repr).encode())
    return h.hexdigest()


def _key(sid, bot, seed, actions) -> str:
    return f"{sid}/{bot}/{seed}/{actions or 'end'}"


def _recorded() -> dict:
    return json.loads(FIXTURE.read_text())


def _check(catalog, case):
    game, got = record(catalog, *case)
    assert got == _recorded()[_key(*case)], f"{_key(*case)} no longer plays as recorded"
    if case[2] == 2:
        return  # one seed is enough to show the log alone rebuilds the game
    assert all(type(a) is KINDS[a[0]] for a in game.actions), "an action of no type (engine/actions.py)"
    for e in game.events:  # each event is one of its kind's type (engine/outcomes.py) and reads back the same
        line = json.dumps(e, ensure_ascii=False)
        try:
            typed = outcomes.from_json(json.loads(line))
        except ValueError as exc:
            pytest.fail(f"an event of no type in engine/outcomes.py (then python tests/engine_doc.py): {exc}")
        assert json.dumps(typed.to_json(), ensure_ascii=False) == line
    again = Game(catalog.model, game.ctx.scenario, _CONTEXTS[case[0]][1], game.seed, context=game.ctx)
    for action in game.actions:  # the actions alone, as a log holds them, rebuild the game: no hidden input
        again.apply(from_json(json.loads(json.dumps(action))))
    assert game_digest(again) == got


@pytest.mark.parametrize("case", QUICK, ids=lambda c: _key(*c))
def test_recorded_games_play_the_same(catalog, case):
    _check(catalog, case)


@pytest.mark.skipif(not os.environ.get("SANDTABLE_FULL_REPLAY"), reason="whole games: set SANDTABLE_FULL_REPLAY=1")
@pytest.mark.parametrize("case", FULL, ids=lambda c: _key(*c))
def test_recorded_whole_games_play_the_same(catalog, case):
    _check(catalog, case)


def test_every_scenario_is_recorded():
    recorded = _recorded()
    assert {_key(*c) for c in QUICK + FULL} <= set(recorded)
    assert {k.split("/")[0] for k in recorded} == set(SCENARIOS)


if __name__ == "__main__":
    from sandtable.rules.catalog import load_catalog
    cat = load_catalog()
    out = {_key(*c): record(cat, *c)[1] for c in QUICK + FULL}
    FIXTURE.write_text(json.dumps(out, indent=1) + "\n")
    print(f"{len(out)} games recorded in {FIXTURE}", file=sys.stderr)
