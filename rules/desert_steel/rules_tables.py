"""Rule conditions the engine applies in code, as public data the play aids print (§8.2, §9.5,
§11, §14.11).

The numbers live in the pack's rule tables (read through ``engine.tables.Tables``); the
conditions below are the ones the engine's code decides (which hexsides are the front arc,
who may move-and-fire, which separated units may not move, who may close-assault). They are
written once here, side-effect free, so that the printed aids say exactly what the engine
does; tests/test_exports_rules_aids.py plays each statement against the engine on a
constructed position.
"""
from __future__ import annotations

from typing import Optional

# §8.2: the front arc is the hexside the counter's top edge faces and its two neighbours;
# the other three hexsides are the flank arc. Offsets are in hexsides, clockwise.
FRONT_ARC_OFFSETS = (0, 1, 5)
HEXSIDES = 6


def in_front_arc(facing: int, hexside: int) -> bool:
    """Whether ``hexside`` (0 up the page, clockwise) is in the front arc of a unit facing ``facing``."""
    return (hexside - facing) % HEXSIDES in FRONT_ARC_OFFSETS


# §9.51: move-and-fire is for vehicles only, strictly a limited move and then a limited fire;
# not after a flash kill (§9.37).
MOVE_AND_FIRE_VEHICLES_ONLY = True
MOVE_AND_FIRE_ORDER = ("move", "fire")

# §11.5: the separation row of each unit (fire and morale modifier id), and the rows whose units
# may not move either (advanced rules). A Seasoned non-vehicle has no row (NOTES.md).
SEPARATION_ROWS = ("separated_veteran", "separated_vehicle", "separated_green_non_vehicle")
SEPARATED_MAY_NOT_MOVE = ("separated_green_non_vehicle",)
# §11.2-§11.4: doctrine applies to companies and squadrons; these formations are exempt
DOCTRINE_EXEMPT_FORMATIONS = ("hq", "battery")


def separation_row(experience: str, is_vehicle: bool) -> Optional[str]:
    """The §11.5 row of a separated unit of this experience and class (None: no effect)."""
    if experience == "veteran":
        return "separated_veteran"
    if is_vehicle:
        return "separated_vehicle"
    return "separated_green_non_vehicle" if experience == "green" else None


# §14.11: who may close-assault, and the three ways in (any one suffices).
CLOSE_ASSAULT_CLASS = "infantry"
CLOSE_ASSAULT_WAYS = ("target_in_cover", "from_entrenchment", "through_flank_arc")


# --- the modifiers of spotting and fire (§9.14, §9.3, §12.14, §13, §14.13, §15, §17.3, §18.7) -----
# One row per modifier: the rule table id its value is read under (``spotting_modifiers`` for the
# kind "spot", else ``fire_modifiers``) unless the row computes it, the section, the kinds of roll
# it enters and when. The engine (engine/modifiers.py) builds every spotting and fire roll's
# modifiers from this table alone; ``test``, ``key`` and ``value`` read the facts of one shot
# (engine/modifiers.Shot: what the firer, the target and the battlefield show at that moment).
# Kinds: "spot" (a spotting roll), "direct" (direct and opportunity fire, close-assault fire, the
# anti-infantry spill), "indirect" (indirect fire and its fire-zone attacks), "raid" (air strikes and
# bombardments, §16), "zone" (a unit entering an enemy fire zone, §13.26).
SPOT, DIRECT, INDIRECT, RAID, ZONE = "spot", "direct", "indirect", "raid", "zone"


class Modifier:
    __slots__ = ("name", "section", "kinds", "when", "test", "key", "value", "needs")

    def __init__(self, name: str, section: str, kinds: tuple, when: str, test, key=None, value=None,
                 needs: str | None = None):
        self.name, self.section, self.kinds, self.when = name, section, frozenset(kinds), when
        self.test = test  # shot -> bool
        self.key = key  # shot -> the rule table id (None: the name)
        self.value = value  # shot -> the value (None: the rule table's value of the id)
        # a circumstance of the roll or a thing on the map without which the test cannot hold
        # (Shot.NEEDS): the engine skips the row at once when it is absent
        self.needs = needs

    def __repr__(self) -> str:
        return f"Modifier({self.name!r}, §{self.section}, {sorted(self.kinds)})"


MODIFIERS = (
    Modifier("range", "9.3, 12.14, 13.2, 13.26", (DIRECT, INDIRECT, ZONE),
             "always (a fire zone's attack: when its firer's hex is recorded); direct fire's schedule, "
             "+2 for adjacent anti-infantry fire in the advanced rules, the indirect schedule otherwise",
             lambda s: s.distance is not None, value=lambda s: s.range_modifier),
    Modifier("fire_zone", "13.26, 16.33", (INDIRECT, RAID, ZONE),
             "an attack of a fire zone (the other units of an indirect fire's or a bombardment's hex, "
             "a unit entering a zone)", lambda s: s.fire_zone, needs="fire_zone"),
    Modifier("anti_infantry_vs_lightly_armored", "13.1", (DIRECT, INDIRECT, RAID, ZONE),
             "anti-infantry fire at a (lightly armoured) vehicle", lambda s: s.mode == "ai" and s.target_is_vehicle),
    Modifier("moving_target", "9.14, 9.3", (SPOT, DIRECT, INDIRECT, RAID),
             "the target has a Moved marker", lambda s: s.target.moved),
    Modifier("target_veteran", "9.14, 9.3", (SPOT, DIRECT, INDIRECT, RAID, ZONE),
             "the target is Veteran", lambda s: s.target_experience == "veteran"),
    Modifier("spotter_green", "9.14", (SPOT,), "the spotter is Green", lambda s: s.firer_experience == "green"),
    Modifier("firer_green", "9.3", (DIRECT, INDIRECT, ZONE), "the firer is Green",
             lambda s: s.firer_experience == "green"),
    Modifier("target_in_cover", "9.3, 14.13", (DIRECT,),
             "the target is in a building or higher than the firer (never in a close assault)", lambda s: s.cover,
             needs="cover"),
    Modifier("target_entrenched", "13.43", (SPOT, DIRECT, INDIRECT, RAID, ZONE),
             "the target occupies a finished entrenchment", lambda s: s.target_entrenched, needs="entrenchments"),
    Modifier("target_in_bunker", "15.24", (DIRECT, INDIRECT, RAID, ZONE),
             "the target occupies a bunker", lambda s: s.target_in_bunker, needs="bunkers"),
    Modifier("target_in_minefield_hex", "15.12", (DIRECT, INDIRECT, RAID, ZONE),
             "the target stands in a revealed minefield's hex", lambda s: s.target_in_minefield,
             needs="minefields"),
    Modifier("target_in_wire_hex", "15.41", (DIRECT, INDIRECT, RAID, ZONE),
             "the target stands in a wire hex", lambda s: s.target_in_wire, needs="wire"),
    Modifier("move_and_fire", "9.5", (SPOT, DIRECT), "the firer makes a move-and-fire operation",
             lambda s: s.move_fire, needs="move_fire"),
    Modifier("flank_fire", "8.21, 15.24", (DIRECT,),
             "the fire comes through the target's flank arc (not at a bunker's occupant)", lambda s: s.flank_fire),
    Modifier("through_own_flank", "8.21, 9.15", (SPOT, DIRECT),
             "the firer spots or fires through its own flank arc", lambda s: s.through_own_flank),
    Modifier("target_spotted", "9.18", (SPOT,), "the target has a Spotted A/B/C marker (the row of its letter)",
             lambda s: bool(s.target.spotted), key=lambda s: f"target_spotted_{s.target.spotted.lower()}"),
    Modifier("smoke", "17.3", (SPOT,), "the spotter's or the target's hex holds smoke (once, even if both)",
             lambda s: s.smoke, needs="smoke"),
    Modifier("separated", "11.5", (DIRECT, INDIRECT), "the firer is separated (its row of §11.5)",
             lambda s: s.separation_row is not None, key=lambda s: s.separation_row),
    Modifier("scenario", "18.7", (SPOT, DIRECT, INDIRECT),
             "the scenario's die-roll modifier for the firer's side (its spotting or fire rolls)",
             lambda s: bool(s.scenario_modifier), value=lambda s: s.scenario_modifier,
             needs="scenario"),
    Modifier("close_assault", "14.13", (DIRECT,), "the infantry fires at the vehicle it assaults",
             lambda s: s.close_assault, needs="close_assault"),
    Modifier("anti_infantry_stack", "13.11", (DIRECT,),
             "anti-infantry fire's attack on the other non-vehicles of the target's hex", lambda s: s.spill,
             needs="spill"),
)
