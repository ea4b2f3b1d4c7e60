"""Rules as public queries (issue #30): every public method and property of Game (its mixins
included) and every decision says in its docstring which § of the rulebook it implements, so a
reader goes from the query to the rule. Only the OpenSpiel-like surface and the tools' door
(which play the game rather than answer a rule) are exempt."""
from __future__ import annotations

import inspect
import re

from sandtable.rules.desert_steel.engine.decisions import BY_KIND
from sandtable.rules.desert_steel.engine.game import Game

from engine_doc import NOT_A_RULE, public_members  # NOT_A_RULE: the game-playing surface

SECTION = re.compile(r"§\d+(\.\d+)?")


def test_every_public_query_of_game_cites_its_section():
    missing = [name for name, member in public_members(Game) if name not in NOT_A_RULE
               and not SECTION.search(inspect.getdoc(member) or "")]
    assert not missing, f"public Game members whose docstring cites no §: {', '.join(missing)}"
    assert NOT_A_RULE <= {name for name, _ in public_members(Game)}, "the allow-list names a member Game lacks"


def test_every_decision_cites_its_section():
    assert not [kind for kind, cls in BY_KIND.items() if not SECTION.search(cls.__doc__ or "")]
