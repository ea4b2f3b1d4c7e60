"""Each print-kit document: its text (pypdf), its ink where ink belongs (pdftoppm), its fonts and metadata."""
from __future__ import annotations

import re

import pytest

from export_helpers import have_pdftoppm, ink, page_text, reader, render
from sandtable.exports import calibration
from sandtable.exports.desert_steel import (aids, cards, counters, mapsheet,
                                            markers, raidform, raids, record, scenario_sheet)
from sandtable.exports.desert_steel.cards import CARD_MARGIN
from sandtable.exports.page import MM, POKER
from sandtable.exports.sheets import grid_for

needs_poppler = pytest.mark.skipif(not have_pdftoppm(), reason="pdftoppm (Debian poppler-utils) is not installed")


@pytest.fixture(scope="module")
def docs(catalog, model):
    """Every kind of document once (the heavier ones for one scenario)."""
    s = model.scenario("XIII")
    setup = {"kind": "setup", "id": "plan", "scenario": "totensonntag", "sides": {"axis": {"raids": [
        {"kind": "air-strike", "turn": 4}, {"kind": "preplanned-bombardment", "turn": 2, "spotting_card": 179,
                                            "raid_card": "S4"}]}}}
    out = {
        "cards": cards.cards_pdf(model, scenario=s, backs=True),
        "raids": raids.raids_pdf(model, catalog, backs=True),
        "counters": counters.counters_pdf(model, s),
        "markers": markers.markers_pdf(model, s),
        "record": record.record_pdf(model, s),
        "raid-form": raidform.raid_form_pdf(model, model.scenario("IX"), setup),
        "raid-form-blank": raidform.raid_form_pdf(model),
        "scenario": scenario_sheet.scenario_pdf(model, model.scenario("V")),
        "aids": aids.aids_pdf(model),
        "map": mapsheet.map_pdf(model, s.configuration, s)[:2],
        "calibration": calibration.calibration_pdf(),
    }
    return {k: v[0] for k, v in out.items()} | {"_findings": {k: v[1] for k, v in out.items()}}


KINDS = ["cards", "raids", "counters", "markers", "record", "raid-form", "raid-form-blank", "scenario", "aids", "map",
         "calibration"]


def test_every_declared_pdf_part_has_its_document_here():
    """Each PDF part Desert Steel declares (rules/desert_steel/contributions.py) is checked below."""
    from sandtable.rules import rulesets
    assert {p.kind for p in rulesets.get("desert-steel").prints if p.common} <= set(KINDS)


@pytest.mark.parametrize("kind", KINDS)
def test_metadata_fonts_note_and_no_findings(docs, kind):
    data = docs[kind]
    pdf = reader(data)
    meta = pdf.metadata
    assert meta["/Title"].startswith("Desert Steel") and meta["/Author"] == "sandtable"
    assert meta["/CreationDate"] == "D:20000101000000+00'00'"  # invariant: no clock in the bytes
    assert pdf.outline, "a bookmark per document part"
    assert b"/FontFile2" in data and b"DejaVuSans" in data  # embedded TrueType with accents
    for page in pdf.pages:
        t = page.extract_text()
        if "intentionally blank" in t:
            continue
        assert "actual size (100 %)" in t, f"no print-at-100% note on a page of {kind}"
    assert docs["_findings"][kind] == []


def test_cards_text(docs, model):
    t = page_text(docs["cards"])
    for s in ("409", "6th Infantry Regiment", "A/15", "M4/75 Sherman", "EXPERIENCE", "MORALE", "1942", "Command card",
              "DESERT STEEL", "Subordinate formations", "QG/6"):
        assert s in t, s
    assert "10 (+1)" in t or "9 (+1)" in t


def test_raid_cards_text(docs):
    t = page_text(docs["raids"])
    for s in ("S1", "S8", "S9", "AIR STRIKE", "ARTILLERY BOMBARDMENT", "9 Beaufighters / Stukas", "10 \u2013 16",
              "3 Passes", "1 Medium Howitzer Battery", "On-call delay: 1 Turn", "RAID"):
        assert s in t, s
    assert "\u2020" in t  # reconstructed values are marked


def test_counters_text(docs, model):
    t = page_text(docs["counters"])
    flat = "".join(t.split())  # the factors are drawn part by part (the defense may be white)
    for s in ("A/15", "M4/75", "Sherman", "1/16", "Truck"):
        assert s in t, s
    for s in ("7-5-6", "\u2022-0-\u2022", "0-1-2"):
        assert s in flat, s


def test_markers_text_and_counts(docs, model):
    t = page_text(docs["markers"])
    for s in ("SHAKEN", "FIRE", "ZONE", "SPOTTED", "ENTRENCHED", "ENTRENCHING", "NORTH", "SMOKE", "SUPPRESSED",
              "counts reconstructed"):
        assert s in t, s
    assert not re.search(r"[A-Z]-\n", t)  # whole words: no "SUPPRES-/SED"
    counts = dict(markers.marker_counts(model, model.scenario("XIII")))
    assert counts["game-turn"] == 1 and counts["north"] == 1
    assert counts["entrenched"] >= 15  # the 15 entrenchments the Allied player may deploy
    assert counts["smoke-points"] == 2 and "bunker" not in counts
    vii = dict(markers.marker_counts(model, model.scenario("VII")))
    assert vii["bunker"] == 3 and vii["wire"] == 18  # Tobruk's fortifications


def test_record_sheet_text(docs):
    t = page_text(docs["record"])
    for s in ("Turn track", "15", "END", "vis 3", "Battle conditions", "Hilly", "Sandy", "Desert", "None",
              "Visibility", "Smoke points", "Raid deck", "X: 501 508"):
        assert s in t, s


def test_raid_form_text(docs):
    t = page_text(docs["raid-form"])
    for s in ("RAID RECORD", "IX Totensonntag", "AIR STRIKES", "ARTILLERY BOMBARDMENTS", "Spotting formation",
              "155", "179", "S4", "3 preplanned", "pre-filled"):
        assert s in t, s
    blank = page_text(docs["raid-form-blank"])
    assert "Scenario: ____" in blank and "Allied" in blank and "Axis" in blank


def test_scenario_sheet_text(docs):
    t = page_text(docs["scenario"])
    for s in ("V. Sidi Bou Sa\u00efd", "Background", "The board", "North", "Battle conditions", "Allied forces",
              "Axis forces", "Undermanned", "Victory conditions", "Special rules", "set up", "Smoke"):
        assert s in t, s


def test_aids_text(docs):
    t = page_text(docs["aids"])
    for s in ("How to read a counter", "Terrain effects", "Random Battle Conditions Table", "Movement costs",
              "Stacking", "Spotting", "Combat Results Table", "Range modifiers", "Fire modifiers", "Morale",
              "Separation", "Destroyed", "Hit +2", "\u2020", "flash kill"):
        assert s.lower() in t.lower(), s


def test_map_text(docs):
    t = page_text(docs["map"])
    assert "tile 1 of" in t and "150 m" in t and "2620" in t and "north" in t


def test_calibration_text(docs):
    t = page_text(docs["calibration"])
    assert "100 mm" in t and "--back-offset" in t and "front" in t and "back" in t


# --- ink where ink belongs --------------------------------------------------------------------

@needs_poppler
def test_counters_ink(docs, model):
    data = docs["counters"]
    pdf = reader(data)
    W, H = (float(v) for v in pdf.pages[0].mediabox.upper_right)
    g = grid_for(W, H, 45, 45)
    for page in (1, 2):  # front and back
        img = render(data, page)
        x, y = g.xy(0, 0)
        if page == 2:
            x = W - x - 45
        assert ink(img, (x + 3, y + 3, x + 42, y + 42), H) > 0.9  # the nationality colour
        assert ink(img, (W - 4 * MM, 0, W, 4 * MM), H) == 0  # the page corner stays white


@needs_poppler
def test_cards_ink(docs):
    data = docs["cards"]
    pdf = reader(data)
    W, H = (float(v) for v in pdf.pages[0].mediabox.upper_right)
    g = grid_for(W, H, *POKER, CARD_MARGIN)
    x, y = g.xy(0, 0)
    img = render(data, 1)
    assert ink(img, (x + 4, y + POKER[1] - 38, x + POKER[0] - 4, y + POKER[1] - 4), H) > 0.8  # the header band
    assert 0 < ink(img, (x, y, x + POKER[0], y + POKER[1]), H) < 0.6
    back = render(data, 2)
    assert ink(back, (W - x - POKER[0] + 20, y + 20, W - x - 20, y + 40), H) > 0.9  # the coloured back


@needs_poppler
@pytest.mark.parametrize("kind", ["raids", "markers", "record", "raid-form", "scenario", "aids", "map",
                                  "calibration"])
def test_sheets_have_ink_in_the_page_and_none_off_it(docs, kind):
    data = docs[kind]
    pdf = reader(data)
    W, H = (float(v) for v in pdf.pages[0].mediabox.upper_right)
    img = render(data, 1)
    assert ink(img, (12 * MM, 12 * MM, W - 12 * MM, H - 12 * MM), H) > 0.01
    assert ink(img, (0, 0, 2 * MM, 2 * MM), H) == 0 and ink(img, (W - 2 * MM, H - 2 * MM, W, H), H) == 0


@needs_poppler
def test_map_sheet_is_mostly_terrain(docs):
    data = docs["map"]
    pdf = reader(data)
    W, H = (float(v) for v in pdf.pages[0].mediabox.upper_right)
    img = render(data, 1)
    assert ink(img, (15 * MM, 15 * MM, W - 15 * MM, H - 15 * MM), H) > 0.5  # the board fills the tile


@needs_poppler
def test_scenario_board_shows_the_zones(model):
    data, _ = scenario_sheet.scenario_pdf(model, model.scenario("XIII"))
    t = reader(data).pages[0].extract_text()
    assert "A1" in t and "X1" in t and "Allied set up" in t and "Axis reinforcements turn 3" in t
