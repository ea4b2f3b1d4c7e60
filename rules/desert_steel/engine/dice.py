"""Dice: seeded for play, scripted for tests; every roll is reported to the game's log."""
from __future__ import annotations

import random


class Dice:
    def __init__(self, seed: int = 0):
        self.seed = seed
        self._rng = random.Random(seed)

    def roll(self, n: int) -> list[int]:
        return [self._rng.randint(1, 6) for _ in range(n)]

    def choice(self, items):
        """A random choice the engine makes on a player's behalf (logged like a roll)."""
        return items[self._rng.randrange(len(items))]

    def state(self):
        return self._rng.getstate()

    def copy(self) -> "Dice":
        d = Dice.__new__(Dice)
        d.seed = self.seed
        d._rng = random.Random.__new__(random.Random)  # unseeded: Random() would read os.urandom first
        d._rng.setstate(self._rng.getstate())
        return d


class DrawnDice(Dice):
    """Dice seeded by a public phrase, drawn only when first rolled: a side's view gets its own
    dice (view.side_view) at every decision, and most decisions roll none."""

    def __init__(self, phrase: str):
        self._phrase = phrase

    def __getattr__(self, name):  # only while _rng and seed are not drawn yet
        if name not in ("_rng", "seed"):
            raise AttributeError(name)
        self.seed = random.Random(self._phrase).randrange(2 ** 31)
        self._rng = random.Random(self.seed)
        return getattr(self, name)


class ScriptedDice(Dice):
    """Rolls given in advance (for worked examples); running out is an error, not a guess."""

    def __init__(self, rolls: list[int]):
        super().__init__(0)
        self.rolls = list(rolls)

    def roll(self, n: int) -> list[int]:
        if len(self.rolls) < n:
            raise AssertionError(f"scripted dice ran out: {n} more wanted")
        out, self.rolls = self.rolls[:n], self.rolls[n:]
        return out

    def copy(self) -> "ScriptedDice":
        return ScriptedDice(self.rolls)
