"""What Desert Steel contributes beyond validation, declared by name (rules/rulesets.py).

Only "module:attr" strings here: reading the declaration imports none of the code it names
(the engine, the print code, the editor's Qt panels), which is loaded when first asked for.
"""
from __future__ import annotations

from ..limits import CountLimit
from ..rulesets import BoardContribution, EditorContribution, EditorPanel, PlayContribution, PrintOption, PrintPart

_DS = "sandtable.rules.desert_steel"

# The engine through its facade (play.py): one object offers new games, bots, records, logs,
# narration and batches; the single references name its parts for a caller that wants one.
PLAY = PlayContribution(
    new_game=f"{_DS}.play:PLAY.play",
    bots=f"{_DS}.play:PLAY.bots",
    record=f"{_DS}.play:PLAY.record",
    narration=f"{_DS}.play:PLAY.narrate",
    runner=f"{_DS}.play:PLAY",
)

# The board through its facade (board_door.py): model, scenario and hexes as typed in.
BOARD = BoardContribution(
    los=f"{_DS}.board_door:BOARD.los",
    zone=f"{_DS}.board_door:BOARD.formation_zone",
    path=f"{_DS}.board_door:BOARD.path",
    zones=f"{_DS}.board_door:BOARD.zones",
    auto_setup=f"{_DS}.board_door:BOARD.auto_setup",
)

# --- print parts (exports/desert_steel/): `sandtable export KIND`, the kit and the editor's Print --------
_PARTS = "sandtable.exports.desert_steel.parts"
_KIT = "sandtable.exports.desert_steel.kit"
_SIZES = ("1/2", "5/8", "3/4")


def _backs() -> PrintOption:
    return PrintOption(("--backs",), dict(action="store_true", help="add card backs on the following pages"))


def _scenario(optional: bool = False, help: str | None = None) -> PrintOption:
    kw = dict(nargs="?") if optional else {}
    return PrintOption(("scenario",), dict(kw, metavar="SCENARIO", **({"help": help} if help else {})))


# --size, --bleed and --no-cut-lines of the counter-like parts
SIZED = (
    PrintOption(("--size",), dict(choices=_SIZES, default="5/8", help="counter size in inches (default 5/8)")),
    PrintOption(("--bleed",), dict(type=float, default=1.5, metavar="MM",
                                   help="colour beyond the cut lines (default 1.5 mm)")),
    PrintOption(("--no-cut-lines",), dict(dest="cut_lines", action="store_false", help="no cut lines over the pieces")),
)
BACK_STYLE = PrintOption(("--back-style",), dict(
    choices=("side", "informative"), default="side",
    help="card backs: one back per side, showing nothing a face-down card must hide (default, \u00a76.55), or "
    "informative backs with the nation and the kind of card"))

# `export kit`'s own options (what exports/desert_steel/kit.py's pieces read)
KIT_OPTIONS = (
    PrintOption(("--setup",), dict(metavar="SETUP.json", help="pre-fill the raid record from a setup")),
    *SIZED,
    BACK_STYLE,
    PrintOption(("--map-page",), dict(choices=("a4", "letter", "a3", "tabloid"),
                                      help="paper for the map tiles (default: --page); a3 or tabloid means fewer "
                                      "seams")),
)

PRINTS = (
    PrintPart("cards", "formation cards, poker size, nine to a page", f"{_PARTS}:draw_cards",
              words="printable cards", duplex=True,
              kit=f"{_KIT}:card_pieces", editor=(("formation-card", "card-{id}.pdf"),), options=(
                  PrintOption(("--scenario",), dict(metavar="SCENARIO",
                                                    help="only a scenario's cards, for each side's year")),
                  PrintOption(("--year",), dict(type=int, help="only this year's variants (default: every year "
                                                "variant)")),
                  PrintOption(("--card",), dict(type=int, action="append", default=[], metavar="N",
                                                help="only these cards (repeatable)")),
                  _backs(),
                  PrintOption(("--per-formation",), dict(
                      action="store_true", help="one card per formation with a row per year variant, as the boxed "
                      "game prints them (default: one card per year variant)")),
                  BACK_STYLE)),
    PrintPart("raids", "raid cards S1-S9: air strike and bombardment halves", f"{_PARTS}:draw_raids",
              words="printable raid cards", duplex=True,
              kit=f"{_KIT}:raid_pieces", editor=(("raid-card", "raid-cards.pdf"),), options=(_backs(),)),
    PrintPart("counters", "countersheets, fronts and mirrored backs", f"{_PARTS}:draw_counters",
              words="printable counters", duplex=True,
              kit=f"{_KIT}:counter_pieces", editor=(("unit-type", "counters.pdf"),),
              options=(_scenario(True, "a scenario's counters (default: the whole pack)"), *SIZED)),
    PrintPart("markers", "the markers of \u00a72.12 a scenario needs", f"{_PARTS}:draw_markers",
              words="printable markers", duplex=True,
              kit=f"{_KIT}:marker_pieces", options=(_scenario(), *SIZED)),
    PrintPart("record", "public record sheet: turn track, conditions, visibility, smoke, raid deck",
              f"{_PARTS}:draw_record", words="printable record sheet", kit=f"{_KIT}:record_pieces", options=(
                  _scenario(),
                  PrintOption(("--size",), dict(choices=_SIZES, default="5/8",
                                                help="counter size: the boxes that take a marker hold one (default "
                                                "5/8)")))),
    PrintPart("scenario", "scenario sheet: background, board with zones, forces, rules, victory",
              f"{_PARTS}:draw_scenario",
              words="printable scenario sheet", kit=f"{_KIT}:scenario_pieces", options=(_scenario(),)),
    PrintPart("raid-form", "each side's secret plan sheet: minefields, hidden FOs, raid record (\u00a718.9); blank "
              "or pre-filled from a setup", f"{_PARTS}:draw_raid_form",
              words="printable raid record form", kit=f"{_KIT}:plan_pieces", options=(
                  _scenario(True, "size the form for a scenario"),
                  PrintOption(("--setup",), dict(metavar="SETUP.json", help="pre-fill from a setup's raid plan")))),
    PrintPart("aids", "play aids: sequence of play, card priority, operations, every chart of the pack, transport, "
              "smoke, raid and fortification procedures", f"{_PARTS}:draw_aids",
              words="printable play aids", kit=f"{_KIT}:aid_pieces",
              editor=(("rule-tables", "play-aids.pdf"), ("terrain-effects", "play-aids.pdf"))),
    PrintPart("map", "map sheets at true scale, tiled over pages with overlap", f"{_PARTS}:draw_map",
              words="printable map sheets",
              kit=f"{_KIT}:map_pieces", pages=("a4", "letter", "a3", "tabloid"),
              editor=(("map-configuration", "map-{id}.pdf"),), options=(
                  PrintOption(("what",), dict(metavar="CONFIG|SCENARIO", help="a map configuration id (e.g. "
                                              "A-over-B-north-up) or a scenario (its conditions apply)")),
                  PrintOption(("--overlap",), dict(
                      type=float, default=10, metavar="MM",
                      help="least tile overlap (default 10 mm; the tiles are spread evenly, so it may be more)")))),
    PrintPart("vassal", "a VASSAL module (.vmod) of the pack: maps with the rulebook's hex ids, counters, cards, "
              "charts, dice, turn track, every scenario as a predefined setup",
              "sandtable.exports.desert_steel.vassal:draw_module",
              words="VASSAL module export", common=False, output="the module to write",
              output_metavar="FILE.vmod",
              description="Write a VASSAL 3.6 module of the pack (mod packs included): boards drawn as the print "
              "maps with a grid named by the rulebook's hex ids, every counter with both faces, facing and hiding, "
              "cards, play aids, dice, a turn track, each scenario's text, and each scenario as a predefined setup "
              "(the pack's sample setup, or the automatic one). Opens in VASSAL 3.6 and later; the players enforce "
              "the rules.", options=(
                  PrintOption(("scenarios",), dict(nargs="*", metavar="SCENARIO",
                                                   help="the scenarios to set up (default: all)")),
                  PrintOption(("--setup",), dict(metavar="SETUP.json", help="a setup of your own for its scenario "
                                                 "(replaces the pack's sample setup of that scenario; the scenario "
                                                 "is added if not named)")),
                  PrintOption(("--name",), dict(help="the module's name (default: Desert Steel)")))),
)


# --- the editor's parts (editor/desert_steel/): Qt is imported only when the editor asks -----
_ED = "sandtable.editor.desert_steel"
EDITOR = EditorContribution(
    forms=f"{_ED}.forms:FORMS",
    bulk=(EditorPanel("unit-type", "All unit types", f"{_ED}.bulk:BulkGrid"),
          EditorPanel("formation-card", "All formation cards × years", f"{_ED}.bulk:BulkGrid")),
    deferred=f"{_DS}.checks:SETUP_RULES",
    naming=f"{_ED}.naming:NAMING",
)


# --- its count limits (rules/limits.py) and reference scheme (rules/references.py) ------------------------
LIMITS = (
    CountLimit("scenario", ("sides", "*", "transports", "*", "count"), "transport-count"),
    CountLimit("scenario", ("sides", "*", "fortifications", "*", "count"), "fortification-count"),
    CountLimit("scenario", ("sides", "*", "raids", "preplanned_bombardments"), "raid-count"),
    CountLimit("scenario", ("sides", "*", "raids", "on_call_bombardments"), "raid-count"),
    CountLimit("scenario", ("sides", "*", "raids", "air_strikes", "*", "count"), "raid-count"),
    CountLimit("scenario", ("sides", "*", "smoke"), "smoke-count"),
    CountLimit("map", ("size_cm", "width"), "map-cm"),
    CountLimit("map", ("size_cm", "height"), "map-cm"),
    CountLimit("map", ("hex_metres",), "hex-metres"),
)
SCHEME = f"{_DS}.refscheme:SCHEME"
