"""Issue #19, class 2: dependencies come only from the bundled packs and explicit --search
folders; an id found twice keeps the bundled pack (warned, naming both); a mod's report says
which base (version, path) it was checked against. Hostile neighbours run under a deadline."""
from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

from bounded import deadline
from sandtable.cli import main
from sandtable.rules.catalog import bundled_pack, load_catalog

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE_MOD = ROOT / "data/example-mod"


def impostor(folder: Path, version: str = "9.9.9") -> Path:
    """A pack folder claiming to be the bundled base: a copy of it with another version."""
    shutil.copytree(bundled_pack(), folder)
    manifest = json.loads((folder / "pack.json").read_text())
    manifest["version"] = version
    (folder / "pack.json").write_text(json.dumps(manifest))
    return folder


def test_a_neighbour_claiming_the_base_id_is_never_read(tmp_path):
    impostor(tmp_path / "fake-base")
    (tmp_path / "hostile").mkdir()
    os.mkfifo(tmp_path / "hostile/pack.json")  # would block a reader forever
    (tmp_path / "bomb.zip").write_bytes(b"PK\x03\x04" + b"\0" * 100)
    mod = shutil.copytree(EXAMPLE_MOD, tmp_path / "example-mod")
    with deadline(30):
        catalog = load_catalog([mod])
    base = catalog.packs[0]
    assert (base.id, base.version) == ("desert-steel", "1.0.0")
    assert Path(base.source.label).resolve() == bundled_pack().resolve()
    assert not [f.line_text() for f in catalog.findings if f.severity >= 1]
    assert catalog.bases == [{"pack": "example-mod", "version": "0.1.0", "base": "desert-steel",
                              "base_version": "1.0.0", "base_source": str(base.source.label), "bundled": True}]


def test_a_search_folder_cannot_replace_the_bundled_base_but_is_warned_about(tmp_path):
    fake = impostor(tmp_path / "search/fake-base")
    with deadline(30):
        catalog = load_catalog([EXAMPLE_MOD], search=[tmp_path / "search"])
    assert catalog.packs[0].version == "1.0.0"
    (f,) = [f for f in catalog.findings if f.code == "pack-shadowed"]
    assert f.location.file == str(fake / "pack.json") and f.location.pointer == "/id"
    assert "9.9.9" in f.message and "1.0.0" in f.message and str(bundled_pack()) in f.message


def test_a_base_only_in_a_search_folder_is_found_there(tmp_path):
    base = shutil.copytree(ROOT / "tests/fixtures/base", tmp_path / "mine/base")
    mod = tmp_path / "mod"
    mod.mkdir()
    (mod / "pack.json").write_text(json.dumps({"kind": "pack", "id": "mod", "name": "m", "version": "1.0.0",
                                               "ruleset": "desert-steel", "depends_on": [{"id": "fixture-base"}]}))
    alone = load_catalog([mod])
    assert [f.code for f in alone.findings] == ["pack-dependency-missing"]
    found = load_catalog([mod], search=[tmp_path / "mine"])
    assert not found.findings and found.bases[0]["base_source"] == str(base)


def test_validate_says_which_base_a_mod_was_checked_against(tmp_path, capsys):
    impostor(tmp_path / "search/fake-base")
    with deadline(30):
        code = main(["validate", str(EXAMPLE_MOD), "--search", str(tmp_path / "search")])
    out = capsys.readouterr().out
    assert code == 0
    assert f"example-mod 0.1.0 checked against desert-steel 1.0.0 from {bundled_pack()} (bundled)" in out
    assert "warning pack-shadowed" in out and "1 warning(s)" in out
    main(["packs", str(EXAMPLE_MOD), "--json"])
    assert json.loads(capsys.readouterr().out)["bases"][0]["base_version"] == "1.0.0"
