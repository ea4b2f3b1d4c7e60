"""Direct fire: targeting, opportunity fire, spotting and fire modifiers, attacks (§9, §12.14, §13.1).

A part of :class:`Game` (see game.py): the methods use its state and dice."""
from __future__ import annotations

from dataclasses import replace

from ... import hexmath
from ..model import CombatCard
from ..rules_tables import separation_row
from .state import ON_MAP, Unit
from .tables import EXPERIENCE, hit_value
from .context import other
from .facing import sector
from .modifiers import Shot, modifiers
from .decisions import Activation, Opportunity, SmokeHex, Target


class FireMixin:
    def opportunity_firers(self, mover: Unit) -> list[Unit]:
        """§9.4: the enemy units that may fire at ``mover`` as it enters its hex."""
        # can_target's tests, the line of sight read once from the table (visible() asked for smoke)
        s = self.state
        if mover.status != ON_MAP or mover.hidden or mover.carried_by:
            return []  # nobody may fire at it (_fire_modes)
        table = self.ctx.table(s.visibility)
        to = mover.hex
        seen, index = table.column(to), table.index  # line of sight first: the cheapest test
        out = []
        formations, smoke, here = s.formations, s.smoke, s.here
        for u in s.on_map(other(mover.side)):
            if not seen[index[u.hex]] or u.flipped or u.suppressed or formations[u.card].shaken:
                continue  # on_map: u.ready is not flipped and not suppressed
            if u.opportunity_fired and not u.flash_kill:
                continue
            if not self.fire_modes(u, mover):
                continue
            if u.hex != to and (any(e.side != u.side and not e.hidden for e in here(u.hex))
                                or smoke and not self.visible(u.hex, to)):
                continue  # §8.51: only at units in its own hex; smoke blocks the line (§17.3)
            out.append(u)
        return out

    def _same_hex_firers(self, mover: Unit, done: tuple = ()) -> list[Unit]:
        """§12.14: enemy infantry in the hex a unit enters may fire at it, flipped or not (not an
        operation); suppressed units and units of shaken formations cannot fire (§10.13, §10.14).
        ``done``: those that already fired at it in this hex."""
        if not self.ctx.advanced or not mover.on_map or mover.hex not in self.state.held(other(mover.side)):
            return []  # (no enemy unit there: the hex index, brought up to date at each step, is not read)
        return [u for u in self.state.here(mover.hex)
                if u.side != mover.side and u.type.unit_class == "infantry" and not u.suppressed and not u.carried_by
                and not self.state.formations[u.card].shaken and u.id not in done and self.fire_modes(u, mover)]

    def _opp_actions(self, mover: Unit, same_hex_done: tuple = ()) -> list:
        out = []
        for u in self._same_hex_firers(mover, same_hex_done):
            out += [("same-hex-fire", u.id) if m == self.natural_mode(mover) else ("same-hex-fire", u.id, m)
                    for m in self.fire_modes(u, mover)]
        for u in self.opportunity_firers(mover):
            out += [("opp-fire", u.id) if m == self.natural_mode(mover) else ("opp-fire", u.id, m)
                    for m in self.fire_modes(u, mover)]
        return out

    def _open_opportunity(self, mover: Unit, same_hex_done: tuple) -> None:
        """Ask the enemy about opportunity fire at ``mover`` in the hex it entered (§9.4, §12.14)."""
        if mover.suppressed:
            self._after_opportunity(mover)
            return
        # mostly nobody may fire: no question made then (who may fire has a kind of fire at it:
        # the question's actions are listed when it is asked)
        if not (self._same_hex_firers(mover, same_hex_done) or self.opportunity_firers(mover)):
            self._after_opportunity(mover)  # opp-pass alone
            return
        self._push(Opportunity(other(mover.side), mover.id, same_hex_done))

    def _legal_opportunity(self, d: Opportunity):
        return self._opp_actions(self.state.units[d.mover], d.same_hex_done) + [("opp-pass",)]

    def _do_opportunity(self, d: Opportunity, action):
        mover = self.state.units[d.mover]
        if action[0] == "opp-pass":
            self._after_opportunity(mover)
            return
        firer = self.state.units[action[1]]
        mode = action[2] if len(action) > 2 else None
        if action[0] == "same-hex-fire":
            d = replace(d, same_hex_done=d.same_hex_done + (firer.id,))
            self._swap(d)
            self.log("same-hex-fire", unit=firer.id, target=mover.id, flipped=firer.flipped, section="12.14")
            self.shoot(firer, mover, opportunity=True, move_fire=False, mode=mode, same_hex=True)
        else:
            firer.opportunity_fired = True
            self.log("opportunity-fire", unit=firer.id, target=mover.id, section="9.4")
            self.shoot(firer, mover, opportunity=True, move_fire=False, mode=mode)
        if not (mover.on_map and not mover.suppressed and len(self._legal_of(d)) > 1):
            self._after_opportunity(mover)  # else the question stays, one firer fewer

    # --- fire (§9) ---------------------------------------------------------------------------

    def factor(self, u: Unit, vs_vehicle: bool) -> int | None:
        """§2.11, §13.1: ``u``'s AV or AI fire factor; None when it has none (the printed dot)."""
        return u.type.anti_vehicle if vs_vehicle else u.type.anti_infantry

    def range(self, u: Unit, vs_vehicle: bool) -> int | None:
        """§2.11, §12.13: ``u``'s range for AV or AI fire."""
        if vs_vehicle and u.type.anti_vehicle_range is not None:
            return u.type.anti_vehicle_range
        if vs_vehicle and u.type.unit_class == "infantry":
            return 0  # §12.13: one range box is the AI range; AV fire only in the unit's own hex
        return u.type.range

    @staticmethod
    def natural_mode(target: Unit) -> str:
        """AV fire at vehicles, AI fire at non-vehicles (§13.1); AI at lightly armoured is a choice."""
        return "av" if target.type.is_vehicle else "ai"

    def fire_modes(self, firer: Unit, target: Unit, indirect: bool = False) -> list[str]:
        """The kinds of fire (``"av"``, ``"ai"``) the firer may direct at the target: factor, range,
        the stacking limits of §8.51 and §13.13 (no line of sight or dice here)."""
        if firer.status != ON_MAP or target.status != ON_MAP or target.hidden or target.carried_by \
                or firer.carried_by:
            return []  # §13.36: fire at the carrier, never at its passengers; passengers never fire
        profiles = self.ctx.memo.get("fire_profiles")
        hit = profiles.get((id(firer.type), id(target.type), indirect, self.ctx.advanced)) if profiles else None
        if hit is not None and hit[0] is firer.type and hit[1] is target.type:
            profile = hit[2]
        else:
            profile = self._fire_profile(firer, target, indirect)
        if not profile:
            return []
        fh, th = firer.hex, target.hex
        if fh != th and self.state.bunkers and not indirect and self.bunker_of(firer) is not None \
                and self.in_flank(firer, th):
            return []  # §15.24: a bunker's occupant never fires into its own flank arc
        axials = self.ctx.field.board._axials
        a, b = axials[fh], axials[th]
        dq, dr = a[0] - b[0], a[1] - b[1]
        d = max(abs(dq), abs(dr), abs(dq + dr))
        friends = None
        out = []
        for m, reach, no_vehicles, no_soft, no_friends in profile:
            if d > reach:
                continue
            if fh != th and (no_vehicles or no_soft or no_friends):
                if friends is None:
                    friends = _friends_in(self.state.here(th), firer.side)
                if no_vehicles and friends[0]:
                    continue  # §8.51: no anti-vehicle fire into a hex holding friendly vehicles
                if no_soft and friends[1]:
                    continue  # §13.13: no AI fire into a hex holding friendly non-vehicles/light armour
                if no_friends and friends[2]:
                    continue  # §13.21: never at a hex holding friendly units (except the firer's own)
            out.append(m)
        return out

    def _fire_profile(self, firer: Unit, target: Unit, indirect: bool) -> tuple:
        """What _fire_modes needs beyond the positions, per (firer type, target type): for each
        kind of fire with a factor and a range, (mode, range, and which friendly units in the
        target's hex forbid it: vehicles, non-vehicles/light armour, any). Memoised per context
        by the types' identities (checked: a type made by a test may die and its id be reused):
        _factor and _range depend on the unit type only."""
        cache = self.ctx.memo.setdefault("fire_profiles", {})
        profile = tuple(self._fire_profile_entries(firer, target.type, indirect))
        cache[(id(firer.type), id(target.type), indirect, self.ctx.advanced)] = (firer.type, target.type, profile)
        return profile

    def _fire_profile_entries(self, firer: Unit, tt, indirect: bool):
        advanced = self.ctx.advanced
        if not advanced:  # basic rules (vehicles only): the natural mode, the §8.51 limit
            modes, indirect = ["av" if tt.is_vehicle else "ai"], False
        else:
            modes = ["av"] if tt.is_vehicle else ["ai"]
            if tt.is_vehicle and tt.lightly_armored:
                modes.append("ai")  # §13.13: AI fire may be directed at a lightly armoured vehicle
        for m in modes:
            factor = self.factor(firer, m == "av")
            reach = firer.type.range if indirect else self.range(firer, m == "av")
            if factor is None or reach is None:
                continue
            yield m, reach, m == "av" and not indirect, advanced and m == "ai", indirect

    def can_target(self, firer: Unit, target: Unit) -> bool:
        """Range, line of sight and the stacking restrictions of §8.51 (no dice)."""
        if not self.fire_modes(firer, target):
            return False
        if firer.hex != target.hex and any(e.side != firer.side and not e.hidden for e in self.state.here(firer.hex)):
            return False  # §8.51: only at units in its own hex
        return self.visible(firer.hex, target.hex)

    def visible(self, a: str, b: str) -> bool:
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
        policy = self.ctx.field.los_policy
        for step in hexmath.line_pattern(v, policy).steps:
            cells = [hexmath.add(pa, o) for o in step if o != (0, 0) and o != v]
            if cells and all(c in smoky for c in cells):
                return False
        return True

    def smoke_hexes(self, firer: Unit, viewer: Unit) -> list[str]:
        """§17.2: any hex in the firer's range within the spotting unit's visibility (no roll)."""
        board = self.ctx.field.board
        reach = firer.type.range or 0
        return [h for h in self.ctx.table(self.state.visibility).seen_from(viewer.hex)
                if board.distance(firer.hex, h) <= reach and self.visible(viewer.hex, h)]

    def _may_smoke(self, firer: Unit, indirect: bool) -> bool:
        if not self.ctx.advanced or self.state.smoke_points.get(firer.side, 0) <= 0:
            return False
        if indirect:
            return firer.type.indirect_fire
        return firer.type.close_support and not firer.smoked

    def _legal_smoke_hex(self, d: SmokeHex):
        return [("hex", h) for h in d.hexes] + [("cancel",)]

    def _do_smoke_hex(self, d: SmokeHex, action):
        u = self.state.units[d.unit]
        if action[0] == "cancel":
            self._cancel_declared(u)
            return
        self.state.smoke.append(action[1])
        self.state.smoke_points[u.side] -= 1
        spotter = self.state.units[d.spotter] if d.spotter else None
        if spotter is not None:
            spotter.if_spotted = spotter.flipped = True  # it designated the hex (§17.2)
        else:
            u.smoked = True  # a CS tank: one smoke fire per turn (§17.2)
        self.log("smoke", unit=u.id, hex=action[1], spotter=spotter.id if spotter else None,
                 points_left=self.state.smoke_points[u.side], section="17.2")
        self._finish_operation(u)

    def targets(self, firer: Unit) -> list[Unit]:
        """The enemy units _can_target allows, its §8.51 test made once for the firer's hex."""
        if firer.status != ON_MAP or firer.carried_by:
            return []  # it has no fire modes
        s = self.state
        if s.bunkers:  # a bunker's flank arc reads the firer's facing, which placements do not follow
            return self._targets_now(firer)
        # memoised per firer while nothing is placed anew (placements: positions, sides, types,
        # hidden, carried) and the visibility and smoke markers stay: all that the answer reads
        stamp = (s.placements(), s.visibility, tuple(s.smoke))
        key = ("targets", firer.id)
        hit = s._memo.get(key)
        if hit is None or hit[0] != stamp or hit[1] is not firer:
            hit = s._memo[key] = (stamp, firer, self._targets_now(firer))
        return list(hit[2])

    def _targets_now(self, firer: Unit) -> list[Unit]:
        s = self.state
        enemy = other(firer.side)
        # the hexes the enemy holds (State.held, kept while the enemy stands): the hex index (brought up to date
        # at every step of a move) is read only where the enemy is
        engaged = firer.hex in s.held(enemy) and any(e.side != firer.side and not e.hidden for e in s.here(firer.hex))
        table = self.ctx.table(s.visibility)
        sees, index = table.row(firer.hex), table.index  # line of sight first: the cheapest test
        smoke = s.smoke  # without smoke, visible() is the table's line of sight, read already
        out = []
        for t in s.on_map(enemy):
            if engaged and t.hex != firer.hex:
                continue
            if sees[index[t.hex]] and self.fire_modes(firer, t) and (not smoke or self.visible(firer.hex, t.hex)):
                out.append(t)
        return out

    def _target_actions(self, firer: Unit, targets: list[Unit], indirect: bool = False) -> list:
        out = []
        for t in targets:
            out += [("target", t.id) if m == self.natural_mode(t) else ("target", t.id, m)
                    for m in self.fire_modes(firer, t, indirect)]
        return out

    def _start_targeting(self, u: Unit, move_fire: bool) -> None:
        targets = self.targets(u)
        if not targets and self._may_smoke(u, False):
            self._on_activation(Target(u.side, u.id, (), move_fire))
            return
        if not targets:
            self.log("no-target", unit=u.id, section="9.19")
            if move_fire:
                self._finish_operation(u)
            else:  # an aborted attempt is not an operation: the unit may do something else
                self._back_to_activation()
            return
        self._on_activation(Target(u.side, u.id, tuple(self._target_actions(u, targets)), move_fire))

    def _legal_target(self, d: Target):
        out = list(d.targets)
        u = self.state.units[d.unit]
        if self._may_smoke(u, bool(d.spotter)):
            out.append(("smoke",))  # §17.2: a hex instead of a unit
        return out + [("hold",)] if d.move_fire else out + [("cancel",)]

    def _cancel_declared(self, u: Unit) -> None:
        """A declared fire (or smoke, assault) withdrawn before any roll is not an operation
        (§9.19): the unit may still move, but not declare it again in this activation. After a
        move-and-fire's move the operation is over."""
        move_fire = getattr(self.decision, "move_fire", False)
        activation = self._find(Activation)
        self._replace(activation, replace(activation, cancelled=activation.cancelled + (u.id,)))
        if move_fire:
            self._finish_operation(u)
        else:
            self._back_to_activation()

    def _do_target(self, d: Target, action):
        u = self.state.units[d.unit]
        if action[0] == "cancel":  # not an operation (§9.19); it may still move, not declare fire again
            self._cancel_declared(u)
            return
        if action[0] == "hold":
            self._finish_operation(u)
            return
        if action[0] == "smoke":
            viewer = self.state.units[d.spotter] if d.spotter else u
            self._swap(SmokeHex(d.side, u.id, tuple(self.smoke_hexes(u, viewer)), d.move_fire, d.spotter))
            return
        target = self.state.units[action[1]]
        mode = action[2] if len(action) > 2 else None
        if d.spotter:
            self._indirect_fire(u, self.state.units[d.spotter], target, mode)
            self._finish_operation(u)
            return
        flash = self.shoot(u, target, opportunity=False, move_fire=d.move_fire, mode=mode)
        self._finish_operation(u, flash=bool(flash))  # §9.36: not flipped, one more operation later

    # --- close assault (§14.1) -------------------------------------------------------------------

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
            self.destroy(target, "fire")
        elif (x := hit_value(result)) is not None:
            self.unit_check(target, x, flank=flank)
        return result

    def experience(self, u: Unit) -> str:
        """§6.2, §10.31: ``u``'s experience, its formation card's raised by its own upgrades."""
        memo = self.ctx.memo.get("experience")  # asked for every modifier list
        if memo is None:
            memo = self.ctx.memo["experience"] = {}
        key = (u.card, u.experience_bonus, id(self.ctx.years))
        level = memo.get(key)
        if level is None:
            base = EXPERIENCE.index(self.ctx.variant(u.card).experience)
            level = memo[key] = EXPERIENCE[min(2, base + u.experience_bonus)]
        return level

    def _special(self, roll: str, side: str) -> int:
        """Scenario die-roll modifiers (§18.7), e.g. Totensonntag's to spotting (values in the scenario)."""
        total = 0
        for r in self.ctx.special:
            if r["type"] == "die-roll-modifier" and r.get("roll") in (roll, "all") \
                    and r.get("side", "both") in (side, "both"):
                total += r.get("value", 0)
        return total

    def self_spotting(self, u: Unit) -> int:
        """§13.28 (and §18.7 scenario rules): what ``u`` adds to its factors spotting its own target."""
        if self.ctx.advanced and u.type.indirect_fire:
            return self.ctx.tables.fire("self_spotting")  # §13.28: direct and opportunity fire too
        for r in self.ctx.special:
            if r["type"] == "self-spotting" and u.type.id in r.get("units", {}).get("types", ()) and \
                    (not r.get("cards") or u.card in r["cards"]):
                return self.ctx.tables.fire("self_spotting")  # as an indirect-fire unit spotting its own target
        return 0

    def in_flank(self, target: Unit, source_hex: str) -> bool:
        """Whether fire from source_hex comes through the target's flank arc (§8.2, §8.21)."""
        f = self.ctx.field.board
        if source_hex == target.hex:
            return False
        side = sector(f.axial(target.hex), f.axial(source_hex))
        return (side - target.facing) % 6 not in (0, 1, 5)  # the front arc: facing side and its two neighbours

    def spot_modifiers(self, firer: Unit, target: Unit, opportunity: bool, move_fire: bool) -> dict[str, float]:
        """§9.14's modifiers of the spotting roll (rules_tables.MODIFIERS, kind "spot")."""
        return modifiers(Shot(self, "spot", firer, target, move_fire=move_fire))

    def separation_key(self, u: Unit) -> str | None:
        """The §11.5 row of a separated unit; §11.5 gives Seasoned non-vehicles none (NOTES.md)."""
        if not u.separated:
            return None
        return separation_row(self.experience(u), u.type.is_vehicle)  # the rows the modifier table names

    def fire_modifiers(self, firer: Unit, target: Unit, move_fire: bool, cover: bool, mode: str = "av",
                       same_hex_flipped: bool = False, *, close_assault: bool = False,
                       spill: bool = False) -> dict[str, float]:
        """§9.3's modifiers of a direct fire (rules_tables.MODIFIERS, kind "direct"): ``cover`` as
        _cover says (never in a close assault), ``same_hex_flipped``: flipped infantry firing in its
        hex has only the adjacent range modifier (§12.14); ``spill``: the §13.11 attack on the
        target's hex-mates."""
        d = 1 if same_hex_flipped else self.ctx.field.board.distance(firer.hex, target.hex)
        return modifiers(Shot(self, "direct", firer, target, mode=mode, distance=d, move_fire=move_fire,
                              cover=cover, close_assault=close_assault, spill=spill))

    def cover(self, firer: Unit, target: Unit) -> bool:
        """§9.16: the target is in cover (a building hex, or higher than the firer)."""
        terrain = self.ctx.field.terrain
        return terrain.hexes[target.hex].building or terrain.level(target.hex) > terrain.level(firer.hex)

    def shoot(self, firer: Unit, target: Unit, opportunity: bool, move_fire: bool, mode: str | None = None,
               same_hex: bool = False, close_assault: bool = False) -> bool:
        """Spot, fire, apply the result; flip the firer. True when it scored a flash kill.
        ``mode``: "av" or "ai" fire (default: the target's kind, §13.1); ``same_hex``: infantry
        opportunity fire in its own hex (§12.14), not an operation: the firer is not flipped."""
        if firer.hidden:  # hidden by a scenario rule (XII; FOs never fire): fire is an operation (§9.41)
            self._reveal(firer, "fired")
        t = self.ctx.tables
        f = self.ctx.field
        mode = mode or self.natural_mode(target)
        # Facing its target (§8.22, never in a bunker, §15.22): an active firer turns as its formation is
        # activated, before spotting; an opportunity firer's formation is not active, and it "peut
        # également modifier son orientation après avoir effectué un repérage réussi pour un tir
        # d'opportunité": it spots as it stands, through its flank arc if so (§9.15), then turns.
        turns = firer.hex != target.hex and self.bunker_of(firer) is None
        if turns and not opportunity:
            firer.facing = sector(f.board.axial(firer.hex), f.board.axial(target.hex))
        d = f.board.distance(firer.hex, target.hex)
        cover = self.cover(firer, target) and not close_assault  # §14.13: no cover in a close assault
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
        if turns and opportunity:
            firer.facing = sector(f.board.axial(firer.hex), f.board.axial(target.hex))
        c3 = self.ctx.model.cards.get(firer.card)
        letter = c3.variant(self.ctx.years[firer.side]).c3 if isinstance(c3, CombatCard) else None
        if letter in ("A", "B", "C") and d > 0:
            target.spotted = letter  # §9.18
        vs_vehicle = mode == "av"
        column = "vehicle" if target.type.is_vehicle else "non_vehicle"
        factor = self.factor(firer, vs_vehicle) + self.self_spotting(firer)
        differential = factor - target.type.defense
        mods = self.fire_modifiers(firer, target, move_fire, cover, mode, same_hex and firer.flipped,
                                   close_assault=close_assault)
        dice = self.dice.roll(3)
        raw = sum(dice)
        total = raw + differential + sum(mods.values())
        result = t.crt(column, total)
        self.log("fire", unit=firer.id, target=target.id, dice=dice, differential=differential, modifiers=mods,
                 total=total, result=result, section="9.22")
        flank = self.flank_hit(target, firer.hex)
        hex_ = target.hex
        flash = False
        if result == "destroyed":
            # §13.13: AI fire never flash-kills; same-hex infantry fire is no operation (§12.14)
            flash = (vs_vehicle and not move_fire and not same_hex and not close_assault and firer.flash_kills == 0
                     and raw >= t.flash_kill(self.experience(firer)))
            if flash:
                self.log("flash-kill", unit=firer.id, raw=raw, section="9.35")
            self.destroy(target, "fire")
        elif (x := hit_value(result)) is not None:
            self.unit_check(target, x, flank=flank)
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
        of the target's side in the hex, one roll each, with the spill modifier (no fire-zone marker)."""
        t = self.ctx.tables
        for x in [x for x in self.state.at(hex_) if x.side == target.side and x is not target
                  and (not x.type.is_vehicle or x.type.lightly_armored) and not x.carried_by]:
            if x.hidden:
                self._reveal(x, "attacked by anti-infantry fire at its hex")
            if firer.type.anti_infantry is None:
                continue
            mods = self.fire_modifiers(firer, x, move_fire, self.cover(firer, x), "ai", spill=True)
            flank = self.flank_hit(x, firer.hex)
            self._attack(x, firer.type.anti_infantry + self.self_spotting(firer), mods, flank=flank, unit=firer.id,
                         spill=True, section="13.11")

    def _fired_marker(self, firer: Unit, destroyed: Unit | None) -> None:
        """§9.17: fired from cover while an enemy sees it (not if it killed the only one)."""
        terrain = self.ctx.field.terrain
        if firer.hex is None:
            return
        enemies = [e for e in self.state.units.values() if e.side != firer.side and e.on_map]
        in_cover_of = [e for e in enemies if terrain.hexes[firer.hex].building
                       or terrain.level(firer.hex) > terrain.level(e.hex)]
        if any(self.visible(e.hex, firer.hex) for e in in_cover_of if e is not destroyed):
            firer.fired = True

    # --- morale (§10) ---------------------------------------------------------------------


def _friends_in(units, side: str) -> tuple[bool, bool, bool]:
    """Whether ``side`` has, among ``units`` (a hex's), a vehicle; a non-vehicle or a lightly
    armoured vehicle; any unit (fire_modes' §8.51, §13.13 and §13.21 tests, in one pass)."""
    vehicles = soft = anyone = False
    for x in units:
        if x.side == side:
            anyone = True
            t = x.type
            if not t.is_vehicle:
                soft = True
            else:
                vehicles = True
                if t.lightly_armored:
                    soft = True
    return vehicles, soft, anyone
