"""Transport (§13.3, §18.6): what a carrier loads before it moves."""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from .base import Action, Decision


@dataclass(frozen=True, slots=True)
class Load(Decision):
    """§13.3 step 2: the next unit ``unit`` (a carrier) loads, or go; ``loaded``: so far."""

    unit: str = ""
    loaded: tuple[str, ...] = ()
    kind: ClassVar[str] = "load"

    def legal(self, game) -> list[Action]:
        return game._legal_load(self)

    def apply(self, game, action: Action) -> None:
        game._do_load(self, action)
