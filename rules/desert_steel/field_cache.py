"""Battlefields for the setup rules, kept between validations.

The editor re-runs the setup rules after every edit, and building a scenario's board and
effective terrain (and the zones its setups are checked against) was most of that time:
14 battlefields rebuilt for an edit that changed none of them. A battlefield's board,
terrain and zones depend only on the documents read here — the maps of the scenario's
configuration, the configuration's layout and north, the terrain-effects table and the
scenario's terrain conditions (relief, zone, urbanization, road network, level overrides) — so they are kept under a digest
of exactly that content: editing any of those documents makes a new key (the old entry
ages out of the bounded cache), editing anything else reuses the board.

Visibility, rule tables and the scenario object are not cached: each call makes a new
Battlefield around the cached board, terrain and zone memo, so a change of visibility or
of the rule tables' settings is always seen.
"""
from __future__ import annotations

import hashlib
import json
import threading
from collections import OrderedDict
from typing import Mapping

from .battlefield import Battlefield, _thaw, visibility_on
from .model import DesertSteel, Scenario

# Scenarios of a big pack times a few versions being edited; each entry is a board and its
# terrain (a few hundred kB to a few MB for a four-map board): bounded so that an editing
# session cannot grow it without limit.
MAX_ENTRIES = 32
TERRAIN_CONDITIONS = ("relief", "zone", "urbanization", "road_network")

_lock = threading.Lock()
_cache: "OrderedDict[str, tuple]" = OrderedDict()  # key -> (board, terrain, zones memo)


def _digest(value) -> str:
    text = json.dumps(value, sort_keys=True, separators=(",", ":"), default=_thaw)
    return hashlib.blake2b(text.encode(), digest_size=16).hexdigest()


def geometry_key(model: DesertSteel, scenario: Scenario, digests: dict | None = None) -> str:
    """Digest of everything ``Battlefield.for_scenario`` reads to build the board, terrain and
    zones. ``digests``: a memo of document digests by identity, for one pass over many
    scenarios sharing maps (the documents must stay alive meanwhile)."""
    memo = {} if digests is None else digests

    def doc(value) -> str:
        if value is None:
            return "-"
        d = memo.get(id(value))
        if d is None or d[0] is not value:
            d = memo[id(value)] = (value, _digest(value))
        return d[1]

    conf = scenario.configuration
    raw = scenario.raw
    parts = {
        "configuration": [conf.id, conf.north, conf.layout_ids],
        "maps": {m.id: doc(m.raw) for m in conf.maps},
        "terrain_effects": doc(model.terrain_effects),
        # Conditions.of_scenario reads these four conditions and the level-override special
        # rules (turns and visibility are not part of the board: a Turns edit reuses it)
        "conditions": _digest({k: raw["conditions"].get(k) for k in TERRAIN_CONDITIONS}),
        "overrides": _digest([r for r in raw.get("special_rules", ()) if r.get("type") == "level-override"]),
    }
    return _digest(parts)


def battlefield(model: DesertSteel, scenario: Scenario, turn: int = 1, digests: dict | None = None) -> Battlefield:
    """The scenario's battlefield on ``turn``, its board, terrain and zones reused when their
    documents are unchanged. Raises what ``Battlefield.for_scenario`` raises (BoardError...)."""
    key = geometry_key(model, scenario, digests)
    with _lock:
        hit = _cache.get(key)
        if hit is not None:
            _cache.move_to_end(key)
    if hit is None:
        built = Battlefield.for_scenario(model, scenario, turn)
        hit = (built.board, built.terrain, built._zones)
        with _lock:
            _cache[key] = hit
            _cache.move_to_end(key)
            while len(_cache) > MAX_ENTRIES:
                _cache.popitem(last=False)
    board, terrain, zones = hit
    return Battlefield(board, terrain, visibility_on(scenario, turn), model.rule_tables or {}, scenario,
                       _zones=zones)


def clear() -> None:
    with _lock:
        _cache.clear()


def size() -> int:
    return len(_cache)
