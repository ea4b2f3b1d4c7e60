"""Sweeps: the same games played at several points of a pack, with common random numbers.

A sweep is a scenario, a list of points (``points``) and a list of games: game i has the
seed ``batch.game_seed(seed, i)`` and setup ``i % len(setups)``, the same at every point,
so the difference between two points is the change and not dice noise. Each game is a task
(point, game); tasks are played in chunks by a backend (this process, local worker
processes, or a Dask cluster) that never changes a result: a game depends only on its
pack, point, setup, seed and bots, and results are sorted by (point, game) before writing.

Every finished game is appended to ``games.jsonl`` in the output folder as soon as its
chunk ends, so ``--resume`` replays nothing that finished.
"""
from __future__ import annotations

import hashlib
import json
import math
import os
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import sandtable

from ..atomic import dumps_json, write_text
from ..findings import Severity, finding, sort_key
from ..jsondoc import Document
from ..stats import wilson
from . import batch as batches
from . import bundle as bundles
from .batch import BatchError, SweepError, play_door
from .points import Point

PLAN_FILE = "sweep.json"
GAMES_FILE = "games.jsonl"
RESULTS_VERSION = 1


# --- the plan ----------------------------------------------------------------------------

@dataclass
class Plan:
    scenario: str  # the scenario's id
    games: int
    seed: int
    bots: tuple
    setups: list  # setup documents, the same at every point
    setups_mode: str  # "sample" or "auto:K"
    options: dict
    varies: list  # Vary labels (columns), empty for --packs
    points: list  # Point
    base_packs: list  # pack paths as given (empty: bundled)
    bundles: dict = field(default_factory=dict)  # point index -> Bundle (not saved: rebuilt and checked)
    bundle_keys: dict = field(default_factory=dict)  # point index -> key, saved for --resume
    findings: dict = field(default_factory=dict)  # point index -> [finding json] (invalid points)
    arguments: dict = field(default_factory=dict)  # the command's arguments, for --resume
    title: str = ""  # "I Beda Fomm", for the charts
    play: object = None  # the ruleset's play contribution (not saved: the packs say which)

    def tasks(self) -> list[tuple[int, int, int, int]]:
        """(point, game, seed, setup) for every valid point; interleaved so a partial sweep
        covers every point evenly."""
        valid = [p.index for p in self.points if p.index not in self.findings]
        return list(self.batch().tasks(self.seed, self.games, valid))

    def context(self) -> dict:
        return {"scenario": self.scenario, "setups": self.setups, "bots": list(self.bots), "options": self.options}

    def batch(self) -> batches.Batch:
        """The batch runner's view: each point's packs and the shared context."""
        return batches.Batch(self.context(), {p.index: (self.bundles.get(p.index), p.patches) for p in self.points})

    def to_json(self) -> dict:
        return {"sandtable_sweep": RESULTS_VERSION, "scenario": self.scenario, "scenario_title": self.title,
                "games": self.games, "seed": self.seed,
                "bots": list(self.bots), "setups": self.setups_mode, "options": self.options, "varies": self.varies,
                "base_packs": self.base_packs, "arguments": self.arguments,
                "points": [{"index": p.index, "label": p.label, "values": p.values, "baseline": p.baseline,
                            "patches": p.patches, "packs": p.packs} for p in self.points],
                "bundle_keys": {str(k): v for k, v in sorted(self.bundle_keys.items())},
                "setups_digest": getattr(self, "saved_setups_digest", None) or
                hashlib.sha256(json.dumps(self.setups, sort_keys=True).encode()).hexdigest()[:16]}


def make_setups(catalog, scenario, count: int | None) -> tuple[list, str]:
    """The setups every point plays, as ``simulate --setups`` makes them: the pack's sample
    setup, then ``count`` seeded automatic setups (the play contribution's setup_pool)."""
    play = play_door(catalog)
    sample = play.sample_setup(catalog, scenario)
    if not count:
        return [sample], "sample"
    try:
        return play.setup_pool(catalog, scenario, count, sample), f"sample + {count} automatic"
    except play.SetupError as exc:
        raise SweepError(f"{scenario.id}: no automatic setup: {exc}") from None


def _check_point(plan: Plan, point: Point, catalog, baseline_errors: set) -> list:
    """Findings that make a point invalid: new errors in the pack, no engine for the
    scenario, or a setup that no longer fits."""
    out = [f for f in catalog.findings if f.severity == Severity.ERROR and _fkey(f) not in baseline_errors]
    if out:
        return [f.to_json() for f in sorted(out, key=sort_key)]
    model = catalog.model
    scenario = model.scenario(plan.scenario) if model is not None else None
    if scenario is None:
        return [finding("unknown-reference", f"scenario {plan.scenario!r} is not in the pack at this point",
                        file=point.label).to_json()]
    try:
        play = play_door(catalog)
    except BatchError as exc:
        return [finding("sweep-point-unplayable", str(exc), file=point.label).to_json()]
    try:
        play.context(model, scenario)
    except play.GameError as exc:
        return [finding("sweep-point-unplayable", str(exc), file=point.label).to_json()]
    why = play.unmeasurable(scenario)
    if why:  # as simulate: games nobody can win measure nothing
        return [finding("sweep-point-unplayable",
                        f"scenario {scenario.number} has no victory conditions the engine can evaluate "
                        f"({why}): every game would be a draw", file=point.label).to_json()]
    check = catalog.ruleset.check_setup
    found = []
    for k, setup in enumerate(plan.setups):
        doc = Document(f"setup {k} of the sweep ({setup.get('id', '')}) at point {point.label}", dumps_json(setup),
                       setup)

        def report(code, message, pointer="", _doc=doc, **kw):
            return _doc.finding(code, message, pointer, subject=f"setup {setup.get('id', k)}", **kw)
        found += [f for f in check(model, setup, report) if f.severity == Severity.ERROR]
    return [f.to_json() for f in sorted(found, key=sort_key)]


def _fkey(f) -> tuple:
    return (f.code, f.message, f.location.file, f.location.pointer)


def prepare(plan: Plan, base_catalog) -> None:
    """Build and check every point (in this process, before anything plays): invalid
    points get their findings in ``plan.findings`` and are skipped."""
    base_bundle = bundles.bundle_of(base_catalog)
    baseline_errors = {_fkey(f) for f in base_catalog.findings if f.severity == Severity.ERROR}
    for point in plan.points:
        if point.packs and not point.baseline:
            disk = bundles.load_paths(point.packs)
            new = [f for f in disk.findings if f.severity == Severity.ERROR and _fkey(f) not in baseline_errors]
            if new:  # refused as loaded from disk: never read whole into a bundle (a 520 MB zip took 1.6 GB)
                plan.findings[point.index] = [f.to_json() for f in sorted(new, key=sort_key)]
                plan.bundles[point.index] = base_bundle
                plan.bundle_keys[point.index] = "invalid-" + hashlib.sha256(json.dumps(
                    plan.findings[point.index], sort_keys=True).encode()).hexdigest()[:16]
                continue
            bundle = bundles.bundle_of(disk)
            catalog = bundles.load_bundle(bundle)
        else:
            bundle = base_bundle
            label = f"--vary point {point.index} ({point.label})"
            catalog = bundles.load_bundle(bundle, point.patches, label) if point.patches else base_catalog
        plan.bundles[point.index] = bundle
        plan.bundle_keys[point.index] = bundle.key
        problems = _check_point(plan, point, catalog, baseline_errors)
        if problems:
            plan.findings[point.index] = problems


# --- storage and resume ------------------------------------------------------------------

def _drop_cut_line(path: Path) -> None:
    """A sweep killed while writing leaves a last line without its newline: cut it off, or the
    next game appended would be glued to it and lost."""
    if not path.is_file():
        return
    with os.fdopen(_open_nofollow(path, os.O_RDWR), "rb+") as fh:
        data = fh.read()
        if data and not data.endswith(b"\n"):
            fh.truncate(data.rfind(b"\n") + 1)


def _open_nofollow(path: Path, flags: int) -> int:
    """A file descriptor of a sweep file that is never a link followed: a link planted as
    games.jsonl would have the games appended to whatever it points to."""
    try:
        return os.open(path, flags | getattr(os, "O_NOFOLLOW", 0), 0o666)
    except OSError as exc:
        import errno
        if exc.errno == errno.ELOOP:
            raise SweepError(f"{path} is a symbolic link; a sweep writes only its own files (remove the link)") \
                from None
        raise


def start_folder(folder: Path, plan: Plan) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    write_text(folder / PLAN_FILE, dumps_json(plan.to_json()))
    games = folder / GAMES_FILE
    if games.is_symlink():  # only reached with --force (checked before): the link itself goes
        games.unlink()
    os.close(_open_nofollow(games, os.O_WRONLY | os.O_CREAT | os.O_TRUNC))


def check_resume(folder: Path, plan: Plan) -> None:
    saved = json.loads((folder / PLAN_FILE).read_text(encoding="utf-8"))
    now = plan.to_json()
    for key in ("sandtable_sweep", "scenario", "seed", "games"):
        if saved.get(key) != now[key]:
            raise SweepError(f"{folder}: its {PLAN_FILE} does not agree with its own arguments ({key} "
                             f"{str(saved.get(key))[:40]!r}, now {str(now[key])[:40]!r}); start a new sweep")
    if saved.get("setups_digest") != now["setups_digest"]:
        raise SweepError(f"{folder}: the scenario's setups changed since this sweep started; start a new sweep")
    if saved.get("bundle_keys") != now["bundle_keys"]:
        raise SweepError(f"{folder}: the pack changed since this sweep started (its files differ); "
                         "start a new sweep in another folder")


# --- backends ----------------------------------------------------------------------------

def chunks(plan: Plan, tasks: list, size: int) -> list[tuple[int, list]]:
    """Tasks grouped by point into chunks of at most ``size`` games, in task order."""
    return list(batches.chunked(tasks, size))


# --- running -----------------------------------------------------------------------------

@dataclass
class RunStats:
    played: int = 0
    reused: int = 0
    seconds: float = 0.0  # wall clock
    game_seconds: float = 0.0  # summed inside the workers
    setup_seconds: float = 0.0  # wall clock before the first task could start (pool, or client and packs shipped)
    versions: set = field(default_factory=set)


def run(plan: Plan, folder: Path, *, jobs: int = 1, scheduler: str | None = None, resume: bool = False,
        progress=None, chunk_size: int = 4, connect_timeout: float = 20.0) -> tuple[list, RunStats]:
    """Play what is not yet in ``folder``; returns every game record sorted by (point, game)."""
    stats = RunStats()
    from .folder import read_games_checked
    done = read_games_checked(folder / GAMES_FILE, len(plan.points), plan.games, plan.seed, len(plan.setups)) \
        if resume else {}
    tasks = plan.tasks()
    wanted = {(t[0], t[1]) for t in tasks}
    done = {k: v for k, v in done.items() if k in wanted}
    todo = [t for t in tasks if (t[0], t[1]) not in done]
    stats.reused = len(done)
    if progress:
        progress(0, len(todo))
    _drop_cut_line(folder / GAMES_FILE)
    out = os.fdopen(_open_nofollow(folder / GAMES_FILE, os.O_WRONLY | os.O_APPEND | os.O_CREAT), "a", encoding="utf-8")
    start = time.perf_counter()

    def sink(result: dict) -> None:
        stats.versions.add(result["version"])
        if result["version"] != sandtable.__version__:
            raise SweepError(f"a worker runs sandtable {result['version']}, this machine {sandtable.__version__}: "
                             "install the same version everywhere")
        for r in sorted(result["records"], key=lambda r: (r["point"], r["game"])):
            line = json.dumps(r, ensure_ascii=False, sort_keys=True)
            out.write(line + "\n")
            done[(r["point"], r["game"])] = json.loads(line)  # as --resume will read it back: same bytes later
        out.flush()
        os.fsync(out.fileno())
        stats.played += len(result["records"])
        stats.game_seconds += result["seconds"]
        if progress:
            progress(stats.played, len(todo))

    work = chunks(plan, todo, chunk_size)

    def started() -> None:
        stats.setup_seconds = time.perf_counter() - start
    try:
        if not work:
            pass
        elif scheduler:
            batches.run_dask(plan.batch(), work, scheduler, sink, connect_timeout, started, resumable=True)
        else:
            batches.run_local(plan.batch(), work, jobs, sink, started)
    except SweepError:
        raise
    except BatchError as exc:
        raise SweepError(str(exc)) from None
    finally:
        out.close()
        stats.seconds = time.perf_counter() - start
    return [done[k] for k in sorted(done)], stats


# --- statistics --------------------------------------------------------------------------

def paired_difference(a: list[float], b: list[float], z: float = 1.96) -> tuple[float, float, float]:
    """Mean of a_i - b_i and its normal 95 % interval (games paired by seed and setup)."""
    n = len(a)
    if n == 0:
        return 0.0, 0.0, 0.0
    d = [x - y for x, y in zip(a, b)]
    mean = sum(d) / n
    if n < 2:
        return mean, mean, mean
    var = sum((x - mean) ** 2 for x in d) / (n - 1)
    half = z * math.sqrt(var / n)
    return mean, mean - half, mean + half


def _r(x: float) -> float:
    return round(x, 4)


def summarise(plan: Plan, records: list, play=None) -> list[dict]:
    """Per point: games, wins, win rates with Wilson 95 % intervals, the paired difference
    to the baseline with its interval, points distributions, average losses; with the ruleset's
    play contribution, the average of its per-game diagnostics."""
    sides = ("allied", "axis")
    by_point: dict[int, dict[int, dict]] = {}
    for r in records:
        by_point.setdefault(r["point"], {})[r["game"]] = r
    base = by_point.get(0, {})
    out = []
    for p in plan.points:
        row = {"index": p.index, "label": p.label, "values": p.values, "baseline": p.baseline,
               "valid": p.index not in plan.findings, "findings": plan.findings.get(p.index, [])}
        games = by_point.get(p.index, {})
        ok = {g: r for g, r in games.items() if "error" not in r}
        n = len(ok)
        row["games"] = n
        row["errors"] = len(games) - n
        if p.index in plan.findings:
            out.append(row)
            continue
        wins = Counter(r["winner"] for r in ok.values())
        row["draws"] = wins["draw"]
        row["sides"] = {}
        paired = sorted(g for g in ok if g in base and "error" not in base[g])
        for side in sides:
            lo, hi = wilson(wins[side], n)
            mine = [1.0 if ok[g]["winner"] == side else 0.0 for g in paired]
            theirs = [1.0 if base[g]["winner"] == side else 0.0 for g in paired]
            d, dlo, dhi = paired_difference(mine, theirs)
            pts = [ok[g]["points"][side] for g in sorted(ok)]
            losses = Counter()
            for r in ok.values():
                losses.update(r["losses"][side])
            row["sides"][side] = {
                "wins": wins[side], "win_rate": _r(wins[side] / n) if n else 0.0, "win_rate_95": [_r(lo), _r(hi)],
                "difference_to_baseline": _r(d), "difference_95": [_r(dlo), _r(dhi)], "paired_games": len(paired),
                "mean_points": _r(sum(pts) / n) if n else 0.0,
                "points": {f"{k:g}": v for k, v in sorted(Counter(pts).items())},
                "average_losses_by_type": {t: _r(c / n) for t, c in sorted(losses.items())}}
        # The victory-point margin (allied - axis) per game, paired with the baseline's: it still moves
        # where a win rate is pinned at 0 or 100 %.
        margin = [ok[g]["points"]["allied"] - ok[g]["points"]["axis"] for g in sorted(ok)]
        md, mlo, mhi = paired_difference([ok[g]["points"]["allied"] - ok[g]["points"]["axis"] for g in paired],
                                         [base[g]["points"]["allied"] - base[g]["points"]["axis"] for g in paired])
        row["margin"] = {"mean": _r(sum(margin) / n) if n else 0.0, "difference_to_baseline": _r(md),
                         "difference_95": [_r(mlo), _r(mhi)]}
        diag = [r["diagnostics"] for r in ok.values() if "diagnostics" in r]
        if diag and play is not None:
            row["diagnostics"] = play.aggregate(diag)
        row["average_turns"] = _r(sum(r["turns"] for r in ok.values()) / n) if n else 0.0
        row["most_common_cause"] = Counter(f"{r['winner']} by {r['cause']}" for r in ok.values()).most_common(1)[0][0] \
            if n else None
        out.append(row)
    return out


def results_json(plan: Plan, records: list, summary: list) -> dict:
    """The whole sweep as results.json holds it: no path, timing or backend, so the same
    sweep gives the same bytes on any machine and any number of workers."""
    head = plan.to_json()
    head.pop("base_packs")
    head.pop("arguments")
    return {"sandtable": sandtable.__version__, "sweep": head, "points": summary, "games": records}


def plan_from_results(results: dict) -> tuple[Plan, list]:
    """The plan (points, parameters; no packs) and the games of a results.json, for --redraw."""
    head = results["sweep"]
    points = [Point(p["index"], p["label"], p["values"], p.get("patches", []), p.get("packs", []), p["baseline"])
              for p in head["points"]]
    findings = {row["index"]: row["findings"] for row in results["points"] if not row["valid"]}
    plan = Plan(head["scenario"], head["games"], head["seed"], tuple(head["bots"]), [], head["setups"],
                head.get("options", {}), head["varies"], points, [], findings=findings,
                bundle_keys={int(k): v for k, v in head.get("bundle_keys", {}).items()},
                title=head.get("scenario_title", ""))
    plan.saved_setups_digest = head.get("setups_digest")
    return plan, results["games"]


def summary_csv(plan: Plan, summary: list) -> str:
    import csv
    import io

    from ..spreadsheet import cell
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    cols = plan.varies or ["pack"]
    head = ["point", "label", *cols, "baseline", "valid", "games", "errors", "draws"]
    for side in ("allied", "axis"):
        head += [f"{side}_wins", f"{side}_win_rate", f"{side}_win_rate_lo95", f"{side}_win_rate_hi95",
                 f"{side}_diff_to_baseline", f"{side}_diff_lo95", f"{side}_diff_hi95", f"{side}_mean_points"]
    head += ["margin_mean", "margin_diff_to_baseline", "margin_diff_lo95", "margin_diff_hi95"]
    w.writerow(head)
    for row in summary:
        vals = [json.dumps(row["values"].get(c if plan.varies else "pack"), ensure_ascii=False)
                if not isinstance(row["values"].get(c if plan.varies else "pack"), (int, float, str))
                else row["values"].get(c if plan.varies else "pack") for c in cols]
        line = [row["index"], row["label"], *vals, row["baseline"], row["valid"], row["games"], row["errors"],
                row.get("draws", "")]
        line = [cell(v) for v in line]  # labels and values are the user's: no formula cells (OWASP)
        for side in ("allied", "axis"):
            s = row.get("sides", {}).get(side)
            line += ([s["wins"], s["win_rate"], *s["win_rate_95"], s["difference_to_baseline"], *s["difference_95"],
                      s["mean_points"]] if s else [""] * 8)
        m = row.get("margin")
        line += [m["mean"], m["difference_to_baseline"], *m["difference_95"]] if m else [""] * 4
        w.writerow(line)
    return buf.getvalue()
