"""Decisions as values (issue #30): every question the engine asks is a frozen dataclass of
engine/decisions, the game holds a stack of them, and nothing in the engine or the bots goes back
to the old ways (a mode string dispatched by getattr, an untyped working dict)."""
from __future__ import annotations

import dataclasses
import inspect
import re
from pathlib import Path

import pytest

from sandtable.rules.desert_steel.bots.core import RandomBot
from sandtable.rules.desert_steel.engine import decisions
from sandtable.rules.desert_steel.engine.decisions import BY_KIND, Activation, Decision, Move
from sandtable.rules.desert_steel.engine.game import EngineError, Game
from sandtable.rules.desert_steel.engine.runner import sample_setup

RULES = Path(decisions.__file__).resolve().parents[2]  # rules/desert_steel
OLD_WAYS = {
    "getattr dispatch of a mode": re.compile(r"getattr\([^)]*(_legal_|_do_|\bmode\b)"),
    "the cx working dict": re.compile(r"\.cx\b|\bcx\["),
    "a mode assigned": re.compile(r"self\.(_)?mode\s*(,[^=]*)?=[^=]"),
}


@pytest.mark.parametrize("package", ["engine", "bots"])
def test_no_mode_dispatch_and_no_cx_left(package):
    found = []
    for path in sorted((RULES / package).rglob("*.py")):
        for n, line in enumerate(path.read_text().splitlines(), 1):
            for what, pattern in OLD_WAYS.items():
                if pattern.search(line) and not (path.name == "modifiers.py" and what == "a mode assigned"):
                    found.append(f"{path.relative_to(RULES)}:{n}: {what}: {line.strip()}")
    assert not found, "\n".join(found)


def test_every_decision_is_a_frozen_value_with_its_own_kind():
    assert len(BY_KIND) == 22
    for kind, cls in BY_KIND.items():
        assert issubclass(cls, Decision) and cls.kind == kind
        params = cls.__dataclass_params__
        assert params.frozen and "__slots__" in cls.__dict__, kind
        assert "legal" in vars(cls) and "apply" in vars(cls), kind
    with pytest.raises(dataclasses.FrozenInstanceError):
        Move("axis", "161.1").spent = 3


def test_a_decision_is_made_as_its_dataclass_would_make_it():
    """base._slot_init gives each slotted kind its own __init__ (slots set through their
    descriptors): the same parameters, defaults and values as the one dataclass writes."""
    for kind, cls in BY_KIND.items():
        fields = dataclasses.fields(cls)
        params = list(inspect.signature(cls.__init__).parameters.values())[1:]
        assert [p.name for p in params] == [f.name for f in fields], kind
        assert [p.default for p in params] == [inspect.Parameter.empty if f.default is dataclasses.MISSING
                                              else f.default for f in fields], kind
        values = {f.name: (kind, f.name) for f in fields}  # a distinct value in every field
        by_name, by_place = cls(**values), cls(*values.values())
        assert all(getattr(by_name, n) == v and getattr(by_place, n) == v for n, v in values.items()), kind
        assert by_name == by_place and hash(by_name) == hash(by_place), kind
        assert dataclasses.replace(by_name, side="axis").side == "axis", kind
    with pytest.raises(TypeError):
        Move()  # side has no default


def test_a_kind_without_its_answers_is_refused_when_its_class_is_made():
    with pytest.raises(TypeError, match="decision Halt \\(kind 'halt'\\) has no apply"):
        @dataclasses.dataclass(frozen=True, slots=True)
        class Halt(Decision):
            kind = "halt"

            def legal(self, game):
                return [("stop",)]


def _game(catalog, sid="I", seed=2):
    scenario = catalog.model.scenario(sid)
    return Game(catalog.model, scenario, sample_setup(catalog, scenario), seed)


@pytest.mark.parametrize("sid", ["I", "XIII"])
def test_the_pending_stack_follows_a_whole_game(catalog, sid):
    """At every decision: the top of the stack is asked of its side, an operation's decisions sit
    on their activation, clones share the stack, and the legal actions are the top's."""
    game = _game(catalog, sid)
    bots = {"allied": RandomBot(1), "axis": RandomBot(2)}
    kinds = set()
    while not game.is_terminal():
        d, pending = game.decision, game.pending
        assert isinstance(pending, tuple) and pending[-1] is d and game.mode == d.kind
        assert game.side_to_act == d.side == game.current_player()
        kinds.add(d.kind)
        if d.kind in ("move", "target", "load", "spotter", "engineer", "assault-hex", "assault-join"):
            assert isinstance(pending[0], Activation) and game.activation is pending[0]
            assert game.state.units[d.unit].side == d.side  # asked of the operating unit's side
        legal = game.legal_actions()
        assert legal == d.legal(game) and game.clone().pending is pending
        game.apply(bots[d.side].choose(game, legal))
    assert game.decision is None and game.pending == () and game.mode == "over"
    assert {"activation", "interrupt", "move"} <= kinds


def test_ask_puts_a_game_at_a_decision(catalog):
    game = _game(catalog)
    card = next(c for c, f in game.state.formations.items() if f.side == "allied" and f.kind == "combat")
    game.ask(Activation("allied", (card,)))
    assert game.mode == "activation" and game.side_to_act == "allied"
    assert all(a[0] in ("op", "end", "face") for a in game.legal_actions())
    with pytest.raises(EngineError):
        game.ask()
    with pytest.raises(EngineError):
        game.ask("activation")
    with pytest.raises(EngineError, match="not a side"):
        game.ask(Activation("germans", (card,)))
    with pytest.raises(EngineError, match="names 999.9, not in this game"):
        game.ask(Activation("allied", (card,)), Move("allied", "999.9", mp=4))
    with pytest.raises(EngineError, match="names 12345"):
        game.ask(Activation("allied", (12345,)))
    with pytest.raises(AttributeError):
        game.mode = "move"  # read-only: the kind of the pending decision


def test_the_invariants_read_the_pending_decisions(catalog):
    from sandtable.rules.desert_steel.engine.invariants import check
    game = _game(catalog)
    allied = next(c for c, f in game.state.formations.items() if f.side == "allied" and f.kind == "combat")
    axis = next(c for c, f in game.state.formations.items() if f.side == "axis" and f.kind == "combat")
    tank = next(u for u in game.state.units.values() if u.card == allied)
    game.ask(Activation("allied", (allied,)), Move("allied", tank.id, mp=4, spent=2, steps=1))
    assert not [p for p in check(game) if "move" in p or "activation" in p]
    game.ask(Activation("allied", (axis,)), Move("allied", tank.id, mp=4, spent=5, steps=2))
    problems = check(game)
    assert any(f"card {axis} of the other side" in p for p in problems)
    assert any("spent 5 of 4 MP (§8.1)" in p for p in problems)
    panzer = next(u for u in game.state.units.values() if u.card == axis)
    game.ask(Move("axis", panzer.id, mp=4))
    del game.state.units[panzer.id]  # a question about a unit the game no longer holds
    problems = check(game)
    assert any("no unit of the game" in p for p in problems) and any("not an operation" in p for p in problems)


def test_a_move_and_fire_stopped_in_an_enemy_hex_asks_its_own_side_for_the_target(model):
    """§7, §8.53, §9.5: a Panzer's move-and-fire enters a hex of US infantry, which may fire at it
    there (§12.14) and passes; the move stops and the Panzer's fire follows: the Axis choose its
    target. (The old mode/cx engine left that question with the side asked last, the Allies.)"""
    from test_engine_advanced import _open_pair, advanced_game, place
    from sandtable.rules.desert_steel.engine.dice import ScriptedDice
    game = advanced_game(model, ScriptedDice([]))
    a, b = _open_pair(game)
    tank = place(game, "161.1", 161, "de-pz-iii-j", a, "axis")
    inf = place(game, "330.1", 330, "us-infantry", b, "allied")
    game.ask(Activation("axis", (161,)))
    game.apply(("op", tank.id, "move-fire"))
    game.apply(("step", b))
    assert game.mode == "opportunity" and game.side_to_act == "allied"
    assert ("same-hex-fire", inf.id) in game.legal_actions()
    game.apply(("opp-pass",))
    assert game.mode == "target" and game.side_to_act == "axis" and game.decision.move_fire
    assert ("target", inf.id) in game.legal_actions() and ("hold",) in game.legal_actions()
    assert [d.kind for d in game.pending] == ["activation", "target"]


@dataclasses.dataclass(frozen=True, slots=True)
class _TaggedMove(Move):
    """A Move with a field added after the others, with a default: what a later rule might add."""
    tag: str = ""


@dataclasses.dataclass(frozen=True, slots=True)
class _TaggedActivation(Activation):
    tag: str = ""


@dataclasses.dataclass(frozen=True)
class _LooseMove(Move):
    """Not slotted: stepped by dataclasses.replace itself."""
    tag: str = ""


def test_a_step_keeps_every_other_field_of_its_move():
    """entered() and turned() are dataclasses.replace of the fields they change, by name: a field
    added later (with a default) keeps its value through every step and facing change, and the
    value stays of its own class."""
    m = Move("axis", "161.1", "move-fire", 10, 2, 1, True, "pending", ("a",), None, False)
    assert m.entered(5, ("mines", "15.13"), True) == dataclasses.replace(
        m, spent=5, steps=2, stop=("mines", "15.13"), stopped_by_enemy=True)
    tagged = _TaggedMove("axis", "161.1", "move-fire", 10, 2, 1, True, "pending", ("a",), None, False, tag="kept")
    stepped = tagged.entered(5, ("mines", "15.13"), True).entered(6, None, False)
    assert stepped == dataclasses.replace(tagged, spent=6, steps=3, stop=None, stopped_by_enemy=False)
    assert type(stepped) is _TaggedMove and stepped.tag == "kept"
    loose = _LooseMove("axis", "161.1", tag="kept").entered(1, None, True)
    assert type(loose) is _LooseMove and (loose.tag, loose.spent, loose.steps, loose.stopped_by_enemy) == ("kept", 1, 1, True)
    a = Activation("axis", (3, 4), ("u1",), ("u2",))
    assert a.turned("u3") == dataclasses.replace(a, faced=("u1", "u3"))
    turned = _TaggedActivation("axis", (3,), (), ("u2",), tag="kept").turned("u1")
    assert type(turned) is _TaggedActivation and turned.tag == "kept" and turned.faced == ("u1",)
