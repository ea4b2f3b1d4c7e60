"""Card priority (§6.43): C3, then command over combat, then experience, then nationality."""
from __future__ import annotations

from ..model import CombatCard, CommandCard, DesertSteel

_EXPERIENCE_RANK = {"green": 0, "seasoned": 1, "veteran": 2}


def c3_of(card, year: int) -> str:
    if isinstance(card, CommandCard):
        return card.c3
    variant = card.variant(year)
    return variant.c3 if variant else "F"


def priority(model: DesertSteel, number: int, year: int) -> tuple:
    """A sortable key: higher wins. Two cards of opposite sides never tie (nationality)."""
    card = model.cards[number]
    c3_rank = ord("F") - ord(c3_of(card, year))
    is_command = 1 if isinstance(card, CommandCard) else 0
    experience = 0
    if isinstance(card, CombatCard):
        variant = card.variant(year)
        experience = _EXPERIENCE_RANK[variant.experience] if variant else 0
    return (c3_rank, is_command, experience, -card.nationality_number)


class _Priorities(dict):
    """number -> ``priority`` of the cards of one year, each made at its first lookup."""

    __slots__ = ("model", "year")

    def __init__(self, model: DesertSteel, year: int):
        super().__init__()
        self.model, self.year = model, year

    def __missing__(self, number: int) -> tuple:
        key = self[number] = priority(self.model, number, self.year)
        return key


def priority_tables(ctx) -> dict:
    """side -> {number -> ``priority`` of a card of that side in a context (the scenario's year of
    the side)}: memoised per context, a pure function of the model's card and the year, asked for
    every card in hand at each card play and interrupt (one dict lookup a card: no key to build)."""
    tables = ctx.memo.get("priorities")
    if tables is None:
        tables = ctx.memo["priorities"] = {side: _Priorities(ctx.model, year) for side, year in ctx.years.items()}
    return tables


def card_priority(ctx, number: int, side: str) -> tuple:
    """``priority`` of a card of ``side`` in a context (see priority_tables)."""
    return priority_tables(ctx)[side][number]
