"""The bots: random, the heuristic (heuristic-v1 and heuristic), the search bot and the plans it
chooses among. Outside the engine: a bot gets its side's view (engine/view.py, handed by
engine/seats.Seat) and decides from the engine's public surface alone. Each module registers its
bots with engine/seats.register_bot when it is imported."""
