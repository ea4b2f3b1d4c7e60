"""What Desert Steel contributes beyond validation, declared by name (rules/rulesets.py).

Only "module:attr" strings here: reading the declaration imports none of the code it names
(the engine, the print code, the editor's Qt panels), which is loaded when first asked for.
"""
from __future__ import annotations

from ..rulesets import BoardContribution, PlayContribution

_DS = "sandtable.rules.desert_steel"

PLAY = PlayContribution(
    new_game=f"{_DS}.engine.runner:play",
    bots=f"{_DS}.engine.bots:BOTS",
    record=f"{_DS}.engine.runner:write_log",
    runner=f"{_DS}.engine.runner:simulate",
)

BOARD = BoardContribution(
    los=f"{_DS}.battlefield:Battlefield",
    zone=f"{_DS}.zones:evaluate",
    path=f"{_DS}.battlefield:Battlefield",
    zones=f"{_DS}.zones:ZoneContext",
    auto_setup=f"{_DS}.autosetup:auto_setup",
)
