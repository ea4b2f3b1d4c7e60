"""A VASSAL 3.6 module as data, and its writer: buildFile.xml, moduledata, images, saved setups.

Only components and traits VASSAL 3.6 knows are written, and the module is stamped 3.6.0, so every
current VASSAL (3.6 and 3.7, which reads 3.6's format) opens it. Nothing here knows a game: a
ruleset's exporter fills these classes (see ``exports/desert_steel/vassal.py``).
"""
from __future__ import annotations

import hashlib
import io
import time
import zipfile
from dataclasses import dataclass, field
from xml.etree import ElementTree as ET

from . import encode
from .encode import Trait

VASSAL_VERSION = "3.6.0"
_P = "VASSAL.build."


@dataclass(frozen=True)
class HexNumbering:
    """A flat-topped hex grid (VASSAL's HexGrid, not sideways) whose lowered columns are the odd ones
    counted from the origin, numbered ``prefix + CC + RR`` (column then row, two digits each)."""

    dx: float  # column step in pixels
    dy: float  # hex height in pixels
    x0: int  # the origin hex's centre, in board pixels (the engine keeps whole pixels)
    y0: int
    column_offset: int  # number of the origin's column
    row_offset: int  # number of the origin's row
    prefix: str = ""

    def centre(self, col: int, row: int) -> tuple[int, int]:
        """Where the engine snaps a piece in this hex: HexGrid.hexX/hexY's arithmetic, truncations
        included, so a setup puts each piece exactly where a player's drop would."""
        n = col - self.column_offset
        k = row - self.row_offset
        x = int(self.dx * n + self.x0)
        if n % 2 == 0:
            y = int(self.dy * k + self.y0)
        else:
            y = int(self.dy * k + int(self.dy / 2) + self.y0)
        return x, y


@dataclass(frozen=True)
class Region:
    name: str
    x: int
    y: int


@dataclass
class Board:
    name: str
    image: str
    width: int
    height: int
    grid: HexNumbering | None = None
    regions: list[Region] = field(default_factory=list)


@dataclass
class Deck:
    """A deck (DrawPile) on a board: drawn from, shuffled; a new game deals it its cards."""

    spec: encode.DeckSpec
    board: str
    x: int  # its centre, in the board's pixels
    y: int
    cards: list["PieceDef"] = field(default_factory=list)


@dataclass
class Map:
    name: str
    boards: list[Board]
    button: str = ""  # a toolbar button opens it in a window of its own; "" docks it in the main window
    decks: list[Deck] = field(default_factory=list)

    def offsets(self, layout: list[tuple[str, int, int]]) -> dict[str, tuple[int, int]]:
        """Where each board of a layout (board, column, row) starts in the map, as Map.getLocation
        puts it: the widths before it along its row, the heights above it in its column."""
        size = {b.name: (b.width, b.height) for b in self.boards}
        at = {(c, r): name for name, c, r in layout}
        return {name: (sum(size[at[(i, r)]][0] for i in range(c) if (i, r) in at),
                       sum(size[at[(c, j)]][1] for j in range(r) if (c, j) in at)) for name, c, r in layout}


@dataclass
class PieceDef:
    """A piece players can drag from a palette: its traits as defined (prototypes by name)."""

    name: str
    traits: list[Trait]
    gpid: str = ""


@dataclass
class Palette:
    name: str
    folders: list[tuple[str, list[PieceDef]]]


@dataclass
class Placed:
    """A piece of a saved game: its id, its traits with prototypes expanded, where it is."""

    piece_id: str
    traits: list[Trait]  # outermost first; the BasicPiece's state is set from the position
    map_name: str
    x: int
    y: int
    location: str  # the location name the engine must report there (the tests compare)
    deck: str = ""  # the deck holding it, if any


@dataclass
class SavedSetup:
    name: str
    file: str
    boards: dict[str, list[tuple[str, int, int]]]  # map name -> (board name, column, row)
    pieces: list[Placed]
    notes: list[str] = field(default_factory=list)  # lines of the game's scenario notes (Notes window)
    turns: int = 0  # the game's length: the turn track goes round after it (0: no limit)


@dataclass
class Die:
    name: str
    sides: int
    count: int = 1


@dataclass
class Module:
    name: str
    version: str
    description: str
    sides: list[str]
    maps: list[Map] = field(default_factory=list)
    prototypes: dict[str, list[Trait]] = field(default_factory=dict)  # name -> traits, no BasicPiece
    palettes: list[Palette] = field(default_factory=list)
    charts: list[tuple[str, str]] = field(default_factory=list)  # (title, image file), tabs of one window
    charts_title: str = "Charts"
    dice: list[Die] = field(default_factory=list)
    turn: str = ""  # the turn track's counter (e.g. "Turn"), counted from 1; none when ""
    phases: list[str] = field(default_factory=list)  # the phases of a turn, in order
    documents: list[tuple[str, str]] = field(default_factory=list)  # (menu title, html file)
    setups: list[SavedSetup] = field(default_factory=list)
    images: dict[str, bytes] = field(default_factory=dict)
    files: dict[str, bytes] = field(default_factory=dict)  # other archive members (html help)

    def add_image(self, data: bytes, stem: str = "img") -> str:
        """Store an image once by content; the archive name it has."""
        digest = hashlib.sha1(data).hexdigest()[:12]
        for name, existing in self.images.items():
            if name.endswith(digest + ".png") and existing == data:
                return name
        name = f"{stem}-{digest}.png"
        self.images[name] = data
        return name


# --- buildFile.xml ----------------------------------------------------------------------------

def _el(parent, cls: str, **attrs) -> ET.Element:
    e = ET.SubElement(parent, _P + cls) if parent is not None else ET.Element(_P + cls)
    for k, v in attrs.items():
        e.set(k, encode._text(v))
    return e


def _board_xml(picker, board: Board) -> None:
    b = _el(picker, "module.map.boardPicker.Board", image=board.image, name=board.name, reversible=False,
            width=board.width, height=board.height, color="")
    if board.grid is not None:
        g = board.grid
        grid = _el(b, "module.map.boardPicker.board.HexGrid", color="0,0,0", cornersLegal=False, dotsVisible=False,
                   dx=g.dx, dy=g.dy, edgesLegal=False, sideways=False, snapTo=True, visible=False, x0=g.x0, y0=g.y0)
        _el(grid, "module.map.boardPicker.board.mapgrid.HexGridNumbering", color="0,0,0", first="H", fontSize=9,
            hDescend=False, hDrawOff=0, hLeading=1, hOff=g.column_offset, hType="N", locationFormat=g.prefix
            + "$gridLocation$", rotateText=0, sep="", stagger=False, vDescend=False, vDrawOff=0, vLeading=1,
            vOff=g.row_offset, vType="N", visible=False)
    elif board.regions:
        grid = _el(b, "module.map.boardPicker.board.RegionGrid", fontsize=9, snapto=True, visible=False)
        for r in board.regions:
            _el(grid, "module.map.boardPicker.board.Region", name=r.name, originx=r.x, originy=r.y)


def _map_xml(root, m: Map) -> None:
    attrs = dict(allowMultiple=False, backgroundcolor="255,255,255", buttonName=m.button or m.name,
                 changeFormat="$message$", color="255,0,0", createFormat="$pieceName$ created in $location$",
                 edgeHeight=0, edgeWidth=0, hideKey="", hotkey="", icon="", launch=bool(m.button), mapName=m.name,
                 markMoved="Never", markUnmovedIcon="", markUnmovedText="", markUnmovedTooltip="",
                 moveKey="", moveToFormat="$pieceName$ moves $previousLocation$ \u2192 $location$",
                 moveWithinFormat="$pieceName$ moves $previousLocation$ \u2192 $location$", showKey="",
                 thickness=3)
    e = _el(root, "module.Map", **attrs)
    picker = _el(e, "module.map.BoardPicker", addColumnText="Add column", addRowText="Add row",
                 boardPrompt="Select board", slotHeight=125, slotScale=0.2, slotWidth=350, title="Choose Boards")
    for board in m.boards:
        _board_xml(picker, board)
    for d in m.decks:
        sp = d.spec
        pile = _el(e, "module.map.DrawPile", allowMultiple=sp.allow_multiple, allowSelect=sp.allow_select,
                   canSave=False, color=sp.colour, draw=True, drawFaceUp=False, faceDown=sp.face_down,
                   height=sp.height, maxStack=10, name=sp.name, owningBoard=d.board, reshufflable=False,
                   reversible=sp.reversible, selectDisplayProperty="$BasicName$", shuffle=sp.shuffle,
                   width=sp.width, x=d.x, y=d.y)
        for pd in d.cards:
            _slot(pile, "widget.CardSlot", pd)
    _el(e, "module.map.StackMetrics", bottom=40, disabled=False, down=40, exSepX=6, exSepY=18, top=38,
        unexSepX=2, unexSepY=4, up=39)
    _el(e, "module.map.ForwardToKeyBuffer")
    _el(e, "module.map.Scroller")
    _el(e, "module.map.ForwardToChatter")
    _el(e, "module.map.MenuDisplayer")
    _el(e, "module.map.MapCenterer")
    _el(e, "module.map.StackExpander")
    _el(e, "module.map.PieceMover")
    _el(e, "module.map.KeyBufferer")
    _el(e, "module.map.SelectionHighlighters")
    _el(e, "module.map.HighlightLastMoved", color="255,0,0", enabled=True, thickness=2)
    _el(e, "module.map.CounterDetailViewer", delay=700, description="Stack viewer", display="from top-most layer only",
        minDisplayPieces=2, showgraph=True, showtext=True, summaryReportFormat="<b>$LocationName$</b>",
        counterReportFormat="", version=3, zoomlevel=1.0, graphicsZoom=1.0, hotkey="")
    _el(e, "module.map.Zoomer", zoomInKey="61,130", zoomLevels="0.25,0.375,0.5,0.707,1.0,1.5", zoomOutKey="45,130",
        zoomPickKey="", zoomStart=3)


_GPID = [0]


def _slot(parent, cls: str, pd: "PieceDef") -> None:
    _GPID[0] += 1
    pd.gpid = pd.gpid or str(_GPID[0])
    slot = _el(parent, cls, entryName=pd.name, gpid=pd.gpid, height=0, width=0)
    slot.text = _piece_text(pd.traits, pd.gpid)


def _piece_text(traits: list[Trait], gpid: str) -> str:
    *outer, base = traits
    name, image = _basic_name_image(base)
    return encode.add_piece(None, [*outer, encode.basic_piece(name, image, gpid=gpid)])


def _basic_name_image(base: Trait) -> tuple[str, str]:
    fields = base.type[len("piece;;;"):]
    image, _, name = fields.partition(";")
    return name, image


def build_file(mod: Module) -> bytes:
    root = ET.Element(_P + "GameModule")
    for k, v in dict(ModuleOther1="", ModuleOther2="", VassalVersion=VASSAL_VERSION, description=mod.description,
                     name=mod.name, nextPieceSlotId=0, version=mod.version).items():
        root.set(k, encode._text(v))
    _el(root, "module.BasicCommandEncoder")
    _el(root, "module.Documentation")
    roster = _el(root, "module.PlayerRoster", buttonKeyStroke="", buttonText="Retire",
                 buttonToolTip="Switch sides, become observer, or release faction", sides=encode.string_array(mod.sides))
    for side in mod.sides:
        ET.SubElement(roster, "entry").text = side
    _el(root, "module.GlobalOptions", autoReport="Always", centerOnMove="Use Preferences Setting",
        chatterHTMLSupport="Always", hotKeysOnClosedWindows="Never", inventoryForAll="Always",
        nonOwnerUnmaskable="Use Preferences Setting", playerIdFormat="$PlayerName$", promptString="Opponents can unmask pieces",
        sendToLocationMoveTrails="Never", storeLeadingZeroIntegersAsStrings=False)
    _GPID[0] = 0
    for m in mod.maps:
        _map_xml(root, m)
    protos = _el(root, "module.PrototypesContainer")
    for name, traits in mod.prototypes.items():
        p = _el(protos, "module.PrototypeDefinition", name=name, description="")
        p.text = encode.add_piece(None, [*traits, encode.basic_piece("", "")])
    for pal in mod.palettes:
        win = _el(root, "module.PieceWindow", allowHidePieces=True, defaultWidth=0, hidden=False, hotkey="",
                  icon="", name=pal.name, scale=1.0, text=pal.name, tooltip=pal.name)
        tabs = _el(win, "widget.TabWidget", entryName=pal.name)
        for folder, pieces in pal.folders:
            panel = _el(tabs, "widget.PanelWidget", entryName=folder, fixed=False, nColumns=10, scale=1.0, vert=False)
            for pd in pieces:
                _slot(panel, "widget.PieceSlot", pd)
    root.set("nextPieceSlotId", str(_GPID[0] + 1))
    if mod.charts:  # one window, a tab per chart
        win = _el(root, "module.ChartWindow", description="", hotkey="", icon="", name=mod.charts_title,
                  text=mod.charts_title, tooltip=mod.charts_title)
        tabs = _el(win, "widget.TabWidget", entryName=mod.charts_title)
        for title, image in mod.charts:
            _el(tabs, "widget.Chart", chartName=title, description="", fileName=image)
    for die in mod.dice:
        _el(root, "module.DiceButton", addToTotal=0, hotkey="", icon="", keepCount=1, keepDice=False,
            keepOption=">", lockAdd=False, lockDice=False, lockPlus=False, lockSides=False, nDice=die.count,
            nSides=die.sides, name=die.name, plus=0, prompt=False, reportFormat="** $name$ = $result$ *** <$PlayerName$>",
            reportTotal=False, sortDice=False, text=die.name, tooltip=f"roll {die.count}d{die.sides}")
    if mod.turn:
        fmt = f"${mod.turn}$" + (" $Phase$" if mod.phases else "")
        tracker = _el(root, "module.turn.TurnTracker", buttonText=mod.turn, buttonTooltip="The turn and the phase",
                      hotkey="", icon="", name=mod.turn, nexthotkey="", prevhotkey="", turnFormat=fmt,
                      reportFormat="* <$PlayerName$> $newTurn$", length=-1, lengthStyle="Maximum")
        counter = _el(tracker, "module.turn.CounterTurnLevel", incr=1, loop=False, loopLimit=-1, name=mod.turn,
                      property=mod.turn, start=1, turnFormat=f"{mod.turn} $value$")
        if mod.phases:
            _el(counter, "module.turn.ListTurnLevel", configFirst=False, configList=False,
                list=encode.string_array(mod.phases), name="Phase", property="Phase", prompt="", turnFormat="$value$")
    if mod.documents:
        help_menu = root.find(_P + "module.Documentation")
        for title, file in mod.documents:
            _el(help_menu, "module.documentation.HelpFile", fileName=file, fileType="archive", title=title)
    _el(root, "module.NotesWindow", buttonText="Notes", hotkey="", icon="", tooltip="Notes")
    for s in mod.setups:
        _el(root, "module.PredefinedSetup", file=s.file, isMenu=False, name=s.name, useFile=True)
    ET.indent(root, "  ")
    return b'<?xml version="1.0" encoding="UTF-8" standalone="no"?>\n' + ET.tostring(root, encoding="utf-8")


def module_data(mod: Module, saved_ms: int) -> bytes:
    root = ET.Element("data", version="1")
    for tag, value in (("version", mod.version), ("extra1", ""), ("extra2", ""), ("VassalVersion", VASSAL_VERSION),
                       ("dateSaved", str(saved_ms)), ("description", mod.description), ("name", mod.name)):
        ET.SubElement(root, tag).text = value
    return b'<?xml version="1.0" encoding="UTF-8" standalone="no"?>\n' + ET.tostring(root, encoding="utf-8")


# --- saved games ------------------------------------------------------------------------------

def saved_game_text(mod: Module, setup: SavedSetup) -> str:
    """The command stream of a saved game, in plain text (the engine reads it as well as its
    obfuscated form): pieces, then the stacks holding them, then each map's boards."""
    commands = ["begin_save"]
    stacks: dict[tuple[str, int, int], list[str]] = {}
    decks = {d.spec.name: (m, d) for m in mod.maps for d in m.decks if m.name in setup.boards}
    dealt: dict[str, list[str]] = {name: [] for name in decks}
    for p in setup.pieces:
        *outer, base = p.traits
        name, image = _basic_name_image(base)
        traits = [*outer, encode.basic_piece(name, image, p.map_name, p.x, p.y)]
        commands.append(encode.add_piece(p.piece_id, traits))
        if p.deck:
            dealt[p.deck].append(p.piece_id)
        else:
            stacks.setdefault((p.map_name, p.x, p.y), []).append(p.piece_id)
    for i, ((map_name, x, y), ids) in enumerate(stacks.items()):
        commands.append(encode.add_stack(f"stack{i}", map_name, x, y, ids))
    for i, (name, (m, d)) in enumerate(decks.items()):  # every deck of the maps in play, dealt or empty
        ox, oy = m.offsets(setup.boards[m.name])[d.board]
        commands.append(encode.add_deck(f"deck{i}", d.spec, m.name, ox + d.x, oy + d.y, d.spec.face_down == "Always",
                                        dealt[name]))
    for map_name, boards in setup.boards.items():
        commands.append(encode.seq([map_name + "BoardPicker", *[v for b in boards for v in b]], "\t"))
    if mod.turn and setup.turns:
        commands.append(turn_command(mod, setup.turns))
    if setup.notes:  # NotesWindow's scenario notes: lines joined by "|", as TextConfigurer stores them
        commands.append("NOTES\t" + encode.seq(setup.notes, "|"))
    if any(m.decks for m in mod.maps):
        commands.append("SETUP_STACK\t")  # not a new game: the decks hold what the save says, not the module's deal
    commands.append("end_save")
    return encode.seq(commands, encode.ESC)


def turn_state(mod: Module, turns: int) -> str:
    """TurnTracker.getState() on turn 1, first phase, the counter going round after ``turns``."""
    phases = [encode.seq([0, 0, 0, encode.string_array(["true"] * len(mod.phases))], ";")] if mod.phases else []
    return encode.seq([0, encode.seq([1, 0, True, turns, *phases], ";")], "|")


def turn_command(mod: Module, turns: int) -> str:
    return encode.seq(["TURNTurnTracker0", turn_state(mod, turns)], "\t")  # the module's one tracker's id


def saved_game(mod: Module, setup: SavedSetup, saved_ms: int) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        _write(z, "savedGame", saved_game_text(mod, setup).encode("utf-8"), saved_ms)
        meta = ET.Element("data", version="1")
        for tag, value in (("version", mod.version), ("extra1", ""), ("extra2", ""),
                           ("VassalVersion", VASSAL_VERSION), ("dateSaved", str(saved_ms)),
                           ("description", setup.name)):
            ET.SubElement(meta, tag).text = value
        _write(z, "savedata", b'<?xml version="1.0" encoding="UTF-8" standalone="no"?>\n'
               + ET.tostring(meta, encoding="utf-8"), saved_ms)
        mdata = ET.Element("data", version="1")
        for tag, value in (("version", mod.version), ("extra1", ""), ("extra2", ""),
                           ("VassalVersion", VASSAL_VERSION), ("dateSaved", str(saved_ms)),
                           ("description", mod.description), ("name", mod.name)):
            ET.SubElement(mdata, tag).text = value
        _write(z, "moduledata", b'<?xml version="1.0" encoding="UTF-8" standalone="no"?>\n'
               + ET.tostring(mdata, encoding="utf-8"), saved_ms)
    return buf.getvalue()


def _write(z: zipfile.ZipFile, name: str, data: bytes, saved_ms: int, stored: bool = False) -> None:
    info = zipfile.ZipInfo(name, date_time=max(time.gmtime(saved_ms // 1000)[:6], (1980, 1, 1, 0, 0, 0)))
    info.compress_type = zipfile.ZIP_STORED if stored else zipfile.ZIP_DEFLATED
    z.writestr(info, data)


def write_module(mod: Module, saved_ms: int | None = None) -> bytes:
    """The .vmod archive: PNGs stored as they are (already compressed), the rest deflated."""
    saved_ms = int(time.time() * 1000) if saved_ms is None else saved_ms
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        _write(z, "buildFile.xml", build_file(mod), saved_ms)
        _write(z, "moduledata", module_data(mod, saved_ms), saved_ms)
        for name in sorted(mod.images):
            _write(z, "images/" + name, mod.images[name], saved_ms, stored=True)
        for name in sorted(mod.files):
            _write(z, name, mod.files[name], saved_ms)
        for s in mod.setups:
            _write(z, s.file, saved_game(mod, s, saved_ms), saved_ms, stored=True)
    return buf.getvalue()
