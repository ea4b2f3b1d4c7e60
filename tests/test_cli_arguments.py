"""Issue #19, classes 7 and 8: every numeric option is range-checked before the command
runs (exit 2, the flag named); printer-profile errors name the file; an unreadable pack
subfolder or setup file is a finding naming it, never silence or a traceback."""
from __future__ import annotations

import json
import math
import os
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bounded import deadline
from sandtable import cli
from sandtable.cli import main
from sandtable.rules import limits
from sandtable.rules.catalog import load_catalog

FIXTURE = Path(__file__).resolve().parent / "fixtures/base"


def run(capsys, *argv):
    with deadline(60):
        code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, out, err


@pytest.mark.parametrize("argv, flag", [
    (["export", "counters", "-o", "x.pdf", "--bleed", "-1"], "--bleed"),
    (["export", "counters", "-o", "x.pdf", "--bleed", "1e9"], "--bleed"),
    (["export", "markers", "I", "-o", "x.pdf", "--bleed", "nan"], "--bleed"),
    (["export", "map", "A-over-B-north-up", "-o", "x.pdf", "--overlap", "100000"], "--overlap"),
    (["export", "map", "A-over-B-north-up", "-o", "x.pdf", "--overlap=-inf"], "--overlap"),
    (["export", "cards", "-o", "x.pdf", "--year", "99999"], "--year"),
    (["export", "cards", "-o", "x.pdf", "--card", "5", "--card", "-5"], "--card"),
    (["export", "calibration", "-o", "x.pdf", "--back-offset", "1e6,0"], "--back-offset"),
    (["simulate", "I", "--games", "0"], "--games"),
    (["simulate", "I", "--jobs", "-2"], "--jobs"),
    (["simulate", "I", "--seed", "-1"], "--seed"),
    (["play", "I", "--seed", str(2 ** 64)], "--seed"),
    (["setup", "I", "--seed", "-3"], "--seed"),
])
def test_numeric_options_out_of_range_are_usage_errors(tmp_path, monkeypatch, capsys, argv, flag):
    monkeypatch.chdir(tmp_path)
    code, _, err = run(capsys, *argv)
    assert code == 2 and flag in err and ("must be" in err or "within" in err), err
    assert not list(tmp_path.iterdir())


@settings(max_examples=100, deadline=None)
@given(st.sampled_from(sorted(limits.OPTION_RANGES)), st.floats(allow_nan=True) | st.integers(-2 ** 70, 2 ** 70))
def test_every_numeric_option_is_accepted_exactly_within_its_range(name, value):
    class Args:
        pass
    args = Args()
    setattr(args, name, value)
    low, high, _ = limits.OPTION_RANGES[name]
    ok = math.isfinite(value) and low <= value <= high
    assert (cli._option_problem(args) is None) == ok


@pytest.mark.parametrize("content, words", [
    (None, "is a device"),
    ("[1]", "not a printer profile"),
    ("", "the file is empty"),
    ('{"kind": "printer-profile", "back_offset_mm": [1e9, 0]}', "back_offset_mm"),
    ('{"kind": "printer-profile", "back_offset_mm": "1,2"}', "back_offset_mm"),
    ('{"kind": "printer-profile", "flip": "sideways"}', "flip must be one of"),
    ('{"kind": "printer-profile", "marks": 3}', "marks must be one of"),
    ('{"kind": "printer-profile",', "json-syntax"),
])
def test_printer_profile_errors_name_the_file(tmp_path, capsys, content, words):
    profile = "/dev/zero" if content is None else tmp_path / "printer.json"
    if content is not None:
        profile.write_text(content)
    code, _, err = run(capsys, "export", "calibration", "-o", tmp_path / "cal.pdf", "--profile", profile)
    assert code == 2 and words in err and str(profile) in err, err
    assert not (tmp_path / "cal.pdf").exists()


def test_an_unreadable_pack_subfolder_is_a_finding(tmp_path, monkeypatch, capsys):
    import shutil
    pack = shutil.copytree(FIXTURE, tmp_path / "pack")
    locked = pack / "scenarios"
    real = os.scandir

    def scandir(path="."):
        if Path(path) == locked:  # what a folder without read permission does (root ignores chmod)
            raise PermissionError(13, "Permission denied", str(path))
        return real(path)
    monkeypatch.setattr(os, "scandir", scandir)
    catalog = load_catalog([pack])
    hits = [f for f in catalog.findings if f.code == "file-unreadable"]
    assert [h.location.file for h in hits] == [str(locked)] and "Permission denied" in hits[0].message
    code, out, _ = run(capsys, "validate", pack)
    assert code == 1 and f"{locked}: error file-unreadable" in out


def test_an_unreadable_setup_file_is_a_finding(tmp_path, monkeypatch, capsys):
    setup = tmp_path / "setup.json"
    setup.write_text((FIXTURE / "setups/skirmish-setup.json").read_text())
    real = os.open

    def deny(path, flags, *a, **kw):
        if Path(path) == setup:
            raise PermissionError(13, "Permission denied", str(path))
        return real(path, flags, *a, **kw)
    monkeypatch.setattr(os, "open", deny)
    code, out, _ = run(capsys, "check-setup", setup, "--pack", FIXTURE, "--json")
    (f,) = json.loads(out)["findings"]
    assert code == 1 and f["code"] == "file-unreadable" and f["file"] == str(setup) and "Permission denied" in f["message"]
    code, _, err = run(capsys, "play", "skirmish", "--pack", FIXTURE, "--setup", setup)
    assert code == 2 and str(setup) in err and "Permission denied" in err


# --- with --json, a failing command still answers in JSON on stdout (found by QA: a log that does
# not replay, an option out of range, a ruleset that cannot serve the command, a missing argument
# printed their message on stderr only, so a script parsing stdout got nothing) ------------------

@pytest.mark.parametrize("argv, code", [
    (["simulate", "I", "--games", "-1", "--json"], 2),                      # option out of range
    (["los", "I", "--json"], 2),                                            # argparse usage error
    (["replay", "{tmp}/nosuch.jsonl", "--json"], 2),                        # unreadable input
    (["export", "profile", "-o", "{tmp}", "--format", "json"], 2),          # output path refused
    (["scenarios", "--pack", str(FIXTURE.parents[2] / "data/holland44"), "--json"], 2),  # ruleset cannot
])
def test_a_failing_command_answers_in_json_on_stdout(tmp_path, capsys, argv, code):
    argv = [a.format(tmp=tmp_path) for a in argv]
    try:
        got = main(argv)
    except SystemExit as exc:
        got = exc.code
    out, err = capsys.readouterr()
    assert got != 0 and (code is None or got == code)
    answer = json.loads(out)
    assert answer["exit_code"] == got and answer["command"] == argv[0]
    assert answer["error"] and answer["error"] in err.strip()


def test_json_failure_output_does_not_touch_text_or_successful_json(capsys):
    assert main(["simulate", "I", "--games", "-1"]) == 2
    assert capsys.readouterr().out == ""
    assert main(["codes", "--json"]) == 0
    assert isinstance(json.loads(capsys.readouterr().out), list)


@pytest.mark.parametrize("argv", [["show", "scenario", "I"], ["scenarios"], ["show", "scenario", "XX"]])
def test_json_stdout_holds_only_json_when_the_pack_has_errors(capsys, argv):
    """The pack's error findings and 'no scenario' go to stderr (they were printed before the JSON)."""
    mod = FIXTURE.parent / "mods/mod-target-missing"
    code, out, err = run(capsys, *argv, "--pack", FIXTURE, "--pack", mod, "--json")
    assert code in (1, 2)  # the pack has an error (1), or no such scenario (2)
    json.loads(out)
    assert "override-target-missing" in err or "no scenario" in err


@pytest.mark.parametrize("ref", ["skirmish", "SKIRMISH", " Skirmish ", "I", "i", " i"])
def test_a_scenario_is_named_by_id_or_roman_number_in_any_case(capsys, ref):
    code, out, err = run(capsys, "show", "scenario", ref, "--pack", FIXTURE, "--json")
    assert code == 0 and json.loads(out)["id"] == "skirmish"


@pytest.mark.parametrize("ref", ["II", "IIII", "0", "-1", "", "1e400", "x" * 10000, "\u2160"])
def test_an_unknown_scenario_is_a_usage_error(capsys, ref):
    code, out, err = run(capsys, "show", "scenario", ref, "--pack", FIXTURE, "--json")
    assert code == 2 and "no scenario" in err and json.loads(out)["exit_code"] == 2


# --- sweep's --vary and --scheduler (found by QA: 1..1000000000 built a billion-item list,
# MemoryError; 'garbage' as a scheduler reached the last-resort guard) ---------------------------

@pytest.mark.parametrize("values", ["1..1000000000", "0..10000000/1", ",".join(["1"] * 50000)])
def test_a_huge_vary_range_is_refused_before_it_is_built(values):
    from sandtable.rules.lab.points import MAX_POINTS, SpecError, parse_vary
    with deadline(10), pytest.raises(SpecError, match=f"at most {MAX_POINTS}"):
        parse_vary(f"unit-type:x/defense={values}")


def test_a_vary_grid_is_counted_before_it_is_built(capsys):
    code, out, err = run(capsys, "sweep", "I", "--pack", FIXTURE, "--vary", "scenario:skirmish/conditions/turns=1..300",
                         "--vary", "scenario:skirmish/conditions/visibility=1..300", "--vary",
                         "unit-type:de-tank/defense=1..300", "-o", "/nonexistent/never-made")
    assert code == 2 and "27,000,000 points" in err


@pytest.mark.parametrize("address", ["garbage", "tcp://host", "tcp://host:port", "localhost:99999", "tcp://host:0"])
def test_a_scheduler_address_that_is_not_one_is_a_usage_error(tmp_path, capsys, address):
    code, out, err = run(capsys, "sweep", "I", "--pack", FIXTURE, "--vary", "scenario:skirmish/conditions/turns=5",
                         "--scheduler", address, "-o", tmp_path / "sw")
    assert code == 2 and "--scheduler takes" in err and not (tmp_path / "sw").exists()


# --- a pack with errors (a refused override) never gives exit 0 (found by QA: setup, los, zone,
# path and check-setup answered 0, check-setup with an "OK" verdict; play and scenarios said 1) ------

@pytest.mark.parametrize("argv", [["setup", "I"], ["zone", "I", "axis", "101"],
                                  ["check-setup", str(FIXTURE / "setups/skirmish-setup.json")]])
def test_commands_on_a_pack_with_errors_exit_1(capsys, argv):
    mod = FIXTURE.parent / "mods/mod-target-missing"
    code, out, err = run(capsys, *argv, "--pack", FIXTURE, "--pack", mod)
    assert code == 1 and "override-target-missing" in err
    code, out, err = run(capsys, *argv, "--pack", FIXTURE)
    assert code == 0, err


@pytest.mark.parametrize("command", [["play", "I", "--quiet"], ["simulate", "I", "--games", "1", "--no-progress"]])
def test_a_search_bot_budget_past_its_limit_is_a_usage_error(capsys, command):
    """Found by QA: search:99999999999999 was accepted and the game never ended."""
    code, out, err = run(capsys, *command, "--pack", FIXTURE, "--bots", "search:99999999999999,random")
    assert code == 2 and "--bots" in err and f"{limits.SEARCH_ROLLOUTS:,}" in err


def test_replay_on_a_pack_with_errors_is_refused_as_play_is(tmp_path, capsys):
    (tmp_path / "game.jsonl").write_text("{}\n")
    mod = FIXTURE.parent / "mods/mod-target-missing"
    for argv in (["replay", tmp_path / "game.jsonl"], ["play", "I", "--quiet"]):
        code, out, err = run(capsys, *argv, "--pack", FIXTURE, "--pack", mod)
        assert code == 2 and "the pack has errors" in err
        assert "override-target-missing" in err  # which errors, not only that there are some


def test_provenance_says_why_it_exits_1(tmp_path, capsys):
    """Found by QA: 'provenance' of a broken pack printed an empty table and exited 1 silently."""
    (tmp_path / "list.json").write_text("[1, 2]")
    for extra in ([], ["--json"]):
        code, out, err = run(capsys, "provenance", tmp_path / "list.json", *extra)
        assert code == 1 and "list.json" in err and "error" in err
        if extra:
            json.loads(out)


@pytest.mark.parametrize("name", ["games.jsonl", "results.json", "sweep.json"])
@pytest.mark.parametrize("option", ["--resume", "--redraw"])
def test_a_sweep_folder_whose_files_are_fifos_is_refused_unread(tmp_path, capsys, name, option):
    """Found by QA: --resume appended to a FIFO games.jsonl and --redraw read a FIFO results.json,
    both blocking forever."""
    (tmp_path / "sweep.json").write_text('{"arguments": {}}')
    (tmp_path / name).unlink(missing_ok=True)
    os.mkfifo(tmp_path / name)
    code, out, err = run(capsys, "sweep", option, tmp_path, "--no-progress")
    assert code == 2 and (f"{name} is not a regular file" in err or "no sweep.json" in err)


@pytest.mark.parametrize("argv, words", [(["--card", "99999"], "no formation card 99999"),
                                         (["--year", "1900"], "no formation card matches year 1900")])
def test_export_cards_of_nothing_is_a_usage_error_not_an_empty_sheet(tmp_path, capsys, argv, words):
    code, out, err = run(capsys, "export", "cards", *argv, "--pack", FIXTURE, "-o", tmp_path / "c.pdf")
    assert code == 2 and words in err and not (tmp_path / "c.pdf").exists()


def test_supply_on_a_pack_with_errors_is_not_out_of_supply(capsys):
    root = FIXTURE.parents[2] / "data"
    code, out, err = run(capsys, "supply", "s1-turn3", "gb-2-para", "--pack", root / "holland44",
                         "--pack", root / "miniatures")
    assert code == 2 and "pack-ruleset-mismatch" in err and "the pack has errors" in err
