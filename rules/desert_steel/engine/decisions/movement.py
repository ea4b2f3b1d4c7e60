"""Movement (§8), entering (§5.3) and exiting (§8.4), move-and-fire's move (§9.5)."""
from __future__ import annotations

from dataclasses import dataclass, fields
from typing import ClassVar

from .base import Action, Decision


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
        """This move one hex on."""
        # a step is the engine's most frequent change of a decision: the value is filled through
        # its slots' own setters, as the frozen dataclass's __init__ fills it through
        # object.__setattr__ (at twice the cost), and dataclasses.replace costs more again
        m = _new(Move)
        side, unit, op, mp, spent_, steps, entering, overrun, loaded, stop_, by_enemy = _SETTERS
        side(m, self.side)
        unit(m, self.unit)
        op(m, self.op)
        mp(m, self.mp)
        spent_(m, spent)
        steps(m, self.steps + 1)
        entering(m, self.entering)
        overrun(m, self.overrun)
        loaded(m, self.loaded)
        stop_(m, stop)
        by_enemy(m, stopped_by_enemy)
        return m

    def apply(self, game, action: Action) -> None:
        game._do_move(self, action)


_new = object.__new__
# Move.entered's setters, in the order of its fields (refused here if a field is added or moved)
_FIELDS = ("side", "unit", "op", "mp", "spent", "steps", "entering", "overrun", "loaded", "stop", "stopped_by_enemy")
if tuple(f.name for f in fields(Move)) != _FIELDS:
    raise TypeError(f"Move.entered sets the fields {_FIELDS}: Move has {tuple(f.name for f in fields(Move))}")
_SETTERS = tuple(getattr(Move, name).__set__ for name in _FIELDS)
