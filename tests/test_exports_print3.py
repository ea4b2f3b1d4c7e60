"""The print kit, part 3 (issue #28): viewer preferences, printer-safe geometry, map contrast,
sides apart, the fire-zone record, French throughout and the smaller items."""
from __future__ import annotations

import pytest
from export_helpers import page_text, reader

from sandtable.exports import kit
from sandtable.exports.page import PrinterProfile


@pytest.fixture(scope="module")
def xv_kit(tmp_path_factory, catalog, model):
    out = tmp_path_factory.mktemp("kit3")
    return kit.build_kit(model, model.scenario("XV"), out, catalog=catalog)


def _prefs(path_or_bytes):
    pdf = reader(path_or_bytes.read_bytes() if hasattr(path_or_bytes, "read_bytes") else path_or_bytes)
    vp = pdf.trailer["/Root"]["/ViewerPreferences"]
    return str(vp["/PrintScaling"]), str(vp["/Duplex"])


# --- viewer preferences ---------------------------------------------------------------------------

def test_every_pdf_asks_for_actual_size_and_the_duplex_its_job_needs(xv_kit):
    duplex_parts = {"04-formation-cards.pdf", "05-raid-cards.pdf", "06-counters.pdf", "07-markers-two-faced.pdf"}
    seen = set()
    for path in xv_kit.files:
        scaling, duplex = _prefs(path)
        assert scaling == "/None", path.name
        wants = path.name.endswith("-duplex.pdf") or path.name in duplex_parts
        assert duplex == ("/DuplexFlipLongEdge" if wants else "/Simplex"), path.name
        seen.add(duplex)
    assert seen == {"/DuplexFlipLongEdge", "/Simplex"}
    guide = reader(next(p for p in xv_kit.files if p.name.endswith("-duplex.pdf")).read_bytes()).pages[0]
    assert "print scaling: none" in " ".join(guide.extract_text().split())


def test_short_edge_profiles_ask_for_a_short_edge_duplex(model):
    from sandtable.exports import calibration, cards
    profile = PrinterProfile(flip="short")
    data, _ = cards.cards_pdf(model, scenario=model.scenario("XV"), backs=True, profile=profile)
    assert _prefs(data) == ("/None", "/DuplexFlipShortEdge")
    data, _ = calibration.calibration_pdf(profile=profile)
    assert _prefs(data) == ("/None", "/DuplexFlipShortEdge")
    data, _ = cards.cards_pdf(model, scenario=model.scenario("XV"), backs=False)
    assert _prefs(data) == ("/None", "/Simplex")


# --- map contrast (WCAG 2) --------------------------------------------------------------------------

def test_every_map_ink_reads_on_every_colour_the_style_table_can_put_under_it():
    from sandtable.rules import board_style as st
    assert round(st.contrast("#000000", "#ffffff"), 2) == 21.0 and st.contrast("#777777", "#777777") == 1.0
    backgrounds = st.background_colours()
    assert set(st.TERRAIN_COLOURS.values()) <= set(backgrounds.values())
    worst = min((st.contrast(ink, st.plate_over(bg)), name, where)
                for name, ink in st.MAP_INKS.items() for where, bg in backgrounds.items())
    assert worst[0] >= st.MIN_CONTRAST, worst
    # without the plate the old level ink vanished on a level-3 brown hex (issue #28: 1.37:1)
    assert st.contrast("#6b5f52", st.TERRAIN_COLOURS["brown"]) < 1.5


def test_the_map_draws_with_the_style_tables_inks_on_plates():
    from reportlab.lib.colors import HexColor

    from sandtable.exports import hexdraw, mapsheet
    from sandtable.rules import board_style as st
    assert mapsheet._ID_INK == HexColor(st.ID_INK) and mapsheet._LEVEL_INK == HexColor(st.LEVEL_INK)
    assert mapsheet._LABEL_INK == HexColor(st.LABEL_INK) and hexdraw.HALF_HEX == HexColor(st.HALF_HEX)
    assert abs(mapsheet._PLATE.alpha - st.PLATE_ALPHA) < 1e-9
