"""jsonschema-rs answers "valid?" first; it must never accept what jsonschema rejects."""
import json

import pytest
from conftest import DATA
from hypothesis import HealthCheck, given, settings, strategies as st
from test_fuzz_documents import mutate

from sandtable.rules import rulesets
from sandtable.rules.schemas import SchemaSet, default_schemas

SAMPLES = {
    "desert-steel/unit-types.schema.json": "desert-steel/units/german.json",
    "desert-steel/formation-cards.schema.json": "desert-steel/cards/british.json",
    "desert-steel/scenario.schema.json": "desert-steel/scenarios/07-tobruk.json",
    "desert-steel/rule-tables.schema.json": "desert-steel/tables/rule-tables.json",
    "desert-steel/setup.schema.json": "desert-steel/setups/02-battleaxe.json",
    "overrides.schema.json": "example-mod/overrides.json",
}


@pytest.fixture(scope="module")
def schemas() -> SchemaSet:
    s = default_schemas()
    if not s.use_fast:
        pytest.skip("jsonschema-rs is not installed: everything goes through jsonschema")
    return s


def small(doc: dict) -> dict:
    """Keep collections short so each example stays quick."""
    doc = json.loads(json.dumps(doc))
    for key in ("units", "cards"):
        if key in doc:
            doc[key] = doc[key][:2]
    return doc


def test_every_kind_compiles_and_accepts_its_reference_documents(schemas):
    ds = rulesets.get("desert-steel")
    for dk in ds.documents:
        assert schemas.fast_validator(dk.schema) is not None, dk.schema
    for rel, sample in SAMPLES.items():
        doc = json.loads((DATA / sample).read_text(encoding="utf-8"))
        assert schemas.fast_validator(rel).is_valid(doc)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_fast_path_is_never_more_lenient(schemas, data):
    rel = data.draw(st.sampled_from(sorted(SAMPLES)))
    doc = small(json.loads((DATA / SAMPLES[rel]).read_text(encoding="utf-8")))
    mutated = mutate(data.draw, doc)
    python_ok = not any(True for _ in schemas.validator(rel).iter_errors(mutated))
    try:
        fast_ok = schemas.fast_validator(rel).is_valid(mutated)
    except Exception:  # the accelerator may refuse odd values; then jsonschema decides alone
        return
    if fast_ok:
        assert python_ok, f"jsonschema-rs accepted what jsonschema rejects: {json.dumps(mutated)[:300]}"
