"""The play and board doors: what the CLI and the editor get when they ask a pack's ruleset for
its contribution, and the plain words when it has none."""
from __future__ import annotations

from types import SimpleNamespace

import pytest

from sandtable.cli.doors import NoContribution, board_door, play_door


def test_the_board_doors_zones_are_the_zone_commands(catalog):
    """zones(catalog, scenario) holds, for every formation with a zone, what `sandtable zone` says."""
    model = catalog.model
    scenario = model.scenario("I")
    zones = board_door(catalog, "zones")(catalog, scenario)
    zone_of = board_door(catalog, "zone")
    assert set(zones) == {"allied", "axis"}
    for side, cards in zones.items():
        assert cards
        for card, hexes in cards.items():
            assert hexes == zone_of(model, scenario, side, card).hexes


def test_the_board_door_says_what_the_user_named_wrong(catalog):
    model = catalog.model
    scenario = model.scenario("I")
    with pytest.raises(LookupError, match="no hex 'Z9999'"):
        board_door(catalog, "los")(model, scenario, "Z9999", "A2213")
    with pytest.raises(LookupError, match="no unit type 'tiger-3'"):
        board_door(catalog, "path")(model, scenario, "tiger-3", "A2213", "A2215")
    with pytest.raises(LookupError, match="card 999 has no zone"):
        board_door(catalog, "zone")(model, scenario, "allied", 999)


def test_a_ruleset_without_the_contribution_is_said_plainly():
    bare = SimpleNamespace(ruleset=SimpleNamespace(title="Chess", name="chess", play=None, board=None))
    with pytest.raises(NoContribution, match="the Chess ruleset has no game engine"):
        play_door(bare)
    with pytest.raises(NoContribution, match="the Chess ruleset has no line of sight"):
        board_door(bare, "los")
    with pytest.raises(NoContribution, match="names no ruleset"):
        play_door(SimpleNamespace(ruleset=None))


def test_the_play_door_plays_and_tells_a_game(catalog):
    play = play_door(catalog)
    scenario = catalog.model.scenario("III")
    recorder = play.recorder()
    game = play.play(catalog.model, scenario, play.sample_setup(catalog, scenario), 2, ("random", "random"),
                     recorder=recorder)
    record = play.record(game, recorder)
    assert record["winner"] in ("allied", "axis", "draw") and record["actions"] == len(game.actions)
    assert any(line.startswith("== Turn 1") for line in play.narrate(game, recorder))
    assert play.valid_bot("search:8") and not play.valid_bot("search:0") and "heuristic" in play.bots
