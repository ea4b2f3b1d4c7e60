"""Bots see only their side (issue 25): a bot is handed its side's view of the game (view.py),
never the game; twin games that differ only in something one side cannot see (where a hidden FO
or unit stands, which hidden FO sits in which entrenchment, where a minefield lies, the enemy's
plans) give the other side equal views and equal actions until the first event that reveals it,
for the heuristic and for the search bot. Clones share nothing, so a searcher's look-ahead
never writes into the real game, and a game with a search bot replays from its log."""
from __future__ import annotations

import copy
import json
import random

import pytest

from sandtable.rules.desert_steel.bots.core import Seat, make_bot
from sandtable.rules.desert_steel.bots.heuristic import fallback
from sandtable.rules.desert_steel.engine.decisions import Activation, Lowest
from sandtable.rules.desert_steel.engine.game import Game
from sandtable.rules.desert_steel.engine.runner import replay, sample_setup, write_log
from sandtable.rules.desert_steel.bots.search import SearchBot
from sandtable.rules.desert_steel.engine.state import OFF_MAP
from sandtable.rules.desert_steel.engine.view import SideView, hidden_zone, minefield_zone, side_view

from test_engine_advanced import place

REVEALING = {"reveal", "minefield-attack", "minefield-revealed", "minefield-cleared", "friendly-minefield-roll",
             "air-strike", "bombardment", "bombardment-cancelled", "bombardment-lost", "bombardment-no-target"}


def fingerprint(game) -> str:
    """Everything a game holds, in a comparable form (the log aside)."""
    st = game.state
    units = sorted((u.id, u.hex, u.status, u.facing, u.flipped, u.suppressed, u.separated, u.moved, u.fired,
                    u.spotted, u.hidden, u.carried_by, u.start_hex, u.pinned, u.flash_kill, u.opportunity_fired,
                    u.if_spotted, u.smoked, u.experience_bonus) for u in st.units.values())
    forms = sorted((f.card, f.shaken, f.losses, f.lost_this_turn, f.must_replay) for f in st.formations.values())
    return json.dumps({"mode": game.mode, "to_act": game.side_to_act, "pending": [repr(d) for d in game.pending], "turn": st.turn,
                       "units": units, "formations": forms, "hands": st.hands, "stack": st.stack,
                       "played": sorted(st.played), "raids": st.raids, "deck": st.raid_deck, "used": st.raid_used,
                       "mines": sorted(st.minefields, key=lambda m: (m["side"], str(m["hex"]))),
                       "entrenchments": st.entrenchments, "bunkers": st.bunkers, "zones": st.fire_zones,
                       "smoke": st.smoke, "dice": repr(game.dice.state()), "actions": len(game.actions)},
                      sort_keys=True, default=str)


def view_key(game, side) -> str:
    v = side_view(game, side)
    return fingerprint(v)


class Idle:
    """A side that does nothing it need not (neutral actions): XII's Allied heuristic loads the
    hidden 6-pounders at once, which ends the twin window at the first activation."""

    def choose(self, game, actions):
        return fallback(actions)


def run_twins(a, b, observer, bot_name, most=40, plan_b=None, other=None, reveals=None):
    """Play twin games a and b: the observer's bot (one instance per game, the same seed) decides
    in each; the other side's decisions are made in a and repeated in b (``plan_b`` may replace
    them in b: the hidden side planning otherwise). Stops at the first event revealing what
    differs, when the games' decisions part, or after ``most`` observer decisions; asserts the
    observer's views and choices are equal all along. Returns the observer decisions compared."""
    bots_a = {s: make_bot(bot_name if s == observer else "heuristic", 11 + i) for i, s in enumerate(("allied", "axis"))}
    bots_b = {s: make_bot(bot_name if s == observer else "heuristic", 11 + i) for i, s in enumerate(("allied", "axis"))}
    if other is not None:
        bots_a = {s: b if s == observer else other for s, b in bots_a.items()}
    seen = [len(a.events), len(b.events)]
    compared = 0
    while not a.is_terminal() and compared < most:
        fresh = a.events[seen[0]:] + b.events[seen[1]:]
        if any((reveals or (lambda e: e["e"] in REVEALING))(e) for e in fresh):
            break
        seen = [len(a.events), len(b.events)]
        if (a.mode, a.side_to_act) != (b.mode, b.side_to_act):
            break
        side = a.side_to_act
        if side == observer:
            assert view_key(a, side) == view_key(b, side), f"views differ at decision {compared}"
            ca = bots_a[side].choose(a, a.legal_actions())
            cb = bots_b[side].choose(b, b.legal_actions())
            assert ca == cb, f"the {side} bot chose {ca} and {cb} at decision {compared}"
            a.apply(ca)
            b.apply(cb)
            compared += 1
        else:
            c = bots_a[side].choose(a, a.legal_actions())
            cb = plan_b(b, c) if plan_b else c
            if cb not in b.legal_actions():
                break
            a.apply(c)
            b.apply(cb)
    return compared


def _scenario_game(model, catalog, number, setup=None, seed=5):
    scenario = model.scenario(number)
    return Game(model, scenario, setup or sample_setup(catalog, scenario), seed)


def _moved_placement(model, catalog, number, unit_filter, choose_hex):
    """The sample setup of ``number`` and a twin whose first unit passing ``unit_filter`` stands in
    the hex ``choose_hex(game, unit)`` picks (a legal hex: the test checks the twin starts)."""
    scenario = model.scenario(number)
    setup = sample_setup(catalog, scenario)
    game = Game(model, scenario, setup, 5)
    unit = next(u for u in game.state.units.values() if unit_filter(u))
    where = choose_hex(game, unit)
    twin = copy.deepcopy(setup)
    placements = twin["sides"][unit.side]["placements"]
    index = [i for i, p in enumerate(placements) if p["card"] == unit.card and p["type"] == unit.type.id]
    number_in_card = [u.id for u in game.state.units.values() if u.card == unit.card and u.type.id == unit.type.id]
    p = placements[index[number_in_card.index(unit.id)]]
    p["hex"] = where
    return setup, twin, unit


def _other_hex(game, unit):
    """A hex the unit may have been written in, as near the enemy as the rules allow (where a
    bot that peeked would act on it soonest) and holding no unit."""
    board = game.ctx.field.board
    enemy = [u.hex for u in game.state.units.values() if u.side != unit.side and u.hex]
    zone = [h for h in hidden_zone(game, unit) if h != unit.hex
            and not any(x.hex == h for x in game.state.units.values())]
    return min(zone, key=lambda h: (min((board.distance(h, e) for e in enemy), default=0), h))


def _fast_search(monkeypatch):
    """A search bot cheap enough for a test: a few rollouts a decision, no plan search."""
    monkeypatch.setattr(SearchBot, "REPLAN", ())
    monkeypatch.setattr(SearchBot, "HORIZON", 60)


BOTS = ["heuristic", "search:4"]


def _names(unit_id):
    """What reveals a hidden unit: any event naming it (a reveal, a move, an entrenchment marker
    it puts on the map...)."""
    return lambda e: e.get("unit") == unit_id or unit_id in e.get("units", ())


@pytest.mark.parametrize("number,bot", [("VIII", "heuristic"), ("XIII", "heuristic"), ("XIII", "search:4")])
def test_a_hidden_forward_observer_elsewhere_changes_nothing_for_the_other_side(model, catalog, monkeypatch,
                                                                                number, bot):
    """A British FO is on paper (§12.21); the Axis plays alike wherever it was written. (XIII:
    the heuristic reading the true state chose another step at its 21st decision of turn 1.)"""
    _fast_search(monkeypatch)
    setup, twin, fo = _moved_placement(model, catalog, number, lambda u: u.hidden and u.side == "allied",
                                       _other_hex)
    a, b = _scenario_game(model, catalog, number, setup), _scenario_game(model, catalog, number, twin)
    assert a.state.units[fo.id].hex != b.state.units[fo.id].hex and b.state.units[fo.id].hidden
    most = 40 if bot == "heuristic" else 12
    assert run_twins(a, b, "axis", bot, most=most, reveals=_names(fo.id)) >= most


@pytest.mark.parametrize("bot", BOTS)
def test_a_hidden_formation_elsewhere_changes_nothing_for_the_other_side(model, catalog, monkeypatch, bot):
    """XII: B/102's 6-pounders are deployed hidden until their first operation (§18.7)."""
    _fast_search(monkeypatch)
    setup, twin, gun = _moved_placement(model, catalog, "XII", lambda u: u.hidden and u.type.unit_class != "forward-observer",
                                        _other_hex)
    a, b = _scenario_game(model, catalog, "XII", setup), _scenario_game(model, catalog, "XII", twin)
    assert a.state.units[gun.id].hex != b.state.units[gun.id].hex
    assert run_twins(a, b, "axis", bot, most=40 if bot == "heuristic" else 12, other=Idle(), reveals=_names(gun.id)) >= \
        (40 if bot == "heuristic" else 12)


@pytest.mark.parametrize("bot", BOTS)
def test_which_hidden_observer_sits_in_which_entrenchment_does_not_show(model, catalog, monkeypatch, bot):
    """IX: three British FOs set up hidden in entrenchments (§18.4); the markers are on the map,
    their occupants are not: swapping two gives the Axis the same game (and the same observation)."""
    _fast_search(monkeypatch)
    scenario = model.scenario("IX")
    setup = sample_setup(catalog, scenario)
    game = Game(model, scenario, setup, 5)
    inside = [e["occupant"] for e in game.state.entrenchments
              if e["occupant"] and game.state.units[e["occupant"]].hidden]
    first, second = game.state.units[inside[0]], game.state.units[inside[1]]
    twin = copy.deepcopy(setup)
    for p in twin["sides"]["allied"]["placements"]:
        if p["card"] == first.card and p["type"] == first.type.id:
            p["hex"] = second.hex
        elif p["card"] == second.card and p["type"] == second.type.id:
            p["hex"] = first.hex
    a, b = Game(model, scenario, setup, 5), Game(model, scenario, twin, 5)
    assert a.state.units[first.id].hex == b.state.units[second.id].hex
    assert a.observation("axis")["entrenchments"] == b.observation("axis")["entrenchments"]
    assert not {e["occupant"] for e in a.observation("axis")["entrenchments"]} & {first.id, second.id}
    assert {e["occupant"] for e in a.observation("allied")["entrenchments"]} >= {first.id, second.id}
    assert run_twins(a, b, "axis", bot, most=30 if bot == "heuristic" else 8) >= (30 if bot == "heuristic" else 8)


@pytest.mark.parametrize("bot", BOTS)
def test_an_unrevealed_minefield_elsewhere_changes_nothing_for_the_other_side(model, catalog, monkeypatch, bot):
    """XI: the Axis minefields are on paper until attacked or found (§15.11)."""
    _fast_search(monkeypatch)
    scenario = model.scenario("XI")
    setup = sample_setup(catalog, scenario)
    game = Game(model, scenario, setup, 5)
    twin = copy.deepcopy(setup)
    used = {m["hex"] for m in game.state.minefields} | {e["hex"] for e in game.state.entrenchments}
    used |= {u.hex for u in game.state.units.values() if u.hex}
    free = [h for h in minefield_zone(game, "axis") if h not in used]
    twin["sides"]["axis"]["minefields"][0] = free[len(free) // 2]
    a, b = Game(model, scenario, setup, 5), Game(model, scenario, twin, 5)
    assert [m["hex"] for m in a.state.minefields] != [m["hex"] for m in b.state.minefields]
    mines = lambda e: "minefield" in e["e"]  # noqa: E731 - what reveals one (another side's FO moving does not)
    assert run_twins(a, b, "allied", bot, most=40 if bot == "heuristic" else 10, reveals=mines) >= \
        (40 if bot == "heuristic" else 10)


@pytest.mark.parametrize("bot", BOTS)
def test_the_enemys_plans_change_nothing_for_the_other_side_until_they_fall(model, catalog, monkeypatch, bot):
    """XV: the Axis records the turns and spotting formations of its three preplanned bombardments
    (§16.31) before play; the Allies play alike whatever was written, until one lands."""
    _fast_search(monkeypatch)
    a, b = _scenario_game(model, catalog, "XV"), _scenario_game(model, catalog, "XV")

    def elsewhere(game, action):  # another turn for each bombardment, where the rules allow it
        if game.mode != "plan-bombardment":
            return action
        later = [x for x in game.legal_actions() if x[1] != action[1]]
        # the next turn after, else the nearest before (not turn 1: a fall then ends the comparison)
        return min(later, key=lambda x: (x[1] < action[1], abs(x[1] - action[1]), x[2])) if later else action

    falls = lambda e: e["e"].startswith("bombardment") or e["e"] == "air-strike"  # noqa: E731
    compared = run_twins(a, b, "allied", bot, most=30 if bot == "heuristic" else 8, plan_b=elsewhere, reveals=falls)
    assert [r.get("turn") for r in a.state.raids if r["side"] == "axis" and r["kind"] == "bombardment"] != \
        [r.get("turn") for r in b.state.raids if r["side"] == "axis" and r["kind"] == "bombardment"]
    assert compared >= (30 if bot == "heuristic" else 8)


def test_a_view_holds_nothing_the_side_may_not_know(model, catalog):
    """Hidden enemy units off the map with no hex, unrevealed enemy minefields with no hex, enemy
    plans without turn or formation, no log, the dice not the game's; the own side whole."""
    game = _scenario_game(model, catalog, "XI")
    v = side_view(game, "allied")
    assert isinstance(v, SideView) and v.viewer == "allied" and v.events == []
    for u in v.state.units.values():
        real = game.state.units[u.id]
        if real.hidden and real.side == "axis":
            assert u.hex is None and u.status == OFF_MAP
        else:
            assert (u.hex, u.status) == (real.hex, real.status)
    assert all(m["hex"] is None for m in v.state.minefields if m["side"] == "axis")
    assert not any(e["occupant"] and game.state.units[e["occupant"]].hidden and game.state.units[e["occupant"]].side == "axis"
                   for e in v.state.entrenchments)
    assert v.dice.state() != game.dice.state()
    before = fingerprint(game)
    v.state.units[next(iter(v.state.units))].hex = None  # the view is its own
    v.ask(Lowest("allied", tuple(c for c, f in v.state.formations.items() if f.side == "allied")[:2]))  # its own too
    assert fingerprint(game) == before
    # the view of the other side keeps its own hidden FOs and minefields
    mine = side_view(game, "axis")
    assert [m["hex"] for m in mine.state.minefields if m["side"] == "axis"] == \
        [m["hex"] for m in game.state.minefields if m["side"] == "axis"]


def test_a_hidden_units_markers_do_not_reach_the_other_sides_view(model, catalog):
    """A unit on paper carries no marker the enemy sees: an FO that spotted this turn (if_spotted),
    like any per-turn record, shows in the other side's view as an FO that did nothing, before a
    refresh of that view and after one (the seat's kept view)."""
    from sandtable.rules.desert_steel.engine.view import ViewCopies
    game = _scenario_game(model, catalog, "XI")
    fo = next(u for u in game.state.units.values() if u.hidden and u.side == "axis")
    copies = ViewCopies()
    side_view(game, "allied", copies)
    fo.if_spotted, fo.opportunity_fired, fo.smoked = True, True, True
    for view in (side_view(game, "allied"), side_view(game, "allied", copies)):
        seen = view.state.units[fo.id]
        assert (seen.if_spotted, seen.opportunity_fired, seen.smoked, seen.hex) == (False, False, False, None), seen
    assert side_view(game, "axis").state.units[fo.id].if_spotted  # its own side knows


def test_bots_are_seated_and_decide_on_views(model, catalog):
    bot = make_bot("heuristic", 1)
    assert isinstance(bot, Seat)
    seen = []
    inner = bot.bot
    original = inner.choose
    inner.choose = lambda game, actions: seen.append(game) or original(game, actions)
    game = _scenario_game(model, catalog, "VIII")
    for _ in range(5):
        game.apply(bot.choose(game, game.legal_actions()) if game.side_to_act else None)
    assert seen and all(isinstance(g, SideView) and g is not game for g in seen)


def test_a_search_decision_leaves_the_real_game_as_it_was(model, catalog, monkeypatch):
    """The searcher's look-ahead once declared the Axis interrupt in the real game (clones shared
    the interrupt-declaration dict): an Allied searcher's decisions at interrupt windows leave
    every bit of the game unchanged, and the Axis bot is asked its own declaration."""
    _fast_search(monkeypatch)
    game = _scenario_game(model, catalog, "II", seed=1)
    allied, axis = make_bot("search:4", 3), make_bot("heuristic", 4)
    asked, windows = 0, 0
    while not game.is_terminal() and windows < 6:
        if game.side_to_act == "allied":
            before = fingerprint(game)
            choice = allied.choose(game, game.legal_actions())
            assert fingerprint(game) == before
            if game.mode == "interrupt":
                windows += 1
            game.apply(choice)
            if game.mode == "interrupt" and game.side_to_act == "axis":
                asked += 1
        else:
            game.apply(axis.choose(game, game.legal_actions()))
    assert windows >= 3 and asked >= 1


def test_a_clone_owns_its_decision_and_result(catalog):
    """What a clone is asked and answers never reaches the game it was copied from: clone() once
    shared the interrupt declarations, and an Allied search bot's look-ahead declared the Axis
    interrupt in the real game. The result of a finished game is the clone's own too."""
    scenario = catalog.model.scenario("III")
    game = Game(catalog.model, scenario, sample_setup(catalog, scenario), seed=1)
    bot = make_bot("heuristic", 1)
    while game.mode != "interrupt":
        game.apply(bot.choose(game, game.legal_actions()))
    pending, legal = game.pending, game.legal_actions()
    copy_ = game.clone()
    copy_.apply(copy_.legal_actions()[-1])  # the clone's side declares an interrupt
    assert copy_.pending != pending
    assert game.pending == pending and game.legal_actions() == legal
    players = {"allied": make_bot("random", 2), "axis": make_bot("random", 3)}
    while not game.is_terminal():
        game.apply(players[game.current_player()].choose(game, game.legal_actions()))
    result = json.loads(json.dumps(game.returns()))
    copy_ = game.clone()
    copy_.returns()["points"]["axis"] = -1
    copy_.returns().clear()
    assert game.returns() == result


def test_a_game_with_an_allied_search_bot_replays(model, catalog, tmp_path, monkeypatch):
    """Every log with an Allied search bot once failed `sandtable replay` (its look-ahead wrote the
    Axis declaration into the game). II, the search bot at a small budget, the whole game."""
    _fast_search(monkeypatch)
    from sandtable.rules.desert_steel.engine.runner import digest, play
    scenario = model.scenario("II")
    setup = sample_setup(catalog, scenario)
    game = play(model, scenario, setup, 77, ("search:2", "heuristic"))
    path = tmp_path / "ii.jsonl"
    write_log(path, game, setup, ("search:2", "heuristic"))
    again, recorded = replay(model, path)
    assert again.is_terminal() and recorded == game.returns() and digest(again) == digest(game)


@pytest.mark.parametrize("number", ["VIII", "IX", "X", "XI", "XII", "XIII", "XIV", "XV"])
def test_the_search_bot_redraws_hidden_enemies_only_where_their_set_up_rules_allow(model, catalog, number):
    """Each sample puts every hidden enemy unit in a hex it may have been written in (the
    scenario's zone for hidden FOs, else its formation's set-up zone; not prohibited to its side,
    terrain it may stand in), none under the searcher's units, within the stacking limit."""
    import random as _random
    from sandtable.rules.desert_steel.bots.search import SpielState
    game = _scenario_game(model, catalog, number)
    limit = game.ctx.tables.stacking()["units"]
    for me in ("allied", "axis"):
        hidden = [u for u in game.state.units.values() if u.hidden and u.side != me]
        if not hidden:
            continue
        mine = {u.hex for u in game.state.units.values() if u.side == me and u.hex}
        for seed in range(4):
            sample = SpielState(game).resample_from_infostate(("allied", "axis").index(me), _random.Random(seed)).game
            for u in hidden:
                drawn = sample.state.units[u.id]
                assert drawn.hex in hidden_zone(game, u) and drawn.hex not in mine, (number, u.id, drawn.hex)
                assert drawn.hex not in game.prohibited(u.side)
                assert len([x for x in sample.state.at(drawn.hex) if x.side == u.side]) <= limit


def test_a_hidden_observer_that_digs_in_stays_on_paper(model, catalog):
    """§12.22 lists what puts a hidden FO on the map (an enemy entering its hex, its leaving its
    deployment hex); entrenching is neither, and §13.4 puts the marker on the unit, which is on
    paper: twins that differ only in where the FO was written, and where it digs in, give the
    other side equal views, with no marker of it; its own side sees the marker. Revealed, its
    marker shows with it."""
    setup, twin, fo = _moved_placement(model, catalog, "VIII", lambda u: u.hidden and u.side == "allied", _other_hex)
    a, b = _scenario_game(model, catalog, "VIII", setup), _scenario_game(model, catalog, "VIII", twin)
    for g in (a, b):
        g.ask(Activation("allied", cards=(fo.card,)))
        g.apply(("op", fo.id, "entrench"))
        assert [e["occupant"] for e in g.state.entrenchments] == [fo.id] and g.state.units[fo.id].hidden
    assert a.state.entrenchments[0]["hex"] != b.state.entrenchments[0]["hex"]
    assert view_key(a, "axis") == view_key(b, "axis")
    assert side_view(a, "axis").state.entrenchments == []
    assert [e["hex"] for e in side_view(a, "allied").state.entrenchments] == [a.state.units[fo.id].hex]
    a.state.units[fo.id].hidden = False  # as an enemy entering its hex would (§12.22)
    assert [(e["hex"], e["occupant"]) for e in side_view(a, "axis").state.entrenchments] == \
        [(a.state.units[fo.id].hex, fo.id)]


def test_a_paper_marker_does_not_count_towards_the_hex_limit_of_the_other_side(model, catalog, monkeypatch):
    """§13.41 with §12.22: the other side's legal actions must not show a hidden unit's paper marker
    either. With a limit of one marker a hex, an Axis infantry unit in the hex where the hidden
    Allied FO dug in may still entrench, as in the twin where the FO dug in elsewhere and the hex
    is empty."""
    setup, twin, fo = _moved_placement(model, catalog, "VIII", lambda u: u.hidden and u.side == "allied", _other_hex)
    a, b = _scenario_game(model, catalog, "VIII", setup), _scenario_game(model, catalog, "VIII", twin)
    where = b.state.units[fo.id].hex  # the FO alone in b; an empty hex in a (_other_hex)
    tables = type(a.ctx.tables)
    setting = tables.setting
    monkeypatch.setattr(tables, "setting", lambda self, key, default=None:
                        1 if key == "entrenchments_per_hex" else setting(self, key, default))
    allowed = {}
    for name, g in (("a", a), ("b", b)):
        g.ask(Activation("allied", cards=(fo.card,)))
        g.apply(("op", fo.id, "entrench"))
        card = next(c for c, f in g.state.formations.items() if f.side == "axis" and f.kind == "combat")
        axis = place(g, "axis-infantry", card, "de-infantry", where, "axis")
        allowed[name] = g.may_entrench(axis)
    assert allowed["a"] == allowed["b"] is True


def test_limited_intelligence_the_face_down_card_is_not_named(model, catalog):
    """§6.55 (optional): a card goes on the stack face down, its C3 announced. Twins of III where
    the Allies play one or another of two C-rated formations give the Axis equal views (which
    card lies on the stack, which stay in hand), and the Allies' own view names their card."""
    scenario = model.scenario("III")
    options = {"limited_intelligence": True}
    a, b = (Game(model, scenario, sample_setup(catalog, scenario), 1, options=options) for _ in range(2))
    assert a.mode == "lowest" and a.side_to_act == "allied"
    first, second = sorted(c for c in a.state.hands["allied"] if a.state.formations[c].kind == "combat")[:2]
    assert a.priority(first)[0] == a.priority(second)[0] and a.priority(first) == a.priority(second)
    a.apply(("play", first))
    b.apply(("play", second))
    assert a.state.stack == [first] and b.state.stack == [second]
    assert view_key(a, "axis") == view_key(b, "axis")
    assert side_view(a, "allied").state.stack == [first] and side_view(b, "allied").state.stack == [second]
    seen = side_view(a, "axis").state
    assert sorted(seen.stack + seen.hands["allied"]) == sorted(a.state.stack + a.state.hands["allied"])
    assert [a.priority(c)[0] for c in seen.stack] == [a.priority(first)[0]]  # its C3 is announced
    plain = Game(model, scenario, sample_setup(catalog, scenario), 1)  # face up without the option
    plain.apply(("play", second))
    assert side_view(plain, "axis").state.stack == [second]


def test_the_search_redraws_face_down_cards_among_those_of_their_c3(model, catalog):
    """§6.55: the determinization (view.place_unseen) puts on the stack, for each enemy face-down
    card, one of the enemy's cards in hand or on the stack with the C3 announced; the rest in hand."""
    import random as _random
    from sandtable.rules.desert_steel.engine.view import place_unseen
    scenario = model.scenario("III")
    game = Game(model, scenario, sample_setup(catalog, scenario), 1, options={"limited_intelligence": True})
    first = sorted(c for c in game.state.hands["allied"] if game.state.formations[c].kind == "combat")[0]
    game.apply(("play", first))
    union = sorted(game.state.stack + game.state.hands["allied"])
    drawn = set()
    for seed in range(12):
        g = side_view(game, "axis").clone()
        place_unseen(g, "axis", _random.Random(seed))
        assert sorted(g.state.stack + g.state.hands["allied"]) == union
        assert [game.priority(c)[0] for c in g.state.stack] == [game.priority(first)[0]]
        drawn.add(g.state.stack[0])
    assert len(drawn) > 1  # not always the same card
