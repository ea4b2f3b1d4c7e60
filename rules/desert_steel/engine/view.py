"""What one side may know of a game: the game a bot is handed (OpenSpiel's information state).

A bot never sees the :class:`Game` being played: :func:`side_view` builds a :class:`SideView`, a
game of its own made from what the side may know, and the bot decides on that. Nothing in a view
points back to the real game (its state, dice, decision context and log are its own; the context
it shares is the scenario's static data), so a bot cannot reach the true state by accident, and
two games that differ only in what the side cannot see give it equal views.

What a view leaves out, of the other side (the viewer's own side is whole):

- **hidden units** (FOs on paper §12.21, a formation deployed hidden §18.7): off the map, no hex;
  no entrenchment or bunker names one as its occupant (the marker is on the map, who is in it is not);
- **unrevealed minefields** (§15.11): their number stays (the scenario gives it), their hexes do not;
- **its plans** (§16.21, §16.31): the turn and spotting formation of each air strike and
  preplanned bombardment not yet made, and the raid card a record names; a delayed on-call
  bombardment stays (the call and its delay are made openly, §16.35-16.36);
- **its interrupt declaration** when the viewer is asked second (§6.43: declared at once);
- the **dice to come** and the **order of the raid deck**: drawn afresh from what the view holds,
  so equal views roll alike; the **log** (it records secret things: plans, hidden hexes).

Every action of the game is kept as a placeholder (bots may count them, not read them).

:func:`place_unseen` puts what a view leaves out back on a game, drawn at random within what the
rules allow (the search bot's determinization; the heuristic's forecasts).
"""
from __future__ import annotations

import operator
import random
from itertools import islice

from . import state as _state
from .context import other
from .dice import DrawnDice
from .game import Game
from .state import OFF_MAP, ON_MAP, order_deck_later

SECRET_ACTION = ("?",)


class SideView(Game):
    """A game as one side (``viewer``) may know it. It plays like any game (a searcher clones
    it and plays ahead), but what it holds of the other side is only what that side showed."""

    viewer: str = ""

    def clone(self) -> "SideView":
        g = super().clone()
        g.viewer = self.viewer
        return g


class ViewCopies:
    """A seat's copies of the units and formations of the last view it was handed, to make the
    next view of the same game for the same side from: a copy is used again when neither it nor
    the game's unit (formation) was written since (state._WRITTEN; any write, the bot's to its
    view included), else it is copied anew. Copying everything at every decision was most of a
    view's cost. The copies are never the game's (no path back to the true state); a view shares
    the unchanged ones with the seat's earlier views, so a bot that writes into a view must not
    keep using an earlier one (none does: look-aheads play on clones)."""

    __slots__ = ("game", "side", "stamp", "roster", "units_of", "copies", "keys", "forms_of", "form_sources",
                 "form_copies", "form_keys")

    def __init__(self):
        self.game = self.side = self.units_of = self.forms_of = None
        self.stamp = self.roster = -1
        self.copies: dict = {}  # unit id -> its copy, the last view's units
        self.keys: dict = {}  # id() of a game unit or of its copy -> the unit id
        self.form_sources: tuple = ()  # the game's formations the last view was made from
        self.form_copies: dict = {}  # card -> its copy
        self.form_keys: dict = {}  # id() of a game formation or of its copy -> the card

    def units(self, game: Game, side: str) -> dict:
        return self.take(game, side)[0]

    def take(self, game: Game, side: str) -> tuple[dict, dict]:
        """The units and the formations of the next view (fresh dicts; the copies in them reused
        or new)."""
        units, formations, written = game.state.units, game.state.formations, _state._WRITTEN
        behind = _state._WRITES[0] - self.stamp
        same = self.game is game and self.side == side and 0 <= behind <= len(written)
        # no unit added or replaced (a new unit sets its roster attributes): copy only those written
        units_kept = same and self.units_of is units and len(units) == len(self.copies) \
            and self.roster == _state._PLACEMENTS["roster"]
        sources = tuple(formations.values())
        forms_kept = same and self.forms_of is formations and len(sources) == len(self.form_sources) \
            and all(map(operator.is_, sources, self.form_sources))  # none added or replaced
        recent = list(islice(reversed(written), behind)) if units_kept or forms_kept else ()
        out, keys = _refreshed(recent, units, self.copies, self.keys) if units_kept else _fresh(units)
        forms, form_keys = _refreshed(recent, formations, self.form_copies, self.form_keys) if forms_kept \
            else _fresh(formations)
        self.game, self.side, self.roster = game, side, _state._PLACEMENTS["roster"]
        self.units_of, self.copies, self.keys = units, out, keys
        self.forms_of, self.form_sources, self.form_copies, self.form_keys = formations, sources, forms, form_keys
        return dict(out), dict(forms)

    def done(self) -> None:
        """The view is made (its own writes, hiding what the side may not see, are behind it)."""
        self.stamp = _state._WRITES[0]


def _fresh(source: dict) -> tuple[dict, dict]:
    """Copies of all of ``source``'s values, and the key of each by the id of it and of its copy."""
    out = {k: x.copy() for k, x in source.items()}
    keys = {id(x): k for k, x in source.items()}
    keys.update((id(c), k) for k, c in out.items())
    return out, keys


def _refreshed(recent: list, source: dict, copies: dict, keys: dict) -> tuple[dict, dict]:
    """The last view's copies (the seat's own dict, updated in place: each view gets a dict of
    its own), those written since (``recent``: the newest first) copied anew."""
    out = copies
    for x in recent:
        k = keys.get(id(x))
        if k is not None and (x is source.get(k) or x is out.get(k)):  # a live id: not a dead object's
            old = out[k]
            out[k] = c = source[k].copy()
            keys.pop(id(old), None)
            keys[id(c)] = k
    return out, keys


def side_view(game: Game, side: str, copies: ViewCopies | None = None) -> SideView:
    """The view of ``game`` for ``side`` (see the module docstring); ``copies``: a seat's copies
    of the units of its last view, reused where nothing has changed (ViewCopies)."""
    units, formations = copies.take(game, side) if copies is not None else (None, None)
    v = game._copy_as(SideView, dice=False, units=units, formations=formations)
    v.viewer = side
    v.seed = 0
    v.events = []
    v.actions = [SECRET_ACTION] * len(game.actions)
    enemy = other(side)
    s = v.state
    hidden = set()
    units = s.units
    for uid in _hidden_ids(game.state, enemy):
        u = units[uid]  # the view's copy (take: equal to the game's unit)
        hidden.add(uid)
        if (u.hex, u.status, u.start_hex, u.facing, u.moved, u.fired, u.flipped, u.suppressed, u.spotted) \
                == _HIDDEN_FACE:
            continue  # a reused copy, hidden already (a write would make it be copied anew next time)
        u.hex, u.status, u.start_hex, u.facing = None, OFF_MAP, None, 0
        u.moved = u.fired = u.flipped = u.suppressed = False
        u.spotted = None
    for marker in s.entrenchments + s.bunkers:
        if marker.get("occupant") in hidden:
            marker["occupant"] = None
    # in the order of the map, not of the set-up (which follows the units: it would tell who is where)
    s.entrenchments.sort(key=_marker_order)
    s.bunkers.sort(key=_marker_order)
    for m in s.minefields:
        if m["side"] == enemy and not m["revealed"]:
            m["hex"] = None
    for r in s.raids:
        if r["side"] == enemy and not r.get("done") and r.get("origin") != "on-call":
            if "turn" in r:
                r["turn"] = None
            if "spotting_card" in r:
                r["spotting_card"] = None
            r.pop("raid_card", None)
    # the pending decisions as the side knows them: not the enemy's interrupt declaration (asked
    # again in a look-ahead: the bot models it)
    v._stack = tuple(d.seen_by(side) for d in v._stack)
    # public things only seed what is to come: equal views roll alike, and no bot foresees the game's dice
    phrase = f"{side}|{len(game.actions)}|{s.turn}"
    v.dice = DrawnDice(phrase)  # drawn from the phrase's first number, when first rolled
    order_deck_later(s, phrase)  # state.drawn_order(deck, phrase), drawn when the deck is first read
    if copies is not None:
        copies.done()
    return v


_HIDDEN_FACE = (None, OFF_MAP, None, 0, False, False, False, False, None)


def _hidden_ids(state, side: str) -> tuple:
    """The ids of a side's hidden units, memoised while none of that side's units is placed anew
    (hidden is a placement attribute): a view hides them without a walk over every unit."""
    return state.by_placement(("hidden", side), lambda: tuple(
        k for k, u in state.units.items() if u.side == side and u.hidden), (side,))


def _marker_order(marker) -> tuple:
    return (marker["hex"], str(marker.get("occupant")), str(marker.get("side")), bool(marker.get("done")),
            marker.get("turn") or 0)


# --- putting back what a view leaves out -----------------------------------------------------------

def hidden_zone(g: Game, unit) -> list:
    """The sorted hexes a hidden unit may have been written in (§12.21): the zone the scenario
    gives hidden FOs, else its formation's set-up zone; hexes its type may stand in, not
    prohibited to its side (§18.7)."""
    memo = g.ctx.memo.setdefault("hidden_zones", {})
    key = (unit.side, unit.card, unit.type.id)
    if key not in memo:
        scen, field = g.ctx.scenario, g.ctx.field
        rule = scen.sides[unit.side].raw.get("hidden_observers", {})
        hexes: frozenset = frozenset()
        try:
            if unit.type.unit_class == "forward-observer" and "zone" in rule:
                hexes = field.zone(rule["zone"])
            else:
                for group in scen.sides[unit.side].groups:
                    if unit.card in group["cards"] and group.get("setup"):
                        hexes = field.zone(group["setup"])
        except Exception:  # noqa: BLE001 - a zone the field cannot read: nowhere to draw from
            hexes = frozenset()
        banned = g.prohibited(unit.side)
        memo[key] = sorted(h for h in hexes if h in field.board.usable and h not in banned
                           and _may_stand(field, unit.type, h))
    return memo[key]


def _may_stand(field, unit_type, hex_) -> bool:
    return any(field.enter_cost(unit_type, n, hex_) != "prohibited" for n in field.board.neighbours(hex_))


def minefield_zone(g: Game, side: str) -> list:
    """Where the side's minefields may lie: the scenario's zone for them, else its set-up zones."""
    memo = g.ctx.memo.setdefault("minefield_zones", {})
    if side not in memo:
        scen, field = g.ctx.scenario, g.ctx.field
        spec = scen.sides[side].raw.get("fortifications", {}).get("minefields", {})
        hexes: set = set()
        try:
            if "zone" in spec:
                hexes = set(field.zone(spec["zone"]))
            else:
                for group in scen.sides[side].groups:
                    if group.get("setup"):
                        hexes |= field.zone(group["setup"])
        except Exception:  # noqa: BLE001
            hexes = set()
        memo[side] = sorted(h for h in hexes if h in field.board.usable)
    return memo[side]


def place_unseen(g: Game, me: str, rng: random.Random) -> None:
    """Put back, in place, what ``me`` does not know of the other side, drawn with ``rng`` within
    what the rules allow: hidden units into hexes they may have been written in (marked
    entrenchments and bunkers of their side left without an occupant first), none where one of
    ``me``'s units stands (entering would have revealed it, §12.22) and within the stacking limit;
    unrevealed minefields one a hex in their zone, not under ``me``'s units, not in a
    fortification's hex; unplanned raids of the enemy on turns still to come (one air strike a
    turn, a bombardment spotted by a formation with an FO)."""
    st = g.state
    enemy = other(me)
    mine = {u.hex for u in st.units.values() if u.side == me and u.status == ON_MAP}
    limit = g.ctx.tables.stacking()["units"]
    hidden = [u for u in st.units.values() if u.side == enemy and u.hidden]
    if hidden:
        crowd: dict = {}
        for u in st.units.values():
            if u.status == ON_MAP and u.side == enemy and not u.hidden:
                crowd[u.hex] = crowd.get(u.hex, 0) + 1
        vacant = [m for m in st.entrenchments + st.bunkers
                  if m.get("side", enemy) == enemy and m.get("occupant") is None and m.get("done", True)
                  and m["hex"] not in mine and _marker_side(g, m) == enemy]
        rng.shuffle(vacant)
        order = list(hidden)
        rng.shuffle(order)
        for u in order:
            zone = [h for h in hidden_zone(g, u) if h not in mine and crowd.get(h, 0) < limit]
            spot = next((m for m in vacant if m["hex"] in zone and not u.type.is_vehicle), None)
            if spot is not None:
                vacant.remove(spot)
                spot["occupant"] = u.id
                where = spot["hex"]
            elif zone:
                where = rng.choice(zone)
            else:
                continue  # nowhere the rules allow: it stays unknown (off the map)
            u.hex, u.status = where, ON_MAP
            u.start_hex = where
            crowd[where] = crowd.get(where, 0) + 1
    unknown = [m for m in st.minefields if m["side"] == enemy and not m["revealed"]]
    if unknown:
        taken = {m["hex"] for m in st.minefields if m not in unknown and m["hex"] is not None}
        taken |= {m["hex"] for m in st.entrenchments + st.bunkers}
        free = [h for h in minefield_zone(g, enemy) if h not in mine and h not in taken]
        picks = rng.sample(free, len(unknown)) if len(free) >= len(unknown) else []
        for m, h in zip(unknown, picks):
            m["hex"] = h
    turns = g.ctx.scenario.turns
    for r in st.raids:
        if r["side"] != enemy or r.get("done") or r.get("origin") == "on-call":
            continue
        if r["kind"] == "air-strike":
            used = {x["turn"] for x in st.raids if x["side"] == enemy and x["kind"] == "air-strike"
                    and x is not r and x["turn"] is not None}
            free_turns = [t for t in range(st.turn, turns + 1) if t not in used]
            r["turn"] = rng.choice(free_turns) if free_turns else 0
        elif r["kind"] == "bombardment":
            cards = sorted(c for c, f in st.formations.items() if f.side == enemy and f.kind == "combat"
                           and any(x.type.unit_class == "forward-observer" or x.type.counts_as_observer
                                   for x in g.units_of(c) if x.status in (ON_MAP, OFF_MAP)))
            r["turn"] = rng.randint(st.turn, turns)
            r["spotting_card"] = rng.choice(cards) if cards else None


def _marker_side(g: Game, marker) -> str | None:
    """Whose an entrenchment or bunker is: its record's side, else the side of the set-up zone it is in."""
    if marker.get("side"):
        return marker["side"]
    for side in ("allied", "axis"):
        for group in g.ctx.scenario.sides[side].groups:
            if group.get("setup"):
                try:
                    if marker["hex"] in g.ctx.field.zone(group["setup"]):
                        return side
                except Exception:  # noqa: BLE001
                    continue
    return None
