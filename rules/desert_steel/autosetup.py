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
from .preflight import scenario_problems, units_in_play
from .setup_rules import doctrine_radius, transport_type  # noqa: F401 - also this module's API


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
    problems = scenario_problems(model, scenario)
    if problems:  # a setup for a scenario the engine refuses would only pass the problem on
        raise AutoSetupError("; ".join(p.message for p in problems))
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
                raise AutoSetupError(f"{scenario.id}: the {side} setup zone of cards "
                                     f"{', '.join(str(n) for n in group['cards'])} is empty")
            for number in group["cards"]:
                card = model.cards.get(number)
                if not isinstance(card, CombatCard):
                    continue
                units = sorted(units_in_play(model, scenario, side, number).elements())
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
    notes = _fortify(model, scenario, field, setup, rng)
    if notes:
        setup["description"] += " " + _describe(scenario, notes)
    return setup


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


# --- fortifications (§15, §13.4, §18.4) ---------------------------------------------------

_KINDS = ("bunkers", "entrenchments", "minefields", "wire")
# How far in front of the units they cover obstacles go: within the first reach that holds the
# allowance, nearer preferred (wire close in, minefields further out), wider only if the zone is short.
_REACH = {"minefields": (6, 8, 12, 20), "wire": (3, 5, 8, 12, 20)}
_DEPTH = {"minefields": 3, "wire": 1}


def _fortify(model: DesertSteel, scenario: Scenario, field: Battlefield, setup: dict, rng: random.Random) -> list[str]:
    """Every side with an allowance uses all of it: a scenario's number is a maximum, and a
    defender uses its obstacles. Returns a note per side saying what was placed (and why less)."""
    notes = []
    for side in ("allied", "axis"):
        allowance = scenario.sides[side].raw.get("fortifications", {})
        if not allowance:
            continue
        data = setup["sides"].get(side)
        if not data:
            notes.append(f"{side} none (no units on the map at the start)")
            continue
        front = _Front(model, scenario, field, setup, side)
        placed, short = {}, {}
        for kind in _KINDS:
            want = allowance.get(kind, {}).get("count", 0)
            if not want:
                continue
            zone = field.zone(allowance[kind]["zone"]) if "zone" in allowance[kind] else None
            placed[kind], why = _PLACERS[kind](front, data, want, zone, rng)
            if placed[kind] < want:
                short[kind] = f"{placed[kind]} of {want} {kind} ({why})"
        notes.append(f"{side} " + ", ".join(short.get(k, f"{n} {k}") for k, n in placed.items()))
    return notes


_HOW = {"entrenchments": "entrenchments under the infantry, guns and FOs nearest the enemy",
        "bunkers": "bunkers manned by infantry in the foremost positions",
        "obstacles": "minefields and wire across the enemy's approaches, a few hexes in front of the units"}


def _describe(scenario: Scenario, notes: list[str]) -> str:
    kinds = {k for side in scenario.sides.values() for k in side.raw.get("fortifications", {})}
    how = [_HOW[k] for k in ("bunkers", "entrenchments") if k in kinds]
    how += [_HOW["obstacles"]] if kinds & {"minefields", "wire"} else []
    return f"Fortifications, the whole allowance unless said: {'; '.join(notes)}; " + ", ".join(how) + "."


class _Front:
    """Where a side's defence faces. For each way the enemy comes on (a setup zone, an entry
    edge), distances from it and its traffic through each hex: the share of its shortest paths
    to the side's units and to the enemy's objectives that cross the hex, summed over the ways."""

    def __init__(self, model, scenario, field, setup, side):
        self.model, self.field, self.side = model, field, side
        enemy = "axis" if side == "allied" else "allied"
        self.units: dict[str, list[dict]] = {}
        for p in setup["sides"][side].get("placements", ()):
            self.units.setdefault(p["hex"], []).append(p)
        self.occupied = {p["hex"] for sd in setup["sides"].values()
                         for p in list(sd.get("placements", ())) + list(sd.get("transports", ()))}
        self.adjacent = {k: field.board.neighbours(k) for k in field.board.usable}
        ways = _start_zones(field, scenario, enemy) or [frozenset(k for k, n in self.adjacent.items() if len(n) < 6)]
        self.enemy_start = frozenset().union(*ways)
        self.d_own = _paths(self.adjacent, self.units)[0]
        targets = sorted(self.units) + _sample(sorted(_objectives(field, scenario, enemy) - set(self.units)))
        from_targets = {t: _paths(self.adjacent, [t]) for t in targets}
        self.d_ways = []
        self.traffic: Counter = Counter()
        for way in ways:
            d_way, paths_in = _paths(self.adjacent, sorted(way))
            self.d_ways.append(d_way)
            for t, (d_t, paths_out) in from_targets.items():
                if t not in d_way:
                    continue
                for k, n in paths_out.items():  # the hexes on a shortest path from the way to t
                    if d_way.get(k, -1) + d_t[k] == d_way[t]:
                        self.traffic[k] += paths_in[k] * n / paths_in[t]
        self.d_enemy = {k: min(d.get(k, 999) for d in self.d_ways) for k in self.adjacent}

    def closer(self, a: str, b: str) -> bool:
        """Hex a is nearer than hex b to one of the ways the enemy comes."""
        return any(d.get(a, 999) < d.get(b, 999) for d in self.d_ways)

    def screened(self, key: str) -> str | None:
        """The own unit hex a hex screens: the nearest one it lies in front of (nearer the enemy)."""
        d = self.d_own.get(key)
        near = [h for h in self.units if self.field.board.distance(h, key) == d and self.closer(key, h)]
        return min(near) if near else None


def _paths(adjacent: dict[str, list[str]], sources) -> tuple[dict[str, int], dict[str, float]]:
    """Steps from the nearest source hex, and the number of shortest paths that get there."""
    dist = {k: 0 for k in sources}
    count = {k: 1.0 for k in sources}
    layer = sorted(dist)
    while layer:
        nxt = []
        for k in layer:
            for n in adjacent[k]:
                if n not in dist:
                    dist[n] = dist[k] + 1
                    count[n] = 0.0
                    nxt.append(n)
                if dist[n] == dist[k] + 1:
                    count[n] += count[k]
        layer = nxt
    return dist, count


def _sample(hexes: list[str], n: int = 8) -> list[str]:
    """A few objective hexes spread along the list (a whole map or an edge is many)."""
    step = max(1, len(hexes) // n)
    return hexes[::step][:n]


def _start_zones(field: Battlefield, scenario: Scenario, side: str) -> list[frozenset[str]]:
    """The ways a side's units start or come on: each setup zone, entry zone and reinforcement
    zone, and each branch of one that offers several (enter by any edge)."""
    out: list[frozenset[str]] = []
    for group in list(scenario.sides[side].groups) + list(scenario.sides[side].reinforcements):
        zone = group.get("setup") or (group.get("enter") or {}).get("zone") or group.get("zone")
        if zone is None or group.get("hand_only"):
            continue
        for branch in zone["any"] if set(zone) == {"any"} else [zone]:
            hexes = field.zone(branch)
            if hexes and hexes not in out:
                out.append(hexes)
    return out


def _objectives(field: Battlefield, scenario: Scenario, side: str) -> set[str]:
    """Hexes a side scores by reaching: its victory zones, the map it must occupy, its exit edge."""
    out: set[str] = set()
    stack = [scenario.raw.get("victory", {}).get("expression")]
    while stack:
        node = stack.pop()
        if isinstance(node, list):
            stack += node
        elif isinstance(node, dict):
            stack += list(node.values())
            if node.get("units", {}).get("side") == side:
                zone = _event_zone(node)
                out |= field.zone(zone) if zone else set()
    return out


def _event_zone(node: dict) -> dict | None:
    where = {"map": node["map"]} if "map" in node else {}
    if node.get("event") == "in-zone":
        return node.get("zone")
    if node.get("event") == "exited" and "edge" in node:
        return {"near_edge": {"edge": node["edge"], "within": 1, **where}}
    if node.get("event") == "on-map" and where:
        return where
    return None


def _fortifications(data: dict) -> list:
    return data.setdefault("fortifications", [])


def _place_bunkers(front: _Front, data, want, zone, rng):
    """§15.21-15.22: one infantry (else an FO) in each bunker, in the foremost positions holding
    the most infantry, one bunker per position before a second anywhere; never in buildings."""
    def fits(p):
        unit = front.model.unit_types[p["type"]]
        return unit.unit_class in ("infantry", "forward-observer") and not p.get("in_bunker")
    hexes = [h for h in front.units if not front.field.terrain.hexes[h].building and (zone is None or h in zone)]
    hexes.sort(key=lambda h: (front.d_enemy.get(h, 0), -sum(fits(p) for p in front.units[h]), h))
    placed = 0
    while placed < want:
        before = placed
        for h in hexes:
            occupant = min((p for p in front.units[h] if fits(p)), default=None,
                           key=lambda p: (front.model.unit_types[p["type"]].unit_class != "infantry", p["card"]))
            if occupant is not None and placed < want:
                occupant["in_bunker"] = True
                _fortifications(data).append({"type": "bunker", "hex": h})
                placed += 1
        if placed == before:
            return placed, "no more infantry or forward observers outside buildings to man them"
    return placed, ""


def _place_entrenchments(front: _Front, data, want, zone, rng):
    """§13.4: a finished entrenchment under each non-vehicle unit (one unit each, six a hex),
    the units nearest the enemy first; a unit in a bunker needs none."""
    per_hex = front.field.settings.get("entrenchments_per_hex", 6)
    units = [p for h, ps in front.units.items() for p in ps if (zone is None or h in zone)
             and not front.model.unit_types[p["type"]].is_vehicle and not p.get("in_bunker")]
    order = {"infantry": 0, "artillery": 1}
    units.sort(key=lambda p: (front.d_enemy.get(p["hex"], 0), order.get(
        front.model.unit_types[p["type"]].unit_class, 2), p["hex"], p["card"], p["type"]))
    dug: Counter = Counter()
    for p in units:
        if sum(dug.values()) < want and dug[p["hex"]] < per_hex:
            p["entrenched"] = True
            dug[p["hex"]] += 1
    placed = sum(dug.values())
    return placed, "" if placed == want else "one per non-vehicle unit and there are no more"


def _place_minefields(front: _Front, data, want, zone, rng):
    chosen = _obstacles(front, data, "minefields", want, zone, rng)
    data["minefields"] = chosen
    return len(chosen), "" if len(chosen) == want else "no more legal hexes in front of the units"


def _place_wire(front: _Front, data, want, zone, rng):
    chosen = _obstacles(front, data, "wire", want, zone, rng)
    _fortifications(data).extend({"type": "wire", "hex": h} for h in chosen)
    return len(chosen), "" if len(chosen) == want else "no more legal hexes that leave the units a way out"


_PLACERS = {"bunkers": _place_bunkers, "entrenchments": _place_entrenchments,
            "minefields": _place_minefields, "wire": _place_wire}


def _obstacle_sites(front: _Front, data, kind: str, zone) -> list[str]:
    """§15.11, §15.31, §18.4: no unit of either side in the hex (nor, for wire, a building), none
    where the enemy starts, no second obstacle of the side in one hex."""
    taken = set(data.get("minefields", ())) | {f["hex"] for f in data.get("fortifications", ())}
    out = []
    for key in front.field.board.usable:
        if key in front.occupied or key in front.enemy_start or key in taken or (zone is not None and key not in zone):
            continue
        if kind == "wire" and front.field.terrain.hexes[key].building:
            continue
        out.append(key)
    return sorted(out)


def _obstacles(front: _Front, data, kind: str, want: int, zone, rng) -> list[str]:
    """Minefields or wire across the enemy's approaches: where its shortest paths to the units
    and objectives run, a few hexes in front of the units they cover (so the units' fire covers
    them), spread along the front and in depth as belts rather than piled on one path."""
    sites = _obstacle_sites(front, data, kind, zone)
    for reach in _REACH[kind]:
        candidates = [k for k in sites if front.d_own.get(k, 99) <= reach and front.screened(k)]
        if len(candidates) >= want:
            break
    else:
        candidates = sites  # too little of the zone lies in front of the units: the rest of it too
    depth = _DEPTH[kind]
    jitter = {k: rng.random() for k in candidates}
    screens = {k: front.screened(k) for k in candidates}
    placed = set(data.get("minefields", ())) | {f["hex"] for f in data.get("fortifications", ())
                                                 if f["type"] == "wire"}
    chosen: list[str] = []
    load: Counter = Counter()
    while len(chosen) < want and candidates:
        def score(k):
            behind = 5 if screens[k] is None else 0
            return (-3 * min(front.traffic[k], 1.5) + 0.4 * abs(front.d_own.get(k, 99) - depth) + behind
                    + _overlap(front, k, screens[k], placed) + 0.2 * load[screens[k]] + 0.3 * jitter[k], k)
        for best in sorted(candidates, key=score):
            candidates.remove(best)
            if kind != "wire" or _way_out(front, chosen + [best]):
                chosen.append(best)
                placed.add(best)
                load[screens[best]] += 1
                break
    return chosen


def _overlap(front: _Front, key: str, unit: str | None, placed: set[str]) -> float:
    """How much an obstacle would repeat others: one straight behind or ahead of another on the
    way to the unit it screens stops the same enemy twice; one beside it extends the belt."""
    board = front.field.board
    out = 0.0
    for c in placed:
        d = board.distance(c, key)
        if d > 3:
            continue
        if unit is not None and d == abs(board.distance(c, unit) - board.distance(key, unit)) > 0:
            out += 2.0 / d
        elif d == 1:
            out += 0.5
    return out


def _way_out(front: _Front, wire: list[str]) -> bool:
    """Non-vehicles never enter wire (§15.32): every hex of the side's units must stay joined to
    most of the board by wire-free hexes, so no unit is walled in."""
    blocked = set(wire)
    start = next(iter(front.units))
    seen, todo = {start}, [start]
    while todo:
        for n in front.adjacent[todo.pop()]:
            if n not in seen and n not in blocked:
                seen.add(n)
                todo.append(n)
    return all(h in seen for h in front.units) and len(seen) >= len(front.adjacent) // 2
