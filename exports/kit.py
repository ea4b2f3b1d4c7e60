"""The kit: everything to play one scenario, as separate PDFs and as one combined PDF.

Parts, in the order a player prepares a game: scenario sheet, record sheet, raid
record, formation cards (the scenario's, with backs), raid cards (when either side has
raids), countersheets, markers, play aids, map sheets. The combined PDF has a bookmark
per part, and every part printed double-sided starts on an odd page so its fronts and
backs share sheets. Every file is written atomically; the same data gives the same bytes.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Mapping

from sandtable.rules import atomic
from sandtable.rules.desert_steel.model import DesertSteel, Scenario

from .aids import draw_aids
from .cards import draw_cards, faces_for
from .counters import counter_size, draw_countersheets, scenario_counters
from .markers import draw_markers
from .mapsheet import draw_map
from .page import MM, Doc, PrinterProfile
from .raidform import draw_raid_form
from .raids import draw_raid_cards
from .record import draw_record
from .scenario_sheet import draw_scenario


@dataclass
class KitResult:
    files: list[Path] = field(default_factory=list)
    findings: list = field(default_factory=list)
    pages: dict[str, int] = field(default_factory=dict)  # part -> pages in the combined PDF


@dataclass(frozen=True)
class Part:
    file: str
    title: str
    duplex: bool
    draw: Callable[[Doc, str], None]  # draws the part, with this bookmark


def kit_parts(model: DesertSteel, scenario: Scenario, *, catalog=None, size: str = "5/8",
              setup: Mapping | None = None, bleed_mm: float = 1.5) -> list[Part]:
    s = counter_size(size)
    name = f"{scenario.number} {scenario.name}"
    faces = faces_for(model, scenario=scenario)
    specs = scenario_counters(model, scenario)
    raids = any(scenario.sides[x].raw.get("raids") for x in ("allied", "axis"))
    parts = [
        Part("01-scenario.pdf", f"Scenario {name}", False, lambda d, b: draw_scenario(d, model, scenario, b)),
        Part("02-record-sheet.pdf", "Record sheet", False, lambda d, b: draw_record(d, model, scenario, b)),
        Part("03-raid-record.pdf", "Raid record", False,
             lambda d, b: draw_raid_form(d, model, scenario, setup, b)),
        Part("04-formation-cards.pdf", "Formation cards", True,
             lambda d, b: draw_cards(d, faces, f"Formation cards \u2014 {name} \u2014 {len(faces)} cards",
                                     backs=True, bookmark=b)),
    ]
    if raids:
        parts.append(Part("05-raid-cards.pdf", "Raid cards", True,
                          lambda d, b: draw_raid_cards(d, model, catalog, backs=True, bookmark=b)))
    parts += [
        Part("06-counters.pdf", "Counters", True,
             lambda d, b: draw_countersheets(d, specs, s, f"Counters \u2014 {name} \u2014 {len(specs)} counters, "
                                             f"{size} in", bleed=bleed_mm * MM, bookmark=b)),
        Part("07-markers.pdf", "Markers", True,
             lambda d, b: draw_markers(d, model, scenario, s, bleed=bleed_mm * MM, bookmark=b)),
        Part("08-play-aids.pdf", "Play aids", False, lambda d, b: draw_aids(d, model, b)),
        Part("09-map.pdf", "Map sheets", False,
             lambda d, b: draw_map(d, model, scenario.configuration, scenario, bookmark=b)),
    ]
    return parts


def build_kit(model: DesertSteel, scenario: Scenario, out_dir: str | Path, *, catalog=None, page: str = "a4",
              profile: PrinterProfile | None = None, size: str = "5/8", setup: Mapping | None = None,
              lang: str = "en", bleed_mm: float = 1.5, separate: bool = True) -> KitResult:
    """Write the kit's PDFs into out_dir: one per part (unless separate is False) and the combined one."""
    profile = profile or PrinterProfile()
    out = Path(out_dir)
    result = KitResult()
    name = f"{scenario.number} {scenario.name}"
    parts = kit_parts(model, scenario, catalog=catalog, size=size, setup=setup, bleed_mm=bleed_mm)
    combined = Doc(f"Desert Steel kit \u2014 {name}", f"Everything to play scenario {name}", page, profile, lang)
    seen = set()
    for part in parts:
        before = combined.pages  # a blank page that keeps a duplex part on odd pages counts with it
        if part.duplex:
            combined.to_odd_page()
        part.draw(combined, part.title)
        combined.end()
        result.pages[part.title] = combined.pages - before
        if separate:
            title = f"Desert Steel {part.title.lower()} \u2014 {name}"
            if part.title.startswith("Scenario"):
                title = f"Desert Steel scenario {name}"
            doc = Doc(title, part.title, page, profile, lang)
            part.draw(doc, part.title)
            data = doc.save()
            path = out / part.file
            atomic.write_bytes(path, data)
            result.files.append(path)
        for f in combined.findings:
            key = (f.subject, f.message)
            if key not in seen:
                seen.add(key)
                result.findings.append(f)
    data = combined.save()
    path = out / f"{scenario.ordinal:02d}-{scenario.id}-kit.pdf"
    atomic.write_bytes(path, data)
    result.files.append(path)
    return result
