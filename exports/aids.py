"""Play aids (§2.4): every chart of the pack as a readable table.

How to read a counter; terrain effects (relief levels by map colour, zone, urbanization,
road network) with the Random Battle Conditions Table (§3.11); movement costs;
stacking; the spotting procedure and its modifiers; the Combat Results Table with the
range and fire modifiers and flash kills; morale modifiers; separation effects. Every
number comes from the pack's rule tables and terrain effects, so a mod pack prints its
own charts. A value the rulebook does not print carries a small dagger (†): that is
what a player with the published charts should check.
"""
from __future__ import annotations

from reportlab.lib.colors import HexColor, white
from reportlab.platypus import CondPageBreak, KeepTogether, Spacer, Table, TableStyle
from reportlab.platypus.flowables import Flowable

from sandtable.rules.desert_steel.model import DesertSteel

from .counters import CounterSpec, draw_back, draw_front
from .flow import BODY, CELL, CELL_BOLD, H2, H3, SMALL, esc, flow, para
from .page import GREY, INK, LIGHT, NATIONALITY_COLOUR, TERRAIN_COLOUR, Doc, PrinterProfile, lang_text, text
from .provmarks import DAGGER, sources

_HEAD = HexColor("#e9e1cf")
_RESULT = {"miss": "Miss", "hit": "Hit", "destroyed": "Destroyed"}


def _dag(mark: bool) -> str:
    return f"<font size=6 color='#8a8a8a'>{DAGGER}</font>" if mark else ""


def _result(r: str) -> str:
    if r in _RESULT:
        return _RESULT[r]
    if r.startswith("hit+"):
        return f"Hit +{r[4:]}"
    return r


def _band(b) -> str:
    lo, hi = b.get("min"), b.get("max")
    if lo is None:
        return f"\u2264 {hi}"
    if hi is None:
        return f"\u2265 {lo}"
    return str(lo) if lo == hi else f"{lo}\u2013{hi}"


def _signed(v) -> str:
    if isinstance(v, (int, float)):
        s = f"{v:g}"
        return ("+" + s) if v > 0 else s.replace("-", "\u2212")
    return str(v)


def _table(rows: list[list], widths: list | None = None, header_rows: int = 1, extra: list | None = None) -> Table:
    t = Table(rows, colWidths=widths, repeatRows=header_rows, hAlign="LEFT")
    style = [("GRID", (0, 0), (-1, -1), 0.35, LIGHT), ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
             ("TOPPADDING", (0, 0), (-1, -1), 1.6), ("BOTTOMPADDING", (0, 0), (-1, -1), 1.6),
             ("LEFTPADDING", (0, 0), (-1, -1), 3), ("RIGHTPADDING", (0, 0), (-1, -1), 3)]
    if header_rows:
        style.append(("BACKGROUND", (0, 0), (-1, header_rows - 1), _HEAD))
    t.setStyle(TableStyle(style + (extra or [])))
    return t


def _p(s, bold=False):
    return para(s, CELL_BOLD if bold else CELL)


class CounterKey(Flowable):
    """A counter drawn large, front and back, with what each figure means (§2.11)."""

    def __init__(self, doc: Doc, model: DesertSteel, width: float):
        super().__init__()
        self.doc, self.model, self.w = doc, model, width
        unit = model.unit_types.get("de-pz-vi-e") or next(iter(model.unit_types.values()), None)
        self.unit = unit
        self.s = 66
        self.h = self.s + 22 if unit else 0

    def wrap(self, aw, ah):
        self.w = min(self.w, aw)
        return self.w, self.h

    def draw(self):
        if self.unit is None:
            return
        c = self.canv
        s = self.s
        spec = CounterSpec(self.unit, "501", 178)
        y = self.h - s - 4
        back_x = self.w - s - 2
        for face, fx in (("front", 0), ("back", back_x)):
            c.setFillColor(NATIONALITY_COLOUR.get(self.unit.nationality, white))
            c.setStrokeColor(INK)
            c.setLineWidth(0.6)
            c.rect(fx, y, s, s, stroke=1, fill=1)
            with self.doc.muted():
                (draw_front if face == "front" else draw_back)(self.doc, fx, y, s, spec)
            text(c, fx + s / 2, y - 9, face + (": designation, facing arrow, nation" if face == "back" else ""),
                 "Sans-Oblique", 6, GREY, align="center")
        notes = [(y + s * 0.86, ["designation \u00b7 \u2605 spotter, T towed,", "CS close support, engineer sign"]),
                 (y + s * 0.58, ["unit type"]),
                 (y + s * 0.38, ["range (bold lower edge: indirect)", "\u00b7 movement points"]),
                 (y + s * 0.1, ["anti-vehicle \u2013 defense \u2013 anti-infantry", "\u2022 cannot fire; white defense:",
                                "lightly armoured"])]
        lx = s + 8
        for ny, lines in notes:
            c.setStrokeColor(GREY)
            c.setLineWidth(0.4)
            c.line(s - 3, ny + 2, lx - 1, ny + 2)
            for i, line in enumerate(lines):
                text(c, lx, ny - i * 7, line, "Sans", 5.8, INK)


def _split(s: str, n: int) -> list[str]:
    words, lines, cur = s.split(), [], ""
    for w in words:
        if cur and len(cur) + 1 + len(w) > n:
            lines.append(cur)
            cur = w
        else:
            cur = f"{cur} {w}".strip()
    return lines + ([cur] if cur else [])


def _terrain(model: DesertSteel, lang: str) -> list:
    eff = model.terrain_effects
    tables = model.rule_tables or {}
    if not eff:
        return [para("The pack has no terrain-effects table.", SMALL)]
    src = sources(eff)
    out = [para("Terrain effects", H2)]
    # relief: levels by colour band
    colours = ["sand", "tan", "ochre", "brown"]
    for v in eff["relief"]["values"].values():
        for k in v.get("levels", {}):
            if k not in colours:
                colours.append(k)
    rows = [[_p("Relief (\u00a73.4)", True)] + [_p(c.capitalize(), True) for c in colours]]
    extra = []
    for i, c in enumerate(colours, start=1):
        if c in TERRAIN_COLOUR:
            extra.append(("BACKGROUND", (i, 0), (i, 0), TERRAIN_COLOUR[c]))
            if c == "brown":
                extra.append(("TEXTCOLOR", (i, 0), (i, 0), white))
    for vid, v in eff["relief"]["values"].items():
        label = lang_text(v.get("label"), lang) or vid
        row = [_p(esc(label))]
        for c in colours:
            lv = v.get("levels", {}).get(c, 0)
            row.append(_p(f"level {lv}" + _dag(src.reconstructed(f"/relief/values/{vid}/levels"))))
        rows.append(row)
    out.append(KeepTogether([para("Elevation level of each map colour, by relief", H3),
                             _table(rows, extra=extra)]))
    costs = (tables.get("movement_costs") or {}).get("terrain", {})
    rows = [[_p("Zone (\u00a73.3)", True), _p("Clear hexes", True), _p("Vehicle MP", True), _p("Entrenching", True)]]
    for vid, v in eff["zone"]["values"].items():
        ground = v.get("ground", vid)
        mp = costs.get(ground, {}).get("vehicle", "\u2014")
        rows.append([_p(esc(lang_text(v.get("label"), lang) or vid)), _p(esc(ground)),
                     _p(_signed(mp).lstrip("+") + _dag(src.reconstructed(f"/zone/values/{vid}"))),
                     _p(("allowed" if v.get("entrenchment") else "not allowed (\u00a713.41)") +
                        _dag(src.reconstructed(f"/zone/values/{vid}/entrenchment")))])
    out.append(Spacer(0, 5))
    out.append(_table(rows))
    rows = [[_p("Urbanization (\u00a73.2)", True), _p("Building hexes are", True)]]
    for vid, v in eff["urbanization"]["values"].items():
        rows.append([_p(esc(lang_text(v.get("label"), lang) or vid)),
                     _p(("buildings: cover, block line of sight" if v.get("building_hexes") == "building"
                         else "clear terrain") + _dag(src.reconstructed(f"/urbanization/values/{vid}/building_hexes")))])
    out.append(Spacer(0, 5))
    out.append(_table(rows))
    rows = [[_p("Road network (\u00a73.5)", True), _p("Red lines", True), _p("Brown lines", True)]]
    for vid, v in eff["road_network"]["values"].items():
        rows.append([_p(esc(lang_text(v.get("label"), lang) or vid)),
                     _p(esc(v.get("road", "")) + _dag(src.reconstructed(f"/road_network/values/{vid}/road"))),
                     _p(esc(v.get("track", "")) + _dag(src.reconstructed(f"/road_network/values/{vid}/track")))])
    out.append(Spacer(0, 5))
    out.append(_table(rows))
    rnd = (tables.get("random_conditions") or {}).get("tables")
    if rnd:
        tsrc = sources(tables)
        keys = list(rnd)
        rows = [[_p("1d6", True)] + [_p(k.replace("_", " ").capitalize(), True) for k in keys]]
        for die in "123456":
            row = [_p(die, True)]
            for k in keys:
                v = rnd[k].get(die, "")
                label = lang_text((eff.get(k, {}).get("values", {}).get(v, {}) or {}).get("label"), lang) or str(v)
                row.append(_p(esc(label) + _dag(tsrc.reconstructed(f"/random_conditions/tables/{k}/{die}"))))
            rows.append(row)
        out.append(KeepTogether([para("Random Battle Conditions Table (\u00a73.11)", H3), _table(rows)]))
    return out


def _movement(model: DesertSteel) -> list:
    tables = model.rule_tables or {}
    mc = tables.get("movement_costs")
    if not mc:
        return []
    src = sources(tables)
    cols = list(mc.get("columns", ("vehicle", "non_vehicle")))
    rows = [[_p("Terrain (\u00a78)", True)] + [_p(c.replace("_", "-").capitalize(), True) for c in cols]]
    for terrain, costs in mc["terrain"].items():
        row = [_p(esc(terrain.replace("_", " ").capitalize()))]
        for col in cols:
            v = costs.get(col, "\u2014")
            shown = {"all": "all MP", "prohibited": "prohibited"}.get(v, f"{v:g}" if isinstance(v, (int, float)) else v)
            if shown == "0.5":
                shown = "\u00bd"
            row.append(_p(esc(shown) + _dag(src.reconstructed(f"/movement_costs/terrain/{terrain}/{col}"))))
        rows.append(row)
    st = tables.get("settings", {})
    notes = []
    if "climb_cost_fraction" in st:
        notes.append(f"Entering a higher hex costs {st['climb_cost_fraction']:g} of the unit's MP, rounded "
                     f"{st.get('climb_cost_rounding', 'up')}, or the terrain cost if more"
                     + _dag(src.reconstructed("/settings/climb_cost_fraction")) + ".")
    if st.get("road_ignores_climb_and_mud"):
        notes.append("Along a road or track: no climb, no zone cost (\u00a78.3)"
                     + _dag(src.reconstructed("/settings/road_ignores_climb_and_mud")) + ".")
    if "minimum_move_hexes" in st:
        notes.append(f"A unit may always move {st['minimum_move_hexes']} hex whatever it costs (\u00a78.1).")
    if "move_and_fire_mp_fraction" in st:
        notes.append(f"Move-and-fire: {st['move_and_fire_mp_fraction']:g} of the MP, rounded "
                     f"{st.get('move_and_fire_mp_rounding', 'down')} (\u00a79.52).")
    out = [para("Movement costs", H2), _table(rows)]
    out += [para(n, SMALL) for n in notes]
    stack = tables.get("stacking")
    if stack:
        d = stack["default"]
        rows = [[_p("Stacking (\u00a78.5)", True), _p("Units", True), _p("Vehicles", True)],
                [_p("Any hex, per player"), _p(str(d.get("units", "\u2014")) + _dag(src.reconstructed("/stacking"))),
                 _p(str(d.get("vehicles", "\u2014")) + _dag(src.reconstructed("/stacking")))]]
        for terrain, lim in (stack.get("by_terrain") or {}).items():
            rows.append([_p(esc(terrain)), _p(str(lim.get("units", "\u2014"))), _p(str(lim.get("vehicles", "\u2014")))])
        out += [Spacer(0, 5), _table(rows)]
    return out


def _modifiers(tables, key: str, title: str, lang: str) -> list:
    mods = tables.get(key) or []
    if not mods:
        return []
    src = sources(tables)
    rows = [[_p("Modifier", True), _p("", True), _p("\u00a7", True)]]
    for i, m in enumerate(mods):
        label = lang_text(m.get("label"), lang) or m.get("id", "")
        if m.get("cumulative") is False:
            label += " <font color='#6d6d6d'>(not cumulative)</font>"
        rows.append([_p(esc(label) if "<font" not in label else label),
                     _p(f"<b>{_signed(m['value'])}</b>" + _dag(src.reconstructed(f"/{key}/{i}"))),
                     _p(m.get("section", ""))])
    return [KeepTogether([para(title, H3), _table(rows, [None, 30, 30])])]


def _spotting(model: DesertSteel, lang: str) -> list:
    tables = model.rule_tables or {}
    st = tables.get("settings", {})
    src = sources(tables)
    do, dc = st.get("spotting_divisor_open", 3), st.get("spotting_divisor_cover", 2)
    steps = [
        "1. The target must be within visibility and in line of sight (\u00a79.11\u20139.13).",
        f"2. Spotting number: the distance in hexes divided by {do} in the open, by {dc} if the target is in cover "
        f"(building hex or higher than the spotter), rounded {st.get('spotting_number_rounding', 'up')}"
        + _dag(src.reconstructed("/settings/spotting_divisor_open")) + " (\u00a79.14).",
        "3. Roll 1d6, add the modifiers below: the target is spotted if the total is at least the spotting number."
        + (" Same hex: spotted automatically." if st.get("spotting_same_hex_automatic") else ""),
        "4. Place a Spotted A, B or C marker when the spotter's C3 is A, B or C (\u00a79.18).",
    ]
    return [para("Spotting", H2)] + [para(s, BODY) for s in steps] + _modifiers(
        tables, "spotting_modifiers", "Spotting modifiers (added to 1d6)", lang)


def _combat(model: DesertSteel, lang: str) -> list:
    tables = model.rule_tables or {}
    src = sources(tables)
    crt = tables.get("combat_results")
    out = [para("Combat Results Table", H2)]
    if crt:
        cols = crt["columns"]
        rows = [[_p("Vehicle target", True), "", _p("Non-vehicle target", True), ""]]
        n = max(len(cols["vehicle"]), len(cols["non_vehicle"]))
        for i in range(n):
            row = []
            for name in ("vehicle", "non_vehicle"):
                if i < len(cols[name]):
                    b = cols[name][i]
                    mark = src.reconstructed(f"/combat_results/columns/{name}/{i}")
                    row += [_p(f"<b>{_band(b)}</b>"), _p(_result(b["result"]) + _dag(mark))]
                else:
                    row += ["", ""]
            rows.append(row)
        out.append(para(f"Modified {crt.get('dice', '3d6')}: the firer's fire factor minus the target's defense "
                        "factor, plus the modifiers, plus the dice (\u00a79.22).", SMALL))
        out.append(_table(rows, [44, None, 44, None], extra=[("SPAN", (0, 0), (1, 0)), ("SPAN", (2, 0), (3, 0))]))
    fk = tables.get("flash_kill")
    if fk:
        out.append(para("Flash kill (\u00a79.35): a Destroyed vehicle is a flash kill on an unmodified roll of at least "
                        + ", ".join(f"{v} ({k.capitalize()} firer)" for k, v in fk.items())
                        + _dag(src.reconstructed("/flash_kill")) + ".", SMALL))
    rm = tables.get("range_modifiers")
    if rm:
        rows = [[_p("Range (hexes)", True), _p("Direct", True), _p("Range (hexes)", True), _p("Indirect", True)]]
        d, ind = rm.get("direct", []), rm.get("indirect", [])
        for i in range(max(len(d), len(ind))):
            row = []
            for name, bands in (("direct", d), ("indirect", ind)):
                if i < len(bands):
                    row += [_p(_band(bands[i])), _p(f"<b>{_signed(bands[i]['value'])}</b>" +
                                                    _dag(src.reconstructed(f"/range_modifiers/{name}/{i}")))]
                else:
                    row += ["", ""]
            rows.append(row)
        out += [KeepTogether([para("Range modifiers (only the most favourable applies, \u00a79.23)", H3),
                              _table(rows)])]
    out += _modifiers(tables, "fire_modifiers", "Fire modifiers (added to 3d6)", lang)
    return out


def _morale(model: DesertSteel, lang: str) -> list:
    tables = model.rule_tables or {}
    st = tables.get("settings", {})
    src = sources(tables)
    out = [para("Morale", H2)]
    out.append(para("Morale test: roll 2d6 and add the modifiers below; the unit or formation passes if the total is "
                    "at most the morale on its combat card (\u00a710.1). A unit that fails is suppressed, a formation "
                    "shaken (\u00a710.12)."
                    + (f" An unmodified {st['morale_steel_roll']} is steel: the unit gains a level of experience "
                       "(\u00a710.31)." if "morale_steel_roll" in st else ""), BODY))
    mods = [m for m in tables.get("morale_modifiers") or [] if not m.get("id", "").startswith("separated")]
    if mods:
        rows = [[_p("Morale modifier", True), _p("", True), _p("\u00a7", True)]]
        allm = tables.get("morale_modifiers")
        for m in mods:
            i = allm.index(m)
            rows.append([_p(esc(lang_text(m.get("label"), lang))), _p(f"<b>{_signed(m['value'])}</b>" +
                                                                      _dag(src.reconstructed(f"/morale_modifiers/{i}"))),
                         _p(m.get("section", ""))])
        out.append(_table(rows, [None, 30, 30]))
    # separation
    sep = []
    for key, what in (("fire_modifiers", "fire"), ("morale_modifiers", "morale")):
        allm = tables.get(key) or []
        for i, m in enumerate(allm):
            if m.get("id", "").startswith("separated"):
                sep.append((lang_text(m.get("label"), lang), what, m["value"], src.reconstructed(f"/{key}/{i}")))
    if sep or any(k.startswith("doctrine_radius") for k in st):
        out.append(para("Separation (\u00a711)", H3))
        radii = [(k.replace("doctrine_radius_", "").capitalize(), v) for k, v in st.items()
                 if k.startswith("doctrine_radius")]
        if radii:
            out.append(para("A unit more than its doctrine radius from every other unit of its formation is "
                            "separated: " + ", ".join(f"{n} {v} hexes" for n, v in radii)
                            + _dag(src.reconstructed("/settings/doctrine_radius_german")) + ".", SMALL))
        rows = [[_p("Separated unit", True), _p("Roll", True), _p("", True)]]
        for label, what, value, mark in sep:
            rows.append([_p(esc(label)), _p(what), _p(f"<b>{_signed(value)}</b>" + _dag(mark))])
        out.append(_table(rows, [None, 38, 30]))
    return out


def aids_story(doc: Doc, model: DesertSteel) -> list:
    lang = doc.lang
    story: list = [para("How to read a counter (\u00a72.11)", H2), CounterKey(doc, model, 250),
                   para(f"A small {DAGGER} marks a value the rulebook does not print (it was reconstructed to fit the "
                        "rules and every worked example): check it against the published charts.", SMALL)]
    story += _terrain(model, lang)
    story += [CondPageBreak(120)] + _movement(model)
    story += [CondPageBreak(120)] + _spotting(model, lang)
    story += [CondPageBreak(150)] + _combat(model, lang)
    story += [CondPageBreak(120)] + _morale(model, lang)
    return story


def draw_aids(doc: Doc, model: DesertSteel, bookmark: str | None = None) -> None:
    flow(doc, aids_story(doc, model), "Play aids \u2014 the charts of the pack", bookmark, columns=2,
         subject="play aids")


def aids_pdf(model: DesertSteel, *, page: str = "a4", profile=None, lang: str = "en") -> tuple[bytes, list]:
    doc = Doc("Desert Steel play aids", "Charts: terrain effects, movement, stacking, spotting, combat results, "
              "morale, separation", page, profile or PrinterProfile(), lang)
    draw_aids(doc, model, bookmark="Play aids")
    return doc.save(), doc.findings
