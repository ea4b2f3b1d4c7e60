"""Each side's secret plan sheet: what a player writes down and keeps from the other.

One page per side, never both sides on one sheet: the minefield hexes (recorded secretly
before any unit is set up, §15.11), the hexes of hidden forward observers (§12.21), and
the raid record of the form printed after §18.9: the air strikes, one line each with the
turn it comes (one a turn at most, noted secretly, §16.21); the artillery bombardments —
preplanned ones, and on-call ones delayed to a later turn — with the arrival turn, the
spotting formation and its card number (§16.31, §16.36). A scenario's sheet has only the
sections that side uses, and a side with nothing secret gets no page; the blank form has
every section for both sides. It may be pre-filled from a setup's raid plan.
"""
from __future__ import annotations

from typing import Mapping

from sandtable.rules.desert_steel.model import DesertSteel, Scenario

from reportlab.lib.colors import white

from ..page import (GREY, INK, MM, NATIONALITY_NAME, SIDE_COLOUR, SIDE_NAME, Doc, PrinterProfile, ellipsize, page_note, text, width,
                   wrap)

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


def side_secrets(model: DesertSteel, scenario: Scenario | None, side: str) -> dict:
    """What a side records in secret: minefields, hidden FOs (how many lines), raids."""
    if scenario is None:
        return {"mines": 12, "observers": 6, "air": _BLANK_ROWS, "bombardments": _BLANK_ROWS, "blank": True}
    raw = scenario.sides[side].raw
    mines = raw.get("fortifications", {}).get("minefields", {}).get("count", 0)
    observers = 0
    # §12.21: FOs may set up hidden unless the scenario says otherwise, as setup_checks reads it.
    stated = raw.get("hidden_observers")
    if (stated or {}).get("allowed", True):
        from .counters import scenario_counters
        observers = sum(1 for sp in scenario_counters(model, scenario)
                        if sp.unit.side == side and (sp.unit.unit_class == "forward-observer"
                                                     or sp.unit.counts_as_observer))
        if not observers and stated:  # the scenario grants hidden FOs the pack's counters do not show
            observers = 6
    air, pre, call, _ = _allowance(scenario, side)
    return {"mines": mines, "observers": observers, "air": air, "bombardments": pre + call, "blank": False}


def has_secrets(model: DesertSteel, scenario: Scenario | None, side: str) -> bool:
    s = side_secrets(model, scenario, side)
    return bool(s["mines"] or s["observers"] or s["air"] or s["bombardments"])


def _written(model: DesertSteel, setup: Mapping | None, side: str) -> tuple[list[str], list[str]]:
    """What a setup writes on the plan sheet: its minefield hexes, and each hidden FO (designation, hex)."""
    if not setup:
        return [], []
    data = setup.get("sides", {}).get(side) or {}
    mines = [str(h) for h in data.get("minefields", ())]
    fos = [f"{getattr(model.cards.get(p.get('card')), 'designation', p.get('card', ''))} {p.get('hex', '')}".strip()
           for p in data.get("placements", ()) if p.get("hidden")]
    return mines, fos


def _hex_boxes(doc: Doc, x: float, y: float, w: float, n: int, label: str, colour, values: list[str] = ()) -> float:
    """n numbered boxes to write a hex number in, six to a row, the first filled with values. Returns the y
    below them."""
    c = doc.c
    per = 6
    bw, bh = w / per, 11 * MM
    for i in range(n):
        col, row = i % per, i // per
        bx, by = x + col * bw, y - (row + 1) * bh
        c.setStrokeColor(colour)
        c.setLineWidth(0.6)
        c.rect(bx + 1.5, by + 1.5, bw - 3, bh - 3, stroke=1, fill=0)
        text(c, bx + 4, by + bh - 8, f"{label} {i + 1}", "Sans", 5.5, GREY)
        if i < len(values):
            text(c, bx + bw / 2, by + 3.2 * MM, ellipsize(values[i], "Sans-Bold", 9, bw - 6), "Sans-Bold", 9, INK,
                 align="center")
    return y - bh * (-(-n // per))


def draw_side_plan(doc: Doc, model: DesertSteel, scenario: Scenario | None, side: str, setup: Mapping | None = None,
                   bookmarks: tuple[tuple[str, int], ...] = ()) -> None:
    c = doc.c
    doc.begin()
    for title_, level in bookmarks:
        doc.bookmark(title_, level)
    W, H = doc.w, doc.h
    x0, x1 = 10 * MM, W - 10 * MM
    colour = SIDE_COLOUR[side]
    other = SIDE_NAME["axis" if side == "allied" else "allied"]
    title = f"{scenario.number} {scenario.name}" if scenario else ""
    name = doc.t(SIDE_NAME[side])
    other = doc.t(other)
    page_note(doc, doc.t("{side} plan sheet", side=name) + (f" \u2014 {title}" if title else ""))
    secrets = side_secrets(model, scenario, side)
    y = H - 12 * MM
    c.setFillColor(colour)
    c.rect(x0, y - 15 * MM, x1 - x0, 15 * MM, stroke=0, fill=1)
    text(c, x0 + 4 * MM, y - 8 * MM, doc.t("{side} plan sheet \u2014 SECRET", side=name), "Sans-Bold", 16, white)
    text(c, x0 + 4 * MM, y - 12.5 * MM, doc.t("Keep this sheet out of the {other} player's sight; it stays with the "
                                              "{side} player all game.", other=other, side=name), "Sans", 8, white)
    y -= 15 * MM + 14
    if scenario:
        text(c, x0, y, doc.t("Scenario {title} ({year}, {turns} turns)", title=title, year=scenario.year,
                             turns=scenario.turns), "Sans", 9, INK)
    else:
        text(c, x0, y, doc.t("Scenario: ______________________________   Turns: ______"), "Sans", 9, INK)
    if setup:
        text(c, x1, y, doc.t("pre-filled from setup {id}", id=setup.get("id", "")), "Sans", 7, GREY, align="right")
    mines_written, fos_written = _written(model, setup, side)
    y -= 18
    if secrets["mines"]:
        text(c, x0, y, doc.t("MINEFIELDS") + (f" ({secrets['mines']})" if not secrets["blank"] else ""), "Sans-Bold",
             8, INK)
        text(c, x0 + width(doc.t("MINEFIELDS") + " (00)", "Sans-Bold", 8) + 8, y,
             doc.t("write each minefield hex before any unit is set up (\u00a715.11); cross it out when revealed or "
                   "deactivated"), "Sans", 6.5, GREY)
        y = _hex_boxes(doc, x0, y - 3, x1 - x0, max(secrets["mines"], len(mines_written)), doc.t("hex"), colour,
                       mines_written) - 12
    if secrets["observers"]:
        text(c, x0, y, doc.t("HIDDEN FORWARD OBSERVERS"), "Sans-Bold", 8, INK)
        text(c, x0 + width(doc.t("HIDDEN FORWARD OBSERVERS"), "Sans-Bold", 8) + 8, y,
             doc.t("formation and hex of each FO set up hidden (\u00a712.21)"), "Sans", 6.5, GREY)
        y = _hex_boxes(doc, x0, y - 3, x1 - x0, max(secrets["observers"], len(fos_written)), doc.t("FO"), colour,
                       fos_written) - 12
    if not (secrets["air"] or secrets["bombardments"]):
        doc.end()
        return
    text(c, x0, y, doc.t("RAID RECORD"), "Sans-Bold", 10, colour)
    text(c, x0 + width(doc.t("RAID RECORD"), "Sans-Bold", 10) + 8, y, "\u00a716.21, \u00a716.31, \u00a718.9", "Sans", 7,
         GREY)
    c.setStrokeColor(colour)
    c.setLineWidth(1)
    c.line(x0, y - 4, x1, y - 4)
    y -= 4
    rules = doc.t("After set-up, write the turn of each air strike: one air strike a turn at most (\u00a716.21). "
                  "Preplanned bombardments: arrival turn and the formation whose forward observer spots it, with its "
                  "card number; one spotting per formation a turn (\u00a716.31). A delayed on-call bombardment is "
                  "written here for the turn it arrives (\u00a716.36).")
    for line in wrap(rules, "Sans", 7, x1 - x0):
        y -= 9
        text(c, x0, y, line, "Sans", 7, GREY)
    y -= 10
    air_n, pre_n, call_n, nats = _allowance(scenario, side)
    if scenario:
        allowed = (doc.t("{n} air strike" if air_n == 1 else "{n} air strikes", n=air_n)
                   + (f" ({', '.join(doc.t(NATIONALITY_NAME.get(n, n)) for n in nats.split(', '))})" if nats else "")
                   + " \u00b7 " + doc.t("{n} preplanned bombardment" if pre_n == 1 else "{n} preplanned bombardments",
                                        n=pre_n)
                   + " \u00b7 " + doc.t("{n} on-call bombardment" if call_n == 1 else "{n} on-call bombardments",
                                        n=call_n))
        text(c, x0, y, allowed, "Sans", 8, INK)
        y -= 8
    air, bomb = _plan(setup, side)
    gap = 14
    air_w = [56, 70]
    bomb_w = [62, (x1 - x0 - sum(air_w) - gap - 62 - 56 - 70), 56, 70]
    room = max(1, int((y - 16 * MM) // 17) - 2)
    if scenario:
        air_rows = min(room, max(air_n, len(air), 1))
        bomb_rows = min(room, max(pre_n + call_n, len(bomb)) + 2)  # spare lines: delayed on-call bombardments
    else:
        air_rows = bomb_rows = min(room, _BLANK_ROWS)
    ty = y - 4
    text(c, x0, ty - 2, doc.t("AIR STRIKES"), "Sans-Bold", 8, INK)
    bx = x0 + sum(air_w) + gap
    text(c, bx, ty - 2, doc.t("ARTILLERY BOMBARDMENTS"), "Sans-Bold", 8, INK)
    air_rows_data = [[str(r["turn"]), r.get("raid_card", "")] for r in air]
    bomb_rows_data = []
    for r in bomb:
        card = model.cards.get(r.get("spotting_card"))
        bomb_rows_data.append([str(r["turn"]), card.designation if card else "", str(r.get("spotting_card", "")),
                               r.get("raid_card", "")])
    if scenario and not air_n and not air:
        text(c, x0, ty - 24, doc.t("none in this scenario"), "Sans-Oblique", 8, GREY)
    else:
        _table(doc, x0, ty - 6, air_w, [doc.t("Turn"), doc.t("Raid card")], air_rows_data, air_rows, colour)
    if scenario and not (pre_n + call_n) and not bomb:
        text(c, bx, ty - 24, doc.t("none in this scenario"), "Sans-Oblique", 8, GREY)
    else:
        _table(doc, bx, ty - 6, bomb_w, [doc.t(x) for x in ("Arrival turn", "Spotting formation", "Card no.",
                                                             "Raid card")],
               bomb_rows_data, bomb_rows, colour)
    doc.end()


def draw_raid_form(doc: Doc, model: DesertSteel, scenario: Scenario | None = None, setup: Mapping | None = None,
                   bookmark: str | None = None) -> None:
    """The plan sheets: one page per side that has something to keep secret (both, when blank)."""
    first = True
    for side in ("allied", "axis"):
        if scenario is not None and not has_secrets(model, scenario, side):
            continue
        marks = ((bookmark, 0),) if bookmark and first else ()
        if bookmark:
            marks += ((f"{SIDE_NAME[side]} plan sheet (secret)", 1),)
        draw_side_plan(doc, model, scenario, side, setup, marks)
        first = False


def raid_form_pdf(model: DesertSteel, scenario: Scenario | None = None, setup: Mapping | None = None, *,
                  page: str = "a4", profile=None, lang: str = "en") -> tuple[bytes, list]:
    what = f"{scenario.number} {scenario.name}" if scenario else "blank"
    doc = Doc(f"Desert Steel plan sheets \u2014 {what}", "Each side's secret plan sheet and raid record "
              "(\u00a715.11, \u00a716.21, \u00a718.9)", page, profile or PrinterProfile(), lang)
    draw_raid_form(doc, model, scenario, setup, bookmark=f"Plan sheets: {what}")
    return doc.save(), doc.findings
