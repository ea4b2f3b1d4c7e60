"""The 'evade' plan: for a side whose own losses count against it in the victory terms (an
attrition race: the enemy scores per unit of ours eliminated, or our score loses a point per
loss) while the enemy has no place to reach. Read from the victory terms, never from a scenario.

What it changes in the heuristic:

- **soft units keep out of reach**: a unit that cannot hurt the enemy (a carrier or truck with
  nothing aboard, a forward observer with no bombardment to spot) moves away from every seen
  enemy that could see and shoot it, instead of standing where it was set up (a loss is a loss,
  whatever the unit);
- **the way to a place goes round the enemy's sight**: where the side has somewhere to go (an
  exit that scores), its distances to it charge every hex a seen enemy gun sees and reaches, so
  its units go round the enemy's fields of fire instead of through them;
- **hidden units stay hidden** until they fire (a unit set up hidden, not an FO): they neither
  move nor ride (the heuristic loaded XII's four hidden 6-pounders in one truck, revealing them,
  and an air strike or a shot at the truck took them all);
"""
from __future__ import annotations

import os

import heapq
import math

from .bots import _counts, _dist, _expected_result
from .bots_heuristic import HeuristicBot2
from .context import other
from .search_policies import VariantBot, register_plan


def _own_losses_count(game, side: str) -> bool:
    """Some count in the victory terms is of the side's own units eliminated or destroyed."""
    expression = game.ctx.scenario.raw["victory"].get("expression") or {}
    return any(s.get("event") in ("eliminated", "destroyed") and s.get("units", {}).get("side") == side
               for s in _counts(expression))


def _disk(field, hex_, radius: int) -> list:
    """The usable hexes within ``radius`` of ``hex_`` (shared by every game on the battlefield)."""
    cache = field.__dict__.setdefault("_evade_disks", {})
    key = (hex_, radius)
    if key not in cache:
        board = field.board
        axial = board._axials
        here = axial[hex_]
        cache[key] = [h for h in board.usable if _dist(axial[h], here) <= radius]
    return cache[key]


def _step_costs(field, unit_type) -> dict:
    """Hex -> [(neighbour, MP to step from the neighbour into the hex)], as _dijkstra prices them
    (shared per battlefield, unit type and wire)."""
    cache = field.__dict__.setdefault("_evade_steps", {})
    key = (unit_type.id if unit_type else None, frozenset(field.wire))
    if key not in cache:
        if len(cache) > 64:
            cache.clear()
        board = field.board
        out = {}
        for k in board.usable:
            row = []
            for n in board.neighbours(k):
                cost = 1.0 if unit_type is None else field.enter_cost(unit_type, n, k)
                if cost == "prohibited":
                    continue
                row.append((n, (unit_type.movement or 1) if cost == "all" else cost))
            out[k] = row
        cache[key] = out
    return cache[key]


def _charged_dijkstra(field, sources: set, unit_type, extra: dict) -> dict:
    """bots._dijkstra with the step costs read from a table (the same distances, faster)."""
    steps = _step_costs(field, unit_type)
    dist = {k: 0.0 for k in sources if k in steps}
    heap = [(0.0, k) for k in dist]
    heapq.heapify(heap)
    while heap:
        d, k = heapq.heappop(heap)
        if d > dist.get(k, math.inf):
            continue
        penalty = extra.get(k, 0)
        for n, cost in steps.get(k, ()):
            c = d + cost + penalty
            if c < dist.get(n, math.inf):
                dist[n] = c
                heapq.heappush(heap, (c, n))
    return dist


class EvadeBot(VariantBot):
    THRESHOLDS = (None, 1.0, 1.0)
    SOFT = int(os.environ.get("E_SOFT", 1))
    SIGHT = float(os.environ.get("E_SIGHT", 4))  # MP charged for a hex in a seen enemy's sight and reach
    NEAR = float(os.environ.get("E_NEAR", 0.75))  # MP charged for a hex it can reach and shoot next turn

    @classmethod
    def applies(cls, game, side: str) -> bool:
        """An attrition race: the side's own losses count in the victory terms (for the enemy, or
        against it) and the enemy has no place to reach (where it has one, the side's units are
        needed across its way: the block plan's case)."""
        cache = game.ctx.field.__dict__.setdefault("_evade_applies", {})
        key = (game.ctx.scenario.id, side)
        if key not in cache:
            try:
                probe = HeuristicBot2(0)
                enemy = other(side)
                cache[key] = _own_losses_count(game, side) and not any(
                    probe._goal_distance(game, enemy, None, u) for u in game.state.units.values()
                    if u.side == enemy)
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

    WITHDRAW = int(os.environ.get("E_WITHDRAW", 1))

    def _withdraws(self, game, u) -> bool:
        """A vehicle of a side that would win if the game ended now, not fortified, with no place
        to reach: it keeps out of the enemy's reach (a loss can only lower the margin it has)."""
        if not self.WITHDRAW or u.hex is None or u.pinned or not u.type.is_vehicle:
            return False
        if self._fortified(game, u) or self.stance(game, u.side) != "hold":
            return False
        return not self._goal_distance(game, u.side, None, u)

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

    # --- the way round the enemy's fire --------------------------------------------------------

    def _sighted(self, game, side: str) -> tuple:
        """(key, {hex: MP charged}) for the hexes seen enemies see and can shoot at."""
        spots = self._spots
        if spots is not None and ("evade-sighted", side) in spots:
            return spots[("evade-sighted", side)]
        key = ("evade-sighted", side, game.state.turn, game.state.visibility,
               tuple([e.hex for e in game.state.units.values()
                      if e.side != side and e.status == "on-map" and not e.hidden and not e.carried_by]))
        memo = self._memo
        if key not in memo:
            for k in [k for k in memo if isinstance(k, tuple) and k and k[0] in ("evade-sighted", "evade-goal")]:
                del memo[k]  # one position at a time
            board = game.ctx.field.board
            table = game.ctx.table(game.state.visibility)
            extra: dict = {}
            for e in game.state.units.values():
                if e.side == side or not e.on_map or e.hidden or e.carried_by:
                    continue
                rng = max(game._range(e, True) or 0, game._range(e, False) or 0)
                if rng <= 0:
                    continue
                for h in table.seen_from(e.hex):
                    if board.distance(e.hex, h) <= rng:
                        extra[h] = extra.get(h, 0) + self.SIGHT
                if self.NEAR:
                    reach = min(game.state.visibility, rng) + int(game.ctx.field.allowance(e.type))
                    for h in _disk(game.ctx.field, e.hex, reach):
                        extra[h] = extra.get(h, 0) + self.NEAR
            memo[key] = (key, extra)
        if spots is not None:
            spots[("evade-sighted", side)] = memo[key]
        return memo[key]

    def _goal_distance(self, game, side: str, unit_type=None, unit=None) -> dict:
        base = super()._goal_distance(game, side, unit_type, unit)
        if not base or not self.SIGHT or side != getattr(self, "me", game.side_to_act):
            return base
        skey, extra = self._sighted(game, side)
        if not extra:
            return base
        key = ("evade-goal", id(base), unit_type.id if unit_type else None, skey)
        memo = self._memo
        if key not in memo:
            targets = {h for h, d in base.items() if d <= 0}
            memo[key] = _charged_dijkstra(game.ctx.field, targets, unit_type, extra)
        return memo[key]

    # --- hidden units stay hidden ---------------------------------------------------------------

    HIDE = int(os.environ.get("E_HIDE", 1))

    def _rides(self, game, p) -> bool:
        if self.HIDE and p.hidden and p.type.unit_class != "forward-observer":
            return False  # loading reveals it (XII's B/102): a truck of towed guns is one air strike's worth
        return super()._rides(game, p)

    THREAT = float(os.environ.get("E_THREAT", 0))

    def _danger_of(self, game, e) -> float:
        """How much the enemy unit can hurt the side's units it sees now (its best shot)."""
        best = 0.0
        for t in game._targets(e):
            for m in game._fire_modes(e, t):
                best = max(best, self.expected_effect(game, e, t, mode=m))
        return best

    def _target(self, game, actions):
        """Direct fire: the expected effect, more for a target that threatens the side's units
        (a hit suppresses it or makes it check: it shoots back less)."""
        if not self.THREAT or game.cx.get("spotter") or ("smoke",) in actions:
            return super()._target(game, actions)
        u = game.state.units[game.cx["unit"]]
        best, value = None, -1.0
        for a in actions:
            if a[0] != "target":
                continue
            t = game.state.units[a[1]]
            mode = a[2] if len(a) > 2 else None
            v = self.expected_effect(game, u, t, move_fire=game.cx.get("move_fire", False), mode=mode)
            v *= 1 + self.THREAT * self._danger_of(game, t)
            if v > value:
                best, value = a, v
        self._plan = None
        return best or super()._target(game, actions)

    STANDOFF = int(os.environ.get("E_STANDOFF", 0))

    def _make_view(self, game, u) -> dict:
        view = super()._make_view(game, u)
        if self.STANDOFF and u.type.is_vehicle and u.hex is not None:
            rng = game._range(u, True) or 0
            if rng > 0:  # close to the farthest distance it sees and hits at, not half its range
                view["reach"] = max(view["reach"], min(game.state.visibility, rng) - (self.STANDOFF - 1))
        return view

    # --- movement -----------------------------------------------------------------------------

    def _wants_to_move(self, game, u) -> bool:
        if self.HIDE and u.hidden and u.hex is not None and u.type.unit_class != "forward-observer":
            return False  # hidden until it fires: an ambush, not a target
        if self._soft(game, u) or self._withdraws(game, u):
            return self._exposure(game, u.side, u.hex) > 0
        return super()._wants_to_move(game, u)

    # --- where to fight from: the odds of the exchange ----------------------------------------

    TW = float(os.environ.get("E_TW", 0))  # weight of the enemy's expected effect on the unit there
    OW = float(os.environ.get("E_OW", 0))  # weight of the unit's best expected effect from there

    def _shot(self, game, f, t, d: int) -> float:
        """Expected effect of f firing at t from d hexes (natural mode, no cover, flank nor
        movement): the spotting chance times the expected result."""
        vehicle = t.type.is_vehicle
        factor = f.type.anti_vehicle if vehicle else f.type.anti_infantry
        reach = game._range(f, vehicle)
        if factor is None or reach is None or d > reach:
            return 0.0
        tables = game.ctx.tables
        need = math.ceil(d / 3) if d else 0
        mods = game._special("spotting", f.side)
        p = sum(1 for r in range(1, 7) if r + mods >= need) / 6 if d else 1.0
        shift = factor + game._self_spotting(f) - t.type.defense + tables.range_modifier(d) \
            + game._special("fire", f.side)
        return p * _expected_result(tables, "vehicle" if vehicle else "non_vehicle", shift)

    def _odds(self, game, u, hex_) -> tuple:
        """(what the seen enemies in sight of the hex can do to the unit there, the unit's best
        shot from there)."""
        spots = self._spots
        key = ("evade-odds", u.id, hex_)
        if spots is not None and key in spots:
            return spots[key]
        board = game.ctx.field.board
        vis = game.state.visibility
        threat, offense = 0.0, 0.0
        for e in game.state.units.values():
            if e.side == u.side or not e.on_map or e.hidden or e.carried_by:
                continue
            d = board.distance(e.hex, hex_)
            if d > vis or not game._visible(e.hex, hex_):
                continue
            if not e.suppressed:
                threat += self._shot(game, e, u, d)
            offense = max(offense, self._shot(game, u, e, d))
        if spots is not None:
            spots[key] = (threat, offense)
        return threat, offense

    def _weighs_odds(self, game, u) -> bool:
        return bool(self.TW or self.OW) and u.type.is_vehicle and u.hex is not None and \
            u.type.unit_class != "transport" and self.stance(game, u.side) == "attack" and \
            not self._goal_distance(game, u.side, None, u)

    def _score_hex(self, game, u, hex_, view=None) -> float:
        if not (self._soft(game, u) or self._withdraws(game, u)):
            score = super()._score_hex(game, u, hex_, view)
            if self._weighs_odds(game, u):
                threat, offense = self._odds(game, u, hex_)
                score += self.TW * threat - self.OW * offense
            return score
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
