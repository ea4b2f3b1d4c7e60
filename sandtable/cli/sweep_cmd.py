"""sandtable sweep: what-if balance sweeps with charts, locally or on a Dask cluster."""
from __future__ import annotations

import argparse
import json
import signal
import sys
from pathlib import Path

from sandtable.rules.atomic import OutputError, check_target, dumps_json, write_text
from sandtable.rules.limits import InputError, read_regular
from sandtable.rules.lab import report as reports
from sandtable.rules.lab import folder as checks
from sandtable.rules.lab import sweep as sw
from sandtable.rules.lab.scheduler import address_problem
from sandtable.rules.lab.bundle import load_paths
from sandtable.rules.lab.points import SpecError, grid, pack_points, parse_vary

from .common import add_json_flags, add_pack_option, print_json, usage_error
from .progress import Progress

MAX_GAMES = 100_000
MAX_SETUPS = 200


def register(sub) -> None:
    p = sub.add_parser(
        "sweep", help="what-if balance sweep: vary pack values (or compare mod packs), charts and a report",
        description="Play the same games (same seeds and setups) at several points of a pack: values changed in "
                    "memory with --vary (several make a grid) or whole mod packs with --packs. Writes results.json, "
                    "summary.csv, charts (PNG and SVG) and report.html into the output folder. Runs on local worker "
                    "processes (--jobs) or a Dask cluster (--scheduler); the results are the same either way.",
        epilog="examples:\n"
               "  sandtable sweep I --vary unit-type:it-m13-40/defense=2..5 --games 200 --jobs 2 -o m13\n"
               "  sandtable sweep kasserine-pass --vary scenario:kasserine-pass/turns=12..16 -o turns\n"
               "  sandtable sweep II --packs mods/a mods/b -o compare --scheduler tcp://scheduler-host:8786\n"
               "  sandtable sweep --resume m13",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("scenario", metavar="SCENARIO", nargs="?", help="scenario id or roman numeral")
    p.add_argument("--vary", action="append", default=[], metavar="KIND:ID/POINTER=VALUES",
                   help="a value of the pack and the values to try: comma list of JSON values, ranges LOW..HIGH "
                        "(LOW..HIGH/STEP); e.g. unit-type:it-m13-40/defense=2..5 (repeat for a grid)")
    p.add_argument("--packs", nargs="+", default=[], metavar="PACK",
                   help="compare these mod packs, each loaded over the base pack (instead of --vary)")
    p.add_argument("--games", type=int, default=100, help="games at each point (default 100)")
    p.add_argument("--setups", type=int, default=0, metavar="K",
                   help="also play on K seeded automatic setups (game i on setup i mod K+1), as simulate does")
    p.add_argument("--bots", default="heuristic,heuristic", help="ALLIED,AXIS bots (random, heuristic-v1, heuristic, search)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--jobs", type=int, default=1, help="local worker processes (default 1)")
    p.add_argument("--scheduler", metavar="tcp://HOST:PORT",
                   help="run on this Dask scheduler's workers (pip install 'sandtable[cluster]')")
    p.add_argument("--connect-timeout", type=float, default=20.0, metavar="SECONDS",
                   help="how long to wait for the scheduler and a first worker (default 20)")
    p.add_argument("-o", "--output", metavar="DIR", help="output folder (must not hold another sweep)")
    p.add_argument("--resume", metavar="DIR", help="continue the sweep in DIR without replaying finished games")
    p.add_argument("--redraw", metavar="DIR",
                   help="compute the statistics, summary.csv, charts and report.html of a finished sweep again from "
                        "the games in its results.json (no pack needed, nothing played)")
    p.add_argument("--chunk", type=int, default=4, help="games a task (default 4)")
    p.add_argument("--no-charts", action="store_true", help="write no charts and no report.html")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    p.add_argument("--progress-lines", action="store_true",
                   help="print 'progress DONE TOTAL' lines on stderr (for programs such as the editor)")
    p.add_argument("--limited-interruption", action="store_true", help="optional rule §6.56")
    p.add_argument("--limited-intelligence", action="store_true", help="optional rule §6.55")
    add_pack_option(p)
    add_json_flags(p)
    p.set_defaults(run=run)


def _bots(play, value: str) -> tuple[str, str]:
    parts = value.split(",")
    if len(parts) != 2 or not all(play.valid_bot(b) for b in parts):
        raise SpecError(f"--bots takes ALLIED,AXIS from {', '.join(b for b in play.bots if b != 'search')}, search:N "
                        "or search:Ts")
    return parts[0], parts[1]


def _arguments(args) -> dict:
    """What --resume needs to rebuild the same sweep."""
    options = {n: True for n in ("limited_interruption", "limited_intelligence") if getattr(args, n)}
    return {"scenario": args.scenario, "vary": list(args.vary), "packs": list(args.packs), "pack": list(args.pack),
            "games": args.games, "setups": args.setups, "bots": args.bots, "seed": args.seed, "options": options}


def build_plan(a: dict) -> tuple[sw.Plan, object, object]:
    """The plan of a sweep from its arguments: points built and validated (SpecError for usage
    problems, SweepError when the pack or scenario cannot be swept)."""
    if not a.get("scenario"):
        raise SpecError("name a SCENARIO (or --resume DIR)")
    if bool(a["vary"]) == bool(a["packs"]):
        raise SpecError("give --vary (one or more) or --packs, not both and not neither")
    if not 1 <= a["games"] <= MAX_GAMES:
        raise SpecError(f"--games must be between 1 and {MAX_GAMES}")
    if not 0 <= a["setups"] <= MAX_SETUPS:
        raise SpecError(f"--setups must be between 0 and {MAX_SETUPS}")
    catalog = load_paths(a["pack"])
    if catalog.ruleset is not None and not catalog.ruleset.supports("play"):
        raise sw.SweepError(f"the pack's ruleset ({catalog.ruleset.name}) has no game engine: a sweep plays games")
    play = sw.play_door(catalog)
    bots = _bots(play, a["bots"])
    varies = [parse_vary(v) for v in a["vary"]]
    if catalog.errors or catalog.model is None:
        raise sw.SweepError("the pack has errors: run 'sandtable validate' first")
    scenario = catalog.model.scenario(a["scenario"])
    if scenario is None:
        raise SpecError(f"no scenario {a['scenario']!r} (give its id or roman numeral)")
    for p in a["packs"]:
        if not Path(p).exists():
            raise SpecError(f"--packs: {p}: no such folder or zip")
    points = grid(varies, catalog) if varies else pack_points(a["pack"], a["packs"])
    setups, mode = sw.make_setups(catalog, scenario, a["setups"])
    plan = sw.Plan(scenario.id, a["games"], a["seed"], bots, setups, mode, a["options"],
                   [v.label for v in varies], points, list(a["pack"]), arguments=a,
                   title=f"{scenario.number} {scenario.name}", play=play)
    sw.prepare(plan, catalog)
    return plan, catalog, scenario


def _terminate(signum, frame):  # a cancel (SIGTERM) ends the worker pool too, through its context manager
    raise SystemExit(143)


def redraw(args) -> int:
    """Statistics, summary.csv, charts and report.html again from the games in results.json."""
    folder = Path(args.redraw)
    try:
        _regular_files(folder, "--redraw")
    except SpecError as exc:
        return usage_error(str(exc))
    _check_outputs(folder, args)
    try:
        results = json.loads(read_regular(folder / "results.json", limit=_FOLDER_FILE_BYTES).decode("utf-8"),
                             parse_constant=_no_constant)
    except (InputError, SpecError) as exc:
        return usage_error(str(exc))
    except (OSError, ValueError, RecursionError, UnicodeDecodeError) as exc:
        return usage_error(f"--redraw {folder}: no readable results.json of a sweep ({type(exc).__name__}: "
                           f"{str(exc)[:200]})")
    why = checks.results_problem(results)
    saved = {}
    if why is None and (folder / sw.PLAN_FILE).is_file():
        try:
            saved = json.loads(read_regular(folder / sw.PLAN_FILE).decode("utf-8"))
        except (InputError, ValueError, RecursionError, UnicodeDecodeError) as exc:
            saved = f"({type(exc).__name__})"
        why = checks.foreign_problem(saved, results["sweep"])
    if why is not None:  # damaged or foreign: refused before anything is computed or written
        print(f"sandtable sweep: --redraw {folder / 'results.json'}: {why}; nothing was redrawn", file=sys.stderr)
        return 1
    plan, records = sw.plan_from_results(results)
    summary = sw.summarise(plan, records, _redraw_play(saved if isinstance(saved, dict) else {}))
    results = sw.results_json(plan, records, summary)
    write_text(folder / "results.json", dumps_json(results))
    write_text(folder / "summary.csv", sw.summary_csv(plan, summary))
    meta = {"scenario_name": plan.title or plan.scenario, "games": plan.games, "bots": list(plan.bots),
            "version": results["sandtable"], "command": f"sandtable sweep --redraw {folder}"}
    charts = reports.draw_all(folder, plan.varies, summary, meta)
    write_text(folder / "report.html", reports.report_html(folder, results["sweep"], summary, meta, charts))
    files = ["results.json", "summary.csv", *charts, "report.html"]
    if args.format == "json":
        print_json({"folder": str(folder), "files": files})
    else:
        print("wrote " + ", ".join(files) + f" in {folder}")
    return 0


def _redraw_play(saved: dict):
    """The play contribution of the packs the sweep was started with (its diagnostics are that
    ruleset's to average), or None when they cannot be loaded now."""
    try:
        return sw.play_door(load_paths(saved.get("base_packs") or []))
    except Exception:  # noqa: BLE001 - packs moved or broken: the statistics are redrawn without diagnostics
        return None


_FOLDER_FILE_BYTES = 1 << 30  # results.json of a large sweep holds every game: more than a pack document
_OUTPUTS = ("results.json", "summary.csv", "report.html",
            *(f"{c}.{e}" for c in ("winrate", "heatmap", "difference", "points") for e in ("png", "svg")))


def _check_outputs(folder: Path, args) -> None:
    """Every file the sweep will write, checked before any work: a planted link is refused (and
    with --force the link itself is replaced, never written through)."""
    from sandtable.rules.atomic import check_target
    for name in _OUTPUTS:
        check_target(folder / name, force=getattr(args, "force", False))


def _no_constant(name: str):
    raise ValueError(f"{name} is not a number JSON allows")


def _check_results_of(folder: Path, plan) -> None:
    """A results.json left in a folder being resumed must be of this sweep (not copied from another)."""
    path = folder / "results.json"
    if not path.is_file():
        return
    try:
        results = json.loads(read_regular(path, limit=_FOLDER_FILE_BYTES).decode("utf-8"))
    except (InputError, ValueError, RecursionError, UnicodeDecodeError):
        return  # unreadable: it is written anew at the end
    head = results.get("sweep") if isinstance(results, dict) else None
    why = checks.foreign_problem(plan.to_json(), head) if isinstance(head, dict) else None
    if why:
        raise sw.SweepError(f"--resume {folder}: {why}; start the sweep in a new folder")


def _saved_arguments(a) -> dict:
    """The arguments of a sweep.json, refused unless they have the types a sweep's have."""
    def strings(v):
        return isinstance(v, list) and all(isinstance(x, str) for x in v)
    ok = (isinstance(a, dict) and (a.get("scenario") is None or isinstance(a.get("scenario"), str))
          and strings(a.get("vary")) and strings(a.get("packs")) and strings(a.get("pack"))
          and all(isinstance(a.get(k), int) and not isinstance(a.get(k), bool) for k in ("games", "setups", "seed"))
          and isinstance(a.get("bots"), str) and isinstance(a.get("options", {}), dict)
          and all(isinstance(v, bool) for v in a.get("options", {}).values()))
    if not ok:
        raise SpecError("its arguments are not those of a sweep (a damaged or edited sweep.json)")
    if not 0 <= a["seed"] < 2 ** 63:
        raise SpecError(f"its seed {a['seed']} is out of range")
    return a


def _regular_files(folder: Path, option: str) -> None:
    """The files a sweep folder is read from and appended to must be regular files: a FIFO named
    games.jsonl or results.json would block the sweep forever (found by QA), a link lead elsewhere."""
    import os
    import stat
    for name in (sw.PLAN_FILE, sw.GAMES_FILE, "results.json"):
        try:
            mode = os.lstat(folder / name).st_mode
        except FileNotFoundError:
            continue
        except OSError as exc:
            raise SpecError(f"{option} {folder}: cannot read {name}: {exc.strerror or exc}") from None
        if not stat.S_ISREG(mode):
            raise SpecError(f"{option} {folder}: {name} is not a regular file (a folder, link, FIFO or device); "
                            "a sweep folder holds only the files a sweep writes")


def run(args) -> int:
    if args.redraw:
        return redraw(args)
    try:
        if args.jobs < 1 or args.chunk < 1:
            raise SpecError("--jobs and --chunk must be at least 1")
        if args.scheduler and address_problem(args.scheduler):  # before a folder is made
            raise SpecError(address_problem(args.scheduler))
        if args.resume:
            folder = Path(args.resume)
            plan_path = folder / sw.PLAN_FILE
            if not plan_path.is_file():
                raise SpecError(f"--resume {folder}: no {sw.PLAN_FILE} there (not a sweep folder)")
            _regular_files(folder, "--resume")
            _check_outputs(folder, args)
            try:
                a = _saved_arguments(json.loads(read_regular(plan_path).decode("utf-8"))["arguments"])
            except (InputError, ValueError, RecursionError, KeyError, TypeError, UnicodeDecodeError) as exc:
                raise SpecError(f"{plan_path}: not a sweep plan ({str(exc)[:200]})") from None
        else:
            if not args.output:
                raise SpecError("say where to write with -o DIR")
            folder = Path(args.output)
            if (folder / sw.PLAN_FILE).exists():
                raise SpecError(f"{folder} already holds a sweep: continue it with --resume {folder}, "
                                "or choose another folder")
            if folder.exists() and not folder.is_dir():
                raise SpecError(f"{folder} is a file, not a folder")
            if folder.is_dir() and next(folder.iterdir(), None) is not None and not getattr(args, "force", False):
                # the sweep's files would be mixed with others (-o ~ or -o /): as export kit, refused
                raise SpecError(f"{folder} holds other files; choose a new or empty folder for the sweep "
                                "(or --force to write beside them)")
            _check_outputs(folder, args)
            for name in (sw.PLAN_FILE, sw.GAMES_FILE):
                check_target(folder / name, force=getattr(args, "force", False))
            a = _arguments(args)
        try:
            plan, catalog, scenario = build_plan(a)
        except (KeyError, TypeError, AttributeError) as exc:
            if not args.resume:
                raise
            raise SpecError(f"--resume {folder}: its {sw.PLAN_FILE} is damaged ({type(exc).__name__}: {exc})") from None
        if args.resume:
            sw.check_resume(folder, plan)
            _check_results_of(folder, plan)
        else:
            sw.start_folder(folder, plan)
    except SpecError as exc:
        return usage_error(str(exc))
    except OutputError:  # a planted link or an unwritable output: the command line says it (exit 1 or 2)
        raise
    except OSError as exc:
        return usage_error(f"{getattr(exc, 'filename', '') or ''}: {exc.strerror or exc}")
    except sw.SweepError as exc:
        print(f"sandtable: {exc}", file=sys.stderr)
        return 1

    progress = Progress(args, "sweep")
    previous = signal.signal(signal.SIGTERM, _terminate)
    try:  # held until the charts are drawn: a SIGTERM then ends the command as terminated (143), files whole
        try:
            records, stats = sw.run(plan, folder, jobs=args.jobs, scheduler=args.scheduler,
                                    resume=bool(args.resume), progress=progress, chunk_size=args.chunk,
                                    connect_timeout=args.connect_timeout)
        except sw.SweepError as exc:
            print(f"sandtable: {exc}", file=sys.stderr)
            return 1
        finally:
            progress.close()
        return _write_outputs(args, plan, folder, scenario, records, stats)
    finally:
        signal.signal(signal.SIGTERM, previous)


def _write_outputs(args, plan, folder, scenario, records, stats) -> int:
    summary = sw.summarise(plan, records, plan.play)
    results = sw.results_json(plan, records, summary)
    write_text(folder / "results.json", dumps_json(results))
    write_text(folder / "summary.csv", sw.summary_csv(plan, summary))
    meta = {"scenario_name": f"{scenario.number} {scenario.name}", "games": plan.games, "bots": list(plan.bots),
            "version": results["sandtable"], "command": f"sandtable sweep --resume {folder}"}
    charts = []
    if not args.no_charts:
        charts = reports.draw_all(folder, plan.varies, summary, meta)
        write_text(folder / "report.html", reports.report_html(folder, results["sweep"], summary, meta, charts))
    invalid = [r for r in summary if not r["valid"]]
    errors = sum(r["errors"] for r in summary)
    out = {"folder": str(folder), "scenario": scenario.id, "points": summary, "invalid_points": len(invalid),
           "games_with_errors": errors, "played": stats.played, "reused": stats.reused,
           "seconds": round(stats.seconds, 2),
           "games_per_second": round(stats.played / stats.seconds, 2) if stats.played and stats.seconds else 0.0,
           "backend": f"dask {args.scheduler}" if args.scheduler else f"local, {args.jobs} process(es)",
           "files": ["results.json", "summary.csv", *charts, *(["report.html"] if charts else [])]}
    if args.format == "json":
        print_json(out)
    else:
        _print_text(plan, summary, out, meta)
    return 1 if invalid or errors else 0


def _print_text(plan, summary, out, meta) -> None:
    print(f"{meta['scenario_name']}: {plan.games} games a point, seed {plan.seed}, setups {plan.setups_mode}, "
          f"bots {plan.bots[0]} vs {plan.bots[1]}")
    print(f"{'point':<34} {'allied wins % (95 %)':>22} {'Δ vs baseline (95 %)':>24} {'axis wins %':>12} {'draws':>6} "
          f"{'Δ margin (95 %)':>24}")
    for r in summary:
        label = r["label"] if len(r["label"]) <= 34 else r["label"][:33] + "…"
        if not r["valid"]:
            print(f"{label:<34} invalid, not played:")
            for f in r["findings"]:
                where = f.get("file", "") + (f" at {f['pointer']}" if f.get("pointer") else "")
                print(f"    {f.get('severity', 'error')} {f['code']}: {f['message']} ({where})")
            continue
        al, ax = r["sides"]["allied"], r["sides"]["axis"]
        m = r["margin"]
        margin = "—" if r["baseline"] else (f"{m['difference_to_baseline']:+.2f} ({m['difference_95'][0]:+.2f}.."
                                            f"{m['difference_95'][1]:+.2f})")
        diff = "—" if r["baseline"] else (f"{100 * al['difference_to_baseline']:+.1f} "
                                          f"({100 * al['difference_95'][0]:+.1f}..{100 * al['difference_95'][1]:+.1f})")
        print(f"{label:<34} {100 * al['win_rate']:>6.1f} ({100 * al['win_rate_95'][0]:.1f}-"
              f"{100 * al['win_rate_95'][1]:.1f}){'':>3} {diff:>24} {100 * ax['win_rate']:>12.1f} {r['draws']:>6} "
              f"{margin:>24}"
              + (f"  ({r['errors']} games ended in an engine error)" if r["errors"] else ""))
    print(f"played {out['played']} games ({out['reused']} reused) in {out['seconds']:.1f} s, "
          f"{out['games_per_second']:.2f} games/s, {out['backend']}")
    print("wrote " + ", ".join(out["files"]) + f" in {out['folder']}")
