"""Variants of the heuristic bot for the search bot's plan search (search.py): the same rules
with another stance or other thresholds for firing and interrupting. The search plays them
against the heuristic in rollouts and keeps the one that does best from the position reached."""
from __future__ import annotations

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
        self._thresholds(variant)

    def with_plan(self, variant: str) -> "VariantBot":
        """This bot playing ``variant`` from now on: itself with the variant's thresholds, or, when
        the plan has a class of its own, a bot of that class that takes over this one's memory of
        the game (stances read, operations tried), as the search's replanning needs."""
        cls = PLAN_CLASSES.get(variant, VariantBot)
        bot = self
        if type(self) is not cls:
            bot = object.__new__(cls)
            vars(bot).update(vars(self))
        bot._thresholds(variant)
        return bot

    def _thresholds(self, variant: str) -> None:
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
