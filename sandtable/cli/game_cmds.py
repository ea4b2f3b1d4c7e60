"""Quick test games: play one game, replay a log, simulate a batch."""
from __future__ import annotations

import json
import sys
from pathlib import Path

from sandtable.rules.catalog import load_catalog
from sandtable.rules.desert_steel.engine.bots import BOTS
from sandtable.rules.desert_steel.engine.game import EngineError
from sandtable.rules.desert_steel.engine.runner import (digest, play, replay, sample_setup, setup_pool, simulate,
                                                        write_log)

from sandtable.rules.inputs import load_setup, pack_changes, pack_fingerprints

from .common import add_json_flags, add_pack_option, print_json, usage_error



def _bots(value: str) -> tuple[str, str]:
    parts = value.split(",")
    if len(parts) != 2 or any(b not in BOTS for b in parts):
        raise ValueError(f"--bots takes ALLIED,AXIS from {', '.join(BOTS)}")
    return parts[0], parts[1]


def register(sub) -> None:
    p = sub.add_parser("play", help="play one game with bots and print a turn-by-turn account",
                       description="Play one game of a scenario (basic rules: I-V) with bots.")
    p.add_argument("scenario", metavar="SCENARIO")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--bots", default="heuristic,heuristic", help="ALLIED,AXIS bots: heuristic or random")
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
    p.add_argument("--bots", default="heuristic,heuristic", help="ALLIED,AXIS bots: heuristic or random")
    p.add_argument("--setup", metavar="FILE", help="setup JSON (default: the pack's sample setup)")
    p.add_argument("--setups", type=int, default=0, metavar="N",
                   help="also play on N automatic legal setups (seeded 1..N): game i uses setup i mod (N+1), "
                        "and the report separates the setups' share of the variance from the dice's")
    p.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")
    p.add_argument("--limited-interruption", action="store_true", help="optional rule §6.56")
    p.add_argument("--limited-intelligence", action="store_true", help="optional rule §6.55")
    add_pack_option(p)
    add_json_flags(p)
    p.set_defaults(run=run_simulate)


def _options(args) -> dict:
    names = ("limited_interruption", "limited_intelligence")
    return {n: True for n in names if getattr(args, n)}




def _prepare(args):
    catalog = load_catalog([Path(p) for p in args.pack] or None)
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
        setup = sample_setup(catalog, scenario)
    return catalog, model, scenario, setup


def run_play(args) -> int:
    try:
        bots = _bots(args.bots)
        catalog, model, scenario, setup = _prepare(args)
        game = play(model, scenario, setup, args.seed, bots, options=_options(args))
    except (ValueError, OSError) as exc:
        return usage_error(str(exc))
    except EngineError as exc:
        print(f"sandtable: {exc}", file=sys.stderr)
        return 1
    if args.log:
        write_log(args.log, game, setup, bots, packs=pack_fingerprints(catalog))
    result = game.returns()
    if args.format == "json":
        print_json({"scenario": scenario.id, "seed": args.seed, "bots": list(bots), "result": result,
                    "actions": len(game.actions)})
        return 0
    if not args.quiet:
        for line in account(game):
            print(line)
    print(f"Result: {result['winner']}{' (' + result['level'] + ')' if result['level'] else ''} — "
          f"points allied {result['points']['allied']:g}, axis {result['points']['axis']:g}")
    return 0


def account(game) -> list[str]:
    """A readable turn-by-turn account of a game from its events."""
    def name(uid) -> str:
        u = game.state.units.get(uid)
        if u is None:  # a minefield, a raid or a bombardment's fire zone ("minefield:allied", "raid:S7")
            kind, _, what = str(uid).partition(":")
            return {"minefield": f"an {what} minefield", "raid": f"raid card {what}"}.get(kind, str(uid))
        card = game.ctx.model.cards.get(u.card)
        return f"{card.designation if card else 'scenario transport'} {u.type.name}"

    out = []
    for e in game.events:
        k = e["e"]
        if k == "turn":
            out.append(f"== Turn {e['t']} (visibility {e['visibility']}) ==")
        elif k == "activate":
            card = game.ctx.model.cards[e["card"]]
            out.append(f"  {e['side']} activates {card.designation} ({e['card']})")
        elif k == "enter":
            out.append(f"    {name(e['unit'])} enters at {e['hex']}")
        elif k == "move":
            pass
        elif k == "spot":
            if not e["success"]:
                out.append(f"    {name(e['unit'])} fails to spot {name(e['target'])} "
                           f"(rolled {e['roll']}, needed {e['number']})")
        elif k == "fire":
            out.append(f"    {name(e.get('unit'))} fires at {name(e['target'])}: 3d6 {sum(e['dice'])} "
                       f"{e['differential']:+d} mods {sum(e['modifiers'].values()):+g} = {e['total']} -> {e['result']}")
        elif k == "opportunity-fire":
            out.append(f"    opportunity fire by {name(e['unit'])} at {name(e['target'])}")
        elif k == "flash-kill":
            out.append(f"    flash kill! {name(e['unit'])} may act again")
        elif k == "unit-check":
            out.append(f"    {name(e['unit'])} morale ({e['why']}): {sum(e['dice'])} -> {e['result']}")
        elif k == "formation-check":
            card = game.ctx.model.cards[e["card"]]
            out.append(f"  morale of {card.designation} ({e['why']}): {sum(e['dice'])}+{e['modifier']} vs "
                       f"{e['morale']} -> {'holds' if e['passed'] else 'fails'}")
        elif k == "shaken":
            out.append(f"  {game.ctx.model.cards[e['card']].designation} is shaken")
        elif k == "destroyed":
            out.append(f"    {name(e['unit'])} destroyed ({e['how']})")
        elif k == "minefield-attack":
            out.append(f"    {name(e['unit'])} sets off a minefield at {e['hex']}")
        elif k in ("wire-removed", "minefield-cleared"):
            what = "wire" if k == "wire-removed" else "a minefield"
            out.append(f"    {name(e['unit'])} clears {what} at {e['hex']}")
        elif k == "air-strike" or k == "bombardment":
            out.append(f"  {k.replace('-', ' ')} by the {e.get('side', '?')}")
        elif k == "exit":
            out.append(f"    {name(e['unit'])} leaves the map by the {e['edge']} edge of map {e['map']}")
    return out


def run_replay(args) -> int:
    catalog = load_catalog([Path(p) for p in args.pack] or None)
    try:
        game, recorded = replay(catalog.model, args.log)
    except (ValueError, OSError, KeyError, json.JSONDecodeError) as exc:
        return usage_error(f"{args.log}: {exc}")
    except EngineError as exc:
        print(f"sandtable: {args.log}: the log does not replay: {exc}", file=sys.stderr)
        return 1
    same = recorded is not None and game.is_terminal() and game.returns() == recorded
    changes = pack_changes(getattr(game, "log_header", {}).get("packs"), pack_fingerprints(catalog))
    out = {"log": args.log, "same_result": same, "result": getattr(game, "result", None), "recorded": recorded,
           "actions": len(game.actions), "final": digest(game), "pack_changes": changes}
    if args.format != "json":
        for change in changes:  # a different pack may explain a different result
            print(f"note: the packs differ from the game's: {change}", file=sys.stderr)
    if args.format == "json":
        print_json(out)
    else:
        print(f"{args.log}: replayed {len(game.actions)} actions; result "
              f"{'identical' if same else 'DIFFERENT'}: {out['result']}")
    return 0 if same else 1


def run_simulate(args) -> int:
    try:
        bots = _bots(args.bots)
        catalog, model, scenario, setup = _prepare(args)
        if args.games < 1 or args.jobs < 1:
            raise ValueError("--games and --jobs must be at least 1")
        if args.setups < 0:
            raise ValueError("--setups must be 0 or more")
    except (ValueError, OSError) as exc:
        return usage_error(str(exc))
    if "expression" not in scenario.raw.get("victory", {}):
        # a batch of games nobody can win measures nothing: say so instead of reporting draws
        print(f"sandtable: scenario {scenario.number} {scenario.name} has no victory conditions the engine can "
              "evaluate (its 'victory' has no 'expression'): every game would be a draw, so there is no balance "
              "to measure. Give it victory conditions in the editor or the scenario file first.", file=sys.stderr)
        return 1
    if args.setups:
        try:
            setup = setup_pool(model, scenario, args.setups, setup)
        except Exception as exc:  # the automatic setup cannot place this scenario's forces
            print(f"sandtable: --setups: no automatic setup for scenario {scenario.number}: {exc}", file=sys.stderr)
            return 1

    def progress(done, total):
        if not args.no_progress and sys.stderr.isatty():
            width = 30
            filled = width * done // total
            sys.stderr.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} games")
            if done == total:
                sys.stderr.write("\n")
            sys.stderr.flush()
    try:
        summary = simulate([str(p) for p in args.pack], scenario.id, setup, args.games, args.seed, args.jobs, bots,
                           progress=progress, options=_options(args))
    except EngineError as exc:
        print(f"sandtable: {exc}", file=sys.stderr)
        return 1
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
              f"{d['opportunity_fires']:g}, move-and-fire {d['move_and_fire']:g}, wasted bombardments "
              f"{d['wasted_bombardments']:g}, objective progress {progress}")
    for w in out["warnings"]:
        print(f"  WARNING {w}")
    return 0
