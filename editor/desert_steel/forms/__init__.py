"""Desert Steel's hand-made forms, by object kind (``FORMS``): they know its schemas.

The ruleset declares ``FORMS`` as its editor contribution's ``forms``; the generic editor
(``editor/forms/__init__.py``) opens any other kind as a JSON tree.
"""
from __future__ import annotations

from PySide6.QtWidgets import QVBoxLayout

from ...forms.fields import Heading, ObjectForm, scrolled
from .card import CardForm
from .mapconf import MapConfigurationForm, MapForm, SetupForm
from .scenario import ScenarioForm
from .tables import RuleTablesForm, TerrainEffectsForm
from .unit_type import UnitTypeForm


class RaidCardForm(ObjectForm):
    """Raid card: generated from the schema (air-strike half and bombardment half)."""

    def __init__(self, ctx, kind, oid, parent=None):
        super().__init__(ctx, kind, oid, parent)
        from ...forms.schema_form import generated_form
        lay = QVBoxLayout(self)
        lay.addWidget(Heading(f"Raid card {oid} (§2.3, §16)"))
        lay.addWidget(scrolled(generated_form(self, ctx.ruleset, skip=("provenance", "id"))), 1)
        self.refresh("")


# object kind -> form class, called (ctx, kind, oid)
FORMS = {"unit-type": UnitTypeForm, "formation-card": CardForm, "raid-card": RaidCardForm,
         "rule-tables": RuleTablesForm, "terrain-effects": TerrainEffectsForm,
         "map-configuration": MapConfigurationForm, "map": MapForm, "scenario": ScenarioForm, "setup": SetupForm}
