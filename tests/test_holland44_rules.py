"""Holland '44 rules on small boards drawn here: stacking (H§6), zones of control and ZOC bonds
(H§7), supply lines (H§18), arrivals and entry areas (H§19), placements, bridges (H§5) and
victory points (H§26)."""
from __future__ import annotations

import pytest
from holland44_kit import board, counter, model, placed, position, reporter

from sandtable.rules.holland44.setup_checks import check_setup
from sandtable.rules.holland44.stacking import stack
from sandtable.rules.holland44.supply import trace
from sandtable.rules.holland44.zoc import bonds_of as position_bonds, zones


def codes(map_doc, counters, units, turn=3, stage="position", ignore=("h44-supply",), **kw) -> list[tuple]:
    """Findings of check_setup as (code, pointer, section, message); supply is left out unless asked for."""
    m = model(map_doc, counters)
    found: list = []
    check_setup(m, placed(m, units, turn, stage, **kw), reporter(found))
    return [f for f in found if f[0] not in ignore]


def boundary(col: int, rows=range(1, 11)) -> list[tuple[str, str]]:
    """Every hexside between column col and col+1 (a watercourse across the whole test map)."""
    from sandtable.rules.holland44.terrain import HollandMap
    from holland44_kit import TERRAIN
    h = HollandMap(board(), TERRAIN)
    out = []
    for r in rows:
        a = f"{col:02d}{r:02d}"
        for k in h.neighbours("T" + a):
            if int(k[1:3]) == col + 1:
                out.append((a, k[1:]))
    return out


def only(found, code):
    return [f for f in found if f[0] == code]


# --- stacking (H§6) ----------------------------------------------------------------------------

UNITS = [counter(f"a{i}") for i in range(1, 6)] + [
    counter("art1", type="artillery", steps=1), counter("art2", type="motorized-artillery", steps=1),
    counter("half1", half_battalion_of="bn1", steps=1), counter("half2", half_battalion_of="bn1", steps=1),
    counter("half3", half_battalion_of="bn2", steps=1), counter("half4", half_battalion_of="bn2", steps=1),
    counter("tank1", type="tank", steps=1), counter("tank2", type="tank", steps=1),
    counter("big1", steps=3), counter("big2", steps=3), counter("big3", steps=3),
    counter("sh1", type="supply-head", steps=1, formation="d1"), counter("sh2", type="supply-head", steps=1, formation="d1"),
    counter("unk1", side="german", unknown=True, steps=1), counter("unk2", side="german", unknown=True, steps=1),
    counter("g1", side="german"), counter("g2", side="german"), counter("g3", side="german"),
]


def stack_of(units, hex_id="0505"):
    pos = position(board(), UNITS, [(u, hex_id, {"face_down": True} if u.startswith("unk") else {}) for u in units])
    return stack(pos, "T" + hex_id, pos.model.counters[units[0]].side)


@pytest.mark.parametrize("units, regular, free", [
    (["a1", "a2", "art1"], 2, 1),  # 2 regular + 1 free-stacking (H§6.1)
    (["a1", "a2", "a3"], 3, 0),
    (["a1", "art1", "art2"], 2, 1),  # only the first free-stacking unit is free (H§6.2)
    (["a1", "half1", "half2", "art1"], 2, 1),  # two halves of one battalion count as one (H§6.3)
    (["a1", "half1", "half3"], 3, 0),  # halves of two battalions do not
    (["a1", "a2", "tank1"], 2, 1),  # a 1-step armour unit alone is free (H§6.2)
    (["a1", "tank1", "tank2"], 3, 0),  # ... but not with another armour unit
    (["a1", "a2", "sh1"], 2, 0),  # supply heads take no space (H§6.1)
])
def test_stacking_counts(units, regular, free):
    s = stack_of(units)
    assert (s.regular, s.free) == (regular, free)


def test_face_down_unknowns_take_no_space():
    s = stack_of(["g1", "g2", "unk1"])
    assert (s.regular, s.unknown, s.steps) == (2, 1, 4)


def test_overstack_is_a_warning_with_the_step_limit():
    found = codes(board(), UNITS, [("a1", "0505"), ("a2", "0505"), ("a3", "0505")])
    (f,) = only(found, "h44-overstack")
    assert f[2] == "H§6.4" and "9-step" in f[3] and f[1] == "/sides/allied/units/2/hex"
    assert not only(found, "h44-step-limit")


def test_more_than_nine_steps_are_eliminated():
    found = codes(board(), UNITS, [("big1", "0505"), ("big2", "0505"), ("big3", "0505"), ("art1", "0505")])
    (f,) = only(found, "h44-step-limit")
    assert f[2] == "H§6.4.2" and "10 allied steps" in f[3]
    assert only(found, "h44-overstack")  # 3 regular units as well


def test_one_supply_head_and_one_unknown_per_hex():
    found = codes(board(), UNITS, [("sh1", "0505"), ("sh2", "0505"), ("unk1", "0707", {"face_down": True}),
                                   ("unk2", "0707", {"face_down": True})])
    assert [(f[0], f[2]) for f in only(found, "h44-stacking")] == [("h44-stacking", "H§6.1")] * 2


def test_entry_areas_have_no_stacking_limit():
    m = board(areas={"N": ["0101", "0102"]})
    found = codes(m, UNITS, [(f"a{i}", "N") for i in range(1, 6)])
    assert not only(found, "h44-overstack") and not only(found, "h44-entry-area")


# --- zones of control (H§7.1) -------------------------------------------------------------------

def test_zoc_is_the_six_hexes_around_except_lakes_and_unbridged_major_rivers():
    pos = position(board(), UNITS, [("g1", "0505")])
    assert {k[1:] for k in zones(pos)["german"]} == {"0405", "0406", "0504", "0506", "0605", "0606"}
    m = board(hexes={"0504": "lake"}, water=[("major-river", [("0505", "0605")]), ("canal", [("0505", "0606")])])
    pos = position(m, UNITS, [("g1", "0505")])
    assert {k[1:] for k in zones(pos)["german"]} == {"0405", "0406", "0506", "0606"}


def test_zoc_crosses_a_bridged_major_river_and_full_retreat_has_none():
    m = board(water=[("major-river", [("0505", "0605")])], bridges=[("0505", "0605", "wired")])
    pos = position(m, UNITS, [("g1", "0505"), ("g2", "0909", {"markers": ["full-retreat"]})])
    assert "T0605" in zones(pos)["german"] and not any(k.startswith("T09") for k in zones(pos)["german"])
    m = board(water=[("major-river", [("0505", "0605")])], bridges=[("0505", "0605", "blown")])
    assert "T0605" not in zones(position(m, UNITS, [("g1", "0505")]))["german"]


# --- ZOC bonds (H§7.4) ------------------------------------------------------------------------------

def bonds_of(m, units, side="allied", turn=3):
    pos = position(m, UNITS + [counter("tk", type="tank", steps=2)], units, turn=turn)
    return [(b.kind, tuple(sorted(pos.map.label(k) for k in b.ends if not k.startswith("area")) ),
             pos.map.label(b.middle) if b.middle else tuple(sorted(pos.map.label(k) for k in b.hexside)))
            for b in position_bonds(pos)[side]]


def test_hex_bond_through_the_empty_hex_between():
    assert bonds_of(board(), [("a1", "0505"), ("a2", "0503")]) == [("hex", ("0503", "0505"), "0504")]


def test_hexside_bond_along_the_side_between_the_two_hexes_between():
    assert bonds_of(board(), [("a1", "0505"), ("a2", "0705")]) == [("hexside", ("0505", "0705"), ("0605", "0606"))]


def test_a_hex_needs_two_good_order_steps():
    assert bonds_of(board(), [("a1", "0505", {"steps": 1}), ("a2", "0503")]) == []
    assert bonds_of(board(), [("a1", "0505", {"markers": ["disrupted"]}), ("a2", "0503")]) == []
    assert bonds_of(board(), [("a1", "0505", {"markers": ["disrupted"]}), ("a3", "0505"), ("a2", "0503")]) == \
        [("hex", ("0503", "0505"), "0504")]


def test_enemy_in_the_middle_hex_cancels_a_hex_bond():
    assert bonds_of(board(), [("a1", "0505"), ("a2", "0503"), ("g1", "0504")]) == []


def test_enemy_on_both_sides_cancels_a_hexside_bond():
    one = [("a1", "0505"), ("a2", "0705"), ("g1", "0605")]
    assert len(bonds_of(board(), one)) == 1
    assert bonds_of(board(), one + [("g2", "0606")]) == []


@pytest.mark.parametrize("terrain", ["city", "lake"])
def test_cities_and_lakes_break_bonds(terrain):
    assert bonds_of(board(hexes={"0504": terrain}), [("a1", "0505"), ("a2", "0503")]) == []
    both = board(hexes={"0605": terrain, "0606": terrain})
    assert bonds_of(both, [("a1", "0505"), ("a2", "0705")]) == []
    assert len(bonds_of(board(hexes={"0605": terrain}), [("a1", "0505"), ("a2", "0705")])) == 1


def test_unbridged_major_rivers_break_bonds_canals_do_not():
    river = [("0504", "0505")]
    assert bonds_of(board(water=[("major-river", river)]), [("a1", "0505"), ("a2", "0503")]) == []
    assert len(bonds_of(board(water=[("canal", river)]), [("a1", "0505"), ("a2", "0503")])) == 1
    bridged = board(water=[("major-river", river)], bridges=[("0504", "0505", "intact")])
    assert len(bonds_of(bridged, [("a1", "0505"), ("a2", "0503")])) == 1
    along = board(water=[("major-river", [("0605", "0606")])])
    assert bonds_of(along, [("a1", "0505"), ("a2", "0705")]) == []


def test_vehicles_project_bonds_only_where_they_may_go():
    polder = board(hexes={"0504": "polder"})
    assert bonds_of(polder, [("tk", "0505"), ("a2", "0503")]) == []
    with_road = board(hexes={"0504": "polder"}, roads=[["0505", "0504"]])
    assert len(bonds_of(with_road, [("tk", "0505"), ("a2", "0503")])) == 1


def test_bond_with_a_friendly_entry_area_on_the_map_edge():
    m = board(areas={"N": [f"01{r:02d}" for r in range(1, 11)], "A": [f"10{r:02d}" for r in range(1, 11)]})
    found = bonds_of(m, [("a1", "0205")])
    assert found and {b[0] for b in found} == {"area"}
    assert all(set(b[2]) <= {f"01{r:02d}" for r in range(1, 11)} for b in found)
    assert bonds_of(m, [("a1", "0905")]) == []  # area A is not Allied before turn 7 (H§19.2)
    assert bonds_of(m, [("a1", "0905")], turn=7)


def test_crossing_enemy_bonds_both_stand():
    m = board()
    units = [("a1", "0504"), ("a2", "0506"), ("g1", "0405"), ("g2", "0605")]
    assert len(bonds_of(m, units, "allied")) == 1 and len(bonds_of(m, units, "german")) == 1


# --- supply (H§18) --------------------------------------------------------------------------------

WEST = {"N": [f"01{r:02d}" for r in range(1, 11)]}


def supply(m, units, unit, counters=(), turn=3):
    pos = position(m, UNITS + list(counters), units, turn=turn)
    return trace(pos, pos.piece(unit))


def test_overland_leg_is_at_most_four_hexes():
    m = board(areas=WEST)
    t = supply(m, [("a1", "0405")], "a1")
    assert t.supplied and t.source == "entry area N" and [leg for _, leg in t.path] == ["start"] + ["overland"] * 3
    assert not supply(m, [("a1", "0505")], "a1").supplied


def test_then_any_length_of_uncut_road():
    road = [f"{c:02d}05" for c in range(1, 11)]
    m = board(areas=WEST, roads=[road])
    t = supply(m, [("a1", "1008")], "a1")
    assert t.supplied and t.path[-1] == ("0105", "road")
    legs = [leg for _, leg in t.path]
    assert legs[0] == "start" and legs.count("overland") <= 4 and legs.count("road") >= 5
    assert legs == sorted(legs, key=["start", "overland", "road"].index)  # overland first, then road
    assert not supply(m, [("a1", "1008"), ("g1", "0505")], "a1").supplied  # enemy units cut the road


def test_plain_enemy_zoc_does_not_block_but_an_enemy_bond_does():
    road = [f"{c:02d}05" for c in range(1, 11)]
    m = board(areas=WEST, roads=[road])
    assert supply(m, [("a1", "0905"), ("g1", "0504")], "a1").supplied  # 0505 is in its zone of control
    t = supply(m, [("a1", "0905"), ("g1", "0504"), ("g2", "0506")], "a1")  # a German hex bond through 0505
    assert not t.supplied and "ZOC bond" in t.reason


def test_blown_bridges_cut_roads_and_minor_rivers_under_roads_do_not():
    road = [f"{c:02d}05" for c in range(1, 11)]
    river = boundary(5)
    for state, ok in (("wired", True), ("intact", True), ("blown", False), ("under-repair", False)):
        m = board(areas=WEST, roads=[road], water=[("major-river", river)], bridges=[("0505", "0605", state)])
        assert supply(m, [("a1", "1005")], "a1").supplied is ok, state
    m = board(areas=WEST, roads=[road], water=[("minor-river", river)])
    assert supply(m, [("a1", "1005")], "a1").supplied


def test_supply_never_fords_a_major_river():
    m = board(areas=WEST, water=[("major-river", boundary(2))])
    assert not supply(m, [("a1", "0305")], "a1").supplied
    m = board(areas=WEST, water=[("canal", boundary(2))])
    assert supply(m, [("a1", "0305")], "a1").supplied


def test_airborne_supply_heads_serve_their_own_division_until_turn_5():
    para = [counter("p1", type="parachute", formation="d1", airborne=True),
            counter("p2", type="parachute", formation="d2", airborne=True)]
    units = [("sh1", "0505"), ("p1", "0707"), ("p2", "0707")]
    assert supply(board(), units, "p1", para, turn=5).source == "supply head sh1"
    assert not supply(board(), units, "p2", para, turn=5).supplied
    assert not supply(board(), units, "p1", para, turn=6).supplied


def test_entry_areas_are_sources_on_their_friendly_turns():
    m = board(areas={"L": [f"01{r:02d}" for r in range(1, 11)]})
    assert supply(m, [("g1", "0305")], "g1", turn=6).supplied
    assert not supply(m, [("g1", "0305")], "g1", turn=7).supplied
    assert supply(m, [("a1", "0305")], "a1", turn=7).supplied


def test_motorized_infantry_across_an_unbridged_canal_is_dismounted():
    mot = [counter("mot", type="motorized-infantry")]
    m = board(areas=WEST, water=[("canal", boundary(2))])
    t = supply(m, [("mot", "0305")], "mot", mot)
    assert t.supplied and t.dismounted
    found = codes(m, UNITS + mot, [("mot", "0305")], ignore=())
    assert [(f[0], f[2]) for f in found] == [("h44-supply", "H§18.6")]
    assert codes(m, UNITS + mot, [("mot", "0305", {"markers": ["dismounted"]})], ignore=()) == []
    (f,) = codes(m, UNITS + mot, [("a1", "0305", {"markers": ["dismounted"]})], ignore=())
    assert "cannot be Dismounted" in f[3]


def test_out_of_supply_markers_must_match_the_trace():
    m = board(areas=WEST)
    (f,) = codes(m, UNITS, [("a1", "0705")], ignore=())
    assert (f[0], f[2]) == ("h44-supply", "H§18") and "no supply line" in f[3]
    assert codes(m, UNITS, [("a1", "0705", {"markers": ["out-of-supply"]})], ignore=()) == []
    (f,) = codes(m, UNITS, [("a1", "0205", {"markers": ["out-of-supply"]})], ignore=())
    assert "traces supply from entry area N" in f[3]


# --- arrivals and entry areas (H§19, H§2.3.11) -----------------------------------------------------

ARRIVALS = [counter("r3", arrival={"turn": 3, "entry_area": "N"}), counter("r5", arrival={"turn": 5, "entry_area": "N"}),
            counter("drop", type="parachute", arrival={"turn": 1, "drop_zone": "T"}),
            counter("home", side="german", arrival={"setup_hex": "0909"}), counter("free")]


def test_reinforcements_arrive_on_their_turn_in_their_entry_area():
    m = board(areas={"N": ["0101"], "M": ["0110"], "L": ["1001"]})
    assert codes(m, ARRIVALS, [("r3", "N")]) == []
    (f,) = codes(m, ARRIVALS, [("r5", "N")])
    assert (f[0], f[2], f[1]) == ("h44-reinforcement", "H§19", "/sides/allied/units/0/counter")
    (f,) = codes(m, ARRIVALS, [("r3", "M")])
    assert "enters in area N, not M" in f[3]
    (f,) = codes(m, ARRIVALS, [("drop", "N")])
    assert "by air" in f[3]


def test_initial_setup_puts_start_units_on_their_hexes():
    m = board()
    assert codes(m, ARRIVALS, [("home", "0909")], turn=1, stage="initial") == []
    (f,) = codes(m, ARRIVALS, [("home", "0808")], turn=1, stage="initial")
    assert (f[0], f[2]) == ("h44-reinforcement", "H§2.3.11")
    (f,) = codes(m, ARRIVALS, [], turn=1, stage="initial")
    assert "is not placed" in f[3]
    assert codes(m, ARRIVALS, [("home", "0808")], turn=4) == []  # in play, units move


def test_units_stand_only_in_entry_areas_friendly_on_the_turn():
    m = board(areas={"L": ["1001"], "N": ["0101"]})
    (f,) = codes(m, ARRIVALS, [("free", "L")], turn=6)
    assert (f[0], f[2]) == ("h44-entry-area", "H§19.2")
    assert codes(m, ARRIVALS, [("free", "L")], turn=7) == []


# --- placements and steps --------------------------------------------------------------------------

def test_placements_that_cannot_be():
    m = board(hexes={"0303": "lake", "0404": "polder", "0606": "marsh"}, roads=[["0606", "0607"]])
    tanks = UNITS + [counter("tk", type="tank")]
    assert [f[2] for f in codes(m, tanks, [("a1", "0303")])] == ["H§2.2.2"]
    assert [f[2] for f in codes(m, tanks, [("tk", "0404")])] == ["H§2.3.14"]
    assert codes(m, tanks, [("tk", "0606")]) == []  # on a road
    assert [f[2] for f in codes(m, tanks, [("a1", "0505"), ("g1", "0505")])] == ["H§8.1"]
    assert [f[3] for f in codes(m, tanks, [("a1", "0505"), ("a1", "0505")])] == [
        "a1 is placed twice (first at /sides/allied/units/0)"]
    assert [f[2] for f in codes(m, tanks, [("a1", "0505", {"face_down": True})])] == ["H§25.1"]
    assert [f[2] for f in codes(m, tanks, [("a1", "0505", {"markers": ["traffic-1"]})])] == ["H§2.4"]


def test_steps():
    assert [f[2] for f in codes(board(), UNITS, [("a1", "0505", {"steps": 3})])] == ["H§2.3.12"]
    assert [f[2] for f in codes(board(), UNITS, [("big1", "0505", {"steps": 1})])] == ["H§11.4"]
    assert codes(board(), UNITS, [("big1", "0505", {"steps": 2})]) == []


# --- bridges (H§5) ------------------------------------------------------------------------------------

def test_bridge_states_the_rules_forbid():
    m = board(water=[("major-river", [("0505", "0605")]), ("minor-river", [("0303", "0403")])],
              bridges=[("0505", "0605", "wired", "railway"), ("0303", "0403", "intact")])
    m["bridges"].append({"id": "never", "hexside": ["0505", "0506"], "carries": "road", "state": "intact",
                         "never_blown": True})
    sections = lambda states: [f[2] for f in codes(m, UNITS, [], bridges=states)]  # noqa: E731
    assert sections({"b0": "blown"}) == []
    assert sections({"b0": "under-repair"}) == ["H§5.8"]
    assert sections({"b1": "blown"}) == ["H§5.2"]
    assert sections({"never": "wired"}) == ["H§5.7"]


# --- victory points (H§26) ----------------------------------------------------------------------------

def victory_map(east=False):
    """Arnhem (3 City hexes) north of a major river between columns 6 and 7; Overloon south of it;
    Allied entry areas on the west edge and, if east, on the east edge (north of the river)."""
    city = {"terrain": "city", "name": "Arnhem"}
    areas = {"N": [f"01{r:02d}" for r in range(1, 11)]}
    if east:
        areas["M"] = [f"10{r:02d}" for r in range(1, 11)]
    return board(hexes={"0802": city, "0803": city, "0903": city, "0505": {"terrain": "town", "name": "Overloon"}},
                 water=[("major-river", boundary(6))], areas=areas,
                 regions=[("north-of-lower-rhine", "0909", ["w0"])])


def score_of(units, eliminated=(), counters=(), east=False, **kw):
    from sandtable.rules.holland44.victory import score
    m = model(victory_map(east), UNITS + list(counters), scenario_victory=kw.pop("scenario_victory", None))
    doc = placed(m, units, **kw)
    doc["sides"]["allied"]["eliminated"] = list(eliminated)
    return score(m.position(doc))


def test_allied_points_for_city_hexes_towns_and_supplied_units_north_of_the_rhine():
    s = score_of([("a1", "0802", {"markers": ["out-of-supply"]}), ("a2", "0505")])
    assert (s.allied, s.automatic) == (2, None)  # one Arnhem hex (the unit there is out of supply) + Overloon
    s = score_of([("a1", "0802", {"markers": ["out-of-supply"]})], allied_control=["0803"])
    assert s.allied == 2


def test_supplied_regular_units_north_of_the_rhine():
    sh = [counter("sh9", type="supply-head", formation="d1"), counter("p1", type="parachute", formation="d1", airborne=True)]
    s = score_of([("sh9", "0909"), ("p1", "0908"), ("art1", "0909")], counters=sh, turn=4)
    assert s.allied == 1  # the paratroops; not the supply head nor the free-stacking artillery


def test_german_points_for_eliminated_allied_units():
    rem = [counter("big9", steps=3, remnant="big9-r"), counter("big9-r", steps=1)]
    s = score_of([], eliminated=["big1", "a1", "big9-r"], counters=rem)
    assert s.german == 2.5


def test_automatic_victories():
    assert score_of([("a1", "0505")]).automatic == "german"  # no Allied unit north of the Lower Rhine
    twelve = score_of([("a1", "0909")], eliminated=[f"x{i}" for i in range(12)],
                      counters=[counter(f"x{i}", steps=3) for i in range(12)])
    assert (twelve.german, twelve.automatic) == (12, "german")
    ten = score_of([("a1", "0909")], allied_control=["0802", "0803", "0903", "0505"], east=True)
    assert (ten.allied, ten.automatic) == (5, None)
    many = [(f"y{i}", f"09{i + 1:02d}") for i in range(5)]
    s = score_of([("a1", "0909")] + many, allied_control=["0802", "0803", "0903", "0505"],
                 counters=[counter(f"y{i}") for i in range(5)], east=True)
    assert (s.allied, s.automatic) == (10, "allied")
    para = [counter(f"y{i}", type="parachute", airborne=True) for i in range(6)]
    s = score_of(many + [("y5", "0906")], allied_control=["0802", "0803", "0903", "0505"], counters=para, east=True)
    assert (s.allied, s.automatic) == (10, None)  # no supplied non-airborne unit north of the Lower Rhine


def test_scenario_victory_needs_supplied_non_airborne_steps_in_the_region():
    goal = {"region": "north-of-lower-rhine", "steps": 4}
    assert score_of([("a1", "0909"), ("a2", "0908")], scenario_victory=goal).scenario_victory is False  # no supply
    assert score_of([("a1", "0909"), ("a2", "0908")], scenario_victory=goal, east=True).scenario_victory is True
    para = [counter("p9", type="parachute", airborne=True)]
    assert score_of([("a1", "0909"), ("p9", "0908")], scenario_victory=goal, counters=para,
                    east=True).scenario_victory is False


def test_recorded_points_are_checked():
    m = model(victory_map(), UNITS)
    doc = placed(m, [("a2", "0505")], victory_points={"allied": 2, "german": 0})
    found: list = []
    check_setup(m, doc, reporter(found))
    (f,) = only(found, "h44-victory-points")
    assert f[2] == "H§26.5" and "worth 1 Allied" in f[3]
