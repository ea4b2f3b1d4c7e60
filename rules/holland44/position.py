"""A setup placed on its scenario's map: pieces with their hexes, steps and markers.

References that do not resolve (a counter, a marker, a hex, a bridge) are reported and
the piece is left out, so every later check sees only whole pieces.
"""
from __future__ import annotations

from typing import Callable, Mapping

from ..board import BoardError
from ..findings import Finding
from ..jsondoc import escape
from .pieces import Piece, Position, SIDES


def build_position(model: "Holland", setup: Mapping, report: Callable[..., Finding]) -> tuple[Position | None, list[Finding]]:
    out: list[Finding] = []

    def add(f):
        if f is not None:
            out.append(f)

    scenario = model.scenario(setup["scenario"])
    if scenario is None:
        add(report("unknown-reference", f"scenario {setup['scenario']!r} does not exist", "/scenario"))
        return None, out
    try:
        hmap = model.map(scenario["map"])
    except BoardError as exc:
        add(report("board-invalid", str(exc), "/scenario"))
        return None, out
    if hmap is None:
        add(report("unknown-reference", f"map {scenario['map']!r} of scenario {scenario['id']!r} does not exist",
                   "/scenario"))
        return None, out
    pieces: list[Piece] = []
    for side in SIDES:
        data = setup.get("sides", {}).get(side, {})
        for i, u in enumerate(data.get("units", ())):
            ptr = f"/sides/{side}/units/{i}"
            counter = model.counters.get(u["counter"])
            if counter is None:
                add(report("unknown-reference", f"counter {u['counter']!r} does not exist", f"{ptr}/counter"))
                continue
            if counter.side != side:
                add(report("h44-placement", f"{counter.id} is a {counter.side} counter, listed with the {side} units",
                           f"{ptr}/counter", section="H§2.3"))
                continue
            key = None
            if "hex" in u:
                key = hmap.key(u["hex"])
                if key is None:
                    add(report("hex-unknown", f"hex {u['hex']} is not on map {hmap.id}", f"{ptr}/hex"))
                    continue
            elif u["entry_area"] not in model.areas:
                add(report("unknown-reference", f"entry area {u['entry_area']!r} does not exist", f"{ptr}/entry_area"))
                continue
            markers = []
            for j, mid in enumerate(u.get("markers", ())):
                m = model.markers.get(mid)
                if m is None:
                    add(report("unknown-reference", f"marker {mid!r} does not exist", f"{ptr}/markers/{j}"))
                elif m.applies_to != "unit":
                    add(report("h44-placement", f"marker {mid!r} goes on a {m.applies_to}, not on a unit",
                               f"{ptr}/markers/{j}", section="H§2.4"))
                else:
                    markers.append(m)
            pieces.append(Piece(counter, side, key, u.get("entry_area"), u.get("steps", counter.steps),
                                tuple(markers), bool(u.get("face_down")), ptr))
        for j, cid in enumerate(data.get("eliminated", ())):
            if cid not in model.counters:
                add(report("unknown-reference", f"counter {cid!r} does not exist", f"/sides/{side}/eliminated/{j}"))
    states = {}
    for bid, state in setup.get("bridges", {}).items():
        if bid not in hmap.bridges:
            add(report("unknown-reference", f"bridge {bid!r} is not on map {hmap.id}", f"/bridges/{escape(bid)}"))
        else:
            states[bid] = state
    for j, h in enumerate(setup.get("allied_control", ())):
        if hmap.key(h) is None:
            add(report("hex-unknown", f"hex {h} is not on map {hmap.id}", f"/allied_control/{j}"))
    return Position(model, setup, scenario, hmap, setup["turn"], pieces, states), out
