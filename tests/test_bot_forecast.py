"""The heuristic's bombardment forecast is kept per scenario context under the position's key
(bots/position.py, bots/forecast.py). A key that missed one thing once made a batch's results
depend on which games a worker had played before: every field of every unit, formation and of
the state, the pending decisions and the game's options change the key; a value the key cannot
spell gives no key (the forecast is played afresh); a cached forecast equals a fresh one."""
from __future__ import annotations

import dataclasses

import pytest

from sandtable.rules.desert_steel.bots import forecast
from sandtable.rules.desert_steel.bots.heuristic import HeuristicBot2, forecaster
from sandtable.rules.desert_steel.bots.position import position_key
from sandtable.rules.desert_steel.engine.game import Game
from sandtable.rules.desert_steel.engine.runner import sample_setup
from sandtable.rules.desert_steel.engine.view import side_view


@pytest.fixture(scope="module")
def planning(catalog):
    """Kasserine's sample set-up at its first bombardment plan, as the side planning sees it."""
    scenario = catalog.model.scenario("XV")
    game = Game(catalog.model, scenario, sample_setup(catalog, scenario), seed=1)
    bot = HeuristicBot2(1)
    while game.mode != "plan-bombardment":
        game.apply(bot.choose(game, game.legal_actions()))
    return side_view(game, game.side_to_act)


def _changed(value, other_type):
    """A value of the same kind as ``value`` that differs from it."""
    if isinstance(value, bool):
        return not value
    if isinstance(value, (int, float)):
        return value + 1
    if isinstance(value, str):
        return value + "x"
    if value is None:
        return {"turn": 1}  # a fate: a mapping the copy copies
    if isinstance(value, dict):  # one entry fewer (or one more): entries copied by their kind
        return dict(list(value.items())[:-1]) if value else {"x": set()}
    if isinstance(value, list):  # one fewer, or one (a record: the copy copies records as dicts)
        return value[:-1] if value else [{}]
    if isinstance(value, (set, frozenset)):
        return type(value)(value | {"x"})
    if isinstance(value, tuple):
        return value + ("x",)
    return other_type  # a unit type


def test_every_field_of_the_position_changes_its_key(planning, model):
    base = position_key(planning)
    assert base is not None and position_key(planning.clone()) == base
    other_type = model.unit_types["gb-grant"]
    unit_id = next(iter(planning.state.units))
    card = next(iter(planning.state.formations))
    changes = []
    for f in dataclasses.fields(planning.state.units[unit_id]):
        changes.append((f"unit.{f.name}", lambda g, n=f.name: setattr(
            g.state.units[unit_id], n, _changed(getattr(g.state.units[unit_id], n), other_type))))
    for f in dataclasses.fields(planning.state.formations[card]):
        changes.append((f"formation.{f.name}", lambda g, n=f.name: setattr(
            g.state.formations[card], n, _changed(getattr(g.state.formations[card], n), other_type))))
    for f in dataclasses.fields(planning.state):
        if f.compare:
            changes.append((f"state.{f.name}", lambda g, n=f.name: setattr(
                g.state, n, _changed(getattr(g.state, n), other_type))))
    changes.append(("the decision's side", lambda g: g.ask(dataclasses.replace(
        g.decision, side="axis" if g.decision.side == "allied" else "allied"))))
    changes.append(("a decision below", lambda g: g.ask(g.decision, g.decision)))
    changes.append(("options", lambda g: g.options.update(limited_interruption=True)))
    changes.append(("actions played", lambda g: g.actions.append(("?",))))
    same = []
    for name, change in changes:
        g = planning.clone()
        change(g)
        if position_key(g) == base:
            same.append(name)
    assert not same, f"the position's key misses {same}"


def test_a_value_the_key_cannot_spell_gives_no_key(planning):
    g = planning.clone()
    g.state.smoke = [object()]
    assert position_key(g) is None


def test_the_forecast_is_kept_per_position_and_equals_a_fresh_one(planning, monkeypatch):
    side = planning.side_to_act
    memo = planning.ctx.memo.setdefault(forecast.CACHE, {})
    memo.clear()
    played = []
    real = forecast._play_ahead
    monkeypatch.setattr(forecast, "_play_ahead", lambda *a: played.append(1) or real(*a))
    fresh = forecast.sightings(planning, side, forecaster, 1, "test")
    again = forecast.sightings(planning.clone(), side, forecaster, 1, "test")
    assert again == fresh and again is not fresh and len(played) == 1  # the same position: kept
    moved = planning.clone()
    u = next(x for x in moved.state.units.values() if x.side == side and x.on_map)
    u.flipped = not u.flipped
    forecast.sightings(moved, side, forecaster, 1, "test")
    assert len(played) == 2  # another position: played afresh
    memo.clear()
    assert forecast.sightings(planning, side, forecaster, 1, "test") == fresh  # as played anew
