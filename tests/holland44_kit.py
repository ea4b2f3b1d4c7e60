"""Small Holland '44 boards drawn in tests, on the sample pack's rules, terrain, markers and areas.

``board(...)`` draws a map (default 10 x 10, all clear), ``counter(...)`` a counter with
plain defaults, ``position(...)`` places units and returns the ``Position`` the rules
compute on. Hex ids are CCRR on the test map (columns 01-10, rows 01-10).
"""
from __future__ import annotations

import json
from types import SimpleNamespace

from conftest import DATA

from sandtable.rules.holland44.model import Holland

PACK = DATA / "holland44"


def _load(rel: str) -> dict:
    return json.loads((PACK / rel).read_text(encoding="utf-8"))


RULES = _load("rules.json")
TERRAIN = _load("terrain.json")
MARKERS = _load("markers.json")["markers"]
AREAS = _load("entry-areas.json")["areas"]
VICTORY = _load("victory.json")


def board(hexes=None, water=(), roads=(), bridges=(), ferries=(), areas=(), regions=(), columns=(1, 10), rows=(1, 10)):
    """A map: hexes {"0505": "city"} or {"0505": {"terrain": "city", "name": "Arnhem"}}; water [("major-river",
    [("0505", "0605"), ...])]; roads [["0101", "0102", ...]] (a road whose first hex is on an entry area's edge
    leaves the map there); bridges [("0505", "0605", "wired")]; areas {"N": ["0101", ...]}."""
    spec = {}
    for k, v in (hexes or {}).items():
        spec[k] = {"terrain": v} if isinstance(v, str) else v
    area_hexes = {h for hs in dict(areas).values() for h in hs}
    return {
        "kind": "map", "id": "T", "name": "test", "north": "up", "default_terrain": "clear",
        "grid": {"orientation": "flat-top", "columns": {"first": columns[0], "last": columns[1]},
                 "rows": {"first": rows[0], "last": rows[1]}, "shifted_columns": "odd"},
        "hexes": spec,
        "watercourses": [{"id": f"w{i}", "type": t, "hexsides": [list(p) for p in pairs]}
                         for i, (t, pairs) in enumerate(water)],
        "roads": [{"hexes": list(r), "leaves_map": [e for e, h in (("start", r[0]), ("end", r[-1])) if h in area_hexes]}
                  for r in roads],
        "bridges": [{"id": f"b{i}", "hexside": [a, b], "carries": c[0] if c else "road", "state": s}
                    for i, (a, b, s, *c) in enumerate(bridges)],
        "ferries": [{"id": f"f{i}", "hexside": list(p)} for i, p in enumerate(ferries)],
        "entry_areas": [{"area": a, "hexes": list(hs)} for a, hs in dict(areas).items()],
        "regions": [{"id": r, "seed": seed, "bounded_by": list(b)} for r, seed, b in regions],
        "provenance": {"": {"source": "reconstructed"}},
    }


def counter(cid, side="allied", type="infantry", steps=2, **kw):
    cls = RULES["unit_types"]["class"][type]
    nationality = "uk" if side == "allied" else "wehrmacht"
    value = {"id": cid, "name": cid, "side": side, "nationality": nationality, "type": type, "class": cls,
             "attack": 3, "defense": 3, "movement": 4, "steps": steps, "morale": "normal"}
    if type in RULES["unit_types"]["free_stacking"]:
        value["free_stacking"] = True
    value.update(kw)
    return value


class _Catalog:
    def __init__(self, docs: dict[str, list[dict]]):
        self.docs = docs

    def entries(self, kind):
        return [SimpleNamespace(id=str(v["id"]), value=v) for v in self.docs.get(kind, ())]


def model(map_doc, counters, victory=None, scenario_victory=None) -> Holland:
    scenario = {"id": "test", "map": "T", "turns": {"first": 1, "last": 20}}
    if scenario_victory:
        scenario["victory"] = scenario_victory
    return Holland(_Catalog({
        "counter": counters, "marker": MARKERS, "entry-area": AREAS, "rules": [RULES], "terrain": [TERRAIN],
        "map": [map_doc], "victory": [victory or VICTORY], "scenario": [scenario]}))


def position(map_doc, counters, units, turn=3, stage="position", victory=None, scenario_victory=None, **kw):
    """Place units [(counter id, hex or entry area letter, {extra fields})] and return the Position."""
    m = model(map_doc, counters, victory, scenario_victory)
    doc = placed(m, units, turn, stage, **kw)
    return m.position(doc)


def placed(m: Holland, units, turn=3, stage="position", **kw) -> dict:
    sides: dict = {"allied": {"units": []}, "german": {"units": []}}
    for u in units:
        cid, where, *extra = u
        entry = {"counter": cid}
        entry["entry_area" if len(where) == 1 else "hex"] = where
        if extra:
            entry.update(extra[0])
        sides[m.counters[cid].side]["units"].append(entry)
    doc = {"kind": "setup", "id": "t", "scenario": "test", "turn": turn, "stage": stage, "sides": sides}
    doc.update(kw)
    return doc


def reporter(found: list):
    """A report callable for check_setup that records (code, pointer, section, message)."""
    def report(code, message, pointer="", **kw):
        found.append((code, pointer, kw.get("section"), message))
        return (code, pointer)
    return report
