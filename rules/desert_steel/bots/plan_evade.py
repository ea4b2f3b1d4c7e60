"""Two plans for attrition races, read from the victory terms (never from a scenario): the side's
own losses count (for the enemy, or against the side's own score) and the enemy has no place to
reach (where it has one, the side's units are needed across its way: the block plan's case).

'evade' (the side has no place of its own either: IX's Allies, X's, XII's two sides):

- **units with nothing to do in a fight keep out of reach**: an empty carrier or truck, an FO
  with nothing to spot, moves away from every seen enemy that could see and shoot it, instead of
  standing where it was set up (IX: the heuristic's holding Allies lost 4-7 empty carriers a
  game to the German tanks, each an Allied unit eliminated, and 20 lose the game);
- **hidden units stay hidden** until they fire (a unit set up hidden, not an FO): they neither
  move nor ride (XII: the heuristic loaded the four hidden 6-pounders in one truck, revealing
  them, and an air strike or the truck's loss took 2-4 of them);
- **a side ahead keeps its lead**: on a side that would win if the game ended now, a free vehicle
  with no shot worth taking moves out of the enemy's reach (a loss can only lower its margin);
- **shots are taken at half the heuristic's thresholds** (the trigger-happy variant's): what
  scores is killing, and a shot not taken is a shot the enemy takes first.

'detour' (the side scores towards a fixed total and each of its losses comes off that total,
while what scores is getting somewhere: IV's Allies, +1 a unit off the west edge, -1 a loss,
10 to win): the same, and its distances to the place charge every hex a seen enemy sees and
reaches (4 MP) and, a little (0.75 MP), every hex a seen enemy can reach and shoot next turn, so
its units swing wide of the enemy instead of driving through its fields of fire. Where the
terms reward getting through fast instead (I's, III's, V's Axis, II's Matildas) the way round
lost games the heuristic wins: it does not apply there.
"""
from __future__ import annotations

from ..routes import axial_distance, count_specs, reverse_costs, step_table
from ..engine.context import other
from .search_policies import VariantBot, register_plan


def _own_losses_count(game, side: str) -> bool:
    """Some count in the victory terms is of the side's own units eliminated or destroyed."""
    expression = game.ctx.scenario.raw["victory"].get("expression") or {}
    return any(s.get("event") in ("eliminated", "destroyed") and s.get("units", {}).get("side") == side
               for s in count_specs(expression))


def _has_place(game, side: str) -> bool:
    """Some unit of the side has a place to reach that pays (an exit, a zone, a map), as the
    heuristic reads it (IV: an exit west pays; XI's map counts)."""
    probe = VariantBot(0)
    return any(probe.goal_distance(game, side, None, u) for u in game.state.units.values() if u.side == side)


def _losses_off_own_score(game, side: str) -> bool:
    """The side needs a fixed number of points and its own points lose some for each of its
    units eliminated (IV: the Allied score is -1 a loss, 10 wins)."""
    expression = game.ctx.scenario.raw["victory"].get("expression") or {}
    if VariantBot(0).points_needed(game, side) is None:
        return False

    def negative(node, sign=1):
        if hasattr(node, "items"):
            for op, arg in node.items():
                if op == "count":
                    if sign < 0 and arg.get("event") in ("eliminated", "destroyed") \
                            and arg.get("units", {}).get("side") == side:
                        yield True
                elif op == "mul" and isinstance(arg, (list, tuple)):
                    factor = 1
                    for a in arg:
                        if isinstance(a, (int, float)):
                            factor *= a
                    for a in arg:
                        if not isinstance(a, (int, float)):
                            yield from negative(a, sign * (1 if factor >= 0 else -1))
                elif op == "sub" and isinstance(arg, (list, tuple)) and len(arg) == 2:
                    yield from negative(arg[0], sign)
                    yield from negative(arg[1], -sign)
                elif isinstance(arg, (list, tuple)) or hasattr(arg, "items"):
                    yield from negative(arg, sign)
        elif isinstance(node, (list, tuple)):
            for n in node:
                yield from negative(n, sign)
    terms = expression.get("points", {}).get(side, ())
    return any(negative([t["value"] for t in terms]))


def _applies(game, side: str, name: str, test) -> bool:
    cache = game.ctx.field.memo.setdefault("bots.evade_applies", {})
    key = (name, game.ctx.scenario.id, side)
    if key not in cache:
        try:
            cache[key] = bool(_own_losses_count(game, side) and not _has_place(game, other(side))
                              and test(game, side))
        except Exception:  # noqa: BLE001 - terms the bot cannot read: the plan does not apply
            cache[key] = False
    return cache[key]


def _disk(field, hex_, radius: int) -> list:
    """The usable hexes within ``radius`` of ``hex_`` (shared by every game on the battlefield)."""
    cache = field.memo.setdefault("bots.evade_disks", {})
    key = (hex_, radius)
    if key not in cache:
        board = field.board
        axial = board.axials
        here = axial[hex_]
        cache[key] = [h for h in board.usable if axial_distance(axial[h], here) <= radius]
    return cache[key]


class EvadeBot(VariantBot):
    # fire thresholds halved (the trigger-happy variant's): XII's Allies won 13 of 16 against 8
    # with the heuristic's, IX and X unchanged (6 of 6)
    THRESHOLDS = (None, 0.5, 1.0)
    SIGHT = 0.0  # MP charged on the way to a place for a hex in a seen enemy's sight and reach
    NEAR = 0.0  # ... for a hex a seen enemy can reach and shoot next turn

    @classmethod
    def applies(cls, game, side: str) -> bool:
        """Own losses count, and neither side has a place to reach."""
        return _applies(game, side, "evade", lambda g, s: not _has_place(g, s))

    # --- who evades ---------------------------------------------------------------------------

    def _soft(self, game, u) -> bool:
        """A unit with nothing to do in a fight: an empty transport, an FO with nothing to spot."""
        if u.hex is None or u.pinned:
            return False
        if u.type.unit_class == "transport":
            return not game.passengers(u)
        if u.type.unit_class == "forward-observer":
            return not self._on_duty(game, u) and not self._fortified(game, u)
        return False

    def _withdraws(self, game, u) -> bool:
        """A vehicle of a side that would win if the game ended now, not fortified, with no place
        to reach: it keeps out of the enemy's reach."""
        if u.hex is None or u.pinned or not u.type.is_vehicle:
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
        axial = game.ctx.field.board.axials
        vis = game.state.visibility
        out = []
        for e in game.state.units.values():
            if e.side == side or not e.on_map or e.hidden or e.carried_by:
                continue
            rng = max(game.range(e, True) or 0, game.range(e, False) or 0)
            if rng <= 0 and not (e.type.anti_vehicle or e.type.anti_infantry):
                continue
            shoot = min(vis, max(1, rng))
            move = int(game.ctx.field.allowance(e.type)) if e.type.movement else 1
            out.append((axial[e.hex], shoot, shoot + move))
        if spots is not None:
            spots["evade-threats"] = out
        return out

    def _exposure(self, game, side: str, hex_) -> float:
        """3 for each seen enemy that can shoot at the hex from where it stands, 1 for each that
        can after a move."""
        here = game.ctx.field.board.axials[hex_]
        score = 0.0
        for pos, shoot, reach in self._threats(game, side):
            d = axial_distance(pos, here)
            if d <= shoot:
                score += 3.0
            elif d <= reach:
                score += 1.0
        return score

    # --- the way round the enemy's fire ('detour') -----------------------------------------------

    def _sighted(self, game, side: str) -> tuple:
        """(key, {hex: MP charged}): the hexes seen enemies see and can shoot at, and those they
        can reach and shoot next turn."""
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
                rng = max(game.range(e, True) or 0, game.range(e, False) or 0)
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
        if not base or not (self.SIGHT or self.NEAR) or side != getattr(self, "me", game.side_to_act):
            return base
        skey, extra = self._sighted(game, side)
        if not extra:
            return base
        memo = self._memo
        tkey = memo.get(("evade-targets", id(base)))
        if tkey is None or tkey[0] is not base:  # the id of a dict since freed may be reused
            tkey = memo[("evade-targets", id(base))] = (base, frozenset(h for h, d in base.items() if d <= 0))
        steps = step_table(game.ctx.field, unit_type)
        # types that pay the same costs (IV's Grants, Shermans and Crusaders) share one search
        key = ("evade-goal", id(steps), tkey[1], skey)
        hit = memo.get(key)
        if hit is None or hit[0] is not steps:
            hit = memo[key] = (steps, reverse_costs(game.ctx.field, tkey[1], unit_type, extra))
        return hit[1]

    # --- hidden units stay hidden ---------------------------------------------------------------

    def _rides(self, game, p) -> bool:
        if p.hidden and p.type.unit_class != "forward-observer":
            return False  # loading reveals it (§18.7, XII's B/102)
        return super()._rides(game, p)

    # --- movement -----------------------------------------------------------------------------

    def _wants_to_move(self, game, u) -> bool:
        if u.hidden and u.hex is not None and u.type.unit_class != "forward-observer":
            return False  # hidden until it fires: an ambush, not a target
        if self._soft(game, u) or self._withdraws(game, u):
            return self._exposure(game, u.side, u.hex) > 0
        return super()._wants_to_move(game, u)

    def _score_hex(self, game, u, hex_, view=None) -> float:
        if not (self._soft(game, u) or self._withdraws(game, u)):
            return super()._score_hex(game, u, hex_, view)
        view = view or self._view(game, u)
        score = self._exposure(game, u.side, hex_)
        threats = self._threats(game, u.side)
        if threats:  # farther is a little better (the enemy comes on)
            here = view["axial"][hex_]
            score -= 0.05 * min(12, min(axial_distance(p, here) for p, _, _ in threats))
        if hex_ in view["enemy_hexes"]:
            score += 50
        if hex_ != u.hex and view["crowded"](hex_):
            score += 50  # §8.52
        if view["mines"] and hex_ != u.hex:
            score += view["mines"].get(hex_, 0)
        return score


class DetourBot(EvadeBot):
    THRESHOLDS = (None, 1.0, 1.0)
    SIGHT = 4.0
    NEAR = 0.75

    @classmethod
    def applies(cls, game, side: str) -> bool:
        """Own losses come off the side's own score, which must reach a fixed total, and the
        side has a place to reach that scores."""
        return _applies(game, side, "detour", lambda g, s: _has_place(g, s) and _losses_off_own_score(g, s))


register_plan("evade", EvadeBot)
register_plan("detour", DetourBot)
