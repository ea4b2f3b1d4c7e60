"""The layers of architecture.md, held on the source with ``ast`` (as import-linter contracts
would be): every import is read, those inside functions and ``importlib.import_module("...")``
of a literal name included, since a lazy import is still a dependency.

Contracts:
- a ruleset (a package under rules/ that has its own folder) is reached only from its own
  folders (rules/R, exports/R, editor/R) and from the entry-point registry, which names it as
  a string; everything else asks the ruleset for a contribution;
- rules/ and exports/ import no Qt;
- rules/ imports neither exports/ nor editor/;
- no import cycle anywhere.

There is no permanent allow-list. ``PENDING_MOVES`` names files whose move into a ruleset's
folder is scheduled but not done yet, ``PENDING_CYCLES`` cycles whose owner is still at work
on them (each named by one of its modules); the tests fail as soon as one of them is done
(moved, or the cycle gone), so the sets can only shrink.

Run as a script (``python tests/test_layers.py``) it prints the present state: every reach
into a ruleset and every cycle.
"""
from __future__ import annotations

import ast
from functools import lru_cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
# Installed package name -> source folder (pyproject.toml's package-dir).
PACKAGES = {"sandtable.rules": "rules", "sandtable.exports": "exports", "sandtable.editor": "editor",
            "sandtable": "sandtable"}
SCANNED = ("sandtable", "rules", "exports", "editor")
QT = ("PySide6", "PyQt5", "PyQt6", "shiboken6", "qtpy")
# The registry names each built-in ruleset by its entry point (a string), and imports it by that.
REGISTRY = "rules/rulesets.py"

# File -> why it still reaches into a ruleset: each is to move into that ruleset's folder.
PENDING_MOVES: dict[str, str] = {}

# A module of a cycle -> who is breaking it (none left: the bot registry and the preflight
# cycles were broken in issue 27's round). Never an allowance: when a cycle is gone its line goes.
PENDING_CYCLES: dict[str, str] = {}


def _module_of(path: Path) -> str:
    """'rules/desert_steel/zones.py' -> 'sandtable.rules.desert_steel.zones'."""
    rel = path.relative_to(ROOT).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    top = parts[0]
    prefix = next(k for k, v in PACKAGES.items() if v == top)
    return ".".join([prefix, *parts[1:]])


@lru_cache(maxsize=None)
def _modules() -> dict[str, Path]:
    out = {}
    for top in SCANNED:
        for path in sorted((ROOT / top).rglob("*.py")):
            if "__pycache__" not in path.parts:
                out[_module_of(path)] = path
    return out


def _resolve(name: str) -> str | None:
    """The longest known module a dotted name starts with (None: not ours)."""
    mods = _modules()
    parts = name.split(".")
    for i in range(len(parts), 0, -1):
        if ".".join(parts[:i]) in mods:
            return ".".join(parts[:i])
    return None


def _imports(module: str, path: Path) -> list[tuple[str, int]]:
    """(imported name as written, absolute; line) for every import of a file."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out += [(a.name, node.lineno) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[:len(base) - (node.level - 1)]
                stem = ".".join(base + ([node.module] if node.module else []))
            else:
                stem = node.module or ""
            # `from pkg import sub` imports the module pkg.sub when there is one.
            out += [(f"{stem}.{a.name}" if _resolve(f"{stem}.{a.name}") == f"{stem}.{a.name}" else stem,
                     node.lineno) for a in node.names]
        elif isinstance(node, ast.Call) and getattr(node.func, "attr", getattr(node.func, "id", "")) == \
                "import_module" and node.args and isinstance(node.args[0], ast.Constant) \
                and isinstance(node.args[0].value, str):
            out.append((node.args[0].value, node.lineno))
    return out


@lru_cache(maxsize=None)
def graph() -> dict[str, dict[str, int]]:
    """module -> {imported module or foreign top-level name: first line}."""
    out: dict[str, dict[str, int]] = {}
    for module, path in _modules().items():
        edges: dict[str, int] = {}
        for name, line in _imports(module, path):
            target = _resolve(name) or name.split(".")[0]
            if target != module:
                edges.setdefault(target, line)
        out[module] = edges
    return out


def _folder(module: str) -> str:
    return str(_modules()[module].relative_to(ROOT))


def rulesets() -> list[str]:
    """The ruleset folders under rules/: each package there declaring a RULESET."""
    return sorted(p.parent.name for p in (ROOT / "rules").glob("*/__init__.py")
                  if "RULESET" in p.read_text(encoding="utf-8"))


def _owner(path: str) -> str | None:
    """The ruleset whose folder holds this file (rules/R/, exports/R/, editor/R/), or None."""
    parts = Path(path).parts
    if len(parts) > 2 and parts[0] in ("rules", "exports", "editor") and parts[1] in rulesets():
        return parts[1]
    return None


def ruleset_reaches() -> dict[str, list[str]]:
    """file -> ['line N: imports M'] for each import of a ruleset's module from outside its folders."""
    out: dict[str, list[str]] = {}
    for module, edges in graph().items():
        path = _folder(module)
        if path == REGISTRY:
            continue
        for target, line in edges.items():
            if target not in _modules():
                continue
            owner = _owner(_folder(target))
            if owner is not None and _owner(path) != owner:
                out.setdefault(path, []).append(f"line {line}: imports {target}")
    return out


def _violations(rule) -> list[str]:
    bad = []
    for module, edges in graph().items():
        path = _folder(module)
        for target, line in edges.items():
            why = rule(path, target)
            if why:
                bad.append(f"{path}:{line}: {why}")
    return sorted(bad)


def test_no_file_outside_a_ruleset_reaches_into_it():
    reaches = ruleset_reaches()
    bad = [f"{path}: {', '.join(lines)}" for path, lines in sorted(reaches.items()) if path not in PENDING_MOVES]
    assert not bad, "reach a ruleset's modules instead of asking it for a contribution:\n" + "\n".join(bad)


def test_pending_moves_are_still_pending():
    """A file moved, or no longer reaching in, leaves PENDING_MOVES: the set only shrinks."""
    reaches = ruleset_reaches()
    stale = [path for path in PENDING_MOVES if path not in reaches]
    assert not stale, f"no longer pending (remove from PENDING_MOVES): {stale}"


def test_rules_and_exports_import_no_qt():
    def rule(path, target):
        if path.split("/")[0] in ("rules", "exports") and target.split(".")[0] in QT:
            return f"imports {target} (Qt belongs to editor/)"
    assert _violations(rule) == []


def test_rules_import_neither_exports_nor_editor():
    def rule(path, target):
        if path.startswith("rules/") and target.startswith(("sandtable.exports", "sandtable.editor")):
            return f"imports {target} (rules/ is below exports/ and editor/)"
    assert _violations(rule) == []


def cycles() -> list[list[str]]:
    """Every strongly connected set of two or more modules (Tarjan's algorithm, iterative)."""
    g = {m: [t for t in e if t in _modules()] for m, e in graph().items()}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out = []
    counter = 0
    for root in sorted(g):
        if root in index:
            continue
        work = [(root, iter(g[root]))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on.add(root)
        while work:
            node, it = work[-1]
            nxt = next(it, None)
            if nxt is not None:
                if nxt not in index:
                    index[nxt] = low[nxt] = counter
                    counter += 1
                    stack.append(nxt)
                    on.add(nxt)
                    work.append((nxt, iter(g[nxt])))
                elif nxt in on:
                    low[node] = min(low[node], index[nxt])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                group = []
                while True:
                    m = stack.pop()
                    on.discard(m)
                    group.append(m)
                    if m == node:
                        break
                if len(group) > 1:
                    out.append(sorted(group))
    return sorted(out)


def test_no_import_cycles():
    found = [c for c in cycles() if not set(c) & set(PENDING_CYCLES)]
    assert not found, "import cycles (give them a one-way order):\n" + "\n".join(" <-> ".join(c) for c in found)


def test_pending_cycles_are_still_there():
    """A cycle broken leaves PENDING_CYCLES; and two pending entries never hide one cycle's growth
    into another's: each pending cycle is named by exactly one entry."""
    found = cycles()
    stale = [m for m in PENDING_CYCLES if not any(m in c for c in found)]
    assert not stale, f"no longer in a cycle (remove from PENDING_CYCLES): {stale}"
    for c in found:
        assert len(set(c) & set(PENDING_CYCLES)) <= 1, f"two pending cycles merged: {' <-> '.join(c)}"


def test_the_graph_sees_lazy_and_importlib_imports(tmp_path):
    """The contracts are only as good as the reading: an import inside a function, a relative
    `from . import x` of a module and an import_module of a literal name are all edges."""
    edges = graph()
    assert edges, "no module read"
    src = tmp_path / "m.py"
    src.write_text("import importlib\n\ndef f():\n    from .zones import Z\n    from . import model\n"
                   "    importlib.import_module('sandtable.rules.hexmath')\n", encoding="utf-8")
    got = {name for name, _ in _imports("sandtable.rules.desert_steel.m", src)}
    assert {"sandtable.rules.desert_steel.zones", "sandtable.rules.desert_steel.model",
            "sandtable.rules.hexmath"} <= got


def test_each_contract_catches_a_planted_import(monkeypatch):
    """The contracts fail on what they forbid: a reach into a ruleset, Qt under rules/, rules/
    importing editor/, a new cycle (edges planted into a copy of the real graph)."""
    real = {m: dict(e) for m, e in graph().items()}
    planted = {m: dict(e) for m, e in real.items()}
    planted["sandtable.cli.game_cmds"]["sandtable.rules.desert_steel.engine.runner"] = 1
    planted["sandtable.rules.hexmath"]["PySide6"] = 2
    planted["sandtable.rules.lab.batch"]["sandtable.editor.hooks"] = 3
    planted["sandtable.rules.hexmath"]["sandtable.rules.board"] = 4  # board imports hexmath
    monkeypatch.setattr(__import__(__name__), "graph", lambda: planted)
    assert "sandtable/cli/game_cmds.py" in ruleset_reaches()
    with pytest.raises(AssertionError, match="game_cmds"):
        test_no_file_outside_a_ruleset_reaches_into_it()
    with pytest.raises(AssertionError, match="PySide6"):
        test_rules_and_exports_import_no_qt()
    with pytest.raises(AssertionError, match="sandtable.editor.hooks"):
        test_rules_import_neither_exports_nor_editor()
    with pytest.raises(AssertionError, match="sandtable.rules.board <-> sandtable.rules.hexmath"):
        test_no_import_cycles()


if __name__ == "__main__":  # a report of the present state: python tests/test_layers.py
    for path, lines in sorted(ruleset_reaches().items()):
        print(f"{path}{' (pending move)' if path in PENDING_MOVES else ''}: {len(lines)}")
        for line in lines:
            print(f"    {line}")
    for c in cycles():
        pending = [PENDING_CYCLES[m] for m in c if m in PENDING_CYCLES]
        print("cycle:", " <-> ".join(c) + (f"\n    (pending: {pending[0]})" if pending else ""))
