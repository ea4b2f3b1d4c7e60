"""Statistics shared by the engine and the lab (rules/stats.py): written once, where both may
import it (the engine must not import the lab)."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from sandtable.rules.stats import wilson

ROOT = Path(__file__).resolve().parents[1]


def test_wilson_interval():
    assert wilson(0, 0) == (0.0, 0.0)
    lo, hi = wilson(5, 10)
    assert lo == pytest.approx(0.2366, abs=1e-4) and hi == pytest.approx(0.7634, abs=1e-4)
    assert wilson(0, 20)[0] == 0.0 and wilson(20, 20)[1] == 1.0
    lo, hi = wilson(2.5, 5)  # draws counted as halves: a score of one half, the interval around it
    assert lo + hi == pytest.approx(1.0) and 0 < lo < wilson(5, 10)[0]  # fewer games: wider
    assert wilson(3, 10, z=2.576)[0] < wilson(3, 10)[0]  # a wider interval at 99 %


def test_one_wilson_in_the_project():
    found = [f"{p.relative_to(ROOT)}" for folder in ("rules", "sandtable", "editor", "exports", "benchmarks")
             for p in sorted((ROOT / folder).rglob("*.py")) if re.search(r"^\s*def wilson\(", p.read_text(), re.M)]
    assert found == ["rules/stats.py"]
