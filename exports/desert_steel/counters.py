"""Countersheets: every unit counter a scenario (or the whole pack) needs, fronts and backs.

Front (§2.11), from top to bottom: the formation designation (left) and the unit's
symbols (right: the spotter star, ``T`` towed, ``CS`` close support, the engineer sign);
the unit type; the range box (bold lower edge when the unit can fire indirectly; for
infantry that fires at vehicles at range, two boxes one above the other: the upper one
the anti-infantry range, the lower one the anti-vehicle range, §12.13) and the movement
points; then anti-vehicle - defense - anti-infantry, ``•`` where the
unit cannot fire, the defense in white when the unit is lightly armoured (§13.12).
Back: the designation, the facing arrow (pointing at the same edge as the front's top),
the nation's emblem. Colours by nationality: German grey, Italian yellow-orange,
British brown, US green.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from reportlab.lib.colors import black, white

from sandtable.rules.desert_steel.model import CombatCard, DesertSteel, Scenario, UnitType

from . import symbols
from ..page import (COUNTER_SIZES, CUT_INSET, INK, LEGIBLE, MM, NATIONALITY_COLOUR, NATIONALITY_DARK, Doc,
                   outlined_text, text, width)
from ..sheets import Piece, draw_sheets

NATIONALITY_ORDER = ("german", "italian", "british", "us")
_TRANSPORT_IDS = {("truck", "german"): "de-truck", ("truck", "italian"): "it-truck", ("truck", "british"): "gb-truck",
                  ("truck", "us"): "us-truck", ("motorcycle", "german"): "de-motorcycle",
                  ("motorcycle", "italian"): "it-motorcycle", ("halftrack", "german"): "de-sdkfz-251",
                  ("halftrack", "us"): "us-m3-halftrack"}


@dataclass(frozen=True)
class CounterSpec:
    """One counter to print: a unit type with the designation of its formation."""

    unit: UnitType
    designation: str  # "" for a transport of the scenario's pool (no formation, §13.32)
    card: int | None = None

    @property
    def subject(self) -> str:
        owner = f"card {self.card}" if self.card is not None else "transport pool"
        return f"counter {self.unit.id} ({owner})"


# --- which counters --------------------------------------------------------------------

def _card_side_year(scenario: Scenario, card_number: int) -> tuple[str, int] | None:
    for name, side in scenario.sides.items():
        numbers = [n for g in side.groups for n in g["cards"]] + [n for r in side.reinforcements for n in r["cards"]]
        if card_number in numbers:
            return name, side.year
    return None


def scenario_cards(model: DesertSteel, scenario: Scenario) -> list[tuple[str, int, object]]:
    """(side, year, card) for every card of a scenario, in the order the scenario lists them."""
    out, seen = [], set()
    for name in ("allied", "axis"):
        side = scenario.sides[name]
        numbers = [n for g in side.groups for n in g["cards"]] + [n for r in side.reinforcements for n in r["cards"]]
        for n in numbers:
            if n in seen or n not in model.cards:
                continue
            seen.add(n)
            out.append((name, side.year, model.cards[n]))
    return out


def removed_units(scenario: Scenario, side: str, card: int) -> dict[str, int]:
    """Unit types an undermanned formation leaves out (§18.5), by type id."""
    out: dict[str, int] = {}
    for entry in scenario.sides[side].raw.get("undermanned", ()):
        if entry["card"] == card:
            for r in entry["remove"]:
                out[r["type"]] = out.get(r["type"], 0) + r["count"]
    return out


def transport_unit(model: DesertSteel, t) -> UnitType | None:
    uid = t.get("unit_type") or _TRANSPORT_IDS.get((t["type"], t.get("nationality", "")))
    return model.unit_types.get(uid) if uid else None


def scenario_counters(model: DesertSteel, scenario: Scenario) -> list[CounterSpec]:
    """Every counter a scenario puts on the map: each combat card's units for its side's
    year, less the undermanned removals, then the transports of each side's pool."""
    out: list[CounterSpec] = []
    for side, year, card in scenario_cards(model, scenario):
        if not isinstance(card, CombatCard):
            continue  # command cards have no counters (§6.3)
        variant = card.variant(year)
        if variant is None:
            continue  # card-year-missing: validation reports it
        removed = removed_units(scenario, side, card.number)
        for uc in variant.units:
            n = max(0, uc.count - removed.get(uc.unit.id, 0))
            out.extend(CounterSpec(uc.unit, card.designation, card.number) for _ in range(n))
    for side in ("allied", "axis"):
        for t in scenario.sides[side].raw.get("transports", ()):
            unit = transport_unit(model, t)
            if unit is not None:
                out.extend(CounterSpec(unit, "", None) for _ in range(t["count"]))
    return out


def pack_counters(model: DesertSteel) -> list[CounterSpec]:
    """The whole pack's counter mix: for each combat card, each unit type at the largest
    count any of its year variants holds; and each pool transport at the largest count
    any scenario grants."""
    out: list[CounterSpec] = []
    cards = sorted(model.combat_cards(), key=lambda c: (_nat_index(c.nationality), c.number))
    for card in cards:
        most: dict[str, int] = {}
        units: dict[str, UnitType] = {}
        for year in sorted(card.variants):
            for uc in card.variants[year].units:
                units.setdefault(uc.unit.id, uc.unit)
                most[uc.unit.id] = max(most.get(uc.unit.id, 0), uc.count)
        for uid, n in most.items():
            out.extend(CounterSpec(units[uid], card.designation, card.number) for _ in range(n))
    pool: dict[str, int] = {}
    for s in model.scenarios.values():
        per: dict[str, int] = {}
        for side in ("allied", "axis"):
            for t in s.sides[side].raw.get("transports", ()):
                unit = transport_unit(model, t)
                if unit is not None:
                    per[unit.id] = per.get(unit.id, 0) + t["count"]
        for uid, n in per.items():
            pool[uid] = max(pool.get(uid, 0), n)
    for uid in sorted(pool, key=lambda u: (_nat_index(model.unit_types[u].nationality), u)):
        out.extend(CounterSpec(model.unit_types[uid], "", None) for _ in range(pool[uid]))
    return out


def _nat_index(nat: str) -> int:
    return NATIONALITY_ORDER.index(nat) if nat in NATIONALITY_ORDER else len(NATIONALITY_ORDER)


# --- drawing ---------------------------------------------------------------------------

def _fmt(v: int | None) -> str:
    return "\u2022" if v is None else str(v)


def _symbols(u: UnitType) -> list[str]:
    out = []
    if u.spotter or u.counts_as_observer:
        out.append("star")
    if u.towed:
        out.append("T")
    if u.close_support:
        out.append("CS")
    if u.engineer:
        out.append("engineer")
    return out


def _symbol_width(kind: str, h: float) -> float:
    if kind == "star":
        return h * 1.05
    if kind == "engineer":
        return h * 1.35
    return width(kind, "Sans-Bold", h * 1.05)


def _draw_symbol(doc: Doc, kind: str, x: float, base: float, h: float) -> None:
    c = doc.c
    if kind == "star":
        symbols.star(c, x + h * 0.525, base + h * 0.45, h * 0.58, INK)
    elif kind == "engineer":
        symbols.engineer(c, x, base - h * 0.02, h * 1.35, h * 0.9, INK)
    else:
        text(c, x, base, kind, "Sans-Bold", h * 1.05, INK)


def draw_front(doc: Doc, x: float, y: float, s: float, spec: CounterSpec) -> None:
    """The counter's front at (x, y), side s; background drawn by the caller."""
    u = spec.unit
    c = doc.c
    pad = _pad(s)
    inner = s - 2 * pad
    subject = spec.subject
    # top row: designation left, symbols right
    sym_h = 0.15 * s
    kinds = _symbols(u)
    gap = 0.03 * s
    sym_w = sum(_symbol_width(k, sym_h) for k in kinds) + gap * max(0, len(kinds) - 1)
    top_base = y + s - pad - 0.13 * s
    sx = x + s - pad - sym_w
    for k in kinds:  # the star's tips reach 0.155 s above their base: kept inside the pad
        _draw_symbol(doc, k, sx, top_base - 0.03 * s, sym_h)
        sx += _symbol_width(k, sym_h) + gap
    if spec.designation:
        room = inner - sym_w - (0.05 * s if kinds else 0)
        t, size = doc.fit(spec.designation, "Cond-Bold", 0.17 * s, room, subject, what="formation designation")
        text(c, x + pad, top_base, t, "Cond-Bold", size, INK)
    # unit type
    label = (u.raw.get("art") or {}).get("front_label") or u.name
    _draw_name(doc, label, x, y, s, subject, two_ranges=u.anti_vehicle_range is not None and u.range is not None)
    # range box(es) and movement points
    box_y, box_h = y + 0.31 * s, 0.19 * s
    num = 0.15 * s
    c.setStrokeColor(INK)
    c.setLineWidth(max(0.35, 0.012 * s))
    if u.anti_vehicle_range is not None and u.range is not None:
        # two ranges (§12.13): the anti-infantry range in the upper box, the anti-vehicle range in the
        # lower one, stacked at the left, each a little smaller than a single box
        bh2, num2 = 0.135 * s, max(0.11 * s, LEGIBLE)  # legible on 1/2" counters too
        for value, by, bold in ((u.range, y + 0.435 * s, u.indirect_fire), (u.anti_vehicle_range, y + 0.30 * s, False)):
            label = str(value)
            bw = max(0.22 * s, width(label, "Sans-Bold", num2) + 0.07 * s)
            c.setLineWidth(max(0.35, 0.012 * s))
            c.rect(x + pad, by, bw, bh2, stroke=1, fill=0)
            if bold:
                c.setLineWidth(0.05 * s)
                c.line(x + pad, by, x + pad + bw, by)
            text(c, x + pad + bw / 2, by + 0.033 * s, label, "Sans-Bold", num2, INK, align="center")
    else:
        value = u.anti_vehicle_range if u.range is None else u.range
        if value is not None:
            bold = u.indirect_fire and u.range is not None
            label = str(value)
            bw = max(0.27 * s, width(label, "Sans-Bold", num) + 0.08 * s)
            bx = x + pad
            c.rect(bx, box_y, bw, box_h, stroke=1, fill=0)
            if bold:  # indirect fire: the lower edge of the box is bold (§12.3)
                c.setLineWidth(0.05 * s)
                c.line(bx, box_y, bx + bw, box_y)
            text(c, bx + bw / 2, box_y + 0.045 * s, label, "Sans-Bold", num, INK, align="center")
    if u.movement is not None:
        text(c, x + s - pad, box_y + 0.045 * s, str(u.movement), "Sans-Bold", 0.17 * s, INK, align="right")
    # factors: anti-vehicle - defense - anti-infantry
    parts = [_fmt(u.anti_vehicle), "-", str(u.defense), "-", _fmt(u.anti_infantry)]
    joined = "".join(parts)
    _, size = doc.fit(joined, "Sans-Bold", 0.24 * s, inner, subject, what="fire and defense factors")
    total = width(joined, "Sans-Bold", size)
    fx = x + (s - total) / 2
    base = y + pad  # digits have no descenders: the baseline sits on the inset
    for i, part in enumerate(parts):
        w = width(part, "Sans-Bold", size)
        if i == 2 and u.lightly_armored:
            outlined_text(doc.c, fx, base, part, "Sans-Bold", size, white, black, max(0.25, size * 0.045),
                          align="left")
        else:
            text(c, fx, base, part, "Sans-Bold", size, INK)
        fx += w


def _pad(s: float) -> float:
    """The counter's inner margin: 7 % of its side, and never less than CUT_INSET (and a hair)."""
    return max(0.07 * s, CUT_INSET + 0.1 * MM)


def _draw_name(doc: Doc, label: str, x: float, y: float, s: float, subject: str, two_ranges: bool = False) -> None:
    """The unit type, on one line, or on two when one line would shrink it too much. Above two
    stacked range boxes there is room for one line only, a little higher."""
    base, room = 0.155 * s, s - 2 * _pad(s)
    if two_ranges:
        t, size, font = doc.fit_font(label, ("Cond-Bold", "Cond"), 0.14 * s, room, subject, what="unit type name")
        text(doc.c, x + s / 2, y + 0.615 * s, t, font, size, INK, align="center")
        return
    one = base * min(1.0, room / max(width(label, "Cond-Bold", base), 1e-6))
    words = label.split()
    if one < 0.8 * base and len(words) > 1:
        best = min((max(width(" ".join(words[:i]), "Cond-Bold", base), width(" ".join(words[i:]), "Cond-Bold", base)),
                    i) for i in range(1, len(words)))
        lines = [" ".join(words[:best[1]]), " ".join(words[best[1]:])]
        lines, size = doc.fit_lines(lines, "Cond-Bold", min(base, 0.125 * s), room, 0.27 * s, subject,
                                    what="unit type name", leading=1.0)
        if len(lines) == 2 and size > one:
            text(doc.c, x + s / 2, y + 0.645 * s, lines[0], "Cond-Bold", size, INK, align="center")
            text(doc.c, x + s / 2, y + 0.645 * s - size * 1.05, lines[1], "Cond-Bold", size, INK, align="center")
            return
    t, size, font = doc.fit_font(label, ("Cond-Bold", "Cond"), base, room, subject, what="unit type name")
    text(doc.c, x + s / 2, y + 0.555 * s, t, font, size, INK, align="center")


def draw_back(doc: Doc, x: float, y: float, s: float, spec: CounterSpec) -> None:
    """The counter's back: designation, facing arrow, national emblem."""
    u = spec.unit
    c = doc.c
    pad = _pad(s)
    if spec.designation:
        t, size = doc.fit(spec.designation, "Cond-Bold", 0.2 * s, s - 2 * pad, spec.subject,
                          what="formation designation")
        text(c, x + s / 2, y + s - pad - 0.17 * s, t, "Cond-Bold", size, INK, align="center")
    dark = NATIONALITY_DARK.get(u.nationality, black)
    symbols.arrow(c, x + s / 2, y + 0.12 * s, y + 0.66 * s, 0.07 * s, 0.22 * s, 0.17 * s, dark)
    symbols.emblem(c, u.nationality, x + 0.2 * s, y + 0.2 * s, 0.1 * s)


def counter_pieces(specs: Sequence[CounterSpec], size: float) -> list[Piece]:
    pieces = []
    for spec in specs:
        colour = NATIONALITY_COLOUR.get(spec.unit.nationality, white)
        pieces.append(Piece(spec.subject,
                            lambda d, x, y, sp=spec: draw_front(d, x, y, size, sp), colour,
                            lambda d, x, y, sp=spec: draw_back(d, x, y, size, sp), colour,
                            group=spec.unit.nationality))
    return pieces


def check_counter_size(doc: Doc, model: DesertSteel, configuration, size: float, size_name: str = "") -> None:
    """A counter wider than the true-scale hex (18.67 mm across the flats for the 56 cm maps)
    overlaps the hex sides: 3/4" (19.05 mm) counters do. Reported, not refused: some players
    prefer them and play on a map printed larger."""
    from .mapsheet import hex_flats
    if configuration is None:
        configuration = next(iter(model.configurations.values()), None)
    if configuration is None:
        return
    flats = hex_flats(model, configuration)
    if size > flats + 1e-6:
        doc.report("print-counter-over-hex", f"{size_name or f'{size / MM:.2f} mm'} counters are {size / MM:.2f} mm "
                   f"wide, more than the true-scale hex ({flats / MM:.2f} mm across the flats): they will overlap "
                   "the hex sides; 5/8\" (15.9 mm) counters fit", "counter size")


def counter_size(name: str) -> float:
    try:
        return COUNTER_SIZES[name]
    except KeyError:
        raise ValueError(f"counter size must be one of {', '.join(COUNTER_SIZES)}") from None


def draw_countersheets(doc: Doc, specs: Sequence[CounterSpec], size: float, heading: str, *,
                       bleed: float = 1.5 * MM, cut_lines: bool = True, bookmark: str | None = None):
    plan = draw_sheets(doc, counter_pieces(specs, size), size, size, heading=heading, backs=True, bleed=bleed,
                       cut_lines=cut_lines, rows_by_group=True, bookmark=bookmark)
    doc.report_small(f"{size_name(size)} counters")
    return plan


def size_name(size: float) -> str:
    """5/8\" for a 45 pt counter; millimetres for a size of no name."""
    for name, value in COUNTER_SIZES.items():
        if abs(value - size) < 1e-6:
            return f"{name}\u2033"
    return f"{size / MM:.1f} mm"


def counters_pdf(model: DesertSteel, scenario: Scenario | None = None, *, size: str = "5/8", page: str = "a4",
                 profile=None, bleed_mm: float = 1.5, cut_lines: bool = True, lang: str = "en") -> tuple[bytes, list]:
    """The countersheets of a scenario, or of the whole pack when no scenario is given."""
    from ..page import PrinterProfile
    s = counter_size(size)
    if scenario is None:
        specs, what = pack_counters(model), "every counter of the pack"
    else:
        specs, what = scenario_counters(model, scenario), f"{scenario.number} {scenario.name}"
    doc = Doc(f"Desert Steel countersheets \u2014 {what}", f"{len(specs)} counters, {size} in, fronts and backs",
              page, profile or PrinterProfile(), lang, duplex=True)
    check_counter_size(doc, model, scenario.configuration if scenario else None, s, f'{size}"')
    draw_countersheets(doc, specs, s, f"Counters \u2014 {what} \u2014 {len(specs)} counters, {size} in",
                       bleed=bleed_mm * MM, cut_lines=cut_lines, bookmark=f"Counters: {what}")
    return doc.save(), doc.findings
