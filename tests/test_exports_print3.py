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
