"""What the miniatures ruleset declares besides its documents and checks (rules/rulesets.py): its own
finding codes, its count limits and its reference scheme."""
from __future__ import annotations

from ..findings import Code, Severity
from ..limits import CountLimit

E, W = Severity.ERROR, Severity.WARNING


def _codes(*rows) -> tuple[Code, ...]:
    return tuple(Code(c, s, t) for c, s, t in rows)


# sections M§...
CODES = _codes(
    ("mini-organisation", E, "A unit or HQ reports to a missing HQ, an HQ of the wrong echelon or side, or a side lists another side's unit."),
    ("mini-placement", E, "A unit of the scenario is not placed, placed twice, placed on a half hex, or is not in the scenario."),
    ("mini-command-radius", E, "A unit is beyond its company HQ's command radius, or a company HQ beyond its battalion HQ's."),
    ("mini-deployment", E, "A unit is placed outside its side's deployment zone."),
    ("mini-separation", E, "The two sides are placed closer than the strongest unit's power times 10 cm."),
)

LIMITS = (
    CountLimit("table", ("size_cm", "width"), "map-cm"),
    CountLimit("table", ("size_cm", "height"), "map-cm"),
    CountLimit("rules", ("scale", "cm_per_hex"), "map-cm"),
    CountLimit("rules", ("scale", "metres_per_hex"), "hex-metres"),
)

SCHEME = "sandtable.rules.miniatures.refscheme:SCHEME"
