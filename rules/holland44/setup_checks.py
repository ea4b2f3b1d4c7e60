"""Setup and position checks for Holland '44: every rule a position can break, as findings.

``check_setup(model, setup, report)`` places the setup on its map and reports, each with
its section: placements (H§2.3, H§8.1), steps (H§2.3.12, H§11.4), stacking and the 9-step
limit (H§6), arrivals and entry areas (H§2.3.11, H§19), bridge states (H§5), supply
markers against the traced supply lines (H§18) and the recorded victory points (H§26).
"""
from __future__ import annotations

from collections import Counter as Tally
from typing import Callable, Mapping

from ..findings import Finding
from .pieces import Position, SIDES
from .position import build_position
from .stacking import stacks
from .supply import supply_of
from .victory import score

MAJOR_RIVER = "major-river"


def check_setup(model: "Holland", setup: Mapping, report: Callable[..., Finding]) -> list[Finding]:
    position, out = build_position(model, setup, report)
    if position is None:
        return out
    for check in (_placements, _steps, _stacking, _arrivals, _entry_areas, _bridges, _supply, _victory):
        out += [f for f in check(position, report) if f is not None]
    return out


def _placements(pos: Position, report) -> list:
    out = []
    hmap = pos.map
    seen: dict[str, str] = {}
    for p in pos.pieces:
        if p.id in seen:
            out.append(report("h44-placement", f"{p.id} is placed twice (first at {seen[p.id]})", f"{p.pointer}/counter",
                              section="H§2.3"))
            continue
        seen[p.id] = p.pointer
        if p.face_down and not p.counter.unknown:
            out.append(report("h44-placement", f"{p.id} is not an Unknown counter: it cannot be face down",
                              f"{p.pointer}/face_down", section="H§25.1"))
        if p.hex is None:
            continue
        label = hmap.label(p.hex)
        if not hmap.usable(p.hex):
            out.append(report("h44-placement", f"hex {label} is a half hex cut by the map edge", f"{p.pointer}/hex",
                              section="H§2.2"))
        elif not hmap.hex_props(p.hex).get("passable", True):
            out.append(report("h44-placement", f"no unit may stand in {hmap.hex_terrain[p.hex]} hex {label}",
                              f"{p.pointer}/hex", section="H§2.2.2"))
        elif p.counter.is_vehicle and not hmap.vehicle_may_stand(p.hex):
            out.append(report("h44-placement", f"{p.id} is a vehicle-type unit: it may be in "
                              f"{hmap.hex_terrain[p.hex]} hex {label} only on a road", f"{p.pointer}/hex",
                              section="H§2.3.14"))
    for key, pieces in pos.by_hex.items():
        if len({p.side for p in pieces}) > 1:
            later = pieces[-1]
            out.append(report("h44-placement", f"units of both sides in hex {hmap.label(key)}: no unit enters a hex "
                              "holding enemy units", f"{later.pointer}/hex", section="H§8.1"))
    eliminated = {cid: side for side in SIDES
                  for cid in pos.setup.get("sides", {}).get(side, {}).get("eliminated", ())}
    for p in pos.pieces:
        if p.id in eliminated:
            out.append(report("h44-placement", f"{p.id} is both in play and eliminated", f"{p.pointer}/counter",
                              section="H§26.5"))
    return out


def _steps(pos: Position, report) -> list:
    out = []
    for p in pos.pieces:
        if p.steps > p.counter.steps:
            out.append(report("h44-steps", f"{p.id} has {p.counter.steps} step(s) at full strength, not {p.steps}",
                              f"{p.pointer}/steps", section="H§2.3.12"))
        elif p.counter.steps == 3 and p.steps == 1:
            out.append(report("h44-steps", f"{p.id} is a 3-step unit with one step left: at its second loss it is "
                              f"replaced by its Remnant{' ' + p.counter.remnant if p.counter.remnant else ''}",
                              f"{p.pointer}/steps", section="H§11.4"))
    return out


def _stacking(pos: Position, report) -> list:
    out = []
    limits = pos.rules["stacking"]
    label = pos.map.label
    for s in stacks(pos):
        last = s.pieces[-1].pointer + "/hex"
        where = f"hex {label(s.hex)}"
        if s.supply_heads > limits["supply_heads"]:
            out.append(report("h44-stacking", f"{s.supply_heads} Airborne Supply Heads in {where} "
                              f"(at most {limits['supply_heads']})", last, section="H§6.1"))
        if s.unknown > limits["unknown"]:
            out.append(report("h44-stacking", f"{s.unknown} face-down Unknown counters in {where} "
                              f"(at most {limits['unknown']})", last, section="H§6.1"))
        if s.overstacked(pos.rules):
            out.append(report("h44-overstack", f"{where} is overstacked: {s.regular} regular unit(s) + {s.free} "
                              f"free-stacking (limit {limits['regular']} + {limits['free']}); only "
                              f"{limits['regular']} + {limits['free']} defend and attack, and mechanized units join "
                              f"only by tactical movement; {s.steps} step(s) against the {limits['step_limit']}-step "
                              "limit", last, section="H§6.4"))
        if s.steps > limits["step_limit"]:
            out.append(report("h44-step-limit", f"{s.steps} {s.side} steps in {where}: the "
                              f"{s.steps - limits['step_limit']} above {limits['step_limit']} are eliminated at the "
                              "end of the movement or combat phase", last, section="H§6.4.2"))
    return out


def _arrivals(pos: Position, report) -> list:
    out = []
    hmap = pos.map
    initial = pos.setup["stage"] == "initial"
    placed = Tally(p.id for p in pos.pieces)
    for p in pos.pieces:
        arrival = p.counter.arrival
        if not arrival:
            continue
        if "setup_hex" in arrival:
            home = hmap.key(arrival["setup_hex"])
            if p.hex is None:
                out.append(report("h44-reinforcement", f"{p.id} starts on the map at {arrival['setup_hex']}, never in "
                                  "an entry area", f"{p.pointer}/entry_area", section="H§2.3.11"))
            elif initial and p.hex != home:
                out.append(report("h44-reinforcement", f"{p.id} sets up at {arrival['setup_hex']} (the white hex id on "
                                  f"its counter), not {hmap.label(p.hex)}", f"{p.pointer}/hex", section="H§2.3.11"))
            continue
        turn = arrival["turn"]
        if turn > pos.turn:
            out.append(report("h44-reinforcement", f"{p.id} arrives on turn {turn}; this is turn {pos.turn}",
                              f"{p.pointer}/counter", section="H§19"))
        elif p.area is not None and "entry_area" not in arrival:
            how = "by air at its drop zone" if "drop_zone" in arrival else "at its division's supply head"
            out.append(report("h44-reinforcement", f"{p.id} arrives {how}, never in an entry area",
                              f"{p.pointer}/entry_area", section="H§22"))
        elif p.area is not None and p.area != arrival["entry_area"]:
            out.append(report("h44-reinforcement", f"{p.id} enters in area {arrival['entry_area']}, not {p.area}",
                              f"{p.pointer}/entry_area", section="H§19"))
    if initial:
        for side in SIDES:
            for c in sorted(pos.model.counters.values(), key=lambda c: c.id):
                home = (c.arrival or {}).get("setup_hex")
                if c.side == side and home and hmap.key(home) is not None and not placed[c.id]:
                    out.append(report("h44-reinforcement", f"{c.id} sets up at {home} at the start but is not placed",
                                      f"/sides/{side}", section="H§2.3.11"))
    return out


def _entry_areas(pos: Position, report) -> list:
    out = []
    for p in pos.pieces:
        if p.area is not None and not pos.area_friendly(p.area, p.side):
            out.append(report("h44-entry-area", f"entry area {p.area} is not friendly to the {p.side} side on turn "
                              f"{pos.turn}", f"{p.pointer}/entry_area", section="H§19.2"))
    return out


def _bridges(pos: Position, report) -> list:
    out = []
    hmap = pos.map
    terrain = pos.model.terrain
    for bid, state in pos.setup.get("bridges", {}).items():
        bridge = hmap.bridges.get(bid)
        if bridge is None:
            continue
        ptr = "/bridges/" + bid.replace("~", "~0").replace("/", "~1")
        props = terrain["watercourses"].get(bridge.watercourse or "", {})
        if bridge.never_blown and state != "intact":
            out.append(report("h44-bridge", f"the {bridge.name} bridge never blows: it cannot be {state}", ptr,
                              section="H§5.7"))
        elif not props.get("bridges_can_blow", True) and state != "intact":
            out.append(report("h44-bridge", f"the {bridge.name} bridge spans a {bridge.watercourse}: such bridges "
                              f"can never be blown, so it cannot be {state}", ptr, section="H§5.2"))
        elif state == "under-repair" and bridge.carries == "railway" and bridge.watercourse == MAJOR_RIVER:
            out.append(report("h44-bridge", f"the {bridge.name} railway bridge over a major river cannot be repaired",
                              ptr, section="H§5.8"))
    return out


def _mechanized_infantry(piece) -> bool:
    return piece.side == "allied" and piece.counter.unit_class == "mechanized-infantry" \
        and piece.counter.type != "engineer"


def _supply(pos: Position, report) -> list:
    out = []
    for unit, tr in supply_of(pos).items():
        p = pos.piece(unit)
        if p.hidden:
            continue
        marked = "out-of-supply" in p.effects
        if not tr.supplied and not marked:
            out.append(report("h44-supply", f"{unit} has no supply line ({tr.reason}) but no Out of Supply marker",
                              f"{p.pointer}/hex", section="H§18"))
        elif tr.supplied and marked:
            out.append(report("h44-supply", f"{unit} carries an Out of Supply marker but traces supply from "
                              f"{tr.source} ({' '.join(h for h, _ in tr.path)})", f"{p.pointer}/markers",
                              section="H§18"))
        if tr.supplied and tr.dismounted and _mechanized_infantry(p) and "dismounted" not in p.effects:
            out.append(report("h44-supply", f"{unit}'s supply line must cross an unbridged canal: it is Dismounted",
                              f"{p.pointer}/hex", section="H§18.6"))
        if "dismounted" in p.effects and not _mechanized_infantry(p):
            out.append(report("h44-supply", f"{unit} is not Allied motorized or mechanized infantry: it cannot be "
                              "Dismounted", f"{p.pointer}/markers", section="H§18.6"))
    return out


def _victory(pos: Position, report) -> list:
    recorded = pos.setup.get("victory_points")
    if recorded is None or pos.model.victory is None:
        return []
    s = score(pos)
    if abs(s.allied - recorded["allied"]) < 1e-9 and abs(s.german - recorded["german"]) < 1e-9:
        return []
    detail = "; ".join(s.lines) or "nothing scores"
    return [report("h44-victory-points", f"the position is worth {s.allied:g} Allied and {s.german:g} German VP, "
                   f"not {recorded['allied']:g} and {recorded['german']:g} ({detail})", "/victory_points",
                   section="H§26.5")]
