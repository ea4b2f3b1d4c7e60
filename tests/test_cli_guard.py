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
