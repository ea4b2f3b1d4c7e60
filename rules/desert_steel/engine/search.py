"""Search bot (``search:N``): determinized Monte Carlo over the decisions that matter.

The engine's Game already has an OpenSpiel-like surface; :class:`SpielState` adapts it to
OpenSpiel's own names (``legal_actions``, ``apply_action``, ``is_terminal``, ``returns`` as a
list per player, ``clone``, ``current_player`` as an index) plus ``resample`` for
information-set sampling, so that the search below is written against that interface only.

:class:`SearchBot` follows perfect-information Monte Carlo with determinization, the flat
form of OpenSpiel's IS-MCTS: for a decision that matters (which card to interrupt with or hold,
which formation a command card activates, which unit operates and how — fire, move, assault —,
whether to take an opportunity shot the heuristic would take) it takes a handful of candidate
actions (the heuristic's choice first, then others), and shares a budget of N rollouts among them with UCB1. Each rollout
starts from a fresh determinization of what the bot cannot know (the dice to come, the order
of the raid deck, the turns the enemy's raids were planned for), plays the candidate, then
lets the heuristic bot play both sides for a bounded horizon (the end of the turn or a number
of decisions) and scores the position with the victory terms (win, points margin, losses).
Every other decision is the heuristic's. The same seed gives the same game.

Not resampled: the hexes of the enemy's hidden forward observers (§12.21) — the rollouts see
them where they are. That is a small leak of hidden information, stated here and in docs/bots.md.
"""
from __future__ import annotations

import math
import random

from . import victory
from .bots_heuristic import HeuristicBot2, fallback
from .context import SIDES, other
from .dice import Dice

# decisions worth searching; everything else is the heuristic's
SEARCHED = {"interrupt", "command", "activation", "opportunity", "lowest"}


class SpielState:
    """An OpenSpiel-style view of a Game: players are indices 0 (allied) and 1 (axis)."""

    def __init__(self, game):
        self.game = game

    def current_player(self) -> int:
        p = self.game.current_player()
        return -4 if p is None else SIDES.index(p)  # pyspiel.PlayerId.TERMINAL is -4

    def legal_actions(self) -> list:
        return self.game.legal_actions()

    def apply_action(self, action) -> None:
        self.game.apply(action)

    def is_terminal(self) -> bool:
        return self.game.is_terminal()

    def returns(self) -> list[float]:
        winner = self.game.returns()["winner"]
        return [1.0 if winner == s else -1.0 if winner in SIDES else 0.0 for s in SIDES]

    def clone(self) -> "SpielState":
        g = self.game.clone()
        g.events = []  # a rollout needs no history: cloning stays cheap late in the game
        return SpielState(g)

    def resample(self, rng: random.Random, player: int) -> "SpielState":
        """A determinization: the state as ``player`` might believe it, with what it cannot see
        drawn afresh (a clone; this state is untouched)."""
        s = self.clone()
        g = s.game
        g.dice = Dice(rng.randrange(2 ** 31))
        st = g.state
        if st.raid_deck:
            deck = list(st.raid_deck)
            rng.shuffle(deck)
            st.raid_deck = deck
        me = SIDES[player]
        turns = g.ctx.scenario.turns
        raids = []
        for r in st.raids:  # the enemy's raid record is secret (§16.21): when its raids come is a guess
            if r["side"] != me and not r.get("done") and r.get("turn") is not None and r["turn"] >= st.turn:
                r = dict(r, turn=rng.randint(st.turn, turns))
            raids.append(r)
        st.raids = raids
        return s


def evaluate(game, side: str) -> float:
    """A position's worth to a side in [-1, 1]: the result if the game is over, else who would
    win if it ended now, the points margin and the losses (each bounded)."""
    if game.is_terminal():
        winner = game.returns()["winner"]
        return 1.0 if winner == side else -1.0 if winner in SIDES else 0.0
    expression = game.ctx.scenario.raw["victory"].get("expression") or {}
    terms = expression.get("points", {})
    cache: dict = {}
    margin = victory._points(game, side, terms, cache) - victory._points(game, other(side), terms, cache)
    if "path_exists" in str(expression):
        verdict = 0.0  # too costly to test at every leaf: the points and losses speak
    else:
        winner = victory.evaluate(game)["winner"]
        verdict = 1.0 if winner == side else -1.0 if winner in SIDES else 0.0
    lost = {s: sum(f.losses for f in game.state.formations.values() if f.side == s) for s in SIDES}
    material = math.tanh((lost[other(side)] - lost[side]) / 4)
    return 0.5 * verdict + 0.3 * math.tanh(margin / 5) + 0.2 * material


class SearchBot:
    name = "search"
    CANDIDATES = 4  # the heuristic's choice and up to three others
    HORIZON = 60  # decisions a rollout plays past the candidate (at most: the turn's end stops it)

    def __init__(self, seed: int = 0, budget: int = 0):
        self.rng = random.Random(seed)
        self.budget = budget or 16
        self.policy = HeuristicBot2(seed)
        self.rollout_bots = {s: HeuristicBot2(seed + 7 + i) for i, s in enumerate(SIDES)}
        self.searched = 0  # decisions searched (for the ladder's report)

    def choose(self, game, actions: list) -> tuple:
        choice = self.policy.choose(game, actions)
        if game.mode not in SEARCHED or len(actions) < 2 or self.budget < 2:
            return choice
        if game.mode == "opportunity" and choice[0] == "opp-pass":
            return choice  # every enemy step asks: search only whether to take a shot the heuristic wants
        candidates = self._candidates(game, actions, choice)
        if len(candidates) < 2:
            return choice
        self.searched += 1
        return self._search(game, candidates)

    def _candidates(self, game, actions: list, choice) -> list:
        """The heuristic's choice, the 'do nothing' action, and others drawn at random; in an
        activation only whole operations of different units (a unit's first operation)."""
        pool = [a for a in actions if a != choice]
        out = [choice]
        neutral = fallback(pool) if pool else None
        if neutral is not None and neutral[0] in ("pass", "end", "opp-pass", "decline", "hold", "react-pass"):
            out.append(neutral)
            pool.remove(neutral)
        if game.mode == "activation":  # one op per unit: its fire if it has one, else what comes first
            per_unit: dict = {}
            for a in pool:
                if a[0] == "op" and len(a) > 2:
                    if a[1] not in per_unit or a[2] == "fire":
                        per_unit[a[1]] = a
            pool = sorted(per_unit.values())
        self.rng.shuffle(pool)
        out += pool[:max(0, self.CANDIDATES - len(out))]
        return out

    def _search(self, game, candidates: list) -> tuple:
        side = game.side_to_act
        root = SpielState(game)
        player = SIDES.index(side)
        n = [0] * len(candidates)
        total = [0.0] * len(candidates)
        for i in range(self.budget):
            if i < len(candidates):
                k = i
            else:  # UCB1 over the candidates
                k = max(range(len(candidates)), key=lambda j: total[j] / n[j] + 0.7 * math.sqrt(math.log(i) / n[j]))
            state = root.resample(self.rng, player)
            n[k] += 1
            total[k] += self._rollout(state, candidates[k], side)
        best = max(range(len(candidates)), key=lambda j: (total[j] / n[j] if n[j] else -9, -j))
        return candidates[best]

    def _rollout(self, state: SpielState, action, side: str) -> float:
        g = state.game
        g.apply(action)
        turn = g.state.turn
        steps = 0
        while not g.is_terminal() and steps < self.HORIZON and g.state.turn == turn:
            bot = self.rollout_bots[g.current_player()]
            g.apply(bot.choose(g, g.legal_actions()))
            steps += 1
        return evaluate(g, side)
