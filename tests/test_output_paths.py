"""Issue #19, class 3: output paths. Every bad target is refused before any work with one
line naming it and a documented exit code; no temporary is left behind on error or on
SIGTERM/SIGINT; links, FIFOs, special and read-only files are replaced only with --force;
a multi-file kit is swapped in whole, never half old, half new."""
from __future__ import annotations

import errno
import json
import os
import signal
import stat
import tempfile
from pathlib import Path

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from bounded import assert_clean, run_cli
from sandtable.cli import main
from sandtable.rules import atomic

FIXTURE = Path(__file__).resolve().parent / "fixtures/base"


def leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.startswith("."))


@pytest.fixture
def targets(tmp_path):
    (tmp_path / "folder").mkdir()
    (tmp_path / "file").write_text("x")
    ro = tmp_path / "ro.json"
    ro.write_text("{}")
    ro.chmod(0o444)
    (tmp_path / "link.json").symlink_to(tmp_path / "file")
    os.mkfifo(tmp_path / "fifo.json")
    return tmp_path


CASES = [  # (target relative to tmp, exit code, words of the message)
    ("folder", 2, "is a folder"),
    ("", 2, "not a file name"),
    (".", 2, "not a file name"),
    ("file/x.json", 2, "is not a folder"),
    ("/proc/self/x.json", 1, "system folder /proc"),
    ("/dev/stdout", 1, "system folder /dev"),
    ("ro.json", 1, "read-only"),
    ("link.json", 1, "symbolic link"),
    ("fifo.json", 1, "FIFO"),
    ("x" * 300 + ".json", 2, "too long"),
]


@pytest.mark.parametrize("target, code, words", CASES, ids=[c[0][:20] or "empty" for c in CASES])
def test_export_profile_refuses_bad_targets(targets, capsys, monkeypatch, target, code, words):
    monkeypatch.chdir(targets)
    assert main(["export", "profile", "-o", target]) == code
    out, err = capsys.readouterr()
    assert words in err and err.count("\n") == 1 and "Traceback" not in err, err
    assert err.startswith("sandtable export profile: ")
    assert (targets / "file").read_text() == "x" and (targets / "ro.json").read_text() == "{}"
    assert stat.S_ISFIFO(os.lstat(targets / "fifo.json").st_mode) and (targets / "link.json").is_symlink()
    assert leftovers(targets) == []


def test_force_replaces_links_fifos_and_read_only_files_keeping_read_only(targets, capsys, monkeypatch):
    monkeypatch.chdir(targets)
    for name in ("link.json", "fifo.json", "ro.json"):
        assert main(["export", "profile", "-o", name, "--force"]) == 0, capsys.readouterr()
        assert json.loads((targets / name).read_text())["flip"] == "long"
    assert (targets / "file").read_text() == "x"  # the link was replaced, not written through
    assert stat.S_IMODE(os.stat(targets / "ro.json").st_mode) == 0o444


def test_setup_and_play_log_are_checked_before_any_work(targets, capsys, monkeypatch):
    monkeypatch.chdir(targets)
    assert main(["setup", "skirmish", "--pack", str(FIXTURE), "-o", "folder"]) == 2
    assert main(["play", "skirmish", "--pack", str(FIXTURE), "--log", "file/game.jsonl"]) == 2
    err = capsys.readouterr().err.splitlines()
    assert err == ["sandtable setup: folder is a folder; give a file name",
                   "sandtable play: file/game.jsonl: file is not a folder"]


@pytest.mark.parametrize("err, words", [(errno.ENOSPC, "the disk is full"), (errno.EACCES, "permission denied"),
                                        (errno.EROFS, "read-only")])
def test_write_failures_are_explained_and_leave_the_old_file(tmp_path, monkeypatch, err, words):
    target = tmp_path / "a.json"
    atomic.write_json(target, {"old": True})

    def fail(fd):
        raise OSError(err, os.strerror(err))
    monkeypatch.setattr(os, "fsync", fail)
    with pytest.raises(atomic.OutputError) as info:
        atomic.write_json(target, {"new": True})
    monkeypatch.undo()
    assert words in str(info.value) and str(target) in str(info.value)
    assert json.loads(target.read_text()) == {"old": True} and leftovers(tmp_path) == []


@settings(max_examples=30, deadline=None)
@given(st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=40))
def test_any_target_name_is_written_or_refused_never_a_traceback(name):
    # inside the temporary folder only: a name starting with '/' made os.path.join ignore tmp, and
    # the test wrote into the root of the file system (found by QA: a stray file in /)
    assume(".." not in name.split("/"))
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, name.lstrip("/"))
        try:
            atomic.write_text(path, "x")
        except atomic.OutputError as exc:
            assert str(exc)
        assert not [n for n in os.listdir(tmp) if n.endswith((".tmp", ".staging"))]


def _old_kit(kit: Path) -> dict[str, str]:
    kit.mkdir()
    old = {"01-scenario.pdf": "old 1", "kit-01-skirmish-duplex.pdf": "old 2", "kit-09-other-simplex.pdf": "old 3"}
    for name, text in old.items():
        (kit / name).write_text(text)
    return old


def test_staged_folder_replaces_the_old_output_whole_or_not_at_all(tmp_path):
    kit = tmp_path / "kit"
    old = _old_kit(kit)
    is_kit = lambda name: name.endswith(".pdf")  # noqa: E731
    with pytest.raises(RuntimeError):
        with atomic.staged_dir(kit, expected=is_kit) as stage:
            (stage / "01-scenario.pdf").write_text("new 1")
            raise RuntimeError("the renderer failed half way")
    assert {p.name: p.read_text() for p in kit.iterdir()} == old and leftovers(tmp_path) == []
    (kit / "notes.txt").write_text("mine")
    with pytest.raises(atomic.OutputError, match="notes.txt"):
        with atomic.staged_dir(kit, expected=is_kit) as stage:
            (stage / "01-scenario.pdf").write_text("new 1")
    assert (kit / "01-scenario.pdf").read_text() == "old 1" and leftovers(tmp_path) == []
    with atomic.staged_dir(kit, expected=is_kit, force=True) as stage:
        (stage / "01-scenario.pdf").write_text("new 1")
    assert {p.name: p.read_text() for p in kit.iterdir()} == {"01-scenario.pdf": "new 1", "notes.txt": "mine"}
    assert leftovers(tmp_path) == []


def test_a_killed_kit_export_leaves_the_old_kit_whole_and_nothing_beside_it(tmp_path):
    kit = tmp_path / "kit"
    old = _old_kit(kit)
    def staging(pid):  # the new kit is being written beside the old one: the moment to kill it
        return any(p.name.endswith(".staging") for p in tmp_path.iterdir())
    killed = run_cli("export", "kit", "skirmish", "--pack", FIXTURE, "-o", kit, timeout=60,
                     send_signal=(staging, signal.SIGTERM), signal_delay=0.05)
    assert "Traceback" not in killed.stderr
    if killed.returncode == 0:  # a fast machine finished first: the new kit, whole
        assert "01-scenario.pdf" in {p.name for p in kit.iterdir()} and (kit / "kit-09-other-simplex.pdf").exists() is False
    else:
        assert killed.returncode in (143, -signal.SIGTERM)
        assert {p.name: p.read_text() for p in kit.iterdir()} == old
    assert leftovers(tmp_path) == []


def test_sigint_during_a_write_removes_the_temporary(tmp_path, monkeypatch):
    target = tmp_path / "a.json"

    def interrupted(fd):
        raise KeyboardInterrupt
    monkeypatch.setattr(os, "fsync", interrupted)
    with pytest.raises(KeyboardInterrupt):
        atomic.write_text(target, "x")
    monkeypatch.undo()
    assert list(tmp_path.iterdir()) == []


def test_sigterm_during_a_write_removes_the_temporary(tmp_path, monkeypatch):
    target = tmp_path / "a.json"

    def terminated(fd):
        os.kill(os.getpid(), signal.SIGTERM)  # delivered to the handler write_bytes installed
    monkeypatch.setattr(os, "fsync", terminated)
    with pytest.raises(SystemExit) as info:
        atomic.write_text(target, "x")
    monkeypatch.undo()
    assert info.value.code == 128 + signal.SIGTERM
    assert list(tmp_path.iterdir()) == []
    assert signal.getsignal(signal.SIGTERM) == signal.SIG_DFL


# --- folder outputs (found by QA): '/' is refused outright (its parent is itself, so the kit's
# staging folder landed inside the target and --force would have copied the whole file system);
# a folder holding other files is refused before the kit is rendered, and sweep refuses it too
# (it wrote results.json, summary.csv... straight into '/') ----------------------------------------

@pytest.mark.parametrize("argv", [["export", "kit", "skirmish", "--pack", str(FIXTURE)],
                                  ["sweep", "I", "--pack", str(FIXTURE), "--vary", "scenario:skirmish/conditions/turns=5"]])
def test_folder_outputs_refuse_the_root_of_the_file_system(capsys, argv):
    for extra in ([], ["--force"]):
        assert main(argv + ["-o", "/", *extra]) == 2
        assert "root of the file system" in capsys.readouterr().err


def test_kit_into_a_folder_of_other_files_is_refused_before_any_rendering(tmp_path, capsys, monkeypatch):
    from sandtable.rules import atomic as atomic_module
    (tmp_path / "notes.txt").write_text("mine")
    staged = []
    real = atomic_module.tempfile.mkdtemp
    monkeypatch.setattr(atomic_module.tempfile, "mkdtemp", lambda *a, **k: staged.append(1) or real(*a, **k))
    assert main(["export", "kit", "skirmish", "--pack", str(FIXTURE), "-o", str(tmp_path)]) == 1
    assert "holds files this export does not write (notes.txt)" in capsys.readouterr().err
    assert staged == [] and sorted(p.name for p in tmp_path.iterdir()) == ["notes.txt"]


def test_sweep_into_a_folder_of_other_files_is_refused(tmp_path, capsys):
    (tmp_path / "notes.txt").write_text("mine")
    code = main(["sweep", "I", "--pack", str(FIXTURE), "--vary", "scenario:skirmish/conditions/turns=5", "--games", "1",
                 "--no-progress", "-o", str(tmp_path)])
    assert code == 2 and "holds other files" in capsys.readouterr().err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.txt"]


def test_text_that_is_not_unicode_is_refused_not_a_traceback(tmp_path, capsys):
    """Found by QA: export profile --name with a non-UTF-8 byte (a lone surrogate in argv) raised
    UnicodeEncodeError from the writer."""
    target = tmp_path / "p.json"
    assert main(["export", "profile", "--name", "caf\udce9", "-o", str(target)]) == 2
    assert "not a character" in capsys.readouterr().err and not target.exists() and leftovers(tmp_path) == []


@pytest.mark.parametrize("argv", [["sweep", "I", "--vary", "unit-type:it-m13-40/defense=2..3", "--games", "4"],
                                  ["export", "cards"], ["export", "kit", "V"]])
def test_an_output_path_that_is_not_utf8_is_refused_before_any_work(argv, tmp_path, capsys, monkeypatch):
    """Found in review: a sweep into a folder named with a non-UTF-8 byte (argv's surrogate escape)
    played every game, wrote its files, then failed on the HTML report that quotes the path."""
    monkeypatch.chdir(tmp_path)
    code = main([*argv, "-o", "out\udcff"])
    err = capsys.readouterr().err
    assert code == 2 and "out\\xff: the output path is not UTF-8 text" in err
    assert list(tmp_path.iterdir()) == []


def test_termination_raised_again_by_a_library_keeps_its_exit_code():
    """ReportLab re-raises an error met inside a paragraph as type(e)(annotated message): a
    SIGTERM that lands there must still end the export with 128 + the signal, not a TypeError."""
    atomic._received[:] = [signal.SIGHUP]  # as the handler records it
    try:
        again = atomic.Terminated("\nparagraph text '<b>x</b>' caused exception")
        assert again.code == 128 + signal.SIGHUP
    finally:
        atomic.clear_termination()
    assert atomic.Terminated("no signal recorded").code == 128 + signal.SIGTERM
    assert atomic.Terminated(signal.SIGTERM).code == 128 + signal.SIGTERM


def test_a_signal_a_library_turned_into_another_error_ends_the_command_as_terminated(monkeypatch, capsys):
    """ReportLab opening a font catches everything and raises TTFError: a SIGTERM that lands
    there must end the command with 128 + the signal, not as an internal error."""
    from sandtable import cli

    def swallowed(args):
        atomic._received.append(signal.SIGTERM)  # the handler ran, then a library raised its own error
        raise ValueError("Can't open file")
    monkeypatch.setattr(cli, "_check_inputs", lambda args, command: None)
    args = type("Args", (), {"run": staticmethod(swallowed)})()
    monkeypatch.setattr(cli, "_option_problem", lambda args: None)
    monkeypatch.setattr(cli, "_unsupported", lambda args, command: None)
    assert cli._run(args, "export", debug=False, force=False) == 128 + signal.SIGTERM
    assert "internal error" not in capsys.readouterr().err
    atomic.clear_termination()
