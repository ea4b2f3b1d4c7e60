"""The engine's one error, below everything else in the engine: the preflight asks the
scenario rules' own checks and catches it without importing the game's context."""
from __future__ import annotations


class EngineError(RuntimeError):
    """A game that cannot be played or an action that is not legal (the message says why)."""
