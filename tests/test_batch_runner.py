"""The one batch runner (rules/lab/batch.py): simulate is a sweep of one point, so it gives the
same report on this process, local worker processes and a real two-worker Dask cluster; the
report is that of its games played one at a time (timings aside); the strength ladder's levels
are its batches; the engine keeps no batch of its own; a ruleset without an engine is said
plainly."""
from __future__ import annotations

import json
import re
from types import SimpleNamespace

import pytest

from sandtable.cli import main

# Gazala (the fastest scenario), random bots, automatic setups in the mix: every path of a task.
ARGS = ["simulate", "III", "--games", "6", "--seed", "4", "--bots", "random,random", "--setups", "1", "--json",
        "--no-progress"]
TIMINGS = re.compile(r'"(median_game_seconds|games_per_second_one_core)": [0-9.e+-]+')


def simulate(capsys, *extra) -> tuple[int, str, str]:
    code = main([*ARGS, *extra])
    out, err = capsys.readouterr()
    return code, TIMINGS.sub('"timing": 0', out), err


@pytest.fixture(scope="module")
def local_report():
    import contextlib
    import io
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(ARGS) == 0
    return TIMINGS.sub('"timing": 0', out.getvalue())


def test_a_real_dask_cluster_gives_the_same_report(local_report, capsys):
    pytest.importorskip("distributed")
    from sandtable.rules.lab.cluster import local_cluster
    with local_cluster(workers=2, timeout=90) as address:
        code, out, err = simulate(capsys, "--scheduler", address)
    assert code == 0, err
    assert out == local_report
    assert json.loads(out)["games"] == 6 and len(json.loads(out)["per_game"]) == 6


def test_two_processes_give_the_same_report(local_report, capsys):
    code, out, err = simulate(capsys, "--jobs", "2")
    assert code == 0, err
    assert out == local_report


def test_the_report_is_that_of_its_games_played_one_at_a_time(local_report, catalog):
    """The runner adds and loses nothing: game i played alone (seed game_seed(4, i), setup i mod 2,
    through the ruleset's own play door) and reported by the ruleset's summary gives the batch's
    report, byte for byte but for the timings."""
    from sandtable.cli.common import json_text
    from sandtable.rules.lab.batch import game_seed, play_door
    play = play_door(catalog)
    model = catalog.model
    scenario = model.scenario("III")
    setups = play.setup_pool(catalog, scenario, 1, play.sample_setup(catalog, scenario))
    context = play.context(model, scenario)
    summary = play.summary(scenario.id, 6, 4, ("random", "random"))
    for i in range(6):
        recorder = play.recorder()
        game = play.play(model, scenario, setups[i % 2], game_seed(4, i), ("random", "random"), context=context,
                         recorder=recorder)
        summary.add({"index": i, "seed": game_seed(4, i), "setup": i % 2, **play.record(game, recorder),
                     "seconds": 1.0})  # timings are not compared
    assert TIMINGS.sub('"timing": 0', json_text(summary.to_json())).strip() == local_report.strip()


def test_the_engine_keeps_no_batch_of_its_own():
    """Batches are the lab's: the engine's runner has no worker pool (multiprocessing, an
    initializer) beside it, so no second path can drift from simulate's seeds and order."""
    from pathlib import Path

    import sandtable.rules.desert_steel.engine as engine
    for path in Path(engine.__file__).parent.rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        assert "multiprocessing" not in text and "concurrent.futures" not in text, path


def test_an_unreachable_scheduler_is_said_in_one_line(capsys):
    pytest.importorskip("distributed")
    from sandtable.rules.lab.cluster import free_port
    code, _, err = simulate(capsys, "--scheduler", f"tcp://127.0.0.1:{free_port()}", "--connect-timeout", "1")
    assert code == 1 and "cannot reach the Dask scheduler" in err and "Traceback" not in err


def test_a_bad_scheduler_address_is_a_usage_error(capsys):
    code, _, err = simulate(capsys, "--scheduler", "udp://somewhere:1")
    assert code == 2 and "tcp://HOST:PORT" in err


def test_the_batch_seeds_are_the_rulesets(catalog):
    """`play --seed S` replays game i of a batch only if both derive S alike."""
    from sandtable.rules.lab.batch import game_seed, play_door
    play = play_door(catalog)
    assert all(game_seed(b, i) == play.game_seed(b, i) for b in (0, 1, 7, 2 ** 31 - 1) for i in range(0, 5000, 37))


def test_a_ruleset_without_an_engine_is_said_plainly():
    from sandtable.rules.lab.batch import BatchError, play_door
    pack = SimpleNamespace(ruleset=SimpleNamespace(name="board-only", play=None))
    with pytest.raises(BatchError, match=r"ruleset \(board-only\) has no game engine"):
        play_door(pack)


def test_records_come_out_in_game_order_whatever_order_chunks_end():
    from sandtable.rules.lab.batch import Ordered, chunked
    got = []
    ordered = Ordered(got.append)
    work = list(chunked(((0, g, g, 0) for g in range(7)), 3))
    assert [len(games) for _, games in work] == [3, 3, 1]
    for _, games in reversed(work):
        ordered([{"game": g} for _, g, _, _ in games])
    assert [r["game"] for r in got] == list(range(7)) and not ordered.held


def test_the_ladder_plays_its_levels_on_the_same_runner(catalog, capsys, monkeypatch):
    """simulate --ladder's levels are batches of the one runner: each level's counts, cause and
    diagnostics are those of ``simulate --bots B,B`` with the same games and seed, and the ladder
    is the same for --jobs 1 and 2 (timings aside)."""
    from sandtable.cli.common import json_text
    from sandtable.rules.desert_steel.bots.search import SearchBot
    from sandtable.rules.lab.batch import play_door
    from sandtable.rules.lab.simulate import simulate as batch
    monkeypatch.setattr(SearchBot, "REPLAN", ())  # a cheap search bot: the plumbing is what is compared
    scenario = catalog.model.scenario("III")
    setup = play_door(catalog).sample_setup(catalog, scenario)
    strip = re.compile(r'"median_game_seconds": [0-9.e+-]+')
    outs = []
    for jobs in ("1", "2"):
        assert main(["simulate", "III", "--ladder", "--games", "2", "--search-games", "1", "--ladder-budgets",
                     "search:2", "--seed", "3", "--jobs", jobs, "--json"]) == 0
        outs.append(strip.sub('"median_game_seconds": 0', capsys.readouterr().out))
    assert outs[0] == outs[1]
    levels = json.loads(outs[0])["levels"]
    assert [(lv["bot"], lv["games"]) for lv in levels] == [("heuristic", 2), ("search:2", 1)]
    for lv in levels:
        alone = json.loads(json_text(batch(catalog, scenario, setup, lv["games"], 3, (lv["bot"], lv["bot"])).to_json()))
        assert (lv["allied"], lv["axis"], lv["draws"]) == (alone["sides"]["allied"]["wins"],
                                                           alone["sides"]["axis"]["wins"], alone["draws"])
        assert lv["most_common_cause"] == alone["most_common_cause"]
        assert lv["diagnostics"] == alone["diagnostics"]


@pytest.mark.parametrize("extra", [[], ["--ladder", "--search-games", "0", "--ladder-budgets", "search:2"]],
                         ids=["simulate", "ladder"])
def test_progress_shows_on_a_terminal_and_never_under_json(capsys, monkeypatch, extra):
    """On a terminal the games' progress is a bar on stderr; --json and --no-progress leave stderr
    empty (a program reading the report, or the user's redirect, sees only the report)."""
    import io
    import sys

    class Terminal(io.StringIO):
        def isatty(self):
            return True
    base = ["simulate", "III", "--games", "2", "--seed", "1", "--bots", "random,random", *extra]
    for more, shown in (([], True), (["--json"], False), (["--no-progress"], False)):
        err = Terminal()
        monkeypatch.setattr(sys, "stderr", err)
        assert main([*base, *more]) == 0
        assert ("2/2" in err.getvalue()) is shown, (more, err.getvalue())
        if "--json" in more:
            assert json.loads(capsys.readouterr().out)
        capsys.readouterr()


@pytest.mark.parametrize("jobs,extra", [("1", []), ("2", []), ("1", ["--ladder", "--search-games", "0"])],
                         ids=["simulate", "simulate-jobs-2", "ladder"])
def test_a_scenario_the_engine_refuses_is_one_line_and_exit_1(capsys, monkeypatch, jobs, extra):
    """The engine's refusal, met in a worker, comes back as the batch's error: one line, exit 1,
    no traceback, whether the games run here or in worker processes (forked: the refusal too)."""
    from sandtable.rules.desert_steel.engine.context import EngineError
    from sandtable.rules.desert_steel.play import DesertSteelPlay

    def refuse(self, model, scenario):
        raise EngineError(f"scenario {scenario.id}: needs the advanced rules: sandstorm")
    monkeypatch.setattr(DesertSteelPlay, "context", refuse)
    monkeypatch.setattr("sandtable.rules.lab.batch._CACHE", {})  # no context kept from an earlier batch here
    code = main(["simulate", "III", "--games", "2", "--bots", "random,random", "--jobs", jobs, "--no-progress",
                 *extra])
    out, err = capsys.readouterr()
    assert code == 1 and not out, (out, err)
    assert err.count("\n") == 1 and "sandstorm" in err and "Traceback" not in err


def test_the_engine_has_no_batch_runner_of_its_own():
    """One batch runner (rules/lab): the engine's runner plays one game; a batch is the lab's."""
    from sandtable.rules.desert_steel.engine import runner
    assert not hasattr(runner, "simulate")


def test_the_ladder_plays_the_optional_rules_asked_for(catalog, capsys):
    """--limited-intelligence reaches the ladder's games as it reaches simulate's (it was dropped)."""
    from sandtable.cli.common import json_text
    from sandtable.rules.lab.batch import play_door
    from sandtable.rules.lab.simulate import simulate as batch
    scenario = catalog.model.scenario("III")
    setup = play_door(catalog).sample_setup(catalog, scenario)
    assert main(["simulate", "III", "--ladder", "--games", "2", "--search-games", "0", "--seed", "2",
                 "--limited-intelligence", "--json"]) == 0
    level = json.loads(capsys.readouterr().out)["levels"][0]
    alone = json.loads(json_text(batch(catalog, scenario, setup, 2, 2, ("heuristic", "heuristic"),
                                       options={"limited_intelligence": True}).to_json()))
    assert level["diagnostics"] == alone["diagnostics"] and level["most_common_cause"] == alone["most_common_cause"]
    plain = json.loads(json_text(batch(catalog, scenario, setup, 2, 2, ("heuristic", "heuristic")).to_json()))
    assert plain["diagnostics"] != alone["diagnostics"]  # else this test could not tell the option was played


def _freeze_count_after_settling() -> int:
    import gc

    from sandtable.rules.lab import batch
    gc.unfreeze()
    batch._settle()
    return gc.get_freeze_count()


def test_a_worker_takes_its_prepared_pack_out_of_the_collectors_sweeps():
    """A pool worker freezes what lives once it has prepared a pack and context (gc.freeze: a
    long batch's full collections no longer walk them); the caller's own process never does (an
    editor's session would keep its garbage for good)."""
    import gc
    import multiprocessing

    from sandtable.rules.lab import batch
    with multiprocessing.get_context("fork").Pool(1) as pool:
        assert pool.apply(_freeze_count_after_settling) > 0
    before = gc.get_freeze_count()
    batch._settle()
    assert gc.get_freeze_count() == before
