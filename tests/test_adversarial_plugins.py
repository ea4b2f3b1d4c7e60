"""Issue #29, class 1: ruleset plug-ins are guests. A plug-in that fails to import, exits, raises
KeyboardInterrupt, calls os._exit, hangs, prints or allocates gigabytes at import, or whose checks
raise or return garbage, becomes a finding naming the plug-in and its distribution; a plug-in
cannot take a built-in ruleset's name. Each case runs under a deadline."""
from __future__ import annotations

import json
import sys
import textwrap
from pathlib import Path

import pytest

from bounded import deadline
from sandtable.cli import main
from sandtable.rules import rulesets
from sandtable.rules.catalog import load_catalog

HEADER = "from sandtable.rules.rulesets import DocumentKind, Ruleset, register\n"
KINDS = 'documents=(DocumentKind("setup", "desert-steel/setup.schema.json", "setup"),)'

# plug-in module body -> words the load finding must hold
IMPORT_CASES = {
    "raises": ("raise AttributeError('no document_kind here')", "AttributeError"),
    "exits": ("import sys\nsys.exit(7)", "SystemExit"),
    "interrupts": ("raise KeyboardInterrupt", "KeyboardInterrupt"),
    "os-exit": ("import os\nos._exit(9)", "exit code 9"),
    "hangs": ("import time\ntime.sleep(3600)", "longer than"),
    "hog": ("hog = bytearray(3 * 1024 ** 3)", "MB"),
    "not-ruleset": ("RULESET = 42", "is not a Ruleset"),
    "syntax": ("def (:", "SyntaxError"),
}


class EP:
    def __init__(self, name, value, dist="acme-rulesets"):
        self.name, self.value = name, value
        self.dist = type("Dist", (), {"name": dist})()


@pytest.fixture
def guests(tmp_path, monkeypatch):
    """Install plug-in modules (name -> body) with entry points; cleaned up after the test."""
    installed: list[str] = []
    eps: list[EP] = []

    def install(name: str, body: str, ep_name: str | None = None):
        module = "guest_" + name.replace("-", "_")
        (tmp_path / f"{module}.py").write_text(HEADER + textwrap.dedent(body) + "\n")
        eps.append(EP(ep_name or name, f"{module}:RULESET"))
        installed.append(ep_name or name)
        return module

    monkeypatch.syspath_prepend(str(tmp_path))
    import importlib.metadata as md
    real = md.entry_points
    monkeypatch.setattr(md, "entry_points",
                        lambda **kw: list(eps) if kw.get("group") == rulesets.GROUP else real(**kw))
    yield install
    for name in installed:
        rulesets._REGISTRY.pop(name, None) if name not in rulesets._BUILTIN else None
        rulesets.LOAD_ERRORS.pop(name, None)
        rulesets.CLASHES.pop(name, None)
    for m in [m for m in sys.modules if m.startswith("guest_")]:
        sys.modules.pop(m)


def _pack(folder: Path, ruleset: str) -> Path:
    folder.mkdir()
    (folder / "pack.json").write_text(json.dumps({"kind": "pack", "id": folder.name, "name": "t", "version": "1.0.0",
                                                  "ruleset": ruleset}))
    return folder


@pytest.mark.parametrize("case", sorted(set(IMPORT_CASES) - {"hangs"}))  # a hang: end to end below (5 s)
def test_a_plugin_failing_at_import_is_a_finding_naming_it(guests, tmp_path, capsys, case):
    body, words = IMPORT_CASES[case]
    guests(case, body)
    with deadline(20):
        code = main(["validate", str(_pack(tmp_path / "p", case)), "--json"])
    out, err = capsys.readouterr()
    report = json.loads(out)  # whatever the plug-in printed, stdout is JSON
    messages = [f["message"] for f in report["findings"]]
    assert code == 1 and "Traceback" not in err and "internal error" not in err
    assert any(f"ruleset plug-in {case!r}" in m and "acme-rulesets" in m and words in m for m in messages), messages


def test_a_plugin_printing_at_import_keeps_stdout_json(guests, tmp_path, capsys):
    guests("chatty", f'print("hello from the plug-in")\nRULESET = Ruleset(name="chatty", title="C", {KINDS})')
    with deadline(20):
        code = main(["validate", str(_pack(tmp_path / "p", "chatty")), "--json"])
    out, err = capsys.readouterr()
    assert json.loads(out)["findings"] == [] and code == 0
    assert "hello from the plug-in" not in out


def test_validate_of_an_unknown_kind_with_a_broken_plugin_installed(guests, tmp_path, capsys):
    guests("broken", "raise ImportError('missing dependency')")
    (tmp_path / "x.json").write_text('{"kind": "no-such-kind"}')
    with deadline(20):
        code = main(["validate", str(tmp_path / "x.json")])
    out, err = capsys.readouterr()
    assert code == 1 and "internal error" not in err and "not a known document kind" in out


def test_plugins_are_loaded_only_when_a_pack_needs_them(guests, tmp_path, capsys):
    guests("hangs", "import time\ntime.sleep(3600)")
    with deadline(20):
        assert main(["validate", str(_pack(tmp_path / "p", "desert-steel"))]) in (0, 1)
    assert "hangs" not in rulesets._REGISTRY and "hangs" not in rulesets.LOAD_ERRORS


@pytest.mark.parametrize("check, words", [
    ("def check(catalog):\n    raise ValueError('boom')", "ValueError: boom"),
    ("def check(catalog):\n    return 'garbage'", "returned str"),
    ("def check(catalog):\n    return [1, 2]", "not a list of findings"),
    ("def check(catalog):\n    import sys\n    sys.exit(3)", "SystemExit"),
])
def test_a_check_that_fails_is_a_finding(guests, tmp_path, capsys, check, words):
    guests("bad-check", f"{check}\nRULESET = Ruleset(name='bad-check', title='B', {KINDS}, check=check)")
    with deadline(20):
        catalog = load_catalog([_pack(tmp_path / "p", "bad-check")])
    (f,) = [f for f in catalog.findings if f.code == "ruleset-plugin"]
    assert "'bad-check'" in f.message and "acme-rulesets" in f.message and words in f.message
    with deadline(20):
        assert main(["validate", str(tmp_path / "p"), "--json"]) == 1
    assert json.loads(capsys.readouterr().out)


def test_a_scenario_list_that_raises_is_one_line(guests, tmp_path, capsys):
    guests("bad-list", "def rows(model):\n    raise RuntimeError('no rows')\n"
                       f"RULESET = Ruleset(name='bad-list', title='L', {KINDS}, build=lambda c: object(), "
                       "scenario_list=rows, capabilities=frozenset({'scenarios'}))")
    with deadline(20):
        code = main(["scenarios", "--pack", str(_pack(tmp_path / "p", "bad-list"))])
    err = capsys.readouterr().err
    assert code == 1 and "internal error" not in err and "'bad-list'" in err and "no rows" in err


def test_a_plugin_cannot_take_a_builtin_name(guests, tmp_path, capsys):
    rulesets.get("desert-steel")
    real = rulesets._REGISTRY["desert-steel"]
    guests("impostor", f"RULESET = Ruleset(name='desert-steel', title='Fake', {KINDS})", ep_name="desert-steel")
    guests("squatter", f"register(Ruleset(name='desert-steel', title='Fake', {KINDS}))\n"
                       f"RULESET = Ruleset(name='squatter', title='S', {KINDS})")
    try:
        assert rulesets.get("desert-steel") is real
        assert rulesets.get("squatter") is not None
        assert rulesets.get("desert-steel") is real  # its register() call was refused
        catalog = load_catalog([_pack(tmp_path / "p", "desert-steel")])
        assert catalog.ruleset is real
        messages = [f.message for f in catalog.findings if f.code == "ruleset-plugin"]
        assert any("built-in" in m for m in messages), messages
    finally:
        rulesets._REGISTRY["desert-steel"] = real
        rulesets.CLASHES.pop("desert-steel", None)


@pytest.mark.parametrize("argv", [["validate", "{p}", "--json"], ["packs", "{p}", "--json"],
                                  ["scenarios", "--pack", "{p}", "--json"]])
def test_every_command_survives_a_check_that_raises(guests, tmp_path, capsys, argv):
    guests("bad-check", "def check(catalog):\n    raise ValueError('boom')\n"
                        f"RULESET = Ruleset(name='bad-check', title='B', {KINDS}, check=check, "
                        "capabilities=frozenset({'scenarios'}))")
    pack = _pack(tmp_path / "p", "bad-check")
    with deadline(20):
        code = main([a.format(p=pack) for a in argv])
    out, err = capsys.readouterr()
    assert code in (1, 2) and "internal error" not in err and "Traceback" not in out + err
    if out.strip():
        json.loads(out)


def test_the_editor_opens_a_pack_whose_plugin_check_raises(guests, tmp_path, qtbot, monkeypatch):
    from editorkit import close, isolate, window
    isolate(monkeypatch, tmp_path)
    guests("bad-check", "def check(catalog):\n    raise ValueError('boom')\n"
                        f"RULESET = Ruleset(name='bad-check', title='B', {KINDS}, check=check)")
    w = window(qtbot, _pack(tmp_path / "p", "bad-check"))
    assert any("boom" in f.message for f in w.ws.catalog.findings)
    close(w)


# --- end to end: an installed distribution, the real command, 10 s and 1 GB -----------------------

def _installed(tmp_path: Path, name: str, body: str) -> dict:
    """A plug-in installed as a distribution (a dist-info with its entry point) on PYTHONPATH."""
    site = tmp_path / "site"
    site.mkdir(exist_ok=True)
    module = "guest_" + name.replace("-", "_")
    (site / f"{module}.py").write_text(HEADER + textwrap.dedent(body) + "\n")
    info = site / "acme_rulesets-1.0.dist-info"
    info.mkdir(exist_ok=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: acme-rulesets\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text(f"[sandtable.rulesets]\n{name} = {module}:RULESET\n")
    import os
    return {"PYTHONPATH": os.pathsep.join([str(site), *filter(None, [os.environ.get("PYTHONPATH")])])}


@pytest.mark.parametrize("case", ["hog", "hangs", "os-exit", "interrupts"])
def test_an_installed_hostile_plugin_in_a_real_command(tmp_path, case):
    from bounded import assert_clean, run_cli
    body, words = IMPORT_CASES[case]
    env = _installed(tmp_path, case, body)
    result = run_cli("validate", _pack(tmp_path / "p", case), "--json", env=env, timeout=10, memory_mb=1024)
    assert_clean(result, codes=(1,))
    messages = [f["message"] for f in json.loads(result.stdout)["findings"]]
    assert any("acme-rulesets" in m and words in m for m in messages), messages


def test_an_installed_plugin_that_prints_keeps_json_clean(tmp_path):
    from bounded import assert_clean, run_cli
    env = _installed(tmp_path, "chatty", f'print("hello")\nRULESET = Ruleset(name="chatty", title="C", {KINDS})')
    result = run_cli("validate", _pack(tmp_path / "p", "chatty"), "--json", env=env, timeout=10, memory_mb=1024)
    assert_clean(result, codes=(0,))
    assert json.loads(result.stdout)["findings"] == []


def test_the_rulesets_command_lists_every_plugin_with_why_it_failed(tmp_path):
    from bounded import assert_clean, run_cli
    env = _installed(tmp_path, "hog", IMPORT_CASES["hog"][0])
    result = run_cli("rulesets", "--json", env=env, timeout=10, memory_mb=1024)
    assert_clean(result, codes=(1,))
    rows = {r["name"]: r for r in json.loads(result.stdout)}
    assert rows["desert-steel"]["loaded"] and rows["desert-steel"]["built_in"]
    assert not rows["hog"]["loaded"] and rows["hog"]["distribution"] == "acme-rulesets"
    assert "memory" in rows["hog"]["problem"]


def test_two_distributions_claiming_one_name_keep_the_first_and_say_so(guests, tmp_path, monkeypatch):
    guests("twin", f"RULESET = Ruleset(name='twin', title='First', {KINDS})")
    import importlib.metadata as md
    first = md.entry_points(group=rulesets.GROUP)
    monkeypatch.setattr(md, "entry_points", lambda **kw: list(first) + [EP("twin", "guest_twin:RULESET", "evil-dist")]
                        if kw.get("group") == rulesets.GROUP else [])
    catalog = load_catalog([_pack(tmp_path / "p", "twin")])
    assert catalog.ruleset is not None and catalog.ruleset.title == "First"
    (f,) = [f for f in catalog.findings if f.code == "ruleset-plugin"]
    assert "evil-dist" in f.message and "acme-rulesets" in f.message and f.severity == 1
