"""Between the decision values and the engine's working dict while the rule families move over
to the values one by one (issue #30): a decision read from (mode, side, cx), and back."""
from __future__ import annotations

from dataclasses import fields

from .decisions import (BY_KIND, Activation, AssaultFire, AssaultJoin, AssaultReact, Bombard, Decision,
                        Interrupt, Lowest, Move, Opportunity, OverrunReact, OverrunTarget, SmokeHex)

_RENAMED = {SmokeHex: {"hexes": "smoke_hexes"}}
_NESTED = {AssaultJoin: "assault", AssaultReact: "assault", AssaultFire: "assault", Bombard: "bombard"}
_TUPLES = {"cancelled", "stop"}  # kept as tuples in cx; the other sequences are lists there


def _frozen(value):
    if isinstance(value, list):
        return tuple(_frozen(v) for v in value)
    return value


def from_cx(mode: str, side: str | None, cx: dict) -> Decision | None:
    cls = BY_KIND.get(mode)
    if cls is None:
        return None
    source = {**cx, **cx.get(_NESTED[cls], {})} if cls in _NESTED else cx
    names = _RENAMED.get(cls, {})
    values = {}
    for f in fields(cls):
        if f.name == "side":
            continue
        key = names.get(f.name, f.name)
        if key in source and source[key] is not None:
            values[f.name] = _frozen(source[key])
    if cls is Interrupt:
        values["declared"] = tuple(cx.get("declared", {}).items())
    return cls(side, **values)


def pending_from_cx(mode: str, side: str | None, cx: dict, formation_side) -> tuple[Decision, ...]:
    top = from_cx(mode, side, cx)
    if top is None:
        return ()
    below: list[Decision] = []
    if "cards" in cx and not isinstance(top, (Activation, Lowest)):
        below.append(from_cx("activation", formation_side(cx["cards"][0]), cx))
    if isinstance(top, (Opportunity, OverrunReact, OverrunTarget)) and "mp" in cx:
        below.append(from_cx("move", formation_side(cx["cards"][0]) if "cards" in cx else side, cx))
    return (*below, top)


def to_cx(decisions) -> dict:
    cx: dict = {}
    for d in decisions:
        names = _RENAMED.get(type(d), {})
        target = cx.setdefault(_NESTED[type(d)], {}) if type(d) in _NESTED else cx
        for f in fields(d):
            value = getattr(d, f.name)
            if f.name == "side" or value is None:
                continue
            if isinstance(d, Interrupt) and f.name == "declared":
                cx["declared"] = dict(value)
                continue
            if isinstance(d, Move) and f.name in ("overrun", "stopped_by_enemy", "entering") and not value:
                continue
            key = names.get(f.name, f.name)
            if isinstance(value, tuple) and key not in _TUPLES:
                value = list(value)
            (target if key in ("hex", "units", "going", "card", "raid_card", "markers", "then")
             and target is not cx else cx)[key] = value
    return cx
