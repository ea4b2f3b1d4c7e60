"""A seat's view keeps its memos and indexes from one decision to the next (view.ViewCopies brings
its unit copies up to date in place and counts a copy's new place as a write of it would be): at
every decision of whole heuristic games, what they answer equals what a view made afresh answers,
whatever the bot did to its last view."""
from __future__ import annotations

import random

import pytest

from sandtable.rules.desert_steel.engine.game import Game
from sandtable.rules.desert_steel.engine.runner import sample_setup
from sandtable.rules.desert_steel.engine.seats import make_bot
from sandtable.rules.desert_steel.engine.view import ViewCopies, side_view


def _answers(view) -> tuple:
    """What the view's memos and indexes answer (targets per firer, opportunity firers per mover,
    the hex index, each side's units on the map and the hexes they hold, each formation's units),
    by unit id."""
    s = view.state
    return (sorted((u.id, sorted(t.id for t in view.targets(u))) for u in s.units.values()),
            sorted((u.id, [t.id for t in view.opportunity_firers(u)]) for u in s.units.values()),
            sorted((h, [u.id for u in us]) for h, us in s.stacks()),
            [[u.id for u in s.on_map(side)] for side in ("allied", "axis")],
            [sorted(s.held(side)) for side in ("allied", "axis")],
            [[u.id for u in s.of_card(c)] for c in sorted(s.formations)])


def _meddle(view, rng) -> None:
    """A careless bot moves one of its view's units (a look-ahead done on the view itself)."""
    mine = [u for u in view.state.units.values() if u.on_map]
    if mine:
        u = rng.choice(mine)
        u.hex = rng.choice(list(view.ctx.field.board.neighbours(u.hex)))


@pytest.mark.parametrize("number,seed", [("I", 1), ("XI", 2), ("XIII", 3), ("XV", 4)])
def test_a_kept_views_memos_answer_as_a_fresh_views(model, catalog, number, seed):
    scenario = model.scenario(number)
    game = Game(model, scenario, sample_setup(catalog, scenario), seed)
    bots = {"allied": make_bot("heuristic", seed), "axis": make_bot("heuristic", seed + 1)}
    copies = {"allied": ViewCopies(), "axis": ViewCopies()}
    rng = random.Random(seed)
    kept_views, last = 0, {}
    for _ in range(600):
        if game.is_terminal():
            break
        side = game.side_to_act
        kept = side_view(game, side, copies[side])
        kept_views += kept is last.get(side)
        last[side] = kept
        assert _answers(kept) == _answers(side_view(game, side))
        fresh = game.clone()  # the game's own memos (kept from decision to decision) against a copy's, made anew
        assert [[t.id for t in game.targets(u)] for u in game.state.units.values()] == \
            [[t.id for t in fresh.targets(u)] for u in fresh.state.units.values()]
        assert [[t.id for t in game.opportunity_firers(u)] for u in game.state.units.values()] == \
            [[t.id for t in fresh.opportunity_firers(u)] for u in fresh.state.units.values()]
        choice = bots[side].bot.choose(kept, game.legal_actions())  # the memos the bot reads, made on the kept view
        if rng.random() < 0.03:
            _meddle(kept, rng)
        game.apply(choice)
    assert kept_views > 300


def test_refill_gives_what_a_copy_holds():
    """state.refill (a view's copy brought up to date in place) sets every field of Unit: a field
    added to Unit that it forgets would stay in a seat's view as it was at its first decision."""
    import dataclasses

    from sandtable.rules.desert_steel.engine.state import new_unit, refill
    fields = [f.name for f in dataclasses.fields(new_unit("1.1", 1, None, "allied", "A0101"))]
    u = new_unit(*[f"value {i}" for i in range(len(fields))])
    u.fate = {"turn": 3}
    c = new_unit("2.1", 2, None, "axis", None)
    refill(c, u)
    assert [getattr(c, n) for n in fields] == [getattr(u, n) for n in fields] == \
        [getattr(u.copy(), n) for n in fields]
    assert c.fate is not u.fate and type(c) is type(u)


def test_targets_kept_follow_a_friend_entering_the_targets_hex(model, catalog):
    """game.targets is kept while the firer's side moves on, but a friendly vehicle that enters
    the target's hex forbids anti-vehicle fire there (§8.51): the kept answer follows it."""
    from sandtable.rules.desert_steel.engine.state import OFF_MAP, ON_MAP
    scenario = model.scenario("I")
    game = Game(model, scenario, sample_setup(catalog, scenario), 1)
    s = game.state
    tanks = {side: [u for u in s.units.values() if u.side == side and u.type.is_vehicle and u.type.anti_vehicle]
             for side in ("allied", "axis")}
    firer, friend, target = tanks["allied"][0], tanks["allied"][1], tanks["axis"][0]
    for u in s.units.values():
        if u not in (firer, friend, target):
            u.status = OFF_MAP
    here = firer.hex or next(h for h in game.ctx.field.board.usable)
    there = next(n for n in game.ctx.field.board.neighbours(here) if game.visible(here, n))
    far = next(h for h in sorted(game.ctx.field.board.usable) if game.ctx.field.board.distance(h, here) > 30)
    firer.hex, firer.status = here, ON_MAP
    target.hex, target.status, target.hidden = there, ON_MAP, False
    friend.hex, friend.status = far, ON_MAP
    assert target in game.targets(firer)
    friend.hex = there
    assert target not in game.targets(firer) and [t.id for t in game.targets(firer)] == \
        [t.id for t in game.clone().targets(firer)]
