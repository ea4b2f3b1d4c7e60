"""What one side may know of a game: the game a bot is handed (OpenSpiel's information state).

A bot never sees the :class:`Game` being played: :func:`side_view` builds a :class:`SideView`, a
game of its own made from what the side may know, and the bot decides on that. Nothing in a view
points back to the real game (its state, dice, decision context and log are its own; the context
it shares is the scenario's static data), so a bot cannot reach the true state by accident, and
two games that differ only in what the side cannot see give it equal views.

What a view leaves out, of the other side (the viewer's own side is whole):

- **hidden units** (FOs on paper §12.21, a formation deployed hidden §18.7): off the map, no hex;
  no entrenchment or bunker names one as its occupant (the marker is on the map, who is in it is not),
  and a marker one placed is on paper with it (§12.22, §13.4);
- **unrevealed minefields** (§15.11): their number stays (the scenario gives it), their hexes do not;
- **its plans** (§16.21, §16.31): the turn and spotting formation of each air strike and
  preplanned bombardment not yet made, and the raid card a record names; a delayed on-call
  bombardment stays (the call and its delay are made openly, §16.35-16.36);
- **its interrupt declaration** when the viewer is asked second (§6.43: declared at once);
- with limited intelligence (§6.55), **which of its cards lie face down on the stack**: only their
  C3 (_cards_face_down);
- the **dice to come** and the **order of the raid deck**: drawn afresh from what the view holds,
  so equal views roll alike; the **log** (it records secret things: plans, hidden hexes).

Every action of the game is kept as a placeholder (bots may count them, not read them). A seat
keeps its last view and brings it up to date in place (ViewCopies).

:func:`place_unseen` puts what a view leaves out back on a game, drawn at random within what the
rules allow (the search bot's determinization; the heuristic's forecasts).
"""
from __future__ import annotations

import operator
import random
from itertools import islice

from . import state as _state
from .context import other
from .decisions import Decision
from .dice import DrawnDice
from .game import Game
from .state import OFF_MAP, ON_MAP, Formation, Unit, order_deck_later, refill

SECRET_ACTION = ("?",)


class SideView(Game):
    """A game as one side (``viewer``) may know it. It plays like any game (a searcher clones
    it and plays ahead), but what it holds of the other side is only what that side showed."""

    viewer: str = ""

    def clone(self) -> "SideView":
        g = super().clone()
        g.viewer = self.viewer
        return g


# The state's containers and how each is copied (as State.copy copies them): a seat's view brings
# each up to date when it no longer equals the game's (tests/test_view_copies.py checks that every
# field of State is here or is one the refresh sets itself). Those that name something of the
# other side that is secret are masked (_mask), the rest copied as they are.
CONTAINERS = {
    "hands": lambda x: {k: list(v) for k, v in x.items()},
    "stack": list, "played": set, "interrupt_windows": set,
    "failed_interrupts": lambda x: {k: set(v) for k, v in x.items()},
    "fire_zones": lambda x: [dict(z) for z in x],
    "smoke": list, "smoke_points": dict, "raid_used": list, "air_windows": set, "wire": dict,
    "entrenchments": lambda x: [dict(e) for e in x], "bunkers": lambda x: [dict(b) for b in x],
    "minefields": lambda x: [dict(m) for m in x], "raids": lambda x: [dict(r) for r in x],
}
_MASKED = ("entrenchments", "bunkers", "minefields", "raids")
# what names cards: masked too under limited intelligence (§6.55: the stack's cards face down)
_CARDS = ("hands", "stack", "failed_interrupts", "interrupt_windows", "air_windows")


def _groups(masked: tuple) -> tuple:
    """(names copied as they are, their getter, names masked, their getter)."""
    plain = tuple(k for k in CONTAINERS if k not in masked)
    return plain, operator.itemgetter(*plain), masked, operator.itemgetter(*masked)


_GROUPS = {False: _groups(_MASKED), True: _groups(_MASKED + _CARDS)}  # by limited intelligence
_SEEN_AS_IS = Decision.seen_by  # a kind that holds no secret of the other side
# the write hook's counters (state.py mutates these objects, never rebinds them)
_WRITES, _WRITTEN, _PLACEMENTS, _RECENT = _state._WRITES, _state._WRITTEN, _state._PLACEMENTS, _state._RECENT


class ViewCopies:
    """A seat's last view, brought up to date in place for the seat's next decision in the same
    game (side_view): making a whole new game for each of the ~2,300 decisions of a game of I was
    a fifth of its time, while most consecutive decisions (one unit's move steps) change a unit or
    two. A unit copy is brought up to date in place (state.refill), a formation copy made anew,
    when it or the game's was written since the last view (state._WRITTEN: any write, the bot's to
    its view included); the view's memos and indexes are kept (what they hold are the view's own
    unit copies), and a copy whose place changes is counted as a write of it would be, so they
    follow it as a game's own follow its units; each container of the state
    when it no longer equals the game's (the masked ones: when the game's changed, or the view's
    was written, or who is hidden); the rest (the decisions, the placeholders of the actions, the
    dice) as a new view would have them. So the view equals one made afresh, and holds only copies
    (no path back to the true state). Anything a bot did to its view that this cannot follow (an
    attribute set on it, a unit or formation added, replaced or removed, too many writes since, a
    game that ended) and it is made afresh. One exception: the list of placeholders of the actions
    is made anew only when it is too long or does not end with a placeholder (the bot appended
    to it): an entry the bot changed before the last survives (checking every entry
    would cost a walk of the whole game's length at each decision). It tells nothing: the
    placeholders hold no action of the game, and what the bot wrote there is its own. A bot must
    not keep a view past its decision: the seat's next view is the same object."""

    __slots__ = ("view", "game", "side", "stamp", "roster", "units_of", "forms_of", "form_count",
                 "state", "units", "formations", "shape", "state_shape", "game_shape", "stack_of", "stack_seen",
                 "actions", "hidden", "groups", "masked_source", "masked_view")

    def __init__(self):
        self.view = self.game = None

    def keep(self, game: Game, side: str, v: "SideView", hidden: frozenset) -> None:
        """``v``: a view of ``game`` for ``side`` just made afresh."""
        gs, s = game.state, v.state
        self.view, self.game, self.side, self.state = v, game, side, s
        self.units, self.formations = s.units, s.formations
        self.units_of, self.forms_of, self.form_count = gs.units, gs.formations, len(gs.formations)
        self.shape, self.state_shape, self.game_shape = len(v.__dict__), len(s.__dict__), len(gs.__dict__)
        self.stack_of, self.stack_seen, self.actions = game._stack, v._stack, v.actions
        self.groups = _GROUPS[_face_down(game)]
        self._masks_kept(gs, s, hidden)
        self.roster, self.stamp = _PLACEMENTS["roster"], _WRITES[0]

    def _masks_kept(self, gs, s, hidden: frozenset) -> None:
        _, _, names, masked = self.groups
        self.hidden = hidden
        self.masked_source = tuple(CONTAINERS[k](x) for k, x in zip(names, masked(gs.__dict__)))
        self.masked_view = tuple(CONTAINERS[k](x) for k, x in zip(names, masked(s.__dict__)))

    def refreshed(self, game: Game, side: str) -> "SideView | None":
        """The seat's last view brought up to date (see the class), or None when it cannot be."""
        v = self.view
        if v is None or self.game is not game or self.side != side:
            return None
        behind = _WRITES[0] - self.stamp
        gs, s = game.state, self.state
        gd, sd, vd = gs.__dict__, s.__dict__, v.__dict__
        units, forms, vunits, vforms = gs.units, gs.formations, self.units, self.formations
        if not 0 <= behind <= len(_WRITTEN) or self.roster != _PLACEMENTS["roster"] \
                or len(vd) != self.shape or vd["state"] is not s or len(sd) != self.state_shape \
                or len(gd) != self.game_shape or sd["units"] is not vunits or sd["formations"] is not vforms \
                or units is not self.units_of or forms is not self.forms_of or len(units) != len(vunits) \
                or len(forms) != self.form_count or len(vforms) != self.form_count \
                or vd["options"] != game.options or "result" in vd or "result" in game.__dict__:
            return None  # (other options: the masked containers may be others, limited intelligence)
        hidden = self.hidden
        if behind:
            done, placed = set(), []
            for x in islice(reversed(_WRITTEN), behind):
                kind = type(x)
                if kind is Unit:
                    k = x.id
                    if k in done:
                        continue  # the same unit again
                    u, c = units.get(k), vunits.get(k)
                    if u is not x and c is not x:
                        continue  # another game's (a clone's, another view's)
                    if u is None or c is None:
                        return None  # a unit of the view the game does not have, or gone (a bot's doing)
                    done.add(k)
                    h, status, hid, carrier = c.hex, c.status, c.hidden, c.carried_by
                    refill(c, u)  # in place: the view's indexes and memos hold this object
                    # hidden changes only by a write to the unit (and side is a roster attribute)
                    if u.hidden and u.side != side:
                        if k not in hidden:
                            hidden = hidden | {k}
                        _hide(c)
                    elif k in hidden:
                        hidden = hidden - {k}
                    if h != c.hex or status != c.status or hid != c.hidden or carrier != c.carried_by:
                        placed.append(c)
                elif kind is Formation:
                    k = x.card
                    f = forms.get(k)
                    if k in done or f is not x and vforms.get(k) is not x:
                        continue
                    if f is None:
                        return None
                    done.add(k)
                    vforms[k] = f.copy()
            # a copy's new place (the game's unit moved, or the bot's own write undone) counted as a
            # write of it would be: every memo and index of the view that read where it stood
            # follows (State.by_placement, on_map, the hex index), as a game's own do
            for c in placed:  # _placed(c, c.side), spelt out (a step of a move places one)
                _PLACEMENTS["*"] += 1
                _PLACEMENTS[c.side] = _PLACEMENTS.get(c.side, 0) + 1
                _RECENT.append(c)
        sd["turn"], sd["phase"], sd["visibility"] = gd["turn"], gd["phase"], gd["visibility"]
        names, plain, _, masked = self.groups
        theirs, mine = plain(gd), plain(sd)
        if theirs != mine:
            for k, a, b in zip(names, theirs, mine):
                if a != b:
                    sd[k] = CONTAINERS[k](a)
        if hidden is not self.hidden or masked(gd) != self.masked_source or masked(sd) != self.masked_view:
            _mask(s, game, other(side), hidden)
            self._masks_kept(gs, s, hidden)
        stack = game._stack
        if stack is not self.stack_of or vd["_stack"] is not self.stack_seen:
            self.stack_of = stack
            for d in stack:
                if type(d).seen_by is not _SEEN_AS_IS:
                    stack = tuple(d.seen_by(side) for d in stack)
                    break
            self.stack_seen = vd["_stack"] = stack
        actions, n = vd["actions"], len(game.actions)
        if actions is not self.actions or len(actions) > n or actions and actions[-1] is not SECRET_ACTION:
            actions = self.actions = vd["actions"] = [SECRET_ACTION] * n
        elif len(actions) + 1 == n:
            actions.append(SECRET_ACTION)
        elif len(actions) < n:
            actions.extend([SECRET_ACTION] * (n - len(actions)))
        if vd["events"]:
            vd["events"] = []
        vd["ctx"], vd["seed"], vd["viewer"], vd["_legal_cache"] = game.ctx, 0, side, None
        of = (side, n, gd["turn"])
        dice = vd["dice"]
        if type(dice) is _ViewDice and len(dice.__dict__) == 1:  # the last view's, never rolled
            dice.__dict__["_of"] = of
        else:
            vd["dice"] = _ViewDice(of)
        if gd["_raid_deck"] or gd["_deck_luck"] is not None or sd["_raid_deck"] or sd["_deck_luck"] is not None:
            _order_deck(s, gd, of)
        self.roster, self.stamp = _PLACEMENTS["roster"], _WRITES[0]
        return v


def side_view(game: Game, side: str, copies: ViewCopies | None = None) -> SideView:
    """The view of ``game`` for ``side`` (see the module docstring); ``copies``: a seat's last
    view, brought up to date in place when it can be (ViewCopies)."""
    if copies is not None:
        v = copies.refreshed(game, side)
        if v is not None:
            return v
    enemy = other(side)
    gs = game.state
    hidden = _hidden_ids(gs, enemy)
    units = {k: u.copy() for k, u in gs.units.items()}
    for uid in hidden:
        _hide(units[uid])
    v = game._copy_as(SideView, dice=False, units=units)
    v.viewer = side
    v.seed = 0
    v.events = []
    v.actions = [SECRET_ACTION] * len(game.actions)
    _mask(v.state, game, enemy, hidden)
    # the pending decisions as the side knows them: not the enemy's interrupt declaration (asked
    # again in a look-ahead: the bot models it)
    v._stack = tuple(d.seen_by(side) for d in v._stack)
    of = (side, len(game.actions), gs.turn)
    v.dice = _ViewDice(of)
    if gs.__dict__["_raid_deck"] or gs.__dict__["_deck_luck"] is not None:
        _order_deck(v.state, gs.__dict__, of)
    if copies is not None:
        copies.keep(game, side, v, hidden)
    return v


def _hide(u) -> None:
    """A copy of a hidden unit as the other side knows it: off the map, no hex, no marker. Written
    past the write hook: a copy just made moves nothing that any memo (the game's) would follow."""
    for name, value in _HIDDEN_FACE:
        object.__setattr__(u, name, value)


# every marker and per-turn record a unit on paper could carry: the other side sees none of them
# (an FO's if_spotted, set when it spots, once told which hidden FO had spotted this turn)
_HIDDEN_FACE = (("hex", None), ("status", OFF_MAP), ("start_hex", None), ("facing", 0), ("moved", False),
                ("fired", False), ("flipped", False), ("suppressed", False), ("spotted", None),
                ("if_spotted", False), ("smoked", False), ("opportunity_fired", False), ("flash_kill", False),
                ("flash_kills", 0), ("separated", False), ("experience_bonus", 0), ("pinned", False),
                ("carried_by", None))


def _mask(s, game: Game, enemy: str, hidden) -> None:
    """The view's markers, minefields and raid records (``s``), from the game's (``gs``), as the
    enemy's side knows them: no hidden unit named as an occupant, no marker a hidden unit placed
    (it is on paper with its unit, §12.22, §13.4), no unrevealed minefield's hex, no unmade plan's
    turn, spotting formation or raid card; with limited intelligence, which of the enemy's cards
    are on the stack (_cards_face_down)."""
    d, g = s.__dict__, game.state.__dict__
    markers = d["entrenchments"] = [dict(e) for e in g["entrenchments"]
                                    if not (e.get("on_paper") and e["occupant"] in hidden)]  # Game.on_paper
    bunkers = d["bunkers"] = [dict(b) for b in g["bunkers"]]
    if hidden:
        for marker in markers + bunkers:
            if marker.get("occupant") in hidden:
                marker["occupant"] = None
    # in the order of the map, not of the set-up (which follows the units: it would tell who is where)
    markers.sort(key=_marker_order)
    bunkers.sort(key=_marker_order)
    mines = d["minefields"] = [dict(m) for m in g["minefields"]]
    for m in mines:
        if m["side"] == enemy and not m["revealed"]:
            m["hex"] = None
    raids = d["raids"] = [dict(r) for r in g["raids"]]
    for r in raids:
        if r["side"] == enemy and not r.get("done") and r.get("origin") != "on-call":
            if "turn" in r:
                r["turn"] = None
            if "spotting_card" in r:
                r["spotting_card"] = None
            r.pop("raid_card", None)
    if _face_down(game):
        _cards_face_down(d, game, enemy)


def _face_down(game: Game) -> bool:
    """§6.55 (optional): cards go on the stack face down, their C3 announced."""
    return bool(game.options.get("limited_intelligence"))


def _cards_face_down(d: dict, game: Game, enemy: str) -> None:
    """§6.55: the enemy's cards on the stack lie face down, their C3 announced; the side knows
    which of the enemy's cards are in its hand or on the stack together (every card not yet
    activated this turn), and how many of them lie where with which C3, not which is which. In the
    view, each face-down card is the lowest-numbered of those with its C3 not taken by one under
    it, the enemy's hand the rest, in order; the records of the stack's cards (failed interrupts,
    the windows each had) name them so, and the enemy's failed attempts are not named (the card
    goes back to the hand unseen)."""
    g = game.state.__dict__
    formations = g["formations"]
    pool = sorted(g["hands"][enemy])
    as_seen: dict = {}
    down = [c for c in g["stack"] if formations[c].side == enemy]
    if down:
        pool = sorted(pool + down)
        c3 = {c: game.priority(c)[0] for c in pool}
        for card in down:
            seen = next(c for c in pool if c3[c] == c3[card])  # the card itself is in the pool: one is
            pool.remove(seen)
            as_seen[card] = seen
    d["hands"] = {k: pool if k == enemy else list(v) for k, v in g["hands"].items()}
    d["stack"] = [as_seen.get(c, c) for c in g["stack"]]
    d["failed_interrupts"] = {as_seen.get(top, top): {c for c in cards if formations[c].side != enemy}
                              for top, cards in g["failed_interrupts"].items()}
    d["interrupt_windows"] = {as_seen.get(c, c) for c in g["interrupt_windows"]}
    d["air_windows"] = {(as_seen.get(c, c), side) for c, side in g["air_windows"]}


def _order_deck(s, gd: dict, of: tuple) -> None:
    """The view's raid deck (``s``'s): the game's cards, in the order drawn from the view's phrase
    when first read (state.drawn_order): public things only seed what is to come, so equal views
    draw alike, and no bot foresees the game's deck."""
    sd = s.__dict__
    sd["_raid_deck"], sd["_deck_luck"] = list(gd["_raid_deck"]), None
    order_deck_later(s, _phrase(of))


def _phrase(of: tuple) -> str:
    side, actions, turn = of
    return f"{side}|{actions}|{turn}"


class _ViewDice(DrawnDice):
    """A view's dice (DrawnDice), drawn from the phrase of the view's side, actions played and
    turn, spelt only when first rolled (most views roll none): public things only seed what is to
    come, so equal views roll alike, and no bot foresees the game's dice."""

    def __init__(self, of: tuple):
        self._of = of

    @property
    def _phrase(self) -> str:
        return _phrase(self._of)


def _hidden_ids(state, side: str) -> tuple:
    """The ids of a side's hidden units, memoised while none of that side's units is placed anew
    (hidden is a placement attribute): a view hides them without a walk over every unit."""
    return state.by_placement(("hidden", side), lambda: frozenset(
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
    turn, a bombardment spotted by a formation with an FO); with limited intelligence, which of
    the enemy's cards lie face down on the stack (§6.55: among those of the C3 announced)."""
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
    if _face_down(g):
        _draw_face_down(g, enemy, rng)


def _draw_face_down(g: Game, enemy: str, rng: random.Random) -> None:
    """§6.55: each of the enemy's face-down cards on the stack drawn among its cards in hand or on
    the stack of the same C3 (what was announced), the rest in its hand; the stack's records follow
    the cards' new names."""
    st = g.state
    down = [i for i, c in enumerate(st.stack) if st.formations[c].side == enemy]
    if not down:
        return
    was = [st.stack[i] for i in down]
    pool = sorted(st.hands[enemy] + was)
    c3 = {c: g.priority(c)[0] for c in pool}
    names: dict = {}
    for i, card in zip(down, was):
        drawn = rng.choice([c for c in pool if c3[c] == c3[card]])  # as many of that C3 as lie down
        pool.remove(drawn)
        st.stack[i] = names[card] = drawn
    st.hands[enemy] = pool
    if names:
        st.failed_interrupts = {names.get(k, k): v for k, v in st.failed_interrupts.items()}
        st.interrupt_windows = {names.get(c, c) for c in st.interrupt_windows}
        st.air_windows = {(names.get(c, c), side) for c, side in st.air_windows}


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
