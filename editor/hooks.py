"""Where the editor meets the print kit (issue 6) and the game engine (issue 5), no Qt.

Each hook says plainly when its feature is not installed: the UI shows that message,
never a made-up result. Both work on the editor's current state (the catalog of the last
validation, unsaved edits included), not on the files on disk.
"""
from __future__ import annotations

import importlib
import importlib.util
from pathlib import Path
from typing import Callable

KIT_MODULE = "sandtable.exports.kit"
# The batch runner the quick game plays through (the games themselves are the ruleset's).
RUNNER_MODULE = "sandtable.rules.lab.batch"


def _find(name: str) -> bool:
    try:
        return importlib.util.find_spec(name) is not None
    except (ImportError, ValueError):
        return False


# --- print kit ---------------------------------------------------------------------------

def print_kit_status() -> tuple[bool, str]:
    if not _find(KIT_MODULE):
        return False, ("The print kit (issue 6) is not installed yet: the module sandtable.exports.kit was not found, "
                       "so nothing can be printed from the editor.")
    return True, "The print kit is installed."


def printable(ruleset) -> dict[str, list]:
    """Object kind -> the print parts the ruleset declares for it (the editor's Print menu);
    "scenario" and "setup" print the kit when some part puts pieces in one."""
    out: dict[str, list] = {}
    for part in getattr(ruleset, "prints", ()):
        for object_kind, _ in part.editor:
            out.setdefault(object_kind, []).append(part)
    if getattr(ruleset, "find_scenario", None) is not None and any(p.kit is not None for p in ruleset.prints):
        out.setdefault("scenario", [])
        out.setdefault("setup", [])
    return out


def print_documents(catalog, kind: str, oid: str, folder: Path) -> list[Path]:
    """Every print-kit document for the selected object, written into folder (atomically).

    What prints is what the pack's ruleset declares (rules/rulesets.PrintPart.editor): for
    Desert Steel, a scenario (or one of its setups): the whole kit; formation card: the card in
    every year variant, with backs; unit type: the pack's countersheets; raid card: the raid
    cards; map configuration: the map sheets at true scale; rule tables and battle conditions:
    the play aids."""
    ok, message = print_kit_status()
    if not ok:
        raise RuntimeError(message)
    from sandtable.rules import atomic
    from sandtable.rules.rulesets import PrintRequest, Printed
    folder = Path(folder)
    ruleset, model = catalog.ruleset, catalog.model
    menu = printable(ruleset)
    if kind in ("scenario", "setup") and kind in menu:
        kit = importlib.import_module(KIT_MODULE)
        setup = None
        sid = oid
        if kind == "setup":
            setup = catalog.get("setup", oid).value
            sid = setup["scenario"]
        scenario = ruleset.find_scenario(model, sid)
        if scenario is None:
            raise ValueError(f"scenario {sid!r} cannot be printed: it has broken references (see the findings)")
        from sandtable.rules.rulesets import option_defaults
        options = option_defaults(ruleset.kit_options)  # the kit as `export kit` makes it by default
        options.setup_value = setup
        request = kit.KitRequest(catalog, scenario, options)
        return list(kit.build(ruleset, request, folder / scenario.id).files)
    files: list[Path] = []
    for part in menu.get(kind, ()):
        name = dict(part.editor)[kind].format(id=oid)
        out = part.draw(PrintRequest(catalog, None, selected=(kind, oid)))
        path = folder / name
        atomic.write_bytes(path, out.data if isinstance(out, Printed) else out[0])
        files.append(path)
    if files:
        return files
    kinds = sorted(menu, key=lambda k: (k not in ("scenario", "setup"), k not in ("scenario",)))
    what = [k.replace("-", " ") for k in kinds]
    what = ", ".join(what[:-1]) + f" or {what[-1]}" if len(what) > 1 else (what[0] if what else "nothing")
    raise ValueError(f"the print kit has no document for a {kind}: select a {what}")


# --- quick test games --------------------------------------------------------------------

def simulator_status(catalog=None) -> tuple[bool, str]:
    """Whether test games can be played: the batch runner is installed and, given a catalog, its
    ruleset has a game engine (its ``play`` contribution)."""
    if not _find(RUNNER_MODULE):
        return False, ("The batch simulator (issue 5) is not installed yet: the module "
                       f"{RUNNER_MODULE} was not found.")
    ruleset = getattr(catalog, "ruleset", None) if catalog is not None else None
    if ruleset is not None and ruleset.play is None:
        return False, f"The {ruleset.title} ruleset has no game engine: its scenarios cannot be played here."
    return True, "The batch simulator is installed."


class Cancelled(Exception):
    pass


def play_of(catalog):
    """The play contribution (the engine's door) of the catalog's ruleset, or None."""
    ruleset = getattr(catalog, "ruleset", None)
    return ruleset.play.runner.load() if ruleset is not None and ruleset.play is not None else None


def quick_games(catalog, scenario_id: str, games: int, seed: int = 0, bots=("heuristic", "heuristic"),
                progress: Callable[[int, int], None] | None = None,
                cancelled: Callable[[], bool] = lambda: False) -> dict:
    """Play ``games`` games of a scenario with the engine's bots on the given catalog.

    The batch runner's tasks and records, and ``sandtable simulate``'s seeds (game i gets
    game_seed(seed, i)) and summary (the ruleset's ``Summary.to_json``), plus ``cancelled``,
    ``played`` and ``engagement_warning``. Played in this process on the catalog as it is
    (unsaved edits included); cancelling stops between games and summarises the games played."""
    ok, message = simulator_status(catalog)
    if not ok:
        raise RuntimeError(message)
    from sandtable.rules.lab.batch import Batch, play_door, play_games
    from sandtable.rules.lab.simulate import summary_row
    if catalog.errors:
        raise ValueError("the pack has errors: fix them (see the findings) before playing test games")
    play = play_door(catalog)
    model = catalog.model
    scenario = model.scenario(scenario_id)
    if scenario is None:
        raise ValueError(f"no scenario {scenario_id!r} in the current pack")
    setup = play.sample_setup(catalog, scenario)
    context = play.context(model, scenario)  # raises GameError for scenarios the engine cannot play
    batch = Batch({"scenario": scenario.id, "setups": [setup], "bots": list(bots), "options": {}}, {})
    summary = play.summary(scenario.id, games, seed, tuple(bots))
    stopped = False
    for task in batch.tasks(seed, games, valid=[0]):
        if cancelled():
            stopped = True
            break
        record, = play_games(play, model, scenario, context, batch.context, [task], timed=True)
        if "error" in record:
            raise play.GameError(record["error"])
        summary.add(summary_row(record))
        if progress:
            progress(summary.played, games)
    out = summary.to_json() if summary.results else {"scenario": scenario.id, "games": 0, "seed": seed,
                                                      "bots": list(bots), "draws": 0, "sides": {}}
    out["cancelled"] = stopped
    out["played"] = len(summary.results)
    out["requested"] = games
    out["engagement_warning"] = play.not_engaged_warning(out) if summary.results else None
    return out
