"""A legal setup made automatically: every formation that sets up on the map is placed in
its zone, inside its doctrine radius, within stacking limits and the scenario's special
rules. Used for the sample setups, for quick test games, and as a start for authors.
"""
from __future__ import annotations

import random
from collections import Counter
from .. import hexmath
from .battlefield import Battlefield
from .model import CombatCard, DesertSteel, Scenario
from .setup_checks import doctrine_radius, expected_units


class AutoSetupError(RuntimeError):
    """No legal placement was found (the zone is too small or too crowded)."""


def _forbidden(field: Battlefield, scenario: Scenario, side: str) -> frozenset[str]:
    out = set()
    for rule in scenario.raw.get("special_rules", ()):
        if rule["type"] == "prohibited-hexes" and "zone" in rule and rule.get("side", "both") in (side, "both"):
            out |= field.zone(rule["zone"])
    return frozenset(out)


def _one_per_hex(model: DesertSteel, scenario: Scenario, side: str, card: int, unit_id: str) -> bool:
    unit = model.unit_types[unit_id]
    for rule in scenario.raw.get("special_rules", ()):
        if rule["type"] != "no-stacking" or rule.get("side", "both") not in (side, "both"):
            continue
        f = rule.get("units", {})
        if ("cards" not in rule or card in rule["cards"]) and \
                ("nationality" not in f or unit.nationality in f["nationality"]) and \
                ("class" not in f or unit.unit_class in f["class"]):
            return True
    return False


def auto_setup(model: DesertSteel, scenario: Scenario, seed: int = 0) -> dict:
    field = Battlefield.for_scenario(model, scenario)
    rng = random.Random(seed)
    limit = field.tables.get("stacking", {}).get("default", {"units": 6, "vehicles": 3})
    setup = {"kind": "setup", "id": f"{scenario.id}-auto-{seed}", "scenario": scenario.id,
             "description": f"Made by sandtable's automatic setup (seed {seed}): every formation in its zone, "
                            "unseparated, within stacking limits.", "sides": {}}
    for side in ("allied", "axis"):
        forbidden = _forbidden(field, scenario, side)
        units_in: Counter = Counter()
        vehicles_in: Counter = Counter()
        singles: set[str] = set()  # hexes holding a unit that may not stack
        placements = []
        for group in scenario.sides[side].groups:
            if "setup" not in group:
                continue
            zone = sorted(field.zone(group["setup"]) - forbidden)
            if not zone:
                raise AutoSetupError(f"{scenario.id}: the {side} setup zone of cards {group['cards']} is empty")
            for number in group["cards"]:
                card = model.cards.get(number)
                if not isinstance(card, CombatCard):
                    continue
                units = sorted(expected_units(model, scenario, side, number).elements())
                if not units:
                    continue
                radius = doctrine_radius(field.settings, card)
                placed = _place_formation(field, model, scenario, side, number, units, zone, radius, rng,
                                          units_in, vehicles_in, singles, limit)
                for unit_id, key in placed:
                    placements.append({"card": number, "type": unit_id, "hex": key})
        if placements:
            setup["sides"][side] = {"placements": placements}
            transports = _place_transports(model, scenario, side, placements, units_in, vehicles_in, singles,
                                           limit, field)
            if transports:
                setup["sides"][side]["transports"] = transports
    return setup


_CAPACITY = {"truck": "truck", "motorcycle": "motorcycle", "halftrack": "light"}


def transport_type(model: DesertSteel, side: str, transport: dict) -> str | None:
    """The counter of a scenario transport: as named, else the side's own of that kind."""
    if "unit_type" in transport:
        return transport["unit_type"]
    nationalities = [transport["nationality"]] if "nationality" in transport else \
        sorted({t.nationality for t in model.unit_types.values() if t.side == side})
    for nat in nationalities:
        for t in sorted(model.unit_types.values(), key=lambda t: t.id):
            if t.nationality == nat and t.transport_capacity == _CAPACITY[transport["type"]] \
                    and not t.formation_transport:
                return t.id
    return None


def _place_transports(model, scenario, side, placements, units_in, vehicles_in, singles, limit, field) -> list:
    """The scenario's transports available at the start (§18.6), set up with the units they may
    carry: first beside towed guns (which move only in tow, §12.3), then beside infantry."""
    wanted = []
    for t in scenario.sides[side].raw.get("transports", ()):
        if t.get("turn", 1) <= 1:
            type_id = transport_type(model, side, t)
            if type_id is not None:
                wanted += [type_id] * t["count"]
    if not wanted:
        return []
    def priority(p):
        unit = model.unit_types[p["type"]]
        return (0 if unit.towed else 1 if unit.unit_class == "infantry" else 2, p["hex"])
    hexes = [p["hex"] for p in sorted(placements, key=priority)]
    hexes += sorted({h for h in units_in if h not in hexes})
    out = []
    for type_id in wanted:
        spot = next((h for h in hexes if h not in singles and units_in[h] < limit["units"]
                     and vehicles_in[h] < limit["vehicles"]), None)
        if spot is None:
            break  # no room left beside the units: the rest stay off the board
        units_in[spot] += 1
        vehicles_in[spot] += 1
        out.append({"type": type_id, "hex": spot})
    return out


def _place_formation(field, model, scenario, side, number, units, zone, radius, rng, units_in, vehicles_in,
                     singles, limit):
    zone_set = set(zone)
    centres = zone[:]
    rng.shuffle(centres)
    for centre in centres[:400]:
        reach = radius if radius is not None else 2
        around = [field.board.usable_at.get(a) for a in hexmath.within(field.board.axial(centre), reach)]
        around = sorted((k for k in around if k in zone_set), key=lambda k: (field.board.distance(centre, k), k))
        trial_units, trial_vehicles = Counter(), Counter()
        trial_singles = set()
        placed = []
        for unit_id in units:
            unit = model.unit_types[unit_id]
            single = _one_per_hex(model, scenario, side, number, unit_id)
            for key in around:
                n = units_in[key] + trial_units[key]
                v = vehicles_in[key] + trial_vehicles[key]
                if key in singles or key in trial_singles or (single and n):
                    continue
                if n + 1 > limit["units"] or (unit.is_vehicle and v + 1 > limit["vehicles"]):
                    continue
                placed.append((unit_id, key))
                trial_units[key] += 1
                trial_vehicles[key] += unit.is_vehicle
                if single:
                    trial_singles.add(key)
                break
            else:
                break
        if len(placed) == len(units):
            units_in.update(trial_units)
            vehicles_in.update(trial_vehicles)
            singles |= trial_singles
            return placed
    raise AutoSetupError(f"{scenario.id}: no room for card {number} ({len(units)} units) in its zone")
