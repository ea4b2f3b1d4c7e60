"""The answers a player gives, one type per kind of action.

An action IS the tuple the logs have always held, ("step", "0304"), ("target", "161.1", "ai"):
each kind is a subclass of tuple with no storage of its own, so a typed action equals and hashes
as the plain tuple, is written to JSON as the same list, and old logs, recorded digests, bots that
read ``a[0] == "step"`` and search keys are all unchanged. The type adds a constructor per kind
(``Step(hex)``, ``Target(unit, mode)``) and named fields (``a.hex``, ``a.unit``, ``a.mode``).
A trailing optional field (a fire mode left out when it is the target's natural one, §13.1) is
absent from the tuple and reads None.

The engine lists legal actions as plain tuples (a tuple subclass costs some 150 ns more to build
and a random playout lists about 8 actions a decision: 15 % of its time, measured) and types the
one played (``Game.apply``): ``game.actions`` and every decision's ``apply`` get typed actions;
a bot wanting named fields reads ``typed(a)`` on the actions it looks at (the one door: it
serves the seat's list and a look-ahead's ``legal_actions()`` alike). Typing the listed actions by
value from a dict of those already made (no build, one lookup each) still cost 4 %: some 9
actions are listed a decision, and hashing a tuple key is itself ~100 ns (measured on random
playouts of I).

``KINDS``: kind -> type; ``from_json(list)`` rebuilds the typed action a log holds. ``make(Type, *fields)``
builds one without the checks of the constructor.

Action classes share names with some decisions (Target, Spotter, Load...): import the module
(``from . import actions as act``) and write ``act.Target``."""
from __future__ import annotations

import json
from operator import itemgetter
from typing import ClassVar

# The fire modes (§13.1): how a mode at the end of an action is told from a unit id.
MODES = ("av", "ai")

_new = tuple.__new__


class Action(tuple):
    """An action: ``kind`` then the fields of its type, in order (``fields``; the ``optional``
    last ones may be left out)."""

    __slots__ = ()
    kind: ClassVar[str] = ""
    fields: ClassVar[tuple[str, ...]] = ()
    optional: ClassVar[int] = 0

    def __new__(cls, *values):
        need = len(cls.fields) - cls.optional
        if not need <= len(values) <= len(cls.fields):
            raise TypeError(f"{cls.__name__} takes {cls.fields}, got {values!r}")
        while len(values) > need and values[-1] is None:  # an optional field not given
            values = values[:-1]
        return _new(cls, (cls.kind,) + values)

    def __reduce__(self):  # pickle and deepcopy rebuild from the tuple, not through __new__
        return from_json, (list(self),)

    def __init_subclass__(cls, **kw):
        super().__init_subclass__(**kw)
        for i, name in enumerate(cls.fields, 1):
            if name not in cls.__dict__:
                setattr(cls, name, property(_field(i)))
        if cls.kind:
            if cls.kind in KINDS:
                raise TypeError(f"two action types of kind {cls.kind!r}")
            KINDS[cls.kind] = cls

    def about(self) -> dict:
        """The fields by name (None for an optional one left out)."""
        return {name: getattr(self, name) for name in self.fields}


KINDS: dict[str, type[Action]] = {}


def _field(i: int):
    get = itemgetter(i)

    def read(self):
        return get(self) if len(self) > i else None
    return read


def make(cls: type[Action], *values) -> Action:
    """``cls``'s action with ``values`` as given (trailing Nones are the caller's to leave out),
    without the checks of from_json."""
    return _new(cls, (cls.kind,) + values)


# The typed actions of kinds and fields that are strings only (a step, an operation, a pass: all
# but a few a game), made once a process and handed out again: a game's ``actions`` holds one
# typed action a decision played (some 2,300 a game of I), each a tuple subclass, which the
# cyclic collector tracks (it stops tracking only plain tuples of plain values) and, living as
# long as the game, moves to its oldest generation; every full collection walks all that lives
# (some 60 ms with a pack loaded), and the more moved there the sooner the next one comes.
# A value held here is an immutable tuple of strings, equal to, hashing as and written to JSON
# as the tuple asked with: only a string (or a str subclass's value, written as that string)
# equals a string, so an action with a number in it (1, True and 1.0 are equal) is never kept.
_SHARED: dict = {}
_SHARED_MAX = 1 << 16  # distinct actions of that kind a process: a few thousand a scenario


def typed(action: tuple) -> Action:
    """The typed action equal to a plain tuple the engine listed (no checks: it is legal)."""
    if isinstance(action, Action):
        return action
    try:
        hit = _SHARED.get(action)
    except TypeError:  # (a list in it: unhashable, typed as it is)
        return _new(KINDS[action[0]], action)
    if hit is not None:
        return hit
    made = _new(KINDS[action[0]], action)
    for x in action:
        if x.__class__ is not str:
            return made
    if len(_SHARED) >= _SHARED_MAX:
        _SHARED.clear()
    _SHARED[made] = made
    return made


def from_json(value) -> Action:
    """The typed action of a logged list (nested lists become tuples: an activation's
    formations). ValueError naming the kind when no type has it or the fields do not fit."""
    if isinstance(value, Action):
        return value
    if not isinstance(value, (list, tuple)) or not value or not isinstance(value[0], str):
        raise ValueError(f"an action is a list beginning with its kind, not {value!r}")
    cls = KINDS.get(value[0])
    if cls is None:
        raise ValueError(f"unknown action kind {value[0]!r} (known: {', '.join(sorted(KINDS))})")
    items = tuple(tuple(x) if isinstance(x, list) else x for x in value)
    if not len(cls.fields) - cls.optional <= len(items) - 1 <= len(cls.fields):
        raise ActionRefused(value, f"{cls.kind!r} takes {', '.join(cls.fields) or 'nothing'}")
    for name, x, logged in zip(cls.fields, items[1:], value[1:]):
        if not FIELD_TYPES[name](x):
            raise ActionRefused(value, f"its {name} is {_shown(logged)}, not {FIELD_NAMES[name]}")
    return _new(cls, items)


class ActionRefused(ValueError):
    """from_json's refusal of a list of a known kind: ``reason`` says what is wrong without
    repeating the action (a caller that shows the action already, the log reader, adds it)."""

    def __init__(self, value, reason: str):
        super().__init__(f"action {value!r}: {reason}")
        self.reason = reason


def _shown(x) -> str:
    """A field as the log holds it (JSON: null, true, [1, 2]), not as Python prints it."""
    try:
        return json.dumps(list(x) if isinstance(x, tuple) else x)
    except (TypeError, ValueError):
        return repr(x)


def _int(x) -> bool:
    return type(x) is int  # not a bool (True is an int to isinstance), not a float


# What each field of an action holds, as the engine writes it (from_json checks a log's actions):
# cards, turns and hexsides are numbers, units, hexes, edges, operations and fire modes strings,
# an activation's formations a list of cards.
FIELD_TYPES = {"card": _int, "turn": _int, "hexside": _int,
               "unit": lambda x: type(x) is str, "observer": lambda x: type(x) is str,
               "target": lambda x: type(x) is str, "hex": lambda x: type(x) is str,
               "edge": lambda x: type(x) is str, "op": lambda x: type(x) is str, "mode": lambda x: type(x) is str,
               "formations": lambda x: type(x) is tuple and all(type(c) is int for c in x)}
FIELD_NAMES = {name: "a list of cards (ints)" if name == "formations" else
               "an int" if name in ("card", "turn", "hexside") else "a string" for name in FIELD_TYPES}


def _kind(name: str, kind: str, fields: tuple[str, ...] = (), optional: int = 0, doc: str = "") -> type[Action]:
    return type(name, (Action,), {"__slots__": (), "kind": kind, "fields": fields, "optional": optional,
                                  "__doc__": doc, "__module__": __name__})


# --- the sequence of play (§6) ----------------------------------------------------------------
Pass = _kind("Pass", "pass", doc="§6.42 no interrupt; §16.22 no air strike now")
Play = _kind("Play", "play", ("card",), doc="§6.3 play this one of the equally lowest cards")
Interrupt = _kind("Interrupt", "interrupt", ("card",), doc="§6.41 interrupt with this card of the hand")
Activate = _kind("Activate", "activate", ("formations",), doc="§6.52 the command card activates these subordinates")
Rally = _kind("Rally", "rally", doc="§6.53 the command card rallies its shaken subordinates")
Decline = _kind("Decline", "decline", doc="§6.52 the command card is not used")
Op = _kind("Op", "op", ("unit", "op"), doc="§7 the unit's operation (move, fire, move-fire, assault, ...)")
End = _kind("End", "end", doc="§7 the activation ends")
Face = _kind("Face", "face", ("unit", "hexside"), doc="§8.22 a facing change, hexside 0-5, 0 up the page")
# --- movement (§8) ----------------------------------------------------------------------------
Step = _kind("Step", "step", ("hex",), doc="§8.1 enter this adjacent hex (§15.4: an engineer's move)")
Stop = _kind("Stop", "stop", doc="§8 the move ends here")
Overrun = _kind("Overrun", "overrun", ("hex",), doc="§14.2 overrun this adjacent hex")
Exit = _kind("Exit", "exit", ("edge",), doc="§8.4 leave the map by this edge")
MoveFire = _kind("MoveFire", "move-fire", doc="§7 the declared move becomes a move-and-fire")
# --- fire (§9, §13, §17) ----------------------------------------------------------------------
OppFire = _kind("OppFire", "opp-fire", ("unit", "mode"), 1, doc="§9.4 this unit fires at the mover")
SameHexFire = _kind("SameHexFire", "same-hex-fire", ("unit", "mode"), 1,
                    doc="§12.14 infantry fires at the enemy entering its hex")
OppPass = _kind("OppPass", "opp-pass", doc="§9.4 no opportunity fire")
Target = _kind("Target", "target", ("unit", "mode"), 1, doc="§9.1 fire at this unit (mode left out when natural, §13.1)")
Smoke = _kind("Smoke", "smoke", doc="§17.2 fire smoke at a hex instead")
Hold = _kind("Hold", "hold", doc="§9.5 a move-and-fire holds its fire; §14.2 the overrunner holds")
Cancel = _kind("Cancel", "cancel", doc="§9.19 the declared operation is withdrawn")
Hex = _kind("Hex", "hex", ("hex",), doc="§17.2 the smoke's hex; §14.11 the assaulted hex")
Spotter = _kind("Spotter", "spotter", ("unit",), doc="§13.22 this unit spots the indirect fire")
# --- transport (§13.3) ------------------------------------------------------------------------
Load = _kind("Load", "load", ("unit",), doc="§13.3 the carrier loads this unit")
Go = _kind("Go", "go", doc="§13.3 the carrier goes; §14.11 the assault goes in")
# --- close combat (§14) -----------------------------------------------------------------------
Join = _kind("Join", "join", ("unit",), doc="§14.11 this infantry joins the assault")
ReactPass = _kind("ReactPass", "react-pass", doc="§14.1, §14.2 no reaction fire")


class ReactFire(Action):
    """§14.11 an assaulted vehicle fires at an assaulting unit: (unit, target[, mode]); §14.2 a
    unit of the overrun hex fires at the overrunner: (unit[, mode]), target None."""

    __slots__ = ()
    kind = "react-fire"
    fields = ("unit", "target", "mode")
    optional = 2

    def __new__(cls, unit, target=None, mode=None):
        return _new(cls, ("react-fire", unit) + ((target,) if target is not None else ())
                    + ((mode,) if mode is not None else ()))

    @property
    def target(self):
        return self[2] if len(self) > 2 and self[2] not in MODES else None

    @property
    def mode(self):
        return self[-1] if len(self) > 2 and self[-1] in MODES else None


# --- fortifications (§15) ---------------------------------------------------------------------
Clear = _kind("Clear", "clear", doc="§15.4 the engineer clears its hex")
# --- raids (§16) ------------------------------------------------------------------------------
RaidTurn = _kind("RaidTurn", "raid-turn", ("turn",), doc="§16.21 the turn of the air strike (secret)")
AirStrike = _kind("AirStrike", "air-strike", doc="§16.22 make this turn's air strike now")
AirTarget = _kind("AirTarget", "air-target", ("unit",), doc="§16.23 the next air-strike marker goes on this unit")
BombardmentPlan = _kind("BombardmentPlan", "bombardment-plan", ("turn", "card"),
                        doc="§16.31 the preplanned bombardment's turn and spotting formation")
Bombard = _kind("Bombard", "bombard", ("observer", "target"), doc="§16.33 a bombardment marker: FO and target unit")
FireBombardment = _kind("FireBombardment", "fire-bombardment", doc="§16.33 the markers are placed: fire")
