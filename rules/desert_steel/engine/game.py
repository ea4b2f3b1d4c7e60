"""The Desert Steel game engine, basic (§4-§11, §18) and advanced rules (§12-§17 and the
scenarios' special rules: see IMPLEMENTED and missing_rules): a state machine with an
OpenSpiel-like surface — ``legal_actions()``, ``apply(action)``, ``is_terminal()``,
``returns()``, ``clone()``, ``observation(side)``. The state is the board (State) and a stack
of pending questions, frozen values of engine/decisions (``pending``; its top, ``decision``, is
asked now): the legal actions are the top's, an action is the top's to apply.

Every decision a player makes is an action; everything the rules decide (dice, forced
plays, the morale phase) happens inside ``apply`` and is written to the event log.
Choices the rules leave to a player but that the engine makes on their behalf are listed
in NOTES.md: the facing of a mover (towards the last hex entered) and of a firer (towards
its target: an active firer before spotting, an opportunity firer only after a successful
spot), the centre hex of each formation (the one leaving fewest units separated), and which
units go when a hex is overstacked at Morale step 4. Facing is otherwise a player's action:
("face", unit, hexside) once per unit and activation (§8.22); a declared move may become a
move-and-fire with ("move-fire",) (§7).
"""
from __future__ import annotations

import copy
import math
from dataclasses import replace
from typing import Mapping

from ..model import CommandCard, DesertSteel, Scenario
from ..preflight import describe_placements, in_play
from ..rules_tables import SEPARATED_MAY_NOT_MOVE
from ..setup_rules import expected_units
from . import command_cards, scenario_rules, victory
from .actions import typed
from .dice import Dice
from .priority import priority_tables
from .state import EXITED, OFF_MAP, ON_MAP, REMOVED, Formation, State, Unit, new_unit
from .context import (SIDES, TRANSPORT_POOL, Action, Context, EngineError, make_context,
                      missing_rules, other)
from .facing import direction, sector
from .decisions import (Activation, AssaultHex, Command, Decision, Engineer, Interrupt, Load, Lowest, Move,
                        Opportunity, Spotter)
from .raids import RaidsMixin
from .transport import TransportMixin
from .close_combat import CloseCombatMixin
from .fortifications import FortificationsMixin
from .indirect import IndirectFireMixin
from .fire import FireMixin
from .morale import MoraleMixin


# what Game.position() leaves out (see there)
_NOT_POSITION = frozenset({"ctx", "dice", "_legal_cache"})


class Game(RaidsMixin, TransportMixin, CloseCombatMixin, FortificationsMixin, IndirectFireMixin, FireMixin,
           MoraleMixin):
    """One game: the turn sequence, card play and activation, movement here; each rule family's
    operations in its mixin module (fire, indirect, transport, close_combat, fortifications,
    raids, morale)."""

    OPTIONS = ("limited_interruption", "limited_intelligence")

    def __init__(self, model: DesertSteel, scenario: Scenario, setup: Mapping | None, seed: int = 0,
                 dice: Dice | None = None, *, context: Context | None = None, options: Mapping | None = None):
        """``options``: optional rules by name: ``limited_interruption`` (§6.56) and
        ``limited_intelligence`` (§6.55: cards on the stack face down, C3 announced)."""
        self.options = dict(options or {})
        unknown = set(self.options) - set(self.OPTIONS)
        if unknown:
            raise EngineError(f"optional rules not implemented: {', '.join(sorted(unknown))} "
                              f"(available: {', '.join(self.OPTIONS)})")
        self.ctx = context or make_context(model, scenario)
        self.dice = dice or Dice(seed)
        self.seed = seed
        self.state = State(visibility=scenario.visibility)
        self.events: list[dict] = []
        self._bunker_occupants: list[tuple[str, str]] = []  # (unit, hex) set up in a bunker, until placed
        self.actions: list[Action] = []
        self._stack: tuple[Decision, ...] = ()  # bottom first; see the decision API below
        self._legal_cache: tuple | None = None  # (decision, actions played, its legal actions)
        self._setup(setup or {})
        if self.ctx.advanced:
            self.state.smoke_points = {s: int(scenario.raw["sides"][s].get("smoke", 0) or 0) for s in SIDES}
        self._init_raids(setup or {})
        self._plan_raids()

    # --- the pending decisions (engine/decisions) ----------------------------------------------

    @property
    def decision(self) -> Decision | None:
        """The question the game asks now (the top of ``pending``); None once the game is over."""
        return self._stack[-1] if self._stack else None

    @property
    def pending(self) -> tuple[Decision, ...]:
        """The stack of pending decisions, bottom first: e.g. an activation, the move of one of
        its units, the enemy's opportunity-fire question about that move."""
        return self._stack

    @property
    def activation(self) -> Activation | None:
        """§6.5: the activation under way (under the decisions about one of its operations), if any."""
        return self._find(Activation)

    @property
    def mode(self) -> str:
        """The kind of the pending decision ("over" once the game has ended)."""
        return self._stack[-1].kind if self._stack else "over"

    @property
    def side_to_act(self) -> str | None:
        return self._stack[-1].side if self._stack else None

    def ask(self, *decisions: Decision) -> None:
        """Put the game at a decision (tests and tools building a position): ``decisions`` are
        the new pending stack, bottom first; the last is asked now. E.g.
        ``game.ask(Activation("allied", cards=(429,)))`` or
        ``game.ask(Activation("axis", (161,)), Move("axis", unit="161.1", mp=10))``."""
        if not decisions or not all(isinstance(d, Decision) for d in decisions):
            raise EngineError("ask() needs one or more decisions (engine/decisions)")
        for d in decisions:
            if d.side not in SIDES:
                raise EngineError(f"ask(): {d.kind} asked of {d.side!r}, not a side ({', '.join(SIDES)})")
            units = [getattr(d, f, None) for f in ("unit", "mover")] + list(getattr(d, "loaded", ()))
            unknown = [u for u in units if u and u not in self.state.units] + \
                [c for c in getattr(d, "cards", ()) if c not in self.state.formations]
            if unknown:
                raise EngineError(f"ask(): {d.kind} names {', '.join(map(str, unknown))}, not in this game")
        self._stack = tuple(decisions)
        self._legal_cache = None

    # the engine's own moves on the stack: a new question of the sequence of play replaces the
    # stack (_reset); a question about what is under way goes on top (_push) or takes the place of
    # the top one (_swap); an answered operation returns to its activation (_back_to_activation)

    def _reset(self, d: Decision) -> None:
        self._stack = (d,)

    def _push(self, d: Decision) -> None:
        self._stack += (d,)

    def _swap(self, d: Decision) -> None:
        self._stack = self._stack[:-1] + (d,)

    def _pop(self) -> Decision:
        top = self._stack[-1]
        self._stack = self._stack[:-1]
        return top

    def _find(self, cls) -> Decision | None:
        """The topmost pending decision of class ``cls``."""
        for d in reversed(self._stack):
            if isinstance(d, cls):
                return d
        return None

    def _replace(self, old: Decision, new: Decision) -> None:
        """``new`` in the place of ``old`` (a decision under the top: an activation's cancelled)."""
        i = max(i for i, d in enumerate(self._stack) if d is old)
        self._stack = self._stack[:i] + (new,) + self._stack[i + 1:]

    def _on_activation(self, d: Decision) -> None:
        """``d`` just above the activation (what was above it is answered)."""
        i = max(i for i, x in enumerate(self._stack) if isinstance(x, Activation))
        self._stack = self._stack[:i + 1] + (d,)

    def _cards(self, default=()) -> tuple:
        """The cards the current activation is about (or the lowest cards to choose from)."""
        for d in reversed(self._stack):
            if isinstance(d, (Activation, Lowest)):
                return d.cards
        return default

    # --- OpenSpiel-like surface ------------------------------------------------------------

    def current_player(self) -> str | None:
        return self.side_to_act

    def is_terminal(self) -> bool:
        return not self._stack

    def _legal_of(self, d: Decision) -> list[Action]:
        """``d``'s legal actions now, kept for legal_actions() while ``d`` is asked with no action
        between (the engine looks at them to decide whether to ask at all: not twice)."""
        legal = d.legal(self)
        self._legal_cache = (d, len(self.actions), legal)
        return legal

    def _legal(self) -> list[Action]:
        """The pending decision's legal actions, computed once per decision value (not copied)."""
        stack, cached = self._stack, self._legal_cache
        if cached is not None and stack and cached[0] is stack[-1] and cached[1] == len(self.actions):
            return cached[2]  # the usual case: asked twice a decision (legal_actions, apply)
        d = stack[-1] if stack else None
        cached = self._legal_cache = (d, len(self.actions), d.legal(self) if d is not None else [])
        return cached[2]

    def legal_actions(self) -> list[Action]:
        return list(self._legal())

    def apply(self, action: Action) -> None:
        """``action``: one of legal_actions(), or a tuple or list equal to one (a log's). The
        legal actions are plain tuples (typing each one as it is listed would cost random playouts
        some 15 %); the one played is typed here (engine/actions.py), once: the game's ``actions``
        and the decision's ``apply`` get the typed action, equal to the plain one."""
        plain = action if type(action) is tuple else tuple(action)  # a log's list, or a typed one
        if plain not in self._legal():
            raise EngineError(f"illegal action {plain!r} in mode {self.mode} for {self.side_to_act}")
        if not isinstance(action, Action):
            action = typed(plain)
        self.actions.append(action)
        d = self._stack[-1]  # the decision (the game is not over: the action was legal)
        # self.log("action", ...) spelt out: once a decision. The event holds the plain tuple (JSON
        # writes it as a list): a dict of plain tuples of strings and numbers is one the cyclic
        # collector stops tracking, where a list (or a typed tuple, a subclass) keeps every event
        # of the game in each full collection's walk.
        self.events.append({"t": self.state.turn, "e": "action", "side": d.side, "action": plain})
        d.apply(self, action)

    def returns(self) -> dict:
        """The result once terminal: winner, level, points per side (see victory.py)."""
        if not self.is_terminal():
            raise EngineError("the game is not over")
        return self.result

    def clone(self) -> "Game":
        """A copy that owns all its mutable state: nothing done to it reaches this game. The
        pending decisions are frozen values: the copy shares them, and their legal actions."""
        g = self._copy_as(type(self))
        g.events = list(self.events)
        g.actions = list(self.actions)
        g._legal_cache = self._legal_cache
        return g

    def position(self) -> dict:
        """Everything a game played on from here reads, by name: the state, the pending decisions,
        the logs, the options; not the static context (the scenario's, shared by every game on
        it), the dice (a game played ahead brings its own) nor the legal actions' cache (made from
        the rest). Values are the game's own, not copies: for a key of the position (a bot's memo
        of what it found by playing ahead), never to write to."""
        return {k: v for k, v in vars(self).items() if k not in _NOT_POSITION}

    def _copy_as(self, cls, dice: bool = True, units: dict | None = None) -> "Game":
        """``dice=False``: the copy gets no dice (a side's view draws its own); ``units``: the
        copy's, already copied (State.copy)."""
        g = cls.__new__(cls)
        g.ctx = self.ctx
        g.dice = self.dice.copy() if dice else None
        g.seed = self.seed
        g.options = dict(self.options)
        g.state = self.state.copy(units)
        g._stack = self._stack
        g._legal_cache = None
        if hasattr(self, "result"):
            g.result = copy.deepcopy(self.result)
        return g

    def observation(self, side: str) -> dict:
        """What a side may know: everything on the map (§8.55), its own hand, the stack."""
        s = self.state
        return {
            "turn": s.turn, "mode": self.mode, "to_act": self.side_to_act, "visibility": s.visibility,
            "hand": sorted(s.hands[side]), "opponent_cards_in_hand": len(s.hands[other(side)]),
            "stack": [{"face_down": True, "c3": "ABCDEF"[5 - self.priority(c)[0]]} if self._face_down(c, side)
                      else {"card": c} for c in s.stack],
            "units": [{"id": u.id, "card": u.card, "type": u.type.id, "side": u.side, "hex": u.hex,
                       "status": u.status, "flipped": u.flipped, "suppressed": u.suppressed,
                       "separated": u.separated} for u in s.units.values()
                      if not (u.hidden and u.side != side)],  # hidden FOs are on paper (§12.21)
            "shaken": sorted(c for c, f in s.formations.items() if f.shaken),
            "fire_zones": [dict(z) for z in s.fire_zones], "smoke": list(s.smoke),
            "smoke_points": dict(s.smoke_points),
            # a marker is on the map; a hidden enemy in it is not (§12.21): no occupant named
            "entrenchments": sorted((dict(e, occupant=None) if self._unseen(e.get("occupant"), side) else dict(e)
                                     for e in s.entrenchments if not self.on_paper(e, side)),
                                    key=lambda e: (e["hex"], str(e["occupant"]))),
            "loaded": {u.id: u.carried_by for u in s.units.values() if u.carried_by},
            "raids": [dict(r) for r in s.raids if r["side"] == side],  # the secret raid record (§16.21)
            "raid_deck": len(s.raid_deck),
        }

    def _unseen(self, uid, side: str) -> bool:
        u = self.state.units.get(uid) if uid is not None else None
        return u is not None and u.hidden and u.side != side

    def log(self, kind: str, **data) -> None:
        """An event: a plain dict, cheap on the hot path; its kind's type in engine/outcomes.py says
        what it holds (readers type it with outcomes.from_json)."""
        self.events.append({"t": self.state.turn, "e": kind, **data})

    # --- set up --------------------------------------------------------------------------

    def _setup(self, setup: Mapping) -> None:
        model, scen, s = self.ctx.model, self.ctx.scenario, self.state
        placed = {side: list(setup.get("sides", {}).get(side, {}).get("placements", ())) for side in SIDES}
        for side in SIDES:
            hide = scen.sides[side].raw.get("hidden_observers", {}).get("allowed", True)
            groups = [(g, 1, g.get("setup"), g.get("enter")) for g in scen.sides[side].groups]
            groups += [(r, r["turn"], None, {"turn": r["turn"], "zone": r.get("zone")})
                       for r in scen.sides[side].reinforcements]
            for group, arrival, setup_zone, enter in groups:
                for number in group["cards"]:
                    card = model.cards[number]
                    kind = "command" if isinstance(card, CommandCard) else "combat"
                    zone = frozenset()
                    if enter and enter.get("zone") is not None:
                        zone = self.ctx.field.zone(enter["zone"])
                    turn = enter["turn"] if enter else arrival
                    s.formations[number] = Formation(number, side, kind, arrival=turn, entry_zone=zone)
                    if kind == "combat":
                        self._make_units(side, number, setup_zone is not None, placed[side], enter is not None,
                                         hide=hide and arrival == 1)
            for under in scen.sides[side].raw.get("undermanned", ()):
                if under["affects_morale"]:
                    s.formations[under["card"]].losses += sum(r["count"] for r in under["remove"])
        for side in SIDES:
            self._make_transports(side, setup.get("sides", {}).get(side, {}))
            self._make_fortifications(side, setup.get("sides", {}).get(side, {}))
            entering = scen.sides[side].groups and all(g.get("enter") for g in scen.sides[side].groups)
            if entering and self.ctx.advanced and TRANSPORT_POOL[side] not in s.formations:
                self._transports_off_map(side)
            elif self.ctx.advanced:
                given = sum(t["count"] for t in scen.sides[side].raw.get("transports", ()) if t.get("turn", 1) <= 1)
                placed_n = len(setup.get("sides", {}).get(side, {}).get("transports", ()))
                if placed_n < given:
                    self.log("transports-not-placed", side=side, given=given, placed=placed_n, section="18.6")
            self._transports_arriving(side)
        if any(placed.values()):
            leftover = [p for side in SIDES for p in placed[side]]
            raise EngineError("the setup places units that are not on the scenario's cards: "
                              + describe_placements(self.ctx.model, leftover))
        scenario_rules.check_visibility(scen)
        scenario_rules.start_shaken(self)

    def _make_units(self, side, number, sets_up: bool, placements: list, enters: bool, hide: bool = False) -> None:
        units = expected_units(self.ctx.model, self.ctx.scenario, side, number)
        index = 0
        for type_id, count in sorted(units.items()):
            unit_type = self.ctx.model.unit_types[type_id]
            if not in_play(unit_type.unit_class, self.ctx.advanced):
                self.log("not-in-basic-rules", card=number, type=type_id, section="2.11")
                for _ in range(count):  # set aside: a setup may place their counters, as check-setup allows
                    match = next((p for p in placements if p["card"] == number and p["type"] == type_id), None)
                    if match is not None:
                        placements.remove(match)
                continue  # the basic rules use vehicles only (§2.11)
            for _ in range(count):
                index += 1
                uid = f"{number}.{index}"
                hex_, facing, status = None, 0 if side == "allied" else 3, OFF_MAP
                if sets_up:
                    match = next((p for p in placements if p["card"] == number and p["type"] == type_id), None)
                    if match is None:
                        raise EngineError(f"the setup does not place {type_id} of card {number}")
                    placements.remove(match)
                    if "loaded_in" in match:
                        raise EngineError("setting up loaded (§18.6) is not implemented yet")
                    if match.get("in_bunker"):  # §15.21: the bunker itself is a fortification of the setup
                        self._bunker_occupants.append((uid, self.ctx.field.board.resolve(match["hex"])))
                    if match.get("entrenched"):  # §18.4: entrenchments placed at set-up, finished
                        self.state.entrenchments.append({"hex": self.ctx.field.board.resolve(match["hex"]),
                                                         "occupant": uid, "done": True, "turn": 0})
                    hex_ = self.ctx.field.board.resolve(match["hex"])
                    facing = match.get("facing", facing)
                    status = ON_MAP
                # §12.21: FOs of the initial forces set up on the map may be hidden (the engine always
                # hides them when the scenario allows); entering FOs and reinforcements never are.
                # A scenario may hide a whole formation the same way (XII's B/102, until its first operation).
                hidden = sets_up and match.get("hidden", True) and (  # a setup may place a unit openly
                    (hide and unit_type.unit_class == "forward-observer")
                    or scenario_rules.hidden_by_rule(self.ctx.scenario, side, number))
                self.state.units[uid] = new_unit(uid, number, unit_type, side, hex_, facing, status, hidden=hidden)

    # --- raids (§16) ---------------------------------------------------------------------------

    AIR_PRIORITY = {"german": 3, "allied": 2, "italian": 1}  # §16.22: the highest number strikes first

    def start_turn(self) -> None:
        """§4.1, §6.1: a new turn: the turn's visibility, each side's hand dealt (its formations that have
        arrived, are not shaken and have units left), the stack cleared, then the first card played."""
        s = self.state
        s.visibility = scenario_rules.visibility(self.ctx.scenario, s.turn)  # the reinforcement phase (XIII)
        self.log("turn", visibility=s.visibility)
        for side in SIDES:
            s.hands[side] = sorted(c for c, f in s.formations.items()
                                   if f.side == side and f.arrival <= s.turn and not f.shaken
                                   and f.kind != "transport" and (f.kind == "command" or self._has_units(c)))
        for u in s.units.values():  # §13.3 step 1: transports load what shares their hex now
            start = u.hex if u.status == ON_MAP else None
            if u.start_hex is not start:  # most stand where they stood: no call of the write hook
                u.start_hex = start
        s.stack.clear()
        s.played.clear()
        s.interrupt_windows.clear()
        s.failed_interrupts.clear()
        self._next_card()

    def _has_units(self, card: int) -> bool:
        return any(u.status in (ON_MAP, OFF_MAP) for u in self.state.of_card(card))

    def priority(self, card: int) -> tuple:
        """§6.43: the card's priority key (C3, command over combat, experience, nationality)."""
        tables = self.ctx.memo.get("priorities") or priority_tables(self.ctx)  # asked ~2,000 times a random playout
        return tables[self.state.formations[card].side][card]

    def _next_card(self) -> None:
        s = self.state
        if s.stack:
            self._open_interrupts()
            return
        formations, priority = s.formations, self.priority
        candidates = [(priority(c), c) for side in SIDES for c in s.hands[side] if formations[c].kind == "combat"]
        if not candidates:
            self.morale_phase()
            return
        lowest = min(candidates)[0]
        owner_cards = [c for p, c in candidates if p == lowest]
        owner = s.formations[owner_cards[0]].side
        if len(owner_cards) > 1:
            self._reset(Lowest(owner, tuple(owner_cards)))
            return
        self._play(owner_cards[0], forced=True)

    def _legal_lowest(self, d: Lowest):
        return [("play", c) for c in d.cards]

    def _do_lowest(self, d: Lowest, action):
        self._play(action[1], forced=True)

    def _play(self, card: int, forced: bool = False) -> None:
        s = self.state
        side = s.formations[card].side
        s.hands[side].remove(card)
        s.stack.append(card)
        self.log("play", side=side, card=card, forced=forced)
        self._open_interrupts()

    # interrupts (§6.41-6.43): both sides declare; simultaneous declarations resolved by priority

    def interrupt_cards(self, side: str) -> list[int]:
        """§6.41-6.43: cards a side may try to interrupt with. With limited intelligence (§6.55) the top
        card may be face down with only its C3 announced: any card of equal or better C3 may
        try (except one that already failed against it)."""
        s = self.state
        top_card = s.stack[-1]
        if self._face_down(top_card, side):
            top_c3 = self.priority(top_card)[0]
            failed = s.failed_interrupts.get(top_card, ())
            return [c for c in s.hands[side] if self.priority(c)[0] >= top_c3 and c not in failed]
        priority = self.priority
        top = priority(top_card)
        return [c for c in s.hands[side] if priority(c) > top]

    def _face_down(self, card: int, viewer: str) -> bool:
        return bool(self.options.get("limited_intelligence")) and self.state.formations[card].side != viewer

    def _open_interrupts(self) -> None:
        if self.state.raids and self._ask_air():
            return
        top = self.state.stack[-1]
        if self.options.get("limited_interruption"):
            if top in self.state.interrupt_windows:  # §6.56: one interruption attempt per card
                self._activate_top()
                return
            self.state.interrupt_windows.add(top)
        self._ask_interrupt(())

    def _ask_interrupt(self, answers: tuple) -> None:
        """Ask each side in turn that has a card to try; ``answers``: (side, card or None) given."""
        answered = dict(answers)  # the sides that answered (this loop adds only the side it asks about)
        for side in SIDES:
            if side in answered:
                continue
            cards = self.interrupt_cards(side)
            if cards:  # a card to try besides "pass": its actions kept for legal_actions()
                question = Interrupt(side, answers)
                self._reset(question)
                self._legal_cache = (question, len(self.actions), self._interrupt_actions(cards))
                return
            answers += ((side, None),)
        self._resolve_interrupts(answers)

    def _legal_interrupt(self, d: Interrupt):
        return self._interrupt_actions(self.interrupt_cards(d.side))

    @staticmethod
    def _interrupt_actions(cards: list[int]) -> list:
        return [("pass",)] + [("interrupt", c) for c in cards]

    def _do_interrupt(self, d: Interrupt, action):
        self._ask_interrupt(d.declared + ((d.side, action[1] if action[0] == "interrupt" else None),))

    def _resolve_interrupts(self, answers: tuple) -> None:
        declared = [c for _, c in answers if c is not None]
        if self.options.get("limited_intelligence"):
            top = self.state.stack[-1]
            for c in list(declared):  # disclosure (§6.55): a card that proves lower goes back to hand
                if self.priority(c) <= self.priority(top):
                    declared.remove(c)
                    self.state.failed_interrupts.setdefault(top, set()).add(c)
                    self.log("interrupt-failed", card=c, against=top, section="6.55")
            if self.options.get("limited_interruption") and not declared and \
                    any(c is not None for _, c in answers):
                self._activate_top()  # §6.56: the failed attempt is not repeated; the card activates
                return
            if not declared and any(c is not None for _, c in answers):
                self._ask_interrupt(())  # asked again, the failed cards excluded
                return
        if not declared:
            self._activate_top()
            return
        winner = max(declared, key=self.priority)
        if len(declared) > 1:
            self.log("simultaneous-interrupt", cards=declared, winner=winner, section="6.43")
        self._play(winner)

    # --- activation (§6.5) ---------------------------------------------------------------------

    def _activate_top(self) -> None:
        s = self.state
        card = s.stack.pop()
        s.played.add(card)
        f = s.formations[card]
        self.log("activate", side=f.side, card=card)
        if f.kind == "command":
            self._reset(Command(f.side, card))
            if not self._legal_of(self.decision)[:-1]:
                self.log("set-aside", card=card, reason="nothing to activate or rally")
                self._next_card()
            return
        self._begin_activation([card])

    def _begin_activation(self, cards: list[int]) -> None:
        side = self.state.formations[cards[0]].side
        self._reset(Activation(side, tuple(cards)))
        if self.state.raids and self._start_bombardments(cards):
            return
        if self._only_facings_left(self._legal_of(self.decision)) and not self._unentered(cards):
            self.log("set-aside", cards=cards, reason="no unit can operate", section="6.51")
            self._next_card()

    def _subordinates(self, card: int) -> list[int]:
        return [c.number for c in self.ctx.model.cards[card].subordinates]

    def _legal_command(self, d: Command):
        card = d.card
        cmd = self.ctx.model.cards[card]
        subs = [n for n in self._subordinates(card) if n in self.state.formations]
        return command_cards.choices(cmd, subs, lambda n: self.state.formations[n].shaken, self.operable)

    def _do_command(self, d: Command, action):
        if action[0] == "decline":
            self._next_card()
        elif action[0] == "rally":
            self._rally_by_command(d.card)
            self._next_card()
        else:
            self._begin_activation(list(action[1]))

    def _rally_by_command(self, card: int) -> None:
        for n in self._subordinates(card):
            f = self.state.formations.get(n)
            if f is None or not f.shaken:
                continue
            if self._formation_check(n, "rally by command card", section="6.52"):
                f.shaken, f.must_replay = False, True
                for u in self.units_of(n):
                    if not u.suppressed:
                        u.flipped = False
                self.state.hands[f.side].append(n)

    def units_of(self, card: int) -> list[Unit]:
        """§6.2: the units of formation ``card``."""
        return list(self.state.of_card(card))  # memoised while no unit changes card, side or type

    def operable(self, card: int) -> bool:
        """§6.51: whether a unit of formation ``card`` may operate (else its card is set aside)."""
        s = self.state
        arriving = s.formations[card].arrival == s.turn
        for u in s.of_card(card):  # u.ready or an arrival, spelt out (asked for each subordinate)
            status = u.status
            if (status == ON_MAP and not u.flipped and not u.suppressed) or (status == OFF_MAP and arriving):
                return True
        return False

    def _unentered(self, cards) -> list[Unit]:
        s = self.state
        return [u for c in cards if s.formations[c].arrival == s.turn for u in s.of_card(c)
                if u.status == OFF_MAP and not u.flipped and not u.type.towed]

    def _legal_activation(self, d: Activation):
        out = []
        if self.ctx.advanced:
            for u in self.state.by_placement("pool transports", lambda: tuple(
                    x for x in self.state.units.values() if x.card < 0), ("roster",)):
                if u.side == d.side and self.loadable(u):  # §13.31: they join any activation
                    out.append(("op", u.id, "transport"))
        s, adv = self.state, self.ctx.advanced
        raids, cancelled, append = s.raids, d.cancelled, out.append
        unentered = False  # _unentered(d.cards), found on the way
        for card in d.cards:
            arriving = s.formations[card].arrival == s.turn
            for u in s.of_card(card):  # _units_of(card), memoised
                t, status, uid = u.type, u.status, u.id
                if status == OFF_MAP and arriving and not u.flipped:
                    if not t.towed:  # §12.3: a towed gun enters only in tow
                        append(("op", uid, "move"))
                        unentered = True
                    if t.formation_transport and adv and self.loadable(u):
                        append(("op", uid, "transport"))  # §13.32, §18.6: a Carrier or Jeep tows it in
                    continue
                if status != ON_MAP or u.flipped or u.suppressed:  # not u.ready, spelt out (asked per unit)
                    continue
                if not t.towed and not (u.pinned and self._pinned(u)) \
                        and not (u.separated and self.may_not_move(u)):  # §12.3, §14.11, §11.5
                    append(("op", uid, "move"))
                if adv and t.unit_class == "infantry" and self.assault_hexes(u):
                    append(("op", uid, "assault"))
                av = self.factor(u, True)  # _fireable(u), its AV factor read once
                if (av is not None or self.factor(u, False) is not None) and uid not in cancelled:
                    append(("op", uid, "fire"))
                    if not u.flash_kill and av is not None and t.is_vehicle:
                        append(("op", uid, "move-fire"))
                    if adv and t.indirect_fire and \
                            (self._has_indirect_plan(u) or (self._may_smoke(u, True) and self.spotters(u))):
                        append(("op", uid, "indirect"))
                if adv:  # entrenching, engineers and overruns are advanced rules (§13.4, §15.4, §14.2)
                    if self.may_entrench(u):
                        append(("op", uid, "entrench"))
                    if self._may_engineer(u):
                        append(("op", uid, "engineer"))  # §15.4
                    if self._may_overrun(u):
                        append(("op", uid, "overrun"))
                if raids and self._may_call(u):
                    append(("op", uid, "call-bombardment"))  # §16.35
                if adv and t.formation_transport and self.loadable(u):
                    append(("op", uid, "transport"))  # §13.32: Carriers and Jeeps
        if not unentered or not any(a[2] == "move" for a in out):
            out.append(("end",))
        return out + self._legal_facings(d)

    def _legal_facings(self, d: Activation) -> list:
        """§8.22: "Une unité peut changer son orientation à chaque fois que sa formation est activée",
        without an operation and without being flipped: ("face", unit, hexside 0-5, 0 up the page,
        clockwise), once per unit and activation. Not in a bunker (its facing is fixed, §15.22), not
        carried, not hidden (an FO on paper has no counter to turn)."""
        done = d.faced
        out = []
        # the five actions of a unit facing one way, made once per context: asked at every activation
        faces = self.ctx.memo.get("faces")
        if faces is None:
            faces = self.ctx.memo["faces"] = {}
        bunkers = self.state.bunkers
        for card in d.cards:
            for u in self.state.of_card(card):
                if u.status != ON_MAP or u.carried_by or u.hidden or u.id in done or \
                        (bunkers and self.bunker_of(u) is not None):
                    continue
                by_facing = faces.get(u.id)  # the unit's turns by the facing they start from
                if by_facing is None:
                    by_facing = faces[u.id] = {}
                turns = by_facing.get(u.facing)
                if turns is None:
                    turns = by_facing[u.facing] = tuple(("face", u.id, side) for side in range(6) if side != u.facing)
                out += turns
        return out

    @staticmethod
    def _only_facings_left(legal: list) -> bool:
        """Nothing left to operate: the activation ends by itself (facing changes alone keep no
        formation waiting, §8.22; NOTES.md)."""
        return all(a[0] in ("end", "face") for a in legal)

    def _do_activation(self, d: Activation, action):
        if action[0] == "end":
            self.log("end-activation", cards=list(d.cards))
            self._next_card()
            return
        if action[0] == "face":  # §8.22: no operation, the unit is not flipped
            u = self.state.units[action[1]]
            u.facing = action[2]
            turned = d.turned(u.id)
            self._swap(turned)
            self.log("face", unit=u.id, facing=u.facing, section="8.22")
            self._legal_after_facing(d, turned, u.id)
            return
        _, uid, kind = action
        u = self.state.units[uid]
        scenario_rules.reveal_on_operation(self, u)  # XII: hidden until its first operation
        if kind == "call-bombardment":
            self._call_bombardment(u)
        elif kind == "fire":
            self._start_targeting(u, move_fire=False)
        elif kind == "assault":
            self._push(AssaultHex(d.side, uid))
        elif kind == "transport":
            self._push(Load(d.side, uid))
        elif kind == "entrench":
            self.entrench(u)
            self._finish_operation(u)
        elif kind == "engineer":
            self._push(Engineer(d.side, uid))
        elif kind == "indirect":
            spotters = self.spotters(u) if self._may_smoke(u, True) else [sp for sp, _ in self.indirect_plans(u)]
            self._push(Spotter(d.side, uid, tuple(sorted({sp.id for sp in spotters}))))
        else:
            mp = self.move_fire_mp(u) if kind == "move-fire" else self.ctx.field.allowance(u.type)
            move = Move(d.side, uid, kind, mp, entering=u.status == OFF_MAP,
                        overrun="pending" if kind == "overrun" else None)
            self._push(move)
            if u.status == OFF_MAP and self._legal_of(move) == [("stop",)]:
                self.log("cannot-enter", unit=uid, reason="every entry hex is out of reach")
                u.flipped = True
                self._back_to_activation()

    def _legal_after_facing(self, d: Activation, turned: Activation, uid: str) -> None:
        """In the basic rules, with no raids, a facing change (§8.22) changes no unit's operations
        (they read no facing there: the advanced rules' assaults, overruns or spotters may): the
        activation's actions are the ones it had, less the turned unit's facings. Kept for
        legal_actions() (apply() listed them just before this action: the cache holds them)."""
        cached = self._legal_cache
        if cached is not None and cached[0] is d and cached[1] == len(self.actions) - 1 \
                and not self.ctx.advanced and not self.state.raids:
            self._legal_cache = (turned, len(self.actions),
                                 [a for a in cached[2] if a[0] != "face" or a[1] != uid])

    def _back_to_activation(self) -> None:
        """The operation is over: its activation is asked again (or ends, nothing left to do)."""
        stack = self._stack
        i = len(stack) - 1
        while not isinstance(stack[i], Activation):  # the topmost activation (_find's), and what is above it gone
            i -= 1
        d = stack[i]
        self._stack = stack[:i + 1]
        if self._only_facings_left(self._legal_of(d)) and not self._unentered(d.cards):
            self.log("end-activation", cards=list(d.cards), reason="no unit left to operate")
            self._next_card()

    def _finish_operation(self, u: Unit, flash: bool = False) -> None:
        """Flip the unit (§7.1) unless its fire just scored a flash kill (§9.36: ``flash``)."""
        if not flash and u.status in (ON_MAP, OFF_MAP):
            u.flipped = True
            if u.flash_kill:  # mostly not: no call of the write hook
                u.flash_kill = False
        self._back_to_activation()

    # --- movement (§8) -------------------------------------------------------------------------

    def may_not_move(self, u: Unit) -> bool:
        """§11.5: separated Green non-vehicles, "tout déplacement leur est en outre interdit": no move,
        no close assault into another hex, no ride in a transport (NOTES.md)."""
        if not u.separated:
            return False
        # a pure function of the unit's card, experience upgrade and type (separation_key's
        # inputs): memoised per context, the type checked by identity (asked at every activation)
        memo = self.ctx.memo.get("may_not_move")
        if memo is None:
            memo = self.ctx.memo["may_not_move"] = {}
        key = (u.card, u.experience_bonus, id(u.type))
        hit = memo.get(key)
        if hit is None or hit[0] is not u.type:
            hit = memo[key] = (u.type, self.separation_key(u) in SEPARATED_MAY_NOT_MOVE)
        return hit[1]

    def _legal_move(self, d: Move):
        u = self.state.units[d.unit]
        if u.status == OFF_MAP:  # arrival cannot be delayed (§5.1): no stopping before entering
            card = u.card if u.card >= 0 else self.state.units[d.loaded[0]].card  # §18.6
            return list(self._entry_steps(u, self.state.formations[card].entry_zone)) or [("stop",)]
        t = u.type
        if d.loaded or d.overrun == "pending" or self.state.wire or (self.ctx.advanced and not t.is_vehicle):
            return self._legal_move_now(u, d, self._may_become_move_fire(u, d))  # enemy units around read live
        # else the terrain's steps from this hex, within the move's figures (the enemy units matter not)
        memo = self.ctx.memo.get("steps_from")  # _steps_from(u), its memo read here (a hot path)
        hit = memo.get((u.hex, id(t), u.side)) if memo is not None else None
        first_steps, later_steps, numeric, max_cost, edges, exit_cost = \
            hit[1] if hit is not None and hit[0] is t else self._steps_from(u)
        mp, spent = d.mp, d.spent
        if d.steps == 0:
            out = list(first_steps)  # the first step is always allowed (§8), "all" included
        elif spent + max_cost <= mp:
            out = list(later_steps)  # every step within reach (the usual case)
        else:
            out = [step for cost, step in numeric if spent + cost <= mp]
            if edges and spent + exit_cost <= mp:
                out += edges
        if self._may_become_move_fire(u, d):
            out.append(("move-fire",))
        out.append(("stop",))
        return out

    def _steps_from(self, u: Unit) -> tuple:
        """What _legal_move_now reads of the terrain for ``u`` in its hex, its wire and the enemy
        units apart: the actions of a first step (any affordable cost, "all" included: steps, then
        exits), of a later step when all numeric costs fit, the (cost, step) of the numeric costs
        in the board's order, their highest (0 when none), and the exit actions with their cost
        (none when the unit cannot exit there). Memoised per context by hex, unit type (checked
        by identity) and side: a pure function of the terrain and the scenario, asked at every step."""
        memo = self.ctx.memo.get("steps_from")
        if memo is None:
            memo = self.ctx.memo["steps_from"] = {}
        key = (u.hex, id(u.type), u.side)
        hit = memo.get(key)
        if hit is not None and hit[0] is u.type:
            return hit[1]
        steps = [(cost, step) for _, cost, step in self._step_costs(u) if cost != "prohibited"]
        numeric = tuple((cost, step) for cost, step in steps if cost.__class__ is not str)
        edges, exit_cost = self._exit_edges(u.hex), None
        if edges:
            exit_cost = self.ctx.field.exit_cost(u.type, u.hex)
        edges = edges if exit_cost is not None else ()
        costs = [cost for cost, _ in numeric] + ([exit_cost] if edges else [])
        value = (tuple(step for _, step in steps) + edges, tuple(step for _, step in numeric) + edges, numeric,
                 max(costs, default=0), edges, exit_cost)
        memo[key] = (u.type, value)
        return value

    def _legal_move_now(self, u: Unit, d: Move, may_fire: bool) -> list:
        f = self.ctx.field
        mp, spent = d.mp, d.spent
        out = []
        first = d.steps == 0
        carrying = bool(d.loaded)
        here = self.state.here
        infantry_rule = not u.type.is_vehicle and self.ctx.advanced
        # the enemy's units are looked for only in the hexes it holds: the hex index, brought up
        # to date at each step of a move, is read only there
        held = self.state.held(other(u.side)) if carrying or infantry_rule else ()
        for n, cost, step in self._step_costs(u):
            if cost.__class__ is str and (cost == "prohibited" or (cost == "all" and not first)):
                continue
            if n not in held:
                pass
            elif carrying and any(e.side != u.side and e.type.unit_class != "forward-observer" and not e.hidden
                                for e in here(n)):
                continue  # §13.35: a transport never enters an enemy-occupied hex (FOs excepted)
            elif infantry_rule and any(
                    e.side != u.side and e.type.is_vehicle and e.type.transport_capacity not in ("truck", "motorcycle")
                    and not e.hidden for e in here(n)):
                continue  # §14: only a close assault takes infantry into a hex with enemy vehicles
            if first or cost == "all" or spent + cost <= mp:
                out.append(step)
        if d.overrun == "pending":
            out += [("overrun", n) for n in f.board.neighbours(u.hex) if self.overrun_cost(u, n) is not None]
        edges = self._exit_edges(u.hex)
        if edges:
            exit_cost = f.exit_cost(u.type, u.hex)
            if exit_cost is not None and (first or spent + exit_cost <= mp):
                out += edges
        if may_fire:
            out.append(("move-fire",))
        out.append(("stop",))
        return out

    def _entry_steps(self, u: Unit, zone: frozenset) -> tuple:
        """The ("step", hex) actions of the entry hexes ``u`` may enter (§5.3), in the hexes' order:
        memoised per context by zone, unit type (checked by identity, as _step_costs) and side
        while this game has no wire (a pure function of the terrain and the scenario then; an
        entering unit asks at every decision until it is on the map)."""
        if self.state.wire:
            return self._entry_steps_now(u, zone)
        memo = self.ctx.memo.get("entry_steps")
        if memo is None:
            memo = self.ctx.memo["entry_steps"] = {}
        key = (zone, id(u.type), u.side)
        hit = memo.get(key)
        if hit is None or hit[0] is not u.type:
            hit = memo[key] = (u.type, self._entry_steps_now(u, zone))
        return hit[1]

    def _entry_steps_now(self, u: Unit, zone: frozenset) -> tuple:
        return tuple(("step", h) for h in sorted(zone)
                     if self.enter_cost(u, h, h) != "prohibited" and self.may_enter_zone(u, h))

    def _exit_edges(self, hex_: str) -> tuple:
        """The ("exit", edge) actions of the map edges next to ``hex_`` (§8.4), in the compass
        order north, east, south, west; memoised per context (asked at every step)."""
        memo = self.ctx.memo.get("exit_edges")
        if memo is None:
            memo = self.ctx.memo["exit_edges"] = {}
        edges = memo.get(hex_)
        if edges is None:
            board = self.ctx.field.board
            edges = memo[hex_] = tuple(("exit", edge) for edge in ("north", "east", "south", "west")
                                       if board.edge_distance(hex_, edge) == 1)
        return edges

    def _step_costs(self, u: Unit) -> tuple:
        """(neighbour, cost to enter it, its ("step", neighbour) action) of the unit's hex, in the
        board's order, the hexes the scenario prohibits to its side left out: the terrain's part
        memoised per context by hex and unit type (checked by identity, as the fire profiles), this
        game's wire read live."""
        if self.state.wire:
            return tuple((n, self.enter_cost(u, u.hex, n), ("step", n)) for n in self.ctx.field.board.neighbours(u.hex)
                         if self.may_enter_zone(u, n))
        memo = self.ctx.memo.get("step_costs")  # asked at every step: no empty dict made each time
        if memo is None:
            memo = self.ctx.memo["step_costs"] = {}
        key = (u.hex, id(u.type), u.side)
        hit = memo.get(key)
        if hit is None or hit[0] is not u.type:
            banned, field = self.prohibited(u.side), self.ctx.field
            hit = memo[key] = (u.type, tuple((n, field.enter_cost(u.type, u.hex, n), ("step", n))
                                             for n in field.board.neighbours(u.hex) if n not in banned))
        return hit[1]

    def move_fire_mp(self, u: Unit) -> int:
        """§9.52: half the movement points, rounded down."""
        return self._move_fire_figures(u)[1]

    def _move_fire_figures(self, u: Unit) -> tuple:
        """(whether ``u``'s type may move and fire at all: a vehicle with an AV factor, §9.51; its
        move_fire_mp), memoised per context by unit type, checked by identity: asked at every
        step of a move (both read the type alone)."""
        memo = self.ctx.memo.get("move_fire")
        if memo is None:
            memo = self.ctx.memo["move_fire"] = {}
        t = u.type
        hit = memo.get(id(t))
        if hit is None or hit[0] is not t:
            mp = math.floor(self.ctx.field.allowance(t) * self.ctx.tables.setting("move_and_fire_mp_fraction", 0.5))
            hit = memo[id(t)] = (t, (t.is_vehicle and self.factor(u, True) is not None, mp))
        return hit[1]

    def _may_become_move_fire(self, u: Unit, d: Move) -> bool:
        """§7: "si l'une de vos unités effectue une opération en mouvement (8) et que vous vous rendez
        compte que vous ne pouvez pas déplacer l'unité en question du nombre d'hexes souhaité, changez
        alors votre décision, et déclarez que vous effectuez une opération de tir en mouvement (9.5)":
        a declared move (not an overrun nor an entry) of a unit that could have declared a move-and-fire
        (§9.51), while what it spent fits the limited move (§9.52)."""
        if d.op != "move" or d.overrun or d.entering or u.flash_kill or u.status != ON_MAP:
            return False  # the cheap tests first: the activation is looked for at most steps' end
        may, mp = self._move_fire_figures(u)
        if not may or d.spent > mp:
            return False
        activation = self._find(Activation)
        return activation is None or u.id not in activation.cancelled

    def _do_move(self, d: Move, action):
        u = self.state.units[d.unit]
        kind = action[0]
        if kind != "step":
            self._do_move_other(d, u, action)
            return
        dest = action[1]
        s, f = self.state, self.ctx.field
        if u.status == OFF_MAP:
            cost = self.enter_cost(u, dest, dest)
            u.status = ON_MAP
            self.log("enter", unit=u.id, hex=dest, section="5.3")
        else:
            cost = self.enter_cost(u, u.hex, dest) if s.wire else f.enter_cost(u.type, u.hex, dest)
            axials = f.board.axials
            u.facing = direction(axials[u.hex], axials[dest])
        cost = d.mp if cost == "all" else cost
        spent = min(d.mp, d.spent + cost) if d.steps == 0 else d.spent + cost  # the move's value: at the end
        if u.hidden:  # §12.22: an FO leaving its deployment hex is placed on the map
            self._reveal(u, "moved")
        if u.hex is not None and (s.entrenchments or s.bunkers):
            self._leave_position(u)  # (it leaves nothing behind where there are neither)
        u.hex = dest
        if not u.moved:
            u.moved = True
        if u.spotted is not None:
            u.spotted = None
        # §13.3 step 3: the passengers move with their carrier (a unit that carries none asks nothing)
        for p in self.passengers(u) if d.loaded or u.type.transport_capacity else ():
            self._leave_position(p)
            p.hex, p.moved, p.facing, p.status = dest, True, u.facing, ON_MAP
        # self.log("move", ...) spelt out: once a step
        self.events.append({"t": s.turn, "e": "move", "unit": u.id, "hex": dest, "spent": spent})
        if s.bunkers:
            self._enter_bunker(u)
        stop = None
        if s.minefields and self._mines_on_entry(u):  # §15.13: before fire zones and opportunity fire; it stops
            if not u.on_map:
                self._finish_operation(u)
                return
            stop = ("set off a minefield", "15.13")
        side, by_enemy = u.side, False
        # the hexes the enemy holds (hidden FOs too), memoised until an enemy unit is placed anew:
        # the hex index is read only where there is an enemy (it would be brought up to date
        # with this unit's every step, when nothing else reads it before the move is over)
        enemy = other(side)
        if dest in s.held(enemy):
            for e in s.here(dest):
                if e.side != side:
                    if e.hidden:  # §12.22: an enemy entering its hex reveals an FO
                        self._reveal(e, "enemy entered its hex")
                    if e.type.unit_class != "forward-observer":
                        by_enemy = True  # §12.2: entering a hex holding only enemy FOs need not stop the move
        self._swap(d.entered(spent, stop, by_enemy))
        if s.fire_zones:
            self._zone_attacks(u)  # §13.26: fire zones attack before opportunity fire
        self._open_opportunity(u, ())

    def _do_move_other(self, d: Move, u: Unit, action) -> None:
        """Stop, become a move-and-fire, exit the map or overrun (a step is _do_move's)."""
        if action[0] == "stop":
            self._end_move(u)
            return
        if action[0] == "move-fire":  # §7: the declared move becomes a move-and-fire; it may go on moving
            d = replace(d, op="move-fire", mp=self.move_fire_mp(u))
            self._swap(d)
            self.log("move-becomes-move-fire", unit=u.id, spent=d.spent, mp=d.mp, section="7")
            if len(self._legal_of(d)) == 1:
                self._end_move(u)
            return
        if action[0] == "exit":
            self.exit_map(u, action[1])
            self._finish_operation(u)
            return
        if action[0] == "overrun":
            self._overrun(u, action[1])
            return
        raise EngineError(f"not a move's action: {action!r}")

    def _after_opportunity(self, mover: Unit) -> None:
        """The enemy's opportunity fire at a unit that entered a hex is over: its move goes on,
        stops there (§8.53, a minefield, an engineer's one hex) or its operation ends."""
        if isinstance(self.decision, Opportunity):
            self._pop()
        d = self.decision  # the move (or an overrun's, an engineer's)
        if not mover.on_map or mover.suppressed:
            self._finish_operation(mover)
        elif d.stopped_by_enemy:
            self.log("stop", unit=mover.id, reason="entered an enemy-occupied hex", section="8.53")
            self._end_move(mover)
        elif d.stop is not None:
            reason, section = d.stop
            self.log("stop", unit=mover.id, reason=reason, section=section)
            self._end_move(mover)
        elif len(self._legal_of(d)) == 1:
            self._end_move(mover)

    def _end_move(self, u: Unit) -> None:
        if self._find(Move).op == "move-fire" and u.on_map:
            self._start_targeting(u, move_fire=True)
        else:
            self._finish_operation(u)

    def exit_map(self, u: Unit, edge: str) -> None:
        """§8.4: a unit (with its passengers) leaves the map by ``edge``; whether that counts as a loss is
        the scenario's exit rule (victory.exit_counts_as_loss)."""
        map_id = self.ctx.field.board.cells[u.hex].map_id
        loss = victory.exit_counts_as_loss(self.ctx.exits, u.side, edge, map_id)
        self._leave_position(u)
        for p in [x for x in self.state.units.values() if x.carried_by == u.id]:
            p.carried_by = None
            self.exit_map(p, edge)  # passengers leave with their carrier
        u.status, u.fate = EXITED, {"turn": self.state.turn, "edge": edge, "map": map_id, "counts_as_loss": loss}
        u.hidden = False  # a hidden FO leaving the map is no longer on paper (§12.21)
        self.log("exit", unit=u.id, hex=u.hex, edge=edge, map=map_id, counts_as_loss=loss, section="8.4")
        u.hex = None
        if loss:
            self._count_loss(u)

    # --- opportunity fire (§9.4) --------------------------------------------------------------

    def _end_game(self) -> None:
        self.result = victory.evaluate(self)
        self._stack = ()
        self.log("game-over", **self.result)


__all__ = ["Game", "EngineError", "SIDES", "other", "REMOVED", "make_context", "missing_rules", "Context",
           "TRANSPORT_POOL", "sector"]
