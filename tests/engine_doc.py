"""The generated tables of docs/engine.md (``python tests/engine_doc.py`` rewrites them;
tests/test_engine_doc.py fails when one is not current):

- the events the engine logs (``game.log(kind, **fields)``): what each kind holds, from its type
  in engine/outcomes.py (the one place that says it), and from the engine's source the § the
  calls cite (their ``section=``) and the modules that log it; tests/test_engine_doc.py checks
  the calls against the types, tests/test_engine_recorded.py reads every event of the recorded
  games into its type (outcomes.from_json) and back;
- the public queries of Game, with the § their docstrings cite (tests/test_engine_sections.py)."""
from __future__ import annotations

import ast
import inspect
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ENGINE = ROOT / "rules" / "desert_steel" / "engine"
DOC = ROOT / "docs" / "engine.md"
BLOCKS = ("events", "queries")
# the game-playing surface, not a rule: OpenSpiel-like, the pending decision, the log, ask() for tools
NOT_A_RULE = {"legal_actions", "apply", "clone", "current_player", "is_terminal", "returns", "log", "ask",
              "decision", "pending", "mode", "side_to_act", "position"}
SPLAT = "**"  # a call spreads a dict into the event (game-over's result, a fire zone's fields)


def logged_events() -> dict[str, dict]:
    """kind -> {"fields": set, "sections": set, "files": set, "calls": [fields of each call]}; "**"
    in fields when a call spreads a dict. A call is ``x.log("kind", field=...)`` or, on a path too
    hot for that, the event's dict written out: ``events.append({"t": ..., "e": "kind", ...})``.
    A method that logs its own ``**kwargs`` (``_attack(target, ..., **log)``: the fire event of
    spills, fire zones, raids, minefields) is a relay: each call of it counts as a call logging
    the relay's fields and the keywords it is given beyond the relay's parameters."""
    trees = {path: ast.parse(path.read_text(encoding="utf-8")) for path in sorted(ENGINE.rglob("*.py"))}
    relays = {}  # method name -> (kind, [(field, value)] it logs itself, its named parameters)
    for tree in trees.values():
        for fn in ast.walk(tree):
            if isinstance(fn, ast.FunctionDef) and fn.args.kwarg is not None:
                for node in ast.walk(fn):
                    call = _log_call(node)
                    if call and any(name is None and isinstance(v, ast.Name) and v.id == fn.args.kwarg.arg
                                    for name, v in call[1]):
                        named = {a.arg for a in fn.args.args + fn.args.kwonlyargs}
                        relays[fn.name] = (call[0], [(n, v) for n, v in call[1] if n is not None], named)
    out: dict[str, dict] = {}
    for path, tree in trees.items():
        for node in ast.walk(tree):
            call = _log_call(node)
            if call is not None and _relays_own(tree, node, call, relays):
                continue  # counted at each call of the relay
            if call is None and isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                    and node.func.attr in relays:
                kind, own, named = relays[node.func.attr]
                call = kind, own + [(kw.arg, kw.value) for kw in node.keywords if kw.arg not in named]
            if call is None:
                continue
            kind, fields = call
            e = out.setdefault(kind, {"fields": set(), "sections": set(), "files": set(), "calls": []})
            e["files"].add(path.stem)
            e["calls"].append({name or SPLAT for name, _ in fields})
            for name, value in fields:
                e["fields"].add(name or SPLAT)
                if name == "section" and isinstance(value, ast.Constant):
                    e["sections"].add(value.value)
    return out


def _relays_own(tree, node, call, relays) -> bool:
    """Whether ``node`` is a relay's log call spreading the relay's own ``**kwargs``."""
    for fn in ast.walk(tree):
        if isinstance(fn, ast.FunctionDef) and fn.name in relays and any(n is node for n in ast.walk(fn)):
            return any(name is None and isinstance(v, ast.Name) and v.id == fn.args.kwarg.arg for name, v in call[1])
    return False


def _log_call(node) -> tuple[str, list] | None:
    """(kind, [(field or None for a spread dict, value node)]) of an event logged by ``node``."""
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.args):
        return None
    first = node.args[0]
    if node.func.attr == "log" and isinstance(first, ast.Constant) and isinstance(first.value, str):
        return first.value, [(kw.arg, kw.value) for kw in node.keywords]
    if node.func.attr == "append" and isinstance(first, ast.Dict):
        keys = [k.value if isinstance(k, ast.Constant) else None for k in first.keys]
        if "e" in keys and "t" in keys:
            kind = first.values[keys.index("e")]
            if isinstance(kind, ast.Constant) and isinstance(kind.value, str):
                return kind.value, [(k, v) for k, v in zip(keys, first.values) if k not in ("t", "e")]
    return None


def _section_key(s: str):
    return [int(x) for x in re.findall(r"\d+", s)]


def _marks(block: str) -> tuple[str, str]:
    return f"<!-- {block}: begin (python tests/engine_doc.py) -->", f"<!-- {block}: end -->"


def _sections(value: str) -> list[str]:
    return [p if p.startswith("§") else f"§{p}" for p in re.split(r",\s*", value) if p]


def _field(f) -> str:
    """"`unit` str", "`spent`? number" (a field only some events hold: its None is its absence)."""
    import dataclasses
    from sandtable.rules.desert_steel.engine.outcomes import type_name
    if f.default is dataclasses.MISSING:
        return f"`{f.name}` {type_name(f.type)}"
    return f"`{f.name}`? {type_name(f.type).removesuffix(' or null')}"


def events_table() -> str:
    import dataclasses
    from sandtable.rules.desert_steel.engine import outcomes
    logged = logged_events()
    rows = ["| event (`e`) | what it tells | § cited | fields (besides `t`, the turn; `?`: in some events only) "
            "| logged in |", "|---|---|---|---|---|"]
    for kind, cls in sorted(outcomes.KINDS.items()):
        e = logged.get(kind, {"sections": set(), "files": set()})
        fields = ", ".join(_field(f) for f in dataclasses.fields(cls) if f.name not in ("t", "_keys"))
        cited = sorted({p for v in e["sections"] for p in _sections(v)}, key=_section_key)
        what = " ".join((cls.__doc__ or "").split()).replace("``", "`").replace("|", "\\|")
        rows.append(f"| `{kind}` | {what} | {', '.join(cited) or '—'} | {fields or '—'} "
                    f"| {', '.join(sorted(e['files'])) or '—'} |")
    return "\n".join(rows)


def public_members(cls):
    """(name, member) of the public methods and properties of ``cls`` (its bases included)."""
    for name in sorted(dir(cls)):
        if name.startswith("_"):
            continue
        member = inspect.getattr_static(cls, name)
        if isinstance(member, (staticmethod, classmethod)):
            member = member.__func__
        if isinstance(member, property) or inspect.isfunction(member):
            yield name, member


def public_queries():
    """(name, member) of Game's public methods and properties that answer a rule."""
    from sandtable.rules.desert_steel.engine.game import Game
    return [(name, member) for name, member in public_members(Game) if name not in NOT_A_RULE]


def queries_table() -> str:
    from sandtable.rules.desert_steel.engine.game import Game
    rows = ["| query | § | what it answers | in |", "|---|---|---|---|"]
    for name, member in public_queries():
        doc = " ".join((inspect.getdoc(member) or "").split())
        cited = ", ".join(dict.fromkeys(re.findall(r"§\d+(?:\.\d+)?(?:[-–]\d+(?:\.\d+)?)?", doc)))
        first = re.split(r"(?<!e\.g\.)(?<=[.!?])\s+(?=[A-Z`])", doc, maxsplit=1)[0]
        # "§6.5: the activation..." reads "the activation..." (the § has its column)
        first = re.sub(r"^(?:§[\d.]+(?:[-–][\d.]+)?(?: \([^)]*\))?,? (?:and )?)*§[\d.]+(?:[-–][\d.]+)?"
                       r"(?: \([^)]*\))?:\s*", "", first).replace("|", "\\|")
        owner = next(k for k in Game.__mro__ if name in k.__dict__).__module__.rsplit(".", 1)[-1]
        label = f"`{name}`" if isinstance(member, property) else f"`{name}()`"
        rows.append(f"| {label} | {cited} | {first} | {owner} |")
    return "\n".join(rows)


TABLES = {"events": events_table, "queries": queries_table}


def current(block: str) -> str:
    """The block as docs/engine.md holds it."""
    begin, end = _marks(block)
    text = DOC.read_text(encoding="utf-8")
    return text[text.index(begin) + len(begin):text.index(end)].strip("\n")


def rewrite() -> None:
    text = DOC.read_text(encoding="utf-8")
    for block, make in TABLES.items():
        begin, end = _marks(block)
        head, rest = text.split(begin, 1)
        text = head + begin + "\n" + make() + "\n" + end + rest.split(end, 1)[1]
    DOC.write_text(text, encoding="utf-8")


if __name__ == "__main__":
    rewrite()
    sys.exit(0)
