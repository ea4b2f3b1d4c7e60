"""What Holland '44 declares besides its documents and checks (rules/rulesets.py): its own
finding codes, its count limits and its reference scheme."""
from __future__ import annotations

from ..findings import Code, Severity
from ..limits import CountLimit

E, W = Severity.ERROR, Severity.WARNING


def _codes(*rows) -> tuple[Code, ...]:
    return tuple(Code(c, s, t) for c, s, t in rows)


# sections H§...
CODES = _codes(
    ("h44-counter", E, "A counter contradicts the rules: its side, unit class, free-stacking status, Remnant or half-battalion pair."),
    ("h44-schedule", E, "A reinforcement schedule entry disagrees with its counters or uses an entry area not friendly on its turn."),
    ("h44-map", E, "A map feature is inconsistent: a hexside between hexes that do not touch, a bridge or ferry on no water, an entry area off the edge, an unbounded region."),
    ("h44-bridge", E, "A bridge state the bridge rules forbid (never-blown, minor-river and railway bridges)."),
    ("h44-victory-city", E, "A city's victory points differ from its number of City hexes on the map."),
    ("h44-placement", E, "A counter placed where it cannot be: a half hex, prohibited terrain, with enemy units, twice, on the wrong side."),
    ("h44-steps", E, "A unit shows more steps than its counter has, or a 3-step unit one step (it is a Remnant by then)."),
    ("h44-stacking", E, "More than one Airborne Supply Head or face-down Unknown counter in a hex."),
    ("h44-overstack", W, "More than 2 regular units plus 1 free-stacking unit of a side in a hex: allowed, with penalties."),
    ("h44-step-limit", E, "More than 9 steps of a side in a hex: the excess is eliminated."),
    ("h44-reinforcement", E, "A counter in play before its arrival turn, in another entry area than its own, or off its set-up hex."),
    ("h44-entry-area", E, "Units in an entry area that is not friendly to their side on that turn."),
    ("h44-supply", E, "A unit's Out of Supply or Dismounted marker disagrees with its traced supply line."),
    ("h44-victory-points", E, "The victory points recorded for a position differ from what the position scores."),
)

LIMITS = (
    CountLimit("map", ("hex_km",), "hex-metres"),
)

SCHEME = "sandtable.rules.holland44.refscheme:SCHEME"
