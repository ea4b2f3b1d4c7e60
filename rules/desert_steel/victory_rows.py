"""Victory conditions as rows a form edits, and as the sentences a rulebook prints.

A scenario's victory expression (``schemas/desert-steel/expressions.schema.json``) is read as
rows of the common kinds — points per unit counted, a side winning when a count or its points
pass a number, "otherwise" — and written back from them. What the rows cannot say (and/or of
several conditions, a path, a minimum of terms) stays a ``custom`` row, kept as it is, shown
by its sentence and edited as JSON. ``sentences`` words the whole expression the way the
scenario sheet's prose does ("The Axis player wins if 8 or more German units are on map B…").
No Qt here: the editor's form (``editor/desert_steel/forms/victory.py``) only lays these rows out.
"""
from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any

SIDES = ("allied", "axis")
EVENTS = ("destroyed", "eliminated", "exited", "on-map", "in-zone")
OPS = (">=", ">", "<=", "<", "==", "!=")
NATIONS = ("german", "italian", "british", "us")
EDGES = ("north", "east", "south", "west")
SIDE_NAME = {"allied": "Allied", "axis": "Axis"}
NATION_NAME = {"german": "German", "italian": "Italian", "british": "British", "us": "US"}


@dataclass
class Count:
    """Units counted at the end of the game: whose, which, and what happened to them."""
    event: str = "destroyed"
    side: str = "axis"
    nationality: list[str] = field(default_factory=list)
    types: list[str] = field(default_factory=list)
    exclude_class: list[str] = field(default_factory=list)
    edge: str = ""
    map: str = ""
    zone: Any = None
    by_turn: int = 0

    @classmethod
    def read(cls, node) -> "Count | None":
        """The count of a ``{"count": …}`` node, or None for what the rows do not edit."""
        if not isinstance(node, dict) or set(node) != {"count"} or not isinstance(node["count"], dict):
            return None
        c = node["count"]
        units = c.get("units") or {}
        if set(c) - {"event", "units", "edge", "map", "zone", "by_turn"} or \
                set(units) - {"side", "nationality", "types", "exclude_class"} or c.get("event") not in EVENTS:
            return None
        return cls(c["event"], units.get("side", ""), list(units.get("nationality", ())), list(units.get("types", ())),
                   list(units.get("exclude_class", ())), c.get("edge", ""), c.get("map", ""),
                   copy.deepcopy(c.get("zone")), int(c.get("by_turn") or 0))

    def node(self) -> dict:
        units = {k: v for k, v in (("side", self.side), ("nationality", self.nationality), ("types", self.types),
                                   ("exclude_class", self.exclude_class)) if v}
        c: dict = {"event": self.event}
        if units:
            c["units"] = units
        if self.event == "exited" and self.edge:
            c["edge"] = self.edge
        if self.event in ("exited", "on-map") and self.map:
            c["map"] = self.map
        if self.event == "in-zone" and self.zone is not None:
            c["zone"] = self.zone
        if self.by_turn:
            c["by_turn"] = self.by_turn
        return {"count": c}

    def units_text(self, plural: bool = True) -> str:
        # "Italian units", not "Axis Italian units": a nationality names its side
        words = [] if self.nationality else [SIDE_NAME.get(self.side, "")]
        words.append("/".join(NATION_NAME.get(n, n) for n in self.nationality))
        words.append("/".join(self.types))
        words.append("units" if plural else "unit")
        text = " ".join(w for w in words if w)
        if self.exclude_class:
            text += " (not " + ", ".join(c.replace("-", " ") for c in self.exclude_class) + ")"
        return text

    def happened(self, plural: bool = True) -> str:
        """What happened to them, as a verb phrase ("are destroyed", "leave by the south edge of map B")."""
        are = "are" if plural else "is"
        if self.event in ("destroyed", "eliminated"):
            text = f"{are} {self.event}"
        elif self.event == "exited":
            text = "leave the map" if plural else "leaves the map"
            if self.edge:
                text += f" by the {self.edge} edge"
                if self.map:
                    text += f" of map {self.map}"
        elif self.event == "on-map":
            text = f"{are} on map {self.map}" if self.map else f"{are} still on the map"
        else:
            text = f"{are} in {zone_text(self.zone)}"
        if self.by_turn:
            text += f" by the end of turn {self.by_turn}"
        return text


def zone_text(zone) -> str:
    if isinstance(zone, dict) and isinstance(zone.get("hexes"), list):
        hexes = zone["hexes"]
        return ("hex " if len(hexes) == 1 else "hexes ") + ", ".join(hexes)
    if isinstance(zone, dict) and "near_edge" in zone:
        e = zone["near_edge"]
        where = f" of map {e['map']}" if e.get("map") else ""
        return f"the {e.get('within')} hexes along the {e.get('edge')} edge{where}"
    return "the zone"


@dataclass
class Row:
    """One line of the form. ``kind``: points (a side scores ``value`` per unit counted), win-count
    (``winner`` wins if the count ``op`` ``value``), win-points (``winner`` wins if ``side``'s points
    ``op`` ``value``, or the other side's points when ``versus``), otherwise, custom (``raw``)."""
    kind: str
    side: str = "axis"
    winner: str = "axis"
    level: str = ""
    count: Count = field(default_factory=Count)
    op: str = ">="
    value: float = 1
    versus: bool = False
    label: str = ""
    term_id: str = ""
    raw: Any = None


def _num(x) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool)


def _per_unit(value) -> tuple[float, Count] | None:
    """``count`` or ``{"mul": [N, count]}`` (either order): N points per unit counted."""
    c = Count.read(value)
    if c is not None:
        return 1, c
    if isinstance(value, dict) and set(value) == {"mul"} and isinstance(value["mul"], list) and len(value["mul"]) == 2:
        a, b = value["mul"]
        if _num(a) and Count.read(b):
            return a, Count.read(b)
        if _num(b) and Count.read(a):
            return b, Count.read(a)
    return None


def _result(r: dict) -> tuple[str, str]:
    return r.get("winner", "draw"), r.get("level", "")


def rows(expression) -> list[Row]:
    """The expression as rows (an empty expression: no rows but "otherwise: draw")."""
    expression = expression if isinstance(expression, dict) else {}
    out: list[Row] = []
    for side in SIDES:
        for term in (expression.get("points") or {}).get(side, ()):
            per = _per_unit(term.get("value"))
            if per is not None:
                out.append(Row("points", side=side, value=per[0], count=per[1], label=term.get("label", ""),
                               term_id=term.get("id", "")))
            else:
                out.append(Row("custom", side=side, raw={"term": copy.deepcopy(term)}))
    for outcome in expression.get("outcomes", ()):
        winner, level = _result(outcome.get("result", {}))
        when = outcome.get("when")
        cmp = when.get("cmp") if isinstance(when, dict) and set(when) == {"cmp"} else None
        if isinstance(cmp, list) and len(cmp) == 3 and cmp[1] in OPS:
            left, op, right = cmp
            c = Count.read(left)
            if c is not None and _num(right):
                out.append(Row("win-count", winner=winner, level=level, count=c, op=op, value=right))
                continue
            if isinstance(left, dict) and set(left) == {"points"}:
                if _num(right):
                    out.append(Row("win-points", winner=winner, level=level, side=left["points"], op=op, value=right))
                    continue
                if isinstance(right, dict) and set(right) == {"points"} and right["points"] != left["points"]:
                    out.append(Row("win-points", winner=winner, level=level, side=left["points"], op=op, versus=True))
                    continue
        out.append(Row("custom", winner=winner, level=level, raw={"outcome": copy.deepcopy(outcome)}))
    winner, level = _result(expression.get("otherwise") or {"winner": "draw"})
    out.append(Row("otherwise", winner=winner, level=level))
    return out


def _result_node(row: Row) -> dict:
    r = {"winner": row.winner}
    if row.level and row.winner != "draw":
        r["level"] = row.level
    return r


def _number(v: float):
    return int(v) if float(v).is_integer() else v


def expression(rows_: list[Row], keep: dict | None = None) -> dict:
    """The expression the rows say (``keep``: the one they were read from, for what they do not
    hold, such as ``checked``)."""
    out: dict = {}
    if keep and "checked" in keep:
        out["checked"] = keep["checked"]
    points: dict = {}
    used_ids: set[str] = set()
    for row in rows_:
        if row.kind == "points":
            value = row.count.node() if row.value == 1 else {"mul": [_number(row.value), row.count.node()]}
            tid = row.term_id or _term_id(row, used_ids)
            used_ids.add(tid)
            points.setdefault(row.side, []).append(
                {"id": tid, "label": row.label or points_label(row), "value": value})
        elif row.kind == "custom" and row.raw and "term" in row.raw:
            used_ids.add(row.raw["term"].get("id", ""))
            points.setdefault(row.side, []).append(copy.deepcopy(row.raw["term"]))
    if points:
        out["points"] = {s: points[s] for s in SIDES if s in points}
    outcomes = []
    otherwise = {"winner": "draw"}
    for row in rows_:
        if row.kind == "win-count":
            outcomes.append({"when": {"cmp": [row.count.node(), row.op, _number(row.value)]},
                             "result": _result_node(row)})
        elif row.kind == "win-points":
            other = {"points": "axis" if row.side == "allied" else "allied"}
            right = other if row.versus else _number(row.value)
            outcomes.append({"when": {"cmp": [{"points": row.side}, row.op, right]},
                             "result": _result_node(row)})
        elif row.kind == "custom" and row.raw and "outcome" in row.raw:
            outcomes.append(copy.deepcopy(row.raw["outcome"]))
        elif row.kind == "otherwise":
            otherwise = _result_node(row)
    out["outcomes"] = outcomes
    out["otherwise"] = otherwise
    return out


def _term_id(row: Row, used: set[str]) -> str:
    base = f"{row.count.side or 'units'}-{row.count.event}"
    tid, n = base, 2
    while tid in used:
        tid, n = f"{base}-{n}", n + 1
    return tid


def points_label(row: Row) -> str:
    return f"{_number(row.value)} per {row.count.units_text(False)} {row.count.happened(False).replace('is ', '')}"


# --- sentences ---------------------------------------------------------------------------

def _player(side: str) -> str:
    return f"the {SIDE_NAME.get(side, side)} player"


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def _amount(op: str, n) -> str:
    n = _number(n)
    return {">=": f"{n} or more", ">": f"more than {n}", "<=": f"{n} or fewer", "<": f"fewer than {n}",
            "==": f"exactly {n}", "!=": f"any number but {n}"}[op]


def _wins(row: Row) -> str:
    if row.winner == "draw":
        return "the game is a draw"
    level = f" a {row.level} victory" if row.level else ""
    return f"{_player(row.winner)} wins{level}"


def sentence(row: Row) -> str:
    """One row as a sentence of the scenario sheet's kind."""
    if row.kind == "points":
        verb, n = ("loses", -row.value) if row.value < 0 else ("scores", row.value)
        return f"{_cap(_player(row.side))} {verb} {_number(n)} point" + ("s" if n != 1 else "") + \
            f" per {row.count.units_text(False)} that {row.count.happened(False)}."
    if row.kind == "win-count":
        return f"{_cap(_wins(row))} if {_amount(row.op, row.value)} {row.count.units_text()} " \
               f"{row.count.happened()}."
    if row.kind == "win-points":
        whose = f"{SIDE_NAME.get(row.side, row.side)} player's"
        if row.versus:
            other = SIDE_NAME["axis" if row.side == "allied" else "allied"]
            rel = {">": "exceed", ">=": "equal or exceed", "<": "fall short of", "<=": "do not exceed",
                   "==": "equal", "!=": "differ from"}[row.op]
            return f"{_cap(_wins(row))} if the {whose} points {rel} the {other} player's."
        return f"{_cap(_wins(row))} if the {whose} points total {_amount(row.op, row.value)}."
    if row.kind == "otherwise":
        return f"Otherwise {_wins(row)}."
    from .engine.victory import describe  # the engine's own words for what the rows do not hold
    if row.raw and "term" in row.raw:
        term = row.raw["term"]
        return f"{_cap(_player(row.side))} scores {term.get('label') or describe(term.get('value'))}."
    outcome = (row.raw or {}).get("outcome", {})
    return f"{_cap(_wins(row))} if {describe(outcome.get('when'))}."


def sentences(expression) -> str:
    """The whole expression in words: points first, then the outcomes in the order tried."""
    return " ".join(sentence(r) for r in rows(expression))
