"""The 'block' plan: for a side whose enemy scores by reaching a place (an exit edge, a zone)
while the side itself has nowhere to go. Read from the victory terms, never from a scenario.

Its free units stand across the enemy's way instead of waiting where the heuristic puts them
(the half of the way nearer the objective, in V the exit edge itself): a band of hexes on the
enemy's steepest way down to its objective (one hex either side), 3 to 11 hexes nearer the
objective than the first quarter of the enemy's units, and spread out over it. The enemy meets
the band early, stops to shoot its way through or goes round, and runs out of turns. Measured
against the heuristic as the Allies (sample setup, the ladder's seeds, games 0-23): V 20 of 24
won, 4 drawn (the heuristic 3 won), XV 13 won, 9 drawn (the heuristic 2 won, 6 drawn); on 7
automatic setups V 5 of 7 (0), XV 3 of 7 (0). I stays lost (about 20 of 23 Italians exit: their
road is too long to hold with 9 tanks arriving over 8 turns).

Tried and dropped (no better, or worse, on the same games): the band before the single nearest
enemy (XV 4 of 12), before the median one; a deeper or wider band; units on foot or with a weak
defence kept on the heuristic's front (XV 1 of 6, V 2 of 6); a second band at the objective; more
or less spreading; other fire or interrupt thresholds; forced hold; the nearest enemy leading in
the last turns; a bonus for hilltops (cover against lower firers: XV 4 and 3 of 6, not 5); also
holding the band's hexes within 2 of the goal (XV 4 of 4 lost); weighting shots at enemies near
their goal (changed no choice in XV: when the blockers shoot, the enemy is still far from it)."""
from __future__ import annotations

from .heuristic import hex_steps
from ..engine.context import other
from .search_policies import VariantBot, register_plan


class BlockBot(VariantBot):
    THRESHOLDS = (None, 1.0, 1.0)
    # the band: enemy-goal distances (hexes) from AHEAD to AHEAD + DEPTH in front of the enemy's
    # leading units, WIDTH hexes either side of its way
    AHEAD = 3.0
    DEPTH = 8.0
    WIDTH = 1
    LEADQ = 0.25  # which of the enemy's units leads: 0 the nearest, 0.5 the median
    SPREAD = 0.3  # a move's cost of each friendly unit already in the hex (holding)

    @classmethod
    def applies(cls, game, side: str) -> bool:
        """The enemy has a place to reach (an exit, a zone) and this side none of its own."""
        probe = VariantBot(0)
        try:
            return bool(probe.goal_distance(game, other(side))) and not probe.goal_distance(game, side)
        except Exception:  # noqa: BLE001 - terms the bot cannot read: the plan does not apply
            return False

    def _block_distance(self, game, side: str) -> dict:
        enemy = other(side)
        memo = self._memo
        key = ("block-plan", side, game.state.turn)
        if key in memo:
            return memo[key]
        goal = self._goal_distance(game, enemy)
        out: dict = {}
        if goal:
            board = game.ctx.field.board
            starts = [e.hex for e in game.state.units.values() if e.side == enemy and e.on_map and not e.hidden]
            if not starts:
                starts = sorted({h for f in game.state.formations.values() if f.side == enemy
                                 for h in f.entry_zone})
            starts = sorted(starts, key=lambda h: (goal.get(h, 99), h))
            lead = goal.get(starts[int(self.LEADQ * (len(starts) - 1))], 99) if starts else 0
            starts = starts[:6]
            corridor: set[str] = set()
            for h in starts:
                seen = 0
                while h in goal and goal[h] > 0 and seen < 80:
                    corridor.add(h)
                    h = min(board.neighbours(h), key=lambda n: (goal.get(n, 99), n))
                    seen += 1
                if h in goal:
                    corridor.add(h)
            band = set(corridor)
            for _ in range(self.WIDTH):
                band |= {n for h in band for n in board.neighbours(h) if n in goal}
            hi = max(0.0, lead - self.AHEAD)
            lo = max(0.0, hi - self.DEPTH)
            front = {h for h in band if lo <= goal[h] <= hi}
            if not front:
                front = {h for h in band if goal[h] <= max(2, lead / 2)} or corridor
            if front:
                fronts = game.ctx.field.memo.setdefault("bots.block_fronts", {})
                fkey = frozenset(front)
                if fkey not in fronts:
                    if len(fronts) > 256:
                        fronts.clear()
                    fronts[fkey] = hex_steps(game.ctx.field, fkey)
                out = fronts[fkey]
        memo[key] = out
        return out

    # --- where a blocker stands -----------------------------------------------------------------

    def _score_hex(self, game, u, hex_, view=None) -> float:
        score = super()._score_hex(game, u, hex_, view)
        if self.SPREAD and hex_ != u.hex and self.stance(game, u.side) == "hold":
            n = sum(1 for x in game.state.here(hex_) if x.side == u.side and x is not u)
            score += self.SPREAD * n
        return score


register_plan("block", BlockBot)
