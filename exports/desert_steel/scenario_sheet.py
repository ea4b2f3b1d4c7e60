"""The scenario sheet: everything a scenario says, laid out to play from (§18).

Background; the board as the map configuration lays it out, with the north arrow, and
each side's set-up and entry zones drawn on it (evaluated from the scenario's zone
expressions, ``Battlefield.zone``); battle conditions; each side's order of battle for
its year (cards, units, undermanned removals), smoke, raids, motorization,
fortifications and hidden observers; special rules; exits; victory conditions.
"""
from __future__ import annotations

import math

from reportlab.lib.colors import Color, HexColor, white
from reportlab.platypus import Spacer, Table, TableStyle
from reportlab.platypus.flowables import Flowable

from sandtable.rules.board import BoardError
from sandtable.rules.desert_steel.battlefield import Battlefield
from sandtable.rules.desert_steel.model import CommandCard, DesertSteel, Scenario
from sandtable.rules.desert_steel.zones import ZoneError

from . import symbols
from .counters import removed_units
from ..flow import BODY, CELL, CELL_BOLD, H1, H2, H3, SMALL, SUB, esc, flow, para
from ..hexdraw import BoardGeometry, draw_terrain, zone_outline
from ..page import (GREY, INK, LIGHT, MM, NATIONALITY_COLOUR, NATIONALITY_NAME, SIDE_COLOUR, SIDE_NAME, Doc,
                   PrinterProfile, lang_text, text)

ZONE_COLOURS = {
    "allied": [HexColor("#1f5fae"), HexColor("#17877d"), HexColor("#5b4fb5"), HexColor("#2a9bd6"),
               HexColor("#3c7d22")],
    "axis": [HexColor("#c0392b"), HexColor("#d35400"), HexColor("#9a7d0a"), HexColor("#8e2f6b"),
             HexColor("#7b241c")],
}
_COND = (("relief", "Relief"), ("zone", "Zone"), ("urbanization", "Urbanization"), ("road_network", "Road network"))


def zone_groups(scenario: Scenario) -> list[dict]:
    """Each set-up or entry instruction with a zone: side, label, kind, turn, cards, expression."""
    out = []
    for side in ("allied", "axis"):
        s = scenario.sides[side]
        n = 0
        for g in s.groups:
            if "setup" in g:
                expr, kind, turn = g["setup"], "set up", 1
            elif "enter" in g:
                expr, kind, turn = g["enter"]["zone"], "enter", g["enter"]["turn"]
            else:
                continue
            n += 1
            out.append({"side": side, "label": f"{'A' if side == 'allied' else 'X'}{n}", "kind": kind, "turn": turn,
                        "cards": list(g["cards"]), "zone": expr})
        for r in s.reinforcements:
            if "zone" not in r:
                continue
            n += 1
            out.append({"side": side, "label": f"{'A' if side == 'allied' else 'X'}{n}", "kind": "reinforce",
                        "turn": r["turn"], "cards": list(r["cards"]), "zone": r["zone"]})
    return out


def _prohibited(scenario: Scenario) -> list[dict]:
    return [{"side": r.get("side", "both"), "id": r["id"], "zone": r["zone"]}
            for r in scenario.raw.get("special_rules", ()) if r.get("type") == "prohibited-hexes" and "zone" in r]


class BoardMap(Flowable):
    """The scenario's board, small, with its zones, map letters and north arrow."""

    def __init__(self, doc: Doc, model: DesertSteel, scenario: Scenario, field: Battlefield | None, w: float,
                 max_h: float):
        super().__init__()
        self.doc, self.model, self.scenario, self.field = doc, model, scenario, field
        self.w = w
        self.legend_w = 150
        self.groups = zone_groups(scenario)
        self.zones: dict[str, frozenset[str] | str] = {}
        self.prohibited = _prohibited(scenario)
        if field is not None:
            for g in self.groups:
                try:
                    self.zones[g["label"]] = field.zone(g["zone"])
                except ZoneError as exc:
                    self.zones[g["label"]] = str(exc)
            for p in self.prohibited:
                try:
                    self.zones["P:" + p["id"]] = field.zone(p["zone"])
                except ZoneError as exc:
                    self.zones["P:" + p["id"]] = str(exc)
            self.geo = BoardGeometry.fit(field.board, w - self.legend_w - 12, max_h)
            self.h = self.geo.height + 4
        else:
            self.geo = None
            self.h = 30

    def wrap(self, aw, ah):
        return self.w, self.h

    def draw(self) -> None:
        c = self.canv
        if self.geo is None:
            text(c, 0, self.h - 12, self.doc.t("The board cannot be drawn: its maps do not join (see validate)."), "Sans",
                 8, GREY)
            return
        geo = self.geo
        geo.x0, geo.top = 0, self.h - 2
        board = geo.board
        maps = {m.id: m for m in self.scenario.configuration.maps}
        c.saveState()
        geo.clip_to_board(c)
        draw_terrain(c, geo, maps, board.cells, None, faded=True)
        # prohibited hexes: grey
        for p in self.prohibited:
            hexes = self.zones.get("P:" + p["id"])
            if isinstance(hexes, frozenset) and hexes:
                geo.fill_hexes(c, sorted(hexes), HexColor("#7a7a7a"), alpha=0.45)
                c.setFillAlpha(1)
        counters = {"allied": 0, "axis": 0}
        for g in self.groups:
            hexes = self.zones.get(g["label"])
            colour = ZONE_COLOURS[g["side"]][counters[g["side"]] % 5]
            counters[g["side"]] += 1
            g["colour"] = colour
            if not isinstance(hexes, frozenset) or not hexes:
                continue
            geo.fill_hexes(c, sorted(hexes), colour, alpha=0.28)
            c.setFillAlpha(1)
            zone_outline(c, geo, hexes, colour, max(0.8, geo.radius * 0.28))
        c.restoreState()
        # map outlines and letters (§18.3: the letter in the upper left quarter)
        for m in board.maps():
            e = board.page_edges[m]
            x0, y0 = geo.units_to_page(e["left"], e["bottom"])
            x1, y1 = geo.units_to_page(e["right"], e["top"])
            c.setStrokeColor(INK)
            c.setLineWidth(0.8)
            c.rect(x0, y0, x1 - x0, y1 - y0, stroke=1, fill=0)
            size = min(28, (y1 - y0) * 0.18)
            c.setFillColor(Color(0, 0, 0, alpha=0.35))
            c.setFont("Sans-Bold", size)
            c.drawString(x0 + (x1 - x0) * 0.12, y1 - size * 1.25, m)
        # zone labels, near each zone's middle, never on top of one another
        used: list[tuple[float, float]] = []
        for g in self.groups:
            hexes = self.zones.get(g["label"])
            if isinstance(hexes, frozenset) and hexes:
                xs = [geo.centre(h) for h in hexes]
                mx, my = sum(x for x, _ in xs) / len(xs), sum(y for _, y in xs) / len(xs)
                ranked = sorted(sorted(hexes), key=lambda k: (geo.centre(k)[0] - mx) ** 2 + (geo.centre(k)[1] - my) ** 2)
                free = [k for k in ranked if all(abs(geo.centre(k)[0] - ux) > 20 or abs(geo.centre(k)[1] - uy) > 12
                                                 for ux, uy in used)]
                cx, cy = geo.centre((free or ranked)[0])
                used.append((cx, cy))
                c.setFillColor(white)
                c.setStrokeColor(g["colour"])
                c.setLineWidth(1)
                c.roundRect(cx - 9, cy - 5, 18, 10, 2, stroke=1, fill=1)
                text(c, cx, cy - 3, g["label"], "Sans-Bold", 6.5, g["colour"], align="center")
        # north arrow and legend, right of the board
        lx = min(self.w - self.legend_w, geo.width + 18)
        north = self.scenario.configuration.north
        ax, ay = lx + 14, self.h - 30
        angle = {"up": 0, "right": -90, "down": 180, "left": 90}[north]
        c.saveState()
        c.translate(ax, ay)
        c.rotate(angle)
        symbols.arrow(c, 0, -12, 14, 3, 10, 8, INK)
        c.restoreState()
        # the N stays upright at the arrow's tip: turned with the arrow it read as a Z
        tip = math.radians(angle + 90)
        text(c, ax + math.cos(tip) * 20, ay + math.sin(tip) * 20 - 3, "N", "Sans-Bold", 8, INK, align="center")
        text(c, lx + 44, self.h - 24, self.doc.t("North"), "Sans-Bold", 8, INK)
        text(c, lx + 44, self.h - 33, self.scenario.configuration.id, "Sans", 6.5, GREY)
        y = self.h - 56
        for g in self.groups:
            if y < 8:
                break
            hexes = self.zones.get(g["label"])
            c.setFillColor(g["colour"])
            c.rect(lx, y - 2, 16, 9, stroke=0, fill=1)
            text(c, lx + 8, y, g["label"], "Sans-Bold", 6, white, align="center")
            t = self.doc.t
            what = {"set up": t("set up"), "enter": t("enter turn {turn}", turn=g["turn"]),
                    "reinforce": t("reinforcements turn {turn}", turn=g["turn"])}[g["kind"]]
            label = f"{t(SIDE_NAME[g['side']])} {what}"
            text(c, lx + 20, y + 1, label, "Sans-Bold", 6.5, INK)
            cards = " ".join(str(n) for n in g["cards"])
            if isinstance(hexes, str):
                cards = self.doc.t("zone not drawn: ") + hexes
            for i, line in enumerate(_wrap(cards, self.legend_w - 20, 6)[:3]):
                text(c, lx + 20, y - 7 - i * 7, line, "Sans", 6, GREY)
            y -= 12 + 7 * min(3, len(_wrap(cards, self.legend_w - 20, 6)))
        for p in self.prohibited:
            if y < 8:
                break
            c.setFillColor(HexColor("#7a7a7a"))
            c.rect(lx, y - 2, 16, 9, stroke=0, fill=1)
            text(c, lx + 20, y + 1, self.doc.t("prohibited ({side})", side=self.doc.t(SIDE_NAME.get(p["side"], "both"))),
                 "Sans-Bold", 6.5, INK)
            y -= 14


def _wrap(s: str, w: float, size: float) -> list[str]:
    from ..page import wrap
    return wrap(s, "Sans", size, w) or [""]


def _units_text(model: DesertSteel, scenario: Scenario, side: str, card, year: int, lang: str = "en") -> str:
    from ..lang import tr
    if isinstance(card, CommandCard):
        subs = ", ".join(f"{s.designation}" for s in card.subordinates)
        return f"<i>{tr(lang, 'command card')}</i> (C3 {card.c3}): {esc(subs)}"
    variant = card.variant(year)
    if variant is None:
        return f"<i>{tr(lang, 'no {year} variant', year=year)}</i>"
    removed = removed_units(scenario, side, card.number)
    morale = {e["card"]: e["affects_morale"] for e in scenario.sides[side].raw.get("undermanned", ())}
    parts = []
    for uc in variant.units:
        gone = min(uc.count, removed.get(uc.unit.id, 0))
        n = uc.count - gone
        s = f"{n}\u00d7 {esc(uc.unit.name)}"
        if gone:
            s += (f" <font color='#a61b1b'>(\u2212{gone}{tr(lang, ', counts for morale') if morale.get(card.number) else ''})"
                  "</font>")
        parts.append(s)
    exp = tr(lang, {"green": "Green", "seasoned": "Seasoned", "veteran": "Veteran"}.get(variant.experience,
                                                                                       variant.experience))
    return (", ".join(parts) + f" <font color='#6d6d6d'>\u2014 {exp}, C3 {variant.c3}, "
            f"{tr(lang, 'morale {n}', n=variant.morale)}</font>")


def _oob(model: DesertSteel, scenario: Scenario, side: str, lang: str) -> list:
    from ..lang import tr
    s = scenario.sides[side]
    rows = [[para(f"<b>{tr(lang, 'Card')}</b>", CELL), para(f"<b>{tr(lang, 'Formation')}</b>", CELL),
             para(f"<b>{tr(lang, 'Units')}</b>", CELL)]]
    style = [("LINEBELOW", (0, 0), (-1, 0), 0.6, INK), ("VALIGN", (0, 0), (-1, -1), "TOP"),
             ("LEFTPADDING", (0, 0), (-1, -1), 3), ("RIGHTPADDING", (0, 0), (-1, -1), 3),
             ("TOPPADDING", (0, 0), (-1, -1), 1.5), ("BOTTOMPADDING", (0, 0), (-1, -1), 1.5)]
    entries = []
    for g in s.groups:
        if "setup" in g:
            head = tr(lang, "Set up") + (f" ({tr(lang, 'first' if g.get('order') == 1 else 'second')})"
                                         if g.get("order") else "")
        elif "enter" in g:
            head = tr(lang, "Enter on turn {turn}", turn=g["enter"]["turn"])
        else:
            head = tr(lang, "In hand only (no counters)")
        entries.append((head, g["cards"], g.get("text")))
    for r in s.reinforcements:
        head = tr(lang, "Reinforcements, turn {turn}", turn=r["turn"]) + (
            tr(lang, " (cards only)") if r.get("hand_only") else "")
        entries.append((head, r["cards"], r.get("text")))
    for head, cards, instruction in entries:
        rows.append([para(f"<b>{esc(head)}</b>", CELL), "", ""])
        style += [("SPAN", (0, len(rows) - 1), (-1, len(rows) - 1)),
                  ("BACKGROUND", (0, len(rows) - 1), (-1, len(rows) - 1), HexColor("#efe9dc"))]
        for n in cards:
            card = model.cards.get(n)
            if card is None:
                rows.append([para(str(n), CELL), para(f"<i>{tr(lang, 'unknown card')}</i>", CELL), ""])
                continue
            year = s.year
            rows.append([para(f"<b>{n}</b>", CELL), para(f"<b>{esc(card.designation)}</b>", CELL),
                         para(_units_text(model, scenario, side, card, year, lang), CELL)])
            style.append(("BACKGROUND", (0, len(rows) - 1), (0, len(rows) - 1),
                          NATIONALITY_COLOUR.get(card.nationality, white)))
        if instruction:
            rows.append(["", para(esc(lang_text(instruction, lang)), SMALL), ""])
            style.append(("SPAN", (1, len(rows) - 1), (-1, len(rows) - 1)))
    t = Table(rows, colWidths=[30, 80, None], repeatRows=1)
    t.setStyle(TableStyle([("FONTNAME", (0, 0), (-1, -1), "Sans")] + style))
    return [t]


def _side_extras(model: DesertSteel, scenario: Scenario, side: str, lang: str) -> list:
    from ..lang import tr

    def t(text_: str, **fields) -> str:
        return tr(lang, text_, **fields)
    raw = scenario.sides[side].raw
    lines = []
    smoke = raw.get("smoke", 0)
    lines.append(f"<b>{t('Smoke:')}</b> " + t("{n} point" if smoke == 1 else "{n} points", n=smoke))
    raids = raw.get("raids", {})
    air = raids.get("air_strikes", ())
    parts = []
    for a in air:
        parts.append(t("{n} air strike" if a["count"] == 1 else "{n} air strikes", n=a["count"]) +
                     (f" ({t(NATIONALITY_NAME.get(a['nationality'], a['nationality']))})" if a.get("nationality")
                      else ""))
    if raids.get("preplanned_bombardments"):
        n = raids["preplanned_bombardments"]
        parts.append(t("{n} preplanned bombardment" if n == 1 else "{n} preplanned bombardments", n=n))
    if raids.get("on_call_bombardments"):
        n = raids["on_call_bombardments"]
        parts.append(t("{n} on-call bombardment" if n == 1 else "{n} on-call bombardments", n=n))
    lines.append(f"<b>{t('Raids:')}</b> " + (", ".join(parts) if parts else t("none")))
    trans = []
    for tp in raw.get("transports", ()):
        unit = model.unit_types.get(tp.get("unit_type", ""))
        name = unit.name if unit else tp["type"]
        trans.append(f"{tp['count']}\u00d7 {esc(name)}" + (f" ({t(NATIONALITY_NAME.get(tp['nationality'], ''))})"
                                                          if tp.get("nationality") else "") +
                     (t(", arriving turn {turn}", turn=tp["turn"]) if tp.get("turn", 1) > 1 else ""))
    lines.append(f"<b>{t('Motorization:')}</b> " + (", ".join(trans) if trans else t("none")))
    forts = raw.get("fortifications", {})
    fparts = [f"{v['count']} {t(k)}" for k, v in forts.items() if v.get("count")]
    if fparts:
        lines.append(f"<b>{t('Fortifications:')}</b> " + ", ".join(fparts))
    hidden = raw.get("hidden_observers")
    if hidden:
        lines.append(f"<b>{t('Hidden forward observers:')}</b> " + t("allowed" if hidden.get("allowed")
                                                                      else "not allowed"))
    undermanned = raw.get("undermanned", ())
    if undermanned:
        u = []
        for e in undermanned:
            card = model.cards.get(e["card"])
            what = ", ".join(f"{r['count']} {model.unit_types[r['type']].name if r['type'] in model.unit_types else r['type']}"
                             for r in e["remove"])
            u.append(f"{card.designation if card else e['card']} ({e['card']}) \u2212{esc(what)}"
                     + (t(" (counts for morale, \u00a718.5)") if e["affects_morale"] else ""))
        lines.append(f"<b>{t('Undermanned:')}</b> " + "; ".join(u))
    return [para(line, BODY) for line in lines]


def _conditions(model: DesertSteel, scenario: Scenario, lang: str) -> list:
    effects = model.terrain_effects or {}
    cond = scenario.conditions
    from ..lang import tr
    rows = [[para(f"<b>{tr(lang, 'Turns')}</b>", CELL), para(str(scenario.turns), CELL_BOLD)],
            [para(f"<b>{tr(lang, 'Visibility')}</b>", CELL), para(str(scenario.visibility) + "".join(
                tr(lang, "; {v} from turn {turn}", v=ch["visibility"], turn=ch["turn"])
                for ch in cond.get("visibility_changes", ())), CELL)]]
    for key, label in _COND:
        c = cond[key]
        spec = (effects.get(key) or {}).get("values", {}).get(c["value"], {})
        value = lang_text(spec.get("label"), lang) or c["value"]
        extra = []
        if c.get("printed") and c["printed"].lower() != value.lower():
            extra.append(tr(lang, "printed \u201c{p}\u201d", p=esc(c["printed"])))
        if c.get("variable"):
            extra.append(tr(lang, "variable * (\u00a73.11)"))
        for m, v in (c.get("by_map") or {}).items():
            vs = (effects.get(key) or {}).get("values", {}).get(v, {})
            extra.append(tr(lang, "map {m}: {v}", m=m, v=lang_text(vs.get("label"), lang) or v))
        rows.append([para(f"<b>{tr(lang, label)}</b>", CELL), para(f"<b>{esc(value)}</b>" + (
            f" <font color='#6d6d6d'>({'; '.join(extra)})</font>" if extra else ""), CELL)])
    t = Table(rows, colWidths=[80, None])
    t.setStyle(TableStyle([("FONTNAME", (0, 0), (-1, -1), "Sans"), ("LINEBELOW", (0, 0), (-1, -1), 0.3, LIGHT), ("VALIGN", (0, 0), (-1, -1), "TOP"),
                           ("TOPPADDING", (0, 0), (-1, -1), 1.5), ("BOTTOMPADDING", (0, 0), (-1, -1), 1.5),
                           ("LEFTPADDING", (0, 0), (-1, -1), 2)]))
    return [t]


def _exits(scenario: Scenario, lang: str = "en") -> list:
    from ..lang import tr
    ex = scenario.raw.get("exits")
    if not ex:
        return []
    out = [para(tr(lang, "Leaving the map (\u00a78.4)"), H2)]
    for r in ex.get("rules", ()):
        who = tr(lang, {"allied": "Allied units", "axis": "Axis units"}.get(r["side"], "Units of both sides"))
        edge = tr(lang, r["edge"])
        where = (tr(lang, "the {edge} edge of map {map}", edge=edge, map=r["map"]) if r.get("map") else
                 tr(lang, "the {edge} edge", edge=edge))
        out.append(para(tr(lang, "{who} leaving by {where}: ", who=who, where=where)
                        + tr(lang, "count as losses" if r["counts_as_loss"] else "do not count as losses"), BODY))
    if "otherwise_counts_as_loss" in ex:
        out.append(para(tr(lang, "Any other exit: ") + tr(lang, "counts as a loss" if ex["otherwise_counts_as_loss"]
                                                          else "does not count as a loss"), BODY))
    return out


_MONTHS_FR = ("janvier", "f\u00e9vrier", "mars", "avril", "mai", "juin", "juillet", "ao\u00fbt", "septembre", "octobre",
              "novembre", "d\u00e9cembre")
_MONTHS_EN = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
              "November", "December")


def _date(date: str, lang: str) -> str:
    """The scenario's date ("22 February 1943") in the document's language."""
    if lang != "fr":
        return date
    for en, fr in zip(_MONTHS_EN, _MONTHS_FR):
        date = date.replace(en, fr)
    return date.replace("night of", "nuit du")


# a special rule's heading in French: its kind (the rule ids are English words)
_RULE_TYPES = {"die-roll-modifier": "Die-roll modifier", "engineer-capable": "Engineers",
               "exempt-friendly-minefields": "Friendly minefields", "hidden-deployment": "Hidden deployment",
               "level-override": "Elevation level", "no-stacking": "No stacking", "prohibited-hexes": "Prohibited hexes",
               "self-spotting": "Self-spotting", "start-shaken": "Shaken at the start", "text-only": "Special rule",
               "visibility-change": "Visibility change"}


def scenario_story(doc: Doc, model: DesertSteel, scenario: Scenario) -> list:
    lang = doc.lang
    raw = scenario.raw
    story: list = []
    story.append(para(f"{scenario.number}. {esc(lang_text(raw['name'], lang))}", H1))
    other = lang_text(raw["name"], "fr" if lang == "en" else "en")
    t = doc.t
    sub = [lang_text(raw.get("date_text"), lang) if raw.get("date_text") else _date(raw.get("date", ""), lang),
           t("year {year}", year=scenario.year) + "".join(
        f", {t(SIDE_NAME[s])} {y}" for s, y in (raw.get("year_override") or {}).items() if y != scenario.year),
        t("advanced rules" if scenario.rules == "advanced" else "basic rules"), t("{n} turns", n=scenario.turns)]
    story.append(para(esc(" \u00b7 ".join(x for x in sub if x)) + (
        f" \u2014 <i>{esc(other)}</i>" if other and other != lang_text(raw['name'], lang) else ""), SUB))
    if raw.get("year_note"):
        story.append(para(esc(lang_text(raw["year_note"], lang)), SMALL))
    if raw.get("background"):
        story.append(para(doc.t("Background"), H2))
        story.append(para(esc(lang_text(raw["background"], lang)), BODY))
    story.append(para(doc.t("The board"), H2))
    try:
        field = Battlefield.for_scenario(model, scenario)
    except (BoardError, KeyError):
        field = None
    layout = " / ".join(" ".join(row) for row in scenario.configuration.layout_ids)
    story.append(para(t("Maps {layout} (rows top to bottom as laid out), north {north}; coloured areas are where each "
                        "formation sets up or enters.", layout=esc(layout), north=t(scenario.configuration.north)),
                      SMALL))
    story.append(BoardMap(doc, model, scenario, field, doc.w - 20 * MM, 300))
    story.append(Spacer(0, 4))
    story.append(para(doc.t("Battle conditions"), H2))
    story.extend(_conditions(model, scenario, lang))
    for side in ("allied", "axis"):
        colour = SIDE_COLOUR[side].hexval().replace("0x", "#")
        story.append(para(f"<font color='{colour}'>{t('Allied forces' if side == 'allied' else 'Axis forces')}</font> "
                          f"<font size=8 color='#6d6d6d'>({t('cards of {year}', year=scenario.sides[side].year)})"
                          "</font>", H2))
        story.extend(_oob(model, scenario, side, lang))
        story.append(Spacer(0, 3))
        story.extend(_side_extras(model, scenario, side, lang))
    rules = raw.get("special_rules", ())
    if rules:
        story.append(para(doc.t("Special rules"), H2))
        for r in rules:
            side = t(SIDE_NAME[r["side"]]) if r.get("side") in SIDE_NAME else ""
            title = (t(_RULE_TYPES[r["type"]]) if doc.lang != "en" and r.get("type") in _RULE_TYPES
                     else r["id"].replace("-", " ").capitalize())
            story.append(para(f"<b>{esc(title)}</b>" + (
                f" <font color='#6d6d6d'>({side})</font>" if side else "") + ": " + esc(lang_text(r["text"], lang)),
                BODY))
    story.extend(_exits(scenario, lang))
    story.append(para(doc.t("Victory conditions"), H2))
    victory = raw.get("victory", {})
    story.append(para(esc(lang_text(victory.get("text"), lang)), BODY))
    if victory.get("unresolved"):
        story.append(para(t("Not resolved: ") + esc(victory["unresolved"]), SMALL))
    if raw.get("designer_notes"):
        story.append(para(doc.t("Designers' notes"), H3))
        story.append(para(esc(lang_text(raw["designer_notes"], lang)), SMALL))
    return story


def draw_scenario(doc: Doc, model: DesertSteel, scenario: Scenario, bookmark: str | None = None) -> None:
    flow(doc, scenario_story(doc, model, scenario), doc.t("Scenario {name}", name=f"{scenario.number} \u2014 "
                                                                                     f"{scenario.name}"), bookmark,
         subject=f"scenario {scenario.id}")


def scenario_pdf(model: DesertSteel, scenario: Scenario, *, page: str = "a4", profile=None,
                 lang: str = "en") -> tuple[bytes, list]:
    doc = Doc(f"Desert Steel scenario {scenario.number} \u2014 {scenario.name}", "Scenario sheet", page,
              profile or PrinterProfile(), lang)
    draw_scenario(doc, model, scenario, bookmark=f"Scenario {scenario.number}: {scenario.name}")
    return doc.save(), doc.findings
