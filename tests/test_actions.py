"""Typed actions (issue #30): each kind of action is a subclass of tuple with named fields, the
same value as the plain tuple the logs hold (equal, same hash, same JSON), so old logs replay
and the recorded digests stand; ``from_json`` rebuilds the type from a log's list."""
from __future__ import annotations

import copy
import json
import pickle
import re
from pathlib import Path

import pytest

from sandtable.rules.desert_steel.engine import actions as act
from sandtable.rules.desert_steel.engine.actions import KINDS, Action, from_json, make, typed

ENGINE = Path(act.__file__).resolve().parent


def test_a_typed_action_is_the_plain_tuple():
    for typed, plain in [(act.Step("0304"), ("step", "0304")), (act.Target("161.1"), ("target", "161.1")),
                         (act.Target("161.1", "ai"), ("target", "161.1", "ai")), (act.Stop(), ("stop",)),
                         (act.Activate((161, 162)), ("activate", (161, 162))), (act.Op("161.1", "move"), ("op", "161.1", "move"))]:
        assert typed == plain and hash(typed) == hash(plain) and {typed: 1}[plain] == 1
        assert json.dumps(typed) == json.dumps(plain) and repr(typed) == repr(plain)
        for again in (pickle.loads(pickle.dumps(typed)), copy.deepcopy(typed), from_json(json.loads(json.dumps(typed)))):
            assert again == typed and type(again) is type(typed)


def test_named_fields_and_optional_mode():
    assert act.Step("0304").hex == "0304"
    assert act.Op("161.1", "fire").about() == {"unit": "161.1", "op": "fire"}
    assert act.Target("161.1").mode is None and act.Target("161.1", "ai").mode == "ai"
    assert act.Bombard("fo", "x").about() == {"observer": "fo", "target": "x"}
    assert act.Face("161.1", 3).hexside == 3
    assert make(act.Step, "0304") == act.Step("0304") and type(make(act.Step, "0304")) is act.Step


def test_react_fire_at_an_assault_and_at_an_overrun():
    """§14.11: (vehicle, assaulting unit[, mode]); §14.2: (reactor[, mode]), the overrunner implied."""
    assault = act.ReactFire("v", "a", "ai")
    assert assault == ("react-fire", "v", "a", "ai") and (assault.unit, assault.target, assault.mode) == ("v", "a", "ai")
    assert act.ReactFire("v", "a").about() == {"unit": "v", "target": "a", "mode": None}
    overrun = act.ReactFire("r", mode="av")
    assert overrun == ("react-fire", "r", "av") and overrun.target is None and overrun.mode == "av"
    assert from_json(["react-fire", "r", "av"]).target is None and from_json(["react-fire", "v", "a"]).target == "a"


def test_one_type_per_kind_and_from_json_refuses_what_no_type_holds():
    assert all(cls.kind == kind and issubclass(cls, Action) for kind, cls in KINDS.items())
    with pytest.raises(ValueError, match="unknown action kind 'fly'"):
        from_json(["fly", "0304"])
    with pytest.raises(ValueError, match="'step' takes hex"):
        from_json(["step"])
    with pytest.raises(ValueError, match="'stop' takes nothing"):
        from_json(["stop", "0304"])
    for bad in ([], "step", [3]):
        with pytest.raises(ValueError):
            from_json(bad)
    with pytest.raises(TypeError):
        act.Step()


# where the engine lists its answers: a tuple literal beginning with a kind, in a list, appended or returned
# (a list literal, not a subscript: x[("on-map", side)] is a memo key)
_LISTED = re.compile(r'(?:(?<![\w\])])\[|append\(|return |\+= \[|else )\("([a-z-]+)"[,)]')


def test_every_kind_the_engine_lists_has_a_type():
    kinds = {m.group(1): f"{p.relative_to(ENGINE)}:{n}" for p in sorted(ENGINE.rglob("*.py"))
             for n, line in enumerate(p.read_text().splitlines(), 1) for m in _LISTED.finditer(line)}
    assert len(kinds) > 30
    assert not {k: at for k, at in kinds.items() if k not in KINDS}, "a kind of action with no type in actions.py"


def test_typed_types_a_listed_action_once():
    plain = ("target", "161.1", "ai")
    a = typed(plain)
    assert type(a) is act.Target and a == plain and a.mode == "ai" and typed(a) is a


def test_typed_shares_actions_of_strings_only():
    """typed() hands out again the typed action of a tuple of strings it made before (a game keeps
    one a decision played); a value that only equals another (1 and True, 1 and 1.0) is never
    answered with the other's typed action."""
    assert typed(("step", "0304")) is typed(("step", "0304")) and typed(("stop",)) is typed(("stop",))
    for plain in [("face", "161.1", 1), ("face", "161.1", True), ("face", "161.1", 1.0), ("play", 420), ("play", True)]:
        a = typed(plain)
        assert type(a) is KINDS[plain[0]] and a == plain
        assert [type(x) for x in a] == [type(x) for x in plain] and json.dumps(a) == json.dumps(plain)
    nested = typed(("activate", (161, 162)))
    assert type(nested) is act.Activate and nested == ("activate", (161, 162))


@pytest.mark.parametrize("number,games", [("I", 3), ("XII", 1)])
def test_the_actions_a_game_keeps_are_those_typed_afresh(model, catalog, number, games):
    """Every action of whole games equals the typed action made afresh from its fields: the same
    type, fields of the same types, the same JSON (what a log and a digest read)."""
    from sandtable.rules.desert_steel.engine.game import make_context
    from sandtable.rules.desert_steel.engine.runner import play, sample_setup
    scenario = model.scenario(number)
    ctx, setup = make_context(model, scenario), sample_setup(catalog, scenario)
    kept = 0
    for seed in range(games):
        game = play(model, scenario, setup, seed, ("heuristic", "heuristic"), context=ctx)
        for a in game.actions:
            fresh = make(KINDS[a[0]], *a[1:])
            assert type(a) is type(fresh) and a == fresh and [type(x) for x in a] == [type(x) for x in fresh]
            assert json.dumps(a) == json.dumps(fresh)
            kept += typed(tuple(a)) is a  # (one made before, handed out again)
    assert kept > 0


def test_an_actions_log_entry_is_plain_and_the_collector_lets_it_go(model, catalog):
    """The event logging a played action holds the plain tuple (JSON writes it as the list a log
    has): a dict of plain tuples of strings and numbers is one the cyclic collector stops
    tracking, so a game's log does not weigh on every full collection. A list or a typed tuple (a
    subclass) would keep each event tracked for the whole game."""
    import gc

    from sandtable.rules.desert_steel.engine.game import make_context
    from sandtable.rules.desert_steel.engine.runner import play, sample_setup
    scenario = model.scenario("I")
    ctx, setup = make_context(model, scenario), sample_setup(catalog, scenario)
    game = play(model, scenario, setup, 0, ("heuristic", "heuristic"), context=ctx)
    logged = [e for e in game.events if e["e"] == "action"]
    assert len(logged) == len(game.actions)
    for e, a in zip(logged, game.actions):
        assert type(e["action"]) is tuple and e["action"] == a
        assert json.loads(json.dumps(e))["action"] == json.loads(json.dumps(a))
    gc.collect()
    assert not any(gc.is_tracked(e) for e in logged)
