"""Transport (§13.3): scenario transports, loading, towing and unloading.

A part of :class:`Game` (see game.py): the methods use its state and dice."""
from __future__ import annotations

from dataclasses import replace

from typing import Mapping
from .state import OFF_MAP, ON_MAP, Formation, Unit, new_unit
from ..setup_rules import transport_type
from .context import (TRANSPORT_POOL, EngineError)
from .decisions import Load, Move


class TransportMixin:
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
            self.state.units[uid] = new_unit(uid, pool, self.ctx.model.unit_types[t["type"]], side, hex_, facing, ON_MAP)

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
                self.state.units[uid] = new_unit(uid, pool, self.ctx.model.unit_types[t["unit_type"]], side, None,
                                             0 if side == "allied" else 3, OFF_MAP)

    def _transports_arriving(self, side: str) -> None:
        """§13.3, §18.6: transports a scenario grants for a later turn ("3 autres marqueurs de camion
        lors du tour 6, afin de pouvoir transporter ses renforts", VI; XI; XIII) wait off the map under
        a pseudo card of their own, from that turn on, and enter carrying units arriving then."""
        counts: dict[int, int] = {}
        for t in self.ctx.scenario.sides[side].raw.get("transports", ()):
            turn = t.get("turn", 1)
            if turn <= 1:
                continue
            if not self.ctx.advanced:
                raise EngineError("transports (§13.3) belong to the advanced rules")
            card = TRANSPORT_POOL[side] - 100 * turn  # e.g. -601: the Allied transports of turn 6
            self.state.formations.setdefault(card, Formation(card, side, "transport", arrival=turn))
            for _ in range(t["count"]):
                counts[turn] = counts.get(turn, 0) + 1
                uid = f"T{'AX'[side == 'axis']}.t{turn}.{counts[turn]}"
                self.state.units[uid] = new_unit(uid, card, self.ctx.model.unit_types[transport_type(
                    self.ctx.model, side, t)], side, None, 0 if side == "allied" else 3, OFF_MAP)
            self.log("transports-arriving", side=side, turn=turn, type=transport_type(self.ctx.model, side, t),
                     count=t["count"], section="18.6")

    def _capacity(self, carrier: Unit) -> tuple[int, int, bool]:
        cls = carrier.type.transport_capacity
        t = self.ctx.tables
        default = {"truck": (4, 3, True), "motorcycle": (3, 3, False), "light": (2, 1, True)}[cls]
        return (t.setting(f"transport_{cls}_capacity", default[0]), t.setting(f"transport_{cls}_max_infantry",
                default[1]), t.setting(f"transport_{cls}_can_tow", default[2]))

    def passengers(self, carrier: Unit) -> list[Unit]:
        """Its load: in the order loaded during its transport operation (§13.3)."""
        op = self._find((Load, Move))
        if op is None or not op.loaded or op.unit != carrier.id:
            return [u for u in self.state.units.values() if u.carried_by == carrier.id] \
                if carrier.type.transport_capacity else []
        return [self.state.units[p] for p in op.loaded]

    def can_load(self, carrier: Unit, p: Unit, loaded: list[Unit]) -> bool:
        """§13.3-13.34: a face-up non-vehicle of an activated formation that shared the carrier's
        hex when the Operations Phase began, within capacity (towed guns not on motorcycles)."""
        if p.type.is_vehicle or p.card not in self._cards() or p in loaded or p.side != carrier.side:
            return False
        if carrier.status == OFF_MAP:  # §18.6: entering loaded, with a formation arriving now
            if p.status != OFF_MAP or p.flipped or self.state.formations[p.card].arrival != self.state.turn:
                return False
            if loaded and self.state.formations[p.card].entry_zone != \
                    self.state.formations[loaded[0].card].entry_zone:
                return False
        elif not p.ready or p.hex != carrier.hex or p.start_hex != carrier.hex or carrier.start_hex != carrier.hex \
                or self.may_not_move(p):  # §11.5: a separated Green non-vehicle may not move, even carried
            return False
        capacity, max_inf, tow = self._capacity(carrier)
        if len(loaded) + 1 > capacity or (p.type.towed and not tow):
            return False
        return p.type.unit_class != "infantry" or sum(x.type.unit_class == "infantry" for x in loaded) < max_inf

    def riders(self, carrier: Unit) -> list[Unit]:
        """§13.3: the units ``carrier`` might load: its hex's, or off the map the activation's."""
        if carrier.status == OFF_MAP:
            return [u for c in self._cards() for u in self.units_of(c) if u.status == OFF_MAP]
        return self.state.at(carrier.hex)

    def loadable(self, carrier: Unit) -> bool:
        """§13.3, §13.34, §18.6: whether ``carrier`` may take a transport operation now."""
        if not carrier.type.transport_capacity or carrier.flipped or carrier.suppressed:
            return False
        if carrier.status == OFF_MAP:  # scenario transports wait off the map from their turn on
            arrival = self.state.formations[carrier.card].arrival
            if arrival > self.state.turn or (carrier.card >= 0 and arrival != self.state.turn):
                return False
        elif carrier.status != ON_MAP:
            return False
        return any(self.can_load(carrier, p, []) for p in self.riders(carrier))

    def _legal_load(self, d: Load):
        carrier = self.state.units[d.unit]
        loaded = [self.state.units[p] for p in d.loaded]
        out = [("load", p.id) for p in self.riders(carrier) if self.can_load(carrier, p, loaded)]
        return out + ([("go",)] if loaded else [("cancel",)])

    def _do_load(self, d: Load, action):
        carrier = self.state.units[d.unit]
        if action[0] == "cancel":
            self._back_to_activation()
            return
        if action[0] == "load":
            p = self.state.units[action[1]]
            p.carried_by, p.flipped, p.flash_kill = carrier.id, True, False  # §13.3 step 2: flipped (its operation)
            if p.hidden:  # placed under its transport (step 2), as it moves (§12.22) or operates (XII)
                self._reveal(p, "loaded in a transport")
            d = replace(d, loaded=d.loaded + (p.id,))
            self._swap(d)
            self.log("load", carrier=carrier.id, unit=p.id, section="13.3")
            if len(self._legal_of(d)) > 1:
                return
        if carrier.hidden:
            self._reveal(carrier, "moved")
        move = Move(d.side, carrier.id, "transport", self.ctx.field.allowance(carrier.type), loaded=d.loaded)
        self._swap(move)
        if self._legal_of(move) == [("stop",)]:
            self._end_move(carrier)

    def _unload(self, carrier: Unit, suppressed: bool) -> None:
        """§13.36: a suppressed carrier's passengers get off, suppressed."""
        for p in [u for u in self.state.units.values() if u.carried_by == carrier.id]:
            p.carried_by = None
            if suppressed:
                p.suppressed = p.flipped = True
                self.log("unloaded", carrier=carrier.id, unit=p.id, suppressed=True, section="13.36")

    # --- entrenchment (§13.4) -----------------------------------------------------------------
