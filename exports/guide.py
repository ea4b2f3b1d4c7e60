"""The print guide: the first page of each print job of a kit.

It says, for the one scenario: which file to print single-sided and which double-sided
(and on which edge the duplex flips), the paper and counter size, every part with its
page range in the job, and what to cut. The ranges come from the parts as drawn, so the
guide cannot disagree with the files it describes.
"""
from __future__ import annotations

from dataclasses import dataclass

from reportlab.lib.colors import HexColor, white

from .page import GREY, INK, LIGHT, MM, Doc, page_note, text, width, wrap

_HEAD = HexColor("#e9e1cf")
PAPER = {"a4": "A4 (210 \u00d7 297 mm)", "letter": "US Letter (8.5 \u00d7 11 in)", "a3": "A3 (297 \u00d7 420 mm)",
         "tabloid": "US Tabloid (11 \u00d7 17 in)"}


@dataclass(frozen=True)
class GuideEntry:
    title: str
    part_file: str  # the part on its own
    job_file: str  # the print job that holds it
    first: int  # pages in the job, 1-based
    last: int
    duplex: bool
    cut: str  # what to do with the printed sheets


def draw_guide(doc: Doc, scenario_name: str, entries: list[GuideEntry], jobs: list[tuple[str, bool, int]], *,
               counter_size: str, flip: str, offset_mm: tuple[float, float], this_job: str,
               bookmark: str | None = None, notes: list[str] = ()) -> None:
    """jobs: (file, duplex, pages) for each print job of the kit."""
    c = doc.c
    doc.begin()
    if bookmark:
        doc.bookmark(bookmark)
    W, H = doc.w, doc.h
    x0, x1 = 12 * MM, W - 12 * MM
    page_note(doc, f"{doc.t('Print guide')} \u2014 {scenario_name}")
    y = H - 20 * MM
    text(c, x0, y, doc.t("How to print this kit"), "Sans-Bold", 17, INK)
    y -= 14
    line, size = doc.fit(doc.t("Scenario {name} \u00b7 paper {paper} \u00b7 counters {size}\u2033 \u00b7 print at 100 % "
                               "(actual size), never \u201cfit to page\u201d", name=scenario_name,
                               paper=PAPER.get(doc.page, doc.page), size=counter_size), "Sans", 8.5, x1 - x0,
                         "print guide", "sheet", "guide line")
    text(c, x0, y, line, "Sans", size, INK)
    y -= 20
    flip_words = doc.t("long edge (\u201cbook\u201d)" if flip == "long" else "short edge (\u201ctablet\u201d)")
    for n, (file, duplex, pages) in enumerate(jobs, start=1):
        here = "  " + doc.t("\u2190 this file") if file == this_job else ""
        c.setFillColor(_HEAD)
        c.rect(x0, y - 26, x1 - x0, 30, stroke=0, fill=1)
        text(c, x0 + 4, y - 6, f"{n}. {file}{here}", "Sans-Bold", 10, INK)
        how = (doc.t("DOUBLE-SIDED, flip on the {edge}; {pages} pages (fronts odd, backs even)", edge=flip_words,
                     pages=pages) if duplex else doc.t("SINGLE-SIDED; {pages} pages", pages=pages))
        text(c, x0 + 4, y - 19, how, "Sans", 8, INK)
        y -= 36
    prefs = doc.t("Each file asks your PDF viewer for actual size (print scaling: none) and for this duplex "
                  "setting; if the print dialog still offers \u201cfit\u201d or \u201cshrink\u201d, choose "
                  "\u201cactual size\u201d, and check the duplex edge.")
    for line in wrap(prefs, "Sans", 7, x1 - x0):
        text(c, x0, y, line, "Sans", 7, GREY)
        y -= 8.5
    y -= 4
    if any(d for _, d, _ in jobs):
        dx, dy = offset_mm
        shifted = doc.t("Back pages are shifted {dx}, {dy} mm for your printer (printer profile). To measure the "
                        "drift, print 'sandtable export calibration' double-sided first.", dx=f"{dx:+g}",
                        dy=f"{dy:+g}")
        for line in wrap(shifted, "Sans", 7, x1 - x0):
            text(c, x0, y, line, "Sans", 7, GREY)
            y -= 8.5
        y -= 7.5
    # the parts, with their pages
    cols = [("Part", 0.23), ("Alone in", 0.2), ("Pages", 0.09), ("Sides", 0.1), ("Then", 0.38)]
    widths = [(x1 - x0) * f for _, f in cols]
    rh = 12
    c.setFillColor(INK)
    c.rect(x0, y - rh, x1 - x0, rh, stroke=0, fill=1)
    cx = x0
    for (label, _), w in zip(cols, widths):
        text(c, cx + 3, y - rh + 3.5, doc.t(label), "Sans-Bold", 7.5, white)
        cx += w
    y -= rh
    job = None
    for i, e in enumerate(entries):
        if e.job_file != job:
            job = e.job_file
            text(c, x0 + 3, y - 9, f"{job} ({doc.t('double' if e.duplex else 'single')}):", "Sans-Bold", 7, INK)
            y -= rh
        cut = wrap(doc.t(e.cut), "Sans", 7, widths[4] - 6)
        h = max(rh, 4 + 8.5 * len(cut))
        if i % 2:
            c.setFillColor(HexColor("#f6f3ec"))
            c.rect(x0, y - h, x1 - x0, h, stroke=0, fill=1)
        pages = f"{e.first}" if e.first == e.last else f"{e.first}\u2013{e.last}"
        title = (doc.t("Scenario {name}", name=e.title[len("Scenario "):]) if e.title.startswith("Scenario ")
                 else doc.t(e.title))
        values = [title, e.part_file, pages, doc.t("double" if e.duplex else "single")]
        cx = x0
        for v, w in zip(values, widths):
            s = v
            while width(s, "Sans", 7) > w - 6 and len(s) > 2:
                s = s[:-2] + "\u2026"
            text(c, cx + 3, y - 9, s, "Sans", 7, INK)
            cx += w
        for j, line in enumerate(cut):
            text(c, cx + 3, y - 9 - j * 8.5, line, "Sans", 7, INK)
        y -= h
        c.setStrokeColor(LIGHT)
        c.setLineWidth(0.4)
        c.line(x0, y, x1, y)
    y -= 14
    for note in notes:
        for line in wrap(note, "Sans", 7.5, x1 - x0):
            text(c, x0, y, line, "Sans", 7.5, INK)
            y -= 9.5
        y -= 3
    doc.end()
