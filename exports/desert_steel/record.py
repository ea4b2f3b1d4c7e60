"""The record sheet (§2.6): what the game's record track holds, for one scenario.

Turn track to the scenario's length (each turn with its visibility, and the
reinforcements and transports due), the battle-condition boxes with the scenario's
values marked, the visibility track, each side's smoke points to tick off, the raid deck
spaces (poker-card size) when the scenario has raids. The sheet is public: what a side
records in secret (minefields, hidden forward observers, air strikes and preplanned
bombardments) is on that side's own plan sheet (exports/desert_steel/raidform.py).

Every box that takes a marker (the turn, game length, condition, visibility and smoke
points markers) holds one of the chosen counter size with a little room around it
(``marker_box``): 18.4 mm for 5/8" markers.
"""
from __future__ import annotations

from reportlab.lib.colors import HexColor, white

from sandtable.rules.desert_steel.battlefield import visibility_on
from sandtable.rules.desert_steel.model import DesertSteel, Scenario

from ..page import (COUNTER_SIZES, GREY, INK, MM, POKER, SIDE_COLOUR, SIDE_NAME, Doc, PrinterProfile,
                   ellipsize, lang_text, page_note, text, width, wrap)

_HILITE = HexColor("#f2d28a")
_CONDITIONS = (("relief", "Relief (elevation)", "3.4"), ("zone", "Zone", "3.3"),
               ("urbanization", "Urbanization", "3.2"), ("road_network", "Road network", "3.5"))


def _section(doc: Doc, y: float, title: str, note: str = "") -> float:
    c = doc.c
    x0 = 10 * MM
    text(c, x0, y, title, "Sans-Bold", 10, INK)
    if note:  # the note fits the line (a French note is longer): shrunk, and cut only with a finding
        nx = x0 + width(title, "Sans-Bold", 10) + 6
        note, size = doc.fit(note, "Sans", 7, doc.w - 10 * MM - nx, "record sheet", "sheet", "section note")
        text(c, nx, y, note, "Sans", size, GREY)
    c.setStrokeColor(INK)
    c.setLineWidth(0.6)
    c.line(x0, y - 3, doc.w - 10 * MM, y - 3)
    return y - 16


def _arrivals(scenario: Scenario) -> dict[int, list[tuple[str, str]]]:
    """Per turn: (side, what) arriving — reinforcement cards, entering groups, transports."""
    out: dict[int, list[tuple[str, str]]] = {}
    for side in ("allied", "axis"):
        s = scenario.sides[side]
        for g in s.groups:
            if "enter" in g and g["enter"]["turn"] > 1:
                out.setdefault(g["enter"]["turn"], []).append((side, " ".join(str(n) for n in g["cards"])))
        for r in s.reinforcements:
            out.setdefault(r["turn"], []).append((side, " ".join(str(n) for n in r["cards"])))
        for t in s.raw.get("transports", ()):
            if t.get("turn", 1) > 1:
                out.setdefault(t["turn"], []).append((side, f"+{t['count']} {t['type']}"))
    return out


def marker_box(size: float) -> float:
    """The side of a box that takes a marker of this size: the marker and 1.25 mm around it."""
    return size + 2.5 * MM


def draw_record(doc: Doc, model: DesertSteel, scenario: Scenario, bookmark: str | None = None,
                size: float = COUNTER_SIZES["5/8"]) -> None:
    c = doc.c
    doc.begin()
    if bookmark:
        doc.bookmark(bookmark)
    W, H = doc.w, doc.h
    x0, x1 = 10 * MM, W - 10 * MM
    hold = marker_box(size)
    heading = doc.t("Record sheet \u2014 {name}", name=f"{scenario.number} {scenario.name}")
    page_note(doc, heading)
    y = H - 17 * MM
    text(c, x0, y, f"{scenario.number}. {lang_text(scenario.raw['name'], doc.lang)}", "Sans-Bold", 16, INK)
    text(c, x1, y, doc.t("{year} \u00b7 {rules} rules \u00b7 {turns} turns", year=scenario.year,
                         rules=doc.t(scenario.rules), turns=scenario.turns), "Sans", 9, GREY,
         align="right")
    y -= 26

    def room(needed: float) -> float:
        """The y to draw at: this one, or the top of a new page when what follows does not fit."""
        if y - needed >= 12 * MM:
            return y
        doc.end()
        doc.begin()
        page_note(doc, heading + doc.t(" (continued)"))
        return H - 16 * MM

    # turn track
    per_row = max(1, int((x1 - x0) // hold))
    bw = (x1 - x0) / per_row
    bh = hold
    rows = -(-scenario.turns // per_row)
    y = room(16 + rows * bh + 24)
    y = _section(doc, y, doc.t("Turn track"),
                 doc.t("game turn marker; the game length marker on the last turn (\u00a72.12)"))
    arrivals = _arrivals(scenario)
    for t in range(1, scenario.turns + 1):
        col, row = (t - 1) % per_row, (t - 1) // per_row
        bx, by = x0 + col * bw, y - (row + 1) * bh
        last = t == scenario.turns
        c.setFillColor(_HILITE if last else white)
        c.setStrokeColor(INK)
        c.setLineWidth(1.2 if last else 0.6)
        c.rect(bx + 1, by + 1, bw - 2, bh - 2, stroke=1, fill=1)
        text(c, bx + 5, by + bh - 16, str(t), "Sans-Bold", 13, INK)
        if last:
            text(c, bx + bw - 5, by + bh - 12, doc.t("END"), "Sans-Bold", 6.5, INK, align="right")
        vis = visibility_on(scenario, t)
        changed = t > 1 and vis != visibility_on(scenario, t - 1)
        text(c, bx + bw - 5, by + bh - 22 if last else by + bh - 12, f"vis {vis}", "Sans-Bold" if changed else "Sans",
             6.5, INK if changed else GREY, align="right")
        for i, (side, what) in enumerate(arrivals.get(t, [])[:3]):
            s = f"{'A' if side == 'allied' else 'X'}: {what}"
            fs = 5.5
            while width(s, "Sans", fs) > bw - 8 and fs > 4.2:
                fs -= 0.25
            if width(s, "Sans", fs) > bw - 8:
                doc.report("print-text-too-small", f"turn {t} arrivals {s!r} do not fit the turn box",
                           f"scenario {scenario.id}")
                s = ellipsize(s, "Sans", fs, bw - 8)
            text(c, bx + 4, by + 14 - i * 6.5, s, "Sans", fs, SIDE_COLOUR[side])
    y -= rows * bh + 6
    text(c, x0, y, doc.t("A: Allied, X: Axis arrivals (card numbers, transports); vis: visibility that turn."),
         "Sans", 6.5, GREY)
    y -= 18
    # battle conditions
    effects = model.terrain_effects or {}
    y = room(16 + len(_CONDITIONS) * (hold + 3))
    y = _section(doc, y, doc.t("Battle conditions"), doc.t("place the condition markers (\u00a72.12, \u00a718.2)"))
    label_w = 92
    for key, label, section in _CONDITIONS:
        cond = scenario.conditions[key]
        values = list((effects.get(key) or {}).get("values", {}).items())
        text(c, x0, y - hold / 2 + 1, doc.t(label), "Sans-Bold", 8, INK)
        text(c, x0, y - hold / 2 - 7, f"\u00a7{section}" + (" \u00b7 variable *" if cond.get("variable") else ""),
             "Sans", 6, GREY)
        if not values:
            values = [(cond["value"], {"label": {"en": cond["value"]}})]
        bw = (x1 - x0 - label_w) / max(1, len(values))
        for i, (vid, spec) in enumerate(values):
            bx = x0 + label_w + i * bw
            chosen = vid == cond["value"]
            by_map = cond.get("by_map", {})
            on_map = [m for m, v in by_map.items() if v == vid]
            c.setFillColor(_HILITE if chosen or on_map else white)
            c.setStrokeColor(INK)
            c.setLineWidth(1.2 if chosen else 0.5)
            c.rect(bx + 1, y - hold, bw - 2, hold - 1, stroke=1, fill=1)
            name = lang_text(spec.get("label"), doc.lang) or vid
            if on_map and not chosen:
                name += f" (map {', '.join(on_map)})"
            t, fs = doc.fit(name, "Sans-Bold" if chosen else "Sans", 7.5, bw - 6, f"scenario {scenario.id}", "sheet",
                            "condition")
            text(c, bx + bw / 2, y - 9, t, "Sans-Bold" if chosen else "Sans", fs, INK, align="center")
        y -= hold + 3
    # visibility
    vis_values = [visibility_on(scenario, t) for t in range(1, scenario.turns + 1)]
    top = max(12, max(vis_values))
    per_row = max(1, min(top, int((x1 - x0) // hold)))
    rows = -(-top // per_row)
    bw = (x1 - x0) / per_row
    y -= 10
    y = room(16 + rows * hold + 10)
    y = _section(doc, y, doc.t("Visibility"), doc.t("hexes; starts at {v}", v=scenario.visibility) + (
        doc.t(", changes by turn as on the turn track") if len(set(vis_values)) > 1 else ""))
    for v in range(1, top + 1):
        col, row = (v - 1) % per_row, (v - 1) // per_row
        bx, by = x0 + col * bw, y - (row + 1) * hold
        start = v == scenario.visibility
        seen = v in vis_values
        c.setFillColor(_HILITE if start else (HexColor("#f6ecd2") if seen else white))
        c.setLineWidth(1.2 if start else 0.5)
        c.setStrokeColor(INK)
        c.rect(bx + 1, by + 1, bw - 2, hold - 2, stroke=1, fill=1)
        text(c, bx + 5, by + hold - 12, str(v), "Sans-Bold" if start else "Sans", 8, INK)
    y -= rows * hold + 16
    # smoke points: the smoke points marker of each side moves along its track
    per = max(1, int((x1 - x0 - 50) // hold))
    bw = (x1 - x0 - 50) / per
    # both sides' tracks on one page: a track split from its twin is easily missed
    both = sum((-(-scenario.sides[x].raw.get("smoke", 0) // per) or 1) * hold + 6 for x in ("allied", "axis"))
    y = room(16 + both)
    for n_side, side in enumerate(("allied", "axis")):
        n = scenario.sides[side].raw.get("smoke", 0)
        rows = -(-n // per) if n else 1
        if n_side == 0:
            y = _section(doc, y, doc.t("Smoke points"), doc.t(
                "each side's smoke points marker: move it down one box for each smoke marker placed (\u00a717.1)"))
        text(c, x0, y - 11, doc.t(SIDE_NAME[side]), "Sans-Bold", 8, SIDE_COLOUR[side])
        if not n:
            text(c, x0 + 50, y - 11, doc.t("none"), "Sans", 8, GREY)
            y -= 18
            continue
        for i in range(n):
            col, row = i % per, i // per
            bx, by = x0 + 50 + col * bw, y - (row + 1) * hold
            c.setStrokeColor(SIDE_COLOUR[side])
            c.setLineWidth(0.6)
            c.setFillColor(white)
            c.rect(bx + 1, by + 1, bw - 2, hold - 2, stroke=1, fill=1)
            text(c, bx + 4, by + hold - 10, str(n - i), "Sans", 6, GREY)
        y -= rows * hold + 6
    y -= 10
    # raid deck: only when a side has raids (the cards are not printed otherwise)
    if any(scenario.sides[s].raw.get("raids") for s in ("allied", "axis")):
        pw, ph = POKER
        y = room(ph + 30)
        y = _section(doc, y, doc.t("Raid cards"), doc.t("the 9 raid cards, shuffled, face down (\u00a716.1)"))
        for i, label in enumerate((doc.t("Raid deck (face down)"), doc.t("Used and delayed raid cards"))):
            bx = x0 + i * (pw + 16)
            c.setStrokeColor(GREY)
            c.setLineWidth(0.8)
            c.setDash(4, 3)
            c.roundRect(bx, y - ph - 4, pw, ph, 8, stroke=1, fill=0)
            c.setDash()
            text(c, bx + pw / 2, y - ph / 2, label, "Sans", 8, GREY, align="center")
        nx = x0 + 2 * (pw + 16)
        lines = wrap(doc.t("Air strikes and bombardments are planned on") + " "
                     + doc.t("each side's own plan sheet, kept secret."), "Sans", 7, x1 - nx)
        for i, line in enumerate(lines):
            text(c, nx, y - 12 - 9 * i, line, "Sans", 7, GREY)
    if uses_fire_zones(scenario, model):
        doc.end()
        doc.begin()
        page_note(doc, heading + doc.t(" (continued)"))
        _fire_zones(doc, H - 16 * MM, x0, x1)
    doc.end()


def uses_fire_zones(scenario: Scenario, model: DesertSteel) -> bool:
    """Fire zones come from indirect fire and bombardments (advanced rules, \u00a713.25, \u00a716.33)."""
    if scenario.rules != "advanced":
        return False
    from .counters import scenario_counters
    if any(spec.unit.indirect_fire for spec in scenario_counters(model, scenario)):
        return True
    return any(scenario.sides[x].raw.get("raids", {}).get(k) for x in ("allied", "axis")
               for k in ("preplanned_bombardments", "on_call_bombardments"))


_ZONE_COLUMNS = (("Turn", 0.08), ("Hex", 0.11), ("Firing unit (or raid card)", 0.3), ("Its hex", 0.11),
                 ("AI", 0.08), ("AV", 0.08), ("Removed", 0.24))


def _fire_zones(doc: Doc, y: float, x0: float, x1: float) -> None:
    """\u00a713.26: "notez" each fire zone: the hex, the firing unit and where it fired from (range and
    experience of later attacks), its factors; one table per side, rows to fill in."""
    c = doc.c
    y = _section(doc, y, doc.t("Fire zones (\u00a713.26)"), doc.t(
        "write each fire zone when it is placed; a unit entering it is attacked with these factors, "
        "before opportunity fire"))
    rh = 6.2 * MM
    rows = max(4, int((y - 14 * MM - 2 * 26) // (2 * rh)) - 1)
    widths = [(x1 - x0) * f for _, f in _ZONE_COLUMNS]
    for side in ("allied", "axis"):
        text(c, x0, y - 9, doc.t("{side} fire zones", side=doc.t(SIDE_NAME[side])), "Sans-Bold", 8.5,
             SIDE_COLOUR[side])
        y -= 14
        c.setFillColor(HexColor("#e9e1cf"))
        c.rect(x0, y - rh * 0.8, x1 - x0, rh * 0.8, stroke=0, fill=1)
        cx = x0
        for (label, _), w in zip(_ZONE_COLUMNS, widths):
            t, fs = doc.fit(doc.t(label), "Sans-Bold", 7, w - 4, "fire-zone record", "sheet", "column head")
            text(c, cx + 2, y - rh * 0.55, t, "Sans-Bold", fs, INK)
            cx += w
        y -= rh * 0.8
        c.setStrokeColor(SIDE_COLOUR[side])
        c.setLineWidth(0.5)
        for r in range(rows):
            c.rect(x0, y - rh, x1 - x0, rh, stroke=1, fill=0)
            y -= rh
        cx = x0
        for w in widths[:-1]:
            cx += w
            c.line(cx, y, cx, y + rows * rh + rh * 0.8)
        y -= 12
    doc.report_small("record sheet")


def record_pdf(model: DesertSteel, scenario: Scenario, *, page: str = "a4", profile=None,
               lang: str = "en", size: str = "5/8") -> tuple[bytes, list]:
    from .counters import counter_size
    doc = Doc(f"Desert Steel record sheet \u2014 {scenario.number} {scenario.name}", "Record sheet", page,
              profile or PrinterProfile(), lang)
    draw_record(doc, model, scenario, bookmark=f"Record sheet: {scenario.number} {scenario.name}",
                size=counter_size(size))
    return doc.save(), doc.findings
