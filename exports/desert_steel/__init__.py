"""Desert Steel's printed documents (cards, counters, markers, sheets, aids, map tiles) and its
VASSAL module, drawn with the generic toolkits of ``sandtable.exports`` (page, flow, hexdraw,
lang, sheets, guide, kit) and declared as the ruleset's print parts
(rules/desert_steel/contributions.py)."""
from ..lang import extend as _extend
from .lang_aids import FR_AIDS as _FR_AIDS
from .lang_fr import FR_DS as _FR_DS

# Their French words join the shared table as soon as any of these documents is drawn.
_extend("fr", _FR_DS)
_extend("fr", _FR_AIDS)
