"""Bots register themselves (engine/seats.py): the registry imports no bot module at load time,
the bot modules do not import one another in a cycle, and the names the CLI and the editor read
(bots.BOTS, make_bot, valid_bot) still answer. A seat builds its side's view only for a bot that
looks; a view's dice are drawn from a public phrase when first rolled."""
import random
import subprocess
import sys

import pytest

from sandtable.rules.desert_steel.engine import seats
from sandtable.rules.desert_steel.engine.dice import Dice, DrawnDice


def _imported_after(statement: str) -> set:
    code = (f"import sys; {statement}; "
            "print(' '.join(m.rsplit('.', 2)[-2] + '.' + m.rsplit('.', 1)[-1] for m in sys.modules "
            "if m.startswith(('sandtable.rules.desert_steel.engine.', 'sandtable.rules.desert_steel.bots.'))))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    return set(out.split())


def test_the_base_bots_load_without_the_bots_built_on_them():
    loaded = _imported_after("import sandtable.rules.desert_steel.bots.core")
    assert "bots.core" in loaded and "engine.seats" in loaded
    assert not loaded & {"bots.heuristic", "bots.search", "bots.search_policies", "bots.plan_block", "bots.plan_evade",
                         "bots.plan_objective"}


def test_the_engine_loads_no_bot():
    loaded = _imported_after("import sandtable.rules.desert_steel.engine.game, sandtable.rules.desert_steel.engine.seats")
    assert not {m for m in loaded if m.startswith("bots.")}


def test_the_registry_lists_every_bot_in_order_once_asked():
    assert list(seats.registry()) == ["random", "heuristic-v1", "heuristic", "search"]
    from sandtable.rules.desert_steel.bots.core import BOTS, make_bot, valid_bot
    assert BOTS is seats.BOTS
    assert valid_bot("search:4") and valid_bot("search:0.5s") and valid_bot("search")
    assert not valid_bot("random:3") and not valid_bot("search:x") and not valid_bot("nobody")
    assert type(make_bot("heuristic", 1).bot).__name__ == "HeuristicBot2"
    with pytest.raises(ValueError, match="unknown bot 'nobody'"):
        make_bot("nobody")


def test_a_registered_bot_is_made_by_name():
    class Echo:
        def __init__(self, seed):
            self.seed = seed

        def choose(self, game, actions):
            return actions[0]

    seats.register_bot("echo-test", Echo)
    try:
        seat = seats.make_bot("echo-test", 7)
        assert seat.seed == 7 and seats.valid_bot("echo-test") and not seats.valid_bot("echo-test:1")
    finally:
        seats.unregister_bot("echo-test")
    assert not seats.valid_bot("echo-test") and "echo-test" not in seats.registry()


def test_drawn_dice_roll_as_dice_seeded_from_the_phrase():
    phrase = "axis|12|3"
    seed = random.Random(phrase).randrange(2 ** 31)
    drawn, plain = DrawnDice(phrase), Dice(seed)
    assert drawn.roll(5) == plain.roll(5) and drawn.seed == seed
    late = DrawnDice(phrase)
    assert late.seed == seed and late.copy().roll(3) == Dice(seed).roll(3)


def test_a_random_bots_seat_builds_no_view_unless_it_looks(catalog, monkeypatch):
    from sandtable.rules.desert_steel.engine import view
    from sandtable.rules.desert_steel.engine.game import Game, make_context
    from sandtable.rules.desert_steel.engine.runner import sample_setup
    model = catalog.model
    scenario = model.scenario("I")
    game = Game(model, scenario, sample_setup(catalog, scenario), 1, context=make_context(model, scenario))
    built = []
    real = view.side_view
    monkeypatch.setattr(view, "side_view", lambda g, s: built.append(s) or real(g, s))
    seat = seats.make_bot("random", 1)
    for _ in range(30):
        game.apply(seat.choose(game, game.legal_actions()))
    assert built == []
    looked = {}

    class Peeker:
        reads_game = False

        def choose(self, g, actions):
            looked["view"] = g
            looked["turn"] = g.state.turn  # the first look builds the view
            return actions[0]

    class Keeper:
        reads_game = False

        def choose(self, g, actions):
            looked["kept"] = g  # never looked at during the decision
            return actions[0]

    side = game.side_to_act
    game.apply(seats.Seat(Peeker()).choose(game, game.legal_actions()))
    assert built == [side] and looked["turn"] == game.state.turn
    game.apply(seats.Seat(Keeper()).choose(game, game.legal_actions()))
    with pytest.raises(RuntimeError, match="moved on"):
        looked["kept"].mode  # noqa: B018 - a view first looked at after its decision is refused
    assert built == [side]


def test_a_bot_is_handed_plain_tuples_and_types_those_it_reads(catalog):
    """legal_actions() lists plain tuples (typing them all would slow random playouts), and so does
    a seat: a bot wanting named fields types the actions it reads with actions.typed (the one
    door, docs/engine.md), and may return the typed action it chose."""
    from sandtable.rules.desert_steel.engine import actions as act
    seen = {}

    class Named:
        reads_game = False
        typed_actions = True  # the seat's opt-in that was a second door: gone, so it changes nothing

        def choose(self, g, actions):
            seen["plain"] = all(type(a) is tuple for a in actions)
            named = [act.typed(a) for a in actions]
            seen["typed"] = all(type(a) is act.KINDS[a[0]] for a in named)
            seen["fields"] = all([v for v in a.about().values() if v is not None] == list(a[1:]) for a in named)
            return named[-1]

    from sandtable.rules.desert_steel.engine.game import Game
    from sandtable.rules.desert_steel.engine.runner import sample_setup
    scenario = catalog.model.scenario("I")
    game = Game(catalog.model, scenario, sample_setup(catalog, scenario), 1)
    while len({a[0] for a in game.legal_actions()}) < 2:  # a decision with a choice of several kinds
        game.apply(game.legal_actions()[0])
    legal = game.legal_actions()
    chosen = seats.Seat(Named()).choose(game, legal)
    assert seen == {"plain": True, "typed": True, "fields": True}
    assert chosen == legal[-1] and isinstance(chosen, act.Action)
    game.apply(chosen)
    assert game.actions[-1] == chosen and type(game.actions[-1]) is type(chosen)
