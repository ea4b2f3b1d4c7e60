"""`sandtable edit` names the Debian packages a desktop lacks before Qt starts (#26)."""
from __future__ import annotations

import ctypes

from sandtable.cli import main as cli
from sandtable.editor import desktop


def without(*gone):
    def load(soname):
        if any(g in soname for g in gone):
            raise OSError(f"{soname}: cannot open shared object file")
        return ctypes.CDLL(soname)
    return load


def test_the_missing_libraries_are_named_by_their_debian_packages():
    said = desktop.problem(environ={}, platform="linux", load=without("icccm", "keysyms", "cursor"))
    assert "sudo apt install libxcb-cursor0 libxcb-icccm4 libxcb-keysyms1" in said
    assert desktop.problem(environ={}, platform="linux", load=lambda s: None) is None
    # another platform asked for, or not Linux: nothing to check
    assert desktop.problem(environ={"QT_QPA_PLATFORM": "offscreen"}, platform="linux", load=without("xcb")) is None
    assert desktop.problem(environ={"QT_QPA_PLATFORM": "wayland"}, platform="linux", load=without("xcb")) is None
    assert desktop.problem(environ={}, platform="darwin", load=without("xcb")) is None


def test_sandtable_edit_says_so_and_stops(monkeypatch, capsys):
    monkeypatch.delenv("QT_QPA_PLATFORM", raising=False)
    real = desktop.problem
    monkeypatch.setattr(desktop, "problem", lambda: real(environ={}, platform="linux",
                                                         load=without("icccm", "keysyms")))
    assert cli(["edit"]) == 2
    err = capsys.readouterr().err
    assert "sudo apt install libxcb-icccm4 libxcb-keysyms1" in err and "Traceback" not in err


def test_every_package_is_in_the_readme():
    from pathlib import Path
    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text()
    for package in desktop.X11_LIBRARIES.values():
        assert package in readme, package
