"""What Desert Steel contributes beyond validation, declared by name (rules/rulesets.py).

Only "module:attr" strings here: reading the declaration imports none of the code it names
(the engine, the print code, the editor's Qt panels), which is loaded when first asked for.
"""
from __future__ import annotations

from ..rulesets import BoardContribution, EditorContribution, PlayContribution

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


# --- the editor's parts (editor/desert_steel/): Qt is imported only when the editor asks -----
_ED = "sandtable.editor.desert_steel"
EDITOR = EditorContribution(
    forms=f"{_ED}.forms:FORMS",
    bulk=(("unit-type", "All unit types"), ("formation-card", "All formation cards × years")),
    deferred=f"{_DS}.checks:SETUP_RULES",
)
