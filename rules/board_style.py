"""One style table for every drawing of a board: the print map (exports/desert_steel/mapsheet.py) and
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
LEVEL_INK = "#40362d"  # was #6b5f52: 1.4:1 on brown level-3 hexes, lost in print
BUILDING_GONE = "#5a5046"  # a printed building that the urbanization makes clear terrain (dashed)
WADI = "#2f5a7a"
LABEL_INK = "#1a1a1a"

# Every text and symbol on the printed map sits on a light plate (a halo round a symbol): its
# contrast no longer depends on the hex, the road or the line under it. WCAG 2's 4.5:1 holds
# for every ink below on the plate over every colour of this table (tests/test_exports_print3).
PLATE = "#ffffff"
PLATE_ALPHA = 0.85
MAP_INKS = {"id": ID_INK, "level": LEVEL_INK, "label": LABEL_INK, "building": BUILDING,
            "building_gone": BUILDING_GONE, "wadi": WADI}
MIN_CONTRAST = 4.5

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


def background_colours() -> dict[str, str]:
    """Every colour the map can put under a text or symbol: hex fills, lines, edges."""
    out = {f"terrain {k}": v for k, v in TERRAIN_COLOURS.items()}
    out.update({f"level {i}": v for i, v in enumerate(LEVEL_COLOURS)})
    out.update({"unknown terrain": UNKNOWN_TERRAIN, "half hex": HALF_HEX, "road": ROAD, "track": TRACK,
                "clear road": CLEAR_ROAD, "hex line": HEX_LINE, "map edge": MAP_EDGE, "building": BUILDING})
    return out


def _rgb(colour: str) -> tuple[float, float, float]:
    h = colour.lstrip("#")
    return tuple(int(h[i:i + 2], 16) / 255 for i in (0, 2, 4))


def relative_luminance(colour: str) -> float:
    """WCAG 2's relative luminance of an sRGB colour "#rrggbb"."""
    def lin(c: float) -> float:
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = (lin(c) for c in _rgb(colour))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: str, b: str) -> float:
    """WCAG 2's contrast ratio of two colours (1 to 21)."""
    la, lb = sorted((relative_luminance(a), relative_luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def composite(top: str, under: str, alpha: float) -> str:
    """The colour seen where ``top`` at ``alpha`` covers ``under``."""
    t, u = _rgb(top), _rgb(under)
    return "#" + "".join(f"{round((alpha * x + (1 - alpha) * y) * 255):02x}" for x, y in zip(t, u))


def plate_over(colour: str) -> str:
    """What a text's plate looks like over a map colour."""
    return composite(PLATE, colour, PLATE_ALPHA)
