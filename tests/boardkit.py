"""Small synthetic boards for tests of geometry, line of sight and movement."""
from __future__ import annotations

from sandtable.rules.board import Board
from sandtable.rules.desert_steel.battlefield import Battlefield
from sandtable.rules.desert_steel.terrain import Conditions, TerrainMap

LABEL = {"en": "x"}
EFFECTS = {
    "urbanization": {"values": {"town": {"label": LABEL, "building_hexes": "building"},
                                "desert": {"label": LABEL, "building_hexes": "clear"}}},
    "zone": {"values": {"sandy": {"label": LABEL, "ground": "sandy", "entrenchment": True}}},
    "relief": {"values": {"steps": {"label": LABEL, "levels": {"l0": 0, "l1": 1, "l2": 2, "l3": 3}}}},
    "road_network": {"values": {"dense": {"label": LABEL, "road": "road", "track": "track"}}},
}
TABLES = {
    "movement_costs": {"columns": ["vehicle", "non_vehicle"], "terrain": {
        "sandy": {"vehicle": 1, "non_vehicle": 1}, "building": {"vehicle": 2, "non_vehicle": 1},
        "road": {"vehicle": 0.5, "non_vehicle": 1}, "track": {"vehicle": 1, "non_vehicle": 1},
        "wire": {"vehicle": "all", "non_vehicle": "prohibited"}}},
    "settings": {"spotting_divisor_open": 3, "spotting_divisor_cover": 2, "climb_cost_fraction": 0.5,
                 "climb_cost_rounding": "up"},
}


def sheet(map_id="A", columns=(1, 12), rows=(1, 12), hexes=None, roads=None, half=None, shifted="odd") -> dict:
    return {"id": map_id, "name": map_id, "grid": {
        "orientation": "flat-top", "columns": {"first": columns[0], "last": columns[1]},
        "rows": {"first": rows[0], "last": rows[1]}, "shifted_columns": shifted, "half_hexes": half or {}},
        "colours": ["l0", "l1", "l2", "l3"], "default_colour": "l0",
        "hexes": hexes or {}, "roads": roads or []}


def field(hexes=None, visibility=12, urbanization="town", roads=None, **kw) -> Battlefield:
    hexes = {k[-4:]: v for k, v in (hexes or {}).items()}  # "A0504" or "0504"
    m = sheet(hexes=hexes, roads=roads, **kw)
    board = Board.from_sheets([[m]], "up")
    conditions = Conditions("steps", "sandy", urbanization, "dense", {}, {})
    return Battlefield(board, TerrainMap(board, {m["id"]: m}, EFFECTS, conditions), visibility, TABLES)


def level(n: int) -> dict:
    return {"colour": f"l{n}"}
