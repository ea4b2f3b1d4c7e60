"""sandtable export: the print kit as PDFs (cards, counters, sheets, aids, maps, the kit)."""
from __future__ import annotations

import re
import sys
import time
from pathlib import Path

from sandtable.rules import atomic
from sandtable.rules.rulesets import PluginError, PrintFailure, Printed

from .common import add_json_flags, add_pack_option, load_pack, print_findings, print_json, usage_error

# Kinds every pack has, whatever its ruleset (the rest are the rulesets' declared print parts).
GENERIC_KINDS = ("calibration", "kit", "profile")
# Set by the CLI's main when the command line is an export: only then are third-party
# rulesets loaded to add their parts to the parser (the others never pay for a guest's probe).
WITH_GUESTS = False


def declared_parts(with_guests: bool | None = None) -> list:
    """Every print part the installed rulesets declare, the built-in ones first; of two
    declarations of one kind the first shapes the command's options."""
    from sandtable.rules import rulesets
    guests = WITH_GUESTS if with_guests is None else with_guests
    seen, parts = set(), []
    names = sorted(rulesets._BUILTIN) + sorted(set(rulesets.names()) - set(rulesets._BUILTIN))
    for name in names:
        if name not in rulesets._BUILTIN and not guests:
            continue
        ruleset = rulesets.get(name)
        for part in ruleset.prints if ruleset is not None else ():
            if part.kind not in seen and part.kind not in GENERIC_KINDS:
                seen.add(part.kind)
                parts.append(part)
    return parts


def kinds() -> tuple[str, ...]:
    """The kinds `sandtable export` offers: the declared parts, then calibration, kit and profile."""
    return tuple(p.kind for p in declared_parts()) + GENERIC_KINDS


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


def kit_options(with_guests: bool | None = None) -> list:
    """The options `export kit` takes: those the installed rulesets declare for their kit pieces
    (the first declaration of a flag wins), built-in rulesets first."""
    from sandtable.rules import rulesets
    guests = WITH_GUESTS if with_guests is None else with_guests
    seen, out = set(), []
    for name in sorted(rulesets._BUILTIN) + sorted(set(rulesets.names()) - set(rulesets._BUILTIN)):
        ruleset = rulesets.get(name) if name in rulesets._BUILTIN or guests else None
        for option in getattr(ruleset, "kit_options", ()) or ():
            if option.flags[0] not in seen:
                seen.add(option.flags[0])
                out.append(option)
    return out


def _add_part(kinds, part) -> None:
    """The subcommand of a declared print part: its own options, then the common ones."""
    extra = {"description": part.description} if part.description else {}
    k = kinds.add_parser(part.kind, help=part.title, **extra)
    if not part.common:  # not a PDF (a VASSAL module): the output, its options, the pack, --json
        k.add_argument("-o", "--output", required=True, metavar=part.output_metavar, help=part.output)
    for option in part.options:
        option.add_to(k)
    if part.common:
        _common(k, part.output, pages=part.pages)
    else:
        add_pack_option(k)
        add_json_flags(k)
    k.set_defaults(run=run, part_kind=part.kind)


def register(sub) -> None:
    p = sub.add_parser("export", help="print kit: cards, counters, sheets, play aids, maps, a scenario's kit (PDF)",
                       description="Write the print kit as PDF: every document is made from the pack's data, "
                       "with embedded fonts, crop marks and backs aligned for duplex printing. Print at actual "
                       "size (100 %).")
    kinds = p.add_subparsers(dest="kind", metavar="KIND", parser_class=type(p))
    kinds.required = True
    parts = declared_parts()
    for part in parts:
        if part.common:
            _add_part(kinds, part)

    k = kinds.add_parser("calibration", help="duplex calibration sheet (crosses front, scales back)")
    _common(k)
    k.set_defaults(run=run)

    k = kinds.add_parser("kit", help="everything for one scenario: one PDF per part and two print jobs "
                         "(single-sided, double-sided), each opening with a print guide")
    k.add_argument("scenario", metavar="SCENARIO")
    for option in kit_options():
        option.add_to(k)
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

    for part in parts:  # a module, not a PDF (VASSAL): after the documents, as it always was
        if not part.common:
            _add_part(kinds, part)


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


def _scenario_of(catalog, ref):
    """The scenario typed on the command line, found by the pack's ruleset (LookupError when none)."""
    ruleset, model = catalog.ruleset, catalog.model
    finder = getattr(ruleset, "find_scenario", None)
    if finder is None:
        raise LookupError(f"the {ruleset.title} ruleset cannot find a scenario for the kit")
    s = finder(model, ref)
    if s is None:
        known = ", ".join(f"{x.number} ({x.id})" for x in getattr(model, "scenarios", {}).values())
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
    if getattr(args, "part_kind", None) and not _part_is_common(args):
        return _run_module(args)
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
        data, findings = _render(args, catalog, profile)
    except LookupError as exc:
        return usage_error(str(exc))
    except ValueError as exc:
        return usage_error(str(exc))
    except (FontError, PrintFailure, PluginError) as exc:
        print(f"sandtable: {exc}", file=sys.stderr)
        return 1
    atomic.write_bytes(args.output, data)
    print_findings(findings, sys.stderr)
    print(f"wrote {args.output}: {_pages(data)} page(s)" + (f", {len(findings)} warning(s)" if findings else ""))
    return 0


def _part_is_common(args) -> bool:
    return any(p.common for p in declared_parts() if p.kind == args.part_kind)


def _part(catalog, kind: str):
    """The pack's ruleset's part of this kind, or a LookupError saying it has none."""
    ruleset = catalog.ruleset
    part = ruleset.print_part(kind) if ruleset is not None else None
    if part is None:
        title = ruleset.title if ruleset is not None else "unknown"
        have = ", ".join(p.kind for p in ruleset.prints) if ruleset is not None else ""
        raise LookupError(f"the {title} ruleset has no printable {kind}" + (f" (it prints: {have})" if have else ""))
    return part


def _request(args, catalog, profile):
    from sandtable.rules.rulesets import PrintRequest
    return PrintRequest(catalog, args, page=getattr(args, "page", "a4"), profile=profile,
                        lang=getattr(args, "lang", "en"))


def _render(args, catalog, profile):
    if args.kind == "calibration":
        from sandtable.exports import calibration
        return calibration.calibration_pdf(page=args.page, profile=profile, lang=args.lang)
    part = _part(catalog, args.kind)
    if getattr(args, "setup", None) and any("--setup" in o.flags for o in part.options):
        scenario = _scenario_of(catalog, args.scenario) if getattr(args, "scenario", None) else None
        args.setup_value = _setup(args.setup, catalog, scenario)
    out = _call(part, _request(args, catalog, profile))
    if isinstance(out, Printed):
        return out.data, out.findings
    return out


def _call(part, request):
    out = part.draw(request)
    if not isinstance(out, Printed) and not (isinstance(out, tuple) and len(out) == 2 and isinstance(out[0], bytes)):
        raise PrintFailure(f"the print part {part.kind!r} returned {type(out).__name__}, not a document")
    return out


def _run_module(args) -> int:
    """A declared part that is not a PDF (a VASSAL module): its own summary and --json report."""
    started = time.perf_counter()
    catalog = load_pack(args.pack)
    if catalog.errors:
        print("sandtable: the pack has errors; fix them before exporting (see 'sandtable validate')", file=sys.stderr)
        return 1
    try:
        part = _part(catalog, args.kind)
        if getattr(args, "setup", None):
            args.setup_value = _setup(args.setup, catalog)
        out = _call(part, _request(args, catalog, None))
    except (LookupError, ValueError) as exc:
        return usage_error(str(exc).strip("'\""))
    except (PrintFailure, PluginError) as exc:
        print(f"sandtable: {exc}", file=sys.stderr)
        return 1
    if not isinstance(out, Printed):
        out = Printed(*out)
    atomic.write_bytes(args.output, out.data)
    seconds = time.perf_counter() - started
    report = {"output": str(args.output), "bytes": len(out.data), "seconds": round(seconds, 2), **(out.report or {})}
    print_findings(out.findings, sys.stderr)
    if getattr(args, "format", None) == "json":
        print_json(report)
    else:
        summary = (out.summary or f"{len(out.data) / 1e6:.1f} MB").format(seconds=seconds)
        print(f"wrote {args.output}: {summary}")
        for line in out.lines:
            print(line)
    return 0


def _kit_file(name: str) -> bool:
    """A file an earlier kit wrote (numbered parts, kit-*.pdf print jobs): replaced by the new kit."""
    return name.endswith(".pdf") and (name[:2].isdigit() or name.startswith("kit-"))


def _run_kit(args, catalog, model, profile) -> int:
    from sandtable.exports.kit import KitRequest, build
    scenario = _scenario_of(catalog, args.scenario)
    if not any(p.kit is not None for p in catalog.ruleset.prints):
        raise LookupError(f"the {catalog.ruleset.title} ruleset declares no part for a kit")
    args.setup_value = _setup(getattr(args, "setup", None), catalog, scenario)
    request = KitRequest(catalog, scenario, args, args.page, profile, args.lang)
    # Built in a staging folder and swapped in whole: a killed or failed export never leaves
    # the kit half old, half new (rules/atomic.py).
    with atomic.staged_dir(args.output, expected=_kit_file) as stage:
        result = build(catalog.ruleset, request, stage)
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
