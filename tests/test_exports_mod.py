"""Every print-kit document over a mod pack with odd data: a very long unit name, a card of many unit
types with a long designation, accents, a unit that cannot fire. Nothing overflows: what cannot fit at
the smallest legible size is cut and reported as a finding naming the counter or card."""
from __future__ import annotations

import pytest

from export_helpers import (ACCENTED, LONG_DESIGNATION, LONG_NAME, have_pdftoppm, ink, page_text, reader, render,
                            write_odd_mod)
from sandtable.exports.desert_steel import kit
from sandtable.exports.desert_steel import (aids, cards, counters, mapsheet,
                                            markers, raidform, raids, record, scenario_sheet)
from sandtable.exports.page import MIN_SIZE
from sandtable.rules.catalog import load_catalog
from sandtable.rules.findings import Severity


@pytest.fixture(scope="module")
def odd(tmp_path_factory):
    mod = write_odd_mod(tmp_path_factory.mktemp("mods"))
    catalog = load_catalog([mod])
    assert catalog.errors == 0, [f.line_text() for f in catalog.findings if f.severity == Severity.ERROR]
    return catalog


def _codes(findings):
    return {f.code for f in findings}


def test_counters_report_what_cannot_fit_and_cut_it(odd):
    model = odd.model
    data, findings = counters.counters_pdf(model, model.scenario("XIII"))
    assert _codes(findings) == {"print-text-too-small"}
    subjects = {f.subject for f in findings}
    assert "counter de-very-long (card 900)" in subjects
    named = [f for f in findings if f.subject == "counter de-very-long (card 900)"]
    assert any(LONG_NAME in f.message for f in named) and any(LONG_DESIGNATION in f.message for f in named)
    assert all(f.severity == Severity.WARNING for f in findings)
    text = page_text(data)
    assert "\u2026" in text  # cut with an ellipsis, not drawn over the edge
    assert "\u00c9/1" in text and "Ballon" in text  # accents survive (embedded DejaVu)
    assert "\u2022-0-\u2022" in "".join(text.split())  # the unit that cannot fire
    # the whole-pack mix includes the mod's counters too
    data, _ = counters.counters_pdf(model)
    assert "\u00c9/1" in page_text(data)


def test_smallest_text_is_never_below_the_legible_minimum(odd):
    model = odd.model
    data, _ = counters.counters_pdf(model, model.scenario("XIII"), size="1/2")
    pdf = reader(data)
    sizes = []

    def visit(text, cm, tm, font, size):
        if text.strip() and font:
            sizes.append(size * tm[0] if tm[0] else size)
    for page in pdf.pages:
        page.extract_text(visitor_text=visit)
    assert sizes and min(sizes) >= MIN_SIZE["counter"] - 0.01


def test_cards_list_many_units_and_report_the_long_name(odd):
    data, findings = cards.cards_pdf(odd.model, numbers=[900, 901], backs=True)
    text = page_text(data)
    assert ACCENTED in text and "Außergewöhnlich" in text
    for name in ("Pz II F", "Pz III H", "SdKfz 222", "MG section", "FO", "R8", "6-4-3", "\u00d719"):
        assert name in text, name
    assert {f.subject for f in findings} == {"card 900 (1942)"}
    assert _codes(findings) == {"print-text-too-small"}


def test_scenario_sheet_lists_the_mod_cards(odd):
    model = odd.model
    data, findings = scenario_sheet.scenario_pdf(model, model.scenario("XIII"))
    text = page_text(data)
    assert "900" in text and "901" in text and "\u00c9/1" in text and "Ballon d'observation" in text
    assert findings == []


def test_other_documents_over_the_mod(odd):
    model = odd.model
    s = model.scenario("XIII")
    setup = {"kind": "setup", "id": "x", "scenario": "lightfoot", "sides": {"axis": {"raids": [
        {"kind": "preplanned-bombardment", "turn": 3, "spotting_card": 900}]}}}
    out = {
        "markers": markers.markers_pdf(model, s),
        "record": record.record_pdf(model, s),
        "raid-form": raidform.raid_form_pdf(model, s, setup),
        "aids": aids.aids_pdf(model),
        "raids": raids.raids_pdf(model, odd),
    }
    for kind, (data, findings) in out.items():
        assert data.startswith(b"%PDF") and findings == [], kind
    assert LONG_DESIGNATION in page_text(out["raid-form"][0])  # the spotting formation, by designation
    counts = dict(markers.marker_counts(model, s))
    assert counts["shaken"] == dict(markers.marker_counts(load_catalog().model, load_catalog().model.scenario(
        "XIII")))["shaken"] + 2  # one per combat card: the mod adds two


def test_map_sheet_over_the_mod(odd):
    model = odd.model
    s = model.scenario("XIII")
    data, findings, t = mapsheet.map_pdf(model, s.configuration, s, page="letter")
    assert findings == [] and len(reader(data).pages) == t.pages


@pytest.mark.skipif(not have_pdftoppm(), reason="pdftoppm (Debian poppler-utils) is not installed")
def test_kit_over_the_mod(odd, tmp_path):
    model = odd.model
    result = kit.build_kit(model, model.scenario("XIII"), tmp_path, catalog=odd)
    assert {f.code for f in result.findings} == {"print-text-too-small"}
    combined = result.files[-2]  # the single-sided job
    assert combined.name.endswith("-simplex.pdf")
    pdf = reader(combined.read_bytes())
    assert [o["/Title"] for o in pdf.outline if isinstance(o, dict)][:3] == ["Print guide", "Scenario XIII Operation Lightfoot", "Record sheet"]
    assert len(pdf.pages) == dict((j, n) for j, _, n in result.jobs)[combined.name]
    W, H = (float(v) for v in pdf.pages[0].mediabox.upper_right)
    img = render(combined.read_bytes(), 1)
    assert ink(img, (30, 30, W - 30, H - 30), H) > 0.02
