"""The kit: everything to play one scenario, as one PDF per part and two print jobs.

Generic: the pack's ruleset declares its print parts (rules/rulesets.PrintPart); each part
with a ``kit`` contribution says what it puts in a scenario's kit (``KitPiece``s, numbered
files printed in their number's order). Two print jobs hold them all, each opening with the
same print guide (exports/guide.py): ``kit-<n>-<id>-simplex.pdf``, the pieces printed on one
side, and ``kit-<n>-<id>-duplex.pdf``, the pieces with backs, every piece starting on an odd
page so its fronts and backs share sheets; the guide's back is blank. The jobs' names start
with "kit-", so they sort after the numbered pieces, never among them. Every file is written
atomically; the same data gives the same bytes.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from sandtable.rules import atomic

from .guide import GuideEntry, draw_guide
from .lang import tr
from .page import Doc, PrinterProfile


@dataclass
class KitResult:
    files: list[Path] = field(default_factory=list)
    findings: list = field(default_factory=list)
    pages: dict[str, int] = field(default_factory=dict)  # part -> its pages (in its print job)
    jobs: list[tuple[str, bool, int]] = field(default_factory=list)  # (file, duplex, pages)
    guide: list = field(default_factory=list)  # the print guide's entries


@dataclass(frozen=True)
class KitPiece:
    file: str
    title: str
    duplex: bool
    draw: Callable[[Doc, str], None]  # draws the piece, with this bookmark
    cut: str = ""  # what to do with its printed sheets (the print guide)
    prepare: Callable[[Doc], None] | None = None  # before drawing its own file (a check that warns)
    notes: tuple[tuple[int, str], ...] = ()  # (rank, sentence) for the guide's notes, in the kit's language


Part = KitPiece  # the name earlier code used


@dataclass(frozen=True)
class KitRequest:
    """What a print part's kit contribution gets: the pack, the scenario and the kit's options."""

    catalog: Any
    scenario: Any  # the ruleset's scenario object (.id, .number, .name, .ordinal)
    options: Any  # size, setup, bleed_mm, back_style, map_page... as the command gives them
    page: str = "a4"
    profile: PrinterProfile | None = None
    lang: str = "en"

    @property
    def model(self):
        return self.catalog.model


def _number(piece: KitPiece) -> int:
    m = re.match(r"\d+", piece.file)
    return int(m.group()) if m else 1_000


def kit_pieces(ruleset, request: KitRequest) -> list[KitPiece]:
    """Every piece the ruleset's declared print parts put in the kit, in file-number order."""
    pieces: list[KitPiece] = []
    for part in ruleset.prints:
        if part.kit is not None:
            pieces += part.kit(request)
    return sorted(pieces, key=_number)  # stable: a part's own pieces keep their order


def job_names(scenario) -> tuple[str, str]:
    base = f"kit-{scenario.ordinal:02d}-{scenario.id}"
    return f"{base}-simplex.pdf", f"{base}-duplex.pdf"


def assemble(pieces: list[KitPiece], scenario, out_dir: str | Path, *, game: str, page: str = "a4",
             profile: PrinterProfile | None = None, lang: str = "en", counter_size: str = "",
             separate: bool = True) -> KitResult:
    """Write the pieces' PDFs into out_dir: one per piece (unless separate is False) and the two print jobs."""
    profile = profile or PrinterProfile()
    out = Path(out_dir)
    result = KitResult()
    name = f"{scenario.number} {scenario.name}"
    seen = set()

    def collect(findings):
        for f in findings:
            key = (f.subject, f.message)
            if key not in seen:
                seen.add(key)
                result.findings.append(f)

    # each piece alone: its own file, and its page count for the guide
    counts: dict[str, int] = {}
    for part in pieces:
        title = f"{game} {part.title.lower()} \u2014 {name}"
        if part.title.startswith("Scenario"):
            title = f"{game} scenario {name}"
        if lang != "en":  # the title is the foot line of every page: in the kit's language
            title = f"{game} \u2014 {tr(lang, 'Scenario {name}', name=name) if part.title.startswith('Scenario') else tr(lang, part.title)} \u2014 {name}"
        doc = Doc(title, part.title, page, profile, lang, duplex=part.duplex)
        if part.prepare is not None:
            part.prepare(doc)
        part.draw(doc, part.title)
        data = doc.save()
        counts[part.title] = doc.pages
        collect(doc.findings)
        if separate:
            path = out / part.file
            atomic.write_bytes(path, data)
            result.files.append(path)
    # the page ranges of each piece in its job: guide first; in the duplex job the guide's back
    # is blank and every piece starts on an odd page
    simplex_name, duplex_name = job_names(scenario)
    entries = []
    for duplex, job in ((False, simplex_name), (True, duplex_name)):
        page_no = 2 if duplex else 1  # pages used so far: the guide (and its blank back)
        for part in pieces:
            if part.duplex != duplex:
                continue
            if duplex and page_no % 2 == 1:
                page_no += 1
            entries.append(GuideEntry(part.title, part.file, job, page_no + 1, page_no + counts[part.title], duplex,
                                      part.cut))
            page_no += counts[part.title]
        result.jobs.append((job, duplex, page_no))
    result.guide = entries
    notes = []
    for _, sentence in sorted({n for part in pieces for n in part.notes}):
        notes.append(sentence)
    for duplex, job in ((False, simplex_name), (True, duplex_name)):
        doc = Doc(f"{game} kit \u2014 {name} \u2014 " + (tr(lang, "double" if duplex else "single") if lang != "en"
                                                       else f"{'double' if duplex else 'single'}-sided print job"),
                  f"Everything to play scenario {name} that is printed {'double' if duplex else 'single'}-sided",
                  page, profile, lang, duplex=duplex)
        draw_guide(doc, name, entries, result.jobs, counter_size=counter_size, flip=profile.flip,
                   offset_mm=profile.back_offset_mm, this_job=job, bookmark="Print guide", notes=notes)
        for part in pieces:
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


def build(ruleset, request: KitRequest, out_dir: str | Path, *, separate: bool = True) -> KitResult:
    """The kit of request.scenario from the ruleset's declared print parts."""
    pieces = kit_pieces(ruleset, request)
    return assemble(pieces, request.scenario, out_dir, game=ruleset.short_title, page=request.page,
                    profile=request.profile, lang=request.lang,
                    counter_size=getattr(request.options, "size", "") or "", separate=separate)
