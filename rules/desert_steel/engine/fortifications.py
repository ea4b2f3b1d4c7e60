"""Fortifications: entrenchments (§13.4).

A part of :class:`Game` (see game.py): the methods use its state and dice."""
from __future__ import annotations

from typing import Mapping
from .state import Unit
from .context import EngineError


class FortificationsMixin:
    def _make_fortifications(self, side: str, data: Mapping) -> None:
        """§18.4: empty entrenchments the setup places; other fortifications are not played yet."""
        for fort in data.get("fortifications", ()):
            if fort["type"] != "entrenchment":
                raise EngineError(f"{fort['type']} (§15.2-15.3) is not implemented yet")
            self.state.entrenchments.append({"hex": self.ctx.field.board.resolve(fort["hex"]), "occupant": None,
                                             "done": True, "turn": 0})
        if data.get("minefields"):
            raise EngineError("minefields (§15.1) are not implemented yet")

    def _entrenchment(self, u: Unit) -> dict | None:
        return next((e for e in self.state.entrenchments if e["occupant"] == u.id), None)

    def _entrenched(self, u: Unit) -> bool:
        e = self._entrenchment(u) if self.state.entrenchments else None
        return bool(e and e["done"])

    def _may_entrench(self, u: Unit) -> bool:
        """§13.4-13.41: an active non-vehicle not yet entrenched, in a hex without enemy units,
        outside rocky ground, with fewer than six entrenchments (minefields: not played yet)."""
        if not self.ctx.advanced or u.type.is_vehicle or not u.ready:
            return False
        own = self._entrenchment(u)
        if own is not None:
            return not own["done"] and own["turn"] < self.state.turn
        if not self.ctx.field.terrain.entrenchment_allowed:
            return False
        if any(e.side != u.side and not e.hidden for e in self.state.at(u.hex)):
            return False
        here = [e for e in self.state.entrenchments if e["hex"] == u.hex]
        empty = any(e["done"] and e["occupant"] is None for e in here)
        return empty or len(here) < self.ctx.tables.setting("entrenchments_per_hex", 6)

    def _entrench(self, u: Unit) -> None:
        own = self._entrenchment(u)
        if own is not None:  # the second operation, on a later turn: entrenched
            own["done"] = True
            self.log("entrenched", unit=u.id, hex=u.hex, section="13.4")
            return
        empty = next((e for e in self.state.entrenchments
                      if e["hex"] == u.hex and e["done"] and e["occupant"] is None), None)
        if empty is not None:  # an entrenchment left by another unit: occupied at once
            empty["occupant"] = u.id
            self.log("entrenched", unit=u.id, hex=u.hex, reoccupied=True, section="13.41")
            return
        self.state.entrenchments.append({"hex": u.hex, "occupant": u.id, "done": False, "turn": self.state.turn})
        self.log("entrenching", unit=u.id, hex=u.hex, section="13.4")

    def _leave_entrenchment(self, u: Unit, destroyed: bool = False) -> None:
        """Entrenchments never move (§13.41): a finished one stays empty when its unit leaves, an
        unfinished one is abandoned; one whose unit is destroyed is removed (§13.42)."""
        e = self._entrenchment(u) if self.state.entrenchments else None
        if e is None:
            return
        if e["done"] and not destroyed:
            e["occupant"] = None
        else:
            self.state.entrenchments.remove(e)
            self.log("entrenchment-removed", hex=e["hex"], unit=u.id, section="13.42" if destroyed else "13.41")

    # --- indirect fire (§13.2) -------------------------------------------------------------
