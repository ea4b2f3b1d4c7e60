"""Line of sight, one rule sentence at a time (§9.11-9.13, §9.14, §9.16, §17.3)."""
import pytest
from boardkit import field, level

from sandtable.rules import hexmath


def test_9_11_line_longer_than_visibility_is_blocked():
    f = field(visibility=3)
    assert f.los("A0502", "A0505").visible
    result = f.los("A0502", "A0506")
    assert not result.visible and result.section == "9.11" and "visibility" in result.reason


def test_9_11_same_and_adjacent_hexes_always_see_each_other():
    f = field({"A0504": {"colour": "l3"}, "A0505": level(0)})
    assert f.los("A0505", "A0505").spotting_number == 0
    assert f.los("A0504", "A0505").visible  # levels 3 and 0, adjacent


def test_9_12_hex_higher_than_both_units_blocks():
    f = field({"A0502": level(1), "A0504": level(2), "A0506": level(1)})
    result = f.los("A0502", "A0506")
    assert not result.visible and result.blocking == ("A0504",) and result.section == "9.12"


def test_9_12_same_level_building_at_or_above_blocks_and_lower_does_not():
    assert not field({"A0504": {"building": True}}).los("A0502", "A0506").visible
    lower = field({"A0502": level(1), "A0506": level(1), "A0504": {"building": True}})
    assert lower.los("A0502", "A0506").visible
    clear_same_level = field({"A0502": level(1), "A0504": level(1), "A0506": level(1)})
    assert clear_same_level.los("A0502", "A0506").visible


def test_9_12_building_symbol_is_clear_ground_in_the_desert():
    assert field({"A0504": {"building": True}}, urbanization="desert").los("A0502", "A0506").visible


def test_9_12_different_levels_blocked_by_hex_at_higher_units_level():
    f = field({"A0502": level(2), "A0504": level(2), "A0507": level(0)})
    result = f.los("A0502", "A0507")
    assert not result.visible and result.blocking == ("A0504",)


def test_9_12_different_levels_lower_hex_between_does_not_block():
    f = field({"A0502": level(2), "A0504": level(1), "A0505": level(1)})
    assert f.los("A0502", "A0507").visible  # target level 0 is not next to a higher hex


def test_9_12_lower_unit_behind_an_adjacent_rise_is_hidden():
    # Lower unit at 0 in 0507; the hex in front of it on the line (0506) is level 1; the
    # higher unit at level 2 in 0502 is not adjacent to 0506: blocked.
    f = field({"A0502": level(2), "A0506": level(1)})
    result = f.los("A0502", "A0507")
    assert not result.visible and result.blocking == ("A0506",)
    assert "lower unit" in result.reason


def test_9_12_rise_does_not_block_when_higher_unit_is_adjacent_to_it():
    f = field({"A0505": level(2), "A0506": level(1)})
    assert f.los("A0505", "A0507").visible


def test_9_12_rise_not_next_to_the_lower_unit_does_not_block():
    f = field({"A0502": level(2), "A0504": level(1)})
    assert f.los("A0502", "A0507").visible


def test_9_12_own_hexes_never_block():
    f = field({"A0502": {"building": True}, "A0506": {"building": True}})
    assert f.los("A0502", "A0506").visible


def _hexside_pair(f):
    """A spotter, a target and the hexside the line between them runs along."""
    for a in f.board.usable:
        for b in f.board.usable:
            for step in f.line(a, b):
                if len(step) == 2 and f.board.distance(a, b) == 2:
                    return a, b, step
    raise AssertionError("no hexside line on the test board")


def test_9_13_line_along_a_hexside_is_blocked_only_if_both_hexes_block():
    probe = field()
    a, b, (h1, h2) = _hexside_pair(probe)
    one = field({h1: {"building": True}})
    result = one.los(a, b)
    assert result.visible and result.steps[0].hexes == (h1, h2) and not result.steps[0].blocks
    other = field({h2: {"building": True}})
    assert other.los(a, b).visible  # the other side alone: not blocked either
    both = field({h1: {"building": True}, h2: {"building": True}})
    result = both.los(a, b)
    assert not result.visible and result.blocking == (h1, h2) and result.section == "9.13"


def test_hexside_lines_are_found_exactly_not_by_nudging():
    pattern = hexmath.line_pattern((2, -1))
    assert pattern.steps == (((1, -1), (1, 0)),)
    assert hexmath.line_pattern((4, -2)).steps == (((1, -1), (1, 0)), ((2, -1),), ((3, -2), (3, -1)))


def test_17_3_smoke_blocks():
    f = field()
    f.smoke = {"A0504"}
    assert not f.los("A0502", "A0506").visible


@pytest.mark.parametrize("distance,cover,number", [(8, False, 3), (4, True, 2), (3, False, 1), (4, False, 2),
                                                   (1, False, 1), (12, True, 6)])
def test_9_14_spotting_number(distance, cover, number):
    assert field().spotting_number(distance, cover) == number


def test_9_16_elevated_target_and_building_are_in_cover():
    f = field({"A0506": level(1), "A0402": {"building": True}})
    assert f.los("A0502", "A0506").cover  # higher than the spotter
    assert not f.los("A0506", "A0502").cover  # lower than the spotter
    result = f.los("A0506", "A0402")
    assert result.distance == 5 and result.cover and result.spotting_number == 3  # ceil(5/2)


def test_line_policies_differ_only_where_a_sample_falls_on_a_hexside():
    # (-4, 1): the line crosses the side between (-2, 0) and (-2, 1) at its midpoint.
    exact = hexmath.line_pattern((-4, 1), "exact").steps
    sampled = hexmath.line_pattern((-4, 1), "sampled").steps
    assert exact == (((-1, 0),), ((-2, 1),), ((-2, 0),), ((-3, 1),))  # through both hexes' interiors
    assert sampled == (((-1, 0),), ((-2, 0), (-2, 1)), ((-3, 1),))
    for v in hexmath.within((0, 0), 6):  # on straight lines and true hexside lines they agree
        if v != (0, 0) and (0 in v or v[0] == -v[1] or abs(v[0]) == 2 * abs(v[1])):
            assert hexmath.line_pattern(v, "exact") == hexmath.line_pattern(v, "sampled")


def test_unknown_policy_is_an_error():
    with pytest.raises(ValueError):
        hexmath.line_pattern((3, 0), "nudged")


def test_9_11_9_13_the_line_is_straight_and_only_an_exact_hexside_is_spared(model):
    # §9.11: "Une ligne de visée est une ligne droite, rectiligne et uniforme, qui part du centre de
    # l'hex. [...] pour aboutir au centre de l'hex. dans lequel se trouve la cible." §9.13: "Si une ligne
    # de visée passe exactement le long d'un côté d'hex., la ligne de visée ne sera pas bloquée, sauf à ce
    # que les deux hexes jouxtant le côté d'hex. [...] contiennent eux aussi un terrain bloquant." A line
    # that crosses a hexside at an angle enters both hexes (issue #16 item 1): the default policy is
    # "exact"; "sampled" (one hex per hex of distance) stays a named option for mods.
    from sandtable.rules.desert_steel.battlefield import Battlefield
    f = Battlefield.for_scenario(model, model.scenario("XIII"))
    assert f.los_policy == "exact"
    for a, b, through in (("B2523", "B2616", "B2620"), ("B2108", "B2216", "B2212")):
        result = f.los(a, b)
        assert not result.visible and result.blocking == (through,), (a, b)
    sampled = Battlefield.for_scenario(model, model.scenario("XIII"))
    sampled.tables = {**sampled.tables, "settings": {**sampled.settings, "line_of_sight_policy": "sampled"}}
    assert sampled.los("B2523", "B2616").visible  # the old reading skipped B2620


def test_the_visibility_table_follows_the_policy(model):
    from sandtable.rules.desert_steel.battlefield import Battlefield
    from sandtable.rules.desert_steel.visibility import VisibilityTable
    f = Battlefield.for_scenario(model, model.scenario("XIII"))
    f.visibility = 8
    table = VisibilityTable(f)
    assert not table.visible("B2523", "B2616") and not table.visible("B2616", "B2523")
    assert table.visible("B2412", "B2011") and not table.visible("B2412", "B2111")


def test_a_mod_names_the_policy_and_only_a_known_one(tmp_path):
    import json

    from sandtable.rules.catalog import load_catalog
    from sandtable.rules.desert_steel.battlefield import Battlefield
    (tmp_path / "pack.json").write_text(json.dumps({
        "kind": "pack", "id": "los-mod", "name": "LOS mod", "version": "0.1.0", "ruleset": "desert-steel",
        "depends_on": [{"id": "desert-steel", "version": ">=1.0,<2"}], "description": "sampled lines",
        "license": "CC0-1.0", "authors": ["t"]}))

    def mod(policy):
        (tmp_path / "overrides.json").write_text(json.dumps({"kind": "overrides", "description": "x", "overrides": [
            {"target": {"kind": "rule-tables", "id": "desert-steel"}, "reason": "house rule", "patch": [
                {"op": "replace", "path": "/settings/line_of_sight_policy", "value": policy}]}]}))
        return load_catalog([tmp_path])

    catalog = mod("sampled")
    assert not catalog.errors
    field = Battlefield.for_scenario(catalog.model, catalog.model.scenario("XIII"))
    assert field.los_policy == "sampled" and field.los("B2523", "B2616").visible
    assert any("line_of_sight_policy" in f.message for f in mod("nudged").findings)
