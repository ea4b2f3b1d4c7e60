"""Zone expressions: the scenarios' setup and entry instructions as sets of usable hexes.

Every node has one operator key (see expressions.schema.json). Edges are compass edges,
turned into page edges through the board's north arrow. "Within N hexes of an edge"
counts the edge row as 1; "at least N hexes from every edge" keeps hexes N or more
from each edge (the same count), as NOTES.md records.
"""
from __future__ import annotations

from typing import Mapping

from ..board import Board
from .. import hexmath
from .terrain import TerrainMap


class ZoneError(ValueError):
    """An expression that cannot be evaluated on this board (message says why)."""


class ZoneContext:
    def __init__(self, board: Board, terrain: TerrainMap | None = None):
        self.board = board
        self.terrain = terrain
        self._map_hexes: dict[str, frozenset[str]] = {}

    def map_hexes(self, map_id: str) -> frozenset[str]:
        if map_id not in self.board.maps():
            raise ZoneError(f"map {map_id!r} is not on this board ({', '.join(self.board.maps())})")
        if map_id not in self._map_hexes:
            self._map_hexes[map_id] = frozenset(k for k, c in self.board.usable.items() if c.map_id == map_id)
        return self._map_hexes[map_id]

    def scope(self, node: Mapping) -> frozenset[str]:
        return self.map_hexes(node["map"]) if "map" in node else frozenset(self.board.usable)

    def hex(self, ref: str, map_id: str | None = None) -> str:
        key = self.board.resolve(ref if map_id is None or not ref[:1].isdigit() else map_id + ref)
        if key is None:
            raise ZoneError(f"hex {ref} is not on this board")
        return key


def evaluate(node: Mapping, ctx: ZoneContext) -> frozenset[str]:
    op, arg = next(iter(node.items()))
    handler = _OPS.get(op)
    if handler is None:
        raise ZoneError(f"unknown zone operator {op!r}")
    return handler(arg, ctx)


def _everywhere(arg, ctx):
    return frozenset(ctx.board.usable)


def _map(arg, ctx):
    return ctx.map_hexes(arg)


def _hexes(arg, ctx):
    out = set()
    for ref in arg:
        key = ctx.hex(ref)
        if key in ctx.board.usable:
            out.add(key)
    return frozenset(out)


def _near_edge(arg, ctx):
    within, edge, mid = arg["within"], arg["edge"], arg.get("map")
    return frozenset(k for k in ctx.scope(arg) if ctx.board.edge_distance(k, edge, mid) <= within)


def _away_from_edges(arg, ctx):
    n, mid = arg["at_least"], arg.get("map")
    return frozenset(k for k in ctx.scope(arg)
                     if all(ctx.board.edge_distance(k, e, mid) >= n for e in ("north", "east", "south", "west")))


def _beyond_line(arg, ctx):
    page = ctx.board.page_edge(arg["direction"])
    inclusive = arg.get("inclusive", True)
    if "row" in arg:
        if page not in ("top", "bottom"):
            raise ZoneError(f"rows run across the page; {arg['direction']} is {page} here, so 'beyond a row' "
                            f"cannot be {arg['direction']}")
        line, part, sign = arg["row"], slice(2, 4), (1 if page == "bottom" else -1)
    else:
        if page not in ("left", "right"):
            raise ZoneError(f"columns run down the page; {arg['direction']} is {page} here, so 'beyond a column' "
                            f"cannot be {arg['direction']}")
        line, part, sign = arg["column"], slice(0, 2), (1 if page == "right" else -1)
    out = set()
    for k in ctx.scope(arg):
        value = int(ctx.board.cells[k].hex_id[part])
        delta = sign * (value - line)
        if delta > 0 or (inclusive and delta == 0):
            out.add(k)
    return frozenset(out)


def _level(arg, ctx):
    if ctx.terrain is None:
        raise ZoneError("elevation zones need the scenario's battle conditions")
    levels = set(arg["in"])
    return frozenset(k for k in ctx.board.usable if ctx.terrain.level(k) in levels)


def _near_map(arg, ctx):
    """Multi-source breadth-first growth over the lattice from every hex of the map, bounded by
    the board: growth stays inside the board's axial bounding box (a shortest hex path between
    two of its hexes never leaves it), and a ``within`` at least the box's span is the whole
    board at once (``within`` 3000 or 1e9 took minutes and gigabytes growing into nothing)."""
    source = ctx.map_hexes(arg["map"])
    at = ctx.board.usable_at
    others = frozenset(k for k in ctx.board.usable if ctx.board.cells[k].map_id != arg["map"])
    axials = [c.axial for c in ctx.board.cells.values()]
    if not axials or not source:
        return frozenset()
    qs, rs = [a[0] for a in axials], [a[1] for a in axials]
    q0, q1, r0, r1 = min(qs), max(qs), min(rs), max(rs)
    within = arg["within"]
    if not isinstance(within, (int, float)) or within != within:
        raise ZoneError(f"near_map: 'within' must be a number of hexes, not {str(within)[:40]!r}")
    if within >= (q1 - q0) + (r1 - r0):  # no two hexes of the board are farther apart than this
        return others
    seen = {ctx.board.cells[k].axial for k in source}
    frontier = list(seen)
    for _ in range(max(0, int(within))):
        nxt = []
        for a in frontier:
            for n in hexmath.neighbours(a):
                if n not in seen and q0 <= n[0] <= q1 and r0 <= n[1] <= r1:
                    seen.add(n)
                    nxt.append(n)
        if not nxt:
            break
        frontier = nxt
    return frozenset(at[a] for a in seen if a in at and ctx.board.cells[at[a]].map_id != arg["map"])


def _edge_between(arg, ctx):
    mid = arg.get("map")
    a, b = ctx.hex(arg["from"], mid), ctx.hex(arg["to"], mid)
    edge = arg["edge"]
    page = ctx.board.page_edge(edge)
    axis = slice(2, 4) if page in ("left", "right") else slice(0, 2)
    lo, hi = sorted((int(ctx.board.cells[a].hex_id[axis]), int(ctx.board.cells[b].hex_id[axis])))
    map_id = ctx.board.cells[a].map_id
    return frozenset(k for k in ctx.map_hexes(map_id)
                     if ctx.board.edge_distance(k, edge, map_id) == 1
                     and lo <= int(ctx.board.cells[k].hex_id[axis]) <= hi)


def _all(arg, ctx):
    result = evaluate(arg[0], ctx)
    for node in arg[1:]:
        result &= evaluate(node, ctx)
    return result


def _any(arg, ctx):
    result = frozenset()
    for node in arg:
        result |= evaluate(node, ctx)
    return result


def _not(arg, ctx):
    return frozenset(ctx.board.usable) - evaluate(arg, ctx)


_OPS = {"everywhere": _everywhere, "map": _map, "hexes": _hexes, "near_edge": _near_edge,
        "away_from_edges": _away_from_edges, "beyond_line": _beyond_line, "level": _level,
        "near_map": _near_map, "edge_between": _edge_between, "all": _all, "any": _any, "not": _not}
