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
