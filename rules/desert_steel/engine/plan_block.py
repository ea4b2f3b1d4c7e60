"""The 'block' plan: for a side whose enemy scores by reaching a place (an exit edge, a zone)
while the side itself has nowhere to go. Read from the victory terms, never from a scenario.

Its free units stand across the enemy's way instead of waiting where the heuristic puts them
(the half of the way nearer the objective): a band of hexes on the enemy's steepest way down to
its objective, some turns of enemy movement ahead of its leading units, spread over the band's
width so the enemy's next step nearer its goal is through an occupied hex (entering an enemy
hex ends a move, §8.53) and its units stop to shoot their way through."""
from __future__ import annotations

import os

from .bots import _dijkstra
from .bots_heuristic import HeuristicBot2
from .context import other
from .search_policies import VariantBot, register_plan


class BlockBot(VariantBot):
    THRESHOLDS = (None, 1.0, 1.0)
    # the band: enemy-goal distances (hexes) from AHEAD to AHEAD + DEPTH in front of the enemy's
    # leading units, WIDTH hexes either side of its way
    AHEAD = float(os.environ.get("B_AHEAD", 3))
    DEPTH = float(os.environ.get("B_DEPTH", 8))
    WIDTH = int(os.environ.get("B_WIDTH", 1))

    @classmethod
    def applies(cls, game, side: str) -> bool:
        """The enemy has a place to reach (an exit, a zone) and this side none of its own."""
        probe = HeuristicBot2(0)
        try:
            return bool(probe._goal_distance(game, other(side))) and not probe._goal_distance(game, side)
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
            starts = sorted(starts, key=lambda h: (goal.get(h, 99), h))[:6]
            lead = min((goal.get(h, 99) for h in starts), default=0)
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
                fronts = game.ctx.field.__dict__.setdefault("_block_fronts", {})
                fkey = frozenset(front)
                if fkey not in fronts:
                    if len(fronts) > 256:
                        fronts.clear()
                    fronts[fkey] = _dijkstra(game.ctx.field, fkey, None)
                out = fronts[fkey]
        memo[key] = out
        return out


register_plan("block", BlockBot)
