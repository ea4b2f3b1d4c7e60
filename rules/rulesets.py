"""Rulesets plug in here: each names its document kinds, their schemas, its checks and what
it can do (its capabilities).

Shared code never names a ruleset; a pack's manifest says which one it uses, and the
catalog asks this registry. A ruleset is found through the Python entry-point group
``sandtable.rulesets`` (name = the ruleset's name, value = ``module:RULESET``, a Ruleset),
so a third party can ``pip install`` one; the built-in three are registered the same way
in pyproject.toml (and, for a source tree whose metadata was not rebuilt, in ``_BUILTIN``).

A ruleset *declares* what it contributes beyond validation, by name, with its code named by
"module:attr" references (``Ref``) imported only when used (napari's plugin manifests are the
model): ``play`` (``PlayContribution``), ``board`` (``BoardContribution``), ``prints`` (its
``PrintPart``s: kind, title, options, duplex, draw), ``editor`` (``EditorContribution``), plus
its finding ``codes``, its reference ``scheme`` and its count ``limits``. Shared code (the CLI,
the editor, the kit, the balance lab) asks the ruleset for a contribution and says plainly when
it has none; it imports no ruleset's internals.

Each command asks ``COMMAND_NEEDS`` what capability it needs and the ruleset whether it
has it (``Ruleset.supports``); the capability words are derived from the declared
contributions (``derived_capabilities``), so a declaration and its word cannot disagree.
"""
from __future__ import annotations

import contextlib
import contextvars
import importlib
from dataclasses import dataclass, field
from typing import Any, Callable, Protocol, runtime_checkable

# What a ruleset can offer beyond validation, with the words used when it does not.
CAPABILITIES: dict[str, str] = {
    "scenarios": "scenario list and summaries",
    "check-setup": "setup rules",
    "auto-setup": "automatic setups",
    "los": "line of sight",
    "zone": "setup and entry zones",
    "path": "movement paths",
    "play": "game engine (play, simulate, replay)",
    "supply": "supply lines",
    "export-kit": "printable play kit",
}

# Command (as typed, with the export kind) -> the capability it needs. Commands not listed
# (validate, packs, provenance, codes, edit, export calibration/profile, sweep...) work on any
# ruleset or check for themselves; each declared print part adds its own ``export KIND``
# (``command_needs``).
COMMAND_NEEDS: dict[str, str] = {
    "scenarios": "scenarios", "show": "scenarios", "check-setup": "check-setup", "setup": "auto-setup",
    "los": "los", "zone": "zone", "path": "path", "play": "play", "simulate": "play", "replay": "play",
    "supply": "supply", "export kit": "export-kit",
}


def command_needs() -> dict[str, str]:
    """COMMAND_NEEDS with an ``export KIND`` for each print part the built-in rulesets declare."""
    out = dict(COMMAND_NEEDS)
    for name in sorted(_BUILTIN):
        ruleset = get(name)
        for part in ruleset.prints if ruleset is not None else ():
            out.setdefault(f"export {part.kind}", part.capability)
    return out


@dataclass(frozen=True)
class DocumentKind:
    """One value of a document's ``kind``: its schema and how it holds objects.

    ``items`` is the key of the list of objects in a collection document (unit types,
    cards...); None when the document is itself the object (a map, a scenario).
    """

    kind: str
    schema: str
    object_kind: str
    items: str | None = None
    id_key: str = "id"
    title: str = ""
    item_def: str | None = None  # $defs name of one object in a collection document

    def object_schema_ref(self, base_uri: str) -> str:
        """URI of the schema one object must follow (for re-checking an overridden object)."""
        uri = base_uri + self.schema
        return f"{uri}#/$defs/{self.item_def}" if self.items else uri


@dataclass(frozen=True)
class Ref:
    """Code named by a "module:attr" reference (napari's ``python_name``), imported on first use.

    A declaration holds only these strings, so declaring costs no import: asking a ruleset
    what it can do never loads its engine, its print code or Qt.
    """

    target: str

    def __post_init__(self) -> None:
        module, sep, attr = self.target.partition(":")
        if not sep or not module or not attr or not all(p.isidentifier() for p in module.split(".") + attr.split(".")):
            raise ValueError(f"a code reference is 'package.module:attribute', not {self.target!r}")

    @property
    def module(self) -> str:
        return self.target.partition(":")[0]

    def load(self) -> Any:
        return _resolve(self.target)

    def __call__(self, *args, **kwargs):
        return self.load()(*args, **kwargs)


def _ref(value) -> "Ref | None":
    """A Ref from a Ref, a "module:attr" string or None (declarations may write plain strings);
    a callable is kept as it is (a guest's code wrapped by ``guarded``)."""
    return value if value is None or isinstance(value, Ref) or callable(value) else Ref(str(value))


@dataclass(frozen=True)
class PlayContribution:
    """The game engine: ``sandtable play/simulate/replay``, the balance lab, the editor's quick game.

    new_game(catalog, scenario, setups, *, seed, bots...) -> a game; bots() -> {name: description};
    record: the finished game's record (write/read/digest/replay of a game log); narration(game
    or record) -> lines of text. Each is a "module:attr" reference.
    """

    new_game: Ref
    bots: Ref | None = None
    record: Ref | None = None
    narration: Ref | None = None
    runner: Ref | None = None  # the module-level runner (play, simulate, replay) when it has one

    def __post_init__(self) -> None:
        for name in ("new_game", "bots", "record", "narration", "runner"):
            object.__setattr__(self, name, _ref(getattr(self, name)))


@dataclass(frozen=True)
class BoardContribution:
    """The board: line of sight, zones, movement paths, a scenario's zones, automatic setup.

    Each present reference is a capability (``los``, ``zone``, ``path``, ``auto-setup``).
    """

    los: Ref | None = None
    zone: Ref | None = None
    path: Ref | None = None
    zones: Ref | None = None  # (catalog, scenario) -> the scenario's named zones
    auto_setup: Ref | None = None

    def __post_init__(self) -> None:
        for name in ("los", "zone", "path", "zones", "auto_setup"):
            object.__setattr__(self, name, _ref(getattr(self, name)))


@dataclass(frozen=True)
class PrintOption:
    """One command-line option of a print part: argparse's flags and keyword arguments."""

    flags: tuple[str, ...]
    kwargs: dict = field(default_factory=dict)

    def add_to(self, parser) -> None:
        parser.add_argument(*self.flags, **self.kwargs)


def option_defaults(options) -> Any:
    """A namespace of the options' default values (what a part or kit gets outside the CLI)."""
    import argparse
    parser = argparse.ArgumentParser(add_help=False)
    for option in options:
        if option.flags and option.flags[0].startswith("-"):
            option.add_to(parser)
    return parser.parse_args([])


@dataclass(frozen=True)
class PrintRequest:
    """What a print part's ``draw`` gets: the pack and the options of the command (or the editor)."""

    catalog: Any
    options: Any  # an argparse Namespace: the part's own options with their values
    page: str = "a4"
    profile: Any = None  # exports.page.PrinterProfile
    lang: str = "en"
    selected: tuple[str, str] | None = None  # (object kind, id) the editor's Print was asked for

    @property
    def model(self):
        return self.catalog.model


@dataclass
class Printed:
    """A drawn document that is not a plain PDF report: ``summary`` replaces the CLI's
    "N page(s)", ``lines`` follow it, ``report`` is the --json answer."""

    data: bytes
    findings: list = field(default_factory=list)
    summary: str | None = None
    lines: list[str] = field(default_factory=list)
    report: dict | None = None


class PrintFailure(Exception):
    """Drawing failed for a reason outside the user's input (a missing tool, a font): exit 1.

    A LookupError or ValueError raised by a draw is a usage error (exit 2): a scenario or card
    that does not exist, options that contradict each other.
    """


@runtime_checkable
class PrintDraw(Protocol):
    def __call__(self, request: PrintRequest) -> "tuple[bytes, list] | Printed":
        """The document's bytes and the findings (warnings) made while drawing it."""


@runtime_checkable
class KitContribution(Protocol):
    def __call__(self, request: Any) -> list:
        """The pieces (exports.kit.KitPiece) this part puts in a scenario's kit (exports.kit.KitRequest)."""


@dataclass(frozen=True)
class PrintPart:
    """A printable document of a ruleset: ``sandtable export KIND``, the kit, the editor's Print.

    ``draw`` names a PrintDraw. ``options`` are the part's own options; ``common`` parts also
    get the paper, pack, language and printer-profile options (``pages`` are the paper sizes
    it can be printed on); a part with ``common=False`` (a VASSAL module) gets only the pack
    option and --json. ``duplex``: it has backs to print on the other side. ``kit`` names a
    KitContribution: what it puts in ``export kit`` (the kit's files are numbered; they print
    in that order). ``editor`` lists (object kind, file name with ``{id}``) for which the
    editor's Print writes this part (the draw gets ``PrintRequest.selected``).
    """

    kind: str
    title: str
    draw: Ref
    options: tuple[PrintOption, ...] = ()
    duplex: bool = False
    pages: tuple[str, ...] = ("a4", "letter")
    output: str = "the PDF to write"
    output_metavar: str = "FILE"
    kit: Ref | None = None
    editor: tuple[tuple[str, str], ...] = ()
    common: bool = True
    description: str | None = None
    words: str = ""  # what a ruleset without it lacks: "printable cards" (default "printable KIND")

    def __post_init__(self) -> None:
        if not self.words:
            object.__setattr__(self, "words", f"printable {self.kind}")
        object.__setattr__(self, "draw", _ref(self.draw))
        object.__setattr__(self, "kit", _ref(self.kit))
        object.__setattr__(self, "options", tuple(self.options))
        object.__setattr__(self, "editor", tuple(tuple(e) for e in self.editor))

    @property
    def capability(self) -> str:
        return f"export-{self.kind}"


@dataclass(frozen=True)
class EditorPanel:
    """A workbench panel the ruleset adds to the editor: a dock with its title, in the View menu;
    ``widget`` names the factory of its QWidget, called with the editor's context (the pack's
    document, navigation) when a pack of the ruleset opens."""

    name: str
    title: str
    widget: Ref

    def __post_init__(self) -> None:
        object.__setattr__(self, "widget", _ref(self.widget))


@dataclass(frozen=True)
class EditorContribution:
    """The ruleset's hand-made editor parts. ``forms``: a "module:attr" of a mapping object kind
    -> form class (called ``(ctx, kind, oid)``; a kind not in it is shown as a JSON tree);
    ``panels``: its workbench panels; ``bulk``: its grids of every object of a kind, offered in
    the editor's Tools menu, each an ``EditorPanel`` named by the object kind whose ``widget``
    is called ``(ctx, kind)``; ``deferred``: a "module:attr" of a ``DeferredCheck``,
    the slow part of its check that the editor runs in a second pass, after showing the rest;
    ``naming``: a "module:attr" of how the explorer names its own kinds: ``label(kind, oid,
    value)`` (None for a kind it leaves to the editor), ``search_words(kind, oid, value)``,
    ``group(kind, value)`` (the groups an object sits under) and ``hex_kinds`` (kinds whose
    JSON names hexes, for the hex search)."""

    forms: Ref | None = None
    panels: tuple[EditorPanel, ...] = ()
    bulk: tuple[EditorPanel, ...] = ()
    deferred: Ref | None = None
    naming: Ref | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "forms", _ref(self.forms))
        object.__setattr__(self, "panels", tuple(self.panels))
        object.__setattr__(self, "bulk", tuple(self.bulk))
        object.__setattr__(self, "deferred", _ref(self.deferred))
        object.__setattr__(self, "naming", _ref(self.naming))


@runtime_checkable
class DeferredCheck(Protocol):
    """The part of a ruleset's check it leaves out while ``deferring_slow_checks`` is on (or the
    catalog's ``defer_slow_checks`` is set), for the editor to run after showing the rest."""

    def pending(self, catalog) -> bool:
        """Whether there is anything to check later (the editor then waits for a second result)."""

    def check(self, catalog) -> list:
        """The findings left out (consequences grouped as the full check groups them)."""


_SLOW_CHECKS_DEFERRED = contextvars.ContextVar("sandtable_defer_slow_checks", default=False)


@contextlib.contextmanager
def deferring_slow_checks():
    """Packs read meanwhile (in this thread or task) leave their rulesets' deferred checks out:
    the editor opens a pack before knowing its ruleset, and shows its findings sooner."""
    token = _SLOW_CHECKS_DEFERRED.set(True)
    try:
        yield
    finally:
        _SLOW_CHECKS_DEFERRED.reset(token)


def slow_checks_deferred(catalog) -> bool:
    """Whether a ruleset's check should leave its deferred part out for this catalog."""
    return bool(getattr(catalog, "defer_slow_checks", False)) or _SLOW_CHECKS_DEFERRED.get()


# Capability word of each optional reference of a contribution.
_BOARD_WORDS = {"los": "los", "zone": "zone", "path": "path", "auto_setup": "auto-setup"}


def derived_capabilities(ruleset: "Ruleset") -> frozenset:
    """The capability words a ruleset's declared contributions give it."""
    words = set()
    if ruleset.play is not None:
        words.add("play")
    if ruleset.board is not None:
        words |= {w for attr, w in _BOARD_WORDS.items() if getattr(ruleset.board, attr) is not None}
    if ruleset.scenario_list is not None:
        words.add("scenarios")
    if ruleset.check_setup is not None:
        words.add("check-setup")
    words |= {p.capability for p in ruleset.prints}
    if ruleset.find_scenario is not None and any(p.kit is not None for p in ruleset.prints):
        words.add("export-kit")
    return frozenset(words)


def describe(capability: str, ruleset: "Ruleset | None" = None) -> str:
    """The words for a capability ("line of sight"); for a print part, what its declaration says
    ("printable cards"), found in the ruleset given or the built-in ones."""
    if capability in CAPABILITIES:
        return CAPABILITIES[capability]
    if capability.startswith("export-"):
        kind = capability[len("export-"):]
        for owner in [ruleset] + [get(n) for n in sorted(_BUILTIN)]:
            part = owner.print_part(kind) if owner is not None else None
            if part is not None:
                return part.words
        return f"printable {kind}"
    return capability.replace("-", " ")


@dataclass(frozen=True)
class Ruleset:
    name: str
    title: str
    documents: tuple[DocumentKind, ...]
    # (catalog) -> list of findings: cross-references and content checks.
    check: Callable = field(default=lambda catalog: [])
    # (catalog) -> domain model object built from the merged raw objects.
    build: Callable | None = None
    # (model, setup as JSON, report) -> findings: the setup rules (report(code, message, pointer, **kw)
    # builds a finding located in the setup's document).
    check_setup: Callable | None = None
    # (model) -> rows for `sandtable scenarios`; (scenario) -> the `show scenario` summary.
    scenario_list: Callable | None = None
    scenario_summary: Callable | None = None
    # Words for what it can do that no contribution type declares yet (e.g. "supply"); the
    # declared contributions add theirs (derived_capabilities) when the ruleset is made.
    capabilities: frozenset = frozenset()
    # Its contributions, declared (see the module's docstring); None / () when it has none.
    play: PlayContribution | None = None
    board: BoardContribution | None = None
    prints: tuple[PrintPart, ...] = ()
    editor: EditorContribution | None = None
    # Its own finding codes (rules.findings.Code), reference scheme (rules.references.Scheme,
    # or a Ref to one) and count limits (rules.limits.CountLimit without the ruleset name).
    codes: tuple = ()
    scheme: Any = None
    limits: tuple = ()
    # The game's name on printed pages ("Desert Steel"); the title when empty.
    short_title: str = ""
    # The options of `export kit` its kit pieces read (counter size, bleed...), after SCENARIO.
    kit_options: tuple = ()
    # (model, "XV" or an id) -> the scenario (with .id, .number, .name, .ordinal) or None: how the
    # kit and print parts find the scenario typed on the command line.
    find_scenario: Any = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "prints", tuple(self.prints))
        for name in ("find_scenario", "scheme"):
            if isinstance(getattr(self, name), str):
                object.__setattr__(self, name, Ref(getattr(self, name)))
        if not self.short_title:
            object.__setattr__(self, "short_title", self.title)
        caps = self.capabilities if isinstance(self.capabilities, (set, frozenset)) else frozenset()
        object.__setattr__(self, "capabilities", frozenset(caps) | derived_capabilities(self))

    def supports(self, capability: str) -> bool:
        return capability in self.capabilities

    def print_part(self, kind: str) -> PrintPart | None:
        return next((p for p in self.prints if p.kind == kind), None)

    def reference_scheme(self):
        return self.scheme.load() if isinstance(self.scheme, Ref) else self.scheme

    def commands(self) -> list[str]:
        """The commands that need a capability this ruleset has (for the 'cannot' message)."""
        needs = dict(COMMAND_NEEDS, **{f"export {p.kind}": p.capability for p in self.prints})
        return [c for c, need in needs.items() if need in self.capabilities]

    def document_kind(self, kind: str) -> DocumentKind | None:
        return next((d for d in self.documents if d.kind == kind), None)

    def object_kinds(self) -> dict[str, DocumentKind]:
        return {d.object_kind: d for d in self.documents}


_REGISTRY: dict[str, Ruleset] = {}
GROUP = "sandtable.rulesets"
# The built-in rulesets as their entry points say (pyproject.toml); used when the installed
# metadata predates the entry points (a source tree not reinstalled).
_BUILTIN = {"desert-steel": "sandtable.rules.desert_steel:RULESET", "holland44": "sandtable.rules.holland44:RULESET",
            "miniatures": "sandtable.rules.miniatures:RULESET"}
LOAD_ERRORS: dict[str, str] = {}  # ruleset name -> why its plugin could not be loaded
# Built-in name -> why a plug-in's claim to it was refused (the built-in ruleset is used).
CLASHES: dict[str, str] = {}

# A third party's plug-in is a guest: it is first imported in a child process bounded in time
# and memory (so a hang, os._exit or a 3 GB allocation costs that child, not the command), and
# only then in this process, with its prints kept off stdout (they would corrupt --json).
PLUGIN_SECONDS = 5.0
PLUGIN_MEMORY_MB = 1536  # address space of the probe; Python with numpy needs ~600 MB of it


class PluginError(Exception):
    """A guest ruleset's code failed (raised, exited, returned garbage); the message names it."""


@dataclass(frozen=True)
class _Plugin:
    name: str
    target: str  # "module:attribute"
    distribution: str

    def describe(self) -> str:
        return f"ruleset plug-in {self.name!r} ({self.target}, distribution {self.distribution})"


def _builtin_modules() -> set[str]:
    return {t.partition(":")[0] for t in _BUILTIN.values()} | {
        t.partition(":")[0].replace("sandtable.rules", __name__.rpartition(".")[0], 1) for t in _BUILTIN.values()}


def register(ruleset: Ruleset) -> None:
    """Add a ruleset; a built-in name is kept by the built-in module (a guest calling this with
    'desert-steel' would otherwise replace the real ruleset without a word)."""
    if ruleset.name in _BUILTIN:
        import sys
        caller = sys._getframe(1).f_globals.get("__name__", "")
        if caller not in _builtin_modules():
            CLASHES[ruleset.name] = (f"module {caller!r} tried to register a ruleset under the built-in name "
                                     f"{ruleset.name!r}; the built-in ruleset is used")
            return
    _REGISTRY[ruleset.name] = ruleset
    _declare_codes(ruleset)


def _declare_codes(ruleset: Ruleset) -> None:
    """Its finding codes join the documented list; a code someone else defines is refused, said."""
    from . import findings
    codes = ruleset.codes if isinstance(ruleset.codes, (list, tuple)) else ()
    problems = findings.declare(ruleset.name, codes)
    if problems:
        CLASHES[ruleset.name] = f"ruleset {ruleset.name!r}: " + "; ".join(problems) + " (refused)"


def forget(name: str) -> None:
    """Unload a ruleset and its codes (a plug-in's test cleaning up)."""
    from . import findings
    _REGISTRY.pop(name, None)
    LOAD_ERRORS.pop(name, None)
    CLASHES.pop(name, None)
    findings.withdraw(name)


def _plugins() -> dict[str, _Plugin]:
    """name -> plug-in of every ruleset entry point, the built-in ones included."""
    found = {name: _Plugin(name, target, "sandtable") for name, target in _BUILTIN.items()}
    try:
        from importlib.metadata import entry_points
        for ep in entry_points(group=GROUP):
            dist = getattr(getattr(ep, "dist", None), "name", None) or "unknown distribution"
            if ep.name in _BUILTIN:
                if ep.value != _BUILTIN[ep.name]:  # a third party claiming a built-in name: refused
                    CLASHES[ep.name] = (f"{_Plugin(ep.name, ep.value, dist).describe()} claims the built-in name "
                                        f"{ep.name!r}; the built-in ruleset is used")
                continue
            if ep.name in found and found[ep.name].distribution != dist:  # two claim one name: the first kept
                CLASHES[ep.name] = (f"{_Plugin(ep.name, ep.value, dist).describe()} claims the name of "
                                    f"{found[ep.name].describe()}; the first is used")
                continue
            found[ep.name] = _Plugin(ep.name, ep.value, dist)
    except Exception:  # noqa: BLE001 - broken metadata of some other package must not stop sandtable
        pass
    return found


def _entry_points() -> dict[str, str]:
    """name -> "module:attribute" of every ruleset plugin, the built-in ones included."""
    return {name: p.target for name, p in _plugins().items()}


def get(name: str) -> Ruleset | None:
    """The ruleset of this name, loaded on first use (None, with LOAD_ERRORS[name], when it cannot be)."""
    if name not in _REGISTRY and name not in LOAD_ERRORS:
        plugin = _plugins().get(name)
        if plugin is None:
            return None
        if name in _BUILTIN:
            _load_builtin(plugin)
        else:
            _load_guest(plugin)
    return _REGISTRY.get(name)


def _resolve(target: str):
    module, _, attribute = target.partition(":")
    obj = importlib.import_module(module)
    for part in filter(None, attribute.split(".")):
        obj = getattr(obj, part)
    return obj


def _load_builtin(plugin: _Plugin) -> None:
    try:
        obj = _resolve(plugin.target)
    except Exception as exc:  # noqa: BLE001 - e.g. a broken source tree: a finding, not a crash
        LOAD_ERRORS[plugin.name] = f"{type(exc).__name__}: {exc}"
        return
    if isinstance(obj, Ruleset) and obj.name == plugin.name:
        _REGISTRY[plugin.name] = obj
    elif plugin.name not in _REGISTRY:
        LOAD_ERRORS[plugin.name] = f"entry point {plugin.target!r} is not a Ruleset named {plugin.name!r}"


def _load_guest(plugin: _Plugin) -> None:
    why = _probe(plugin)
    if why is None:
        import contextlib
        import sys
        try:
            with contextlib.redirect_stdout(sys.stderr):
                obj = _resolve(plugin.target)
        except BaseException as exc:  # noqa: BLE001 - SystemExit and KeyboardInterrupt included: a guest's
            why = f"{type(exc).__name__}: {exc}"
        else:
            why = None if isinstance(obj, Ruleset) and obj.name == plugin.name else \
                f"entry point {plugin.target!r} is not a Ruleset named {plugin.name!r}"
            if why is None:
                _REGISTRY[plugin.name] = guarded(obj, plugin)
                _declare_codes(obj)
    if why is not None:
        LOAD_ERRORS[plugin.name] = f"{plugin.describe()} failed to load: {why}"


_PROBE = r"""
import json, os, sys
name, target, path = json.loads(sys.argv[1])
sys.path[:] = path
out = os.dup(1)
os.dup2(2, 1)  # what the plug-in prints is not the answer
try:
    from sandtable.rules.rulesets import Ruleset, _resolve
    obj = _resolve(target)
    why = None if isinstance(obj, Ruleset) and obj.name == name else (
        f"entry point {target!r} is not a Ruleset named {name!r}")
except BaseException as exc:
    why = f"{type(exc).__name__}: {str(exc)[:300]}"
os.write(out, json.dumps({"why": why}).encode())
os._exit(0)
"""


def _probe(plugin: _Plugin) -> str | None:
    """Why importing the plug-in fails in a bounded child process, or None when it imports."""
    import json
    import os
    import signal
    import subprocess
    import sys

    def cap():
        import resource
        limit = PLUGIN_MEMORY_MB * 1024 * 1024
        hard = resource.getrlimit(resource.RLIMIT_AS)[1]
        if hard != resource.RLIM_INFINITY:  # never above what this process itself may use
            limit = min(limit, hard)
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    env = dict(os.environ, OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1")
    try:
        proc = subprocess.Popen([sys.executable, "-c", _PROBE, json.dumps([plugin.name, plugin.target, sys.path])],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, env=env,
                                preexec_fn=cap if os.name == "posix" else None, start_new_session=True)
    except OSError as exc:
        return f"could not start the probe ({exc})"
    try:
        out, err = proc.communicate(timeout=PLUGIN_SECONDS)
    except subprocess.TimeoutExpired:
        _kill_group(proc, signal)
        return f"importing it took longer than {PLUGIN_SECONDS:g} s (hangs?)"
    finally:
        if proc.poll() is None:
            _kill_group(proc, signal)
    try:
        answer = json.loads(out.decode("utf-8", "replace"))
    except ValueError:
        tail = err.decode("utf-8", "replace").strip().splitlines()[-1:] or [""]
        if "MemoryError" in tail[0]:
            return f"importing it needs more memory than the {PLUGIN_MEMORY_MB} MB a plug-in may take to load"
        return (f"importing it ended the process (exit code {proc.returncode})"
                + (f": {tail[0][:200]}" if tail[0] else ""))
    why = answer.get("why") if isinstance(answer, dict) else "no answer"
    if why and why.startswith("MemoryError"):
        return f"importing it needs more memory than the {PLUGIN_MEMORY_MB} MB a plug-in may take to load"
    return why


def _kill_group(proc, signal) -> None:
    import contextlib
    import os
    with contextlib.suppress(OSError):
        os.killpg(proc.pid, signal.SIGKILL)
    with contextlib.suppress(Exception):
        proc.wait(timeout=5)


def guarded(ruleset: Ruleset, plugin: _Plugin) -> Ruleset:
    """The guest's ruleset with every callable wrapped: an exception, an exit or a result of the
    wrong shape becomes a finding (checks) or a PluginError (the rest), naming the plug-in."""
    from dataclasses import replace
    from .findings import Finding

    def call(what, fn, *args):
        import contextlib
        import sys
        try:
            with contextlib.redirect_stdout(sys.stderr):
                return fn(*args)
        except (Exception, SystemExit) as exc:  # noqa: BLE001 - a guest's bug is reported, not ours
            raise PluginError(f"{plugin.describe()}: its {what} failed ({type(exc).__name__}: {str(exc)[:200]})") \
                from None

    def findings_of(what, fn, *args) -> list:
        try:
            result = call(what, fn, *args)
        except PluginError as exc:
            return [_plugin_finding(str(exc))]
        if not isinstance(result, (list, tuple)) or not all(isinstance(f, Finding) for f in result):
            return [_plugin_finding(f"{plugin.describe()}: its {what} returned {type(result).__name__}, "
                                    "not a list of findings")]
        return list(result)

    def check(catalog):
        return findings_of("check", ruleset.check, catalog)

    def build(catalog):
        try:
            return call("model builder", ruleset.build, catalog)
        except PluginError as exc:
            catalog.findings.append(_plugin_finding(str(exc)))
            return None

    def check_setup(model, value, report):
        return findings_of("setup check", ruleset.check_setup, model, value, report)

    def scenario_list(model):
        rows = call("scenario list", ruleset.scenario_list, model)
        if not isinstance(rows, (list, tuple)) or not all(isinstance(r, dict) for r in rows):
            raise PluginError(f"{plugin.describe()}: its scenario list returned {type(rows).__name__}, "
                              "not a list of rows")
        return list(rows)

    def scenario_summary(scenario):
        summary = call("scenario summary", ruleset.scenario_summary, scenario)
        if not isinstance(summary, dict):
            raise PluginError(f"{plugin.describe()}: its scenario summary returned {type(summary).__name__}")
        return summary

    def printing(what, fn):
        def run(request):
            import contextlib
            import sys
            try:
                with contextlib.redirect_stdout(sys.stderr):
                    return fn(request)
            except (LookupError, ValueError):  # the guest's own words for a bad request: usage errors
                raise
            except (Exception, SystemExit) as exc:  # noqa: BLE001 - a guest's bug is reported, not ours
                raise PrintFailure(f"{plugin.describe()}: its {what} failed ({type(exc).__name__}: "
                                   f"{str(exc)[:200]})") from None
        return run

    def find_scenario(model, ref):
        return call("scenario finder", ruleset.find_scenario, model, ref)

    prints = []
    for part in ruleset.prints if isinstance(ruleset.prints, tuple) else ():
        if isinstance(part, PrintPart):
            prints.append(replace(part, draw=printing(f"print part {part.kind!r}", part.draw),
                                  kit=printing(f"kit pieces of {part.kind!r}", part.kit) if part.kit else None))
    caps = ruleset.capabilities if isinstance(ruleset.capabilities, (set, frozenset)) else frozenset()
    return replace(ruleset, prints=tuple(prints), find_scenario=find_scenario if ruleset.find_scenario else None,
                   check=check, build=build if ruleset.build else None,
                   check_setup=check_setup if ruleset.check_setup else None,
                   scenario_list=scenario_list if ruleset.scenario_list else None,
                   scenario_summary=scenario_summary if ruleset.scenario_summary else None,
                   capabilities=frozenset(c for c in caps if c in CAPABILITIES))


def _plugin_finding(message: str):
    from .findings import finding
    return finding("ruleset-plugin", message)


def names() -> list[str]:
    """Every ruleset installed (their plug-ins are not loaded to name them)."""
    return sorted(set(_REGISTRY) | set(_plugins()))

