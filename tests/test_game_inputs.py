"""Issue #19, class 6 (game inputs): setups and game logs are read as regular files and
checked (schema, scenario, hexes) before any game work; logs record the packs they were
played with and replay says when they differ; simulate streams its tasks and caps --jobs,
so --games 1000000000 --jobs 1000 neither allocates a billion tasks nor forks a thousand
workers (run under a memory cap)."""
from __future__ import annotations

import json
import os
import shutil
import signal
from pathlib import Path

import pytest

from bounded import assert_clean, deadline, has_children, run_cli
from sandtable.cli import main
from sandtable.rules.catalog import bundled_pack

SCENARIO_FILE = "01-beda-fomm.json"


@pytest.fixture(scope="module")
def pack(tmp_path_factory) -> Path:
    """The bundled pack with only Beda Fomm's sample setup (small, fast to load and play)."""
    dest = tmp_path_factory.mktemp("pack") / "desert-steel"
    shutil.copytree(bundled_pack(), dest)
    for p in (dest / "setups").iterdir():
        if p.name != SCENARIO_FILE:
            p.unlink()
    return dest


@pytest.fixture(scope="module")
def game_log(pack, tmp_path_factory) -> Path:
    log = tmp_path_factory.mktemp("log") / "game.jsonl"
    assert main(["play", "I", "--pack", str(pack), "--seed", "1", "--log", str(log), "--quiet"]) == 0
    return log


def run(capsys, *argv) -> tuple[int, str, str]:
    with deadline(60):
        code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    assert "Traceback" not in err
    return code, out, err


BAD_SETUPS = {  # file text -> what the message says
    "[1, 2]": "not a list",
    "42": "not a number",
    "": "the file is empty",
    '{"kind": "setup"}': "'scenario' is required",
    '{"kind": "setup", "id": "x", "scenario": "beda-fomm", "sides": {"allied": {"placements": [{"card": "x"}]}}}':
        "is not of type 'integer'",
}


@pytest.mark.parametrize("text", list(BAD_SETUPS), ids=["list", "number", "empty", "no-fields", "wrong-type"])
def test_a_malformed_setup_is_refused_before_the_game(pack, tmp_path, capsys, text):
    setup = tmp_path / "setup.json"
    setup.write_text(text)
    code, _, err = run(capsys, "play", "I", "--pack", pack, "--setup", setup)
    assert code == 2 and str(setup) in err and BAD_SETUPS[text].replace("not a ", "") in err, err


def test_a_fifo_as_setup_is_refused_unread(pack, tmp_path, capsys):
    os.mkfifo(tmp_path / "pipe.json")
    code, _, err = run(capsys, "simulate", "I", "--pack", pack, "--setup", tmp_path / "pipe.json", "--games", "1")
    assert code == 2 and "FIFO" in err


def test_a_setup_for_another_scenario_is_refused(pack, capsys):
    code, _, err = run(capsys, "play", "II", "--pack", pack, "--setup", pack / "setups" / SCENARIO_FILE)
    assert code == 2 and "for scenario 'beda-fomm', not 'battleaxe'" in err and "/scenario" in err


def test_raid_form_setup_with_off_board_hexes_or_wrong_types_is_refused(pack, tmp_path, capsys):
    sample = json.loads((pack / "setups" / SCENARIO_FILE).read_text())
    side = next(s for s in sample["sides"].values() if s.get("placements"))
    for name, value, words in (("off.json", "Z9999", "setup-hex"), ("type.json", 5, "is not of type 'string'")):
        side["placements"][0]["hex"] = value
        (tmp_path / name).write_text(json.dumps(sample))
        code, _, err = run(capsys, "export", "raid-form", "I", "--pack", pack, "--setup", tmp_path / name,
                           "-o", tmp_path / "form.pdf")
        assert code == 2 and words in err and str(tmp_path / name) in err, err
    assert not (tmp_path / "form.pdf").exists()


@pytest.mark.parametrize("command", [["play", "I", "--quiet"], ["simulate", "I", "--games", "1", "--no-progress"]])
@pytest.mark.parametrize("hex_", ["B9999", "A0101", "C0101"])
def test_play_and_simulate_refuse_a_setup_with_a_hex_off_the_board(pack, tmp_path, capsys, command, hex_):
    """Found by QA: a hex of a map letter the board has but a number it has not (B9999), or of a
    map the scenario does not use, reached the engine as a KeyError (raid-form already refused it)."""
    sample = json.loads((pack / "setups" / SCENARIO_FILE).read_text())
    side = next(s for s in sample["sides"].values() if s.get("placements"))
    side["placements"][0]["hex"] = hex_
    (tmp_path / "off.json").write_text(json.dumps(sample))
    code, _, err = run(capsys, *command, "--pack", pack, "--setup", tmp_path / "off.json")
    assert code == 2 and "setup-hex" in err and "/placements/0/hex" in err and "internal error" not in err, err


@pytest.mark.parametrize("named", ["I", "i", "BEDA-FOMM"])
def test_a_setup_naming_its_scenario_by_roman_number_or_in_another_case_is_used(pack, tmp_path, capsys, named):
    sample = json.loads((pack / "setups" / SCENARIO_FILE).read_text())
    (tmp_path / "s.json").write_text(json.dumps(dict(sample, scenario=named)))
    code, _, err = run(capsys, "play", "I", "--quiet", "--pack", pack, "--setup", tmp_path / "s.json")
    assert code == 0, err


def _edit_log(src: Path, dest: Path, edit) -> Path:
    lines = src.read_text().splitlines()
    edit(lines)
    dest.write_text("\n".join(lines) + "\n")
    return dest


@pytest.mark.parametrize("edit, words", [
    (lambda ls: ls.__setitem__(slice(None), ["[1, 2]"]), "line 1: not a sandtable game log header"),
    (lambda ls: ls.clear(), "the log is empty"),
    (lambda ls: ls.pop(0), "line 1: not a sandtable game log header"),
    (lambda ls: ls.insert(2, '{"t": 1, "e": "action", "side": "allied", "action": 5}'),
     "line 3: not an event of the rules: event 'action': field 'action' is 5, not action (a list) (at /action)"),
    (lambda ls: ls.insert(2, "7"), 'line 3: not an event of the rules: an event is an object with a string "e", not 7'),
    (lambda ls: ls.insert(2, '{"t": 1, "e": "action", "side": "allied", "action": ["no-such-action", 1]}'),
     "line 3: not an event of the rules: event 'action': field 'action' is ['no-such-action', 1], not an action of "
     "the rules: unknown action kind 'no-such-action'"),
    (lambda ls: ls.insert(2, '{"t": 1, "e": "action", "side": "allied", "action": ["op", "161.1"]}'),
     "line 3: not an event of the rules: event 'action': field 'action' is ['op', '161.1'], not an action of the "
     "rules: 'op' takes unit, op (at /action)"),
    (lambda ls: ls.insert(2, '{"t": 1, "e": "action", "side": "allied", "action": ["pass"]}'), "does not replay: line 3: illegal action"),
    (lambda ls: ls.insert(2, '{"t": 1, "e": "action", "side": "allied", "action": ["play", "502"]}'),
     "line 3: not an event of the rules: event 'action': field 'action' is ['play', '502'], not an action of the "
     "rules: its card is \"502\", not an int (at /action)"),
    (lambda ls: ls.insert(2, '{"t": 1, "e": "teleport", "unit": "x"}'),
     "line 3: not an event of the rules: unknown event kind 'teleport'"),
    (lambda ls: ls.insert(2, '{"t": 1, "e": "turn", "visibility": 8, "weather": "rain"}'),
     "line 3: not an event of the rules: event 'turn' has no field 'weather'"),
    (lambda ls: ls.insert(2, '{"t": 1, "e": "move", "unit": "x"}'),
     "line 3: not an event of the rules: event 'move' lacks its field 'hex'"),
    (lambda ls: ls.insert(2, '{"t": 1, "e": "turn", "visibility": "far"}'),
     "line 3: not an event of the rules: event 'turn': field 'visibility' is 'far', not int"),
    (lambda ls: ls.insert(2, '{"e": "morale-phase"}'), "line 3: not an event of the rules: event 'morale-phase' lacks its turn"),
], ids=["list", "empty", "no-header", "action-not-list", "event-not-object", "unknown-action", "action-too-short",
        "refused-action", "wrong-field-type", "unknown-event",
        "unknown-field", "missing-field", "wrong-type", "no-turn"])
def test_a_malformed_log_is_refused_with_its_line(pack, game_log, tmp_path, capsys, edit, words):
    bad = _edit_log(game_log, tmp_path / "bad.jsonl", edit)
    code, _, err = run(capsys, "replay", bad, "--pack", pack)
    assert code == (1 if "does not replay" in words else 2) and words in err and "Traceback" not in err, err
    assert str(bad) in err, err
    code, out, err = run(capsys, "replay", bad, "--pack", pack, "--json")  # the same refusal, and its code, as JSON
    refusal = json.loads(out)
    assert code == refusal["exit_code"] == (1 if "does not replay" in words else 2) and words in refusal["error"], out


def test_a_log_records_its_packs_and_replay_says_when_they_differ(pack, game_log, tmp_path, capsys):
    header = json.loads(game_log.read_text().splitlines()[0])
    (recorded,) = header["packs"]
    assert recorded["id"] == "desert-steel" and recorded["version"] and len(recorded["hash"]) == 16
    code, out, err = run(capsys, "replay", game_log, "--pack", pack)
    assert code == 0 and "identical" in out and "differ" not in err
    changed = shutil.copytree(pack, tmp_path / "changed")
    (changed / "NOTES.md").write_text("not a document: the hash ignores it")
    rules = changed / "tables/rule-tables.json"
    rules.write_text(rules.read_text().replace("\n", "\n ", 1))  # same data, other bytes
    code, out, err = run(capsys, "replay", game_log, "--pack", changed, "--json")
    (change,) = json.loads(out)["pack_changes"]
    assert change.startswith(f"pack desert-steel: same version {recorded['version']}, but its content changed "
                             f"(hash {recorded['hash']} then, ")


def test_simulate_a_billion_games_on_a_thousand_jobs_streams_under_a_memory_cap(pack):
    # interrupted once its worker pool runs (so the tasks are being fed), whatever the machine's load
    result = run_cli("simulate", "I", "--pack", pack, "--games", "1000000000", "--jobs", "1000", "--no-progress",
                     timeout=60, memory_mb=2048, send_signal=(has_children, signal.SIGINT))
    assert "MemoryError" not in result.stderr and "Traceback" not in result.stderr, result.stderr[-2000:]
    assert result.returncode == 130, (result.returncode, result.stderr[-2000:])


def test_simulate_killed_by_sigterm_ends_its_workers_without_tracebacks(pack):
    # `kill <pid>` of a batch: the pool is terminated (run_cli fails if a worker outlives it),
    # and no worker prints a BrokenPipeError traceback on its way out
    result = run_cli("simulate", "I", "--pack", pack, "--games", "1000000000", "--jobs", "2", "--no-progress",
                     timeout=60, memory_mb=2048, send_signal=(has_children, signal.SIGTERM))
    assert "Traceback" not in result.stderr, result.stderr[-2000:]
    assert result.returncode == 128 + signal.SIGTERM, (result.returncode, result.stderr[-2000:])


# --- a batch's report from running totals equals the report from every result ------------------

def _result(i, rng):
    winner = rng.choice(["allied", "axis", "draw"])
    diag = {side: {"overstack_losses": rng.randint(0, 3), "fortified_units": rng.randint(0, 4),
                   "fortified_units_leaving_turn1": rng.randint(0, 2), "opportunity_fires": rng.randint(0, 9),
                   "move_and_fire": rng.randint(0, 5), "wasted_bombardments": rng.randint(0, 2),
                   "objective_progress": rng.choice([None, rng.random()])} for side in ("allied", "axis")}
    return {"index": i, "seed": i, "winner": winner, "level": rng.choice([None, "decisive"]),
            "points": {"allied": rng.randint(0, 5), "axis": rng.randint(0, 5)}, "cause": "points",
            "actions": rng.randint(100, 900), "turns": rng.randint(1, 10),
            "losses": {"allied": {"gb-tank": rng.randint(0, 3)}, "axis": {"it-inf": rng.randint(0, 3)}},
            "setup": rng.randint(0, 2), "diagnostics": diag, "seconds": rng.random()}


@pytest.mark.parametrize("seed", range(5))
def test_running_totals_give_the_same_report_as_every_result(seed, monkeypatch):
    import random
    from sandtable.rules.desert_steel.engine.runner import Summary
    rng = random.Random(seed)
    results = [_result(i, rng) for i in range(rng.randint(1, 60))]
    whole = Summary("s", len(results), seed, ("heuristic", "random"), results=list(results))
    monkeypatch.setattr(Summary, "KEEP", 3)
    streamed = Summary("s", len(results), seed, ("heuristic", "random"))
    for r in results:
        streamed.add(r)
    assert len(streamed.results) <= 2 * 3 and streamed.played == len(results)
    a, b = whole.to_json(), streamed.to_json()
    if len(results) > 6:
        assert streamed.folded is not None
        a.pop("most_common_cause"), b.pop("most_common_cause")  # ties may break differently
        a.pop("per_game"), b.pop("per_game_note")  # each game's seed is kept while the batch is small
    assert json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)


@pytest.mark.parametrize("command", [["simulate", "I", "--games", "100000", "--jobs", "2"],
                                     ["sweep", "I", "--vary", "unit-type:it-m13-40/defense=2..3", "--games", "4000",
                                      "--jobs", "2"]])
def test_ctrl_c_on_a_parallel_batch_is_quiet(command, pack, tmp_path):
    # a terminal's Ctrl-C reaches the workers too: they leave it to the parent, which ends the pool
    extra = ["-o", str(tmp_path / "sweep")] if command[0] == "sweep" else []
    result = run_cli(*command, "--pack", pack, "--no-progress", *extra, timeout=60, memory_mb=2048,
                     send_signal=(has_children, signal.SIGINT), to_group=True)
    assert "Traceback" not in result.stderr, result.stderr[-2000:]
    assert result.returncode == 130, (result.returncode, result.stderr[-2000:])
