"""Producers of the reliability finding codes (issue #19) for test_finding_codes' every-code check."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

from fixture_packs import BASE, FIXTURES, copy_base
from sandtable.rules.catalog import load_catalog
from sandtable.rules.jsondoc import parse


def _limit_exceeded(tmp: Path):
    doc, findings = parse(str(tmp / "big.json"), b'{"kind": "map",\n "size": ' + b"9" * 5000 + b"}")
    return findings


def _pack_shadowed(tmp: Path):
    """A copy of the base claiming its id in a second search folder: the first is kept, the copy warned."""
    copy_base(tmp / "elsewhere/base-copy")
    mod = tmp / "mod"
    mod.mkdir()
    (mod / "pack.json").write_text(json.dumps({"kind": "pack", "id": "mod", "name": "m", "version": "1.0.0",
                                               "ruleset": "desert-steel", "depends_on": [{"id": "fixture-base"}]}))
    return load_catalog([mod], search=[FIXTURES, tmp / "elsewhere"]).findings


def _sweep_point_unplayable(tmp: Path):
    """A sweep of Sidi Barrani (VI), whose victory the rulebook leaves to the players: no point can be
    played, and each one says why instead of reporting draws."""
    import contextlib
    import io

    from sandtable.cli import main
    from sandtable.rules.findings import finding
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["sweep", "VI", "--vary", "scenario:sidi-barrani/conditions/turns=5", "--games", "1",
                     "--json", "--no-charts", "-o", str(tmp / "sweep")]) == 1
    return [finding(f["code"], f["message"], file=f["file"]) for p in json.loads(out.getvalue())["points"]
            for f in p["findings"]]


def _ruleset_plugin(tmp: Path):
    """A plug-in claimed the built-in name desert-steel (issue #29): the built-in is used, with a warning."""
    from sandtable.rules import rulesets
    rulesets.CLASHES["desert-steel"] = "ruleset plug-in 'desert-steel' (fake:RULESET, distribution x) claims the " \
                                       "built-in name 'desert-steel'; the built-in ruleset is used"
    try:
        return load_catalog([copy_base(tmp / "base")]).findings
    finally:
        rulesets.CLASHES.pop("desert-steel", None)


LIMIT_RUNTIME_CASES = {"ruleset-plugin": _ruleset_plugin,
                       "limit-exceeded": _limit_exceeded, "pack-shadowed": _pack_shadowed,
                       "sweep-point-unplayable": _sweep_point_unplayable}
