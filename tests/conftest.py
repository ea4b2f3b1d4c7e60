import os
from pathlib import Path

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "data"
FIXTURES = Path(__file__).resolve().parent / "fixtures"


@pytest.fixture(scope="session")
def catalog():
    """The bundled packs, loaded once (the model is immutable; tests copy what they change)."""
    from sandtable.rules.catalog import load_catalog
    return load_catalog()


@pytest.fixture(scope="session")
def model(catalog):
    return catalog.model
