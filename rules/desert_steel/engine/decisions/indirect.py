"""Indirect fire (§13.2): the spotter of a declared indirect fire."""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from .base import Action, Decision


@dataclass(frozen=True, slots=True)
class Spotter(Decision):
    """§13.22: the unit that spots ``unit``'s indirect fire, among ``spotters``."""

    unit: str = ""
    spotters: tuple[str, ...] = ()
    kind: ClassVar[str] = "spotter"

    def legal(self, game) -> list[Action]:
        return game._legal_spotter(self)

    def apply(self, game, action: Action) -> None:
        game._do_spotter(self, action)
