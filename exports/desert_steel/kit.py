"""Desert Steel's pieces of a scenario's kit, one function per declared print part
(rules/desert_steel/contributions.py); the generic kit (exports/kit.py) assembles them.

Pieces, in the order a player prepares a game: scenario sheet, record sheet, each side's
secret plan sheet (when a side records anything in secret), formation cards (the
scenario's, with uniform backs per side), raid cards (when either side has raids),
countersheets, markers, play aids, map sheets.
"""
from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Mapping

from sandtable.rules.desert_steel.model import DesertSteel, Scenario

from ..kit import KitPiece, KitRequest, KitResult, assemble, job_names  # noqa: F401 - job_names: callers
from ..lang import tr
from ..page import MM, PrinterProfile
from .aids import draw_aids
from .cards import draw_cards, faces_for
from .counters import check_counter_size, counter_size, draw_countersheets, scenario_counters
from .mapsheet import draw_map
from .markers import draw_markers, marker_counts, two_faced
from .raidform import draw_raid_form, has_secrets
from .raids import draw_raid_cards
from .record import draw_record
from .scenario_sheet import draw_scenario

GAME = "Desert Steel"


def _opt(req: KitRequest, name: str, default=None):
    return getattr(req.options, name, default)


def _name(scenario: Scenario) -> str:
    return f"{scenario.number} {scenario.name}"


def scenario_pieces(req: KitRequest) -> list[KitPiece]:
    model, scenario = req.model, req.scenario
    return [KitPiece("01-scenario.pdf", f"Scenario {_name(scenario)}", False,
                     lambda d, b: draw_scenario(d, model, scenario, b), "Both players read it; keep it by the map.")]


def record_pieces(req: KitRequest) -> list[KitPiece]:
    model, scenario, s = req.model, req.scenario, counter_size(_opt(req, "size", "5/8"))
    return [KitPiece("02-record-sheet.pdf", "Record sheet", False, lambda d, b: draw_record(d, model, scenario, b, s),
                     "Public: the turn, condition, visibility and smoke points markers go in its boxes.")]


def plan_pieces(req: KitRequest) -> list[KitPiece]:
    model, scenario, setup = req.model, req.scenario, _opt(req, "setup_value")
    if not any(has_secrets(model, scenario, x) for x in ("allied", "axis")):
        return []
    return [KitPiece("03-plan-sheets.pdf", "Plan sheets", False,
                     lambda d, b: draw_raid_form(d, model, scenario, setup, b),
                     "One page per side with secrets: give each player his own and keep it hidden.")]


def card_pieces(req: KitRequest) -> list[KitPiece]:
    model, scenario, name = req.model, req.scenario, _name(req.scenario)
    faces = faces_for(model, scenario=scenario)
    back_style = _opt(req, "back_style", "side")
    note = tr(req.lang, "Cards, counters and markers: the back of each piece is printed behind its front. Print one "
              "test sheet first and hold it to the light; if the backs drift, run the calibration sheet.")
    return [KitPiece("04-formation-cards.pdf", "Formation cards", True,
                     lambda d, b: draw_cards(d, faces, f"{d.t('Formation cards')} \u2014 {name} \u2014 "
                                                f"{d.t('{n} cards', n=len(faces))}",
                                             backs=True, bookmark=b, back_style=back_style),
                     "Cut along the cut lines (crop marks in the margin); one back per side.", notes=((0, note),))]


def raid_pieces(req: KitRequest) -> list[KitPiece]:
    model, scenario, catalog = req.model, req.scenario, req.catalog
    if not any(scenario.sides[x].raw.get("raids") for x in ("allied", "axis")):
        return []
    return [KitPiece("05-raid-cards.pdf", "Raid cards", True,
                     lambda d, b: draw_raid_cards(d, model, catalog, backs=True, bookmark=b),
                     "Cut as the formation cards; shuffle into the raid deck.")]


def counter_pieces(req: KitRequest) -> list[KitPiece]:
    model, scenario, name = req.model, req.scenario, _name(req.scenario)
    size, bleed_mm = _opt(req, "size", "5/8"), _opt(req, "bleed", 1.5)
    s, specs = counter_size(size), scenario_counters(model, scenario)
    notes = ((2, tr(req.lang, "3/4\" counters are wider than the true-scale hex (18.67 mm across the flats): they "
                    "will overlap the hex sides. 5/8\" counters fit.")),) if size == "3/4" else ()
    return [KitPiece("06-counters.pdf", "Counters", True,
                     lambda d, b: draw_countersheets(d, specs, s, f"{d.t('Counters')} \u2014 {name} \u2014 "
                                                     f"{d.t('{n} counters', n=len(specs))}, {size} in",
                                                     bleed=bleed_mm * MM, bookmark=b),
                     "Glue on card if you like, then cut along the cut lines; the gutters between colours are waste.",
                     prepare=lambda doc: check_counter_size(doc, model, scenario.configuration, s, f'{size}"'),
                     notes=notes)]


def marker_pieces(req: KitRequest) -> list[KitPiece]:
    model, scenario = req.model, req.scenario
    s, bleed_mm = counter_size(_opt(req, "size", "5/8")), _opt(req, "bleed", 1.5)
    pieces = [KitPiece("07-markers.pdf", "Markers", False,
                       lambda d, b: draw_markers(d, model, scenario, s, bleed=bleed_mm * MM, bookmark=b, faces="one"),
                       "Cut as the counters; both faces of these markers read the same: one side is enough.")]
    if any(two_faced(k) for k, _ in marker_counts(model, scenario)):
        pieces.append(KitPiece("07-markers-two-faced.pdf", "Markers with two faces", True,
                               lambda d, b: draw_markers(d, model, scenario, s, bleed=bleed_mm * MM, bookmark=b,
                                                         faces="two"),
                               "Entrenching on one face, entrenched on the other: cut as the counters."))
    return pieces


def aid_pieces(req: KitRequest) -> list[KitPiece]:
    model = req.model
    return [KitPiece("08-play-aids.pdf", "Play aids", False, lambda d, b: draw_aids(d, model, b),
                     "One set per player if you can.")]


def map_pieces(req: KitRequest) -> list[KitPiece]:
    from ..guide import PAPER
    model, scenario, map_page = req.model, req.scenario, _opt(req, "map_page")
    notes = ((1, tr(req.lang, "The map tiles are on {map} paper, the rest on {paper}: load both, or print the map "
                    "file (09-map.pdf) on its own.", map=PAPER.get(map_page, map_page),
                    paper=PAPER.get(req.page, req.page))),) if map_page and map_page != req.page else ()
    return [KitPiece("09-map.pdf", "Map sheets", False,
                     lambda d, b: draw_map(d, model, scenario.configuration, scenario, bookmark=b, page=map_page),
                     "Trim each tile along its cut line (left and top edges) and lay it over its neighbour, crosses on "
                     "crosses; the index on each tile says where it goes.", notes=notes)]


# In the order of the numbered files (the order declared in contributions.py may differ).
PIECES = (scenario_pieces, record_pieces, plan_pieces, card_pieces, raid_pieces, counter_pieces, marker_pieces,
          aid_pieces, map_pieces)


def _request(model, scenario, catalog, *, size="5/8", setup=None, bleed_mm=1.5, back_style="side", map_page=None,
             page="a4", profile=None, lang="en") -> KitRequest:
    catalog = catalog if catalog is not None else SimpleNamespace(model=model)
    options = SimpleNamespace(size=size, setup_value=setup, bleed=bleed_mm, back_style=back_style,
                              map_page=map_page)
    return KitRequest(catalog, scenario, options, page, profile, lang)


def kit_parts(model: DesertSteel, scenario: Scenario, *, catalog=None, size: str = "5/8",
              setup: Mapping | None = None, bleed_mm: float = 1.5, back_style: str = "side",
              map_page: str | None = None, lang: str = "en", page: str = "a4") -> list[KitPiece]:
    req = _request(model, scenario, catalog, size=size, setup=setup, bleed_mm=bleed_mm, back_style=back_style,
                   map_page=map_page, page=page, lang=lang)
    return [piece for pieces in PIECES for piece in pieces(req)]


def build_kit(model: DesertSteel, scenario: Scenario, out_dir: str | Path, *, catalog=None, page: str = "a4",
              profile: PrinterProfile | None = None, size: str = "5/8", setup: Mapping | None = None,
              lang: str = "en", bleed_mm: float = 1.5, separate: bool = True, back_style: str = "side",
              map_page: str | None = None) -> KitResult:
    """Write a Desert Steel kit's PDFs into out_dir (what ``export kit`` does through the declared parts)."""
    parts = kit_parts(model, scenario, catalog=catalog, size=size, setup=setup, bleed_mm=bleed_mm,
                      back_style=back_style, map_page=map_page, lang=lang, page=page)
    return assemble(parts, scenario, out_dir, game=GAME, page=page, profile=profile, lang=lang, counter_size=size,
                    separate=separate)
