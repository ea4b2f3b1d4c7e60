"""Desert Steel cross-reference and content checks over a loaded catalog.

Schema validation has already passed for every object here; these checks look across
objects: cards and unit types that exist, sides and years that fit, hexes on their maps.
"""
from __future__ import annotations

from functools import lru_cache
from typing import Iterator

from ..findings import Finding, Severity
from ..hexgrid import Grid
from ..jsondoc import escape
from ..rulesets import slow_checks_deferred

SIDE = {"german": "axis", "italian": "axis", "british": "allied", "us": "allied"}


def check(catalog) -> list[Finding]:
    out: list[Finding] = []
    out += _cards(catalog)
    out += _card_numbers(catalog)
    out += _maps(catalog)
    out += _configurations(catalog)
    out += _scenarios(catalog)
    out += _setups(catalog)
    out += _tables(catalog)
    # The editor checks the setups in a second pass (they take most of the time), so the
    # findings of an edit show at once: it defers them (rulesets.deferring_slow_checks or the
    # catalog's defer_slow_checks) and runs them through the declared DeferredCheck (SETUP_RULES).
    if not slow_checks_deferred(catalog) and \
            not any(f.severity == Severity.ERROR for f in [*catalog.findings, *out]):
        out += _setup_rules(catalog)
    return out


def _unit_refs(catalog, entry, units, base: str) -> Iterator[Finding]:
    for i, u in enumerate(units):
        if catalog.get("unit-type", u["type"]) is None:
            yield entry.finding("unknown-reference", f"unit type {u['type']!r} does not exist", f"{base}/{i}/type")


def _cards(catalog) -> list[Finding]:
    out = []
    for e in catalog.entries("formation-card"):
        card = e.value
        years = card["years"]
        if years["from"] > years["to"]:
            out.append(e.finding("card-year-outside-dates", "dates of use end before they begin", "/years"))
        if card["type"] == "combat":
            for year, variant in card["variants"].items():
                if not years["from"] <= int(year) <= years["to"]:
                    out.append(e.finding("card-year-outside-dates",
                                         f"variant {year} lies outside the dates of use "
                                         f"{years['from']}-{years['to']}", f"/variants/{year}", section="6.2"))
                out += _unit_refs(catalog, e, variant["units"], f"/variants/{year}/units")
        else:
            subs = card["subordinates"]
            for i, number in enumerate(subs):
                sub = catalog.get("formation-card", number)
                ptr = f"/subordinates/{i}"
                if sub is None:
                    out.append(e.finding("unknown-reference", f"subordinate card {number} does not exist", ptr))
                elif sub.value["type"] != "combat":
                    out.append(e.finding("card-wrong-kind", f"subordinate {number} is a command card", ptr,
                                         section="6.3"))
                elif SIDE[sub.value["nationality"]] != SIDE[card["nationality"]]:
                    out.append(e.finding("card-side-mismatch",
                                         f"subordinate {number} ({sub.value['nationality']}) is on the other side",
                                         ptr, section="6.3"))
            if "hq" in card and card["hq"] not in subs:
                out.append(e.finding("unknown-reference", f"HQ card {card['hq']} is not among the subordinates",
                                     "/hq", section="6.52"))
    return out


def _card_numbers(catalog) -> list[Finding]:
    """A card number, or an alias number (a misprint some scenario uses), must name one card only."""
    out = []
    cards = catalog.entries("formation-card")
    owner = {e.value["number"]: e for e in cards}
    for e in cards:
        for i, alias in enumerate(e.value.get("aliases", [])):
            n = alias.get("number")
            if n is None or n == e.value["number"]:
                continue
            other = owner.setdefault(n, e)
            if other is not e:
                what = "the number of" if other.value["number"] == n else "an alias of"
                out.append(e.finding("card-number-in-use", f"alias {n} is already {what} card "
                                     f"{other.value['number']} ({other.value['designation']})", f"/aliases/{i}/number"))
    return out


# --- maps --------------------------------------------------------------------------------

def map_hexes(m: dict) -> frozenset[str]:
    g = m["grid"]
    return _grid_hexes(g["columns"]["first"], g["columns"]["last"], g["rows"]["first"], g["rows"]["last"])


@lru_cache(maxsize=64)
def _grid_hexes(c0: int, c1: int, r0: int, r1: int) -> frozenset[str]:
    return frozenset(f"{c:02d}{r:02d}" for c in range(c0, c1 + 1) for r in range(r0, r1 + 1))


def _maps(catalog) -> list[Finding]:
    out = []
    for e in catalog.entries("map"):
        m = e.value
        hexes = map_hexes(m)
        colours = set(m["colours"])
        grid = Grid.from_map(m)
        if m["default_colour"] not in colours:
            out.append(e.finding("unknown-reference", f"colour {m['default_colour']!r} is not in colours",
                                 "/default_colour"))
        for hid, h in m.get("hexes", {}).items():
            if hid not in hexes:
                out.append(e.finding("hex-unknown", f"hex {hid} is outside the grid", f"/hexes/{hid}"))
            for key in ("colour", "minor_colour"):
                if key in h and h[key] not in colours:
                    out.append(e.finding("unknown-reference", f"colour {h[key]!r} is not in colours",
                                         f"/hexes/{hid}/{key}"))
        for i, road in enumerate(m.get("roads", [])):
            for j, hid in enumerate(road["hexes"]):
                if hid not in hexes:
                    out.append(e.finding("hex-unknown", f"road hex {hid} is outside the grid",
                                         f"/roads/{i}/hexes/{j}"))
            for j in range(1, len(road["hexes"])):
                a, b = road["hexes"][j - 1], road["hexes"][j]
                if a in hexes and b in hexes and grid.distance(a, b) != 1:
                    out.append(e.finding("road-gap", f"{a} and {b} are not adjacent", f"/roads/{i}/hexes/{j}"))
    return out


def _configurations(catalog) -> list[Finding]:
    out = []
    for e in catalog.entries("map-configuration"):
        layout = e.value["layout"]
        seen = set()
        for r, row in enumerate(layout):
            for c, mid in enumerate(row):
                if catalog.get("map", mid) is None:
                    out.append(e.finding("unknown-reference", f"map {mid!r} does not exist", f"/layout/{r}/{c}"))
                if mid in seen:
                    out.append(e.finding("map-configuration-invalid", f"map {mid!r} appears twice",
                                         f"/layout/{r}/{c}"))
                seen.add(mid)
        if len({len(row) for row in layout}) > 1:
            out.append(e.finding("map-configuration-invalid", "every row of the layout must hold as many maps",
                                 "/layout"))
    return out


# --- scenarios ---------------------------------------------------------------------------

class _ScenarioContext:
    def __init__(self, catalog, entry):
        self.catalog = catalog
        self.entry = entry
        self.s = entry.value
        conf = catalog.get("map-configuration", self.s["map_configuration"])
        self.maps: dict[str, set[str]] = {}
        if conf is not None:
            for row in conf.value["layout"]:
                for mid in row:
                    m = catalog.get("map", mid)
                    if m is not None:
                        self.maps[mid] = map_hexes(m.value)
        # Without every map, hex and map references cannot be judged (the configuration says why).
        self.configured = conf is not None and all(
            self.catalog.get("map", mid) is not None for row in conf.value["layout"] for mid in row)

    def year(self, side: str) -> int:
        return self.s.get("year_override", {}).get(side, self.s["year"])

    def hex_ref(self, ref: str, ptr: str) -> Iterator[Finding]:
        if not self.configured:
            return
        mid, hid = (ref[:-4], ref[-4:])
        if not mid:
            if len(self.maps) != 1:
                yield self.entry.finding("hex-unknown", f"hex {ref} needs its map letter: the configuration "
                                                        f"has maps {', '.join(sorted(self.maps))}", ptr)
                return
            mid = next(iter(self.maps))
        if mid not in self.maps:
            yield self.entry.finding("hex-unknown", f"map {mid!r} is not in this scenario's configuration", ptr)
        elif hid not in self.maps[mid]:
            yield self.entry.finding("hex-unknown", f"hex {hid} does not exist on map {mid}", ptr)

    def map_ref(self, mid: str, ptr: str) -> Iterator[Finding]:
        if self.configured and mid not in self.maps:
            yield self.entry.finding("unknown-reference", f"map {mid!r} is not in this scenario's configuration "
                                                          f"({', '.join(sorted(self.maps))})", ptr)


def _walk(value, ptr: str = "") -> Iterator[tuple[str, str, object]]:
    """(pointer, key, value) of every member of every object inside value."""
    if isinstance(value, dict):
        for k, v in value.items():
            p = f"{ptr}/{escape(k)}"
            yield p, k, v
            yield from _walk(v, p)
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _walk(v, f"{ptr}/{i}")


_HEX_KEYS = {"from", "to"}


def _expression_refs(ctx: _ScenarioContext, value, ptr: str) -> Iterator[Finding]:
    """Maps, hexes, unit types and cards named anywhere inside zones and victory expressions."""
    for p, key, v in _walk(value, ptr):
        if key == "map" and isinstance(v, str):
            yield from ctx.map_ref(v, p)
        elif key == "hexes" and isinstance(v, list) and all(isinstance(h, str) for h in v):
            for i, h in enumerate(v):
                yield from ctx.hex_ref(h, f"{p}/{i}")
        elif key in _HEX_KEYS and isinstance(v, str) and v[-4:].isdigit():
            yield from ctx.hex_ref(v, p)
        elif key in ("types", "exclude_types") and isinstance(v, list):
            for i, t in enumerate(v):
                if ctx.catalog.get("unit-type", t) is None:
                    yield ctx.entry.finding("unknown-reference", f"unit type {t!r} does not exist", f"{p}/{i}")
        elif key == "cards" and isinstance(v, list) and not p.startswith("/sides/"):
            for i, n in enumerate(v):
                if ctx.catalog.get("formation-card", n) is None:
                    yield ctx.entry.finding("unknown-reference", f"card {n} does not exist", f"{p}/{i}")


def _scenario_cards(ctx: _ScenarioContext, side: str) -> Iterator[Finding]:
    e, s = ctx.entry, ctx.s
    year = ctx.year(side)
    groups = [(f"/sides/{side}/formations/{i}", g) for i, g in enumerate(s["sides"][side]["formations"])]
    groups += [(f"/sides/{side}/reinforcements/{i}", g)
               for i, g in enumerate(s["sides"][side].get("reinforcements", []))]
    for gptr, group in groups:
        for j, number in enumerate(group["cards"]):
            ptr = f"{gptr}/cards/{j}"
            card = ctx.catalog.get("formation-card", number)
            if card is None:
                yield e.finding("unknown-reference", f"formation card {number} does not exist", ptr)
                continue
            c = card.value
            if SIDE[c["nationality"]] != side:
                yield e.finding("scenario-side-mismatch",
                                f"card {number} ({c['designation']}, {c['nationality']}) belongs to the other side",
                                ptr, section="2.11")
            if not c["years"]["from"] <= year <= c["years"]["to"]:
                yield e.finding("card-year-outside-dates",
                                f"card {number} ({c['designation']}) is used in {year}, outside its dates of use "
                                f"{c['years']['from']}-{c['years']['to']}", ptr, section="18.1")
            elif c["type"] == "combat" and str(year) not in c["variants"]:
                yield e.finding("card-year-missing",
                                f"card {number} ({c['designation']}) has no {year} variant", ptr, section="18.1")
    for i, u in enumerate(s["sides"][side].get("undermanned", [])):
        ptr = f"/sides/{side}/undermanned/{i}"
        card = ctx.catalog.get("formation-card", u["card"])
        if card is None:
            yield e.finding("unknown-reference", f"formation card {u['card']} does not exist", f"{ptr}/card")
            continue
        if card.value["type"] != "combat":
            yield e.finding("card-wrong-kind", f"card {u['card']} is a command card: it has no units", f"{ptr}/card")
            continue
        variant = card.value["variants"].get(str(year))
        for j, r in enumerate(u["remove"]):
            if ctx.catalog.get("unit-type", r["type"]) is None:
                yield e.finding("unknown-reference", f"unit type {r['type']!r} does not exist",
                                f"{ptr}/remove/{j}/type")
            elif variant is not None:
                held = sum(x["count"] for x in variant["units"] if x["type"] == r["type"])
                if held < r["count"]:
                    yield e.finding("unknown-reference",
                                    f"card {u['card']} holds {held} {r['type']} in {year}; cannot remove {r['count']}",
                                    f"{ptr}/remove/{j}", section="18.5")
    for i, t in enumerate(s["sides"][side].get("transports", [])):
        if "unit_type" in t and ctx.catalog.get("unit-type", t["unit_type"]) is None:
            yield e.finding("unknown-reference", f"unit type {t['unit_type']!r} does not exist",
                            f"/sides/{side}/transports/{i}/unit_type")


def _scenarios(catalog) -> list[Finding]:
    out = []
    effects = catalog.entries("terrain-effects")
    for e in catalog.entries("scenario"):
        s = e.value
        if catalog.get("map-configuration", s["map_configuration"]) is None:
            out.append(e.finding("unknown-reference", f"map configuration {s['map_configuration']!r} does not exist",
                                 "/map_configuration"))
        ctx = _ScenarioContext(catalog, e)
        for side in ("allied", "axis"):
            out += _scenario_cards(ctx, side)
        out += _expression_refs(ctx, s["sides"], "/sides")
        out += _expression_refs(ctx, s.get("special_rules", []), "/special_rules")
        out += _expression_refs(ctx, s.get("exits", {}), "/exits")
        out += _expression_refs(ctx, s["victory"].get("expression", {}), "/victory/expression")
        out += _preflight(catalog, e)
        if effects:
            table = effects[0].value
            for cond in ("relief", "zone", "urbanization", "road_network"):
                value = s["conditions"][cond]["value"]
                if value not in table[cond]["values"]:
                    out.append(e.finding("unknown-reference",
                                         f"{cond} {value!r} is not a value of the terrain-effects table "
                                         f"({', '.join(sorted(table[cond]['values']))})",
                                         f"/conditions/{cond}/value", section="3"))
    return out


def _preflight(catalog, entry) -> list[Finding]:
    """What the engine would refuse about a scenario: the preflight it runs itself, read from
    the documents being checked."""
    from .preflight import catalog_problems
    return [entry.finding(p.code, p.message, p.pointer, section=p.section)
            for p in catalog_problems(catalog, entry)]


def _setups(catalog) -> list[Finding]:
    out = []
    for e in catalog.entries("setup"):
        st = e.value
        scen = catalog.get("scenario", st["scenario"])
        if scen is None:
            out.append(e.finding("unknown-reference", f"scenario {st['scenario']!r} does not exist", "/scenario"))
            continue
        ctx = _ScenarioContext(catalog, scen)
        ctx.entry = e  # findings point into the setup
        for side, data in st["sides"].items():
            listed = {n for g in scen.value["sides"][side]["formations"] for n in g["cards"]}
            listed |= {n for g in scen.value["sides"][side].get("reinforcements", []) for n in g["cards"]}
            for i, p in enumerate(data.get("placements", [])):
                ptr = f"/sides/{side}/placements/{i}"
                if p["card"] not in listed:
                    out.append(e.finding("unknown-reference",
                                         f"card {p['card']} is not one of the {side} formations of {scen.id}",
                                         f"{ptr}/card"))
                if catalog.get("unit-type", p["type"]) is None:
                    out.append(e.finding("unknown-reference", f"unit type {p['type']!r} does not exist",
                                         f"{ptr}/type"))
                out += ctx.hex_ref(p["hex"], f"{ptr}/hex")
            for key in ("transports", "fortifications"):
                for i, item in enumerate(data.get(key, [])):
                    out += ctx.hex_ref(item["hex"], f"/sides/{side}/{key}/{i}/hex")
            for i, h in enumerate(data.get("minefields", [])):
                out += ctx.hex_ref(h, f"/sides/{side}/minefields/{i}")
    return out


def setup_rules(catalog) -> list[Finding]:
    """The setup rules alone, for a catalog checked with them deferred (same conditions
    and grouping as ``check``)."""
    if any(f.severity == Severity.ERROR for f in catalog.findings):
        return []
    from ..references import group_consequences
    return group_consequences(catalog, _setup_rules(catalog))


def _setup_rules(catalog) -> list[Finding]:
    """The setup rules for every setup of the pack (run once the pack is otherwise sound:
    a broken card or scenario would only echo as setup findings)."""
    from ..board import BoardError
    from . import field_cache
    from .setup_checks import check_setup
    model = catalog.model
    out = []
    digests: dict = {}  # maps shared by several scenarios are digested once
    for e in catalog.entries("setup"):
        scenario = model.scenario(e.value["scenario"])
        if scenario is not None:
            # The board is reused while its documents are unchanged (the editor re-runs this
            # after every edit); a board that cannot be built is reported by check_setup.
            try:
                field = field_cache.battlefield(model, scenario, digests=digests)
            except BoardError:
                field = None
            out += check_setup(model, e.value, e.finding, field=field)
    return out


def _tables(catalog) -> list[Finding]:
    out = []
    for e in catalog.entries("rule-tables"):
        crt = e.value.get("combat_results")
        if not crt:
            continue
        for col, bands in crt["columns"].items():
            base = f"/combat_results/columns/{col}"
            if "min" in bands[0]:
                out.append(e.finding("table-gap", f"the first {col} band must have no min (it takes every lower total)",
                                     f"{base}/0/min"))
            if "max" in bands[-1]:
                out.append(e.finding("table-gap", f"the last {col} band must have no max", f"{base}/{len(bands) - 1}"))
            for i in range(1, len(bands)):
                prev, cur = bands[i - 1], bands[i]
                if "max" not in prev or "min" not in cur or cur["min"] != prev["max"] + 1:
                    out.append(e.finding("table-gap", f"{col} bands {i - 1} and {i} do not meet "
                                                      f"(each band must start one after the previous ends)",
                                         f"{base}/{i}", section="9.3"))
    return out


class _SetupRules:
    """The setup rules as the editor's second pass (rulesets.DeferredCheck): declared as the
    editor contribution's ``deferred``; there is something to check when the pack has setups."""

    def pending(self, catalog) -> bool:
        return bool(catalog.entries("setup"))

    def check(self, catalog) -> list[Finding]:
        return setup_rules(catalog)


SETUP_RULES = _SetupRules()
