"""The one batch runner (rules/lab/batch.py): simulate is a sweep of one point, so it gives the
same report on this process, local worker processes and a real two-worker Dask cluster; the
report is the one the engine's own batch made before (timings aside); a ruleset without an
engine is said plainly."""
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


def test_the_report_is_the_engines_own_batch_report(local_report, catalog):
    """No behaviour change: the engine's former batch (kept for the strength ladder) reports the
    same games the same way, byte for byte but for the timings."""
    from sandtable.cli.common import json_text
    from sandtable.rules.desert_steel.engine.runner import sample_setup, setup_pool
    from sandtable.rules.desert_steel.engine.runner import simulate as engine_simulate
    scenario = catalog.model.scenario("III")
    setups = setup_pool(catalog, scenario, 1, sample_setup(catalog, scenario))
    summary = engine_simulate([], scenario.id, setups, 6, 4, 1, ("random", "random"))
    assert TIMINGS.sub('"timing": 0', json_text(summary.to_json())).strip() == local_report.strip()


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
    """simulate --ladder's levels are batches of the one runner: the report is the engine's former
    ladder's, byte for byte but for the timings."""
    from sandtable.cli.common import json_text
    from sandtable.rules.desert_steel.engine.ladder import strength_ladder
    from sandtable.rules.desert_steel.engine.runner import sample_setup
    from sandtable.rules.desert_steel.bots.search import SearchBot
    monkeypatch.setattr(SearchBot, "REPLAN", ())  # a cheap search bot: the plumbing is what is compared
    scenario = catalog.model.scenario("III")
    before = json_text(strength_ladder([], scenario.id, sample_setup(catalog, scenario), 1, 1, 0, 1, ["search:2"]))
    assert main(["simulate", "III", "--ladder", "--games", "1", "--search-games", "1", "--ladder-budgets", "search:2",
                 "--json"]) == 0
    strip = re.compile(r'"median_game_seconds": [0-9.e+-]+')
    assert strip.sub("", capsys.readouterr().out).strip() == strip.sub("", before).strip()
