"""Raids (§16): the raid deck, air strikes and artillery bombardments.

A part of :class:`Game` (see game.py): the methods use its state and dice."""
from __future__ import annotations

from dataclasses import replace
from typing import Mapping
from .modifiers import Shot, modifiers
from .state import Unit
from .context import (SIDES, EngineError)
from .decisions import AirStrike, AirTarget, Bombard, PlanBombardment, PlanRaid


class RaidsMixin:
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
            for r in pre:
                self._check_raid_turn(side, r)
            pre_recs = [r for r in s.raids if r["side"] == side and r["kind"] == "bombardment"]
            if len(pre) > len(pre_recs):
                raise EngineError(f"the setup plans {len(pre)} preplanned bombardments for the {side} side, "
                                  f"the scenario gives {len(pre_recs)} (§16.31)")
            for rec, r in zip(pre_recs, pre):
                card = r.get("spotting_card")
                if card not in s.formations or s.formations[card].side != side or not self.observers(card):
                    raise EngineError(f"preplanned bombardment: formation {card} has no FO (§16.31)")
                if self._booked(side, card, r["turn"]):
                    raise EngineError(f"formation {card} spots two bombardments in turn {r['turn']} (§16.31)")
                rec["turn"], rec["spotting_card"] = r["turn"], card
                if r.get("raid_card"):
                    rec["raid_card"] = r["raid_card"]
            planned = [r for r in setup.get("sides", {}).get(side, {}).get("raids", ()) if r["kind"] == "air-strike"]
            # only the side's air strikes: its bombardment records must not take an air strike's turn
            mine = [r for r in s.raids if r["side"] == side and r["kind"] == "air-strike"]
            for r in planned:
                self._check_raid_turn(side, r)
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

    def _check_raid_turn(self, side: str, raid: Mapping) -> None:
        """§16.21/§16.31: a raid planned in the setup falls on a turn of the scenario; one planned
        outside them would never come, and the setup would silently lose it."""
        turn, last = raid.get("turn"), self.ctx.scenario.turns
        if type(turn) is not int or not 1 <= turn <= last:
            section = "16.31" if raid["kind"] == "preplanned-bombardment" else "16.21"
            raise EngineError(f"the setup plans a {raid['kind']} of the {side} side for turn {turn!r}; "
                              f"the scenario's turns are 1 to {last} (§{section})")

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
                self._reset(PlanRaid(rec["side"]))
                return
        for rec in self.state.raids:
            if rec["kind"] == "bombardment" and rec["turn"] is None:
                if not self._plan_bombardment_choices(rec["side"]):
                    rec["turn"], rec["done"] = 0, True  # no formation with an FO: lost
                    self.log("bombardment-lost", side=rec["side"], reason="no formation with an FO",
                             section="16.31")
                    continue
                self._reset(PlanBombardment(rec["side"]))
                return
        self.start_turn()

    def _plan_turns(self, side: str) -> list[int]:
        used = {r["turn"] for r in self.state.raids if r["side"] == side and r["kind"] == "air-strike"}
        return [t for t in range(1, self.ctx.scenario.turns + 1) if t not in used]

    def _legal_plan_raid(self, d: PlanRaid):
        return [("raid-turn", t) for t in self._plan_turns(d.side)]

    def _do_plan_raid(self, d: PlanRaid, action):
        rec = next(r for r in self.state.raids if r["side"] == d.side and r["turn"] is None)
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
        self._reset(AirStrike(side))
        return True

    def _legal_air_strike(self, d: AirStrike):
        return [("pass",), ("air-strike",)]

    def _do_air_strike(self, d: AirStrike, action):
        if action[0] == "pass":
            self._open_interrupts()
            return
        side = d.side
        rec = self._air_strike_ready(side)
        rec["done"] = True
        card = self.draw_raid(rec.get("raid_card"))
        air = self.ctx.model.raid_cards[card].air_strike
        self.log("air-strike", side=side, nationality=rec["nationality"], raid_card=card,
                 aircraft=air.get("aircraft"), passes=air["passes"], section="16.22")
        self._next_air_marker(AirTarget(side, card, air["passes"]))

    def draw_raid(self, wanted: str | None = None) -> str:
        """§16.22-16.23: the top raid card of the deck (``wanted``: the card a played raid record names, for replays)."""
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

    def air_targets(self, side: str, markers: list) -> list[Unit]:
        """§16.24: any enemy unit on the map (no spotting, no LOS), in a hex holding or adjacent
        to a hex holding another air-strike marker; hidden FOs are only on paper (§12.21)."""
        board = self.ctx.field.board
        hexes = {self.state.units[m].hex for m in markers}
        return [u for u in self.state.units.values() if u.side != side and u.on_map and not u.hidden
                and not u.carried_by and (not hexes or u.hex in hexes
                                          or any(board.distance(u.hex, h) == 1 for h in hexes))]

    def _next_air_marker(self, d: AirTarget) -> None:
        if len(d.markers) < d.passes and self.air_targets(d.side, d.markers):
            self._reset(d)
            return
        self._resolve_air_strike(d)

    def _legal_air_target(self, d: AirTarget):
        return [("air-target", u.id) for u in self.air_targets(d.side, d.markers)]

    def _do_air_target(self, d: AirTarget, action):
        self._next_air_marker(replace(d, markers=d.markers + (action[1],)))

    def _resolve_air_strike(self, d: AirTarget) -> None:
        """§16.23: 1d6 per marker (1: the aircraft miss it), then each marker attacks its unit alone
        with the indirect-fire procedure: no range modifier, no fire zone, no flash kill."""
        t = self.ctx.tables
        air = self.ctx.model.raid_cards[d.raid_card].air_strike
        abort = t.setting("air_strike_abort_roll", 1)
        live = []
        for uid in d.markers:
            roll = self.dice.roll(1)[0]
            self.log("air-strike-spot", target=uid, roll=roll, aborted=roll <= abort, section="16.23")
            if roll > abort:
                live.append(uid)
        for uid in live:
            target = self.state.units[uid]
            if not target.on_map:
                continue  # already destroyed by an earlier marker
            mode = self.raid_mode(target, air)
            mods = self.raid_modifiers(target, mode)
            self._attack(target, air["anti_vehicle" if mode == "av" else "anti_infantry"], mods,
                         unit=f"raid:{d.raid_card}", air_strike=True, mode=mode, section="16.23")
        if self.state.stack:
            self._open_interrupts()
        else:
            self._next_card()

    def raid_mode(self, target: Unit, raid: Mapping) -> str:
        """AV against vehicles, AI against the rest; against lightly armoured vehicles the better
        of the two (the raiding player's choice, §16.23/§16.33, made by the engine)."""
        if not target.type.is_vehicle:
            return "ai"
        if not target.type.lightly_armored:
            return "av"
        ai = raid["anti_infantry"] + self.ctx.tables.fire("anti_infantry_vs_lightly_armored")
        return "ai" if ai > raid["anti_vehicle"] else "av"

    def raid_modifiers(self, target: Unit, mode: str, fire_zone: bool = False) -> dict[str, float]:
        """The indirect-fire modifiers that concern the target (§16.23: no range modifier; the
        aircraft or batteries have no experience nor facing): rows of kind "raid" in
        rules_tables.MODIFIERS; ``fire_zone``: a bombardment's attack of the hex's other units."""
        return modifiers(Shot(self, "raid", None, target, mode=mode, fire_zone=fire_zone))

    # artillery bombardments (§16.3): preplanned (§16.31-16.34) and on call (§16.35-16.37)

    def observers(self, card: int, ready: bool = False) -> list[Unit]:
        """§16.31: the FOs (or Jeeps) of a formation that may spot a bombardment."""
        return [u for u in self.units_of(card) if (u.type.unit_class == "forward-observer" or
                                                    u.type.counts_as_observer)
                and (not ready or (u.on_map and u.ready and not u.carried_by))]

    def _booked(self, side: str, card: int, turn: int) -> bool:
        return any(r["kind"] == "bombardment" and r["side"] == side and r["spotting_card"] == card
                   and r["turn"] == turn for r in self.state.raids)

    def _plan_bombardment_choices(self, side: str) -> list[tuple]:
        s = self.state
        cards = [c for c, f in sorted(s.formations.items()) if f.side == side and f.kind == "combat"
                 and self.observers(c)]
        return [("bombardment-plan", t, c) for t in range(1, self.ctx.scenario.turns + 1) for c in cards
                if s.formations[c].arrival <= t and not self._booked(side, c, t)]

    def _legal_plan_bombardment(self, d: PlanBombardment):
        return self._plan_bombardment_choices(d.side)

    def _do_plan_bombardment(self, d: PlanBombardment, action):
        rec = next(r for r in self.state.raids if r["side"] == d.side and r["kind"] == "bombardment"
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
            if not self.observers(rec["spotting_card"], ready=True):
                self.log("bombardment-cancelled", side=rec["side"], spotting_card=rec["spotting_card"],
                         reason="no ready FO", section="16.32")
                continue
            card = self.draw_raid(rec.get("raid_card"))
            self.log("bombardment", side=rec["side"], raid_card=card, spotting_card=rec["spotting_card"],
                     origin=rec.get("origin", "preplanned"), section="16.33")
            if self._open_bombardment(rec["side"], rec["spotting_card"], card, then="begin"):
                return True
        return False

    def _open_bombardment(self, side: str, card: int, raid_card: str, then: str) -> bool:
        d = Bombard(side, card, raid_card, (), then)
        if not self._legal_of(d):
            self.log("bombardment-no-target", raid_card=raid_card, section="16.33")
            return False
        self._push(d)
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
        card = self.draw_raid()
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

    def _bombard_targets(self, fo: Unit, b: Bombard) -> list[Unit]:
        board = self.ctx.field.board
        hexes = {self.state.units[t].hex for _, t in b.markers}
        return [u for u in self.state.units.values() if u.side != fo.side and u.on_map and not u.hidden
                and not u.carried_by and (u.hex == fo.hex or self.visible(fo.hex, u.hex))
                and (not hexes or u.hex in hexes or any(board.distance(u.hex, h) == 1 for h in hexes))]

    def _legal_bombard(self, b: Bombard):
        t = self.ctx.tables
        if len(b.markers) >= t.setting("bombardment_markers", 3):
            return []
        per_fo = t.setting("bombardment_targets_per_observer", 3)
        out = [("bombard", fo.id, x.id) for fo in self.observers(b.card, ready=True)
               if sum(f == fo.id for f, _ in b.markers) < per_fo for x in self._bombard_targets(fo, b)]
        return out + [("fire-bombardment",)] if out and b.markers else out

    def _do_bombard(self, d: Bombard, action):
        if action[0] == "bombard":
            d = replace(d, markers=d.markers + ((action[1], action[2]),))
            self._swap(d)
            if self._legal_of(d):
                return
        self._resolve_bombardment(d)

    def _resolve_bombardment(self, b: Bombard) -> None:
        """§16.33: one spotting roll per marker by its FO (§9.14 procedure); each spotted marker
        attacks its unit (indirect-fire procedure, no range modifier), leaves a fire zone, and the
        other units of the hex are attacked at the fire-zone modifier; the FOs are flipped."""
        t = self.ctx.tables
        self._pop()
        bomb = self.ctx.model.raid_cards[b.raid_card].bombardment
        board = self.ctx.field.board
        hits = []
        for fid, tid in b.markers:
            fo, target = self.state.units[fid], self.state.units[tid]
            d = board.distance(fo.hex, target.hex)
            if d == 0:
                spotted, number, roll, mods = True, 0, None, {}
            else:
                number = t.spotting_number(d, self.cover(fo, target) and not target.fired)
                mods = self.spot_modifiers(fo, target, False, False)
                roll = self.dice.roll(1)[0]
                spotted = roll + sum(mods.values()) >= number
            self.log("spot", unit=fid, target=tid, distance=d, number=number, roll=roll, modifiers=mods,
                     success=spotted, bombardment=b.raid_card, section="16.33")
            if spotted:
                hits.append((tid, target.hex))
        for tid, hex_ in hits:
            target = self.state.units[tid]
            if target.on_map and target.hex == hex_:
                mode = self.raid_mode(target, bomb)
                self._attack(target, bomb["anti_vehicle" if mode == "av" else "anti_infantry"],
                             self.raid_modifiers(target, mode), unit=f"raid:{b.raid_card}", bombardment=True,
                             mode=mode, section="16.33")
            side = self.state.formations[b.card].side
            zone = {"hex": hex_, "side": side, "firer": None, "firer_hex": None, "raid_card": b.raid_card,
                    "anti_vehicle": bomb["anti_vehicle"], "anti_infantry": bomb["anti_infantry"],
                    "turn": self.state.turn}
            self.state.fire_zones.append(zone)
            self.log("fire-zone", **zone, section="16.33")
            for x in [x for x in self.state.at(hex_) if x.side != side and x is not target and not x.carried_by]:
                if x.hidden:
                    self._reveal(x, "attacked by a bombardment's fire zone")
                mode = self.raid_mode(x, bomb)
                mods = self.raid_modifiers(x, mode, fire_zone=True)
                self._attack(x, bomb["anti_vehicle" if mode == "av" else "anti_infantry"], mods,
                             unit=f"raid:{b.raid_card}", zone=True, mode=mode, section="16.33")
        for fid in dict.fromkeys(f for f, _ in b.markers):
            fo = self.state.units[fid]
            fo.if_spotted = True
            if fo.on_map:
                fo.flipped = True  # §16.33: every FO that spotted is flipped
        if b.then == "begin":
            self._begin_activation(list(self._cards()))
        else:
            self._back_to_activation()

    def _lose_bombardments(self) -> None:
        """§16.32: a planned bombardment not made in its turn is lost."""
        for rec in self.state.raids:
            if rec["kind"] == "bombardment" and not rec["done"] and rec["turn"] == self.state.turn:
                rec["done"] = True
                self.log("bombardment-lost", side=rec["side"], spotting_card=rec["spotting_card"], section="16.32")

    def reshuffle_raids(self) -> None:
        """§16.1, Morale step 7: the cards resolved or set aside go under the deck; reshuffle."""
        s = self.state
        self._lose_bombardments()
        if s.raid_used:
            s.raid_deck = self._shuffled(s.raid_deck + s.raid_used)
            s.raid_used = []
            self.log("raid-deck-reshuffled", cards=len(s.raid_deck), section="16.1")
        s.air_windows.clear()

    # --- turn structure (§4) ------------------------------------------------------------------
