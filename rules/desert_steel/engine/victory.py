"""Victory (§18.8): the scenario's structured expression evaluated on a finished game."""
from __future__ import annotations

from typing import Mapping

from .state import DESTROYED, EXITED, ON_MAP


class VictoryError(RuntimeError):
    """An expression the engine cannot evaluate yet (the message names it)."""


def exit_counts_as_loss(exits: Mapping, side: str, edge: str, map_id: str) -> bool:
    """Whether leaving the map by this edge counts as a loss for morale and victory (§8.4).

    A scenario silent about an exit counts it as a loss: §8.4 warns that in many scenarios
    units leaving the map count as destroyed (see NOTES.md)."""
    for rule in exits.get("rules", ()):
        if rule["side"] in (side, "both") and rule["edge"] == edge and rule.get("map", map_id) == map_id:
            return rule["counts_as_loss"]
    return exits.get("otherwise_counts_as_loss", True)


def _matches(game, u, f: Mapping) -> bool:
    t = u.type
    if "side" in f and u.side != f["side"]:
        return False
    if "nationality" in f and t.nationality not in f["nationality"]:
        return False
    if "class" in f and t.unit_class not in f["class"]:
        return False
    if "exclude_class" in f and t.unit_class in f["exclude_class"]:
        return False
    if "types" in f and t.id not in f["types"]:
        return False
    if "exclude_types" in f and t.id in f["exclude_types"]:
        return False
    if "cards" in f and u.card not in f["cards"]:
        return False
    if "motorized" in f and _motorized(t) != f["motorized"]:
        return False
    return True


def _motorized(t) -> bool:
    """Printed movement points, scenario transports aside (trucks, motorcycles, half-tracks: XI's
    "unité motorisée (hors camions)"); a formation's Carriers and Jeeps (§13.32) are motorized units."""
    return t.movement is not None and (t.unit_class != "transport" or t.formation_transport)


def count(game, spec: Mapping) -> int:
    event = spec["event"]
    zone = game.ctx.field.zone(spec["zone"]) if "zone" in spec else None
    n = 0
    for u in game.state.units.values():
        if u.card < 0:
            continue  # §13.31: scenario transports never count for victory
        if not _matches(game, u, spec.get("units", {})):
            continue
        fate = u.fate or {}
        if "by_turn" in spec and fate.get("turn", 0) > spec["by_turn"]:
            continue
        if event == "destroyed":
            ok = u.status == DESTROYED
        elif event == "eliminated":
            ok = u.status == DESTROYED or (u.status == EXITED and fate.get("counts_as_loss"))
        elif event == "exited":
            ok = u.status == EXITED and fate.get("edge") == spec.get("edge", fate.get("edge")) \
                and fate.get("map") == spec.get("map", fate.get("map"))
        elif event == "on-map":
            ok = u.status == ON_MAP and ("map" not in spec or game.ctx.field.board.cells[u.hex].map_id == spec["map"])
        elif event == "in-zone":
            ok = u.status == ON_MAP and zone is not None and u.hex in zone
            if ok and spec.get("ready_only"):
                ok = not u.suppressed and not game.state.formations[u.card].shaken
        else:
            raise VictoryError(f"unknown event {event!r}")
        if ok and zone is not None and event != "in-zone":
            ok = u.hex in zone if u.hex else False
        n += ok
    return n


def _number(game, node, side: str, terms: dict, cache: dict) -> float:
    if isinstance(node, (int, float)):
        return node
    op, arg = next(iter(node.items()))
    if op == "count":
        return count(game, arg)
    if op == "points":
        return _points(game, arg, terms, cache)
    if op == "term":
        return _term(game, side, arg, terms, cache)
    values = [_number(game, n, side, terms, cache) for n in arg]
    if op == "sum":
        return sum(values)
    if op == "sub":
        return values[0] - values[1]
    if op == "mul":
        out = 1
        for v in values:
            out *= v
        return out
    if op == "min":
        return min(values)
    if op == "max":
        return max(values)
    raise VictoryError(f"unknown number operator {op!r}")


def _term(game, side, term_id, terms, cache) -> float:
    key = (side, term_id)
    if key not in cache:
        term = next((t for t in terms.get(side, ()) if t["id"] == term_id), None)
        if term is None:
            raise VictoryError(f"no term {term_id!r} for {side}")
        cache[key] = _number(game, term["value"], side, terms, cache)
    return cache[key]


def _points(game, side, terms, cache) -> float:
    return sum(_term(game, side, t["id"], terms, cache) for t in terms.get(side, ()))


def _condition(game, node, terms, cache) -> bool:
    op, arg = next(iter(node.items()))
    if op == "cmp":
        a, rel, b = arg
        x, y = _number(game, a, "", terms, cache), _number(game, b, "", terms, cache)
        return {"<": x < y, "<=": x <= y, "==": x == y, "!=": x != y, ">=": x >= y, ">": x > y}[rel]
    if op == "and":
        return all(_condition(game, n, terms, cache) for n in arg)
    if op == "or":
        return any(_condition(game, n, terms, cache) for n in arg)
    if op == "not":
        return not _condition(game, arg, terms, cache)
    if op == "path_exists":
        return path_exists(game, arg)
    raise VictoryError(f"unknown condition {op!r}")


def path_exists(game, arg: Mapping) -> bool:
    """Tebourba's corridor (scenario XIV): a chain of adjacent usable hexes from the ``from`` zone to
    the ``to`` zone, each hex out of range of fire, beyond the visibility and out of the line of sight
    of every enemy unit on the map (``outside_enemy`` names which of the three apply; NOTES.md)."""
    field = game.ctx.field
    board = field.board
    start, goal = field.zone(arg["from"]), field.zone(arg["to"])
    enemies = [u for u in game.state.units.values() if u.side != arg["side"] and u.status == ON_MAP and u.hex]
    outside = set(arg.get("outside_enemy", ()))
    vis = game.state.visibility
    memo: dict = {}

    def clear(h: str) -> bool:
        if h not in memo:
            memo[h] = True
            for e in enemies:
                d = board.distance(e.hex, h)
                reach = max(e.type.range or 0, e.type.anti_vehicle_range or 0)
                if ("range" in outside and d <= reach) or ("visibility" in outside and d <= vis) or \
                        ("line-of-sight" in outside and (d == 0 or game.visible(e.hex, h))):
                    memo[h] = False
                    break
        return memo[h]

    frontier = [h for h in start if h in board.usable and clear(h)]
    seen = set(frontier)
    while frontier:
        h = frontier.pop()
        if h in goal:
            return True
        for n in board.neighbours(h):
            if n not in seen and n in board.usable and clear(n):
                seen.add(n)
                frontier.append(n)
    return False


_OPS = {">=": "≥", "<=": "≤", "==": "=", "!=": "≠"}


def describe(node) -> str:
    """A victory condition in words, for results a designer reads ("axis points ≥ 15")."""
    if isinstance(node, (int, float)):
        return str(node)
    if not isinstance(node, Mapping) or len(node) != 1:  # the model's read-only mappings too
        return "?"
    (key, arg), = tuple(node.items())
    if key == "cmp":
        return f"{describe(arg[0])} {_OPS.get(arg[1], arg[1])} {describe(arg[2])}"
    if key in ("and", "or"):
        return f" {key} ".join(describe(x) for x in arg)
    if key == "not":
        return f"not ({describe(arg)})"
    if key == "points":
        return f"{arg} points"
    if key in ("sub", "add", "mul"):
        sign = {"sub": " − ", "add": " + ", "mul": " × "}[key]
        return "(" + sign.join(describe(x) for x in arg) + ")"
    if key == "count":
        return _describe_count(arg)
    if key == "path_exists":
        return f"a path for the {arg.get('side', '?')} out of the enemy's reach"
    return key


def _describe_count(arg: Mapping) -> str:
    units = arg.get("units", {})
    event = arg.get("event", "")
    words = [units.get("side", ""), "/".join(units.get("nationality", ())), "/".join(units.get("types", ())),
             "units", "" if event == "on-map" and arg.get("map") else event]
    if units.get("exclude_class"):
        words.append("except " + "/".join(units["exclude_class"]))
    if arg.get("edge"):
        words.append(f"by the {arg['edge']} edge")
    if arg.get("map"):
        words.append(f"on map {arg['map']}")
    return " ".join(w for w in words if w)


def evaluate(game) -> dict:
    victory = game.ctx.scenario.raw["victory"]
    expression = victory.get("expression")
    if expression is None:  # VI: nothing printed, so no condition holds: a draw, as when none applies (III)
        return {"winner": "draw", "level": None, "points": {"allied": 0, "axis": 0}, "terms": {},
                "cause": f"no victory conditions: {victory.get('unresolved') or 'none given'}"}
    terms = expression.get("points", {})
    cache: dict = {}
    points = {side: _points(game, side, terms, cache) for side in ("allied", "axis")}
    for i, outcome in enumerate(expression["outcomes"]):
        if _condition(game, outcome["when"], terms, cache):
            result = outcome["result"]
            cause = f"outcome {i + 1} ({describe(outcome['when'])})"
            break
    else:
        result, cause = expression["otherwise"], "otherwise"
    return {"winner": result["winner"], "level": result.get("level"), "points": points, "cause": cause,
            "terms": {f"{s}:{t}": v for (s, t), v in cache.items() if s}}


def points(game, side: str, terms: Mapping, cache: dict | None = None) -> float:
    """The side's points under the scenario's point terms (``cache``: terms already counted, shared
    by calls on the same position), for the bots that weigh a move by its effect on the score."""
    return _points(game, side, terms, {} if cache is None else cache)


def matches(game, unit, spec_units: Mapping) -> bool:
    """Whether a victory count's unit filter counts this unit."""
    return _matches(game, unit, spec_units)
