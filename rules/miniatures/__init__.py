"""The miniatures ruleset (a French fragment): scale, units and HQs, command radii and
deployment, on the shared hex board (1 hex = 5 cm, rounded down)."""
from ..rulesets import DocumentKind, Ruleset, register
from . import checks, model, setup_checks
from .contributions import CODES, LIMITS, SCHEME

DOCUMENTS = (
    DocumentKind("rules", "miniatures/rules.schema.json", "rules", title="Rule constants"),
    DocumentKind("weapons", "miniatures/weapons.schema.json", "weapon", items="weapons", item_def="weapon",
                 title="Weapons"),
    DocumentKind("units", "miniatures/units.schema.json", "unit", items="units", item_def="unit",
                 title="Units and headquarters"),
    DocumentKind("table", "miniatures/table.schema.json", "table", title="Tables"),
    DocumentKind("scenario", "miniatures/scenario.schema.json", "scenario", title="Scenarios"),
    DocumentKind("setup", "miniatures/setup.schema.json", "setup", title="Setups"),
)

RULESET = Ruleset(name="miniatures", title="Miniatures (fragment)", documents=DOCUMENTS, check=checks.check,
                  build=model.build, check_setup=setup_checks.check_setup, codes=CODES, limits=LIMITS, scheme=SCHEME,
                  capabilities=frozenset({"check-setup"}))
register(RULESET)
