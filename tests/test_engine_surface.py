"""No private engine name is used outside the engine (issue #30): no module outside
rules/desert_steel/engine/ (tests, benchmarks, bots, exports, editor, the CLI) reads a private
attribute of an engine object or imports a private name from the engine package. Tests test
through the public surface: ``game.ask(...)``, ``apply()``, ``legal_actions()``, ``events``,
``state``, the rule queries and procedures named for their rule.

What counts as the engine's, read on the source with ``ast``:
- ``from <engine module> import _x``, and ``m._x`` where ``m`` is bound by an import to an
  engine module or to something an engine module defines (``Game._legal_command``);
- ``obj._x`` (or ``getattr/setattr/hasattr/delattr(obj, "_x")``, ``monkeypatch.setattr`` too)
  where ``_x`` is a private name the engine defines (a method, a class or module attribute, a
  ``self._x`` it assigns), unless the receiver is the module's own (``self``, ``cls``,
  ``super()``, a class of the module), or the module itself, or a project module it imports,
  defines the same private name: then it may be that module's own helper (``sys._getframe``, a
  widget's ``_update`` never match: the engine defines neither).

There is no allow-list. ``PENDING`` names modules still being moved to the public surface and
who moves them; a test fails as soon as one of them is clean, so the list only shrinks.
Run as a script (``python tests/test_engine_surface.py``) it prints every use found.
"""
from __future__ import annotations

import ast
from functools import lru_cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ENGINE = "sandtable.rules.desert_steel.engine"
ENGINE_DIR = ROOT / "rules" / "desert_steel" / "engine"
# source folder -> the dotted name its modules have (tests and benchmarks run with their folder on sys.path)
FOLDERS = {"sandtable": "sandtable", "rules": "sandtable.rules", "exports": "sandtable.exports",
           "editor": "sandtable.editor", "schemas": "sandtable.schemas", "tests": "", "benchmarks": ""}
ATTRIBUTE_CALLS = frozenset({"getattr", "hasattr", "setattr", "delattr"})

# module (path from the root) -> who is moving it to the public surface. Never an allowance.
PENDING: dict[str, str] = {}


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__") and name != "_"


def _defined_private(tree: ast.Module) -> frozenset[str]:
    """The private names a module defines that can be read as attributes: module-level
    functions, classes and assignments, class bodies' methods and attributes, ``self._x = ...``."""
    names: set[str] = set()

    def body(statements):
        for item in statements:
            if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                names.add(item.name)
            elif isinstance(item, ast.Assign):
                names.update(t.id for t in item.targets if isinstance(t, ast.Name))
            elif isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name):
                names.add(item.target.id)
    body(tree.body)
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef):
            body(node.body)
        elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store) \
                and isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"):
            names.add(node.attr)
    return frozenset(n for n in names if _private(n))


def _module_name(path: Path) -> str:
    rel = path.relative_to(ROOT).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    prefix = FOLDERS[parts[0]]
    return ".".join(p for p in [prefix, *parts[1:]] if p)


@lru_cache(maxsize=None)
def _project() -> dict[str, Path]:
    """Dotted module name -> file, for every module of the project (the engine's included)."""
    out = {}
    for folder in FOLDERS:
        for path in sorted((ROOT / folder).rglob("*.py")):
            if "__pycache__" not in path.parts and ".venv" not in path.parts:
                out[_module_name(path)] = path
    return out


@lru_cache(maxsize=None)
def _tree(path: Path) -> ast.Module:
    return ast.parse(path.read_text(encoding="utf-8"), str(path))


@lru_cache(maxsize=None)
def _privates_of(path: Path) -> frozenset[str]:
    return _defined_private(_tree(path))


@lru_cache(maxsize=None)
def engine_private() -> frozenset[str]:
    return frozenset().union(*(_privates_of(p) for p in ENGINE_DIR.rglob("*.py")))


def _in_engine(dotted: str) -> bool:
    return dotted == ENGINE or dotted.startswith(ENGINE + ".")


def _known_module(dotted: str) -> str | None:
    """The longest project module a dotted name starts with."""
    parts = dotted.split(".")
    for i in range(len(parts), 0, -1):
        if ".".join(parts[:i]) in _project():
            return ".".join(parts[:i])
    return None


def _bindings(tree: ast.Module, module: str, is_package: bool) -> dict[str, str]:
    """Local name -> the dotted name it was imported as (anywhere in the module)."""
    package = module if is_package else module.rpartition(".")[0]
    out: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                out[a.asname or a.name.split(".")[0]] = a.name if a.asname else a.name.split(".")[0]
        elif isinstance(node, ast.ImportFrom):
            stem = node.module or ""
            if node.level:
                base = package.split(".")
                base = base[:len(base) - (node.level - 1)]
                stem = ".".join(base + ([node.module] if node.module else []))
            for a in node.names:
                out[a.asname or a.name] = f"{stem}.{a.name}"
    return out


def _dotted(node: ast.AST, bindings: dict[str, str]) -> str | None:
    """``a.b.c`` with ``a`` imported: the dotted name it stands for."""
    rest = []
    while isinstance(node, ast.Attribute):
        rest.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name) and node.id in bindings:
        return ".".join([bindings[node.id], *reversed(rest)])
    return None


def _own(node: ast.AST, classes: set[str]) -> bool:
    if isinstance(node, ast.Name):
        return node.id in ("self", "cls") or node.id in classes
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "super"


def violations(tree: ast.Module, path: Path, module: str | None = None) -> list[str]:
    """Each use of a private engine name in one module outside the engine: 'file:line: what'."""
    module = module or _module_name(path)
    bindings = _bindings(tree, module, path.name == "__init__.py")
    classes = {n.name for n in ast.walk(tree) if isinstance(n, ast.ClassDef)}
    # a private name the module itself or a project module it imports defines may be theirs
    theirs = set(_defined_private(tree))
    for dotted in bindings.values():
        known = _known_module(dotted)
        if known is not None and not _in_engine(known):
            theirs |= _privates_of(_project()[known])
    engine_names = engine_private() - theirs
    where = str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else path.name
    found = []

    def reach(receiver: ast.AST, name: str, how: str, line: int) -> None:
        if not _private(name) or _own(receiver, classes):
            return
        origin = _dotted(receiver, bindings)
        if (origin is not None and _in_engine(origin)) or name in engine_names:
            found.append(f"{where}:{line}: {how}")

    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            stem = bindings.get(node.names[0].asname or node.names[0].name, "").rpartition(".")[0]
            if _in_engine(stem):
                found += [f"{where}:{node.lineno}: imports {a.name} from {stem}" for a in node.names
                          if _private(a.name)]
        elif isinstance(node, ast.Import):
            found += [f"{where}:{node.lineno}: imports {a.name}" for a in node.names
                      if _in_engine(a.name) and any(_private(p) for p in a.name.split("."))]
        elif isinstance(node, ast.Attribute):
            reach(node.value, node.attr, f"reads {ast.unparse(node)}", node.lineno)
        elif isinstance(node, ast.Call) and len(node.args) >= 2 and isinstance(node.args[1], ast.Constant) \
                and isinstance(node.args[1].value, str):
            func = node.func
            called = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
            if called in ATTRIBUTE_CALLS:
                reach(node.args[0], node.args[1].value,
                      f"{ast.unparse(func)}({ast.unparse(node.args[0])}, {node.args[1].value!r})", node.lineno)
    return found


def outside_modules() -> list[Path]:
    return [p for p in _project().values() if ENGINE_DIR not in p.parents]


def all_violations() -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for path in outside_modules():
        found = violations(_tree(path), path)
        if found:
            out[str(path.relative_to(ROOT))] = found
    return out


def test_no_private_engine_name_is_used_outside_the_engine():
    found = [v for path, vs in sorted(all_violations().items()) if path not in PENDING for v in vs]
    assert not found, ("private engine names used outside the engine (make the rule public with its §, "
                       "or test through game.ask/apply/legal_actions):\n" + "\n".join(found))


def test_pending_modules_are_still_pending():
    found = all_violations()
    done = sorted(p for p in PENDING if p not in found)
    assert not done, f"no private engine name left in {done}: take them out of PENDING"


def test_the_check_finds_what_it_is_for():
    """Each kind of reach into the engine is found; a module's own internals and other
    libraries' conventions are not."""
    assert {"_legal_cache", "_on_activation", "_copy_as", "_plan_raids"} <= engine_private()
    source = '''
import sys
import sandtable.rules.desert_steel.engine.game as engine_game
from sandtable.rules.desert_steel.engine.game import Game, _on_activation
from sandtable.rules.desert_steel.engine import victory
from sandtable.rules.desert_steel.engine import seats as registry

class Widget:
    def __init__(self):
        self._plan_raids = []
    def refresh(self, other: "Widget"):
        return self._plan_raids, Widget._helper, super()._copy_as()

def _shuffled(cards):
    return cards

def test(game, monkeypatch, tmp):
    sys._getframe(0)
    tmp._cache_dir
    game._legal_cache = None
    game.state._memo
    victory._points(game, "axis")
    registry._ENTRIES
    engine_game._on_activation({})
    Game._legal_command(game)
    monkeypatch.setattr(Game, "_legal_command", None)
    getattr(game, "_copy_as")
    game._shuffled([1])
'''
    path = ROOT / "tests" / "example.py"
    found = sorted(v.split(": ", 1)[1] for v in violations(ast.parse(source), path, "example"))
    assert found == sorted([
        "imports _on_activation from sandtable.rules.desert_steel.engine.game",
        "reads game._legal_cache",
        "reads game.state._memo",
        "reads victory._points",
        "reads registry._ENTRIES",
        "reads engine_game._on_activation",
        "reads Game._legal_command",
        "monkeypatch.setattr(Game, '_legal_command')",
        "getattr(game, '_copy_as')",
    ]), found
    assert "_memo" in engine_private() and "_getframe" not in engine_private()


if __name__ == "__main__":
    for file, uses in sorted(all_violations().items()):
        print(f"{file}{'  (pending: ' + PENDING[file] + ')' if file in PENDING else ''}")
        for use in uses:
            print("   ", use.split(": ", 1)[1])
