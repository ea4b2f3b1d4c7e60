"""Search bot (``search:N``, ``search:Ts``): information-set Monte Carlo over the decisions that matter.

The engine's Game already has an OpenSpiel-like surface; :class:`SpielState` adapts it to
OpenSpiel's own names (``legal_actions``, ``apply_action``, ``is_terminal``, ``returns`` as a
list per player, ``clone``, ``current_player`` as an index, ``resample_from_infostate`` for
information-set sampling), and :func:`flat_search` is written against that interface only: a
candidate list, a rollout function and a budget.

:class:`SearchBot` is the flat (one-level) form of OpenSpiel's IS-MCTS with the heuristic as
rollout policy. For a decision that matters — which card to interrupt with or hold, which of
several cards of equal priority to play, what a command card activates, which unit operates
next and how (fire, move, assault...) or whether to end the activation, whether to take an
opportunity shot the heuristic would take — it keeps a few candidates (the heuristic's choice,
the neutral 'pass'/'end', then the other units' operations ranked by the heuristic's own shot
values), and plays them against one another in rounds:

* each round draws one **determinization** of what the searching side cannot know — the dice
  to come, the order of the raid deck, the turns of the enemy's secret raid record (§16.21), the
  hexes of the enemy's hidden units (forward observers on paper §12.21, XII's hidden formation)
  and of its unrevealed minefields (§15.11), each redrawn within the enemy's set-up zone away
  from the hexes the searcher's own units stand on — and every candidate is played from that
  same sample (common random numbers: the candidates differ by their action, not their luck);
* a **truncated rollout**: the heuristic plays both sides until a few activations later (or
  the end of the turn, its morale phase included), then a static **evaluation** scores the
  position from the searching side: who would win if the game ended now (the scenario's victory
  terms), the points margin, the losses each side has taken and its suppressed units.

The heuristic's choice stands unless another candidate scores clearly better (MARGIN), and a
move, ride, assault or dig-in the heuristic chose is not searched (PLANNED: a short rollout sees
its risk before its reward). Other decisions (movement steps, targets...) are the heuristic's.

**Plans** (a rollout algorithm in Bertsekas's sense: policy improvement by replanning). At the
start of every turn (REPLAN) the bot also searches over policies: one determinization a round
shared by every plan, its side playing each plan against the heuristic, and plays on with the
best one when it beats the current plan by PLAN_MARGIN. The plans (search_policies.plans_for) are
variants of the heuristic (its own stance, always attack, always hold, quicker to fire) and the
plans with behaviour of their own that apply to the side (plan_block: bar the enemy's way to its
exit; plan_evade: keep out of reach in an attrition race; plan_objective: stand on the places the
enemy must hold). The rollouts play the game out (scored by the result with the points margin and
losses as a tie-break) when the rest of the game fits in the turn's share of the plan budget, else
they stop at the end of the last turn that fits and the position is scored by :func:`evaluate`.
The opening (the bot's first plan search) plays the plans to the end, with up to OPENING_SHARE of
the plan budget: what they are for shows only over a whole game. With a time budget it plays every
plan when a round of all of them fits in the plan budget, else (and with ``search:N``) the heuristic
and the plans of their own (_opening_plans).
The plans of a round are played together (``_play_outs``): while their bots choose alike the
game and the enemy's heuristic are one, and they part into forks where the choices do, so the
common opening of the plans' rollouts (often all of it: late in a game the plans seldom differ)
is computed once, with the same values and decisions counted as each played alone.

Budget: ``search:N`` plays N rollouts a decision in all (rounds of one rollout per candidate;
reproducible from the seed). A game's work is then bounded in decisions played inside rollouts:
GAME_STEPS for the decisions, spread evenly over the turns, and PLAN_STEPS for the plans, shared
over the turns in proportion to the turns left; both shrink in scenarios with many units
(work_scale); that keeps a game near 8-20 s of CPU on every scenario.

``search:0.25s`` is a CPU budget: each searched decision searches for that many seconds of the
CPU time of the thread that plays (``time.thread_time``, CLOCK: a loaded machine slows the wall
clock, not how much search a decision gets); a game's plan searches take PLAN_SECONDS times that a
turn in all, shared over the turns as PLAN_STEPS is (the opening's whole-game rounds first), and
its searched decisions DECISION_SECONDS times that in all, spread over the turns. The caps are in
CPU seconds, not in decisions played: a faster engine or a cheaper rollout buys more
rollouts in the same time, which is what a fixed budget is for. A time budget spends where the
search can change something: a decision drops, after PRUNE_ROUNDS rounds, the candidates that
scored no better than the heuristic's choice in any round and stops when none is left (most
searched decisions: every candidate scores alike), and a close call (a candidate ahead by MARGIN,
not yet clearly) plays on for up to EXTEND times T out of what the turn's share has left; a plan
search after the opening plays to the end with at least PLAN_SWITCH_ROUNDS rounds or not at all,
and changes plan only on a lead that is clear round by round (one game's luck is no reason to
leave the plan the opening chose over many); the opening's own choice is no change (the heuristic
is no incumbent yet): the best mean by PLAN_MARGIN takes it, as search:N's does.
``search:N`` keeps the rules its levels were measured with. Each decision draws its
determinizations from a stream of its own (the seed and the bot's count of decisions), so a
decision that got one round more or less than in another run changes nothing after it unless it
changed the choice. Still not reproducible: the rounds a decision gets depend on the machine's
speed and its neighbours' cache traffic, so two runs, and two machines above all, differ.
"""
from __future__ import annotations

import math
import random
import time

from ..engine import victory
from .core import goal_distance
from .heuristic import fallback
from .search_policies import PLAN_CLASSES, PLANS, VariantBot, plans_for
from . import plan_block, plan_evade, plan_objective  # noqa: F401 - registers the plans
from ..engine.context import SIDES, other
from ..engine.dice import Dice
from ..engine.seats import register_bot
from ..engine.state import ON_MAP
from ..engine.view import SideView, place_unseen, side_view

# decisions worth searching; everything else is the heuristic's
SEARCHED = {"interrupt", "command", "activation", "opportunity", "lowest"}
NEUTRAL = ("pass", "end", "opp-pass", "decline", "hold", "react-pass")
# Operations that serve a plan (a move towards a goal, a ride, an assault, digging in): a short
# rollout sees their risk (opportunity fire) long before their reward (an exit, a position), so the
# heuristic's choice of one stands; the search weighs shots, interrupts and whether to end.
PLANNED = {"move", "move-fire", "transport", "assault", "overrun", "entrench", "engineer", "call-bombardment"}
DEFAULT_ROLLOUTS = 16
CLOCK = time.thread_time  # a time budget is CPU time of the playing thread (see the module's docstring)
MAX_SECONDS = 60.0  # a decision's time budget: search:600s would stall a game for hours
PRUNE_ROUNDS = 2  # a time budget's decision search drops candidates no better than the default after this many rounds


def parse_budget(text: str):
    """``""`` -> (16 rollouts, no time limit); ``"200"`` -> (200, None); ``"0.5s"`` -> (None, 0.5).
    None when the text is not a budget (or out of limits): the caller says so."""
    from sandtable.rules.limits import SEARCH_ROLLOUTS
    if text == "":
        return DEFAULT_ROLLOUTS, None
    if not text.isascii():  # "²" and "٣" are digits to str.isdigit() but not to int(): not a budget
        return None
    if text.endswith("s"):
        number = text[:-1]
        try:
            seconds = float(number)
        except ValueError:
            return None
        if not number or not (0 < seconds <= MAX_SECONDS) or len(number) > 9:
            return None
        return None, seconds
    if text.isdigit() and len(text) <= 9 and 1 <= int(text) <= SEARCH_ROLLOUTS:
        return int(text), None
    return None


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
        return [_worth(winner, s) for s in SIDES]

    def clone(self) -> "SpielState":
        g = self.game.clone()
        g.events = []  # a rollout needs no history: cloning stays cheap late in the game
        return SpielState(g)

    def resample_from_infostate(self, player: int, rng: random.Random) -> "SpielState":
        """A determinization: the state as ``player`` might believe it, built from its view only
        (view.side_view; this state is untouched), with what it cannot know drawn afresh. See
        :func:`determinize`."""
        side = SIDES[player]
        g = self.game
        if isinstance(g, SideView) and g.viewer == side:
            g = g.clone()
        else:
            g = side_view(g, side)
        g.events = []
        determinize(g, side, rng)
        return SpielState(g)


def determinize(g, me: str, rng: random.Random) -> None:
    """Redraw, in place, what side ``me`` cannot know in ``g`` (its view, view.side_view, which
    holds none of it):

    - the dice to come and the order of the raid deck;
    - the enemy's plans: the turns of its unmade air strikes and preplanned bombardments (its
      raid record is secret, §16.21) and the formation spotting each bombardment;
    - the hexes of the enemy's hidden units (FOs on paper §12.21, XII's hidden formation): each
      goes where the rules let it have been written (the scenario's zone for hidden FOs, else its
      formation's set-up zone; terrain and prohibited hexes respected; marked entrenchments of
      its side without a visible occupant first), none where one of ``me``'s units stands
      (entering its hex would have revealed it, §12.22), no more than the stacking limit a hex;
    - the hexes of the enemy's unrevealed minefields (§15.11): in their zone, one a hex, not
      under one of ``me``'s units (entering would have set it off or revealed it).
    The enemy's interrupt declaration when it was asked first is not in the view: a look-ahead
    asks the enemy again (the rollout's bot declares). The searcher's own hidden units,
    minefields and plans are its own knowledge and stay."""
    g.dice = Dice(rng.randrange(2 ** 31))
    st = g.state
    if st.raid_deck:
        deck = sorted(st.raid_deck)
        rng.shuffle(deck)
        st.raid_deck = deck
    place_unseen(g, me, rng)


def _setup_cards(g, side: str) -> list:
    return [c for group in g.ctx.scenario.sides[side].groups if group.get("setup") for c in group["cards"]]


def _worth(winner, side: str) -> float:
    """A result as the side scores it: won 1, lost -1, drawn (or undecided) 0."""
    return 1.0 if winner == side else -1.0 if winner in SIDES else 0.0


def _losses(game) -> dict:
    lost = {s: 0.0 for s in SIDES}
    for f in game.state.formations.values():
        lost[f.side] += f.losses
    return lost


def _costly_victory(g) -> bool:
    """Whether the victory terms test a path (too costly to evaluate at every rollout leaf);
    memoised on the context like the set-up zones."""
    memo = g.ctx.memo
    if "bots.search_costly" not in memo:
        memo["bots.search_costly"] = "path_exists" in str(g.ctx.scenario.raw["victory"].get("expression") or {})
    return memo["bots.search_costly"]


def _setup_zone(g, side: str, card: int) -> list:
    """The sorted hexes of the set-up zone of the group a card belongs to (memoised on the
    context: a battlefield's zones do not change)."""
    memo = g.ctx.memo.setdefault("bots.search_zones", {})
    key = (side, card)
    if key not in memo:
        hexes: frozenset = frozenset()
        for group in g.ctx.scenario.sides[side].groups:
            if card in group["cards"] and group.get("setup"):
                try:
                    hexes = g.ctx.field.zone(group["setup"])
                except Exception:  # noqa: BLE001 - a zone the field cannot read: keep the unit where it is
                    hexes = frozenset()
        memo[key] = sorted(hexes)
    return memo[key]


def evaluate(game, side: str) -> float:
    """A position's worth to a side in [-1, 1]: the result if the game is over, else who would
    win if it ended now, the points margin, the losses and the suppressed units (each bounded)."""
    if game.is_terminal():
        return _worth(game.returns()["winner"], side)
    expression = game.ctx.scenario.raw["victory"].get("expression") or {}
    terms = expression.get("points", {})
    cache: dict = {}
    margin = victory.points(game, side, terms, cache) - victory.points(game, other(side), terms, cache)
    # a path test is too costly at every leaf: there the points and losses speak
    verdict = 0.0 if _costly_victory(game) else _worth(victory.evaluate(game)["winner"], side)
    lost = _losses(game)
    down = {s: 0 for s in SIDES}
    for u in game.state.units.values():
        if u.suppressed and u.status == ON_MAP:
            down[u.side] += 1
    material = math.tanh((lost[other(side)] - lost[side]) / 4)
    suppressed = math.tanh((down[other(side)] - down[side]) / 4)
    progress = math.tanh((_progress(game, side) - _progress(game, other(side))) / 3)
    return 0.4 * verdict + 0.25 * math.tanh(margin / 5) + 0.2 * material + 0.05 * suppressed + 0.1 * progress


def final_score(game, side: str) -> float:
    """A finished game's worth to a side: the result (1, 0, -1), with the points margin and the
    losses as a small tie-break (a narrow loss beats a rout)."""
    result = game.returns()
    value = _worth(result["winner"], side)
    points = result.get("points") or {}
    margin = (points.get(side, 0) or 0) - (points.get(other(side), 0) or 0)
    lost = _losses(game)
    return value + 0.1 * math.tanh(margin / 5) + 0.1 * math.tanh((lost[other(side)] - lost[side]) / 4)


def _progress(game, side: str) -> float:
    """How near the side's units stand to the places its victory terms reward (exit edges,
    zones): each unit on the map scores 1 on the place, 0 at 30 hexes (or MP) or more; 0 when the
    terms reward no place. A move towards an exit is worth something before the exit counts."""
    distance = goal_distance(game, side)
    if not distance:
        return 0.0
    total = 0.0
    for u in game.state.on_map(side):
        d = distance.get(u.hex)
        if d is not None:
            total += max(0.0, 1.0 - d / 30)
    return total


def flat_search(root: SpielState, player: int, candidates: list, rollout, rng: random.Random,
                rollouts: int | None, seconds: float | None, *, prune: bool = False, extend: float = 0.0,
                margin: float = 0.0) -> tuple[int, list[float], int, list[list[float]]]:
    """Flat information-set Monte Carlo over a generic OpenSpiel-style state: rounds in which one
    determinization (``root.resample_from_infostate``) is shared by every candidate (common
    random numbers), ``rollout(state, action) -> value`` scoring each. Stops after ``rollouts``
    rollouts (whole rounds, at least one) or ``seconds`` of CPU time (CLOCK). Returns the best candidate's index,
    the mean values, the rollouts played and each candidate's value round by round.

    The first candidate is the default (the one that stands unless another is clearly better).
    With ``prune`` (a time budget), after PRUNE_ROUNDS rounds a candidate that has scored no
    better than the default in any round so far is dropped (it cannot pass
    :func:`clearly_better`; most often every candidate scores exactly alike, the choice changing
    nothing the rollouts see), and the search stops when no other is left: the time left goes to
    later decisions instead of more rounds of a foregone result. With ``extend`` seconds, a
    search whose leader beats the default by ``margin`` on average at the deadline but not yet
    clearly plays on, up to ``extend`` seconds more, until it does. A dropped candidate's values
    stop at the round it was dropped; the best is one still played."""
    k = len(candidates)
    values: list[list[float]] = [[] for _ in range(k)]
    live = list(range(k))
    rounds = 0
    started = CLOCK()
    deadline = started + seconds if seconds else None
    max_rounds = max(1, (rollouts or 0) // k) if rollouts else None
    played = 0
    while True:
        sample = root.resample_from_infostate(player, rng)
        for i, j in enumerate(live):  # a clone copies the dice: each candidate rolls the same
            values[j].append(rollout(sample.clone() if i < len(live) - 1 else sample, candidates[j]))
        played += len(live)
        rounds += 1
        if max_rounds is not None and rounds >= max_rounds:
            break
        if prune and rounds >= PRUNE_ROUNDS:
            first = values[0]
            live = [j for j in live if j == 0 or any(v > d for v, d in zip(values[j], first))]
            if len(live) == 1:
                break
        if deadline is not None and CLOCK() >= deadline:
            if not extend or len(live) < 2 or CLOCK() >= deadline + extend:
                break  # (one candidate left, never pruned: no leader to play on for)
            leader = max(live[1:], key=lambda j: sum(values[j]) / rounds)
            gain = [a - b for a, b in zip(values[leader], values[0])]
            if sum(gain) / rounds < margin or clearly_better(values[leader], values[0], margin):
                break
    means = [sum(v) / len(v) for v in values]
    best = max(live, key=lambda j: (means[j], -j))  # ties: the earlier (the heuristic's choice)
    return best, means, played, values


def clearly_better(a: list[float], b: list[float], margin: float) -> bool:
    """Whether the values of a beat b's, round by round (paired: the same determinizations), by
    at least ``margin`` on average and by two standard errors of the differences; with one
    round, by twice the margin. A handful of rollouts is noisy: a candidate that merely drew
    better luck must not overrule the heuristic."""
    d = [x - y for x, y in zip(a, b)]
    n = len(d)
    mean = sum(d) / n
    if mean <= 0:
        return False
    if n == 1:
        return mean >= 2 * margin
    sd = math.sqrt(sum((x - mean) ** 2 for x in d) / (n - 1))
    return mean >= margin and mean >= 2 * sd / math.sqrt(n)


class SearchBot:
    name = "search"
    CANDIDATES = 4  # the heuristic's choice, the neutral action and up to two others
    MARGIN = 0.03  # how much better (in evaluation units, -1..1) a candidate must score to overrule the heuristic
    ACTIVATIONS = 2  # a rollout stops when this many more activations have begun after the current one
    HORIZON = 400  # and after this many decisions at most (or at the end of the turn)
    # A game's search work, in decisions played inside rollouts, spread evenly over the turns: by
    # the end of turn t the bot has used at most t/turns of it, then leaves the rest of that turn's
    # decisions to the heuristic. It bounds a game's time on every scenario (about 0.2-0.6 ms a
    # rollout decision on a 2020s core: 12,000 are some 3-7 s) and keeps it reproducible.
    GAME_STEPS = 12_000
    # Plans: at the turns in REPLAN (every turn) the bot plays the game out (or some turns of it)
    # from the position, each variant of the heuristic for its side against the heuristic, and
    # plays on with the best. plan_budget() (PLAN_STEPS) bounds the decisions played in those rollouts.
    REPLAN = tuple(range(1, 61))  # every turn
    PLAN_STEPS = 90_000
    # A time budget of T a decision (CPU seconds): a game's plan searches take at most PLAN_SECONDS
    # times T a turn in all (741c123's deadline for one plan search, then on the wall clock, which
    # it read only after a round to the end), shared over the turns as PLAN_STEPS is; its searched
    # decisions at most DECISION_SECONDS times T in all, spread evenly over the turns as GAME_STEPS
    # is: a game's CPU is bounded in seconds, not in decisions played, so a faster engine buys more
    # rollouts in it.
    PLAN_SECONDS = 20
    DECISION_SECONDS = 50
    # A time budget's close call (a candidate ahead of the heuristic's choice by MARGIN, not yet
    # clearly) may search up to EXTEND times T more, out of what this turn's share has left: the
    # decisions whose candidates score alike stop after PRUNE_ROUNDS rounds and leave it there.
    EXTEND = 3
    PLAN_UNITS = 50  # above this many units in the scenario, PLAN_STEPS and GAME_STEPS shrink (work_scale)
    PLAN_ROUNDS = 10  # at most, a replan
    PLAN_MIN_ROUNDS = 4  # at least, or no plan search
    PLAN_MARGIN = 0.15  # in result units (a win 1, a loss -1): the current plan stays unless beaten by this
    PLAN_SWITCH_ROUNDS = 3  # a time budget's plan search: at least, or none (see _replan)
    OPENING_SHARE = 0.7  # of the plan budget, at most, for the first plan search (see _replan)

    def __init__(self, seed: int = 0, budget: int | None = 0, seconds: float | None = None):
        self.rng = random.Random(seed)
        self.budget = budget if budget is not None else 0
        if not self.budget and not seconds:
            self.budget = DEFAULT_ROLLOUTS
        self.seconds = seconds
        self.seed = seed
        self.policy = VariantBot(seed)
        self.rollout_bots = {s: VariantBot(seed + 7 + i) for i, s in enumerate(SIDES)}
        self.plan = "heuristic"  # the variant of the heuristic the bot plays (see _replan)
        self.plans: list = []  # (turn, plan chosen, mean value of each plan or None, rounds) for reports
        self._planned_turn = 0
        self._turn_steps = None  # decisions a turn takes in plan rollouts (estimate)
        self.plan_steps = 0  # decisions played inside plan rollouts (against PLAN_STEPS)
        self.searched = 0  # decisions searched (for reports)
        self.rollouts = 0  # rollouts played
        self.overruled = 0  # decisions where the search chose other than the heuristic
        self.steps = 0  # decisions played inside rollouts (against GAME_STEPS)
        self.plan_cpu = 0.0  # CPU seconds spent in plan rollouts (against the plan budget of a time budget)
        self.decision_cpu = 0.0  # CPU seconds spent searching decisions
        self.decisions = 0  # choose() calls: a time budget's decision draws from a stream of its own

    def choose(self, game, actions: list) -> tuple:
        side = game.side_to_act
        self.decisions += 1
        if self.seconds:  # the rounds an earlier decision got must not shift this one's draws
            self.rng = random.Random(f"{self.seed}:{self.decisions}")
        self.policy.me = side
        if game.state.turn in self.REPLAN and game.state.turn > self._planned_turn and \
                (self.budget >= 2 or self.seconds) and not game.is_terminal():
            self._planned_turn = game.state.turn
            self._replan(game, side)
        tried = self.policy.tried()
        choice = self.policy.choose(game, actions)
        if game.mode not in SEARCHED or len(actions) < 2 or (self.budget < 2 and not self.seconds):
            return choice
        if game.mode == "opportunity" and choice[0] == "opp-pass":
            return choice  # every enemy step asks: search only whether to take a shot the heuristic wants
        if choice[0] == "op" and len(choice) > 2 and choice[2] in PLANNED:
            return choice
        if self._decisions_spent(game):
            return choice  # this turn's share of the game's search work is spent
        candidates = self._candidates(game, actions, choice)
        if len(candidates) < 2:
            return choice
        self.searched += 1
        self._tried = tried
        started = CLOCK()
        extend = 0.0
        if self.seconds:  # a close call may draw on what this turn's share has left (see flat_search)
            extend = min(self.EXTEND * self.seconds, max(0.0, self._decision_share(game) - self.decision_cpu - self.seconds))
        best, means, n, values = flat_search(SpielState(game), SIDES.index(side), candidates,
                                             lambda state, a: self._rollout(state, a, side), self.rng,
                                             self.budget or None, self.seconds, prune=bool(self.seconds),
                                             extend=extend, margin=self.MARGIN)
        self.rollouts += n
        self.decision_cpu += CLOCK() - started
        if best != 0 and not clearly_better(values[best], values[0], self.MARGIN):
            best = 0  # the heuristic's choice unless another is clearly better
        if best != 0:
            self.overruled += 1
            # the heuristic counted its own choice as tried: count what was played
            self.policy.remember_tried(tried)
            if candidates[best][0] == "op":
                key = (game.state.turn, tuple(game.decision.cards), candidates[best])
                tried[key] = tried.get(key, 0) + 1
        return candidates[best]

    def _decisions_spent(self, game) -> bool:
        """Whether this turn's share of the game's decision search is spent: GAME_STEPS decisions
        played in rollouts (search:N), DECISION_SECONDS times T of CPU (search:Ts), spread evenly."""
        if self.seconds:
            return self.decision_cpu >= self._decision_share(game)
        part = game.state.turn / max(1, game.ctx.scenario.turns)
        return self.steps >= self.GAME_STEPS * self.work_scale(game) * part

    def _decision_share(self, game) -> float:
        """A time budget's decision search CPU allowed by the end of this turn (DECISION_SECONDS
        times T in all, spread evenly over the turns)."""
        return self.DECISION_SECONDS * self.seconds * game.state.turn / max(1, game.ctx.scenario.turns)

    # --- plans ---------------------------------------------------------------------------------

    def _replan(self, game, side: str) -> None:
        """Choose the variant of the heuristic to play from here (search_policies.plans_for): rounds
        of rollouts, one determinization a round shared by every plan, the searcher's side
        playing the plan and the other side the heuristic. ``search:N``: the rollouts play the
        game out when the rest of it fits in this replan's share of the plan budget for
        PLAN_MIN_ROUNDS rounds, else they stop at the end of the last turn that fits (scored by
        :func:`evaluate`); no plan search when not even the current turn fits. ``search:Ts``:
        they play the game out when PLAN_SWITCH_ROUNDS rounds of every plan fit in the share,
        else there is no plan search this turn. At the opening (the first plan search) the plans
        of :meth:`_opening_plans` are played to the end instead, with up to OPENING_SHARE of the
        plan budget. The current plan is kept unless another scores better by PLAN_MARGIN on
        average over the rounds (paired: same samples) and, with a time budget past the opening,
        also clearly round by round (:func:`clearly_better`) over PLAN_SWITCH_ROUNDS rounds at
        least; at the opening the best mean by PLAN_MARGIN takes it, however many rounds its
        share afforded (the heuristic is no incumbent yet)."""
        turns = game.ctx.scenario.turns
        turn = game.state.turn
        # this replan's share of what is left: in proportion to the turns still to play (a
        # rollout from an early turn is longer, and the plan chosen then counts for longer)
        weights = [turns - t + 1 for t in self.REPLAN if turn <= t <= turns]
        share = (self.plan_budget(game) - self._plan_work()) * (turns - turn + 1) / max(1, sum(weights))
        start = self._plan_work()
        root = SpielState(game)
        player = SIDES.index(side)
        plans = plans_for(game, side)
        if self.plan not in plans:  # a plan that no longer applies is still the one to beat
            plans += (self.plan,)
        k = len(plans)
        if self._turn_steps is None:  # how much work a turn takes: one short rollout tells
            before = self._plan_work()
            probe = min(turns, turn + 1)
            self._play_out(root.resample_from_infostate(player, self.rng), side, plans[0], probe)
            self._turn_steps = max(1e-4 if self.seconds else 1.0, (self._plan_work() - before) / (probe - turn + 1))
        opening = not self.plans  # the bot's first plan search of the game
        tried = self._opening_plans(game, plans) if opening else ()
        whole = len(tried) * self._turn_steps * (turns - turn + 1)  # a round of them, to the end
        if len(tried) > 1:
            # The plans with behaviour of their own are written for whole-game situations (an
            # exit to bar, losses to avoid) that a few turns' rollouts cannot show, and the choice
            # made now counts for the whole game: at the opening they are played to the end
            # against the heuristic, as many rounds as OPENING_SHARE of the plan budget affords
            # (one at least, if the whole budget does).
            plans, k, last = tried, len(tried), turns
            share = max(whole, self.OPENING_SHARE * self.plan_budget(game))
        elif self.seconds:
            # A time budget's plan search plays to the end of the game (a few turns' rollouts
            # score the plans alike: what tells them apart, an exit barred or a ridge held, shows
            # at the end), and only when PLAN_SWITCH_ROUNDS rounds of every plan fit in this
            # turn's share: fewer could not pass the test a change of plan must (one round to the
            # end is one game's luck), so the share goes to the later turns, whose rounds to the
            # end are shorter.
            left = share - (self._plan_work() - start)
            if left < k * self.PLAN_SWITCH_ROUNDS * self._turn_steps * (turns - turn + 1):
                self.plans.append((turn, self.plan, None, 0))
                return
            last = turns
        else:
            fit = int((share - (self._plan_work() - start)) / (k * self.PLAN_MIN_ROUNDS * self._turn_steps))
            if fit < 1:
                self.plans.append((turn, self.plan, None, 0))
                return  # not even this turn fits: keep the plan, leave the time to the decisions
            last = min(turns, turn + fit - 1)
        values: dict = {p: [] for p in plans}
        rounds = 0
        alike = True  # every plan has scored the same as the others in every round so far
        while True:
            sample = root.resample_from_infostate(player, self.rng)
            before = self._plan_work()
            scored = self._play_outs(sample, side, plans, last)
            for p, value in zip(plans, scored):
                values[p].append(value)
            alike = alike and len(set(scored)) == 1
            covered = max(1, min(turns, last) - turn + 1)
            self._turn_steps = 0.7 * self._turn_steps + 0.3 * (self._plan_work() - before) / (k * covered)
            rounds += 1
            used = self._plan_work() - start
            if used + used / rounds > share or rounds >= self.PLAN_ROUNDS:
                break  # another round like the last ones would overrun the share
            if alike and rounds >= self.PLAN_MIN_ROUNDS:
                # Every plan led to the same result, points and losses in every round (late in a
                # game, or when the plans' bots choose alike): more rounds would score them alike
                # again. What is left of the share goes to the later turns' plan searches.
                break
        means = {p: sum(v) / rounds for p, v in values.items()}
        best = max(plans, key=lambda p: (means[p], p == self.plan, p == "heuristic"))
        if best != self.plan and means[best] - means[self.plan] >= self.PLAN_MARGIN and \
                (not self.seconds or opening or
                 (rounds >= self.PLAN_SWITCH_ROUNDS and clearly_better(values[best], values[self.plan],
                                                                       self.PLAN_MARGIN))):
            # a time budget's change of plan must also be clear round by round (paired, as a
            # decision's): search:N's rule is kept as its levels were measured. The opening's
            # choice is not a change: the heuristic is no incumbent there, only the first plan
            # tried, so the best mean by PLAN_MARGIN takes it however many rounds its share
            # afforded (XIII's Allies at 0.015 s get one), as search:N's rule does
            self.plan = best
        self.policy = self.policy.with_plan(self.plan)
        self.rollout_bots[side] = self.rollout_bots[side].with_plan(self.plan)
        self.plans.append((turn, self.plan, {p: round(v, 2) for p, v in means.items()}, rounds))

    def _opening_plans(self, game, plans: tuple) -> tuple:
        """The plans the opening plays to the end: with a time budget, every plan of ``plans``
        when a round of all of them to the end fits in the plan budget (a variant of the
        heuristic may be the one that wins: 'hold' on VIII's Axis, 'attack' on V's Allies, and a
        mid-game search seldom affords rounds to the end of a long scenario to find it later; the
        fit is judged by the first two turns' cost, dearer than the rest, so in a long scenario
        such as VIII only the core fits: a probe to the end gained nothing, docs/bots.md);
        else, and with ``search:N`` (its levels were measured so), the heuristic and the plans
        with behaviour of their own. Fewer than two: no opening search of its own."""
        core = ("heuristic",) + tuple(p for p in plans if p in PLAN_CLASSES)
        to_end = self._turn_steps * (game.ctx.scenario.turns - game.state.turn + 1)
        for tried in ((plans, core) if self.seconds else (core,)):
            if len(tried) > 1 and len(tried) * to_end <= self.plan_budget(game):
                return tried
        return ()

    def work_scale(self, game) -> float:
        """1, or less in a scenario with more than PLAN_UNITS units, where a decision costs more
        (some 0.1-0.2 ms in I or V, 0.4-0.7 ms in VII, XI or XIV): (PLAN_UNITS / units) ** 2.
        Deterministic, so search:N stays reproducible."""
        return min(1.0, (self.PLAN_UNITS / max(1, len(game.state.units))) ** 2)

    def plan_budget(self, game) -> float:
        """The work a game's plan rollouts may do: PLAN_STEPS decisions scaled by work_scale, or,
        with a time budget, PLAN_SECONDS times a decision's seconds a turn, in CPU seconds."""
        if self.seconds:
            return self.PLAN_SECONDS * self.seconds * game.ctx.scenario.turns
        return self.PLAN_STEPS * self.work_scale(game)

    def _plan_work(self) -> float:
        """The plan rollouts' work so far, in plan_budget's unit."""
        return self.plan_cpu if self.seconds else self.plan_steps

    def _play_out(self, state: SpielState, side: str, plan: str, last: int | None = None) -> float:
        """A rollout: the searcher's side plays ``plan``, the other the heuristic, to the end of
        the game (scored by :func:`final_score`) or of turn ``last`` (by :func:`evaluate`)."""
        return self._play_outs(state, side, (plan,), last)[0]

    def _play_outs(self, state: SpielState, side: str, plans, last: int | None = None) -> list[float]:
        """The rollouts of several plans from one determinization, each as :meth:`_play_out`
        would play it (``state`` is used up), played together: while the plans' bots choose
        alike, the game, the enemy's heuristic and its decisions are one; where they part, the
        game is cloned and the enemy's bot forked (its memory and its random stream copied), so
        each plan's game, values and counted decisions are those it would have had alone. The
        plans share their common openings: the enemy's decisions and the moves played are
        computed once instead of once a plan."""
        g = state.game
        started = CLOCK()
        luck = g.dice.seed
        known = self.policy.stances()

        def seat(s: str, plan: str):
            bot = VariantBot(luck + SIDES.index(s), plan)
            if known:  # the stances the bot has read: XIV's is a path test read once a game (0.2 s each)
                bot.know_stances(known)
            return bot
        mine = [seat(side, p) for p in plans]
        for bot in mine:
            bot.me = side
        last = g.ctx.scenario.turns if last is None else last
        values: list = [0.0] * len(plans)
        branches = [(g, list(range(len(plans))), seat(other(side), "heuristic"), 0)]
        while branches:
            g, members, enemy, steps = branches.pop()
            while not g.is_terminal() and steps < 100_000 and g.state.turn <= last:
                actions = g.legal_actions()
                if g.current_player() != side:
                    action = enemy.choose(g, actions)
                else:
                    chosen: dict = {}
                    for j in members:
                        chosen.setdefault(mine[j].choose(g, actions), []).append(j)
                    (action, members), *parted = chosen.items()
                    for other_action, others in parted:
                        fork = g.clone()
                        fork.apply(other_action)
                        branches.append((fork, others, enemy.fork(), steps + 1))
                g.apply(action)
                steps += 1
            value = final_score(g, side) if g.is_terminal() else evaluate(g, side)
            for j in members:
                values[j] = value
            self.plan_steps += steps * len(members)
        self.plan_cpu += CLOCK() - started
        return values

    # --- candidates ----------------------------------------------------------------------------

    def _candidates(self, game, actions: list, choice) -> list:
        """The heuristic's choice, the neutral action, then the best others by the heuristic's
        own measure (the expected effect of the best shot), at most CANDIDATES."""
        out = [choice]
        pool = [a for a in actions if a != choice]
        neutral = fallback(pool) if pool else None
        if neutral is not None and neutral[0] in NEUTRAL:
            out.append(neutral)
            pool.remove(neutral)
        if game.mode == "activation":
            pool = self._ranked_ops(game, pool, choice)
        elif game.mode == "interrupt":
            pool = self._ranked_interrupts(game, pool)
        else:
            pool = sorted(pool)
            self.rng.shuffle(pool)
        out += pool[:max(0, self.CANDIDATES - len(out))]
        return out

    def _ranked_ops(self, game, pool: list, choice) -> list:
        """Other units' shots (direct or indirect), best first by the heuristic's expected effect;
        moves and facing changes left out (see PLANNED)."""
        units = game.state.units
        by_unit: dict = {}
        for a in pool:
            if a[0] == "op" and len(a) > 2:
                by_unit.setdefault(a[1], {})[a[2]] = a
        ranked = []
        for uid, kinds in sorted(by_unit.items()):
            try:
                value, shot = self.policy.unit_shot(game, units[uid], kinds)
            except Exception:  # noqa: BLE001 - the heuristic's helper changed: fall back to a plain order
                value, shot = 0.0, kinds.get("fire")
            if shot is not None and value > 0.05:
                ranked.append((-value, uid, shot))
        ranked.sort()
        return [a for _, _, a in ranked]

    def _ranked_interrupts(self, game, pool: list) -> list:
        """Interrupt cards cheapest first (the card spent matters: a cheap one keeps the others)."""
        cards = [a for a in pool if a[0] == "interrupt"]
        return sorted(cards, key=lambda a: game.priority(a[1]))

    # --- rollouts ------------------------------------------------------------------------------

    def _rollout(self, state: SpielState, action, side: str) -> float:
        g = state.game
        limit = len(g.state.played) + self.ACTIVATIONS  # the current activation's card is counted already
        turn = g.state.turn
        luck = g.dice.seed  # the round's: every candidate's rollout bots draw alike
        for i, (s, bot) in enumerate(self.rollout_bots.items()):
            bot.rng = random.Random(luck + i)
            # a rollout starts with what the searcher's bot remembers of this turn
            bot.start_rollout(dict(self._tried) if s == side else {})
        g.apply(action)
        steps = 0
        while not g.is_terminal() and steps < self.HORIZON and g.state.turn == turn and len(g.state.played) <= limit:
            bot = self.rollout_bots[g.current_player()]
            g.apply(bot.choose(g, g.legal_actions()))
            steps += 1
        self.steps += steps + 1
        return evaluate(g, side)


def make_search_bot(seed: int, budget_text: str) -> SearchBot:
    parsed = parse_budget(budget_text)
    if parsed is None:
        raise ValueError(f"search budget {budget_text!r}: N rollouts (1 to the limit) or seconds such as 0.5s")
    rollouts, seconds = parsed
    return SearchBot(seed, rollouts, seconds)


register_bot("search", make_search_bot, budget=parse_budget)
