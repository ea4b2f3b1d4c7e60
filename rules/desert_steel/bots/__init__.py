"""The bots: random, the heuristic (heuristic-v1 and heuristic), the search bot and the plans it
chooses among. Outside the engine: a bot gets its side's view (engine/view.py, handed by
engine/seats.Seat) and decides from the engine's public surface alone. Each module registers its
bots with engine/seats.register_bot when it is imported."""

# the first bots registered whatever module is imported first (the heuristic no longer builds on
# core's classes): the registry lists them in engine/seats.BOT_MODULES's order
from . import core  # noqa: E402,F401
