"""The setups of a batch, made when a game first needs them: ``simulate --setups 10000``
starts its first game at once instead of placing ten thousand automatic setups first.

A list (the runner picks setup ``i % len(pool)`` of a list), whose item 0 is the sample setup
and item k the automatic setup of seed k, built on first use and kept in a small cache: a
batch of fewer games than setups uses each once, a larger one cycles through them.
"""
from __future__ import annotations

from collections import OrderedDict

from .autosetup import auto_setup

CACHE = 64


class LazySetupPool(list):
    def __init__(self, model, scenario, count: int, sample: dict):
        super().__init__([None] * (count + 1))
        self._model, self._scenario, self._sample = model, scenario, sample
        self._cache: OrderedDict[int, dict] = OrderedDict()
        self[1] if count else None  # the first automatic setup now: a scenario it cannot place fails at once

    def __getitem__(self, index):
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        index = range(len(self))[index]
        if index == 0:
            return self._sample
        hit = self._cache.get(index)
        if hit is None:
            hit = self._cache[index] = auto_setup(self._model, self._scenario, index)
            if len(self._cache) > CACHE:
                self._cache.popitem(last=False)
        else:
            self._cache.move_to_end(index)
        return hit

    def __iter__(self):
        return (self[i] for i in range(len(self)))

    def __reduce__(self):  # a spawned worker gets the recipe, not ten thousand setups
        return (LazySetupPool, (self._model, self._scenario, len(self) - 1, self._sample))
