"""Balance of every playable scenario: heuristic bots on both sides, N games each, spread over
the sample setup and S seeded automatic setups, with the batch diagnostics of each scenario.

    python benchmarks/balance.py [--games 200] [--setups 5] [--bots heuristic,heuristic] [--jobs 2]
                                 [--seed 1] [--out docs/balance.md] [--save DIR] [--from DIR]
    python benchmarks/balance.py --ladder [--games 20] [--search-games 2]
                                 [--ladder-budgets search:4,search:16] [--jobs 2] [--save DIR] [--from DIR]

--ladder plays each scenario at growing strength, the same bot on both sides (``simulate --ladder``:
the heuristic for --games on the sample setup, then the search bot at each budget for
--search-games) and writes the levels side by side with each scenario's verdict (stable, shifts,
flips): only a result that holds at the strongest level reads as by design.

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
from sandtable.rules.desert_steel.bots.core import bot_names
from sandtable.rules.desert_steel.engine.runner import measurable_scenarios, sample_setup, setup_pool
from sandtable.rules.lab.simulate import ladder, simulate


def pct(interval) -> str:
    return f"{100 * interval[0]:.0f}–{100 * interval[1]:.0f} %"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--setups", type=int, default=5, help="automatic setups besides the sample (0: sample only)")
    ap.add_argument("--bots", default="heuristic,heuristic", help="ALLIED,AXIS")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", default=str(Path(__file__).resolve().parents[1] / "docs" / "balance.md"))
    ap.add_argument("--from", dest="cached", help="folder of earlier 'simulate --json' results, NUMBER.json")
    ap.add_argument("--save", help="folder to write each scenario's result to as it finishes")
    ap.add_argument("--ladder", action="store_true", help="the strength ladder of every scenario (see above)")
    ap.add_argument("--search-games", type=int, default=2)
    ap.add_argument("--ladder-budgets", default="search:4,search:16")
    ap.add_argument("--scenarios", help="comma-separated numbers or ids (default: all with victory conditions)")
    args = ap.parse_args()
    if args.ladder:
        ladder_doc(args)
        return
    try:
        bots = tuple(bot_names(args.bots, count=2))
    except ValueError as exc:
        ap.error(str(exc))
    catalog = load_catalog()
    model = catalog.model
    rows = []
    playable, refused = measurable_scenarios(model)
    for scenario in playable:
        cached = Path(args.cached) / f"{scenario.number}.json" if args.cached else None
        if cached and cached.is_file() and cached.stat().st_size:
            out = json.loads(cached.read_text())
        else:
            start = time.perf_counter()
            setups = setup_pool(model, scenario, args.setups, sample_setup(catalog, scenario))
            out = simulate(catalog, scenario, setups, args.games, args.seed, bots, jobs=args.jobs).to_json()
            out["wall_seconds"] = time.perf_counter() - start
            if args.save:
                Path(args.save).mkdir(parents=True, exist_ok=True)
                (Path(args.save) / f"{scenario.number}.json").write_text(json.dumps(out))
            print(f"{scenario.number}: {out['games']} games in {out['wall_seconds']:.0f} s", flush=True)
        rows.append((scenario, out))
    lines = ["# Balance of the scenarios", "",
             f"`{bots[0]}` (allied) against `{bots[1]}` (axis), seed {args.seed}, {args.games} games a scenario "
             f"spread over {args.setups + 1} setups (the pack's sample and {args.setups} seeded automatic legal "
             "setups, `simulate --setups`); made by "
             f"`python benchmarks/balance.py --games {args.games} --setups {args.setups} --bots {args.bots}`. "
             "Win rates with 95 % Wilson intervals; median game times are wall clock on a shared, loaded machine. "
             "The game counts are modest: the full run is `python benchmarks/balance.py --games 200 --setups 5 "
             f"--jobs 2` (this run, {args.games} games of each scenario, took "
             f"{sum(o.get('wall_seconds', 0) for _, o in rows) / 60:.1f} minutes of wall time with --jobs {args.jobs}).",
             "Most values of the pack are reconstructed (NOTES.md): read a lopsided result as a question for the "
             "designer, not a verdict. The bots are described in docs/bots.md.", "",
             "| # | Scenario | Games | Allied wins | Axis wins | Draws | Win rate by setup (allied) | Setup share of variance | Most common result | Median game |",
             "|---|---|---:|---:|---:|---:|---|---:|---|---:|"]
    for s, o in rows:
        a, x = o["sides"]["allied"], o["sides"]["axis"]
        st = o.get("setups", {}).get("sides", {}).get("allied")
        by_setup = f"{100 * st['win_rate_by_setup_min']:.0f}–{100 * st['win_rate_by_setup_max']:.0f} %" if st else "—"
        share = f"{100 * st['setup_share_of_variance']:.0f} %" if st else "—"
        lines.append(f"| {s.number} | {s.name} | {o['games']} | {a['wins']} ({pct(a['win_rate_95'])}) | "
                     f"{x['wins']} ({pct(x['win_rate_95'])}) | {o['draws']} | {by_setup} | {share} | "
                     f"{str(o['most_common_cause']).split(':')[0]} | {1000 * o['median_game_seconds']:.0f} ms |")
    lines += ["", "Setup share of variance: how much of the variance of the allied result lies between setups "
              "(the setup decides) rather than within them (dice and play decide); law of total variance.", "",
              "## Diagnostics (per game, allied / axis)", "",
              "| # | Overstack losses | Fortified units leaving on turn 1 | Opportunity fires | Move-and-fire | "
              "Wasted bombardments | Objective progress | Warnings |", "|---|---|---|---|---|---|---|---|"]
    for s, o in rows:
        d = o.get("diagnostics") or {}
        if not d:
            continue
        al, ax = d["allied"], d["axis"]

        def both(key, fmt="{:g}"):
            return " / ".join("—" if v[key] is None else fmt.format(v[key]) for v in (al, ax))

        fort = " / ".join(f"{v['fortified_units_leaving_turn1']:g} of {v['fortified_units']:g}"
                          if v["fortified_units"] else "—" for v in (al, ax))
        warn = "; ".join(o.get("warnings", [])) or "none"
        lines.append(f"| {s.number} | {both('overstack_losses')} | {fort} | {both('opportunity_fires')} | "
                     f"{both('move_and_fire')} | {both('wasted_bombardments')} | "
                     f"{both('objective_progress', '{:.0%}')} | {warn} |")
    lopsided = [(s, o) for s, o in rows
                if max(o["sides"]["allied"]["wins"], o["sides"]["axis"]["wins"], o["draws"]) >= 0.85 * o["games"]]
    lines += ["", "## Reading", "",
              f"Lopsided (one result in 85 % of games or more): {', '.join(s.number for s, _ in lopsided) or 'none'}.",
              "", "A lopsided result reads as *by design* when the diagnostics are clean (no warning: the bots "
              "neither overstack, nor leave their fortifications, nor ignore their objective) and it holds on "
              "every setup; as *possibly by bot* when a warning names a habit of the losing side that could explain it "
              "(the winner's habits only make its win harder).", ""]
    for s, o in lopsided:
        winner = max(("allied", "axis", "draw"), key=lambda k: o["draws"] if k == "draw" else o["sides"][k]["wins"])
        st = o.get("setups", {}).get("sides", {}).get("allied")
        steady = st is None or st["win_rate_by_setup_max"] - st["win_rate_by_setup_min"] <= 0.3
        # a habit of the winner's bot (a wasted bombardment) makes its win harder, not easier: only
        # the loser's, or a warning about both, can explain a lopsided result
        explaining = [w for w in o.get("warnings", []) if not w.startswith(f"{winner}:")]
        verdict = "likely by design: no bot habit in the diagnostics explains it and it holds on every setup " \
            "(check in docs/bots.md that the losing side's bot beats random there)" \
            if not explaining and steady else \
            "possibly by bot: " + ("; ".join(explaining) or "the result moves with the setup")
        count = o["draws"] if winner == "draw" else o["sides"][winner]["wins"]
        lines.append(f"- {s.number} {s.name}: {winner} in {count} of {o['games']} games — {verdict}.")
    lines.append("")
    if refused:
        lines += ["## Not measured", "", "| # | Scenario | Why |", "|---|---|---|"]
        lines += [f"| {s.number} | {s.name} | {why} |" for s, why in refused]
    Path(args.out).write_text("\n".join(lines) + "\n", encoding="utf-8")
    print("\n".join(lines))


def ladder_doc(args) -> None:
    from sandtable.rules.desert_steel.engine.ladder import verdict
    budgets = [b for b in args.ladder_budgets.split(",") if b]
    catalog = load_catalog()
    model = catalog.model
    wanted = args.scenarios.split(",") if args.scenarios else None
    playable, refused = measurable_scenarios(model, wanted)
    rows = []
    for scenario in playable:
        cached = Path(args.cached) / f"ladder-{scenario.number}.json" if args.cached else None
        if cached and cached.is_file() and cached.stat().st_size:
            out = json.loads(cached.read_text())
            out.update(verdict(out["levels"]))  # the verdict as this code reads the saved levels
        elif args.cached and not args.save:
            continue  # writing the document from saved results only: a scenario not (yet) played is left out
        else:
            start = time.perf_counter()
            out = ladder(catalog, scenario, sample_setup(catalog, scenario), args.games, args.search_games,
                         args.seed, budgets, jobs=args.jobs)
            out["wall_seconds"] = time.perf_counter() - start
            if args.save:
                Path(args.save).mkdir(parents=True, exist_ok=True)
                (Path(args.save) / f"ladder-{scenario.number}.json").write_text(json.dumps(out))
            print(f"{scenario.number}: {out['verdict']} in {out['wall_seconds']:.0f} s", flush=True)
        rows.append((scenario, out))
    levels = ["heuristic", *budgets]
    games = {lv: max((next((x["games"] for x in o["levels"] if x["bot"] == lv), 0) for _, o in rows), default=0)
             for lv in levels}
    lines = ["# Balance of the scenarios, as the bots get stronger", "",
             "Each scenario is played with the same bot on both sides at growing strength: the heuristic against "
             f"itself ({games['heuristic']} games), then the search bot against itself at "
             + " and ".join(f"`{b}` ({games[b]} games)" for b in budgets)
             + f"; the pack's sample setup, seed {args.seed}. Made by `python benchmarks/balance.py --ladder "
             f"--games {args.games} --search-games {args.search_games} --ladder-budgets {args.ladder_budgets}` "
             "(one scenario: `sandtable simulate SCEN --ladder`). A cell gives Allied wins / Axis wins / draws and "
             "the Allied score (wins and half the draws) with its 95 % Wilson interval.", "",
             "The verdict: **stable** when every level favours the same side (a score of 60 % or more; or none) "
             "and the intervals of the heuristic and the strongest level overlap; **flips** when the strongest "
             "level favours the other side than the heuristic; **shifts** otherwise. Only a stable, lopsided "
             "result reads as *by design*; one that shifts or flips was decided, at least in part, by the weaker "
             "bots. The search levels have few games (a search game costs some fifty heuristic games on this "
             "shared 2-core machine): their intervals are wide, and a verdict marked *(few games)* is a lead to "
             "follow, not a finding. Most values of the pack are reconstructed (NOTES.md). This run took "
             f"{sum(o.get('wall_seconds', 0) for _, o in rows) / 60:.0f} minutes of wall clock with --jobs "
             f"{args.jobs} on a shared, loaded machine; more games are the same command with larger "
             "--search-games.", "",
             "| # | Scenario | " + " | ".join(f"`{lv}`" for lv in levels) + " | Verdict |",
             "|---|---|" + "---|" * len(levels) + "---|"]
    for s, o in rows:
        cells = []
        for lv in levels:
            x = next((x for x in o["levels"] if x["bot"] == lv), None)
            if x is None:
                cells.append("—")
                continue
            lo, hi = x["allied_score_95"]
            idle = "" if not x.get("engagement") or x["engagement"]["engaged"] else " ⚠ no engagement"
            cells.append(f"{x['allied']}/{x['axis']}/{x['draws']}: {100 * x['allied_score']:.0f} % "
                         f"({100 * lo:.0f}–{100 * hi:.0f} %){idle}")
        word = o["verdict"] + (" (few games)" if o.get("too_few_games") else "")
        if o.get("by_design"):
            word += ", by design if it holds with more games" if o.get("too_few_games") else ", by design"
        lines.append(f"| {s.number} | {s.name} | " + " | ".join(cells) + f" | {word} |")
    lines += ["", "## Reading", ""]
    for s, o in rows:
        fav = o["favoured"]
        text = {"stable": f"{fav[-1]} favoured at every level" if fav[-1] != "even" else "even at every level",
                "shifts": ("favoured side by level: " + ", ".join(fav)) if len(set(fav)) > 1 else
                f"{fav[0]} favoured at every level, but the strongest level's score is out of the heuristic's range",
                "flips": f"{fav[0]} with the heuristic, {fav[-1]} with the strongest search bot"}[o["verdict"]]
        warns = sorted({w for x in o["levels"] for w in x.get("warnings", []) if "did not engage" in w})
        lines.append(f"- {s.number} {s.name}: {o['verdict']} — {text}" + (f"; {warns[0]}" if warns else "") + ".")
    lines += ["", "## Diagnostics of the heuristic level (per game, allied / axis)", "",
              "| # | Fires | Losses | Opportunity fires (same-hex, at overrunners) | Move-and-fire (converted) | "
              "Wasted bombardments (of) | Objective progress | Warnings |", "|---|---|---|---|---|---|---|---|"]
    for s, o in rows:
        x = next((x for x in o["levels"] if x["bot"] == "heuristic"), None)
        d = (x or {}).get("diagnostics")
        if not d:
            continue
        al, ax = d["allied"], d["axis"]

        def both(fmt, *keys):
            return " / ".join("—" if v.get(keys[0]) is None else fmt.format(*(v.get(k, 0) for k in keys))
                              for v in (al, ax))

        lines.append(f"| {s.number} | {both('{:g}', 'fires')} | {both('{:g}', 'losses')} | "
                     f"{both('{:g} ({:g}, {:g})', 'opportunity_fires', 'same_hex_fires', 'overrun_fires')} | "
                     f"{both('{:g} ({:g})', 'move_and_fire', 'move_and_fire_converted')} | "
                     f"{both('{:g} ({:g})', 'wasted_bombardments', 'bombardments')} | "
                     f"{both('{:.0%}', 'objective_progress')} | {'; '.join(x.get('warnings', [])) or 'none'} |")
    lines.append("")
    missing = [s for s in playable if s not in [r[0] for r in rows]]
    if missing:
        lines += [f"Not played in this run (out of time): {', '.join(s.number for s in missing)}.", ""]
    if refused:
        lines += ["## Not measured", "", "| # | Scenario | Why |", "|---|---|---|"]
        lines += [f"| {s.number} | {s.name} | {why} |" for s, why in refused]
    Path(args.out).write_text("\n".join(lines) + "\n", encoding="utf-8")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
