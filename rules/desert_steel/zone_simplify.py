"""A painted set of hexes as the simplest zone expression of the pack's zone language.

The editor's zone painting gives a set of hexes; scenarios are written in expressions
(``zones.py``): an edge and a depth, hexes within N of a map, column and row ranges,
elevation levels, unions and differences. ``simplify`` looks, for each family of the
language, for the tightest member that contains the painted set — the depth or line is
read off the set itself, so each family costs one evaluation — intersects them, keeps
the fewest that still give exactly the set, and falls back to a union of the connected
pieces, a difference, or an explicit hex list, whichever is shortest. Whatever it
returns evaluates to exactly the painted set (checked, not assumed).
"""
from __future__ import annotations

import json
from typing import Iterable

from .zones import ZoneContext, ZoneError, evaluate

COMPASS = ("north", "east", "south", "west")


def _size(expr) -> int:
    return len(json.dumps(expr, separators=(",", ":")))


# What a designer would write: few clauses, each one read at a glance. An edge strip deeper than
# _DEEP hexes says "all but the far side" (a 5-deep strip one column short came out as "within 51
# of west and of east"): a line ("west of column 36") or fewer clauses read better, so it costs more.
_DEEP = 10
_CLAUSE, _AWKWARD = 40, 60


def _clauses(expr) -> tuple[int, int]:
    """(operators other than all/any/not, awkward ones among them) in an expression."""
    if isinstance(expr, list):
        parts = [_clauses(e) for e in expr]
        return sum(p[0] for p in parts), sum(p[1] for p in parts)
    if not isinstance(expr, dict):
        return 0, 0
    (op, arg), = expr.items() if len(expr) == 1 else (("?", None),)
    if op in ("all", "any", "not"):
        return _clauses(arg)
    awkward = op == "near_edge" and isinstance(arg, dict) and arg.get("within", 0) >= _DEEP
    return 1, int(awkward)


def _cost(expr) -> int:
    leaves, awkward = _clauses(expr)
    return _size(expr) + _CLAUSE * leaves + _AWKWARD * awkward


def hex_list(keys: Iterable[str], ctx: ZoneContext) -> dict:
    """An explicit list; on a one-map board the ids are written as printed (2213)."""
    one = len(ctx.board.maps()) == 1
    return {"hexes": sorted(ctx.board.cells[k].hex_id if one else k for k in keys)}


def _supersets(target: frozenset[str], ctx: ZoneContext) -> list[tuple[dict, frozenset[str]]]:
    """For each family, its tightest member containing ``target`` (when there is one)."""
    board = ctx.board
    maps = sorted({board.cells[k].map_id for k in target})
    scopes: list[str | None] = [None] + (maps if len(maps) == 1 else [])
    out: list[tuple[dict, frozenset[str]]] = []

    def add(expr):
        try:
            hexes = evaluate(expr, ctx)
        except (ZoneError, KeyError, ValueError):
            return
        if target <= hexes:
            out.append((expr, hexes))

    if len(board.maps()) > 1 and len(maps) == 1:
        add({"map": maps[0]})
    for scope in scopes:
        extra = {"map": scope} if scope else {}
        for edge in COMPASS:
            depth = max(board.edge_distance(k, edge, scope) for k in target)
            add({"near_edge": {"edge": edge, "within": depth, **extra}})
        least = min(min(board.edge_distance(k, e, scope) for e in COMPASS) for k in target)
        if least > 1:
            add({"away_from_edges": {"at_least": least, **extra}})
        for direction in COMPASS:
            page = board.page_edge(direction)
            part = slice(2, 4) if page in ("top", "bottom") else slice(0, 2)
            values = [int(board.cells[k].hex_id[part]) for k in target]
            line = min(values) if page in ("bottom", "right") else max(values)
            key = "row" if page in ("top", "bottom") else "column"
            add({"beyond_line": {"direction": direction, key: line, **extra}})
    if ctx.terrain is not None:
        levels = sorted({ctx.terrain.level(k) for k in target})
        if len(levels) < 4:
            add({"level": {"in": levels}})
    for m in board.maps():
        if m in maps:
            continue
        src = ctx.map_hexes(m)
        dist = [min((board.distance(k, s) for s in src), default=99) for k in list(target)[:60]]
        if dist:
            add({"near_map": {"map": m, "within": max(dist) + (0 if len(target) <= 60 else 3)}})
    return out


def _tight(target: frozenset[str], ctx: ZoneContext) -> tuple[dict | None, frozenset[str]]:
    """The fewest tightest supersets whose intersection is as close to ``target`` as they get."""
    universe = frozenset(ctx.board.usable)
    cands = [(e, h) for e, h in _supersets(target, ctx) if h != universe]
    if not cands:
        return ({"everywhere": True} if target == universe else None), universe
    inter = universe
    for _, h in cands:
        inter &= h
    keep = sorted(cands, key=lambda c: len(c[1]))  # strongest first; drop the weakest that add nothing
    # drop the awkward first, then the weakest: what stays is what a designer would keep
    for c in sorted(cands, key=lambda c: (-_clauses(c[0])[1], -len(c[1]), -_size(c[0]))):
        rest = [d for d in keep if d is not c]
        if not rest:
            continue
        r = universe
        for _, h in rest:
            r &= h
        if r == inter:
            keep = rest
    exprs = [e for e, _ in keep]
    return (exprs[0] if len(exprs) == 1 else {"all": exprs}), inter


def _edge_strips(target: frozenset[str], ctx: ZoneContext) -> dict | None:
    """``target`` as a union of edge strips (a ring, an L along two edges), if it is one."""
    board = ctx.board
    maps = sorted({board.cells[k].map_id for k in target})
    strips = []
    for scope in [None] + (maps if len(maps) == 1 else []):
        extra = {"map": scope} if scope else {}
        for edge in COMPASS:
            depth, hexes = 0, frozenset()
            for d in range(1, 40):
                try:
                    h = evaluate({"near_edge": {"edge": edge, "within": d, **extra}}, ctx)
                except ZoneError:
                    break
                if not h or not h <= target or h == hexes:
                    break
                depth, hexes = d, h
            if depth:
                strips.append(({"near_edge": {"edge": edge, "within": depth, **extra}}, hexes))
        union = frozenset().union(*(h for _, h in strips)) if strips else frozenset()
        if union == target:
            keep = list(strips)
            for c in list(strips):
                rest = [d for d in keep if d is not c]
                if rest and frozenset().union(*(h for _, h in rest)) == target:
                    keep = rest
            return keep[0][0] if len(keep) == 1 else {"any": [e for e, _ in keep]}
        strips = []
    return None


def _pieces(target: frozenset[str], ctx: ZoneContext) -> list[frozenset[str]]:
    left, out = set(target), []
    while left:
        seed = left.pop()
        piece, frontier = {seed}, [seed]
        while frontier:
            k = frontier.pop()
            for n in ctx.board.neighbours(k):
                if n in left:
                    left.discard(n)
                    piece.add(n)
                    frontier.append(n)
        out.append(frozenset(piece))
    return sorted(out, key=lambda p: sorted(p)[0])


def simplify(hexes: Iterable[str], ctx: ZoneContext, _depth: int = 0) -> dict:
    """The expression a designer would write (fewest clauses, no needlessly deep strip, then the
    shortest) among those found that evaluate to exactly ``hexes`` (usable hex keys)."""
    target = frozenset(k for k in hexes if k in ctx.board.usable)
    if not target:
        return {"hexes": []}
    best = hex_list(target, ctx)
    options = []
    expr, inter = _tight(target, ctx)
    if expr is not None:
        if inter == target:
            options.append(expr)
        else:
            extra = inter - target
            options.append({"all": _flat_all(expr) + [{"not": hex_list(extra, ctx)}]})
            if _depth == 0 and len(extra) > 1:
                sub = simplify(extra, ctx, _depth + 1)
                if "hexes" not in sub:
                    options.append({"all": _flat_all(expr) + [{"not": sub}]})
        # one family "except" a thin remainder: "the east 5 hexes but not the north edge", as
        # a designer writes a strip painted one line short (never deeper than one level)
        if _depth == 0:
            singles = sorted((c for c in _supersets(target, ctx) if len(c[1]) < len(ctx.board.usable)),
                             key=lambda c: len(c[1]))[:2]
            for e, h in singles:
                rest = h - target
                if rest and len(rest) * 3 < len(target):
                    sub = simplify(rest, ctx, _depth + 1)
                    if "hexes" not in sub or len(rest) <= 6:  # "but not these five hexes" reads well
                        options.append({"all": [e, {"not": sub}]})
    strips = _edge_strips(target, ctx)
    if strips is not None:
        options.append(strips)
    if _depth == 0:
        pieces = _pieces(target, ctx)
        if 1 < len(pieces) <= 6:
            parts = [simplify(p, ctx, _depth + 1) for p in pieces]
            lists = [p for p in parts if "hexes" in p]
            merged = [p for p in parts if "hexes" not in p]
            if lists:
                merged.append({"hexes": sorted(h for p in lists for h in p["hexes"])})
            options.append({"any": merged} if len(merged) > 1 else merged[0])
    for option in options:
        if _cost(option) < _cost(best) and _evaluates_to(option, target, ctx):
            best = option
    return best


def _flat_all(expr: dict) -> list:
    return list(expr["all"]) if "all" in expr else [expr]


def _evaluates_to(expr: dict, target: frozenset[str], ctx: ZoneContext) -> bool:
    try:
        return evaluate(expr, ctx) == target
    except (ZoneError, KeyError, ValueError):
        return False
