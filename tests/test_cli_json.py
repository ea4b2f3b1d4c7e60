"""Every command that prints results takes --json, and what it prints is JSON (one serializer:
sandtable/cli/common.py), including values the model hands out read-only (mappingproxy)."""
import json
import types

import pytest

from sandtable.cli import build_parser, main
from sandtable.cli.common import json_text, jsonable

# One run of each command with --json, small enough to be quick (issue #16 item 11).
RUNS = {
    "validate": ["validate", "data/desert-steel/scenarios/01-beda-fomm.json"],
    "packs": ["packs"],
    "scenarios": ["scenarios"],
    "show": ["show", "scenario", "IV"],
    "provenance": ["provenance"],
    "check-setup": ["check-setup", "data/desert-steel/setups/01-beda-fomm.json"],
    "los": ["los", "XIII", "B2412", "B2111", "--explain"],
    "zone": ["zone", "I", "allied", "419"],  # its zone expression came out of the model as a mappingproxy
    "path": ["path", "I", "it-m13-40", "A1928", "B1903"],
    "simulate": ["simulate", "I", "--games", "2", "--no-progress"],
    "codes": ["codes"],
    "rulesets": ["rulesets"],
    "supply": ["supply", "data/holland44/setups/s1-turn3.json", "gb-2-para", "--pack", "data/holland44"],
}


def _commands_with_json():
    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a.choices, dict))
    return {name for name, p in sub.choices.items()
            if any("--json" in a.option_strings for a in p._actions)}


def test_every_json_command_is_exercised():
    # play and replay are run below, replay from the log play writes; sweep's --json (through the same
    # print_json) is exercised by tests/test_sweep.py, whose games would cost this file 20 s
    assert _commands_with_json() - {"play", "replay", "sweep"} == set(RUNS)


@pytest.mark.parametrize("name", sorted(RUNS))
def test_json_output_parses(name, capsys):
    code = main(RUNS[name] + ["--json"])
    out = capsys.readouterr().out
    assert code in (0, 1), f"{name} exited {code}"
    value = json.loads(out)
    assert value not in ({}, [], None)


def test_zone_json_carries_the_expression(capsys):
    assert main(["zone", "I", "allied", "419", "--json"]) == 0
    value = json.loads(capsys.readouterr().out)
    assert value["expression"]["all"][0] == {"map": "B"} and value["count"] == len(value["hexes"]) > 0


def test_play_and_replay_json(tmp_path, capsys):
    log = tmp_path / "game.jsonl"
    assert main(["play", "I", "--seed", "2", "--quiet", "--log", str(log), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["scenario"] == "beda-fomm"
    assert main(["replay", str(log), "--json"]) == 0
    assert isinstance(json.loads(capsys.readouterr().out), dict)


def test_serializer_plain_forms():
    value = {"m": types.MappingProxyType({"a": (1, 2)}), "s": {3, 1, 2}, "t": ("x",)}
    assert jsonable(value) == {"m": {"a": [1, 2]}, "s": [1, 2, 3], "t": ["x"]}
    assert json.loads(json_text(value)) == {"m": {"a": [1, 2]}, "s": [1, 2, 3], "t": ["x"]}
    with pytest.raises(TypeError):
        jsonable(object())
