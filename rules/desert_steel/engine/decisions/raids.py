"""Raids (§16): planning, air strikes, artillery bombardments."""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from .base import Action, Decision


@dataclass(frozen=True, slots=True)
class PlanRaid(Decision):
    """§16.21: the turn of the side's next unplanned air strike (secretly recorded)."""

    kind: ClassVar[str] = "plan-raid"

    def legal(self, game) -> list[Action]:
        return game._legal_plan_raid(self)

    def apply(self, game, action: Action) -> None:
        game._do_plan_raid(self, action)


@dataclass(frozen=True, slots=True)
class PlanBombardment(Decision):
    """§16.31: the turn and spotting formation of the side's next preplanned bombardment."""

    kind: ClassVar[str] = "plan-bombardment"

    def legal(self, game) -> list[Action]:
        return game._legal_plan_bombardment(self)

    def apply(self, game, action: Action) -> None:
        game._do_plan_bombardment(self, action)


@dataclass(frozen=True, slots=True)
class AirStrike(Decision):
    """§16.22: make this turn's air strike now (interrupting the card just played), or pass."""

    kind: ClassVar[str] = "air-strike"

    def legal(self, game) -> list[Action]:
        return game._legal_air_strike(self)

    def apply(self, game, action: Action) -> None:
        game._do_air_strike(self, action)


@dataclass(frozen=True, slots=True)
class AirTarget(Decision):
    """§16.23-16.24: the unit the next of ``passes`` air-strike markers goes on (raid card
    ``raid_card``); ``markers``: the units marked so far."""

    raid_card: str = ""
    passes: int = 0
    markers: tuple[str, ...] = ()
    kind: ClassVar[str] = "air-target"

    def legal(self, game) -> list[Action]:
        return game._legal_air_target(self)

    def apply(self, game, action: Action) -> None:
        game._do_air_target(self, action)


@dataclass(frozen=True, slots=True)
class Bombard(Decision):
    """§16.33: the next bombardment marker, (FO, target unit), of formation ``card``'s
    bombardment (raid card ``raid_card``), or fire it; ``markers``: placed so far; ``then``:
    "begin" (a preplanned one opens the activation) or "activation" (called by an FO)."""

    card: int = 0
    raid_card: str = ""
    markers: tuple[tuple[str, str], ...] = ()
    then: str = "activation"
    kind: ClassVar[str] = "bombard"

    def legal(self, game) -> list[Action]:
        return game._legal_bombard(self)

    def apply(self, game, action: Action) -> None:
        game._do_bombard(self, action)
