"""Variants of the heuristic bot for the search bot's plan search (search.py): the same rules
with another stance or other thresholds for firing and interrupting. The search plays them
against the heuristic in rollouts and keeps the one that does best from the position reached."""
from __future__ import annotations

import random

from .heuristic import HeuristicBot2

# name -> (stance forced on the bot's own side or None, scale of its fire thresholds, of its interrupt threshold)
VARIANTS = {
    "heuristic": (None, 1.0, 1.0),
    "attack": ("attack", 1.0, 1.0),
    "hold": ("hold", 1.0, 1.0),
    "trigger-happy": (None, 0.5, 0.6),
    "patient": (None, 1.6, 1.6),
    "no-interrupt": (None, 1.0, 99.0),
}
# the ones the search tries (each costs a whole game a round: four keep medium scenarios in reach);
# in trials against the heuristic over every scenario these four were the ones that changed results
PLANS = ("heuristic", "attack", "hold", "trigger-happy")
# plans with behaviour of their own (not only other thresholds): name -> subclass of VariantBot,
# which carries its thresholds as THRESHOLDS = (stance, fire scale, interrupt scale)
PLAN_CLASSES: dict[str, type] = {}


def register_plan(name: str, cls: type) -> type:
    """Make ``cls`` (a VariantBot subclass) the plan called ``name``."""
    PLAN_CLASSES[name] = cls
    VARIANTS[name] = cls.THRESHOLDS
    return cls


def plans_for(game, side: str) -> tuple:
    """The plans the search tries for ``side``: PLANS, then each registered plan whose
    ``applies(game, side)`` says it makes sense there (by the victory terms and the position)."""
    extra = tuple(name for name, cls in PLAN_CLASSES.items() if cls.applies(game, side))
    return PLANS + extra


class VariantBot(HeuristicBot2):
    """HeuristicBot2 with one variant's stance and thresholds for the side it plays.
    ``VariantBot(seed, name)`` makes the bot of that plan: the registered plan's class when it
    has one (PLAN_CLASSES), else a VariantBot with the variant's thresholds."""

    def __new__(cls, seed: int = 0, variant: str = "heuristic"):
        return super().__new__(PLAN_CLASSES.get(variant, VariantBot) if cls is VariantBot else cls)

    def __init__(self, seed: int = 0, variant: str = "heuristic"):
        super().__init__(seed)
        self.set_thresholds(variant)

    def with_plan(self, variant: str) -> "VariantBot":
        """This bot playing ``variant`` from now on: itself with the variant's thresholds, or, when
        the plan has a class of its own, a bot of that class that takes over this one's memory of
        the game (stances read, operations tried), as the search's replanning needs."""
        cls = PLAN_CLASSES.get(variant, VariantBot)
        bot = self
        if type(self) is not cls:
            bot = object.__new__(cls)
            bot.take_over(vars(self))
        bot.set_thresholds(variant)
        return bot

    def take_over(self, memory: dict) -> None:
        """Hold ``memory`` (another bot's attributes, as ``vars()`` gives them) as this bot's own:
        a plan's bot goes on from what the bot it replaces knew of the game."""
        vars(self).update(memory)

    def fork(self) -> "VariantBot":
        """A copy of this bot that goes on alone (the search's rollouts part where plans choose
        apart): its attributes' containers copied one level (the bots replace what they keep
        rather than change it in place), its random stream copied, so it plays on exactly as this
        one would."""
        memory = {}
        for name, value in vars(self).items():
            if isinstance(value, random.Random):
                twin = random.Random()
                twin.setstate(value.getstate())
                value = twin
            elif isinstance(value, (dict, list, set)):
                value = value.copy()
            memory[name] = value
        twin_bot = object.__new__(type(self))
        twin_bot.take_over(memory)
        return twin_bot

    # --- what the search reads and sets of the heuristic it drives (its public surface) --------

    def tried(self) -> dict:
        """A copy of the operations the bot has chosen this activation ((turn, cards, op) -> times),
        which its choices read to avoid looping on the same operation."""
        return dict(self._tried)

    def remember_tried(self, tried: dict) -> None:
        """Take ``tried`` (as :meth:`tried` gives it) as the operations chosen so far."""
        self._tried = tried

    def start_rollout(self, tried: dict) -> None:
        """Play on from a searched position: ``tried`` as the operations chosen so far this
        activation, and no movement route planned (a rollout's position is not the one the route
        was planned in)."""
        self._tried = tried
        self._route = None

    def stances(self) -> dict:
        """A copy of the stances the bot has read ((turn, side) and the victory terms' key ->
        'attack' / 'hold'): XIV's is a path test, worth reading once a game."""
        return dict(self._stances)

    def know_stances(self, stances: dict) -> None:
        """Start from ``stances`` (as :meth:`stances` gives them) instead of reading them again."""
        self._stances = dict(stances)

    def unit_shot(self, game, unit, kinds: dict) -> tuple[float, tuple | None]:
        """The unit's best shot among ``kinds`` (operation kind -> action) and its expected effect,
        as the heuristic weighs it: the search ranks the candidates it plays by it."""
        return self._unit_shot(game, unit, kinds)

    def goal_distance(self, game, side: str, unit_type=None, unit=None) -> dict:
        """Distances to the places the side's victory terms reward (the heuristic's reading)."""
        return self._goal_distance(game, side, unit_type, unit)

    def points_needed(self, game, side: str):
        """The fixed score the side must reach, or None (the heuristic's reading of the terms)."""
        return self._points_needed(game, side)

    def set_thresholds(self, variant: str) -> None:
        """Play ``variant``'s stance and thresholds from now on."""
        stance, fire, interrupt = VARIANTS[variant]
        self.variant = variant
        self.forced_stance = stance
        base = HeuristicBot2
        self.FIRE = base.FIRE * fire
        self.ATTACK_FIRE = base.ATTACK_FIRE * fire
        self.HOLD_FIRE = base.HOLD_FIRE * fire
        self.INTERRUPT = base.INTERRUPT * interrupt

    def stance(self, game, side: str) -> str:
        me = getattr(game, "side_to_act", None)
        if self.forced_stance is not None and side == getattr(self, "me", me):
            return self.forced_stance
        return super().stance(game, side)
