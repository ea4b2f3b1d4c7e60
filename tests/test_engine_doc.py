"""docs/engine.md's generated tables are current: the events the engine's source logs and the
public queries of Game with their § (tests/engine_doc.py makes them: run it to rewrite them)."""
from __future__ import annotations

import pytest

import engine_doc


@pytest.mark.parametrize("block", engine_doc.BLOCKS)
def test_generated_table_is_current(block):
    assert engine_doc.current(block) == engine_doc.TABLES[block](), \
        f"docs/engine.md's {block} table is stale: run python tests/engine_doc.py"


def test_every_logged_kind_is_documented_with_its_fields():
    logged = engine_doc.logged_events()
    documented = engine_doc.documented()
    assert set(documented) == set(logged) and len(logged) > 50
    assert all(documented[k] == e["fields"] for k, e in logged.items())


def test_every_public_query_is_in_the_table():
    names = {name for name, _ in engine_doc.public_queries()}
    table = engine_doc.current("queries")
    assert names and all(f"| `{n}" in table for n in names)
