"""A seat's views reuse their unchanged unit and formation copies (view.ViewCopies): each view
still equals one made afresh, shares nothing with the game, and a write on either side is never
carried over."""
from __future__ import annotations

import dataclasses
import random

from sandtable.rules.desert_steel.engine.game import Game
from sandtable.rules.desert_steel.engine.runner import sample_setup
from sandtable.rules.desert_steel.engine.seats import make_bot
from sandtable.rules.desert_steel.engine.view import ViewCopies, side_view


def _spelt(objects: dict) -> dict:
    names = [f.name for f in dataclasses.fields(next(iter(objects.values())))]
    return {k: tuple(getattr(x, n) for n in names) for k, x in objects.items()}


def _reused_copies_kept(game: Game, part: str, scribble, decisions: int, seed: int) -> int:
    """Play ``decisions`` random decisions, each side's view made with its seat's copies and
    afresh: the ``part`` of the state ("units" or "formations") must be equal in both and share
    nothing with the game; the bot then scribbles on one of its view's objects (``scribble``),
    which neither the game nor the next view may carry. Returns how many copies were reused."""
    bots = {"allied": make_bot("random", 1), "axis": make_bot("random", 2)}
    copies = {"allied": ViewCopies(), "axis": ViewCopies()}
    rng = random.Random(seed)
    last: dict = {}
    kept = 0
    for _ in range(decisions):
        if game.is_terminal():
            break
        side = game.side_to_act
        reused, fresh = side_view(game, side, copies[side]), side_view(game, side)
        mine = getattr(reused.state, part)
        assert _spelt(mine) == _spelt(getattr(fresh.state, part))
        kept += sum(1 for x in mine.values() if id(x) in last.get(side, ()))
        last[side] = {id(x) for x in mine.values()}
        real = {id(x) for x in getattr(game.state, part).values()}
        assert not any(id(x) in real for x in mine.values())
        key, x = rng.choice(list(mine.items()))
        before = _spelt(getattr(game.state, part))[key]
        scribble(x)
        assert _spelt(getattr(game.state, part))[key] == before
        game.apply(bots[side].choose(game, game.legal_actions()))
    return kept


def _flip(unit) -> None:
    unit.flipped = not unit.flipped


def _lose(formation) -> None:
    formation.losses += 5


def test_reused_copies_give_the_same_view_as_fresh_ones(model, catalog):
    scenario = model.scenario("XIII")  # hidden FOs: the masked copies are reused too
    game = Game(model, scenario, sample_setup(catalog, scenario), 3)
    assert _reused_copies_kept(game, "units", _flip, 150, 0) > 1000  # most copies were reused


def test_reused_formation_copies_equal_fresh_ones_and_carry_no_write(model, catalog):
    scenario = model.scenario("XV")  # reinforcements and transports: formations added during the game
    game = Game(model, scenario, sample_setup(catalog, scenario), 5)
    assert _reused_copies_kept(game, "formations", _lose, 400, 1) > 1000
