"""One editor per object kind; ``form_for`` picks it (a JSON tree for any other kind)."""
from __future__ import annotations

from PySide6.QtWidgets import QVBoxLayout

from .fields import Heading, ObjectForm, scrolled


class RaidCardForm(ObjectForm):
    """Raid card: generated from the schema (air-strike half and bombardment half)."""

    def __init__(self, ctx, kind, oid, parent=None):
        super().__init__(ctx, kind, oid, parent)
        from .schema_form import generated_form
        lay = QVBoxLayout(self)
        lay.addWidget(Heading(f"Raid card {oid} (§2.3, §16)"))
        lay.addWidget(scrolled(generated_form(self, ctx.ruleset, skip=("provenance", "id"))), 1)
        self.refresh("")


def form_for(ctx, kind: str, oid: str) -> ObjectForm:
    from .card import CardForm
    from .mapconf import GenericForm, MapConfigurationForm, MapForm, SetupForm
    from .scenario import ScenarioForm
    from .tables import RuleTablesForm, TerrainEffectsForm
    from .unit_type import UnitTypeForm
    forms = {"unit-type": UnitTypeForm, "formation-card": CardForm, "raid-card": RaidCardForm,
             "rule-tables": RuleTablesForm, "terrain-effects": TerrainEffectsForm,
             "map-configuration": MapConfigurationForm, "map": MapForm, "scenario": ScenarioForm, "setup": SetupForm}
    if ctx.ruleset != "desert-steel":  # the hand-made forms know Desert Steel's schemas
        return GenericForm(ctx, kind, oid)
    return forms.get(kind, GenericForm)(ctx, kind, oid)
