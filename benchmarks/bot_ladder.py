"""Bot ladder: every bot against every other, on both sides of every scenario with victory
conditions, with fixed seeds; writes docs/bots.md (win rates with 95 % intervals, Elo-style
ratings, time per game) and checks issue 15's "must show" targets.

    python benchmarks/bot_ladder.py [--games 4] [--search-games 1] [--search-budget 8]
                                    [--bots random,heuristic-v1,heuristic,search:8]
                                    [--scenarios I,II,...] [--jobs 1] [--seed 1]
                                    [--save DIR] [--from DIR] [--out docs/bots.md]

--games is per scenario, per pairing and per side (a pairing A-B plays A allied against B axis,
then B allied against A axis); pairings with a search bot play --search-games instead (a search
game costs some hundred heuristic games). --save writes each batch as it finishes, --from
reuses them: a long run can be resumed or extended.
"""
from __future__ import annotations

import argparse
import itertools
import json
import math
import resource
import statistics
import time
from pathlib import Path

from sandtable.rules.catalog import load_catalog
from sandtable.rules.desert_steel.bots.core import bot_names
from sandtable.rules.desert_steel.engine.runner import measurable_scenarios, sample_setup
from sandtable.rules.stats import wilson
from sandtable.rules.lab.simulate import simulate

DEFAULT_BOTS = "random,heuristic-v1,heuristic,search:8"


def run_batches(catalog, scenarios, bots, args) -> list[dict]:
    """One batch per (scenario, allied bot, axis bot); each row has the winner counts and times."""
    rows = []
    for s in scenarios:
        setup = sample_setup(catalog, s)
        for a, b in itertools.permutations(bots, 2):
            searching = [x for x in (a, b) if x.startswith("search")]
            games = args.search_games if searching else args.games
            if games < 1:
                continue
            if searching and args.search_scenarios and s.number not in args.search_scenarios.split(","):
                continue  # search games only on the scenarios named
            if searching and args.search_opponents and not all(
                    (b if x == a else a) in args.search_opponents.split(",") for x in searching):
                continue  # a search bot plays only the opponents named (its games are costly)
            key = f"{s.number}_{a}_{b}".replace(":", "-")
            cached = Path(args.cached) / f"{key}.json" if args.cached else None
            if cached and cached.is_file():
                out = json.loads(cached.read_text())
            else:
                start, cpu = time.perf_counter(), _cpu()
                out = simulate(catalog, s, setup, games, args.seed, (a, b), jobs=args.jobs).to_json()
                out["wall_seconds"] = round(time.perf_counter() - start, 2)
                # CPU time a game (this process and its finished workers): on a shared machine the
                # wall clock measures the neighbours' load as much as the bots
                out["cpu_seconds_per_game"] = round((_cpu() - cpu) / max(1, out["games"]), 3)
                if args.save:
                    Path(args.save).mkdir(parents=True, exist_ok=True)
                    (Path(args.save) / f"{key}.json").write_text(json.dumps(out))
                print(f"{s.number} {a} (allied) vs {b} (axis): allied {out['sides']['allied']['wins']}, "
                      f"axis {out['sides']['axis']['wins']}, draws {out['draws']} in {out['wall_seconds']:.0f} s",
                      flush=True)
            rows.append({"scenario": s.number, "allied": a, "axis": b, "games": out["games"],
                         "allied_wins": out["sides"]["allied"]["wins"], "axis_wins": out["sides"]["axis"]["wins"],
                         "draws": out["draws"], "median_game_seconds": out["median_game_seconds"],
                         "cpu_seconds_per_game": out.get("cpu_seconds_per_game"),
                         "wall_seconds": out.get("wall_seconds", 0.0),
                         "diagnostics": out.get("diagnostics")})
    return rows


def _cpu() -> float:
    own = time.process_time()
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own + children.ru_utime + children.ru_stime


def head_to_head(rows, bot, opponent) -> dict:
    """bot's record against opponent, per side and in all (draws count half in 'score')."""
    out = {}
    for side in ("allied", "axis", "all"):
        w = d = n = 0
        for r in rows:
            for my_side in ("allied", "axis"):
                if side != "all" and my_side != side:
                    continue
                their = "axis" if my_side == "allied" else "allied"
                if r[my_side] == bot and r[their] == opponent:
                    w += r[f"{my_side}_wins"]
                    d += r["draws"]
                    n += r["games"]
        lo, hi = wilson(w, n)
        out[side] = {"wins": w, "draws": d, "games": n, "win_rate": w / n if n else 0.0, "win_rate_95": [lo, hi],
                     "score": (w + d / 2) / n if n else 0.0}
    return out


def elo(rows, bots, iterations: int = 500) -> dict:
    """Elo-style ratings: a Bradley-Terry fit (Zermelo's iteration) to every game, a draw half a
    win, with one virtual draw per pairing so that a bot that never wins keeps a finite rating;
    400 * log10 of the strength, anchored so that random (or the first bot) is 1000."""
    wins = {b: 0.0 for b in bots}
    n = {}
    for r in rows:
        a, b, games = r["allied"], r["axis"], r["games"]
        wins[a] += r["allied_wins"] + r["draws"] / 2
        wins[b] += r["axis_wins"] + r["draws"] / 2
        n[(a, b)] = n.get((a, b), 0) + games
        n[(b, a)] = n.get((b, a), 0) + games
    pairs = {k for k in n}
    for a, b in pairs:  # the virtual draw
        n[(a, b)] += 1 / 2
        wins[a] += 1 / 4
    strength = {b: 1.0 for b in bots}
    for _ in range(iterations):
        new = {}
        for b in bots:
            denom = sum(n[(b, o)] / (strength[b] + strength[o]) for o in bots if (b, o) in n)
            new[b] = wins[b] / denom if denom else strength[b]
        norm = math.exp(sum(math.log(max(v, 1e-12)) for v in new.values()) / len(new))
        strength = {b: max(v, 1e-12) / norm for b, v in new.items()}
    anchor = "random" if "random" in bots else bots[0]
    return {b: round(1000 + 400 * math.log10(strength[b] / strength[anchor])) for b in bots}


def _batch_minutes(rows, kind: str) -> str:
    if kind == "wall":
        total = sum(r.get("wall_seconds") or 0 for r in rows)
    else:
        total = sum((r.get("cpu_seconds_per_game") or 0) * r["games"] for r in rows)
    return f"{total / 60:.1f}"


def pct(x) -> str:
    return f"{100 * x:.0f} %"


def ci(iv) -> str:
    return f"{100 * iv[0]:.0f}–{100 * iv[1]:.0f} %"


def write_doc(path, rows, bots, scenarios, args, wall) -> list[str]:
    lines = ["# Bot ladder", "",
             f"Made by `python benchmarks/bot_ladder.py --games {args.games} --search-games {args.search_games} "
             f"--bots {','.join(bots)} --seed {args.seed}"
             f"{' --search-opponents ' + args.search_opponents if args.search_opponents else ''}"
             f"{' --search-scenarios ' + args.search_scenarios if args.search_scenarios else ''}` on {len(scenarios)} scenarios with victory conditions "
             f"({', '.join(s.number for s in scenarios)}; VI has none), the pack's sample setups; "
             f"{sum(r['games'] for r in rows)} games; the batches took {_batch_minutes(rows, 'wall')} min of wall time "
             f"and {_batch_minutes(rows, 'cpu')} min of CPU time on a shared 2-core machine "
             f"(this run: {wall / 60:.0f} min; --from reuses saved batches). "
             f"Each pairing plays both sides: {args.games} games per scenario and side "
             f"({args.search_games} when a search bot plays). Win rates carry 95 % Wilson intervals; "
             "small samples give wide intervals — the full run is the same command with "
             "`--games 20 --search-games 4` (a few hours on one core).", "",
             "Bots: `random` (uniform over legal actions), `heuristic-v1` (the first heuristic, kept for "
             "comparison), `heuristic` (the second: stance from the victory terms, full stacking, own "
             "minefields, deadlines, path planning, move-and-fire, interrupts only for a good shot, raids timed "
             "to contact; rules/desert_steel/bots/heuristic.py), `search:N` (flat information-set Monte "
             "Carlo, rules/desert_steel/engine/search.py: for shots, interrupts, card choices and whether to end "
             "an activation, the heuristic's choice, the neutral action and the next best shots are played in "
             "rounds of N rollouts a decision in all; each round is one determinization of what the searcher cannot "
             "know — dice, raid deck, the enemy's plans (raid turns, spotting formations), its hidden forward observers "
             "and formations redrawn where their set-up rules allow, its unrevealed minefields in their zone — "
             "drawn from its own view of the game only, shared by every candidate; the heuristic plays "
             "both sides to the end of the turn or a few activations, and the victory terms, losses, suppressions "
             "and progress to objectives score the position; the heuristic's choice stands unless another scores "
             "clearly better; at every turn it also chooses its plan — a variant of the heuristic or one of the plans "
             "of their own that apply (bar the enemy's way to its exit, keep out of reach in an attrition race, go "
             "round the enemy's fields of fire, stand on the places the enemy must hold, hold the edge of the map "
             "the enemy scores on) — by playing the game out with each against the heuristic; a game's search work "
             "is capped and spread over its turns). `search:Ts` searches T "
             "seconds of CPU a decision instead (not reproducible; benchmarks/search_budget.py plays it "
             "against the heuristic at a fixed CPU budget).", "",
             "Every bot sees only its side (issue 25): at each decision it is handed its side's view of the game "
             "(rules/desert_steel/engine/view.py), never the game: the enemy's hidden units, unrevealed minefields "
             "and plans are not in it, nor the dice to come. This ladder was played after that change (the "
             "heuristic had read hidden units and plans through at least five paths).", "",
             "## Ratings", "", "| Bot | Elo-style rating | Median game (s), against each opponent |", "|---|---:|---|"]
    ratings = elo(rows, bots)
    for b in sorted(bots, key=lambda x: -ratings[x]):
        times = []
        for o in bots:
            if o == b:
                continue
            ts = [r["median_game_seconds"] for r in rows if {r["allied"], r["axis"]} == {b, o}]
            if ts:
                times.append(f"{o} {statistics.median(ts):.2f}")
        lines.append(f"| {b} | {ratings[b]} | {', '.join(times)} |")
    lines += ["", "Ratings are fitted to all games (a draw counts half), anchored at random = 1000.", "",
              "## Head to head (row bot's wins against the column bot, all scenarios, both sides)", "",
              "| | " + " | ".join(bots) + " |", "|---|" + "---:|" * len(bots)]
    for b in bots:
        cells = []
        for o in bots:
            if o == b:
                cells.append("—")
                continue
            h = head_to_head(rows, b, o)["all"]
            cells.append(f"{pct(h['win_rate'])} ({ci(h['win_rate_95'])}, n={h['games']})" if h["games"] else "")
        lines.append(f"| {b} | " + " | ".join(cells) + " |")
    lines += ["", "## Targets (issue 25, after the fairness fixes)", ""]
    lines += targets(rows, bots, scenarios)
    lines += ["", "## Per scenario (row: allied bot vs axis bot: allied wins / axis wins / draws)", "",
              "| # | " + " | ".join(f"{a} vs {b}" for a, b in itertools.permutations(bots, 2)) + " |",
              "|---|" + "---|" * len(list(itertools.permutations(bots, 2)))]
    for s in scenarios:
        cells = []
        for a, b in itertools.permutations(bots, 2):
            r = next((r for r in rows if r["scenario"] == s.number and r["allied"] == a and r["axis"] == b), None)
            cells.append(f"{r['allied_wins']}/{r['axis_wins']}/{r['draws']}" if r else "")
        lines.append(f"| {s.number} | " + " | ".join(cells) + " |")
    lines += ["", "## What a game costs (CPU seconds a game, median over the batches of each scenario)", "",
              "| # | " + " | ".join(bots) + " |", "|---|" + "---:|" * len(bots)]
    for s in scenarios:
        cells = []
        for b in bots:
            mine = [r["cpu_seconds_per_game"] for r in rows if r["scenario"] == s.number and b in (r["allied"], r["axis"])
                    and r.get("cpu_seconds_per_game") is not None
                    and not any(x.startswith("search") and x != b for x in (r["allied"], r["axis"]))]
            cells.append(f"{statistics.median(mine):.2f}" if mine else "")
        lines.append(f"| {s.number} | " + " | ".join(cells) + " |")
    lines += ["", "A bot's column: the games it played (against any opponent; a search bot's are against the "
              "heuristic, whose share of the time is small). CPU time of this process and its workers on a "
              "loaded shared machine, where contention inflates it."]
    tail = _kept_tail(path)
    Path(path).write_text("\n".join(lines) + "\n" + tail, encoding="utf-8")
    return lines


KEPT = "\n## Other measurements"


def _kept_tail(path) -> str:
    """The hand-written sections after the tables (from '## Other measurements' on: benchmarks
    run apart, what the bots do) stay when the tables are remade."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError:
        return ""
    at = text.find(KEPT)
    return text[at:] if at >= 0 else ""


def targets(rows, bots, scenarios) -> list[str]:
    out = ["| Target | Measured | Met |", "|---|---|---|"]

    def side_rates(bot, opp):
        h = head_to_head(rows, bot, opp)
        return h["allied"], h["axis"]

    if "heuristic" in bots and "random" in bots:
        worst = []
        for s in scenarios:
            for side in ("allied", "axis"):
                their = "axis" if side == "allied" else "allied"
                r = next((r for r in rows if r["scenario"] == s.number and r[side] == "heuristic"
                          and r[their] == "random"), None)
                if r and r["games"]:
                    worst.append((r[f"{side}_wins"] / r["games"], f"{s.number} {side}", r[f"{side}_wins"], r["games"]))
        worst.sort()
        below = [w for w in worst if w[0] < 0.95]
        out.append(f"| heuristic vs random ≥ 95 % on each side of every scenario | "
                   f"{len(worst) - len(below)} of {len(worst)} scenario-sides at ≥ 95 %; below: "
                   f"{', '.join(f'{w[1]} {w[2]}/{w[3]}' for w in below) or 'none'} | {'yes' if not below else 'no'} |")
    for bot, opp, goal in (("heuristic", "heuristic-v1", 0.65), ("search:", "heuristic", 0.60)):
        b = next((x for x in bots if x == bot or (bot.endswith(":") and x.startswith(bot))), None)
        if b is None or opp not in bots:
            continue
        al, ax = side_rates(b, opp)
        met = al["games"] and ax["games"] and al["win_rate"] >= goal and ax["win_rate"] >= goal
        out.append(f"| {b} vs {opp} ≥ {pct(goal)} on each side | allied {pct(al['win_rate'])} "
                   f"({ci(al['win_rate_95'])}, n={al['games']}), axis {pct(ax['win_rate'])} "
                   f"({ci(ax['win_rate_95'])}, n={ax['games']}) | {'yes' if met else 'no'} |")
    searchers = [x for x in bots if x.startswith("search")]
    for b in searchers:
        mine = [r for r in rows if b in (r["allied"], r["axis"])]
        ts = [r["median_game_seconds"] for r in mine]
        cpu = [(r["cpu_seconds_per_game"], r["scenario"]) for r in mine if r.get("cpu_seconds_per_game") is not None]
        if ts:
            worst = max(cpu) if cpu else None
            cpu_text = (f"CPU time a game: median {statistics.median(c for c, _ in cpu):.1f} s, worst "
                        f"{worst[0]:.1f} s ({worst[1]}); ") if cpu else ""
            met = (worst[0] if cpu else max(ts)) < 30
            out.append(f"| {b}: a game under 30 s | {cpu_text}wall clock on the shared machine: median "
                       f"{statistics.median(ts):.1f} s, worst scenario {max(ts):.1f} s | {'yes' if met else 'no'} "
                       f"(CPU time) |")
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=4)
    ap.add_argument("--search-games", type=int, default=1)
    ap.add_argument("--bots", default=DEFAULT_BOTS)
    ap.add_argument("--search-scenarios", default="", help="comma-separated numbers: the only scenarios a "
                    "search bot plays (default: all)")
    ap.add_argument("--search-opponents", default="", help="comma-separated: the only bots a search bot plays "
                    "(default: all)")
    ap.add_argument("--scenarios", help="comma-separated numbers or ids (default: all with victory conditions)")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--save")
    ap.add_argument("--from", dest="cached")
    ap.add_argument("--out", default=str(Path(__file__).resolve().parents[1] / "docs" / "bots.md"))
    args = ap.parse_args()
    try:  # before any batch: a wrong name late in the list would fail hours in
        bots = bot_names(args.bots)
    except ValueError as exc:
        ap.error(str(exc))
    catalog = load_catalog()
    scenarios = measurable_scenarios(catalog.model, args.scenarios.split(",") if args.scenarios else None)[0]
    start = time.perf_counter()
    rows = run_batches(catalog, scenarios, bots, args)
    lines = write_doc(args.out, rows, bots, scenarios, args, time.perf_counter() - start)
    print("\n".join(lines))


if __name__ == "__main__":
    main()
