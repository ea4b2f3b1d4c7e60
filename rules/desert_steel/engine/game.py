"""The Desert Steel game engine for the basic rules (§4-§11, §18): a state machine with an
OpenSpiel-like surface — ``legal_actions()``, ``apply(action)``, ``is_terminal()``,
``returns()``, ``clone()``, ``observation(side)``.

Every decision a player makes is an action; everything the rules decide (dice, forced
plays, the morale phase) happens inside ``apply`` and is written to the event log.
Choices the rules leave to a player but that the engine makes on their behalf are listed
in NOTES.md: facing (towards the last hex entered, or the target fired at), the centre
hex of each formation (the one leaving fewest units separated), and which units go when a
hex is overstacked at Morale step 4.
"""
from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, field
from typing import Mapping

from ... import hexmath
from ..battlefield import Battlefield
from ..model import CombatCard, CommandCard, DesertSteel, Scenario
from ..setup_checks import best_centre, doctrine_radius, expected_units
from ..visibility import VisibilityTable
from . import victory
from .dice import Dice
from .priority import priority
from .state import DESTROYED, EXITED, OFF_MAP, ON_MAP, REMOVED, Formation, State, Unit
from .tables import EXPERIENCE, Tables, hit_value

SIDES = ("allied", "axis")
ADVANCED_ONLY = "the advanced rules (§12-§17) are not implemented yet: this scenario cannot be played"


class EngineError(RuntimeError):
    """A game that cannot be played or an action that is not legal (the message says why)."""


def other(side: str) -> str:
    return "axis" if side == "allied" else "allied"


Action = tuple  # ("pass",), ("play", card), ("op", unit, "move"), ("step", hex)... JSON-friendly


@dataclass
class Context:
    """Static per game: the board, tables and lookups every action needs."""

    model: DesertSteel
    scenario: Scenario
    field: Battlefield
    tables: Tables
    years: dict
    visibility: dict = field(default_factory=dict)  # turn visibility -> VisibilityTable
    exits: Mapping = field(default_factory=dict)
    special: tuple = ()

    def table(self, vis: int) -> VisibilityTable:
        if vis not in self.visibility:
            saved = self.field.visibility
            self.field.visibility = vis
            self.visibility[vis] = VisibilityTable(self.field)
            self.field.visibility = saved
        return self.visibility[vis]

    def variant(self, card: int):
        c = self.model.cards[card]
        return c.variant(self.years[c.side]) if isinstance(c, CombatCard) else None


def make_context(model: DesertSteel, scenario: Scenario) -> Context:
    """What every game of a scenario shares (build once for a batch of games)."""
    if scenario.rules != "basic":
        raise EngineError(f"{scenario.id}: {ADVANCED_ONLY}")
    field_ = Battlefield.for_scenario(model, scenario)
    return Context(model, scenario, field_, Tables(model.rule_tables or {}),
                   {s: scenario.sides[s].year for s in SIDES},
                   exits=scenario.raw.get("exits", {}), special=tuple(scenario.raw.get("special_rules", ())))


class Game:
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
        self.actions: list[Action] = []
        self.mode = "start"
        self.side_to_act: str | None = None
        self.cx: dict = {}  # what the current decision is about
        self._setup(setup or {})
        self._start_turn()

    # --- OpenSpiel-like surface ------------------------------------------------------------

    def current_player(self) -> str | None:
        return None if self.mode == "over" else self.side_to_act

    def is_terminal(self) -> bool:
        return self.mode == "over"

    def legal_actions(self) -> list[Action]:
        cached = getattr(self, "_legal_cache", None)
        if cached is not None and cached[0] == len(self.actions):
            return list(cached[1])
        legal = getattr(self, f"_legal_{self.mode.replace('-', '_')}")() if self.mode != "over" else []
        self._legal_cache = (len(self.actions), legal)
        return list(legal)

    def apply(self, action: Action) -> None:
        action = tuple(action)
        if action not in self.legal_actions():
            raise EngineError(f"illegal action {action!r} in mode {self.mode} for {self.side_to_act}")
        self.actions.append(action)
        self.log("action", side=self.side_to_act, action=list(action))
        getattr(self, f"_do_{self.mode.replace('-', '_')}")(action)

    def returns(self) -> dict:
        """The result once terminal: winner, level, points per side (see victory.py)."""
        if not self.is_terminal():
            raise EngineError("the game is not over")
        return self.result

    def clone(self) -> "Game":
        g = Game.__new__(Game)
        g.ctx = self.ctx
        g.dice = self.dice.copy()
        g.seed = self.seed
        g.options = self.options
        g.state = self.state.copy()
        g.events = list(self.events)
        g.actions = list(self.actions)
        g.mode = self.mode
        g.side_to_act = self.side_to_act
        g.cx = dict(self.cx)
        if hasattr(self, "result"):
            g.result = self.result
        return g

    def observation(self, side: str) -> dict:
        """What a side may know: everything on the map (§8.55), its own hand, the stack."""
        s = self.state
        return {
            "turn": s.turn, "mode": self.mode, "to_act": self.side_to_act, "visibility": s.visibility,
            "hand": sorted(s.hands[side]), "opponent_cards_in_hand": len(s.hands[other(side)]),
            "stack": [{"face_down": True, "c3": "ABCDEF"[5 - self._priority(c)[0]]} if self._face_down(c, side)
                      else {"card": c} for c in s.stack],
            "units": [{"id": u.id, "card": u.card, "type": u.type.id, "side": u.side, "hex": u.hex,
                       "status": u.status, "flipped": u.flipped, "suppressed": u.suppressed,
                       "separated": u.separated} for u in s.units.values()],
            "shaken": sorted(c for c, f in s.formations.items() if f.shaken),
        }

    def log(self, kind: str, **data) -> None:
        self.events.append({"t": self.state.turn, "e": kind, **data})

    # --- set up --------------------------------------------------------------------------

    def _setup(self, setup: Mapping) -> None:
        model, scen, s = self.ctx.model, self.ctx.scenario, self.state
        placed = {side: list(setup.get("sides", {}).get(side, {}).get("placements", ())) for side in SIDES}
        for side in SIDES:
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
                        self._make_units(side, number, setup_zone is not None, placed[side], enter is not None)
            for under in scen.sides[side].raw.get("undermanned", ()):
                if under["affects_morale"]:
                    s.formations[under["card"]].losses += sum(r["count"] for r in under["remove"])
        if any(placed.values()):
            leftover = [p for side in SIDES for p in placed[side]]
            raise EngineError(f"the setup places units that are not on the scenario's cards: {leftover[:3]}")

    def _make_units(self, side, number, sets_up: bool, placements: list, enters: bool) -> None:
        units = expected_units(self.ctx.model, self.ctx.scenario, side, number)
        index = 0
        for type_id, count in sorted(units.items()):
            unit_type = self.ctx.model.unit_types[type_id]
            if unit_type.unit_class not in ("vehicle", "transport"):
                self.log("not-in-basic-rules", card=number, type=type_id, section="2.11")
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
                    hex_ = self.ctx.field.board.resolve(match["hex"])
                    facing = match.get("facing", facing)
                    status = ON_MAP
                self.state.units[uid] = Unit(uid, number, unit_type, side, hex_, facing, status)

    # --- turn structure (§4) ------------------------------------------------------------------

    def _start_turn(self) -> None:
        s = self.state
        from ..battlefield import visibility_on
        s.visibility = visibility_on(self.ctx.scenario, s.turn)
        self.log("turn", visibility=s.visibility)
        for side in SIDES:
            s.hands[side] = sorted(c for c, f in s.formations.items()
                                   if f.side == side and f.arrival <= s.turn and not f.shaken
                                   and (f.kind == "command" or self._has_units(c)))
        s.stack.clear()
        s.played.clear()
        s.interrupt_windows.clear()
        s.failed_interrupts.clear()
        self._next_card()

    def _has_units(self, card: int) -> bool:
        return any(u.card == card and u.status in (ON_MAP, OFF_MAP) for u in self.state.units.values())

    def _priority(self, card: int) -> tuple:
        return priority(self.ctx.model, card, self.ctx.years[self.state.formations[card].side])

    def _combat_cards(self, side: str) -> list[int]:
        return [c for c in self.state.hands[side] if self.state.formations[c].kind == "combat"]

    def _next_card(self) -> None:
        s = self.state
        if s.stack:
            self._open_interrupts()
            return
        candidates = [(self._priority(c), c) for side in SIDES for c in self._combat_cards(side)]
        if not candidates:
            self._morale_phase()
            return
        lowest = min(candidates)[0]
        owner_cards = [c for p, c in candidates if p == lowest]
        owner = s.formations[owner_cards[0]].side
        if len(owner_cards) > 1:
            self.mode, self.side_to_act, self.cx = "lowest", owner, {"cards": owner_cards}
            return
        self._play(owner_cards[0], forced=True)

    def _legal_lowest(self):
        return [("play", c) for c in self.cx["cards"]]

    def _do_lowest(self, action):
        self._play(action[1], forced=True)

    def _play(self, card: int, forced: bool = False) -> None:
        s = self.state
        side = s.formations[card].side
        s.hands[side].remove(card)
        s.stack.append(card)
        self.log("play", side=side, card=card, forced=forced)
        self._open_interrupts()

    # interrupts (§6.41-6.43): both sides declare; simultaneous declarations resolved by priority

    def _beating(self, side: str) -> list[int]:
        """Cards a side may try to interrupt with. With limited intelligence (§6.55) the top
        card may be face down with only its C3 announced: any card of equal or better C3 may
        try (except one that already failed against it)."""
        top_card = self.state.stack[-1]
        if self._face_down(top_card, side):
            top_c3 = self._priority(top_card)[0]
            failed = self.state.failed_interrupts.get(top_card, ())
            return [c for c in self.state.hands[side] if self._priority(c)[0] >= top_c3 and c not in failed]
        top = self._priority(top_card)
        return [c for c in self.state.hands[side] if self._priority(c) > top]

    def _face_down(self, card: int, viewer: str) -> bool:
        return bool(self.options.get("limited_intelligence")) and self.state.formations[card].side != viewer

    def _open_interrupts(self) -> None:
        top = self.state.stack[-1]
        if self.options.get("limited_interruption"):
            if top in self.state.interrupt_windows:  # §6.56: one interruption attempt per card
                self._activate_top()
                return
            self.state.interrupt_windows.add(top)
        self.cx = {"declared": {}}
        self._ask_interrupt()

    def _ask_interrupt(self) -> None:
        for side in SIDES:
            if side in self.cx["declared"]:
                continue
            if self._beating(side):
                self.mode, self.side_to_act = "interrupt", side
                return
            self.cx["declared"][side] = None
        self._resolve_interrupts()

    def _open_interrupts_again(self) -> None:
        self.cx = {"declared": {}}
        self._ask_interrupt()

    def _legal_interrupt(self):
        return [("pass",)] + [("interrupt", c) for c in self._beating(self.side_to_act)]

    def _do_interrupt(self, action):
        self.cx["declared"][self.side_to_act] = action[1] if action[0] == "interrupt" else None
        self._ask_interrupt()

    def _resolve_interrupts(self) -> None:
        declared = [c for c in self.cx["declared"].values() if c is not None]
        if self.options.get("limited_intelligence"):
            top = self.state.stack[-1]
            for c in list(declared):  # disclosure (§6.55): a card that proves lower goes back to hand
                if self._priority(c) <= self._priority(top):
                    declared.remove(c)
                    self.state.failed_interrupts.setdefault(top, set()).add(c)
                    self.log("interrupt-failed", card=c, against=top, section="6.55")
            if self.options.get("limited_interruption") and not declared and \
                    any(v is not None for v in self.cx["declared"].values()):
                self._activate_top()  # §6.56: the failed attempt is not repeated; the card activates
                return
            if not declared and any(v is not None for v in self.cx["declared"].values()):
                self._open_interrupts_again()
                return
        if not declared:
            self._activate_top()
            return
        winner = max(declared, key=self._priority)
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
            self.mode, self.side_to_act, self.cx = "command", f.side, {"card": card}
            if not self._legal_command()[:-1]:
                self.log("set-aside", card=card, reason="nothing to activate or rally")
                self._next_card()
            return
        self._begin_activation([card])

    def _begin_activation(self, cards: list[int]) -> None:
        side = self.state.formations[cards[0]].side
        self.mode, self.side_to_act, self.cx = "activation", side, {"cards": cards}
        if len(self._legal_activation()) == 1 and not self._unentered(cards):
            self.log("set-aside", cards=cards, reason="no unit can operate", section="6.51")
            self._next_card()

    def _subordinates(self, card: int) -> list[int]:
        return [c.number for c in self.ctx.model.cards[card].subordinates]

    def _legal_command(self):
        card = self.cx["card"]
        cmd = self.ctx.model.cards[card]
        subs = [n for n in self._subordinates(card) if n in self.state.formations]
        ready = [n for n in subs if not self.state.formations[n].shaken and self._operable(n)]
        if cmd.nationality == "german":  # §6.53: up to two subordinates
            combos = [(n,) for n in ready] + list(itertools.combinations(ready, 2))
        else:  # §6.52: one subordinate plus the command's HQ, or rally
            hq = cmd.hq.number if cmd.hq else None
            combos = [tuple(sorted({n, hq} - {None})) if hq in ready else (n,) for n in ready if n != hq]
            if hq in ready:
                combos.append((hq,))
        out = [("activate", combo) for combo in dict.fromkeys(combos)]
        if cmd.nationality != "german" and any(self.state.formations[n].shaken for n in subs):
            out.append(("rally",))
        return out + [("decline",)]

    def _do_command(self, action):
        if action[0] == "decline":
            self._next_card()
        elif action[0] == "rally":
            self._rally_by_command(self.cx["card"])
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
                for u in self._units_of(n):
                    if not u.suppressed:
                        u.flipped = False
                self.state.hands[f.side].append(n)

    def _units_of(self, card: int) -> list[Unit]:
        return [u for u in self.state.units.values() if u.card == card]

    def _operable(self, card: int) -> bool:
        return any(u.ready or (u.status == OFF_MAP and self.state.formations[card].arrival == self.state.turn)
                   for u in self._units_of(card))

    def _unentered(self, cards) -> list[Unit]:
        s = self.state
        return [u for c in cards for u in self._units_of(c)
                if u.status == OFF_MAP and s.formations[c].arrival == s.turn and not u.flipped]

    def _legal_activation(self):
        out = []
        for card in self.cx["cards"]:
            for u in self._units_of(card):
                if u.status == OFF_MAP and self.state.formations[card].arrival == self.state.turn and not u.flipped:
                    out.append(("op", u.id, "move"))
                    continue
                if not u.ready:
                    continue
                out.append(("op", u.id, "move"))
                if self._fireable(u) and u.id not in self.cx.get("cancelled", ()):
                    out.append(("op", u.id, "fire"))
                    if not u.flash_kill and self._factor(u, True) is not None:
                        out.append(("op", u.id, "move-fire"))
        if not self._unentered(self.cx["cards"]) or not any(a[2] == "move" for a in out):
            out.append(("end",))
        return out

    def _fireable(self, u: Unit) -> bool:
        return self._factor(u, True) is not None or self._factor(u, False) is not None

    def _do_activation(self, action):
        if action[0] == "end":
            self.log("end-activation", cards=self.cx["cards"])
            self._next_card()
            return
        _, uid, kind = action
        u = self.state.units[uid]
        self.cx["unit"], self.cx["op"] = uid, kind
        if kind == "fire":
            self._start_targeting(u, move_fire=False)
        else:
            mp = self.ctx.field.allowance(u.type)
            if kind == "move-fire":
                mp = math.floor(mp * self.ctx.tables.setting("move_and_fire_mp_fraction", 0.5))
            self.cx.update(mp=mp, spent=0, steps=0)
            self.mode = "move"
            if u.status == OFF_MAP and self._legal_move() == [("stop",)]:
                self.log("cannot-enter", unit=uid, reason="every entry hex is out of reach")
                u.flipped = True
                self._back_to_activation()

    def _back_to_activation(self) -> None:
        for key in ("unit", "op", "mp", "spent", "steps", "targets", "move_fire"):
            self.cx.pop(key, None)
        self.mode, self.side_to_act = "activation", self.state.formations[self.cx["cards"][0]].side
        if len(self._legal_activation()) == 1 and not self._unentered(self.cx["cards"]):
            self.log("end-activation", cards=self.cx["cards"], reason="no unit left to operate")
            self._next_card()

    def _finish_operation(self, u: Unit) -> None:
        """Flip the unit (§7.1) unless its fire just scored a flash kill (§9.36)."""
        if not self.cx.pop("flash_now", False) and u.status in (ON_MAP, OFF_MAP):
            u.flipped, u.flash_kill = True, False
        self._back_to_activation()

    # --- movement (§8) -------------------------------------------------------------------------

    def _legal_move(self):
        u = self.state.units[self.cx["unit"]]
        f = self.ctx.field
        mp, spent = self.cx["mp"], self.cx["spent"]
        out = []
        if u.status == OFF_MAP:  # arrival cannot be delayed (§5.1): no stopping before entering
            zone = self.state.formations[u.card].entry_zone
            for h in sorted(zone):
                cost = f.enter_cost(u.type, h, h)
                if cost == "prohibited":
                    continue
                out.append(("step", h))
            return out or [("stop",)]
        first = self.cx["steps"] == 0
        for n in f.board.neighbours(u.hex):
            cost = f.enter_cost(u.type, u.hex, n)
            if cost == "prohibited" or (cost == "all" and not first):
                continue
            if cost == "all" or spent + cost <= mp or first:
                out.append(("step", n))
        exit_cost = f.exit_cost(u.type, u.hex)
        if exit_cost is not None and (first or spent + exit_cost <= mp):
            for edge in ("north", "east", "south", "west"):
                if f.board.edge_distance(u.hex, edge) == 1:
                    out.append(("exit", edge))
        return out + [("stop",)]

    def _do_move(self, action):
        u = self.state.units[self.cx["unit"]]
        if action[0] == "stop":
            self._end_move(u)
            return
        if action[0] == "exit":
            self._exit(u, action[1])
            self._finish_operation(u)
            return
        dest = action[1]
        f = self.ctx.field
        if u.status == OFF_MAP:
            cost = f.enter_cost(u.type, dest, dest)
            u.status = ON_MAP
            self.log("enter", unit=u.id, hex=dest, section="5.3")
        else:
            cost = f.enter_cost(u.type, u.hex, dest)
            u.facing = _direction(f.board.axial(u.hex), f.board.axial(dest))
        cost = self.cx["mp"] if cost == "all" else cost
        self.cx["spent"] = min(self.cx["mp"], self.cx["spent"] + cost) if self.cx["steps"] == 0 else \
            self.cx["spent"] + cost
        self.cx["steps"] += 1
        u.hex, u.moved, u.spotted = dest, True, None
        self.log("move", unit=u.id, hex=dest, spent=self.cx["spent"])
        enemies_here = [e for e in self.state.at(dest) if e.side != u.side]
        self.cx["stopped_by_enemy"] = bool(enemies_here)
        self._open_opportunity(u)

    def _after_opportunity(self, mover: Unit) -> None:
        if not mover.on_map or mover.suppressed:
            self._finish_operation(mover)
        elif self.cx.pop("stopped_by_enemy", False):
            self.log("stop", unit=mover.id, reason="entered an enemy-occupied hex", section="8.53")
            self._end_move(mover)
        else:
            self.mode, self.side_to_act = "move", mover.side
            if len(self._legal_move()) == 1:
                self._end_move(mover)

    def _end_move(self, u: Unit) -> None:
        if self.cx["op"] == "move-fire" and u.on_map:
            self._start_targeting(u, move_fire=True)
        else:
            self._finish_operation(u)

    def _exit(self, u: Unit, edge: str) -> None:
        map_id = self.ctx.field.board.cells[u.hex].map_id
        loss = victory.exit_counts_as_loss(self.ctx.exits, u.side, edge, map_id)
        u.status, u.fate = EXITED, {"turn": self.state.turn, "edge": edge, "map": map_id, "counts_as_loss": loss}
        self.log("exit", unit=u.id, hex=u.hex, edge=edge, map=map_id, counts_as_loss=loss, section="8.4")
        u.hex = None
        if loss:
            self._count_loss(u)

    # --- opportunity fire (§9.4) --------------------------------------------------------------

    def _opportunity_firers(self, mover: Unit) -> list[Unit]:
        s = self.state
        out = []
        for u in s.units.values():
            if u.side == mover.side or not u.ready or s.formations[u.card].shaken:
                continue
            if u.opportunity_fired and not u.flash_kill:
                continue
            if self._can_target(u, mover):
                out.append(u)
        return out

    def _open_opportunity(self, mover: Unit) -> None:
        self.cx["mover"] = mover.id
        firers = self._opportunity_firers(mover)
        if not firers:
            self._after_opportunity(mover)
            return
        self.mode, self.side_to_act = "opportunity", other(mover.side)

    def _legal_opportunity(self):
        mover = self.state.units[self.cx["mover"]]
        return [("opp-fire", u.id) for u in self._opportunity_firers(mover)] + [("opp-pass",)]

    def _do_opportunity(self, action):
        mover = self.state.units[self.cx["mover"]]
        if action[0] == "opp-pass":
            self._after_opportunity(mover)
            return
        firer = self.state.units[action[1]]
        firer.opportunity_fired = True
        self.log("opportunity-fire", unit=firer.id, target=mover.id, section="9.4")
        self._shoot(firer, mover, opportunity=True, move_fire=False)
        if mover.on_map and not mover.suppressed and self._opportunity_firers(mover):
            self.mode, self.side_to_act = "opportunity", other(mover.side)
        else:
            self._after_opportunity(mover)

    # --- fire (§9) ---------------------------------------------------------------------------

    def _factor(self, u: Unit, vs_vehicle: bool) -> int | None:
        return u.type.anti_vehicle if vs_vehicle else u.type.anti_infantry

    def _range(self, u: Unit, vs_vehicle: bool) -> int | None:
        if vs_vehicle and u.type.anti_vehicle_range is not None:
            return u.type.anti_vehicle_range
        return u.type.range

    def _can_target(self, firer: Unit, target: Unit) -> bool:
        """Range, line of sight and the stacking restrictions of §8.51 (no dice)."""
        if not (firer.on_map and target.on_map):
            return False
        vs_vehicle = target.type.is_vehicle
        factor, reach = self._factor(firer, vs_vehicle), self._range(firer, vs_vehicle)
        if factor is None or reach is None:
            return False
        f = self.ctx.field
        d = f.board.distance(firer.hex, target.hex)
        if d > reach:
            return False
        here = self.state.at(firer.hex)
        if firer.hex != target.hex and any(e.side != firer.side for e in here):
            return False  # §8.51: only at units in its own hex
        there = self.state.at(target.hex)
        if firer.hex != target.hex and any(x.side == firer.side and x.type.is_vehicle for x in there) and vs_vehicle:
            return False  # §8.51: no anti-vehicle fire into a hex holding friendly vehicles
        return self.ctx.table(self.state.visibility).visible(firer.hex, target.hex)

    def _targets(self, firer: Unit) -> list[Unit]:
        return [t for t in self.state.units.values() if t.side != firer.side and self._can_target(firer, t)]

    def _start_targeting(self, u: Unit, move_fire: bool) -> None:
        targets = self._targets(u)
        self.cx["move_fire"] = move_fire
        if not targets:
            self.log("no-target", unit=u.id, section="9.19")
            if move_fire:
                self._finish_operation(u)
            else:  # an aborted attempt is not an operation: the unit may do something else
                self._back_to_activation()
            return
        self.cx["targets"] = [t.id for t in targets]
        self.mode = "target"

    def _legal_target(self):
        out = [("target", t) for t in self.cx["targets"]]
        return out + [("hold",)] if self.cx.get("move_fire") else out + [("cancel",)]

    def _do_target(self, action):
        u = self.state.units[self.cx["unit"]]
        if action[0] == "cancel":  # not an operation (§9.19); it may still move, not declare fire again
            self.cx["cancelled"] = self.cx.get("cancelled", ()) + (u.id,)
            self._back_to_activation()
            return
        if action[0] == "hold":
            self._finish_operation(u)
            return
        target = self.state.units[action[1]]
        if self._shoot(u, target, opportunity=False, move_fire=self.cx["move_fire"]):
            self.cx["flash_now"] = True  # §9.36: not flipped, one more operation later
        self._finish_operation(u)

    def _experience(self, u: Unit) -> str:
        base = EXPERIENCE.index(self.ctx.variant(u.card).experience)
        return EXPERIENCE[min(2, base + u.experience_bonus)]

    def _special(self, roll: str, side: str) -> int:
        """Scenario die-roll modifiers (§18.7), e.g. Totensonntag's −1 to spotting."""
        total = 0
        for r in self.ctx.special:
            if r["type"] == "die-roll-modifier" and r.get("roll") in (roll, "all") \
                    and r.get("side", "both") in (side, "both"):
                total += r.get("value", 0)
        return total

    def _self_spotting(self, u: Unit) -> int:
        for r in self.ctx.special:
            if r["type"] == "self-spotting" and u.type.id in r.get("units", {}).get("types", ()) and \
                    (not r.get("cards") or u.card in r["cards"]):
                return 3  # §13.28: an indirect-fire unit spotting its own target, +3 to its factors
        return 0

    def _in_flank(self, target: Unit, source_hex: str) -> bool:
        """Whether fire from source_hex comes through the target's flank arc (§8.2, §8.21)."""
        f = self.ctx.field.board
        if source_hex == target.hex:
            return False
        side = _sector(f.axial(target.hex), f.axial(source_hex))
        return not any(abs((side - target.facing + k) % 6) == 0 for k in (-1, 0, 1))

    def spot_modifiers(self, firer: Unit, target: Unit, opportunity: bool, move_fire: bool) -> dict[str, float]:
        t = self.ctx.tables
        mods = {}
        if self._experience(target) == "veteran":
            mods["target_veteran"] = t.spot("target_veteran")
        if self._experience(firer) == "green":
            mods["spotter_green"] = t.spot("spotter_green")
        if target.moved:
            mods["moving_target"] = t.spot("moving_target")
        if move_fire:
            mods["move_and_fire"] = t.spot("move_and_fire")
        if self._in_flank(firer, target.hex):
            mods["through_own_flank"] = t.spot("through_own_flank")
        if target.spotted:
            mods[f"target_spotted_{target.spotted.lower()}"] = t.spot(f"target_spotted_{target.spotted.lower()}")
        special = self._special("spotting", firer.side)
        if special:
            mods["scenario"] = special
        return mods

    def fire_modifiers(self, firer: Unit, target: Unit, move_fire: bool, cover: bool) -> dict[str, float]:
        t = self.ctx.tables
        d = self.ctx.field.board.distance(firer.hex, target.hex)
        mods = {"range": t.range_modifier(d)}
        if target.moved:
            mods["moving_target"] = t.fire("moving_target")
        if self._experience(target) == "veteran":
            mods["target_veteran"] = t.fire("target_veteran")
        if self._experience(firer) == "green":
            mods["firer_green"] = t.fire("firer_green")
        if cover:
            mods["target_in_cover"] = t.fire("target_in_cover")
        if move_fire:
            mods["move_and_fire"] = t.fire("move_and_fire")
        if self._in_flank(target, firer.hex):
            mods["flank_fire"] = t.fire("flank_fire")
        if self._in_flank(firer, target.hex):
            mods["through_own_flank"] = t.fire("through_own_flank")
        if firer.separated:
            exp = self._experience(firer)
            key = "separated_veteran" if exp == "veteran" else \
                ("separated_vehicle" if firer.type.is_vehicle else "separated_green_non_vehicle")
            mods[key] = t.fire(key)
        special = self._special("fire", firer.side)
        if special:
            mods["scenario"] = special
        return mods

    def _cover(self, firer: Unit, target: Unit) -> bool:
        terrain = self.ctx.field.terrain
        return terrain.hexes[target.hex].building or terrain.level(target.hex) > terrain.level(firer.hex)

    def _shoot(self, firer: Unit, target: Unit, opportunity: bool, move_fire: bool) -> bool:
        """Spot, fire, apply the result; flip the firer. True when it scored a flash kill."""
        t = self.ctx.tables
        f = self.ctx.field
        if firer.hex != target.hex:  # the firer turns to face its target (§8.22)
            firer.facing = _sector(f.board.axial(firer.hex), f.board.axial(target.hex))
        d = f.board.distance(firer.hex, target.hex)
        cover = self._cover(firer, target)
        spot_cover = cover and not target.fired  # a Fired marker loses cover's spotting benefit (§9.17)
        if d == 0:
            spotted, number, roll, mods = True, 0, None, {}
        else:
            number = t.spotting_number(d, spot_cover)
            mods = self.spot_modifiers(firer, target, opportunity, move_fire)
            roll = self.dice.roll(1)[0]
            spotted = roll + sum(mods.values()) >= number
        self.log("spot", unit=firer.id, target=target.id, distance=d, number=number, roll=roll,
                 modifiers=mods, success=spotted, section="9.14")
        if not spotted:
            firer.flipped, firer.flash_kill = True, False  # §9.14: a failed spotting counts as having fired
            self._fired_marker(firer, None)
            return False
        c3 = self.ctx.model.cards[firer.card]
        letter = c3.variant(self.ctx.years[firer.side]).c3 if isinstance(c3, CombatCard) else None
        if letter in ("A", "B", "C") and d > 0:
            target.spotted = letter  # §9.18
        vs_vehicle = target.type.is_vehicle
        column = "vehicle" if (vs_vehicle or target.type.lightly_armored) else "non_vehicle"
        factor = self._factor(firer, vs_vehicle) + self._self_spotting(firer)
        differential = factor - target.type.defense
        mods = self.fire_modifiers(firer, target, move_fire, cover)
        dice = self.dice.roll(3)
        raw = sum(dice)
        total = raw + differential + sum(mods.values())
        result = t.crt(column, total)
        self.log("fire", unit=firer.id, target=target.id, dice=dice, differential=differential, modifiers=mods,
                 total=total, result=result, section="9.22")
        flank = self._in_flank(target, firer.hex) or firer.hex == target.hex
        flash = False
        if result == "destroyed":
            flash = (vs_vehicle and not move_fire and firer.flash_kills == 0
                     and raw >= t.flash_kill(self._experience(firer)))
            if flash:
                self.log("flash-kill", unit=firer.id, raw=raw, section="9.35")
            self._destroy(target, "fire")
        elif (x := hit_value(result)) is not None:
            self._unit_check(target, x, flank=flank)
        if flash:
            firer.flash_kill, firer.flash_kills, firer.flipped = True, firer.flash_kills + 1, False
        else:
            firer.flash_kill, firer.flipped = False, True
        self._fired_marker(firer, target if not target.on_map else None)
        return flash

    def _fired_marker(self, firer: Unit, destroyed: Unit | None) -> None:
        """§9.17: fired from cover while an enemy sees it (not if it killed the only one)."""
        terrain = self.ctx.field.terrain
        if firer.hex is None:
            return
        enemies = [e for e in self.state.units.values() if e.side != firer.side and e.on_map]
        in_cover_of = [e for e in enemies if terrain.hexes[firer.hex].building
                       or terrain.level(firer.hex) > terrain.level(e.hex)]
        table = self.ctx.table(self.state.visibility)
        if any(table.visible(e.hex, firer.hex) for e in in_cover_of if e is not destroyed):
            firer.fired = True

    # --- morale (§10) ---------------------------------------------------------------------

    def _loss_modifier(self, card: int) -> int:
        f = self.state.formations[card]
        return math.ceil(f.losses * self.ctx.variant(card).loss_modifier * self.ctx.tables.morale("per_loss"))

    def _formation_check(self, card: int, why: str, section: str = "10.22") -> bool:
        variant = self.ctx.variant(card)
        mod = self._loss_modifier(card) + self._special("morale", self.state.formations[card].side)
        dice = self.dice.roll(2)
        ok = sum(dice) + mod <= variant.morale
        self.log("formation-check", card=card, why=why, dice=dice, modifier=mod, morale=variant.morale,
                 passed=ok, section=section)
        return ok

    def _unit_check(self, u: Unit, x: int, flank: bool) -> None:
        t = self.ctx.tables
        variant = self.ctx.variant(u.card)
        mods = {"losses": self._loss_modifier(u.card)}
        if x:
            mods["hit_plus_x"] = x * t.morale("hit_plus_x")
        if flank:
            mods["flank_or_same_hex"] = t.morale("flank_or_same_hex")
        if u.separated:
            exp = self._experience(u)
            key = "separated_veteran" if exp == "veteran" else \
                ("separated_vehicle" if u.type.is_vehicle else "separated_green_non_vehicle")
            mods[key] = t.morale(key)
        special = self._special("morale", u.side)
        if special:
            mods["scenario"] = special
        self._resolve_unit_check(u, variant.morale, mods, "hit", section="10.21")

    def _resolve_unit_check(self, u: Unit, morale: int, mods: dict, why: str, section: str) -> bool:
        t = self.ctx.tables
        dice = self.dice.roll(2)
        raw = sum(dice)
        total = raw + sum(mods.values())
        passed = total <= morale
        outcome = "passed" if passed else "failed"
        if raw == t.setting("morale_rout_roll", 12):
            outcome = "rout"
        elif raw == t.setting("morale_steel_roll", 2) and u.experience_bonus == 0 and \
                self._experience(u) != "veteran":
            u.experience_bonus = 1
            outcome = "steel" if passed else "steel-failed"
        self.log("unit-check", unit=u.id, why=why, dice=dice, modifiers=mods, morale=morale, result=outcome,
                 section=section)
        if outcome == "rout":  # §10.32: eliminated, counts as a loss
            self._destroy(u, "rout")
            return False
        if not passed:
            if u.suppressed and self.state.phase == "operations":
                self._destroy(u, "suppressed twice")  # §10.12
            else:
                u.suppressed, u.flipped = True, True
        return passed

    def _destroy(self, u: Unit, how: str) -> None:
        u.status, u.fate = DESTROYED, {"turn": self.state.turn, "by": how}
        self.log("destroyed", unit=u.id, how=how, hex=u.hex)
        u.hex = None
        self._count_loss(u)

    def _count_loss(self, u: Unit) -> None:
        if u.type.unit_class == "forward-observer":
            return  # §12.2
        f = self.state.formations[u.card]
        f.losses += 1
        f.lost_this_turn += 1

    # --- morale phase (§4.3) ------------------------------------------------------------------

    def _morale_phase(self) -> None:
        s = self.state
        s.phase = "morale"
        self.log("morale-phase")
        combat = [f for f in s.formations.values() if f.kind == "combat" and f.arrival <= s.turn]
        for u in s.units.values():  # step 1
            if u.on_map and not u.suppressed and not s.formations[u.card].shaken:
                u.flipped = False
        for f in combat:  # step 2: rally first, then formations that lost units this turn
            if f.shaken and self._has_units(f.card) and self._formation_check(f.card, "rally", "10.15"):
                f.shaken = False
        for f in combat:
            if f.lost_this_turn and not f.shaken and self._has_units(f.card):
                if not self._formation_check(f.card, "losses this turn"):
                    f.shaken = True
                    self.log("shaken", card=f.card, section="10.14")
                    for u in self._units_of(f.card):
                        u.flipped = True
        for u in list(s.units.values()):  # step 3
            if u.on_map and u.suppressed and not s.formations[u.card].shaken:
                variant = self.ctx.variant(u.card)
                mods = {"losses": self._loss_modifier(u.card), **self._separation_morale(u)}
                if self._resolve_unit_check(u, variant.morale, mods, "rally suppressed", "10.22"):
                    u.suppressed = False
        self._enforce_stacking()  # step 4
        for u in s.units.values():  # step 5
            u.moved = u.fired = u.flash_kill = u.opportunity_fired = False
            u.spotted, u.flash_kills = None, 0
        self._doctrine()  # step 6
        for f in s.formations.values():
            f.lost_this_turn, f.must_replay = 0, False
        s.phase = "operations"
        if s.turn >= self.ctx.scenario.turns:
            self._end_game()
            return
        s.turn += 1
        self._start_turn()

    def _separation_morale(self, u: Unit) -> dict:
        if not u.separated:
            return {}
        exp = self._experience(u)
        key = "separated_veteran" if exp == "veteran" else \
            ("separated_vehicle" if u.type.is_vehicle else "separated_green_non_vehicle")
        return {key: self.ctx.tables.morale(key)}

    def _enforce_stacking(self) -> None:
        limit = self.ctx.tables.stacking()
        by_hex: dict = {}
        for u in self.state.units.values():
            if u.on_map:
                by_hex.setdefault((u.hex, u.side), []).append(u)
        for (hex_, side), units in sorted(by_hex.items()):
            vehicles = [u for u in units if u.type.is_vehicle]
            # The owner's choice, made for him: the weakest go first (suppressed, then lowest defense).
            order = sorted(vehicles, key=lambda u: (not u.suppressed, u.type.defense, u.id))
            while len(vehicles) > limit["vehicles"]:
                victim = order.pop(0)
                vehicles.remove(victim)
                units.remove(victim)
                self._destroy(victim, "overstacked")
            order = sorted(units, key=lambda u: (not u.suppressed, u.type.defense, u.id))
            while len(units) > limit["units"]:
                victim = order.pop(0)
                units.remove(victim)
                self._destroy(victim, "overstacked")

    def _doctrine(self) -> None:
        """Step 6 (§11): the centre leaving fewest units separated, for each formation."""
        for card, f in self.state.formations.items():
            if f.kind != "combat":
                continue
            units = [u for u in self._units_of(card) if u.on_map and u.type.unit_class != "forward-observer"]
            if not units:
                continue
            radius = doctrine_radius(self.ctx.field.settings, self.ctx.model.cards[card])
            if radius is None:
                continue
            if len(units) == 1:
                continue  # §11.11: a lone unit keeps whatever marker it has
            centre, outside = best_centre(self.ctx.field, [u.hex for u in units], radius)
            for i, u in enumerate(units):
                u.separated = i in outside

    def _end_game(self) -> None:
        self.result = victory.evaluate(self)
        self.mode, self.side_to_act = "over", None
        self.log("game-over", **self.result)


def _direction(a, b) -> int:
    """Hexside index (0 up the page, clockwise) of the neighbour b of a."""
    return _sector(a, b)


_AXIAL_SIDE = {(0, -1): 0, (1, -1): 1, (1, 0): 2, (0, 1): 3, (-1, 1): 4, (-1, 0): 5}


def _sector(a, b) -> int:
    """Which of a's six hexsides faces towards b (0 up the page, clockwise)."""
    d = hexmath.sub(b, a)
    if d in _AXIAL_SIDE:
        return _AXIAL_SIDE[d]
    x = 1.5 * d[0]
    y = math.sqrt(3) * (d[1] + d[0] / 2)
    angle = math.degrees(math.atan2(y, x))  # screen coordinates: y down
    return int(((angle + 90) % 360 + 30) // 60) % 6


__all__ = ["Game", "EngineError", "SIDES", "other", "REMOVED"]
