"""The raid record form (§16.21, §16.31, §16.36 and the form printed after §18.9).

Per side: the air strikes, one line each with the turn it comes (one a turn at most,
§16.21); the artillery bombardments — preplanned ones, and on-call ones delayed to a
later turn — with the arrival turn, the spotting formation and its card number
(§16.31). Blank, for a scenario (as many lines as the scenario grants, with a few spare
for delayed on-call bombardments), or pre-filled from a setup's raid plan.
"""
from __future__ import annotations

from typing import Mapping

from sandtable.rules.desert_steel.model import DesertSteel, Scenario

from reportlab.lib.colors import white

from .page import GREY, INK, MM, SIDE_COLOUR, SIDE_NAME, Doc, PrinterProfile, ellipsize, page_note, text, wrap

_BLANK_ROWS = 8


def _plan(setup: Mapping | None, side: str) -> tuple[list[dict], list[dict]]:
    if not setup:
        return [], []
    raids = list((setup.get("sides", {}).get(side) or {}).get("raids", ()))
    air = sorted((r for r in raids if r["kind"] == "air-strike"), key=lambda r: r["turn"])
    bomb = sorted((r for r in raids if r["kind"] == "preplanned-bombardment"), key=lambda r: r["turn"])
    return air, bomb


def _allowance(scenario: Scenario | None, side: str) -> tuple[int, int, int, str]:
    if scenario is None:
        return 0, 0, 0, ""
    raids = scenario.sides[side].raw.get("raids", {})
    strikes = raids.get("air_strikes", ())
    air = sum(a["count"] for a in strikes)
    nats = sorted({a["nationality"] for a in strikes if a.get("nationality")})
    return air, raids.get("preplanned_bombardments", 0), raids.get("on_call_bombardments", 0), ", ".join(nats)


def _table(doc: Doc, x: float, y: float, widths: list[float], headers: list[str], rows: list[list[str]],
           n_rows: int, colour) -> float:
    c = doc.c
    rh = 17
    total = sum(widths)
    c.setFillColor(colour)
    c.rect(x, y - rh, total, rh, stroke=0, fill=1)
    cx = x
    for w, h in zip(widths, headers):
        text(c, cx + w / 2, y - rh + 5.5, h, "Sans-Bold", 7, white, align="center")
        cx += w
    c.setStrokeColor(GREY)
    c.setLineWidth(0.5)
    for i in range(n_rows):
        ry = y - rh * (i + 2)
        cx = x
        for j, w in enumerate(widths):
            c.rect(cx, ry, w, rh, stroke=1, fill=0)
            if i < len(rows) and j < len(rows[i]):
                text(c, cx + w / 2, ry + 5.5, ellipsize(rows[i][j], "Sans", 8, w - 4), "Sans", 8, INK,
                     align="center")
            cx += w
    return y - rh * (n_rows + 1)


def draw_raid_form(doc: Doc, model: DesertSteel, scenario: Scenario | None = None, setup: Mapping | None = None,
                   bookmark: str | None = None) -> None:
    c = doc.c
    doc.begin()
    if bookmark:
        doc.bookmark(bookmark)
    W, H = doc.w, doc.h
    x0, x1 = 10 * MM, W - 10 * MM
    title = f"{scenario.number} {scenario.name}" if scenario else ""
    page_note(doc, "Raid record" + (f" \u2014 {title}" if title else ""))
    y = H - 18 * MM
    text(c, x0, y, "Raid record", "Sans-Bold", 16, INK)
    text(c, x0 + 112, y, "Enregistrement des raids \u2014 \u00a716.21, \u00a716.31, \u00a718.9", "Sans", 8, GREY)
    y -= 18
    if scenario:
        text(c, x0, y, f"Scenario {title} ({scenario.year}, {scenario.turns} turns)", "Sans", 9, INK)
    else:
        text(c, x0, y, "Scenario: ______________________________   Turns: ______", "Sans", 9, INK)
    if setup:
        text(c, x1, y, f"pre-filled from setup {setup.get('id', '')}", "Sans", 7, GREY, align="right")
    y -= 10
    rules = ("Write the turn of each air strike before play, after set-up: one air strike per side a turn "
             "(\u00a716.21). Preplanned bombardments: arrival turn and the formation whose forward observer "
             "spots it, with its card number; one spotting per formation a turn (\u00a716.31). A delayed on-call "
             "bombardment is written here for the turn it arrives (\u00a716.36).")
    for line in wrap(rules, "Sans", 7, x1 - x0):
        y -= 9
        text(c, x0, y, line, "Sans", 7, GREY)
    y -= 26
    half = (y - 14 * MM) / 2
    for side in ("allied", "axis"):
        colour = SIDE_COLOUR[side]
        air_n, pre_n, call_n, nats = _allowance(scenario, side)
        air, bomb = _plan(setup, side)
        text(c, x0, y, SIDE_NAME[side], "Sans-Bold", 12, colour)
        if scenario:
            allowed = (f"{air_n} air strike{'s' if air_n != 1 else ''}" + (f" ({nats})" if nats else "") +
                       f" \u00b7 {pre_n} preplanned \u00b7 {call_n} on-call bombardment{'s' if call_n != 1 else ''}")
            text(c, x0 + 60, y, allowed, "Sans", 8, INK)
        c.setStrokeColor(colour)
        c.setLineWidth(1)
        c.line(x0, y - 4, x1, y - 4)
        ty = y - 10
        gap = 14
        air_w = [56, 70]
        bomb_w = [62, (x1 - x0 - sum(air_w) - gap - 62 - 56 - 70), 56, 70]
        # how many lines: what the scenario grants (spare lines for delayed on-call ones), else blank
        room = int((half - 40) // 17) - 1
        if scenario:
            air_rows = min(room, max(air_n, len(air), 1))
            bomb_rows = room  # spare lines: delayed on-call bombardments are written here too
        else:
            air_rows = bomb_rows = min(room, _BLANK_ROWS)
        text(c, x0, ty - 2, "AIR STRIKES", "Sans-Bold", 8, INK)
        text(c, x0 + sum(air_w) + gap, ty - 2, "ARTILLERY BOMBARDMENTS", "Sans-Bold", 8, INK)
        air_rows_data = [[str(r["turn"]), r.get("raid_card", "")] for r in air]
        bomb_rows_data = []
        for r in bomb:
            card = model.cards.get(r.get("spotting_card"))
            bomb_rows_data.append([str(r["turn"]), card.designation if card else "", str(r.get("spotting_card", "")),
                                   r.get("raid_card", "")])
        if scenario and not air_n and not air:
            text(c, x0, ty - 24, "none in this scenario", "Sans-Oblique", 8, GREY)
        else:
            _table(doc, x0, ty - 6, air_w, ["Turn", "Raid card"], air_rows_data, air_rows, colour)
        bx = x0 + sum(air_w) + gap
        if scenario and not (pre_n + call_n) and not bomb:
            text(c, bx, ty - 24, "none in this scenario", "Sans-Oblique", 8, GREY)
        else:
            _table(doc, bx, ty - 6, bomb_w, ["Arrival turn", "Spotting formation", "Card no.", "Raid card"],
                   bomb_rows_data, bomb_rows, colour)
        y -= half
    doc.end()


def raid_form_pdf(model: DesertSteel, scenario: Scenario | None = None, setup: Mapping | None = None, *,
                  page: str = "a4", profile=None) -> tuple[bytes, list]:
    what = f"{scenario.number} {scenario.name}" if scenario else "blank"
    doc = Doc(f"Desert Steel raid record \u2014 {what}", "Raid record form (\u00a718.9)", page,
              profile or PrinterProfile())
    draw_raid_form(doc, model, scenario, setup, bookmark=f"Raid record: {what}")
    return doc.save(), doc.findings
