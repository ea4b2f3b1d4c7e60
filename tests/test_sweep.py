"""sandtable sweep: points, invalid points, common random numbers, backends and resume.

The games are Gazala's (the fastest scenario) with few games a point: what is tested is that
a sweep's results depend on nothing but its arguments: not the backend (this process, local
worker processes, a real two-worker Dask cluster), not an interruption.
"""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from sandtable.cli import main
from sandtable.rules.lab import bundle as bundles
from sandtable.rules.lab.points import SpecError, grid, parse_values, parse_vary

GRID = ["III", "--vary", "scenario:gazala/conditions/turns=10,12", "--vary",
        "scenario:gazala/conditions/visibility=8,10", "--games", "2", "--seed", "5",
        "--bots", "random,random"]


def sweep(capsys, *args) -> tuple[int, dict | None, str]:
    code = main(["sweep", *args, "--json", "--no-progress"])
    out, err = capsys.readouterr()
    return code, (json.loads(out) if out.strip() else None), err


def files(folder: Path) -> dict[str, bytes]:
    return {n: (folder / n).read_bytes() for n in ("results.json", "summary.csv")}


@pytest.fixture(scope="module")
def local_run(tmp_path_factory):
    """The grid swept in this process: the reference every other backend must match byte for byte."""
    folder = tmp_path_factory.mktemp("sweep") / "local"
    assert main(["sweep", *GRID, "-o", str(folder), "--json", "--no-progress"]) == 0
    return folder


# --- points --------------------------------------------------------------------------------

def test_values_lists_ranges_and_json():
    assert parse_values("3,4,5", "x") == (3, 4, 5)
    assert parse_values("12..16", "x") == (12, 13, 14, 15, 16)
    assert parse_values("0..10/5,20", "x") == (0, 5, 10, 20)
    assert parse_values('true,"a,b",word,1.5,[1,2]', "x") == (True, "a,b", "word", 1.5, [1, 2])
    assert parse_values("3,3,2..3", "x") == (3, 2)  # each value once
    for bad in ("5..2", "1,,2", "[1,", ""):
        with pytest.raises(SpecError):
            parse_values(bad, "--vary x")


def test_vary_paths():
    v = parse_vary("unit-type:it-m13-40/defense=2..5")
    assert (v.kind, v.id, v.pointer, v.values) == ("unit-type", "it-m13-40", "/defense", (2, 3, 4, 5))
    v = parse_vary("scenario:kasserine-pass/conditions/turns=12..16")
    assert v.pointer == "/conditions/turns" and v.label == "scenario:kasserine-pass/conditions/turns"
    for bad in ("unit-type:it-m13-40/defense", "it-m13-40/defense=3", "unit-type:it-m13-40=3",
                "unit-type:/defense=3"):
        with pytest.raises(SpecError, match="--vary"):
            parse_vary(bad)


def test_grid_plays_the_pack_as_it_is_once(catalog):
    points = grid([parse_vary("scenario:gazala/conditions/turns=10,12"),
                   parse_vary("scenario:gazala/conditions/visibility=8,10")], catalog)
    # four combinations, one of which (12 turns, visibility 10) is the pack as it is: the baseline
    assert [p.label for p in points] == ["baseline (turns=12, visibility=10)", "turns=10, visibility=8",
                                         "turns=10, visibility=10", "turns=12, visibility=8"]
    assert points[0].baseline and not points[0].patches
    assert points[1].patches[0]["patch"] == [{"op": "replace", "path": "/conditions/turns", "value": 10}]


def test_points_of_two_objects_with_the_same_field_are_named_by_object(catalog):
    points = grid([parse_vary("unit-type:it-m13-40/defense=4"), parse_vary("unit-type:it-m11-39/defense=3")],
                  catalog)
    assert points[-1].label.startswith("it-m13-40/defense=4, it-m11-39/defense=")


@pytest.mark.parametrize("arg, message", [
    ("unit-typo:it-m13-40/defense=3", "no object kind 'unit-typo'"),
    ("unit-type:it-m99/defense=3", "no unit-type 'it-m99'"),
    ("unit-type:it-m13-40/armour/front=3", "has no value at /armour/front"),
])
def test_a_path_that_leads_nowhere_is_a_usage_error(capsys, tmp_path, arg, message):
    code, out, err = sweep(capsys, "I", "--vary", arg, "-o", str(tmp_path / "x"))
    assert code == 2 and message in err and "Traceback" not in err
    assert not (tmp_path / "x" / "results.json").exists()


def test_usage_errors(capsys, tmp_path):
    assert sweep(capsys, "XX", "--vary", "unit-type:it-m13-40/defense=3", "-o", str(tmp_path / "a"))[0] == 2
    assert sweep(capsys, "I", "-o", str(tmp_path / "b"))[0] == 2  # neither --vary nor --packs
    code, _, err = sweep(capsys, "--resume", str(tmp_path))
    assert code == 2 and "not a sweep folder" in err


def test_a_ruleset_without_an_engine_is_refused(capsys, tmp_path):
    from conftest import DATA
    code, _, err = sweep(capsys, "X", "--pack", str(DATA / "holland44"), "--vary", "counter:x/y=1",
                         "-o", str(tmp_path / "h"))
    assert code == 1 and "has no game engine" in err


def test_bundle_rebuilds_the_same_catalog_without_the_disk(catalog):
    b = bundles.bundle_of(catalog)
    again = bundles.load_bundle(b)
    assert again.errors == 0 and b.key == bundles.bundle_of(catalog).key
    assert {k: {i: e.value for i, e in t.items()} for k, t in again.objects.items()} == \
           {k: {i: e.value for i, e in t.items()} for k, t in catalog.objects.items()}
    patched = bundles.load_bundle(b, [{"target": {"kind": "unit-type", "id": "it-m13-40"},
                                       "patch": [{"op": "replace", "path": "/defense", "value": 5}]}])
    assert patched.model.unit_types["it-m13-40"].defense == 5
    assert catalog.model.unit_types["it-m13-40"].defense == 3  # the pack itself is untouched


# --- invalid points ------------------------------------------------------------------------

def test_invalid_points_are_findings_and_never_played(capsys, tmp_path):
    folder = tmp_path / "bad"
    code, out, err = sweep(capsys, "III", "--vary", "scenario:gazala/conditions/turns=0,12,11", "--games", "1",
                           "--bots", "random,random",
                           "-o", str(folder), "--no-charts")
    assert code == 1  # findings
    bad = [p for p in out["points"] if not p["valid"]]
    assert [p["label"] for p in bad] == ["turns=0"]
    f = bad[0]["findings"][0]
    assert f["code"] == "override-invalid" and "/conditions/turns" in f["message"] and "turns=0" in f["file"]
    results = json.loads((folder / "results.json").read_text())
    assert {g["point"] for g in results["games"]} == {0, 2}  # point 1 (turns=0) never played
    assert len(results["games"]) == 2


# --- common random numbers and backends ----------------------------------------------------

def test_every_point_plays_the_same_seeds_and_setups(local_run):
    results = json.loads((local_run / "results.json").read_text())
    by_point: dict = {}
    for g in results["games"]:
        by_point.setdefault(g["point"], []).append((g["game"], g["seed"], g["setup"]))
    assert len(by_point) == 4 and all(v == by_point[0] for v in by_point.values())
    base = results["points"][0]
    assert base["baseline"] and base["sides"]["allied"]["difference_to_baseline"] == 0
    for p in results["points"]:
        s = p["sides"]["allied"]
        assert s["win_rate_95"][0] <= s["win_rate"] <= s["win_rate_95"][1]
        assert s["difference_95"][0] <= s["difference_to_baseline"] <= s["difference_95"][1]
        assert s["paired_games"] == 2
    assert "diagnostics" in results["games"][0]
    # the grid gives a heat map; every chart in PNG and SVG, and the report holds them inline
    for name in ("winrate", "heatmap", "difference", "points"):
        assert (local_run / f"{name}.png").stat().st_size > 1000 and (local_run / f"{name}.svg").is_file()
    html = (local_run / "report.html").read_text()
    assert html.count("<svg") == 4 and "src=" not in html.replace("data:image", "")
    header = (local_run / "summary.csv").read_text().splitlines()[0].split(",")
    assert header[2:4] == ["scenario:gazala/conditions/turns", "scenario:gazala/conditions/visibility"]


def test_two_local_processes_give_the_same_bytes(local_run, tmp_path, capsys):
    code, out, _ = sweep(capsys, *GRID, "--jobs", "2", "--chunk", "1", "-o", str(tmp_path / "two"), "--no-charts")
    assert code == 0 and out["played"] == 8
    assert files(tmp_path / "two") == files(local_run)


def test_a_real_dask_cluster_gives_the_same_bytes(local_run, tmp_path, capsys):
    pytest.importorskip("distributed")
    from sandtable.rules.lab.cluster import local_cluster
    with local_cluster(workers=2, timeout=90) as address:
        code, out, err = sweep(capsys, *GRID, "--scheduler", address, "--chunk", "2", "-o", str(tmp_path / "dask"),
                               "--no-charts")
    assert code == 0, err
    assert out["played"] == 8 and out["backend"].startswith("dask")
    assert files(tmp_path / "dask") == files(local_run)


def test_an_unreachable_scheduler_is_reported(capsys, tmp_path):
    pytest.importorskip("distributed")
    from sandtable.rules.lab.cluster import free_port
    code, _, err = sweep(capsys, *GRID, "--games", "1", "--scheduler", f"tcp://127.0.0.1:{free_port()}",
                         "--connect-timeout", "1", "-o", str(tmp_path / "none"), "--no-charts")
    assert code == 1 and "cannot reach the Dask scheduler" in err and "Traceback" not in err


# --- resume --------------------------------------------------------------------------------

def test_resume_after_a_kill_replays_nothing_finished(local_run, tmp_path, capsys):
    folder = tmp_path / "killed"
    proc = subprocess.Popen([sys.executable, "-m", "sandtable", "sweep", *GRID, "--chunk", "1", "-o", str(folder),
                             "--no-progress", "--no-charts"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            start_new_session=True)
    try:
        deadline = time.monotonic() + 120
        games = folder / "games.jsonl"
        while time.monotonic() < deadline and proc.poll() is None:
            if games.is_file() and len(games.read_text().splitlines()) >= 3:
                break
            time.sleep(0.05)
        assert games.is_file(), f"the sweep did not start: {proc.stderr.read()}"
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=30)
    if (folder / "results.json").exists():  # a machine fast enough to finish first: leave what a kill leaves
        games.write_text("\n".join(games.read_text().splitlines()[:3]) + "\n")
        (folder / "results.json").unlink()
    if games.read_text().endswith("\n"):  # and a kill in the middle of writing a game's line
        with games.open("a") as fh:
            fh.write(games.read_text().splitlines()[0][:17])
    finished = len([line for line in games.read_text().splitlines() if line.endswith("}")])
    assert 3 <= finished < 8
    assert not (folder / "results.json").exists()

    code, out, _ = sweep(capsys, "--resume", str(folder), "--no-charts")
    assert code == 0
    assert out["reused"] == finished and out["played"] == 8 - finished
    assert files(folder) == files(local_run)
    # a finished sweep resumed plays nothing
    code, out, _ = sweep(capsys, "--resume", str(folder), "--no-charts")
    assert code == 0 and out["played"] == 0 and out["reused"] == 8


def test_redraw_remakes_the_same_files_from_the_games(local_run, tmp_path, capsys):
    import shutil
    folder = tmp_path / "again"
    shutil.copytree(local_run, folder)
    for name in ("winrate.png", "report.html"):
        (folder / name).unlink()
    code, out, _ = sweep(capsys, "--redraw", str(folder))
    assert code == 0 and (folder / "winrate.png").is_file() and (folder / "report.html").is_file()
    assert files(folder) == files(local_run)  # the statistics recomputed from the games are the same bytes


def test_resume_refuses_a_pack_that_changed(local_run, tmp_path, capsys):
    import shutil
    folder = tmp_path / "copy"
    shutil.copytree(local_run, folder)
    plan = json.loads((folder / "sweep.json").read_text())
    plan["bundle_keys"]["1"] = "0123456789abcdef"  # as if a file of the pack had been edited since
    (folder / "sweep.json").write_text(json.dumps(plan))
    code, _, err = sweep(capsys, "--resume", str(folder))
    assert code == 1 and "the pack changed" in err


def test_packs_compares_mod_packs(tmp_path, capsys):
    from conftest import DATA
    folder = tmp_path / "packs"
    code, out, _ = sweep(capsys, "III", "--packs", str(DATA / "example-mod"), "--games", "1", "--bots",
                         "random,random", "-o", str(folder), "--no-charts")
    assert code == 0
    assert [p["label"] for p in out["points"]] == ["baseline (bundled pack)", str(DATA / "example-mod")]
    assert all(p["games"] == 1 for p in out["points"])
    assert "example-mod" in (folder / "summary.csv").read_text()


def test_setups_are_shared_by_every_point(tmp_path, capsys):
    folder = tmp_path / "setups"
    code, out, _ = sweep(capsys, "III", "--vary", "scenario:gazala/conditions/turns=11", "--setups", "1", "--games", "2",
                         "--bots", "random,random", "-o", str(folder), "--no-charts")
    assert code == 0
    results = json.loads((folder / "results.json").read_text())
    assert results["sweep"]["setups"] == "sample + 1 automatic"
    assert sorted((g["point"], g["game"], g["setup"]) for g in results["games"]) == \
        [(0, 0, 0), (0, 1, 1), (1, 0, 0), (1, 1, 1)]
