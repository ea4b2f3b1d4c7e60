"""Issue #27: one door per ruleset. A third party's ruleset, installed as a distribution with a
``sandtable.rules.rulesets`` entry point and nothing changed outside its own package, declares a
finding code, a count limit, a reference scheme and a print part (with kit pieces and an editor
object) and gets ``validate``, ``codes``, ``export``, ``export kit``, the editor's explorer and
the editor's Print for free."""
from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest

from bounded import deadline
from sandtable.cli import main
from sandtable.rules import rulesets

# The guest package: its declaration, its check, its printing. It imports only sandtable's
# shared modules (rules/ and the generic exports toolkit), never a built-in ruleset.
GUEST = {
    "__init__.py": '''
        """Skirmish: a small ruleset of a third party (a roster of unit types)."""
        from sandtable.rules.findings import Code, Severity
        from sandtable.rules.limits import CountLimit
        from sandtable.rules.rulesets import DocumentKind, PrintOption, PrintPart, Ruleset

        CODES = (Code("skirmish-slow", Severity.WARNING, "A unit moves fewer than 3 hexes: too slow for a skirmish."),)
        PRINTS = (PrintPart("rosters", "the muster roll, one line per unit type", "acme_skirmish.printing:draw",
                            kit="acme_skirmish.printing:kit_pieces", editor=(("unit-type", "roster-{id}.pdf"),),
                            options=(PrintOption(("--title",), dict(default="Muster roll", help="the heading")),)),)


        def check(catalog):
            return [e.finding("skirmish-slow", f"moves {e.value['movement']} hexes", "/movement")
                    for e in catalog.entries("unit-type") if e.value["movement"] < 3]


        def build(catalog):
            return {"units": sorted((e.value for e in catalog.entries("unit-type")), key=lambda u: u["id"])}


        def find_muster(model, ref):
            from types import SimpleNamespace
            if ref.strip().lower() in ("m", "muster"):
                return SimpleNamespace(id="muster", number="M", name="Muster", ordinal=1)
            return None


        RULESET = Ruleset(
            name="skirmish", title="Skirmish (third party)", short_title="Skirmish",
            documents=(DocumentKind("unit-types", "desert-steel/unit-types.schema.json", "unit-type", items="units",
                                    item_def="unitType", title="Unit types"),),
            check=check, build=build, codes=CODES, prints=PRINTS, find_scenario=find_muster,
            limits=(CountLimit("unit-types", ("units", "*", "movement"), "hex-metres"),),
            scheme="acme_skirmish.printing:SCHEME")
    ''',
    "printing.py": '''
        from sandtable.exports.kit import KitPiece
        from sandtable.exports.page import Doc
        from sandtable.rules.references import RefField, Scheme

        SCHEME = Scheme(fields={"unit-type": (RefField("/upgrades_to", "unit-type", drop="/upgrades_to"),)})


        def _roll(doc, units, heading):
            doc.begin()
            doc.c.setFont("Sans", 12)
            doc.c.drawString(60, doc.h - 60, heading)
            for i, u in enumerate(units):
                doc.c.drawString(60, doc.h - 90 - 16 * i, f"{u['id']}  {u['name']}  move {u['movement']}")
            doc.end()


        def draw(request):
            units = request.model["units"]
            if request.selected is not None:
                units = [u for u in units if u["id"] == request.selected[1]]
            heading = getattr(request.options, "title", None) or "Muster roll"
            doc = Doc("Skirmish roster", heading, request.page, request.profile, request.lang)
            _roll(doc, units, heading)
            return doc.save(), doc.findings


        def kit_pieces(request):
            units = request.model["units"]
            return [KitPiece("01-roster.pdf", "Roster", False, lambda d, b: _roll(d, units, "Muster roll"),
                             "Keep it by the table.")]
    ''',
}


def _unit(uid: str, movement: int, **extra) -> dict:
    return {"id": uid, "name": uid.title(), "full_name": uid.title(), "nationality": "british", "class": "vehicle",
            "role": "light-tank", "movement": movement, "range": 3, "anti_vehicle": 1, "defense": 2,
            "anti_infantry": 4, "provenance": {"": {"source": "reconstructed", "note": "a test unit"}}, **extra}


def _install(site: Path) -> Path:
    """The guest as an installed distribution: its package and a dist-info naming the entry point."""
    pkg = site / "acme_skirmish"
    pkg.mkdir(parents=True)
    for name, body in GUEST.items():
        (pkg / name).write_text(textwrap.dedent(body).lstrip())
    info = site / "acme_skirmish-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: acme-skirmish\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text(f"[{rulesets.GROUP}]\nskirmish = acme_skirmish:RULESET\n")
    return site


def _pack(folder: Path) -> Path:
    folder.mkdir()
    (folder / "pack.json").write_text(json.dumps({"kind": "pack", "id": "muster", "name": "Muster", "version": "1.0.0",
                                                  "ruleset": "skirmish"}))
    units = [_unit("cromwell", 5), _unit("matilda", 2)]
    (folder / "units.json").write_text(json.dumps({"kind": "unit-types", "description": "a muster", "units": units}))
    return folder


@pytest.fixture
def skirmish(tmp_path, monkeypatch):
    """The guest installed on sys.path (its dist-info found by importlib.metadata), then removed."""
    import importlib
    import sys
    site = _install(tmp_path / "site")
    monkeypatch.syspath_prepend(str(site))
    importlib.invalidate_caches()
    yield _pack(tmp_path / "pack")
    rulesets.forget("skirmish")
    for m in [m for m in sys.modules if m.startswith("acme_skirmish")]:
        sys.modules.pop(m)


def test_validate_and_codes_know_the_guests_own_code(skirmish, capsys):
    with deadline(30):
        assert main(["validate", str(skirmish), "--json"]) == 0  # a warning only
    found = json.loads(capsys.readouterr().out)["findings"]
    assert [(f["code"], f["severity"], f["pointer"]) for f in found if f["code"].startswith("skirmish")] == \
        [("skirmish-slow", "warning", "/units/1/movement")]
    assert main(["codes", "--json"]) == 0
    codes = {c["code"]: c for c in json.loads(capsys.readouterr().out)}
    assert codes["skirmish-slow"]["severity"] == "warning" and "h44-counter" in codes
    assert rulesets.get("skirmish").supports("export-rosters") and rulesets.get("skirmish").supports("export-kit")


def test_export_and_the_kit_come_from_the_declared_part(skirmish, tmp_path, capsys):
    out = tmp_path / "roster.pdf"
    with deadline(60):
        assert main(["export", "rosters", "--pack", str(skirmish), "--title", "Spring muster", "-o", str(out)]) == 0
        assert "wrote" in capsys.readouterr().out and out.read_bytes().startswith(b"%PDF")
        assert main(["export", "kit", "M", "--pack", str(skirmish), "-o", str(tmp_path / "kit")]) == 0
    said = capsys.readouterr().out
    assert "kit for M Muster: 3 files" in said, said
    assert sorted(p.name for p in (tmp_path / "kit").iterdir()) == [
        "01-roster.pdf", "kit-01-muster-duplex.pdf", "kit-01-muster-simplex.pdf"]
    # a built-in part the guest does not declare is refused plainly, not drawn
    assert main(["export", "cards", "--pack", str(skirmish), "-o", str(tmp_path / "c.pdf")]) == 2
    assert "has no printable cards" in capsys.readouterr().err
    # and a Desert Steel pack has no rosters: said, exit 2
    assert main(["export", "rosters", "-o", str(tmp_path / "r.pdf")]) == 2
    assert "no printable rosters" in capsys.readouterr().err


def test_a_guest_print_part_that_raises_is_its_failure_not_ours(skirmish, tmp_path, capsys):
    (skirmish.parent / "site" / "acme_skirmish" / "printing.py").write_text(
        "def draw(request):\n    raise RuntimeError('ink ran out')\n")
    with deadline(30):
        code = main(["export", "rosters", "--pack", str(skirmish), "-o", str(tmp_path / "r.pdf")])
    err = capsys.readouterr().err
    assert code == 1 and "acme-skirmish" in err and "ink ran out" in err and "internal error" not in err


def test_the_editor_shows_and_prints_the_guests_objects(skirmish, tmp_path, qtbot, monkeypatch):
    from editorkit import close, isolate, settle, window
    from sandtable.editor import hooks
    from sandtable.rules import references
    isolate(monkeypatch, tmp_path)
    w = window(qtbot, skirmish)
    settle(qtbot, w)
    assert ("unit-type", "cromwell") in w.explorer.items and ("unit-type", "matilda") in w.explorer.items
    assert any(f.code == "skirmish-slow" for f in w.ws.catalog.findings)
    files = hooks.print_documents(w.ws.catalog, "unit-type", "matilda", tmp_path / "print")
    assert [p.name for p in files] == ["roster-matilda.pdf"] and files[0].read_bytes().startswith(b"%PDF")
    assert references.scheme("skirmish").fields["unit-type"][0].target == "unit-type"  # rename/delete know it
    close(w)


def test_the_guest_as_a_real_installed_distribution(tmp_path):
    """End to end in a fresh process: the entry point is found in the dist-info on PYTHONPATH."""
    import os
    from bounded import assert_clean, run_cli
    site = _install(tmp_path / "site")
    env = {"PYTHONPATH": os.pathsep.join([str(site), *filter(None, [os.environ.get("PYTHONPATH")])])}
    pack = _pack(tmp_path / "pack")
    result = run_cli("export", "rosters", "--pack", pack, "-o", tmp_path / "r.pdf", env=env, timeout=60,
                     memory_mb=1536)
    assert_clean(result, codes=(0,))
    assert (tmp_path / "r.pdf").read_bytes().startswith(b"%PDF")
