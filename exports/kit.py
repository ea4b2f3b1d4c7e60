"""The kit: everything to play one scenario, as one PDF per part and two print jobs.

Parts, in the order a player prepares a game: scenario sheet, record sheet, each side's
secret plan sheet (when a side records anything in secret), formation cards (the
scenario's, with uniform backs per side), raid cards (when either side has raids),
countersheets, markers, play aids, map sheets.

Two print jobs hold them all, each opening with the same print guide (exports/guide.py):
``kit-<n>-<id>-simplex.pdf``, the parts printed on one side (sheets, aids, maps), and
``kit-<n>-<id>-duplex.pdf``, the parts with backs (cards, counters, markers), every part
starting on an odd page so its fronts and backs share sheets; the guide's back is blank.
The jobs' names start with "kit-", so they sort after the numbered parts, never among
them. Every file is written atomically; the same data gives the same bytes.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Mapping

from sandtable.rules import atomic
from sandtable.rules.desert_steel.model import DesertSteel, Scenario

from .desert_steel.aids import draw_aids
from .desert_steel.cards import draw_cards, faces_for
from .desert_steel.counters import check_counter_size, counter_size, draw_countersheets, scenario_counters
from .guide import GuideEntry, draw_guide
from .lang import tr
from .desert_steel.markers import draw_markers, marker_counts, two_faced
from .desert_steel.mapsheet import draw_map
from .page import MM, Doc, PrinterProfile
from .desert_steel.raidform import draw_raid_form, has_secrets
from .desert_steel.raids import draw_raid_cards
from .desert_steel.record import draw_record
from .desert_steel.scenario_sheet import draw_scenario


@dataclass
class KitResult:
    files: list[Path] = field(default_factory=list)
    findings: list = field(default_factory=list)
    pages: dict[str, int] = field(default_factory=dict)  # part -> its pages (in its print job)
    jobs: list[tuple[str, bool, int]] = field(default_factory=list)  # (file, duplex, pages)
    guide: list = field(default_factory=list)  # the print guide's entries


@dataclass(frozen=True)
class Part:
    file: str
    title: str
    duplex: bool
    draw: Callable[[Doc, str], None]  # draws the part, with this bookmark
    cut: str = ""  # what to do with its printed sheets (the print guide)


def kit_parts(model: DesertSteel, scenario: Scenario, *, catalog=None, size: str = "5/8",
              setup: Mapping | None = None, bleed_mm: float = 1.5, back_style: str = "side",
              map_page: str | None = None) -> list[Part]:
    s = counter_size(size)
    name = f"{scenario.number} {scenario.name}"
    faces = faces_for(model, scenario=scenario)
    specs = scenario_counters(model, scenario)
    raids = any(scenario.sides[x].raw.get("raids") for x in ("allied", "axis"))
    secrets = [x for x in ("allied", "axis") if has_secrets(model, scenario, x)]
    parts = [
        Part("01-scenario.pdf", f"Scenario {name}", False, lambda d, b: draw_scenario(d, model, scenario, b),
             "Both players read it; keep it by the map."),
        Part("02-record-sheet.pdf", "Record sheet", False, lambda d, b: draw_record(d, model, scenario, b, s),
             "Public: the turn, condition, visibility and smoke points markers go in its boxes."),
    ]
    if secrets:
        parts.append(Part("03-plan-sheets.pdf", "Plan sheets", False,
                          lambda d, b: draw_raid_form(d, model, scenario, setup, b),
                          "One page per side with secrets: give each player his own and keep it hidden."))
    parts.append(Part("04-formation-cards.pdf", "Formation cards", True,
                      lambda d, b: draw_cards(d, faces, f"{d.t('Formation cards')} \u2014 {name} \u2014 "
                                                 f"{d.t('{n} cards', n=len(faces))}",
                                              backs=True, bookmark=b, back_style=back_style),
                      "Cut along the cut lines (crop marks in the margin); one back per side."))
    two_faced_markers = any(two_faced(k) for k, _ in marker_counts(model, scenario))
    if raids:
        parts.append(Part("05-raid-cards.pdf", "Raid cards", True,
                          lambda d, b: draw_raid_cards(d, model, catalog, backs=True, bookmark=b),
                          "Cut as the formation cards; shuffle into the raid deck."))
    parts += [
        Part("06-counters.pdf", "Counters", True,
             lambda d, b: draw_countersheets(d, specs, s, f"{d.t('Counters')} \u2014 {name} \u2014 "
                                             f"{d.t('{n} counters', n=len(specs))}, {size} in", bleed=bleed_mm * MM,
                                             bookmark=b),
             "Glue on card if you like, then cut along the cut lines; the gutters between colours are waste."),
        Part("07-markers.pdf", "Markers", False,
             lambda d, b: draw_markers(d, model, scenario, s, bleed=bleed_mm * MM, bookmark=b, faces="one"),
             "Cut as the counters; both faces of these markers read the same: one side is enough."),
    ]
    if two_faced_markers:
        parts.append(Part("07-markers-two-faced.pdf", "Markers with two faces", True,
                          lambda d, b: draw_markers(d, model, scenario, s, bleed=bleed_mm * MM, bookmark=b,
                                                    faces="two"),
                          "Entrenching on one face, entrenched on the other: cut as the counters."))
    parts += [
        Part("08-play-aids.pdf", "Play aids", False, lambda d, b: draw_aids(d, model, b),
             "One set per player if you can."),
        Part("09-map.pdf", "Map sheets", False,
             lambda d, b: draw_map(d, model, scenario.configuration, scenario, bookmark=b, page=map_page),
             "Trim each tile along its cut line (left and top edges) and lay it over its neighbour, crosses on "
             "crosses; the index on each tile says where it goes."),
    ]
    return parts


def job_names(scenario: Scenario) -> tuple[str, str]:
    base = f"kit-{scenario.ordinal:02d}-{scenario.id}"
    return f"{base}-simplex.pdf", f"{base}-duplex.pdf"


def build_kit(model: DesertSteel, scenario: Scenario, out_dir: str | Path, *, catalog=None, page: str = "a4",
              profile: PrinterProfile | None = None, size: str = "5/8", setup: Mapping | None = None,
              lang: str = "en", bleed_mm: float = 1.5, separate: bool = True, back_style: str = "side",
              map_page: str | None = None) -> KitResult:
    """Write the kit's PDFs into out_dir: one per part (unless separate is False) and the two print jobs."""
    profile = profile or PrinterProfile()
    out = Path(out_dir)
    result = KitResult()
    name = f"{scenario.number} {scenario.name}"
    parts = kit_parts(model, scenario, catalog=catalog, size=size, setup=setup, bleed_mm=bleed_mm,
                      back_style=back_style, map_page=map_page)
    seen = set()

    def collect(findings):
        for f in findings:
            key = (f.subject, f.message)
            if key not in seen:
                seen.add(key)
                result.findings.append(f)

    # each part alone: its own file, and its page count for the guide
    counts: dict[str, int] = {}
    for part in parts:
        title = f"Desert Steel {part.title.lower()} \u2014 {name}"
        if part.title.startswith("Scenario"):
            title = f"Desert Steel scenario {name}"
        if lang != "en":  # the title is the foot line of every page: in the kit's language
            title = f"Desert Steel \u2014 {tr(lang, 'Scenario {name}', name=name) if part.title.startswith('Scenario') else tr(lang, part.title)} \u2014 {name}"
        doc = Doc(title, part.title, page, profile, lang, duplex=part.duplex)
        if part.file == "06-counters.pdf":
            check_counter_size(doc, model, scenario.configuration, counter_size(size), f'{size}"')
        part.draw(doc, part.title)
        data = doc.save()
        counts[part.title] = doc.pages
        collect(doc.findings)
        if separate:
            path = out / part.file
            atomic.write_bytes(path, data)
            result.files.append(path)
    # the page ranges of each part in its job: guide first; in the duplex job the guide's back
    # is blank and every part starts on an odd page
    simplex_name, duplex_name = job_names(scenario)
    entries = []
    for duplex, job in ((False, simplex_name), (True, duplex_name)):
        page_no = 2 if duplex else 1  # pages used so far: the guide (and its blank back)
        for part in parts:
            if part.duplex != duplex:
                continue
            if duplex and page_no % 2 == 1:
                page_no += 1
            entries.append(GuideEntry(part.title, part.file, job, page_no + 1, page_no + counts[part.title], duplex,
                                      part.cut))
            page_no += counts[part.title]
        result.jobs.append((job, duplex, page_no))
    result.guide = entries
    notes = [tr(lang, "Cards, counters and markers: the back of each piece is printed behind its front. Print one "
                "test sheet first and hold it to the light; if the backs drift, run the calibration sheet.")]
    if map_page and map_page != page:
        from .guide import PAPER
        notes.append(tr(lang, "The map tiles are on {map} paper, the rest on {paper}: load both, or print the map "
                        "file (09-map.pdf) on its own.", map=PAPER.get(map_page, map_page),
                        paper=PAPER.get(page, page)))
    if size == "3/4":
        notes.append(tr(lang, "3/4\" counters are wider than the true-scale hex (18.67 mm across the flats): they "
                        "will overlap the hex sides. 5/8\" counters fit."))
    for duplex, job in ((False, simplex_name), (True, duplex_name)):
        doc = Doc(f"Desert Steel kit \u2014 {name} \u2014 " + (tr(lang, "double" if duplex else "single") if lang != "en"
                                                          else f"{'double' if duplex else 'single'}-sided print job"),
                  f"Everything to play scenario {name} that is printed {'double' if duplex else 'single'}-sided",
                  page, profile, lang, duplex=duplex)
        draw_guide(doc, name, entries, result.jobs, counter_size=size, flip=profile.flip,
                   offset_mm=profile.back_offset_mm, this_job=job, bookmark="Print guide", notes=notes)
        for part in parts:
            if part.duplex != duplex:
                continue
            if duplex:
                doc.to_odd_page()
            part.draw(doc, part.title)
            doc.end()
            result.pages[part.title] = counts[part.title]
        data = doc.save()
        path = out / job
        atomic.write_bytes(path, data)
        result.files.append(path)
    return result
