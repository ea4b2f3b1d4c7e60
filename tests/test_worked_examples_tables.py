"""Every worked example of the Desert Steel rulebook, recomputed from the pack's tables.

Each test reads the reference pack's JSON (rule tables, terrain effects, raid cards and,
when they exist, unit types and formation cards), rebuilds the example's numbers from those
values and checks the result the rulebook prints. The printed dice rolls, distances and
experience levels are the example's inputs; everything else comes from the data, so a
changed modifier, band edge or counter value makes the matching test fail.

Unit and card values: when the pack does not (yet) hold a unit type or card, the helpers
fall back to the number the example itself states (marked ``example=`` at each call).
"""
from __future__ import annotations

import json
import math
from functools import lru_cache
from pathlib import Path

import pytest

PACK = Path(__file__).parents[1] / "data/desert-steel"


# ----------------------------------------------------------------------------- helpers

def _load(rel: str) -> dict:
    return json.loads((PACK / rel).read_text(encoding="utf-8"))


@lru_cache(maxsize=None)
def tables() -> dict:
    return _load("tables/rule-tables.json")


@lru_cache(maxsize=None)
def terrain() -> dict:
    return _load("tables/terrain-effects.json")


@lru_cache(maxsize=None)
def raid_cards() -> dict:
    return {c["id"]: c for c in _load("raid-cards.json")["cards"]}


def _documents(folder: str, kind: str) -> list[dict]:
    docs = []
    for path in sorted((PACK / folder).glob("*.json")) if (PACK / folder).is_dir() else []:
        try:
            doc = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        if isinstance(doc, dict) and doc.get("kind") == kind:
            docs.append(doc)
    return docs


@lru_cache(maxsize=None)
def unit_types() -> dict[str, dict]:
    return {u["id"]: u for d in _documents("units", "unit-types") for u in d.get("units", [])}


@lru_cache(maxsize=None)
def formation_cards() -> dict[int, dict]:
    return {c["number"]: c for d in _documents("cards", "formation-cards") for c in d.get("cards", [])}


def unit_value(unit_id: str, field: str, *, example):
    """The pack's value of a unit type's field; the example's stated value when the pack lacks it."""
    unit = unit_types().get(unit_id)
    if unit is None or field not in unit:
        return example
    return unit[field]


def find_unit(*, example: dict, **wanted) -> dict:
    """First unit type whose fields match ``wanted`` (substring match on strings), else the example's numbers."""
    for unit in unit_types().values():
        if all(_matches(unit.get(k), v) for k, v in wanted.items()):
            return unit
    return example


def _matches(value, wanted) -> bool:
    if isinstance(wanted, str):
        return isinstance(value, str) and wanted.lower() in value.lower()
    return value == wanted


def card_variant(number: int, year: int, *, example: dict) -> dict:
    """A formation card's variant for a year (the example's numbers if the card is not in the pack)."""
    card = formation_cards().get(number)
    if not card or "variants" not in card:
        return example
    variants = card["variants"]
    if str(year) in variants:
        return variants[str(year)]
    earlier = sorted((int(y) for y in variants if int(y) <= year), reverse=True)
    return variants[str(earlier[0])] if earlier else example


def modifier(kind: str, modifier_id: str) -> float:
    """Value of a modifier by id in spotting_modifiers / fire_modifiers / morale_modifiers."""
    for entry in tables()[kind]:
        if entry["id"] == modifier_id:
            return entry["value"]
    raise AssertionError(f"{kind} has no modifier {modifier_id!r}")


def spot(*ids: str) -> float:
    return sum(modifier("spotting_modifiers", i) for i in ids)


def fire(*ids: str) -> float:
    return sum(modifier("fire_modifiers", i) for i in ids)


def experience(card_number: int, year: int, *, example: str) -> str:
    """Experience of a formation card in a year (the example's statement when the card is missing)."""
    return card_variant(card_number, year, example={"experience": example})["experience"]


def experience_fire(firer: str | None, target: str | None) -> float:
    """The experience modifiers the examples show on fire rolls: Green firer -1, Veteran target -1."""
    return (fire("firer_green") if firer == "green" else 0) + (fire("target_veteran") if target == "veteran" else 0)


def experience_spot(spotter: str | None, target: str | None) -> float:
    return (spot("spotter_green") if spotter == "green" else 0) + (spot("target_veteran") if target == "veteran" else 0)


def morale(modifier_id: str) -> float:
    return modifier("morale_modifiers", modifier_id)


def setting(key: str):
    settings = tables()["settings"]
    assert key in settings, f"rule tables lack setting {key!r}"
    return settings[key]


def crt(column: str, total: int) -> str:
    """Look a modified 3d6 total up in a CRT column."""
    for band in tables()["combat_results"]["columns"][column]:
        if band.get("min", -math.inf) <= total <= band.get("max", math.inf):
            return band["result"]
    raise AssertionError(f"no band of the {column} column holds {total}")


def range_modifier(kind: str, distance: int) -> int:
    for band in tables()["range_modifiers"][kind]:
        if band.get("min", 0) <= distance <= band.get("max", math.inf):
            return band["value"]
    raise AssertionError(f"no {kind} range band holds {distance}")


def _round(value: float, how: str) -> int:
    return math.ceil(value) if how == "up" else math.floor(value)


def spotting_number(distance: int, *, cover: bool) -> int:
    divisor = setting("spotting_divisor_cover" if cover else "spotting_divisor_open")
    return _round(distance / divisor, setting("spotting_number_rounding"))


def spotted(roll: int, number: int, mods: float) -> bool:
    """§9.14: 1d6 + modifiers >= spotting number."""
    if roll == 1 and setting("spotting_natural_one_fails"):
        return False
    return roll + mods >= number


def flash_kill(result: str, *, target_is_vehicle: bool, unmodified: int, experience: str) -> bool:
    return result == "destroyed" and target_is_vehicle and unmodified >= tables()["flash_kill"][experience]


def morale_passes(roll: int, mods: float, value: int) -> bool:
    """§10.1: 2d6 + modifiers <= morale."""
    return roll + mods <= value


# ----------------------------------------------------------------------------- §9.14 / §9.42 / §16.37 spotting

def test_9_14_spotting_numbers():
    # Every distance a worked example turns into a spotting number.
    assert spotting_number(8, cover=False) == 3   # §9.42 first fire: 8 hexes / 3 = 3
    assert spotting_number(4, cover=True) == 2    # §9.42 second fire: 4 hexes / 2 = 2 (target in cover)
    assert spotting_number(3, cover=False) == 1   # §16.37 Matilda B/4
    assert spotting_number(4, cover=False) == 2   # §16.37 Carriers QG/6
    assert setting("spotting_same_hex_automatic") is True


# §9.42 is a 1942 situation (Shermans, Pz III J): C/15 = card 429, A/15 = card 427, A/1 = card 161.
def _c15() -> str:
    return experience(429, 1942, example="green")


def _a15() -> str:
    return experience(427, 1942, example="seasoned")  # not stated; no Green modifier is applied to it


def _a1() -> str:
    return experience(161, 1942, example="veteran")


def test_9_42_first_opportunity_spotting():
    # Sherman C/15 (Green) at 8 hexes spots the moving Veteran Pz III J: -1 Vet, -1 Green, -1 (moving / opportunity fire).
    mods = experience_spot(_c15(), _a1()) + spot("moving_target")
    assert mods == -3
    assert spotted(6, spotting_number(8, cover=False), mods)


def test_9_42_second_opportunity_spotting():
    # Sherman A/15 at 4 hexes, target in cover: -1 Vet, -1 moving target; roll 4 -> spotted.
    mods = experience_spot(_a15(), _a1()) + spot("moving_target")
    assert mods == -2
    assert spotted(4, spotting_number(4, cover=True), mods)


def test_16_37_bombardment_spotting_matilda_automatic():
    # B/4 Matilda, 3 hexes, open: 'il lui suffit de faire un 1' -> every roll spots.
    number = spotting_number(3, cover=False)
    mods = experience_spot(None, experience(433, 1941, example="seasoned"))  # not Veteran: no modifier printed
    assert number == 1 and mods == 0
    assert all(spotted(roll, number, mods) for roll in range(1, 7))


def test_16_37_bombardment_spotting_carriers_missed():
    # QG/6 Carriers (card 410, 1941), 4 hexes, open, Veteran: needs 3, rolls 2 -> missed, marker removed.
    number, mods = spotting_number(4, cover=False), experience_spot(None, experience(410, 1941, example="veteran"))
    assert number - mods == 3
    assert not spotted(2, number, mods)


def test_16_37_bombardment_spotting_infantry_in_cover_spotted():
    # B/6 infantry (card 412, 1941), 4 hexes, in cover, Veteran: needs 3, rolls 5 -> spotted.
    number, mods = spotting_number(4, cover=True), experience_spot(None, experience(412, 1941, example="veteran"))
    assert number - mods == 3
    assert spotted(5, number, mods)


# ----------------------------------------------------------------------------- §9.42 opportunity fire

def _sherman_av() -> int:
    return unit_value("gb-sherman", "anti_vehicle", example=7)


def _pz_iii_j_defense() -> int:
    return unit_value("de-pz-iii-j", "defense", example=4)


def test_9_42_first_opportunity_fire_hit_plus_1():
    differential = _sherman_av() - _pz_iii_j_defense()
    assert differential == 3
    # -2 moving, -1 Veteran target, -1 Green firer; 8 hexes: no range modifier printed.
    net = differential + fire("moving_target") + experience_fire(_c15(), _a1()) + range_modifier("direct", 8)
    assert net == -1
    result = crt("vehicle", 14 + net)
    assert result == "hit+1"
    assert not flash_kill(result, target_is_vehicle=True, unmodified=14, experience="green")
    # Hit +1: the target adds 1 to its morale roll.
    assert morale("hit_plus_x") * 1 == 1
    sherman_range = unit_value("gb-sherman", "range", example=None)
    if sherman_range is not None:
        assert sherman_range >= 8, "C/15 fires at 8 hexes"


def test_9_42_second_fire_destroyed_flash_kill():
    differential = _sherman_av() - _pz_iii_j_defense()
    net = (differential + fire("moving_target", "target_in_cover") + experience_fire(_a15(), _a1())
           + range_modifier("direct", 4))
    assert net == 0
    result = crt("vehicle", 17 + net)
    assert result == "destroyed"
    # A/15's experience is not stated: an unmodified 17 is a flash kill whatever it is.
    assert flash_kill(result, target_is_vehicle=True, unmodified=17, experience=_a15())
    for level in ("green", "seasoned", "veteran"):
        assert flash_kill(result, target_is_vehicle=True, unmodified=17, experience=level)


def test_9_35_flash_kill_thresholds():
    fk = tables()["flash_kill"]
    assert (fk["green"], fk["seasoned"], fk["veteran"]) == (15, 12, 10)
    assert fk["green"] > fk["seasoned"] > fk["veteran"]
    assert setting("flash_kills_per_unit_per_turn") == 1


# ----------------------------------------------------------------------------- §10.12 / §18.5 morale

def test_10_12_tiger_morale():
    # Card 178 (501) in 1943: morale 9, loss modifier +2; one Tiger already lost; Hit +1; roll 7.
    variant = card_variant(178, 1943, example={"morale": 9, "loss_modifier": 2})
    mods = morale("hit_plus_x") * 1 + math.ceil(morale("per_loss") * variant["loss_modifier"] * 1)
    assert mods == 3
    assert 7 + mods == 10
    assert not morale_passes(7, mods, variant["morale"])  # 10 > 9: suppressed


def test_18_5_undermanned_a9_modifier():
    # Supercharge: A/9 (card 419, 1942) loses its 2 Crusader CS, counted as destroyed: +2 = 2 x (+1).
    variant = card_variant(419, 1942, example={"loss_modifier": 1,
                                               "units": [{"type": "gb-crusader-cs", "count": 2}]})
    removed = sum(u["count"] for u in variant["units"] if u["type"] == "gb-crusader-cs")
    assert removed == 2
    total = morale("per_loss") * variant["loss_modifier"] * removed
    assert math.ceil(total) == 2


def test_10_11_flank_or_same_hex_is_a_penalty():
    # §10.11 prints -2; every other passage (§8.21, §14.2, §15.13, §15.24) makes it a penalty (+2).
    assert morale("flank_or_same_hex") == setting("flank_or_same_hex_morale_modifier") == 2
    assert morale("minefield") == morale("flank_or_same_hex")


# ----------------------------------------------------------------------------- §13.28 indirect fire and fire zones

def _mortar(calibre: str, example: dict) -> dict:
    return find_unit(name=calibre, nationality="italian", example=example)


def _indirect_distance_with(value: int, max_range: int | None) -> int:
    """A distance (1..the firer's range) at which the indirect schedule gives ``value``."""
    top = max_range if max_range is not None else 99
    for d in range(1, top + 1):
        if range_modifier("indirect", d) == value:
            return d
    raise AssertionError(f"no distance within range {top} gives an indirect range modifier of {value}")


def _experience_13_28(firer_card: int) -> float:
    # A 1942 situation (the US A/3, card 330, exists from 1942); firers QG/65 (505) and 1/65 (506).
    # The example applies no experience modifier, so the firer is not Green and A/3 not Veteran.
    return experience_fire(experience(firer_card, 1942, example="seasoned"),
                           experience(330, 1942, example="green"))


def _us_infantry_defense() -> int:
    return unit_value("us-infantry", "defense", example=1)


def test_13_28_mortar_fire_zone_81mm_first_target_hit_plus_2():
    # Fire-zone record: 81 mm mortar AI 7 / AV 1; target A/3 infantry (defense 1).
    mortar = _mortar("81", {"anti_infantry": 7, "anti_vehicle": 1})
    assert (mortar["anti_infantry"], mortar["anti_vehicle"]) == (7, 1)
    differential = mortar["anti_infantry"] - _us_infantry_defense()
    assert differential == 6
    rng = range_modifier("indirect", _indirect_distance_with(-3, mortar.get("range")))
    net = differential + rng + _experience_13_28(505)
    assert net == 3
    assert crt("non_vehicle", 12 + net) == "hit+2"


def test_13_28_mortar_fire_zone_second_unit_hit():
    mortar = _mortar("81", {"anti_infantry": 7, "anti_vehicle": 1})
    rng = range_modifier("indirect", _indirect_distance_with(-3, mortar.get("range")))
    net = mortar["anti_infantry"] - _us_infantry_defense() + rng + fire("fire_zone") + _experience_13_28(505)
    assert net == 1
    assert crt("non_vehicle", 9 + net) == "hit"


def test_13_28_mortar_fire_zone_45mm_hit_plus_4():
    mortar = _mortar("45", {"anti_infantry": 3, "anti_vehicle": 2})
    assert (mortar["anti_infantry"], mortar["anti_vehicle"]) == (3, 2)
    rng = range_modifier("indirect", _indirect_distance_with(0, mortar.get("range")))
    net = mortar["anti_infantry"] - _us_infantry_defense() + rng + _experience_13_28(506)
    assert net == 2
    assert crt("non_vehicle", 16 + net) == "hit+4"


def test_13_28_self_spotting_bonus():
    assert fire("self_spotting") == 3


# ----------------------------------------------------------------------------- §15.13 minefield

def test_15_13_minefield_attack():
    differential = setting("minefield_anti_vehicle") - unit_value("de-pz-iv-e", "defense", example=4)
    assert differential == 8
    # The differential is the only modifier of a minefield attack.
    result = crt("vehicle", 12 + differential)
    assert result == "destroyed"


# ----------------------------------------------------------------------------- §16.23 air strike (card S7)

def _s7() -> dict:
    card = raid_cards()["S7"]["air_strike"]
    assert "Beaufighter" in card["aircraft"] and card["count"] == 9
    return card


def test_16_23_air_strike_markers_all_attack():
    s7 = _s7()
    assert s7["passes"] == 3
    rolls = [6, 4, 3]  # hexes 3005, 3103, 3104
    assert all(r != setting("air_strike_abort_roll") for r in rolls)


def test_16_23_air_strike_mg_section():
    # C/33 MG section, Veteran, defense 1: 15 - 1 - 1 = +13; roll 9 -> 22 Destroyed (non-vehicle column).
    net = (_s7()["anti_infantry"] - unit_value("de-mg", "defense", example=1)
           + experience_fire(None, experience(177, 1941, example="veteran")))
    assert net == 13
    assert crt("non_vehicle", 9 + net) == "destroyed"


def test_16_23_air_strike_pz_iii_h():
    # C/1 Pz III H, Veteran, defense 4: 8 - 4 - 1 = +3; roll 10 -> 13 Hit +1 (vehicle column).
    net = (_s7()["anti_vehicle"] - unit_value("de-pz-iii-h", "defense", example=4)
           + experience_fire(None, experience(163, 1941, example="veteran")))
    assert net == 3
    assert crt("vehicle", 10 + net) == "hit+1"


def test_16_23_air_strike_sdkfz_222():
    # A/33 SdKfz 222, Veteran, lightly armoured (defense 2), attacked with AI 15:
    # 15 - 2 = +13, -1 Veteran, -2 AI fire against a lightly armoured vehicle = +10; roll 8 -> 18 Destroyed.
    assert unit_value("de-sdkfz-222", "lightly_armored", example=True) is True
    net = (_s7()["anti_infantry"] - unit_value("de-sdkfz-222", "defense", example=2)
           + experience_fire(None, experience(175, 1941, example="veteran"))
           + fire("anti_infantry_vs_lightly_armored"))
    assert net == 10
    assert crt("vehicle", 8 + net) == "destroyed"  # lightly armoured: vehicle column (§13.12)


def test_16_1_raid_card_s8_printed():
    s8 = raid_cards()["S8"]
    air, bomb = s8["air_strike"], s8["bombardment"]
    assert (air["aircraft"], air["count"], air["anti_vehicle"], air["anti_infantry"], air["passes"]) == \
        ("Beaufighters / Stukas", 9, 10, 16, 3)
    assert (bomb["battery"], bomb["count"], bomb["anti_vehicle"], bomb["anti_infantry"], bomb["on_call_delay"]) == \
        ("Medium Howitzer Battery", 1, 0, 8, 1)


def test_2_3_nine_raid_cards():
    assert sorted(raid_cards(), key=lambda s: int(s[1:])) == [f"S{i}" for i in range(1, 10)]
    delays = {c["bombardment"]["on_call_delay"] for c in raid_cards().values()}
    assert delays == {0, 1, 2}  # §16.35-§16.36: immediate, one or two turns


# ----------------------------------------------------------------------------- §13.34 transport

def _can_carry(capacity: str, passengers: list[str]) -> bool:
    """passengers: 'infantry', 'fo', 'artillery' (non-towed) or 'towed'."""
    total = setting(f"transport_{capacity}_capacity")
    max_infantry = setting(f"transport_{capacity}_max_infantry")
    can_tow = setting(f"transport_{capacity}_can_tow")
    if len(passengers) > total:
        return False
    if passengers.count("infantry") > max_infantry:
        return False
    return can_tow or "towed" not in passengers


def _capacity(unit_id: str, example: str) -> str:
    transport = unit_value(unit_id, "transport", example=None)
    return transport["capacity"] if transport else example


def test_13_34_transport_capacities_truck():
    truck = _capacity("de-truck", "truck")
    assert _can_carry(truck, ["infantry"] * 3 + ["towed"])
    assert _can_carry(truck, ["towed"] * 4)
    assert not _can_carry(truck, ["infantry"] * 4)


def test_13_34_transport_capacities_halftrack():
    halftrack = _capacity("de-sdkfz-251", "light")
    assert _can_carry(halftrack, ["towed", "infantry"])
    assert _can_carry(halftrack, ["towed", "towed"])
    assert not _can_carry(halftrack, ["infantry", "infantry"])


def test_13_34_transport_capacities_motorcycle():
    motorcycle = _capacity("de-motorcycle", "motorcycle")
    assert _can_carry(motorcycle, ["infantry", "fo", "artillery"])
    assert not _can_carry(motorcycle, ["towed"])


# ----------------------------------------------------------------------------- §8.52 stacking, §12.14 / notes

def test_8_52_stacking_example():
    # 3 Italian M13/40 and 3 British A9 in one hex: each player is within the limit; a 4th vehicle is not.
    limit = tables()["stacking"]["default"]
    assert 3 <= limit["vehicles"] and 3 <= limit["units"]
    assert 4 > limit["vehicles"]
    assert (limit["units"], limit["vehicles"]) == (6, 3)


def test_players_notes_move_and_fire_into_enemy_hex_plus_4():
    # 'on ajoute 6 points pour un tir dans un même hex. et on retranche 2 points pour le tir en mouvement'
    assert fire("same_hex", "move_and_fire") == 4
    assert range_modifier("direct", 0) == fire("same_hex")
    assert range_modifier("direct", 1) == fire("adjacent_anti_vehicle")
    assert setting("adjacent_anti_infantry_range_modifier") == fire("adjacent_anti_infantry")


def test_8_climb_and_move_and_fire_rounding():
    # §8: climbing costs half the printed MP rounded up; §9.52: move-and-fire half rounded down.
    def climb(mp):
        return _round(mp * setting("climb_cost_fraction"), setting("climb_cost_rounding"))

    def move_fire(mp):
        return _round(mp * setting("move_and_fire_mp_fraction"), setting("move_and_fire_mp_rounding"))

    tiger_mp = unit_value("de-pz-vi-e", "movement", example=4)  # §2.11 prints 4
    assert climb(5) == 3 and move_fire(5) == 2
    assert climb(tiger_mp) == move_fire(tiger_mp) == tiger_mp // 2


# ----------------------------------------------------------------------------- CRT shape

@pytest.mark.parametrize("column", ["vehicle", "non_vehicle"])
def test_crt_bands_cover_every_total_and_grow(column):
    bands = tables()["combat_results"]["columns"][column]
    assert "min" not in bands[0] and "max" not in bands[-1]
    for before, after in zip(bands, bands[1:]):
        assert after["min"] == before["max"] + 1
    order = [b["result"] for b in bands]

    def rank(result):
        if result == "miss":
            return 0
        if result == "hit":
            return 1
        if result == "destroyed":
            return 100
        return 1 + int(result.split("+")[1])

    ranks = [rank(r) for r in order]
    assert ranks == sorted(ranks) and len(set(ranks)) == len(ranks)
    assert order[0] == "miss" and order[-1] == "destroyed"


# ----------------------------------------------------------------------------- §3 battle conditions

# Every word the 15 scenarios print on their "Conditions du combat" line, with the English the digest uses.
SCENARIO_WORDS = {
    "relief": ["plat", "variable *", "variable *plat", "légèrement vallonné", "vallonné",
               "flat", "slightly hilly", "hilly"],
    "zone": ["Zone sablonneuse", "sablonneuse", "sablonneuse (poussière)", "Zone sablonneuse (poussière)",
             "Zone rocheuse", "rocheuse", "Zone montagneuse", "montagneuse",
             "sandy", "sandy (dust)", "rocky", "mountainous"],
    "urbanization": ["désertique", "inhabitée", "desert", "inhabited", "uninhabited"],
    "road_network": ["inexistant", "aucun", "restreint", "modéré", "dense",
                     "none", "restricted", "moderate"],
}


@pytest.mark.parametrize("condition", sorted(SCENARIO_WORDS))
def test_18_2_scenario_condition_words_have_aliases(condition):
    table = terrain()[condition]
    for word in SCENARIO_WORDS[condition]:
        assert word in table["aliases"], f"{condition}: no alias for {word!r}"
        assert table["aliases"][word] in table["values"]


def test_3_4_relief_levels_contract():
    relief = terrain()["relief"]
    assert relief["aliases"]["vallonné"] == "hills"
    assert relief["aliases"]["légèrement vallonné"] == "rolling"
    levels = {name: value["levels"] for name, value in relief["values"].items()}
    assert levels == {
        "flat": {"sand": 0, "tan": 0, "ochre": 0, "brown": 0},
        "rolling": {"sand": 0, "tan": 1, "ochre": 1, "brown": 2},
        "hills": {"sand": 0, "tan": 1, "ochre": 2, "brown": 3},
        "valleys": {"sand": 0, "tan": 0, "ochre": 1, "brown": 2},
        "wadis": {"sand": 1, "tan": 1, "ochre": 0, "brown": 0},
    }


def test_3_11_random_relief_roll_5_is_hilly():
    rolled = tables()["random_conditions"]["tables"]["relief"]["5"]
    assert rolled == terrain()["relief"]["aliases"]["vallonné"]


def test_3_11_random_conditions_give_known_values():
    for condition, table in tables()["random_conditions"]["tables"].items():
        assert sorted(table) == ["1", "2", "3", "4", "5", "6"]
        assert set(table.values()) <= set(terrain()[condition]["values"])


def test_13_41_no_entrenchment_in_rocky():
    zone = terrain()["zone"]
    assert zone["values"][zone["aliases"]["rocheuse"]]["entrenchment"] is False
    assert zone["values"][zone["aliases"]["montagneuse"]]["entrenchment"] is False
    assert zone["values"][zone["aliases"]["sablonneuse"]]["entrenchment"] is True


def test_8_movement_costs_cover_every_ground():
    costs = tables()["movement_costs"]
    for value in terrain()["zone"]["values"].values():
        row = costs["terrain"][value["ground"]]
        assert set(row) == set(costs["columns"])
        assert row["non_vehicle"] == 1  # infantry MA 1 (§12.12)
    assert costs["terrain"]["wire"] == {"vehicle": "all", "non_vehicle": "prohibited"}  # §15.32
