"""The print kit, part 3 (issue #28): viewer preferences, printer-safe geometry, map contrast,
sides apart, the fire-zone record, French throughout and the smaller items."""
from __future__ import annotations

import pytest
from export_helpers import page_text, reader

from sandtable.exports.desert_steel import kit
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
    from sandtable.exports import calibration
    from sandtable.exports.desert_steel import cards
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

    from sandtable.exports import hexdraw
    from sandtable.exports.desert_steel import mapsheet
    from sandtable.rules import board_style as st
    assert mapsheet._ID_INK == HexColor(st.ID_INK) and mapsheet._LEVEL_INK == HexColor(st.LEVEL_INK)
    assert mapsheet._LABEL_INK == HexColor(st.LABEL_INK) and hexdraw.HALF_HEX == HexColor(st.HALF_HEX)
    assert abs(mapsheet._PLATE.alpha - st.PLATE_ALPHA) < 1e-9


# --- printer-safe geometry --------------------------------------------------------------------------

def _pages_grey(data: bytes, dpi: int):
    import re
    import subprocess
    out = subprocess.run(["pdftoppm", "-gray", "-r", str(dpi), "-"], input=data, capture_output=True,
                         check=True).stdout
    i = 0
    while i < len(out):
        m = re.match(rb"P5\s+(\d+)\s+(\d+)\s+(\d+)\s", out[i:])
        w, h = int(m.group(1)), int(m.group(2))
        start = i + m.end()
        yield w, h, out[start:start + w * h]
        i = start + w * h


def edge_distance_mm(data: bytes, dpi: int = 100, look_mm: float = 8.0) -> float:
    """The smallest distance from any inked pixel (grey < 200) to the paper edge, over every page
    (capped at look_mm)."""
    k = int(look_mm * dpi / 25.4)
    best = k
    for w, h, px in _pages_grey(data, dpi):
        for r in range(h):
            row = px[r * w:(r + 1) * w]
            if (r < best or h - 1 - r < best) and min(row) < 200:
                best = min(best, r if r < h / 2 else h - 1 - r)
            left, right = row[:best], row[w - best:] if best else b""
            if left and min(left) < 200:
                best = min(best, next(i for i, v in enumerate(left) if v < 200))
            if right and min(right) < 200:
                best = min(best, len(right) - 1 - max(i for i, v in enumerate(right) if v < 200))
    return best * 25.4 / dpi


needs_poppler = pytest.mark.skipif(not __import__("shutil").which("pdftoppm"), reason="poppler-utils not installed")


@pytest.fixture(scope="module")
def xv_letter_kit(tmp_path_factory, catalog, model):
    out = tmp_path_factory.mktemp("kit3-letter")
    return kit.build_kit(model, model.scenario("XV"), out, catalog=catalog, page="letter")


@needs_poppler
@pytest.mark.parametrize("which", ["a4", "letter"])
def test_nothing_prints_in_the_printers_safe_margin(which, xv_kit, xv_letter_kit):
    result = xv_kit if which == "a4" else xv_letter_kit
    worst = min((edge_distance_mm(p.read_bytes()), p.name) for p in result.files if not p.name.startswith("kit-"))
    assert worst[0] >= 5.0 - 0.26, worst  # a pixel at 100 dpi


@needs_poppler
def test_french_parts_keep_out_of_the_safe_margin_too(model, xv_french_kit):
    """Longer French lines (the record sheet's notes, the counter key) on A4 and Letter."""
    from sandtable.exports.desert_steel import aids, record
    worst = min((edge_distance_mm(p.read_bytes()), p.name) for p in xv_french_kit.files
                if p.name[:2] in ("01", "02", "03", "05", "08"))
    assert worst[0] >= 5.0 - 0.26, worst
    for data in (record.record_pdf(model, model.scenario("IX"), lang="fr")[0], aids.aids_pdf(model, lang="fr")[0]):
        assert edge_distance_mm(data) >= 5.0 - 0.26


@needs_poppler
def test_a_wider_safe_margin_moves_everything_in(model):
    from sandtable.exports.desert_steel import cards, mapsheet
    wide = PrinterProfile(safe_margin_mm=7.0)
    data, _ = cards.cards_pdf(model, scenario=model.scenario("XV"), backs=True, page="letter", profile=wide)
    assert edge_distance_mm(data, look_mm=10) >= 7.0 - 0.26
    data, _, _ = mapsheet.map_pdf(model, model.scenario("IX").configuration, model.scenario("IX"), page="letter",
                               profile=wide)
    assert edge_distance_mm(data, look_mm=10) >= 7.0 - 0.26
    with pytest.raises(ValueError):
        PrinterProfile(safe_margin_mm=30)
    assert PrinterProfile.from_json(wide.to_json()) == wide


@pytest.mark.parametrize("what", ["cards-letter", "counters-a4", "markers-letter"])
def test_crop_marks_lie_outside_the_cut_and_inside_the_printable_area(model, what):
    """Every crop-mark line (Letter's card sheets leave only 6.35 mm above and below the cards)
    starts outside the trim box and ends at least the safe margin from the paper's edge."""
    from pypdf.generic import ContentStream

    from sandtable.exports.desert_steel import cards, counters, markers
    from sandtable.exports.page import MM
    s = model.scenario("XV")
    data = {"cards-letter": lambda: cards.cards_pdf(model, scenario=s, backs=True, page="letter"),
            "counters-a4": lambda: counters.counters_pdf(model, s),
            "markers-letter": lambda: markers.markers_pdf(model, s, page="letter")}[what]()[0]
    pdf = reader(data)
    n = 0
    for page in pdf.pages[::2]:  # fronts
        W, H = (float(v) for v in page.mediabox.upper_right)
        x0, y0, x1, y1 = (float(v) for v in page.trimbox)
        ops = ContentStream(page.get_contents(), pdf).operations
        stack, moved = [], False  # lines drawn in a turned frame (the side notes) are not marks
        for i, (args, op) in enumerate(ops):
            if op == b"q":
                stack.append(moved)
            elif op == b"Q":
                moved = stack.pop() if stack else False
            elif op == b"cm" and [float(v) for v in args] != [1, 0, 0, 1, 0, 0]:
                moved = True
            if op == b"m" and not moved and i + 1 < len(ops) and ops[i + 1][1] == b"l":
                ax, ay = (float(v) for v in args)
                bx, by = (float(v) for v in ops[i + 1][0])
                outside = (max(ax, bx) <= x0 + 0.01 or min(ax, bx) >= x1 - 0.01 or max(ay, by) <= y0 + 0.01
                           or min(ay, by) >= y1 - 0.01)
                if not outside:
                    continue
                n += 1
                for x, y in ((ax, ay), (bx, by)):
                    assert 5 * MM - 0.01 <= x <= W - 5 * MM + 0.01 and 5 * MM - 0.01 <= y <= H - 5 * MM + 0.01
    assert n > 10


def _dark_in_band(data: bytes, page: int, cells, cell_w: float, cell_h: float, page_h: float, dpi: int = 200,
                  inner_mm: float = 1.5, skip_mm: float = 0.35) -> list:
    """Pieces with a dark (text) pixel between skip_mm and inner_mm inside their cut line."""
    from export_helpers import render

    from sandtable.exports.page import MM
    w, h, px = render(data, page, dpi=dpi)
    k = dpi / 72
    bad = []
    for i, (x, y) in enumerate(cells):
        c0, c1 = int(round(x * k)), int(round((x + cell_w) * k))
        r0, r1 = int(round((page_h - y - cell_h) * k)), int(round((page_h - y) * k))
        a, b = int(skip_mm * MM * k) + 1, int(inner_mm * MM * k)
        for r in range(r0 + a, r1 - a):
            row = px[r * w:(r + 1) * w]
            inner = r0 + b <= r < r1 - b
            spans = [(c0 + a, c0 + b), (c1 - b, c1 - a)] if inner else [(c0 + a, c1 - a)]
            if any(min(row[s:e]) < 90 for s, e in spans if e > s):
                bad.append((i, r - r0))
                break
    return bad


@needs_poppler
@pytest.mark.parametrize("size", ["1/2", "5/8"])
def test_counter_texts_keep_clear_of_the_cut_lines(model, size):
    from sandtable.exports.desert_steel import counters
    from sandtable.exports.page import COUNTER_SIZES, Doc
    s = COUNTER_SIZES[size]
    doc = Doc("t")
    plan = counters.draw_countersheets(doc, counters.scenario_counters(model, model.scenario("XV")), s, "t")
    data = doc.save()
    cells = [(p.x, p.y) for p in plan[0]]
    assert len(cells) > 20
    assert _dark_in_band(data, 1, cells, s, s, doc.h) == []


@needs_poppler
def test_marker_and_raid_card_texts_keep_clear_of_the_cut_lines(model):
    from sandtable.exports.desert_steel import markers, raids
    from sandtable.exports.page import COUNTER_SIZES, POKER, Doc
    s = COUNTER_SIZES["5/8"]
    for lang in ("en", "fr"):
        doc = Doc("t", lang=lang)
        plans = markers.draw_markers(doc, model, model.scenario("XV"), s, faces="one")
        data = doc.save()
        assert _dark_in_band(data, 1, [(p.x, p.y) for p in plans[0]], s, s, doc.h) == [], lang
    doc = Doc("t")
    plan = raids.draw_raid_cards(doc, model, None, backs=False)
    data = doc.save()
    w, h = POKER
    assert _dark_in_band(data, 1, [(p.x, p.y) for p in plan[0]], w, h, doc.h) == []


@needs_poppler
def test_card_texts_keep_clear_of_the_cut_lines(model):
    from sandtable.exports.desert_steel import cards
    from sandtable.exports.page import POKER, Doc
    doc = Doc("t", page="letter")
    faces = cards.faces_for(model, scenario=model.scenario("XV"))
    plan = cards.draw_cards(doc, faces, "t", backs=False)
    data = doc.save()
    w, h = POKER
    for n in (1, 2):
        assert _dark_in_band(data, n, [(p.x, p.y) for p in plan[n - 1]], w, h, doc.h) == [], n


def test_texts_under_five_points_are_reported_at_the_chosen_counter_size(model):
    from sandtable.exports.desert_steel import counters, markers
    s = model.scenario("XV")
    small = [f for f in counters.counters_pdf(model, s, size="1/2")[1] if "print under 5 pt" in f.message]
    assert len(small) == 1 and small[0].code == "print-text-too-small" and "1/2\u2033 counters" in small[0].message
    assert "smallest" in small[0].message
    assert not [f for f in counters.counters_pdf(model, s, size="5/8")[1] if "under 5 pt" in f.message]
    assert [f for f in markers.markers_pdf(model, s, size="1/2")[1] if "print under 5 pt" in f.message]
    assert not markers.markers_pdf(model, s, size="5/8", lang="fr")[1]  # long French words: narrower, not smaller


# --- sides apart -------------------------------------------------------------------------------------

@pytest.mark.parametrize("scenario", ["XV", "IX"])
def test_each_sides_cards_are_on_sheets_of_their_own(model, scenario):
    from sandtable.exports.desert_steel import cards
    from sandtable.exports.page import Doc
    faces = cards.faces_for(model, scenario=model.scenario(scenario))
    assert {f.card.side for f in faces} == {"allied", "axis"}
    doc = Doc("t")
    plan = cards.draw_cards(doc, faces, "t", backs=True)
    sides_by_sheet = [{faces[p.index].card.side for p in sheet} for sheet in plan]
    assert all(len(s) == 1 for s in sides_by_sheet), sides_by_sheet
    text = page_text(doc.save())
    assert doc.pages == 2 * len(plan)  # fronts and backs pair up: no blank page between the sides
    assert "\u2014 Allied" in text and "\u2014 Axis" in text


# --- fire-zone record -------------------------------------------------------------------------------

def test_the_record_sheet_has_a_fire_zone_record_where_fire_zones_can_happen(model):
    from sandtable.exports.desert_steel import record
    with_zones = {n: record.uses_fire_zones(model.scenario(n), model) for n in ("I", "V", "VIII", "XII", "XV")}
    # I, V: basic rules; XII: air strikes only (no fire zone, \u00a716.23); VIII: 25-pounders; XV: mortars, bombardments
    assert with_zones == {"I": False, "V": False, "VIII": True, "XII": False, "XV": True}
    text = page_text(record.record_pdf(model, model.scenario("XV"))[0])
    flat = " ".join(text.split())
    assert "Fire zones (\u00a713.26)" in flat and "Allied fire zones" in flat and "Axis fire zones" in flat
    for head in ("Turn", "Hex", "Firing unit (or raid card)", "Its hex", "AI", "AV"):
        assert head in flat
    assert "Fire zones (" not in page_text(record.record_pdf(model, model.scenario("XII"))[0])
    fr = " ".join(page_text(record.record_pdf(model, model.scenario("XV"), lang="fr")[0]).split())
    assert "Zones de tir (\u00a713.26)" in fr and "Unit\u00e9 qui tire" in fr


# --- French throughout ------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def xv_french_kit(tmp_path_factory, catalog, model):
    out = tmp_path_factory.mktemp("kit3-fr")
    return kit.build_kit(model, model.scenario("XV"), out, catalog=catalog, lang="fr", page="letter")


def _english_labels() -> list[str]:
    """Every English text the documents translate (the keys of exports/lang.py and lang_aids.py that
    read differently in French), with their fields cut out, and the words an audit found in English."""
    import re

    from sandtable.exports.lang import FR
    out = set()
    for en, fr in FR.items():
        if en == fr:
            continue
        for piece in re.split(r"\{[a-z_0-9]+\}|<[^>]+>", en):
            piece = " ".join(piece.split()).strip(" .,;:()\u2014")
            if len(piece) >= 12 and " " in piece and piece not in fr:
                out.add(piece)
    out |= {"Forces Alli\u00e9s", "r\u00e8gles advanced", "Allied set up", "Axis set up", "On-call delay", "anti-vehicle",
            "anti-infantry", "command card", "preplanned", "Smoke:", "Raids:", "Motorization:", "morale 9",
            "Seasoned", "Veteran", "Turn track", "the charts of the pack", "Immediate", "not cumulative"}
    return sorted(out)


def test_the_french_kit_has_no_english_label(xv_french_kit):
    labels = _english_labels()
    assert len(labels) > 150
    found = {}
    for path in xv_french_kit.files:
        if path.name.startswith("kit-"):
            continue  # the print jobs hold the same parts
        text = " ".join(page_text(path.read_bytes()).split())
        hits = [w for w in labels if w in text]
        if hits:
            found[path.name] = hits
    assert not found, found


def test_the_french_words_are_the_rulebooks(model):
    from sandtable.exports.lang import FR, marker_lines
    assert marker_lines("fr", ("ENTRENCHING",)) == ("RETRANCHEMENT", "EN COURS")  # \u00a72.12 "Retranchement en cours"
    assert FR["Allied forces"] == "Forces alli\u00e9es" and FR["advanced"] == "r\u00e8gles avanc\u00e9es"
    for en, fr in (("Move and fire", "Tir en mouvement"), ("Overrun", "Enfoncement"), ("Close assault",
                                                                                   "Assaut rapproch\u00e9")):
        assert FR[en] == fr


# --- the smaller items --------------------------------------------------------------------------------

def _runs(page):
    """Text runs drawn without a turned frame: (x0, x1, baseline y, text)."""
    from sandtable.exports.page import register_fonts, width
    register_fonts()
    runs = []

    def visit(text, cm, tm, font, size):
        if not text.strip() or abs(tm[1]) > 1e-6 or abs(cm[1]) > 1e-6:
            return
        x = tm[4] + cm[4]
        y = tm[5] + cm[5]
        runs.append((x, x + width(text.strip(), "Sans", size) * 0.97, y, text))
    page.extract_text(visitor_text=visit)
    return runs


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_per_formation_card_foot_lines_never_overprint(model, lang):
    from sandtable.exports.desert_steel import cards
    data, _ = cards.cards_pdf(model, per_formation=True, lang=lang)
    pdf = reader(data)
    checked = 0
    for page in pdf.pages[:4]:
        runs = [r for r in _runs(page) if "reconstitu" in r[3] or "reconstructed" in r[3] or "\u00b7" in r[3]]
        for i, a in enumerate(runs):
            for b in runs[i + 1:]:
                if abs(a[2] - b[2]) < 2:
                    checked += 1
                    assert a[1] <= b[0] or b[1] <= a[0], (a, b)
    assert checked > 3


def test_both_sides_smoke_tracks_are_on_one_page(model):
    from sandtable.exports.desert_steel import record
    for page in ("a4", "letter"):
        for n in ("IX", "X", "XIII", "XV"):
            data, _ = record.record_pdf(model, model.scenario(n), page=page)
            for text in (p.extract_text() for p in reader(data).pages):
                if "Smoke points" in text:
                    after = text[text.index("Smoke points"):]
                    assert "Allied" in after and "Axis" in after, (page, n)
                    break
            else:
                raise AssertionError(f"{n}: no smoke track")


def test_the_plan_sheet_written_from_a_setup_fills_its_minefield_and_fo_boxes(model):
    from sandtable.exports.desert_steel import raidform
    s = model.scenario("XI")
    setup = {"id": "t", "sides": {"axis": {"minefields": ["B1907", "B1608"]},
                                  "allied": {"placements": [{"card": 330, "type": "us-fo", "hex": "B2120",
                                                             "hidden": True}]}}}
    text = page_text(raidform.raid_form_pdf(model, s, setup)[0])
    assert "pre-filled from setup t" in text and "B1907" in text and "B1608" in text
    assert "A/3 B2120" in text
    assert "B1907" not in page_text(raidform.raid_form_pdf(model, s, None)[0])


@pytest.mark.parametrize("scenario, page", [("XV", "letter"), ("IX", "a4"), ("IX", "letter"), ("XV", "a4")])
def test_the_maps_north_sign_and_head_lines_do_not_meet(model, scenario, page):
    from sandtable.exports.desert_steel import mapsheet
    from sandtable.exports.page import MM
    s = model.scenario(scenario)
    data, _, _ = mapsheet.map_pdf(model, s.configuration, s, page=page)
    for p in reader(data).pages[:2]:
        H = float(p.mediabox.upper_right[1])
        head = [r for r in _runs(p) if r[2] > H - 16 * MM]
        assert any(r[3].strip() in ("north", "N") for r in head)
        for i, a in enumerate(head):
            for b in head[i + 1:]:
                if abs(a[2] - b[2]) < 6:  # lines closer than a text's height
                    assert a[1] <= b[0] or b[1] <= a[0], (a, b)


def test_the_aids_take_no_extra_page_on_letter_or_in_french(model):
    from sandtable.exports.desert_steel import aids
    counts = {(page, lang): len(reader(aids.aids_pdf(model, page=page, lang=lang)[0]).pages)
              for page in ("a4", "letter") for lang in ("en", "fr")}
    assert len(set(counts.values())) == 1, counts
