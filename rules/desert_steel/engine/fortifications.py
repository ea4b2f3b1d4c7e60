"""Fortifications: entrenchments (§13.4), minefields (§15.1), bunkers (§15.2), wire (§15.3) and
engineer operations (§15.4).

A part of :class:`Game` (see game.py): the methods use its state and dice.

The engine plays the owner's part of the paper work: it always announces a minefield an enemy
enters (never "forgets", §15.12), makes no fake rolls (§15.14), puts an infantry unit or FO that
enters a hex with an empty bunker into it, and fills empty set-up entrenchments with the non-vehicle
units standing in their hexes (§18.4). The effects of "a unit in a minefield hex" (its fire and morale
modifiers) apply once the minefield is revealed: until then it exists only on paper.
"""
from __future__ import annotations

from typing import Mapping

from .context import EngineError
from .facing import direction
from .decisions import Engineer, Move
from .state import Unit

# What a scenario may grant non-engineers (special rule "engineer-capable", §15.4, §18.7)
ENGINEER_ABILITIES = ("enter-wire", "clear-wire", "clear-minefields")


class FortificationsMixin:
    # --- set-up (§15.11, §15.21, §15.31, §18.4) ----------------------------------------------------

    def _make_fortifications(self, side: str, data: Mapping) -> None:
        """Place a side's entrenchments, wire, bunkers (with the units set up in them) and record its
        minefields."""
        s, board = self.state, self.ctx.field.board
        for fort in data.get("fortifications", ()):
            h = board.resolve(fort["hex"])
            if fort["type"] == "entrenchment":
                s.entrenchments.append({"hex": h, "occupant": None, "done": True, "turn": 0})
            elif fort["type"] == "wire":
                s.wire[h] = side
            elif fort["type"] == "bunker":
                occupant = next((uid for uid, x in self._bunker_occupants
                                 if x == h and s.units[uid].side == side), None)
                if occupant is not None:
                    self._bunker_occupants.remove((occupant, h))
                s.bunkers.append({"hex": h, "side": side, "occupant": occupant})
            else:
                raise EngineError(f"unknown fortification {fort['type']!r}")
        for ref in data.get("minefields", ()):
            s.minefields.append({"hex": board.resolve(ref), "side": side, "active": True, "revealed": False})
        stray = [uid for uid, _ in self._bunker_occupants if s.units[uid].side == side]
        if stray:
            raise EngineError(f"units set up in a bunker where the setup places none: {', '.join(stray)} (§15.21)")
        self._man_entrenchments(side)

    def _man_entrenchments(self, side: str) -> None:
        """§18.4: the units set up in a hex with empty entrenchments occupy them (one unit each)."""
        for e in self.state.entrenchments:
            if e["occupant"] is not None:
                continue
            taken = {x["occupant"] for x in self.state.entrenchments} | {b["occupant"] for b in self.state.bunkers}
            unit = next((u for u in self.state.at(e["hex"]) if u.side == side and not u.type.is_vehicle
                         and u.id not in taken), None)
            if unit is not None:
                e["occupant"] = unit.id

    # --- entrenchment (§13.4) --------------------------------------------------------------------

    def _entrenchment(self, u: Unit) -> dict | None:
        return next((e for e in self.state.entrenchments if e["occupant"] == u.id), None)

    def entrenched(self, u: Unit) -> bool:
        """§13.4, §13.43: whether ``u`` occupies a finished entrenchment."""
        e = self._entrenchment(u) if self.state.entrenchments else None
        return bool(e and e["done"])

    def may_entrench(self, u: Unit) -> bool:
        """§13.4-13.41: an active non-vehicle not yet entrenched, in a hex without enemy units nor
        a minefield, outside rocky ground, with fewer than six entrenchments on the map."""
        if not self.ctx.advanced or u.type.is_vehicle or not u.ready or self.bunker_of(u) is not None:
            return False
        own = self._entrenchment(u)
        if own is not None:
            return not own["done"] and own["turn"] < self.state.turn
        if not self.ctx.field.terrain.entrenchment_allowed:
            return False
        if any(e.side != u.side and not e.hidden for e in self.state.at(u.hex)):
            return False
        if self.minefield_at(u.hex, known_to=u.side) is not None:
            return False  # §13.4: never in a minefield hex
        # a marker a hidden enemy placed is on paper (§12.22, §13.4): counting it would tell this
        # side, through its legal actions, that a hidden unit dug in here
        here = [e for e in self.state.entrenchments if e["hex"] == u.hex and not self.on_paper(e, u.side)]
        empty = any(e["done"] and e["occupant"] is None for e in here)
        return empty or len(here) < self.ctx.tables.setting("entrenchments_per_hex", 6)

    def entrench(self, u: Unit) -> None:
        """§13.4: an infantry unit entrenches as an operation: the first operation places the marker
        (occupied at once), a second one on a later turn finishes it."""
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
        marker = {"hex": u.hex, "occupant": u.id, "done": False, "turn": self.state.turn}
        if u.hidden:  # §13.4: the marker goes on the unit, which is on paper (§12.21): so is the marker
            marker["on_paper"] = True
        self.state.entrenchments.append(marker)
        self.log("entrenching", unit=u.id, hex=u.hex, section="13.4")

    def on_paper(self, marker: dict, side: str) -> bool:
        """§12.21-12.22, §13.4: whether ``side`` cannot see an entrenchment marker: one a hidden
        unit of the other side placed is on that unit, on paper, until the unit is revealed
        (entrenching is not among what puts it on the map)."""
        if not marker.get("on_paper"):
            return False
        u = self.state.units.get(marker["occupant"])
        return u is not None and u.hidden and u.side != side

    def _leave_position(self, u: Unit, destroyed: bool = False) -> None:
        """The unit leaves its hex (or is destroyed): its entrenchment and bunker stay behind."""
        self._leave_entrenchment(u, destroyed)
        self._leave_bunker(u, destroyed)

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

    # --- bunkers (§15.2) ---------------------------------------------------------------------------

    def bunker_of(self, u: Unit) -> dict | None:
        """§15.22: the bunker ``u`` occupies, or None."""
        if not self.state.bunkers:
            return None
        return next((b for b in self.state.bunkers if b["occupant"] == u.id), None)

    def _enter_bunker(self, u: Unit) -> None:
        """§15.22: infantry and FOs enter an empty bunker of the hex they enter, at no MP cost (the
        engine does it for them); never with enemy units in the hex, never while carried."""
        if not self.state.bunkers or u.carried_by or u.type.unit_class not in ("infantry", "forward-observer"):
            return
        if self._entrenchment(u) is not None or any(e.side != u.side for e in self.state.at(u.hex)):
            return
        empty = next((b for b in self.state.bunkers if b["hex"] == u.hex and b["occupant"] is None), None)
        if empty is not None:
            empty["occupant"] = u.id
            self.log("enter-bunker", unit=u.id, hex=u.hex, section="15.22")

    def _leave_bunker(self, u: Unit, destroyed: bool = False) -> None:
        b = self.bunker_of(u)
        if b is None:
            return
        if destroyed:  # §15.23: the bunker goes with its occupant
            self.state.bunkers.remove(b)
            self.log("bunker-removed", hex=b["hex"], unit=u.id, section="15.23")
        else:
            b["occupant"] = None

    # --- minefields (§15.1) ------------------------------------------------------------------------

    def minefield_at(self, hex_: str, known_to: str | None = None) -> dict | None:
        """The active minefield of a hex (one at most, §15.11); ``known_to``: only one that side
        knows of (its own, or a revealed one)."""
        for m in self.state.minefields:
            if m["hex"] == hex_ and m["active"] and (known_to is None or m["revealed"] or m["side"] == known_to):
                return m
        return None

    def _in_revealed_minefield(self, u: Unit) -> bool:
        m = self.minefield_at(u.hex) if self.state.minefields and u.hex else None
        return bool(m and m["revealed"])

    def exempt_from_own_mines(self, side: str) -> bool:
        """§18.7 (special rule exempting from §15.14): whether ``side``'s units cross their own
        minefields without the roll."""
        return any(r["type"] == "exempt-friendly-minefields" and r.get("side", "both") in (side, "both")
                   for r in self.ctx.special)

    def _friendly_mine_roll(self, u: Unit) -> bool:
        """§15.14: 2d6; a 2 or a 12 sets the minefield off."""
        dice = self.dice.roll(2)
        trigger = {int(x) for x in str(self.ctx.tables.setting("friendly_minefield_trigger_rolls", "2,12")).split(",")}
        hit = sum(dice) in trigger
        self.log("friendly-minefield-roll", unit=u.id, hex=u.hex, dice=dice, triggered=hit, section="15.14")
        return hit

    def _mines_on_entry(self, u: Unit) -> bool:
        """§15.12-15.14: a unit entering a minefield hex. True when the minefield attacked it (the
        unit then stops, as in the §15.13 example). Resolved before fire zones and opportunity fire."""
        m = self.minefield_at(u.hex) if self.state.minefields else None
        if m is None:
            return False
        if m["side"] == u.side:
            if self.exempt_from_own_mines(u.side) or not self._friendly_mine_roll(u):
                return False
        self._minefield_attack(u, m)
        return True

    def _minefield_attack(self, u: Unit, m: dict) -> str:
        """§15.13: AV 12 against vehicles, AI 8 against non-vehicles and lightly armoured vehicles;
        the differential is the only modifier; a hit checks morale as same-hex fire."""
        t = self.ctx.tables
        m["revealed"] = True
        armoured = u.type.is_vehicle and not u.type.lightly_armored
        factor = t.setting("minefield_anti_vehicle", 12) if armoured else t.setting("minefield_anti_infantry", 8)
        self.log("minefield-attack", unit=u.id, hex=u.hex, owner=m["side"], factor=factor, section="15.13")
        return self._attack(u, factor, {}, flank=True, unit=f"minefield:{m['side']}", section="15.13")

    # --- wire (§15.3) ------------------------------------------------------------------------------

    def enter_cost(self, u: Unit, frm: str, to: str):
        """§8, §15.32: the battlefield's movement cost, with this game's wire (engineers remove it in play)."""
        wire = self.state.wire
        if wire and (to in wire or frm in wire):
            return self._wire_cost(u, frm, to)
        return self.ctx.field.enter_cost(u.type, frm, to)

    def _wire_cost(self, u: Unit, frm: str, to: str):
        """§15.32: non-vehicles and lightly armoured vehicles never enter wire (engineers excepted,
        §15.4); other vehicles spend all their MP to enter it, and all of them again to leave it,
        only for a wire-free hex: never from wire straight into wire."""
        wire, entering = self.state.wire, frm == to  # entering from off the map
        terrain = self.ctx.field.enter_cost(u.type, frm, to)
        if terrain == "prohibited":
            return terrain
        if to not in wire:  # leaving wire
            return terrain if not u.type.is_vehicle else "all"
        if not u.type.is_vehicle:
            return "prohibited"
        if u.type.lightly_armored and not self.ctx.tables.setting("lightly_armored_may_enter_wire", False):
            return "prohibited"
        if frm in wire and not entering:
            return "prohibited"
        return "all"

    # --- effects on fire and morale --------------------------------------------------------------

    def flank_hit(self, target: Unit, source_hex: str) -> bool:
        """Whether a hit counts as flank or same-hex fire for morale (§10.11): a bunker's occupant
        takes the flank/same-hex morale modifier only from fire in its own hex (§15.24)."""
        if source_hex == target.hex:
            return True
        return self.bunker_of(target) is None and self.in_flank(target, source_hex)

    # --- engineers (§15.4) -------------------------------------------------------------------------

    def _engineer_abilities(self, u: Unit) -> set[str]:
        if u.type.engineer:
            return {"enter-wire", "clear-wire", "clear-minefields", "enter-minefields"}
        out = set()
        for r in self.ctx.special:
            if r["type"] != "engineer-capable" or r.get("side", "both") not in (u.side, "both"):
                continue
            f = r.get("units", {})
            if ("nationality" in f and u.type.nationality not in f["nationality"]) or \
                    ("types" in f and u.type.id not in f["types"]) or \
                    ("class" in f and u.type.unit_class not in f["class"]):
                continue
            # a unit that acts as an engineer to remove obstacles makes the whole operation,
            # moving in included (NOTES.md); "enter-wire" alone allows only the move
            granted = set(r.get("abilities", ENGINEER_ABILITIES))
            if granted & {"clear-wire", "clear-minefields"}:
                granted |= {"enter-wire", "enter-minefields"}
            out |= granted
        return out

    def engineer_clearable(self, u: Unit) -> bool:
        """§15.4 step 4: in the hex since the Operations Phase began, with wire or a minefield the
        unit knows of that it may clear."""
        if u.start_hex != u.hex:
            return False
        abilities = self._engineer_abilities(u)
        return ("clear-wire" in abilities and u.hex in self.state.wire) or \
            ("clear-minefields" in abilities and self.minefield_at(u.hex, known_to=u.side) is not None)

    def engineer_steps(self, u: Unit) -> list[str]:
        """§15.4 step 2: one adjacent hex, wire or not (other terrain limits still hold)."""
        if "enter-wire" not in self._engineer_abilities(u):
            return []
        out = []
        for n in self.ctx.field.board.neighbours(u.hex):
            if self.ctx.field.enter_cost(u.type, u.hex, n) == "prohibited" or not self.may_enter_zone(u, n):
                continue
            if any(e.side != u.side and not e.hidden for e in self.state.at(n)):
                continue  # an engineer operation is no close assault (§14.1)
            if n in self.state.wire or self.minefield_at(n, known_to=u.side) is not None or \
                    self._may_enter_minefields(u):
                out.append(n)
        return out

    def _may_enter_minefields(self, u: Unit) -> bool:
        return "enter-minefields" in self._engineer_abilities(u)

    def _may_engineer(self, u: Unit) -> bool:
        if not self.ctx.advanced or not u.ready or u.carried_by or u.type.is_vehicle or u.hex is None:
            return False
        if not self._engineer_abilities(u):
            return False
        return self.engineer_clearable(u) or bool(self.engineer_steps(u))

    def _legal_engineer(self, d: Engineer):
        u = self.state.units[d.unit]
        out = [("clear",)] if self.engineer_clearable(u) else []
        return out + [("step", n) for n in self.engineer_steps(u)] + [("cancel",)]

    def _do_engineer(self, d: Engineer, action):
        u = self.state.units[d.unit]
        if action[0] == "cancel":
            self._back_to_activation()
        elif action[0] == "clear":
            self._engineer_clear(u)
            self._finish_operation(u)
        else:
            self._engineer_move(u, action[1])

    def _engineer_clear(self, u: Unit) -> None:
        """§15.4 step 4: remove the wire and/or deactivate the minefield of the hex."""
        abilities = self._engineer_abilities(u)
        if "clear-wire" in abilities and u.hex in self.state.wire:
            del self.state.wire[u.hex]
            self.log("wire-removed", unit=u.id, hex=u.hex, section="15.4")
        m = self.minefield_at(u.hex, known_to=u.side)
        if "clear-minefields" in abilities and m is not None:
            m["active"], m["revealed"] = False, True
            self.log("minefield-cleared", unit=u.id, hex=u.hex, owner=m["side"], section="15.4")

    def _engineer_move(self, u: Unit, dest: str) -> None:
        """§15.4 steps 2-3: into the adjacent hex regardless of wire; a minefield there is revealed
        and rolled for as a friendly one (2 or 12); then enemy opportunity fire."""
        board = self.ctx.field.board
        u.facing = direction(board.axial(u.hex), board.axial(dest))
        self._leave_position(u)
        u.hex, u.moved, u.spotted = dest, True, None
        self._swap(Move(u.side, u.id, "engineer", 1, 1, 1, stop=("an engineer operation moves one hex", "15.4")))
        self.log("engineer-move", unit=u.id, hex=dest, section="15.4")
        m = self.minefield_at(dest)
        if m is not None:
            m["revealed"] = True
            self.log("minefield-revealed", hex=dest, owner=m["side"], by=u.id, section="15.4")
            if self._friendly_mine_roll(u):
                self._minefield_attack(u, m)
        self._enter_bunker(u)
        if not u.on_map:
            self._finish_operation(u)
            return
        self._zone_attacks(u)
        self._open_opportunity(u, ())

    # --- scenario limits on movement (§18.7) ----------------------------------------------------

    def may_enter_zone(self, u: Unit, hex_: str) -> bool:
        """§18.7: not one of the scenario's prohibited hexes (e.g. Lightfoot: west of Kidney Ridge for the Allies)."""
        return hex_ not in self.prohibited(u.side)

    def prohibited(self, side: str) -> frozenset:
        """§18.7: the hexes the scenario forbids ``side``'s units to enter."""
        cache = self.ctx.memo.get("prohibited")
        if cache is None:
            cache = self.ctx.memo["prohibited"] = {}
        hit = cache.get(side)
        if hit is None:
            out = set()
            for r in self.ctx.special:
                if r["type"] == "prohibited-hexes" and "zone" in r and r.get("side", "both") in (side, "both"):
                    out |= self.ctx.field.zone(r["zone"])
            hit = cache[side] = frozenset(out)
        return hit
