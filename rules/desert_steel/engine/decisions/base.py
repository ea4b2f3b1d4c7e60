"""The questions the game asks a player, as values.

A pending decision is a frozen dataclass: what the question is about lives in its fields
(never in a shared working dict), ``legal(game)`` lists the answers, ``apply(game, action)``
carries one out. The game holds a stack of them (an activation under a move under an
opportunity-fire question...): ``game.decision`` is the top, ``game.pending`` the stack. A
decision that changes (a move's spent MP) is replaced by a new value (``dataclasses.replace``),
so clones and side views share the stack as it is."""
from __future__ import annotations

from dataclasses import MISSING, dataclass, fields, replace
from typing import ClassVar

from ..actions import Action  # ("pass",), ("step", hex)...: typed tuples, one type per kind


@dataclass(frozen=True, slots=True)
class Decision:
    """``side``: who answers. ``kind``: the name the logs, bots and ``game.mode`` use."""

    side: str
    kind: ClassVar[str] = ""

    # Every kind answers ``legal(game) -> list[Action]`` and ``apply(game, action)`` itself: a kind
    # lacking one is refused when its class is made (not when a game first asks it).
    # (no super() call: slots=True remakes the class, and object's hook takes nothing anyway)
    def __init_subclass__(cls):
        missing = [name for name in ("legal", "apply") if not callable(getattr(cls, name, None))]
        if missing:
            raise TypeError(f"decision {cls.__name__} (kind {cls.kind!r}) has no {' and no '.join(missing)}")
        if "__slots__" in cls.__dict__ and "__dataclass_fields__" in cls.__dict__:  # the slotted remake
            cls.__init__ = _slot_init(cls)

    def seen_by(self, side: str) -> "Decision":
        """This decision as ``side`` may know it (a side view): the same value, unless it holds
        something of the other side that is secret (an interrupt it declared): a kind that holds
        a secret overrides this (the views check for the override, view._SEEN_AS_IS)."""
        return self

    def about(self) -> dict:
        """The fields but ``side``, by name (diagnostics, reports)."""
        return {f.name: getattr(self, f.name) for f in fields(self) if f.name != "side"}


def _slot_init(cls):
    """``cls``'s __init__ as dataclass makes it, but setting each slot through its descriptor
    instead of ``object.__setattr__`` (a frozen dataclass's way round its own __setattr__): half
    the cost, and the engine makes a decision value at every step of a move (a Move has 11
    fields). Kept as dataclass made it when a field has a factory, is not in __init__, or the
    class has a __post_init__."""
    fs = fields(cls)
    if hasattr(cls, "__post_init__") or any(not f.init or f.default_factory is not MISSING for f in fs):
        return cls.__init__
    env, params = {}, []
    for f in fs:
        env[f"_set_{f.name}"] = getattr(cls, f.name).__set__  # the slot's member descriptor
        if f.default is MISSING:
            params.append(f.name)
        else:
            env[f"_default_{f.name}"] = f.default
            params.append(f"{f.name}=_default_{f.name}")
    source = f"def __init__(self, {', '.join(params)}):\n" + \
        "".join(f"    _set_{f.name}(self, {f.name})\n" for f in fs)
    exec(source, env)
    init = env["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    return init


class Replacer(dict):
    """``dataclasses.replace`` for a few fields named once, at ``replacer(*names)``'s call, and
    made for each decision class on first use: ``r[type(d)](d, *values)`` is ``replace(d,
    **dict(zip(names, values)))``, every other field carried over by name (a field added later
    keeps its value, and a subclass stays itself). Built as code setting each slot through its
    descriptor, as ``_slot_init`` does: a move's step makes one, and ``replace`` costs three times
    as much as the class's own __init__ (a Move's step this way: 0.55 µs, by its __init__ with
    every field by position 0.51, by replace 1.7)."""

    def __init__(self, names: tuple[str, ...]):
        super().__init__()
        self.names = names

    def __missing__(self, cls):
        fs = fields(cls)
        unknown = set(self.names) - {f.name for f in fs}
        if unknown:
            raise TypeError(f"{cls.__name__} has no field {', '.join(sorted(unknown))}")
        if hasattr(cls, "__post_init__") or "__slots__" not in cls.__dict__:
            names = self.names
            made = lambda d, *values: replace(d, **dict(zip(names, values)))  # noqa: E731 (rare: kept exact)
        else:
            env = {"_new": object.__new__, "_cls": cls}
            for f in fs:
                env[f"_set_{f.name}"] = getattr(cls, f.name).__set__
            source = f"def replaced(self, {', '.join(self.names)}):\n    new = _new(_cls)\n" + "".join(
                f"    _set_{f.name}(new, {f.name if f.name in self.names else 'self.' + f.name})\n" for f in fs) + \
                "    return new\n"
            exec(source, env)
            made = env["replaced"]
        self[cls] = made
        return made


def replacer(*names: str) -> Replacer:
    return Replacer(names)
