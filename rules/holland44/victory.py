"""Victory points of a position (H§26).

Allied: each controlled City hex is 1 VP, a city's printed value being its number of City
hexes (Eindhoven 3 ... Arnhem 3); Overloon and Venray 1 each; 1 per supplied regular unit
north of the Lower Rhine. German: 1 per full 3-step Allied unit completely destroyed (its
Remnant's elimination completes it), 0.5 per other Allied unit eliminated (H§26.5).
Automatic victory (H§26.2, H§26.3): German at 12 VP or with no Allied unit north of the
Lower Rhine; Allied at 10 VP with at least one supplied non-airborne unit there.

Control: a hex is the Allies' while Allied units stand in it alone, or while it is listed
in the position's ``allied_control``; otherwise German (the rules do not define control).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from .pieces import Position
from .supply import SupplyTrace, trace


@dataclass
class Score:
    allied: float = 0
    german: float = 0
    lines: list[str] = field(default_factory=list)
    automatic: str | None = None  # "allied" | "german" | None
    scenario_victory: bool | None = None  # the scenario's own Allied condition (S1), if it has one


def controller(position: Position, key: str) -> str:
    sides = {p.side for p in position.at(key)}
    if sides == {"allied"}:
        return "allied"
    if sides == {"german"}:
        return "german"
    listed = {position.map.key(h) for h in position.setup.get("allied_control", ())}
    return "allied" if key in listed else "german"


def _regular(piece, rules) -> bool:
    return (not piece.counter.free_stacking and piece.counter.type not in rules["unit_types"]["free_stacking"]
            and not piece.counter.is_supply_head and not piece.hidden)


def score(position: Position, supply: dict[str, SupplyTrace] | None = None) -> Score:
    v = position.model.victory
    out = Score()
    if v is None:
        return out
    hmap, rules = position.map, position.rules
    supply = dict(supply or {})

    def supplied(p) -> bool:
        if p.id not in supply:
            supply[p.id] = trace(position, p)
        return supply[p.id].supplied

    kinds = {"city": lambda k: bool(hmap.hex_props(k).get("city")), "town": lambda k: True}
    for place in v["allied"]["places"]:
        hexes = [k for k, n in hmap.names.items() if n == place["name"] and kinds[place["kind"]](k)]
        held = [k for k in hexes if controller(position, k) == "allied"]
        if not held:
            continue
        vp = len(held) if place["kind"] == "city" else place["vp"]
        out.allied += vp
        out.lines.append(f"allied {vp:g}: {place['name']} ({' '.join(sorted(hmap.label(k) for k in held))})")
    region = hmap.regions.get(v["region"], frozenset())
    north = [p for p in position.on_map("allied") if p.hex in region]
    per_unit = v["allied"]["per_supplied_regular_unit_in_region"]
    counted = [p for p in north if _regular(p, rules) and supplied(p)]
    if counted and per_unit:
        out.allied += per_unit * len(counted)
        out.lines.append(f"allied {per_unit * len(counted):g}: supplied regular units north of the Lower Rhine "
                         f"({' '.join(p.id for p in counted)})")
    g = v["german"]
    for cid in position.setup.get("sides", {}).get("allied", {}).get("eliminated", ()):
        c = position.model.counters.get(cid)
        if c is None:
            continue
        parent = position.model.counters.get(position.model.remnant_of.get(cid, ""))
        full = c.steps == 3 or (parent is not None and parent.steps == 3)
        vp = g["per_full_3_step_unit_destroyed"] if full else g["per_other_unit_eliminated"]
        out.german += vp
        out.lines.append(f"german {vp:g}: {cid} eliminated")
    auto_a, auto_g = v["allied"]["automatic"], g["automatic"]
    need = auto_a["supplied_non_airborne_units_in_region"]
    if out.german >= auto_g["vp"] or (auto_g["no_allied_units_in_region"] and not north):
        out.automatic = "german"
    elif out.allied >= auto_a["vp"] and sum(1 for p in north if not p.counter.airborne and supplied(p)) >= need:
        out.automatic = "allied"
    sv = position.scenario.get("victory")
    if sv:
        zone = hmap.regions.get(sv["region"], frozenset())
        steps = sum(p.steps for p in position.on_map("allied")
                    if p.hex in zone and not p.counter.airborne and supplied(p))
        out.scenario_victory = steps >= sv["steps"]
    return out
