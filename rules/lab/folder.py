"""A sweep folder is checked before it is used: ``--resume`` and ``--redraw`` read files that
may have been edited, damaged, or copied from another sweep.

Every game record must have the shape ``summarise`` needs and belong to *this* sweep: its
point exists, its game number is in range, its seed is the one the plan gives that game
(game_seed(seed, game)) and its setup index is the plan's. results.json must have the shape
of a sweep's results, and agree with the folder's sweep.json (scenario, seed, pack keys)
when both are there. A problem is one sentence naming the file and line (SweepError), never
a KeyError in the statistics.
"""
from __future__ import annotations

import json
import math
from pathlib import Path

SIDES = ("allied", "axis")
WINNERS = ("allied", "axis", "draw")


def _int(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _num(v) -> bool:
    return (isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)
            and abs(v) <= 1e15)


def record_problem(r, points: int, games: int, seed: int | None, setups: int) -> str | None:
    """Why a game record cannot be this sweep's (None when it can). setups 0: not checked."""
    if not isinstance(r, dict):
        return "a game record is a JSON object"
    for key in ("point", "game", "seed", "setup"):
        if not _int(r.get(key)):
            return f"its {key!r} is not an integer"
    if not 0 <= r["point"] < points:
        return f"point {r['point']} is not a point of this sweep (0..{points - 1})"
    if not 0 <= r["game"] < games:
        return f"game {r['game']} is not a game of this sweep (0..{games - 1})"
    if seed is not None:
        from .batch import game_seed
        if r["seed"] != game_seed(seed, r["game"]):
            return f"game {r['game']} has seed {r['seed']}, not this sweep's (another sweep's game?)"
    if setups and r["setup"] != r["game"] % setups:
        return f"game {r['game']} was played on setup {r['setup']}, not this sweep's {r['game'] % setups}"
    if "error" in r:
        return None if isinstance(r["error"], str) else "its 'error' is not a text"
    if r.get("winner") not in WINNERS:
        return f"its winner {str(r.get('winner'))[:40]!r} is not one of {', '.join(WINNERS)}"
    pts = r.get("points")
    if not isinstance(pts, dict) or not all(_num(pts.get(s)) for s in SIDES):
        return "its 'points' are not a number for each side"
    losses = r.get("losses")
    if not isinstance(losses, dict) or not all(
            isinstance(losses.get(s), dict) and all(isinstance(k, str) and _int(n) and n >= 0
                                                    for k, n in losses[s].items()) for s in SIDES):
        return "its 'losses' are not counts by unit type for each side"
    if not _int(r.get("turns")) or not isinstance(r.get("cause", ""), str):
        return "its 'turns' or 'cause' are not an integer and a text"
    if "diagnostics" in r and not isinstance(r["diagnostics"], dict):
        return "its 'diagnostics' are not an object"
    return None


def results_problem(results) -> str | None:
    """Why a parsed results.json is not a sweep's results (None when its shape is right)."""
    if not isinstance(results, dict) or not isinstance(results.get("sweep"), dict):
        return "it is not a sweep's results (no 'sweep' object)"
    head = results["sweep"]
    if head.get("sandtable_sweep") != 1:
        return f"its format {str(head.get('sandtable_sweep'))[:20]!r} is not a sweep results version this sandtable reads"
    if not isinstance(head.get("scenario"), str) or not _int(head.get("games")) or not _int(head.get("seed")):
        return "its scenario, games and seed are not a text and two integers"
    if not 1 <= head["games"] <= 100_000 or not 0 <= head["seed"] < 2 ** 63:
        return "its games or seed are out of range"
    if not (isinstance(head.get("bots"), list) and len(head["bots"]) == 2 and all(isinstance(b, str) for b in head["bots"])):
        return "its bots are not two names"
    if not isinstance(head.get("varies"), list) or not all(isinstance(v, str) for v in head["varies"]):
        return "its varied values are not a list of names"
    if not isinstance(head.get("setups"), str) or not isinstance(head.get("options", {}), dict):
        return "its setups or options are malformed"
    points = head.get("points")
    if not isinstance(points, list) or not points or len(points) > 400:
        return "it has no list of points (1 to 400)"
    for i, p in enumerate(points):
        if not (isinstance(p, dict) and p.get("index") == i and _int(p.get("index")) and isinstance(p.get("label"), str)
                and isinstance(p.get("values"), dict) and isinstance(p.get("baseline"), bool)):
            return f"its point {i} is malformed"
    rows = results.get("points")
    if not isinstance(rows, list) or len(rows) != len(points):
        return "its summary rows do not match its points"
    for i, row in enumerate(rows):
        if not (isinstance(row, dict) and row.get("index") == i and isinstance(row.get("valid"), bool)
                and isinstance(row.get("findings", []), list)
                and all(isinstance(f, dict) and isinstance(f.get("code"), str) and isinstance(f.get("message"), str)
                        for f in row.get("findings", []))):
            return f"its summary row {i} is malformed"
    games = results.get("games")
    if not isinstance(games, list):
        return "it has no list of games"
    seen = set()
    for n, r in enumerate(games):
        why = record_problem(r, len(points), head["games"], head["seed"], 0)
        if why:
            return f"game record {n}: {why}"
        if (r["point"], r["game"]) in seen:
            return f"game record {n}: point {r['point']} game {r['game']} is there twice"
        seen.add((r["point"], r["game"]))
    return None


def foreign_problem(saved_plan, results_head: dict) -> str | None:
    """Why a folder's sweep.json and results.json are not of the same sweep."""
    if not isinstance(saved_plan, dict):
        return "its sweep.json is not a sweep plan"
    for key in ("scenario", "seed", "games", "bundle_keys", "setups_digest"):
        if key in saved_plan and key in results_head and saved_plan[key] != results_head[key]:
            return (f"its sweep.json and results.json are of different sweeps ({key} "
                    f"{str(saved_plan[key])[:40]!r} / {str(results_head[key])[:40]!r})")
    return None


def read_games_checked(path: Path, points: int, games: int, seed: int, setups: int) -> dict:
    """(point, game) -> record of a games.jsonl, every line checked; a last line cut by a kill is
    dropped, any other damage is a SweepError naming the line."""
    from .batch import SweepError
    done: dict = {}
    if not path.is_file():
        return done
    with path.open("rb") as fh:
        data = fh.read()
    lines = data.split(b"\n")
    for number, raw in enumerate(lines, 1):
        if not raw.strip():
            continue
        try:
            r = json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, ValueError, RecursionError) as exc:
            if number == len(lines):  # no newline after it: the line a kill cut
                continue
            raise SweepError(f"{path}:{number}: a damaged game record ({type(exc).__name__}); this folder cannot be "
                             "resumed: start the sweep in a new folder") from None
        why = record_problem(r, points, games, seed, setups)
        if why:
            raise SweepError(f"{path}:{number}: {why}; this folder cannot be resumed: start the sweep in a new folder")
        done[(r["point"], r["game"])] = r
    return done
