"""The heuristic's bombardment forecast: games played ahead from a position, this bot on both
sides, counting the enemies each formation's FOs see when it is activated (§16.31: a preplanned
bombardment comes down then, on what they see).

Two whole games ahead cost more than the game itself (XV: 57 % of a heuristic game), and every
game of a batch starts from the same position: the sightings are kept per scenario context
under the position's complete key (position.position_key), so a game that reaches a position
another game of the same process already forecast gets the same numbers without playing them
again, and a game that reaches a new one plays them. Equal keys, equal forecasts: the results of
a batch do not depend on which games a worker played before.
"""
from __future__ import annotations

import random
from collections.abc import Callable

from ..engine.dice import Dice
from ..engine.view import place_unseen
from .position import position_key

CACHE = "bots.heuristic.sightings"  # its key in the context's memo
CACHE_SIZE = 64
MAX_STEPS = 60_000


def sightings(game, side: str, make_bot: Callable[[int], object], games: int, name: str) -> dict:
    """(turn, card) -> enemies in sight of the card's ready FOs (at most 3 counted) when it was
    first activated that turn, summed over ``games`` games played ahead from ``game`` by
    ``make_bot(seed)`` on both sides (dice reseeded, so the forecast does not know the real
    game's rolls; what ``side`` does not see of the enemy is drawn where the rules allow it,
    view.place_unseen). ``name`` names the bot and its settings in the cache key. A new dict
    each call (the caller may keep or change it)."""
    key = position_key(game)
    memo = game.ctx.memo.setdefault(CACHE, {})
    full = None if key is None else (name, side, games, key)
    if full is not None and full in memo:
        return dict(memo[full])
    seen = _play_ahead(game, side, make_bot, games)
    if full is not None:
        if len(memo) >= CACHE_SIZE:
            memo.clear()
        memo[full] = dict(seen)
    return seen


def _play_ahead(game, side: str, make_bot, games: int) -> dict:
    seen: dict = {}
    cards = {c for c, f in game.state.formations.items() if f.side == side and f.kind == "combat"
             and game.observers(c)}
    for k in range(games):
        g = game.clone()
        # fixed seeds: the forecast depends on the position (as the bot sees it) only
        g.dice = Dice(7919 * (k + 1))
        place_unseen(g, side, random.Random(104729 * (k + 1)))
        bots = {s: make_bot(31 * k + i) for i, s in enumerate(("allied", "axis"))}
        done: set = set()  # (turn, card): counted at its first activation, when a bombardment lands
        steps = 0
        while not g.is_terminal() and steps < MAX_STEPS:
            if g.mode == "activation" and g.side_to_act == side:
                for c in g.decision.cards:
                    if c in cards and (g.state.turn, c) not in done:
                        done.add((g.state.turn, c))
                        n = sum(1 for fo in g.observers(c, ready=True) for u in g.state.units.values()
                                if u.side != side and u.on_map and not u.hidden and not u.carried_by
                                and (u.hex == fo.hex or g.visible(fo.hex, u.hex)))
                        seen[(g.state.turn, c)] = seen.get((g.state.turn, c), 0) + min(n, 3)
            g.apply(bots[g.current_player()].choose(g, g.legal_actions()))
            steps += 1
    return seen
