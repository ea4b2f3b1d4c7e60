"""The CLI asks the pack's ruleset for a contribution (rules/rulesets.py) and says plainly when it
has none: no command imports a ruleset's code."""
from __future__ import annotations

from sandtable.rules import rulesets


class NoContribution(ValueError):
    """The pack's ruleset does not offer what the command needs (a usage error)."""


def _ruleset(catalog):
    ruleset = getattr(catalog, "ruleset", None)
    if ruleset is None:
        raise NoContribution("the pack names no ruleset sandtable knows, so it has no game engine or board")
    return ruleset


def play_door(catalog):
    """The ruleset's game engine (its ``play`` contribution's runner)."""
    ruleset = _ruleset(catalog)
    if ruleset.play is None or ruleset.play.runner is None:
        raise NoContribution(f"the {ruleset.title} ruleset has no {rulesets.CAPABILITIES['play']}")
    return ruleset.play.runner.load()


def board_door(catalog, what: str):
    """One part of the ruleset's ``board`` contribution: 'los', 'zone', 'path', 'zones' or 'auto_setup'."""
    ruleset = _ruleset(catalog)
    ref = getattr(ruleset.board, what, None) if ruleset.board is not None else None
    if ref is None:
        word = what.replace("_", "-")
        raise NoContribution(f"the {ruleset.title} ruleset has no {rulesets.CAPABILITIES.get(word, word)}")
    return ref.load()
