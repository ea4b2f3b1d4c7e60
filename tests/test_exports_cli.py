"""`sandtable export KIND ... -o FILE` for every kind, printer profiles, the kit, exit statuses."""
from __future__ import annotations

import json
import re

import pytest

from export_helpers import reader, write_odd_mod
from sandtable.cli import main


def _run(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


CASES = [
    (["cards", "--year", "1943", "--card", "178", "--card", "163", "--backs"], 2),
    (["raids"], 1),
    (["counters", "V", "--size", "1/2", "--bleed", "2", "--no-cut-lines"], 2),
    (["markers", "II", "--size", "1/2"], 1),  # one-sided: no marker of II has another back
    (["record", "xiii"], 3),  # the third: the fire-zone record (§13.26)
    (["raid-form"], 2),
    (["scenario", "tobruk", "--lang", "fr"], None),
    (["aids", "--page", "letter"], None),
    (["map", "B-north-up"], 8),
    (["calibration", "--flip", "short"], 2),
]


def test_every_declared_print_part_has_a_case():
    """The kinds come from the rulesets' declared print parts (rules/rulesets.PrintPart): a part
    declared without a case here fails, so adding an export is a module, a part and a test. A
    part that is not a PDF (VASSAL) has its own test file, tests/test_<kind>_*.py."""
    from pathlib import Path

    from sandtable.cli.export_cmd import kinds
    from sandtable.rules import rulesets
    here = Path(__file__).parent
    covered = {argv[0] for argv, _ in CASES}
    for name in ("desert-steel", "holland44", "miniatures"):
        for part in rulesets.get(name).prints:
            assert (part.kind in covered) if part.common else any(here.glob(f"test_{part.kind}_*.py")), part.kind
            assert part.kind in kinds()


@pytest.mark.parametrize("argv, pages", CASES)
def test_each_kind(tmp_path, capsys, argv, pages):
    out_file = tmp_path / "out.pdf"
    code, out, err = _run(capsys, "export", *argv, "-o", out_file)
    assert code == 0, err
    assert out.startswith(f"wrote {out_file}: ")
    # at 1/2" a marker word prints under 5 pt: that warning alone (issue #28)
    assert err == "" or ("1/2" in argv and set(re.findall(r"warning (\S+)", err)) == {"print-text-too-small"}), err
    data = out_file.read_bytes()
    assert data.startswith(b"%PDF")
    if pages is not None:
        assert len(reader(data).pages) == pages


def test_french_texts(tmp_path, capsys):
    f = tmp_path / "s.pdf"
    assert _run(capsys, "export", "scenario", "II", "-o", f, "--lang", "fr")[0] == 0
    text = "".join(p.extract_text() for p in reader(f.read_bytes()).pages)
    assert "Opération « Battleaxe »" in text


def test_profile_and_its_use(tmp_path, capsys):
    prof = tmp_path / "printer.json"
    code, out, _ = _run(capsys, "export", "profile", "--back-offset", "1.2,-0.8", "--flip", "long", "--name", "office",
                        "-o", prof)
    assert code == 0 and "+1.2,-0.8 mm" in out
    assert json.loads(prof.read_text()) == {"kind": "printer-profile", "name": "office", "back_offset_mm": [1.2, -0.8],
                                            "flip": "long", "marks": "front", "safe_margin_mm": 5.0}
    a, b = tmp_path / "a.pdf", tmp_path / "b.pdf"
    assert _run(capsys, "export", "counters", "I", "-o", a, "--profile", prof)[0] == 0
    assert _run(capsys, "export", "counters", "I", "-o", b, "--back-offset", "1.2,-0.8")[0] == 0
    assert a.read_bytes() == b.read_bytes()  # the profile's offset, or the same offset given directly


@pytest.mark.parametrize("argv, message", [
    (["counters", "XXX"], "no scenario 'XXX'"),
    (["counters", "I", "--back-offset", "3"], "--back-offset takes two numbers"),
    (["counters", "I", "--back-offset", "40,0"], "within \u00b120"),
    (["raid-form", "--setup", "nothing.json"], "nothing.json: no such file"),
    (["map", "no-such-configuration"], "no scenario"),
])
def test_usage_errors(tmp_path, capsys, argv, message):
    code, _, err = _run(capsys, "export", *argv, "-o", tmp_path / "x.pdf")
    assert code == 2 and message in err
    assert not (tmp_path / "x.pdf").exists()


def test_kit(tmp_path, capsys):
    code, out, err = _run(capsys, "export", "kit", "IV", "-o", tmp_path / "kit", "--size", "1/2", "--page", "letter")
    assert code == 0, err
    names = sorted(p.name for p in (tmp_path / "kit").iterdir())
    # IV (basic rules) has no raids and nothing secret: no raid cards, no plan sheets in its kit; the two
    # print jobs sort after the numbered parts
    assert names == ["01-scenario.pdf", "02-record-sheet.pdf", "04-formation-cards.pdf", "06-counters.pdf",
                     "07-markers.pdf", "08-play-aids.pdf", "09-map.pdf", "kit-04-supercharge-duplex.pdf",
                     "kit-04-supercharge-simplex.pdf"]
    assert "kit for IV Operation Supercharge" in out
    assert "kit-04-supercharge-duplex.pdf: " in out and "double-sided, flip on the long edge" in out
    for job, parts in (("simplex", 6), ("duplex", 3)):
        combined = reader((tmp_path / "kit" / f"kit-04-supercharge-{job}.pdf").read_bytes())
        assert float(combined.pages[0].mediabox.upper_right[0]) == 612.0  # Letter
        assert len(combined.outline) == parts  # the guide and each part


def test_warnings_are_printed_and_do_not_fail(tmp_path, capsys):
    mod = write_odd_mod(tmp_path)
    code, out, err = _run(capsys, "export", "counters", "XIII", "--pack", mod, "-o", tmp_path / "c.pdf")
    assert code == 0
    assert "warning print-text-too-small" in err and "counter de-very-long (card 900)" in err
    assert "warning(s)" in out


def test_a_pack_with_errors_is_not_printed(tmp_path, capsys):
    mod = tmp_path / "broken"
    mod.mkdir()
    (mod / "pack.json").write_text(json.dumps({"kind": "pack", "id": "broken", "name": "x", "version": "1.0",
                                               "ruleset": "desert-steel", "depends_on": [{"id": "desert-steel"}]}))
    (mod / "overrides.json").write_text(json.dumps({"kind": "overrides", "overrides": [{
        "target": {"kind": "unit-type", "id": "no-such-unit"}, "remove": True}]}))
    code, _, err = _run(capsys, "export", "aids", "--pack", mod, "-o", tmp_path / "a.pdf")
    assert code == 1 and "override-target-missing" in err and "fix them before printing" in err
    assert not (tmp_path / "a.pdf").exists()


def test_the_code_is_documented(capsys):
    code, out, _ = _run(capsys, "codes")
    assert code == 0 and "print-text-too-small" in out
