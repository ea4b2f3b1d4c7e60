"""The markers sheet: every marker kind of §2.12, in the counts a scenario needs.

The rulebook lists the kinds but not how many of each a game needs (its 480 pieces are
counters and markers together). Counts here follow the scenario: one of each battle
condition marker; per side, status markers in proportion to its units; fortification
markers as the scenario grants them; raid markers when the side has raids. The rules
are in ``marker_counts`` (NOTES.d/exports.md) and the sheet says the counts are
reconstructed. A marker reads the same on both sides, except the entrenchment marker:
"entrenching" on one side, "entrenched" on the other (§13.4).
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from reportlab.lib.colors import Color, HexColor

from sandtable.rules.desert_steel.model import CombatCard, DesertSteel, Scenario

from . import symbols
from .counters import counter_size, scenario_cards, scenario_counters
from ..lang import marker_lines
from ..page import CUT_INSET, INK, LEGIBLE, MM, Doc, PrinterProfile, text, width
from ..sheets import Piece, draw_sheets

_CONDITION = HexColor("#efe6cf")
_STATUS = HexColor("#f4f1ea")
_FIRE = HexColor("#f2a65a")
_FORT = HexColor("#b7b08a")
_SMOKE = HexColor("#c9ccd1")
_RED = HexColor("#a61b1b")
_BLUE = HexColor("#1e3f80")


@dataclass(frozen=True)
class MarkerKind:
    id: str
    lines: tuple[str, ...]  # the label, one entry per line
    colour: Color
    ink: Color
    section: str
    back_lines: tuple[str, ...] | None = None  # another label on the back
    # a fire modifier the marker prints under its name: the modifier table's row id, its value the pack's
    modifier: str | None = None


def face(kind: MarkerKind, model: DesertSteel, back: bool = False) -> tuple[str, ...]:
    """The words of one face of a marker; a modifier it prints is read through the one modifier table
    (rules_tables.MODIFIERS), so a mod pack's marker shows the mod's value."""
    lines = (kind.back_lines or kind.lines) if back else kind.lines
    if kind.modifier is None:
        return lines
    from .rule_aids import modifier_value, signed
    return lines + (signed(modifier_value(model, "fire", kind.modifier)),)


KINDS: dict[str, MarkerKind] = {k.id: k for k in (
    MarkerKind("game-length", ("GAME", "LENGTH"), _CONDITION, INK, "2.12"),
    MarkerKind("game-turn", ("GAME", "TURN"), _CONDITION, INK, "2.12"),
    MarkerKind("visibility", ("VISIBILITY",), _CONDITION, INK, "2.12"),
    MarkerKind("urbanization", ("URBANIZATION",), _CONDITION, INK, "2.12"),
    MarkerKind("zone", ("ZONE",), _CONDITION, INK, "2.12"),
    MarkerKind("elevation", ("ELEVATION",), _CONDITION, INK, "2.12"),
    MarkerKind("road-network", ("ROAD", "NETWORK"), _CONDITION, INK, "2.12"),
    MarkerKind("north", ("NORTH",), _CONDITION, INK, "18.3"),
    MarkerKind("smoke-points", ("SMOKE", "POINTS"), _SMOKE, INK, "17.1"),
    MarkerKind("suppressed", ("SUPPRESSED",), _STATUS, _RED, "10.13"),
    MarkerKind("shaken", ("SHAKEN",), _STATUS, _RED, "10.14"),
    MarkerKind("separated", ("SEPARATED",), _STATUS, _RED, "11.1"),
    MarkerKind("fired", ("FIRED",), _STATUS, INK, "9.18"),
    MarkerKind("moved", ("MOVED",), _STATUS, INK, "9.15"),
    MarkerKind("spotted-a", ("SPOTTED", "A"), _STATUS, _BLUE, "9.18"),
    MarkerKind("spotted-b", ("SPOTTED", "B"), _STATUS, _BLUE, "9.18"),
    MarkerKind("spotted-c", ("SPOTTED", "C"), _STATUS, _BLUE, "9.18"),
    MarkerKind("flash-kill", ("FLASH", "KILL"), _STATUS, _RED, "9.35"),
    MarkerKind("seasoned", ("SEASONED",), _STATUS, INK, "10.31"),
    MarkerKind("veteran", ("VETERAN",), _STATUS, INK, "10.31"),
    MarkerKind("entrenched", ("ENTRENCHED",), _FORT, INK, "13.4", ("ENTRENCHING",)),
    MarkerKind("bunker", ("BUNKER",), _FORT, INK, "15.2", modifier="target_in_bunker"),
    MarkerKind("wire", ("WIRE",), _FORT, INK, "15.3"),
    MarkerKind("fire-zone", ("FIRE", "ZONE"), _FIRE, INK, "13.26"),
    MarkerKind("air-strike", ("AIR", "STRIKE"), _FIRE, INK, "16.2"),
    MarkerKind("bombardment", ("BOMBARDMENT",), _FIRE, INK, "16.3"),
    MarkerKind("smoke", ("SMOKE",), _SMOKE, INK, "17"),
)}


def _side_units(model: DesertSteel, scenario: Scenario, side: str) -> list:
    return [s for s in scenario_counters(model, scenario)
            if s.unit.side == side]


def marker_counts(model: DesertSteel, scenario: Scenario) -> list[tuple[str, int]]:
    """(marker kind, count) in sheet order; kinds a scenario never uses are left out."""
    counts: dict[str, int] = {k: 0 for k in KINDS}
    for k in ("game-length", "game-turn", "visibility", "urbanization", "zone", "elevation", "road-network", "north"):
        counts[k] = 1
    zone_ok = bool((model.terrain_effects or {}).get("zone", {}).get("values", {})
                   .get(scenario.conditions["zone"]["value"], {}).get("entrenchment", True))
    settings = (model.rule_tables or {}).get("settings", {})
    cards = scenario_cards(model, scenario)
    for side in ("allied", "axis"):
        raw = scenario.sides[side].raw
        units = _side_units(model, scenario, side)
        enemy = _side_units(model, scenario, "axis" if side == "allied" else "allied")
        n = len(units)
        if n == 0:
            continue
        combat = [(y, c) for s, y, c in cards if s == side and isinstance(c, CombatCard)]
        counts["suppressed"] += max(2, math.ceil(n / 3))
        counts["moved"] += max(2, math.ceil(n / 3))
        counts["fired"] += max(2, math.ceil(n / 3))
        counts["separated"] += max(1, math.ceil(n / 8))
        counts["flash-kill"] += max(1, math.ceil(sum(1 for u in units if u.unit.is_vehicle) / 8)) \
            if any(u.unit.is_vehicle for u in units) else 0
        counts["shaken"] += len(combat)  # on the formation cards (§10.14)
        experiences = [(c.variant(y).experience if c.variant(y) else "") for y, c in combat]
        green = sum(1 for e in experiences if e == "green")
        seasoned = sum(1 for e in experiences if e == "seasoned")
        counts["seasoned"] += math.ceil(green / 2)
        counts["veteran"] += math.ceil(seasoned / 2)
        letters = {(c.variant(y).c3 if c.variant(y) else "") for y, c in combat}
        for letter in "abc":
            if letter.upper() in letters:
                counts[f"spotted-{letter}"] += max(1, math.ceil(len(enemy) / 6))
        forts = raw.get("fortifications", {})
        infantry = sum(1 for u in units if not u.unit.is_vehicle)
        counts["entrenched"] += forts.get("entrenchments", {}).get("count", 0) + \
            (math.ceil(infantry / 3) if zone_ok and infantry else 0)
        counts["bunker"] += forts.get("bunkers", {}).get("count", 0)
        counts["wire"] += forts.get("wire", {}).get("count", 0)
        raids = raw.get("raids", {})
        if raids.get("air_strikes"):
            counts["air-strike"] += max((r.air_strike.get("passes", 0) for r in model.raid_cards.values()), default=3)
        bombard = raids.get("preplanned_bombardments", 0) + raids.get("on_call_bombardments", 0)
        indirect = sum(1 for u in units if u.unit.indirect_fire)
        if bombard:
            counts["bombardment"] += settings.get("bombardment_markers", 3)
        if bombard or indirect:
            counts["fire-zone"] += (settings.get("bombardment_markers", 3) if bombard else 0) + indirect
        smoke = raw.get("smoke", 0)
        if smoke:
            counts["smoke-points"] += 1
            counts["smoke"] += min(smoke, 10)
    return [(k, v) for k, v in counts.items() if v > 0]


def _draw_label(doc: Doc, kind: MarkerKind, lines: tuple[str, ...], x: float, y: float, s: float) -> None:
    pad = max(0.08 * s, CUT_INSET + 0.02 * MM)
    lines = marker_lines(doc.lang, lines)  # the marker's words in the document's language
    if kind.id == "north":
        symbols.arrow(doc.c, x + s / 2, y + 0.3 * s, y + s - pad, 0.08 * s, 0.28 * s, 0.22 * s, kind.ink)
        word = doc.t("NORTH")
        size = doc.note_size(min(0.2 * s, (s - 2 * pad) / max(1e-6, doc.c.stringWidth(word, "Cond-Bold", 1))),
                             "marker label", word, f"marker {kind.id}")
        text(doc.c, x + s / 2, y + pad + 0.02 * s, word, "Cond-Bold", size, kind.ink, align="center")
        return
    if kind.id.startswith("spotted-"):
        _, size = doc.fit(lines[0], "Cond-Bold", 0.17 * s, s - 2 * pad, f"marker {kind.id}", what="marker label")
        text(doc.c, x + s / 2, y + s - pad - size, lines[0], "Cond-Bold", size, kind.ink, align="center")
        text(doc.c, x + s / 2, y + pad + 0.06 * s, lines[1], "Sans-Bold", 0.42 * s, kind.ink, align="center")
        return
    # whole words, never hyphenated: a long one ("URBANIZATION") shrinks, with a narrower side margin
    fitted, size, font, squeeze = _fit_label(doc, list(lines), s - 2 * pad, s - 2 * pad, 0.18 * s, kind.id)
    lead = size * 1.1
    total = lead * len(fitted)
    base = y + s / 2 + total / 2 - size * 0.85
    for i, line in enumerate(fitted):
        if squeeze < 1:
            doc.c.saveState()
            doc.c.translate(x + s / 2, base - i * lead)
            doc.c.scale(squeeze, 1)
            text(doc.c, 0, 0, line, font, size, kind.ink, align="center")
            doc.c.restoreState()
        else:
            text(doc.c, x + s / 2, base - i * lead, line, font, size, kind.ink, align="center")


_MIN_SQUEEZE = 0.8  # the narrowest a marker word is drawn, rather than under the legible size


def _fit_label(doc: Doc, lines: list[str], box_w: float, box_h: float, size: float, kid: str
               ) -> tuple[list[str], float, str, float]:
    """The marker's words: bold condensed, else condensed, else condensed and a little narrower
    at the legible size (a long French word on a 5/8" marker), else shrunk (and reported)."""
    leading = 1.1
    for font in ("Cond-Bold", "Cond"):
        widest = max(width(t, font, size) for t in lines)
        if min(size * min(1.0, box_w / widest), box_h / (len(lines) * leading)) >= LEGIBLE:
            fitted, s = doc.fit_lines(lines, font, size, box_w, box_h, f"marker {kid}", what="marker label")
            return fitted, s, font, 1.0
    widest = max(width(t, "Cond", LEGIBLE) for t in lines)
    if LEGIBLE * leading * len(lines) <= box_h and box_w / widest >= _MIN_SQUEEZE:
        return lines, LEGIBLE, "Cond", box_w / widest
    # narrower still, and smaller: reported when under the legible size
    fitted, s = doc.fit_lines(lines, "Cond", size, box_w / _MIN_SQUEEZE, box_h, f"marker {kid}", what="marker label")
    return fitted, s, "Cond", _MIN_SQUEEZE


def marker_pieces(counts: list[tuple[str, int]], size: float, model: DesertSteel) -> list[Piece]:
    pieces = []
    for kid, n in counts:
        kind = KINDS[kid]
        front = (lambda d, x, y, k=kind: _draw_label(d, k, face(k, model), x, y, size))
        back = (lambda d, x, y, k=kind: _draw_label(d, k, face(k, model, back=True), x, y, size))
        # grouped by colour: a gutter between colours on the sheet (exports/sheets.py)
        pieces.extend(Piece(f"marker {kid}", front, kind.colour, back, kind.colour, group=kind.colour.hexval())
                      for _ in range(n))
    return pieces


def two_faced(kid: str) -> bool:
    """A marker whose back reads otherwise than its front (entrenching/entrenched): it needs a back."""
    return KINDS[kid].back_lines is not None


def draw_markers(doc: Doc, model: DesertSteel, scenario: Scenario, size: float, *, bleed: float = 1.5 * MM,
                 cut_lines: bool = True, bookmark: str | None = None, faces: str = "all"):
    """The markers: those that read the same on both sides printed one-sided ("one"), those with
    another back printed front and back ("two"), or both, the one-sided sheets first ("all")."""
    counts = marker_counts(model, scenario)
    plans = []
    for which in (("one", "two") if faces == "all" else (faces,)):
        chosen = [(k, n) for k, n in counts if two_faced(k) == (which == "two")]
        if not chosen:
            continue
        total = sum(n for _, n in chosen)
        what = doc.t("{n} with another back" if which == "two" else "{n}, one-sided", n=total)
        heading = (f"{doc.t('Markers')} \u2014 {scenario.number} {scenario.name} \u2014 {what} "
                   f"({doc.t('counts reconstructed')})")
        plans += draw_sheets(doc, marker_pieces(chosen, size, model), size, size, heading=heading, backs=which == "two",
                             bleed=bleed, cut_lines=cut_lines, bookmark=bookmark if not plans else None,
                             rows_by_group=True)
    from .counters import size_name
    doc.report_small(f"{size_name(size)} markers")
    return plans


def markers_pdf(model: DesertSteel, scenario: Scenario, *, size: str = "5/8", page: str = "a4", profile=None,
                bleed_mm: float = 1.5, cut_lines: bool = True, lang: str = "en") -> tuple[bytes, list]:
    doc = Doc(f"Desert Steel markers \u2014 {scenario.number} {scenario.name}", "Markers of \u00a72.12; backs only where "
              "they differ", page, profile or PrinterProfile(), lang, duplex=True)
    from .counters import check_counter_size
    check_counter_size(doc, model, scenario.configuration, counter_size(size), f'{size}"')
    draw_markers(doc, model, scenario, counter_size(size), bleed=bleed_mm * MM, cut_lines=cut_lines,
                 bookmark=f"Markers: {scenario.number} {scenario.name}")
    return doc.save(), doc.findings
