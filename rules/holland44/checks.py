"""Holland '44 cross-reference and content checks over a loaded catalog.

Counters against the rules' unit classes, free-stacking types and half-battalion pairs
(H§2.3, H§6); the reinforcement schedule against the counters and the entry areas
(H§19); maps: hex ids, terrain names, hexsides, roads, bridges and their start states
(H§5), entry areas on the edge, bounded regions; victory cities against the map (H§26).
The setup rules run on the pack's setups once everything else is sound.
"""
from __future__ import annotations

from collections import defaultdict

from ..board import BoardError
from ..findings import Finding, Severity
from ..hexgrid import Grid


def check(catalog) -> list[Finding]:
    out: list[Finding] = []
    rules = _single(catalog, "rules")
    terrain = _single(catalog, "terrain")
    out += _counters(catalog, rules)
    out += _schedule(catalog)
    out += _maps(catalog, terrain)
    out += _scenarios(catalog)
    out += _victory(catalog)
    out += _setups(catalog)
    if not any(f.severity == Severity.ERROR for f in [*catalog.findings, *out]):
        out += _setup_rules(catalog)
    return out


def _single(catalog, kind):
    entries = sorted(catalog.entries(kind), key=lambda e: e.id)
    return entries[0].value if entries else None


def _counters(catalog, rules) -> list[Finding]:
    out = []
    types = (rules or {}).get("unit_types", {})
    classes, free = types.get("class", {}), set(types.get("free_stacking", ()))
    german = {"wehrmacht", "ss", "luftwaffe", "kriegsmarine"}
    halves = defaultdict(list)
    for e in catalog.entries("counter"):
        c = e.value
        if (c["nationality"] in german) != (c["side"] == "german"):
            out.append(e.finding("h44-counter", f"a {c['nationality']} counter is not on the {c['side']} side",
                                 "/nationality", section="H§2.3.9"))
        if c["type"] in classes and classes[c["type"]] != c["class"]:
            out.append(e.finding("h44-counter", f"a {c['type']} unit is {classes[c['type']]}, not {c['class']}",
                                 "/class", section="H§2.3.13"))
        if rules is not None and bool(c.get("free_stacking")) != (c["type"] in free):
            want = "is" if c["type"] in free else "is not"
            out.append(e.finding("h44-counter", f"a {c['type']} unit {want} free-stacking", "/free_stacking",
                                 section="H§6.2"))
        if "remnant" in c:
            target = catalog.get("counter", c["remnant"])
            if target is None:
                out.append(e.finding("unknown-reference", f"remnant counter {c['remnant']!r} does not exist", "/remnant"))
            elif c["steps"] != 3:
                out.append(e.finding("h44-counter", "only a 3-step unit is replaced by a Remnant", "/remnant",
                                     section="H§2.3.12"))
        if c["type"] == "supply-head" and not c.get("formation"):
            out.append(e.finding("h44-counter", "an Airborne Supply Head must name the division it serves",
                                 "/type", section="H§18.2"))
        if "half_battalion_of" in c:
            halves[c["half_battalion_of"]].append(e)
        area = (c.get("arrival") or {}).get("entry_area")
        if area is not None and catalog.get("entry-area", area) is None:
            out.append(e.finding("unknown-reference", f"entry area {area!r} does not exist", "/arrival/entry_area"))
    for parent, group in halves.items():
        if len(group) != 2 or len({g.value["side"] for g in group}) != 1:
            for g in group:
                out.append(g.finding("h44-counter", f"battalion {parent!r} must have exactly two half-battalions of "
                                     f"one side, not {len(group)}", "/half_battalion_of", section="H§6.3"))
    return out


def _schedule(catalog) -> list[Finding]:
    out = []
    for e in catalog.entries("reinforcement"):
        r = e.value
        area = r["arrives"].get("entry_area")
        if area is not None:
            a = catalog.get("entry-area", area)
            if a is None:
                out.append(e.finding("unknown-reference", f"entry area {area!r} does not exist", "/arrives/entry_area"))
            elif not any(f["side"] == r["side"] and f.get("from_turn", 1) <= r["turn"] <= f.get("to_turn", 99)
                         for f in a.value["friendly"]):
                out.append(e.finding("h44-schedule", f"entry area {area} is not friendly to the {r['side']} side on "
                                     f"turn {r['turn']}", "/arrives/entry_area", section="H§19.2"))
        last = r.get("last_turn", r["turn"])
        for i, cid in enumerate(r.get("counters", ())):
            ptr = f"/counters/{i}"
            c = catalog.get("counter", cid)
            if c is None:
                out.append(e.finding("unknown-reference", f"counter {cid!r} does not exist", ptr))
                continue
            arrival = c.value.get("arrival") or {}
            if c.value["side"] != r["side"]:
                out.append(e.finding("h44-schedule", f"{cid} is a {c.value['side']} counter", ptr, section="H§19"))
            elif "turn" not in arrival or not r["turn"] <= arrival["turn"] <= last:
                when = f"turn {arrival['turn']}" if "turn" in arrival else "the start"
                out.append(e.finding("h44-schedule", f"{cid} arrives on {when} by its counter, not on turn "
                                     f"{r['turn']}" + (f"-{last}" if last != r["turn"] else ""), ptr, section="H§19"))
            else:
                place = {k: v for k, v in r["arrives"].items() if k != "unspecified"}
                have = {k: arrival[k] for k in ("entry_area", "drop_zone", "supply_head") if k in arrival}
                if place and place != have:
                    out.append(e.finding("h44-schedule", f"{cid} arrives at {_where(have)} by its counter, not at "
                                         f"{_where(place)}", ptr, section="H§19"))
    return out


def _where(place: dict) -> str:
    if "entry_area" in place:
        return f"entry area {place['entry_area']}"
    if "drop_zone" in place:
        return f"drop zone {place['drop_zone']}"
    return "its supply head" if place else "no stated place"


def _maps(catalog, terrain) -> list[Finding]:
    out = []
    for e in catalog.entries("map"):
        m = e.value
        grid = Grid.from_map(m)
        cols, rows = m["grid"]["columns"], m["grid"]["rows"]

        def exists(h: str) -> bool:
            return cols["first"] <= int(h[:2]) <= cols["last"] and rows["first"] <= int(h[2:]) <= rows["last"]

        def hex_ref(h: str, ptr: str) -> bool:
            if not exists(h):
                out.append(e.finding("hex-unknown", f"hex {h} is not on map {m['id']}", ptr))
                return False
            return True

        def hexside(pair, ptr) -> bool:
            if not all(hex_ref(h, f"{ptr}/{i}") for i, h in enumerate(pair)):
                return False
            if grid.distance(*pair) != 1:
                out.append(e.finding("h44-map", f"{pair[0]} and {pair[1]} are not adjacent: they share no hexside",
                                     ptr, section="H§2.2"))
                return False
            return True

        names = (terrain or {}).get("hexes", {})
        waters = (terrain or {}).get("watercourses", {})
        if terrain is not None and m["default_terrain"] not in names:
            out.append(e.finding("unknown-reference", f"terrain {m['default_terrain']!r} is not in the terrain table",
                                 "/default_terrain"))
        for h, spec in m.get("hexes", {}).items():
            hex_ref(h, f"/hexes/{h}")
            if terrain is not None and "terrain" in spec and spec["terrain"] not in names:
                out.append(e.finding("unknown-reference", f"terrain {spec['terrain']!r} is not in the terrain table",
                                     f"/hexes/{h}/terrain"))
        water_at: dict[frozenset, str] = {}
        for i, w in enumerate(m.get("watercourses", ())):
            if terrain is not None and w["type"] not in waters:
                out.append(e.finding("unknown-reference", f"watercourse type {w['type']!r} is not in the terrain table",
                                     f"/watercourses/{i}/type"))
            for j, pair in enumerate(w["hexsides"]):
                if hexside(pair, f"/watercourses/{i}/hexsides/{j}"):
                    water_at[frozenset(pair)] = w["type"]
        for key in ("roads", "railways"):
            for i, line in enumerate(m.get(key, ())):
                chain = line["hexes"]
                for j, h in enumerate(chain):
                    hex_ref(h, f"/{key}/{i}/hexes/{j}")
                for j in range(1, len(chain)):
                    if exists(chain[j - 1]) and exists(chain[j]) and grid.distance(chain[j - 1], chain[j]) != 1:
                        out.append(e.finding("road-gap", f"{chain[j - 1]} and {chain[j]} are not adjacent",
                                             f"/{key}/{i}/hexes/{j}"))
        for i, b in enumerate(m.get("bridges", ())):
            ptr = f"/bridges/{i}"
            if not hexside(b["hexside"], f"{ptr}/hexside"):
                continue
            wtype = water_at.get(frozenset(b["hexside"]))
            if wtype is None:
                out.append(e.finding("h44-map", f"bridge {b['id']} spans no watercourse", f"{ptr}/hexside",
                                     section="H§5"))
                continue
            can_blow = waters.get(wtype, {}).get("bridges_can_blow", True)
            if b.get("never_blown") and b["state"] != "intact":
                out.append(e.finding("h44-bridge", f"bridge {b['id']} never blows: it starts intact, not {b['state']}",
                                     f"{ptr}/state", section="H§5.7"))
            elif not can_blow and b["state"] != "intact":
                out.append(e.finding("h44-bridge", f"bridge {b['id']} spans a {wtype}, whose bridges never blow: it "
                                     f"starts intact, not {b['state']}", f"{ptr}/state", section="H§5.2"))
            elif can_blow and not b.get("never_blown") and b["state"] != "wired":
                out.append(e.finding("h44-bridge", f"bridge {b['id']} starts wired for demolition, not {b['state']}",
                                     f"{ptr}/state", section="H§5.3.1"))
        for i, f in enumerate(m.get("ferries", ())):
            ptr = f"/ferries/{i}/hexside"
            if hexside(f["hexside"], ptr) and frozenset(f["hexside"]) not in water_at:
                out.append(e.finding("h44-map", f"ferry {f['id']} crosses no watercourse", ptr, section="H§8.5.5"))
        out += _areas_and_regions(catalog, e, m, hex_ref)
    return out


def _areas_and_regions(catalog, e, m, hex_ref) -> list[Finding]:
    out = []
    hmap = None
    model = catalog.model
    try:
        hmap = model.map(m["id"]) if model is not None else None
    except BoardError as exc:  # a grid the board cannot lay out
        out.append(e.finding("board-invalid", str(exc), "/grid"))
    for i, a in enumerate(m.get("entry_areas", ())):
        if catalog.get("entry-area", a["area"]) is None:
            out.append(e.finding("unknown-reference", f"entry area {a['area']!r} does not exist",
                                 f"/entry_areas/{i}/area"))
        for j, h in enumerate(a["hexes"]):
            ptr = f"/entry_areas/{i}/hexes/{j}"
            if hex_ref(h, ptr) and hmap is not None and not hmap.on_edge(hmap.key(h)):
                out.append(e.finding("h44-map", f"hex {h} of entry area {a['area']} is not on the map edge", ptr,
                                     section="H§19"))
    ids = {w["id"] for w in m.get("watercourses", ())}
    for i, r in enumerate(m.get("regions", ())):
        ptr = f"/regions/{i}"
        for j, w in enumerate(r["bounded_by"]):
            if w not in ids:
                out.append(e.finding("unknown-reference", f"watercourse {w!r} is not on map {m['id']}",
                                     f"{ptr}/bounded_by/{j}"))
        if not hex_ref(r["seed"], f"{ptr}/seed") or hmap is None:
            continue
        hexes = hmap.regions.get(r["id"])
        if hexes is not None and len(hexes) >= len(hmap.board.usable):
            out.append(e.finding("h44-map", f"region {r['id']} is not bounded: {', '.join(r['bounded_by'])} "
                                 "leave a way round", f"{ptr}/bounded_by", section="H§26"))
    return out


def _scenarios(catalog) -> list[Finding]:
    out = []
    for e in catalog.entries("scenario"):
        s = e.value
        m = catalog.get("map", s["map"])
        if m is None:
            out.append(e.finding("unknown-reference", f"map {s['map']!r} does not exist", "/map"))
        elif "victory" in s and s["victory"]["region"] not in {r["id"] for r in m.value.get("regions", ())}:
            out.append(e.finding("unknown-reference", f"region {s['victory']['region']!r} is not on map {s['map']}",
                                 "/victory/region"))
    return out


def _victory(catalog) -> list[Finding]:
    out = []
    maps = catalog.entries("map")
    for e in catalog.entries("victory"):
        v = e.value
        if maps and not any(v["region"] in {r["id"] for r in m.value.get("regions", ())} for m in maps):
            out.append(e.finding("unknown-reference", f"region {v['region']!r} is on no map", "/region"))
        model = catalog.model
        for i, place in enumerate(v["allied"]["places"]):
            if place["kind"] != "city" or model is None:
                continue
            for m in maps:
                try:
                    hmap = model.map(m.id)
                except BoardError:  # reported by the map check
                    continue
                hexes = [k for k, n in hmap.names.items() if n == place["name"] and hmap.hex_props(k).get("city")]
                if hexes and len(hexes) != place["vp"]:
                    out.append(e.finding("h44-victory-city", f"{place['name']} is worth {place['vp']:g} VP, 1 per City "
                                         f"hex, but map {m.id} has {len(hexes)} City hex(es) named so",
                                         f"/allied/places/{i}/vp", section="H§26.5"))
    return out


def _setups(catalog) -> list[Finding]:
    out = []
    for e in catalog.entries("setup"):
        if catalog.get("scenario", e.value["scenario"]) is None:
            out.append(e.finding("unknown-reference", f"scenario {e.value['scenario']!r} does not exist", "/scenario"))
    return out


def _setup_rules(catalog) -> list[Finding]:
    from .setup_checks import check_setup
    model = catalog.model
    out = []
    if model is None:
        return out
    for e in catalog.entries("setup"):
        out += check_setup(model, e.value, e.finding)
    return out

