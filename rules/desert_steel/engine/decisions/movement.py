"""Movement (§8), entering (§5.3) and exiting (§8.4), move-and-fire's move (§9.5)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from .base import Action, Decision, replacer


@dataclass(frozen=True, slots=True)
class Move(Decision):
    """The next hex of a moving unit. ``op``: the operation declared (move, move-fire, overrun,
    transport, engineer); ``mp``/``spent``: its allowance and what it has spent; ``steps``:
    hexes entered; ``entering``: it began off the map; ``overrun``: None, "pending" (it may
    still overrun) or "done"; ``loaded``: passengers it carries in this operation; ``stop``:
    (reason, §) when the move ends after the opportunity fire of this hex;
    ``stopped_by_enemy``: it entered an enemy-occupied hex (§8.53)."""

    unit: str = ""
    op: str = "move"
    mp: int = 0
    spent: int = 0
    steps: int = 0
    entering: bool = False
    overrun: str | None = None
    loaded: tuple[str, ...] = ()
    stop: tuple[str, str] | None = None
    stopped_by_enemy: bool = False
    kind: ClassVar[str] = "move"

    def legal(self, game) -> list[Action]:
        return game._legal_move(self)

    def entered(self, spent: int, stop: tuple[str, str] | None, stopped_by_enemy: bool) -> "Move":
        """This move one hex on (through a replacer: a step is the engine's most frequent change of
        a decision, and dataclasses.replace costs three times as much)."""
        return _STEP[self.__class__](self, spent, self.steps + 1, stop, stopped_by_enemy)

    def apply(self, game, action: Action) -> None:
        game._do_move(self, action)


_STEP = replacer("spent", "steps", "stop", "stopped_by_enemy")
