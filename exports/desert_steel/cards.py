"""Formation cards (§6.2, §6.3), poker size, nine to a page, with cut lines and optional backs.

A combat card shows its number, designation, nationality number, dates of use, the year
of the variant, experience, C3, morale with its per-loss modifier, the unit count, and
each unit type with its counter drawn small (every value of the counter on it). A card
with several year variants prints one card per year (all years, or one chosen year).
A command card lists its subordinate formations, its HQ, C3 and dates. Values the
rulebook does not print carry a discreet dagger (†), or, when the whole card is
reconstructed, one line at its foot says so.
"""
from __future__ import annotations

import dataclasses

from dataclasses import dataclass
from typing import Sequence

from reportlab.lib.colors import HexColor, white

from sandtable.rules.desert_steel.model import CombatCard, CommandCard, DesertSteel, Scenario

from . import symbols
from .counters import draw_front, CounterSpec, scenario_cards
from ..page import (GREY, INK, MIN_SIZE, MM, NATIONALITY_COLOUR, NATIONALITY_DARK, NATIONALITY_NAME, POKER,
                   SIDE_COLOUR, SIDE_NAME, Doc, PrinterProfile, ellipsize, text, width, wrap)
from ..provmarks import DAGGER, sources
from .reminders import command_powers, reminder_text
from ..sheets import Piece, draw_sheets

EXPERIENCE = {"green": "Green", "seasoned": "Seasoned", "veteran": "Veteran"}
FORMATION = {"company": "Company", "squadron": "Squadron", "battery": "Battery", "hq": "Headquarters",
             "battle-group": "Battle group", "platoon": "Platoon"}
CARD_MARGIN = 8 * MM  # three poker cards across A4 need a little less than 10 mm
# Three poker cards down Letter (279.4 mm) leave 6.35 mm above and below: the sheet goes to
# 6.3 mm there, and the page notes move into the side margins (exports/sheets.py).
LETTER_CARD_MARGIN = 6.3 * MM


def card_margin(page: str) -> float:
    return LETTER_CARD_MARGIN if page == "letter" else CARD_MARGIN


@dataclass(frozen=True)
class CardFace:
    """One card to print: a combat card in one year, or a command card."""

    card: CombatCard | CommandCard
    year: int | None = None
    rule: str = ""  # a command card's reminder, from the engine's rule (exports/desert_steel/reminders.py)
    powers: object = None  # the CommandPowers behind it, to say it in the document's language
    all_years: bool = False  # a combat card with a row per year variant, as the boxed game prints it

    @property
    def subject(self) -> str:
        return f"card {self.card.number}" + (f" ({self.year})" if self.year else "")


def _dates(card) -> str:
    """The card's years of use as printed: 1941 or 1941\u201342."""
    y0, y1 = card.years
    return f"{y0}\u2013{str(y1)[-2:]}" if y1 != y0 else str(y0)


def draw_combat_years(doc: Doc, face: CardFace, x: float, y: float) -> None:
    """One card for a formation, a row per year variant: year, experience, C3, morale, and the units."""
    card = face.card
    w, h = POKER
    c = doc.c
    pad = 8
    yy = _header(doc, face, x, y, w, h)
    dates = _dates(card)
    text(c, x + pad, yy - 9, doc.t("Dates of use {dates}", dates=dates), "Sans", 7, INK)
    yy -= 17
    cols = [("YEAR", 0), ("EXPERIENCE", 26), ("C3", 78), ("MORALE", 96), ("UNITS", 136)]
    for label, dx in cols:
        text(c, x + pad + dx, yy, doc.t(label), "Sans", 5.4, GREY)
    yy -= 3
    years = sorted(card.variants)
    foot = y + 14
    room = yy - foot
    body = w - 2 * pad - 26
    size = 6.2
    while True:
        rows = []
        for year in years:
            v = card.variant(year)
            units = " \u00b7 ".join(f"{uc.count}\u00d7 {uc.unit.name}" for uc in v.units)
            rows.append((year, v, wrap(units, "Cond", size, body)))
        need = sum(10 + len(lines) * (size + 1) + 3 for *_, lines in rows)
        if need <= room or size <= MIN_SIZE["card"]:
            break
        size = round(size - 0.2, 2)
    if need > room:
        doc.report("print-text-too-small", f"{len(years)} year rows do not fit the card even at "
                   f"{MIN_SIZE['card']:g} pt; the last were left out", face.subject)
    dark = NATIONALITY_DARK.get(card.nationality, INK)
    for i, (year, v, lines) in enumerate(rows):
        h_row = 10 + len(lines) * (size + 1) + 3
        if yy - h_row < foot - 0.5:
            break
        if i % 2 == 0:
            c.setFillColor(NATIONALITY_COLOUR.get(card.nationality, white))
            c.setFillAlpha(0.3)
            c.rect(x + pad - 2, yy - h_row, w - 2 * pad + 4, h_row, stroke=0, fill=1)
            c.setFillAlpha(1)
        base = yy - 8.5
        text(c, x + pad, base, str(year), "Sans-Bold", 8, dark)
        text(c, x + pad + 26, base, doc.t(EXPERIENCE.get(v.experience, v.experience)), "Sans-Bold", 7, INK)
        text(c, x + pad + 78, base, v.c3, "Sans-Bold", 8, INK)
        text(c, x + pad + 96, base, f"{v.morale} ({_loss(v.loss_modifier)})", "Sans-Bold", 7, INK)
        text(c, x + pad + 136, base, f"\u00d7{v.unit_total}", "Sans-Bold", 7, INK)
        for j, line in enumerate(lines):
            text(c, x + pad + 26, base - 2 - (j + 1) * (size + 1),
                 _cut(doc, line, "Cond", size, body, face.subject, "units"), "Cond", size, INK)
        yy -= h_row
    form = doc.t(FORMATION.get(card.formation, card.formation.title()))
    src = sources(card.raw)
    _footer(doc, x, y, w, pad, f"{doc.t(NATIONALITY_NAME.get(card.nationality, ''))} \u00b7 "
            f"{doc.t(SIDE_NAME.get(card.side, ''))} \u00b7 {form} \u00b7 {doc.t('play the scenario' + chr(39) + 's year')}",
            doc.t("reconstructed") if src.all_reconstructed(["/variants", "/years"]) else "")


def _footer(doc: Doc, x: float, y: float, w: float, pad: float, left: str, note: str = "") -> None:
    """The card's foot line, and its provenance note at the right; the note goes a line higher when the
    two would meet (the per-formation cards' longer foot line)."""
    c = doc.c
    text(c, x + pad, y + 6, left, "Sans", 5.5, GREY)
    if not note:
        return
    room = w - 2 * pad - width(left, "Sans", 5.5) - 4
    ny = y + 6 if width(note, "Sans-Oblique", 5) <= room else y + 12.5
    text(c, x + w - pad, ny, note, "Sans-Oblique", 5, GREY, align="right")


def _cut(doc: Doc, text_: str, font: str, size: float, box_w: float, subject: str, what: str) -> str:
    """The text, cut with an ellipsis to box_w if it must be: a cut is a preflight finding, never silent."""
    if width(text_, font, size) <= box_w:
        return text_
    doc.report("print-text-too-small", f"{what} {text_!r} does not fit its {box_w / MM:.1f} mm line at {size:g} pt; "
               "it was cut", subject)
    return ellipsize(text_, font, size, box_w)


def _loss(v: float) -> str:
    if v == int(v):
        return f"+{int(v)}"
    return f"+{int(v)}\u00bd" if int(v) else "+\u00bd"


def _header(doc: Doc, face: CardFace, x: float, y: float, w: float, h: float) -> float:
    """Nationality band: number, designation, nationality number. Returns the y below it."""
    c = doc.c
    card = face.card
    band = 40
    top = y + h
    c.setFillColor(NATIONALITY_COLOUR.get(card.nationality, white))
    c.rect(x, top - band, w, band, stroke=0, fill=1)
    pad = 8
    text(c, x + pad, top - 15, str(card.number), "Sans-Bold", 11, INK)
    c.setFillColor(white)
    c.setStrokeColor(INK)
    c.setLineWidth(0.8)
    c.circle(x + w - pad - 7, top - 12.5, 7, stroke=1, fill=1)  # its ring 1.5 mm and more inside the cut
    text(c, x + w - pad - 7, top - 16, str(card.nationality_number), "Sans-Bold", 10, INK, align="center")
    symbols.emblem(c, card.nationality, x + w - pad - 7, top - 31, 5)
    t, size = doc.fit(card.designation, "Sans-Bold", 19, w - 2 * pad - 44, face.subject, "card",
                      "formation designation")
    text(c, x + w / 2, top - 31, t, "Sans-Bold", size, INK, align="center")
    # full name, at most two lines, under the band
    name = card.name if card.name != card.designation else ""
    yy = top - band - 10
    if name:
        size = 7.0
        lines = wrap(name, "Sans-Oblique", size, w - 2 * pad)
        while len(lines) > 2 and size > 5.2:
            size = round(size - 0.25, 2)
            lines = wrap(name, "Sans-Oblique", size, w - 2 * pad)
        if len(lines) > 2:
            doc.report("print-text-too-small", f"formation name {name!r} does not fit two lines of the card "
                       f"even at 5.2 pt; it was cut", face.subject)
            lines = [lines[0], ellipsize(" ".join(lines[1:]), "Sans-Oblique", size, w - 2 * pad)]
        for i, line in enumerate(lines):
            text(c, x + w / 2, yy - i * (size + 1.5),
                 _cut(doc, line, "Sans-Oblique", size, w - 2 * pad, face.subject, "formation name"),
                 "Sans-Oblique", size, INK, align="center")
        yy -= (size + 1.5) * len(lines)
    return yy


def _stat(doc: Doc, x: float, y: float, w: float, label: str, value: str, subject: str, mark: str = "") -> None:
    c = doc.c
    c.setStrokeColor(GREY)
    c.setLineWidth(0.5)
    c.roundRect(x, y, w, 27, 3, stroke=1, fill=0)
    text(c, x + w / 2, y + 19.5, label, "Sans", 5.6, GREY, align="center")
    t, size = doc.fit(value, "Sans-Bold", 10.5, w - 6 - (width(mark, "Sans", 6) if mark else 0), subject, "card",
                      label.lower())
    text(c, x + w / 2, y + 5.5, t, "Sans-Bold", size, INK, align="center")
    if mark:
        text(c, x + w / 2 + width(t, "Sans-Bold", size) / 2 + 0.5, y + 11, mark, "Sans", 6, GREY)


def draw_combat(doc: Doc, face: CardFace, x: float, y: float) -> None:
    card = face.card
    variant = card.variant(face.year)
    w, h = POKER
    c = doc.c
    pad = 8
    src = sources(card.raw)
    vp = f"/variants/{face.year}"
    yy = _header(doc, face, x, y, w, h)
    # dates of use and the year of this variant
    dates = _dates(card)
    text(c, x + pad, yy - 9, doc.t("Dates of use {dates}", dates=dates), "Sans", 7, INK)
    form = doc.t(FORMATION.get(card.formation, card.formation.title()))
    c.setFillColor(NATIONALITY_DARK.get(card.nationality, INK))
    c.roundRect(x + w - pad - 38, yy - 12.5, 38, 13, 3, stroke=0, fill=1)
    text(c, x + w - pad - 19, yy - 9, str(face.year), "Sans-Bold", 9, white, align="center")
    yy -= 18
    whole = src.all_reconstructed([vp, "/years"])
    def m(p):
        return "" if whole else src.mark(p)
    cols = [(doc.t("EXPERIENCE"), doc.t(EXPERIENCE.get(variant.experience, variant.experience)),
             m(vp + "/experience"), 50),
            ("C3", variant.c3, m(vp + "/c3"), 24),
            (doc.t("MORALE"), f"{variant.morale} ({_loss(variant.loss_modifier)})",
             m(vp + "/morale") or m(vp + "/loss_modifier"), 46),
            (doc.t("UNITS"), f"\u00d7{variant.unit_total}", m(vp + "/units"), 30)]
    gap = (w - 2 * pad - sum(cw for *_, cw in cols)) / (len(cols) - 1)
    sx = x + pad
    for label, value, mark, cw in cols:
        _stat(doc, sx, yy - 27, cw, label, value, face.subject, mark)
        sx += cw + gap
    yy -= 33
    # the units, each with its counter
    foot = y + 14
    _units(doc, face, variant, x + pad, foot + 2, w - 2 * pad, yy - foot - 2)
    note = (doc.t("contents reconstructed") if whole else
            (f"{DAGGER} {doc.t('reconstructed value')}" if any(
                m(p) for p in (vp + "/experience", vp + "/c3", vp + "/morale", vp + "/loss_modifier", vp + "/units"))
             else ""))
    side = doc.t(SIDE_NAME.get(card.side, ""))
    _footer(doc, x, y, w, pad, f"{doc.t(NATIONALITY_NAME.get(card.nationality, ''))} \u00b7 {side} \u00b7 {form}",
            note)


def _units(doc: Doc, face: CardFace, variant, x: float, y: float, w: float, h: float) -> None:
    """Each unit type with its count: beside its counter, drawn as large as fits (one or two columns),
    or, for a card of many unit types, as a list of names and values."""
    units = list(variant.units)
    n = len(units)
    c = doc.c
    for cols, size in ((1, 45), (1, 40), (1, 36), (1, 32), (2, 32)):
        rows = -(-n // cols)
        if rows * (size + 3) <= h:
            break
    else:
        _unit_list(doc, face, units, x, y, w, h)
        return
    col_w = w / cols
    for i, uc in enumerate(units):
        col, row = i // rows, i % rows
        cx = x + col * col_w
        cy = y + h - (row + 1) * (size + 3)
        count = f"{uc.count}\u00d7"
        text(c, cx + 13, cy + size / 2 - 4, count, "Sans-Bold", 10 if cols == 1 else 8, INK, align="right")
        c.setFillColor(NATIONALITY_COLOUR.get(uc.unit.nationality, white))
        c.setStrokeColor(GREY)
        c.setLineWidth(0.4)
        c.rect(cx + 16, cy, size, size, stroke=1, fill=1)
        with doc.muted():  # a miniature: its name is printed beside it, full size
            draw_front(doc, cx + 16, cy, size, CounterSpec(uc.unit, face.card.designation, face.card.number))
        tx = cx + 16 + size + 4
        room = col_w - (tx - cx) - 2
        if room < 40:
            # two columns: the miniature's own name may be cut, so the name is also printed beside it,
            # in narrow lines; a word that cannot fit is reported
            fs = 6.0
            lines = wrap(uc.unit.name, "Cond-Bold", fs, room)
            most = max(1, int(size // (fs + 0.8)))
            while (len(lines) > most or any(width(x, "Cond-Bold", fs) > room for x in lines)) and fs > 5.2:
                fs = round(fs - 0.2, 2)
                lines = wrap(uc.unit.name, "Cond-Bold", fs, room)
                most = max(1, int(size // (fs + 0.8)))
            if len(lines) > most:
                lines = lines[:most - 1] + [" ".join(lines[most - 1:])]
            top = cy + size / 2 + (len(lines) - 1) * (fs + 0.8) / 2 - fs * 0.35
            for j, line in enumerate(lines):
                text(c, tx - 2, top - j * (fs + 0.8), _cut(doc, line, "Cond-Bold", fs, room + 2, face.subject,
                                                           "unit type name"), "Cond-Bold", fs, INK)
        else:
            t, s = doc.fit(uc.unit.name, "Sans-Bold", 8 if cols == 1 else 6.5, room, face.subject, "card",
                           "unit type name")
            text(c, tx, cy + size / 2 + 1, t, "Sans-Bold", s, INK)
            full = uc.unit.raw.get("full_name") or ""
            if full and full != uc.unit.name:
                fs = 5.5
                lines = wrap(full, "Sans", fs, room)
                while (len(lines) > 2 or any(width(x, "Sans", fs) > room for x in lines)) and fs > 5.2:
                    fs = round(fs - 0.1, 2)
                    lines = wrap(full, "Sans", fs, room)
                if len(lines) > 2:
                    lines = [lines[0], " ".join(lines[1:])]
                for j, line in enumerate(lines):  # two lines at most; what is cut is reported
                    text(c, tx, cy + size / 2 - 7 - j * (fs + 0.8),
                         _cut(doc, line, "Sans", fs, room, face.subject, "unit full name"), "Sans", fs, GREY)


def _values(u) -> str:
    f = lambda v: "\u2022" if v is None else str(v)  # noqa: E731
    rng = "" if u.range is None else (f"{u.anti_vehicle_range}/{u.range}" if u.anti_vehicle_range is not None
                                      else str(u.range)) + ("i" if u.indirect_fire else "")
    mp = "" if u.movement is None else f"{u.movement} MP"
    return "  ".join(x for x in (f"R{rng}" if rng else "", mp, f"{f(u.anti_vehicle)}-{u.defense}-{f(u.anti_infantry)}")
                     if x)


def _unit_list(doc: Doc, face: CardFace, units, x: float, y: float, w: float, h: float) -> None:
    c = doc.c
    row_h = 10.5
    per_col = max(1, int(h // row_h))
    cols = 1 if len(units) <= per_col else 2
    if len(units) > per_col * cols:
        doc.report("print-text-too-small", f"{len(units)} unit types do not fit the card; "
                   f"{len(units) - per_col * cols} are left out", face.subject)
        units = units[:per_col * cols]
    col_w = w / cols
    for i, uc in enumerate(units):
        col, row = (i // per_col, i % per_col) if cols == 2 else (0, i)
        cx, cy = x + col * col_w, y + h - (row + 1) * row_h
        if row % 2 == 0:
            c.setFillColor(NATIONALITY_COLOUR.get(uc.unit.nationality, white))
            c.setFillAlpha(0.35)
            c.rect(cx, cy - 2.5, col_w - 2, row_h, stroke=0, fill=1)
            c.setFillAlpha(1)
        text(c, cx + 12, cy, f"{uc.count}\u00d7", "Sans-Bold", 7, INK, align="right")
        values = _values(uc.unit)
        vw = width(values, "Sans", 6.5)
        text(c, cx + col_w - 4, cy, values, "Sans", 6.5, INK, align="right")
        t, s = doc.fit(uc.unit.name, "Cond-Bold", 7, col_w - 20 - vw - 4, face.subject, "card", "unit type name")
        text(c, cx + 15, cy, t, "Cond-Bold", s, INK)


def draw_command(doc: Doc, face: CardFace, x: float, y: float) -> None:
    card = face.card
    w, h = POKER
    c = doc.c
    pad = 8
    yy = _header(doc, face, x, y, w, h)
    dates = _dates(card)
    text(c, x + pad, yy - 9, doc.t("Dates of use {dates}", dates=dates), "Sans", 7, INK)
    room = w - 2 * pad - width(doc.t("Dates of use {dates}", dates=dates), "Sans", 7) - 6
    label = "Commandement" if doc.lang == "fr" else "Command card"  # the short French word fits beside the dates
    kind, kind_size = doc.fit(label, "Sans-Bold", 7, room, face.subject, "card", "label")
    text(c, x + w - pad, yy - 9, kind, "Sans-Bold", kind_size, NATIONALITY_DARK.get(card.nationality, INK),
         align="right")
    yy -= 18
    src = sources(card.raw)
    whole = src.all_reconstructed(["/c3", "/years"])
    _stat(doc, x + pad, yy - 27, 40, "C3", card.c3, face.subject, "" if whole else src.mark("/c3"))
    # what the card lets its owner do, as the engine plays it (exports/desert_steel/reminders.py)
    rule = reminder_text(face.powers, card, doc.lang)
    box_w, box_h = w - 2 * pad - 46, 44
    size = 6.5
    lines = wrap(rule, "Sans", size, box_w)
    while len(lines) * (size + 1.2) > box_h and size > MIN_SIZE["card"]:
        size = round(size - 0.1, 2)
        lines = wrap(rule, "Sans", size, box_w)
    if len(lines) * (size + 1.2) > box_h or any(width(line, "Sans", size) > box_w for line in lines):
        doc.report("print-text-too-small", f"the command rule {rule!r} does not fit the card even at "
                   f"{MIN_SIZE['card']:g} pt; it was cut", face.subject)
        lines = [ellipsize(line, "Sans", size, box_w) for line in lines[:int(box_h // (size + 1.2))]]
    for i, line in enumerate(lines):
        text(c, x + pad + 46, yy - 1 - size - i * (size + 1.2), line, "Sans", size, INK)
    yy -= max(38, len(lines) * (size + 1.2) + 12)
    text(c, x + pad, yy, doc.t("Subordinate formations"), "Sans-Bold", 7.5, INK)
    yy -= 4
    subs = list(card.subordinates)
    row_h = 15
    available = yy - (y + 16)
    per_col = max(1, int(available // row_h))
    cols = 1 if len(subs) <= per_col else 2
    if len(subs) > per_col * 2:
        doc.report("print-text-too-small", f"{len(subs)} subordinate formations do not fit the card; "
                   f"{len(subs) - per_col * 2} are left out", face.subject)
        subs = subs[:per_col * 2]
    col_w = (w - 2 * pad) / cols
    for i, sub in enumerate(subs):
        col, row = (i // per_col, i % per_col) if cols == 2 else (0, i)
        sx = x + pad + col * col_w
        sy = yy - (row + 1) * row_h
        c.setFillColor(NATIONALITY_COLOUR.get(sub.nationality, white))
        c.rect(sx, sy + 2, col_w - 4, row_h - 3, stroke=0, fill=1)
        hq = " (HQ)" if card.hq is not None and sub.number == card.hq.number else ""
        t, s = doc.fit(f"{sub.designation}{hq}", "Sans-Bold", 8, col_w - 34, face.subject, "card",
                       "subordinate designation")
        text(c, sx + 3, sy + 5, t, "Sans-Bold", s, INK)
        text(c, sx + col_w - 7, sy + 5, f"({sub.number})", "Sans", 7, INK, align="right")
    note = doc.t("contents reconstructed") if whole else (
        f"{DAGGER} {doc.t('reconstructed value')}" if src.mark("/c3") else "")
    _footer(doc, x, y, w, pad, f"{doc.t(NATIONALITY_NAME.get(card.nationality, ''))} \u00b7 "
            f"{doc.t(SIDE_NAME.get(card.side, ''))}", note)


# Uniform backs: under limited intelligence a face-down card on the stack shows nothing but what
# its owner announces, its C3 (\u00a76.55), so by default every card of a side has one back, in
# one colour, with no nationality, kind or number. The informative backs (emblem, "Command card")
# are an option for open play.
BACK_STYLES = ("side", "informative")
SIDE_BACK = {"allied": HexColor("#cddcef"), "axis": HexColor("#f0cfca")}


def draw_card_back(doc: Doc, face: CardFace, x: float, y: float, style: str = "side") -> None:
    w, h = POKER
    c = doc.c
    card = face.card
    if style == "side":
        ink = SIDE_COLOUR.get(card.side, INK)
        c.setStrokeColor(ink)
        c.setLineWidth(2)
        c.roundRect(x + 10, y + 10, w - 20, h - 20, 8, stroke=1, fill=0)
        c.setLineWidth(0.8)
        c.roundRect(x + 15, y + 15, w - 30, h - 30, 6, stroke=1, fill=0)
        text(c, x + w / 2, y + h / 2 + 8, doc.t(SIDE_NAME.get(card.side, "").upper()), "Sans-Bold", 24, ink,
             align="center")
        text(c, x + w / 2, y + h / 2 - 14, "DESERT STEEL", "Sans-Bold", 11, ink, align="center")
        return
    dark = NATIONALITY_DARK.get(card.nationality, INK)
    c.setStrokeColor(dark)
    c.setLineWidth(2)
    c.roundRect(x + 10, y + 10, w - 20, h - 20, 8, stroke=1, fill=0)
    symbols.emblem(c, card.nationality, x + w / 2, y + h / 2 + 22, 26)
    text(c, x + w / 2, y + h / 2 - 30, "DESERT STEEL", "Sans-Bold", 15, dark, align="center")
    kind = doc.t("Command card" if isinstance(card, CommandCard) else "Formation card")
    text(c, x + w / 2, y + h / 2 - 46, f"{kind} \u00b7 {doc.t(SIDE_NAME.get(card.side, ''))}", "Sans", 8, dark,
         align="center")


def faces_for(model: DesertSteel, *, year: int | None = None, numbers: Sequence[int] | None = None,
              scenario: Scenario | None = None, per_formation: bool = False) -> list[CardFace]:
    """Cards to print: a scenario's (each side's year), or every card (each year variant, or one year, or
    with per_formation one card per formation with a row per year)."""
    out: list[CardFace] = []
    if scenario is not None:
        for side, y, card in scenario_cards(model, scenario):
            if isinstance(card, CombatCard):
                if card.variant(y) is not None:
                    out.append(CardFace(card, y))
            else:
                out.append(_command_face(model, card))
        return out
    order = {"german": 0, "italian": 1, "british": 2, "us": 3}
    for card in sorted(model.cards.values(), key=lambda c: (order.get(c.nationality, 9), c.number)):
        if numbers and card.number not in numbers:
            continue
        if isinstance(card, CombatCard):
            if per_formation:
                if year is None or year in card.variants:
                    out.append(CardFace(card, None, all_years=True))
                continue
            for y in sorted(card.variants):
                if year is None or y == year:
                    out.append(CardFace(card, y))
        elif year is None or card.years[0] <= year <= card.years[1]:
            out.append(_command_face(model, card))
    return out


def _command_face(model: DesertSteel, card: CommandCard) -> CardFace:
    powers = command_powers(model, card)
    return CardFace(card, rule=reminder_text(powers, card), powers=powers)


def card_pieces(faces: Sequence[CardFace], backs: bool, back_style: str = "side") -> list[Piece]:
    if back_style not in BACK_STYLES:
        raise ValueError(f"card backs are one of {', '.join(BACK_STYLES)}, not {back_style!r}")
    pieces = []
    for face in faces:
        front = (draw_command if not isinstance(face.card, CombatCard) else
                 draw_combat_years if face.all_years else draw_combat)
        back_colour = (SIDE_BACK.get(face.card.side, white) if back_style == "side" else
                       NATIONALITY_COLOUR.get(face.card.nationality, white))
        pieces.append(Piece(face.subject, lambda d, x, y, f=face, fn=front: fn(d, f, x, y), white,
                            (lambda d, x, y, f=face: draw_card_back(d, f, x, y, back_style)) if backs else None,
                            back_colour))
    return pieces


def draw_cards(doc: Doc, faces: Sequence[CardFace], heading: str, *, backs: bool = False,
               bookmark: str | None = None, back_style: str = "side"):
    """The cards on sheets; with backs, each side's cards on sheets of their own: a duplex that
    drifts a little must not print one side's back colour along the edge of the other's cards,
    which would tell them apart face down."""
    w, h = POKER
    groups: dict[str, list[int]] = {}
    for i, face in enumerate(faces):
        groups.setdefault(face.card.side if backs else "", []).append(i)
    plans = []
    for side, indices in groups.items():
        title = heading if len(groups) == 1 else f"{heading} \u2014 {doc.t(SIDE_NAME.get(side, side))}"
        sheets = draw_sheets(doc, card_pieces([faces[i] for i in indices], backs, back_style), w, h, heading=title,
                             backs=backs, bleed=1 * MM, margin=card_margin(doc.page),
                             bookmark=bookmark if not plans else None)
        plans += [[dataclasses.replace(p, index=indices[p.index]) for p in sheet] for sheet in sheets]
    return plans


def cards_pdf(model: DesertSteel, *, year: int | None = None, numbers: Sequence[int] | None = None,
              scenario: Scenario | None = None, backs: bool = False, page: str = "a4",
              profile=None, back_style: str = "side", per_formation: bool = False,
              lang: str = "en") -> tuple[bytes, list]:
    """The formation cards as a PDF; LookupError when nothing matches."""
    faces = faces_for(model, year=year, numbers=numbers, scenario=scenario, per_formation=per_formation)
    if not faces:  # an empty sheet would look like a printing problem
        raise LookupError("no formation card matches" + (f" year {year}" if year else "")
                          + (f" in scenario {scenario.number}" if scenario else "") + ": nothing to print")
    what = (f"{scenario.number} {scenario.name}" if scenario else
            ("every formation, a row per year" if per_formation else
             (f"year {year}" if year else "every card, every year variant")))
    doc = Doc(f"Desert Steel formation cards \u2014 {what}", f"{len(faces)} formation cards, poker size", page,
              profile or PrinterProfile(), lang, duplex=backs)
    draw_cards(doc, faces, f"{doc.t('Formation cards')} \u2014 {what} \u2014 {doc.t('{n} cards', n=len(faces))}",
               backs=backs,
               bookmark=f"Formation cards: {what}", back_style=back_style)
    return doc.save(), doc.findings
