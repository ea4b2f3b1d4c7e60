"""The questions the game asks a player, as values.

A pending decision is a frozen dataclass: what the question is about lives in its fields
(never in a shared working dict), ``legal(game)`` lists the answers, ``apply(game, action)``
carries one out. The game holds a stack of them (an activation under a move under an
opportunity-fire question...): ``game.decision`` is the top, ``game.pending`` the stack. A
decision that changes (a move's spent MP) is replaced by a new value (``dataclasses.replace``),
so clones and side views share the stack as it is."""
from __future__ import annotations

from dataclasses import dataclass, fields
from typing import ClassVar

from ..actions import Action  # ("pass",), ("step", hex)...: typed tuples, one type per kind


@dataclass(frozen=True, slots=True)
class Decision:
    """``side``: who answers. ``kind``: the name the logs, bots and ``game.mode`` use."""

    side: str
    kind: ClassVar[str] = ""
    # what the enemy of ``side`` may not learn from this value (see ``seen_by``)
    secret: ClassVar[tuple[str, ...]] = ()

    # Every kind answers ``legal(game) -> list[Action]`` and ``apply(game, action)`` itself: a kind
    # lacking one is refused when its class is made (not when a game first asks it).
    # (no super() call: slots=True remakes the class, and object's hook takes nothing anyway)
    def __init_subclass__(cls):
        missing = [name for name in ("legal", "apply") if not callable(getattr(cls, name, None))]
        if missing:
            raise TypeError(f"decision {cls.__name__} (kind {cls.kind!r}) has no {' and no '.join(missing)}")

    def seen_by(self, side: str) -> "Decision":
        """This decision as ``side`` may know it (a side view): the same value, unless it holds
        something of the other side that is secret (an interrupt it declared)."""
        return self

    def about(self) -> dict:
        """The fields but ``side``, by name (diagnostics, reports)."""
        return {f.name: getattr(self, f.name) for f in fields(self) if f.name != "side"}
