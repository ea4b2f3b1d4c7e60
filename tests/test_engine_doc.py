"""docs/engine.md's generated tables are current: the events the engine's source logs and the
public queries of Game with their § (tests/engine_doc.py makes them: run it to rewrite them)."""
from __future__ import annotations

import pytest

import engine_doc


@pytest.mark.parametrize("block", engine_doc.BLOCKS)
def test_generated_table_is_current(block):
    assert engine_doc.current(block) == engine_doc.TABLES[block](), \
        f"docs/engine.md's {block} table is stale: run python tests/engine_doc.py"


def test_every_log_call_fits_the_type_of_its_kind():
    """engine/outcomes.py is the one place that says what an event holds: every kind a call logs
    has a type; a call names only fields of it and every field its type always holds; a field of
    the type is logged by some call (or comes from a dict a call spreads, checked on the recorded
    games by tests/test_engine_recorded.py)."""
    import dataclasses
    from sandtable.rules.desert_steel.engine.outcomes import KINDS
    logged = engine_doc.logged_events()
    assert set(logged) == set(KINDS) and len(logged) > 50
    for kind, e in logged.items():
        fields = {f.name: f.default is dataclasses.MISSING for f in dataclasses.fields(KINDS[kind])
                  if f.name not in ("t", "_keys")}
        assert e["fields"] - {engine_doc.SPLAT} <= set(fields), (kind, e["fields"] - set(fields))
        for call in e["calls"]:
            if engine_doc.SPLAT not in call:
                assert {f for f, always in fields.items() if always} <= call, (kind, call)
        if not any(engine_doc.SPLAT in call for call in e["calls"]):
            assert set(fields) == e["fields"], (kind, set(fields) - e["fields"])


def test_every_public_query_is_in_the_table():
    names = {name for name, _ in engine_doc.public_queries()}
    table = engine_doc.current("queries")
    assert names and all(f"| `{n}" in table for n in names)
