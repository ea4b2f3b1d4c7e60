"""A seat's views reuse their unchanged unit copies (view.ViewCopies): each view still equals one
made afresh, shares nothing with the game, and a write on either side is never carried over."""
from __future__ import annotations

import dataclasses
import random

from sandtable.rules.desert_steel.engine.game import Game
from sandtable.rules.desert_steel.engine.runner import sample_setup
from sandtable.rules.desert_steel.engine.seats import make_bot
from sandtable.rules.desert_steel.engine.view import ViewCopies, side_view


def _units(view) -> dict:
    names = [f.name for f in dataclasses.fields(next(iter(view.state.units.values())))]
    return {k: tuple(getattr(u, n) for n in names) for k, u in view.state.units.items()}


def test_reused_copies_give_the_same_view_as_fresh_ones(model, catalog):
    scenario = model.scenario("XIII")  # hidden FOs: the masked copies are reused too
    game = Game(model, scenario, sample_setup(catalog, scenario), 3)
    bots = {"allied": make_bot("random", 1), "axis": make_bot("random", 2)}
    copies = {"allied": ViewCopies(), "axis": ViewCopies()}
    rng = random.Random(0)
    last: dict = {}
    kept = 0
    for _ in range(150):
        if game.is_terminal():
            break
        side = game.side_to_act
        reused, fresh = side_view(game, side, copies[side]), side_view(game, side)
        assert _units(reused) == _units(fresh)
        kept += sum(1 for u in reused.state.units.values() if id(u) in last.get(side, ()))
        last[side] = {id(u) for u in reused.state.units.values()}
        real = {id(u) for u in game.state.units.values()}
        assert not any(id(u) in real for u in reused.state.units.values())
        # a bot scribbling on its view: the next view does not carry it, nor does the game
        u = rng.choice(list(reused.state.units.values()))
        before = game.state.units[u.id].flipped
        u.flipped = not u.flipped
        assert game.state.units[u.id].flipped == before
        game.apply(bots[side].choose(game, game.legal_actions()))
    assert kept > 1000  # most copies were reused


def _formations(view) -> dict:
    names = [f.name for f in dataclasses.fields(next(iter(view.state.formations.values())))]
    return {k: tuple(getattr(f, n) for n in names) for k, f in view.state.formations.items()}


def test_reused_formation_copies_equal_fresh_ones_and_carry_no_write(model, catalog):
    scenario = model.scenario("XV")  # reinforcements and transports: formations added during the game
    game = Game(model, scenario, sample_setup(catalog, scenario), 5)
    bots = {"allied": make_bot("random", 1), "axis": make_bot("random", 2)}
    copies = {"allied": ViewCopies(), "axis": ViewCopies()}
    rng = random.Random(1)
    last: dict = {}
    kept = 0
    for _ in range(400):
        if game.is_terminal():
            break
        side = game.side_to_act
        reused, fresh = side_view(game, side, copies[side]), side_view(game, side)
        assert _formations(reused) == _formations(fresh)
        kept += sum(1 for f in reused.state.formations.values() if id(f) in last.get(side, ()))
        last[side] = {id(f) for f in reused.state.formations.values()}
        real = {id(f) for f in game.state.formations.values()}
        assert not any(id(f) in real for f in reused.state.formations.values())
        f = rng.choice(list(reused.state.formations.values()))  # a bot scribbling on its view's formation
        before = game.state.formations[f.card].losses
        f.losses += 5
        assert game.state.formations[f.card].losses == before
        game.apply(bots[side].choose(game, game.legal_actions()))
    assert kept > 1000
