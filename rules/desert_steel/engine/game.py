"""The Desert Steel game engine for the basic rules (§4-§11, §18) and part of the advanced
rules (§12-§14, §17: see IMPLEMENTED and missing_rules): a state machine with an
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
from ..model import CardVariant, CombatCard, CommandCard, DesertSteel, Scenario
from ..setup_checks import best_centre, doctrine_radius, expected_units
from ..visibility import VisibilityTable
from . import victory
from .dice import Dice
from .priority import priority
from .state import DESTROYED, EXITED, OFF_MAP, ON_MAP, REMOVED, Formation, State, Unit
from .tables import EXPERIENCE, Tables, hit_value

SIDES = ("allied", "axis")
ADVANCED_ONLY = "the advanced rules (§12-§17) are not implemented yet: this scenario cannot be played"

# The advanced rules the engine plays (issue 8 is partly done): a scenario that needs any other
# is refused by make_context, naming what is missing (see missing_rules).
IMPLEMENTED = ("non-vehicle units (§12)", "anti-infantry fire (§13.1)", "indirect fire (§13.2)",
               "entrenchment operations (§13.4)", "smoke (§17.1-17.4, from indirect fire and CS tanks)",
               "transport (§13.3, scenario transports set up on the map)", "overrun (§14.2)",
               "close assault (§14.1)", "entrenchments placed at set-up (§18.4)")

# Scenario transports belong to no formation (§13.31): each side's are filed under a pseudo card.
TRANSPORT_POOL = {"allied": -1, "axis": -2}


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
    advanced: bool = False  # the advanced rules (§12-§17) are in force (scenarios VI-XV)

    def table(self, vis: int) -> VisibilityTable:
        if vis not in self.visibility:
            saved = self.field.visibility
            self.field.visibility = vis
            self.visibility[vis] = VisibilityTable(self.field)
            self.field.visibility = saved
        return self.visibility[vis]

    def variant(self, card: int):
        if card < 0:  # §13.31: scenario transports have morale 7 and are Seasoned
            t = self.tables
            return CardVariant(0, (), t.setting("transport_experience", "seasoned"), "F",
                               t.setting("transport_morale", 7), 0)
        c = self.model.cards[card]
        return c.variant(self.years[c.side]) if isinstance(c, CombatCard) else None


def missing_rules(model: DesertSteel, scenario: Scenario) -> list[str]:
    """The advanced rules a scenario needs that the engine does not play yet (empty: playable)."""
    if scenario.rules == "basic":
        return []
    raw = scenario.raw
    need: list[str] = []
    sides = [raw["sides"][s] for s in SIDES]
    types = {t for s in SIDES for g in scenario.sides[s].groups + scenario.sides[s].reinforcements
             for c in g["cards"] for t in expected_units(model, scenario, s, c)}
    if any(t.get("turn", 1) > 1 for sd in sides for t in sd.get("transports", ())):
        need.append("scenario transports arriving as reinforcements (§13.3, §18.6)")
    fort = {k for sd in sides for k in sd.get("fortifications", {})}
    if "minefields" in fort:
        need.append("minefields (§15.1)")
    if "bunkers" in fort:
        need.append("bunkers (§15.2)")
    if "wire" in fort:
        need.append("wire (§15.3)")
    if any(model.unit_types[t].engineer for t in types) or \
            any(r["type"] == "engineer-capable" for r in raw.get("special_rules", ())):
        need.append("engineers (§15.4)")
    # handled elsewhere: setup checks (no-stacking), the terrain (level-override), the engine (the rest)
    known = {"die-roll-modifier", "self-spotting", "text-only", "no-stacking", "level-override"}
    for r in raw.get("special_rules", ()):
        if r["type"] not in known and r["type"] != "engineer-capable":
            need.append(f"scenario rule {r['type']} (§18.7)")
    return need


def make_context(model: DesertSteel, scenario: Scenario, allow: tuple = ()) -> Context:
    """What every game of a scenario shares (build once for a batch of games). ``allow``: missing
    rules to play anyway (for tests of a rule before the scenarios that need it are enabled)."""
    missing = [m for m in missing_rules(model, scenario) if m not in allow]
    if missing:
        raise EngineError(f"{scenario.id}: the advanced rules it needs are not all implemented yet; "
                          f"missing: {', '.join(missing)}")
    field_ = Battlefield.for_scenario(model, scenario)
    return Context(model, scenario, field_, Tables(model.rule_tables or {}),
                   {s: scenario.sides[s].year for s in SIDES},
                   exits=scenario.raw.get("exits", {}), special=tuple(scenario.raw.get("special_rules", ())),
                   advanced=scenario.rules != "basic")


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
        if self.ctx.advanced:
            self.state.smoke_points = {s: int(scenario.raw["sides"][s].get("smoke", 0) or 0) for s in SIDES}
        self._init_raids(setup or {})
        self._plan_raids()

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
                       "separated": u.separated} for u in s.units.values()
                      if not (u.hidden and u.side != side)],  # hidden FOs are on paper (§12.21)
            "shaken": sorted(c for c, f in s.formations.items() if f.shaken),
            "fire_zones": [dict(z) for z in s.fire_zones], "smoke": list(s.smoke),
            "smoke_points": dict(s.smoke_points), "entrenchments": [dict(e) for e in s.entrenchments],
            "loaded": {u.id: u.carried_by for u in s.units.values() if u.carried_by},
            "raids": [dict(r) for r in s.raids if r["side"] == side],  # the secret raid record (§16.21)
            "raid_deck": len(s.raid_deck),
        }

    def log(self, kind: str, **data) -> None:
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
        if any(placed.values()):
            leftover = [p for side in SIDES for p in placed[side]]
            raise EngineError(f"the setup places units that are not on the scenario's cards: {leftover[:3]}")

    def _make_fortifications(self, side: str, data: Mapping) -> None:
        """§18.4: empty entrenchments the setup places; other fortifications are not played yet."""
        for fort in data.get("fortifications", ()):
            if fort["type"] != "entrenchment":
                raise EngineError(f"{fort['type']} (§15.2-15.3) is not implemented yet")
            self.state.entrenchments.append({"hex": self.ctx.field.board.resolve(fort["hex"]), "occupant": None,
                                             "done": True, "turn": 0})
        if data.get("minefields"):
            raise EngineError("minefields (§15.1) are not implemented yet")

    def _make_transports(self, side: str, data: Mapping) -> None:
        """§13.31, §18.6: the scenario transports the setup places (they belong to no formation)."""
        placed = data.get("transports", ())
        if not placed:
            return
        if not self.ctx.advanced:
            raise EngineError("transports (§13.3) belong to the advanced rules")
        pool = TRANSPORT_POOL[side]
        self.state.formations[pool] = Formation(pool, side, "transport")
        for i, t in enumerate(placed):
            uid = f"T{'AX'[side == 'axis']}.{i + 1}"
            hex_ = self.ctx.field.board.resolve(t["hex"])
            facing = t.get("facing", 0 if side == "allied" else 3)
            self.state.units[uid] = Unit(uid, pool, self.ctx.model.unit_types[t["type"]], side, hex_, facing, ON_MAP)

    def _transports_off_map(self, side: str) -> None:
        """§18.6: a side whose forces all enter the map brings its turn-1 scenario transports with
        them (off the map, entering with what they carry)."""
        pool = TRANSPORT_POOL[side]
        n = 0
        for t in self.ctx.scenario.sides[side].raw.get("transports", ()):
            if t.get("turn", 1) > 1:
                continue
            self.state.formations.setdefault(pool, Formation(pool, side, "transport"))
            for _ in range(t["count"]):
                n += 1
                uid = f"T{'AX'[side == 'axis']}.{n}"
                self.state.units[uid] = Unit(uid, pool, self.ctx.model.unit_types[t["unit_type"]], side, None,
                                             0 if side == "allied" else 3, OFF_MAP)

    def _make_units(self, side, number, sets_up: bool, placements: list, enters: bool, hide: bool = False) -> None:
        units = expected_units(self.ctx.model, self.ctx.scenario, side, number)
        index = 0
        for type_id, count in sorted(units.items()):
            unit_type = self.ctx.model.unit_types[type_id]
            if unit_type.unit_class not in ("vehicle", "transport") and not self.ctx.advanced:
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
                    if "loaded_in" in match or match.get("in_bunker"):
                        raise EngineError("setting up loaded (§18.6) or in a bunker (§15.2) is not implemented yet")
                    if match.get("entrenched"):  # §18.4: entrenchments placed at set-up, finished
                        self.state.entrenchments.append({"hex": self.ctx.field.board.resolve(match["hex"]),
                                                         "occupant": uid, "done": True, "turn": 0})
                    hex_ = self.ctx.field.board.resolve(match["hex"])
                    facing = match.get("facing", facing)
                    status = ON_MAP
                # §12.21: FOs of the initial forces set up on the map may be hidden (the engine always
                # hides them when the scenario allows); entering FOs and reinforcements never are.
                hidden = hide and sets_up and unit_type.unit_class == "forward-observer" and \
                    match.get("hidden", True)  # a setup may place an FO openly
                self.state.units[uid] = Unit(uid, number, unit_type, side, hex_, facing, status, hidden=hidden)

    # --- raids (§16) ---------------------------------------------------------------------------

    AIR_PRIORITY = {"german": 3, "allied": 2, "italian": 1}  # §16.22: the highest number strikes first

    def _init_raids(self, setup: Mapping) -> None:
        """§16.1: the 9 raid cards shuffled (with the game's dice) into one deck when a side has
        raids; §16.21/§18.4: the air strikes each side is given, recorded with the setup's turns."""
        s, scen = self.state, self.ctx.scenario
        for side in SIDES:
            given = scen.raw["sides"][side].get("raids") or {}
            for a in given.get("air_strikes", ()):
                nat = a.get("nationality") or ("german" if side == "axis" else "allied")
                nat = nat if nat in self.AIR_PRIORITY else "allied"
                for _ in range(a["count"]):
                    s.raids.append({"side": side, "kind": "air-strike", "turn": None, "nationality": nat,
                                    "done": False})
            for _ in range(int(given.get("preplanned_bombardments", 0) or 0)):
                s.raids.append({"side": side, "kind": "bombardment", "turn": None, "spotting_card": None,
                                "done": False, "origin": "preplanned"})
            for _ in range(int(given.get("on_call_bombardments", 0) or 0)):
                s.raids.append({"side": side, "kind": "on-call", "done": False})
            pre = [r for r in setup.get("sides", {}).get(side, {}).get("raids", ())
                   if r["kind"] == "preplanned-bombardment"]
            pre_recs = [r for r in s.raids if r["side"] == side and r["kind"] == "bombardment"]
            if len(pre) > len(pre_recs):
                raise EngineError(f"the setup plans {len(pre)} preplanned bombardments for the {side} side, "
                                  f"the scenario gives {len(pre_recs)} (§16.31)")
            for rec, r in zip(pre_recs, pre):
                card = r.get("spotting_card")
                if card not in s.formations or s.formations[card].side != side or not self._observers(card):
                    raise EngineError(f"preplanned bombardment: formation {card} has no FO (§16.31)")
                if self._booked(side, card, r["turn"]):
                    raise EngineError(f"formation {card} spots two bombardments in turn {r['turn']} (§16.31)")
                rec["turn"], rec["spotting_card"] = r["turn"], card
                if r.get("raid_card"):
                    rec["raid_card"] = r["raid_card"]
            planned = [r for r in setup.get("sides", {}).get(side, {}).get("raids", ()) if r["kind"] == "air-strike"]
            mine = [r for r in s.raids if r["side"] == side]
            if len(planned) > len(mine):
                raise EngineError(f"the setup plans {len(planned)} air strikes for the {side} side, "
                                  f"the scenario gives {len(mine)} (§16.21)")
            if len({r["turn"] for r in planned}) < len(planned):
                raise EngineError("one air strike per player per turn (§16.21)")
            for rec, r in zip(mine, planned):
                rec["turn"] = r["turn"]
                if r.get("raid_card"):
                    rec["raid_card"] = r["raid_card"]  # a played record: the card drawn (replays)
        if s.raids:
            self.state.raid_deck = self._shuffled(sorted(self.ctx.model.raid_cards))
            self.log("raid-deck", cards=len(s.raid_deck), section="16.1")

    def _shuffled(self, cards: list) -> list:
        rest, out = list(cards), []
        while rest:
            out.append(rest.pop(self.dice._rng.randrange(len(rest))))
        return out

    def _plan_raids(self) -> None:
        """§16.21: before play each side records the turn of each unplanned air strike (a decision
        per strike, one strike per side per turn); then the first turn starts."""
        for rec in self.state.raids:
            if rec["kind"] == "air-strike" and rec["turn"] is None:
                if not self._plan_turns(rec["side"]):
                    rec["turn"], rec["done"] = 0, True  # more strikes than turns: the extra is lost
                    continue
                self.mode, self.side_to_act, self.cx = "plan-raid", rec["side"], {}
                return
        for rec in self.state.raids:
            if rec["kind"] == "bombardment" and rec["turn"] is None:
                if not self._plan_bombardment_choices(rec["side"]):
                    rec["turn"], rec["done"] = 0, True  # no formation with an FO: lost
                    self.log("bombardment-lost", side=rec["side"], reason="no formation with an FO",
                             section="16.31")
                    continue
                self.mode, self.side_to_act, self.cx = "plan-bombardment", rec["side"], {}
                return
        self._start_turn()

    def _plan_turns(self, side: str) -> list[int]:
        used = {r["turn"] for r in self.state.raids if r["side"] == side and r["kind"] == "air-strike"}
        return [t for t in range(1, self.ctx.scenario.turns + 1) if t not in used]

    def _legal_plan_raid(self):
        return [("raid-turn", t) for t in self._plan_turns(self.side_to_act)]

    def _do_plan_raid(self, action):
        rec = next(r for r in self.state.raids if r["side"] == self.side_to_act and r["turn"] is None)
        rec["turn"] = action[1]
        self.log("raid-planned", side=rec["side"], raid="air-strike", turn=action[1], section="16.21")
        self._plan_raids()

    def _air_strike_ready(self, side: str) -> dict | None:
        return next((r for r in self.state.raids if r["side"] == side and r["kind"] == "air-strike"
                     and r["turn"] == self.state.turn and not r["done"]), None)

    def _ask_air(self) -> bool:
        """§16.22: whenever a card goes on the stack, a side with an air strike this turn may
        interrupt it (regardless of C3); the side of higher air priority is asked first."""
        s = self.state
        top = s.stack[-1]
        ready = [(self.AIR_PRIORITY[r["nationality"]], side) for side in SIDES
                 if (r := self._air_strike_ready(side)) and (top, side) not in s.air_windows]
        if not ready:
            return False
        side = max(ready)[1]
        s.air_windows.add((top, side))
        self.mode, self.side_to_act, self.cx = "air-strike", side, {}
        return True

    def _legal_air_strike(self):
        return [("pass",), ("air-strike",)]

    def _do_air_strike(self, action):
        if action[0] == "pass":
            self._open_interrupts()
            return
        side = self.side_to_act
        rec = self._air_strike_ready(side)
        rec["done"] = True
        card = self._draw_raid(rec.get("raid_card"))
        air = self.ctx.model.raid_cards[card].air_strike
        self.log("air-strike", side=side, nationality=rec["nationality"], raid_card=card,
                 aircraft=air.get("aircraft"), passes=air["passes"], section="16.22")
        self.cx = {"raid_card": card, "passes": air["passes"], "markers": []}
        self._next_air_marker()

    def _draw_raid(self, wanted: str | None = None) -> str:
        """The top card of the deck (``wanted``: the card a played raid record names, for replays)."""
        s = self.state
        if wanted is not None:
            if wanted not in s.raid_deck:
                raise EngineError(f"raid card {wanted} is not in the raid deck (§16.1)")
            s.raid_deck.remove(wanted)
            s.raid_used.append(wanted)
            return wanted
        if not s.raid_deck:  # every card drawn this turn: the used ones are shuffled back (§16.1)
            s.raid_deck, s.raid_used = self._shuffled(s.raid_used), []
        card = s.raid_deck.pop(0)
        s.raid_used.append(card)
        return card

    def _air_targets(self, side: str, markers: list) -> list[Unit]:
        """§16.24: any enemy unit on the map (no spotting, no LOS), in a hex holding or adjacent
        to a hex holding another air-strike marker; hidden FOs are only on paper (§12.21)."""
        board = self.ctx.field.board
        hexes = {self.state.units[m].hex for m in markers}
        return [u for u in self.state.units.values() if u.side != side and u.on_map and not u.hidden
                and not u.carried_by and (not hexes or u.hex in hexes
                                          or any(board.distance(u.hex, h) == 1 for h in hexes))]

    def _next_air_marker(self) -> None:
        if len(self.cx["markers"]) < self.cx["passes"] and self._air_targets(self.side_to_act, self.cx["markers"]):
            self.mode = "air-target"
            return
        self._resolve_air_strike()

    def _legal_air_target(self):
        return [("air-target", u.id) for u in self._air_targets(self.side_to_act, self.cx["markers"])]

    def _do_air_target(self, action):
        self.cx["markers"] = self.cx["markers"] + [action[1]]  # new lists: clones share cx's values
        self._next_air_marker()

    def _resolve_air_strike(self) -> None:
        """§16.23: 1d6 per marker (1: the aircraft miss it), then each marker attacks its unit alone
        with the indirect-fire procedure: no range modifier, no fire zone, no flash kill."""
        t = self.ctx.tables
        air = self.ctx.model.raid_cards[self.cx["raid_card"]].air_strike
        abort = t.setting("air_strike_abort_roll", 1)
        live = []
        for uid in self.cx["markers"]:
            roll = self.dice.roll(1)[0]
            self.log("air-strike-spot", target=uid, roll=roll, aborted=roll <= abort, section="16.23")
            if roll > abort:
                live.append(uid)
        for uid in live:
            target = self.state.units[uid]
            if not target.on_map:
                continue  # already destroyed by an earlier marker
            mode = self._raid_mode(target, air)
            mods = self.raid_modifiers(target, mode)
            self._attack(target, air["anti_vehicle" if mode == "av" else "anti_infantry"], mods,
                         unit=f"raid:{self.cx['raid_card']}", air_strike=True, mode=mode, section="16.23")
        if self.state.stack:
            self._open_interrupts()
        else:
            self._next_card()

    def _raid_mode(self, target: Unit, raid: Mapping) -> str:
        """AV against vehicles, AI against the rest; against lightly armoured vehicles the better
        of the two (the raiding player's choice, §16.23/§16.33, made by the engine)."""
        if not target.type.is_vehicle:
            return "ai"
        if not target.type.lightly_armored:
            return "av"
        ai = raid["anti_infantry"] + self.ctx.tables.fire("anti_infantry_vs_lightly_armored")
        return "ai" if ai > raid["anti_vehicle"] else "av"

    def raid_modifiers(self, target: Unit, mode: str) -> dict[str, float]:
        """The indirect-fire modifiers that concern the target (§16.23: no range modifier; the
        aircraft or batteries have no experience nor facing)."""
        t = self.ctx.tables
        mods = {}
        if target.moved:
            mods["moving_target"] = t.fire("moving_target")
        if self._experience(target) == "veteran":
            mods["target_veteran"] = t.fire("target_veteran")
        if mode == "ai" and target.type.is_vehicle:
            mods["anti_infantry_vs_lightly_armored"] = t.fire("anti_infantry_vs_lightly_armored")
        if self._entrenched(target):
            mods["target_entrenched"] = t.fire("target_entrenched")
        return mods

    # artillery bombardments (§16.3): preplanned (§16.31-16.34) and on call (§16.35-16.37)

    def _observers(self, card: int, ready: bool = False) -> list[Unit]:
        """§16.31: the FOs (or Jeeps) of a formation that may spot a bombardment."""
        return [u for u in self._units_of(card) if (u.type.unit_class == "forward-observer" or
                                                    u.type.counts_as_observer)
                and (not ready or (u.on_map and u.ready and not u.carried_by))]

    def _booked(self, side: str, card: int, turn: int) -> bool:
        return any(r["kind"] == "bombardment" and r["side"] == side and r["spotting_card"] == card
                   and r["turn"] == turn for r in self.state.raids)

    def _plan_bombardment_choices(self, side: str) -> list[tuple]:
        s = self.state
        cards = [c for c, f in sorted(s.formations.items()) if f.side == side and f.kind == "combat"
                 and self._observers(c)]
        return [("bombardment-plan", t, c) for t in range(1, self.ctx.scenario.turns + 1) for c in cards
                if s.formations[c].arrival <= t and not self._booked(side, c, t)]

    def _legal_plan_bombardment(self):
        return self._plan_bombardment_choices(self.side_to_act)

    def _do_plan_bombardment(self, action):
        rec = next(r for r in self.state.raids if r["side"] == self.side_to_act and r["kind"] == "bombardment"
                   and r["turn"] is None)
        rec["turn"], rec["spotting_card"] = action[1], action[2]
        self.log("raid-planned", side=rec["side"], raid="preplanned-bombardment", turn=action[1],
                 spotting_card=action[2], section="16.31")
        self._plan_raids()

    def _start_bombardments(self, cards: list[int]) -> bool:
        """§16.32/16.36: when the spotting formation is activated in the planned turn, a raid card is
        drawn and the bombardment resolved; cancelled when all its FOs are gone, suppressed or
        flipped. True when a bombardment decision is now pending."""
        s = self.state
        for rec in s.raids:
            if rec["kind"] != "bombardment" or rec["done"] or rec["turn"] != s.turn \
                    or rec["spotting_card"] not in cards:
                continue
            rec["done"] = True
            if not self._observers(rec["spotting_card"], ready=True):
                self.log("bombardment-cancelled", side=rec["side"], spotting_card=rec["spotting_card"],
                         reason="no ready FO", section="16.32")
                continue
            card = self._draw_raid(rec.get("raid_card"))
            self.log("bombardment", side=rec["side"], raid_card=card, spotting_card=rec["spotting_card"],
                     origin=rec.get("origin", "preplanned"), section="16.33")
            if self._open_bombardment(rec["side"], rec["spotting_card"], card, then="begin"):
                return True
        return False

    def _open_bombardment(self, side: str, card: int, raid_card: str, then: str) -> bool:
        self.cx["bombard"] = {"card": card, "raid_card": raid_card, "markers": [], "then": then}
        self.mode, self.side_to_act = "bombard", side
        if not self._legal_bombard():
            self.log("bombardment-no-target", raid_card=raid_card, section="16.33")
            self.cx.pop("bombard")
            return False
        return True

    def _may_call(self, u: Unit) -> bool:
        """§16.35: an active FO of an activated formation, while the side has on-call bombardments
        left and the formation has not called one this turn (§16.34 example)."""
        s = self.state
        if not (u.type.unit_class == "forward-observer" or u.type.counts_as_observer) or not u.ready \
                or not u.on_map or u.carried_by:
            return False
        pool = [r for r in s.raids if r["side"] == u.side and r["kind"] == "on-call"]
        return any(not r["done"] for r in pool) and \
            not any(r["done"] and r.get("called") == (s.turn, u.card) for r in pool)

    def _call_bombardment(self, fo: Unit) -> None:
        s = self.state
        rec = next(r for r in s.raids if r["side"] == fo.side and r["kind"] == "on-call" and not r["done"])
        rec["done"], rec["called"] = True, (s.turn, fo.card)
        card = self._draw_raid()
        delay = int(self.ctx.model.raid_cards[card].bombardment["on_call_delay"])
        self.log("bombardment-call", side=fo.side, unit=fo.id, raid_card=card, delay=delay, section="16.35")
        if delay == 0:
            if self._open_bombardment(fo.side, fo.card, card, then="activation"):
                return
        else:  # §16.36: the card waits for the Morale Phase; the raid comes `delay` turns later
            turn = s.turn + delay
            while self._booked(fo.side, fo.card, turn):
                turn += 1  # the first turn the formation is not booked (§16.36 note)
            s.raids.append({"side": fo.side, "kind": "bombardment", "turn": turn, "spotting_card": fo.card,
                            "done": turn > self.ctx.scenario.turns, "origin": "on-call"})
            self.log("bombardment-delayed", side=fo.side, spotting_card=fo.card, turn=turn, section="16.36")
            fo.flipped = True  # the request is the FO's operation (NOTES.md)
        self._back_to_activation()

    def _bombard_targets(self, fo: Unit) -> list[Unit]:
        b = self.cx["bombard"]
        board = self.ctx.field.board
        hexes = {self.state.units[t].hex for _, t in b["markers"]}
        return [u for u in self.state.units.values() if u.side != fo.side and u.on_map and not u.hidden
                and not u.carried_by and (u.hex == fo.hex or self._visible(fo.hex, u.hex))
                and (not hexes or u.hex in hexes or any(board.distance(u.hex, h) == 1 for h in hexes))]

    def _legal_bombard(self):
        t = self.ctx.tables
        b = self.cx["bombard"]
        if len(b["markers"]) >= t.setting("bombardment_markers", 3):
            return []
        per_fo = t.setting("bombardment_targets_per_observer", 3)
        out = [("bombard", fo.id, x.id) for fo in self._observers(b["card"], ready=True)
               if sum(f == fo.id for f, _ in b["markers"]) < per_fo for x in self._bombard_targets(fo)]
        return out + [("fire-bombardment",)] if out and b["markers"] else out

    def _do_bombard(self, action):
        if action[0] == "bombard":  # new dict and list: clones share cx's values
            self.cx["bombard"] = {**self.cx["bombard"],
                                  "markers": self.cx["bombard"]["markers"] + [(action[1], action[2])]}
            if self._legal_bombard():
                return
        self._resolve_bombardment()

    def _resolve_bombardment(self) -> None:
        """§16.33: one spotting roll per marker by its FO (§9.14 procedure); each spotted marker
        attacks its unit (indirect-fire procedure, no range modifier), leaves a fire zone, and the
        other units of the hex are attacked at the fire-zone modifier; the FOs are flipped."""
        t = self.ctx.tables
        b = self.cx.pop("bombard")
        bomb = self.ctx.model.raid_cards[b["raid_card"]].bombardment
        board = self.ctx.field.board
        hits = []
        for fid, tid in b["markers"]:
            fo, target = self.state.units[fid], self.state.units[tid]
            d = board.distance(fo.hex, target.hex)
            if d == 0:
                spotted, number, roll, mods = True, 0, None, {}
            else:
                number = t.spotting_number(d, self._cover(fo, target) and not target.fired)
                mods = self.spot_modifiers(fo, target, False, False)
                roll = self.dice.roll(1)[0]
                spotted = roll + sum(mods.values()) >= number
            self.log("spot", unit=fid, target=tid, distance=d, number=number, roll=roll, modifiers=mods,
                     success=spotted, bombardment=b["raid_card"], section="16.33")
            if spotted:
                hits.append((tid, target.hex))
        for tid, hex_ in hits:
            target = self.state.units[tid]
            if target.on_map and target.hex == hex_:
                mode = self._raid_mode(target, bomb)
                self._attack(target, bomb["anti_vehicle" if mode == "av" else "anti_infantry"],
                             self.raid_modifiers(target, mode), unit=f"raid:{b['raid_card']}", bombardment=True,
                             mode=mode, section="16.33")
            side = self.state.formations[b["card"]].side
            zone = {"hex": hex_, "side": side, "firer": None, "firer_hex": None, "raid_card": b["raid_card"],
                    "anti_vehicle": bomb["anti_vehicle"], "anti_infantry": bomb["anti_infantry"],
                    "turn": self.state.turn}
            self.state.fire_zones.append(zone)
            self.log("fire-zone", **zone, section="16.33")
            for x in [x for x in self.state.at(hex_) if x.side != side and x is not target and not x.carried_by]:
                if x.hidden:
                    self._reveal(x, "attacked by a bombardment's fire zone")
                mode = self._raid_mode(x, bomb)
                mods = {**self.raid_modifiers(x, mode), "fire_zone": t.fire("fire_zone")}
                self._attack(x, bomb["anti_vehicle" if mode == "av" else "anti_infantry"], mods,
                             unit=f"raid:{b['raid_card']}", zone=True, mode=mode, section="16.33")
        for fid in dict.fromkeys(f for f, _ in b["markers"]):
            fo = self.state.units[fid]
            fo.if_spotted = True
            if fo.on_map:
                fo.flipped = True  # §16.33: every FO that spotted is flipped
        if b["then"] == "begin":
            self._begin_activation(self.cx["cards"])
        else:
            self._back_to_activation()

    def _lose_bombardments(self) -> None:
        """§16.32: a planned bombardment not made in its turn is lost."""
        for rec in self.state.raids:
            if rec["kind"] == "bombardment" and not rec["done"] and rec["turn"] == self.state.turn:
                rec["done"] = True
                self.log("bombardment-lost", side=rec["side"], spotting_card=rec["spotting_card"], section="16.32")

    def _reshuffle_raids(self) -> None:
        """§16.1, Morale step 7: the cards resolved or set aside go under the deck; reshuffle."""
        s = self.state
        self._lose_bombardments()
        if s.raid_used:
            s.raid_deck = self._shuffled(s.raid_deck + s.raid_used)
            s.raid_used = []
            self.log("raid-deck-reshuffled", cards=len(s.raid_deck), section="16.1")
        s.air_windows.clear()

    # --- turn structure (§4) ------------------------------------------------------------------

    def _start_turn(self) -> None:
        s = self.state
        from ..battlefield import visibility_on
        s.visibility = visibility_on(self.ctx.scenario, s.turn)
        self.log("turn", visibility=s.visibility)
        for side in SIDES:
            s.hands[side] = sorted(c for c, f in s.formations.items()
                                   if f.side == side and f.arrival <= s.turn and not f.shaken
                                   and f.kind != "transport" and (f.kind == "command" or self._has_units(c)))
        for u in s.units.values():  # §13.3 step 1: transports load what shares their hex now
            u.start_hex = u.hex if u.status == ON_MAP else None
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
        if self.state.raids and self._ask_air():
            return
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
        if self.state.raids and self._start_bombardments(cards):
            return
        self.mode, self.side_to_act = "activation", side
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
                if u.status == OFF_MAP and s.formations[c].arrival == s.turn and not u.flipped and not u.type.towed]

    def _legal_activation(self):
        out = []
        if self.ctx.advanced:
            for u in self.state.units.values():  # §13.31: scenario transports join any activation to carry
                if u.card < 0 and u.side == self.side_to_act and self._loadable(u):
                    out.append(("op", u.id, "transport"))
        for card in self.cx["cards"]:
            for u in self._units_of(card):
                if u.status == OFF_MAP and self.state.formations[card].arrival == self.state.turn and not u.flipped:
                    if not u.type.towed:  # §12.3: a towed gun enters only in tow
                        out.append(("op", u.id, "move"))
                    if u.type.formation_transport and self.ctx.advanced and self._loadable(u):
                        out.append(("op", u.id, "transport"))  # §13.32, §18.6: a Carrier or Jeep tows it in
                    continue
                if not u.ready:
                    continue
                if not u.type.towed and not self._pinned(u):  # §12.3: towed guns move in tow only
                    out.append(("op", u.id, "move"))
                if u.type.unit_class == "infantry" and self.ctx.advanced and self._assault_hexes(u):
                    out.append(("op", u.id, "assault"))
                if self._fireable(u) and u.id not in self.cx.get("cancelled", ()):
                    out.append(("op", u.id, "fire"))
                    if not u.flash_kill and self._factor(u, True) is not None and u.type.is_vehicle:
                        out.append(("op", u.id, "move-fire"))
                    if u.type.indirect_fire and self.ctx.advanced and \
                            (self._indirect_plans(u) or (self._may_smoke(u, True) and self._spotters(u))):
                        out.append(("op", u.id, "indirect"))
                if self._may_entrench(u):
                    out.append(("op", u.id, "entrench"))
                if self._may_overrun(u):
                    out.append(("op", u.id, "overrun"))
                if self.state.raids and self._may_call(u):
                    out.append(("op", u.id, "call-bombardment"))  # §16.35
                if u.type.formation_transport and self.ctx.advanced and self._loadable(u):
                    out.append(("op", u.id, "transport"))  # §13.32: Carriers and Jeeps
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
        if kind == "call-bombardment":
            self._call_bombardment(u)
            return
        self.cx["unit"], self.cx["op"] = uid, kind
        if kind == "fire":
            self._start_targeting(u, move_fire=False)
        elif kind == "assault":
            self.cx["assault"] = {"units": [uid]}
            self.mode = "assault-hex"
        elif kind == "transport":
            self.cx["loaded"] = []
            self.mode = "load"
        elif kind == "entrench":
            self._entrench(u)
            self._finish_operation(u)
        elif kind == "indirect":
            spotters = self._spotters(u) if self._may_smoke(u, True) else [sp for sp, _ in self._indirect_plans(u)]
            self.cx["spotters"] = sorted({sp.id for sp in spotters})
            self.mode = "spotter"
        else:
            mp = self.ctx.field.allowance(u.type)
            if kind == "move-fire":
                mp = math.floor(mp * self.ctx.tables.setting("move_and_fire_mp_fraction", 0.5))
            self.cx.update(mp=mp, spent=0, steps=0)
            if kind == "overrun":
                self.cx["overrun"] = "pending"
            self.mode = "move"
            if u.status == OFF_MAP and self._legal_move() == [("stop",)]:
                self.log("cannot-enter", unit=uid, reason="every entry hex is out of reach")
                u.flipped = True
                self._back_to_activation()

    def _back_to_activation(self) -> None:
        for key in ("unit", "op", "mp", "spent", "steps", "targets", "move_fire", "spotter", "spotters",
                    "smoke_hexes", "loaded", "overrun", "reactors", "assault", "bombard"):
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
            card = u.card if u.card >= 0 else self.state.units[self.cx["loaded"][0]].card  # §18.6
            zone = self.state.formations[card].entry_zone
            for h in sorted(zone):
                cost = f.enter_cost(u.type, h, h)
                if cost == "prohibited":
                    continue
                out.append(("step", h))
            return out or [("stop",)]
        first = self.cx["steps"] == 0
        carrying = bool(self.cx.get("loaded"))
        for n in f.board.neighbours(u.hex):
            if carrying and any(e.side != u.side and e.type.unit_class != "forward-observer"
                                for e in self.state.at(n)):
                continue  # §13.35: a transport never enters an enemy-occupied hex (FOs excepted)
            if not u.type.is_vehicle and self.ctx.advanced and any(
                    e.side != u.side and e.type.is_vehicle and e.type.transport_capacity not in ("truck", "motorcycle")
                    for e in self.state.at(n)):
                continue  # §14: only a close assault takes infantry into a hex with enemy vehicles
            cost = f.enter_cost(u.type, u.hex, n)
            if cost == "prohibited" or (cost == "all" and not first):
                continue
            if cost == "all" or spent + cost <= mp or first:
                out.append(("step", n))
        if self.cx.get("overrun") == "pending":
            out += [("overrun", n) for n in f.board.neighbours(u.hex) if self._overrun_cost(u, n) is not None]
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
        if action[0] == "overrun":
            self._overrun(u, dest)
            return
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
        if u.hidden:  # §12.22: an FO leaving its deployment hex is placed on the map
            self._reveal(u, "moved")
        if u.hex is not None:
            self._leave_entrenchment(u)
        u.hex, u.moved, u.spotted = dest, True, None
        for p in self._passengers(u):  # §13.3 step 3: the passengers move with their carrier
            self._leave_entrenchment(p)
            p.hex, p.moved, p.facing, p.status = dest, True, u.facing, ON_MAP
        self.log("move", unit=u.id, hex=dest, spent=self.cx["spent"])
        enemies_here = [e for e in self.state.at(dest) if e.side != u.side]
        for e in enemies_here:
            if e.hidden:  # §12.22: an enemy entering its hex reveals an FO
                self._reveal(e, "enemy entered its hex")
        # §12.2: entering a hex holding only enemy FOs need not stop the move
        self.cx["stopped_by_enemy"] = any(e.type.unit_class != "forward-observer" for e in enemies_here)
        self.cx["same_hex_done"] = []
        self._zone_attacks(u)  # §13.26: fire zones attack before opportunity fire
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
        self._leave_entrenchment(u)
        for p in [x for x in self.state.units.values() if x.carried_by == u.id]:
            p.carried_by = None
            self._exit(p, edge)  # passengers leave with their carrier
        u.status, u.fate = EXITED, {"turn": self.state.turn, "edge": edge, "map": map_id, "counts_as_loss": loss}
        u.hidden = False  # a hidden FO leaving the map is no longer on paper (§12.21)
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

    def _same_hex_firers(self, mover: Unit) -> list[Unit]:
        """§12.14: enemy infantry in the hex a unit enters may fire at it, flipped or not (not an
        operation); suppressed units and units of shaken formations cannot fire (§10.13, §10.14)."""
        if not self.ctx.advanced or not mover.on_map:
            return []
        done = self.cx.get("same_hex_done", ())
        return [u for u in self.state.at(mover.hex)
                if u.side != mover.side and u.type.unit_class == "infantry" and not u.suppressed and not u.carried_by
                and not self.state.formations[u.card].shaken and u.id not in done and self._fire_modes(u, mover)]

    def _opp_actions(self, mover: Unit) -> list:
        out = []
        for u in self._same_hex_firers(mover):
            out += [("same-hex-fire", u.id) if m == self._natural_mode(mover) else ("same-hex-fire", u.id, m)
                    for m in self._fire_modes(u, mover)]
        for u in self._opportunity_firers(mover):
            out += [("opp-fire", u.id) if m == self._natural_mode(mover) else ("opp-fire", u.id, m)
                    for m in self._fire_modes(u, mover)]
        return out

    def _open_opportunity(self, mover: Unit) -> None:
        self.cx["mover"] = mover.id
        if mover.suppressed or not self._opp_actions(mover):
            self._after_opportunity(mover)
            return
        self.mode, self.side_to_act = "opportunity", other(mover.side)

    def _legal_opportunity(self):
        mover = self.state.units[self.cx["mover"]]
        return self._opp_actions(mover) + [("opp-pass",)]

    def _do_opportunity(self, action):
        mover = self.state.units[self.cx["mover"]]
        if action[0] == "opp-pass":
            self._after_opportunity(mover)
            return
        firer = self.state.units[action[1]]
        mode = action[2] if len(action) > 2 else None
        if action[0] == "same-hex-fire":
            self.cx["same_hex_done"] = self.cx.get("same_hex_done", []) + [firer.id]
            self.log("same-hex-fire", unit=firer.id, target=mover.id, flipped=firer.flipped, section="12.14")
            self._shoot(firer, mover, opportunity=True, move_fire=False, mode=mode, same_hex=True)
        else:
            firer.opportunity_fired = True
            self.log("opportunity-fire", unit=firer.id, target=mover.id, section="9.4")
            self._shoot(firer, mover, opportunity=True, move_fire=False, mode=mode)
        if mover.on_map and not mover.suppressed and self._opp_actions(mover):
            self.mode, self.side_to_act = "opportunity", other(mover.side)
        else:
            self._after_opportunity(mover)

    # --- fire (§9) ---------------------------------------------------------------------------

    def _factor(self, u: Unit, vs_vehicle: bool) -> int | None:
        return u.type.anti_vehicle if vs_vehicle else u.type.anti_infantry

    def _range(self, u: Unit, vs_vehicle: bool) -> int | None:
        if vs_vehicle and u.type.anti_vehicle_range is not None:
            return u.type.anti_vehicle_range
        if vs_vehicle and u.type.unit_class == "infantry":
            return 0  # §12.13: one range box is the AI range; AV fire only in the unit's own hex
        return u.type.range

    @staticmethod
    def _natural_mode(target: Unit) -> str:
        """AV fire at vehicles, AI fire at non-vehicles (§13.1); AI at lightly armoured is a choice."""
        return "av" if target.type.is_vehicle else "ai"

    def _fire_modes(self, firer: Unit, target: Unit, indirect: bool = False) -> list[str]:
        """The kinds of fire (``"av"``, ``"ai"``) the firer may direct at the target: factor, range,
        the stacking limits of §8.51 and §13.13 (no line of sight or dice here)."""
        if not (firer.on_map and target.on_map) or target.hidden or target.carried_by or firer.carried_by:
            return []  # §13.36: fire at the carrier, never at its passengers; passengers never fire
        if not self.ctx.advanced:  # basic rules (vehicles only): the short path
            vs_vehicle = target.type.is_vehicle
            factor, reach = self._factor(firer, vs_vehicle), self._range(firer, vs_vehicle)
            if factor is None or reach is None or self.ctx.field.board.distance(firer.hex, target.hex) > reach:
                return []
            if vs_vehicle and firer.hex != target.hex and \
                    any(x.side == firer.side and x.type.is_vehicle for x in self.state.at(target.hex)):
                return []  # §8.51
            return ["av" if vs_vehicle else "ai"]
        modes = ["av"] if target.type.is_vehicle else ["ai"]
        if target.type.is_vehicle and target.type.lightly_armored and self.ctx.advanced:
            modes.append("ai")  # §13.13: AI fire may be directed at a lightly armoured vehicle
        d = self.ctx.field.board.distance(firer.hex, target.hex)
        there = None
        out = []
        for m in modes:
            factor = self._factor(firer, m == "av")
            reach = firer.type.range if indirect else self._range(firer, m == "av")
            if factor is None or reach is None or d > reach:
                continue
            if firer.hex != target.hex:
                there = there if there is not None else [x for x in self.state.at(target.hex) if x.side == firer.side]
                if m == "av" and not indirect and any(x.type.is_vehicle for x in there):
                    continue  # §8.51: no anti-vehicle fire into a hex holding friendly vehicles
                if m == "ai" and self.ctx.advanced and \
                        any(not x.type.is_vehicle or x.type.lightly_armored for x in there):
                    continue  # §13.13: no AI fire into a hex holding friendly non-vehicles/light armour
                if indirect and there:
                    continue  # §13.21: never at a hex holding friendly units (except the firer's own)
            out.append(m)
        return out

    def _can_target(self, firer: Unit, target: Unit) -> bool:
        """Range, line of sight and the stacking restrictions of §8.51 (no dice)."""
        if not self._fire_modes(firer, target):
            return False
        if firer.hex != target.hex and any(e.side != firer.side and not e.hidden for e in self.state.at(firer.hex)):
            return False  # §8.51: only at units in its own hex
        return self._visible(firer.hex, target.hex)

    def _visible(self, a: str, b: str) -> bool:
        """Line of sight within the turn's visibility; smoke markers block it (§17.3) except in
        the two end hexes."""
        if not self.ctx.table(self.state.visibility).visible(a, b):
            return False
        if not self.state.smoke or a == b:
            return True
        board = self.ctx.field.board
        pa, pb = board.axial(a), board.axial(b)
        v = hexmath.sub(pb, pa)
        smoky = {board.axial(h) for h in self.state.smoke}
        policy = self.ctx.field.settings.get("line_of_sight_policy", "sampled")
        for step in hexmath.line_pattern(v, policy).steps:
            cells = [hexmath.add(pa, o) for o in step if o != (0, 0) and o != v]
            if cells and all(c in smoky for c in cells):
                return False
        return True

    def _smoke_hexes(self, firer: Unit, viewer: Unit) -> list[str]:
        """§17.2: any hex in the firer's range within the spotting unit's visibility (no roll)."""
        board = self.ctx.field.board
        reach = firer.type.range or 0
        return [h for h in self.ctx.table(self.state.visibility).seen_from(viewer.hex)
                if board.distance(firer.hex, h) <= reach and self._visible(viewer.hex, h)]

    def _may_smoke(self, firer: Unit, indirect: bool) -> bool:
        if not self.ctx.advanced or self.state.smoke_points.get(firer.side, 0) <= 0:
            return False
        if indirect:
            return firer.type.indirect_fire
        return firer.type.close_support and not firer.smoked

    def _legal_smoke_hex(self):
        return [("hex", h) for h in self.cx["smoke_hexes"]] + [("cancel",)]

    def _do_smoke_hex(self, action):
        u = self.state.units[self.cx["unit"]]
        if action[0] == "cancel":
            self._cancel_declared(u)
            return
        self.state.smoke.append(action[1])
        self.state.smoke_points[u.side] -= 1
        spotter = self.state.units[self.cx["spotter"]] if self.cx.get("spotter") else None
        if spotter is not None:
            spotter.if_spotted = spotter.flipped = True  # it designated the hex (§17.2)
        else:
            u.smoked = True  # a CS tank: one smoke fire per turn (§17.2)
        self.log("smoke", unit=u.id, hex=action[1], spotter=spotter.id if spotter else None,
                 points_left=self.state.smoke_points[u.side], section="17.2")
        self._finish_operation(u)

    def _targets(self, firer: Unit) -> list[Unit]:
        return [t for t in self.state.units.values() if t.side != firer.side and self._can_target(firer, t)]

    def _target_actions(self, firer: Unit, targets: list[Unit], indirect: bool = False) -> list:
        out = []
        for t in targets:
            out += [("target", t.id) if m == self._natural_mode(t) else ("target", t.id, m)
                    for m in self._fire_modes(firer, t, indirect)]
        return out

    def _start_targeting(self, u: Unit, move_fire: bool) -> None:
        targets = self._targets(u)
        self.cx["move_fire"] = move_fire
        if not targets and self._may_smoke(u, False):
            self.cx["targets"] = []
            self.mode = "target"
            return
        if not targets:
            self.log("no-target", unit=u.id, section="9.19")
            if move_fire:
                self._finish_operation(u)
            else:  # an aborted attempt is not an operation: the unit may do something else
                self._back_to_activation()
            return
        self.cx["targets"] = self._target_actions(u, targets)
        self.mode = "target"

    def _legal_target(self):
        out = list(self.cx["targets"])
        u = self.state.units[self.cx["unit"]]
        if self._may_smoke(u, bool(self.cx.get("spotter"))):
            out.append(("smoke",))  # §17.2: a hex instead of a unit
        return out + [("hold",)] if self.cx.get("move_fire") else out + [("cancel",)]

    def _cancel_declared(self, u: Unit) -> None:
        """A declared fire (or smoke, assault) withdrawn before any roll is not an operation
        (§9.19): the unit may still move, but not declare it again in this activation. After a
        move-and-fire's move the operation is over."""
        self.cx["cancelled"] = self.cx.get("cancelled", ()) + (u.id,)
        if self.cx.get("move_fire"):
            self._finish_operation(u)
        else:
            self._back_to_activation()

    def _do_target(self, action):
        u = self.state.units[self.cx["unit"]]
        if action[0] == "cancel":  # not an operation (§9.19); it may still move, not declare fire again
            self._cancel_declared(u)
            return
        if action[0] == "hold":
            self._finish_operation(u)
            return
        if action[0] == "smoke":
            viewer = self.state.units[self.cx["spotter"]] if self.cx.get("spotter") else u
            self.cx["smoke_hexes"] = self._smoke_hexes(u, viewer)
            self.mode = "smoke-hex"
            return
        target = self.state.units[action[1]]
        mode = action[2] if len(action) > 2 else None
        if self.cx.get("spotter"):
            self._indirect_fire(u, self.state.units[self.cx["spotter"]], target, mode)
            self._finish_operation(u)
            return
        if self._shoot(u, target, opportunity=False, move_fire=self.cx["move_fire"], mode=mode):
            self.cx["flash_now"] = True  # §9.36: not flipped, one more operation later
        self._finish_operation(u)

    # --- close assault (§14.1) -------------------------------------------------------------------

    def _pinned(self, u: Unit) -> bool:
        """§14.11: after an assault, infantry stays while an enemy unit shares its hex."""
        if u.pinned and not any(e.side != u.side and not e.hidden for e in self.state.at(u.hex)):
            u.pinned = False
        return u.pinned

    @staticmethod
    def _armour(u: Unit) -> bool:
        """Vehicles in §14's sense: trucks and motorcycles are not."""
        return u.type.is_vehicle and u.type.transport_capacity not in ("truck", "motorcycle")

    def _may_assault(self, u: Unit, h: str) -> bool:
        """§14.11: ready infantry of the activated formation, in or next to a hex of enemy vehicles
        without enemy infantry; the vehicles in cover, the infantry in an entrenchment, or entering
        through a vehicle's flank arc; no more than the stacking limit."""
        if u.type.unit_class != "infantry" or not u.ready or u.carried_by or u.card not in self.cx.get("cards", ()):
            return False
        board = self.ctx.field.board
        if board.distance(u.hex, h) > 1:
            return False
        there = [e for e in self.state.at(h) if e.side != u.side and not e.hidden]
        vehicles = [e for e in there if self._armour(e)]
        if not vehicles or any(e.type.unit_class == "infantry" for e in there):
            return False
        if u.hex != h and self.ctx.field.enter_cost(u.type, u.hex, h) == "prohibited":
            return False
        if self._entrenched(u):
            return True
        terrain = self.ctx.field.terrain
        if terrain.hexes[h].building or terrain.level(h) > terrain.level(u.hex):
            return True
        return u.hex != h and any(self._in_flank(v, u.hex) for v in vehicles)

    def _assault_hexes(self, u: Unit) -> list[str]:
        if u.type.unit_class != "infantry" or not u.ready:
            return []
        board = self.ctx.field.board
        return [h for h in [u.hex] + list(board.neighbours(u.hex)) if self._may_assault(u, h)]

    def _assault_room(self, h: str, side: str, joining: list) -> bool:
        limit = self.ctx.tables.stacking()["units"]
        already = [x for x in self.state.at(h) if x.side == side and x.id not in joining]
        return len(already) + len(joining) <= limit

    def _legal_assault_hex(self):
        u = self.state.units[self.cx["unit"]]
        return [("hex", h) for h in self._assault_hexes(u) if self._assault_room(h, u.side, [u.id])] + [("cancel",)]

    def _do_assault_hex(self, action):
        u = self.state.units[self.cx["unit"]]
        if action[0] == "cancel":
            self._cancel_declared(u)
            return
        self.cx["assault"] = {**self.cx["assault"], "hex": action[1]}  # copied: clones share cx values
        self.mode = "assault-join"

    def _legal_assault_join(self):
        a = self.cx["assault"]
        me = self.state.units[self.cx["unit"]]
        out = [("join", x.id) for c in self.cx["cards"] for x in self._units_of(c)
               if x.id not in a["units"] and x.side == me.side and x.on_map and self._may_assault(x, a["hex"])
               and self._assault_room(a["hex"], me.side, a["units"] + [x.id])]
        return out + [("go",)]

    def _do_assault_join(self, action):
        a = self.cx["assault"] = dict(self.cx["assault"])
        if action[0] == "join":
            a["units"] = a["units"] + [action[1]]
            return
        h = a["hex"]
        self.log("close-assault", units=a["units"], hex=h, section="14.1")
        f = self.ctx.field
        going = []
        for uid in a["units"]:  # step 1: each takes a morale check; failure flips it
            x = self.state.units[uid]
            mods = {"losses": self._loss_modifier(x.card), **self._separation_morale(x)}
            special = self._special("morale", x.side)
            if special:
                mods["scenario"] = special
            if self._resolve_unit_check(x, self.ctx.variant(x.card).morale, mods, "close assault", "14.1"):
                going.append(x)
            elif x.on_map:
                x.flipped = True
        for x in going:  # step 2: all move in together
            if x.hex != h:
                self._leave_entrenchment(x)
                x.facing = _direction(f.board.axial(x.hex), f.board.axial(h))
                x.hex, x.moved, x.spotted = h, True, None
                self.log("move", unit=x.id, hex=h, close_assault=True)
            x.pinned = True
        for x in going:
            if x.on_map:
                self._zone_attacks(x)
        a["going"] = [x.id for x in going if x.on_map and not x.suppressed]
        self._assault_reactions()

    def _assault_reactors(self) -> list:
        """§14.11: only the assaulted vehicles fire back (opportunity fire, §9.4)."""
        a = self.cx["assault"]
        side = self.state.units[self.cx["unit"]].side
        out = []
        for v in self.state.at(a["hex"]):
            if v.side == side or not self._armour(v) or not v.ready or self.state.formations[v.card].shaken:
                continue
            if v.opportunity_fired and not v.flash_kill:
                continue
            for aid in a["going"]:
                x = self.state.units[aid]
                if x.on_map and not x.suppressed:
                    out += [("react-fire", v.id, aid) if m == self._natural_mode(x) else ("react-fire", v.id, aid, m)
                            for m in self._fire_modes(v, x)]
        return out

    def _assault_reactions(self) -> None:
        if self._assault_reactors():
            self.mode, self.side_to_act = "assault-react", other(self.state.units[self.cx["unit"]].side)
            return
        self._assault_fire()

    def _legal_assault_react(self):
        return self._assault_reactors() + [("react-pass",)]

    def _do_assault_react(self, action):
        if action[0] == "react-pass":
            self._assault_fire()
            return
        v, x = self.state.units[action[1]], self.state.units[action[2]]
        v.opportunity_fired = True
        self.log("opportunity-fire", unit=v.id, target=x.id, section="14.11")
        self._shoot(v, x, opportunity=True, move_fire=False, mode=action[3] if len(action) > 3 else None)
        self._assault_reactions()

    def _assault_shooter(self) -> Unit | None:
        a = self.cx["assault"]
        if a["going"] and self._assault_targets(self.state.units[a["going"][0]]) and \
                self.state.units[a["going"][0]].on_map and not self.state.units[a["going"][0]].suppressed:
            return self.state.units[a["going"][0]]
        a = self.cx["assault"] = dict(a)
        while a["going"]:
            x = self.state.units[a["going"][0]]
            if x.on_map and not x.suppressed and self._assault_targets(x):
                return x
            a["going"] = a["going"][1:]
            if x.on_map:
                x.flipped = True
        return None

    def _assault_targets(self, x: Unit) -> list:
        out = []
        for v in self.state.at(x.hex):
            if v.side != x.side and self._armour(v):
                out += [("target", v.id) if m == "av" else ("target", v.id, m) for m in self._fire_modes(x, v)]
        return out

    def _assault_fire(self) -> None:
        """Step 2: each assaulting unit must fire at a vehicle of the hex (AV, or AI at light armour),
        +6 same hex, the close-assault modifier, no cover; then it is flipped."""
        x = self._assault_shooter()
        if x is None:
            self._back_to_activation()
            return
        self.mode, self.side_to_act = "assault-fire", x.side

    def _legal_assault_fire(self):
        return self._assault_targets(self._assault_shooter())

    def _do_assault_fire(self, action):
        x = self._assault_shooter()
        self._shoot(x, self.state.units[action[1]], opportunity=False, move_fire=False,
                    mode=action[2] if len(action) > 2 else None, close_assault=True)
        x.flipped = True
        self.cx["assault"] = {**self.cx["assault"], "going": self.cx["assault"]["going"][1:]}
        self._assault_fire()

    # --- overrun (§14.2) ------------------------------------------------------------------------

    def _overrunner(self, u: Unit) -> bool:
        """§14.2, §14.21: vehicles other than trucks and motorcycles."""
        return u.type.is_vehicle and u.type.transport_capacity not in ("truck", "motorcycle")

    def _may_overrun(self, u: Unit) -> bool:
        if not self.ctx.advanced or not self._overrunner(u) or u.status != ON_MAP:
            return False
        board = self.ctx.field.board
        reach = (u.type.movement or 1)
        return any(e.side != u.side and e.on_map and not e.hidden and not e.type.is_vehicle
                   and board.distance(u.hex, e.hex) <= reach for e in self.state.units.values())

    def _overrun_cost(self, u: Unit, n: str) -> float | None:
        """§14.21: a hex of enemy non-vehicles (trucks and motorcycles may be there, no other
        vehicle), not cover (a building or higher ground), for its cost plus half the printed MP
        rounded up, which the vehicle must have."""
        enemies = [e for e in self.state.at(n) if e.side != u.side and not e.hidden]
        if not any(not e.type.is_vehicle for e in enemies) or any(self._overrunner(e) for e in enemies):
            return None
        terrain = self.ctx.field.terrain
        if terrain.hexes[n].building or terrain.level(n) > terrain.level(u.hex):
            return None
        cost = self.ctx.field.enter_cost(u.type, u.hex, n)
        if not isinstance(cost, (int, float)):
            return None
        fraction = self.ctx.tables.setting("overrun_extra_cost_fraction", 0.5)
        total = cost + math.ceil((u.type.movement or 1) * fraction)
        return total if self.cx["spent"] + total <= self.cx["mp"] else None

    def _overrun(self, u: Unit, dest: str) -> None:
        f = self.ctx.field
        cost = self._overrun_cost(u, dest)
        self.cx["spent"] += cost
        self.cx["steps"] += 1
        self.cx["overrun"] = "done"  # one overrun per operation
        u.facing = _direction(f.board.axial(u.hex), f.board.axial(dest))
        u.hex, u.moved, u.spotted = dest, True, None
        self.log("overrun", unit=u.id, hex=dest, spent=self.cx["spent"], section="14.2")
        defenders = [e for e in self.state.at(dest) if e.side != u.side]
        for e in defenders:
            if e.hidden:
                self._reveal(e, "enemy entered its hex")
        self.cx["same_hex_done"] = [e.id for e in defenders]  # their reaction is the overrun's (§14.2)
        self.cx["stopped_by_enemy"] = False  # §14.2 step 4: it may drive on
        self._zone_attacks(u)
        if not u.on_map or u.suppressed:
            self._finish_operation(u)
            return
        reactors = []
        for e in defenders:  # step 2: morale, without the same-hex/flank +2
            if e.type.is_vehicle or e.suppressed:
                continue
            mods = {"losses": self._loss_modifier(e.card), **self._separation_morale(e)}
            special = self._special("morale", e.side)
            if special:
                mods["scenario"] = special
            if self._resolve_unit_check(e, self.ctx.variant(e.card).morale, mods, "overrun", "14.2"):
                if e.on_map and self._fire_modes(e, u):
                    reactors.append(e.id)
        self.cx["reactors"] = reactors
        self._overrun_reactions(u)

    def _overrun_reactions(self, u: Unit) -> None:
        if u.on_map and not u.suppressed and self.cx.get("reactors"):
            self.mode, self.side_to_act = "overrun-react", other(u.side)
            return
        self._overrun_fire(u)

    def _legal_overrun_react(self):
        u = self.state.units[self.cx["unit"]]
        out = []
        for rid in self.cx["reactors"]:
            r = self.state.units[rid]
            out += [("react-fire", rid) if m == self._natural_mode(u) else ("react-fire", rid, m)
                    for m in self._fire_modes(r, u)]
        return out + [("react-pass",)]

    def _do_overrun_react(self, action):
        u = self.state.units[self.cx["unit"]]
        if action[0] == "react-pass":
            self.cx["reactors"] = []
        else:
            r = self.state.units[action[1]]
            self.cx["reactors"] = [x for x in self.cx["reactors"] if x != r.id]
            self.log("overrun-fire", unit=r.id, target=u.id, section="14.2")
            # like §12.14: an immediate fire in the hex, not an operation (+6, or the adjacent
            # modifier for a flipped unit); a hit gives the vehicle the same-hex +2 (§14.2)
            self._shoot(r, u, opportunity=True, move_fire=False, mode=action[2] if len(action) > 2 else None,
                        same_hex=True)
        self._overrun_reactions(u)

    def _overrun_fire(self, u: Unit) -> None:
        """Step 3: a vehicle still up fires its AI factor at a non-vehicle or truck of the hex; the
        others there are attacked at −2 (the anti-infantry spill, §13.11)."""
        if not u.on_map or u.suppressed:
            self._finish_operation(u)
            return
        targets = [e for e in self.state.at(u.hex) if e.side != u.side and not e.carried_by
                   and (not e.type.is_vehicle or e.type.transport_capacity in ("truck", "motorcycle"))]
        if u.type.anti_infantry is None or not targets:
            self._overrun_done(u)
            return
        self.cx["targets"] = [("target", e.id) if not e.type.is_vehicle else ("target", e.id, "ai") for e in targets]
        self.mode, self.side_to_act = "overrun-target", u.side

    def _legal_overrun_target(self):
        return list(self.cx["targets"]) + [("hold",)]

    def _do_overrun_target(self, action):
        u = self.state.units[self.cx["unit"]]
        if action[0] == "target":
            flipped = u.flipped
            self._shoot(u, self.state.units[action[1]], opportunity=False, move_fire=False, mode="ai")
            u.flipped = flipped  # flipped at the end of the operation
        self.cx.pop("targets", None)
        self._overrun_done(u)

    def _overrun_done(self, u: Unit) -> None:
        self.mode, self.side_to_act = "move", u.side
        self._open_opportunity(u)  # other enemies may fire at it as it entered (§9.4)

    # --- transport (§13.3) -------------------------------------------------------------------

    def _capacity(self, carrier: Unit) -> tuple[int, int, bool]:
        cls = carrier.type.transport_capacity
        t = self.ctx.tables
        default = {"truck": (4, 3, True), "motorcycle": (3, 3, False), "light": (2, 1, True)}[cls]
        return (t.setting(f"transport_{cls}_capacity", default[0]), t.setting(f"transport_{cls}_max_infantry",
                default[1]), t.setting(f"transport_{cls}_can_tow", default[2]))

    def _passengers(self, carrier: Unit) -> list[Unit]:
        if not self.cx.get("loaded") or self.cx.get("unit") != carrier.id:
            return [u for u in self.state.units.values() if u.carried_by == carrier.id] \
                if carrier.type.transport_capacity else []
        return [self.state.units[p] for p in self.cx["loaded"]]

    def _can_load(self, carrier: Unit, p: Unit, loaded: list[Unit]) -> bool:
        """§13.3-13.34: a face-up non-vehicle of an activated formation that shared the carrier's
        hex when the Operations Phase began, within capacity (towed guns not on motorcycles)."""
        if p.type.is_vehicle or p.card not in self.cx.get("cards", ()) or p in loaded or p.side != carrier.side:
            return False
        if carrier.status == OFF_MAP:  # §18.6: entering loaded, with a formation arriving now
            if p.status != OFF_MAP or p.flipped or self.state.formations[p.card].arrival != self.state.turn:
                return False
            if loaded and self.state.formations[p.card].entry_zone != \
                    self.state.formations[loaded[0].card].entry_zone:
                return False
        elif not p.ready or p.hex != carrier.hex or p.start_hex != carrier.hex or carrier.start_hex != carrier.hex:
            return False
        capacity, max_inf, tow = self._capacity(carrier)
        if len(loaded) + 1 > capacity or (p.type.towed and not tow):
            return False
        return p.type.unit_class != "infantry" or sum(x.type.unit_class == "infantry" for x in loaded) < max_inf

    def _riders(self, carrier: Unit) -> list[Unit]:
        if carrier.status == OFF_MAP:
            return [u for c in self.cx.get("cards", ()) for u in self._units_of(c) if u.status == OFF_MAP]
        return self.state.at(carrier.hex)

    def _loadable(self, carrier: Unit) -> bool:
        if not carrier.type.transport_capacity or carrier.flipped or carrier.suppressed:
            return False
        if carrier.status == OFF_MAP:
            if carrier.card >= 0 and self.state.formations[carrier.card].arrival != self.state.turn:
                return False
        elif carrier.status != ON_MAP:
            return False
        return any(self._can_load(carrier, p, []) for p in self._riders(carrier))

    def _legal_load(self):
        carrier = self.state.units[self.cx["unit"]]
        loaded = [self.state.units[p] for p in self.cx["loaded"]]
        out = [("load", p.id) for p in self._riders(carrier) if self._can_load(carrier, p, loaded)]
        return out + ([("go",)] if loaded else [("cancel",)])

    def _do_load(self, action):
        carrier = self.state.units[self.cx["unit"]]
        if action[0] == "cancel":
            self._back_to_activation()
            return
        if action[0] == "load":
            p = self.state.units[action[1]]
            p.carried_by, p.flipped, p.flash_kill = carrier.id, True, False  # §13.3 step 2: flipped (its operation)
            self.cx["loaded"] = self.cx["loaded"] + [p.id]
            self.log("load", carrier=carrier.id, unit=p.id, section="13.3")
            if len(self._legal_load()) > 1:
                return
        if carrier.hidden:
            self._reveal(carrier, "moved")
        self.cx.update(mp=self.ctx.field.allowance(carrier.type), spent=0, steps=0)
        self.mode = "move"
        if self._legal_move() == [("stop",)]:
            self._end_move(carrier)

    def _unload(self, carrier: Unit, suppressed: bool) -> None:
        """§13.36: a suppressed carrier's passengers get off, suppressed."""
        for p in [u for u in self.state.units.values() if u.carried_by == carrier.id]:
            p.carried_by = None
            if suppressed:
                p.suppressed = p.flipped = True
                self.log("unloaded", carrier=carrier.id, unit=p.id, suppressed=True, section="13.36")

    # --- entrenchment (§13.4) -----------------------------------------------------------------

    def _entrenchment(self, u: Unit) -> dict | None:
        return next((e for e in self.state.entrenchments if e["occupant"] == u.id), None)

    def _entrenched(self, u: Unit) -> bool:
        e = self._entrenchment(u) if self.state.entrenchments else None
        return bool(e and e["done"])

    def _may_entrench(self, u: Unit) -> bool:
        """§13.4-13.41: an active non-vehicle not yet entrenched, in a hex without enemy units,
        outside rocky ground, with fewer than six entrenchments (minefields: not played yet)."""
        if not self.ctx.advanced or u.type.is_vehicle or not u.ready:
            return False
        own = self._entrenchment(u)
        if own is not None:
            return not own["done"] and own["turn"] < self.state.turn
        if not self.ctx.field.terrain.entrenchment_allowed:
            return False
        if any(e.side != u.side and not e.hidden for e in self.state.at(u.hex)):
            return False
        here = [e for e in self.state.entrenchments if e["hex"] == u.hex]
        empty = any(e["done"] and e["occupant"] is None for e in here)
        return empty or len(here) < self.ctx.tables.setting("entrenchments_per_hex", 6)

    def _entrench(self, u: Unit) -> None:
        own = self._entrenchment(u)
        if own is not None:  # the second operation, on a later turn: entrenched
            own["done"] = True
            self.log("entrenched", unit=u.id, hex=u.hex, section="13.4")
            return
        empty = next((e for e in self.state.entrenchments
                      if e["hex"] == u.hex and e["done"] and e["occupant"] is None), None)
        if empty is not None:  # an entrenchment left by another unit: occupied at once
            empty["occupant"] = u.id
            self.log("entrenched", unit=u.id, hex=u.hex, reoccupied=True, section="13.41")
            return
        self.state.entrenchments.append({"hex": u.hex, "occupant": u.id, "done": False, "turn": self.state.turn})
        self.log("entrenching", unit=u.id, hex=u.hex, section="13.4")

    def _leave_entrenchment(self, u: Unit, destroyed: bool = False) -> None:
        """Entrenchments never move (§13.41): a finished one stays empty when its unit leaves, an
        unfinished one is abandoned; one whose unit is destroyed is removed (§13.42)."""
        e = self._entrenchment(u) if self.state.entrenchments else None
        if e is None:
            return
        if e["done"] and not destroyed:
            e["occupant"] = None
        else:
            self.state.entrenchments.remove(e)
            self.log("entrenchment-removed", hex=e["hex"], unit=u.id, section="13.42" if destroyed else "13.41")

    # --- indirect fire (§13.2) -------------------------------------------------------------

    def _spotters(self, firer: Unit) -> list[Unit]:
        """§13.22: the firer itself, or a ready friendly unit with the spotting star (FOs, US Jeeps,
        §12.2) of a formation activated by the same card; one IF spotting per unit per turn (§13.23)."""
        cards = self.cx.get("cards", (firer.card,))
        out = [firer] if not firer.if_spotted else []
        for u in self.state.units.values():
            if u is not firer and u.card in cards and u.ready and not u.if_spotted and \
                    (u.type.spotter or u.type.counts_as_observer):
                out.append(u)
        return out

    def _indirect_plans(self, firer: Unit) -> list[tuple[Unit, Unit]]:
        """(spotter, target) pairs an indirect fire could use now."""
        if not firer.ready or not firer.type.indirect_fire:
            return []
        enemies = [t for t in self.state.units.values() if t.side != firer.side and t.on_map and not t.hidden
                   and self._fire_modes(firer, t, indirect=True)]
        return [(sp, t) for sp in self._spotters(firer) for t in enemies
                if sp.hex == t.hex or self._visible(sp.hex, t.hex)]

    def _legal_spotter(self):
        return [("spotter", sid) for sid in self.cx["spotters"]] + [("cancel",)]

    def _do_spotter(self, action):
        u = self.state.units[self.cx["unit"]]
        if action[0] == "cancel":
            self._cancel_declared(u)
            return
        spotter = self.state.units[action[1]]
        targets = [t for sp, t in self._indirect_plans(u) if sp is spotter]
        self.cx.update(spotter=spotter.id, move_fire=False, targets=self._target_actions(u, targets, indirect=True))
        self.mode = "target"

    def indirect_modifiers(self, firer: Unit, target: Unit, mode: str, distance: int) -> dict[str, float]:
        """§13.2: indirect range schedule; no cover nor facing (a ballistic fire over the terrain,
        §13.28: 'le sens d'orientation de l'unité ciblée ne produit aucun effet')."""
        t = self.ctx.tables
        mods = {"range": t.range_modifier(distance, indirect=True)}
        if target.moved:
            mods["moving_target"] = t.fire("moving_target")
        if self._experience(target) == "veteran":
            mods["target_veteran"] = t.fire("target_veteran")
        if self._experience(firer) == "green":
            mods["firer_green"] = t.fire("firer_green")
        if mode == "ai" and target.type.is_vehicle:
            mods["anti_infantry_vs_lightly_armored"] = t.fire("anti_infantry_vs_lightly_armored")
        if self._entrenched(target):
            mods["target_entrenched"] = t.fire("target_entrenched")  # §13.43
        if firer.separated:
            mods.update(self._separation_fire(firer))
        special = self._special("fire", firer.side)
        if special:
            mods["scenario"] = special
        return mods

    def _indirect_fire(self, firer: Unit, spotter: Unit, target: Unit, mode: str | None) -> None:
        """§13.24-13.27: the spotter rolls; on success the firer fires, a fire zone is placed and
        every other enemy unit in the hex is attacked at the zone modifier. Never a flash kill."""
        t = self.ctx.tables
        f = self.ctx.field
        mode = mode or self._natural_mode(target)
        spotter.if_spotted = True
        if spotter.hex != target.hex:
            spotter.facing = _sector(f.board.axial(spotter.hex), f.board.axial(target.hex))
        d = f.board.distance(spotter.hex, target.hex)
        cover = self._cover(spotter, target) and not target.fired
        if d == 0:
            spotted, number, roll, mods = True, 0, None, {}
        else:
            number = t.spotting_number(d, cover)
            mods = self.spot_modifiers(spotter, target, False, False)
            roll = self.dice.roll(1)[0]
            spotted = roll + sum(mods.values()) >= number
        self.log("spot", unit=spotter.id, target=target.id, distance=d, number=number, roll=roll, modifiers=mods,
                 success=spotted, indirect_for=firer.id, section="13.24")
        spotter.flipped = True
        if not spotted:
            firer.flipped = True
            return
        own = spotter is firer
        bonus = t.fire("self_spotting") if own else 0  # §13.28
        distance = f.board.distance(firer.hex, target.hex)
        factor = self._factor(firer, mode == "av") + bonus
        mods = self.indirect_modifiers(firer, target, mode, distance)
        hex_ = target.hex
        self._attack(target, factor, mods, unit=firer.id, indirect=True, section="13.27")
        zone = {"hex": hex_, "side": firer.side, "firer": firer.id, "firer_hex": firer.hex,
                "anti_vehicle": firer.type.anti_vehicle, "anti_infantry": firer.type.anti_infantry,
                "turn": self.state.turn}
        self.state.fire_zones.append(zone)  # placed after the fire at the target (§13.26)
        self.log("fire-zone", **zone, section="13.26")
        for other_unit in [x for x in self.state.at(zone["hex"])
                           if x.side == target.side and x is not target and not x.carried_by]:
            if other_unit.hidden:
                self._reveal(other_unit, "attacked by a fire zone")
            m = self._best_zone_mode(firer, other_unit, bonus)
            mods = {**self.indirect_modifiers(firer, other_unit, m, distance), "fire_zone": t.fire("fire_zone")}
            self._attack(other_unit, self._factor(firer, m == "av") + bonus, mods, unit=firer.id, zone=True,
                         section="13.25")
        firer.flipped = True
        self._fired_marker(firer, None)

    def _best_zone_mode(self, firer: Unit, target: Unit, bonus: int = 0) -> str:
        """A lightly armoured vehicle in a zone is attacked with the better of the two factors
        (the firer's choice, §13.27, made by the engine)."""
        if not target.type.is_vehicle:
            return "ai"
        if not target.type.lightly_armored or firer.type.anti_infantry is None:
            return "av"
        av = firer.type.anti_vehicle if firer.type.anti_vehicle is not None else -99
        ai = firer.type.anti_infantry + self.ctx.tables.fire("anti_infantry_vs_lightly_armored")
        return "ai" if ai > av else "av"

    def _zone_attacks(self, u: Unit) -> None:
        """§13.26: a unit entering a hex with enemy fire zones is attacked by each, with the recorded
        factors, the zone modifier, the range from the firer's recorded hex and experience."""
        t = self.ctx.tables
        for z in [z for z in self.state.fire_zones if z["hex"] == u.hex and z["side"] != u.side]:
            if not u.on_map:
                return
            firer = self.state.units[z["firer"]] if z["firer"] else None  # None: a bombardment (§16.33)
            if not u.type.is_vehicle:
                m, factor = "ai", z["anti_infantry"]
            elif u.type.lightly_armored and z["anti_infantry"] is not None and (z["anti_vehicle"] is None or
                    z["anti_infantry"] + t.fire("anti_infantry_vs_lightly_armored") > z["anti_vehicle"]):
                m, factor = "ai", z["anti_infantry"]
            else:
                m, factor = "av", z["anti_vehicle"]
            if factor is None:
                continue
            mods = {"fire_zone": t.fire("fire_zone")}
            if z["firer_hex"] is not None:
                distance = self.ctx.field.board.distance(z["firer_hex"], z["hex"])
                mods = {"range": t.range_modifier(distance, indirect=True), **mods}
            if self._experience(u) == "veteran":
                mods["target_veteran"] = t.fire("target_veteran")
            if firer is not None and self._experience(firer) == "green":
                mods["firer_green"] = t.fire("firer_green")
            if m == "ai" and u.type.is_vehicle:
                mods["anti_infantry_vs_lightly_armored"] = t.fire("anti_infantry_vs_lightly_armored")
            self.log("fire-zone-attack", hex=z["hex"], firer=z["firer"], target=u.id, section="13.26")
            self._attack(u, factor, mods, unit=z["firer"] or f"raid:{z.get('raid_card')}", zone=True, section="13.26")

    def _drop_zones(self, firer: Unit) -> None:
        """§13.26: a zone goes when the unit that made it is suppressed or eliminated."""
        gone = [z for z in self.state.fire_zones if z["firer"] == firer.id]
        if gone:
            self.state.fire_zones = [z for z in self.state.fire_zones if z["firer"] != firer.id]
            self.log("fire-zone-removed", firer=firer.id, hexes=[z["hex"] for z in gone], section="13.26")

    def _reveal(self, u: Unit, why: str) -> None:
        u.hidden = False
        self.log("reveal", unit=u.id, hex=u.hex, why=why, section="12.22")

    def _attack(self, target: Unit, factor: int, mods: dict, flank: bool = False, **log) -> str:
        """Roll 3d6 + differential + modifiers on the target's column and apply the result (no
        spotting, no flash kill): spills, fire zones and indirect fire."""
        t = self.ctx.tables
        column = "vehicle" if target.type.is_vehicle else "non_vehicle"
        differential = factor - target.type.defense
        dice = self.dice.roll(3)
        total = sum(dice) + differential + sum(mods.values())
        result = t.crt(column, total)
        self.log("fire", target=target.id, dice=dice, differential=differential, modifiers=mods, total=total,
                 result=result, **log)
        if result == "destroyed":
            self._destroy(target, "fire")
        elif (x := hit_value(result)) is not None:
            self._unit_check(target, x, flank=flank)
        return result

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
        if self.ctx.advanced and u.type.indirect_fire:
            return self.ctx.tables.fire("self_spotting")  # §13.28: direct and opportunity fire too
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
        if self._entrenched(target):
            mods["target_entrenched"] = t.spot("target_entrenched")  # §13.43
        if self.state.smoke and (firer.hex in self.state.smoke or target.hex in self.state.smoke):
            mods["smoke"] = t.spot("smoke")  # §17.3: −2, once even if both hexes are smoky
        special = self._special("spotting", firer.side)
        if special:
            mods["scenario"] = special
        return mods

    def _separation_key(self, u: Unit) -> str | None:
        """The §11.5 row of a separated unit; §11.5 gives Seasoned non-vehicles none (NOTES.md)."""
        if not u.separated:
            return None
        exp = self._experience(u)
        if exp == "veteran":
            return "separated_veteran"
        if u.type.is_vehicle:
            return "separated_vehicle"
        return "separated_green_non_vehicle" if exp == "green" else None

    def _separation_fire(self, u: Unit) -> dict:
        key = self._separation_key(u)
        return {key: self.ctx.tables.fire(key)} if key else {}

    def fire_modifiers(self, firer: Unit, target: Unit, move_fire: bool, cover: bool, mode: str = "av",
                       same_hex_flipped: bool = False) -> dict[str, float]:
        t = self.ctx.tables
        d = self.ctx.field.board.distance(firer.hex, target.hex)
        if same_hex_flipped:
            d = 1  # §12.14: flipped infantry firing in its hex has only the adjacent modifier
        if d == 1 and mode == "ai" and self.ctx.advanced:
            mods = {"range": t.setting("adjacent_anti_infantry_range_modifier", 2)}  # §12.14: +2 AI
        else:
            mods = {"range": t.range_modifier(d)}
        if mode == "ai" and target.type.is_vehicle:
            mods["anti_infantry_vs_lightly_armored"] = t.fire("anti_infantry_vs_lightly_armored")
        if target.moved:
            mods["moving_target"] = t.fire("moving_target")
        if self._experience(target) == "veteran":
            mods["target_veteran"] = t.fire("target_veteran")
        if self._experience(firer) == "green":
            mods["firer_green"] = t.fire("firer_green")
        if cover:
            mods["target_in_cover"] = t.fire("target_in_cover")
        if self._entrenched(target):
            mods["target_entrenched"] = t.fire("target_entrenched")  # §13.43
        if move_fire:
            mods["move_and_fire"] = t.fire("move_and_fire")
        if self._in_flank(target, firer.hex):
            mods["flank_fire"] = t.fire("flank_fire")
        if self._in_flank(firer, target.hex):
            mods["through_own_flank"] = t.fire("through_own_flank")
        if firer.separated:
            mods.update(self._separation_fire(firer))
        special = self._special("fire", firer.side)
        if special:
            mods["scenario"] = special
        return mods

    def _cover(self, firer: Unit, target: Unit) -> bool:
        terrain = self.ctx.field.terrain
        return terrain.hexes[target.hex].building or terrain.level(target.hex) > terrain.level(firer.hex)

    def _shoot(self, firer: Unit, target: Unit, opportunity: bool, move_fire: bool, mode: str | None = None,
               same_hex: bool = False, close_assault: bool = False) -> bool:
        """Spot, fire, apply the result; flip the firer. True when it scored a flash kill.
        ``mode``: "av" or "ai" fire (default: the target's kind, §13.1); ``same_hex``: infantry
        opportunity fire in its own hex (§12.14), not an operation: the firer is not flipped."""
        t = self.ctx.tables
        f = self.ctx.field
        mode = mode or self._natural_mode(target)
        if firer.hex != target.hex:  # the firer turns to face its target (§8.22)
            firer.facing = _sector(f.board.axial(firer.hex), f.board.axial(target.hex))
        d = f.board.distance(firer.hex, target.hex)
        cover = self._cover(firer, target) and not close_assault  # §14.13: no cover in a close assault
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
        c3 = self.ctx.model.cards.get(firer.card)
        letter = c3.variant(self.ctx.years[firer.side]).c3 if isinstance(c3, CombatCard) else None
        if letter in ("A", "B", "C") and d > 0:
            target.spotted = letter  # §9.18
        vs_vehicle = mode == "av"
        column = "vehicle" if target.type.is_vehicle else "non_vehicle"
        factor = self._factor(firer, vs_vehicle) + self._self_spotting(firer)
        differential = factor - target.type.defense
        mods = self.fire_modifiers(firer, target, move_fire, cover, mode, same_hex and firer.flipped)
        if close_assault:
            mods["close_assault"] = t.fire("close_assault")  # §14.13
        dice = self.dice.roll(3)
        raw = sum(dice)
        total = raw + differential + sum(mods.values())
        result = t.crt(column, total)
        self.log("fire", unit=firer.id, target=target.id, dice=dice, differential=differential, modifiers=mods,
                 total=total, result=result, section="9.22")
        flank = self._in_flank(target, firer.hex) or firer.hex == target.hex
        hex_ = target.hex
        flash = False
        if result == "destroyed":
            # §13.13: AI fire never flash-kills; same-hex infantry fire is no operation (§12.14)
            flash = (vs_vehicle and not move_fire and not same_hex and not close_assault and firer.flash_kills == 0
                     and raw >= t.flash_kill(self._experience(firer)))
            if flash:
                self.log("flash-kill", unit=firer.id, raw=raw, section="9.35")
            self._destroy(target, "fire")
        elif (x := hit_value(result)) is not None:
            self._unit_check(target, x, flank=flank)
        if mode == "ai" and self.ctx.advanced:
            self._spill(firer, target, hex_, move_fire)
        if same_hex:
            pass  # §12.14: not an operation; the firer keeps its side
        elif flash:
            firer.flash_kill, firer.flash_kills, firer.flipped = True, firer.flash_kills + 1, False
        else:
            firer.flash_kill, firer.flipped = False, True
        self._fired_marker(firer, target if not target.on_map else None)
        return flash

    def _spill(self, firer: Unit, target: Unit, hex_: str, move_fire: bool) -> None:
        """§13.11-13.12: AI fire also attacks every other non-vehicle and lightly armoured vehicle
        of the target's side in the hex, one roll each, at −2 (no fire-zone marker)."""
        t = self.ctx.tables
        for x in [x for x in self.state.at(hex_) if x.side == target.side and x is not target
                  and (not x.type.is_vehicle or x.type.lightly_armored) and not x.carried_by]:
            if x.hidden:
                self._reveal(x, "attacked by anti-infantry fire at its hex")
            if firer.type.anti_infantry is None:
                continue
            mods = {**self.fire_modifiers(firer, x, move_fire, self._cover(firer, x), "ai"),
                    "anti_infantry_stack": t.fire("anti_infantry_stack")}
            flank = self._in_flank(x, firer.hex) or firer.hex == x.hex
            self._attack(x, firer.type.anti_infantry + self._self_spotting(firer), mods, flank=flank, unit=firer.id,
                         spill=True, section="13.11")

    def _fired_marker(self, firer: Unit, destroyed: Unit | None) -> None:
        """§9.17: fired from cover while an enemy sees it (not if it killed the only one)."""
        terrain = self.ctx.field.terrain
        if firer.hex is None:
            return
        enemies = [e for e in self.state.units.values() if e.side != firer.side and e.on_map]
        in_cover_of = [e for e in enemies if terrain.hexes[firer.hex].building
                       or terrain.level(firer.hex) > terrain.level(e.hex)]
        if any(self._visible(e.hex, firer.hex) for e in in_cover_of if e is not destroyed):
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
        mods.update(self._separation_morale(u))
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
                # a suppressed unit loses a pending flash kill (§9.36)
                u.suppressed, u.flipped, u.flash_kill = True, True, False
                self._drop_zones(u)
                self._unload(u, suppressed=True)
        return passed

    def _destroy(self, u: Unit, how: str) -> None:
        u.status, u.fate = DESTROYED, {"turn": self.state.turn, "by": how}
        self.log("destroyed", unit=u.id, how=how, hex=u.hex)
        self._leave_entrenchment(u, destroyed=True)
        u.hex, u.hidden, u.carried_by = None, False, None
        self._drop_zones(u)
        for p in [x for x in self.state.units.values() if x.carried_by == u.id]:
            self._destroy(p, "carrier destroyed")  # §13.36
        self._count_loss(u)

    def _count_loss(self, u: Unit) -> None:
        if u.type.unit_class == "forward-observer" or u.card < 0:
            return  # §12.2; §13.31: scenario transports have no morale effect
        f = self.state.formations[u.card]
        f.losses += 1
        f.lost_this_turn += 1

    # --- morale phase (§4.3) ------------------------------------------------------------------

    def _morale_phase(self) -> None:
        s = self.state
        s.phase = "morale"
        self.log("morale-phase")
        combat = [f for f in s.formations.values() if f.kind == "combat" and f.arrival <= s.turn]
        for u in s.units.values():  # step 1 (and §13.3 step 4: passengers get off)
            u.carried_by = None
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
            u.moved = u.fired = u.flash_kill = u.opportunity_fired = u.if_spotted = False
            u.spotted, u.flash_kills = None, 0
        s.fire_zones.clear()  # §13.26: fire zones last until Morale step 5
        for u in s.units.values():
            u.smoked = False
        for h in list(s.smoke):  # §17.4: 1d6 per marker, removed on 1-3
            roll = self.dice.roll(1)[0]
            gone = roll <= self.ctx.tables.setting("smoke_removal_max_roll", 3)
            if gone:
                s.smoke.remove(h)
            self.log("smoke-check", hex=h, roll=roll, removed=gone, section="17.4")
        self._doctrine()  # step 6
        self._reshuffle_raids()  # step 7 (§16.1)
        for f in s.formations.values():
            f.lost_this_turn, f.must_replay = 0, False
        s.phase = "operations"
        if s.turn >= self.ctx.scenario.turns:
            self._end_game()
            return
        s.turn += 1
        self._start_turn()

    def _separation_morale(self, u: Unit) -> dict:
        key = self._separation_key(u)
        return {key: self.ctx.tables.morale(key)} if key else {}

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
