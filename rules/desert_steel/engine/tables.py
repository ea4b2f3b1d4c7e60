"""The numbers the engine reads from the pack's rule tables (charts are data, §2.4)."""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Mapping

EXPERIENCE = ("green", "seasoned", "veteran")


class RulesError(RuntimeError):
    """The pack lacks a number the engine needs (the message names it)."""


@dataclass(frozen=True)
class Tables:
    raw: Mapping

    def _modifiers(self, kind: str) -> dict[str, float]:
        return {m["id"]: m["value"] for m in self.raw.get(kind, ())}

    def spot(self, key: str) -> float:
        table = self.__dict__.get("_spotting_modifiers")  # read for every spotting modifier: no call on the way
        if table is not None and key in table:
            return table[key]
        return self._get("spotting_modifiers", key)

    def fire(self, key: str) -> float:
        table = self.__dict__.get("_fire_modifiers")
        if table is not None and key in table:
            return table[key]
        return self._get("fire_modifiers", key)

    def morale(self, key: str) -> float:
        return self._get("morale_modifiers", key)

    def _get(self, kind: str, key: str) -> float:
        table = self.__dict__.get(f"_{kind}")
        if table is None:  # built once: this is called for every modifier of every fire
            table = self.__dict__[f"_{kind}"] = self._modifiers(kind)
        if key not in table:
            raise RulesError(f"rule tables: {kind} has no {key!r}")
        return table[key]

    def setting(self, key: str, default=None):
        value = self.raw.get("settings", {}).get(key, default)
        if value is None:
            raise RulesError(f"rule tables: settings has no {key!r}")
        return value

    def crt(self, column: str, total: int) -> str:
        for band in self.raw["combat_results"]["columns"][column]:
            if ("min" not in band or total >= band["min"]) and ("max" not in band or total <= band["max"]):
                return band["result"]
        raise RulesError(f"combat results: no {column} band holds {total}")

    def range_modifier(self, distance: int, indirect: bool = False) -> int:
        for band in self.raw.get("range_modifiers", {}).get("indirect" if indirect else "direct", ()):
            if ("min" not in band or distance >= band["min"]) and ("max" not in band or distance <= band["max"]):
                return band["value"]
        return 0

    def flash_kill(self, experience: str) -> int:
        return self.raw["flash_kill"][experience]

    def stacking(self) -> Mapping:
        return self.raw.get("stacking", {}).get("default", {"units": 6, "vehicles": 3})

    def spotting_number(self, distance: int, cover: bool) -> int:
        divisor = self.setting("spotting_divisor_cover" if cover else "spotting_divisor_open", 2 if cover else 3)
        return math.ceil(distance / divisor)


def hit_value(result: str) -> int | None:
    """X of "hit+X" (0 for "hit"); None for miss or destroyed."""
    if result == "hit":
        return 0
    if result.startswith("hit+"):
        return int(result[4:])
    return None
