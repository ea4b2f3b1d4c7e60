"""The 'evade' plan: for a side whose own losses count against it in the victory terms (an
attrition race: the enemy scores per unit of ours eliminated, or our score loses a point per
loss) and which has no place of its own to reach. Read from the victory terms, never from a
scenario.

What it changes in the heuristic:

- **soft units keep out of reach**: a unit that cannot hurt the enemy (a carrier or truck with
  nothing aboard, a forward observer with no bombardment to spot) moves away from every seen
  enemy that could see and shoot it, instead of standing where it was set up (a loss is a loss,
  whatever the unit);
"""
from __future__ import annotations

import os

from .bots import _counts, _dist
from .bots_heuristic import HeuristicBot2
from .context import other
from .search_policies import VariantBot, register_plan


def _own_losses_count(game, side: str) -> bool:
    """Some count in the victory terms is of the side's own units eliminated or destroyed."""
    expression = game.ctx.scenario.raw["victory"].get("expression") or {}
    return any(s.get("event") in ("eliminated", "destroyed") and s.get("units", {}).get("side") == side
               for s in _counts(expression))


class EvadeBot(VariantBot):
    THRESHOLDS = (None, 1.0, 1.0)
    SOFT = int(os.environ.get("E_SOFT", 1))

    @classmethod
    def applies(cls, game, side: str) -> bool:
        """The side's own losses count against it, and it has no place of its own to reach."""
        cache = game.ctx.field.__dict__.setdefault("_evade_applies", {})
        key = (game.ctx.scenario.id, side)
        if key not in cache:
            try:
                cache[key] = _own_losses_count(game, side) and not HeuristicBot2(0)._goal_distance(game, side)
            except Exception:  # noqa: BLE001 - terms the bot cannot read: the plan does not apply
                cache[key] = False
        return cache[key]

    # --- who evades ---------------------------------------------------------------------------

    def _soft(self, game, u) -> bool:
        """A unit with nothing to do in a fight: an empty transport, an FO with nothing to spot."""
        if not self.SOFT or u.hex is None or u.pinned:
            return False
        if u.type.unit_class == "transport":
            return not game._passengers(u)
        if u.type.unit_class == "forward-observer":
            return not self._on_duty(game, u) and not self._fortified(game, u)
        return False

    def _threats(self, game, side: str) -> list:
        """(axial, shooting reach, reach after a move) of every seen enemy unit that can fire;
        per decision (the position changes with every action)."""
        spots = self._spots
        if spots is not None and "evade-threats" in spots:
            return spots["evade-threats"]
        axial = game.ctx.field.board._axials
        vis = game.state.visibility
        out = []
        for e in game.state.units.values():
            if e.side == side or not e.on_map or e.hidden or e.carried_by:
                continue
            rng = max(game._range(e, True) or 0, game._range(e, False) or 0)
            if rng <= 0 and not (e.type.anti_vehicle or e.type.anti_infantry):
                continue
            shoot = min(vis, max(1, rng))
            move = int(game.ctx.field.allowance(e.type)) if e.type.movement else 1
            out.append((axial[e.hex], shoot, shoot + move))
        if spots is not None:
            spots["evade-threats"] = out
        return out

    def _exposure(self, game, side: str, hex_) -> float:
        here = game.ctx.field.board._axials[hex_]
        score = 0.0
        for pos, shoot, reach in self._threats(game, side):
            d = _dist(pos, here)
            if d <= shoot:
                score += 3.0
            elif d <= reach:
                score += 1.0
        return score

    # --- movement -----------------------------------------------------------------------------

    def _wants_to_move(self, game, u) -> bool:
        if self._soft(game, u):
            return self._exposure(game, u.side, u.hex) > 0
        return super()._wants_to_move(game, u)

    def _score_hex(self, game, u, hex_, view=None) -> float:
        if not self._soft(game, u):
            return super()._score_hex(game, u, hex_, view)
        view = view or self._view(game, u)
        score = self._exposure(game, u.side, hex_)
        threats = self._threats(game, u.side)
        if threats:  # farther is a little better (the enemy comes on)
            here = view["axial"][hex_]
            score -= 0.05 * min(12, min(_dist(p, here) for p, _, _ in threats))
        if hex_ in view["enemy_hexes"]:
            score += 50
        if hex_ != u.hex and view["crowded"](hex_):
            score += 50
        if view["mines"] and hex_ != u.hex:
            score += view["mines"].get(hex_, 0)
        return score


register_plan("evade", EvadeBot)
