"""Flowing text and tables over pages of a ``Doc`` (scenario sheets, play aids).

ReportLab's platypus lays out paragraphs and tables; here they are poured into frames
on the document's own canvas, so a part can share one PDF (and its outline) with the
others in a kit. A flowable taller than a page is split; one that cannot be split is
reported, never drawn over the margin.
"""
from __future__ import annotations

from typing import Callable

from reportlab.lib.enums import TA_LEFT
from reportlab.lib.styles import ParagraphStyle
from reportlab.platypus import Frame, Paragraph
from reportlab.platypus.doctemplate import ActionFlowable
from reportlab.platypus.flowables import Flowable

from .page import GREY, INK, MM, Doc, page_note

BODY = ParagraphStyle("body", fontName="Sans", fontSize=8.5, leading=11, textColor=INK, alignment=TA_LEFT,
                      spaceAfter=4)
SMALL = ParagraphStyle("small", parent=BODY, fontSize=7, leading=8.8, textColor=GREY, spaceAfter=2)
CELL = ParagraphStyle("cell", parent=BODY, fontSize=7.5, leading=9.2, spaceAfter=0)
CELL_BOLD = ParagraphStyle("cellb", parent=CELL, fontName="Sans-Bold")
H1 = ParagraphStyle("h1", parent=BODY, fontName="Sans-Bold", fontSize=18, leading=22, spaceAfter=2)
H2 = ParagraphStyle("h2", parent=BODY, fontName="Sans-Bold", fontSize=11.5, leading=14, spaceBefore=8,
                    spaceAfter=4)
H3 = ParagraphStyle("h3", parent=BODY, fontName="Sans-Bold", fontSize=9, leading=11.5, spaceBefore=4, spaceAfter=2)
SUB = ParagraphStyle("sub", parent=BODY, fontName="Sans-Oblique", fontSize=9.5, leading=12, textColor=GREY)


def esc(s: str) -> str:
    return (s or "").replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def para(s: str, style: ParagraphStyle = BODY) -> Paragraph:
    return Paragraph(s, style)


def flow(doc: Doc, story: list[Flowable], heading: str, bookmark: str | None = None,
         on_page: Callable[[Doc], None] | None = None, subject: str = "", columns: int = 1,
         landscape: bool = False) -> None:
    """Pour the story into as many pages (of one or more columns) as it takes."""
    story = list(story)
    first = True
    gutter = 6 * MM
    while story:
        doc.begin(landscape)
        if first and bookmark:
            doc.bookmark(bookmark)
        page_note(doc, heading)
        if on_page:
            on_page(doc)
        col_w = (doc.w - 20 * MM - gutter * (columns - 1)) / columns
        placed = 0
        for col in range(columns):
            frame = Frame(10 * MM + col * (col_w + gutter), 11 * MM, col_w, doc.h - 23 * MM, leftPadding=0,
                          rightPadding=0, topPadding=0, bottomPadding=0, showBoundary=0)
            used = False  # something drawn in this frame (a break at the top of a frame is dropped)
            while story:
                head = story[0]
                if isinstance(head, ActionFlowable):  # a frame or page break: go on in the next frame
                    story.pop(0)
                    if used:
                        break
                    continue
                if frame.add(head, doc.c, trySplit=0):
                    story.pop(0)
                    placed += 1
                    used = True
                    continue
                parts = frame.split(head, doc.c)
                if parts and isinstance(parts[0], ActionFlowable):  # KeepTogether: all of it in the next frame
                    story[0:1] = parts[1:]
                    if used:
                        break
                    continue
                if parts and frame.add(parts[0], doc.c, trySplit=0):
                    story[0:1] = parts[1:]
                    placed += 1
                    used = True
                    continue
                break
        if placed == 0 and story:  # taller than a whole page and cannot be split
            bad = story.pop(0)
            doc.report("print-text-too-small", f"a {type(bad).__name__} is taller than a page and was left out",
                       subject or heading)
        first = False
        doc.end()
