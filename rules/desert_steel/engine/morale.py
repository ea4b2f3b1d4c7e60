"""Morale (§10, §11): checks, losses, the morale phase, stacking and doctrine.

A part of :class:`Game` (see game.py): the methods use its state and dice."""
from __future__ import annotations

import math
from ..setup_rules import best_centre, doctrine_radius
from .state import DESTROYED, Unit


class MoraleMixin:
    def loss_modifier(self, card: int) -> int:
        """§10.11: the formation's losses times its card's loss modifier, rounded up."""
        f = self.state.formations[card]
        return math.ceil(f.losses * self.ctx.variant(card).loss_modifier * self.ctx.tables.morale("per_loss"))

    def _formation_check(self, card: int, why: str, section: str = "10.22") -> bool:
        variant = self.ctx.variant(card)
        mod = self.loss_modifier(card) + self._special("morale", self.state.formations[card].side)
        dice = self.dice.roll(2)
        ok = sum(dice) + mod <= variant.morale
        self.log("formation-check", card=card, why=why, dice=dice, modifier=mod, morale=variant.morale,
                 passed=ok, section=section)
        return ok

    def unit_check(self, u: Unit, x: int, flank: bool) -> None:
        """§10.21: the morale check of a unit hit by fire with ``hit +x`` (``flank``: hit through its flank
        or in its own hex), its modifiers gathered, then rolled by ``morale_check``."""
        t = self.ctx.tables
        variant = self.ctx.variant(u.card)
        mods = {"losses": self.loss_modifier(u.card)}
        if x:
            mods["hit_plus_x"] = x * t.morale("hit_plus_x")
        if flank:
            mods["flank_or_same_hex"] = t.morale("flank_or_same_hex")
        elif self._in_revealed_minefield(u):  # §15.13: a hit in a minefield hex, as if in the same hex
            mods["minefield"] = t.morale("minefield")
        mods.update(self.separation_morale(u))
        special = self._special("morale", u.side)
        if special:
            mods["scenario"] = special
        self.morale_check(u, variant.morale, mods, "hit", section="10.21")

    def morale_check(self, u: Unit, morale: int, mods: dict, why: str, section: str) -> bool:
        """§10.2-10.3: a unit's 2d6 morale roll plus ``mods`` against ``morale``: passed, failed
        (suppressed; destroyed if already suppressed during operations, §10.12), rout on an
        unmodified 12 (§10.32), steel on an unmodified 2 (§10.33). True when passed."""
        t = self.ctx.tables
        dice = self.dice.roll(2)
        raw = sum(dice)
        total = raw + sum(mods.values())
        passed = total <= morale
        outcome = "passed" if passed else "failed"
        if raw == t.setting("morale_rout_roll", 12):
            outcome = "rout"
        elif raw == t.setting("morale_steel_roll", 2) and u.experience_bonus == 0 and \
                self.experience(u) != "veteran":
            u.experience_bonus = 1
            outcome = "steel" if passed else "steel-failed"
        self.log("unit-check", unit=u.id, why=why, dice=dice, modifiers=mods, morale=morale, result=outcome,
                 section=section)
        if outcome == "rout":  # §10.32: eliminated, counts as a loss
            self.destroy(u, "rout")
            return False
        if not passed:
            if u.suppressed and self.state.phase == "operations":
                self.destroy(u, "suppressed twice")  # §10.12
            else:
                # a suppressed unit loses a pending flash kill (§9.36)
                u.suppressed, u.flipped, u.flash_kill = True, True, False
                self._drop_zones(u)
                self._unload(u, suppressed=True)
        return passed

    def destroy(self, u: Unit, how: str) -> None:
        """A unit eliminated (``how``: fire, rout, overstacked...): off the map, its passengers with it
        (§13.36), a loss of its formation (§10.14)."""
        u.status, u.fate = DESTROYED, {"turn": self.state.turn, "by": how}
        self.log("destroyed", unit=u.id, how=how, hex=u.hex)
        self._leave_position(u, destroyed=True)
        u.hex, u.hidden, u.carried_by = None, False, None
        self._drop_zones(u)
        for p in [x for x in self.state.units.values() if x.carried_by == u.id]:
            self.destroy(p, "carrier destroyed")  # §13.36
        self._count_loss(u)

    def _count_loss(self, u: Unit) -> None:
        if u.type.unit_class == "forward-observer" or u.card < 0:
            return  # §12.2; §13.31: scenario transports have no morale effect
        f = self.state.formations[u.card]
        f.losses += 1
        f.lost_this_turn += 1

    # --- morale phase (§4.3) ------------------------------------------------------------------

    def morale_phase(self) -> None:
        """§4.3, §10: the morale phase's seven steps, then the next turn (or the end of the game)."""
        s = self.state
        s.phase = "morale"
        self.log("morale-phase")
        combat = [f for f in s.formations.values() if f.kind == "combat" and f.arrival <= s.turn]
        for u in s.units.values():  # step 1 (and §13.3 step 4: passengers get off)
            if u.carried_by is not None:
                u.carried_by = None
            if u.flipped and u.on_map and not u.suppressed and not s.formations[u.card].shaken:
                u.flipped = False
        for f in combat:  # step 2: rally first, then formations that lost units this turn
            if f.shaken and self._has_units(f.card) and self._formation_check(f.card, "rally", "10.15"):
                f.shaken = False
        for f in combat:
            if f.lost_this_turn and not f.shaken and self._has_units(f.card):
                if not self._formation_check(f.card, "losses this turn"):
                    f.shaken = True
                    self.log("shaken", card=f.card, section="10.14")
                    for u in self.units_of(f.card):
                        u.flipped = True
        for u in list(s.units.values()):  # step 3
            if u.on_map and u.suppressed and not s.formations[u.card].shaken:
                variant = self.ctx.variant(u.card)
                mods = {"losses": self.loss_modifier(u.card), **self.separation_morale(u)}
                if self.morale_check(u, variant.morale, mods, "rally suppressed", "10.22"):
                    u.suppressed = False
        self._enforce_stacking()  # step 4
        for u in s.units.values():  # step 5
            u.clear_turn_markers()
        s.fire_zones.clear()  # §13.26: fire zones last until Morale step 5
        for h in list(s.smoke):  # §17.4: 1d6 per marker, removed on 1-3
            roll = self.dice.roll(1)[0]
            gone = roll <= self.ctx.tables.setting("smoke_removal_max_roll", 3)
            if gone:
                s.smoke.remove(h)
            self.log("smoke-check", hex=h, roll=roll, removed=gone, section="17.4")
        self.doctrine()  # step 6
        self.reshuffle_raids()  # step 7 (§16.1)
        for f in s.formations.values():
            if f.lost_this_turn or f.must_replay:  # most have neither: no call of the write hook
                f.lost_this_turn, f.must_replay = 0, False
        s.phase = "operations"
        if s.turn >= self.ctx.scenario.turns:
            self._end_game()
            return
        s.turn += 1
        self.start_turn()

    def separation_morale(self, u: Unit) -> dict:
        """§11.5: the morale modifier of a separated ``u``, by name (empty if not separated)."""
        key = self.separation_key(u)
        return {key: self.ctx.tables.morale(key)} if key else {}

    def _enforce_stacking(self) -> None:
        limit = self.ctx.tables.stacking()
        fits = min(limit["units"], limit["vehicles"])  # a hex holding no more units is within both limits
        by_hex: dict = {}
        for hex_, here in self.state.stacks():
            if len(here) > fits:  # the few crowded hexes only (the index holds the units on the map)
                for u in here:
                    by_hex.setdefault((hex_, u.side), []).append(u)
        over = [(key, units) for key, units in by_hex.items() if len(units) > limit["units"]
                or sum(u.type.is_vehicle for u in units) > limit["vehicles"]]  # mostly none: no sorting then
        for (hex_, side), units in sorted(over):
            vehicles = [u for u in units if u.type.is_vehicle]
            # The owner's choice, made for him: the weakest go first (suppressed, then lowest defense).
            order = sorted(vehicles, key=lambda u: (not u.suppressed, u.type.defense, u.id))
            while len(vehicles) > limit["vehicles"]:
                victim = order.pop(0)
                vehicles.remove(victim)
                units.remove(victim)
                self.destroy(victim, "overstacked")
            order = sorted(units, key=lambda u: (not u.suppressed, u.type.defense, u.id))
            while len(units) > limit["units"]:
                victim = order.pop(0)
                units.remove(victim)
                self.destroy(victim, "overstacked")

    def doctrine(self) -> None:
        """Morale step 6 (§11): the centre leaving fewest units separated, for each formation."""
        for card, f in self.state.formations.items():
            if f.kind != "combat":
                continue
            units = [u for u in self.units_of(card) if u.on_map and u.type.unit_class != "forward-observer"]
            if not units:
                continue
            radius = doctrine_radius(self.ctx.field.settings, self.ctx.model.cards[card])
            if radius is None:
                continue
            if len(units) == 1:
                continue  # §11.11: a lone unit keeps whatever marker it has
            centre, outside = best_centre(self.ctx.field, [u.hex for u in units], radius)
            for i, u in enumerate(units):
                separated = i in outside
                if u.separated is not separated:  # mostly as it was: no call of the write hook
                    u.separated = separated
