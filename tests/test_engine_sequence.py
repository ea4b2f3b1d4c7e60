"""Rule sentences of the sequence of play, each by itself (§4.3, §6.4-6.53, §8.53, §9.4, §10.14)."""
from dataclasses import replace
from types import MappingProxyType

import pytest

from sandtable.rules.desert_steel.engine.dice import ScriptedDice
from sandtable.rules.desert_steel.engine.game import Game
from sandtable.rules.desert_steel.engine.runner import sample_setup
from sandtable.rules.desert_steel.engine.decisions import Activation, Command, Interrupt, Lowest, Move


def new(catalog, number, seed=0, dice=None):
    model = catalog.model
    scenario = model.scenario(number)
    return Game(model, scenario, sample_setup(catalog, scenario), seed=seed, dice=dice)


def test_6_41_the_lowest_priority_combat_card_is_played_first(catalog):
    game = new(catalog, "III")
    everyone = [c for c, f in game.state.formations.items() if f.kind == "combat"]
    lowest = min(game.priority(c) for c in everyone)
    if game.mode == "lowest":  # the owner holds several equally low cards: he picks one
        assert all(game.priority(c) == lowest for c in game.decision.cards)
        game.apply(game.legal_actions()[0])
    first = next(e for e in game.events if e["e"] == "play")
    assert first["forced"] and game.priority(first["card"]) == lowest


def test_6_42_interrupts_need_a_better_card(catalog):
    game = new(catalog, "III")
    if game.mode == "lowest":
        game.apply(game.legal_actions()[0])
    assert game.mode in ("interrupt", "activation", "command")
    if game.mode == "interrupt":
        top = game.priority(game.state.stack[-1])
        offered = [a for a in game.legal_actions() if a[0] == "interrupt"]
        assert offered and all(game.priority(a[1]) > top for a in offered)


def test_6_53_german_command_activates_up_to_two_subordinates(catalog):
    game = new(catalog, "IV")  # 160 1st Panzer commands 161-164
    game.ask(Command("axis", card=160))
    combos = [a[1] for a in game.legal_actions() if a[0] == "activate"]
    assert max(len(c) for c in combos) == 2 and ("rally",) not in game.legal_actions()


def test_6_52_allied_command_activates_one_subordinate_and_rallies(catalog):
    game = new(catalog, "IV")  # 418 9th RTR commands 419-421
    game.ask(Command("allied", card=418))
    combos = [a[1] for a in game.legal_actions() if a[0] == "activate"]
    assert combos and all(len(c) == 1 for c in combos) and ("rally",) not in game.legal_actions()
    game.state.formations[419].shaken = True
    game.ask(Command("allied", card=418))  # asked again: the position changed
    assert ("rally",) in game.legal_actions()


def test_10_14_a_shaken_formation_leaves_the_hand(catalog):
    game = new(catalog, "II", seed=1)
    card = next(c for c, f in game.state.formations.items() if f.kind == "combat" and f.side == "axis")
    game.state.formations[card].shaken = True
    game.start_turn()
    assert card not in game.state.hands["axis"]


def test_8_53_entering_an_enemy_hex_ends_the_move(catalog):
    game = new(catalog, "III", seed=3)
    game.state.units = {k: u for k, u in game.state.units.items() if u.card in (161, 423)}
    mover = next(u for u in game.state.units.values() if u.card == 423)
    enemy = next(u for u in game.state.units.values() if u.card == 161)
    enemy.hex = game.ctx.field.board.neighbours(mover.hex)[0]
    for u in game.state.units.values():
        u.flipped = u.side == "axis"  # no opportunity fire to get in the way
    game.ask(Activation("allied", cards=(423,)), Move("allied", unit=mover.id, op="move", mp=10))
    game.apply(("step", enemy.hex))
    assert mover.hex == enemy.hex and game.mode != "move" and mover.flipped


def test_9_4_opportunity_fire_only_by_ready_units_in_range_and_sight(catalog):
    game = new(catalog, "III", seed=5)
    mover = next(u for u in game.state.units.values() if u.side == "allied")
    firers = game.opportunity_firers(mover)
    for f in firers:
        assert f.ready and f.side == "axis" and game.can_target(f, mover)
    for f in firers:
        f.opportunity_fired = True
    assert game.opportunity_firers(mover) == []  # one opportunity fire per unit per turn (§9.42)


def test_4_3_morale_phase_flips_units_up_and_removes_markers(catalog):
    game = new(catalog, "II", seed=2, dice=ScriptedDice([3, 3] * 50))
    units = [u for u in game.state.units.values() if u.on_map]
    for u in units:
        u.flipped = u.moved = True
        u.spotted = "B"
    units[0].suppressed = True
    game.state.turn = 1
    game.morale_phase()
    assert all(not u.flipped for u in units[1:]) and not any(u.moved or u.spotted for u in units)
    assert not units[0].suppressed and units[0].flipped  # rallied in step 3, but stays flipped (§4.3)


def test_8_52_overstacking_is_removed_in_the_morale_phase(catalog):
    game = new(catalog, "II", seed=2, dice=ScriptedDice([3, 3] * 50))
    axis = [u for u in game.state.units.values() if u.side == "axis" and u.on_map][:5]
    for u in axis:
        u.hex = axis[0].hex
    game.morale_phase()
    assert sum(1 for u in axis if u.status == "on-map") == 3
    assert all(u.fate["by"] == "overstacked" for u in axis if u.status == "destroyed")


def test_11_separated_units_are_marked_in_the_morale_phase(catalog):
    game = new(catalog, "III", seed=2, dice=ScriptedDice([3, 3] * 50))
    card = 162
    units = [u for u in game.state.units.values() if u.card == card]
    far = max(game.ctx.field.board.usable, key=lambda k: game.ctx.field.board.distance(k, units[0].hex))
    units[-1].hex = far
    game.morale_phase()
    assert units[-1].separated and not any(u.separated for u in units[:-1])


def test_6_43_the_long_card_play_example(catalog, monkeypatch):
    """§6.43's ten steps, with the example's eight cards (their priorities from the real comparator)."""
    from sandtable.rules.desert_steel.engine import priority as prio
    from sandtable.rules.desert_steel.engine.state import Formation
    from sandtable.rules.desert_steel.model import CardVariant, CombatCard, CommandCard

    def combat(n, nat, c3, exp):
        v = CardVariant(1942, (), exp, c3, 9, 1)
        return CombatCard(n, f"c{n}", f"c{n}", nat, "company", (1942, 1942), {1942: v}, {})

    def command(n, nat, c3):
        return CommandCard(n, f"k{n}", f"k{n}", nat, c3, (1942, 1942), (), None, {})

    cards = {1: combat(1, "british", "B", "seasoned"), 2: combat(2, "british", "C", "veteran"),
             3: combat(3, "british", "D", "seasoned"), 4: command(4, "british", "B"),
             11: combat(11, "german", "B", "seasoned"), 12: combat(12, "german", "C", "seasoned"),
             13: combat(13, "italian", "E", "seasoned"), 14: command(14, "german", "B")}

    class Fake:
        pass
    fake = Fake()
    fake.cards = cards
    keys = {n: prio.priority(fake, n, 1942) for n in cards}
    model = replace(catalog.model, cards=MappingProxyType({**catalog.model.cards, **cards}))
    scenario = model.scenario("III")
    game = Game(model, scenario, sample_setup(catalog, scenario))
    game.state.units.clear()
    game.state.formations = {n: Formation(n, c.side, "command" if isinstance(c, CommandCard) else "combat")
                             for n, c in cards.items()}
    monkeypatch.setattr(game, "priority", lambda n: keys[n])
    game.events.clear()
    game.state.hands = {"allied": [1, 2, 3, 4], "axis": [11, 12, 13, 14]}
    game.state.stack.clear()
    # 1: Italian E, the lowest combat card, must be played (the engine finds it itself in step 10)
    game.ask(Lowest("axis", cards=(13,)))
    game.apply(("play", 13))
    assert game.state.stack == [13]
    game.apply(("interrupt", 2))  # 2: Allied interrupts with C...
    game.apply(("interrupt", 11))  # ...Axis with German B: B wins on C3
    assert game.state.stack == [13, 11] and 2 in game.state.hands["allied"]
    game.apply(("pass",))
    game.apply(("pass",))  # 3: nobody interrupts: German B activated and set aside
    assert game.state.stack == [13] and 11 in game.state.played
    game.apply(("interrupt", 2))
    game.apply(("interrupt", 12))  # 4: same C3, both combat: the Veteran wins
    assert game.state.stack == [13, 2]
    game.apply(("interrupt", 1))
    game.apply(("interrupt", 14))  # 5: at equal C3 the command card beats the combat card
    # 6: nobody can beat German command B (Allied command B loses on nationality): it is activated
    assert 14 in game.state.played and game.state.stack == [13, 2] and 1 in game.state.hands["allied"]
    assert game.side_to_act == "allied" and ("interrupt", 4) in game.legal_actions()
    game.apply(("interrupt", 4))  # 7: Allied interrupts his own C with his command B, which is activated
    assert 4 in game.state.played and game.state.stack == [13, 2]
    game.apply(("pass",))  # 8: Allied C activated
    assert 2 in game.state.played and game.state.stack == [13]
    game.apply(("pass",))
    game.apply(("pass",))  # 9: nobody interrupts Italian E: activated
    assert 13 in game.state.played
    # 10: stack empty: the lowest combat card left in either hand is Allied D
    assert game.state.stack == [3]
    plays = [e["card"] for e in game.events if e["e"] == "play"]
    assert plays == [13, 11, 2, 14, 4, 3]


def test_6_56_limited_interruption_gives_each_card_one_window(catalog):
    model = catalog.model
    scenario = model.scenario("III")
    game = Game(model, scenario, sample_setup(catalog, scenario), seed=1, options={"limited_interruption": True})
    bot = __import__("sandtable.rules.desert_steel.bots.core", fromlist=["HeuristicBot"]).HeuristicBot(1)
    windows = {}
    for _ in range(400):
        if game.is_terminal():
            break
        if game.mode == "interrupt" and not game.decision.declared:
            top = game.state.stack[-1]
            windows[top] = windows.get(top, 0) + 1
        game.apply(bot.choose(game, game.legal_actions()))
        if game.state.turn > 1:
            break
    assert windows and max(windows.values()) == 1
    with pytest.raises(Exception, match="not implemented"):
        Game(model, scenario, sample_setup(catalog, scenario), options={"fog_of_war": True})


def test_6_55_limited_intelligence_hides_the_stack_and_failed_attempts_go_back(catalog, monkeypatch):
    from sandtable.rules.desert_steel.engine.state import Formation
    model = catalog.model
    scenario = model.scenario("III")
    game = Game(model, scenario, sample_setup(catalog, scenario), seed=1, options={"limited_intelligence": True})
    keys = {1: (3, 0, 2, -2), 2: (3, 0, 1, -1)}  # Allied C Veteran on the stack; German C Seasoned tries
    game.state.formations = {1: Formation(1, "allied", "combat"), 2: Formation(2, "axis", "combat")}
    monkeypatch.setattr(game, "priority", lambda n: keys[n])
    game.state.units.clear()
    game.state.hands = {"allied": [], "axis": [2]}
    game.state.stack = [1]
    assert game.observation("axis")["stack"] == [{"face_down": True, "c3": "C"}]
    assert game.observation("allied")["stack"] == [{"card": 1}]
    assert game.interrupt_cards("allied") == []  # the Allies have no card: only the Axis is asked
    game.ask(Interrupt("axis", declared=(("allied", None),)))
    assert ("interrupt", 2) in game.legal_actions()  # same C3 announced: it may try
    game.apply(("interrupt", 2))
    assert any(e["e"] == "interrupt-failed" and e["card"] == 2 for e in game.events)  # back to hand
    activated = [e["card"] for e in game.events if e["e"] == "activate"]
    assert activated[0] == 1  # nobody else can try: the face-down card activates, then 2 is played


def test_11_5_separation_effects_by_experience_and_class(catalog):
    game = new(catalog, "III", seed=2)
    u = next(x for x in game.state.units.values() if x.on_map)
    assert game.separation_key(u) is None  # not separated
    u.separated = True
    exp = game.experience(u)
    assert game.separation_key(u) == ("separated_veteran" if exp == "veteran" else "separated_vehicle")
    enemy = next(x for x in game.state.units.values() if x.on_map and x.side != u.side)
    key = game.separation_key(u)
    assert game.separation_morale(u) == {key: game.ctx.tables.morale(key)}
    assert game.fire_modifiers(u, enemy, move_fire=False, cover=False)[key] == game.ctx.tables.fire(key)
