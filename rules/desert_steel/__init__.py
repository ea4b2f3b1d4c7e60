"""The Desert Steel ruleset (Tank Leader series): document kinds and checks."""
from ..rulesets import DocumentKind, Ruleset, register
from . import checks, model, setup_checks, summary
from .contributions import BOARD, EDITOR, KIT_OPTIONS, LIMITS, PLAY, PRINTS, SCHEME

DOCUMENTS = (
    DocumentKind("unit-types", "desert-steel/unit-types.schema.json", "unit-type", items="units", item_def="unitType", title="Unit types"),
    DocumentKind("formation-cards", "desert-steel/formation-cards.schema.json", "formation-card", items="cards", item_def="card",
                 id_key="number", title="Formation cards"),
    DocumentKind("raid-cards", "desert-steel/raid-cards.schema.json", "raid-card", items="cards", item_def="raidCard", title="Raid cards"),
    DocumentKind("map", "desert-steel/map.schema.json", "map", title="Maps"),
    DocumentKind("map-configurations", "desert-steel/map-configurations.schema.json", "map-configuration",
                 items="configurations", item_def="configuration", title="Map configurations"),
    DocumentKind("terrain-effects", "desert-steel/terrain-effects.schema.json", "terrain-effects",
                 title="Battle conditions and terrain effects"),
    DocumentKind("rule-tables", "desert-steel/rule-tables.schema.json", "rule-tables", title="Rule tables"),
    DocumentKind("scenario", "desert-steel/scenario.schema.json", "scenario", title="Scenarios"),
    DocumentKind("setup", "desert-steel/setup.schema.json", "setup", title="Setups"),
)

RULESET = Ruleset(name="desert-steel", title="Desert Steel (Tank Leader series)",
                  documents=DOCUMENTS, check=checks.check, build=model.build,
                  check_setup=setup_checks.check_setup, scenario_list=summary.scenario_list,
                  scenario_summary=summary.scenario_summary,
                  play=PLAY, board=BOARD, editor=EDITOR, prints=PRINTS, kit_options=KIT_OPTIONS, short_title="Desert Steel",
                  find_scenario="sandtable.rules.desert_steel.model:DesertSteel.scenario", limits=LIMITS, scheme=SCHEME)
register(RULESET)
