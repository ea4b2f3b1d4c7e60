"""A seat's view is brought up to date in place at each decision (view.ViewCopies): it reuses its
unchanged unit and formation copies and containers, still equals a view made afresh, shares
nothing with the game, and a write on either side is never carried over."""
from __future__ import annotations

import copy
import dataclasses
import random

import pytest

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
    nothing with the game (no object, nor a unit's fate dict: so no write to the view reaches the
    game); the bot then scribbles on one of its view's objects (``scribble``), which the next view
    may not carry. Returns how many copies were reused."""
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
        last[side] = {id(x): x for x in mine.values()}  # held: a new copy cannot take a freed one's id
        real = {id(y) for x in getattr(game.state, part).values() for y in (x, getattr(x, "fate", None)) if y}
        assert not any(id(y) in real for x in mine.values() for y in (x, getattr(x, "fate", None)) if y)
        scribble(rng.choice(list(mine.values())))
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


def _whole(view) -> tuple:
    """Everything a view holds that a bot may read: the state's fields (its memos aside), the
    pending decisions, the placeholders of the actions, the log, the options, the dice's phrase."""
    s = view.state
    state = {f.name: getattr(s, f.name) for f in dataclasses.fields(s) if not f.name.startswith("_")}
    state["units"], state["formations"] = _spelt(s.units), _spelt(s.formations)
    # what the state's indexes and memos answer (made anew after a refresh, never the last view's)
    state["stacks"] = sorted((h, [(u.id, u.flipped) for u in us]) for h, us in s.stacks())
    state["on_map"] = [[(u.id, u.flipped) for u in s.on_map(side)] for side in ("allied", "axis")]
    state["of_card"] = [[(u.id, u.status) for u in s.of_card(c)] for c in sorted(s.formations)]
    # the dice as they would roll, read on a copy: rolling the view's own would make the next
    # refresh replace them, and its branch that re-phrases dice never rolled would go untested
    return (repr(state), view.pending, len(view.actions), set(map(tuple, view.actions)), view.events, view.options,
            view.viewer, view.seed, copy.copy(view.dice).state(), view.ctx)


def _scribble_on_a_container(view, rng) -> None:
    """What a careless bot might do to the view it was handed (never to the game)."""
    s = view.state
    choice = rng.randrange(6)
    if choice == 0:
        s.smoke.append("9999")
    elif choice == 1 and s.hands[view.viewer]:
        s.hands[view.viewer].pop()
    elif choice == 2:
        s.entrenchments.append({"hex": "9999", "occupant": None, "done": True, "turn": 0})
    elif choice == 3 and s.minefields:
        s.minefields[0]["hex"] = "9999"
    elif choice == 4:
        view.dice.roll(2)  # a look-ahead on the view itself: its dice are spent, not to be re-phrased
    else:
        view.actions.append(("pass",))


BOTH_OPTIONS = {"limited_intelligence": True, "limited_interruption": True}


@pytest.mark.parametrize("number,seed,options", [("IX", 1, None), ("XI", 2, None), ("XIII", 3, None), ("XV", 4, None),
                                                 ("III", 5, BOTH_OPTIONS), ("XV", 6, BOTH_OPTIONS)])
def test_a_seats_view_brought_up_to_date_equals_one_made_afresh(model, catalog, number, seed, options):
    """The seat's view is one object brought up to date at each decision (ViewCopies): at every
    decision of heuristic games with hidden units, minefields, entrenchments and raids (and face-down
    cards: §6.55), it holds exactly what a view made afresh holds, whatever the bot scribbled on the
    last one."""
    scenario = model.scenario(number)
    game = Game(model, scenario, sample_setup(catalog, scenario), seed, options=options)
    bots = {"allied": make_bot("heuristic", seed), "axis": make_bot("heuristic", seed + 1)}
    copies = {"allied": ViewCopies(), "axis": ViewCopies()}
    rng = random.Random(seed)
    last: dict = {}
    refreshed = dice_kept = 0
    for _ in range(250):
        if game.is_terminal():
            break
        side = game.side_to_act
        kept = side_view(game, side, copies[side])
        assert _whole(kept) == _whole(side_view(game, side))
        if kept is last.get(side, (None,))[0]:
            refreshed += 1
            dice_kept += kept.dice is last[side][1]
        last[side] = (kept, kept.dice)
        if rng.random() < 0.2:
            _scribble_on_a_container(kept, rng)
        game.apply(bots[side].choose(game, game.legal_actions()))
    assert refreshed > 150  # brought up to date, not made anew
    assert dice_kept > 100  # the dice of the last view, never rolled, re-phrased rather than made anew


def test_a_view_a_bot_took_apart_is_made_afresh(model, catalog):
    """A bot that swaps a unit of its view for one the game does not have gets, at its next
    decision, a view made afresh (equal to a new one), not an error."""
    scenario = model.scenario("I")
    game = Game(model, scenario, sample_setup(catalog, scenario), 1)
    bot, copies = make_bot("heuristic", 1), {"allied": ViewCopies(), "axis": ViewCopies()}
    for _ in range(40):
        side = game.side_to_act
        kept = side_view(game, side, copies[side])
        units = kept.state.units
        k, u = next(iter(units.items()))
        del units[k]
        stranger = u.copy()
        stranger.id = "stranger"
        units["stranger"] = stranger
        stranger.flipped = not stranger.flipped
        again = side_view(game, side, copies[side])
        assert again is not kept and "stranger" not in again.state.units
        assert _whole(again) == _whole(side_view(game, side))
        game.apply(bot.choose(game, game.legal_actions()))


def test_a_placeholder_the_bot_changed_before_the_last_survives_a_refresh(model, catalog):
    """ViewCopies' one exception: the placeholders of the actions are checked at their end only, so
    a bot's edit before the last stays in its next view (its own writing: they hold nothing of the
    game); one at the end, or an action appended, and the list is made anew."""
    from sandtable.rules.desert_steel.engine.view import SECRET_ACTION
    scenario = model.scenario("I")
    game = Game(model, scenario, sample_setup(catalog, scenario), 1)
    bot, copies = make_bot("heuristic", 1), ViewCopies()
    for _ in range(3):
        game.apply(bot.choose(game, game.legal_actions()))
    view = side_view(game, "allied", copies)
    view.actions[0] = ("mine",)
    game.apply(bot.choose(game, game.legal_actions()))
    again = side_view(game, "allied", copies)
    assert again is view and again.actions == [("mine",)] + [SECRET_ACTION] * (len(game.actions) - 1)
    again.actions[-1] = ("mine",)
    assert side_view(game, "allied", copies).actions == [SECRET_ACTION] * len(game.actions)


def test_the_refresh_knows_every_field_of_the_state():
    """A field added to State that the refresh does not know would stay in a seat's view as it was
    at its first decision: every field is a container the refresh compares (view.CONTAINERS), or one it
    sets itself."""
    from sandtable.rules.desert_steel.engine.state import State
    from sandtable.rules.desert_steel.engine.view import CONTAINERS
    itself = {"turn", "phase", "visibility", "units", "formations", "raid_deck"}
    fields = {f.name for f in dataclasses.fields(State) if not f.name.startswith("_")}
    assert fields == set(CONTAINERS) | itself


def test_the_refresh_knows_every_memo_of_the_state():
    """A seat's refreshed view keeps the state's memos, which follow its unit copies by the
    placement counts (view.ViewCopies.refreshed counts a copy's new place): a memo State gains must
    follow them too (tests/test_view_memos.py), then be listed here."""
    from sandtable.rules.desert_steel.engine.state import State
    memos = {f.name for f in dataclasses.fields(State) if f.name.startswith("_")}
    assert memos == {"_memo", "_at_index", "_at_where", "_at_rank", "_at_count", "_at_roster", "_at_size",
                     "_at_units", "_cards", "_cards_roster", "_cards_size", "_cards_units"}
