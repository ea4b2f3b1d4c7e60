"""The modifiers of one spotting or fire roll, from the one modifier table
(rules_tables.MODIFIERS): a :class:`Shot` holds the facts of the roll, worked out only when a row
asks for them, and :func:`modifiers` keeps the rows of its kind whose test holds."""
from __future__ import annotations

from functools import cached_property

from ..rules_tables import MODIFIERS, SPOT

_BY_KIND: dict = {}


def rows(kind: str) -> tuple:
    """The table's rows for one kind of roll, in the table's order."""
    if kind not in _BY_KIND:
        _BY_KIND[kind] = tuple(m for m in MODIFIERS if kind in m.kinds)
    return _BY_KIND[kind]


class Shot:
    """One roll's facts: ``kind`` (rules_tables: spot, direct, indirect, raid, zone), the firer
    (None: a raid or bombardment's zone), the target, the kind of fire (``mode`` "av"/"ai"), the
    distance the range schedule reads (None: no range modifier) and the circumstances."""

    def __init__(self, game, kind: str, firer, target, *, mode: str = "av", distance: int | None = None,
                 move_fire: bool = False, cover: bool = False, close_assault: bool = False, spill: bool = False,
                 fire_zone: bool = False):
        self.game, self.kind, self.firer, self.target, self.mode = game, kind, firer, target, mode
        self.distance, self.move_fire, self.cover = distance, move_fire, cover
        self.close_assault, self.spill, self.fire_zone = close_assault, spill, fire_zone

    @property
    def target_is_vehicle(self) -> bool:
        return self.target.type.is_vehicle

    @cached_property
    def target_experience(self) -> str:
        return self.game._experience(self.target)

    @cached_property
    def firer_experience(self) -> str | None:
        return None if self.firer is None else self.game._experience(self.firer)

    @cached_property
    def range_modifier(self) -> int:
        t = self.game.ctx.tables
        if self.kind != "direct":
            return t.range_modifier(self.distance, indirect=True)
        if self.distance == 1 and self.mode == "ai" and self.game.ctx.advanced:
            return t.setting("adjacent_anti_infantry_range_modifier", 2)  # §12.14: +2 AI
        return t.range_modifier(self.distance)

    @property
    def target_entrenched(self) -> bool:
        return self.game._entrenched(self.target)

    @cached_property
    def target_in_bunker(self) -> bool:
        return self.game._bunker_of(self.target) is not None

    @property
    def target_in_minefield(self) -> bool:
        return self.game._in_revealed_minefield(self.target)

    @property
    def target_in_wire(self) -> bool:
        return self.target.hex in self.game.state.wire

    @property
    def flank_fire(self) -> bool:
        return self.game._in_flank(self.target, self.firer.hex) and not self.target_in_bunker

    @property
    def through_own_flank(self) -> bool:
        return self.game._in_flank(self.firer, self.target.hex)

    @property
    def smoke(self) -> bool:
        smoke = self.game.state.smoke
        return bool(smoke) and (self.firer.hex in smoke or self.target.hex in smoke)

    @property
    def separation_row(self) -> str | None:
        return self.game._separation_key(self.firer) if self.firer is not None and self.firer.separated else None

    @property
    def scenario_modifier(self) -> int:
        if self.firer is None:
            return 0
        return self.game._special("spotting" if self.kind == SPOT else "fire", self.firer.side)


def modifiers(shot: Shot) -> dict[str, float]:
    """The roll's modifiers by rule table id, in the table's order."""
    tables = shot.game.ctx.tables
    read = tables.spot if shot.kind == SPOT else tables.fire
    out = {}
    for row in rows(shot.kind):
        if row.test(shot):
            key = row.key(shot) if row.key is not None else row.name
            out[key] = row.value(shot) if row.value is not None else read(key)
    return out
