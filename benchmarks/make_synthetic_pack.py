#!/usr/bin/env python3
"""Generate a large synthetic Desert Steel pack for the validation benchmark.

The pack is deterministic (same seed, same bytes), standalone (ruleset ``desert-steel``,
no dependency) and clean: ``sandtable validate`` must report no error on it, so the
benchmark measures the path every real pack takes when it is right.

Default size: 5,000 unit types, 2,000 formation cards (1,800 combat cards with a variant
for every year of their dates of use in 1940-1943, 200 command cards with subordinates),
200 scenarios (one file each) with zone and victory expressions, 8 maps, their
configurations, one terrain-effects table, one rule-tables document and 20 raid cards.
Collections are split into files of about 100 objects, as a real pack would be.

    python benchmarks/make_synthetic_pack.py [--out DIR] [--seed N] [--units N] [--cards N] [--scenarios N]

The data are made up; they only have the shape and the cross-references of real data.
Standard library only (it does not import sandtable).
"""
from __future__ import annotations

import argparse
import json
import random
import shutil
from pathlib import Path

HERE = Path(__file__).resolve().parent
DEFAULT_OUT = HERE / ".generated" / "synthetic-desert-steel"
PACK_ID = "synthetic-desert-steel"

YEARS = (1940, 1941, 1942, 1943)
NATIONS = {  # nationality -> (id prefix, side)
    "german": ("de", "axis"),
    "italian": ("it", "axis"),
    "british": ("gb", "allied"),
    "us": ("us", "allied"),
}
SIDES = {"allied": ("british", "us"), "axis": ("german", "italian")}
COLOURS = ["sand", "tan", "ochre", "brown"]
MAP_IDS = ["A", "B", "C", "D", "E", "F", "G", "H"]
COLUMNS = (1, 32)
ROWS = (1, 22)
COMPASS = ["north", "south", "east", "west"]
NORTH = ["up", "down", "left", "right"]

RELIEF_LEVELS = {
    "flat": {"sand": 0, "tan": 0, "ochre": 0, "brown": 0},
    "rolling": {"sand": 0, "tan": 1, "ochre": 1, "brown": 2},
    "hills": {"sand": 0, "tan": 1, "ochre": 2, "brown": 3},
    "valleys": {"sand": 0, "tan": 0, "ochre": 1, "brown": 2},
    "wadis": {"sand": 1, "tan": 1, "ochre": 0, "brown": 0},
}
ZONES = ["rocky", "sandy", "muddy"]
URBANIZATION = ["desert", "inhabited"]
ROAD_NETWORK = ["none", "restricted", "moderate", "dense"]

NAME_WORDS = {
    "german": ["Pz", "StuG", "Marder", "SdKfz", "PaK", "FlaK", "Wespe", "Puma", "Nashorn", "Brummbar"],
    "italian": ["M13", "M14", "L6", "Semovente", "AB", "Cannone", "Bersaglieri", "Carro", "Autoblinda", "Obice"],
    "british": ["Crusader", "Valentine", "Matilda", "Cruiser", "Churchill", "Daimler", "Humber", "QF", "Bishop", "Deacon"],
    "us": ["M3", "M4", "M10", "M7", "T19", "M8", "Greyhound", "Priest", "Wolverine", "Halftrack"],
}
ROLES = {
    "vehicle": ["tank", "tank-destroyer", "recon", "assault-gun", "sp-artillery", "anti-aircraft"],
    "infantry": ["rifle", "machine-gun", "mortar", "engineer", "anti-tank-team"],
    "artillery": ["anti-tank-gun", "field-gun", "howitzer", "anti-aircraft"],
    "forward-observer": ["observer"],
    "transport": ["truck", "motorcycle", "halftrack", "carrier"],
}
CLASS_WEIGHTS = [("vehicle", 55), ("infantry", 15), ("artillery", 12), ("forward-observer", 3), ("transport", 15)]
FORMATIONS = ["company", "squadron", "battery", "battle-group", "platoon"]


def roman(n: int) -> str:
    out = []
    for value, sym in ((100, "C"), (90, "XC"), (50, "L"), (40, "XL"), (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I")):
        while n >= value:
            out.append(sym)
            n -= value
    return "".join(out)


def reconstructed(note: str = "synthetic benchmark data") -> dict:
    return {"source": "reconstructed", "note": note}


# --- hex geometry (same convention as sandtable.rules.hexgrid) ---------------------------

def cube(col: int, row: int, shifted: str) -> tuple[int, int, int]:
    parity = col & 1
    z = row - (col - parity) // 2 if shifted == "odd" else row - (col + parity) // 2
    return col, -col - z, z


def hex_distance(a: tuple[int, int], b: tuple[int, int], shifted: str) -> int:
    ax, ay, az = cube(*a, shifted)
    bx, by, bz = cube(*b, shifted)
    return max(abs(ax - bx), abs(ay - by), abs(az - bz))


def hid(col: int, row: int) -> str:
    return f"{col:02d}{row:02d}"


def all_hexes() -> list[tuple[int, int]]:
    return [(c, r) for c in range(COLUMNS[0], COLUMNS[1] + 1) for r in range(ROWS[0], ROWS[1] + 1)]


# --- generators --------------------------------------------------------------------------

class Generator:
    def __init__(self, seed: int, n_units: int, n_cards: int, n_scenarios: int):
        self.r = random.Random(seed)
        self.seed = seed
        self.n_units = n_units
        self.n_cards = n_cards
        self.n_scenarios = n_scenarios
        self.units: list[dict] = []
        self.units_by_nat: dict[str, list[dict]] = {n: [] for n in NATIONS}
        self.cards: list[dict] = []
        self.configurations: list[dict] = []
        self.maps: list[dict] = []

    # unit types ---------------------------------------------------------------------------
    def unit_types(self) -> None:
        r = self.r
        nats = list(NATIONS)
        classes = [c for c, _ in CLASS_WEIGHTS]
        weights = [w for _, w in CLASS_WEIGHTS]
        for i in range(self.n_units):
            nat = nats[i % len(nats)]
            prefix = NATIONS[nat][0]
            cls = r.choices(classes, weights)[0]
            word = r.choice(NAME_WORDS[nat])
            model = f"{r.choice('ABCDEFGHJKL')}{r.randint(1, 9)}"
            name = f"{word} {model}"
            uid = f"{prefix}-{word.lower()}-{model.lower()}-{i:05d}"
            u: dict = {"id": uid, "name": name, "full_name": f"{name} (synthetic {i})", "nationality": nat,
                       "class": cls, "role": r.choice(ROLES[cls])}
            prov = {"": reconstructed()}
            if cls == "vehicle":
                u["movement"] = r.randint(4, 16)
                u["range"] = r.randint(4, 24)
                u["anti_vehicle"] = r.randint(0, 12) if r.random() > 0.1 else "cannot-fire"
                u["defense"] = r.randint(1, 14)
                u["anti_infantry"] = r.randint(0, 10)
                if u["defense"] < 4:
                    u["lightly_armored"] = True
                if r.random() < 0.15:
                    u["close_support"] = True
                if r.random() < 0.1:
                    u["indirect_fire"] = True
                prov["/range"] = {"source": "rulebook", "section": "2.11"}
                prov["/defense"] = {"source": "example", "section": "9.42", "note": "worked example"}
            elif cls == "infantry":
                u["movement"] = None
                u["range"] = r.randint(2, 8)
                if r.random() < 0.3:
                    u["anti_vehicle_range"] = r.randint(1, 3)
                u["anti_vehicle"] = r.randint(0, 4)
                u["defense"] = r.randint(2, 8)
                u["anti_infantry"] = r.randint(2, 10)
                if r.random() < 0.1:
                    u["engineer"] = True
                prov["/anti_infantry"] = {"source": "rulebook", "section": "12.13"}
            elif cls == "artillery":
                u["movement"] = None
                u["range"] = r.randint(8, 40)
                u["indirect_fire"] = r.random() < 0.6
                u["anti_vehicle"] = r.randint(0, 14)
                u["defense"] = r.randint(2, 6)
                u["anti_infantry"] = r.randint(2, 12)
                u["towed"] = True
            elif cls == "forward-observer":
                u["movement"] = None
                u["anti_vehicle"] = "cannot-fire"
                u["defense"] = r.randint(1, 4)
                u["anti_infantry"] = "cannot-fire"
                u["spotter"] = True
            else:  # transport
                u["movement"] = r.randint(6, 20)
                u["anti_vehicle"] = "cannot-fire"
                u["defense"] = r.randint(1, 5)
                u["anti_infantry"] = r.choice([0, 1, 2, "cannot-fire"])
                u["lightly_armored"] = True
                u["transport"] = {"capacity": r.choice(["truck", "motorcycle", "light"]),
                                  "can_tow": r.random() < 0.5}
                if r.random() < 0.2:
                    u["transport"]["formation_transport"] = True
                    if prefix == "us":
                        u["counts_as_observer"] = True
            u["art"] = {"silhouette": word.lower(), "front_label": name[:12]}
            if r.random() < 0.2:
                u["aliases"] = [f"{word} {model} alt", f"{name}/{i}"]
            if r.random() < 0.3:
                u["notes"] = {"en": f"Synthetic counter {i} of the benchmark pack.",
                              "fr": f"Pion synthétique {i} du pack de mesure."}
            u["provenance"] = prov
            self.units.append(u)
            self.units_by_nat[nat].append(u)

    # formation cards ------------------------------------------------------------------------
    def formation_cards(self) -> None:
        r = self.r
        n_command = max(1, self.n_cards // 10)
        n_combat = self.n_cards - n_command
        nats = list(NATIONS)
        first = 101
        combat_by_nat: dict[str, list[dict]] = {n: [] for n in NATIONS}
        for i in range(n_combat):
            nat = nats[i % len(nats)]
            y0 = r.choice(YEARS)
            y1 = r.choice([y for y in YEARS if y >= y0])
            if y1 - y0 < 1 and r.random() < 0.7:  # most cards span several years
                y0, y1 = 1940, 1943
            pool = self.units_by_nat[nat]
            core = r.sample(pool, r.randint(2, 4))
            variants = {}
            morale = r.randint(5, 10)
            for year in range(y0, y1 + 1):
                picks = core[:]
                if r.random() < 0.5:
                    picks.append(r.choice(pool))
                units, seen = [], set()
                for u in picks:
                    if u["id"] in seen:
                        continue
                    seen.add(u["id"])
                    units.append({"type": u["id"], "count": r.randint(1, 6)})
                variants[str(year)] = {
                    "units": units,
                    "experience": r.choice(["green", "seasoned", "veteran"]),
                    "c3": r.choice("BCDE"),
                    "morale": max(2, min(12, morale + r.randint(-1, 1))),
                    "loss_modifier": r.choice([0, 0.5, 1, 1, 1.5, 2]),
                }
            number = first + i
            card = {"number": number, "type": "combat", "designation": f"{r.choice('ABCDKS')}/{number % 97 + 1}",
                    "name": f"Synthetic {nat} combat formation {number}", "nationality": nat,
                    "formation": r.choice(FORMATIONS), "years": {"from": y0, "to": y1}, "variants": variants}
            if r.random() < 0.1:
                card["aliases"] = [{"number": number + 10000, "designation": f"X/{number}", "note": "reprint"}]
            if r.random() < 0.2:
                card["notes"] = {"en": "A synthetic card.", "fr": "Une carte synthétique."}
            y = str(r.choice(range(y0, y1 + 1)))
            card["provenance"] = {"": reconstructed(),
                                  f"/variants/{y}/morale": {"source": "example", "section": "10.12"},
                                  "/years": {"source": "rulebook", "section": "6.2"}}
            self.cards.append(card)
            combat_by_nat[nat].append(card)
        for j in range(n_command):
            nat = nats[j % len(nats)]
            number = first + n_combat + j
            y0 = r.choice(YEARS[:3])
            y1 = r.choice([y for y in YEARS if y >= y0])
            subs = sorted(c["number"] for c in r.sample(combat_by_nat[nat], r.randint(3, 6)))
            card = {"number": number, "type": "command", "designation": f"QG/{number % 53 + 1}",
                    "name": f"Synthetic {nat} command {number}", "nationality": nat,
                    "years": {"from": y0, "to": y1}, "c3": r.choice("BCDE"), "subordinates": subs,
                    "hq": r.choice(subs),
                    "provenance": {"": reconstructed(), "/c3": {"source": "rulebook", "section": "6.52"}}}
            self.cards.append(card)

    # maps and configurations --------------------------------------------------------------
    def maps_and_configurations(self) -> None:
        r = self.r
        grid_hexes = all_hexes()
        for mid in MAP_IDS:
            shifted = r.choice(["odd", "even"])
            hexes = {}
            for c, row in r.sample(grid_hexes, len(grid_hexes) * 2 // 5):
                h: dict = {"colour": r.choice(COLOURS[1:])}
                roll = r.random()
                if roll < 0.2:
                    h["minor_colour"] = r.choice(COLOURS)
                elif roll < 0.25:
                    h["building"] = True
                elif roll < 0.3:
                    h["symbols"] = r.sample(["oasis", "wadi", "escarpment", "airfield", "well"], 2)
                if roll > 0.97:
                    h["label"] = f"Bir {mid}{c}{row}"
                hexes[hid(c, row)] = h
            roads = []
            for k in range(3):
                col, row = r.randint(*COLUMNS), ROWS[0]
                chain = [(col, row)]
                while chain[-1][1] < ROWS[1]:
                    c, rw = chain[-1]
                    options = [(c2, r2) for c2 in (c - 1, c, c + 1) for r2 in (rw, rw + 1)
                               if COLUMNS[0] <= c2 <= COLUMNS[1] and r2 <= ROWS[1] and (c2, r2) not in chain
                               and hex_distance((c, rw), (c2, r2), shifted) == 1 and r2 >= rw]
                    downward = [o for o in options if o[1] > rw or o[0] != c]
                    nxt = r.choice(downward or options)
                    chain.append(nxt)
                    if len(chain) > 60:
                        break
                roads.append({"id": f"{mid}-road-{k}", "type": "road" if k == 0 else "track",
                              "hexes": [hid(*h) for h in chain], "leaves_map": ["start", "end"]})
            m = {"kind": "map", "id": mid, "name": f"Synthetic map {mid}",
                 "size_cm": {"width": 86.0, "height": 56.0}, "hex_metres": 150,
                 "grid": {"orientation": "flat-top", "columns": {"first": COLUMNS[0], "last": COLUMNS[1]},
                          "rows": {"first": ROWS[0], "last": ROWS[1]}, "shifted_columns": shifted,
                          "half_hexes": {"top": True, "bottom": True}},
                 "colours": COLOURS, "default_colour": "sand", "hexes": hexes, "roads": roads,
                 "notes": {"en": "Synthetic map.", "fr": "Carte synthétique."},
                 "provenance": {"": reconstructed(), "/hex_metres": {"source": "rulebook", "section": "2.7"}}}
            self.maps.append(m)
        layouts = []
        for a in MAP_IDS:
            layouts.append((a, [[a]]))
        for i, a in enumerate(MAP_IDS):
            for b in MAP_IDS[i + 1:i + 3]:
                layouts += [(f"{a}-over-{b}", [[a], [b]]), (f"{b}-over-{a}", [[b], [a]]),
                            (f"{a}-left-of-{b}", [[a, b]]), (f"{b}-left-of-{a}", [[b, a]])]
        for name, layout in layouts:
            for north in NORTH:
                self.configurations.append({
                    "id": f"{name}-north-{north}", "name": f"{name.replace('-', ' ')}, north {north}",
                    "layout": layout, "north": north,
                    "provenance": {"": reconstructed(), "/north": {"source": "rulebook", "section": "18.3"}}})

    # scenarios ------------------------------------------------------------------------------
    def _cards_for(self, nationalities, year: int, kind: str) -> list[dict]:
        return [c for c in self.cards if c["nationality"] in nationalities and c["type"] == kind
                and c["years"]["from"] <= year <= c["years"]["to"]]

    def _hex(self, maps: list[str]) -> str:
        return f"{self.r.choice(maps)}{hid(self.r.randint(*COLUMNS), self.r.randint(*ROWS))}"

    def _zone(self, maps: list[str], depth: int = 0) -> dict:
        r = self.r
        roll = r.random() if depth < 2 else r.random() * 0.8
        if roll < 0.2:
            return {"near_edge": {"edge": r.choice(COMPASS), "within": r.randint(1, 5), "map": r.choice(maps)}}
        if roll < 0.35:
            key = r.choice(["row", "column"])
            return {"beyond_line": {"direction": r.choice(COMPASS), key: r.randint(2, 20),
                                    "inclusive": r.random() < 0.5, "map": r.choice(maps)}}
        if roll < 0.45:
            return {"hexes": [self._hex(maps) for _ in range(r.randint(1, 8))]}
        if roll < 0.52:
            return {"map": r.choice(maps)}
        if roll < 0.58:
            return {"away_from_edges": {"at_least": r.randint(1, 4), "map": r.choice(maps)}}
        if roll < 0.64:
            return {"level": {"in": sorted(r.sample([0, 1, 2, 3], r.randint(1, 2)))}}
        if roll < 0.7:
            m = r.choice(maps)
            edge = r.choice(COMPASS)
            return {"edge_between": {"edge": edge, "from": f"{m}{hid(1, r.randint(1, 10))}",
                                     "to": f"{m}{hid(1, r.randint(11, 22))}", "map": m}}
        if roll < 0.8:
            return {"near_map": {"map": r.choice(maps), "within": r.randint(1, 3)}}
        if roll < 0.9:
            return {r.choice(["all", "any"]): [self._zone(maps, depth + 1) for _ in range(r.randint(2, 3))]}
        return {"not": self._zone(maps, depth + 1)}

    def _filter(self, side: str, all_cards: list[int]) -> dict:
        r = self.r
        f: dict = {"side": side}
        roll = r.random()
        if roll < 0.3:
            f["class"] = r.sample(["vehicle", "infantry", "artillery", "transport"], r.randint(1, 2))
        elif roll < 0.5:
            nats = SIDES[side]
            f["types"] = [u["id"] for u in r.sample(self.units_by_nat[r.choice(nats)], r.randint(1, 4))]
        elif roll < 0.65:
            f["cards"] = r.sample(all_cards, min(len(all_cards), r.randint(1, 3)))
        elif roll < 0.8:
            f["motorized"] = True
            f["exclude_class"] = ["transport"]
        else:
            f["nationality"] = [r.choice(SIDES[side])]
        return f

    def _side(self, side: str, year: int, maps: list[str], turns: int) -> tuple[dict, list[int]]:
        r = self.r
        nats = SIDES[side]
        combat = self._cards_for(nats, year, "combat")
        command = self._cards_for(nats, year, "command")
        chosen = r.sample(combat, r.randint(4, 12))
        groups, i = [], 0
        order = 1 if side == "axis" else 2
        while i < len(chosen):
            n = r.randint(1, 3)
            batch = chosen[i:i + n]
            i += n
            g: dict = {"cards": [c["number"] for c in batch]}
            if r.random() < 0.75:
                g["setup"] = self._zone(maps)
                g["order"] = order
            else:
                g["enter"] = {"turn": r.randint(1, 3), "zone": self._zone(maps)}
            if r.random() < 0.3:
                g["text"] = {"en": "Set up within the zone.", "fr": "Se déploient dans la zone."}
            groups.append(g)
        if command:
            groups.append({"cards": [c["number"] for c in r.sample(command, min(len(command), r.randint(1, 2)))],
                           "hand_only": True})
        data: dict = {"formations": groups}
        rest = [c for c in combat if c not in chosen]
        if turns > 2 and rest and r.random() < 0.7:
            data["reinforcements"] = [
                {"turn": r.randint(2, turns), "cards": [c["number"] for c in r.sample(rest, min(len(rest), r.randint(1, 3)))],
                 "zone": self._zone(maps)} for _ in range(r.randint(1, 2))]
            # a card may arrive only once
            seen: set[int] = set()
            for rf in data["reinforcements"]:
                rf["cards"] = [n for n in rf["cards"] if not (n in seen or seen.add(n))]
            data["reinforcements"] = [rf for rf in data["reinforcements"] if rf["cards"]]
        if r.random() < 0.5:
            card = r.choice(chosen)
            variant = card["variants"][str(year)]
            u = r.choice(variant["units"])
            data["undermanned"] = [{"card": card["number"],
                                    "remove": [{"type": u["type"], "count": r.randint(1, u["count"])}],
                                    "affects_morale": r.random() < 0.5}]
        data["smoke"] = r.randint(0, 4)
        data["raids"] = {"air_strikes": [{"count": r.randint(1, 3), "nationality": r.choice(nats)}],
                         "preplanned_bombardments": r.randint(0, 2), "on_call_bombardments": r.randint(0, 3)}
        trucks = [u for n in nats for u in self.units_by_nat[n][:200] if u["class"] == "transport"]
        data["transports"] = [{"type": r.choice(["truck", "motorcycle", "halftrack"]),
                               "unit_type": r.choice(trucks)["id"], "count": r.randint(1, 6),
                               "nationality": r.choice(nats)}]
        if r.random() < 0.5:
            data["fortifications"] = {
                "wire": {"count": r.randint(0, 8), "zone": self._zone(maps)},
                "minefields": {"count": r.randint(0, 6), "zone": self._zone(maps),
                               "text": {"en": "Minefields in the zone.", "fr": "Champs de mines dans la zone."}}}
        data["hidden_observers"] = {"allowed": r.random() < 0.5, "zone": self._zone(maps)}
        numbers = [n for g in groups for n in g["cards"]]
        numbers += [n for rf in data.get("reinforcements", []) for n in rf["cards"]]
        return data, numbers

    def _number(self, side: str, cards: list[int], maps: list[str], depth: int = 0):
        r = self.r
        roll = r.random() if depth < 2 else r.random() * 0.5
        if roll < 0.45:
            count: dict = {"event": r.choice(["destroyed", "eliminated", "exited", "on-map", "in-zone"]),
                           "units": self._filter(side, cards)}
            if count["event"] == "exited":
                count["edge"] = r.choice(COMPASS)
                count["map"] = r.choice(maps)
            elif count["event"] == "in-zone":
                count["zone"] = self._zone(maps)
                count["ready_only"] = r.random() < 0.3
            if r.random() < 0.2:
                count["by_turn"] = r.randint(1, 8)
            return {"count": count}
        if roll < 0.5:
            return r.randint(1, 10)
        if roll < 0.7:
            return {"mul": [r.randint(1, 3), self._number(side, cards, maps, depth + 1)]}
        if roll < 0.85:
            return {"sum": [self._number(side, cards, maps, depth + 1) for _ in range(r.randint(2, 3))]}
        return {"sub": [self._number(side, cards, maps, depth + 1), self._number(side, cards, maps, depth + 1)]}

    def _victory(self, cards: dict[str, list[int]], maps: list[str]) -> dict:
        r = self.r
        points = {}
        for side in ("allied", "axis"):
            enemy = "axis" if side == "allied" else "allied"
            terms = [{"id": "losses", "label": "enemy units destroyed",
                      "value": {"count": {"event": "destroyed", "units": self._filter(enemy, cards[enemy])}}}]
            for k in range(r.randint(1, 3)):
                terms.append({"id": f"term-{k}", "value": self._number(side, cards[side], maps)})
            terms.append({"id": "total", "value": {"sum": [{"term": t["id"]} for t in terms]}})
            points[side] = terms
        outcomes = [
            {"when": {"cmp": [{"points": "allied"}, ">=", {"mul": [2, {"points": "axis"}]}]},
             "result": {"winner": "allied", "level": "decisive"}},
            {"when": {"cmp": [{"points": "axis"}, ">=", {"mul": [2, {"points": "allied"}]}]},
             "result": {"winner": "axis", "level": "decisive"}},
            {"when": {"and": [{"cmp": [{"points": "allied"}, ">", {"points": "axis"}]},
                              {"not": {"cmp": [{"count": {"event": "in-zone", "units": {"side": "axis"},
                                                          "zone": self._zone(maps)}}, ">", 3]}}]},
             "result": {"winner": "allied", "level": "marginal"}},
        ]
        if r.random() < 0.3:
            outcomes.append({"when": {"path_exists": {"side": "axis", "from": self._zone(maps), "to": self._zone(maps),
                                                      "outside_enemy": ["range", "line-of-sight"]}},
                             "result": {"winner": "axis", "level": "marginal"}})
        outcomes.append({"when": {"or": [{"cmp": [{"points": "axis"}, ">", {"points": "allied"}]},
                                         {"cmp": [{"count": {"event": "exited", "units": {"side": "allied"},
                                                             "edge": r.choice(COMPASS)}}, ">=", 4]}]},
                         "result": {"winner": "axis", "level": "marginal"}})
        return {"checked": "end-of-game", "points": points, "outcomes": outcomes, "otherwise": {"winner": "draw"}}

    def scenario(self, n: int) -> dict:
        r = self.r
        conf = r.choice(self.configurations)
        maps = [m for row in conf["layout"] for m in row]
        year = r.choice(YEARS)
        years = {"allied": year, "axis": year}
        scen: dict = {"kind": "scenario", "id": f"syn-{n:03d}", "number": roman(n),
                      "name": {"en": f"Synthetic battle {n}", "fr": f"Bataille synthétique {n}"},
                      "rules": r.choice(["basic", "advanced"]), "date": f"{r.randint(1, 28)} / {r.randint(1, 12)} / {year}",
                      "year": year}
        if r.random() < 0.15:
            other = r.choice([y for y in YEARS if y != year])
            side = r.choice(["allied", "axis"])
            years[side] = other
            scen["year_override"] = {side: other}
            scen["year_note"] = {"en": "One side uses another year's cards.", "fr": "Un camp utilise les cartes d'une autre année."}
        scen["background"] = {"en": "Synthetic background text. " * 6, "fr": "Texte historique synthétique. " * 6}
        scen["map_configuration"] = conf["id"]
        turns = r.randint(6, 16)
        scen["conditions"] = {
            "turns": turns, "visibility": r.randint(6, 30),
            "relief": {"value": r.choice(list(RELIEF_LEVELS)), "printed": "vallonné"},
            "zone": {"value": r.choice(ZONES), "variable": r.random() < 0.2},
            "urbanization": {"value": r.choice(URBANIZATION)},
            "road_network": {"value": r.choice(ROAD_NETWORK)},
        }
        if r.random() < 0.3:
            scen["conditions"]["visibility_changes"] = [{"turn": r.randint(2, turns), "visibility": r.randint(3, 20)}]
        sides, numbers = {}, {}
        for side in ("allied", "axis"):
            sides[side], numbers[side] = self._side(side, years[side], maps, turns)
        scen["sides"] = sides
        scen["exits"] = {"rules": [{"side": "allied", "edge": r.choice(COMPASS), "map": r.choice(maps),
                                    "counts_as_loss": False},
                                   {"side": "both", "edge": r.choice(COMPASS), "counts_as_loss": True}],
                         "otherwise_counts_as_loss": True}
        rules = []
        for k in range(r.randint(1, 4)):
            side = r.choice(["allied", "axis"])
            kind = r.choice(["die-roll-modifier", "prohibited-hexes", "start-shaken", "level-override",
                             "engineer-capable", "text-only"])
            rule: dict = {"id": f"rule-{k}", "type": kind, "side": side,
                          "text": {"en": "A special rule.", "fr": "Une règle spéciale."}}
            if kind == "die-roll-modifier":
                rule.update(roll=r.choice(["spotting", "fire", "morale", "all"]), value=r.choice([-2, -1, 1, 2]),
                            cards=r.sample(numbers[side], min(2, len(numbers[side]))))
            elif kind == "prohibited-hexes":
                rule["zone"] = self._zone(maps)
            elif kind == "start-shaken":
                rule.update(cards=r.sample(numbers[side], 1), until="first-operation")
            elif kind == "level-override":
                rule.update(level=r.randint(0, 3), map=r.choice(maps), zone=self._zone(maps))
            elif kind == "engineer-capable":
                rule.update(units=self._filter(side, numbers[side]), abilities=["clear-wire", "clear-minefields"])
            rules.append(rule)
        scen["special_rules"] = rules
        scen["victory"] = {"text": {"en": "The side with more points wins.",
                                    "fr": "Le camp qui a le plus de points l'emporte."},
                           "expression": self._victory(numbers, maps)}
        scen["designer_notes"] = {"en": "Synthetic designer notes.", "fr": "Notes du concepteur synthétiques."}
        scen["provenance"] = {"": reconstructed(), "/conditions/turns": {"source": "rulebook", "section": f"scenario {roman(n)}"},
                              "/victory/text": {"source": "rulebook", "section": f"scenario {roman(n)}"}}
        return scen

    # tables -----------------------------------------------------------------------------------
    @staticmethod
    def terrain_effects() -> dict:
        def label(en, fr):
            return {"label": {"en": en, "fr": fr}}
        return {
            "kind": "terrain-effects", "id": "terrain-effects",
            "urbanization": {"values": {"desert": {**label("desert", "désertique"), "building_hexes": "clear"},
                                        "inhabited": {**label("inhabited", "habité"), "building_hexes": "building"}},
                             "section": "3.2"},
            "zone": {"values": {"rocky": {**label("rocky", "rocailleuse"), "ground": "rocky", "entrenchment": False},
                                "sandy": {**label("sandy", "sablonneuse"), "ground": "sandy", "entrenchment": True,
                                          "spotting_modifier": 1},
                                "muddy": {**label("muddy", "boueuse"), "ground": "muddy", "entrenchment": True}},
                     "aliases": {"mountainous": "rocky", "montagneuse": "rocky", "sablonneuse (poussière)": "sandy"},
                     "section": "3.3"},
            "relief": {"values": {k: {**label(k, k), "levels": v} for k, v in RELIEF_LEVELS.items()},
                       "aliases": {"vallonné": "hills", "légèrement vallonné": "rolling"}, "section": "3.4"},
            "road_network": {"values": {
                "none": {**label("none", "aucun"), "road": "clear", "track": "clear"},
                "restricted": {**label("restricted", "restreint"), "road": "track", "track": "clear"},
                "moderate": {**label("moderate", "modéré"), "road": "road", "track": "clear"},
                "dense": {**label("dense", "dense"), "road": "road", "track": "track"}}, "section": "3.5"},
            "provenance": {"": reconstructed(), "/relief/section": {"source": "rulebook", "section": "3.4"}},
        }

    @staticmethod
    def rule_tables() -> dict:
        def mods(prefix, n):
            return [{"id": f"{prefix}-{i}", "value": (i % 5) - 2, "label": {"en": f"{prefix} {i}", "fr": f"{prefix} {i}"},
                     "section": "9.2", "cumulative": i % 3 != 0} for i in range(n)]
        ground = ["clear", "road", "track", "rocky", "sandy", "muddy", "building", "wadi"]
        return {
            "kind": "rule-tables", "id": "rule-tables",
            "combat_results": {"dice": "3d6", "columns": {
                "vehicle": [{"max": 9, "result": "miss"}, {"min": 10, "max": 12, "result": "hit"},
                            {"min": 13, "max": 15, "result": "hit+1"}, {"min": 16, "result": "destroyed"}],
                "non_vehicle": [{"max": 8, "result": "miss"}, {"min": 9, "max": 13, "result": "hit"},
                                {"min": 14, "result": "destroyed"}]}},
            "spotting_modifiers": mods("spot", 12), "fire_modifiers": mods("fire", 16),
            "morale_modifiers": mods("morale", 8),
            "range_modifiers": {"direct": [{"min": 0, "max": 2, "value": 2}, {"min": 3, "max": 6, "value": 0},
                                           {"min": 7, "value": -2}],
                                "indirect": [{"min": 0, "max": 10, "value": 0}, {"min": 11, "value": -1}]},
            "movement_costs": {"columns": ["tracked", "wheeled", "foot"],
                               "terrain": {g: {"tracked": i % 4 + 1, "wheeled": "prohibited" if g == "wadi" else i % 3 + 1,
                                               "foot": 1 if g != "building" else "all"} for i, g in enumerate(ground)}},
            "stacking": {"default": {"units": 3, "vehicles": 2}, "by_terrain": {"building": {"units": 4, "vehicles": 1}}},
            "random_conditions": {"die": "1d6", "tables": {
                "relief": {"1": "flat", "2": "flat", "3": "rolling", "4": "rolling", "5": "hills", "6": "valleys"},
                "visibility": {str(i): 6 * i for i in range(1, 7)}}},
            "flash_kill": {"green": 18, "seasoned": 17, "veteran": 16},
            "settings": {"max_turns": 99, "rounding": "up", "optional_rules": False},
            "provenance": {"": reconstructed(), "/flash_kill": {"source": "rulebook", "section": "9.35"}},
        }

    def raid_cards(self) -> dict:
        r = self.r
        cards = [{"id": f"S{i}",
                  "air_strike": {"aircraft": r.choice(["Ju 87", "Hurricane", "Kittyhawk", "CR.42"]),
                                 "count": r.randint(1, 4), "anti_vehicle": r.randint(2, 9),
                                 "anti_infantry": r.randint(2, 9), "passes": r.randint(1, 3)},
                  "bombardment": {"battery": r.choice(["25 pdr", "105 mm", "75 mm"]), "count": r.randint(1, 4),
                                  "anti_vehicle": r.randint(1, 6), "anti_infantry": r.randint(4, 12),
                                  "on_call_delay": r.randint(0, 2)},
                  "provenance": {"": reconstructed()}} for i in range(1, 21)]
        return {"kind": "raid-cards", "description": "Synthetic raid cards.", "cards": cards}


def chunks(items: list, size: int):
    for i in range(0, len(items), size):
        yield i // size, items[i:i + size]


def write(path: Path, doc: dict) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(doc, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


def generate(out: Path, seed: int = 20240601, n_units: int = 5000, n_cards: int = 2000,
             n_scenarios: int = 200, per_file: int = 100) -> dict:
    g = Generator(seed, n_units, n_cards, n_scenarios)
    g.unit_types()
    g.formation_cards()
    g.maps_and_configurations()
    scenarios = [g.scenario(n) for n in range(1, n_scenarios + 1)]

    if out.exists():
        shutil.rmtree(out)
    params = {"seed": seed, "units": n_units, "cards": n_cards, "scenarios": n_scenarios, "per_file": per_file}
    write(out / "pack.json", {
        "kind": "pack", "id": PACK_ID, "name": "Synthetic Desert Steel (benchmark)", "version": "1.0.0",
        "ruleset": "desert-steel",
        "description": "Generated by benchmarks/make_synthetic_pack.py with " + json.dumps(params, sort_keys=True),
        "license": "Generated test data.", "authors": ["sandtable benchmark"]})
    for nat in NATIONS:
        for k, part in chunks(g.units_by_nat[nat], per_file):
            write(out / "units" / f"{NATIONS[nat][0]}-{k:02d}.json",
                  {"kind": "unit-types", "description": f"Synthetic {nat} unit types, part {k}.", "units": part})
    for k, part in chunks(g.cards, per_file):
        write(out / "cards" / f"cards-{k:02d}.json",
              {"kind": "formation-cards", "description": f"Synthetic formation cards, part {k}.", "cards": part})
    write(out / "cards" / "raid-cards.json", g.raid_cards())
    for m in g.maps:
        write(out / "maps" / f"map-{m['id']}.json", m)
    write(out / "maps" / "configurations.json",
          {"kind": "map-configurations", "description": "Synthetic map configurations.",
           "configurations": g.configurations})
    write(out / "tables" / "terrain-effects.json", g.terrain_effects())
    write(out / "tables" / "rule-tables.json", g.rule_tables())
    for s in scenarios:
        write(out / "scenarios" / f"{s['id']}.json", s)
    # Hidden (sandtable skips dot files in packs): what was generated, for the benchmark.
    files = sorted(p for p in out.rglob("*.json") if not p.name.startswith("."))
    summary = {**params, "files": len(files), "bytes": sum(p.stat().st_size for p in files),
               "objects": {"unit-types": len(g.units), "formation-cards": len(g.cards), "raid-cards": 20,
                           "maps": len(g.maps), "map-configurations": len(g.configurations),
                           "scenarios": len(scenarios), "terrain-effects": 1, "rule-tables": 1}}
    write(out / ".generated.json", summary)
    return summary


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", type=Path, default=DEFAULT_OUT, help=f"pack folder to (re)create (default {DEFAULT_OUT})")
    ap.add_argument("--seed", type=int, default=20240601)
    ap.add_argument("--units", type=int, default=5000)
    ap.add_argument("--cards", type=int, default=2000)
    ap.add_argument("--scenarios", type=int, default=200)
    ap.add_argument("--per-file", type=int, default=100, help="objects per collection file")
    a = ap.parse_args(argv)
    summary = generate(a.out, a.seed, a.units, a.cards, a.scenarios, a.per_file)
    print(f"wrote {a.out}: {summary['files']} files, {summary['bytes'] / 1e6:.1f} MB, {summary['objects']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
