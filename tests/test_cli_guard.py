"""Issue #19: the last-resort guard of the command line. An unexpected exception becomes one
line naming the command and asking for a bug report (exit 1); --debug shows the traceback."""
from __future__ import annotations

import pytest

from sandtable import cli
from sandtable.cli import main


@pytest.fixture
def broken_codes(monkeypatch):
    """`sandtable codes` made to fail the way a bug would."""
    from sandtable.cli import codes_cmd

    def boom(args):
        raise KeyError("surprise")
    monkeypatch.setattr(codes_cmd, "run", boom)
    return boom


def test_an_unexpected_error_is_one_line_asking_for_a_bug_report(broken_codes, capsys):
    assert main(["codes"]) == 1
    out, err = capsys.readouterr()
    assert err.count("\n") == 1 and "Traceback" not in err
    assert err.startswith("sandtable codes: internal error (KeyError: 'surprise').")
    assert "bug" in err and "--debug" in err


@pytest.mark.parametrize("argv", [["--debug", "codes"], ["codes", "--debug"]])
def test_debug_shows_the_traceback(broken_codes, capsys, argv):
    assert main(argv) == 1
    err = capsys.readouterr().err
    assert "Traceback (most recent call last)" in err and "KeyError: 'surprise'" in err


def test_memory_error_is_named_not_a_traceback(monkeypatch, capsys):
    from sandtable.cli import codes_cmd

    def hungry(args):
        raise MemoryError
    monkeypatch.setattr(codes_cmd, "run", hungry)
    assert main(["codes"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("sandtable codes: out of memory") and "Traceback" not in err


def test_the_guard_is_documented_in_help(capsys):
    with pytest.raises(SystemExit):
        main(["--help"])
    out = capsys.readouterr().out
    assert "--debug" in out and "--force" in out
    assert cli.FOLDER_OUTPUTS >= {"export kit"}


# --- no command prints a traceback for hostile inputs (the guard is the last resort: none of
# these may even reach it, so "internal error" is a failure too) -------------------------------

HOSTILE = ("fifo.json", "dir.json", "list.json", "empty.json", "bomb.json", "/dev/zero", "nosuch.json")
PACK_COMMANDS = (["scenarios"], ["show", "scenario", "I"], ["los", "I", "0101", "0202"], ["zone", "I", "allied", "1"],
                 ["path", "I", "x", "0101", "0202"], ["setup", "I"], ["play", "I"], ["export", "counters", "-o", "o.pdf"],
                 ["check-setup", "x"], ["supply", "a", "b"])
SMALL = str(__import__("pathlib").Path(__file__).resolve().parent / "fixtures/base")  # fast to load
FILE_COMMANDS = (["validate", "{f}"], ["packs", "{f}"], ["check-setup", "{f}", "--pack", SMALL],
                 ["play", "skirmish", "--setup", "{f}", "--pack", SMALL], ["replay", "{f}", "--pack", SMALL],
                 ["export", "calibration", "--profile", "{f}", "-o", "o.pdf"], ["validate", "--search", "{f}", "nosuch"])


@pytest.fixture(scope="module")
def hostile(tmp_path_factory):
    import os
    folder = tmp_path_factory.mktemp("hostile")
    os.mkfifo(folder / "fifo.json")
    (folder / "dir.json").mkdir()
    (folder / "list.json").write_text("[1, 2]")
    (folder / "empty.json").write_text("")
    (folder / "bomb.json").write_text('{"a": "' + '\\"' * 20000)
    return folder


def _answers_plainly(capsys, argv):
    from bounded import deadline
    with deadline(60):
        code = main(argv)
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err and "internal error" not in err, (argv, err[-2000:])
    assert code in (0, 1, 2), (argv, code)


@pytest.mark.parametrize("name", HOSTILE)
def test_hostile_packs_never_reach_the_guard(hostile, capsys, monkeypatch, name):
    monkeypatch.chdir(hostile)
    for argv in PACK_COMMANDS:
        _answers_plainly(capsys, argv + ["--pack", name])


@pytest.mark.parametrize("name", HOSTILE)
def test_hostile_files_never_reach_the_guard(hostile, capsys, monkeypatch, name):
    monkeypatch.chdir(hostile)
    for argv in FILE_COMMANDS:
        _answers_plainly(capsys, [a.format(f=name) for a in argv])


@pytest.mark.parametrize("command", ["validate", "packs"])
def test_a_pack_argument_that_is_no_pack_is_a_usage_error(tmp_path, capsys, command):
    # the same answer from both commands: a missing path is the caller's mistake (exit 2), not a
    # finding about a pack (exit 1)
    assert main([command, str(tmp_path / "nosuch")]) == 2
    assert "file-missing" in capsys.readouterr().out
    assert main([command, SMALL]) in (0, 1)
