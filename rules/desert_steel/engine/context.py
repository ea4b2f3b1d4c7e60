"""What every game of a scenario shares: the context, the rules a scenario lacks, errors."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Mapping

from ..battlefield import Battlefield
from ..model import CardVariant, CombatCard, DesertSteel, Scenario
from ..preflight import refusal
from ..visibility import VisibilityTable
from .actions import Action  # noqa: F401 - ("pass",), ("step", hex)...: typed tuples (actions.py)
from .errors import EngineError  # noqa: F401 - raised and caught as context.EngineError too
from .tables import Tables

SIDES = ("allied", "axis")

# The advanced rules the engine plays (§12-§18): a scenario (a mod's, say) that needs any other is
# refused by make_context, naming what is missing (see missing_rules).
IMPLEMENTED = ("non-vehicle units (§12)", "anti-infantry fire (§13.1)", "indirect fire (§13.2)",
               "entrenchment operations (§13.4)", "smoke (§17.1-17.4, from indirect fire and CS tanks)",
               "transport (§13.3, scenario transports set up on the map)", "overrun (§14.2)",
               "close assault (§14.1)", "entrenchments placed at set-up (§18.4)", "minefields (§15.1)",
               "bunkers (§15.2)", "wire (§15.3)", "engineers and scenario engineer abilities (§15.4)",
               "scenario prohibited hexes and exempt friendly minefields (§18.7)",
               "scenario transports arriving as reinforcements (§13.3, §18.6)",
               "formations that begin shaken (§18.7 start-shaken)",
               "a formation deployed hidden until its first operation (§18.7 hidden-deployment)",
               "visibility changing in the reinforcement phase (§18.7 visibility-change)")

# Scenario transports belong to no formation (§13.31): each side's are filed under a pseudo card.
TRANSPORT_POOL = {"allied": -1, "axis": -2}


def other(side: str) -> str:
    return "axis" if side == "allied" else "allied"


@dataclass
class Context:
    """Static per game: the board, tables and lookups every action needs."""

    model: DesertSteel
    scenario: Scenario
    field: Battlefield
    tables: Tables
    years: dict
    visibility: dict = field(default_factory=dict)  # turn visibility -> VisibilityTable
    exits: Mapping = field(default_factory=dict)
    special: tuple = ()
    advanced: bool = False  # the advanced rules (§12-§17) are in force (scenarios VI-XV)
    # Facts derived from the fields above, computed once per context: fire profiles, card variants,
    # experience levels, prohibited hexes (each user names its key)
    memo: dict = field(default_factory=dict)

    def table(self, vis: int) -> VisibilityTable:
        if vis not in self.visibility:
            saved = self.field.visibility
            self.field.visibility = vis
            self.visibility[vis] = VisibilityTable(self.field)
            self.field.visibility = saved
        return self.visibility[vis]

    def variant(self, card: int):
        if card < 0:  # §13.31: scenario transports have morale 7 and are Seasoned
            t = self.tables
            return CardVariant(0, (), t.setting("transport_experience", "seasoned"), "F",
                               t.setting("transport_morale", 7), 0)
        c = self.model.cards[card]
        if not isinstance(c, CombatCard):
            return None
        key = (card, self.years[c.side])  # memoised: asked for every modifier and morale check
        memo = self.memo.get("variants")
        if memo is None:
            memo = self.memo["variants"] = {}
        if key not in memo:
            memo[key] = c.variant(key[1])
        return memo[key]


def missing_rules(model: DesertSteel, scenario: Scenario) -> list[str]:
    """The advanced rules a scenario needs that the engine does not play yet (empty: playable)."""
    if scenario.rules == "basic":
        return []
    raw = scenario.raw
    need: list[str] = []
    # handled elsewhere: setup checks (no-stacking), the terrain (level-override), the engine (the rest)
    known = {"die-roll-modifier", "self-spotting", "text-only", "no-stacking", "level-override",
             "engineer-capable", "prohibited-hexes", "exempt-friendly-minefields", "start-shaken",
             "hidden-deployment", "visibility-change"}
    for r in raw.get("special_rules", ()):
        if r["type"] not in known:
            need.append(f"scenario rule {r['type']} (§18.7)")
    return need


def make_context(model: DesertSteel, scenario: Scenario, allow: tuple = (),
                 field: Battlefield | None = None) -> Context:
    """What every game of a scenario shares (build once for a batch of games). ``allow``: missing
    rules to play anyway (for tests of a rule before the scenarios that need it are enabled);
    ``field``: the scenario's battlefield when the caller has it (check-setup's preflight)."""
    missing = [m for m in missing_rules(model, scenario) if m not in allow]
    if missing:
        raise EngineError(f"{scenario.id}: the advanced rules it needs are not all implemented yet; "
                          f"missing: {', '.join(missing)}")
    reason = refusal(model, scenario)  # the preflight validate and check-setup report (principle 12)
    if reason:
        raise EngineError(reason)
    field_ = field if field is not None and field.scenario is scenario else Battlefield.for_scenario(model, scenario)
    return Context(model, scenario, field_, Tables(model.rule_tables or {}),
                   {s: scenario.sides[s].year for s in SIDES},
                   exits=scenario.raw.get("exits", {}), special=tuple(scenario.raw.get("special_rules", ())),
                   advanced=scenario.rules != "basic")
