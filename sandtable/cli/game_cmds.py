"""Quick test games: play one game, replay a log, simulate a batch.

The games are the pack's ruleset's: each command asks it for its ``play`` contribution (doors.py)
and says plainly when it has none.
"""
from __future__ import annotations

import json
import sys

from sandtable.rules.inputs import load_setup, pack_changes, pack_fingerprints

from .common import add_json_flags, add_pack_option, load_pack, print_json, usage_error
from .doors import play_door
from .progress import Progress

# The bots of the bundled ruleset, for --help (a pack's own are checked when it is loaded).
BOT_NAMES = ("random, heuristic-v1, heuristic, search:N (N rollouts a decision, 1 to 10,000) or search:Ts "
             "(T seconds a decision, up to 60, e.g. search:0.5s)")


def _bots(play, value: str) -> tuple[str, str]:
    parts = value.split(",")
    if len(parts) != 2 or not all(play.valid_bot(b) for b in parts):
        raise ValueError(f"--bots takes ALLIED,AXIS from {play.bot_help}")
    return parts[0], parts[1]


def register(sub) -> None:
    p = sub.add_parser("play", help="play one game with bots and print a turn-by-turn account",
                       description="Play one game of a scenario (basic rules: I-V) with bots.")
    p.add_argument("scenario", metavar="SCENARIO")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--bots", default="heuristic,heuristic", help=f"ALLIED,AXIS bots: {BOT_NAMES}")
    p.add_argument("--setup", metavar="FILE", help="setup JSON (default: the pack's sample setup)")
    p.add_argument("--log", metavar="FILE", help="write the game log (JSON lines) here")
    p.add_argument("--quiet", "-q", action="store_true", help="print only the result")
    p.add_argument("--limited-interruption", action="store_true", help="optional rule §6.56")
    p.add_argument("--limited-intelligence", action="store_true", help="optional rule §6.55")
    add_pack_option(p)
    add_json_flags(p)
    p.set_defaults(run=run_play)

    p = sub.add_parser("replay", help="rebuild a game from its log and check it ends the same",
                       description="Replay a game log: the same seed and decisions must give the same game.")
    p.add_argument("log", metavar="LOG")
    add_pack_option(p)
    add_json_flags(p)
    p.set_defaults(run=run_replay)

    p = sub.add_parser("simulate", help="play many games and report the balance",
                       description="Play N games with bots in parallel; the same seed gives the same results "
                       "whatever --jobs.")
    p.add_argument("scenario", metavar="SCENARIO")
    p.add_argument("--games", type=int, default=100)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--jobs", type=int, default=1, help="worker processes")
    p.add_argument("--scheduler", metavar="tcp://HOST:PORT",
                   help="play on this Dask scheduler's workers instead (pip install 'sandtable[cluster]'); "
                        "the same results as on this machine")
    p.add_argument("--connect-timeout", type=float, default=20.0, metavar="SECONDS",
                   help="how long to wait for the scheduler and a first worker (default 20)")
    p.add_argument("--bots", default="heuristic,heuristic", help=f"ALLIED,AXIS bots: {BOT_NAMES}")
    p.add_argument("--setup", metavar="FILE", help="setup JSON (default: the pack's sample setup)")
    p.add_argument("--setups", type=int, default=0, metavar="N",
                   help="also play on N automatic legal setups (seeded 1..N): game i uses setup i mod (N+1), "
                        "and the report separates the setups' share of the variance from the dice's")
    p.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")
    p.add_argument("--limited-interruption", action="store_true", help="optional rule §6.56")
    p.add_argument("--limited-intelligence", action="store_true", help="optional rule §6.55")
    p.add_argument("--ladder", action="store_true",
                   help="play the scenario at growing strength on both sides (heuristic vs heuristic for --games, "
                        "then search vs search at each --ladder-budgets for --search-games) and say whether the "
                        "result is stable, shifts or flips as the bots get stronger (--bots and --setups are not "
                        "used: every level plays the sample or --setup setup, with the optional rules asked for)")
    p.add_argument("--ladder-budgets", default="search:4,search:16", metavar="BOTS",
                   help="the search levels of --ladder, weakest first (default search:4,search:16)")
    p.add_argument("--search-games", type=int, default=4, metavar="N",
                   help="games at each search level of --ladder (a search game costs some 50 heuristic games)")
    add_pack_option(p)
    add_json_flags(p)
    p.set_defaults(run=run_simulate)


def _options(args) -> dict:
    names = ("limited_interruption", "limited_intelligence")
    return {n: True for n in names if getattr(args, n)}




def _prepare(args):
    """(catalog, play door, bots, model, scenario, setup) of a game command; ValueError: usage."""
    catalog = load_pack(args.pack)
    play = play_door(catalog)
    bots = _bots(play, args.bots)
    if catalog.errors:
        raise ValueError("the pack has errors: run 'sandtable validate' first")
    model = catalog.model
    scenario = model.scenario(args.scenario)
    if scenario is None:
        raise ValueError(f"no scenario {args.scenario!r}")
    if args.setup:  # read as a regular file, schema-checked and for this scenario, before any game
        setup, problems = load_setup(args.setup, catalog, scenario)
        if setup is None:
            raise ValueError("the setup cannot be used:\n" + "\n".join(f.line_text() for f in problems))
    else:
        setup = play.sample_setup(catalog, scenario)
    return catalog, play, bots, model, scenario, setup


def run_play(args) -> int:
    play = None
    try:
        catalog, play, bots, model, scenario, setup = _prepare(args)
        recorder = play.recorder()  # where each unit began, for the account's first moves
        game = play.play(model, scenario, setup, args.seed, bots, options=_options(args), recorder=recorder)
    except (ValueError, OSError) as exc:
        return usage_error(str(exc))
    except Exception as exc:
        if play is None or not isinstance(exc, play.GameError):
            raise
        print(f"sandtable: {exc}", file=sys.stderr)
        return 1
    if args.log:
        play.write_log(args.log, game, setup, bots, packs=pack_fingerprints(catalog))
    result = play.result(game)
    if args.format == "json":
        print_json({"scenario": scenario.id, "seed": args.seed, "bots": list(bots), "result": result,
                    "actions": len(game.actions)})
        return 0
    if not args.quiet:
        for line in play.narrate(game, recorder):
            print(line)
    print(f"Result: {result['winner']}{' (' + result['level'] + ')' if result['level'] else ''} — "
          f"points allied {result['points']['allied']:g}, axis {result['points']['axis']:g}")
    return 0


def run_replay(args) -> int:
    catalog = load_pack(args.pack)
    if catalog.errors:  # as play: a game checked against a pack as loaded, not as written, proves nothing
        return usage_error("the pack has errors: run 'sandtable validate' first")
    play = play_door(catalog)
    try:
        game, recorded = play.replay(catalog.model, args.log)
    except (ValueError, OSError, KeyError, json.JSONDecodeError) as exc:
        return usage_error(f"{args.log}: {exc}")
    except play.GameError as exc:
        print(f"sandtable: {args.log}: the log does not replay: {exc}", file=sys.stderr)
        return 1
    same = recorded is not None and game.is_terminal() and game.returns() == recorded
    changes = pack_changes(getattr(game, "log_header", {}).get("packs"), pack_fingerprints(catalog))
    out = {"log": args.log, "same_result": same, "result": getattr(game, "result", None), "recorded": recorded,
           "actions": len(game.actions), "final": play.digest(game), "pack_changes": changes}
    if args.format != "json":
        for change in changes:  # a different pack may explain a different result
            print(f"note: the packs differ from the game's: {change}", file=sys.stderr)
    if args.format == "json":
        print_json(out)
    else:
        print(f"{args.log}: replayed {len(game.actions)} actions; result "
              f"{'identical' if same else 'DIFFERENT'}: {out['result']}")
    return 0 if same else 1


def _run_ladder(args, catalog, play, scenario, setup) -> int:
    from sandtable.rules.lab.batch import BatchError
    from sandtable.rules.lab.simulate import ladder
    budgets = [b for b in args.ladder_budgets.split(",") if b]
    if not budgets or not all(play.valid_bot(b) and b.startswith("search") for b in budgets) or args.search_games < 0:
        return usage_error("--ladder-budgets takes search bots (search:N or search:Ts) separated by commas, "
                           "and --search-games 0 or more")
    progress = Progress(args, "heuristic")
    try:  # each level a batch of the one runner: simulate's games, whatever --jobs or --scheduler
        out = ladder(catalog, scenario, setup, args.games, args.search_games, args.seed, budgets, jobs=args.jobs,
                     scheduler=args.scheduler, connect_timeout=args.connect_timeout, options=_options(args),
                     progress=lambda bot, done, total: progress(done, total, bot))
    except (BatchError, play.GameError) as exc:
        print(f"sandtable: {exc}", file=sys.stderr)
        return 1
    finally:
        progress.close()
    if args.format == "json":
        print_json(out)
        return 0
    print(f"{scenario.number} {scenario.name}: the same bot on both sides, at growing strength (seed {args.seed})")
    for lv in out["levels"]:
        lo, hi = lv["allied_score_95"]
        print(f"  {lv['bot']:<12} {lv['games']:>4} games: allied {lv['allied']}, axis {lv['axis']}, draws "
              f"{lv['draws']}; allied score {100 * lv['allied_score']:.0f} % (95 % CI {100 * lo:.0f}-{100 * hi:.0f} %)")
        for w in lv["warnings"]:
            print(f"    WARNING {w}")
    note = {"stable": "the result holds as the bots get stronger",
            "shifts": "the result moves as the bots get stronger: the weaker bots decide part of it",
            "flips": "the stronger bots reverse the result: it measures the bots, not the scenario"}[out["verdict"]]
    print(f"  verdict: {out['verdict']} — {note}" + (" (too few games at the strongest level to be sure)"
                                                     if out["too_few_games"] else ""))
    return 0


def run_simulate(args) -> int:
    from sandtable.rules.lab.batch import BatchError
    from sandtable.rules.lab.scheduler import address_problem
    from sandtable.rules.lab.simulate import simulate
    try:
        catalog, play, bots, model, scenario, setup = _prepare(args)
        if args.games < 1 or args.jobs < 1:
            raise ValueError("--games and --jobs must be at least 1")
        if args.setups < 0:
            raise ValueError("--setups must be 0 or more")
        if args.scheduler and address_problem(args.scheduler):
            raise ValueError(address_problem(args.scheduler))
    except (ValueError, OSError) as exc:
        return usage_error(str(exc))
    why = play.unmeasurable(scenario)
    if why:
        # a batch of games nobody can win measures nothing: say so instead of reporting draws
        print(f"sandtable: scenario {scenario.number} {scenario.name} has no victory conditions the engine can "
              f"evaluate ({why}): every game would be a draw, so there is no balance "
              "to measure. Give it victory conditions in the editor or the scenario file first.", file=sys.stderr)
        return 1
    if args.ladder:
        return _run_ladder(args, catalog, play, scenario, setup)
    if args.setups:
        try:
            setup = play.lazy_setup_pool(model, scenario, args.setups, setup)  # made as games need them
        except Exception as exc:  # the automatic setup cannot place this scenario's forces
            print(f"sandtable: --setups: no automatic setup for scenario {scenario.number}: {exc}", file=sys.stderr)
            return 1

    progress = Progress(args, "simulate")
    try:
        summary = simulate(catalog, scenario, setup, args.games, args.seed, bots, jobs=args.jobs,
                           scheduler=args.scheduler, connect_timeout=args.connect_timeout, options=_options(args),
                           progress=progress)
    except (BatchError, play.GameError) as exc:
        print(f"sandtable: {exc}", file=sys.stderr)
        return 1
    except play.SetupError as exc:  # a later seed of the lazily made setups (the first was tried at once)
        print(f"sandtable: --setups: an automatic setup for scenario {scenario.number} failed: {exc}", file=sys.stderr)
        return 1
    finally:
        progress.close()
    out = summary.to_json()
    if args.format == "json":
        print_json(out)
        return 0
    print(f"{scenario.number} {scenario.name}: {out['games']} games, seed {args.seed}, bots {bots[0]} (allied) vs "
          f"{bots[1]} (axis)")
    for side in ("allied", "axis"):
        s = out["sides"][side]
        lo, hi = s["win_rate_95"]
        print(f"  {side:<6} wins {s['wins']:>4} ({100 * s['win_rate']:.1f} %, 95 % CI {100 * lo:.1f}-{100 * hi:.1f} %)")
    print(f"  draws  {out['draws']:>4}")
    print(f"  most common: {out['most_common_cause']}; average {out['average_actions']} decisions a game; "
          f"median {out['median_game_seconds'] * 1000:.0f} ms a game")
    if "setups" in out:
        st = out["setups"]
        print(f"  setups: {st['count']} (the sample and {st['count'] - 1} automatic); win rate by setup:")
        for side in ("allied", "axis"):
            v = st["sides"][side]
            print(f"    {side:<6} {100 * v['win_rate_by_setup_min']:.0f}-{100 * v['win_rate_by_setup_max']:.0f} %; "
                  f"{100 * v['setup_share_of_variance']:.0f} % of the variance of its result comes from the setup, "
                  f"the rest from the dice and the play")
    for side in ("allied", "axis"):
        losses = ", ".join(f"{t} {n:g}" for t, n in out["sides"][side]["average_losses_by_type"].items()) or "none"
        print(f"  {side} average losses: {losses}")
        points = ", ".join(f"{p:g}: {n}" for p, n in out["sides"][side]["points"].items())
        print(f"  {side} points (value: games): {points}")
    for side in ("allied", "axis"):
        d = out["diagnostics"][side]
        progress = "-" if d["objective_progress"] is None else f"{100 * d['objective_progress']:.0f} %"
        print(f"  {side} diagnostics a game: overstack losses {d['overstack_losses']:g}, fortified leaving on turn 1 "
              f"{d['fortified_units_leaving_turn1']:g}/{d['fortified_units']:g}, opportunity fires "
              f"{d['opportunity_fires']:g} (same-hex {d.get('same_hex_fires', 0):g}, at overrunners "
              f"{d.get('overrun_fires', 0):g}), move-and-fire {d['move_and_fire']:g} (converted moves "
              f"{d.get('move_and_fire_converted', 0):g}), bombardments wasted {d['wasted_bombardments']:g} of "
              f"{d.get('bombardments', 0):g}, fires {d.get('fires', 0):g}, losses {d.get('losses', 0):g}, "
              f"objective progress {progress}")
        if d.get("modifiers"):  # each named by the modifier table's label and \u00a7
            print(f"  {side} modifiers a game: " + ", ".join(f"{m['label']} (\u00a7{m['section']}) {m['a_game']:g}"
                                                           for m in d["modifiers"]))
    e = out.get("engagement")
    if e:
        print(f"  engagement: {e['fires_a_game']:g} fires and {e['losses_a_game']:g} losses a game; "
              f"{100 * e['games_without_fire']:.0f} % of the games without a shot, "
              f"{100 * e['games_without_losses']:.0f} % without a loss")
    for w in out["warnings"]:
        print(f"  WARNING {w}")
    return 0
