"""Invariants of a game state, checked after every action in tests: a failed one is an engine bug.

``check(game)`` returns the list of violations (empty when all hold): stacking after the morale
phase (§8.5, Morale step 4), flipped/unflipped consistency (§7.1, §10.13, §10.14), units and
their positions, hidden forward observers and formations (§12.21, XII), fire zones (§13.26), entrenchments (§13.4),
transports and their loads (§13.3, §13.34), the pending decisions (engine/decisions).
"""
from __future__ import annotations

from .state import DESTROYED, EXITED, OFF_MAP, ON_MAP, REMOVED


def check(game) -> list[str]:
    s = game.state
    out: list[str] = []
    usable = game.ctx.field.board.usable
    for u in s.units.values():
        if u.status == ON_MAP and u.hex not in usable:
            out.append(f"{u.id} is on the map at an unusable hex {u.hex!r}")
        if u.status in (DESTROYED, EXITED, REMOVED) and u.hex is not None:
            out.append(f"{u.id} is {u.status} but still at {u.hex}")
        if u.status == OFF_MAP and u.hex is not None:
            out.append(f"{u.id} is off the map at {u.hex}")
        if u.suppressed and not u.flipped:
            out.append(f"{u.id} is suppressed but face up (§10.13)")
        f = s.formations.get(u.card)
        if f is not None and f.shaken and u.status == ON_MAP and not u.flipped and s.phase == "operations" \
                and not f.must_replay:
            out.append(f"{u.id} of shaken formation {u.card} is face up (§10.14)")
        if u.hidden:
            out += _hidden(game, u)
        if u.flash_kill and u.flipped:
            out.append(f"{u.id} has a pending flash-kill operation but is flipped (§9.36)")
        if not u.type.is_vehicle and not game.ctx.advanced and u.status == ON_MAP:
            out.append(f"{u.id} is a non-vehicle in a basic-rules game (§2.11)")
    for z in s.fire_zones:
        firer = s.units.get(z["firer"])
        if z.get("raid_card") and z["firer"] is None:
            pass  # a bombardment's zone (§16.33) lasts to Morale step 5
        elif firer is None or firer.status != ON_MAP or firer.suppressed:
            out.append(f"fire zone at {z['hex']} outlives its firer {z['firer']} (§13.26)")
        elif firer.side != z["side"]:
            out.append(f"fire zone at {z['hex']} has the wrong side")
        if z["hex"] not in usable:
            out.append(f"fire zone at an unusable hex {z['hex']!r}")
    loads: dict = {}
    for u in s.units.values():
        if u.carried_by is None:
            continue
        c = s.units.get(u.carried_by)
        loads.setdefault(u.carried_by, []).append(u)
        entering = c is not None and c.status == OFF_MAP and u.status == OFF_MAP  # §18.6, before the first step
        if c is None or not c.type.transport_capacity or (not entering and (c.status != ON_MAP or c.hex != u.hex)):
            out.append(f"{u.id} is loaded in {u.carried_by}, which is not a transport in its hex (§13.3)")
        if not u.flipped or u.type.is_vehicle or c is not None and c.carried_by:
            out.append(f"{u.id} is loaded but face up, a vehicle, or in a loaded carrier (§13.3)")
        if s.phase == "morale" or (_after_morale(game) and s.turn > 1):
            out.append(f"{u.id} still loaded after Morale step 1 (§13.3 step 4)")
    for cid, riders in loads.items():
        c = s.units.get(cid)
        if c is not None and c.type.transport_capacity:
            capacity, max_inf, tow = game._capacity(c)
            inf = sum(1 for r in riders if r.type.unit_class == "infantry")
            if len(riders) > capacity or inf > max_inf or (not tow and any(r.type.towed for r in riders)):
                out.append(f"{cid} overloaded: {[r.id for r in riders]} (§13.34)")
    per_hex: dict = {}
    for e in s.entrenchments:
        per_hex[e["hex"]] = per_hex.get(e["hex"], 0) + 1
        occupant = s.units.get(e["occupant"]) if e["occupant"] else None
        if e["occupant"] and (occupant is None or occupant.status != ON_MAP or occupant.hex != e["hex"]):
            out.append(f"entrenchment at {e['hex']} held by {e['occupant']}, who is not there (§13.41)")
        if occupant is not None and occupant.type.is_vehicle:
            out.append(f"vehicle {occupant.id} in an entrenchment (§13.41)")
        if not e["done"] and not e["occupant"]:
            out.append(f"unfinished entrenchment at {e['hex']} without its unit")
    occupants = [e["occupant"] for e in s.entrenchments if e["occupant"]]
    if len(occupants) != len(set(occupants)):
        out.append("a unit holds two entrenchments (§13.41)")
    limit = game.ctx.tables.setting("entrenchments_per_hex", 6)
    out += [f"{n} entrenchments at {h} (§13.41)" for h, n in per_hex.items() if n > limit]
    out += _fortifications(game)
    out += _pending_decisions(game)
    if s.raids:  # §16.1: the 9 raid cards are in the deck or drawn since the last Morale Phase
        cards = s.raid_deck + s.raid_used
        if sorted(cards) != sorted(game.ctx.model.raid_cards):
            out.append(f"raid deck and used cards are not the raid cards once each: {cards} (§16.1)")
        for side in ("allied", "axis"):  # §16.21: one air strike per player per turn
            turns = [r["turn"] for r in s.raids if r["side"] == side and r["kind"] == "air-strike" and r["turn"]]
            if len(turns) != len(set(turns)):
                out.append(f"{side} has two air strikes in one turn (§16.21)")
    if s.phase == "operations" and game.mode not in ("over",) and s.turn > 1 and _after_morale(game):
        out += stacking(game)
    return out


def _pending_decisions(game) -> list[str]:
    """The questions pending: each asked of a side, about units that exist; an operation's on its
    activation, of the activation's side; a move within its points (§8.1: the first hex may cost
    them all); opportunity fire by the mover's enemy (§9.4); each side declares an interrupt once."""
    from .decisions import Activation, Decision, Interrupt, Move, Opportunity
    s, out = game.state, []
    activation = None
    for d in game.pending:
        if not isinstance(d, Decision) or d.side not in ("allied", "axis"):
            out.append(f"pending {d!r} is not a decision asked of a side")
            continue
        named = [getattr(d, f, None) for f in ("unit", "mover")] + list(getattr(d, "loaded", ()))
        out += [f"{d.kind} names {uid}, no unit of the game" for uid in named if uid and uid not in s.units]
        if isinstance(d, Activation):
            activation = d
            out += [f"activation of {d.side} holds card {c} of the other side" for c in d.cards
                    if s.formations[c].side != d.side]
        elif isinstance(d, Move):
            if activation is None or activation.side != d.side:
                out.append(f"the move of {d.unit} is not an operation of an activation of {d.side}")
            if not 0 <= d.spent <= d.mp:
                out.append(f"the move of {d.unit} spent {d.spent} of {d.mp} MP (§8.1)")
        elif isinstance(d, Opportunity) and d.mover in s.units and s.units[d.mover].side == d.side:
            out.append(f"{d.side} is asked about opportunity fire at its own {d.mover} (§9.4)")
        elif isinstance(d, Interrupt):
            sides = [side for side, _ in d.declared]
            if len(sides) != len(set(sides)) or d.side in sides:
                out.append(f"interrupt declarations {d.declared} asking {d.side} again (§6.43)")
    return out


def _fortifications(game) -> list[str]:
    """Bunkers hold one infantry unit or FO each, standing in their hex, never also entrenched
    (§15.22); one active minefield per hex (§15.11)."""
    s, out = game.state, []
    held = [b["occupant"] for b in s.bunkers if b["occupant"]]
    if len(held) != len(set(held)):
        out.append("a unit holds two bunkers (§15.22)")
    entrenched = {e["occupant"] for e in s.entrenchments}
    for b in s.bunkers:
        u = s.units.get(b["occupant"]) if b["occupant"] else None
        if b["occupant"] and (u is None or u.status != ON_MAP or u.hex != b["hex"]):
            out.append(f"bunker at {b['hex']} held by {b['occupant']}, who is not there (§15.22)")
        elif u is not None and (u.type.unit_class not in ("infantry", "forward-observer") or u.id in entrenched):
            out.append(f"{u.id} may not be in the bunker at {b['hex']} (§15.22)")
    active = [m["hex"] for m in s.minefields if m["active"]]
    if len(active) != len(set(active)):
        out.append("two active minefields in one hex (§15.11)")
    return out


def _hidden(game, u) -> list[str]:
    """§12.21-12.22: only FOs and formations a scenario hides (XII) are on paper, on the map, and
    never after moving, being loaded or (the scenario's units) operating or firing."""
    from .scenario_rules import hidden_by_rule
    out = []
    by_rule = hidden_by_rule(game.ctx.scenario, u.side, u.card)
    if u.status != ON_MAP or not (u.type.unit_class == "forward-observer" or by_rule):
        out.append(f"{u.id} is hidden but is not a forward observer or a unit hidden by a scenario rule on the map")
    if u.moved or u.carried_by:
        out.append(f"{u.id} is hidden but has moved or is loaded (§12.22)")
    if by_rule and u.type.unit_class != "forward-observer" and (u.opportunity_fired or u.smoked):
        out.append(f"{u.id} is hidden but has operated (the scenario reveals it at its first operation)")
    return out


def _after_morale(game) -> bool:
    """True right after a morale phase (no action yet this turn): stacking must hold then."""
    for e in reversed(game.events):
        if e["e"] == "action":
            return False
        if e["e"] == "morale-phase":
            return True
    return False


def stacking(game) -> list[str]:
    limit = game.ctx.tables.stacking()
    by_hex: dict = {}
    for u in game.state.units.values():
        if u.status == ON_MAP:
            by_hex.setdefault((u.hex, u.side), []).append(u)
    out = []
    for (hex_, side), units in sorted(by_hex.items()):
        vehicles = sum(1 for u in units if u.type.is_vehicle)
        if vehicles > limit["vehicles"] or len(units) > limit["units"]:
            out.append(f"{side} overstacked at {hex_}: {len(units)} units, {vehicles} vehicles (§8.5)")
    return out


def assert_ok(game) -> None:
    problems = check(game)
    if problems:
        raise AssertionError("invariants broken after action "
                             f"{game.actions[-1] if game.actions else None}: {problems}")
