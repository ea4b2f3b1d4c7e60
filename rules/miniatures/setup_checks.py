"""Miniatures setup checks (M§B.4, M§C.1): placements, command radii, deployment zones and
the distance between the two sides, as findings with their sections."""
from __future__ import annotations

from typing import Callable, Mapping

from ..board import BoardError
from ..findings import Finding
from .model import Miniatures, Unit


def check_setup(model: Miniatures, setup: Mapping, report: Callable[..., Finding]) -> list[Finding]:
    out: list[Finding] = []
    scenario = model.scenario(setup["scenario"])
    if scenario is None:
        return [report("unknown-reference", f"scenario {setup['scenario']!r} does not exist", "/scenario")]
    try:
        table = model.table(scenario["table"])
    except BoardError as exc:
        return [report("board-invalid", str(exc), "/scenario")]
    if table is None:
        return [report("unknown-reference", f"table {scenario['table']!r} does not exist", "/scenario")]
    side_of = {uid: side for side, data in scenario["sides"].items() for uid in data["units"]}
    placed: dict[str, tuple[str, str]] = {}  # unit -> (board key, pointer)
    for i, p in enumerate(setup["placements"]):
        ptr = f"/placements/{i}"
        unit = model.units.get(p["unit"])
        if unit is None:
            out.append(report("unknown-reference", f"unit {p['unit']!r} does not exist", f"{ptr}/unit"))
            continue
        if p["unit"] not in side_of:
            out.append(report("mini-placement", f"{p['unit']} is not one of the units of scenario {scenario['id']}",
                              f"{ptr}/unit", section="M§C.1"))
            continue
        if p["unit"] in placed:
            out.append(report("mini-placement", f"{p['unit']} is placed twice", f"{ptr}/unit", section="M§C.1"))
            continue
        key = table.key(p["hex"])
        if key is None:
            out.append(report("hex-unknown", f"hex {p['hex']} is not on table {table.id}", f"{ptr}/hex"))
            continue
        if key not in table.board.usable:
            out.append(report("mini-placement", f"hex {p['hex']} is cut by the table edge", f"{ptr}/hex",
                              section="M§A"))
            continue
        placed[p["unit"]] = (key, ptr)
    for uid, side in side_of.items():
        if uid not in placed and uid in model.units and not any(q["unit"] == uid for q in setup["placements"]):
            out.append(report("mini-placement", f"{uid} ({side}) is not placed", "/placements", section="M§C.1"))
    out += _deployment(model, table, scenario, placed, side_of, report)
    out += _command(model, table, placed, report)
    out += _separation(model, table, placed, side_of, report)
    return out


def deployment_zone(model: Miniatures, table, deployment: Mapping) -> frozenset[str]:
    """Hexes of a side's deployment zone: within the edge depth (20 cm, 4H) of its table edge,
    and/or its groups of shelters (M§C.1)."""
    zone = set()
    if "edge" in deployment:
        depth = model.edge_depth
        zone |= {k for k in table.board.usable if table.board.edge_distance(k, deployment["edge"]) <= depth}
    for s in deployment.get("shelters", ()):
        zone |= table.shelters.get(s, frozenset())
    return frozenset(zone)


def _deployment(model, table, scenario, placed, side_of, report) -> list:
    out = []
    zones = {side: deployment_zone(model, table, data["deployment"]) for side, data in scenario["sides"].items()}
    for uid, (key, ptr) in placed.items():
        if key not in zones[side_of[uid]]:
            d = scenario["sides"][side_of[uid]]["deployment"]
            what = " or ".join(([f"{model.edge_depth}H ({model.rules['deployment']['edge_depth_cm']:g} cm) from the "
                                 f"{d['edge']} edge"] if "edge" in d else []) +
                               ([f"the shelters {', '.join(d['shelters'])}"] if "shelters" in d else []))
            out.append(report("mini-deployment", f"{uid} at {table.label(key)} is outside the {side_of[uid]} "
                              f"deployment zone ({what})", f"{ptr}/hex", section="M§C.1"))
    return out


def _command(model: Miniatures, table, placed, report) -> list:
    out = []
    for uid, (key, ptr) in placed.items():
        unit: Unit = model.units[uid]
        hq = model.units.get(unit.commander or "")
        if hq is None or hq.id not in placed:
            continue
        radius = model.command_radius(hq)
        if radius is None:
            continue
        d = table.board.distance(key, placed[hq.id][0])
        if d > radius:
            radio = "" if model.has_radio(hq) else ", without radio"
            out.append(report("mini-command-radius", f"{uid} is {d}H from its {hq.echelon} HQ {hq.id} "
                              f"(radius {radius}H = {radius * model.cm_per_hex:g} cm{radio})", f"{ptr}/hex",
                              section="M§B.4"))
    return out


def _separation(model: Miniatures, table, placed, side_of, report) -> list:
    units = [model.units[u] for u in placed]
    need = model.separation(units)
    sides = sorted({side_of[u] for u in placed})
    if len(sides) < 2 or need == 0:
        return []
    best = None
    a_side = sides[0]
    for ua, (ka, _) in placed.items():
        if side_of[ua] != a_side:
            continue
        for ub, (kb, pb) in placed.items():
            if side_of[ub] == a_side:
                continue
            d = table.board.distance(ka, kb)
            if best is None or d < best[0]:
                best = (d, ua, ub, pb)
    if best is None or best[0] >= need:
        return []
    d, ua, ub, pb = best
    strongest = max(units, key=model.power)
    return [report("mini-separation", f"{ua} and {ub} are {d}H apart; the sides must be at least {need}H "
                   f"({model.power(strongest)} x {model.rules['deployment']['separation_cm_per_power']:g} cm: "
                   f"{strongest.id} is the strongest unit)", f"{pb}/hex", section="M§C.1")]
