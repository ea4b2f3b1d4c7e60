"""Print-kit geometry: sizes, grids, and every back behind its front (duplex), on the page itself."""
from __future__ import annotations

import math

import pytest

from export_helpers import reader, rects
from sandtable.exports import calibration
from sandtable.exports.desert_steel import cards, counters, mapsheet
from sandtable.exports.page import COUNTER_SIZES, MM, PAGE_SIZES, POKER, Doc, PrinterProfile
from sandtable.exports.sheets import grid_for
from sandtable.rules.catalog import load_catalog


@pytest.fixture(scope="module")
def model():
    return load_catalog().model


def test_sizes_in_points():
    assert COUNTER_SIZES["5/8"] == 45.0  # 5/8 in = 45 pt
    assert COUNTER_SIZES["1/2"] == 36.0 and COUNTER_SIZES["3/4"] == 54.0
    assert POKER == (180.0, 252.0)  # 2.5 x 3.5 in
    assert PAGE_SIZES["a4"] == pytest.approx((210 * MM, 297 * MM), abs=0.01)
    assert PAGE_SIZES["letter"] == (612.0, 792.0)


@pytest.mark.parametrize("size, page, expected", [("1/2", "a4", 294), ("5/8", "a4", 187), ("3/4", "a4", 126),
                                                  ("1/2", "letter", 300), ("5/8", "letter", 192)])
def test_counters_per_page_use_the_page(size, page, expected):
    # the issue: 1/2 in counters fit about 294 to an A4 page with 10 mm margins, 5/8 in about 187
    w, h = PAGE_SIZES[page]
    s = COUNTER_SIZES[size]
    g = grid_for(w, h, s, s, 10 * MM)
    assert g.capacity == expected
    assert g.x0 >= 10 * MM - 1e-6 and g.x0 + g.cols * s <= w - 10 * MM + 1e-6
    assert math.isclose(g.x0, w - (g.x0 + g.cols * s))  # centred: fronts and backs share the same columns


def cut_squares(page):
    """The cut lines of counters: stroked squares (range boxes and symbols are not square)."""
    return [r for r in rects(page) if r[2] == r[3] and r[2] >= 30]


def behind(rect, rects_on_back, tol=0.02) -> bool:
    return any(all(abs(a - b) <= tol for a, b in zip(rect, r)) for r in rects_on_back)


def _counter_pdf(model, profile=None, size="5/8"):
    data, findings = counters.counters_pdf(model, model.scenario("XIII"), size=size, profile=profile)
    return reader(data), findings


def test_every_counter_is_its_size_and_every_back_is_behind_its_front(model):
    pdf, findings = _counter_pdf(model)
    assert findings == []
    W, H = (float(v) for v in pdf.pages[0].mediabox.upper_right)
    n = len(counters.scenario_counters(model, model.scenario("XIII")))
    sheets = [(pdf.pages[i], pdf.pages[i + 1]) for i in range(0, len(pdf.pages), 2)]
    total = 0
    for front, back in sheets:
        f = cut_squares(front)
        b = set(cut_squares(back))
        assert f and all(r[2] == 45.0 and r[3] == 45.0 for r in f)
        for x, y, w, h in f:
            assert behind((W - x - w, y, w, h), b), f"no back behind the front at {x}, {y}"
        assert len(b) == len(f)
        total += len(f)
    assert total == n


def test_back_offset_and_short_edge_flip(model):
    shifted, _ = _counter_pdf(model, PrinterProfile("p", (1.5, -0.5), "long"))
    plain, _ = _counter_pdf(model)
    W, H = (float(v) for v in plain.pages[0].mediabox.upper_right)
    front = cut_squares(plain.pages[0])
    back = set(cut_squares(shifted.pages[1]))
    for x, y, w, h in front:
        assert behind((W - x - w + 1.5 * MM, y - 0.5 * MM, w, h), back)
    short, _ = _counter_pdf(model, PrinterProfile("p", (0, 0), "short"))
    back = set(cut_squares(short.pages[1]))
    for x, y, w, h in cut_squares(short.pages[0]):
        assert behind((x, H - y - h, w, h), back)


@pytest.mark.parametrize("size", ["1/2", "3/4"])
def test_other_counter_sizes(model, size):
    pdf, _ = _counter_pdf(model, size=size)
    s = COUNTER_SIZES[size]
    squares = cut_squares(pdf.pages[0])
    assert squares and all(r[2] == s and r[3] == s for r in squares)


def test_cards_are_poker_size_nine_to_a_page_with_backs_behind(model):
    data, _ = cards.cards_pdf(model, year=1942, backs=True)
    pdf = reader(data)
    W = float(pdf.pages[0].mediabox.upper_right[0])
    front = rects(pdf.pages[0])
    cut = [r for r in front if (r[2], r[3]) == POKER]
    assert len(cut) == 9
    xs = sorted({r[0] for r in cut})
    assert len(xs) == 3 and xs[1] - xs[0] == 180.0
    back = set(r for r in rects(pdf.pages[1]) if (r[2], r[3]) == POKER)
    assert all(behind((W - x - w, y, w, h), back) for x, y, w, h in cut)


def test_map_is_at_true_scale_and_tiles_overlap(model):
    conf = model.configurations["A-over-B-north-up"]
    board, geo = mapsheet.map_geometry(model, conf)
    hex_h = geo.radius * math.sqrt(3)
    assert hex_h / MM == pytest.approx(560 / 30, abs=0.01)  # 56 cm, 30 hex heights down a sheet
    edges = board.page_edges["A"]
    assert (edges["bottom"] - edges["top"]) * geo.ky / MM == pytest.approx(560, abs=0.1)
    t = mapsheet.tiling(geo.width, geo.height, "a4", 10 * MM)
    # at least the overlap asked for; the tiles spread evenly, the last ones ending at the board's edge
    assert t.area_w - t.step_x >= 10 * MM - 1e-6 and t.area_h - t.step_y >= 10 * MM - 1e-6
    assert (t.cols - 1) * t.step_x + t.area_w == pytest.approx(geo.width)
    assert (t.rows - 1) * t.step_y + t.area_h == pytest.approx(geo.height)
    data, _, tl = mapsheet.map_pdf(model, conf)
    assert len(reader(data).pages) == tl.pages == t.pages


def test_calibration_back_scales_sit_behind_the_front_crosses():
    p = PrinterProfile("x", (0, 0), "long")
    W, H = PAGE_SIZES["a4"]
    crosses = calibration.cross_positions(W, H)
    assert (W / 2, H / 2) in crosses
    mirrored = [p.back_rect(x, y, 0, 0, W, H) for x, y in crosses]
    assert sorted(round(x, 3) for x, _ in mirrored) == sorted(round(W - x, 3) for x, _ in crosses)
    data, _ = calibration.calibration_pdf()
    assert len(reader(data).pages) == 2


def test_profile_round_trip_and_limits(tmp_path):
    p = PrinterProfile("office", (0.8, -1.2), "short", "both")
    p.save(tmp_path / "p.json")
    assert PrinterProfile.load(tmp_path / "p.json") == p
    with pytest.raises(ValueError):
        PrinterProfile("x", (50, 0))
    with pytest.raises(ValueError):
        PrinterProfile("x", (0, 0), "sideways")


def test_duplex_parts_start_on_odd_pages(model):
    doc = Doc("t")
    doc.begin()
    doc.end()
    counters.draw_countersheets(doc, counters.scenario_counters(model, model.scenario("XIII"))[:5], 45, "x")
    data = doc.save()
    pdf = reader(data)
    assert len(pdf.pages) == 4  # page 1, a blank page 2, then front on page 3 and its back on page 4
    assert "intentionally blank" in pdf.pages[1].extract_text()
