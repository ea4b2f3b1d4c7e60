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
