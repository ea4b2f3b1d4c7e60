"""The record sheet (§2.6): what the game's record track holds, for one scenario.

Turn track to the scenario's length (each turn with its visibility, and the
reinforcements and transports due), the battle-condition boxes with the scenario's
values marked, the visibility track, each side's smoke points to tick off, the raid deck
spaces (poker-card size), and boxes for what a side records in secret (minefields
§15.11, hidden forward observers §12.21).
"""
from __future__ import annotations

from reportlab.lib.colors import HexColor, white

from sandtable.rules.desert_steel.battlefield import visibility_on
from sandtable.rules.desert_steel.model import DesertSteel, Scenario

from .page import (GREY, INK, LIGHT, MM, POKER, SIDE_COLOUR, SIDE_NAME, Doc, PrinterProfile, ellipsize, lang_text,
                   page_note, text, width)

_HILITE = HexColor("#f2d28a")
_CONDITIONS = (("relief", "Relief (elevation)", "3.4"), ("zone", "Zone", "3.3"),
               ("urbanization", "Urbanization", "3.2"), ("road_network", "Road network", "3.5"))


def _section(doc: Doc, y: float, title: str, note: str = "") -> float:
    c = doc.c
    x0 = 10 * MM
    text(c, x0, y, title, "Sans-Bold", 10, INK)
    if note:
        text(c, x0 + width(title, "Sans-Bold", 10) + 6, y, note, "Sans", 7, GREY)
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


def draw_record(doc: Doc, model: DesertSteel, scenario: Scenario, bookmark: str | None = None) -> None:
    c = doc.c
    doc.begin()
    if bookmark:
        doc.bookmark(bookmark)
    W, H = doc.w, doc.h
    x0, x1 = 10 * MM, W - 10 * MM
    page_note(doc, f"Record sheet \u2014 {scenario.number} {scenario.name}")
    y = H - 17 * MM
    text(c, x0, y, f"{scenario.number}. {lang_text(scenario.raw['name'], doc.lang)}", "Sans-Bold", 16, INK)
    text(c, x1, y, f"{scenario.year} \u00b7 {scenario.rules} rules \u00b7 {scenario.turns} turns", "Sans", 9, GREY,
         align="right")
    y -= 26
    # turn track
    y = _section(doc, y, "Turn track", "game turn marker; the game length marker on the last turn (\u00a72.12)")
    per_row = 10
    bw = (x1 - x0) / per_row
    bh = 46
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
            text(c, bx + bw - 5, by + bh - 12, "END", "Sans-Bold", 6.5, INK, align="right")
        vis = visibility_on(scenario, t)
        changed = t > 1 and vis != visibility_on(scenario, t - 1)
        text(c, bx + bw - 5, by + bh - 22 if last else by + bh - 12, f"vis {vis}", "Sans-Bold" if changed else "Sans",
             6.5, INK if changed else GREY, align="right")
        for i, (side, what) in enumerate(arrivals.get(t, [])[:3]):
            s = f"{'A' if side == 'allied' else 'X'}: {what}"
            size = 5.5
            while width(s, "Sans", size) > bw - 8 and size > 4.2:
                size -= 0.25
            if width(s, "Sans", size) > bw - 8:
                doc.report("print-text-too-small", f"turn {t} arrivals {s!r} do not fit the turn box",
                           f"scenario {scenario.id}")
                s = ellipsize(s, "Sans", size, bw - 8)
            text(c, bx + 4, by + 14 - i * 6.5, s, "Sans", size, SIDE_COLOUR[side])
    rows = -(-scenario.turns // per_row)
    y -= rows * bh + 6
    text(c, x0, y, "A: Allied, X: Axis arrivals (card numbers, transports); vis: visibility that turn.", "Sans", 6.5,
         GREY)
    y -= 18
    # battle conditions
    y = _section(doc, y, "Battle conditions", "place the condition markers (\u00a72.12, \u00a718.2)")
    effects = model.terrain_effects or {}
    label_w = 92
    for key, label, section in _CONDITIONS:
        cond = scenario.conditions[key]
        values = list((effects.get(key) or {}).get("values", {}).items())
        text(c, x0, y - 11, label, "Sans-Bold", 8, INK)
        text(c, x0, y - 19, f"\u00a7{section}" + (" \u00b7 variable *" if cond.get("variable") else ""), "Sans", 6,
             GREY)
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
            c.rect(bx + 1, y - 22, bw - 2, 20, stroke=1, fill=1)
            name = lang_text(spec.get("label"), doc.lang) or vid
            if on_map and not chosen:
                name += f" (map {', '.join(on_map)})"
            text(c, bx + bw / 2, y - 15, name, "Sans-Bold" if chosen else "Sans", 7.5, INK, align="center")
        y -= 26
    # visibility
    vis_values = [visibility_on(scenario, t) for t in range(1, scenario.turns + 1)]
    top = max(12, max(vis_values))
    y -= 14
    y = _section(doc, y, "Visibility", f"hexes; starts at {scenario.visibility}" + (
        ", changes by turn as on the turn track" if len(set(vis_values)) > 1 else ""))
    bw = (x1 - x0) / top
    for v in range(1, top + 1):
        bx = x0 + (v - 1) * bw
        start = v == scenario.visibility
        seen = v in vis_values
        c.setFillColor(_HILITE if start else (HexColor("#f6ecd2") if seen else white))
        c.setLineWidth(1.2 if start else 0.5)
        c.setStrokeColor(INK)
        c.rect(bx + 1, y - 20, bw - 2, 18, stroke=1, fill=1)
        text(c, bx + bw / 2, y - 14, str(v), "Sans-Bold" if start else "Sans", 8, INK, align="center")
    y -= 36
    # smoke
    y = _section(doc, y, "Smoke points", "tick one each time a smoke marker is placed (\u00a717.1)")
    for side in ("allied", "axis"):
        n = scenario.sides[side].raw.get("smoke", 0)
        text(c, x0, y - 11, SIDE_NAME[side], "Sans-Bold", 8, SIDE_COLOUR[side])
        if not n:
            text(c, x0 + 50, y - 11, "none", "Sans", 8, GREY)
            y -= 18
            continue
        per = 25
        bw = (x1 - x0 - 50) / per
        for i in range(n):
            col, row = i % per, i // per
            bx, by = x0 + 50 + col * bw, y - 16 - row * 16
            c.setStrokeColor(SIDE_COLOUR[side])
            c.setLineWidth(0.6)
            c.setFillColor(white)
            c.rect(bx + 1, by, bw - 2, 14, stroke=1, fill=1)
            text(c, bx + bw / 2, by + 4, str(i + 1), "Sans", 6, GREY, align="center")
        y -= 18 + 16 * ((n - 1) // per)
    y -= 16
    # raid deck
    raids_used = any(scenario.sides[s].raw.get("raids") for s in ("allied", "axis"))
    pw, ph = POKER
    needed = ph + 30
    if y - needed < 14 * MM:
        doc.end()
        doc.begin()
        page_note(doc, f"Record sheet \u2014 {scenario.number} {scenario.name} (continued)")
        y = H - 20 * MM
    y = _section(doc, y, "Raid cards", "the 9 raid cards, shuffled, face down (\u00a716.1)" if raids_used else
                 "no raids in this scenario")
    for i, label in enumerate(("Raid deck (face down)", "Used and delayed raid cards")):
        bx = x0 + i * (pw + 16)
        c.setStrokeColor(GREY if raids_used else LIGHT)
        c.setLineWidth(0.8)
        c.setDash(4, 3)
        c.roundRect(bx, y - ph - 4, pw, ph, 8, stroke=1, fill=0)
        c.setDash()
        text(c, bx + pw / 2, y - ph / 2, label, "Sans", 8, GREY, align="center")
    # secret records, beside the raid boxes
    sx = x0 + 2 * (pw + 16)
    sw = x1 - sx
    sy = y
    for side in ("allied", "axis"):
        raw = scenario.sides[side].raw
        mines = raw.get("fortifications", {}).get("minefields", {}).get("count", 0)
        hidden = raw.get("hidden_observers", {}).get("allowed", False)
        if not (mines or hidden):
            continue
        text(c, sx, sy - 8, f"{SIDE_NAME[side]}: secret", "Sans-Bold", 8, SIDE_COLOUR[side])
        sy -= 12
        for label, n in (("minefield hexes", mines), ("hidden FO hexes", 6 if hidden else 0)):
            if not n:
                continue
            text(c, sx, sy - 7, f"{label} ({n})" if label.startswith("mine") else label, "Sans", 6.5, GREY)
            sy -= 10
            per = 4
            bw = sw / per
            for i in range(n):
                col, row = i % per, i // per
                c.setStrokeColor(LIGHT)
                c.setLineWidth(0.5)
                c.rect(sx + col * bw + 1, sy - (row + 1) * 13, bw - 2, 12, stroke=1, fill=0)
            sy -= 13 * (-(-n // per)) + 6
    doc.end()


def record_pdf(model: DesertSteel, scenario: Scenario, *, page: str = "a4", profile=None,
               lang: str = "en") -> tuple[bytes, list]:
    doc = Doc(f"Desert Steel record sheet \u2014 {scenario.number} {scenario.name}", "Record sheet", page,
              profile or PrinterProfile(), lang)
    draw_record(doc, model, scenario, bookmark=f"Record sheet: {scenario.number} {scenario.name}")
    return doc.save(), doc.findings
