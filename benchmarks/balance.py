"""Balance of every playable scenario: heuristic bots on both sides, N games each.

    python benchmarks/balance.py [--games 200] [--jobs 2] [--seed 1] [--out docs/balance.md]
                                 [--save DIR] [--from DIR]

Each scenario's 'simulate --json' result is written to --save DIR as it finishes (NUMBER.json), and
--from DIR reuses such results, so a long run can be resumed. Scenarios the engine cannot play
(a mod's, say) are listed with the rules they still need.
"""
from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from sandtable.rules.catalog import load_catalog
from sandtable.rules.desert_steel.engine.game import EngineError, make_context
from sandtable.rules.desert_steel.engine.runner import sample_setup, simulate


def pct(interval) -> str:
    return f"{100 * interval[0]:.0f}–{100 * interval[1]:.0f} %"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", default=str(Path(__file__).resolve().parents[1] / "docs" / "balance.md"))
    ap.add_argument("--from", dest="cached", help="folder of earlier 'simulate --json' results, NUMBER.json")
    ap.add_argument("--save", help="folder to write each scenario's result to as it finishes")
    args = ap.parse_args()
    catalog = load_catalog()
    model = catalog.model
    rows, refused = [], []
    for scenario in model.scenarios.values():
        try:
            make_context(model, scenario)
        except EngineError as exc:
            refused.append((scenario, str(exc).split(": ", 1)[-1]))
            continue
        cached = Path(args.cached) / f"{scenario.number}.json" if args.cached else None
        if cached and cached.is_file() and cached.stat().st_size:
            out = json.loads(cached.read_text())
        else:
            start = time.perf_counter()
            out = simulate([], scenario.id, sample_setup(catalog, scenario), args.games, args.seed,
                           args.jobs).to_json()
            out["wall_seconds"] = time.perf_counter() - start
            if args.save:
                Path(args.save).mkdir(parents=True, exist_ok=True)
                (Path(args.save) / f"{scenario.number}.json").write_text(json.dumps(out))
            print(f"{scenario.number}: {out['games']} games in {out['wall_seconds']:.0f} s", flush=True)
        rows.append((scenario, out))
    lines = ["# Balance of the scenarios", "",
             f"Heuristic bot against heuristic bot, seed {args.seed}, the pack's sample setups, the number of games "
             "in the table; made by `python benchmarks/balance.py`. Win rates with 95 % Wilson intervals.",
             "The bots are simple (see `rules/desert_steel/engine/bots.py`) and most values of the pack are "
             "reconstructed (NOTES.md): read a lopsided result as a question for the designer, not a verdict.",
             "Times are taken inside the batch (worker processes sharing the machine); "
             "`python benchmarks/bench_engine.py` measures one core alone.", "",
             "| # | Scenario | Games | Allied wins | Axis wins | Draws | Most common result | Median game | Games/s (one core) |",
             "|---|---|---:|---:|---:|---:|---|---:|---:|"]
    for s, o in rows:
        a, x = o["sides"]["allied"], o["sides"]["axis"]
        lines.append(f"| {s.number} | {s.name} | {o['games']} | {a['wins']} ({pct(a['win_rate_95'])}) | "
                     f"{x['wins']} ({pct(x['win_rate_95'])}) | {o['draws']} | {str(o['most_common_cause']).split(':')[0]} | "
                     f"{1000 * o['median_game_seconds']:.0f} ms | {o.get('games_per_second_one_core', 0):.1f} |")
    lopsided = [s.number for s, o in rows
                if max(o["sides"]["allied"]["wins"], o["sides"]["axis"]["wins"], o["draws"]) >= 0.85 * o["games"]]
    lines += ["", f"Lopsided (one result in 85 % of games or more): {', '.join(lopsided) or 'none'}.", ""]
    if refused:
        lines += ["## Not playable yet", "", "| # | Scenario | Why |", "|---|---|---|"]
        lines += [f"| {s.number} | {s.name} | {why} |" for s, why in refused]
    Path(args.out).write_text("\n".join(lines) + "\n", encoding="utf-8")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
