"""The bundled Desert Steel pack: complete, clean, and faithful to what the rulebook prints."""
import json


from sandtable.cli import main
from sandtable.rules.desert_steel.model import CombatCard, CommandCard


def cli_json(capsys, *argv):
    assert main(list(argv)) == 0
    return json.loads(capsys.readouterr().out)


def test_validates_with_no_errors_and_no_warnings(catalog):
    assert [f.line_text() for f in catalog.findings] == []


def test_79_formation_cards_by_nationality(model):
    by_nat = {}
    for card in model.cards.values():
        by_nat[card.nationality] = by_nat.get(card.nationality, 0) + 1
    assert by_nat == {"british": 27, "german": 20, "us": 17, "italian": 15}  # §2.2
    assert set(range(160, 180)) | set(range(321, 338)) | set(range(409, 436)) | set(range(500, 515)) == set(model.cards)


def test_printed_cards_and_counters(model):
    c163 = model.cards[163]  # §6.2
    assert isinstance(c163, CombatCard) and c163.designation == "C/1" and c163.nationality_number == 1
    v = c163.variant(1941)
    assert (v.c3, v.morale, v.loss_modifier, v.unit_total) == ("C", 10, 1, 4)
    c409 = model.cards[409]  # §6.3
    assert isinstance(c409, CommandCard) and c409.c3 == "C"
    assert [c.number for c in c409.subordinates] == [410, 411, 412, 413, 414]
    tiger = model.unit_types["de-pz-vi-e"]  # §2.11
    assert (tiger.range, tiger.movement, tiger.anti_vehicle, tiger.defense, tiger.anti_infantry) == (10, 4, 10, 9, 4)
    gun = model.unit_types["gb-25pdr"]  # §12.3
    assert (gun.range, gun.indirect_fire, gun.anti_vehicle, gun.defense, gun.anti_infantry, gun.towed,
            gun.spotter) == (80, True, 4, 2, 8, True, True)
    fo = model.unit_types["de-fo"]  # §12.2
    assert (fo.anti_vehicle, fo.defense, fo.anti_infantry, fo.spotter) == (None, 0, None, True)


def test_raid_cards_s1_to_s9_with_s8_as_printed(model):
    assert sorted(model.raid_cards) == [f"S{i}" for i in range(1, 10)]
    s8 = model.raid_cards["S8"]  # §16.1
    assert (s8.air_strike["count"], s8.air_strike["anti_vehicle"], s8.air_strike["anti_infantry"],
            s8.air_strike["passes"]) == (9, 10, 16, 3)
    assert (s8.bombardment["anti_vehicle"], s8.bombardment["anti_infantry"], s8.bombardment["on_call_delay"]) == (0, 8, 1)


def test_scenario_list(capsys):
    rows = cli_json(capsys, "scenarios", "--json")
    assert [r["number"] for r in rows] == ["I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X", "XI",
                                           "XII", "XIII", "XIV", "XV"]
    assert [r["rules"] for r in rows] == ["basic"] * 5 + ["advanced"] * 10
    assert set(rows[0]) == {"id", "number", "name", "year", "rules", "turns"}


SHOW_KEYS = {"id", "number", "name", "rules", "year", "year_override", "layout", "north", "turns", "visibility",
             "conditions", "sides"}
SIDE_KEYS = {"setup_cards", "reinforcements", "smoke", "air_strikes", "preplanned_bombardments",
             "on_call_bombardments", "trucks", "motorcycles", "halftracks", "wire", "entrenchments", "bunkers",
             "minefields"}


def test_show_scenario_by_roman_number_and_id(capsys):
    by_number = cli_json(capsys, "show", "scenario", "I", "--json")
    by_id = cli_json(capsys, "show", "scenario", "beda-fomm", "--json")
    assert by_number == by_id
    assert set(by_number) == SHOW_KEYS and set(by_number["sides"]["allied"]) == SIDE_KEYS
    assert set(by_number["conditions"]) == {"relief", "zone", "urbanization", "road_network"}
    assert (by_number["turns"], by_number["visibility"], by_number["layout"], by_number["north"]) == \
        (15, 10, [["A"], ["B"]], "up")
    assert by_number["sides"]["allied"]["setup_cards"] == [418, 419]
    assert by_number["sides"]["allied"]["reinforcements"] == [{"turn": 6, "cards": [420]}, {"turn": 8, "cards": [421]}]
    assert by_number["sides"]["axis"]["reinforcements"] == [{"turn": 5, "cards": [510, 511]}]


def test_show_scenario_advanced_counts(capsys):
    tobruk = cli_json(capsys, "show", "scenario", "VII", "--json")  # scenario VII as printed
    allied, axis = tobruk["sides"]["allied"], tobruk["sides"]["axis"]
    assert (allied["entrenchments"], allied["bunkers"], allied["wire"], allied["minefields"]) == (15, 3, 18, 20)
    assert (allied["smoke"], axis["smoke"], allied["on_call_bombardments"], axis["on_call_bombardments"]) == (6, 4, 2, 3)
    assert (axis["air_strikes"], allied["trucks"], axis["trucks"], axis["halftracks"], axis["motorcycles"]) == (1, 3, 4, 4, 2)
    assert tobruk["year"] == 1941 and tobruk["turns"] == 20 and tobruk["visibility"] == 6
    sidi = cli_json(capsys, "show", "scenario", "V", "--json")
    assert sidi["year_override"] == {"allied": 1942} and sidi["year"] == 1943


def test_show_unknown_scenario_is_a_usage_error(capsys):
    assert main(["show", "scenario", "XVI", "--json"]) == 2


def test_provenance_counts_and_listing(capsys):
    out = cli_json(capsys, "provenance", "--json")
    assert out["total"]["rulebook"] > 0 and out["total"]["reconstructed"] > 0 and out["total"]["example"] > 0
    assert "none" not in out["total"]  # every value has a source
    listing = cli_json(capsys, "provenance", "--list", "--json")["values"]
    assert listing and all(v["file"] and v["line"] for v in listing)
    tiger_range = [v for v in listing if v["id"] == "de-pz-vi-e" and v["path"] == "/range"]
    assert tiger_range == []  # printed in §2.11: not reconstructed


def test_lightfoot_visibility_falls_at_nightfall(model):
    from sandtable.rules.desert_steel.battlefield import visibility_on
    s = model.scenario("XIII")
    assert [visibility_on(s, t) for t in range(1, 16)] == [8, 8, 8, 8, 8, 7, 6, 5, 4, 3, 3, 3, 3, 3, 3]


def test_every_setup_and_entry_is_a_zone_expression(model):
    from sandtable.rules.desert_steel.battlefield import Battlefield
    for s in model.scenarios.values():
        field = Battlefield.for_scenario(model, s)
        for side in s.sides.values():
            for g in side.groups:
                zone = g.get("setup") or g.get("enter", {}).get("zone")
                if zone is not None:
                    assert field.zone(zone), (s.id, g["cards"])
            for r in side.reinforcements:
                if "zone" in r:
                    assert field.zone(r["zone"]), (s.id, r["cards"])
