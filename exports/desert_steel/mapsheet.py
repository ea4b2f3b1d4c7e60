"""Map sheets: a map configuration at true scale, tiled over A4 or Letter pages.

The printed maps are 56 x 43 cm (§2: each hex 150 m across); the board keeps their
hexes regular, 30 hex heights down a sheet's 56 cm (NOTES: maps). Drawn from the map
data: colour bands (a two-colour hex shows its minor colour as a rim), building
symbols, roads and tracks, printed symbols and labels, hex ids, the map letter in the
upper left quarter (§18.3), half hexes greyed. For a scenario the battle conditions
apply: each hex shows its elevation level, buildings are drawn as buildings only under
an inhabited urbanization, red and brown lines as the road network makes them (road,
track or plain ground), and the north arrow is the scenario's.

Tiles overlap (10 mm by default). A tile that is not in the first column or row has a
cut line along its left or top printed edge; crosses centred on that edge appear whole
on the neighbouring tile, so the half crosses of the trimmed tile lie exactly over them.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from reportlab.lib.colors import Color, HexColor, black, white

from sandtable.rules import board_style
from sandtable.rules.board import Board
from sandtable.rules.desert_steel.battlefield import Battlefield
from sandtable.rules.desert_steel.model import DesertSteel, MapConfiguration, Scenario

from . import symbols
from ..hexdraw import SQRT3, BoardGeometry, HALF_HEX
from ..page import (FOOT_DESCENT, GREY, HEAD_ASCENT, INK, MM, PAGE_SIZES, TERRAIN_COLOUR, Doc, PrinterProfile,
                   registration_mark, scale_bar, text, width)

ROAD = HexColor(board_style.ROAD)  # the style table the screen board uses too
TRACK = HexColor(board_style.TRACK)
_CLEAR_LINE = HexColor(board_style.CLEAR_ROAD)
MARGIN = 10 * MM
MARK_STEP = 60 * MM
_ID_INK = HexColor(board_style.ID_INK)
_LEVEL_INK = HexColor(board_style.LEVEL_INK)
_LABEL_INK = HexColor(board_style.LABEL_INK)
# the light plate under every text and round every symbol (rules/board_style.py: contrast)
_PLATE = Color(*HexColor(board_style.PLATE).rgb(), alpha=board_style.PLATE_ALPHA)


def _halo(c, path, line_width: float) -> None:
    """The plate round a symbol: the path stroked wide in the plate colour, under the symbol."""
    c.saveState()
    c.setStrokeColor(_PLATE)
    c.setLineWidth(line_width)
    c.setLineJoin(1)
    c.setLineCap(1)
    c.setDash()
    c.drawPath(path, stroke=1, fill=0)
    c.restoreState()


@dataclass(frozen=True)
class Tiling:
    landscape: bool
    cols: int
    rows: int
    step_x: float
    step_y: float
    area_w: float
    area_h: float

    @property
    def pages(self) -> int:
        return self.cols * self.rows


def map_margin(safe: float) -> float:
    """The tile's side margin: 10 mm, or more when the printer's safe margin needs it (the head
    lines take the 5 mm inside it)."""
    return max(MARGIN, safe + 5 * MM)


def tiling(board_w: float, board_h: float, page: str, overlap: float, margin: float = MARGIN) -> Tiling:
    """Fewest pages: portrait or landscape, each tile the printable area, tiles overlapping by at
    least ``overlap``. The tiles are spread evenly over the board (the overlap grows to suit), so
    the last row and column are as full as the others: never a strip of a few hexes."""
    best = None
    pw, ph = PAGE_SIZES[page]
    for landscape in (False, True):
        w, h = (ph, pw) if landscape else (pw, ph)
        aw, ah = w - 2 * margin, h - 2 * margin - 6 * MM  # head (two lines) and foot lines
        sx, sy = aw - overlap, ah - overlap
        cols = max(1, math.ceil((board_w - overlap) / sx - 1e-9))
        rows = max(1, math.ceil((board_h - overlap) / sy - 1e-9))
        if cols > 1:
            sx = (board_w - aw) / (cols - 1)
        if rows > 1:
            sy = (board_h - ah) / (rows - 1)
        t = Tiling(landscape, cols, rows, sx, sy, aw, ah)
        if best is None or t.pages < best.pages:
            best = t
    return best


def true_scale_k(board: Board, configuration: MapConfiguration) -> float:
    """Points per board x unit so that a map sheet is its printed height (56 cm)."""
    first = configuration.maps[0]
    size = first.raw.get("size_cm", {"height": 56})
    edges = board.page_edges[first.id]
    hex_heights = (edges["bottom"] - edges["top"]) / 2
    hex_h = size["height"] * 10 * MM / hex_heights
    radius = hex_h / SQRT3
    return radius / 4


def hex_flats(model: DesertSteel, configuration: MapConfiguration) -> float:
    """A true-scale hex across its flats, in points (18.67 mm for the 56 cm maps)."""
    board, _ = map_geometry(model, configuration)
    return true_scale_k(board, configuration) * 4 * SQRT3


def _house(c, cx: float, cy: float, r: float, real: bool) -> None:
    w, h = r * 0.7, r * 0.45
    p = c.beginPath()
    p.moveTo(cx - w / 2, cy - h / 2)
    p.lineTo(cx + w / 2, cy - h / 2)
    p.lineTo(cx + w / 2, cy + h / 2)
    p.lineTo(cx, cy + h / 2 + r * 0.3)
    p.lineTo(cx - w / 2, cy + h / 2)
    p.close()
    _halo(c, p, r * 0.16)
    if real:
        c.setFillColor(HexColor(board_style.BUILDING))
        c.drawPath(p, stroke=0, fill=1)
    else:
        c.setStrokeColor(HexColor(board_style.BUILDING_GONE))
        c.setLineWidth(0.6)
        c.setDash(1.5, 1.2)
        c.drawPath(p, stroke=1, fill=0)
        c.setDash()


def _wadi(c, cx: float, cy: float, r: float) -> None:
    paths = []
    for dy in (-r * 0.12, r * 0.12):
        p = c.beginPath()
        p.moveTo(cx - r * 0.45, cy + dy)
        for i in range(1, 7):
            x = cx - r * 0.45 + i * r * 0.15
            p.lineTo(x, cy + dy + (r * 0.07 if i % 2 else -r * 0.07))
        paths.append(p)
    for p in paths:
        _halo(c, p, 0.7 + r * 0.12)
    c.setStrokeColor(HexColor(board_style.WADI))
    c.setLineWidth(0.7)
    for p in paths:
        c.drawPath(p, stroke=1, fill=0)


def draw_board_region(doc: Doc, geo: BoardGeometry, configuration: MapConfiguration, field: Battlefield | None,
                      region: tuple[float, float, float, float], network: dict | None = None) -> int:
    """Draw the hexes whose centres fall in region (page x0, y0, x1, y1, grown by a hex). Returns the count."""
    c = doc.c
    board = geo.board
    maps = {m.id: m for m in configuration.maps}
    r = geo.radius
    x0, y0, x1, y1 = region
    # the hexes whose centres fall in the region, found in board units (one transform, not one a hex)
    b = geo.bounds
    ux0, ux1 = b["left"] + (x0 - r - geo.x0) / geo.k, b["left"] + (x1 + r - geo.x0) / geo.k
    uy0, uy1 = b["top"] + (geo.top - y1 - r) / geo.ky, b["top"] + (geo.top - y0 + r) / geo.ky
    keys = [key for key in board.cells
            if ux0 <= board.page_xy(key)[0] <= ux1 and uy0 <= board.page_xy(key)[1] <= uy1]
    outline = HexColor(board_style.HEX_LINE)
    halves, rims, plain = [], {}, {}
    for key in keys:
        cell = board.cells[key]
        if cell.half:
            halves.append(key)
            continue
        m = maps[cell.map_id]
        printed = m.hexes.get(cell.hex_id, {})
        colour = printed.get("colour", m.default_colour)
        minor = printed.get("minor_colour")
        if minor:
            rims.setdefault((minor, colour), []).append(key)
        plain.setdefault(minor or colour, []).append(key)
    geo.fill_hexes(c, halves, HALF_HEX, outline, 0.5)
    for colour in sorted(plain):
        geo.fill_hexes(c, plain[colour], TERRAIN_COLOUR.get(colour, white), outline, 0.5)
    for minor, colour in sorted(rims):  # a two-colour hex: its colour inside a rim of the minor one
        geo.fill_hexes(c, rims[(minor, colour)], TERRAIN_COLOUR.get(colour, white), None, shrink=0.74)
    # roads and tracks: red and brown lines are what the road network makes them (§3.5)
    for map_id in board.maps():
        for road in maps[map_id].roads:
            kind = network.get(road["type"], road["type"]) if network else road["type"]
            pts = [geo.centre(f"{map_id}{h}") for h in road["hexes"] if f"{map_id}{h}" in board.cells]
            if len(pts) < 2:
                continue
            if kind == "road":
                c.setStrokeColor(ROAD)
                c.setLineWidth(r * 0.22)
                c.setDash()
            elif kind == "track":
                c.setStrokeColor(TRACK)
                c.setLineWidth(r * 0.14)
                c.setDash(r * 0.35, r * 0.2)
            else:
                c.setStrokeColor(_CLEAR_LINE)
                c.setLineWidth(r * 0.06)
                c.setDash(r * 0.08, r * 0.16)
            c.setLineCap(1)
            c.setLineJoin(1)
            p = c.beginPath()
            p.moveTo(*pts[0])
            for pt in pts[1:]:
                p.lineTo(*pt)
            c.drawPath(p, stroke=1, fill=0)
            c.setDash()
            c.setLineCap(0)
            c.setLineJoin(0)
    # symbols, ids, levels: after the roads, each id on a light plate so a road never hides a digit;
    # the map letter prefixed when the board joins maps that share hex ids
    shared = len(board.maps()) > 1
    id_size = r * 0.2
    plate = _PLATE
    ids, labels = [], []
    for key in keys:
        cell = board.cells[key]
        if cell.half:
            continue
        m = maps[cell.map_id]
        printed = m.hexes.get(cell.hex_id, {})
        cx, cy = geo.centre(key)
        if printed.get("building"):
            real = field.terrain.hexes[key].building if field is not None else True
            _house(c, cx, cy, r, real)
        if "wadi" in printed.get("symbols", ()):
            _wadi(c, cx, cy - r * 0.35, r)
        if printed.get("label"):
            labels.append((cx, cy - r * 0.62, printed["label"], width(printed["label"], "Cond-Bold", r * 0.2)))
        label = f"{cell.map_id}{cell.hex_id}" if shared else cell.hex_id
        ids.append((cx, cy, label, width(label, "Cond", id_size)))
    # the plates in one path, then the ids, then the levels: one colour change each, not one a hex
    levels = []
    if field is not None:
        for key in keys:
            if not board.cells[key].half:
                cx, cy = geo.centre(key)
                digit = str(field.terrain.hexes[key].level)
                levels.append((cx + r * 0.55, cy - r * 0.1, digit, width(digit, "Sans-Bold", r * 0.2)))
    plates = c.beginPath()
    for cx, cy, label, lw in ids:
        plates.rect(cx - lw / 2 - 0.6, cy + r * 0.6 - id_size * 0.22, lw + 1.2, id_size * 0.98)
    for x, y, s, lw in levels + labels:
        plates.rect(x - lw / 2 - 0.5, y - id_size * 0.22, lw + 1.0, id_size * 1.0)
    c.setFillColor(plate)
    c.drawPath(plates, stroke=0, fill=1)
    for cx, cy, label, _ in ids:
        text(c, cx, cy + r * 0.6, label, "Cond", id_size, _ID_INK, align="center")
    for x, y, s, _ in labels:
        text(c, x, y, s, "Cond-Bold", r * 0.2, _LABEL_INK, align="center")
    for x, y, s, _ in levels:
        text(c, x, y, s, "Sans-Bold", r * 0.2, _LEVEL_INK, align="center")
    # map letters (§18.3: upper left quarter) and outlines
    for map_id in board.maps():
        e = board.page_edges[map_id]
        mx0, my0 = geo.units_to_page(e["left"], e["bottom"])
        mx1, my1 = geo.units_to_page(e["right"], e["top"])
        c.setStrokeColor(INK)
        c.setLineWidth(1)
        c.rect(mx0, my0, mx1 - mx0, my1 - my0, stroke=1, fill=0)
        # the map letter (§18.3) in a tag at the map's upper left corner, over the unplayable half
        # hexes of the edge, never over a playable hex
        size = r * 0.45
        tag_w, tag_h = width(map_id, "Sans-Bold", size) + r * 0.3, size * 1.2
        c.setFillColor(INK)
        c.rect(mx0, my1 - tag_h, tag_w, tag_h, stroke=0, fill=1)
        text(c, mx0 + tag_w / 2, my1 - tag_h + size * 0.25, map_id, "Sans-Bold", size, white, align="center")
    return len(keys)


def map_geometry(model: DesertSteel, configuration: MapConfiguration) -> tuple[Board, BoardGeometry]:
    board = Board.from_sheets([[dict(m.raw) for m in row] for row in configuration.layout], configuration.north)
    k = true_scale_k(board, configuration)
    return board, BoardGeometry(board, k, 0, 0)


def _north_arrow(c, x: float, y: float, north: str, size: float = 9) -> None:
    """An arrow pointing north with an upright "N" at its tip: turned, the arrow alone (a shaft
    and a head) could read as a letter; the N never turns."""
    angle = {"up": 0, "right": -90, "down": 180, "left": 90}[north]
    c.saveState()
    c.translate(x, y)
    c.rotate(angle)
    symbols.arrow(c, 0, -size * 0.8, size * 0.8, size * 0.22, size * 0.75, size * 0.55, INK)
    c.restoreState()
    dx, dy = math.cos(math.radians(angle + 90)) * size * 1.35, math.sin(math.radians(angle + 90)) * size * 1.35
    n = max(size, 5.5)  # the letter stays legible on a small arrow
    text(c, x + dx, y + dy - n * 0.35, "N", "Sans-Bold", n, INK, align="center")


def draw_map(doc: Doc, model: DesertSteel, configuration: MapConfiguration, scenario: Scenario | None = None,
             overlap_mm: float = 10, bookmark: str | None = None, page: str | None = None) -> Tiling:
    """The map tiles, on the document's paper or on ``page`` (A3, Tabloid: fewer seams)."""
    board, geo0 = map_geometry(model, configuration)
    field = Battlefield.for_scenario(model, scenario) if scenario is not None else None
    network = _road_network(model, scenario) if scenario is not None else None
    overlap = overlap_mm * MM
    bw, bh = geo0.width, geo0.height
    page = page or doc.page
    margin = map_margin(doc.profile.safe)
    t = tiling(bw, bh, page, overlap, margin)
    what = (f"{scenario.number} {scenario.name} \u2014 " if scenario else "") + f"configuration {configuration.id}"
    hex_mm = geo0.radius * SQRT3 / MM
    first = True
    for row in range(t.rows):
        for col in range(t.cols):
            doc.begin(t.landscape, PAGE_SIZES[page])
            if first and bookmark:
                doc.bookmark(bookmark)
                first = False
            c = doc.c
            W, H = doc.w, doc.h
            ax0, atop = margin, H - margin - 4 * MM
            geo = BoardGeometry(board, geo0.k, ax0 - col * t.step_x, atop + row * t.step_y)
            region = (ax0, atop - t.area_h, ax0 + t.area_w, atop)
            c.saveState()
            p = c.beginPath()
            p.rect(ax0, atop - t.area_h, t.area_w, t.area_h)
            c.clipPath(p, stroke=0, fill=0)
            geo_clip = c.beginPath()
            for m in board.maps():
                e = board.page_edges[m]
                mx0, my0 = geo.units_to_page(e["left"], e["bottom"])
                mx1, my1 = geo.units_to_page(e["right"], e["top"])
                geo_clip.rect(mx0, my0, mx1 - mx0, my1 - my0)
            c.clipPath(geo_clip, stroke=0, fill=0)
            draw_board_region(doc, geo, configuration, field, region, network)
            c.restoreState()
            # alignment crosses on the seams, whole on this tile or halved at its trimmed edges
            c.saveState()
            p = c.beginPath()
            p.rect(ax0, atop - t.area_h, t.area_w, t.area_h)
            c.clipPath(p, stroke=0, fill=0)
            for seam in range(1, t.cols):
                sx = geo.x0 + seam * t.step_x
                for by in _marks_along(bh):
                    registration_mark(c, sx, geo.top - by, 3 * MM)
            for seam in range(1, t.rows):
                sy = geo.top - seam * t.step_y
                for bx in _marks_along(bw):
                    registration_mark(c, geo.x0 + bx, sy, 3 * MM)
            c.restoreState()
            # cut lines on the edges this tile loses when laid over its neighbours
            c.setStrokeColor(black)
            c.setLineWidth(0.5)
            c.setDash(3, 2)
            if col > 0:
                c.line(ax0, atop, ax0, atop - t.area_h)
                text(c, ax0 - 1.5 * MM, atop - t.area_h / 2, "\u2702", "Sans", 9, INK, align="right")
            if row > 0:
                c.line(ax0, atop, ax0 + t.area_w, atop)
            c.setDash()
            # head, foot, index of tiles
            n = row * t.cols + col + 1
            note = doc.t("Print at actual size (100 %), not \u201cfit to page\u201d")
            on_tile = tile_maps(board, geo, region)
            short = f"{scenario.number} {scenario.name}" if scenario else configuration.id
            maps_label = doc.t("maps {ids}" if len(on_tile) > 1 else "map {ids}",
                               ids=(" et " if doc.lang == "fr" else " and ").join(on_tile))
            title, size = doc.fit(doc.t("Map \u2014 {name} \u2014 tile {n} of {total} (row {row}, column {col}) \u2014 "
                                        "{maps}", name=short, n=n, total=t.pages, row=row + 1, col=col + 1,
                                        maps=maps_label), "Sans-Bold", 7,
                                  W - 2 * margin - width(note, "Sans", 6.5) - 4 * MM, f"map {configuration.id}",
                                  "sheet", "title")
            safe = doc.profile.safe
            head = H - safe - HEAD_ASCENT  # the head line just inside the printer's safe margin
            text(c, margin, head, title, "Sans-Bold", size)
            text(c, W - margin, head, note, "Sans", 6.5, GREY, align="right")
            # the north sign in its own box at the right of the two lines below, the lines kept clear of it
            row2, row3 = head - 2.7 * MM, head - 5.3 * MM
            arrow = 1.6 * MM
            box = 2 * 1.35 * arrow + 1.2 * MM  # arrow and its N, whichever way north points
            nx, ny = W - margin - box / 2, (row2 + row3) / 2 + 1.0 * MM
            _north_arrow(c, nx, ny, configuration.north, arrow)
            north_word = doc.t("north")
            text(c, nx - box / 2 - 1 * MM, ny - 0.8 * MM, north_word, "Sans", 6.5, INK, align="right")
            room = W - 2 * margin - box - width(north_word, "Sans", 6.5) - 4 * MM
            legend = doc.t(("Ids: map letter, column, row. " if len(board.maps()) > 1 else "Ids: column, row. ")
                           + ("Bold digit right of the centre: elevation level (\u00a73.4) with this relief. "
                              if field is not None else "")
                           + "Red lines: {road}; brown dashes: {track} with this road network (\u00a73.5).",
                           road=doc.t((network or {}).get("road") or "road"),
                           track=doc.t((network or {}).get("track") or "track"))
            edges = (["left"] if col > 0 else []) + (["top"] if row > 0 else [])
            tip = _tip(doc, edges)
            for line, y in ((doc.t("{id}. True scale: a hex is 150 m, {mm} mm high. ", id=configuration.id,
                                   mm=f"{hex_mm:.1f}") + tip, row2), (legend, row3)):
                line, fs = doc.fit(line, "Cond", 6.2, room, f"map {configuration.id}", "sheet", "map legend")
                text(c, margin, y, line, "Cond", fs, GREY)
            foot = safe + FOOT_DESCENT
            scale_bar(c, margin, foot, 100, lang=doc.lang)
            # the tile index in the foot strip, between the safe margin and the map (never over a hex)
            _index(c, W - margin, safe + 0.4 * MM, (atop - t.area_h) - safe - 1.2 * MM, t, row, col)
            doc.end()
    return t


def tile_maps(board: Board, geo: BoardGeometry, region: tuple[float, float, float, float]) -> list[str]:
    """The maps a tile shows (their printed area meets the tile's)."""
    x0, y0, x1, y1 = region
    out = []
    for m in board.maps():
        e = board.page_edges[m]
        mx0, my0 = geo.units_to_page(e["left"], e["bottom"])
        mx1, my1 = geo.units_to_page(e["right"], e["top"])
        if min(mx1, x1) - max(mx0, x0) > 1 and min(my1, y1) - max(my0, y0) > 1:
            out.append(m)
    return out


def _marks_along(length: float) -> list[float]:
    n = max(1, int(length // MARK_STEP))
    step = length / (n + 1)
    return [step * (i + 1) for i in range(n)] if n > 0 else [length / 2]


def _tip(doc: Doc, edges: list[str]) -> str:
    if not edges:
        return doc.t("First tile: keep its margins.")
    if edges == ["left"]:
        return doc.t("Cut the dashed left edge; lay it over its neighbours, half crosses on whole ones.")
    if edges == ["top"]:
        return doc.t("Cut the dashed top edge; lay it over its neighbours, half crosses on whole ones.")
    return doc.t("Cut the dashed left and top edges; lay it over its neighbours, half crosses on whole ones.")


def _index(c, right: float, bottom: float, room: float, t: Tiling, row: int, col: int) -> None:
    """Where this tile goes: a grid of the tiles, this one filled, ``room`` high at most."""
    cell = min(2.2 * MM, 12 * MM / max(t.cols, t.rows), room / t.rows)
    x0 = right - t.cols * cell
    for r in range(t.rows):
        for k in range(t.cols):
            c.setFillColor(INK if (r, k) == (row, col) else white)
            c.setStrokeColor(GREY)
            c.setLineWidth(0.3)
            c.rect(x0 + k * cell, bottom + (t.rows - 1 - r) * cell, cell, cell, stroke=1, fill=1)


# --- road network under the scenario's conditions ---------------------------------------

def _road_network(model: DesertSteel, scenario: Scenario) -> dict:
    """What red (road) and brown (track) lines are under the scenario's road network (§3.5)."""
    effects = model.terrain_effects or {}
    value = scenario.conditions["road_network"]["value"]
    return dict((effects.get("road_network") or {}).get("values", {}).get(value, {}))


def map_pdf(model: DesertSteel, configuration: MapConfiguration, scenario: Scenario | None = None, *,
            page: str = "a4", overlap_mm: float = 10, profile=None, lang: str = "en") -> tuple[bytes, list, Tiling]:
    what = f"{scenario.number} {scenario.name}" if scenario else configuration.id
    doc = Doc(f"Desert Steel map sheets \u2014 {what}", "Map at true scale, tiled", page, profile or PrinterProfile(),
              lang)
    t = draw_map(doc, model, configuration, scenario, overlap_mm, bookmark=f"Map: {what}")
    return doc.save(), doc.findings, t
