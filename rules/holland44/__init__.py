"""The Holland '44 ruleset (Operation Market-Garden): document kinds and checks.

Counters, markers, entry areas, the reinforcement schedule, rule constants, terrain
effects, maps, victory values, scenarios and setups; stacking, zones of control and
bonds, supply lines and victory points computed on the shared hex board.
"""
from ..rulesets import DocumentKind, Ruleset, register
from . import checks, model, setup_checks
from .contributions import CODES, LIMITS, SCHEME

DOCUMENTS = (
    DocumentKind("counters", "holland44/counters.schema.json", "counter", items="counters", item_def="counter",
                 title="Counters"),
    DocumentKind("markers", "holland44/markers.schema.json", "marker", items="markers", item_def="marker",
                 title="Markers"),
    DocumentKind("entry-areas", "holland44/entry-areas.schema.json", "entry-area", items="areas", item_def="area",
                 title="Entry areas"),
    DocumentKind("reinforcements", "holland44/reinforcements.schema.json", "reinforcement", items="entries",
                 item_def="entry", title="Reinforcement schedule"),
    DocumentKind("rules", "holland44/rules.schema.json", "rules", title="Rule constants"),
    DocumentKind("terrain", "holland44/terrain.schema.json", "terrain", title="Terrain effects"),
    DocumentKind("map", "holland44/map.schema.json", "map", title="Maps"),
    DocumentKind("victory", "holland44/victory.schema.json", "victory", title="Victory points"),
    DocumentKind("scenario", "holland44/scenario.schema.json", "scenario", title="Scenarios"),
    DocumentKind("setup", "holland44/setup.schema.json", "setup", title="Setups and positions"),
)

RULESET = Ruleset(name="holland44", title="Holland '44 (Operation Market-Garden)", documents=DOCUMENTS,
                  check=checks.check, build=model.build, check_setup=setup_checks.check_setup, codes=CODES, limits=LIMITS, scheme=SCHEME,
                  capabilities=frozenset({"check-setup", "supply"}))
register(RULESET)
