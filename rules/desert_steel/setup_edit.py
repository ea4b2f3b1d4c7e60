"""Editing a setup by hand (no Qt): what each side has to place, and the placements as
operations that return a new setup document (the editor's undo stack keeps the old one).

A placement is named by (side, list, index): list is "placements" (units of formation
cards) or "transports" (the scenario's transports, §18.6). Removing a transport keeps the
``loaded_in`` indices of the passengers of the other transports right.
"""
from __future__ import annotations

import copy
from collections import Counter
from dataclasses import dataclass, field
from typing import Iterable, Mapping

from .battlefield import Battlefield
from .model import CombatCard, DesertSteel, Scenario
from .preflight import units_in_play
from .setup_rules import best_centre, doctrine_radius, transport_type

SIDES = ("allied", "axis")
TRANSPORTS = 0  # the card number of the scenario transports' pseudo-formation


@dataclass
class Formation:
    """One formation card a side sets up on the map at the start, with its counters."""

    side: str
    card: int  # TRANSPORTS for the scenario's transports
    designation: str
    units: Counter  # unit type id -> how many the card has in the scenario's year
    zone: Mapping | None = None  # setup zone expression (None: anywhere, e.g. transports)
    radius: int | None = None  # separation radius (§11); None: exempt
    notes: list[str] = field(default_factory=list)

    @property
    def label(self) -> str:
        return "Scenario transports" if self.card == TRANSPORTS else f"{self.designation} ({self.card})"


def roster(model: DesertSteel, scenario: Scenario, side: str, field_: Battlefield | None = None) -> list[Formation]:
    """The formations a side sets up: each card's units in the scenario's year, with the
    undermanned removals applied (the counts ``check-setup`` expects), then its transports."""
    settings = field_.settings if field_ is not None else (model.rule_tables or {}).get("settings", {})
    out = []
    for group in scenario.sides[side].groups:
        if "setup" not in group:
            continue
        for number in group["cards"]:
            card = model.cards.get(number)
            if not isinstance(card, CombatCard):
                continue
            units = units_in_play(model, scenario, side, number)  # the placement list offers what plays
            if not units:
                continue
            out.append(Formation(side, number, card.designation, units, group["setup"],
                                 doctrine_radius(settings, card)))
    transports: Counter = Counter()
    for t in scenario.sides[side].raw.get("transports", ()):
        if t.get("turn", 1) <= 1:
            type_id = transport_type(model, side, t)
            if type_id is not None:
                transports[type_id] += t["count"]
    if transports:
        out.append(Formation(side, TRANSPORTS, "Transports", transports))
    return out


def empty_setup(scenario: Scenario, setup_id: str | None = None) -> dict:
    return {"kind": "setup", "id": setup_id or f"{scenario.id}-setup", "scenario": scenario.id,
            "description": f"Placed by hand in the sandtable editor for {scenario.id}.", "sides": {}}


def placed_counts(setup: Mapping, side: str) -> Counter:
    """(card, type) -> placed count; transports count under card TRANSPORTS."""
    data = (setup.get("sides") or {}).get(side) or {}
    out = Counter((p["card"], p["type"]) for p in data.get("placements", ()))
    out.update((TRANSPORTS, t["type"]) for t in data.get("transports", ()))
    return out


def remaining(formation: Formation, setup: Mapping) -> Counter:
    placed = placed_counts(setup, formation.side)
    return +Counter({t: n - placed[(formation.card, t)] for t, n in formation.units.items()})


def _side(setup: dict, side: str) -> dict:
    return setup.setdefault("sides", {}).setdefault(side, {})


def place(setup: Mapping, side: str, items: Iterable[tuple[int, str]], hexes: Iterable[str]) -> dict:
    """A new setup with each (card, type) put in the matching hex of ``hexes``."""
    new = copy.deepcopy(dict(setup))
    data = _side(new, side)
    for (card, type_id), key in zip(items, hexes):
        if card == TRANSPORTS:
            data.setdefault("transports", []).append({"type": type_id, "hex": key})
        else:
            data.setdefault("placements", []).append({"card": card, "type": type_id, "hex": key})
    return new


def move(setup: Mapping, refs: Iterable[tuple[str, str, int]], hexes: Iterable[str]) -> dict:
    """A new setup with each (side, list, index) moved to its hex (a carried unit moves with
    its transport: a passenger stands in its transport's hex, §13.3)."""
    new = copy.deepcopy(dict(setup))
    for (side, lst, i), key in zip(refs, hexes):
        data = _side(new, side)
        data[lst][i]["hex"] = key
        if lst == "transports":
            for p in data.get("placements", ()):
                if p.get("loaded_in") == i:
                    p["hex"] = key
        else:
            data[lst][i].pop("loaded_in", None)  # stepping out of the truck
    return new


def remove(setup: Mapping, refs: Iterable[tuple[str, str, int]]) -> dict:
    new = copy.deepcopy(dict(setup))
    refs = sorted(set(refs), key=lambda r: (r[0], r[1], -r[2]))  # highest index first
    for side, lst, i in refs:
        data = _side(new, side)
        del data[lst][i]
        if lst == "transports":
            for p in data.get("placements", ()):
                if p.get("loaded_in") == i:
                    p.pop("loaded_in")
                elif p.get("loaded_in", -1) > i:
                    p["loaded_in"] -= 1
        if not data[lst]:
            del data[lst]
    for side in list(new.get("sides", {})):
        if not new["sides"][side]:
            del new["sides"][side]
    return new


def set_flag(setup: Mapping, ref: tuple[str, str, int], name: str, value) -> dict:
    """Facing, hidden, entrenched, in_bunker or loaded_in of one counter (None removes it)."""
    new = copy.deepcopy(dict(setup))
    side, lst, i = ref
    entry = _side(new, side)[lst][i]
    if value is None or value is False:
        entry.pop(name, None)
    else:
        entry[name] = value
    return new


def at_hex(setup: Mapping, key: str, resolve=lambda ref: ref) -> list[tuple[str, str, int]]:
    """Every counter in a hex, transports last (so a unit is on top of its truck)."""
    out = []
    for side in SIDES:
        data = (setup.get("sides") or {}).get(side) or {}
        for lst in ("placements", "transports"):
            for i, p in enumerate(data.get(lst, ())):
                if resolve(p["hex"]) == key:
                    out.append((side, lst, i))
    return out


def entry(setup: Mapping, ref: tuple[str, str, int]) -> Mapping:
    side, lst, i = ref
    return setup["sides"][side][lst][i]


def hex_load(model: DesertSteel, setup: Mapping, side: str, key: str, resolve=lambda ref: ref) -> tuple[int, int]:
    """(units, vehicles) of one side in a hex, scenario transports included (§8.5)."""
    units = vehicles = 0
    for s, lst, i in at_hex(setup, key, resolve):
        if s != side:
            continue
        units += 1
        unit = model.unit_types.get(setup["sides"][s][lst][i]["type"])
        if unit is not None and unit.is_vehicle:
            vehicles += 1
    return units, vehicles


def stacking_limit(field_: Battlefield) -> Mapping:
    return field_.tables.get("stacking", {}).get("default", {"units": 6, "vehicles": 3})


def full_hexes(model: DesertSteel, field_: Battlefield, setup: Mapping, side: str, vehicle: bool) -> set[str]:
    """Hexes where one more unit (a vehicle if ``vehicle``) of the side would break stacking."""
    limit = stacking_limit(field_)
    units: Counter = Counter()
    vehicles: Counter = Counter()
    data = (setup.get("sides") or {}).get(side) or {}
    for lst in ("placements", "transports"):
        for p in data.get(lst, ()):
            key = field_.board.resolve(p["hex"])
            units[key] += 1
            u = model.unit_types.get(p["type"])
            if u is not None and u.is_vehicle:
                vehicles[key] += 1
    return {k for k in units if units[k] >= limit["units"] or (vehicle and vehicles[k] >= limit["vehicles"])}


def formation_centre(model: DesertSteel, field_: Battlefield, setup: Mapping, side: str,
                     card: int) -> tuple[str | None, int | None, list[str]]:
    """(centre, radius, hexes outside it) of a formation's counters on the map, as the
    separation check sees it (§11); forward observers and hidden units are exempt."""
    c = model.cards.get(card)
    if not isinstance(c, CombatCard):
        return None, None, []
    radius = doctrine_radius(field_.settings, c)
    data = (setup.get("sides") or {}).get(side) or {}
    hexes = []
    for p in data.get("placements", ()):
        unit = model.unit_types.get(p["type"])
        key = field_.board.resolve(p["hex"])
        if p["card"] != card or key is None or p.get("hidden") or (unit and unit.unit_class == "forward-observer"):
            continue
        hexes.append(key)
    if not hexes or radius is None:
        return (hexes[0] if hexes else None), radius, []
    centre, outside = best_centre(field_, hexes, radius)
    return centre, radius, [hexes[i] for i in outside]


def allocate(model: DesertSteel, field_: Battlefield, setup: Mapping, side: str, items: list[tuple[int, str]],
             start: str, allowed: set[str] | None) -> list[str]:
    """Hexes for counters dropped together on ``start``: the start hex while it has room
    under the stacking limits (transports counted), then the nearest hexes of ``allowed``
    outwards. A counter that fits nowhere within 12 hexes goes on ``start`` anyway (the
    findings then say what is wrong)."""
    limit = stacking_limit(field_)
    load: dict[str, list[int]] = {}

    def counts(key):
        if key not in load:
            load[key] = list(hex_load(model, setup, side, key, field_.board.resolve))
        return load[key]
    order = [start]
    seen = {start}
    frontier = [start]
    for _ in range(12):
        nxt = []
        for key in frontier:
            for nb in field_.board.neighbours(key):
                if nb not in seen:
                    seen.add(nb)
                    nxt.append(nb)
        order += [k for k in nxt if allowed is None or k in allowed]
        frontier = nxt
    out = []
    for card, type_id in items:
        unit = model.unit_types.get(type_id)
        vehicle = bool(unit and unit.is_vehicle)
        spot = next((k for k in order if counts(k)[0] < limit["units"]
                     and (not vehicle or counts(k)[1] < limit["vehicles"])), start)
        c = counts(spot)
        c[0] += 1
        c[1] += vehicle
        out.append(spot)
    return out


# --- fortifications (§15, §13.41): the scenario's allowance, placed as markers ----------------

FORT_TYPES = {"minefields": None, "wire": "wire", "entrenchments": "entrenchment", "bunkers": "bunker"}


def fortification_allowance(scenario: Scenario, side: str) -> dict[str, tuple[int, Mapping | None]]:
    """kind -> (how many the side may place, zone expression or None)."""
    out = {}
    for kind, spec in (scenario.sides[side].raw.get("fortifications") or {}).items():
        if kind in FORT_TYPES and spec.get("count"):
            out[kind] = (spec["count"], spec.get("zone"))
    return out


def fortifications_placed(setup: Mapping, side: str) -> Counter:
    """kind -> markers placed (a unit set up entrenched uses one entrenchment, §13.41)."""
    data = (setup.get("sides") or {}).get(side) or {}
    out = Counter({"minefields": len(data.get("minefields", ()))})
    names = {v: k for k, v in FORT_TYPES.items() if v}
    out.update(names[f["type"]] for f in data.get("fortifications", ()) if f["type"] in names)
    out["entrenchments"] += sum(1 for p in data.get("placements", ()) if p.get("entrenched"))
    return +out


def add_fortification(setup: Mapping, side: str, kind: str, key: str) -> dict:
    new = copy.deepcopy(dict(setup))
    data = _side(new, side)
    if FORT_TYPES[kind] is None:
        data.setdefault("minefields", []).append(key)
    else:
        data.setdefault("fortifications", []).append({"type": FORT_TYPES[kind], "hex": key})
    return new


def fortifications_at(setup: Mapping, key: str, resolve=lambda ref: ref) -> list[tuple[str, str]]:
    """(side, kind) of every marker in a hex."""
    out = []
    names = {v: k for k, v in FORT_TYPES.items() if v}
    for side in SIDES:
        data = (setup.get("sides") or {}).get(side) or {}
        out += [(side, "minefields") for ref in data.get("minefields", ()) if resolve(ref) == key]
        out += [(side, names[f["type"]]) for f in data.get("fortifications", ())
                if resolve(f["hex"]) == key and f["type"] in names]
    return out


def remove_fortification(setup: Mapping, side: str, kind: str, key: str, resolve=lambda ref: ref) -> dict:
    """A new setup with one marker of that kind taken out of the hex."""
    new = copy.deepcopy(dict(setup))
    data = _side(new, side)
    if FORT_TYPES[kind] is None:
        lst = data.get("minefields", [])
        i = next(i for i, ref in enumerate(lst) if resolve(ref) == key)
    else:
        lst = data.get("fortifications", [])
        i = next(i for i, f in enumerate(lst) if f["type"] == FORT_TYPES[kind] and resolve(f["hex"]) == key)
    del lst[i]
    for name in ("minefields", "fortifications"):
        if name in data and not data[name]:
            del data[name]
    return new
