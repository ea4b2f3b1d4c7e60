"""Diagnostics that count what they name (issue 25), checked against counts made another way
from the same games: the actions chosen (not the events), the fire zones bombardments leave,
the units' fates. Three scenarios with bombardments, converted moves and opportunity fire."""
from __future__ import annotations

import pytest

from sandtable.rules.desert_steel.engine import actions as act
from sandtable.rules.desert_steel.engine import outcomes as oc
from sandtable.rules.desert_steel.engine.diagnostics import (NOT_ENGAGED, Recorder, aggregate, engagement,
                                                             game_diagnostics, objective_progress, warnings)
from sandtable.rules.desert_steel.engine.game import Game
from sandtable.rules.desert_steel.engine.runner import play, sample_setup

_GAMES: dict = {}


def _played(model, catalog, number, seed):
    if (number, seed) not in _GAMES:
        scenario = model.scenario(number)
        rec = Recorder()
        game = play(model, scenario, sample_setup(catalog, scenario), seed, recorder=rec)
        _GAMES[(number, seed)] = (game, rec)
    return _GAMES[(number, seed)]


def _by_actions(game) -> dict:
    """Counts from the decisions: who chose a move-and-fire, converted a move, fired out of turn
    (the typed actions of the log, not the dicts the diagnostics read)."""
    out = {s: {"move_and_fire": 0, "converted": 0, "opportunity": 0, "same_hex": 0, "overrun": 0}
           for s in ("allied", "axis")}
    for e in oc.read(game.events):
        if not isinstance(e, oc.ActionPlayed):
            continue
        count = out[e.side]
        match e.played():
            case act.Op(op="move-fire"):
                count["move_and_fire"] += 1
            case act.MoveFire():
                count["move_and_fire"] += 1
                count["converted"] += 1
            case act.OppFire() | act.ReactFire(target=str()):  # a close assault's reaction names its target
                count["opportunity"] += 1
            case act.SameHexFire():
                count["opportunity"] += 1
                count["same_hex"] += 1
            case act.ReactFire():  # an overrun's reaction: ("react-fire", unit[, mode])
                count["opportunity"] += 1
                count["overrun"] += 1
    return out


def _bombardments_by_fire_zones(game) -> dict:
    """Bombardments due and those that achieved nothing, from the fire zones they left (a spotted
    marker always leaves one) and the raid record."""
    out = {s: [0, 0] for s in ("allied", "axis")}
    pending = None
    for e in oc.read(game.events):
        match e:
            case oc.Bombardment() | oc.BombardmentCall(delay=0):
                if pending:
                    out[pending[0]][0] += 1
                    out[pending[0]][1] += not pending[1]
                pending = [e.side, False]
            case oc.FireZone(raid_card=str()) if pending:
                pending[1] = True
            case oc.BombardmentCancelled() | oc.BombardmentLost():
                out[e.side][0] += 1
                out[e.side][1] += 1
    if pending:
        out[pending[0]][0] += 1
        out[pending[0]][1] += not pending[1]
    for r in game.state.raids:  # on-call ones delayed past the last turn, or due after the game ended
        if r["kind"] == "bombardment" and r.get("origin") == "on-call" and r["turn"] > game.ctx.scenario.turns:
            out[r["side"]][0] += 1
            out[r["side"]][1] += 1
        elif r["kind"] == "bombardment" and not r["done"] and r["turn"]:
            out[r["side"]][0] += 1
            out[r["side"]][1] += 1
    return out


@pytest.mark.parametrize("number,seed", [("VII", 3), ("IX", 3), ("XIII", 3)])
def test_diagnostics_match_counts_from_the_decisions_and_the_fates(model, catalog, number, seed):
    game, rec = _played(model, catalog, number, seed)
    d = game_diagnostics(game, rec)
    acts = _by_actions(game)
    bombs = _bombardments_by_fire_zones(game)
    fires = sum(isinstance(e, oc.Fire) for e in oc.read(game.events))
    for side in ("allied", "axis"):
        assert d[side]["move_and_fire"] == acts[side]["move_and_fire"], side
        assert d[side]["move_and_fire_converted"] == acts[side]["converted"], side
        assert d[side]["opportunity_fires"] == acts[side]["opportunity"], side
        assert d[side]["same_hex_fires"] == acts[side]["same_hex"], side
        assert d[side]["overrun_fires"] == acts[side]["overrun"], side
        assert [d[side]["bombardments"], d[side]["wasted_bombardments"]] == bombs[side], side
        lost = sum(1 for u in game.state.units.values() if u.side == side and
                   (u.status == "destroyed" or (u.status == "exited" and u.fate.get("counts_as_loss"))))
        assert d[side]["losses"] == lost, side
    assert d["allied"]["fires"] + d["axis"]["fires"] == fires
    assert d["allied"]["no_fire_game"] == int(fires == 0)


def test_the_games_measured_have_what_the_diagnostics_name(model, catalog):
    """The comparisons above are not all zeros: converted moves, bombardments wasted and not,
    opportunity fire of more than one kind occur in these games."""
    rows = [game_diagnostics(*_played(model, catalog, n, 3)) for n in ("VII", "IX", "XIII")]
    total = {k: sum(r[s][k] for r in rows for s in ("allied", "axis"))
             for k in ("move_and_fire_converted", "bombardments", "wasted_bombardments", "opportunity_fires",
                       "same_hex_fires")}
    assert total["move_and_fire_converted"] > 0 and total["opportunity_fires"] > 0
    assert total["bombardments"] > total["wasted_bombardments"] > 0


def test_objective_progress_is_zero_when_nothing_moved_and_leaves_out_units_already_there(model, catalog):
    """XI read 100 % from set-up (units that start on the objective counted) and XIV 99 % for an
    Axis that lost every game: with nothing moved the share covered is 0, or None where every
    scoring unit starts on the place."""
    for number in ("XI", "XIV", "II"):
        scenario = model.scenario(number)
        game = Game(model, scenario, sample_setup(catalog, scenario), 1)
        rec = Recorder()
        rec.start(game)
        for side in ("allied", "axis"):
            assert objective_progress(game, side, rec.start_hex) in (0.0, None), (number, side)


def test_objective_progress_counts_the_scoring_units_share_of_the_way(model, catalog):
    """II: the British score by Matildas leaving by the east edge; a Matilda that goes half way
    (by hexes) gives the share it covered over all the Matildas' way, another unit gives nothing."""
    from sandtable.rules.desert_steel.engine.diagnostics import scoring_targets
    from sandtable.rules.desert_steel.bots.core import reverse_costs
    scenario = model.scenario("II")
    game = Game(model, scenario, sample_setup(catalog, scenario), 1)
    rec = Recorder()
    rec.start(game)
    side = next(s for s in ("allied", "axis") if objective_progress(game, s, rec.start_hex) is not None)
    scoring = [u for u in game.state.units.values() if u.side == side and scoring_targets(game, side, u)]
    others = [u for u in game.state.units.values() if u.side == side and u not in scoring and u.card >= 0]
    assert scoring
    far = reverse_costs(game.ctx.field, set(scoring_targets(game, side, scoring[0])), None)
    starts = {u.id: far[u.hex] for u in scoring if u.hex in far}
    mover = scoring[0]
    step = min(game.ctx.field.board.neighbours(mover.hex), key=lambda h: far.get(h, 99))
    game.log("move", unit=mover.id, hex=step, spent=1)
    for o in others[:1]:
        game.log("move", unit=o.id, hex=min(game.ctx.field.board.neighbours(o.hex), key=lambda h: far.get(h, 99)),
                 spent=1)
    expected = (starts[mover.id] - far[step]) / sum(v for v in starts.values() if v > 0)
    assert objective_progress(game, side, rec.start_hex) == round(expected, 3)


def test_a_batch_of_games_without_fire_or_losses_warns_that_the_bots_did_not_engage():
    quiet = {"overstack_losses": 0, "fortified_units": 0, "fortified_units_leaving_turn1": 0, "opportunity_fires": 0,
             "move_and_fire": 0, "wasted_bombardments": 0, "fires": 0, "losses": 0, "no_fire_game": 1,
             "no_loss_game": 1, "objective_progress": None}
    busy = dict(quiet, fires=12, losses=3, no_fire_game=0, no_loss_game=0)
    games = [{"allied": quiet, "axis": quiet}] * 3 + [{"allied": busy, "axis": busy}]
    summary = {"games": 4, "diagnostics": aggregate(games),
               "sides": {s: {"average_losses_by_type": {}, "win_rate": 0.5} for s in ("allied", "axis")}}
    e = engagement(summary)
    assert e["games_without_fire"] == 0.75 and not e["engaged"] and e["fires_a_game"] == 6
    assert any(w.startswith(NOT_ENGAGED) for w in warnings(summary))
    summary["diagnostics"] = aggregate([{"allied": busy, "axis": busy}] * 4)
    assert engagement(summary)["engaged"] and not any(NOT_ENGAGED in w for w in warnings(summary))


def test_simulate_reports_engagement(capsys):
    import json
    from sandtable.cli import main
    assert main(["simulate", "V", "--games", "2", "--seed", "2", "--no-progress", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    e = out["engagement"]
    assert e["engaged"] and e["fires_a_game"] > 0 and e["games_without_fire"] == 0
    assert main(["simulate", "V", "--games", "2", "--seed", "2", "--no-progress"]) == 0
    assert "engagement:" in capsys.readouterr().out
