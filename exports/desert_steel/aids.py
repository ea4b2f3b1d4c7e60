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

from contextvars import ContextVar

from reportlab.lib.colors import HexColor, white
from reportlab.platypus import CondPageBreak, KeepTogether, Spacer, Table, TableStyle
from reportlab.platypus.flowables import Flowable

from sandtable.rules.desert_steel import rules_tables as rt
from sandtable.rules.desert_steel.engine.tables import Tables
from sandtable.rules.desert_steel.model import DesertSteel

from .counters import CounterSpec, draw_back, draw_front
from ..flow import BODY, CELL, CELL_BOLD, H2, H3, SMALL, esc, flow, para
from ..lang import tr
from ..page import GREY, INK, LIGHT, NATIONALITY_COLOUR, TERRAIN_COLOUR, Doc, PrinterProfile, lang_text, text
from ..provmarks import DAGGER, sources
from .rule_aids import (CHARTS, Topic, adjacent_anti_infantry, modifier_lines, modifier_value, table_value,
                        topics)

_HEAD = HexColor("#e9e1cf")
_RESULT = {"miss": "Miss", "hit": "Hit", "destroyed": "Destroyed"}


_LANG: ContextVar[str] = ContextVar("aids_lang", default="en")


def _t(text_: str, **fields) -> str:
    """A heading, label or sentence in the language of the aids being drawn (exports/lang.py)."""
    return tr(_LANG.get(), text_, **fields)


def _num(v) -> str:
    """A fraction as the language writes it (0.5, 0,5)."""
    s = f"{v:g}"
    return s.replace(".", ",") if _LANG.get() == "fr" else s


def _t_result(r: str) -> str:
    out = _result(r)
    if _LANG.get() != "fr":
        return out
    return out.replace("Destroyed", "D\u00e9truit").replace("Miss", "Rat\u00e9").replace("Hit", "Touch\u00e9")


def _morale_label(m, lang: str) -> str:
    """A morale modifier's label: the table's own in English; in French the chart's words (lang_aids.py) rather
    than the rulebook sentence the table quotes as its source."""
    if lang == "fr":
        from .lang_aids import MORALE_FR
        fr = MORALE_FR.get(m.get("id", ""))
        if fr:
            return fr
    return lang_text(m.get("label"), lang) or m.get("id", "")


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
    if v is None:  # the pack lacks it (the engine would stop there)
        return "\u2014"
    if isinstance(v, (int, float)):
        s = f"{v:g}"
        return ("+" + s) if v > 0 else s.replace("-", "\u2212")
    return str(v)


def _table(rows: list[list], widths: list | None = None, header_rows: int = 1, extra: list | None = None) -> Table:
    t = Table(rows, colWidths=widths, repeatRows=header_rows, hAlign="LEFT")
    style = [("FONTNAME", (0, 0), (-1, -1), "Sans"),  # plain cells too: never ReportLab's default Helvetica
             ("GRID", (0, 0), (-1, -1), 0.35, LIGHT), ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
             ("TOPPADDING", (0, 0), (-1, -1), 1.6), ("BOTTOMPADDING", (0, 0), (-1, -1), 1.6),
             ("LEFTPADDING", (0, 0), (-1, -1), 3), ("RIGHTPADDING", (0, 0), (-1, -1), 3)]
    if header_rows:
        style.append(("BACKGROUND", (0, 0), (-1, header_rows - 1), _HEAD))
    t.setStyle(TableStyle(style + (extra or [])))
    return t


def _p(s, bold=False):
    return para(s, CELL_BOLD if bold else CELL)


class CounterKey(Flowable):
    """A counter drawn large, front and back, with what each figure means (§2.11); then an
    infantry counter with two ranges (§12.13)."""

    def __init__(self, doc: Doc, model: DesertSteel, width: float):
        super().__init__()
        self.doc, self.model, self.w = doc, model, width
        unit = model.unit_types.get("de-pz-vi-e") or next(iter(model.unit_types.values()), None)
        self.unit = unit
        self.infantry = next((u for u in model.unit_types.values()
                              if u.anti_vehicle_range is not None and u.range is not None), None)
        self.s = 66
        self.h = (self.s + 22 if unit else 0) + (self.s + 16 if self.infantry else 0)

    def wrap(self, aw, ah):
        self.w = min(self.w, aw)
        return self.w, self.h

    def _notes(self, c, s, y, notes) -> None:
        lx = s + 8
        for ny, lines in notes:
            c.setStrokeColor(GREY)
            c.setLineWidth(0.4)
            c.line(s - 3, ny + 2, lx - 1, ny + 2)
            for i, line in enumerate(lines):
                text(c, lx, ny - i * 7, line, "Sans", 5.8, INK)

    def _counter(self, c, unit, fx, y, face, designation):
        s = self.s
        c.setFillColor(NATIONALITY_COLOUR.get(unit.nationality, white))
        c.setStrokeColor(INK)
        c.setLineWidth(0.6)
        c.rect(fx, y, s, s, stroke=1, fill=1)
        with self.doc.muted():
            (draw_front if face == "front" else draw_back)(self.doc, fx, y, s, CounterSpec(unit, designation, 1))

    def draw(self):
        if self.unit is None:
            return
        c = self.canv
        s = self.s
        y = self.h - s - 4
        back_x = self.w - s - 2
        for face, fx in (("front", 0), ("back", back_x)):
            self._counter(c, self.unit, fx, y, face, "501")
            label = self.doc.t(face) + (self.doc.t(": designation, facing arrow, nation") if face == "back" else "")
            if face == "back":  # under the back counter, ending at its right edge: never past the column
                text(c, fx + s, y - 9, label, "Sans-Oblique", 6, GREY, align="right")
            else:
                text(c, fx + s / 2, y - 9, label, "Sans-Oblique", 6, GREY, align="center")
        self._notes(c, s, y, [
            (y + s * 0.86, [self.doc.t("designation \u00b7 \u2605 spotter, T towed,"), self.doc.t("CS close support, engineer sign")]),
            (y + s * 0.58, [self.doc.t("unit type")]),
            (y + s * 0.38, [self.doc.t("range (bold lower edge: indirect)"), self.doc.t("\u00b7 movement points")]),
            (y + s * 0.1, [self.doc.t("anti-vehicle \u2013 defense \u2013 anti-infantry"), self.doc.t("\u2022 cannot fire; white defense:"),
                           self.doc.t("lightly armoured")])])
        if self.infantry is None:
            return
        y -= s + 16
        self._counter(c, self.infantry, 0, y, "front", "B/6")
        u = self.infantry
        self._notes(c, s, y, [
            (y + s * 0.50 - 2, [self.doc.t("upper box: anti-infantry range ({n}), \u00a712.13", n=u.range)]),
            (y + s * 0.34, [self.doc.t("lower box: anti-vehicle range ({n}): fires at", n=u.anti_vehicle_range),
                            self.doc.t("vehicles at range (Boys, bazooka)")]),
            (y + s * 0.08, [self.doc.t("infantry with one box fires at vehicles"), self.doc.t("only in its own hex (\u00a712.13)")])])


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
        return [para(_t("The pack has no terrain-effects table."), SMALL)]
    src = sources(eff)
    out = [para(_t("Terrain effects"), H2)]
    # relief: levels by colour band
    colours = ["sand", "tan", "ochre", "brown"]
    for v in eff["relief"]["values"].values():
        for k in v.get("levels", {}):
            if k not in colours:
                colours.append(k)
    rows = [[_p(_t("Relief (\u00a73.4)"), True)] + [_p(_t(c.capitalize()), True) for c in colours]]
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
            row.append(_p(_t("level {n}", n=lv) + _dag(src.reconstructed(f"/relief/values/{vid}/levels"))))
        rows.append(row)
    out.append(KeepTogether([para(_t("Elevation level of each map colour, by relief"), H3),
                             _table(rows, extra=extra)]))
    costs = (tables.get("movement_costs") or {}).get("terrain", {})
    rows = [[_p(_t("Zone (\u00a73.3)"), True), _p(_t("Clear hexes"), True), _p(_t("Vehicle MP"), True), _p(_t("Entrenching"), True)]]
    for vid, v in eff["zone"]["values"].items():
        ground = v.get("ground", vid)
        mp = costs.get(ground, {}).get("vehicle", "\u2014")
        rows.append([_p(esc(lang_text(v.get("label"), lang) or vid)), _p(esc(_t(ground))),
                     _p(_signed(mp).lstrip("+") + _dag(src.reconstructed(f"/zone/values/{vid}"))),
                     _p(_t("allowed" if v.get("entrenchment") else "not allowed (\u00a713.41)") +
                        _dag(src.reconstructed(f"/zone/values/{vid}/entrenchment")))])
    out.append(Spacer(0, 5))
    out.append(_table(rows))
    rows = [[_p(_t("Urbanization (\u00a73.2)"), True), _p(_t("Building hexes are"), True)]]
    for vid, v in eff["urbanization"]["values"].items():
        rows.append([_p(esc(lang_text(v.get("label"), lang) or vid)),
                     _p(_t("buildings: cover, block line of sight" if v.get("building_hexes") == "building"
                           else "clear terrain") + _dag(src.reconstructed(f"/urbanization/values/{vid}/building_hexes")))])
    out.append(Spacer(0, 5))
    out.append(_table(rows))
    rows = [[_p(_t("Road network (\u00a73.5)"), True), _p(_t("Red lines"), True), _p(_t("Brown lines"), True)]]
    for vid, v in eff["road_network"]["values"].items():
        rows.append([_p(esc(lang_text(v.get("label"), lang) or vid)),
                     _p(esc(_t(v.get("road", ""))) + _dag(src.reconstructed(f"/road_network/values/{vid}/road"))),
                     _p(esc(_t(v.get("track", ""))) + _dag(src.reconstructed(f"/road_network/values/{vid}/track")))])
    out.append(Spacer(0, 5))
    out.append(_table(rows))
    rnd = (tables.get("random_conditions") or {}).get("tables")
    if rnd:
        tsrc = sources(tables)
        keys = list(rnd)
        rows = [[_p(_t("1d6"), True)] + [_p(_t(k.replace("_", " ").capitalize()), True) for k in keys]]
        for die in "123456":
            row = [_p(die, True)]
            for k in keys:
                v = rnd[k].get(die, "")
                label = lang_text((eff.get(k, {}).get("values", {}).get(v, {}) or {}).get("label"), lang) or str(v)
                row.append(_p(esc(label) + _dag(tsrc.reconstructed(f"/random_conditions/tables/{k}/{die}"))))
            rows.append(row)
        out.append(KeepTogether([para(_t("Random Battle Conditions Table (\u00a73.11)"), H3), _table(rows)]))
    return out


def _movement(model: DesertSteel) -> list:
    tables = model.rule_tables or {}
    mc = tables.get("movement_costs")
    if not mc:
        return []
    src = sources(tables)
    cols = list(mc.get("columns", ("vehicle", "non_vehicle")))
    rows = [[_p(_t("Terrain (\u00a78)"), True)] + [_p(_t(c.replace("_", "-").capitalize()), True) for c in cols]]
    for terrain, costs in mc["terrain"].items():
        row = [_p(esc(_t(terrain.replace("_", " ").capitalize())))]
        for col in cols:
            v = costs.get(col, "\u2014")
            shown = {"all": _t("all MP"), "prohibited": _t("prohibited")}.get(
                v, f"{v:g}" if isinstance(v, (int, float)) else v)
            if shown == "0.5":
                shown = "\u00bd"
            row.append(_p(esc(shown) + _dag(src.reconstructed(f"/movement_costs/terrain/{terrain}/{col}"))))
        rows.append(row)
    st = tables.get("settings", {})
    notes = []
    if "climb_cost_fraction" in st:
        notes.append(_t("Entering a higher hex costs {f} of the unit's MP, rounded {r}, or the terrain cost if more",
                        f=_num(st["climb_cost_fraction"]), r=_t(st.get("climb_cost_rounding", "up")))
                     + _dag(src.reconstructed("/settings/climb_cost_fraction")) + ".")
    if st.get("road_ignores_climb_and_mud"):
        notes.append(_t("Along a road or track: no climb, no zone cost (\u00a78.3)")
                     + _dag(src.reconstructed("/settings/road_ignores_climb_and_mud")) + ".")
    if "minimum_move_hexes" in st:
        notes.append(_t("A unit may always move {n} hex whatever it costs (\u00a78.1).", n=st["minimum_move_hexes"]))
    if "move_and_fire_mp_fraction" in st:
        notes.append(_t("Move-and-fire: {f} of the MP, rounded {r} (\u00a79.52).", f=_num(st["move_and_fire_mp_fraction"]),
                        r=_t(st.get("move_and_fire_mp_rounding", "down"))))
    out = [para(_t("Movement costs"), H2), _table(rows)]
    out += [para(n, SMALL) for n in notes]
    stack = tables.get("stacking")
    if stack:
        d = stack["default"]
        rows = [[_p(_t("Stacking (\u00a78.5)"), True), _p(_t("Units"), True), _p(_t("Vehicles"), True)],
                [_p(_t("Any hex, per player")), _p(str(d.get("units", "\u2014")) + _dag(src.reconstructed("/stacking"))),
                 _p(str(d.get("vehicles", "\u2014")) + _dag(src.reconstructed("/stacking")))]]
        for terrain, lim in (stack.get("by_terrain") or {}).items():
            rows.append([_p(esc(_t(terrain))), _p(str(lim.get("units", "\u2014"))), _p(str(lim.get("vehicles", "\u2014")))])
        out += [Spacer(0, 5), _table(rows)]
    return out


_KIND_LETTER = {rt.DIRECT: "D", rt.INDIRECT: "I", rt.RAID: "R", rt.ZONE: "Z"}


def _modifier_chart(model: DesertSteel, chart: str, title: str) -> list:
    """The spotting ("spot") or fire ("fire") modifiers: one line per row of the modifier table
    (rules_tables.MODIFIERS) that enters that kind of roll, its value as the engine reads it from the
    pack, its \u00a7 and the condition in the aids' language; the fire chart marks which kinds of fire each
    modifier enters."""
    lines = modifier_lines(model, chart)
    if not lines:
        return []
    tables = model.rule_tables or {}
    src = sources(tables)
    table = rt.value_table(CHARTS[chart][0])
    fire = chart == "fire"
    head = [_p(_t("Modifier"), True), _p("")] + ([_p(_t("Fire"), True)] if fire else []) + [_p("\u00a7", True)]
    rows = [head]
    for line in lines:
        label = esc(line.text(_LANG.get()))
        if line.pointer(_LANG.get()):
            label += f" <font color='#6d6d6d'>\u2192 {esc(line.pointer(_LANG.get()))}</font>"
        if not line.cumulative:
            label += f" <font color='#6d6d6d'>({_t('not cumulative')})</font>"
        if line.value is not None:
            value = f"<b>{_signed(line.value)}</b>" + _dag(src.reconstructed(f"/{table}/{line.index}"))
        else:
            value = "\u2014"
        row = [_p(label), _p(value)]
        if fire:
            row.append(_p("".join(_KIND_LETTER[k] for k in line.kinds)))
        row.append(_p(line.row.section))
        rows.append(row)
    widths = [None, 22, 26, 50] if fire else [None, 22, 50]
    # the heading starts a chart only with room for its first lines under it; a long chart then runs on into the
    # next column, its header repeated
    out = [CondPageBreak(110), para(_t(title), H3)]
    if fire:
        out.append(para(_t("Fire: D direct (and opportunity, close assault, overrun), I indirect, R raid, Z fire "
                           "zone."), SMALL))
    return out + [_table(rows, widths)]


def _not_modifiers(model: DesertSteel) -> list:
    """\u00a713.28's bonus to both fire factors, which the fire modifiers' chart does not hold (it is no die-roll
    modifier), read as the engine reads it."""
    tables = model.rule_tables or {}
    value = table_value(Tables(tables), rt.INDIRECT, "self_spotting")
    if value is None:
        return []
    i = next(i for i, m in enumerate(tables.get("fire_modifiers") or ()) if m.get("id") == "self_spotting")
    return [para(_t("Not a die-roll modifier: an indirect-fire unit spotting its own target adds {v} to both its fire "
                    "factors (\u00a713.28).", v=f"<b>{_signed(value)}</b>" + _dag(
                        sources(tables).reconstructed(f"/fire_modifiers/{i}"))), SMALL)]


def _spotting(model: DesertSteel, lang: str) -> list:
    tables = model.rule_tables or {}
    st = tables.get("settings", {})
    src = sources(tables)
    do, dc = st.get("spotting_divisor_open", 3), st.get("spotting_divisor_cover", 2)
    steps = [
        "1. " + _t("The target must be within visibility and in line of sight (\u00a79.11\u20139.13)."),
        "2. " + _t("Spotting number: the distance in hexes divided by {o} in the open, by {c} if the target is in cover "
                   "(building hex or higher than the spotter), rounded {r}", o=do, c=dc,
                   r=_t(st.get("spotting_number_rounding", "up")))
        + _dag(src.reconstructed("/settings/spotting_divisor_open")) + " (\u00a79.14).",
        "3. " + _t("Roll 1d6, add the modifiers below: the target is spotted if the total is at least the spotting "
                   "number.") + (" " + _t("Same hex: spotted automatically.") if st.get("spotting_same_hex_automatic")
                                 else ""),
        "4. " + _t("Place a Spotted A, B or C marker when the spotter's C3 is A, B or C (\u00a79.18)."),
    ]
    return [para(_t("Spotting"), H2)] + [para(s, CELL) for s in steps] + _modifier_chart(
        model, "spot", "Spotting modifiers (added to 1d6)")


def _combat(model: DesertSteel, lang: str) -> list:
    tables = model.rule_tables or {}
    src = sources(tables)
    crt = tables.get("combat_results")
    out = [para(_t("Combat Results Table"), H2)]
    if crt:
        cols = crt["columns"]
        rows = [[_p(_t("Vehicle target"), True), "", _p(_t("Non-vehicle target"), True), ""]]
        n = max(len(cols["vehicle"]), len(cols["non_vehicle"]))
        for i in range(n):
            row = []
            for name in ("vehicle", "non_vehicle"):
                if i < len(cols[name]):
                    b = cols[name][i]
                    mark = src.reconstructed(f"/combat_results/columns/{name}/{i}")
                    row += [_p(f"<b>{_band(b)}</b>"), _p(_t_result(b["result"]) + _dag(mark))]
                else:
                    row += ["", ""]
            rows.append(row)
        out = [KeepTogether(out + [
            para(_t("Modified {dice}: the firer's fire factor minus the target's defense factor, plus the modifiers, "
                    "plus the dice (\u00a79.22).", dice=crt.get("dice", "3d6")), SMALL),
            _table(rows, [44, None, 44, None], extra=[("SPAN", (0, 0), (1, 0)), ("SPAN", (2, 0), (3, 0))])])]
    rm = tables.get("range_modifiers")
    if rm:
        rows = [[_p(_t("Range (hexes)"), True), _p(_t("Direct"), True), _p(_t("Range (hexes)"), True), _p(_t("Indirect"), True)]]
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
        st = tables.get("settings") or {}
        adjacent = para(_t("Adjacent anti-infantry fire in the advanced rules: {v} instead (\u00a712.14).",
                           v=f"<b>{_signed(adjacent_anti_infantry(model))}</b>" + _dag(
                               "adjacent_anti_infantry_range_modifier" in st and
                               src.reconstructed("/settings/adjacent_anti_infantry_range_modifier"))), SMALL)
        # like the modifier charts: begun where there is room, its header repeated in the next column
        out += [CondPageBreak(70), para(_t("Range modifiers (only the most favourable applies, \u00a79.23)"), H3),
                _table(rows), adjacent]
    out += _modifier_chart(model, "fire", "Fire modifiers (added to 3d6)")
    out += _not_modifiers(model)
    return out


def _morale(model: DesertSteel, lang: str) -> list:
    tables = model.rule_tables or {}
    st = tables.get("settings", {})
    src = sources(tables)
    out = [para(_t("Morale"), H2)]
    out.append(para(_t("Morale test: roll 2d6 and add the modifiers below; the unit or formation passes if the total "
                       "is at most the morale on its combat card (\u00a710.1). A unit that fails is suppressed, a "
                       "formation shaken (\u00a710.12).")
                    + (" " + _t("An unmodified {n} is steel: the unit gains a level of experience (\u00a710.31).",
                                n=st["morale_steel_roll"]) if "morale_steel_roll" in st else ""), CELL))
    # the separation rows are the separation topic's (\u00a711.5)
    mods = [m for m in tables.get("morale_modifiers") or [] if m.get("id") not in rt.SEPARATION_ROWS]
    if mods:
        rows = [[_p(_t("Morale modifier"), True), _p(_t(""), True), _p(_t("\u00a7"), True)]]
        allm = tables.get("morale_modifiers")
        for m in mods:
            i = allm.index(m)
            rows.append([_p(esc(_morale_label(m, lang))), _p(f"<b>{_signed(m['value'])}</b>" +
                                                                      _dag(src.reconstructed(f"/morale_modifiers/{i}"))),
                         _p(m.get("section", ""))])
        out.append(_table(rows, [None, 30, 30]))
    return out


def _topic(topic: Topic, lang: str) -> list:
    """A rule topic of exports/desert_steel/rule_aids.py: each statement with its \u00a7 beside it."""
    rows = [[_p(esc(line.text(lang))), _p(f"\u00a7{line.section}")] for line in topic.lines]
    return [KeepTogether([para(topic.title(lang), H3), _table(rows, [None, 36], header_rows=0)])]


def _rule_topics(model: DesertSteel, lang: str, keys: tuple[str, ...]) -> list:
    out = []
    for t in topics(model):
        if t.key in keys:
            out += _topic(t, lang)
    return out


def _st(tables, key: str, default=None):
    """A setting and its dagger when the rulebook does not print it."""
    value = (tables.get("settings") or {}).get(key, default)
    return value, _dag(sources(tables).reconstructed(f"/settings/{key}")) if key in (tables.get("settings") or {}) else ""


def _steps(title: str, steps: list[str], style=BODY) -> list:
    """Numbered steps; each step is a key of exports/desert_steel/lang_aids.py (or already translated)."""
    out = [para(_t(title), H3)]
    out += [para(f"<b>{i}.</b> {_t(step)}", style) for i, step in enumerate(steps, start=1)]
    return out


def _sequence(model: DesertSteel) -> list:
    out = [para(_t("Sequence of play (\u00a74)"), H2),
           para(_t("Each turn has three phases, in this order. No player goes first: card priority orders every "
                   "action (\u00a718.9)."), SMALL)]
    out += _steps("The turn", [
        "<b>Reinforcement Phase</b> (\u00a74.1, \u00a75): the cards of formations arriving this turn join their "
        "owner's hand; they must be activated and enter this turn, by the road or edge the scenario names. "
        "Skipped on turn 1 (\u00a718.9).",
        "<b>Operations Phase</b> (\u00a74.2, \u00a76\u2013\u00a79, \u00a712\u2013\u00a717): cards go on the "
        "stack, are interrupted and activated; the active units perform operations, until every card is played.",
        "<b>Morale Phase</b> (\u00a74.3): the eight steps below."], CELL)
    out += _steps("Morale Phase, step by step (\u00a74.3)", [
        "Flip face up the non-suppressed units of non-shaken formations; unload every transported unit "
        "(\u00a713.3).",
        "Formation checks: rally every shaken formation (compulsory), then check every formation that lost a unit "
        "this turn (\u00a710.2).",
        "Unit checks for suppressed units of non-shaken formations: success removes Suppressed, the unit stays "
        "flipped (\u00a710.22).",
        "Eliminate units over the stacking limits, owner's choice (\u00a78.52).",
        "Remove Fired, Moved, Flash kill, Spotted and Fire zone markers; roll for each smoke marker (\u00a717.4).",
        "Each combat formation's zone of operations: mark Separated units, unmark those back (\u00a711).",
        "Resolved and postponed raid cards under the deck; shuffle the raid deck (\u00a716.1).",
        "Advance the game turn marker (\u00a72.12)."], CELL)
    return out


def _nationality_order(model: DesertSteel) -> str:
    """The nationalities by card priority (\u00a76.43: the lower number wins), from the cards themselves."""
    numbers: dict[int, set] = {}
    names = {"german": "German", "italian": "Italian", "british": "Allied", "us": "Allied"}
    for card in model.cards.values():
        numbers.setdefault(card.nationality_number, set()).add(_t(names.get(card.nationality, card.nationality)))
    return " > ".join(f"{'/'.join(sorted(v))} ({k})" for k, v in sorted(numbers.items()))


def _cards_play(model: DesertSteel) -> list:
    from sandtable.rules.desert_steel.model import CommandCard

    from .reminders import command_reminder
    out = [para(_t("Cards: priority and interruption (\u00a76.4\u2013\u00a76.56)"), H2)]
    out += _steps("Playing cards", [
        "Every non-shaken combat card in hand must be played this phase; command cards are optional "
        "(\u00a76.41).",
        "When the stack is empty, the player holding the lowest-priority combat card (of both hands) plays it "
        "(\u00a76.42).",
        "Before the top card activates, either player may interrupt it with a card of higher priority, laid on "
        "top; if both do, both cards are shown and only the higher one stays (\u00a76.42). A player may "
        "interrupt his own card.",
        "When nobody interrupts, the top card activates: its face-up, non-suppressed units may operate; then the "
        "card is set aside and the card below is on top (\u00a76.51).",
        "An air-strike raid card interrupts any card, whatever its C3 (\u00a716.22)."], CELL)
    out += _steps("Priority, the higher wins (\u00a76.43)", [
        "The better C3 letter (A > B > C > D > E).",
        "Same C3: a command card beats a combat card.",
        "Same C3, two combat cards: the better experience (Veteran > Seasoned > Green).",
        _t("Then the better nationality: {order}.", order=_nationality_order(model))], CELL)
    seen, lines = set(), []
    for card in sorted((c for c in model.cards.values() if isinstance(c, CommandCard)),
                       key=lambda c: (c.nationality != "german", c.number)):
        key = (card.nationality == "german", card.hq is not None)
        if key in seen:
            continue
        seen.add(key)
        who = _t("German" if card.nationality == "german" else "Allied and Italian")
        lines.append(f"<b>{who}, {card.designation}:</b> " + esc(command_reminder(model, card, _LANG.get())))
    out.append(para(_t("Command cards (\u00a76.52\u2013\u00a76.54)"), H3))
    out += [para(line, CELL) for line in lines]
    out.append(para(_t("A command card may activate a subordinate already activated, or whose card is in hand or "
                       "lower in the stack; only face-up units act (\u00a76.54)."), CELL))
    out.append(para(_t("Options: <b>limited intelligence</b>, cards laid face down, only their C3 announced "
                       "(\u00a76.55); <b>limited interruption</b>, one attempt a card (\u00a76.56)."), SMALL))
    return out


def _operations(model: DesertSteel) -> list:
    tables = model.rule_tables or {}
    frac, d1 = _st(tables, "move_and_fire_mp_fraction", 0.5)
    ent, d2 = _st(tables, "entrenchment_turns", 2)
    rows = [[_p(_t("Operation"), True), _p(_t("Who"), True), _p(_t("What"), True), _p(_t("\u00a7"), True)]]
    for op, who, what, sec in (
            ("Move", "any", "hex to hex, paying the cost of each hex entered, up to the MP; flip", "8"),
            ("Fire", "any that can fire", "spot the target, then fire at it; flip", "9.1, 9.2"),
            ("Move and fire", "vehicles only", _t("first move with {f} of the MP{d}, then fire; flip", f=_num(frac),
                                                  d=d1), "9.5"),
            ("Anti-vehicle / anti-infantry fire", "advanced", "fire with one factor, at the target of that kind",
             "13.1"),
            ("Indirect fire", "bold-boxed range", "an observer of the formation spots; fire zone", "13.2"),
            ("Transport", "carriers", "load, move, unload in the Morale Phase", "13.3"),
            ("Entrench", "infantry, FO, artillery", _t("Entrenching marker, Entrenched after {n} turns{d}", n=ent,
                                                       d=d2), "13.4"),
            ("Close assault", "infantry", "morale check, move into a vehicle hex, fire", "14.1"),
            ("Overrun", "vehicles", "enter an infantry hex in the open, fire at every unit", "14.2"),
            ("Engineer", "engineers", "enter wire or a minefield, or clear it", "15.4")):
        rows.append([_p(f"<b>{_t(op)}</b>"), _p(_t(who)), _p(_t(what)), _p(sec)])
    return [KeepTogether([para(_t("Operations summary (\u00a72.4, \u00a77)"), H2),
                          para(_t("An active unit performs one operation a turn, declared when it starts; it must "
                                  "finish before another unit starts (close assault aside); it is then flipped "
                                  "(\u00a77\u2013\u00a77.2). Changing facing is free. Nothing is compulsory."),
                               CELL),
                          Spacer(0, 3), _table(rows, [66, 52, None, 30])])]


def _transport(model: DesertSteel) -> list:
    tables = model.rule_tables or {}
    morale, d1 = _st(tables, "transport_morale", 7)
    rows = [[_p(_t("Carrier"), True), _p(_t("Carries"), True), _p(_t("Infantry at most"), True), _p(_t("Tows"), True)]]
    for key, name in (("truck", "Truck"), ("motorcycle", "Motorcycle"),
                      ("light", "Carrier, Jeep, M3, SdKfz 251")):
        cap, dc = _st(tables, f"transport_{key}_capacity", "\u2014")
        inf, di = _st(tables, f"transport_{key}_max_infantry", "\u2014")
        tow, dt = _st(tables, f"transport_{key}_can_tow", False)
        rows.append([_p(_t(name)), _p(f"{cap}{dc}"), _p(f"{inf}{di}"), _p(_t("yes" if tow else "no") + dt)])
    out = [para(_t("Transport (\u00a713.3)"), H2)]
    out += _steps("Procedure", [
        "The carrier starts the Operations Phase in its passengers' hex.",
        "When the carrier is activated, its face-up passengers are loaded under it, flipped (no MP).",
        "The carrier moves with its full MP, passengers aboard; then it is flipped.",
        "Passengers stay aboard until the Morale Phase (step 1): no unloading before."], CELL)
    out += [Spacer(0, 3), _table(rows, [None, 40, 50, 30]),
            para(_t("A transporting carrier enters no enemy-occupied hex, neither it nor its passengers fire, and it "
                    "cannot overrun (\u00a713.35). Fire at it hits the carrier; passengers share the result: "
                    "suppressed, they are unloaded and suppressed; destroyed, they are eliminated (\u00a713.36). "
                    "Scenario transports belong to no formation, have morale {m}{d} and never count for victory "
                    "(\u00a713.31).", m=morale, d=d1), SMALL)]
    return out


def _smoke(model: DesertSteel) -> list:
    tables = model.rule_tables or {}
    per, d1 = _st(tables, "smoke_markers_per_bombardment", 3)
    removal, d2 = _st(tables, "smoke_removal_max_roll", 3)
    return [KeepTogether([para(_t("Smoke (\u00a717)"), H2)] + _steps("Procedure", [
        "Who: a unit firing indirectly, a bombardment, a British CS tank (one marker a turn, instead of its "
        "attack).",
        "Each marker costs one of the side's smoke points (record sheet); none when they are spent.",
        _t("Pick a hex instead of a unit: no spotting roll, it must be within the spotter's visibility. A "
           "bombardment places up to {n}{d} markers.", n=per, d=d1),
        _t("Smoke blocks line of sight through the hex; smoke in the spotter's or target's hex gives {v} to "
           "spotting instead. No effect on movement, stacking or fire.", v=_signed(modifier_value(model, "spot", "smoke"))),
        _t("Morale Phase step 5: roll 1d6 for each marker, removed on 1\u2013{n}{d}.", n=removal, d=d2)], CELL))]


def _raids(model: DesertSteel) -> list:
    tables = model.rule_tables or {}
    abort, d1 = _st(tables, "air_strike_abort_roll", 1)
    markers, d2 = _st(tables, "bombardment_markers", 3)
    per_fo, d3 = _st(tables, "bombardment_targets_per_observer", 3)
    out = [para(_t("Raids (\u00a716)"), H2),
           para(_t("The nine raid cards are one deck, face down on the record sheet (\u00a716.1). Each side writes "
                   "its plans on its own plan sheet, in secret, after set-up (\u00a718.4)."), CELL)]
    out += _steps("Air strike (\u00a716.2)", [
        "In the turn written for it (one a turn), interrupt any card: the top raid card goes face up on the stack.",
        "One Air strike marker per pass on an enemy unit: no spotting, no line of sight; each marker in or next to "
        "the hex of another.",
        _t("Roll 1d6 per marker: {n}{d} \u2014 the aircraft miss, the marker is removed.", n=abort, d=d1),
        "Each marker attacks its unit alone, as indirect fire: no range modifier, no fire zone, no flash kill."],
        CELL)
    out += _steps("Preplanned bombardment (\u00a716.31\u2013\u00a716.34)", [
        "Written: the turn and the formation (with an FO) that will spot it; one a formation a turn.",
        "When that formation activates in that turn, draw the top raid card onto the stack; cancelled if the turn "
        "ends first or none of its FOs can spot.",
        _t("{m}{d} Bombardment markers on enemy units its FOs see, each next to another; a spotting roll per unit "
           "(an FO tries up to {n}{e}); each spotted marker attacks its unit as indirect fire and leaves a fire "
           "zone.", m=markers, d=d2, n=per_fo, e=d3)], CELL)
    out += _steps("On-call bombardment (\u00a716.35\u2013\u00a716.37)", [
        "An active FO calls it: draw a raid card. \u201cImmediate\u201d: resolve it now, as above.",
        "Delayed 1 or 2 turns: write it on the plan sheet; when the formation activates that turn, draw a new card "
        "and resolve as preplanned."], CELL)
    return out


def _fortifications(model: DesertSteel) -> list:
    tables = model.rule_tables or {}
    av, d1 = _st(tables, "minefield_anti_vehicle", 12)
    ai, d2 = _st(tables, "minefield_anti_infantry", 8)
    trig, d3 = _st(tables, "friendly_minefield_trigger_rolls", "2,12")
    per_hex, d4 = _st(tables, "entrenchments_per_hex", 6)
    turns, d5 = _st(tables, "entrenchment_turns", 2)
    out = [para(_t("Fortifications (\u00a713.4, \u00a715)"), H2)]
    out += _steps("Minefields (\u00a715.1)", [
        "Written secretly on the plan sheet before any unit is set up; one a hex, never with an entrenchment, "
        "bunker or hidden FO.",
        _t("An enemy unit entering the hex: its owner announces it and attacks that unit, before any other fire: "
           "AV {av}{d1} against vehicles, AI {ai}{d2} against others, the differential the only modifier, 3d6.",
           av=av, d1=d1, ai=ai, d2=d2),
        _t("A friendly unit entering: roll 2d6, attacked on {rolls}{d}. A minefield not announced is lost.",
           rolls=trig.replace(",", " " + _t("or") + " "), d=d3)], CELL)
    out += _steps("Bunkers, wire, engineers (\u00a715.2\u2013\u00a715.4)", [
        _t("Bunker: one infantry or FO unit inside, under the marker; fire at it {v}; it cannot turn.",
           v=_signed(modifier_value(model, "fire", "target_in_bunker"))),
        "Wire: one a hex, never in buildings; entering it ends the move (see the movement costs).",
        "Engineer operation: move into an adjacent hex whatever the wire (a minefield there is revealed, 2d6 as "
        "friendly), or stay to remove the wire and deactivate the minefield."], CELL)
    out += _steps("Entrenchment (\u00a713.4)", [
        _t("An active infantry, FO or artillery unit: Entrenching marker; the same operation {n}{d} turns in a row "
           "makes it Entrenched.", n=turns, d=d5),
        _t("Not for vehicles, not in rocky zone, enemy or minefield hexes; at most {n}{d} a hex; removed with its "
           "occupant. Fire at an entrenched unit: {s} spotting, {f} fire.", n=per_hex, d=d4,
           s=_signed(modifier_value(model, "spot", "target_entrenched")),
           f=_signed(modifier_value(model, "fire", "target_entrenched")))], CELL)
    return out


def aids_story(doc: Doc, model: DesertSteel) -> list:
    lang = doc.lang
    token = _LANG.set(lang)
    try:
        return _aids_story(doc, model, lang)
    finally:
        _LANG.reset(token)


def _aids_story(doc: Doc, model: DesertSteel, lang: str) -> list:
    story: list = _sequence(model) + _cards_play(model) + _operations(model)
    story += [para(_t("How to read a counter (\u00a72.11)"), H2), CounterKey(doc, model, 250),
              para(_t("A small {dagger} marks a value the rulebook does not print (it was reconstructed to fit the "
                      "rules and every worked example): check it against the published charts.", dagger=DAGGER),
                   SMALL)]
    story += _terrain(model, lang)
    story += _movement(model)
    story += _rule_topics(model, lang, ("facing",))
    story += _spotting(model, lang)
    story += _combat(model, lang)
    story += _rule_topics(model, lang, ("opportunity", "flash", "move_fire"))
    story += _morale(model, lang)
    story += _rule_topics(model, lang, ("elimination", "separation", "assault"))
    story += _transport(model) + _smoke(model) + _raids(model)
    story += _rule_topics(model, lang, ("overrun", "fire_zones"))
    story += _fortifications(model)
    return story


def draw_aids(doc: Doc, model: DesertSteel, bookmark: str | None = None) -> None:
    flow(doc, aids_story(doc, model), doc.t("Play aids") + " \u2014 " + doc.t("the charts of the pack"), bookmark,
         columns=2,
         subject="play aids")


def aids_pdf(model: DesertSteel, *, page: str = "a4", profile=None, lang: str = "en") -> tuple[bytes, list]:
    doc = Doc("Desert Steel play aids", "Sequence of play, cards, operations, charts (terrain, movement, stacking, "
              "spotting, combat results, morale, separation), transport, smoke, raids, fortifications", page,
              profile or PrinterProfile(), lang)
    draw_aids(doc, model, bookmark="Play aids")
    return doc.save(), doc.findings
