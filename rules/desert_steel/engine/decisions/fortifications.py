"""Fortifications (§15): engineer operations (§15.4)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from .base import Action, Decision


@dataclass(frozen=True, slots=True)
class Engineer(Decision):
    """§15.4: ``unit`` clears its hex, or moves one hex regardless of wire, or cancels."""

    unit: str = ""
    kind: ClassVar[str] = "engineer"

    def legal(self, game) -> list[Action]:
        return game._legal_engineer(self)

    def apply(self, game, action: Action) -> None:
        game._do_engineer(self, action)
