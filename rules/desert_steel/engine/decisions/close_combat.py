"""Close assault (§14.1) and overrun (§14.2)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from .base import Action, Decision


@dataclass(frozen=True, slots=True)
class AssaultHex(Decision):
    """§14.11: the hex ``unit`` assaults (its own or an adjacent one), or cancel."""

    unit: str = ""
    kind: ClassVar[str] = "assault-hex"

    def legal(self, game) -> list[Action]:
        return game._legal_assault_hex(self)

    def apply(self, game, action: Action) -> None:
        game._do_assault_hex(self, action)


@dataclass(frozen=True, slots=True)
class AssaultJoin(Decision):
    """§14.11: other infantry joining ``unit``'s assault of ``hex``; ``units``: so far."""

    unit: str = ""
    hex: str = ""
    units: tuple[str, ...] = ()
    kind: ClassVar[str] = "assault-join"

    def legal(self, game) -> list[Action]:
        return game._legal_assault_join(self)

    def apply(self, game, action: Action) -> None:
        game._do_assault_join(self, action)


@dataclass(frozen=True, slots=True)
class AssaultReact(Decision):
    """§14.11: the assaulted vehicles' opportunity fire at the assaulting units (``going``:
    those that went in, still up). ``side`` is the defender."""

    unit: str = ""
    hex: str = ""
    units: tuple[str, ...] = ()
    going: tuple[str, ...] = ()
    kind: ClassVar[str] = "assault-react"

    def legal(self, game) -> list[Action]:
        return game._legal_assault_react(self)

    def apply(self, game, action: Action) -> None:
        game._do_assault_react(self, action)


@dataclass(frozen=True, slots=True)
class AssaultFire(Decision):
    """§14.1 step 2: the target of the first of ``going`` (``game.assault_shooter()``)."""

    unit: str = ""
    hex: str = ""
    units: tuple[str, ...] = ()
    going: tuple[str, ...] = ()
    kind: ClassVar[str] = "assault-fire"

    def legal(self, game) -> list[Action]:
        return game._legal_assault_fire(self)

    def apply(self, game, action: Action) -> None:
        game._do_assault_fire(self, action)


@dataclass(frozen=True, slots=True)
class OverrunReact(Decision):
    """§14.2 step 2: the overrun hex's units that passed morale (``reactors``) fire at the
    overrunning ``unit``. ``side`` is the defender. ``defenders``: the units of the hex when it
    was overrun (their reaction is the overrun's: no same-hex fire at it there after, §14.2)."""

    unit: str = ""
    reactors: tuple[str, ...] = ()
    defenders: tuple[str, ...] = ()
    kind: ClassVar[str] = "overrun-react"

    def legal(self, game) -> list[Action]:
        return game._legal_overrun_react(self)

    def apply(self, game, action: Action) -> None:
        game._do_overrun_react(self, action)


@dataclass(frozen=True, slots=True)
class OverrunTarget(Decision):
    """§14.2 step 3: the overrunning ``unit``'s AI fire at a unit of the hex, or hold
    (``defenders`` as in OverrunReact)."""

    unit: str = ""
    targets: tuple[tuple, ...] = ()
    defenders: tuple[str, ...] = ()
    kind: ClassVar[str] = "overrun-target"

    def legal(self, game) -> list[Action]:
        return game._legal_overrun_target(self)

    def apply(self, game, action: Action) -> None:
        game._do_overrun_target(self, action)
