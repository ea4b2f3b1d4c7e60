"""Raid cards S1–S9 (§2.3, §16.1): the air-strike half on top, the bombardment half below.

Poker size like the formation cards. As §16.1 describes card S8: the aircraft (number and
type, Allied / Axis), the air strike's anti-vehicle – anti-infantry factors and passes;
the battery (number and type), its factors and the on-call delay. Values the rulebook
does not print carry a dagger (only S8, and S7's air strike, are printed).
"""
from __future__ import annotations

from typing import Sequence

from reportlab.lib.colors import HexColor, white

from sandtable.rules.desert_steel.model import DesertSteel, RaidCard

from ..page import GREY, INK, MM, POKER, Doc, PrinterProfile, text, width
from ..provmarks import DAGGER, sources
from ..sheets import Piece, draw_sheets

_AIR = HexColor("#cfe0f0")
_ART = HexColor("#f0dcc8")
_BACK = HexColor("#5b5f66")


def _delay(doc: Doc, turns: int) -> str:
    if turns == 0:
        return doc.t("Immediate")
    return doc.t("{n} Turn" if turns == 1 else "{n} Turns", n=turns)


def _half(doc: Doc, x: float, y: float, w: float, h: float, title: str, colour, who: str, factors: tuple[int, int],
          last: str, subject: str, marks: tuple[str, str, str]) -> None:
    c = doc.c
    c.setFillColor(colour)
    c.roundRect(x + 6, y + 4, w - 12, h - 8, 6, stroke=0, fill=1)
    text(c, x + w / 2, y + h - 19, title, "Sans-Bold", 8, INK, align="center")
    t, size = doc.fit(who, "Sans-Bold", 10, w - 24, subject, "card", "raid name")
    text(c, x + w / 2, y + h - 38, t + marks[0], "Sans-Bold", size, INK, align="center")
    av, ai = factors
    big = f"{av} \u2013 {ai}"
    text(c, x + w / 2, y + h / 2 - 16, big, "Sans-Bold", 24, INK, align="center")
    if marks[1]:
        text(c, x + w / 2 + width(big, "Sans-Bold", 24) / 2 + 1, y + h / 2 - 2, marks[1], "Sans", 8, GREY)
    text(c, x + w / 2 - 28, y + h / 2 - 26, doc.t("anti-vehicle"), "Sans", 5.5, GREY, align="center")
    text(c, x + w / 2 + 28, y + h / 2 - 26, doc.t("anti-infantry"), "Sans", 5.5, GREY, align="center")
    text(c, x + w / 2, y + 14, last + marks[2], "Sans-Bold", 9.5, INK, align="center")


def draw_raid(doc: Doc, card: RaidCard, raw, x: float, y: float) -> None:
    w, h = POKER
    c = doc.c
    src = sources(raw) if raw is not None else None
    whole = src is not None and all(leaf.source == "reconstructed" for leaf in src.leaves)

    def m(p):
        return src.mark(p) if src and not whole else ""
    a, b = card.air_strike, card.bombardment
    half = (h - 20) / 2
    text(c, x + 9, y + h - 14, card.id, "Sans-Bold", 11, INK)
    text(c, x + w - 9, y + h - 14, card.id, "Sans-Bold", 11, INK, align="right")
    _half(doc, x, y + 10 + half, w, half - 8, doc.t("AIR STRIKE"), _AIR, f"{a['count']} {a['aircraft']}",
          (a["anti_vehicle"], a["anti_infantry"]), doc.t("{n} Pass" if a["passes"] == 1 else "{n} Passes",
                                                         n=a["passes"]), f"raid card {card.id}",
          (m("/air_strike/aircraft") or m("/air_strike/count"),
           m("/air_strike/anti_vehicle") or m("/air_strike/anti_infantry"), m("/air_strike/passes")))
    _half(doc, x, y + 10, w, half, doc.t("ARTILLERY BOMBARDMENT"), _ART, f"{b['count']} {b['battery']}",
          (b["anti_vehicle"], b["anti_infantry"]), doc.t("On-call delay: {d}", d=_delay(doc, b["on_call_delay"])),
          f"raid card {card.id}",
          (m("/bombardment/battery") or m("/bombardment/count"),
           m("/bombardment/anti_vehicle") or m("/bombardment/anti_infantry"), m("/bombardment/on_call_delay")))
    c.setStrokeColor(GREY)
    c.setDash(3, 2)
    c.line(x + 10, y + 10 + half + 1, x + w - 10, y + 10 + half + 1)
    c.setDash()
    if whole:
        text(c, x + w / 2, y + 6, doc.t("contents reconstructed: not printed in the rulebook"), "Sans-Oblique", 5,
             GREY, align="center")
    elif src and any(leaf.source == "reconstructed" for leaf in src.leaves):
        text(c, x + w / 2, y + 6, f"{DAGGER} " + doc.t("reconstructed: not printed in the rulebook"), "Sans-Oblique",
             5, GREY, align="center")


def draw_raid_back(doc: Doc, card: RaidCard, x: float, y: float) -> None:
    w, h = POKER
    c = doc.c
    c.setStrokeColor(white)
    c.setLineWidth(2)
    c.roundRect(x + 10, y + 10, w - 20, h - 20, 8, stroke=1, fill=0)
    text(c, x + w / 2, y + h / 2 + 4, "RAID", "Sans-Bold", 36, white, align="center")
    text(c, x + w / 2, y + h / 2 - 18, "DESERT STEEL", "Sans-Bold", 11, white, align="center")


def raid_pieces(cards: Sequence[RaidCard], raws: dict, backs: bool) -> list[Piece]:
    return [Piece(f"raid card {card.id}", lambda d, x, y, rc=card: draw_raid(d, rc, raws.get(rc.id), x, y), white,
                  (lambda d, x, y, rc=card: draw_raid_back(d, rc, x, y)) if backs else None, _BACK)
            for card in cards]


def raid_raws(catalog) -> dict:
    if catalog is None:
        return {}
    return {e.id: e.value for e in catalog.entries("raid-card")}


def _key(card: RaidCard):
    digits = "".join(ch for ch in card.id if ch.isdigit())
    return (int(digits) if digits else 0, card.id)


def draw_raid_cards(doc: Doc, model: DesertSteel, catalog=None, *, backs: bool = False, bookmark: str | None = None):
    from .cards import card_margin
    cards = sorted(model.raid_cards.values(), key=_key)
    w, h = POKER
    return draw_sheets(doc, raid_pieces(cards, raid_raws(catalog), backs), w, h,
                       heading=f"{doc.t('Raid cards')} \u2014 {doc.t('{n} cards', n=len(cards))}", backs=backs, bleed=1 * MM, margin=card_margin(doc.page),
                       bookmark=bookmark)


def raids_pdf(model: DesertSteel, catalog=None, *, backs: bool = False, page: str = "a4",
              profile=None, lang: str = "en") -> tuple[bytes, list]:
    doc = Doc("Desert Steel raid cards", "Raid cards: air strikes and artillery bombardments", page,
              profile or PrinterProfile(), lang, duplex=backs)
    draw_raid_cards(doc, model, catalog, backs=backs, bookmark="Raid cards")
    return doc.save(), doc.findings
