"""The search bot (issue 15): its budget (rollouts or seconds a decision, a game's share of
work), information-set determinization that does not leak the enemy's hidden units or
minefields, and the --bots search:N / search:Ts names in play and simulate."""
from __future__ import annotations

import dataclasses
import random

import pytest

from sandtable.cli import main
from sandtable.rules.desert_steel.bots import search
from sandtable.rules.desert_steel.bots.core import make_bot, valid_bot
from sandtable.rules.desert_steel.engine.game import Game
from sandtable.rules.desert_steel.engine.runner import sample_setup
from sandtable.rules.desert_steel.bots.search import SearchBot, SpielState, determinize, flat_search
from sandtable.rules.desert_steel.bots.search_policies import VariantBot, plans_for

def test_search_budgets_in_rollouts_or_seconds():
    assert search.parse_budget("") == (16, None) and search.parse_budget("200") == (200, None)
    assert search.parse_budget("0.5s") == (None, 0.5) and search.parse_budget("2s") == (None, 2.0)
    for bad in ("0", "0s", "-1s", "s", "abc", "1e9s", "61s", "nans", "infs", "10001", "1.5"):
        assert search.parse_budget(bad) is None, bad
        assert not valid_bot(f"search:{bad}")
    bot = make_bot("search:0.25s", 3)
    assert bot.seconds == 0.25 and not bot.budget
    assert make_bot("search:200").budget == 200 and make_bot("search:200").seconds is None
    with pytest.raises(ValueError, match="search:N, search:Ts"):
        make_bot("search:fast")


def _game(model, catalog, number, seed=1):
    scenario = model.scenario(number)
    return Game(model, scenario, sample_setup(catalog, scenario), seed)


def test_determinization_redraws_the_enemys_hidden_observer_whatever_its_true_hex(model, catalog):
    """VIII: the British FO is hidden (§12.21). The Axis searcher's samples put it anywhere in the
    British set-up zone off the Axis units, and the same draws whatever hex it truly holds: the
    rollouts cannot learn where it is. The British searcher keeps its own FO where it is."""
    game = _game(model, catalog, "VIII")
    fo = next(u for u in game.state.units.values() if u.hidden)
    assert fo.side == "allied"
    zone = set(search._setup_zone(game, "allied", fo.card))
    elsewhere = next(h for h in sorted(zone) if h != fo.hex)
    moved = game.clone()
    moved.state.units[fo.id].hex = elsewhere
    axis_hexes = {u.hex for u in game.state.on_map("axis")}
    seen = set()
    for seed in range(12):
        a, b = game.clone(), moved.clone()
        determinize(a, "axis", random.Random(seed))
        determinize(b, "axis", random.Random(seed))
        assert a.state.units[fo.id].hex == b.state.units[fo.id].hex  # the truth does not show
        assert a.state.units[fo.id].hex in zone and a.state.units[fo.id].hex not in axis_hexes
        seen.add(a.state.units[fo.id].hex)
        own = game.clone()
        determinize(own, "allied", random.Random(seed))
        assert own.state.units[fo.id].hex == fo.hex
    assert len(seen) > 6
    assert game.state.units[fo.id].hex == fo.hex  # the game itself is untouched
    sample = SpielState(game).resample_from_infostate(1, random.Random(0))
    assert sample.game is not game and sample.legal_actions() == game.legal_actions()


def test_determinization_redraws_the_enemys_unrevealed_minefields(model, catalog):
    """XI: the Axis minefields are on paper (§15.11); an Allied searcher's samples do not depend
    on where they are, keep one a hex and stay in the Axis set-up zone."""
    game = _game(model, catalog, "XI")
    mines = [m for m in game.state.minefields if m["side"] == "axis"]
    assert mines and not any(m["revealed"] for m in mines)
    zone = set().union(*(search._setup_zone(game, "axis", c) for c in search._setup_cards(game, "axis")))
    shifted = game.clone()
    taken = {m["hex"] for m in mines}
    for m, h in zip(shifted.state.minefields, (h for h in sorted(zone) if h not in taken)):
        if m["side"] == "axis":
            m["hex"] = h
    a, b = game.clone(), shifted.clone()
    determinize(a, "allied", random.Random(5))
    determinize(b, "allied", random.Random(5))
    hexes = [m["hex"] for m in a.state.minefields if m["side"] == "axis"]
    assert hexes == [m["hex"] for m in b.state.minefields if m["side"] == "axis"]
    assert len(set(hexes)) == len(hexes) and set(hexes) <= zone and set(hexes) != taken
    own = game.clone()
    determinize(own, "axis", random.Random(5))
    assert [m["hex"] for m in own.state.minefields] == [m["hex"] for m in game.state.minefields]


_DECISION: dict = {}


def _decision(model, catalog):
    """A decision of I worth searching (made once, a clone each test)."""
    if "game" not in _DECISION:
        game = _game(model, catalog, "I", seed=2)
        while game.mode not in ("activation", "interrupt") or len(game.legal_actions()) < 3:
            game.apply(make_bot("heuristic").choose(game, game.legal_actions()))
        _DECISION["game"] = game
    return _DECISION["game"].clone()


def test_the_rollout_budget_is_honoured_and_candidates_share_their_luck(model, catalog, monkeypatch):
    monkeypatch.setattr(SearchBot, "REPLAN", ())  # the plan search has its own test
    game = _decision(model, catalog)
    bot = SearchBot(7, 8)
    choice = bot.choose(game, game.legal_actions())
    assert choice in game.legal_actions() and bot.searched == 1
    assert 2 <= bot.rollouts <= 8  # whole rounds of one rollout a candidate, within the budget
    # common random numbers: two candidates that are the same action score the same in every round
    action = game.legal_actions()[0]
    _, means, n, values = flat_search(SpielState(game), 0, [action, action], lambda s, a: bot._rollout(s, a, "allied"),
                              random.Random(1), 4, None)
    assert n == 4 and means[0] == means[1] and values[0] == values[1] and len(values[0]) == 2
    assert not search.clearly_better(values[0], values[1], 0.0)
    assert search.clearly_better([0.5, 0.6, 0.55], [0.1, 0.2, 0.1], 0.03)
    assert not search.clearly_better([0.9, -0.5, 0.9], [0.1, 0.2, 0.1], 0.03)  # luck, not a pattern


def test_a_time_budget_stops_the_search_when_its_seconds_are_spent(model, catalog, monkeypatch):
    """A fake clock (no timing in tests): each round reads the clock once; 0.5 s a decision
    and a clock moving 0.2 s a round stop it after three rounds."""
    game = _decision(model, catalog)
    clock = iter(i * 0.2 for i in range(1000))
    monkeypatch.setattr(search, "CLOCK", lambda: next(clock))
    rounds = []
    flat_search(SpielState(game), 0, [("a",), ("b",)], lambda s, a: rounds.append(a) or 0.0,
                random.Random(1), None, 0.5)
    assert len(rounds) == 2 * 3


def test_a_time_budget_is_cpu_time_of_the_playing_thread():
    """A loaded machine slows the wall clock, not how much search a decision gets."""
    import time
    assert search.CLOCK is time.thread_time


def _rounds_clock(step):
    """A fake CPU clock moving ``step`` seconds a reading."""
    readings = iter(i * step for i in range(10 ** 6))
    return lambda: next(readings)


def test_a_time_budget_draws_each_decision_from_a_stream_of_its_own(model, catalog, monkeypatch):
    """Two bots of one seed whose first decision got different numbers of rounds (the machine's
    speed) draw the same determinizations at the next decision: a time-budget run differs from
    another only where a decision's choice did."""
    monkeypatch.setattr(SearchBot, "REPLAN", ())
    monkeypatch.setattr(search, "PRUNE_ROUNDS", 99)  # every round plays: the rounds are what differs
    game = _decision(model, catalog)
    drawn = []
    real = SpielState.resample_from_infostate

    def spy(self, player, rng):
        sample = real(self, player, rng)
        drawn.append(sample.game.dice.seed)
        return sample
    monkeypatch.setattr(SpielState, "resample_from_infostate", spy)
    second = []
    for step in (0.05, 0.3):  # 0.5 s a decision: ten rounds, then two
        bot = SearchBot(4, None, 0.5)
        monkeypatch.setattr(search, "CLOCK", _rounds_clock(step))
        drawn.clear()
        bot.choose(game.clone(), game.legal_actions())
        first = len(drawn)
        monkeypatch.setattr(search, "CLOCK", _rounds_clock(0.3))
        drawn.clear()
        bot.choose(game.clone(), game.legal_actions())
        second.append((first, list(drawn)))
    (ten, a), (two, b) = second
    assert ten > two >= 1 and a == b and len(a) == 2


def test_a_time_budgets_caps_are_cpu_seconds_not_decisions_played(model, catalog, monkeypatch):
    """With a time budget a game's decision search is capped in CPU seconds (DECISION_SECONDS
    times T, spread over the turns), not in decisions played (GAME_STEPS: a faster engine buys
    more rollouts); the plan search's budget is PLAN_SECONDS times T a turn, in CPU seconds."""
    monkeypatch.setattr(SearchBot, "GAME_STEPS", 0)
    monkeypatch.setattr(SearchBot, "REPLAN", ())
    monkeypatch.setattr(search, "CLOCK", _rounds_clock(0.3))
    game = _decision(model, catalog)
    bot = SearchBot(7, None, 0.5)
    bot.choose(game, game.legal_actions())
    assert bot.searched == 1 and bot.rollouts >= 2 and bot.decision_cpu > 0
    share = SearchBot.DECISION_SECONDS * 0.5 * game.state.turn / game.ctx.scenario.turns
    bot.decision_cpu = share  # this turn's share spent: the heuristic's choice, no search
    assert bot.choose(game, game.legal_actions()) == bot.policy.choose(game, game.legal_actions())
    assert bot.searched == 1
    assert bot.plan_budget(game) == SearchBot.PLAN_SECONDS * 0.5 * game.ctx.scenario.turns
    monkeypatch.setattr(search, "CLOCK", _rounds_clock(0.001))
    bot._play_out(SpielState(game.clone()), "allied", "heuristic", game.state.turn)
    assert bot.plan_cpu > 0 and bot._plan_work() == bot.plan_cpu


def test_a_games_search_work_is_shared_out_over_its_turns(model, catalog, monkeypatch):
    game = _decision(model, catalog)
    monkeypatch.setattr(SearchBot, "GAME_STEPS", 0)
    monkeypatch.setattr(SearchBot, "REPLAN", ())
    bot = SearchBot(7, 8)
    assert bot.choose(game, game.legal_actions()) == bot.policy.choose(game, game.legal_actions())
    assert bot.searched == 0 and bot.rollouts == 0


@pytest.mark.parametrize("command, bot", [(["play", "V", "--quiet", "--seed", "3"], "search:4"),
                                          (["simulate", "V", "--games", "1", "--no-progress", "--jobs", "1"],
                                           "search:0.01s")])
def test_play_and_simulate_take_a_search_bot(capsys, monkeypatch, command, bot):
    monkeypatch.setattr(SearchBot, "GAME_STEPS", 300)  # a few searched decisions keep the test short
    monkeypatch.setattr(SearchBot, "REPLAN", ())  # the plan search has its own test
    searched = []
    real = SearchBot.choose

    def spy(self, game, actions):
        out = real(self, game, actions)
        searched.append(self.searched)
        return out
    monkeypatch.setattr(SearchBot, "choose", spy)
    code = main([*command, "--bots", f"{bot},heuristic"])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert "Traceback" not in out + err and searched and max(searched) >= 1


def test_the_plan_search_plays_each_variant_out_and_keeps_the_best(model, catalog, monkeypatch):
    """The last turn of V (short games to play out): every plan gets the same determinizations, the
    choice is reproducible, and the bot plays on with the chosen variant."""
    game = _game(model, catalog, "V", seed=4)
    while game.state.turn < 10 or game.mode not in ("activation", "interrupt"):
        game.apply(make_bot("heuristic").choose(game, game.legal_actions()))
    monkeypatch.setattr(SearchBot, "REPLAN", (10,))
    monkeypatch.setattr(SearchBot, "PLAN_MIN_ROUNDS", 1)
    monkeypatch.setattr(SearchBot, "PLAN_ROUNDS", 1)
    monkeypatch.setattr(SearchBot, "GAME_STEPS", 0)
    picks = []
    for _ in range(2):
        bot = SearchBot(3, 8)
        bot.plans.append((9, "heuristic", None, 0))  # past its opening (see the opening's test)
        action = bot.choose(game, game.legal_actions())
        assert action in game.legal_actions()
        turn, plan, means, rounds = bot.plans[1]
        assert turn == 10 and rounds == 1 and set(means) == set(plans_for(game, "allied")) and plan in means
        assert bot.policy.variant == plan and bot.plan_steps > 0
        picks.append((plan, means))
    assert picks[0] == picks[1]


def test_registered_plans_are_tried_where_they_apply_and_keep_the_bots_memory(model, catalog, monkeypatch):
    """A plan with behaviour of its own joins the search's plans for the sides it applies to; a bot
    switched to it and back keeps what it has read of the game (with_plan makes the plan's bot, its memory handed over)."""
    from sandtable.rules.desert_steel.bots import search_policies
    from sandtable.rules.desert_steel.bots.search_policies import VariantBot, register_plan

    class AlliedOnly(VariantBot):
        THRESHOLDS = ("hold", 1.0, 1.0)

        @classmethod
        def applies(cls, game, side):
            return side == "allied"

        def _unit_shot(self, game, u, kinds):
            return 0.0, None  # never fires: the behaviour the test can see

    monkeypatch.setattr(search_policies, "PLAN_CLASSES", {})
    monkeypatch.setattr(search_policies, "VARIANTS", dict(search_policies.VARIANTS))
    register_plan("allied-only", AlliedOnly)
    game = _game(model, catalog, "V")
    assert plans_for(game, "allied") == search.PLANS + ("allied-only",)
    assert plans_for(game, "axis") == search.PLANS
    bot = VariantBot(0)
    bot._stances["memo"] = "kept"
    first = bot
    bot = bot.with_plan("allied-only")
    assert type(bot) is AlliedOnly and bot.forced_stance == "hold" and bot._stances["memo"] == "kept"
    assert type(first) is VariantBot and first.forced_stance is None  # no class swapped under anyone
    bot = bot.with_plan("heuristic")
    assert type(bot) is VariantBot and bot.forced_stance is None and bot._stances["memo"] == "kept"


def test_a_variant_forces_its_stance_on_its_own_side_only(model, catalog):
    from sandtable.rules.desert_steel.bots.search_policies import VariantBot
    game = _game(model, catalog, "V")
    bot = VariantBot(0, "hold")
    bot.me = "axis"
    assert bot.stance(game, "axis") == "hold"
    assert bot.stance(game, "allied") == VariantBot(0).stance(game, "allied")
    assert VariantBot(0, "trigger-happy").FIRE < VariantBot(0).FIRE


def test_determinization_leaves_out_the_enemys_simultaneous_interrupt_declaration(model, catalog):
    """§6.43: both sides declare at once, but the engine asks the Allies first; an Axis searcher's
    samples (built from its view) do not hold the Allied declaration: after the Axis declares, the
    look-ahead asks the Allies (the rollout's bot declares for them), whatever they truly declared."""
    game = _game(model, catalog, "II", seed=1)
    bot = make_bot("heuristic")
    while not (game.mode == "interrupt" and game.side_to_act == "axis" and game.decision.answered("allied")
               and game.interrupt_cards("allied")):
        game.apply(bot.choose(game, game.legal_actions()))
    truths = [None] + list(game.interrupt_cards("allied"))
    for truth in truths:
        g = game.clone()
        g.ask(dataclasses.replace(g.decision, declared=tuple((s, truth if s == "allied" else c)
                                                             for s, c in g.decision.declared)))
        sample = SpielState(g).resample_from_infostate(1, random.Random(0)).game
        assert not sample.decision.answered("allied")
        assert sample.side_to_act == "axis" and sample.legal_actions() == game.legal_actions()
        sample.apply(("pass",))
        assert sample.mode == "interrupt" and sample.side_to_act == "allied"  # asked again
    assert dict(game.decision.declared)["allied"] in truths  # the game itself untouched


def test_the_plan_is_chosen_again_at_every_turn(model, catalog, monkeypatch):
    """Rollout-algorithm replanning: from turn 9 of V to the end, one plan search a turn (the
    searcher's first decision of the turn), each within the game's plan budget."""
    game = _game(model, catalog, "V", seed=4)
    bot = make_bot("heuristic")
    while game.state.turn < 9:
        game.apply(bot.choose(game, game.legal_actions()))
    monkeypatch.setattr(SearchBot, "PLAN_ROUNDS", 1)
    monkeypatch.setattr(SearchBot, "PLAN_MIN_ROUNDS", 1)
    monkeypatch.setattr(SearchBot, "GAME_STEPS", 0)
    searcher = SearchBot(3, 8)
    players = {"allied": searcher, "axis": make_bot("heuristic", 1)}
    while not game.is_terminal():
        game.apply(players[game.current_player()].choose(game, game.legal_actions()))
    assert [p[0] for p in searcher.plans] == [9, 10]
    opening, then = searcher.plans
    assert opening[3] == 1 and set(opening[2]) == {"heuristic"} | set(search.PLAN_CLASSES) & set(opening[2])
    assert then[3] == 1 and set(then[2]) == set(plans_for(game, "allied"))
    assert searcher.plan_steps <= searcher.plan_budget(game)


def test_plan_rollouts_stop_at_the_last_turn_the_budget_affords(model, catalog, monkeypatch):
    """A big budget plays the game out (scored as a result); a small one stops the rollouts at
    the end of the current turn (scored by evaluate); none at all skips the plan search."""
    game = _game(model, catalog, "V", seed=4)
    while game.state.turn < 8 or game.mode not in ("activation", "interrupt"):
        game.apply(make_bot("heuristic").choose(game, game.legal_actions()))
    monkeypatch.setattr(SearchBot, "PLAN_ROUNDS", 1)
    monkeypatch.setattr(SearchBot, "PLAN_MIN_ROUNDS", 1)
    monkeypatch.setattr(SearchBot, "GAME_STEPS", 0)
    real = SearchBot._play_outs
    horizons = []

    def spy(self, state, side, plans, last=None):
        horizons.append(last)
        return real(self, state, side, plans, last)
    monkeypatch.setattr(SearchBot, "_play_outs", spy)
    for steps, expected in ((10 ** 7, 10), (1, None)):
        monkeypatch.setattr(SearchBot, "PLAN_STEPS", steps)
        horizons.clear()
        bot = SearchBot(3, 8)
        bot._turn_steps = 40.0  # as a probe would have measured
        bot.plans.append((7, "heuristic", None, 0))  # past its opening
        bot.choose(game.clone(), game.legal_actions())
        if expected is None:
            assert horizons == [] and bot.plans[1][2] is None
        else:
            assert horizons and set(horizons) == {expected}
    monkeypatch.setattr(SearchBot, "PLAN_STEPS", 4 * 40 * 3)  # turn 8 of 10: half of it, 240 steps: one turn, not two
    horizons.clear()
    bot = SearchBot(3, 8)
    bot._turn_steps = 40.0
    bot.plans.append((7, "heuristic", None, 0))
    bot.choose(game.clone(), game.legal_actions())
    assert set(horizons) == {8}


def test_the_search_work_shrinks_in_big_scenarios(model, catalog):
    """A decision costs more with many units: the plan and decision budgets shrink (deterministically)."""
    bot = SearchBot(0, 16)
    assert bot.work_scale(_game(model, catalog, "V")) == 1.0
    assert bot.plan_budget(_game(model, catalog, "V")) == SearchBot.PLAN_STEPS
    assert bot.work_scale(_game(model, catalog, "X")) < bot.work_scale(_game(model, catalog, "IX")) < 0.5
    assert bot.plan_budget(_game(model, catalog, "IX")) < SearchBot.PLAN_STEPS / 2


def test_the_plan_search_does_not_see_the_enemys_hidden_observer(model, catalog, monkeypatch):
    """VIII: the Axis searcher's plan values are the same wherever the British FO truly stands."""
    game = _game(model, catalog, "VIII")
    bot = make_bot("heuristic")
    while game.side_to_act != "axis" or game.mode not in ("activation", "interrupt"):
        game.apply(bot.choose(game, game.legal_actions()))
    fo = next(u for u in game.state.units.values() if u.hidden and u.side == "allied")
    moved = game.clone()
    moved.state.units[fo.id].hex = next(h for h in search._setup_zone(game, "allied", fo.card)
                                        if h != fo.hex and h not in {u.hex for u in game.state.on_map("axis")})
    monkeypatch.setattr(SearchBot, "PLAN_ROUNDS", 1)
    monkeypatch.setattr(SearchBot, "PLAN_MIN_ROUNDS", 1)
    monkeypatch.setattr(SearchBot, "GAME_STEPS", 0)
    monkeypatch.setattr(SearchBot, "PLAN_STEPS", 4 * 60 * 12 * 2)
    means = []
    for g in (game, moved):
        searcher = SearchBot(5, 8)
        searcher._turn_steps = 60.0
        searcher.choose(g, g.legal_actions())
        means.append(searcher.plans[0][2])
    assert means[0] is not None and means[0] == means[1]


def test_plan_rollouts_reuse_the_stances_the_bot_has_read(model, catalog, monkeypatch):
    """XIV's stance is a path test (§ Tebourba corridor, some 0.2 s), read once a game by the
    heuristic: a plan rollout starts from the searcher's reading instead of testing it again."""
    from sandtable.rules.desert_steel.engine import victory
    game = _game(model, catalog, "XIV")
    bot = SearchBot(0, 16)
    bot.policy.me = "allied"
    for s in ("allied", "axis"):
        bot.policy.stance(game, s)
    calls = []
    real = victory.path_exists
    monkeypatch.setattr(victory, "path_exists", lambda g, arg: calls.append(1) or real(g, arg))
    bot._play_out(SpielState(game).resample_from_infostate(0, random.Random(1)), "allied", "attack", game.state.turn)
    assert calls == [] and bot.plan_steps > 0


def test_the_opening_plays_the_plans_of_their_own_to_the_end(model, catalog, monkeypatch):
    """At its first plan search of a game the bot plays the heuristic and every registered plan
    that applies (V's Allies: block) to the end of the game, not a few turns: those plans are
    written for situations (an exit to bar) that only a whole game shows."""
    game = _game(model, catalog, "V", seed=4)
    core = ("heuristic",) + tuple(p for p in plans_for(game, "allied") if p in search.PLAN_CLASSES)
    assert "block" in core
    monkeypatch.setattr(SearchBot, "PLAN_STEPS", 4000)  # a round of them fits, two do not
    monkeypatch.setattr(SearchBot, "GAME_STEPS", 0)
    bot = SearchBot(3, 8)
    while game.side_to_act != "allied" or game.mode not in ("activation", "interrupt"):
        game.apply(make_bot("heuristic").choose(game, game.legal_actions()))
    bot.choose(game, game.legal_actions())
    turn, plan, means, rounds = bot.plans[0]
    assert turn == 1 and set(means) == set(core) and rounds == 1 and plan in core
    # played to the end: a V game takes about a thousand decisions, a turn about a hundred
    assert bot.plan_steps > len(core) * 5 * bot._turn_steps


def test_plans_played_together_score_as_each_played_alone(model, catalog, monkeypatch):
    """The plan rollouts of one determinization are played together while the plans choose
    alike (search._play_outs): each plan's value and counted decisions are those of its rollout
    played alone, from the position where the plans part (a fork of the game and the enemy's bot)."""
    game = _game(model, catalog, "V", seed=4)
    while game.state.turn < 7 or game.mode not in ("activation", "interrupt"):
        game.apply(make_bot("heuristic").choose(game, game.legal_actions()))
    plans = plans_for(game, "allied")
    forks = []
    real = VariantBot.fork
    monkeypatch.setattr(VariantBot, "fork", lambda bot: forks.append(1) or real(bot))
    sample = SpielState(game).resample_from_infostate(0, random.Random(1))
    together, alone = SearchBot(3, 8), SearchBot(3, 8)
    values = together._play_outs(sample.clone(), "allied", plans, 9)
    assert forks  # the plans parted somewhere: the test covers the forks
    assert values == [alone._play_outs(sample.clone(), "allied", (p,), 9)[0] for p in plans]
    assert together.plan_steps == alone.plan_steps


def test_a_plan_search_stops_early_when_the_plans_play_alike(model, catalog, monkeypatch):
    """Plans that scored alike in every round of PLAN_MIN_ROUNDS (here: two that play alike)
    would score alike again: the search stops there and leaves the rest of its share to later
    turns; plans that score apart play on."""
    from sandtable.rules.desert_steel.bots import search_policies
    game = _game(model, catalog, "V", seed=4)
    while game.state.turn < 7 or game.mode not in ("activation", "interrupt"):
        game.apply(make_bot("heuristic").choose(game, game.legal_actions()))
    monkeypatch.setattr(search_policies, "VARIANTS", {**search_policies.VARIANTS, "twin": (None, 1.0, 1.0)})
    monkeypatch.setattr(SearchBot, "PLAN_STEPS", 10 ** 7)
    monkeypatch.setattr(SearchBot, "PLAN_MIN_ROUNDS", 2)
    monkeypatch.setattr(SearchBot, "PLAN_ROUNDS", 3)
    monkeypatch.setattr(SearchBot, "GAME_STEPS", 0)
    for plans, rounds in ((("heuristic", "twin"), 2), (plans_for(game, "allied"), 3)):
        monkeypatch.setattr(search, "plans_for", lambda g, s, plans=plans: plans)
        bot = SearchBot(3, 8)
        bot._turn_steps = 40.0
        bot.plans.append((6, "heuristic", None, 0))  # past its opening
        bot.choose(game.clone(), game.legal_actions())
        assert bot.plans[1][3] == rounds, plans


def test_a_time_budgets_plan_search_plays_to_the_end_when_a_round_fits(model, catalog, monkeypatch):
    """A plan search of search:Ts takes its turn's share of the game's plan budget (PLAN_SECONDS
    times T a turn, shared in proportion to the turns left) and plays to the end of the game when
    PLAN_SWITCH_ROUNDS rounds of every plan fit in it; else none (the share goes to later turns:
    a round or two could not pass the test a change of plan must). A fake clock: each round of
    plan rollouts reads 0.15 s."""
    game = _game(model, catalog, "V", seed=4)
    while game.state.turn < 7 or game.mode not in ("activation", "interrupt"):
        game.apply(make_bot("heuristic").choose(game, game.legal_actions()))
    turns, turn = game.ctx.scenario.turns, game.state.turn
    monkeypatch.setattr(SearchBot, "DECISION_SECONDS", 0)
    monkeypatch.setattr(SearchBot, "PLAN_MIN_ROUNDS", 99)  # no early stop when the plans score alike
    horizons = []
    real = SearchBot._play_outs
    monkeypatch.setattr(SearchBot, "_play_outs", lambda self, state, side, plans, last=None:
                        horizons.append(last) or real(self, state, side, plans, last))
    k = len(plans_for(game, "allied"))
    seconds = 0.01
    weights = sum(turns - t + 1 for t in range(turn, turns + 1))
    share = SearchBot.PLAN_SECONDS * seconds * turns * (turns - turn + 1) / weights  # 0.8 s
    # three rounds to the end fit; one round to the end fits, not three; not even this turn fits
    left = turns - turn + 1
    fits = SearchBot.PLAN_SWITCH_ROUNDS * left
    for turn_cost, last, rounds in ((share / (k * fits * 1.1), turns, 5), (share / (k * left * 1.1), None, 0),
                                    (share * 2, None, 0)):
        monkeypatch.setattr(search, "CLOCK", _rounds_clock(0.15))
        horizons.clear()
        bot = SearchBot(3, None, seconds)
        bot._turn_steps = turn_cost
        bot.plans.append((6, "heuristic", None, 0))  # past its opening
        bot.choose(game.clone(), game.legal_actions())
        assert bot.plans[1][3] == rounds  # rounds while the next one fits in 0.8 s
        assert set(horizons) == ({last} if rounds else set())


def _scripted(table):
    """A rollout function scoring candidate ``a`` in round r as ``table[a][r]`` (the round counted
    by the default's, the first candidate's, calls)."""
    calls = {a: 0 for a in table}

    def rollout(state, a):
        calls[a] += 1
        return table[a][calls[a] - 1]
    return rollout, calls


def test_a_time_budgets_decision_search_drops_candidates_no_better_than_the_default(model, catalog, monkeypatch):
    """search:Ts: after PRUNE_ROUNDS rounds a candidate that scored no better than the heuristic's
    choice (the first) in any round is dropped, and the search stops when none is left: candidates
    that all score alike (the choice changes nothing the rollouts see) cost two rounds, not the
    whole budget. search:N keeps every candidate for its rounds (reproducible as measured)."""
    game = _decision(model, catalog)
    monkeypatch.setattr(search, "CLOCK", _rounds_clock(0.001))  # a budget of 100 rounds
    alike = {("a",): [0.0] * 200, ("b",): [0.0] * 200, ("c",): [-0.1] * 200}
    rollout, calls = _scripted(alike)
    best, _, n, values = flat_search(SpielState(game), 0, list(alike), rollout, random.Random(1), None, 0.1, prune=True)
    assert best == 0 and calls == {a: search.PRUNE_ROUNDS for a in alike} and n == 3 * search.PRUNE_ROUNDS
    # one better in a round is kept and plays on; the others stop at PRUNE_ROUNDS
    rollout, calls = _scripted({("a",): [0.0] * 200, ("b",): [0.0, 0.2] * 100, ("c",): [0.0] * 200})
    best, means, n, values = flat_search(SpielState(game), 0, [("a",), ("b",), ("c",)], rollout, random.Random(1),
                                         None, 0.1, prune=True)
    assert calls[("c",)] == search.PRUNE_ROUNDS and calls[("b",)] == calls[("a",)] > 10
    assert best == 1 and len(values[2]) == search.PRUNE_ROUNDS and len(values[1]) == calls[("b",)]
    rollout, calls = _scripted(alike)
    flat_search(SpielState(game), 0, list(alike), rollout, random.Random(1), 30, None)
    assert calls == {a: 10 for a in alike}  # search:30: ten rounds of three, none dropped


def test_a_close_call_plays_on_past_its_deadline_until_clear_or_its_extension_is_spent(model, catalog, monkeypatch):
    """A candidate that leads the default by the margin at the deadline but not clearly (two
    standard errors, paired) plays on for up to ``extend`` seconds more, stopping as soon as the
    lead is clear; without an extension it stops at the deadline; a lead below the margin stops."""
    game = _decision(model, catalog)
    noisy = {("a",): [0.0] * 400, ("b",): [0.5, -0.3] * 200}  # leads by 0.1 on average, noisily
    clear = {("a",): [0.0] * 400, ("b",): [0.5, -0.3, 0.5, -0.3] + [0.3] * 396}
    small = {("a",): [0.0] * 400, ("b",): [0.02, 0.0] * 200}
    rounds = {}
    for name, table, extend in (("none", noisy, 0.0), ("spent", noisy, 0.2), ("clear", clear, 0.2), ("small", small, 0.2)):
        monkeypatch.setattr(search, "CLOCK", _rounds_clock(0.01))  # a clock reading a round: 4 rounds a 0.05 s budget
        rollout, calls = _scripted(table)
        flat_search(SpielState(game), 0, list(table), rollout, random.Random(1), None, 0.05, prune=True,
                    extend=extend, margin=0.03)
        rounds[name] = calls[("a",)]
    assert rounds["none"] == rounds["small"] < rounds["clear"] < rounds["spent"]
    assert search.clearly_better(clear[("b",)][:rounds["clear"]], clear[("a",)][:rounds["clear"]], 0.03)
    # a lone candidate (not pruned) has no leader to play on for: it stops at the deadline
    monkeypatch.setattr(search, "CLOCK", _rounds_clock(0.01))
    rollout, calls = _scripted({("a",): [0.0] * 400})
    best, _, _, _ = flat_search(SpielState(game), 0, [("a",)], rollout, random.Random(1), None, 0.05, extend=0.2,
                                margin=0.03)
    assert best == 0 and calls[("a",)] == rounds["none"]


def test_a_time_budgets_plan_changes_only_on_a_clear_lead(model, catalog, monkeypatch):
    """search:Ts keeps its plan unless another beats it by PLAN_MARGIN on average and clearly,
    round by round (a lucky game or two of a plan is not a reason to change); search:N changes on
    the mean (as its levels were measured)."""
    game = _game(model, catalog, "V", seed=4)
    while game.state.turn < 7 or game.mode not in ("activation", "interrupt"):
        game.apply(make_bot("heuristic").choose(game, game.legal_actions()))
    monkeypatch.setattr(search, "plans_for", lambda g, s: ("heuristic", "attack"))
    monkeypatch.setattr(SearchBot, "PLAN_ROUNDS", 4)
    monkeypatch.setattr(SearchBot, "PLAN_MIN_ROUNDS", 99)
    monkeypatch.setattr(SearchBot, "PLAN_SECONDS", 10 ** 6)
    monkeypatch.setattr(SearchBot, "DECISION_SECONDS", 0)
    monkeypatch.setattr(SearchBot, "GAME_STEPS", 0)
    for scores, seconds, plan in (([1.0, 0.0, 0.0, 0.0], 0.01, "heuristic"),  # one lucky round: kept
                                  ([0.5, 0.4, 0.6, 0.5], 0.01, "attack"),  # clearly better: changed
                                  ([1.0, 0.0, 0.0, 0.0], None, "attack")):  # search:N: on the mean
        attack = iter(scores)
        monkeypatch.setattr(SearchBot, "_play_outs", lambda self, state, side, plans, last=None:
                            [next(attack) if p == "attack" else 0.0 for p in plans])
        monkeypatch.setattr(search, "CLOCK", _rounds_clock(0.001))
        bot = SearchBot(3, None if seconds else 8, seconds)
        bot._turn_steps = 1e-6 if seconds else 1.0
        bot.plans.append((6, "heuristic", None, 0))  # past its opening
        bot.choose(game.clone(), game.legal_actions())
        assert bot.plans[1][3] == 4 and bot.plan == plan, scores


def test_a_time_budgets_opening_takes_the_best_mean_however_many_rounds(model, catalog, monkeypatch):
    """The opening's choice of plan is no change from an incumbent: the plan ahead by PLAN_MARGIN
    on the mean takes it, after one round (XIII's Allies at 0.015 s a decision) as after several
    that are not yet clear round by round (VIII's Axis: 'hold' ahead on the mean). Past the
    opening the same rounds leave the plan as it is (a change must be clear)."""
    game = _game(model, catalog, "V", seed=4)
    while game.mode not in ("activation", "interrupt"):
        game.apply(make_bot("heuristic").choose(game, game.legal_actions()))
    monkeypatch.setattr(search, "plans_for", lambda g, s: ("heuristic", "attack"))
    monkeypatch.setattr(SearchBot, "PLAN_SECONDS", 10 ** 6)
    monkeypatch.setattr(SearchBot, "DECISION_SECONDS", 0)
    monkeypatch.setattr(SearchBot, "GAME_STEPS", 0)
    lead = SearchBot.PLAN_MARGIN + 0.05
    for scores in ([lead], [4 * lead, 0.0, 0.0, 0.0]):  # one round; four, ahead on one only
        monkeypatch.setattr(SearchBot, "PLAN_ROUNDS", len(scores))
        for opening, plan in ((True, "attack"), (False, "heuristic")):
            attack = iter(scores)
            monkeypatch.setattr(SearchBot, "_play_outs", lambda self, state, side, plans, last=None:
                                [next(attack) if p == "attack" else 0.0 for p in plans])
            monkeypatch.setattr(search, "CLOCK", _rounds_clock(0.001))
            bot = SearchBot(3, None, 0.01)
            bot._turn_steps = 1e-6
            if not opening:
                bot.plans.append((game.state.turn - 1, "heuristic", None, 0))
            bot.choose(game.clone(), game.legal_actions())
            searched = [p for p in bot.plans if p[2] is not None]
            assert searched and searched[0][3] == len(scores) and bot.plan == plan, (scores, opening)


def test_a_time_budgets_opening_plays_every_plan_when_a_round_of_them_fits(model, catalog, monkeypatch):
    """A time budget's opening plays every plan to the end (the variants of the heuristic too:
    'hold' is VIII's Axis's best, and a later plan search seldom affords rounds to the end of a
    long scenario to find it) when a round of all of them fits in the plan budget; else the
    heuristic and the plans of their own, as search:N's opening always does."""
    game = _game(model, catalog, "V", seed=4)
    while game.side_to_act != "allied" or game.mode not in ("activation", "interrupt"):
        game.apply(make_bot("heuristic").choose(game, game.legal_actions()))
    every = plans_for(game, "allied")
    core = ("heuristic",) + tuple(p for p in every if p in search.PLAN_CLASSES)
    assert len(core) > 1 and len(every) > len(core)
    monkeypatch.setattr(SearchBot, "PLAN_ROUNDS", 1)
    monkeypatch.setattr(SearchBot, "DECISION_SECONDS", 0)
    monkeypatch.setattr(SearchBot, "GAME_STEPS", 0)
    monkeypatch.setattr(SearchBot, "_play_outs", lambda self, state, side, plans, last=None: [0.0] * len(plans))
    turns_left = game.ctx.scenario.turns - game.state.turn + 1
    for seconds, room, tried in ((0.01, len(every), every),  # a round of every plan fits
                                 (0.01, len(core) + 0.5, core),  # only the core's does
                                 (None, len(every), core)):  # search:N: the core
        monkeypatch.setattr(search, "CLOCK", _rounds_clock(1e-9))
        bot = SearchBot(3, None if seconds else 8, seconds)
        bot._turn_steps = bot.plan_budget(game) / (turns_left * room)
        bot.choose(game.clone(), game.legal_actions())
        turn, plan, means, rounds = bot.plans[0]
        assert rounds == 1 and tuple(means) == tried, (seconds, room)