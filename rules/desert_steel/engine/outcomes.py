"""What happened in a game, one type per kind of event: the one place that says what each event
the engine logs holds (docs/engine.md's table of events is generated from these classes).

The engine logs plain dicts, ``{"t": turn, "e": kind, ...fields}`` (``Game.log``: building a
dict is what its hot path can afford), and the JSON log of a game is those dicts. A reader turns
one into its typed outcome with ``from_json(event)``: a frozen, slotted dataclass of its kind
with typed fields (``o.unit``, ``o.hex``; ``o.t`` the turn, ``o.kind`` the ``e``). ``from_json``
refuses an event of no kind, with a field its kind does not hold, lacking one it always holds,
or with a value of the wrong type (an action that is none of the rules', actions.from_json), with
a ValueError naming them (``NotAnEvent``: its ``pointer`` locates the fault in the event); ``to_json()`` gives back the
dict the log holds, key for key in the same order, so a log read and written again is the same
bytes. A field that only some events of a kind hold defaults to None (absent from the JSON);
a field always present may still be null where its type says so.

Readers match on the type (``case oc.Move(unit=u, hex=h)``); import the module
(``from ..engine import outcomes as oc``): some names are also decisions' or actions'."""
import dataclasses
import types
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, ClassVar, NewType, Union, get_args, get_origin

from . import actions as act

# The answer a logged action holds: the typed action (actions.from_json, the one place that says
# what an action of the rules is: an unknown kind or fields that do not fit make the event none of
# the rules', refused at its line as any malformed event is), equal to its list with nested lists
# as tuples (an activation's formations).
ActionList = NewType("ActionList", tuple)
Number = float  # a JSON number: an int or a float (a rule table may hold halves)

KINDS: dict[str, type["Outcome"]] = {}


@dataclass(frozen=True, slots=True, kw_only=True)
class Outcome:
    """An event: ``t`` the turn it happened in, ``kind`` its ``e``, then the fields of its type."""

    kind: ClassVar[str] = ""
    # (name, always present, reader of a JSON value) of each field, in the log's order; set by @event
    _fields: ClassVar[tuple] = ()
    _plans: ClassVar[dict] = {}  # keys of an event -> how to read it (from_json), per kind
    t: int
    # The keys in the order the log had them, when it is not the order of the fields (two call
    # sites of one kind spelling them in different orders): to_json gives that order back.
    _keys: tuple | None = field(default=None, compare=False, repr=False)

    def to_json(self) -> dict:
        """The event as the log holds it (plain lists and dicts)."""
        if self._keys is not None:
            return {k: self.kind if k == "e" else _plain(getattr(self, k)) for k in self._keys}
        out: dict = {"t": self.t, "e": self.kind}
        for name, always, _ in self._fields:
            value = getattr(self, name)
            if always or value is not None:
                out[name] = _plain(value)
        return out

    def __reduce__(self):  # pickle and deepcopy go through the JSON (a read-only map does not pickle)
        return from_json, (self.to_json(),)

    def about(self) -> dict:
        """The fields by name (None for one this event does not hold), without ``t``."""
        return {name: getattr(self, name) for name, _, _ in self._fields}


def event(kind: str):
    """The class decorator of a kind of event: a frozen slotted dataclass, registered in KINDS."""
    def make(cls):
        if not cls.__dict__.get("__doc__"):  # dataclass would fill in its signature: the docs' column
            raise TypeError(f"outcome type of kind {kind!r} says nothing of what it tells (no docstring)")
        cls = dataclass(frozen=True, slots=True, kw_only=True)(cls)
        if kind in KINDS:
            raise TypeError(f"two outcome types of kind {kind!r}")
        cls.kind = kind
        cls._fields = tuple((f.name, f.default is dataclasses.MISSING, _reader(f.type))
                            for f in dataclasses.fields(cls) if f.name not in ("t", "_keys"))
        cls._plans = {}
        KINDS[kind] = cls
        return cls
    return make


class NotAnEvent(ValueError):
    """from_json's refusal; ``pointer``: the JSON pointer of the part at fault in the event (""
    for the event as a whole: a field it lacks, or not an object at all)."""

    def __init__(self, message: str, pointer: str = ""):
        super().__init__(message)
        self.pointer = pointer


def _at(name: str) -> str:
    return "/" + name.replace("~", "~0").replace("/", "~1")


def from_json(value) -> Outcome:
    """The typed outcome of a logged event (a dict as the engine logs it or JSON gives it back).
    ValueError naming the kind and the field when it is not an event of the rules."""
    if isinstance(value, Outcome):
        return value
    try:
        cls = KINDS[value["e"]]
    except (KeyError, TypeError):
        _refuse(value)
    keys = tuple(value)
    plan = cls._plans.get(keys) or _layout_of(cls, keys, value)
    t = value["t"]
    if type(t) is not int:
        raise NotAnEvent(f"event {cls.kind!r}: its turn \"t\" is {_short(t)}, not an int", "/t")
    obj = object.__new__(cls)
    _put_t(obj, t)
    try:
        for name, exact, read, put in plan[0]:
            v = value[name]
            put(obj, v if type(v) is exact else read(v))
    except _Mismatch as exc:
        raise NotAnEvent(f"event {cls.kind!r}: field {name!r} is {_short(value[name])}, not {exc}", _at(name)) from None
    for put in plan[1]:
        put(obj, None)
    stored = plan[2]
    if stored is None and plan[3] and any(value[k] is None for k in plan[3]):
        stored = keys  # a null the type would leave out: kept as logged
    _put_keys(obj, stored)
    return obj


def _refuse(value):
    """Why ``value`` (of no known kind) is not an event."""
    if not isinstance(value, Mapping) or not isinstance(value.get("e"), str):
        raise NotAnEvent(f'an event is an object with a string "e", not {_short(value)}',
                         "/e" if isinstance(value, Mapping) and "e" in value else "")
    raise NotAnEvent(f"unknown event kind {value['e']!r} (the kinds are docs/engine.md's table of events)", "/e")


def _layout_of(cls, keys: tuple, value) -> tuple:
    """How to read an event of ``cls`` whose keys are ``keys``: (the fields present, each as
    (name, the type a value of it may be taken as is, its reader, its slot's setter); the setters
    of the fields absent; the keys to keep when not the fields' order; the optional fields present,
    whose null the log kept). ValueError when a field is unknown or missing, or the turn is."""
    kind = cls.kind
    names = {name for name, _, _ in cls._fields}
    extra = [k for k in keys if k not in names and k not in ("t", "e")]
    if extra:
        raise NotAnEvent(f"event {kind!r} has no field {', '.join(map(repr, extra))} "
                         f"(its fields: {', '.join(sorted(names)) or 'none'})", _at(str(extra[0])))
    if "t" not in value:
        raise NotAnEvent(f"event {kind!r} lacks its turn \"t\"")
    missing = [name for name, always, _ in cls._fields if always and name not in value]
    if missing:
        raise NotAnEvent(f"event {kind!r} lacks its field {missing[0]!r}")
    present = [(name, _EXACT.get(cls.__annotations__.get(name)), read, getattr(cls, name).__set__)
               for name, _, read in cls._fields if name in value]
    absent = tuple(getattr(cls, name).__set__ for name, _, _ in cls._fields if name not in value)
    order = ("t", "e") + tuple(name for name, _, _, _ in present)
    optional = tuple(name for name, always, _ in cls._fields if not always and name in value)
    plan = (tuple(present), absent, None if keys == order else keys, optional)
    if len(cls._plans) < 64:  # the layouts the engine writes are few; a crafted log may hold many
        cls._plans[keys] = plan
    return plan


_put_t = Outcome.t.__set__
_put_keys = Outcome._keys.__set__


def read(events) -> list[Outcome]:
    """The typed outcomes of a game's events (``game.events`` or a log's), in order."""
    return [from_json(e) for e in events]


def type_name(tp) -> str:
    """A field's type as docs/engine.md shows it."""
    if tp is ActionList:
        return "action (a list)"
    if tp is float:
        return "number"
    if tp in (str, int, bool):
        return tp.__name__
    origin, args = get_origin(tp), get_args(tp)
    if origin in (Union, types.UnionType):
        return " or ".join("null" if a is type(None) else type_name(a) for a in args)
    if origin is tuple:
        return f"list of {type_name(args[0])}"
    if origin is Mapping:
        return f"{{{type_name(args[0])}: {type_name(args[1])}}}"
    raise TypeError(f"no reader for a field of type {tp!r}")


# --- reading a JSON value into a field's type ------------------------------------------------------

# A value of exactly this type is read as is (the reader checks anything else: an int for a float,
# a null, a list for a tuple).
_EXACT = {str: str, int: int, bool: bool, float: float, str | None: str, int | None: int, bool | None: bool,
          float | None: float}


class _Mismatch(Exception):
    """A value not of the field's type (its message: the type)."""


def _reader(tp):
    """A function reading a JSON value of type ``tp`` (lists become tuples, objects read-only maps)."""
    name = type_name(tp)  # also refuses a type no reader is written for
    if tp is bool:
        def read(v):
            if v is True or v is False:
                return v
            raise _Mismatch(name)
    elif tp in (int, float, str):
        ok = (int, float) if tp is float else (tp,)

        def read(v):
            if isinstance(v, ok) and not isinstance(v, bool):
                return v
            raise _Mismatch(name)
    elif tp is ActionList:
        def read(v):
            if isinstance(v, (list, tuple)):  # what its fields may hold, actions.from_json says
                try:
                    return act.from_json(v)
                except ValueError as exc:  # (the field's value is shown already: the reason alone)
                    raise _Mismatch(f"an action of the rules: {getattr(exc, 'reason', exc)}") from None
            raise _Mismatch(name)
    elif get_origin(tp) in (Union, types.UnionType):
        inner = _reader(next(a for a in get_args(tp) if a is not type(None)))

        def read(v):
            if v is None:
                return None
            try:
                return inner(v)
            except _Mismatch:
                raise _Mismatch(name) from None
    elif get_origin(tp) is tuple:
        item = _reader(get_args(tp)[0])

        def read(v):
            if isinstance(v, (list, tuple)):
                try:
                    return tuple(item(x) for x in v)
                except _Mismatch:
                    pass
            raise _Mismatch(name)
    else:  # Mapping[str, X]
        key, value = _reader(get_args(tp)[0]), _reader(get_args(tp)[1])

        def read(v):
            if isinstance(v, Mapping):
                try:
                    return MappingProxyType({key(k): value(x) for k, x in v.items()})
                except _Mismatch:
                    pass
            raise _Mismatch(name)
    return read


def _plain(value):
    if isinstance(value, tuple):
        return [_plain(x) for x in value]
    if isinstance(value, MappingProxyType):
        return dict(value)
    return value


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


# --- the events, by rule family (the § each call site cites is in docs/engine.md) -----------------
# The order of the fields is the order the engine logs them in; a field with a default is one
# only some events of the kind hold.

# the sequence of play (§4-§8)

@event("turn")
class Turn(Outcome):
    """A new turn begins (§4.1), at this visibility in hexes (§17.1)."""
    visibility: int


@event("play")
class Play(Outcome):
    """A side plays a card of its hand onto the stack (§6.3); ``forced``: its only card."""
    side: str
    card: int
    forced: bool


@event("interrupt-failed")
class InterruptFailed(Outcome):
    """A face-down interrupt attempt with ``card`` against ``against`` fails (§6.55)."""
    card: int
    against: int
    section: str


@event("simultaneous-interrupt")
class SimultaneousInterrupt(Outcome):
    """Both sides interrupt: the card of highest priority wins (§6.43)."""
    cards: tuple[int, ...]
    winner: int
    section: str


@event("activate")
class Activate(Outcome):
    """The top card of the stack activates its formation (§6.5)."""
    side: str
    card: int


@event("set-aside")
class SetAside(Outcome):
    """Cards set aside unused: a command card with nothing to do (``card``), or formations none
    of whose units can operate (``cards``, §6.51)."""
    card: int | None = None
    cards: tuple[int, ...] | None = None
    reason: str
    section: str | None = None


@event("end-activation")
class EndActivation(Outcome):
    """The activation of these formations ends (§7); ``reason`` when the engine ended it."""
    cards: tuple[int, ...]
    reason: str | None = None


@event("action")
class ActionPlayed(Outcome):
    """A player's answer to the decision asked of ``side`` (engine/actions.py)."""
    side: str
    action: ActionList

    def played(self) -> act.Action:
        """The typed action (``action`` itself: typed when the event was read)."""
        return self.action


@event("not-in-basic-rules")
class NotInBasicRules(Outcome):
    """A unit type of the formation is not played in the basic rules and is set aside (§2.11)."""
    card: int
    type: str
    section: str


@event("transports-not-placed")
class TransportsNotPlaced(Outcome):
    """The set-up places fewer transports than the scenario gives the side (§18.6)."""
    side: str
    given: int
    placed: int
    section: str


@event("cannot-enter")
class CannotEnter(Outcome):
    """A unit due to enter cannot (every entry hex out of reach): it has operated."""
    unit: str
    reason: str


@event("face")
class Face(Outcome):
    """A unit changes facing without operating (§8.22); hexside 0-5, 0 up the page."""
    unit: str
    facing: int
    section: str


@event("enter")
class Enter(Outcome):
    """A unit enters the map at this hex (§5.3)."""
    unit: str
    hex: str
    section: str


@event("move")
class Move(Outcome):
    """A unit enters an adjacent hex: ``spent`` its movement points so far (§8), or
    ``close_assault`` into the assaulted hex (§14.11)."""
    unit: str
    hex: str
    spent: Number | None = None
    close_assault: bool | None = None


@event("move-becomes-move-fire")
class MoveBecomesMoveFire(Outcome):
    """A declared move becomes a move-and-fire (§7): half its MP at most (§9.52)."""
    unit: str
    spent: Number
    mp: Number
    section: str


@event("stop")
class Stop(Outcome):
    """A move is stopped by the rules (an enemy hex §8.53, a minefield, a fire zone...)."""
    unit: str
    reason: str
    section: str


@event("exit")
class Exit(Outcome):
    """A unit leaves the map by an edge (§8.4); whether it counts as a loss is the scenario's."""
    unit: str
    hex: str
    edge: str
    map: str
    counts_as_loss: bool
    section: str


@event("game-over")
class GameOver(Outcome):
    """The game's result (victory.evaluate): winner (a side or draw), level, points, the cause,
    the victory terms counted."""
    winner: str
    level: str | None
    points: Mapping[str, Number]
    cause: str
    terms: Mapping[str, Number]

    def result(self) -> dict:
        """The result as ``Game.returns()`` gives it."""
        return {k: v for k, v in self.to_json().items() if k not in ("t", "e")}


# direct fire (§9, §12.14, §17.2)

@event("opportunity-fire")
class OpportunityFire(Outcome):
    """The next fire is an opportunity fire at a mover (§9.4) or at a close assault (§14.11)."""
    unit: str
    target: str
    section: str


@event("same-hex-fire")
class SameHexFire(Outcome):
    """The next fire is infantry's at an enemy entering its hex (§12.14)."""
    unit: str
    target: str
    flipped: bool
    section: str


@event("spot")
class Spot(Outcome):
    """A spotting roll: 1d6 + modifiers against ``number`` at ``distance`` (§9.14; no roll in
    the same hex); for an indirect fire (``indirect_for``, §13.24) or a bombardment (§16.33)."""
    unit: str
    target: str
    distance: int
    number: Number
    roll: int | None
    modifiers: Mapping[str, Number]
    success: bool
    indirect_for: str | None = None
    bombardment: str | None = None
    section: str


@event("fire")
class Fire(Outcome):
    """An attack: 3d6 + differential + modifiers on the target's column of the fire table
    (§9.22). ``unit``: the firer, or ``minefield:<side>``, ``raid:<card>``; the flag says which
    attack it is when not a direct fire (``attack()``); ``mode`` AV or AI when a raid chose it."""
    unit: str
    target: str
    dice: tuple[int, ...]
    differential: Number
    modifiers: Mapping[str, Number]
    total: Number
    result: str
    air_strike: bool | None = None
    bombardment: bool | None = None
    indirect: bool | None = None
    spill: bool | None = None
    zone: bool | None = None
    mode: str | None = None
    section: str

    def attack(self) -> str | None:
        """What attack this is: ``minefield``, ``air strike``, ``bombardment``, ``fire zone``,
        ``spill`` (§13.11), ``indirect``; None for a direct fire (opportunity, same-hex,
        overrun and close-assault fire are told by the event before it)."""
        if self.unit.startswith("minefield:"):
            return "minefield"
        return ("air strike" if self.air_strike else "bombardment" if self.bombardment
                else "fire zone" if self.zone else "spill" if self.spill
                else "indirect" if self.indirect else None)


@event("no-target")
class NoTarget(Outcome):
    """A declared fire finds no target (§9.19)."""
    unit: str
    section: str


@event("flash-kill")
class FlashKill(Outcome):
    """A flash kill on an unmodified roll (§9.35): the firer may act again."""
    unit: str
    raw: int
    section: str


@event("smoke")
class Smoke(Outcome):
    """A unit fires smoke at a hex (§17.2), seen by ``spotter`` if not itself."""
    unit: str
    hex: str
    spotter: str | None
    points_left: int
    section: str


# indirect fire (§13.2) and hidden units (§12.2)

@event("fire-zone")
class FireZone(Outcome):
    """A fire-zone marker placed on a hex (§13.26), or a bombardment's (§16.33: ``raid_card``,
    no firer)."""
    hex: str
    side: str
    firer: str | None
    firer_hex: str | None
    raid_card: str | None = None
    anti_vehicle: int | None
    anti_infantry: int | None
    turn: int
    section: str


@event("fire-zone-attack")
class FireZoneAttack(Outcome):
    """A unit entering or in a fire zone is attacked (§13.26); no firer for a bombardment's."""
    hex: str
    firer: str | None
    target: str
    section: str


@event("fire-zone-removed")
class FireZoneRemoved(Outcome):
    """The firer's fire zones are removed (§13.26)."""
    firer: str
    hexes: tuple[str, ...]
    section: str


@event("reveal")
class Reveal(Outcome):
    """A hidden unit is revealed (§12.22)."""
    unit: str
    hex: str
    why: str
    section: str


# transport (§13.3, §18.6)

@event("transports-arriving")
class TransportsArriving(Outcome):
    """Transports of the side arrive this turn (§18.6)."""
    side: str
    turn: int
    type: str
    count: int
    section: str


@event("load")
class Load(Outcome):
    """A carrier loads a unit (§13.3)."""
    carrier: str
    unit: str
    section: str


@event("unloaded")
class Unloaded(Outcome):
    """A passenger gets off its carrier (§13.36: suppressed when the carrier is destroyed)."""
    carrier: str
    unit: str
    suppressed: bool
    section: str


# close combat (§14)

@event("close-assault")
class CloseAssault(Outcome):
    """Infantry close-assaults a hex (§14.1)."""
    units: tuple[str, ...]
    hex: str
    section: str


@event("overrun")
class Overrun(Outcome):
    """A vehicle overruns a hex (§14.2)."""
    unit: str
    hex: str
    spent: Number
    section: str


@event("overrun-fire")
class OverrunFire(Outcome):
    """A unit of the overrun hex fires at the overrunner (§14.2): ``same-hex`` or ``opportunity``."""
    unit: str
    target: str
    fire: str
    flipped: bool
    section: str


# fortifications (§13.4, §15)

@event("entrenching")
class Entrenching(Outcome):
    """An entrenchment marker placed, occupied at once (§13.4)."""
    unit: str
    hex: str
    section: str


@event("entrenched")
class Entrenched(Outcome):
    """An entrenchment finished (§13.4), or an empty one reoccupied (§13.41)."""
    unit: str
    hex: str
    reoccupied: bool | None = None
    section: str


@event("entrenchment-removed")
class EntrenchmentRemoved(Outcome):
    """An unfinished entrenchment is removed as its unit leaves or is destroyed (§13.41-13.42)."""
    hex: str
    unit: str
    section: str


@event("enter-bunker")
class EnterBunker(Outcome):
    """A unit occupies a bunker (§15.22)."""
    unit: str
    hex: str
    section: str


@event("bunker-removed")
class BunkerRemoved(Outcome):
    """A bunker is removed with its destroyed occupant (§15.23)."""
    hex: str
    unit: str
    section: str


@event("friendly-minefield-roll")
class FriendlyMinefieldRoll(Outcome):
    """A unit entering its own side's minefield rolls (§15.14)."""
    unit: str
    hex: str
    dice: tuple[int, ...]
    triggered: bool
    section: str


@event("minefield-attack")
class MinefieldAttack(Outcome):
    """A minefield attacks a unit entering it (§15.13); the fire event follows."""
    unit: str
    hex: str
    owner: str
    factor: Number
    section: str


@event("engineer-move")
class EngineerMove(Outcome):
    """An engineer moves into an adjacent hex regardless of wire (§15.4)."""
    unit: str
    hex: str
    section: str


@event("wire-removed")
class WireRemoved(Outcome):
    """An engineer clears the wire of its hex (§15.4)."""
    unit: str
    hex: str
    section: str


@event("minefield-cleared")
class MinefieldCleared(Outcome):
    """An engineer clears the minefield of its hex (§15.4)."""
    unit: str
    hex: str
    owner: str
    section: str


@event("minefield-revealed")
class MinefieldRevealed(Outcome):
    """An engineer entering a hex reveals its minefield (§15.4)."""
    hex: str
    owner: str
    by: str
    section: str


# raids (§16)

@event("raid-deck")
class RaidDeck(Outcome):
    """The raid deck is made: ``cards`` the number of cards in it (§16.1)."""
    cards: int
    section: str


@event("raid-deck-reshuffled")
class RaidDeckReshuffled(Outcome):
    """The resolved raid cards go under the deck, reshuffled (§16.1): ``cards`` in it now."""
    cards: int
    section: str


@event("raid-planned")
class RaidPlanned(Outcome):
    """A side's secret raid record: the turn of its air strike (§16.21) or of its preplanned
    bombardment and the spotting formation (§16.31)."""
    side: str
    raid: str
    turn: int
    spotting_card: int | None = None
    section: str


@event("air-strike")
class AirStrike(Outcome):
    """An air strike comes in (§16.22)."""
    side: str
    nationality: str
    raid_card: str
    aircraft: str | None
    passes: int
    section: str


@event("air-strike-spot")
class AirStrikeSpot(Outcome):
    """An air-strike marker's abort roll (§16.23)."""
    target: str
    roll: int
    aborted: bool
    section: str


@event("bombardment")
class Bombardment(Outcome):
    """A bombardment comes down (§16.33): preplanned or called."""
    side: str
    raid_card: str
    spotting_card: int
    origin: str
    section: str


@event("bombardment-call")
class BombardmentCall(Outcome):
    """An FO calls an on-call bombardment (§16.35), due after ``delay`` turns."""
    side: str
    unit: str
    raid_card: str
    delay: int
    section: str


@event("bombardment-delayed")
class BombardmentDelayed(Outcome):
    """A called bombardment is due on a later turn (§16.36)."""
    side: str
    spotting_card: int
    turn: int
    section: str


@event("bombardment-cancelled")
class BombardmentCancelled(Outcome):
    """A due bombardment is cancelled (§16.32: no ready FO)."""
    side: str
    spotting_card: int
    reason: str
    section: str


@event("bombardment-lost")
class BombardmentLost(Outcome):
    """A planned bombardment is lost (§16.31, §16.32)."""
    side: str
    spotting_card: int | None = None
    reason: str | None = None
    section: str


@event("bombardment-no-target")
class BombardmentNoTarget(Outcome):
    """The bombardment finds no target (§16.33)."""
    raid_card: str
    section: str


# morale (§10, §11) and the morale phase (§4.3)

@event("unit-check")
class UnitCheck(Outcome):
    """A unit's morale check: 2d6 + modifiers against its morale (§10.2-10.3): passed, failed,
    rout, steel or steel-failed."""
    unit: str
    why: str
    dice: tuple[int, ...]
    modifiers: Mapping[str, Number]
    morale: int
    result: str
    section: str


@event("formation-check")
class FormationCheck(Outcome):
    """A formation's morale check (§10.22): 2d6 + ``modifier`` against its card's morale."""
    card: int
    why: str
    dice: tuple[int, ...]
    modifier: Number
    morale: int
    passed: bool
    section: str


@event("destroyed")
class Destroyed(Outcome):
    """A unit is eliminated (``how``: fire, rout, overstacked...), at its hex (§10.14)."""
    unit: str
    how: str
    hex: str | None


@event("morale-phase")
class MoralePhase(Outcome):
    """The morale phase begins (§4.3, §10)."""


@event("shaken")
class Shaken(Outcome):
    """A formation becomes shaken (§10.14), or by a scenario rule (§18.7: ``why``)."""
    card: int
    why: str | None = None
    section: str


@event("smoke-check")
class SmokeCheck(Outcome):
    """A smoke marker's roll at the morale phase (§17.4)."""
    hex: str
    roll: int
    removed: bool
    section: str


__all__ = ["Outcome", "KINDS", "NotAnEvent", "from_json", "read", "type_name", "event", "ActionList", "Number",
           *(cls.__name__ for cls in KINDS.values())]
