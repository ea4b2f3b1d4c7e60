#!/usr/bin/env python3
"""Validation benchmark: sandtable's full validation against check-jsonschema's schema pass.

For each pack (the synthetic one from make_synthetic_pack.py, and the bundled
data/desert-steel as it stands), on one core:

* sandtable in-process: ``validate_paths([pack])``; the first call (cold: schemas loaded
  and compiled) apart, then ``--reps`` warm calls;
* sandtable as a command: ``sandtable validate PACK -q`` in a subprocess (interpreter
  start, imports, everything a user waits for);
* check-jsonschema (PyPI, the usual peer tool), schema only: the pack's documents
  grouped by ``kind``, one ``check-jsonschema --schemafile schemas/.../<kind>.schema.json
  FILES...`` per kind, wall times summed. The schemas' ``$id``s live under
  https://schemas.sandtable.invalid/ (a name that never resolves), so each run passes
  ``--base-uri file://<the schema file>``: the relative ``$ref``s then resolve to the
  local files, and a fetch, were one ever attempted, would fail and show as an error.

Prints a table, the ratio sandtable full / check-jsonschema schema-only, checks the
goals (synthetic pack under 3 s on one core; sandtable no slower than check-jsonschema)
and writes everything to benchmarks/.generated/results.json.

    python benchmarks/bench_validate.py [--reps 5] [--synthetic DIR] [--bundled DIR]
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import time
from importlib import metadata
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
GENERATED = HERE / ".generated"
SYNTHETIC = GENERATED / "synthetic-desert-steel"
RESULTS = GENERATED / "results.json"
GOAL_SECONDS = 3.0

SHARED_KINDS = {"pack": "pack.schema.json", "overrides": "overrides.schema.json"}


# --- environment -------------------------------------------------------------------------

def pin_one_core() -> str:
    """Pin this process (and so every child) to one core; say which, or why not."""
    if not hasattr(os, "sched_setaffinity"):
        return "not pinned (no sched_setaffinity on this platform)"
    try:
        cpu = min(os.sched_getaffinity(0))
        os.sched_setaffinity(0, {cpu})
        return f"pinned to CPU {cpu} (os.sched_setaffinity; subprocesses inherit it)"
    except OSError as exc:
        return f"not pinned ({exc})"


def tool(name: str) -> list[str] | None:
    """The console script installed beside this interpreter, else on PATH."""
    beside = Path(sys.executable).parent / name
    if beside.exists():
        return [str(beside)]
    found = shutil.which(name)
    return [found] if found else None


def version(dist: str) -> str | None:
    try:
        return metadata.version(dist)
    except metadata.PackageNotFoundError:
        return None


def git_head() -> str | None:
    try:
        out = subprocess.run(["git", "-C", str(REPO), "rev-parse", "--short", "HEAD"], capture_output=True,
                             text=True, timeout=10)
        return out.stdout.strip() or None
    except (OSError, subprocess.SubprocessError):
        return None


def schema_root() -> Path:
    from sandtable.rules.schemas import schema_root as root
    return root()


# --- measuring ---------------------------------------------------------------------------

def stats(times: list[float]) -> dict:
    return {"median": statistics.median(times), "min": min(times), "max": max(times), "runs": times}


def run_timed(cmd: list[str]) -> tuple[float, subprocess.CompletedProcess]:
    t0 = time.perf_counter()
    proc = subprocess.run(cmd, capture_output=True, text=True, cwd=REPO)
    return time.perf_counter() - t0, proc


def pack_documents(pack: Path) -> dict[str, list[Path]]:
    """The pack's JSON documents by kind, as sandtable reads a pack folder (dot files skipped)."""
    groups: dict[str, list[Path]] = {}
    for path in sorted(pack.rglob("*.json")):
        rel = path.relative_to(pack)
        if any(part.startswith(".") for part in rel.parts):
            continue
        try:
            kind = json.loads(path.read_text(encoding="utf-8")).get("kind")
        except (OSError, ValueError, AttributeError):
            kind = None
        groups.setdefault(kind if isinstance(kind, str) else "?", []).append(path)
    return groups


def schema_for(kind: str, ruleset: str) -> Path | None:
    root = schema_root()
    rel = SHARED_KINDS.get(kind)
    if rel is None:
        from sandtable.rules import rulesets
        rs = rulesets.get(ruleset)
        dk = rs.document_kind(kind) if rs else None
        rel = dk.schema if dk else None
    return root / rel if rel else None


def bench_sandtable_inprocess(pack: Path, reps: int) -> dict:
    from sandtable.rules.findings import Severity
    from sandtable.rules.validation import validate_paths
    t0 = time.perf_counter()
    result = validate_paths([pack])
    cold = time.perf_counter() - t0
    warm = []
    for _ in range(reps):
        t0 = time.perf_counter()
        validate_paths([pack])
        warm.append(time.perf_counter() - t0)
    errors = [f for f in result.findings if f.severity == Severity.ERROR]
    return {"cold": cold, "warm": stats(warm), "files": result.files,
            "errors": len(errors), "warnings": sum(f.severity == Severity.WARNING for f in result.findings),
            "first_errors": [f.line_text() for f in errors[:5]]}


def bench_sandtable_cli(pack: Path, reps: int) -> dict:
    cmd = tool("sandtable") or [sys.executable, "-m", "sandtable"]
    cmd = cmd + ["validate", str(pack), "-q"]
    times, codes, last = [], set(), ""
    for _ in range(reps):
        dt, proc = run_timed(cmd)
        times.append(dt)
        codes.add(proc.returncode)
        last = (proc.stdout + proc.stderr).strip().splitlines()[-1:] or [""]
    return {"command": " ".join(cmd), **stats(times), "exit_codes": sorted(codes), "verdict": last[0]}


def bench_check_jsonschema(pack: Path, reps: int, ruleset: str) -> dict:
    exe = tool("check-jsonschema")
    if exe is None:
        return {"available": False, "note": "check-jsonschema is not installed (pip install -e '.[bench]')"}
    groups = pack_documents(pack)
    runs: dict[str, dict] = {}
    for kind, files in sorted(groups.items()):
        schema = schema_for(kind, ruleset)
        if schema is None:
            runs[kind] = {"files": len(files), "skipped": f"no schema for kind {kind!r}"}
            continue
        cmd = exe + ["--base-uri", schema.as_uri(), "--schemafile", str(schema)] + [str(f) for f in files]
        runs[kind] = {"files": len(files), "schema": str(schema.relative_to(schema_root().parent)),
                      "cmd": cmd, "times": [], "exit_codes": set(), "output": ""}
    totals = []
    for _ in range(reps):
        total = 0.0
        for kind, r in runs.items():
            if "cmd" not in r:
                continue
            dt, proc = run_timed(r["cmd"])
            total += dt
            r["times"].append(dt)
            r["exit_codes"].add(proc.returncode)
            if proc.returncode:
                r["output"] = (proc.stdout + proc.stderr)[-2000:]
        totals.append(total)
    per_kind = {}
    for kind, r in runs.items():
        if "cmd" not in r:
            per_kind[kind] = {k: v for k, v in r.items()}
            continue
        per_kind[kind] = {"files": r["files"], "schema": r["schema"], "median": statistics.median(r["times"]),
                          "min": min(r["times"]), "exit_codes": sorted(r["exit_codes"])}
        if r["output"]:
            per_kind[kind]["output"] = r["output"]
    ok = all(v.get("exit_codes", [0]) == [0] for v in per_kind.values())
    return {"available": True, "command": " ".join(exe) + " --base-uri file://SCHEMA --schemafile SCHEMA FILES...",
            "version": version("check-jsonschema"), **stats(totals), "all_passed": ok,
            "files": sum(len(f) for f in groups.values()), "per_kind": per_kind}


def phase_breakdown(pack: Path) -> dict:
    """One instrumented in-process run: where the time goes (read+parse, schema, provenance, checks)."""
    from sandtable.rules import catalog as cat, provenance
    from sandtable.rules import rulesets
    from sandtable.rules.schemas import SchemaSet
    from sandtable.rules.validation import validate_paths

    spent = {"read_parse": 0.0, "schema": 0.0, "provenance": 0.0, "ruleset_checks": 0.0}

    def timed(name, fn):
        def wrapper(*a, **k):
            t0 = time.perf_counter()
            try:
                return fn(*a, **k)
            finally:
                spent[name] += time.perf_counter() - t0
        return wrapper

    saved = [(cat, "parse", cat.parse), (SchemaSet, "validate", SchemaSet.validate),
             (provenance, "check", provenance.check)]
    manifest = json.loads((pack / "pack.json").read_text(encoding="utf-8"))
    rs = rulesets.get(manifest.get("ruleset", ""))
    orig_check = rs.check if rs is not None else None
    try:
        cat.parse = timed("read_parse", cat.parse)
        SchemaSet.validate = timed("schema", SchemaSet.validate)
        provenance.check = timed("provenance", provenance.check)
        if rs is not None:
            object.__setattr__(rs, "check", timed("ruleset_checks", rs.check))
        t0 = time.perf_counter()
        validate_paths([pack])
        total = time.perf_counter() - t0
    finally:
        for owner, name, fn in saved:
            setattr(owner, name, fn)
        if rs is not None:
            object.__setattr__(rs, "check", orig_check)  # Ruleset is a frozen dataclass
    spent["other"] = total - sum(spent.values())
    spent["total"] = total
    return spent


# --- main --------------------------------------------------------------------------------

def fmt(s: float | None) -> str:
    return "-" if s is None else f"{s:8.3f}"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--reps", type=int, default=3, help="repetitions of each measure (default 3)")
    ap.add_argument("--synthetic", type=Path, default=SYNTHETIC, help="synthetic pack folder")
    ap.add_argument("--bundled", type=Path, default=REPO / "data" / "desert-steel", help="bundled pack folder")
    ap.add_argument("--no-bundled", action="store_true", help="skip the bundled pack")
    ap.add_argument("--no-breakdown", action="store_true", help="skip the instrumented phase breakdown")
    ap.add_argument("--out", type=Path, default=RESULTS)
    a = ap.parse_args(argv)

    if not (a.synthetic / "pack.json").is_file():
        print(f"no synthetic pack at {a.synthetic}: run benchmarks/make_synthetic_pack.py first", file=sys.stderr)
        return 2
    pinning = pin_one_core()
    print(f"# sandtable validation benchmark — {pinning}; {a.reps} repetitions, median (min)")
    packs = [("synthetic", a.synthetic)]
    if not a.no_bundled and (a.bundled / "pack.json").is_file():
        packs.append(("bundled", a.bundled))

    results = {
        "when": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        "machine": {"platform": platform.platform(), "python": platform.python_version(),
                    "cpu_count": os.cpu_count(), "processor": platform.processor() or platform.machine(),
                    "pinning": pinning},
        "versions": {"sandtable": version("sandtable"), "git": git_head(), "jsonschema": version("jsonschema"),
                     "check-jsonschema": version("check-jsonschema")},
        "reps": a.reps, "goal_seconds": GOAL_SECONDS, "packs": {},
    }
    meta = a.synthetic / ".generated.json"
    if meta.is_file():
        results["synthetic_pack"] = json.loads(meta.read_text(encoding="utf-8"))

    for label, pack in packs:
        manifest = json.loads((pack / "pack.json").read_text(encoding="utf-8"))
        ruleset = manifest.get("ruleset", "desert-steel")
        print(f"\n## {label}: {pack}", flush=True)
        r: dict = {"path": str(pack)}
        r["inprocess"] = ip = bench_sandtable_inprocess(pack, a.reps)
        print(f"  sandtable in-process: {ip['files']} files, {ip['errors']} error(s), {ip['warnings']} warning(s); "
              f"cold {ip['cold']:.3f} s, warm {ip['warm']['median']:.3f} s ({ip['warm']['min']:.3f})", flush=True)
        for line in ip["first_errors"]:
            print("    " + line)
        r["cli"] = cli = bench_sandtable_cli(pack, a.reps)
        print(f"  sandtable validate -q: {cli['median']:.3f} s ({cli['min']:.3f}); exit {cli['exit_codes']}; "
              f"{cli['verdict']}", flush=True)
        r["check_jsonschema"] = cj = bench_check_jsonschema(pack, a.reps, ruleset)
        if cj["available"]:
            print(f"  check-jsonschema (schema only, {len(cj['per_kind'])} kinds, {cj['files']} files): "
                  f"{cj['median']:.3f} s ({cj['min']:.3f}); all passed: {cj['all_passed']}", flush=True)
            for kind, k in cj["per_kind"].items():
                if "median" in k:
                    print(f"    {kind:20s} {k['files']:4d} files {k['median']:7.3f} s  exit {k['exit_codes']}")
                    if "output" in k:
                        print("      " + k["output"].strip().replace("\n", "\n      ")[-800:])
                else:
                    print(f"    {kind:20s} {k['files']:4d} files  {k.get('skipped')}")
            r["ratio_cli_over_check_jsonschema"] = cli["median"] / cj["median"]
            r["ratio_inprocess_warm_over_check_jsonschema"] = ip["warm"]["median"] / cj["median"]
        else:
            print("  check-jsonschema: " + cj["note"])
        if not a.no_breakdown:
            r["breakdown"] = bd = phase_breakdown(pack)
            print("  where the time goes (one instrumented warm run): " +
                  ", ".join(f"{k} {v:.3f} s" for k, v in bd.items()), flush=True)
        results["packs"][label] = r

    # summary table
    print("\n## Summary (seconds, median of %d; min in parentheses)" % a.reps)
    print(f"{'pack':10s} {'files':>6s} {'sandtable cold':>15s} {'in-proc warm':>13s} {'CLI':>17s} "
          f"{'check-jsonschema':>18s} {'CLI/cj':>7s}")
    for label, r in results["packs"].items():
        ip, cli, cj = r["inprocess"], r["cli"], r["check_jsonschema"]
        cjs = f"{cj['median']:8.3f} ({cj['min']:.3f})" if cj.get("available") else "-"
        ratio = f"{r['ratio_cli_over_check_jsonschema']:7.2f}" if "ratio_cli_over_check_jsonschema" in r else "-"
        print(f"{label:10s} {ip['files']:6d} {ip['cold']:15.3f} {ip['warm']['median']:13.3f} "
              f"{cli['median']:8.3f} ({cli['min']:.3f}) {cjs:>18s} {ratio}")

    syn = results["packs"]["synthetic"]
    goals = {
        "synthetic_under_3s_one_core": syn["cli"]["median"] < GOAL_SECONDS,
        "synthetic_clean": syn["inprocess"]["errors"] == 0,
    }
    if "ratio_cli_over_check_jsonschema" in syn:
        goals["no_slower_than_check_jsonschema"] = syn["ratio_cli_over_check_jsonschema"] <= 1.0
    results["goals"] = goals
    print("\n## Goals")
    print(f"  synthetic pack validates with no error: {'yes' if goals['synthetic_clean'] else 'NO'}")
    print(f"  synthetic pack under {GOAL_SECONDS:.0f} s on one core (sandtable validate): "
          f"{'MET' if goals['synthetic_under_3s_one_core'] else 'NOT MET'} ({syn['cli']['median']:.2f} s)")
    if "no_slower_than_check_jsonschema" in goals:
        print(f"  sandtable full / check-jsonschema schema-only: {syn['ratio_cli_over_check_jsonschema']:.2f} "
              f"({'MET' if goals['no_slower_than_check_jsonschema'] else 'NOT MET'}: goal <= 1.00)")

    a.out.parent.mkdir(parents=True, exist_ok=True)
    a.out.write_text(json.dumps(results, indent=2, default=str) + "\n", encoding="utf-8")
    print(f"\nwrote {a.out}")
    return 0 if goals["synthetic_clean"] else 1


if __name__ == "__main__":
    raise SystemExit(main())
