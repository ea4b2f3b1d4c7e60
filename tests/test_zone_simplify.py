"""Painted zones come back as a designer writes them (#26): a strip painted one line short is
"the south 5 hexes but not …", two clauses, never "within 51 of the west edge and of the east"."""
from __future__ import annotations

import json

import pytest

from sandtable.rules.desert_steel.battlefield import Battlefield
from sandtable.rules.desert_steel.zone_simplify import _clauses, simplify
from sandtable.rules.desert_steel.zones import ZoneContext, evaluate


def deep_strips(expr) -> list:
    text = json.dumps(expr)
    return [e for e in json.loads(text).get("all", [expr]) if "near_edge" in e and e["near_edge"]["within"] >= 10]


@pytest.mark.parametrize("sid", ["beda-fomm", "gazala", "lightfoot", "supercharge"])
def test_a_strip_one_line_short_is_two_plain_clauses(model, sid):
    field = Battlefield.for_scenario(model, model.scenario(sid))
    zctx = ZoneContext(field.board, field.terrain)
    board = field.board
    xy = {k: board.page_xy(k) for k in board.usable}
    xs = sorted({p[0] for p in xy.values()})
    ys = sorted({p[1] for p in xy.values()})
    for short in (xs[1], xs[-2]):  # the painter's rectangle missed the first or the last column
        lo, hi = (short, xs[-1]) if short == xs[1] else (xs[0], short)
        for y0, y1 in ((ys[-1] - 9, ys[-1]), (ys[0], ys[0] + 9)):  # five rows at the bottom, at the top
            painted = frozenset(k for k, (x, y) in xy.items() if lo <= x <= hi and y0 <= y <= y1)
            expr = simplify(painted, zctx)
            assert evaluate(expr, zctx) == painted
            assert _clauses(expr)[0] <= 2, expr
            assert deep_strips(expr) == [], expr
