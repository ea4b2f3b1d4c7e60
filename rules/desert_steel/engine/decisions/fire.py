"""Direct fire (§9): targeting, smoke (§17.2), opportunity fire (§9.4, §12.14)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from .base import Action, Decision


@dataclass(frozen=True, slots=True)
class Opportunity(Decision):
    """§9.4, §12.14: the enemy of ``mover`` may fire at it as it enters its hex.
    ``same_hex_done``: infantry of that hex that already fired at it there."""

    mover: str = ""
    same_hex_done: tuple[str, ...] = ()
    kind: ClassVar[str] = "opportunity"

    def legal(self, game) -> list[Action]:
        return game._legal_opportunity(self)

    def apply(self, game, action: Action) -> None:
        game._do_opportunity(self, action)


@dataclass(frozen=True, slots=True)
class Target(Decision):
    """The target of ``unit``'s fire. ``targets``: the ("target", id[, mode]) actions;
    ``move_fire``: after a move-and-fire's move (hold, not cancel); ``spotter``: the unit
    spotting an indirect fire (§13.22), None for direct fire."""

    unit: str = ""
    targets: tuple[tuple, ...] = ()
    move_fire: bool = False
    spotter: str | None = None
    kind: ClassVar[str] = "target"

    def legal(self, game) -> list[Action]:
        return game._legal_target(self)

    def apply(self, game, action: Action) -> None:
        game._do_target(self, action)


@dataclass(frozen=True, slots=True)
class SmokeHex(Decision):
    """§17.2: the hex ``unit`` fires smoke at, among ``hexes``."""

    unit: str = ""
    hexes: tuple[str, ...] = ()
    move_fire: bool = False
    spotter: str | None = None
    kind: ClassVar[str] = "smoke-hex"

    def legal(self, game) -> list[Action]:
        return game._legal_smoke_hex(self)

    def apply(self, game, action: Action) -> None:
        game._do_smoke_hex(self, action)
