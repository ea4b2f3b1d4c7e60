"""One style table for every drawing of a board: the print map (exports/mapsheet.py) and
the editor's screen board read their colours and symbols here, so that the two agree.

Plain data (hex strings, numbers), no Qt and no ReportLab: each renderer turns a colour
string into its own colour object.
"""
from __future__ import annotations

# Printed clear-terrain colours (elevation bands, lowest first on the reference maps, §3.4).
TERRAIN_COLOURS = {
    "sand": "#f3e7c9",
    "tan": "#e3c895",
    "ochre": "#cf9f5c",
    "brown": "#9c6c42",
}
UNKNOWN_TERRAIN = "#ffffff"  # a colour a mod invents and the table does not know

# Effective level under the battle conditions (0-3), for the screen's elevation shading: the
# same ladder as the printed bands, so that level 2 looks like the ochre plateau it usually is.
LEVEL_COLOURS = ("#f3e7c9", "#e3c895", "#cf9f5c", "#9c6c42")

ROAD = "#c0281c"   # red road (§3.5)
TRACK = "#7a4a1e"  # brown track
CLEAR_ROAD = "#a39a8a"  # a printed road that the road network makes plain ground
ROAD_WIDTH = 0.16  # of the hex radius
TRACK_WIDTH = 0.10
HEX_LINE = "#8c8274"
BUILDING = "#3b2f2a"
HALF_HEX = "#d9d9d9"  # half hexes at a map edge (never usable, §2.51)
MAP_EDGE = "#3e2723"
ID_INK = "#4a4238"
LEVEL_INK = "#6b5f52"

# Printed map symbols: the glyph the screen draws (the print kit draws its own pictures).
SYMBOL_GLYPHS = {"wadi": "≈", "oasis": "✿", "airfield": "✈", "escarpment": "⋀", "well": "○"}

# Overlays of the board workbench (colour, alpha 0-255).
OVERLAYS = {
    "zone": ("#1e5ac8", 70),          # a setup or entry zone
    "legal": ("#2e7d32", 80),         # hexes where the dragged formation may set up
    "full": ("#c62828", 90),          # a hex where one more unit would break stacking (§8.5)
    "radius": ("#6a1b9a", 255),       # outline: separation radius around a formation's centre (§11)
    "seen": ("#fbc02d", 110),         # hexes a unit sees (§9.1)
    "reach": ("#00838f", 80),         # hexes a unit reaches this turn (§8)
    "path": ("#ef6c00", 150),
    "paint": ("#d81b60", 90),         # a zone being painted
    "finding": ("#c62828", 255),      # outline of a hex named by a finding
}

# Counters on the board, as a fraction of the hex radius.
COUNTER_SIZE = 1.05


def level_colour(level: int) -> str:
    return LEVEL_COLOURS[max(0, min(len(LEVEL_COLOURS) - 1, level))]


def terrain_colour(name: str) -> str:
    return TERRAIN_COLOURS.get(name, UNKNOWN_TERRAIN)
