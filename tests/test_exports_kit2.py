"""The print kit at the table (issue 17): hidden information, parts that fit each other, the print jobs
and their guide, command-card reminders, Letter cards, countersheet gutters, play aids, map tiles."""
from __future__ import annotations

import re

import pytest

from export_helpers import have_pdftoppm, ink, page_text, reader, rects, render
from sandtable.exports.desert_steel import kit
from sandtable.exports.desert_steel import cards, counters, markers, raidform, record, reminders
from sandtable.exports.page import COUNTER_SIZES, MM, POKER, Doc
from sandtable.rules.desert_steel.model import CommandCard

needs_poppler = pytest.mark.skipif(not have_pdftoppm(), reason="pdftoppm (Debian poppler-utils) is not installed")


@pytest.fixture(scope="module")
def xv_kit(tmp_path_factory, catalog, model):
    out = tmp_path_factory.mktemp("kit")
    return kit.build_kit(model, model.scenario("XV"), out, catalog=catalog)


def _outline_pages(pdf) -> dict[str, int]:
    """Top-level bookmark -> its 1-based page."""
    return {o["/Title"]: pdf.get_destination_page_number(o) + 1 for o in pdf.outline if isinstance(o, dict)}


# --- 1. hidden information ------------------------------------------------------------------

def _back_cells(model, back_style):
    """Each card's back, as grey pixels, with the card's side; and the document's back-page text."""
    s = model.scenario("XV")
    faces = cards.faces_for(model, scenario=s)
    doc = Doc("t")
    plan = cards.draw_cards(doc, faces, "t", backs=True, back_style=back_style)
    data = doc.save()
    pdf = reader(data)
    out, texts = [], []
    w, h = POKER
    for n, placed in enumerate(plan):
        page = 2 * n + 2  # fronts on odd pages, backs on even ones
        texts.append(pdf.pages[page - 1].extract_text())
        img = render(data, page, dpi=30) if have_pdftoppm() else None
        W, H = doc.w, doc.h
        for p in placed:
            bx, by = doc.profile.back_rect(p.x, p.y, w, h, W, H)
            if img is not None:
                iw, _, px = img
                k = 30 / 72
                c0, r0 = int(bx * k) + 2, int((H - by - h) * k) + 2
                cell = bytes(b for r in range(r0, r0 + int(h * k) - 4) for b in px[r * iw + c0:r * iw + c0 + int(w * k) - 4])
                out.append((faces[p.index].card.side, faces[p.index].card.nationality, cell))
    return out, "\n".join(texts)


@needs_poppler
def test_card_backs_show_only_the_side(model):
    cells, backs_text = _back_cells(model, "side")
    assert "Command card" not in backs_text and "Formation card" not in backs_text
    assert "ALLIED" in backs_text and "AXIS" in backs_text
    by_side: dict[str, set] = {}
    nations: dict[str, set] = {}
    for side, nat, cell in cells:
        by_side.setdefault(side, set()).add(cell)
        nations.setdefault(side, set()).add(nat)
    assert nations["axis"] == {"german", "italian"}  # the case of the issue: two nations on one side
    assert all(len(v) == 1 for v in by_side.values()), "every back of a side is the same, pixel for pixel"
    assert by_side["allied"] != by_side["axis"]


def test_informative_backs_are_an_option(model):
    _, backs_text = _back_cells(model, "informative")
    assert "Command card" in backs_text and "Formation card" in backs_text
    with pytest.raises(ValueError):
        cards.card_pieces([], True, "leaky")


def test_record_sheet_is_public_and_each_side_has_its_own_plan_sheet(model):
    s = model.scenario("XI")  # both sides have minefields or hidden observers, and raids
    t = page_text(record.record_pdf(model, s)[0])
    for secret in ("Allied: secret", "Axis: secret", "minefield hexes", "hidden FO"):
        assert secret not in t
    setup = {"kind": "setup", "id": "plan", "scenario": s.id, "sides": {"axis": {"raids": [
        {"kind": "preplanned-bombardment", "turn": 3, "spotting_card": 179, "raid_card": "S4"}]}}}
    pdf = reader(raidform.raid_form_pdf(model, s, setup)[0])
    pages = [p.extract_text() for p in pdf.pages]
    sides = [x for x in ("allied", "axis") if raidform.has_secrets(model, s, x)]
    assert len(pages) == len(sides) == 2
    for text_, side in zip(pages, sides):
        name = side.title()
        other = "Axis" if side == "allied" else "Allied"
        assert f"{name} plan sheet \u2014 SECRET" in text_ and f"{other} plan sheet" not in text_
    assert "S4" in pages[1] and "S4" not in pages[0]  # the Axis plan only on the Axis page (§16.21)
    assert "MINEFIELDS" in "".join(pages) and "RAID RECORD" in pages[1]


def test_a_scenario_without_secrets_or_raids_has_no_plan_sheets_raid_deck_or_raid_cards(model):
    s = model.scenario("IV")
    assert not any(raidform.has_secrets(model, s, x) for x in ("allied", "axis"))
    titles = [p.title for p in kit.kit_parts(model, s)]
    assert "Plan sheets" not in titles and "Raid cards" not in titles
    assert "Raid cards" not in page_text(record.record_pdf(model, s)[0])


# --- 2. parts that fit each other --------------------------------------------------------------

@pytest.mark.parametrize("size", ["1/2", "5/8", "3/4"])
def test_record_boxes_hold_a_marker(model, size):
    s = model.scenario("XV")
    marker = COUNTER_SIZES[size]
    pdf = reader(record.record_pdf(model, s, size=size)[0])
    boxes = [r for page in pdf.pages for r in rects(page, "B*")]  # filled and outlined: the marker boxes
    turn_like = [r for r in boxes if r[3] >= marker]
    # turn track, condition values, visibility track, smoke points: every one holds a marker
    expected = s.turns + sum(len(v.get("values", {})) for v in model.terrain_effects.values()
                             if isinstance(v, dict) and "values" in v) + 12 + sum(
        s.sides[x].raw.get("smoke", 0) for x in ("allied", "axis"))
    assert len(turn_like) == len(boxes) >= expected - 4
    assert all(min(w, h) >= marker + 1.5 * MM for *_, w, h in boxes)
    if size == "5/8":
        assert all(min(w, h) >= 17 * MM for *_, w, h in boxes)  # the issue's figure for 5/8" markers


def test_three_quarter_inch_counters_are_warned_about(model):
    s = model.scenario("XV")
    assert [f.code for f in counters.counters_pdf(model, s, size="3/4")[1]] == ["print-counter-over-hex"]
    assert [f.code for f in markers.markers_pdf(model, s, size="3/4")[1]] == ["print-counter-over-hex"]
    assert counters.counters_pdf(model, s, size="5/8")[1] == []


# --- 4. the print jobs and their guide ---------------------------------------------------------

def test_two_print_jobs_sort_after_the_parts_and_open_with_the_guide(xv_kit):
    names = [p.name for p in xv_kit.files]
    assert sorted(names)[-2:] == ["kit-15-kasserine-pass-duplex.pdf", "kit-15-kasserine-pass-simplex.pdf"]
    assert sorted(names)[:-2] == names[:-2]  # parts 01..09, then the jobs: never among the parts
    guide = {e.title: e for e in xv_kit.guide}
    for path in xv_kit.files[-2:]:
        pdf = reader(path.read_bytes())
        first = pdf.pages[0].extract_text()
        assert "How to print this kit" in first and "\u2190 this file" in first
        assert "kit-15-kasserine-pass-simplex.pdf" in first and "kit-15-kasserine-pass-duplex.pdf" in first
        assert "DOUBLE-SIDED, flip on the long edge" in first and "SINGLE-SIDED" in first
        assert "A4" in first and "5/8" in first
        starts = _outline_pages(pdf)
        assert starts.pop("Print guide") == 1
        for title, page in starts.items():
            e = guide[title]
            assert e.job_file == path.name and e.first == page, title  # the guide's ranges are the file's
            assert f"{e.first}\u2013{e.last}" in first or (e.first == e.last and str(e.first) in first)
        duplex_job = path.name.endswith("duplex.pdf")
        assert {guide[t].duplex for t in starts} == {duplex_job}
        if duplex_job:
            assert all(p % 2 == 1 for p in starts.values())  # every duplex part starts on a front
            assert "intentionally blank" in pdf.pages[1].extract_text()  # the guide's back
        else:
            assert not any("back of the page before" in pdf.pages[n].extract_text() for n in range(starts["Map sheets"] - 1))
        assert len(pdf.pages) == dict((j, n) for j, _, n in xv_kit.jobs)[path.name]


# --- 6. command cards state the rules ----------------------------------------------------------

def _command(model, nationality):
    return next(c for c in model.cards.values() if isinstance(c, CommandCard) and c.nationality == nationality
                and c.hq is not None)


def test_command_reminders_come_from_the_engine_and_say_the_rule(model):
    german = reminders.command_reminder(model, _command(model, "german"))
    assert "up to two" in german and "several" not in german and "no rally" in german and "6.53" in german
    for nat in ("british", "italian"):
        card = _command(model, nat)
        p = reminders.command_powers(model, card)
        assert (p.most, p.hq_extra, p.rally, p.shaken_activate) == (1, True, True, False)
        r = reminders.command_reminder(model, card)
        assert "activate one non-shaken subordinate formation plus the HQ" in r and "or rally" in r and "6.52" in r
    g = reminders.command_powers(model, _command(model, "german"))
    assert (g.most, g.hq_extra, g.rally) == (2, False, False)


def test_command_cards_print_the_reminder(model):
    data, findings = cards.cards_pdf(model, scenario=model.scenario("XV"))
    t = re.sub(r"\s+", " ", page_text(data))
    assert findings == []
    assert "Choose one: activate one non-shaken subordinate" in t
    assert "several subordinates" not in t and "activate subordinates and rally" not in t


# --- 7. Letter gets nine poker cards -----------------------------------------------------------

def test_letter_takes_nine_poker_cards(model):
    faces = cards.faces_for(model, scenario=model.scenario("XV"))
    data, _ = cards.cards_pdf(model, scenario=model.scenario("XV"), page="letter", backs=True)
    pdf = reader(data)
    W, H = (float(v) for v in pdf.pages[0].mediabox.upper_right)
    cells = [r for r in rects(pdf.pages[0]) if (r[2], r[3]) == POKER]
    assert len(cells) == 9 and len(faces) >= 9
    assert min(y for _, y, _, _ in cells) >= 6.2 * MM and max(y + h for _, y, _, h in cells) <= H - 6.2 * MM
    assert "actual size (100 %)" in pdf.pages[0].extract_text()  # the notes moved to the side margins


# --- 8. gutters between colours on countersheets -----------------------------------------------

def test_no_cut_line_is_shared_by_two_colours(model):
    specs = counters.scenario_counters(model, model.scenario("XV"))
    s = COUNTER_SIZES["5/8"]
    pieces = counters.counter_pieces(specs, s)
    doc = Doc("t")
    plan = counters.draw_countersheets(doc, specs, s, "t")
    colours = 0
    for placed in plan:
        for a in placed:
            for b in placed:
                touching = (abs(a.x - b.x) < 0.01 and abs(abs(a.y - b.y) - s) < 0.01) or (
                    abs(a.y - b.y) < 0.01 and abs(abs(a.x - b.x) - s) < 0.01)
                if touching:
                    assert pieces[a.index].front_colour == pieces[b.index].front_colour
        groups = {pieces[p.index].group for p in placed}
        colours += len(groups)
        tops = sorted({round(p.y, 2) for p in placed}, reverse=True)
        gaps = [a - b - s for a, b in zip(tops, tops[1:])]
        # rows touch, or a gutter of twice the bleed and 1 mm lies between them
        assert all(abs(g) < 0.02 or abs(g - (2 * 1.5 * MM + MM)) < 0.02 for g in gaps), gaps
    assert colours > len(plan)  # the scenario has several colours on a sheet: the test means something


# --- 5. complete play aids; counters after §12.13 ----------------------------------------------

def _texts_at(page) -> list[tuple[str, float, float]]:
    out = []

    def visit(text_, cm, tm, font, size):
        if text_.strip():
            out.append((text_.strip(), cm[4] + tm[4] * cm[0], cm[5] + tm[5] * cm[3]))
    page.extract_text(visitor_text=visit)
    return out


def test_two_range_infantry_shows_the_anti_infantry_range_above_the_anti_vehicle_range(model):
    u = model.unit_types["gb-infantry"]
    assert (u.range, u.anti_vehicle_range) == (3, 2)
    doc = Doc("t")
    doc.begin()
    counters.draw_front(doc, 100, 100, 90, counters.CounterSpec(u, "B/6", 1))
    page = reader(doc.save()).pages[0]
    boxes = sorted((r for r in rects(page) if 15 < r[2] < 40 and 8 < r[3] < 20), key=lambda r: -r[1])
    assert len(boxes) == 2 and boxes[0][0] == boxes[1][0]  # two boxes, one above the other
    upper, lower = boxes
    texts = _texts_at(page)

    def inside(box):
        x, y, w, h = box
        return [t for t, tx, ty in texts if x <= tx <= x + w and y <= ty <= y + h]
    assert inside(upper) == [str(u.range)] and inside(lower) == [str(u.anti_vehicle_range)]


def test_play_aids_are_complete(model):
    from sandtable.exports.desert_steel import aids
    data, findings = aids.aids_pdf(model)
    assert findings == []
    t = re.sub(r"\s+", " ", page_text(data))
    for s in ("Sequence of play", "Reinforcement Phase", "Operations Phase", "Morale Phase, step by step",
              "Advance the game turn marker", "priority and interruption", "command card beats a combat card",
              "German (1) > Allied (2) > Italian (3)", "Operations summary", "Close assault", "Transport (§13.3)",
              "Smoke (§17)", "Raids (§16)", "Preplanned bombardment", "On-call bombardment", "Fortifications",
              "Minefields", "Entrenchment", "upper box: anti-infantry range", "lower box: anti-vehicle range",
              "Activate up to two non-shaken subordinate formations"):
        assert s in t, s
    steps = re.search(r"Morale Phase, step by step \(§4\.3\)(.*?)Cards: priority", t).group(1)
    assert [int(n) for n in re.findall(r"(?:^| )(\d)\. ", steps)] == list(range(1, 9))


@needs_poppler
def test_play_aid_pages_are_full(model):
    from sandtable.exports.desert_steel import aids
    data, _ = aids.aids_pdf(model)
    pdf = reader(data)
    W, H = (float(v) for v in pdf.pages[0].mediabox.upper_right)
    last = len(pdf.pages)
    for n in range(1, last + 1):
        img = render(data, n)
        for x0 in (10 * MM, W / 2 + 3 * MM):  # each column's lower half holds text or tables
            # (the last page: its first column full, its second begun: no page is left half empty)
            low = H / 2 if n < last or x0 < W / 2 else H - 60 * MM
            assert ink(img, (x0, low - 60 * MM, x0 + 80 * MM, low), H) > 0.04, (n, x0)


# --- 3. map tiles ------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def xv_map(model):
    from sandtable.exports.desert_steel import mapsheet
    s = model.scenario("XV")
    data, findings, t = mapsheet.map_pdf(model, s.configuration, s)
    return data, findings, t


def test_map_ids_carry_the_map_letter_and_tiles_name_their_maps(model, xv_map):
    data, findings, t = xv_map
    assert findings == []
    pdf = reader(data)
    first = pdf.pages[0].extract_text()
    assert "tile 1 of" in first and "map A" in first
    assert any("maps A and B" in p.extract_text() for p in pdf.pages)
    words = re.findall(r"\b[AB]?\d{4}\b", "\n".join(p.extract_text() for p in pdf.pages[:3]))
    assert words and all(w[0] in "AB" for w in words)  # two maps share ids: every id says its map
    assert "A1202" in words and any(w.startswith("B") for w in words)
    for page in pdf.pages:
        assert "elevation level (§3.4)" in page.extract_text()


def test_map_letter_is_small_and_no_text_covers_hexes(xv_map):
    data, _, _ = xv_map
    sizes = []
    for page in reader(data).pages[:5]:
        page.extract_text(visitor_text=lambda t_, cm, tm, font, size: sizes.append((t_.strip(), size * tm[0])))
    letters = [sz for t_, sz in sizes if t_ in ("A", "B")]
    assert letters and max(letters) < 20  # a corner tag; the old watermark was 67 pt over the hexes


@needs_poppler
def test_a_road_never_hides_a_hex_id(model, xv_map):
    from sandtable.exports.desert_steel import mapsheet
    from sandtable.exports.hexdraw import BoardGeometry
    data, _, t = xv_map
    s = model.scenario("XV")
    board, geo0 = mapsheet.map_geometry(model, s.configuration)
    page = reader(data).pages[0]
    W, H = (float(v) for v in page.mediabox.upper_right)
    geo = BoardGeometry(board, geo0.k, mapsheet.MARGIN, H - mapsheet.MARGIN - 4 * MM)  # tile 1
    img = render(data, 1, dpi=72)
    r = geo.radius
    road = [h for m in s.configuration.maps for rd in m.roads if rd["type"] == "road" for h in rd["hexes"]
            if m.id == "A" and h.startswith("19")]
    assert len(road) >= 5  # A19xx: the north-south road of tile 1
    for h in road[:6]:
        cx, cy = geo.centre(f"A{h}")
        if not (r < cy < H - 20 * MM):
            continue
        box = (cx - r * 0.3, cy + r * 0.6, cx + r * 0.3, cy + r * 0.6 + r * 0.15)
        w_, h_, px = img
        c0, c1 = int(box[0]), int(box[2])
        r0, r1 = int(H - box[3]), int(H - box[1])
        values = [px[y * w_ + x] for y in range(r0, r1) for x in range(c0, c1)]
        assert sum(values) / len(values) > 150, h  # light plate with dark digits, not the red road


def test_tiles_are_even_and_a3_tabloid_take_fewer_pages(model):
    from sandtable.exports.desert_steel import mapsheet
    s = model.scenario("XV")
    _, geo = mapsheet.map_geometry(model, s.configuration)
    counts = {}
    for page in ("a4", "letter", "a3", "tabloid"):
        t = mapsheet.tiling(geo.width, geo.height, page, 10 * MM)
        counts[page] = t.pages
        for n, step, area, board in ((t.cols, t.step_x, t.area_w, geo.width), (t.rows, t.step_y, t.area_h, geo.height)):
            if n > 1:  # the last tile is as full as the first: it ends at the board's edge
                assert (n - 1) * step + area == pytest.approx(board) and area - step >= 10 * MM - 1e-6
    assert counts["a3"] < counts["a4"] and counts["tabloid"] < counts["letter"]
    data, _, t = mapsheet.map_pdf(model, s.configuration, s, page="a3")
    pdf = reader(data)
    assert len(pdf.pages) == counts["a3"]
    assert sorted(float(v) for v in pdf.pages[0].mediabox.upper_right) == pytest.approx([841.89, 1190.55], abs=0.01)


def test_cli_map_and_kit_take_the_large_papers(tmp_path, capsys):
    from sandtable.cli import main
    assert main(["export", "map", "XV", "--page", "tabloid", "-o", str(tmp_path / "m.pdf")]) == 0
    assert float(reader((tmp_path / "m.pdf").read_bytes()).pages[0].mediabox.upper_right[1]) in (792.0, 1224.0)
    assert main(["export", "kit", "I", "--map-page", "a3", "-o", str(tmp_path / "kit")]) == 0
    out = capsys.readouterr().out
    assert "kit-01-" in out and "double-sided, flip on the long edge" in out
    simplex = next((tmp_path / "kit").glob("kit-*-simplex.pdf"))
    pdf = reader(simplex.read_bytes())
    sizes = {tuple(sorted(round(float(v)) for v in p.mediabox.upper_right)) for p in pdf.pages}
    assert sizes == {(595, 842), (842, 1191)}  # A4 sheets, A3 map tiles
    assert "A3 (297" in pdf.pages[0].extract_text()  # the guide says so


# --- 9. the smaller things ---------------------------------------------------------------------

def test_marker_backs_only_where_they_differ(model, tmp_path, catalog):
    s = model.scenario("XIII")  # entrenchments: the one marker with another back
    result = kit.build_kit(model, s, tmp_path, catalog=catalog)
    guide = {e.title: e for e in result.guide}
    assert not guide["Markers"].duplex and guide["Markers with two faces"].duplex
    one = reader((tmp_path / "07-markers.pdf").read_bytes())
    assert all("back of the page before" not in p.extract_text() for p in one.pages)
    assert "ENTRENCH" not in page_text((tmp_path / "07-markers.pdf").read_bytes())
    two = reader((tmp_path / "07-markers-two-faced.pdf").read_bytes())
    fronts, backs = two.pages[0].extract_text(), two.pages[1].extract_text()
    assert "ENTRENCHED" in fronts and "ENTRENCHING" not in fronts and "ENTRENCHING" in backs


def test_no_helvetica_and_true_trim_and_bleed_boxes(xv_kit, model):
    for path in xv_kit.files:
        assert b"Helvetica" not in path.read_bytes(), path.name
    data, _ = counters.counters_pdf(model, model.scenario("XV"))
    pdf = reader(data)
    for page in pdf.pages[:2]:  # a front and its back
        cuts = [r for r in rects(page) if r[2] == r[3] == COUNTER_SIZES["5/8"]]
        x0, y0 = min(r[0] for r in cuts), min(r[1] for r in cuts)
        x1, y1 = max(r[0] + r[2] for r in cuts), max(r[1] + r[3] for r in cuts)
        assert [float(v) for v in page.trimbox] == pytest.approx([x0, y0, x1, y1], abs=0.01)
        b = 1.5 * MM
        assert [float(v) for v in page.bleedbox] == pytest.approx([x0 - b, y0 - b, x1 + b, y1 + b], abs=0.01)
    sheet = reader(record.record_pdf(model, model.scenario("XV"))[0]).pages[0]
    assert [float(v) for v in sheet.trimbox] == [float(v) for v in sheet.mediabox]  # a sheet not cut


def test_no_name_on_a_card_is_cut_silently(model):
    data, findings = cards.cards_pdf(model)  # every card, every year
    assert findings == []
    # a card of several unit types draws them small, in two columns: each name is printed whole beside its
    # miniature (the miniature's own label may be cut)
    many = next(c for c in model.combat_cards() if len(c.variant(max(c.variants)).units) >= 3)
    year = max(many.variants)
    t = re.sub(r"\s+", " ", page_text(cards.cards_pdf(model, numbers=[many.number], year=year)[0]))
    for uc in many.variant(year).units:
        assert uc.unit.name in t, uc.unit.name
    doc = Doc("t")
    doc.begin()
    assert cards._cut(doc, "Schwere MG section (MG 42 on tripods) " * 3, "Sans", 5.5, 100, "card 1", "unit full name"
                      ).endswith("\u2026")
    assert [f.code for f in doc.findings] == ["print-text-too-small"] and "unit full name" in doc.findings[0].message


def test_calibration_is_readable_and_shows_skew():
    from sandtable.exports import calibration
    data, _ = calibration.calibration_pdf()
    pdf = reader(data)
    front = re.sub(r"\s+", " ", pdf.pages[0].extract_text())
    assert "Average" not in front and "do not average" in front and "Readings (mm)" in front
    assert "Skew" in front and "x at 4 minus x at 1" in front
    sizes = []
    pdf.pages[1].extract_text(visitor_text=lambda t_, cm, tm, font, size: sizes.append((t_.strip(), size * tm[0])))
    labels = [sz for t_, sz in sizes if re.fullmatch(r"[+-]?\d", t_)]
    assert len(labels) >= 5 * 2 * 5 and min(labels) >= 7  # five crosses, two scales, labels every 2 mm


def test_north_arrows_keep_an_upright_n(model):
    from sandtable.exports.desert_steel import scenario_sheet
    s = model.scenario("XV")  # north to the right
    assert s.configuration.north == "right"
    from sandtable.exports.desert_steel import mapsheet
    for data in (scenario_sheet.scenario_pdf(model, s)[0], mapsheet.map_pdf(model, s.configuration, s)[0]):
        found = []
        reader(data).pages[0].extract_text(
            visitor_text=lambda t_, cm, tm, font, size: found.append((t_.strip(), list(cm), list(tm))))
        ns = [(cm, tm) for t_, cm, tm in found if t_ == "N"]
        # neither the text matrix nor the graphics state turns it: an N, never a Z
        assert ns and all(abs(m[1]) < 1e-6 and m[0] > 0 for cm, tm in ns for m in (cm, tm))


def test_the_readme_says_how_to_print_this_kit(xv_kit):
    from pathlib import Path
    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
    section = readme[readme.index("### How to print the kit"):]
    for job, duplex, _ in xv_kit.jobs:
        line = next(x for x in section.splitlines() if job in x)
        assert ("double-sided, flip on the long edge" if duplex else "single-sided") in line.lower().replace("**", "")


def test_a_deck_with_one_card_per_formation_and_its_year_rows(model, tmp_path, capsys):
    from sandtable.rules.desert_steel.model import CombatCard
    faces = cards.faces_for(model, per_formation=True)
    combat = [c for c in model.cards.values() if isinstance(c, CombatCard)]
    assert len(faces) == len(model.cards) and sum(f.all_years for f in faces) == len(combat)
    multi = next(c for c in combat if len(c.variants) >= 3)
    data, findings = cards.cards_pdf(model, numbers=[multi.number], per_formation=True)
    assert findings == []
    t = page_text(data)
    for year in multi.variants:
        assert str(year) in t
    assert "EXPERIENCE" in t and "MORALE" in t and "play the scenario's year" in t
    from sandtable.cli import main
    assert main(["export", "cards", "--per-formation", "--scenario", "XV", "-o", str(tmp_path / "x.pdf")]) == 2
    assert "--per-formation" in capsys.readouterr().err


def test_french_headings_and_labels(model, tmp_path, catalog):
    """--lang fr: the documents' own headings and labels in French (the pack's texts already were)."""
    s = model.scenario("XIII")
    result = kit.build_kit(model, s, tmp_path, catalog=catalog, lang="fr")
    def text(path):  # the map's first tile stands for all 15 (their text is the same but for the ids)
        pages = reader(path.read_bytes()).pages
        return re.sub(r"\s+", " ", "\n".join(p.extract_text() for p in (pages[:1] if "map" in path.name else pages)))
    text_of = {p.name: text(p) for p in result.files if p.name != "kit-13-lightfoot-simplex.pdf"}
    simplex = reader((tmp_path / "kit-13-lightfoot-simplex.pdf").read_bytes()).pages
    first_tile = next(e.first for e in result.guide if e.title == "Map sheets")
    text_of["kit-13-lightfoot-simplex.pdf"] = re.sub(r"\s+", " ", "\n".join(
        p.extract_text() for p in simplex[:first_tile]))  # all but the map tiles after the first
    expect = {
        "kit-13-lightfoot-simplex.pdf": ["Comment imprimer ce kit", "RECTO SEUL", "Feuille d'enregistrement",
                                         "Piste des tours", "Conditions de la bataille", "Feuille de plan Alliés",
                                         "SECRÈTE", "Historique", "Séquence de jeu", "Table des résultats des combats",
                                         "Imprimer à la taille réelle", "SUPPRIMÉ", "ÉBRANLÉ"],
        "kit-13-lightfoot-duplex.pdf": ["RECTO VERSO, retournement sur le bord long", "Formations subordonnées",
                                        "EXPÉRIENCE", "MORAL", "Dates d'emploi", "ALLIÉS", "AXE", "RETRANCHÉ",
                                        "Au choix : activer une formation subordonnée non ébranlée"],
    }
    for name, words in expect.items():
        for w in words:
            assert w in text_of[name], (name, w)
    english = ["How to print", "Turn track", "Subordinate formations", "Dates of use", "Print at actual size",
               "SUPPRESSED", "plan sheet", "Sequence of play", "Choose one", "Battle conditions"]
    # the play aids' procedures are body text, still English (their headings are French): not checked here
    for name in ("02-record-sheet.pdf", "03-plan-sheets.pdf", "04-formation-cards.pdf", "07-markers.pdf",
                 "06-counters.pdf", "09-map.pdf"):
        assert not [w for w in english if w in text_of[name]], name
    assert "Choose one" not in text_of["08-play-aids.pdf"] and "Au choix" in text_of["08-play-aids.pdf"]
    assert {f.code for f in result.findings} <= {"print-text-too-small"} and not result.findings


@needs_poppler
def test_the_gutter_between_colours_is_seen_white(model):
    specs = counters.scenario_counters(model, model.scenario("XV"))
    s = COUNTER_SIZES["5/8"]
    doc = Doc("t")
    plan = counters.draw_countersheets(doc, specs, s, "t")
    data = doc.save()
    W, H = doc.w, doc.h
    placed = plan[0]
    tops = sorted({round(p.y, 3) for p in placed}, reverse=True)
    gutter = 2 * 1.5 * MM + MM
    gaps = [(a, b) for a, b in zip(tops, tops[1:]) if abs(a - b - s - gutter) < 0.02]
    assert gaps, "the first sheet holds two colours"
    upper, lower = gaps[0]
    mid = upper - gutter / 2  # the middle of the gutter: a white hairline between the two bleeds
    xs = [p.x for p in placed if abs(p.y - lower) < 0.01]
    img = render(data, 1, dpi=150)
    w_, _, px = img
    row = int((H - mid) * 150 / 72)
    line = px[row * w_ + int(min(xs) * 150 / 72) + 3: row * w_ + int((max(xs) + s) * 150 / 72) - 3]
    assert sum(1 for v in line if v > 235) / len(line) > 0.9
    # and either side of the hairline, within the bleed, the colours of the two groups
    for y in (upper - 0.5 * MM, lower + s + 0.5 * MM):
        r = int((H - y) * 150 / 72)
        band = px[r * w_ + int(min(xs) * 150 / 72) + 3: r * w_ + int((min(xs) + s) * 150 / 72) - 3]
        assert sum(1 for v in band if v < 235) / len(band) > 0.9


def test_a_command_card_states_no_rule_it_cannot_read_from_the_engine(model, monkeypatch):
    from sandtable.rules.desert_steel.engine import command_cards

    def changed(card, subordinates, shaken, operable, game):  # the rule now needs what the probe lacks
        return game.state.units
    monkeypatch.setattr(command_cards, "choices", changed)
    card = _command(model, "german")
    assert reminders.command_powers(model, card) is None
    assert reminders.command_reminder(model, card) == "See §6.53 for what the card allows."


def test_plan_sheets_give_hidden_fo_lines_where_the_scenario_is_silent(model):
    """§12.21: « tous les OA de vos forces initiales peuvent être déployés de manière cachée » unless the
    scenario says otherwise: a side silent on it gets a line per FO; VI's Italians, refused, get none."""
    from sandtable.exports.desert_steel.raidform import side_secrets
    by_number = {s.number: s for s in model.scenarios.values()}
    assert "hidden_observers" not in by_number["XV"].sides["allied"].raw
    assert side_secrets(model, by_number["XV"], "allied")["observers"] == 6
    assert by_number["VI"].sides["axis"].raw["hidden_observers"]["allowed"] is False
    assert side_secrets(model, by_number["VI"], "axis")["observers"] == 0


def test_cards_of_nothing_is_said_not_printed_blank():
    # the CLI and the editor's Print both get the reason from cards_pdf itself
    from sandtable.rules.catalog import load_catalog
    model = load_catalog().model
    with pytest.raises(LookupError, match="no formation card matches year 1900"):
        cards.cards_pdf(model, year=1900)
