"""Issue 25's reproducibility checks, too slow for the test suite:

    python benchmarks/reproducible.py [--scenario IX] [--games 20] [--replay-games 10]
                                      [--replay-scenario II] [--budget search:8]

1. ``simulate SCEN --games N --json`` with --jobs 1 and --jobs 2: byte-identical but for timings;
2. ``play SCEN --seed S`` for three of the batch's seeds: the same result and decisions;
3. a batch of --replay-games games with an Allied search bot, each written as a log and rebuilt
   with ``sandtable replay``'s code: every one replays to the same end.
Prints what it finds; exits 1 when a check fails.
"""
from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

from sandtable.rules.catalog import load_catalog
from sandtable.rules.desert_steel.engine.runner import digest, play, replay, sample_setup, write_log
from sandtable.rules.lab.simulate import simulate

TIMINGS = ("median_game_seconds", "games_per_second_one_core")


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--scenario", default="IX")
    p.add_argument("--games", type=int, default=20)
    p.add_argument("--replay-scenario", default="II")
    p.add_argument("--replay-games", type=int, default=10)
    p.add_argument("--budget", default="search:8")
    args = p.parse_args()
    catalog = load_catalog()
    model = catalog.model
    scenario = model.scenario(args.scenario)
    setup = sample_setup(catalog, scenario)
    failed = False
    runs = {}
    for jobs in (1, 2):
        start = time.perf_counter()
        out = simulate(catalog, scenario, setup, args.games, 0, ("heuristic", "heuristic"), jobs=jobs).to_json()
        for key in TIMINGS:
            out.pop(key)
        runs[jobs] = json.dumps(out, sort_keys=True)
        print(f"{scenario.id}: {args.games} games with --jobs {jobs}: {time.perf_counter() - start:.0f} s wall")
    same = runs[1] == runs[2]
    failed |= not same
    print(f"  --json identical for --jobs 1 and 2 (timings aside): {'yes' if same else 'NO'}")
    per_game = json.loads(runs[1])["per_game"]
    for g in per_game[-3:]:
        alone = play(model, scenario, setup, g["seed"])
        ok = (alone.returns()["winner"], len(alone.actions)) == (g["winner"], g["actions"])
        failed |= not ok
        print(f"  play {scenario.id} --seed {g['seed']} (game {g['index']}): {'the same game' if ok else 'DIFFERENT'}")
    scen = model.scenario(args.replay_scenario)
    setup = sample_setup(catalog, scen)
    bots = (args.budget, "heuristic")
    replayed = 0
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(args.replay_games):
            game = play(model, scen, setup, 1000 + i, bots)
            path = Path(tmp) / f"{i}.jsonl"
            write_log(path, game, setup, bots)
            again, recorded = replay(model, path)
            ok = again.is_terminal() and recorded == game.returns() and digest(again) == digest(game)
            replayed += ok
            failed |= not ok
    print(f"{scen.id}: {replayed} of {args.replay_games} logs of {bots[0]} (allied) vs heuristic replay to the same end")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
