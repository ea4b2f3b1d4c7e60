"""The bots of issue 15: the second heuristic (stacking, stance, objectives that pay, deadlines,
unknown actions) and the search bot with its OpenSpiel-style state."""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import pytest

from sandtable.rules.desert_steel.bots.core import make_bot, valid_bot
from sandtable.rules.desert_steel.bots.heuristic import HeuristicBot2, fallback
from sandtable.rules.desert_steel.engine.dice import ScriptedDice
from sandtable.rules.desert_steel.engine.game import Game
from sandtable.rules.desert_steel.engine.runner import play, sample_setup
from sandtable.rules.desert_steel.bots.search import SearchBot, SpielState, evaluate
from test_engine_advanced import activate, advanced_game, moving, place
from sandtable.rules.desert_steel.engine.decisions import Decision


def test_bot_names():
    assert valid_bot("heuristic") and valid_bot("heuristic-v1") and valid_bot("random")
    assert valid_bot("search:8") and valid_bot("search") and not valid_bot("search:0")
    assert not valid_bot("heuristic:3") and not valid_bot("clever")
    assert make_bot("heuristic-v1").name == "heuristic-v1" and make_bot("heuristic").name == "heuristic"
    assert make_bot("search:5").budget == 5
    with pytest.raises(ValueError):
        make_bot("search:x")


def test_the_new_heuristic_counts_every_unit_against_the_stacking_limit(model):
    """§8.52: six units a hex. The first bot counted vehicles only; infantry piled up and died."""
    game = advanced_game(model, ScriptedDice([]))
    for i in range(6):
        place(game, f"429.{i + 1}", 429, "gb-infantry", "B2119", "allied")
    mover = place(game, "429.9", 429, "gb-infantry", "B2120", "allied")
    moving(game, mover, "allied", mp=3)
    bot = HeuristicBot2(0)
    view = bot._view(game, mover)
    assert view["crowded"]("B2119") and not view["crowded"]("B2121")
    assert bot._score_hex(game, mover, "B2119", view) >= 50


def test_the_new_heuristic_avoids_its_own_minefields(model):
    game = advanced_game(model, ScriptedDice([]))
    tank = place(game, "161.1", 161, "de-pz-iv-e", "B2120", "axis")
    game.state.minefields.append({"hex": "B2119", "side": "axis", "active": True, "revealed": False})
    moving(game, tank, "axis")
    bot = HeuristicBot2(0)
    assert bot._view(game, tank)["mines"]["B2119"] == 3  # the first bot: 0.5, a step it took lightly


def test_a_holding_side_keeps_its_fortified_units_in_place(model, catalog):
    """X: the British win if nothing happens (the Axis must eliminate 30 units): they hold, and
    their entrenched and bunkered units do not want to move."""
    scenario = model.scenario("X")
    game = Game(model, scenario, sample_setup(catalog, scenario), seed=1)
    bot = HeuristicBot2(0)
    assert bot.stance(game, "allied") == "hold" and bot.stance(game, "axis") == "attack"
    fortified = [u for u in game.state.units.values() if u.side == "allied" and bot._fortified(game, u)]
    assert fortified and not any(bot._wants_to_move(game, u) for u in fortified)


def test_exits_are_goals_only_where_they_pay_and_while_they_count(model, catalog):
    bot = HeuristicBot2(0)
    ii = model.scenario("II")  # only the Matildas score by leaving north
    game = Game(model, ii, sample_setup(catalog, ii), seed=1)
    units = {u.type.id: u for u in game.state.units.values() if u.side == "allied"}
    assert bot._goal_distance(game, "allied", None, units["gb-matilda-ii"])
    assert not bot._goal_distance(game, "allied", None, units["gb-mark-vi"])
    xiv = model.scenario("XIV")  # exits count until the end of turn 10
    game = Game(model, xiv, sample_setup(catalog, xiv), seed=1)
    tank = next(u for u in game.state.units.values() if u.side == "axis" and u.type.id == "de-pz-iv-e")
    assert bot._goal_distance(game, "axis", None, tank)
    game.state.turn = 11
    assert not HeuristicBot2(0)._goal_distance(game, "axis", None, tank)


@dataclass(frozen=True, slots=True)
class NewRule(Decision):
    """A question no bot knows yet."""

    unit: str = ""
    kind: ClassVar[str] = "some-new-rule"

    def legal(self, game):  # the bot is asked directly below: the game never lists these
        return [("pass",)]

    def apply(self, game, action):
        pass


def test_the_new_heuristic_copes_with_actions_it_does_not_know(model, catalog):
    scenario = model.scenario("I")
    game = Game(model, scenario, sample_setup(catalog, scenario), seed=1)
    bot = HeuristicBot2(0)
    game.ask(NewRule("allied"))
    assert bot.choose(game, [("brew-tea", 1), ("pass",)]) == ("pass",)
    assert bot.choose(game, [("brew-tea", 1), ("brew-tea", 2)]) == ("brew-tea", 1)
    assert fallback([("x",), ("stop",), ("end",)]) == ("end",)  # 'end' before 'stop'
    # a facing decision: towards the nearest enemy
    a = next(u for u in game.state.units.values() if u.side == "allied" and u.on_map)
    axis = next(u for u in game.state.units.values() if u.side == "axis")
    axis.status, axis.hex = "on-map", next(iter(game.ctx.field.board.neighbours(a.hex)))
    game.ask(NewRule("allied", unit=a.id))
    from sandtable.rules.desert_steel.engine.facing import sector
    axial = game.ctx.field.board.axials
    want = sector(axial[a.hex], axial[axis.hex])
    assert bot.choose(game, [("face", d) for d in range(6)]) == ("face", want)
    # in an activation, an op kind it does not know is never picked by accident
    activate(game, "allied", [a.card])
    assert bot._activation(game, [("op", a.id, "dance"), ("end",)]) == ("end",)


def test_the_new_heuristic_plays_every_scenario_to_the_end_on_an_automatic_setup(model):
    """Seeded automatic setups (simulate --setups) differ from the samples: the bot copes."""
    from sandtable.rules.desert_steel.autosetup import auto_setup
    for number in ("V", "XIII"):
        scenario = model.scenario(number)
        game = play(model, scenario, auto_setup(model, scenario, 1), 3, ("heuristic", "heuristic"))
        assert game.is_terminal()


def test_spiel_state_is_an_openspiel_style_game(model, catalog):
    scenario = model.scenario("I")
    state = SpielState(Game(model, scenario, sample_setup(catalog, scenario), seed=2))
    assert state.current_player() in (0, 1) and not state.is_terminal()
    copy = state.clone()
    copy.apply_action(copy.legal_actions()[0])
    assert len(copy.game.actions) == len(state.game.actions) + 1  # the original did not move
    import random
    a, b = state.resample_from_infostate(0, random.Random(1)), state.resample_from_infostate(0, random.Random(1))
    assert a.game.dice.roll(5) == b.game.dice.roll(5)  # a determinization is seeded
    assert -1 <= evaluate(state.game, "allied") <= 1
    while not state.is_terminal():
        state.apply_action(make_bot("heuristic").choose(state.game, state.legal_actions()))
    assert state.current_player() == -4 and sorted(state.returns()) in ([-1.0, 1.0], [0.0, 0.0])


def test_the_search_bot_chooses_legal_actions_and_is_reproducible(model, catalog, monkeypatch):
    monkeypatch.setattr(SearchBot, "REPLAN", ())  # the plan search has its own test (test_search.py)
    scenario = model.scenario("I")
    game = Game(model, scenario, sample_setup(catalog, scenario), seed=2)
    while game.mode not in ("activation", "interrupt") or len(game.legal_actions()) < 3:
        game.apply(make_bot("heuristic").choose(game, game.legal_actions()))
    picks = [SearchBot(7, 6).choose(game, game.legal_actions()) for _ in range(2)]
    assert picks[0] == picks[1] and picks[0] in game.legal_actions()
    bot = SearchBot(7, 6)
    bot.choose(game, game.legal_actions())
    assert bot.searched == 1


def test_the_play_account_names_units_by_id_with_hexes_attack_kinds_and_modifiers(model, catalog):
    import re
    from sandtable.rules.desert_steel.narration import account
    from sandtable.rules.desert_steel.engine.diagnostics import Recorder
    scenario = model.scenario("V")
    rec = Recorder()
    game = play(model, scenario, sample_setup(catalog, scenario), 2, ("heuristic", "heuristic"), recorder=rec)
    lines = account(game, rec.start_hex)
    moves = [re.match(r"\s+(\S+) (.+) moves (\S+) -> (\S+) \((\d+) hex", x) for x in lines if " moves " in x]
    assert moves and all(m and m.group(3) != "?" for m in moves)  # from the start: every origin known
    names = {}
    for m in moves:  # one name, one unit: the id leads every name
        assert names.setdefault(m.group(1) + " " + m.group(2), m.group(1)) == m.group(1)
        assert m.group(1) in game.state.units
    fires = [x for x in lines if " fires at " in x]
    assert fires and all(re.search(r"\[(direct|opportunity|same-hex|overrun|overrun reaction|close assault|spill|"
                                    r"fire zone|indirect|air strike|bombardment|minefield)\]", x) for x in fires)
    assert any("spotted at" in x and "mods (" in x for x in fires)
    assert all(" differential " in x and " -> " in x for x in fires)


def test_the_editor_quick_game_offers_and_plays_the_search_bot(catalog, monkeypatch):
    from pathlib import Path
    monkeypatch.setattr(SearchBot, "PLAN_STEPS", 0)  # one game played out, no plan search: a short test
    monkeypatch.setattr(SearchBot, "GAME_STEPS", 2000)
    from editor import hooks
    source = (Path(__file__).resolve().parents[1] / "editor" / "quickgame.py").read_text(encoding="utf-8")
    assert '"search:8"' in source and '"heuristic-v1"' in source  # listed in the panel's bot menus
    out = hooks.quick_games(catalog, "sidi-bou-said", 1, 0, ("search:2", "heuristic"))
    assert out["played"] == 1 and out["games"] == 1
