"""The bots' registry and their seat at the table.

Each bot module registers its bots (``register_bot``) when it is imported; this module imports
none of them at load time, only the modules named in BOT_MODULES, on the first look at the
registry: no import cycle between the registry and the bots built on one another.
"""
from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass

from . import view as _view  # read through the module: a test may patch side_view

# the modules that register bots, in the order their bots are listed (random first, search last)
BOT_MODULES = ("..bots.core", "..bots.heuristic", "..bots.search")  # relative to this package
BOT_HELP = "random, heuristic-v1, heuristic, search:N, search:Ts"


@dataclass(frozen=True)
class Entry:
    name: str
    factory: Callable  # factory(seed) or, with a budget, factory(seed, budget text)
    budget: Callable | None = None  # budget text -> parsed or None when wrong; None: takes no budget


_ENTRIES: dict[str, Entry] = {}
# name -> factory(seed), the registry as it was read before bots registered themselves (CLI, editor)
BOTS: dict[str, Callable] = {}
_loaded = False


def register_bot(name: str, factory: Callable, budget: Callable | None = None) -> Callable:
    """Make ``factory`` the bot called ``name`` (``name:BUDGET`` too when ``budget`` parses it)."""
    _ENTRIES[name] = Entry(name, factory, budget)
    BOTS[name] = factory
    return factory


def unregister_bot(name: str) -> None:
    """Forget the bot called ``name`` (a test's stand-in, a plugin taken out)."""
    _ENTRIES.pop(name, None)
    BOTS.pop(name, None)


def registry() -> dict[str, Callable]:
    """Every bot by name, their modules imported on the first call."""
    global _loaded
    if not _loaded:
        _loaded = True
        for module in BOT_MODULES:
            importlib.import_module(module, __package__)
    return BOTS


def valid_bot(name: str) -> bool:
    registry()
    base, sep, budget = name.partition(":")
    entry = _ENTRIES.get(base)
    if entry is None:
        return False
    if entry.budget is not None:  # search:99999999999999 would never end: the parser bounds it
        return entry.budget(budget) is not None
    return not sep


def bot_names(value: str, count: int | None = None) -> list[str]:
    """The bots of a comma-separated --bots value; ValueError naming the wrong ones (or the count)."""
    names = value.split(",")
    bad = [n for n in names if not valid_bot(n)]
    if bad:
        raise ValueError(f"unknown bot {', '.join(map(repr, bad))} ({BOT_HELP})")
    if count is not None and len(names) != count:
        raise ValueError(f"--bots takes {count} names separated by commas, not {len(names)}")
    return names


def make_bot(name: str, seed: int = 0):
    """The bot of that name, seated (Seat): it decides on its side's view of the game."""
    if not valid_bot(name):
        raise ValueError(f"unknown bot {name!r} (choose from {BOT_HELP})")
    base, _, budget = name.partition(":")
    entry = _ENTRIES[base]
    return Seat(entry.factory(seed, budget) if entry.budget is not None else entry.factory(seed))


class Seat:
    """A bot at the table: at each decision it is handed its side's view of the game
    (view.side_view), never the game itself, so no bot can reach what its side may not know.
    Everything else (its name, its counters) is the bot's."""

    def __init__(self, bot):
        object.__setattr__(self, "bot", bot)
        object.__setattr__(self, "_copies", _view.ViewCopies())  # the seat's, not the bot's (view.ViewCopies)
        object.__setattr__(self, "_on_demand", not getattr(bot, "reads_game", True))  # asked once, not per decision

    def choose(self, game, actions: list) -> tuple:
        d = self.__dict__
        if d["_on_demand"]:
            return d["bot"].choose(_ViewOnDemand(game, game.side_to_act), actions)
        return d["bot"].choose(_view.side_view(game, game.side_to_act, d["_copies"]), actions)

    def __getattr__(self, name):
        return getattr(self.bot, name)

    def __setattr__(self, name, value):
        setattr(self.bot, name, value)


class _ViewOnDemand:
    """The side's view for a bot that seldom reads it: built (view.side_view) at the first look,
    and then that view answers; a look after the game has moved on is refused."""

    __slots__ = ("_of", "_view")  # _of: (game, side, its actions then); _view unset until the first look

    def __init__(self, game, side: str):
        object.__setattr__(self, "_of", (game, side, len(game.actions)))  # one write: made at every decision

    def _built(self):
        try:
            return object.__getattribute__(self, "_view")
        except AttributeError:
            game, side, at = object.__getattribute__(self, "_of")
            if len(game.actions) != at:
                raise RuntimeError("a view kept past its decision: the game has moved on") from None
            view = _view.side_view(game, side)
            object.__setattr__(self, "_view", view)
            return view

    def __getattr__(self, name):
        return getattr(self._built(), name)

    def __setattr__(self, name, value):
        setattr(self._built(), name, value)
