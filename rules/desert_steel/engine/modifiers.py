"""The modifiers of one spotting or fire roll, from the one modifier table
(rules_tables.MODIFIERS): a :class:`Shot` holds the facts of the roll, worked out only when a row
asks for them, and :func:`modifiers` keeps the rows of its kind whose test holds."""
from __future__ import annotations

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

    # a plain class with slots, the few facts every kind reads made at once: this runs for every
    # spotting and fire roll, and for every shot the bots weigh
    # what a row may need (rules_tables.Modifier.needs): the roll's circumstances, then markers on the
    # map and the scenario's special rules, in the order modifiers() reads them
    NEEDS = ("cover", "move_fire", "close_assault", "spill", "fire_zone", "entrenchments", "bunkers", "minefields",
             "wire", "smoke", "scenario")
    __slots__ = ("game", "kind", "firer", "target", "mode", "distance", "move_fire", "cover", "close_assault",
                 "spill", "fire_zone", "target_experience", "firer_experience")

    def __init__(self, game, kind: str, firer, target, *, mode: str = "av", distance: int | None = None,
                 move_fire: bool = False, cover: bool = False, close_assault: bool = False, spill: bool = False,
                 fire_zone: bool = False):
        self.game, self.kind, self.firer, self.target, self.mode = game, kind, firer, target, mode
        self.distance, self.move_fire, self.cover = distance, move_fire, cover
        self.close_assault, self.spill, self.fire_zone = close_assault, spill, fire_zone
        self.target_experience = game.experience(target)
        self.firer_experience = None if firer is None else game.experience(firer)

    @property
    def target_is_vehicle(self) -> bool:
        return self.target.type.is_vehicle

    @property
    def range_modifier(self) -> int:
        t = self.game.ctx.tables
        if self.kind != "direct":
            return t.range_modifier(self.distance, indirect=True)
        if self.distance == 1 and self.mode == "ai" and self.game.ctx.advanced:
            return t.setting("adjacent_anti_infantry_range_modifier", 2)  # §12.14: +2 AI
        return t.range_modifier(self.distance)

    @property
    def target_entrenched(self) -> bool:
        return self.game.entrenched(self.target)

    @property
    def target_in_bunker(self) -> bool:
        return self.game.bunker_of(self.target) is not None

    @property
    def target_in_minefield(self) -> bool:
        return self.game._in_revealed_minefield(self.target)

    @property
    def target_in_wire(self) -> bool:
        return self.target.hex in self.game.state.wire

    @property
    def flank_fire(self) -> bool:
        return self.game.in_flank(self.target, self.firer.hex) and self.game.bunker_of(self.target) is None

    @property
    def through_own_flank(self) -> bool:
        return self.game.in_flank(self.firer, self.target.hex)

    @property
    def smoke(self) -> bool:
        smoke = self.game.state.smoke
        return bool(smoke) and (self.firer.hex in smoke or self.target.hex in smoke)

    @property
    def separation_row(self) -> str | None:
        return self.game.separation_key(self.firer) if self.firer is not None and self.firer.separated else None

    @property
    def scenario_modifier(self) -> int:
        if self.firer is None:
            return 0
        return self.game._special("spotting" if self.kind == SPOT else "fire", self.firer.side)


def modifiers(shot: Shot) -> dict[str, float]:
    """The roll's modifiers by rule table id, in the table's order."""
    game = shot.game
    st = game.state
    present = (shot.kind, shot.cover, shot.move_fire, shot.close_assault, shot.spill, shot.fire_zone,
               bool(st.entrenchments), bool(st.bunkers), bool(st.minefields), bool(st.wire), bool(st.smoke),
               bool(game.ctx.special))
    plan = _PLANS.get(present)
    if plan is None:
        have = dict(zip(Shot.NEEDS, present[1:]))
        plan = _PLANS[present] = tuple((m.test, m.name, m.key, m.value) for m in rows(shot.kind)
                                       if m.needs is None or have[m.needs])
    tables = game.ctx.tables
    read = tables.spot if shot.kind == SPOT else tables.fire
    out = {}
    for test, name, key, value in plan:
        if test(shot):
            if key is not None:
                name = key(shot)
            out[name] = read(name) if value is None else value(shot)
    return out


# (kind, what is present) -> the rows that may hold then, as (test, name, key, value)
_PLANS: dict = {}
