"""Scenario special rules (§18.7) the engine applies at set-up and in the reinforcement phase:
formations that begin shaken (VI), a formation deployed hidden like forward observers until its
first operation (XII), a visibility that changes turn by turn (XIII's nightfall).

Plain functions of a :class:`Game` (or of its scenario): game.py calls them from ``_setup``,
``_make_units``, ``start_turn`` and at the start of an operation."""
from __future__ import annotations

from ..battlefield import visibility_on
from .errors import EngineError
from .state import ON_MAP


def rules_of(scenario, kind: str, side: str | None = None) -> list:
    return [r for r in scenario.raw.get("special_rules", ()) if r["type"] == kind
            and (side is None or r.get("side", "both") in (side, "both"))]


# --- visibility (XIII: nightfall) ----------------------------------------------------------------


def visibility(scenario, turn: int) -> int:
    """The turn's visibility: the printed conditions, then from a "visibility-change" rule's turn on
    one step per reinforcement phase within its bounds (nightfall: 8 on turn 5, 7 on turn 6 ... 3)."""
    vis = visibility_on(scenario, turn)
    for r in rules_of(scenario, "visibility-change"):
        if turn >= r["from_turn"]:
            v = visibility_on(scenario, r["from_turn"] - 1) + r["step"] * (turn - r["from_turn"] + 1)
            vis = max(r.get("minimum", 1), min(v, r.get("maximum", v)))
    return vis


def check_visibility(scenario) -> None:
    """conditions.visibility_changes (what the scenario sheet prints) must give the rule's schedule:
    two sources that disagree are a data error, not something to choose between silently."""
    if not rules_of(scenario, "visibility-change"):
        return
    for turn in range(1, scenario.turns + 1):
        if visibility(scenario, turn) != visibility_on(scenario, turn):
            raise EngineError(f"{scenario.id}: turn {turn}: the visibility-change rule gives "
                              f"{visibility(scenario, turn)}, conditions.visibility_changes "
                              f"{visibility_on(scenario, turn)}; make them agree")


# --- formations that begin shaken (VI) -----------------------------------------------------------


def start_shaken(game) -> None:
    """§10.14 from the start: no activation, no opportunity fire, units face down until a rally
    (Morale step 2, §10.15) or a command card (§6.52). Without ``cards``: every combat formation
    of the rule's side at the start ("toutes les formations de l'Axe")."""
    s = game.state
    for r in rules_of(game.ctx.scenario, "start-shaken"):
        cards = r.get("cards") or [c for c, f in s.formations.items() if f.kind == "combat" and f.arrival == 1
                                   and r.get("side", "both") in (f.side, "both")]
        for card in cards:
            f = s.formations.get(card)
            if f is None or f.kind != "combat" or r.get("side", "both") not in (f.side, "both"):
                raise EngineError(f"start-shaken rule {r['id']}: {card} is not a combat formation of the "
                                  f"{r.get('side')} side in this scenario (§10.23: command formations never are)")
            units = game.units_of(card)
            if any(u.status != ON_MAP for u in units):
                raise EngineError(f"start-shaken rule {r['id']}: formation {card} enters the map; a formation "
                                  "arriving shaken is not implemented")
            f.shaken = True
            for u in units:
                u.flipped, u.flash_kill = True, False
            game.log("shaken", card=card, why=f"scenario rule {r['id']}", section="18.7")


# --- hidden deployment (XII: B/102) ---------------------------------------------------------------


def hidden_by_rule(scenario, side: str, card: int) -> bool:
    """A formation the scenario lets deploy secretly "comme des observateurs avancés" (§12.21)."""
    for r in rules_of(scenario, "hidden-deployment", side):
        if r.get("until", "first-operation") != "first-operation" or "cards" not in r:
            raise EngineError(f"hidden-deployment rule {r['id']}: only whole formations (cards) hidden until "
                              "their first operation are implemented")
        if card in r["cards"]:
            return True
    return False


def reveal_on_operation(game, u) -> None:
    """XII: "elles se révèlent lorsqu'elles accomplissent leur première opération, qui peut aussi être
    un transport": each unit is placed on the map when it is given an operation (declaring it points
    at the counter), loaded, or fires. Hidden FOs keep §12.22 (spotting does not reveal them)."""
    if u.hidden and u.type.unit_class != "forward-observer":
        game._reveal(u, "its first operation (scenario rule)")
