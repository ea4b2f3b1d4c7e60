"""The vectorised visibility table agrees with the explained line of sight, pair by pair."""
import random

import pytest
from boardkit import field, level

from sandtable.rules import hexmath
from sandtable.rules.catalog import load_catalog
from sandtable.rules.desert_steel.battlefield import Battlefield
from sandtable.rules.desert_steel.visibility import VisibilityTable


def assert_agrees(f, origins):
    table = VisibilityTable(f)
    checked = 0
    for a in origins:
        for rel in hexmath.within(f.board.axial(a), f.visibility):
            b = f.board.usable_at.get(rel)
            if b is None:
                continue
            assert table.visible(a, b) == f.los(a, b).visible, (a, b, f.los(a, b))
            checked += 1
    return checked


@pytest.mark.parametrize("number", ["XV", "XIII"])
def test_table_matches_los_on_the_reference_maps(number):
    model = load_catalog().model
    f = Battlefield.for_scenario(model, model.scenario(number))
    f.visibility = 12
    rng = random.Random(7)
    assert assert_agrees(f, rng.sample(sorted(f.board.usable), 25)) > 5000


def test_table_matches_los_with_buildings_slopes_and_smoke():
    rng = random.Random(3)
    hexes = {}
    for c in range(1, 13):
        for r in range(1, 13):
            roll = rng.random()
            if roll < 0.15:
                hexes[f"{c:02d}{r:02d}"] = {"building": True, **level(rng.randint(0, 2))}
            elif roll < 0.6:
                hexes[f"{c:02d}{r:02d}"] = level(rng.randint(0, 3))
    f = field(hexes, visibility=8)
    f.smoke = {"A0606", "A0707"}
    assert assert_agrees(f, sorted(f.board.usable)) > 5000
