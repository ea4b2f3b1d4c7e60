"""The 'evade' and 'detour' plans (plan_evade.py): a side whose own losses count against it keeps
its units with nothing to do in a fight out of the enemy's reach and its hidden units hidden, and
('detour') goes round the enemy's sight on its way to a place."""
from __future__ import annotations

from sandtable.rules.desert_steel.bots import plan_evade  # noqa: F401 - registers the plan
from sandtable.rules.desert_steel.bots.core import axial_distance
from sandtable.rules.desert_steel.bots.heuristic import HeuristicBot2
from sandtable.rules.desert_steel.engine.game import Game
from sandtable.rules.desert_steel.bots.plan_evade import DetourBot, EvadeBot
from sandtable.rules.desert_steel.engine.runner import game_seed, sample_setup
from sandtable.rules.desert_steel.bots.search_policies import PLAN_CLASSES, VariantBot


def _game(model, catalog, sc, i=0):
    scenario = model.scenario(sc)
    return Game(model, scenario, sample_setup(catalog, scenario), game_seed(1, i))


def _play_until(game, bots, done, limit=60000):
    steps = 0
    while not game.is_terminal() and not done(game) and steps < limit:
        game.apply(bots[game.current_player()].choose(game, game.legal_actions()))
        steps += 1
    return game


def test_registered_and_usable_through_variant_bot():
    assert PLAN_CLASSES["evade"] is EvadeBot
    assert PLAN_CLASSES["detour"] is DetourBot
    bot = VariantBot(3, "evade")
    assert type(bot) is EvadeBot
    bot = bot.with_plan("heuristic")  # the search switches plans mid-game
    assert type(bot) is VariantBot
    bot = bot.with_plan("evade")
    assert type(bot) is EvadeBot
    bot = bot.with_plan("detour")
    assert type(bot) is DetourBot and bot.SIGHT > 0


def test_applies_to_attrition_races_only(model, catalog):
    """'evade': own losses counted and no place for either side to reach (IX, XII); 'detour': own
    losses off the side's own fixed-total score, with a place that scores (IV's Allies). Neither
    where the enemy goes somewhere (III's map B, VII's and XV's exits), where losses do not count
    (XIV), nor where the way round lost games the heuristic wins (I's, III's, V's Axis, II)."""
    expect = {"IX": {"allied": (True, False), "axis": (False, False)},
              "XII": {"allied": (True, False), "axis": (True, False)},
              "IV": {"allied": (False, True), "axis": (False, False)},
              "III": {"allied": (False, False), "axis": (False, False)},
              "I": {"allied": (False, False), "axis": (False, False)},
              "II": {"allied": (False, False), "axis": (False, False)},
              "V": {"allied": (False, False), "axis": (False, False)},
              "VII": {"allied": (False, False)},
              "XIV": {"allied": (False, False), "axis": (False, False)},
              "XV": {"allied": (False, False), "axis": (False, False)}}
    for sc, sides in expect.items():
        game = _game(model, catalog, sc)
        for side, want in sides.items():
            assert (EvadeBot.applies(game, side), DetourBot.applies(game, side)) == want, (sc, side)


def _ix_after_contact(model, catalog):
    """IX played by the heuristic on both sides until an empty Allied carrier stands within a
    seen German unit's reach."""
    game = _game(model, catalog, "IX")
    bots = {"allied": HeuristicBot2(game_seed(1, 0)), "axis": HeuristicBot2(game_seed(1, 0) + 1)}
    probe = VariantBot(0, "evade")
    probe.me = "allied"

    def exposed_carrier(g):
        return g.state.turn >= 2 and any(
            u.side == "allied" and u.on_map and probe._soft(g, u) and probe._exposure(g, "allied", u.hex) > 0
            and u.type.unit_class == "transport" for u in g.state.units.values())
    _play_until(game, bots, exposed_carrier)
    assert not game.is_terminal()
    return game, probe


def test_an_exposed_empty_carrier_moves_away_where_the_heuristic_lets_it_stand(model, catalog):
    """IX: the heuristic Allies hold and their empty carriers stood where they were set up; the
    German tanks shot 4-7 of them a game (each an Allied unit eliminated, 20 lose the game)."""
    game, probe = _ix_after_contact(model, catalog)
    carriers = [u for u in game.state.units.values() if u.side == "allied" and u.on_map
                and u.type.unit_class == "transport" and probe._soft(game, u)
                and probe._exposure(game, "allied", u.hex) > 0]
    u = carriers[0]
    heuristic = HeuristicBot2(0)
    heuristic._spots = probe._spots = {}
    assert probe._wants_to_move(game, u)
    assert not heuristic._wants_to_move(game, u)  # holding, no block to make: it stays
    board = game.ctx.field.board
    here = probe._score_hex(game, u, u.hex)
    axial = board.axials
    threats = [p for p, _, _ in probe._threats(game, "allied")]
    far = max(board.neighbours(u.hex), key=lambda n: (min(axial_distance(axial[n], p) for p in threats), n))
    near = min(board.neighbours(u.hex), key=lambda n: (min(axial_distance(axial[n], p) for p in threats), n))
    assert probe._score_hex(game, u, far) <= here <= probe._score_hex(game, u, near)
    assert probe._score_hex(game, u, far) < probe._score_hex(game, u, near)


def test_hidden_guns_stay_hidden_where_the_heuristic_loads_them(model, catalog):
    """XII: B/102's 6-pounders set up hidden; the heuristic loaded them in a truck (revealing
    them) and lost 2-4 to an air strike or the truck's loss."""
    game = _game(model, catalog, "XII")
    hidden = [u for u in game.state.units.values() if u.side == "allied" and u.hidden and u.on_map
              and u.type.unit_class != "forward-observer"]
    assert hidden
    evade = VariantBot(0, "evade")
    evade.me = "allied"
    heuristic = HeuristicBot2(0)
    for u in hidden:
        assert heuristic._rides(game, u)  # a towed gun always rides
        assert not evade._rides(game, u)
        assert not evade._wants_to_move(game, u)


def test_the_way_to_a_place_is_charged_in_the_enemys_sight(model, catalog):
    """IV: the Allies score 1 a unit off the west edge; the detour plan's distances charge hexes a
    seen German gun sees and reaches, never less than the heuristic's (the evade plan's are the
    heuristic's)."""
    game = _game(model, catalog, "IV")
    bots = {"allied": HeuristicBot2(1), "axis": HeuristicBot2(2)}
    _play_until(game, bots, lambda g: g.state.turn >= 3)
    evade = VariantBot(0, "evade")
    evade.me = "allied"
    probe = VariantBot(0, "detour")
    probe.me = "allied"
    heuristic = HeuristicBot2(0)
    u = next(x for x in game.state.units.values() if x.side == "allied" and x.on_map)
    plain = heuristic._goal_distance(game, "allied", u.type, u)
    around = probe._goal_distance(game, "allied", u.type, u)
    assert plain and set(around) == set(plain)
    assert all(around[h] >= plain[h] - 1e-9 for h in plain)
    _, extra = probe._sighted(game, "allied")
    assert extra  # the Germans are in sight of some hexes
    assert any(around[h] > plain[h] for h in extra)
    assert evade._goal_distance(game, "allied", u.type, u) == plain
    # the enemy's own side is not charged: the Axis plays its distances as the heuristic
    assert probe._goal_distance(game, "axis") == heuristic._goal_distance(game, "axis")


def test_plays_a_game_to_the_end_on_either_side(model, catalog):
    for sc, side, plan in (("XII", "allied", "evade"), ("XII", "axis", "evade"), ("IV", "allied", "detour")):
        game = _game(model, catalog, sc, 1)
        me = VariantBot(5, plan)
        me.me = side
        other = "axis" if side == "allied" else "allied"
        bots = {side: me, other: HeuristicBot2(6)}
        _play_until(game, bots, lambda g: False)
        assert game.is_terminal()
        assert game.returns()["winner"] in ("allied", "axis", "draw", None)


def test_the_table_driven_distances_are_those_of_relaxing_every_step(model, catalog):
    """routes.reverse_costs reads its step costs from a table (routes.step_table, shared with
    this plan): the distances that relaxing every step priced from the battlefield until
    nothing changes finds (Bellman-Ford), extra costs included."""
    import math
    from sandtable.rules.desert_steel.routes import reverse_costs

    def relaxed(field, sources, unit_type, extra):
        dist = {k: 0.0 for k in sources if k in field.board.usable}
        changed = True
        while changed:
            changed = False
            for k, d in list(dist.items()):
                for n in field.board.neighbours(k):
                    cost = 1.0 if unit_type is None else field.enter_cost(unit_type, n, k)
                    if cost != "prohibited":
                        via = d + ((unit_type.movement or 1) if cost == "all" else cost) + extra.get(k, 0)
                        if via < dist.get(n, math.inf):
                            dist[n], changed = via, True
        return dist
    game = _game(model, catalog, "IV")
    field = game.ctx.field
    board = field.board
    targets = {h for h in sorted(board.usable)[:12]}
    extra = {h: 2.5 for h in sorted(board.usable)[100:160]}
    for unit_type in (None, model.unit_types["gb-grant"]):
        assert reverse_costs(field, targets, unit_type, dict(extra)) == relaxed(field, targets, unit_type, extra)