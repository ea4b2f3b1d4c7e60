"""The duplex calibration sheet: how far a printer's back pages drift from their fronts.

Front: five crosses and two 100 mm bars (if a bar does not measure 100 mm, the page was
scaled: print at actual size). Back: behind each cross, two millimetre scales, x and y.
Hold the printed sheet against the light and read, on each scale of the back, the number
under the cross of the front: that is the back offset to give the printer profile
(``sandtable export profile --back-offset X,Y``). Printed with a profile, the sheet
already applies its offset: a reading then adds to the profile's offset.
"""
from __future__ import annotations

from .page import GREY, INK, MM, Doc, PrinterProfile, page_note, scale_bar, text, wrap

SCALE_MM = 5  # the scales read -5 .. +5 mm
SPOTS_MM = ((45, 45), (-45, 45), (0, 0), (45, -88), (-45, -88))  # from the page's edges (negative: from the far edge)


def cross_positions(w: float, h: float) -> list[tuple[float, float]]:
    out = []
    for dx, dy in SPOTS_MM:
        if dx == 0 and dy == 0:
            out.append((w / 2, h / 2))
            continue
        x = dx * MM if dx > 0 else w + dx * MM
        y = dy * MM if dy > 0 else h + dy * MM
        out.append((x, y))
    return out


ARM_MM = 24  # the front cross's arms; the back's scales sit across them, away from the centre
SCALE_AT_MM = 14


def _cross(c, x: float, y: float, label: str) -> None:
    c.setStrokeColor(INK)
    c.setLineWidth(0.25)
    c.line(x - ARM_MM * MM, y, x + ARM_MM * MM, y)
    c.line(x, y - ARM_MM * MM, x, y + ARM_MM * MM)
    c.circle(x, y, 2 * MM, stroke=1, fill=0)
    text(c, x - 3 * MM, y - 5 * MM, label, "Sans-Bold", 8, INK, align="right")


def _scales(c, x: float, y: float, label: str) -> None:
    """Behind a front cross at (x, y): an x scale across its vertical arm (above the centre) and a y scale
    across its horizontal arm (right of the centre); each tick is labelled with the offset that brings it
    under the arm."""
    c.setStrokeColor(INK)
    c.setLineWidth(0.3)
    span = SCALE_MM * MM
    sy = y + SCALE_AT_MM * MM  # the x scale
    sx = x + SCALE_AT_MM * MM  # the y scale
    c.line(x - span, sy, x + span, sy)
    c.line(sx, y - span, sx, y + span)
    for i in range(-2 * SCALE_MM, 2 * SCALE_MM + 1):
        v = i / 2
        t = (1.6 if i % 2 == 0 else 0.9) * MM
        if i == 0:
            t = 2.4 * MM
        c.line(x + v * MM, sy - t, x + v * MM, sy + t)
        c.line(sx - t, y + v * MM, sx + t, y + v * MM)
        if i % 4 == 0:  # labels every 2 mm, alternately on either side of the scale, 7 pt bold
            above = i % 8 == 0
            lab = f"{v:+g}" if v else "0"
            text(c, x + v * MM, sy + (3 if above else -5.4) * MM, lab, "Sans-Bold", 7, INK, align="center")
            if above:
                text(c, sx + 3 * MM, y + v * MM - 0.9 * MM, lab, "Sans-Bold", 7, INK)
            else:
                text(c, sx - 3 * MM, y + v * MM - 0.9 * MM, lab, "Sans-Bold", 7, INK, align="right")
    text(c, x - span - 3.5 * MM, sy - 1 * MM, "x", "Sans-Bold", 8, INK, align="right")
    text(c, sx, y - span - 3.5 * MM, "y", "Sans-Bold", 7, INK, align="center")
    text(c, x - 3 * MM, y - 5 * MM, label, "Sans-Bold", 8, INK, align="right")


def _reading_table(c, x: float, y: float, crosses: list[tuple[float, float]]) -> None:
    """Boxes for the five readings, and how skew shows in them: crosses far apart on the page
    read differently when the back is turned, by the distance between them times the angle."""
    (x1, y1), (x2, _), _, (_, y4), _ = crosses
    text(c, x, y, "Readings (mm)", "Sans-Bold", 8, INK)
    cw, rh = 16 * MM, 6 * MM
    for j, head in enumerate(("cross", "x", "y")):
        text(c, x + j * cw + cw / 2, y - rh + 1.8 * MM, head, "Sans-Bold", 7, INK, align="center")
    c.setStrokeColor(GREY)
    c.setLineWidth(0.4)
    for i in range(5):
        ry = y - (i + 2) * rh
        text(c, x + cw / 2, ry + 1.8 * MM, str(i + 1), "Sans", 7.5, INK, align="center")
        for j in (1, 2):
            c.rect(x + j * cw + 1, ry + 0.5, cw - 2, rh - 1, stroke=1, fill=0)
    tall, wide = (y4 - y1) / MM, (x2 - x1) / MM
    notes = [f"Skew (the back turned): x at 4 minus x at 1 = the turn × {tall:.0f} mm;",
             f"y at 2 minus y at 1 = the turn × {wide:.0f} mm, the other way.",
             f"1 mm over {tall:.0f} mm is {57.3 / tall:.2f}°. Scale: x at 2 minus x at 1 ≠ 0."]
    for k, line in enumerate(notes):
        text(c, x + 3 * cw + 4 * MM, y - rh * 1.5 - k * 9, line, "Sans", 7, INK)


def draw_calibration(doc: Doc, bookmark: str | None = None) -> None:
    c = doc.c
    profile = doc.profile
    doc.to_odd_page()
    doc.begin()
    if bookmark:
        doc.bookmark(bookmark)
    W, H = doc.w, doc.h
    page_note(doc, "Duplex calibration \u2014 front")
    text(c, 10 * MM, H - 18 * MM, "Duplex calibration", "Sans-Bold", 16, INK)
    flip = "long" if profile.flip == "long" else "short"
    steps = [
        f"1. Print this page and the next on the two sides of one sheet, at actual size (100 %), flipping on the "
        f"{flip} edge \u2014 exactly as you will print counters and cards.",
        "2. Check the two bars below: each must measure 100 mm. If not, the printer scaled the page: turn "
        "\u201cfit to page\u201d off.",
        "3. Hold the sheet against the light, back side towards you. Across the arms of each cross of this side "
        "the back carries two scales: read the x scale where the vertical arm crosses it, the y scale where the "
        "horizontal arm crosses it (0 is where they should cross).",
        "4. Write the five readings in the table below; do not average them. If they agree within 0.5 mm, the "
        "back is only shifted: make a profile with the centre cross's reading (3): sandtable export profile "
        f"--back-offset X,Y --flip {flip} -o my-printer.json, and give --profile my-printer.json to every export.",
        "5. If they differ more, the back is also turned (skew) or scaled, which no offset corrects: the table "
        "says how to read it. Straighten the paper guides, print again, and use the centre reading.",
    ]
    y = H - 26 * MM
    for s in steps:
        for line in wrap(s, "Sans", 8, W - 20 * MM):
            text(c, 10 * MM, y, line, "Sans", 8, INK)
            y -= 10
        y -= 3
    dx, dy = profile.back_offset_mm
    text(c, 10 * MM, y - 4, f"Profile in use: {profile.name} \u2014 back offset x {dx:+g} mm, y {dy:+g} mm, flip on "
         f"the {flip} edge" + (" (readings add to this offset)" if (dx, dy) != (0, 0) else ""), "Sans", 7, GREY)
    scale_bar(c, W / 2 - 50 * MM, 70 * MM, 100, label=False)
    text(c, W / 2, 66 * MM, "100 mm", "Sans", 7, GREY, align="center")
    c.setStrokeColor(INK)
    c.setLineWidth(0.5)
    c.line(W - 25 * MM, H / 2 - 50 * MM, W - 25 * MM, H / 2 + 50 * MM)
    for i in range(0, 101, 10):
        c.line(W - 25 * MM, H / 2 - 50 * MM + i * MM, W - 25 * MM + (1.6 if i % 50 == 0 else 1) * MM,
               H / 2 - 50 * MM + i * MM)
    text(c, W - 21 * MM, H / 2, "100 mm", "Sans", 7, GREY)
    crosses = cross_positions(W, H)
    for i, (x, yy) in enumerate(crosses, start=1):
        _cross(c, x, yy, str(i))
    _reading_table(c, W / 2 - 40 * MM, H / 2 - 38 * MM, crosses)
    doc.end()
    doc.begin()
    page_note(doc, "Duplex calibration \u2014 back")
    text(c, W / 2, H - 18 * MM, "Back: read where the arms of each front cross meet the scales", "Sans-Bold", 11,
         INK, align="center")
    text(c, W / 2, H - 24 * MM, "x to the right and y up, as you look at this side; enter them as --back-offset X,Y",
         "Sans", 7.5, GREY, align="center")
    for i, (x, yy) in enumerate(cross_positions(W, H), start=1):
        bx, by = profile.back_rect(x, yy, 0, 0, W, H)
        _scales(c, bx, by, str(i))
    doc.end()


def calibration_pdf(*, page: str = "a4", profile: PrinterProfile | None = None,
                    lang: str = "en") -> tuple[bytes, list]:
    doc = Doc("Desert Steel duplex calibration", "Calibration sheet for duplex printing", page,
              profile or PrinterProfile(), lang, duplex=True)
    draw_calibration(doc, bookmark="Duplex calibration")
    return doc.save(), doc.findings
