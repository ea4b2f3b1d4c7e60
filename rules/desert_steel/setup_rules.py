"""The set-up rules the engine plays by and the checks read alike: a card's units in a
scenario, the separation radius and its best central hex (§11), a scenario transport's
counter (§18.6). They sit below the preflight, the engine and the setup checks, so each of
those can ask them without an import cycle (the engine once reached up into setup_checks
and autosetup, which reach the engine through the preflight).
"""
from __future__ import annotations

from collections import Counter
from typing import Mapping

from .. import hexmath
from .battlefield import Battlefield
from .model import CombatCard, DesertSteel, Scenario

_CAPACITY = {"truck": "truck", "motorcycle": "motorcycle", "halftrack": "light"}


def expected_units(ctx_model: DesertSteel, scenario: Scenario, side: str, number: int) -> Counter:
    card = ctx_model.cards.get(number)
    if not isinstance(card, CombatCard):
        return Counter()
    variant = card.variant(scenario.sides[side].year)
    if variant is None:
        return Counter()
    units = Counter({u.unit.id: u.count for u in variant.units})
    for under in scenario.sides[side].raw.get("undermanned", ()):
        if under["card"] == number:
            for r in under["remove"]:
                units[r["type"]] -= r["count"]
    return +units


def doctrine_radius(settings: Mapping, card: CombatCard) -> int | None:
    """§11.2-11.4: companies and squadrons only; HQs and batteries are exempt."""
    if card.formation in ("hq", "battery"):
        return None
    group = "allied" if card.side == "allied" else card.nationality
    return settings.get(f"doctrine_radius_{group}", {"german": 3, "allied": 2, "italian": 1}[group])


def best_centre(field: Battlefield, hexes: list[str], radius: int) -> tuple[str, list[int]]:
    """The centre hex leaving the fewest units outside the radius, and their indices (the first
    such hex in key order). Memoised per battlefield (a pure function of the hexes and the
    radius: the morale phase asks it for every formation at every turn)."""
    memo = field.memo.get("best_centre")
    if memo is None or len(memo) > _CENTRE_MEMO:
        memo = field.memo["best_centre"] = {}
    key = (tuple(hexes), radius)
    hit = memo.get(key)
    if hit is None:
        hit = memo[key] = _best_centre(field, hexes, radius)
    return hit[0], list(hit[1])


_CENTRE_MEMO = 20_000  # entries kept before the memo starts afresh (a batch's memory stays bounded)


def _best_centre(field: Battlefield, hexes: list[str], radius: int) -> tuple[str, tuple[int, ...]]:
    axials = field.board.axials
    if radius > 6:  # every hex of the board may be the centre
        return _first_fewest_outside(sorted(field.board.graph.nodes), hexes, radius, axials)
    # a hex within the radius of a unit is within the radius of as many units as count it here:
    # the centre is the first hex, in key order, that most units count (the fewest left outside)
    inside = Counter()
    for h in hexes:
        inside.update(_around(field, h, radius))
    if not inside:
        return None, ()
    most = max(inside.values())
    best = min(c for c, n in inside.items() if n == most)  # the first in key order of those counted most
    cq, cr = axials[best]
    return best, tuple(i for i, h in enumerate(hexes) if _beyond(cq, cr, axials[h], radius))


def _beyond(cq: int, cr: int, point: tuple, radius: int) -> bool:
    q, r = point
    return abs(cq - q) > radius or abs(cr - r) > radius or abs(cq - q + cr - r) > radius


def _first_fewest_outside(candidates: list, hexes: list[str], radius: int, axials) -> tuple[str, tuple[int, ...]]:
    points = [axials[h] for h in hexes]
    best_key, best_out = None, None
    for c in candidates:
        cq, cr = axials[c]
        outside = [i for i, p in enumerate(points) if _beyond(cq, cr, p, radius)]
        if best_out is None or len(outside) < len(best_out):
            best_key, best_out = c, outside
            if not outside:
                break
    return best_key, tuple(best_out or ())


def _around(field: Battlefield, key: str, radius: int) -> frozenset[str]:
    """The usable hexes within ``radius`` of ``key``: memoised per battlefield (the morale phase
    asks them of every unit of every formation at every turn)."""
    memo = field.memo.get("around")
    if memo is None:
        memo = field.memo["around"] = {}
    hit = memo.get((key, radius))
    if hit is None:
        at = field.board.usable_at
        hit = memo[(key, radius)] = frozenset(at[a] for a in hexmath.within(field.board.axial(key), radius) if a in at)
    return hit


def transport_type(model: DesertSteel, side: str, transport: dict) -> str | None:
    """The counter of a scenario transport: as named, else the side's own of that kind."""
    if "unit_type" in transport:
        return transport["unit_type"]
    nationalities = [transport["nationality"]] if "nationality" in transport else \
        sorted({t.nationality for t in model.unit_types.values() if t.side == side})
    for nat in nationalities:
        for t in sorted(model.unit_types.values(), key=lambda t: t.id):
            if t.nationality == nat and t.transport_capacity == _CAPACITY[transport["type"]] \
                    and not t.formation_transport:
                return t.id
    return None
