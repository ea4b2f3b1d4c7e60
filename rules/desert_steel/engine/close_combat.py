"""Close combat: close assault (§14.1) and overrun (§14.2).

A part of :class:`Game` (see game.py): the methods use its state and dice."""
from __future__ import annotations

from dataclasses import replace

import math
from .state import ON_MAP, Unit
from .context import other
from .facing import direction
from .decisions import AssaultFire, AssaultHex, AssaultJoin, AssaultReact, Move, OverrunReact, OverrunTarget


class CloseCombatMixin:
    def _pinned(self, u: Unit) -> bool:
        """§14.11: after an assault, infantry stays while an enemy unit shares its hex."""
        if u.pinned and not any(e.side != u.side and not e.hidden for e in self.state.at(u.hex)):
            u.pinned = False
        return u.pinned

    @staticmethod
    def armour(u: Unit) -> bool:
        """Vehicles in §14's sense: trucks and motorcycles are not."""
        return u.type.is_vehicle and u.type.transport_capacity not in ("truck", "motorcycle")

    def may_assault(self, u: Unit, h: str) -> bool:
        """§14.11: ready infantry of the activated formation, in or next to a hex of enemy vehicles
        without enemy infantry; the vehicles in cover, the infantry in an entrenchment, or entering
        through a vehicle's flank arc; no more than the stacking limit."""
        if u.type.unit_class != "infantry" or not u.ready or u.carried_by or u.card not in self._cards():
            return False
        board = self.ctx.field.board
        if board.distance(u.hex, h) > 1:
            return False
        there = [e for e in self.state.at(h) if e.side != u.side and not e.hidden]
        vehicles = [e for e in there if self.armour(e)]
        if not vehicles or any(e.type.unit_class == "infantry" for e in there):
            return False
        if u.hex != h and (self.enter_cost(u, u.hex, h) == "prohibited" or not self.may_enter_zone(u, h)
                           or self.may_not_move(u)):  # §11.5: it may still assault in its own hex
            return False
        if self.entrenched(u):
            return True
        terrain = self.ctx.field.terrain
        if terrain.hexes[h].building or terrain.level(h) > terrain.level(u.hex):
            return True
        return u.hex != h and any(self.in_flank(v, u.hex) for v in vehicles)

    def assault_hexes(self, u: Unit) -> list[str]:
        """§14.11: the hexes ready infantry ``u`` may close-assault, its own and the adjacent ones."""
        if u.type.unit_class != "infantry" or not u.ready:
            return []
        board = self.ctx.field.board
        return [h for h in [u.hex] + list(board.neighbours(u.hex)) if self.may_assault(u, h)]

    def _assault_room(self, h: str, side: str, joining: list) -> bool:
        limit = self.ctx.tables.stacking()["units"]
        already = [x for x in self.state.at(h) if x.side == side and x.id not in joining]
        return len(already) + len(joining) <= limit

    def _legal_assault_hex(self, d: AssaultHex):
        u = self.state.units[d.unit]
        return [("hex", h) for h in self.assault_hexes(u) if self._assault_room(h, u.side, [u.id])] + [("cancel",)]

    def _do_assault_hex(self, d: AssaultHex, action):
        u = self.state.units[d.unit]
        if action[0] == "cancel":
            self._cancel_declared(u)
            return
        self._swap(AssaultJoin(d.side, u.id, action[1], (u.id,)))

    def _legal_assault_join(self, d: AssaultJoin):
        me = self.state.units[d.unit]
        out = [("join", x.id) for c in self._cards() for x in self.units_of(c)
               if x.id not in d.units and x.side == me.side and x.on_map and self.may_assault(x, d.hex)
               and self._assault_room(d.hex, me.side, [*d.units, x.id])]
        return out + [("go",)]

    def _do_assault_join(self, d: AssaultJoin, action):
        if action[0] == "join":
            self._swap(replace(d, units=d.units + (action[1],)))
            return
        h = d.hex
        self.log("close-assault", units=list(d.units), hex=h, section="14.1")
        f = self.ctx.field
        going = []
        for uid in d.units:  # step 1: each takes a morale check; failure flips it
            x = self.state.units[uid]
            mods = {"losses": self.loss_modifier(x.card), **self.separation_morale(x)}
            special = self._special("morale", x.side)
            if special:
                mods["scenario"] = special
            if self.morale_check(x, self.ctx.variant(x.card).morale, mods, "close assault", "14.1"):
                going.append(x)
            elif x.on_map:
                x.flipped = True
        for x in going:  # step 2: all move in together
            if x.hex != h:
                self._leave_position(x)
                x.facing = direction(f.board.axial(x.hex), f.board.axial(h))
                x.hex, x.moved, x.spotted = h, True, None
                self.log("move", unit=x.id, hex=h, close_assault=True)
            x.pinned = True
        for x in going:
            if x.on_map:
                self._zone_attacks(x)
        self._assault_reactions(AssaultReact(other(d.side), d.unit, h, d.units,
                                             tuple(x.id for x in going if x.on_map and not x.suppressed)))

    def _assault_reactors(self, a) -> list:
        """§14.11: only the assaulted vehicles fire back (opportunity fire, §9.4); ``a``: the
        assault (AssaultReact or AssaultFire)."""
        side = self.state.units[a.unit].side
        out = []
        for v in self.state.at(a.hex):
            if v.side == side or not self.armour(v) or not v.ready or self.state.formations[v.card].shaken:
                continue
            if v.opportunity_fired and not v.flash_kill:
                continue
            for aid in a.going:
                x = self.state.units[aid]
                if x.on_map and not x.suppressed:
                    out += [("react-fire", v.id, aid) if m == self.natural_mode(x) else ("react-fire", v.id, aid, m)
                            for m in self.fire_modes(v, x)]
        return out

    def _assault_reactions(self, a) -> None:
        if self._assault_reactors(a):
            self._swap(AssaultReact(other(self.state.units[a.unit].side), a.unit, a.hex, a.units, a.going))
            return
        self._assault_fire(a)

    def _legal_assault_react(self, d: AssaultReact):
        return self._assault_reactors(d) + [("react-pass",)]

    def _do_assault_react(self, d: AssaultReact, action):
        if action[0] == "react-pass":
            self._assault_fire(d)
            return
        v, x = self.state.units[action[1]], self.state.units[action[2]]
        v.opportunity_fired = True
        self.log("opportunity-fire", unit=v.id, target=x.id, section="14.11")
        self.shoot(v, x, opportunity=True, move_fire=False, mode=action[3] if len(action) > 3 else None)
        self._assault_reactions(d)

    def assault_shooter(self, a=None) -> Unit | None:
        """The assaulting unit to fire now (§14.1 step 2): the first of the assault's ``going``
        (``a``, by default the pending decision) still up and with a vehicle to fire at."""
        a = a if a is not None else self.decision
        x = self.state.units[a.going[0]] if a.going else None
        if x is not None and self._assault_targets(x) and x.on_map and not x.suppressed:
            return x
        return None

    def _next_shooter(self, a) -> tuple[Unit | None, tuple]:
        """The next of ``a.going`` able to fire, and those left with it; the ones passed over
        (out of targets) are flipped: their assault is over."""
        going = a.going
        while going:
            x = self.state.units[going[0]]
            if x.on_map and not x.suppressed and self._assault_targets(x):
                return x, going
            going = going[1:]
            if x.on_map:
                x.flipped = True
        return None, going

    def _assault_targets(self, x: Unit) -> list:
        out = []
        for v in self.state.at(x.hex):
            if v.side != x.side and self.armour(v):
                out += [("target", v.id) if m == "av" else ("target", v.id, m) for m in self.fire_modes(x, v)]
        return out

    def _assault_fire(self, a) -> None:
        """Step 2: each assaulting unit must fire at a vehicle of the hex (AV, or AI at light armour),
        with the same-hex and close-assault modifiers, no cover; then it is flipped."""
        x, going = self._next_shooter(a)
        if x is None:
            self._back_to_activation()
            return
        self._swap(AssaultFire(x.side, a.unit, a.hex, a.units, going))

    def _legal_assault_fire(self, d: AssaultFire):
        return self._assault_targets(self.assault_shooter(d))

    def _do_assault_fire(self, d: AssaultFire, action):
        x = self.assault_shooter(d)
        self.shoot(x, self.state.units[action[1]], opportunity=False, move_fire=False,
                    mode=action[2] if len(action) > 2 else None, close_assault=True)
        x.flipped = True
        self._assault_fire(replace(d, going=d.going[1:]))

    # --- overrun (§14.2) ------------------------------------------------------------------------

    def _overrunner(self, u: Unit) -> bool:
        """§14.2, §14.21: vehicles other than trucks and motorcycles."""
        return u.type.is_vehicle and u.type.transport_capacity not in ("truck", "motorcycle")

    def _may_overrun(self, u: Unit) -> bool:
        if not self.ctx.advanced or not self._overrunner(u) or u.status != ON_MAP:
            return False
        reach = (u.type.movement or 1)
        q, r = self.ctx.field.board._axials[u.hex]
        soft = self.state.by_placement(("soft-targets", u.side), lambda: self._soft_targets(u.side), (other(u.side),))
        for eq, er in soft:
            if max(abs(eq - q), abs(er - r), abs(eq - q + er - r)) <= reach:  # board.distance
                return True
        return False

    def _soft_targets(self, side: str) -> list:
        """Where the enemy non-vehicles a tank of this side might overrun stand (axial positions)."""
        axials = self.ctx.field.board._axials
        return [axials[e.hex] for e in self.state.units.values()
                if e.side != side and e.status == ON_MAP and not e.hidden and not e.type.is_vehicle]

    def overrun_cost(self, u: Unit, n: str) -> float | None:
        """§14.21: a hex of enemy non-vehicles (trucks and motorcycles may be there, no other
        vehicle), not cover (a building or higher ground), for its cost plus half the printed MP
        rounded up, which the vehicle must have."""
        enemies = [e for e in self.state.at(n) if e.side != u.side and not e.hidden]
        if not any(not e.type.is_vehicle for e in enemies) or any(self._overrunner(e) for e in enemies):
            return None
        terrain = self.ctx.field.terrain
        if terrain.hexes[n].building or terrain.level(n) > terrain.level(u.hex):
            return None
        cost = self.enter_cost(u, u.hex, n)  # wire costs all the MP: no overrun into or out of it (§15.32)
        if not isinstance(cost, (int, float)) or not self.may_enter_zone(u, n):
            return None
        fraction = self.ctx.tables.setting("overrun_extra_cost_fraction", 0.5)
        total = cost + math.ceil((u.type.movement or 1) * fraction)
        move = self._find(Move)
        return total if move.spent + total <= move.mp else None

    def _overrun(self, u: Unit, dest: str) -> None:
        f = self.ctx.field
        cost = self.overrun_cost(u, dest)
        move = self._find(Move)
        move = replace(move, spent=move.spent + cost, steps=move.steps + 1, overrun="done")  # one per operation
        self._swap(move)
        u.facing = direction(f.board.axial(u.hex), f.board.axial(dest))
        u.hex, u.moved, u.spotted = dest, True, None
        self.log("overrun", unit=u.id, hex=dest, spent=move.spent, section="14.2")
        defenders = [e for e in self.state.at(dest) if e.side != u.side]
        for e in defenders:
            if e.hidden:
                self._reveal(e, "enemy entered its hex")
        done = tuple(e.id for e in defenders)  # their reaction is the overrun's (§14.2)
        stop = None
        if self._mines_on_entry(u):  # §15.13: first of all, and the overrunner stops there
            stop = ("set off a minefield", "15.13")
        self._swap(replace(move, stopped_by_enemy=False, stop=stop))  # §14.2 step 4: it may drive on
        self._zone_attacks(u)
        if not u.on_map or u.suppressed:
            self._finish_operation(u)
            return
        reactors = []
        for e in defenders:  # step 2: morale, without the same-hex/flank modifier
            if e.type.is_vehicle or e.suppressed:
                continue
            mods = {"losses": self.loss_modifier(e.card), **self.separation_morale(e)}
            special = self._special("morale", e.side)
            if special:
                mods["scenario"] = special
            if self.morale_check(e, self.ctx.variant(e.card).morale, mods, "overrun", "14.2"):
                # the test is taken all the same, but the fire it allows is opportunity fire (§14.2:
                # "peuvent immédiatement effectuer un tir d'opportunité"), which §10.14 denies to the
                # units of a shaken formation, as for close assault (§14.11); only infantry has
                # §12.14's same-hex exception (flipped or not, no operation): any other non-vehicle
                # (a gun) fires as opportunity fire does, face up and once a turn (§9.4, NOTES.md)
                if e.on_map and not self.state.formations[e.card].shaken and self.fire_modes(e, u) \
                        and (self._same_hex_infantry(e) or self._may_opportunity_fire(e)):
                    reactors.append(e.id)
        self._overrun_reactions(u, tuple(reactors), done)

    @staticmethod
    def _same_hex_infantry(e: Unit) -> bool:
        """§12.14 "Les unités d'infanterie disposent d'une aptitude particulière pour effectuer des
        tirs d'opportunité": infantry only, not guns nor FOs."""
        return e.type.unit_class == "infantry"

    @staticmethod
    def _may_opportunity_fire(e: Unit) -> bool:
        """§9.4: face up and not suppressed, and not yet fired in opportunity this turn (a flash
        kill's extra fire aside)."""
        return e.ready and (not e.opportunity_fired or e.flash_kill)

    def _overrun_reactions(self, u: Unit, reactors: tuple, defenders: tuple) -> None:
        if u.on_map and not u.suppressed and reactors:
            self._on_move(OverrunReact(other(u.side), u.id, reactors, defenders))
            return
        self._overrun_fire(u, defenders)

    def _on_move(self, d) -> None:
        """``d`` just above the move (an overrun's question in the place of another)."""
        if not isinstance(self.decision, Move):
            self._pop()
        self._push(d)

    def _legal_overrun_react(self, d: OverrunReact):
        u = self.state.units[d.unit]
        out = []
        for rid in d.reactors:
            r = self.state.units[rid]
            out += [("react-fire", rid) if m == self.natural_mode(u) else ("react-fire", rid, m)
                    for m in self.fire_modes(r, u)]
        return out + [("react-pass",)]

    def _do_overrun_react(self, d: OverrunReact, action):
        u = self.state.units[d.unit]
        if action[0] == "react-pass":
            reactors = ()
        else:
            r = self.state.units[action[1]]
            reactors = tuple(x for x in d.reactors if x != r.id)
            mode = action[2] if len(action) > 2 else None
            if self._same_hex_infantry(r):
                # §12.14: an immediate fire in the hex, not an operation (the same-hex modifier, or the adjacent
                # modifier for a flipped unit); a hit gives the vehicle the same-hex morale modifier (§14.2)
                self.log("overrun-fire", unit=r.id, target=u.id, fire="same-hex", flipped=r.flipped,
                         section="14.2, 12.14")
                self.shoot(r, u, opportunity=True, move_fire=False, mode=mode, same_hex=True)
            else:  # §14.2, §9.4: opportunity fire: the gun is flipped and has fired its turn's
                r.opportunity_fired = True
                self.log("overrun-fire", unit=r.id, target=u.id, fire="opportunity", flipped=False,
                         section="14.2, 9.4")
                self.shoot(r, u, opportunity=True, move_fire=False, mode=mode)
        self._overrun_reactions(u, reactors, d.defenders)

    def _overrun_fire(self, u: Unit, defenders: tuple) -> None:
        """Step 3: a vehicle still up fires its AI factor at a non-vehicle or truck of the hex; the
        others there are attacked with the anti-infantry spill's modifier (§13.11)."""
        if not u.on_map or u.suppressed:
            self._finish_operation(u)
            return
        targets = [e for e in self.state.at(u.hex) if e.side != u.side and not e.carried_by
                   and (not e.type.is_vehicle or e.type.transport_capacity in ("truck", "motorcycle"))]
        if u.type.anti_infantry is None or not targets:
            self._overrun_done(u, defenders)
            return
        self._on_move(OverrunTarget(u.side, u.id, tuple(("target", e.id) if not e.type.is_vehicle else
                                                        ("target", e.id, "ai") for e in targets), defenders))

    def _legal_overrun_target(self, d: OverrunTarget):
        return list(d.targets) + [("hold",)]

    def _do_overrun_target(self, d: OverrunTarget, action):
        u = self.state.units[d.unit]
        if action[0] == "target":
            flipped = u.flipped
            self.shoot(u, self.state.units[action[1]], opportunity=False, move_fire=False, mode="ai")
            u.flipped = flipped  # flipped at the end of the operation
        self._overrun_done(u, d.defenders)

    def _overrun_done(self, u: Unit, defenders: tuple) -> None:
        if not isinstance(self.decision, Move):
            self._pop()  # back to the move
        self._open_opportunity(u, defenders)  # other enemies may fire at it as it entered (§9.4)

    # --- transport (§13.3) -------------------------------------------------------------------
