"""What playing a command card allows (§6.52 Allied and Italian, §6.53 German), as one pure
function of the card and its subordinates: the engine's command decision lists these answers,
and the command-card reminders printed on the cards (exports/desert_steel/reminders.py) read
the rule from the same function, so the printed sentence cannot drift from play."""
from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence

from ..model import CommandCard
from .decisions.base import Action


def choices(card: CommandCard, subordinates: Sequence[int], shaken: Callable[[int], bool],
            operable: Callable[[int], bool]) -> list[Action]:
    """The answers to a played command card: ("activate", formations) for each set of
    subordinates it may activate, ("rally",) when it may rally the shaken ones instead, and
    ("decline",) last. ``subordinates``: its subordinate formations in play; ``shaken(n)``,
    ``operable(n)``: whether formation n is shaken, has a unit that may operate."""
    ready = [n for n in subordinates if not shaken(n) and operable(n)]
    if card.nationality == "german":  # §6.53: up to two subordinates
        combos = [(n,) for n in ready] + list(itertools.combinations(ready, 2))
    else:  # §6.52: one subordinate plus the command's HQ, or rally
        hq = card.hq.number if card.hq else None
        combos = [tuple(sorted({n, hq} - {None})) if hq in ready else (n,) for n in ready if n != hq]
        if hq in ready:
            combos.append((hq,))
    out = [("activate", combo) for combo in dict.fromkeys(combos)]
    if card.nationality != "german" and any(shaken(n) for n in subordinates):
        out.append(("rally",))
    return out + [("decline",)]
