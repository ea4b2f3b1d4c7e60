"""Routes on the battlefield that bots and the diagnostics both read: the hexes a victory count
rewards reaching, the count specs inside a victory expression, hex distance in axial coordinates,
and the cheapest cost of the way from every hex to a set of hexes (a reverse Dijkstra search over
the terrain's entry costs). Pure functions of the battlefield and the scenario's JSON: no game."""
from __future__ import annotations

import heapq
import math
from collections.abc import Mapping


def spec_targets(field, spec) -> set[str]:
    """The hexes a victory count rewards reaching: a map, an exit edge's last row, a zone."""
    board = field.board
    if spec["event"] == "on-map" and "map" in spec:
        return {k for k, c in board.usable.items() if c.map_id == spec["map"]}
    if spec["event"] == "exited" and "edge" in spec:
        return {k for k in board.usable if board.edge_distance(k, spec["edge"], spec.get("map")) == 1
                and ("map" not in spec or board.cells[k].map_id == spec["map"])}
    if spec["event"] == "in-zone" and "zone" in spec:
        return set(field.zone(spec["zone"]))
    return set()


def count_specs(node):
    """Every count spec inside a number or condition expression."""
    if isinstance(node, Mapping):  # the model's JSON is read-only: mapping proxies and tuples
        for op, arg in node.items():
            if op == "count":
                yield arg
            elif isinstance(arg, (Mapping, list, tuple)):
                yield from count_specs(arg)
    elif isinstance(node, (list, tuple)):
        for n in node:
            yield from count_specs(n)


def axial_distance(a, b) -> int:
    dq, dr = a[0] - b[0], a[1] - b[1]
    return max(abs(dq), abs(dr), abs(dq + dr))


def step_table(field, unit_type) -> dict:
    """Hex -> [(neighbour, MP to step from the neighbour into the hex)] for a unit type (1 a step
    without one): the edges of the reverse search, read once per battlefield, type and wire
    (shared, read-only). Types that pay the same costs share one table (a caller may key its own
    searches on the table)."""
    cache = field.memo.setdefault("routes.steps", {})
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
        shared = field.memo.setdefault("routes.step_tables", {})
        signature = hash(tuple((k, tuple(row)) for k, row in sorted(out.items())))
        same = shared.get(signature)
        cache[key] = same if same is not None and same == out else shared.setdefault(signature, out)
    return cache[key]


def reverse_costs(field, sources: set[str], unit_type, extra: dict | None = None) -> dict[str, float]:
    """Cost of the cheapest way from each hex to the nearest source (reverse search); ``extra``
    adds a cost for stepping into some hexes (the new heuristic's known minefields)."""
    extra = extra or {}
    steps = step_table(field, unit_type)
    dist = {k: 0.0 for k in sources if k in steps}
    heap = [(0.0, k) for k in dist]
    heapq.heapify(heap)
    while heap:
        d, k = heapq.heappop(heap)
        if d > dist.get(k, math.inf):
            continue
        penalty = extra.get(k, 0)  # paid by whoever steps into k
        for n, cost in steps[k]:
            c = d + cost + penalty
            if c < dist.get(n, math.inf):
                dist[n] = c
                heapq.heappush(heap, (c, n))
    return dist
