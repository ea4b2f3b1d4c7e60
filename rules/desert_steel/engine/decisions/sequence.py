"""The sequence of play (§6): which card to play, interrupts, command cards, activations."""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from .base import Action, Decision, replacer


@dataclass(frozen=True, slots=True)
class Lowest(Decision):
    """§6.3: the owner of several equally lowest cards picks the one to play."""

    cards: tuple[int, ...] = ()
    kind: ClassVar[str] = "lowest"

    def legal(self, game) -> list[Action]:
        return game._legal_lowest(self)

    def apply(self, game, action: Action) -> None:
        game._do_lowest(self, action)


@dataclass(frozen=True, slots=True)
class Interrupt(Decision):
    """§6.41-6.43: a side declares an interrupt (or passes) against the top card of the stack.
    ``declared``: (side, card or None) of the sides that have answered; declarations are
    simultaneous, so a side's view never holds the other side's."""

    declared: tuple[tuple[str, int | None], ...] = ()
    kind: ClassVar[str] = "interrupt"

    def legal(self, game) -> list[Action]:
        return game._legal_interrupt(self)

    def apply(self, game, action: Action) -> None:
        game._do_interrupt(self, action)

    def answered(self, side: str) -> bool:
        return any(s == side for s, _ in self.declared)

    def seen_by(self, side: str) -> "Interrupt":
        mine = tuple((s, c) for s, c in self.declared if s == side)
        return self if mine == self.declared else Interrupt(self.side, mine)


@dataclass(frozen=True, slots=True)
class Command(Decision):
    """§6.52-6.53: a command card activates subordinates, rallies, or is declined."""

    card: int = 0
    kind: ClassVar[str] = "command"

    def legal(self, game) -> list[Action]:
        return game._legal_command(self)

    def apply(self, game, action: Action) -> None:
        game._do_command(self, action)


@dataclass(frozen=True, slots=True)
class Activation(Decision):
    """§6.5, §7: the activated formations' next operation, a facing change (§8.22), or the end.
    ``faced``: units that changed facing this activation; ``cancelled``: units whose declared
    fire or assault was withdrawn (§9.19: not declared again in this activation)."""

    cards: tuple[int, ...] = ()
    faced: tuple[str, ...] = ()
    cancelled: tuple[str, ...] = ()
    kind: ClassVar[str] = "activation"

    def legal(self, game) -> list[Action]:
        return game._legal_activation(self)

    def apply(self, game, action: Action) -> None:
        game._do_activation(self, action)

    def turned(self, unit: str) -> "Activation":
        """This activation after ``unit``'s facing change (through a replacer: a random playout
        turns units thousands of times, and dataclasses.replace costs four times as much)."""
        return _TURN[self.__class__](self, self.faced + (unit,))


_TURN = replacer("faced")
