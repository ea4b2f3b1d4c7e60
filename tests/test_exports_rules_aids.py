"""The play aids' rule statements (exports/desert_steel/rule_aids.py) against the engine's behaviour on
constructed positions: what the aid says is what the engine does."""
import pytest

from sandtable.exports.desert_steel import rule_aids
from sandtable.rules.desert_steel import rules_tables as rt
from sandtable.rules.desert_steel.battlefield import Battlefield
from sandtable.rules.desert_steel.engine.dice import ScriptedDice
from sandtable.rules.desert_steel.engine.game import Game, make_context
from sandtable.rules.desert_steel.engine.state import ON_MAP, Formation, Unit
from sandtable.rules.desert_steel.engine.tables import Tables
from sandtable.rules.desert_steel.engine.decisions import Activation


def empty_game(model, dice=None):
    """Map B of XIII, empty, advanced rules, 1942 (as tests/test_engine_advanced.py)."""
    scenario = model.scenario("IV")
    ctx = make_context(model, scenario)
    ctx.field = Battlefield.for_scenario(model, model.scenario("XIII"))
    ctx.advanced = True
    ctx.years = {"allied": 1942, "axis": 1942}
    game = Game(model, scenario, {}, dice=dice or ScriptedDice([]), context=ctx)
    game.state.units.clear()
    game.state.visibility = 12
    game.ctx.visibility.clear()
    return game


def place(game, uid, card, type_id, hex_, side, facing=0, **kw):
    u = Unit(uid, card, game.ctx.model.unit_types[type_id], side, hex_, facing, ON_MAP, **kw)
    u.start_hex = hex_
    game.state.units[uid] = u
    game.state.formations.setdefault(card, Formation(card, side, "combat"))
    return u


def activate(game, side, cards):
    game.ask(Activation(side, cards=tuple(cards)))


def topic(model, key):
    return next(t for t in rule_aids.topics(model) if t.key == key)


def test_every_statement_carries_its_section_and_both_languages(model):
    for t in rule_aids.topics(model):
        assert t.lines
        for line in t.lines:
            assert line.section and line.section[0].isdigit()
            assert line.en and line.fr and line.en != line.fr


def test_separation_is_measured_from_the_central_hex(model):
    """§11.11: three German units 4 hexes apart in a line (radius 3). Measured from a central hex
    one is separated; "more than the radius from every other unit" would separate all three."""
    radii = dict(rule_aids.doctrine_radii(model))
    assert radii["german"] == 3
    assert "central hex" in topic(model, "separation").lines[1].en
    assert "every other unit" not in " ".join(line.en for line in topic(model, "separation").lines)
    game = empty_game(model)
    units = [place(game, f"161.{i}", 161, "de-pz-iii-j", h, "axis") for i, h in
             enumerate(("B2120", "B2116", "B2112"), start=1)]
    board = game.ctx.field.board
    assert [board.distance(units[0].hex, u.hex) for u in units] == [0, 4, 8]
    game.doctrine()
    assert sum(u.separated for u in units) == 1
    # the aid's rule, applied by hand from the best central hex, gives the engine's answer
    best = min(board.usable, key=lambda c: sum(board.distance(c, u.hex) > radii["german"] for u in units))
    assert sum(board.distance(best, u.hex) > radii["german"] for u in units) == 1
    assert radii["italian"] == 1 and radii["allied"] == 2


def test_separation_rows_and_no_move_match_the_engine(model):
    game = empty_game(model)
    inf = place(game, "330.1", 330, "us-infantry", "B2120", "allied", separated=True)
    jeep = place(game, "330.6", 330, "us-jeep", "B2120", "allied", separated=True)
    # each level the way a game reaches it: card 330 is Green, upgraded once or twice (§11.2)
    for bonus, exp in enumerate(("green", "seasoned", "veteran")):
        for u in (inf, jeep):
            u.experience_bonus = bonus
            assert game.experience(u) == exp
            assert rt.separation_row(exp, u.type.is_vehicle) == game.separation_key(u)
            assert game.may_not_move(u) == (rt.separation_row(exp, u.type.is_vehicle) in rt.SEPARATED_MAY_NOT_MOVE)
    for u in (inf, jeep):
        u.experience_bonus = 0
    # the printed line: a Green non-vehicle may not move, and the engine refuses the move
    lines = {line.en for line in topic(model, "separation").lines}
    assert any("Green non-vehicle" in x and "may not move" in x for x in lines)
    assert game.experience(inf) == "green"
    activate(game, "allied", [330])
    legal = game.legal_actions()
    assert ("op", inf.id, "move") not in legal and ("op", jeep.id, "move") in legal
    # the printed modifiers are the ones the engine applies
    t = Tables(model.rule_tables)
    line = next(x.en for x in topic(model, "separation").lines if "Green non-vehicle" in x.en)
    assert f"+{t.morale('separated_green_non_vehicle'):g} to morale" in line
    assert game.separation_morale(inf) == {"separated_green_non_vehicle": t.morale("separated_green_non_vehicle")}


def test_move_and_fire_vehicles_only_move_then_fire(model):
    text = " ".join(line.en for line in topic(model, "move_fire").lines)
    assert "Vehicles only" in text and "first a limited move, then a limited fire" in text
    game = empty_game(model)
    inf = place(game, "429.5", 429, "gb-infantry", "B2120", "allied")
    tank = place(game, "429.1", 429, "gb-sherman", "B2220", "allied")
    activate(game, "allied", [429])
    legal = game.legal_actions()
    assert ("op", inf.id, "fire") in legal or ("op", inf.id, "move") in legal
    assert ("op", inf.id, "move-fire") not in legal  # the aid: never a non-vehicle
    assert ("op", tank.id, "move-fire") in legal
    allowance = game.ctx.field.allowance(tank.type)
    assert rule_aids.move_and_fire_mp(model, allowance) == game.move_fire_mp(tank)
    game.apply(("op", tank.id, "move-fire"))
    assert game.mode == "move"  # the move comes first, the fire after it (§9.5)
    assert game.decision.mp == game.move_fire_mp(tank)


def test_front_arc_matches_the_engines_flank_test(model):
    game = empty_game(model)
    board = game.ctx.field.board
    centre = "B2120"
    tank = place(game, "161.1", 161, "de-pz-iii-j", centre, "axis")
    from sandtable.rules.desert_steel.engine.facing import sector
    for facing in range(6):
        tank.facing = facing
        for n in board.neighbours(centre):
            side = sector(board.axial(centre), board.axial(n))
            assert game.in_flank(tank, n) == (not rt.in_front_arc(facing, side))
    assert sum(rt.in_front_arc(0, s) for s in range(6)) == 3


def test_facing_and_flash_kill_numbers_are_the_tables(model):
    t = Tables(model.rule_tables)
    text = " ".join(line.en for line in topic(model, "facing").lines)
    assert f"+{t.fire('flank_fire'):g} to the fire roll" in text
    fk = " ".join(line.en for line in topic(model, "flash").lines)
    for exp, name in (("green", "Green"), ("seasoned", "Seasoned"), ("veteran", "Veteran")):
        assert f"{t.flash_kill(exp)} ({name})" in fk


def test_rout_eliminates_whatever_the_modifiers(model):
    rout = model.rule_tables["settings"]["morale_rout_roll"]
    assert any(f"unmodified {rout}" in line.en for line in topic(model, "elimination").lines)
    game = empty_game(model, ScriptedDice([6, 6]))
    u = place(game, "161.1", 161, "de-pz-iii-j", "B2120", "axis")
    game.morale_check(u, 99, {"x": -20}, "hit", "10.21")  # would pass by far
    assert u.status == "destroyed" and u.fate["by"] == "rout"


def test_close_assault_eligibility_matches_the_engine(model):
    lines = " ".join(line.en for line in topic(model, "assault").lines)
    assert "flank arc" in lines and "Infantry" in lines
    game = empty_game(model)
    inf = place(game, "330.1", 330, "us-infantry", "B2120", "allied")
    tank = place(game, "161.1", 161, "de-pz-iii-j", "B2119", "axis")
    board = game.ctx.field.board
    game.ask(Activation("allied", cards=(330,)))
    terrain = game.ctx.field.terrain
    open_ground = not terrain.hexes["B2119"].building and terrain.level("B2119") <= terrain.level("B2120")
    assert open_ground
    side_to_inf = __import__("sandtable.rules.desert_steel.engine.facing", fromlist=["sector"]).sector(
        board.axial("B2119"), board.axial("B2120"))
    tank.facing = side_to_inf  # facing the infantry: front arc, open ground, no entrenchment
    assert not game.may_assault(inf, "B2119")
    tank.facing = (side_to_inf + 3) % 6  # its back to the infantry: through the flank arc
    assert game.may_assault(inf, "B2119")
    assert rt.CLOSE_ASSAULT_CLASS == inf.type.unit_class
    other = place(game, "330.9", 330, "us-jeep", "B2120", "allied")
    assert not game.may_assault(other, "B2119")  # not infantry


def test_aids_pdf_states_the_corrected_rules(model):
    from sandtable.exports.desert_steel.aids import aids_pdf
    import io
    from pypdf import PdfReader
    data, _ = aids_pdf(model)
    text = " ".join(p.extract_text() for p in PdfReader(io.BytesIO(data)).pages)
    flat = " ".join(text.split())
    assert "fire before, during or after" not in flat
    assert "more than its doctrine radius from every other unit" not in flat
    for title in ("Opportunity fire", "Flash kill", "Elimination and rout", "Facing", "Close assault: who may"):
        assert title in flat, title
