"""sandtable export: the print kit as PDFs (cards, counters, sheets, aids, maps, the kit)."""
from __future__ import annotations

import re
import sys
from pathlib import Path

from sandtable.rules import atomic

from .common import add_pack_option, load_pack, print_findings, usage_error

KINDS = ("cards", "raids", "counters", "markers", "record", "raid-form", "scenario", "aids", "map", "calibration",
         "kit", "profile", "vassal")


def _common(p, output_help: str = "the PDF to write", pages: tuple[str, ...] = ("a4", "letter")) -> None:
    p.add_argument("-o", "--output", required=True, metavar="FILE", help=output_help)
    p.add_argument("--page", choices=pages, default="a4", help="paper size (default a4)")
    add_pack_option(p)
    p.add_argument("--lang", choices=("en", "fr"), default="en",
                   help="language of the documents' headings and labels and of the pack's texts (scenario "
                   "background, rules, victory); default en")
    g = p.add_argument_group("printer profile (documents with backs)")
    g.add_argument("--profile", metavar="FILE", help="printer profile made by 'sandtable export profile'")
    g.add_argument("--back-offset", metavar="X,Y", help="move back pages by X,Y millimetres (read on the "
                   "calibration sheet); overrides the profile's")
    g.add_argument("--flip", choices=("long", "short"), help="duplex flip edge (default long, or the profile's)")
    g.add_argument("--marks", choices=("front", "both", "none"),
                   help="crop and registration marks on the front only (default), both sides, or none")


def _sized(p) -> None:
    p.add_argument("--size", choices=("1/2", "5/8", "3/4"), default="5/8", help="counter size in inches (default 5/8)")
    p.add_argument("--bleed", type=float, default=1.5, metavar="MM", help="colour beyond the cut lines (default 1.5 mm)")
    p.add_argument("--no-cut-lines", dest="cut_lines", action="store_false", help="no cut lines over the pieces")


def _back_style(p) -> None:
    p.add_argument("--back-style", choices=("side", "informative"), default="side",
                   help="card backs: one back per side, showing nothing a face-down card must hide (default, "
                   "\u00a76.55), or informative backs with the nation and the kind of card")


def register(sub) -> None:
    p = sub.add_parser("export", help="print kit: cards, counters, sheets, play aids, maps, a scenario's kit (PDF)",
                       description="Write the print kit as PDF: every document is made from the pack's data, "
                       "with embedded fonts, crop marks and backs aligned for duplex printing. Print at actual "
                       "size (100 %).")
    kinds = p.add_subparsers(dest="kind", metavar="KIND", parser_class=type(p))
    kinds.required = True

    k = kinds.add_parser("cards", help="formation cards, poker size, nine to a page")
    k.add_argument("--scenario", metavar="SCENARIO", help="only a scenario's cards, for each side's year")
    k.add_argument("--year", type=int, help="only this year's variants (default: every year variant)")
    k.add_argument("--card", type=int, action="append", default=[], metavar="N", help="only these cards (repeatable)")
    k.add_argument("--backs", action="store_true", help="add card backs on the following pages")
    k.add_argument("--per-formation", action="store_true",
                   help="one card per formation with a row per year variant, as the boxed game prints them "
                   "(default: one card per year variant)")
    _back_style(k)
    _common(k)
    k.set_defaults(run=run)

    k = kinds.add_parser("raids", help="raid cards S1-S9: air strike and bombardment halves")
    k.add_argument("--backs", action="store_true", help="add card backs on the following pages")
    _common(k)
    k.set_defaults(run=run)

    k = kinds.add_parser("counters", help="countersheets, fronts and mirrored backs")
    k.add_argument("scenario", nargs="?", metavar="SCENARIO", help="a scenario's counters (default: the whole pack)")
    _sized(k)
    _common(k)
    k.set_defaults(run=run)

    k = kinds.add_parser("markers", help="the markers of §2.12 a scenario needs")
    k.add_argument("scenario", metavar="SCENARIO")
    _sized(k)
    _common(k)
    k.set_defaults(run=run)

    for name, what in (("record", "public record sheet: turn track, conditions, visibility, smoke, raid deck"),
                       ("scenario", "scenario sheet: background, board with zones, forces, rules, victory")):
        k = kinds.add_parser(name, help=what)
        k.add_argument("scenario", metavar="SCENARIO")
        if name == "record":
            k.add_argument("--size", choices=("1/2", "5/8", "3/4"), default="5/8",
                           help="counter size: the boxes that take a marker hold one (default 5/8)")
        _common(k)
        k.set_defaults(run=run)

    k = kinds.add_parser("raid-form", help="each side's secret plan sheet: minefields, hidden FOs, raid record "
                         "(§18.9); blank or pre-filled from a setup")
    k.add_argument("scenario", nargs="?", metavar="SCENARIO", help="size the form for a scenario")
    k.add_argument("--setup", metavar="SETUP.json", help="pre-fill from a setup's raid plan")
    _common(k)
    k.set_defaults(run=run)

    k = kinds.add_parser("aids", help="play aids: sequence of play, card priority, operations, every chart of the "
                         "pack, transport, smoke, raid and fortification procedures")
    _common(k)
    k.set_defaults(run=run)

    k = kinds.add_parser("map", help="map sheets at true scale, tiled over pages with overlap")
    k.add_argument("what", metavar="CONFIG|SCENARIO",
                   help="a map configuration id (e.g. A-over-B-north-up) or a scenario (its conditions apply)")
    k.add_argument("--overlap", type=float, default=10, metavar="MM",
                   help="least tile overlap (default 10 mm; the tiles are spread evenly, so it may be more)")
    _common(k, pages=("a4", "letter", "a3", "tabloid"))
    k.set_defaults(run=run)

    k = kinds.add_parser("calibration", help="duplex calibration sheet (crosses front, scales back)")
    _common(k)
    k.set_defaults(run=run)

    k = kinds.add_parser("kit", help="everything for one scenario: one PDF per part and two print jobs "
                         "(single-sided, double-sided), each opening with a print guide")
    k.add_argument("scenario", metavar="SCENARIO")
    k.add_argument("--setup", metavar="SETUP.json", help="pre-fill the raid record from a setup")
    _sized(k)
    _back_style(k)
    k.add_argument("--map-page", choices=("a4", "letter", "a3", "tabloid"),
                   help="paper for the map tiles (default: --page); a3 or tabloid means fewer seams")
    _common(k, "the folder to write the kit into")
    k.set_defaults(run=run)

    k = kinds.add_parser("profile", help="write a printer profile (back offset, flip edge) for --profile")
    k.add_argument("-o", "--output", required=True, metavar="FILE.json")
    k.add_argument("--name", default="my printer", help="a name for the printer")
    k.add_argument("--back-offset", default="0,0", metavar="X,Y", help="millimetres read on the calibration sheet")
    k.add_argument("--flip", choices=("long", "short"), default="long")
    k.add_argument("--marks", choices=("front", "both", "none"), default="front")
    k.add_argument("--safe-margin", type=float, default=5.0, metavar="MM",
                   help="the strip along each paper edge your printer cannot print (default 5 mm): nothing "
                   "that must print goes there")
    k.set_defaults(run=run_profile)

    from .export_vassal import add_parser as add_vassal  # a module, not a PDF: its own file
    add_vassal(kinds)




def _offset(text: str) -> tuple[float, float]:
    m = re.fullmatch(r"\s*([-+]?\d+(?:\.\d+)?)\s*,\s*([-+]?\d+(?:\.\d+)?)\s*", text or "")
    if not m:
        raise ValueError(f"--back-offset takes two numbers of millimetres, X,Y (e.g. 1.5,-0.5), not {text!r}")
    return float(m.group(1)), float(m.group(2))


def _profile(args):
    from sandtable.exports.page import PrinterProfile
    base = PrinterProfile.load(args.profile) if args.profile else PrinterProfile()
    offset = _offset(args.back_offset) if args.back_offset else base.back_offset_mm
    return PrinterProfile(base.name, offset, args.flip or base.flip, args.marks or base.marks, base.safe_margin_mm)


def run_profile(args) -> int:
    from sandtable.exports.page import PrinterProfile
    try:
        profile = PrinterProfile(args.name, _offset(args.back_offset), args.flip, args.marks, args.safe_margin)
    except ValueError as exc:
        return usage_error(str(exc))
    profile.save(args.output)
    print(f"wrote {args.output}: back offset {profile.back_offset_mm[0]:+g},{profile.back_offset_mm[1]:+g} mm, "
          f"flip on the {profile.flip} edge, safe margin {profile.safe_margin_mm:g} mm")
    return 0


def _scenario(model, ref):
    s = model.scenario(ref)
    if s is None:
        known = ", ".join(f"{x.number} ({x.id})" for x in model.scenarios.values())
        raise LookupError(f"no scenario {ref!r}; known: {known}")
    return s


def _setup(path: str | None, catalog=None, scenario=None):
    """A setup to pre-fill from: a regular file, schema-checked, for the scenario, its hexes on the board."""
    if not path:
        return None
    from sandtable.rules.findings import finding
    from sandtable.rules.inputs import load_setup
    value, problems = load_setup(path, catalog, scenario)
    if value is None:
        raise LookupError("cannot use the setup:\n" + "\n".join(f.line_text() for f in problems))
    ruleset, model = catalog.ruleset, catalog.model
    scenario = scenario or model.scenario(value["scenario"])
    if scenario is None:
        raise LookupError(f"{path}: no scenario {value['scenario']!r} in the pack")
    if ruleset.check_setup is not None:  # what would be printed must exist: hexes on the board
        found = ruleset.check_setup(model, value, lambda code, message, pointer="", **kw: finding(
            code, message, file=str(path), pointer=pointer or None, **kw))
        off = [f for f in found if f.code == "setup-hex"]
        if off:
            raise LookupError("cannot use the setup:\n" + "\n".join(f.line_text() for f in off))
    return value


def _pages(data: bytes) -> int:
    return len(re.findall(rb"/Type /Page[^s]", data))


def run(args) -> int:
    from sandtable.exports.page import FontError
    try:
        profile = _profile(args)
    except (ValueError, OSError) as exc:
        return usage_error(f"printer profile: {exc}")
    catalog = load_pack(args.pack)
    if catalog.errors:
        print("sandtable: the pack has errors; fix them before printing (see 'sandtable validate')", file=sys.stderr)
        return 1
    model = catalog.model
    try:
        if args.kind == "kit":
            return _run_kit(args, catalog, model, profile)
        data, findings = _render(args, catalog, model, profile)
    except LookupError as exc:
        return usage_error(str(exc))
    except ValueError as exc:
        return usage_error(str(exc))
    except FontError as exc:
        print(f"sandtable: {exc}", file=sys.stderr)
        return 1
    atomic.write_bytes(args.output, data)
    print_findings(findings, sys.stderr)
    print(f"wrote {args.output}: {_pages(data)} page(s)" + (f", {len(findings)} warning(s)" if findings else ""))
    return 0


def _render(args, catalog, model, profile):
    from sandtable.exports import calibration
    from sandtable.exports.desert_steel import (aids, cards, counters, mapsheet,
                                                markers, raidform, raids, record, scenario_sheet)
    page, lang = args.page, args.lang
    if args.kind == "cards":
        scenario = _scenario(model, args.scenario) if args.scenario else None
        if args.per_formation and scenario is not None:
            raise ValueError("--per-formation prints every year of a card; a scenario's cards are for its year: "
                             "give one or the other")
        missing = [n for n in args.card or [] if n not in model.cards]
        if missing:  # an empty sheet for a typo would look like a printing problem
            raise LookupError(f"no formation card {', '.join(map(str, missing))} in the pack")
        return cards.cards_pdf(model, year=args.year, numbers=args.card or None, scenario=scenario, backs=args.backs,
                               page=page, profile=profile, back_style=args.back_style,
                               per_formation=args.per_formation, lang=lang)
    if args.kind == "raids":
        return raids.raids_pdf(model, catalog, backs=args.backs, page=page, profile=profile, lang=lang)
    if args.kind == "counters":
        scenario = _scenario(model, args.scenario) if args.scenario else None
        return counters.counters_pdf(model, scenario, size=args.size, page=page, profile=profile,
                                     bleed_mm=args.bleed, cut_lines=args.cut_lines, lang=lang)  # warns of 3/4"
    if args.kind == "markers":
        return markers.markers_pdf(model, _scenario(model, args.scenario), size=args.size, page=page,
                                   profile=profile, bleed_mm=args.bleed, cut_lines=args.cut_lines, lang=lang)
    if args.kind == "record":
        return record.record_pdf(model, _scenario(model, args.scenario), page=page, profile=profile, lang=lang,
                                 size=args.size)
    if args.kind == "scenario":
        return scenario_sheet.scenario_pdf(model, _scenario(model, args.scenario), page=page, profile=profile,
                                           lang=lang)
    if args.kind == "raid-form":
        scenario = _scenario(model, args.scenario) if args.scenario else None
        setup = _setup(args.setup, catalog, scenario)
        if setup is not None and scenario is None:
            scenario = model.scenario(setup.get("scenario", ""))
        return raidform.raid_form_pdf(model, scenario, setup, page=page, profile=profile, lang=lang)
    if args.kind == "aids":
        return aids.aids_pdf(model, page=page, profile=profile, lang=lang)
    if args.kind == "map":
        conf = model.configurations.get(args.what)
        scenario = None
        if conf is None:
            scenario = _scenario(model, args.what)
            conf = scenario.configuration
        data, findings, _ = mapsheet.map_pdf(model, conf, scenario, page=page, overlap_mm=args.overlap,
                                             profile=profile, lang=lang)
        return data, findings
    if args.kind == "calibration":
        return calibration.calibration_pdf(page=page, profile=profile, lang=lang)
    raise LookupError(f"unknown kind {args.kind!r}")


def _kit_file(name: str) -> bool:
    """A file an earlier kit wrote (numbered parts, kit-*.pdf print jobs): replaced by the new kit."""
    return name.endswith(".pdf") and (name[:2].isdigit() or name.startswith("kit-"))


def _run_kit(args, catalog, model, profile) -> int:
    from sandtable.exports.kit import build_kit
    scenario = _scenario(model, args.scenario)
    setup = _setup(args.setup, catalog, scenario)
    # Built in a staging folder and swapped in whole: a killed or failed export never leaves
    # the kit half old, half new (rules/atomic.py).
    with atomic.staged_dir(args.output, expected=_kit_file) as stage:
        result = build_kit(model, scenario, stage, catalog=catalog, page=args.page, profile=profile,
                           size=args.size, setup=setup, lang=args.lang, bleed_mm=args.bleed,
                           back_style=args.back_style, map_page=args.map_page)
    result.files = [Path(args.output) / Path(f).name for f in result.files]
    print_findings(result.findings, sys.stderr)
    for path in result.files:
        print(f"wrote {path}")
    print(f"kit for {scenario.number} {scenario.name}: {len(result.files)} files"
          + (f", {len(result.findings)} warning(s)" if result.findings else ""))
    for job, duplex, pages in result.jobs:
        how = f"double-sided, flip on the {profile.flip} edge" if duplex else "single-sided"
        print(f"  print {Path(args.output) / job}: {pages} pages, {how}, at 100 %")
    return 0
