"""Indirect fire (§13.2): spotters, fire zones and hidden observers.

A part of :class:`Game` (see game.py): the methods use its state and dice."""
from __future__ import annotations

from .state import Unit
from .facing import sector
from .modifiers import Shot, modifiers
from .decisions import Spotter, Target


class IndirectFireMixin:
    def spotters(self, firer: Unit) -> list[Unit]:
        """§13.22: the firer itself, or a ready friendly unit with the spotting star (FOs, US Jeeps,
        §12.2) of a formation activated by the same card; one IF spotting per unit per turn (§13.23)."""
        cards = self._cards((firer.card,))
        out = [firer] if not firer.if_spotted else []
        for u in self.state.units.values():
            if u is not firer and u.card in cards and u.ready and not u.if_spotted and \
                    (u.type.spotter or u.type.counts_as_observer):
                out.append(u)
        return out

    def indirect_plans(self, firer: Unit) -> list[tuple[Unit, Unit]]:
        """§13.2, §13.22: the (spotter, target) pairs an indirect fire by ``firer`` could use now."""
        if not firer.ready or not firer.type.indirect_fire:
            return []
        enemies = [t for t in self.state.units.values() if t.side != firer.side and t.on_map and not t.hidden
                   and self.fire_modes(firer, t, indirect=True)]
        return [(sp, t) for sp in self.spotters(firer) for t in enemies
                if sp.hex == t.hex or self.visible(sp.hex, t.hex)]

    def _has_indirect_plan(self, firer: Unit) -> bool:
        """Whether _indirect_plans is not empty, stopping at the first pair (asked at every activation)."""
        if not firer.ready or not firer.type.indirect_fire:
            return False
        spotters = self.spotters(firer)
        if not spotters:
            return False
        # memoised per firer while nothing is placed anew and the visibility, the smoke markers
        # and the spotters' hexes stay: all the answer reads (indirect fire modes read no facing)
        s = self.state
        eyes = tuple(sp.hex for sp in spotters)
        stamp = (s.placements(), s.visibility, tuple(s.smoke), eyes)
        key = ("indirect-plan", firer.id)
        hit = s._memo.get(key)
        if hit is None or hit[0] != stamp or hit[1] is not firer:
            found = any(h == t.hex or self.visible(h, t.hex)
                        for t in s.units.values()
                        if t.side != firer.side and t.on_map and not t.hidden and self.fire_modes(firer, t, indirect=True)
                        for h in eyes)
            hit = s._memo[key] = (stamp, firer, found)
        return hit[2]

    def _legal_spotter(self, d: Spotter):
        return [("spotter", sid) for sid in d.spotters] + [("cancel",)]

    def _do_spotter(self, d: Spotter, action):
        u = self.state.units[d.unit]
        if action[0] == "cancel":
            self._cancel_declared(u)
            return
        spotter = self.state.units[action[1]]
        targets = [t for sp, t in self.indirect_plans(u) if sp is spotter]
        self._swap(Target(d.side, u.id, tuple(self._target_actions(u, targets, indirect=True)), False, spotter.id))

    def indirect_modifiers(self, firer: Unit, target: Unit, mode: str, distance: int,
                           fire_zone: bool = False) -> dict[str, float]:
        """§13.2: indirect range schedule; no cover nor facing (a ballistic fire over the terrain,
        §13.28: 'le sens d'orientation de l'unité ciblée ne produit aucun effet'); ``fire_zone``: the
        attack of another unit of the target's hex (§13.26). Rows of kind "indirect" in
        rules_tables.MODIFIERS."""
        return modifiers(Shot(self, "indirect", firer, target, mode=mode, distance=distance, fire_zone=fire_zone))

    def _indirect_fire(self, firer: Unit, spotter: Unit, target: Unit, mode: str | None) -> None:
        """§13.24-13.27: the spotter rolls; on success the firer fires, a fire zone is placed and
        every other enemy unit in the hex is attacked at the zone modifier. Never a flash kill."""
        t = self.ctx.tables
        f = self.ctx.field
        mode = mode or self.natural_mode(target)
        spotter.if_spotted = True
        if spotter.hex != target.hex and self.bunker_of(spotter) is None:
            spotter.facing = sector(f.board.axial(spotter.hex), f.board.axial(target.hex))
        d = f.board.distance(spotter.hex, target.hex)
        cover = self.cover(spotter, target) and not target.fired
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
        factor = self.factor(firer, mode == "av") + bonus
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
            m = self.best_zone_mode(firer, other_unit, bonus)
            mods = self.indirect_modifiers(firer, other_unit, m, distance, fire_zone=True)
            self._attack(other_unit, self.factor(firer, m == "av") + bonus, mods, unit=firer.id, zone=True,
                         section="13.25")
        firer.flipped = True
        self._fired_marker(firer, None)

    def best_zone_mode(self, firer: Unit, target: Unit, bonus: int = 0) -> str:
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
            distance = None if z["firer_hex"] is None else self.ctx.field.board.distance(z["firer_hex"], z["hex"])
            mods = modifiers(Shot(self, "zone", firer, u, mode=m, distance=distance, fire_zone=True))
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
