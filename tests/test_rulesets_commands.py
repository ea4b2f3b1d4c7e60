"""Issue #19, class 5 of the issue (every ruleset through every command): each command asks the
ruleset for the capability it needs (rules/rulesets.py) and says plainly when it is missing;
rulesets are found through the ``sandtable.rulesets`` entry-point group, the built-in three
included, so a third party's ruleset plugs in the same way."""
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

ROOT = Path(__file__).resolve().parents[1]
PACKS = {"holland44": ROOT / "data/holland44", "miniatures": ROOT / "data/miniatures"}


def argv_for(command: str, tmp: Path) -> list[str]:
    """A well-formed invocation of each command that needs a capability."""
    s = "s1"
    return {
        "scenarios": ["scenarios"], "show": ["show", "scenario", s], "check-setup": ["check-setup", "no-such-setup"],
        "setup": ["setup", s, "-o", str(tmp / "setup.json")], "los": ["los", s, "0101", "0202"],
        "zone": ["zone", s, "allied", "1"], "path": ["path", s, "some-unit", "0101", "0202"],
        "play": ["play", s], "simulate": ["simulate", s, "--games", "1"], "replay": ["replay", str(tmp / "g.jsonl")],
        "supply": ["supply", "no-such-setup", "some-unit"],
        "export cards": ["export", "cards"], "export raids": ["export", "raids"],
        "export counters": ["export", "counters"], "export markers": ["export", "markers", s],
        "export record": ["export", "record", s], "export scenario": ["export", "scenario", s],
        "export raid-form": ["export", "raid-form"], "export aids": ["export", "aids"],
        "export map": ["export", "map", s], "export kit": ["export", "kit", s],
        "export vassal": ["export", "vassal"],
    }[command] + (["-o", str(tmp / ("kit" if command == "export kit" else "out.pdf"))]
                  if command.startswith("export") else [])


def test_every_command_needing_a_capability_has_an_invocation(tmp_path):
    for command in rulesets.command_needs():
        argv_for(command, tmp_path)


@pytest.mark.parametrize("name", sorted(PACKS))
@pytest.mark.parametrize("command", sorted(rulesets.command_needs()))
def test_every_command_on_every_ruleset_answers_plainly(tmp_path, capsys, name, command):
    (tmp_path / "g.jsonl").write_text('{"sandtable_log": 1, "scenario": "s1", "seed": 0, "setup": {}, "bots": []}\n')
    ruleset = rulesets.get(name)
    with deadline(60):
        code = main(argv_for(command, tmp_path) + ["--pack", str(PACKS[name])])
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err and "internal error" not in err, err
    need = rulesets.command_needs()[command]
    if ruleset.supports(need):
        assert code in (0, 1, 2)  # the command ran and answered for itself
    else:
        assert code == 2
        assert f"has no {rulesets.describe(need)}" in err and ruleset.title in err
        assert not [p for p in tmp_path.iterdir() if p.name != "g.jsonl"]  # refused before writing anything


def test_capabilities_are_declared_with_known_words():
    for name in ("desert-steel", "holland44", "miniatures"):
        ruleset = rulesets.get(name)
        words = set(rulesets.CAPABILITIES) | {p.capability for p in ruleset.prints}  # a part declares its own
        assert ruleset.capabilities and ruleset.capabilities <= words
    assert set(rulesets.COMMAND_NEEDS.values()) <= set(rulesets.CAPABILITIES)
    assert rulesets.get("desert-steel").capabilities >= set(rulesets.command_needs().values()) - {"supply"}


def test_the_builtin_rulesets_are_entry_points():
    from importlib.metadata import entry_points
    declared = {ep.name: ep.value for ep in entry_points(group=rulesets.GROUP)}
    pyproject = (ROOT / "pyproject.toml").read_text()
    for name, target in rulesets._BUILTIN.items():
        assert f'{name} = "{target}"' in pyproject
        if declared:  # the metadata of an installed (not merely checked-out) sandtable
            assert declared.get(name) == target


@pytest.fixture
def toy_plugin(tmp_path, monkeypatch):
    """A third party's ruleset, installed as a module with an entry point."""
    (tmp_path / "toy_ruleset.py").write_text(textwrap.dedent('''
        from sandtable.rules.rulesets import DocumentKind, Ruleset
        RULESET = Ruleset(name="toy", title="Toy ruleset", documents=(
            DocumentKind("setup", "desert-steel/setup.schema.json", "setup"),), capabilities=frozenset({"check-setup"}))
        BROKEN = None
    '''))
    monkeypatch.syspath_prepend(str(tmp_path))

    class EP:
        def __init__(self, name, value):
            self.name, self.value = name, value

    import importlib.metadata as md
    real = md.entry_points

    def fake(**kw):
        if kw.get("group") == rulesets.GROUP:
            return [EP("toy", "toy_ruleset:RULESET"), EP("broken", "toy_ruleset:BROKEN"),
                    EP("missing", "no_such_module_anywhere:RULESET")]
        return real(**kw)
    monkeypatch.setattr(md, "entry_points", fake)
    yield tmp_path
    for name in ("toy", "broken", "missing"):
        rulesets._REGISTRY.pop(name, None)
        rulesets.LOAD_ERRORS.pop(name, None)
    sys.modules.pop("toy_ruleset", None)


def _pack(folder: Path, ruleset: str) -> Path:
    folder.mkdir()
    (folder / "pack.json").write_text(json.dumps({"kind": "pack", "id": folder.name, "name": "t", "version": "1.0.0",
                                                  "ruleset": ruleset}))
    return folder


def test_a_third_party_ruleset_plugs_in_through_the_entry_point_group(toy_plugin):
    assert {"toy", "broken", "missing"} <= set(rulesets.names())
    catalog = load_catalog([_pack(toy_plugin / "toy-pack", "toy")])
    assert catalog.ruleset is not None and catalog.ruleset.title == "Toy ruleset"
    assert catalog.errors == 0, [f.line_text() for f in catalog.findings]


@pytest.mark.parametrize("name, words", [("broken", "is not a Ruleset"), ("missing", "ModuleNotFoundError")])
def test_a_plugin_that_fails_to_load_is_a_finding(toy_plugin, name, words):
    catalog = load_catalog([_pack(toy_plugin / f"{name}-pack", name)])
    (f,) = [f for f in catalog.findings if f.code == "unknown-kind"]
    assert f"ruleset {name!r} could not be loaded" in f.message and words in f.message
