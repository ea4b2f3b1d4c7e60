"""The bots use the engine's public surface only (issue #30): no module of rules/desert_steel/bots/
reads a private attribute of an object other than itself (``game._x``, ``board._axials``,
``field.__dict__``, ``getattr(game, "_x")``) or imports a private name from another package
(``from ..engine.fire import _x``). The bots' own classes may share their internals within
the package (the search bot drives the heuristic it wraps): a private name some bots class
defines may be read on another bots object, unless the engine or the rules define the same
name (then nobody could tell whose it is)."""
from __future__ import annotations

import ast
from pathlib import Path

import sandtable.rules as rules_package

RULES = Path(rules_package.__file__).parent
BOTS = RULES / "desert_steel" / "bots"
# the special names that reach past an object's own attributes (``__getitem__`` and the like do not)
BACKDOORS = frozenset({"__dict__", "__setattr__", "__getattribute__", "__delattr__", "__slots__"})
ATTRIBUTE_CALLS = frozenset({"getattr", "hasattr", "setattr", "delattr"})


def _private(name: str) -> bool:
    if name.startswith("__") and name.endswith("__"):
        return name in BACKDOORS
    return name.startswith("_")


def _defined_private(tree: ast.AST) -> set[str]:
    """The private attribute names a module defines: methods, class attributes and fields,
    ``self._x = ...`` assignments, keys of a table of methods."""
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef):
            for item in node.body:
                if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    names.add(item.name)
                elif isinstance(item, ast.Assign):
                    names.update(t.id for t in item.targets if isinstance(t, ast.Name))
                elif isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name):
                    names.add(item.target.id)
        elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store) \
                and isinstance(node.value, ast.Name) and node.value.id == "self":
            names.add(node.attr)
        elif isinstance(node, ast.Dict):  # a table of methods set on classes (bots.tactics.SHARED)
            names.update(k.value for k in node.keys if isinstance(k, ast.Constant) and isinstance(k.value, str))
    return {n for n in names if _private(n)}


def _modules(root: Path) -> dict[Path, ast.AST]:
    return {p: ast.parse(p.read_text(), str(p)) for p in sorted(root.rglob("*.py"))}


def _bots_and_others() -> tuple[dict, set, set]:
    bots = _modules(BOTS)
    others = {p: t for p, t in _modules(RULES).items() if BOTS not in p.parents}
    ours = set().union(*(_defined_private(t) for t in bots.values()))
    theirs = set().union(*(_defined_private(t) for t in others.values()))
    return bots, ours - theirs, theirs


def _own_receiver(node: ast.AST, classes: set[str]) -> bool:
    if isinstance(node, ast.Name):
        return node.id in ("self", "cls") or node.id in classes
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "super"


def violations(tree: ast.AST, path: Path, shared: set[str]) -> list[str]:
    """Where a module reads another object's private attribute or imports a private name from
    outside the bots package."""
    classes = {n.name for n in ast.walk(tree) if isinstance(n, ast.ClassDef)}
    found = []
    for node in ast.walk(tree):
        where = f"{path.relative_to(RULES.parent)}:{getattr(node, 'lineno', '?')}"
        if isinstance(node, ast.ImportFrom):
            outside = node.level != 1  # `.x` is in the bots package; `..x` and absolute are not
            for alias in node.names:
                if outside and _private(alias.name):
                    found.append(f"{where}: imports {alias.name} from {'.' * node.level}{node.module or ''}")
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if any(_private(part) for part in alias.name.split(".")):
                    found.append(f"{where}: imports {alias.name}")
        elif isinstance(node, ast.Attribute) and _private(node.attr):
            if not _own_receiver(node.value, classes) and node.attr not in shared:
                found.append(f"{where}: reads {ast.unparse(node)}")
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ATTRIBUTE_CALLS \
                and len(node.args) >= 2 and isinstance(node.args[1], ast.Constant) \
                and isinstance(node.args[1].value, str) and _private(node.args[1].value):
            if not _own_receiver(node.args[0], classes) and node.args[1].value not in shared:
                found.append(f"{where}: {node.func.id}({ast.unparse(node.args[0])}, {node.args[1].value!r})")
    return found


def test_bots_use_only_the_engines_public_surface():
    bots, shared, _ = _bots_and_others()
    found = [v for path, tree in bots.items() for v in violations(tree, path, shared)]
    assert not found, "private engine names used by bots:\n" + "\n".join(found)


def test_the_check_finds_what_it_is_for():
    """The check itself: each kind of reach into the engine is found, a bot's own internals are not."""
    _, shared, theirs = _bots_and_others()
    assert "_axials" in theirs and "_points" not in shared
    source = '''
from ..engine.fire import _targets_now
from ..engine import victory
from .core import _best
class Bot:
    def choose(self, game, actions):
        self._memo = {}
        game.ctx.field.board._axials
        game.ctx.field.__dict__
        victory._points(game, "axis", {}, {})
        getattr(game, "_legal_cache", None)
        object.__setattr__(actions[0], "status", "exited")
        sorted(actions, key=actions.__getitem__)
        super()._choose(game)
        Bot._helper()
        return self._memo
'''
    found = violations(ast.parse(source), BOTS / "example.py", shared)
    assert sorted(f.split(": ", 1)[1] for f in found) == sorted([
        "imports _targets_now from ..engine.fire",
        "reads game.ctx.field.board._axials",
        "reads game.ctx.field.__dict__",
        "reads victory._points",
        "getattr(game, '_legal_cache')",
        "reads object.__setattr__",
    ])
