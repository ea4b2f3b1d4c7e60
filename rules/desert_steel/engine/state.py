"""Game state: units, formations, cards in hand and on the stack, the turn and phase."""
from __future__ import annotations

import random
from collections import deque
from dataclasses import MISSING, dataclass, field, fields

from ..model import UnitType

ON_MAP, OFF_MAP, DESTROYED, EXITED, REMOVED = "on-map", "off-map", "destroyed", "exited", "removed"

# Counts, per side and in all ("*"), the assignments of the unit attributes that say where a unit
# is and who may see or shoot it, wherever in the engine (or a test) they happen, and apart
# ("roster") those that say whose it is: what State.by_placement memoises (State.at's hex index
# among them) is recomputed once they have moved on, so it can never be stale.
_PLACEMENTS: dict = {"*": 0, "roster": 0}
_PLACEMENT_ATTRIBUTES = frozenset({"hex", "status", "hidden", "carried_by", "side", "type", "card"})
_ROSTER_ATTRIBUTES = frozenset({"side", "type", "card"})
_RECENT: deque = deque(maxlen=64)  # the units of the last counts of "*": State.here patches its index
_NOWHERE = object()  # not in the hex index (off the map)
# Every write to any unit attribute, counted, and the last units written (view.ViewCopies reuses
# a side view's copy of a unit that neither it nor the game's unit was written since the last view)
_WRITES: list = [0]
_WRITTEN: deque = deque(maxlen=4096)
_UNSET = object()  # a slot __init__ has not filled yet


def _placed(unit, side) -> None:
    _PLACEMENTS["*"] += 1
    _PLACEMENTS[side] = _PLACEMENTS.get(side, 0) + 1
    _RECENT.append(unit)


@dataclass(slots=True)
class Unit:
    id: str  # e.g. "419.2": card number and index
    card: int
    type: UnitType
    side: str
    hex: str | None
    facing: int = 0
    status: str = ON_MAP
    flipped: bool = False
    suppressed: bool = False
    separated: bool = False
    experience_bonus: int = 0  # steel morale (§10.31): at most one level per game
    moved: bool = False  # Moved marker (§9.15)
    fired: bool = False  # Fired marker (§9.17)
    spotted: str | None = None  # Spotted A/B/C marker (§9.18)
    flash_kill: bool = False  # a flash kill's extra operation pending (§9.36)
    flash_kills: int = 0  # this turn
    opportunity_fired: bool = False  # this turn (§9.42)
    fate: dict | None = None  # how it left: {"turn", "by", "edge", "map", "counts_as_loss"}
    hidden: bool = False  # a forward observer deployed hidden, written on paper (§12.21)
    if_spotted: bool = False  # made its indirect-fire spotting this turn (§12.23, §13.23)
    smoked: bool = False  # a CS tank fired its smoke this turn (§17.2)
    carried_by: str | None = None  # loaded in this transport until Morale step 1 (§13.3)
    start_hex: str | None = None  # where it stood when the Operations Phase began (§13.3 step 1)
    pinned: bool = False  # assaulted into an enemy hex: cannot leave while the enemy stays (§14.11)

    def __setattr__(self, name, value):
        if getattr(self, name, _UNSET) is value:
            return  # the same object: nothing changes, nothing to count (most of the morale phase's resets)
        _WRITES[0] += 1
        _WRITTEN.append(self)
        if name in _PLACEMENT_ATTRIBUTES:
            _placed(self, getattr(self, "side", None))  # None while __init__ has not set it yet
            if name in _ROSTER_ATTRIBUTES:
                _PLACEMENTS["roster"] += 1
                if name == "side":
                    _placed(self, value)
        object.__setattr__(self, name, value)

    def copy(self) -> "Unit":
        # built without the placement hook (a copy moves nothing; clone() must stay cheap)
        u = _UntrackedUnit(self.id, self.card, self.type, self.side, self.hex, self.facing, self.status, self.flipped,
                           self.suppressed, self.separated, self.experience_bonus, self.moved, self.fired, self.spotted,
                           self.flash_kill, self.flash_kills, self.opportunity_fired,
                           None if self.fate is None else dict(self.fate), self.hidden,
                           self.if_spotted, self.smoked, self.carried_by, self.start_hex, self.pinned)
        u.__class__ = Unit
        return u

    def clear_turn_markers(self) -> None:
        """Morale step 5 (§4.3): no Moved, Fired or Spotted marker, no flash kill, opportunity
        fire, indirect-fire spotting or smoke fire this turn any more. Only the markers set are
        written, one by one: most units have none or one (Moved), and each write, even of the
        value a field holds, is a call of the write hook."""
        if self.moved:
            self.moved = False
        if self.fired:
            self.fired = False
        if self.flash_kill:
            self.flash_kill = False
        if self.opportunity_fired:
            self.opportunity_fired = False
        if self.if_spotted:
            self.if_spotted = False
        if self.smoked:
            self.smoked = False
        if self.spotted is not None:
            self.spotted = None
        if self.flash_kills:
            self.flash_kills = 0

    @property
    def on_map(self) -> bool:
        return self.status == ON_MAP

    @property
    def ready(self) -> bool:
        """Face up and not suppressed: may operate or fire (§7.1, §10.13)."""
        return self.status == ON_MAP and not self.flipped and not self.suppressed


class _UntrackedUnit(Unit):
    """Unit's layout without the hook, to build copies at full speed (then re-classed as Unit)."""
    __slots__ = ()
    __setattr__ = object.__setattr__


_fill_unit = _UntrackedUnit.__init__


def refill(c: Unit, u: Unit) -> None:
    """``c`` made to hold what ``u.copy()`` would, past the write hook: a side view's copy
    brought up to date in place (view.ViewCopies), so that what holds it (the view's hex and card
    indexes, its memos) still holds the view's unit. The caller counts the placement when the
    copy's changes (its memos then follow it as any write's)."""
    object.__setattr__(c, "__class__", _UntrackedUnit)
    _fill_unit(c, u.id, u.card, u.type, u.side, u.hex, u.facing, u.status, u.flipped, u.suppressed, u.separated,
               u.experience_bonus, u.moved, u.fired, u.spotted, u.flash_kill, u.flash_kills, u.opportunity_fired,
               None if u.fate is None else dict(u.fate), u.hidden, u.if_spotted, u.smoked, u.carried_by,
               u.start_hex, u.pinned)
    c.__class__ = Unit


def new_unit(*args, **kwargs) -> Unit:
    """``Unit(*args, **kwargs)`` made without the write hook on each of its fields (a game sets up
    a few hundred units, some 25 fields each): what the hook keeps is moved once instead, as for
    one write of a placement and roster field (every memo that counts writes sees it changed)."""
    u = _UntrackedUnit(*args, **kwargs)
    u.__class__ = Unit
    _WRITES[0] += 1
    _WRITTEN.append(u)
    _placed(u, u.side)
    _PLACEMENTS["roster"] += 1
    return u


@dataclass(slots=True)
class Formation:
    card: int
    side: str
    kind: str  # "combat" | "command" | "transport" (a side's scenario transports, §13.31: no card)
    shaken: bool = False
    losses: float = 0  # units that count as losses for morale (§10.11, §18.5)
    lost_this_turn: int = 0
    arrival: int = 1  # turn the card joins the hand
    entry_zone: frozenset = frozenset()  # hexes its units may enter through (empty: set up on the map)
    must_replay: bool = False  # rallied by a command card: back in hand, must be played (§6.52)

    def __setattr__(self, name, value):
        # counted like a unit's write: view.ViewCopies reuses a formation copy neither side wrote
        if getattr(self, name, _UNSET) is value:
            return
        _WRITES[0] += 1
        _WRITTEN.append(self)
        object.__setattr__(self, name, value)

    def copy(self) -> "Formation":
        f = _UntrackedFormation(self.card, self.side, self.kind, self.shaken, self.losses, self.lost_this_turn,
                                self.arrival, self.entry_zone, self.must_replay)
        f.__class__ = Formation
        return f


class _UntrackedFormation(Formation):
    """Formation's layout without the write hook, to build copies at full speed."""
    __slots__ = ()
    __setattr__ = object.__setattr__


@dataclass
class State:
    turn: int = 1
    phase: str = "operations"
    units: dict[str, Unit] = field(default_factory=dict)
    formations: dict[int, Formation] = field(default_factory=dict)
    hands: dict[str, list[int]] = field(default_factory=lambda: {"allied": [], "axis": []})
    stack: list[int] = field(default_factory=list)
    played: set[int] = field(default_factory=set)  # cards set aside this turn
    visibility: int = 10
    interrupt_windows: set[int] = field(default_factory=set)  # cards that had their window (§6.56)
    failed_interrupts: dict = field(default_factory=dict)  # top card -> cards that failed against it (§6.55)
    # Fire zones (§13.26), the paper record: {"hex", "side", "firer", "firer_hex", "anti_vehicle",
    # "anti_infantry", "experience", "turn"}; removed at Morale step 5 or with their firer.
    fire_zones: list = field(default_factory=list)
    # Entrenchment markers (§13.4): {"hex", "occupant": unit id or None, "done": bool, "turn": started}
    entrenchments: list = field(default_factory=list)
    smoke: list = field(default_factory=list)  # hexes holding a smoke marker (§17), one entry per marker
    smoke_points: dict = field(default_factory=dict)  # side -> smoke fires left (§17.1)
    # Raids (§16): the deck (top first), cards drawn since the last Morale Phase, the raid record
    # (§18.9: {"side", "kind", "turn", "nationality", "done"}) and the (card, side) air-strike windows
    raid_deck: list = field(default_factory=list)
    raid_used: list = field(default_factory=list)
    raids: list = field(default_factory=list)
    air_windows: set = field(default_factory=set)
    # Fortifications (§15): minefields {"hex", "side", "active", "revealed"} (on paper until an
    # attack or an engineer reveals them, §15.11), wire {hex: side} (§15.3) and bunkers
    # {"hex", "side", "occupant": unit id or None} (§15.2)
    minefields: list = field(default_factory=list)
    wire: dict = field(default_factory=dict)
    bunkers: list = field(default_factory=list)

    # what by_placement memoises: key -> (placements(), value); State.at's hex index, and when it was made
    _memo: dict = field(default_factory=dict, init=False, repr=False, compare=False)
    _at_index: dict = field(default_factory=dict, init=False, repr=False, compare=False)
    _at_where: dict | None = field(default=None, init=False, repr=False, compare=False)  # id(unit) -> hex
    _at_rank: dict | None = field(default=None, init=False, repr=False, compare=False)  # id(unit) -> order
    _at_count: int = field(default=-1, init=False, repr=False, compare=False)
    _at_roster: int = field(default=-1, init=False, repr=False, compare=False)
    _at_size: int = field(default=-1, init=False, repr=False, compare=False)
    _at_units: dict | None = field(default=None, init=False, repr=False, compare=False)
    # of_card's index (card -> its units), and the roster count, size and dict of units it was made from
    _cards: dict = field(default_factory=dict, init=False, repr=False, compare=False)
    _cards_roster: int = field(default=-1, init=False, repr=False, compare=False)
    _cards_size: int = field(default=-1, init=False, repr=False, compare=False)
    _cards_units: dict | None = field(default=None, init=False, repr=False, compare=False)

    def copy(self, units: dict | None = None) -> "State":
        """``units``: the copy's, made by the caller (a side view hides its enemy's hidden units in
        them). Made field by field into a bare State (a side view is made at every decision):
        every container copied, the memos and indexes of the copy its own and empty."""
        own = self.__dict__
        s = _new_state(State)
        d = s.__dict__
        d.update(own)  # the atoms (turn, phase, visibility); every container is replaced below
        d["units"] = {k: u.copy() for k, u in self.units.items()} if units is None else units
        d["formations"] = {k: f.copy() for k, f in self.formations.items()}
        d["hands"] = {k: list(v) for k, v in self.hands.items()}
        d["stack"], d["played"] = list(self.stack), set(self.played)
        d["interrupt_windows"] = set(self.interrupt_windows)
        d["failed_interrupts"] = {k: set(v) for k, v in self.failed_interrupts.items()} if self.failed_interrupts else {}
        d["fire_zones"] = [dict(z) for z in self.fire_zones] if self.fire_zones else []
        d["entrenchments"] = [dict(e) for e in self.entrenchments] if self.entrenchments else []
        d["smoke"], d["smoke_points"] = list(self.smoke), dict(self.smoke_points)
        d["_raid_deck"] = list(own["_raid_deck"])  # with _deck_luck (copied above): a pending order stays pending
        d["raid_used"] = list(self.raid_used)
        d["raids"] = [dict(r) for r in self.raids] if self.raids else []
        d["air_windows"] = set(self.air_windows)
        d["minefields"] = [dict(m) for m in self.minefields] if self.minefields else []
        d["wire"] = dict(self.wire)
        d["bunkers"] = [dict(b) for b in self.bunkers] if self.bunkers else []
        d.update(_FRESH)
        d["_memo"], d["_at_index"], d["_cards"] = {}, {}, {}
        return s

    def side_units(self, side: str) -> list[Unit]:
        return [u for u in self.units.values() if u.side == side]

    def placements(self, scope: tuple | None = None) -> tuple:
        """Changes whenever a unit (of one of the sides in scope; default: any) is added, placed,
        moved, removed, hidden or revealed, loaded or unloaded (see _PLACEMENT_ATTRIBUTES); other
        changes (flipped, moved...) leave it as is. Scope ("roster",): only when a unit is added or
        changes card, side or type."""
        if scope is None:
            counts = _PLACEMENTS["*"]
        elif len(scope) == 1:  # the usual case, without a generator (a hot path)
            counts = (_PLACEMENTS.get(scope[0], 0),)
        else:
            counts = tuple(_PLACEMENTS.get(s, 0) for s in scope)
        return counts, len(self.units), id(self.units)

    def by_placement(self, key, compute, scope: tuple | None = None):
        """compute(), memoised under key until placements(scope) changes: compute must be a pure
        function of what that scope covers: where the units (of those sides) are, their sides and
        types, and which are hidden or carried."""
        stamp = self.placements(scope)
        hit = self._memo.get(key)
        if hit is None or hit[0] != stamp:
            hit = self._memo[key] = (stamp, compute())
        return hit[1]

    def on_map(self, side: str) -> tuple[Unit, ...]:
        """A side's units on the map, in the order of ``units``: by_placement's (side,) scope,
        spelt out (asked at every step of a move, for the enemy's opportunity fire)."""
        units, count = self.units, _PLACEMENTS.get(side, 0)
        hit = self._memo.get(("on-map", side))
        if hit is None or hit[0] != count or hit[1] != len(units) or hit[2] is not units:
            hit = self._memo[("on-map", side)] = (count, len(units), units, tuple(
                u for u in units.values() if u.side == side and u.status == ON_MAP))
        return hit[3]

    def held(self, side: str) -> frozenset:
        """The hexes holding a unit of ``side`` on the map (hidden FOs, passengers too): on_map's
        scope, spelt out likewise (asked at every step of a move: a hex the enemy does not hold
        needs no look at the hex index, which would be brought up to date for each step)."""
        units, count = self.units, _PLACEMENTS.get(side, 0)
        key = ("hexes-held", side)
        hit = self._memo.get(key)
        if hit is None or hit[0] != count or hit[1] != len(units) or hit[2] is not units:
            hit = self._memo[key] = (count, len(units), units, frozenset(u.hex for u in self.on_map(side)))
        return hit[3]

    def of_card(self, card: int) -> tuple[Unit, ...]:
        """A formation's units (any status), in the order of ``units``: one index of every card,
        made anew when a unit is added, removed or changes card, side or type (by_placement's
        ("roster",) scope, spelt out: asked at every activation for each unit)."""
        units = self.units
        if self._cards_roster != _PLACEMENTS["roster"] or self._cards_size != len(units) \
                or self._cards_units is not units:
            index: dict = {}
            for u in units.values():
                index.setdefault(u.card, []).append(u)
            self._cards = {c: tuple(us) for c, us in index.items()}
            self._cards_roster, self._cards_size, self._cards_units = _PLACEMENTS["roster"], len(units), units
        return self._cards.get(card, ())

    def at(self, hex_: str) -> list[Unit]:
        """The units on the map in a hex, in the order of ``units``."""
        return list(self.here(hex_))

    def here(self, hex_: str) -> tuple[Unit, ...]:
        """``at`` without the copy, for the hot paths that only read it."""
        if self._at_count != _PLACEMENTS["*"] or self._at_size != len(self.units) or self._at_units is not self.units:
            self._update_hex_index()  # the by_placement test, spelt out: this is the engine's hottest call
        return self._at_index.get(hex_, ())

    def stacks(self):
        """(hex, its units on the map in the order of ``units``) of every occupied hex: the index
        ``here`` reads, for a look at the whole map (the morale phase's stacking check)."""
        if self._at_count != _PLACEMENTS["*"] or self._at_size != len(self.units) or self._at_units is not self.units:
            self._update_hex_index()
        return self._at_index.items()

    def _update_hex_index(self) -> None:
        """Move the few units placed since the index was made (the usual case: one step of a
        move), or make it anew (after more changes, or when a unit was made or added since).
        Where each unit stood and the units' order, which only moving needs, are derived from the
        index at the first move after it was made: most indexes (a side view's, a look-ahead's)
        are read and never moved."""
        units = self.units
        behind = _PLACEMENTS["*"] - self._at_count
        if self._at_size == len(units) and self._at_units is units and behind <= len(_RECENT) \
                and self._at_roster == _PLACEMENTS["roster"]:
            if self._at_rank is None:  # the index as made: where each unit stood then
                self._at_where = {id(u): h for h, us in self._at_index.items() for u in us}
                self._at_rank = {id(u): i for i, u in enumerate(units.values())}
            rank, recent = self._at_rank, _RECENT
            # the last ``behind`` placed, by index from the right end (an islice would walk the
            # whole deque up to them); each unit's move is its own: the order does not matter
            for i in range(len(recent) - behind, len(recent)):
                u = recent[i]
                if id(u) in rank:  # not a unit of another game (ours are alive: ids are unique)
                    self._reindex(u)
            self._at_count = _PLACEMENTS["*"]
            return
        index: dict = {}
        for u in units.values():
            if u.status == ON_MAP:
                here = index.get(u.hex)
                if here is None:
                    index[u.hex] = [u]
                else:
                    here.append(u)
        self._at_index = {h: tuple(us) for h, us in index.items()}
        self._at_where = self._at_rank = None
        self._at_count, self._at_roster = _PLACEMENTS["*"], _PLACEMENTS["roster"]
        self._at_size, self._at_units = len(units), units

    def _reindex(self, u: Unit) -> None:
        old, new = self._at_where.get(id(u), _NOWHERE), u.hex if u.status == ON_MAP else _NOWHERE
        if old is new or old == new:
            return
        index = self._at_index
        if old is not _NOWHERE:
            was = index[old]
            if len(was) == 1 and was[0] is u:  # it stood alone: the usual step of a random game
                del index[old]
            else:  # out of a stack (a few units: found by identity, a Unit's == compares every field)
                i = 0
                while i < len(was) and was[i] is not u:
                    i += 1
                index[old] = was[:i] + was[i + 1:]
        if new is not _NOWHERE:
            there = index.get(new)
            if not there:
                index[new] = (u,)
            else:  # into a stack, in the units' order: before the first unit ranked after it
                rank = self._at_rank
                mine, i = rank[id(u)], 0
                while i < len(there) and rank[id(there[i])] < mine:
                    i += 1
                index[new] = there[:i] + (u,) + there[i:]
        self._at_where[id(u)] = new


# The raid deck's order in a side view is drawn from the view's own luck (view.side_view), which
# takes a seeded random stream and a shuffle at every decision of a scenario with raids, while a
# deck's order is read only when a card is drawn or the deck reshuffled. So a view keeps its deck
# sorted with the phrase to draw its order from (_deck_luck), and the order is drawn at the first
# read of raid_deck, exactly as it would have been drawn at once. Any write sets the deck as given.

_new_state = object.__new__
# the memo and index fields of a State just made (their dicts made apart: each State its own)
_FRESH = {f.name: f.default for f in fields(State) if f.name.startswith("_") and f.default is not MISSING}


def _read_deck(self: State) -> list:
    d = self.__dict__
    phrase = d["_deck_luck"]
    if phrase is not None:
        d["_deck_luck"] = None
        d["_raid_deck"] = drawn_order(d["_raid_deck"], phrase)
    return d["_raid_deck"]


def _write_deck(self: State, cards: list) -> None:
    self.__dict__["_raid_deck"], self.__dict__["_deck_luck"] = cards, None


def drawn_order(cards: list, phrase: str) -> list:
    """The cards in the order a view's luck draws from ``phrase`` (its first number is the dice's)."""
    luck = random.Random(phrase)
    luck.randrange(2 ** 31)
    deck = sorted(cards)
    luck.shuffle(deck)
    return deck


def order_deck_later(state: State, phrase: str) -> None:
    """Give ``state``'s raid deck the order drawn_order(deck, phrase), drawn when first read."""
    if state.__dict__["_raid_deck"] or state.__dict__["_deck_luck"] is not None:
        state.__dict__["_raid_deck"] = _read_deck(state)  # an order still pending is drawn first
        state.__dict__["_deck_luck"] = phrase


State.raid_deck = property(_read_deck, _write_deck)  # a field still (init, compare, repr, fields())
