"""What a Desert Steel pack puts in a VASSAL module.

Boards are the print maps (``exports/mapsheet.draw_board_region``: the same style table as the print
map and the editor), one per map sheet, each with a hex grid whose location names are the rulebook's
hex ids (``A2711``). Counters, markers and cards are drawn by the print code (``exports/counters``,
``markers``, ``cards``, ``raids``) and rasterised. Each scenario is a predefined setup: the pack's
sample setup (or the automatic one), each side's cards in its card box, units that enter later in an
off-board box by side and turn.
"""
from __future__ import annotations

import html
import math
from collections import Counter
from dataclasses import dataclass, field

from reportlab.lib.colors import HexColor, white

from sandtable.exports.desert_steel import cards as cards_mod
from sandtable.exports.desert_steel import counters as counters_mod
from sandtable.exports.desert_steel import markers as markers_mod
from sandtable.exports.desert_steel import raids as raids_mod
from sandtable.exports.desert_steel.counters import CounterSpec
from sandtable.exports.page import COUNTER_SIZES, INK, NATIONALITY_COLOUR, POKER, lang_text, text
from sandtable.rules.board import Board as RulesBoard
from sandtable.rules.desert_steel.model import CombatCard, DesertSteel, MapConfiguration, MapSheet, Scenario

from ..vassal import encode, raster
from ..vassal.module import Board, Deck, Die, HexNumbering, Map, Module, Palette, PieceDef, Placed, Region, SavedSetup

K = 12  # pixels per board x unit (a quarter of a hex's radius): columns 72 px apart
SQRT3 = math.sqrt(3)
KY = 42  # pixels per board y unit (half a hex height): hexes 84 px high, 1 % more than regular ones
SIDES = {"allied": "Allies", "axis": "Axis"}  # VASSAL's player sides
OWNER = {"allied": "Allied", "axis": "Axis"}  # in the names of each side's boxes
SOLO = "Solitaire"  # a designer playtesting alone moves both sides' pieces (hidden ones stay hidden)
BATTLEFIELD, OFFBOARD = "Battlefield", "Off-board"
OFF_BOARD = "Boxes"
PHASES = ["Reinforcement Phase", "Operations Phase", "Morale Phase"]  # §4
CARD_SCALE = 1.15  # card pixels per point
BOX = 190  # off-board box side, pixels
MINEFIELD = markers_mod.MarkerKind("minefield", ("MINEFIELD",), HexColor("#c8b89a"), HexColor("#a61b1b"), "15.1")


class ExportError(ValueError):
    """A scenario or setup the module cannot hold (the message names it)."""


@dataclass
class _Images:
    """Faces to rasterise, collected first and rendered in a few pdftoppm runs."""

    faces: list[raster.Face] = field(default_factory=list)
    names: dict[int, str] = field(default_factory=dict)

    def add(self, face: raster.Face) -> int:
        self.faces.append(face)
        return len(self.faces) - 1


@dataclass
class _PieceKind:
    """A piece the module defines: its name, its own traits (after the prototype), its images."""

    name: str
    prototype: str | None
    props: dict[str, str]
    faces: list[int]  # image indices, front first
    side: str | None = None
    card: bool = False  # a card: its back is a mask (face down in a deck, or turned by its side)
    turns: int = 0  # its own rotation steps (the north marker turns by quarters)


def _counter_px(model: DesertSteel) -> int:
    """A 5/8" counter in pixels, at the boards' scale (true scale: 18.67 mm hexes)."""
    from sandtable.exports.desert_steel.mapsheet import hex_flats
    conf = next(iter(model.configurations.values()))
    return round(COUNTER_SIZES["5/8"] / hex_flats(model, conf) * 2 * KY)


# --- boards -------------------------------------------------------------------------------------

@dataclass
class _SheetBoard:
    board: Board
    face: int
    rules: RulesBoard


def _sheet_board(sheet: MapSheet, images: _Images) -> _SheetBoard:
    """A map sheet as a board: its image drawn as the print map, 1 % taller than a regular hex grid so
    that every hex centre falls on a whole pixel, where VASSAL's integer grid arithmetic puts it
    (a regular grid's odd columns would sit up to 1.6 px off the drawing)."""
    from sandtable.exports.hexdraw import BoardGeometry
    from sandtable.exports.desert_steel.mapsheet import draw_board_region
    rules = RulesBoard.from_sheets([[dict(sheet.raw)]], "up")
    e = rules.page_edges["*"]
    w, h = (e["right"] - e["left"]) * K, (e["bottom"] - e["top"]) * KY
    c0, r0 = sheet.columns[0], sheet.rows[0]
    shifted = (c0 % 2 == 1) == (sheet.shifted_columns == "odd")
    oc = c0 + 1 if shifted else c0  # VASSAL lowers the odd columns counted from its origin
    gx, gy = rules.page_xy(f"{sheet.id}{oc:02d}{r0:02d}")
    grid = HexNumbering(6 * K, 2 * KY, (gx - e["left"]) * K, (gy - e["top"]) * KY, oc, r0, sheet.id)
    conf = MapConfiguration(f"{sheet.id}-alone", ((sheet,),), "up")
    regular = 2 * SQRT3 * K  # a regular grid's half hex height

    def draw(doc, x, y):
        top = (e["bottom"] - e["top"]) * regular
        doc.c.saveState()
        doc.c.scale(1, KY / regular)
        draw_board_region(doc, BoardGeometry(rules, K, 0, top), conf, None, (0, 0, w, top))
        doc.c.restoreState()

    face = images.add(raster.Face((w, h), (w, h), draw, white))
    return _SheetBoard(Board(sheet.id, "", w, h, grid), face, rules)


def _boxes_board(images: _Images, turns: int) -> tuple[Board, int]:
    """The off-board board: each side's card box and raid deck, and a box per side and turn of arrival."""
    regions: list[Region] = []
    boxes: list[tuple[str, int, int, int, int]] = []  # label, x, y, w, h (pixels, y down)
    card_w, card_h = round(POKER[0] * CARD_SCALE), round(POKER[1] * CARD_SCALE)
    per_row = 10
    x = 10
    for label in ("Allied cards", "Axis cards", "Raid cards"):
        boxes.append((label, x, 30, card_w + 40, card_h + 40))
        x += card_w + 60
    y = card_h + 110
    for side in ("allied", "axis"):
        for t in range(1, turns + 1):
            col, row = (t - 1) % per_row, (t - 1) // per_row
            boxes.append((f"{OWNER[side]} turn {t}", 10 + col * (BOX + 10), y + 30 + row * (BOX + 40), BOX, BOX))
        y += ((turns - 1) // per_row + 1) * (BOX + 40) + 20
    w = max(x, 10 + per_row * (BOX + 10))
    h = y + 10
    for label, bx, by, bw, bh in boxes:
        regions.append(Region(label, bx + bw // 2, by + bh // 2))

    def draw(doc, _x, _y):
        c = doc.c
        c.setStrokeColor(INK)
        c.setLineWidth(1.5)
        for label, bx, by, bw, bh in boxes:
            c.rect(bx, h - by - bh, bw, bh, stroke=1, fill=0)
            text(c, bx + 4, h - by + 6, label, "Sans-Bold", 14, INK)

    face = images.add(raster.Face((w, h), (w, h), draw, HexColor("#efe9dc")))  # a point a pixel
    return Board(OFF_BOARD, "", w, h, None, regions), face


# --- pieces -------------------------------------------------------------------------------------

def _unit_name(spec: CounterSpec) -> str:
    return f"{spec.unit.name} ({spec.designation})" if spec.designation else spec.unit.name


class _Pieces:
    """Every piece kind of the module, made once; its images collected for rasterising."""

    def __init__(self, model: DesertSteel, catalog, images: _Images):
        self.model, self.catalog, self.images = model, catalog, images
        self.counter_px = _counter_px(model)
        self.size = COUNTER_SIZES["5/8"]
        self.units: dict[tuple[str, str, int | None], _PieceKind] = {}
        self.markers: dict[str, _PieceKind] = {}
        self.cards: dict[tuple[int, int | None], _PieceKind] = {}
        self.raids: dict[str, _PieceKind] = {}
        self._raws = raids_mod.raid_raws(catalog)
        self._keyed: dict[tuple, int] = {}

    def _face(self, draw, colour, size=None, pixels=None, border=INK, key=None) -> int:
        """An image to make; ``key`` names what it depends on, so equal faces are drawn once."""
        if key is not None and key in self._keyed:
            return self._keyed[key]
        s = size or (self.size, self.size)
        index = self.images.add(raster.Face(s, pixels or (self.counter_px, self.counter_px), draw, colour, border))
        if key is not None:
            self._keyed[key] = index
        return index

    def unit(self, spec: CounterSpec) -> _PieceKind:
        k = (spec.unit.id, spec.designation, spec.card)
        if k not in self.units:
            colour = NATIONALITY_COLOUR.get(spec.unit.nationality, white)
            s = self.size
            # the front shows the unit type and formation; the back the formation and the nationality
            front = self._face(lambda d, x, y, sp=spec: counters_mod.draw_front(d, x, y, s, sp), colour,
                               key=("front", spec.unit.id, spec.designation))
            back = self._face(lambda d, x, y, sp=spec: counters_mod.draw_back(d, x, y, s, sp), colour,
                              key=("back", spec.unit.nationality, spec.designation))
            side = SIDES[spec.unit.side]
            props = {"Side": side, "Nationality": spec.unit.nationality, "UnitType": spec.unit.id,
                     "Formation": spec.designation, "Card": "" if spec.card is None else str(spec.card)}
            self.units[k] = _PieceKind(_unit_name(spec), f"{side} unit", props, [front, back], side)
        return self.units[k]

    def marker(self, kind_id: str) -> _PieceKind:
        if kind_id not in self.markers:
            kind = MINEFIELD if kind_id == "minefield" else markers_mod.KINDS[kind_id]
            s = self.size
            front_lines = markers_mod.face(kind, self.model)
            draw_front = (lambda d, x, y, k=kind: markers_mod._draw_label(d, k, front_lines, x, y, s))
            faces = [self._face(draw_front, kind.colour)]
            if kind.back_lines:
                faces.append(self._face(lambda d, x, y, k=kind: markers_mod._draw_label(d, k, k.back_lines, x, y, s),
                                        kind.colour))
            name = " ".join(kind.lines).title()
            self.markers[kind_id] = _PieceKind(name, None, {"Marker": kind_id}, faces,
                                               turns=4 if kind_id == "north" else 0)
        return self.markers[kind_id]

    def card(self, face: cards_mod.CardFace) -> _PieceKind:
        card = face.card
        k = (card.number, face.year)
        if k not in self.cards:
            w, h = POKER
            px = (round(w * CARD_SCALE), round(h * CARD_SCALE))
            front_fn = cards_mod.draw_combat if isinstance(card, CombatCard) else cards_mod.draw_command
            front = self._face(lambda d, x, y, f=face, fn=front_fn: fn(d, f, x, y), white, POKER, px)
            back = self._face(lambda d, x, y, f=face: cards_mod.draw_card_back(d, f, x, y, "side"),
                              cards_mod.SIDE_BACK.get(card.side, white), POKER, px)
            side = SIDES[card.side]
            year = f" {face.year}" if face.year else ""
            name = f"Card {card.number} {card.designation}{year}"
            self.cards[k] = _PieceKind(name, f"{side} card", {"Side": side, "Card": str(card.number)},
                                       [front, back], side, card=True)
        return self.cards[k]

    def raid(self, card) -> _PieceKind:
        if card.id not in self.raids:
            w, h = POKER
            px = (round(w * CARD_SCALE), round(h * CARD_SCALE))
            front = self._face(lambda d, x, y, rc=card: raids_mod.draw_raid(d, rc, self._raws.get(rc.id), x, y),
                               white, POKER, px)
            back = self._face(lambda d, x, y, rc=card: raids_mod.draw_raid_back(d, rc, x, y), raids_mod._BACK,
                              POKER, px)
            self.raids[card.id] = _PieceKind(f"Raid card {card.id}", None, {"Raid": card.id}, [front, back],
                                             card=True)
        return self.raids[card.id]


def _prototypes() -> dict[str, list[encode.Trait]]:
    out = {}
    for side in SIDES.values():
        out[f"{side} unit"] = [encode.restricted([side, SOLO]), encode.hideable("Hide from the other side", "H"),
                               encode.rotator(6, "Facing")]
        out[f"{side} card"] = [encode.restricted([side, SOLO])]
    return out


def _traits(kind: _PieceKind, names: dict[int, str], *, expand: dict | None = None, facing: int = 0,
            hidden_by: str | None = None, level: int = 1) -> list[encode.Trait]:
    """A piece's traits: with its prototype by name (a palette's definition) or expanded with states
    (a saved game's piece, ``expand`` the prototypes)."""
    out: list[encode.Trait] = []
    if kind.prototype:
        if expand is None:
            out.append(encode.use_prototype(kind.prototype))
        else:
            for t in expand[kind.prototype]:
                if t.type.startswith("hide;"):
                    t = encode.Trait(t.type, hidden_by or "null")
                elif t.type.startswith("rotate;"):
                    t = encode.Trait(t.type, str(facing))
                out.append(t)
    elif hidden_by is not None:  # a secret piece of its own: a minefield
        out += [encode.restricted([hidden_by, SOLO]), encode.hideable("Hide from the other side", "H", hidden_by)]
    images = [names[i] for i in kind.faces]
    if kind.card:
        out.append(encode.obscurable(images[1], "side:" if kind.side else "player:"))
        out.append(encode.marker(kind.props))
        out.append(encode.basic_piece(kind.name, images[0]))
        return out
    if kind.turns:
        out.append(encode.rotator(kind.turns, "Direction", facing))
    out.append(encode.marker(kind.props))
    if len(images) > 1:
        out.append(encode.layers(images, ["", ""], "Flip", "F", "Face", level))
        out.append(encode.basic_piece(kind.name))
    else:
        out.append(encode.basic_piece(kind.name, images[0]))
    return out


# --- setups -------------------------------------------------------------------------------------

@dataclass
class ScenarioSetup:
    """A scenario and the setup to export for it (with where it came from, for the notes)."""

    scenario: Scenario
    setup: dict
    origin: str  # "sample", "automatic" or a file name


def _hex(board: RulesBoard, sheets: dict[str, MapSheet], ref: str, what: str) -> tuple[str, int, int]:
    """Map, column and row of a hex reference; ids are column then row, each two digits or more."""
    key = board.resolve(ref) if isinstance(ref, str) else None
    if key is None:
        raise ExportError(f"{what}: hex {ref!r} is not on the scenario's maps")
    cell = board.cells[key]
    sheet = sheets[cell.map_id]
    for col in range(sheet.columns[0], sheet.columns[1] + 1):
        head = f"{col:02d}"
        if cell.hex_id.startswith(head) and cell.hex_id[len(head):].isdigit():
            row = int(cell.hex_id[len(head):])
            if f"{col:02d}{row:02d}" == cell.hex_id:
                return cell.map_id, col, row
    raise ExportError(f"{what}: hex {ref!r} has no column and row on map {cell.map_id}")


class _SetupBuilder:
    def __init__(self, model, pieces: _Pieces, sheets: dict[str, _SheetBoard], boxes: Board, names, prototypes):
        self.model, self.pieces, self.sheets, self.boxes = model, pieces, sheets, boxes
        self.names, self.prototypes = names, prototypes

    def build(self, index: int, ss: ScenarioSetup) -> SavedSetup:
        s, setup = ss.scenario, ss.setup
        conf = s.configuration
        rules = RulesBoard.from_sheets([[dict(m.raw) for m in row] for row in conf.layout], conf.north)
        offsets: dict[str, tuple[int, int]] = {}
        layout: list[tuple[str, int, int]] = []
        heights: dict[tuple[int, int], int] = {}
        widths: dict[tuple[int, int], int] = {}
        for r, row in enumerate(conf.layout):
            for c, sheet in enumerate(row):
                b = self.sheets[sheet.id].board
                widths[(c, r)], heights[(c, r)] = b.width, b.height
                layout.append((sheet.id, c, r))
        for sheet_id, c, r in layout:  # Map.getLocation: widths along the row, heights down the column
            offsets[sheet_id] = (sum(widths.get((i, r), 0) for i in range(c)),
                                 sum(heights.get((c, j), 0) for j in range(r)))
        placed: list[Placed] = []
        region = {r.name: r for r in self.boxes.regions}

        def put(kind: _PieceKind, ref: str | None, what: str, facing: int = 0, hidden_by: str | None = None,
                box: str | None = None, level: int = 1, deck: str = "") -> None:
            traits = _traits(kind, self.names, expand=self.prototypes, facing=facing, hidden_by=hidden_by,
                             level=level)
            pid = f"{index}-{len(placed) + 1}"
            if box is not None:
                reg = region[box]
                placed.append(Placed(pid, traits, OFFBOARD, reg.x, reg.y, box, deck))
                return
            map_id, col, row = _hex(rules, self.model.maps, ref, what)
            x, y = self.sheets[map_id].board.grid.centre(col, row)
            ox, oy = offsets[map_id]
            placed.append(Placed(pid, traits, BATTLEFIELD, ox + x, oy + y, f"{map_id}{col:02d}{row:02d}"))

        left = Counter()  # (side, card, unit type) still to place
        specs: dict[tuple, CounterSpec] = {}
        for spec in counters_mod.scenario_counters(self.model, s):
            side = spec.unit.side
            k = (side, spec.card, spec.unit.id)
            left[k] += 1
            specs[k] = spec
        turn_of = {n: r.get("turn", 1) for side in s.sides.values() for r in side.reinforcements for n in r["cards"]}
        for side in ("allied", "axis"):
            sd = setup.get("sides", {}).get(side, {})
            who = SIDES[side]
            transports = list(sd.get("transports", ()))
            for i, t in enumerate(transports):
                unit = self.model.unit_types.get(t["type"])
                if unit is None:
                    raise ExportError(f"setup {setup.get('id')}: no unit type {t['type']!r}")
                k = (side, None, unit.id)
                left[k] -= 1
                put(self.pieces.unit(specs.get(k) or CounterSpec(unit, "", None)), t["hex"],
                    f"{setup.get('id')} {side} transport {i}", t.get("facing", 0))
            for i, p in enumerate(sd.get("placements", ())):
                card = self.model.cards.get(p["card"])
                unit = self.model.unit_types.get(p["type"])
                if card is None or unit is None:
                    raise ExportError(f"setup {setup.get('id')}: {side} placement {i}: no card {p['card']} or "
                                      f"unit type {p['type']!r} in the pack")
                k = (side, p["card"], unit.id)
                left[k] -= 1
                spec = specs.get(k) or CounterSpec(unit, card.designation, card.number)
                ref = p["hex"]
                if "loaded_in" in p and p["loaded_in"] < len(transports):
                    ref = transports[p["loaded_in"]]["hex"]  # carried: in its transport's stack (§13.3)
                put(self.pieces.unit(spec), ref, f"{setup.get('id')} {side} placement {i}", p.get("facing", 0),
                    who if p.get("hidden") else None)
                if p.get("entrenched"):
                    put(self.pieces.marker("entrenched"), ref, f"{setup.get('id')} {side} placement {i}")
            for i, f in enumerate(sd.get("fortifications", ())):
                kid = {"wire": "wire", "entrenchment": "entrenched", "bunker": "bunker"}[f["type"]]
                put(self.pieces.marker(kid), f["hex"], f"{setup.get('id')} {side} fortification {i}")
            for i, ref in enumerate(sd.get("minefields", ())):  # secret (§15.11): hidden from the other side
                put(self.pieces.marker("minefield"), ref, f"{setup.get('id')} {side} minefield {i}", hidden_by=who)
            # units the setup does not place: by turn of arrival, off the board
            for (sd_side, card, uid), n in sorted(left.items(), key=lambda kv: (str(kv[0][1]), kv[0][2])):
                if sd_side != side or n <= 0:
                    continue
                turn = turn_of.get(card, 1)
                for _ in range(n):
                    put(self.pieces.unit(specs[(sd_side, card, uid)]), None, "", box=f"{OWNER[side]} turn {turn}")
            box = f"{OWNER[side]} cards"
            for face in cards_mod.faces_for(self.model, scenario=s):
                if face.card.side == side:
                    put(self.pieces.card(face), None, "", box=box, deck=box)
        for rc in sorted(self.model.raid_cards.values(), key=raids_mod._key):
            put(self.pieces.raid(rc), None, "", box="Raid cards", deck="Raid cards")
        # where north is (§18.3): the print map's arrow, on the top left whole hex of the first sheet, turned
        # by quarters as the configuration says
        first = conf.layout[0][0].id
        corner = min((k for k, c in rules.cells.items() if c.map_id == first and not c.half),
                     key=lambda k: (rules.page_xy(k)[1], rules.page_xy(k)[0]))
        put(self.pieces.marker("north"), corner, f"{s.id} north", {"up": 0, "right": 1, "down": 2, "left": 3}
            .get(conf.north, 0))
        boards = {BATTLEFIELD: layout, OFFBOARD: [(OFF_BOARD, 0, 0)]}
        return SavedSetup(f"{s.number} {lang_text(s.raw.get('name'))} ({ss.origin} setup)",
                          f"setups/{s.ordinal or index:02d}-{s.id}.vsav", boards, placed, _scenario_notes(s, ss),
                          s.turns)


# --- scenario text -----------------------------------------------------------------------------

def _scenario_notes(s: Scenario, ss: ScenarioSetup) -> list[str]:
    """The scenario in the game's Notes window: what the players need at the table."""
    source = {"sample": "the pack's sample setup", "automatic": "sandtable's automatic setup (seed 0)"}
    lines = [f"{s.number} {lang_text(s.raw.get('name'))}",
             f"{s.raw.get('date', '')}, {s.year}; {s.rules} rules; {s.turns} turns; maps {s.configuration.id} "
             f"(north {s.configuration.north}). Set up from {source.get(ss.origin, ss.origin)}.", ""]
    for side in ("allied", "axis"):
        sd = s.sides[side]
        lines.append(f"{SIDES[side]}:")
        lines += [f"- cards {', '.join(map(str, g['cards']))}: {lang_text(g.get('text'))}" for g in sd.groups]
        lines += [f"- turn {r.get('turn', '?')}, cards {', '.join(map(str, r['cards']))}: {lang_text(r.get('text'))}"
                  for r in sd.reinforcements]
    rules = [lang_text(r.get("text")) for r in s.raw.get("special_rules", ())]
    if rules:
        lines += ["", "Special rules:"] + [f"- {t}" for t in rules]
    lines += ["", "Victory: " + lang_text((s.raw.get("victory") or {}).get("text"))]
    return [line.replace("\n", " ") for line in lines]


def _scenario_html(model: DesertSteel, s: Scenario) -> str:
    e = html.escape
    name = lang_text(s.raw.get("name"))
    parts = [f"<html><body><h1>{e(s.number)} \u2014 {e(name)}</h1>",
             f"<p>{e(s.raw.get('date', ''))} \u00b7 {s.year} \u00b7 {e(s.rules)} rules \u00b7 {s.turns} turns \u00b7 "
             f"maps {e(s.configuration.id)} (north {e(s.configuration.north)})</p>",
             f"<p>{e(lang_text(s.raw.get('background')))}</p>"]
    for side in ("allied", "axis"):
        sd = s.sides[side]
        parts.append(f"<h2>{SIDES[side]}</h2><ul>")
        for g in sd.groups:
            parts.append(f"<li>Cards {', '.join(map(str, g['cards']))}: {e(lang_text(g.get('text')))}</li>")
        for r in sd.reinforcements:
            parts.append(f"<li>Reinforcements, turn {r.get('turn', '?')}: cards "
                         f"{', '.join(map(str, r['cards']))}. {e(lang_text(r.get('text')))}</li>")
        parts.append("</ul>")
    rules = [lang_text(r.get("text")) for r in s.raw.get("special_rules", ())]
    if rules:
        parts.append("<h2>Special rules</h2><ul>" + "".join(f"<li>{e(t)}</li>" for t in rules) + "</ul>")
    parts.append(f"<h2>Victory</h2><p>{e(lang_text((s.raw.get('victory') or {}).get('text')))}</p>")
    parts.append("</body></html>")
    return "\n".join(parts)


# --- the module ---------------------------------------------------------------------------------

def build_module(catalog, chosen: list[ScenarioSetup], *, name: str | None = None) -> Module:
    """The module of a pack (its mod packs' changes included, as the catalog holds them) with a
    predefined setup for each chosen scenario."""
    from sandtable.exports.desert_steel.aids import aids_pdf
    model: DesertSteel = catalog.model
    images = _Images()
    sheets = {sid: _sheet_board(sheet, images) for sid, sheet in sorted(model.maps.items())}
    turns = max([ss.scenario.turns for ss in chosen] + [1])
    boxes, boxes_face = _boxes_board(images, turns)
    pieces = _Pieces(model, catalog, images)
    palette_units = [(spec, pieces.unit(spec)) for spec in counters_mod.pack_counters(model)]
    for kid in list(markers_mod.KINDS) + ["minefield"]:
        if kid != "game-length":
            pieces.marker(kid)
    for ss in chosen:
        for spec in counters_mod.scenario_counters(model, ss.scenario):
            pieces.unit(spec)
        for face in cards_mod.faces_for(model, scenario=ss.scenario):
            pieces.card(face)
    for rc in model.raid_cards.values():
        pieces.raid(rc)
    # every image at once: one pdftoppm run per size
    pngs = raster.render(images.faces)
    mod = Module(name or "Desert Steel", _version(catalog), "Desert Steel (Tank Leader system), exported by "
                 "sandtable: maps with the rulebook's hex ids, counters, cards, charts and every scenario's setup",
                 [*SIDES.values(), SOLO])
    names = {i: mod.add_image(png, _stem(i, images, sheets, boxes_face)) for i, png in enumerate(pngs)}
    for sb in sheets.values():
        sb.board.image = names[sb.face]
    boxes.image = names[boxes_face]
    card_w, card_h = round(POKER[0] * CARD_SCALE), round(POKER[1] * CARD_SCALE)
    region = {r.name: r for r in boxes.regions}
    decks = []
    for label, face_down, shuffle in (("Allied cards", "Via right-click Menu", "Via right-click Menu"),
                                      ("Axis cards", "Via right-click Menu", "Via right-click Menu"),
                                      ("Raid cards", "Always", "Via right-click Menu")):
        spec = encode.DeckSpec(label, card_w, card_h, face_down, shuffle)
        cards = [k for k in (pieces.raids.values() if label == "Raid cards" else ())]
        decks.append(Deck(spec, OFF_BOARD, region[label].x, region[label].y,
                          [PieceDef(k.name, _traits(k, names)) for k in cards]))
    mod.maps = [Map(BATTLEFIELD, [sb.board for sb in sheets.values()]),
                Map(OFFBOARD, [boxes], button="Off-board", decks=decks)]
    mod.prototypes = _prototypes()
    by_nat: dict[str, list[PieceDef]] = {}
    seen = set()
    for spec, kind in palette_units:
        if id(kind) in seen:
            continue
        seen.add(id(kind))
        by_nat.setdefault(spec.unit.nationality.title(), []).append(PieceDef(kind.name, _traits(kind, names)))
    for kind in pieces.units.values():  # a mod's scenario may add counters the pack mix has not
        if id(kind) not in seen:
            seen.add(id(kind))
            by_nat.setdefault(kind.props["Nationality"].title(), []).append(PieceDef(kind.name, _traits(kind, names)))
    folders = list(by_nat.items())
    folders.append(("Markers", [PieceDef(k.name, _traits(k, names)) for kid, k in pieces.markers.items()
                                if kid != "minefield"]))
    mine = pieces.markers["minefield"]
    folders.append(("Minefields", [PieceDef(f"{side} minefield", [encode.restricted([side, SOLO]), encode.hideable(
        "Hide from the other side", "H"), *_traits(mine, names)]) for side in SIDES.values()]))
    mod.palettes = [Palette("Counters", folders),
                    Palette("Cards", [("Formation and command cards", [PieceDef(k.name, _traits(k, names))
                                                                       for k in pieces.cards.values()]),
                                      ("Raid cards", [PieceDef(k.name, _traits(k, names))
                                                      for k in pieces.raids.values()])])]
    aids, _ = aids_pdf(model)
    mod.charts_title = "Play aids"
    for i, png in enumerate(raster.pdf_pages(aids, 100)):
        mod.charts.append((f"Page {i + 1}", mod.add_image(png, "aids")))
    mod.dice = [Die("1d6", 6, 1), Die("2d6", 6, 2), Die("3d6", 6, 3)]
    mod.turn, mod.phases = "Turn", PHASES
    builder = _SetupBuilder(model, pieces, sheets, boxes, names, mod.prototypes)
    for i, ss in enumerate(chosen, start=1):
        page = f"scenarios/{ss.scenario.id}.html"
        mod.files[page] = _scenario_html(model, ss.scenario).encode("utf-8")
        mod.documents.append((f"Scenario {ss.scenario.number} {lang_text(ss.scenario.raw.get('name'))}", page))
        mod.setups.append(builder.build(i, ss))
    return mod


def _stem(i: int, images: _Images, sheets: dict, boxes_face: int) -> str:
    for sid, sb in sheets.items():
        if sb.face == i:
            return f"map-{sid}"
    return "boxes" if i == boxes_face else "piece"


def _version(catalog) -> str:
    packs = getattr(catalog, "packs", None) or []
    versions = [str(getattr(p, "version", "")) for p in packs if getattr(p, "version", "")]
    return "+".join(versions) or "1.0"


def scenario_setups(catalog, refs: list[str], setup: dict | None = None, setup_name: str = "") -> list[ScenarioSetup]:
    """Each scenario named (all by default) with its setup: the given one, the pack's sample, or the
    automatic legal setup (``sandtable setup``) where the pack has none."""
    from sandtable.rules.desert_steel.autosetup import AutoSetupError, auto_setup
    model: DesertSteel = catalog.model
    if refs:
        chosen = []
        for ref in refs:
            s = model.scenario(ref)
            if s is None:
                known = ", ".join(x.number for x in model.scenarios.values())
                raise LookupError(f"no scenario {ref!r}; known: {known}")
            if s not in chosen:
                chosen.append(s)
    else:
        chosen = sorted(model.scenarios.values(), key=lambda x: (x.ordinal or 99, x.id))
    if setup is not None:
        target = model.scenario(setup.get("scenario", ""))
        if target is None:
            raise LookupError(f"{setup_name}: no scenario {setup.get('scenario')!r} in the pack")
        if target not in chosen:
            chosen.append(target)
    out = []
    for s in chosen:
        if setup is not None and setup.get("scenario") == s.id:
            out.append(ScenarioSetup(s, setup, setup_name or "your"))
            continue
        sample = next((v for v in model.setups.values() if v.get("scenario") == s.id), None)
        if sample is not None:
            out.append(ScenarioSetup(s, sample, "sample"))
        else:
            try:
                out.append(ScenarioSetup(s, auto_setup(model, s, 0), "automatic"))
            except AutoSetupError as exc:
                raise ExportError(f"scenario {s.number} has no sample setup and no automatic one ({exc}): give "
                                  "one with --setup, or leave the scenario out") from None
    return out


def draw_module(req):
    """The declared print part ``vassal``: the module's bytes and what the command reports of it."""
    from sandtable.rules.rulesets import PrintFailure, Printed

    from ..vassal import module as vmodule
    try:
        chosen = scenario_setups(req.catalog, list(req.options.scenarios), getattr(req.options, "setup_value", None),
                                 req.options.setup or "")
        mod = build_module(req.catalog, chosen, name=req.options.name)
    except raster.RasterError as exc:
        raise PrintFailure(str(exc)) from None
    data = vmodule.write_module(mod)
    setups = [{"name": s.name, "file": s.file, "pieces": len(s.pieces),
               "on_map": sum(1 for p in s.pieces if p.map_name == BATTLEFIELD)} for s in mod.setups]
    report = {"images": len(mod.images), "pieces": sum(len(f[1]) for p in mod.palettes for f in p.folders),
              "setups": setups}
    summary = (f"{len(data) / 1e6:.1f} MB, {report['pieces']} piece kinds, {len(mod.setups)} predefined setup(s), "
               "{seconds:.1f} s")
    return Printed(data, [], summary, [f"  {s['name']}: {s['pieces']} pieces ({s['on_map']} on the maps)"
                                       for s in setups], report)
