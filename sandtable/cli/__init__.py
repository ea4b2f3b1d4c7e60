"""The ``sandtable`` command: everything but editing, without a display."""
from __future__ import annotations

import argparse
import json
import math
import os
import sys
import traceback

try:  # Ctrl-C while the commands load (the first half-second of every run) ends quietly, not in a traceback
    from sandtable import __version__
    from sandtable.rules import atomic, rulesets
    from sandtable.rules.atomic import OutputError
    from sandtable.rules.limits import BACK_OFFSET_MM, OPTION_RANGES, InputError, read_regular

    from . import (board_cmds, codes_cmd, edit_cmd, game_cmds, packs_cmd, provenance_cmd, scenario_cmds, setup_cmd,
                   validate_cmd)
    from . import supply_cmd
    from . import export_cmd
    from . import sweep_cmd
    from . import rulesets_cmd
except KeyboardInterrupt:
    sys.stderr.write("\n")
    raise SystemExit(130) from None

COMMANDS = (validate_cmd, packs_cmd, scenario_cmds, provenance_cmd, setup_cmd, board_cmds, game_cmds, codes_cmd,
            edit_cmd, supply_cmd, export_cmd, sweep_cmd, rulesets_cmd)


FOLDER_OUTPUTS = {"export kit", "sweep"}  # commands whose -o is a folder to fill
SETUP_FILE_OPTIONS = {"play", "simulate", "export raid-form", "export kit"}  # --setup FILE (elsewhere a file or an id)


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # usage errors exit 2, as argparse does, but say how to get help
        self.print_usage(sys.stderr)
        self.exit(2, f"{self.prog}: error: {message}\nTry '{self.prog} --help'.\n")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="sandtable", description="A workbench for Tank Leader hex-and-counter wargames (Desert Steel): "
                                                    "validate packs and mods, check setups, play test games, print the kit, edit.")
    parser.add_argument("--version", action="version", version=f"sandtable {__version__}")
    parser.add_argument("--debug", action="store_true",
                        help="show the Python traceback of an unexpected error (for a bug report); "
                        "also accepted after the command")
    parser.add_argument("--force", action="store_true",
                        help="let -o/--log replace an existing symbolic link, FIFO, special or read-only file, "
                        "and export kit fill a folder holding other files; also accepted after the command")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for module in COMMANDS:
        module.register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    for stream in (sys.stdout, sys.stderr):  # a file name that is not valid text must not crash a report
        if hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="backslashreplace")
    argv = list(sys.argv[1:] if argv is None else argv)
    debug = "--debug" in argv or bool(os.environ.get("SANDTABLE_DEBUG"))
    force = "--force" in argv
    argv = [a for a in argv if a not in ("--debug", "--force")]
    export_cmd.WITH_GUESTS = "export" in argv  # a third party's print parts join only the export parser
    try:  # building the parser loads the rulesets' declared parts: still "while the commands load"
        parser = build_parser()
    except KeyboardInterrupt:
        sys.stderr.write("\n")
        return 130
    with _JsonFailure(_wants_json(argv)) as report:
        try:
            args = parser.parse_args(argv)
        except SystemExit as exc:  # --help, --version (0) or a usage error (2)
            report.finish(exc.code if isinstance(exc.code, int) else 2, " ".join(argv[:1]))
            raise
        if not getattr(args, "run", None):
            parser.print_help()
            return 2
        command = " ".join(str(part) for part in (args.command, getattr(args, "kind", None)) if part)
        report.active = report.active or getattr(args, "format", None) == "json"
        return report.finish(_run(args, command, debug, force), command)


class _JsonFailure:
    """With --json, a command that fails says why on stdout too, as JSON.

    Every failure path (usage errors, unreadable inputs, outputs that cannot be written, a game
    that does not replay, the last-resort guard) writes its message on stderr; a script reading
    stdout would otherwise get nothing at all to parse. When the command wrote nothing on stdout
    and exits non-zero, what it said on stderr is printed as one JSON object:
    ``{"command": ..., "exit_code": ..., "error": ...}``. Text output is unchanged.
    """

    def __init__(self, active: bool):
        self.active = active
        self.wrote_stdout = False
        self.errors: list[str] = []

    def __enter__(self):
        self._out, self._err = sys.stdout, sys.stderr
        sys.stdout, sys.stderr = _Tap(self._out, self._stdout_written), _Tap(self._err, self.errors.append)
        return self

    def _stdout_written(self, text: str) -> None:
        if text:
            self.wrote_stdout = True

    def __exit__(self, *exc) -> None:
        sys.stdout, sys.stderr = self._out, self._err

    def finish(self, code: int, command: str) -> int:
        if self.active and code not in (0, None) and not self.wrote_stdout:
            message = "".join(self.errors).strip()
            try:
                self._out.write(json.dumps({"command": command, "exit_code": code, "error": message},
                                           ensure_ascii=False) + "\n")
                self._out.flush()
            except (OSError, ValueError):  # stdout closed: the message is on stderr already
                pass
        return code


class _Tap:
    """A text stream that tells a callback what is written through it, and is otherwise the stream."""

    def __init__(self, stream, seen):
        self._stream, self._seen = stream, seen

    def write(self, text):
        self._seen(text)
        return self._stream.write(text)

    def __getattr__(self, name):
        return getattr(self._stream, name)


def _wants_json(argv: list[str]) -> bool:
    return "--json" in argv or "--format=json" in argv or any(
        a == "--format" and b == "json" for a, b in zip(argv, argv[1:]))


def _run(args, command: str, debug: bool, force: bool) -> int:
    args.force = force
    problem = _option_problem(args)
    if problem:
        sys.stderr.write(f"sandtable {command}: {problem}\nTry 'sandtable {command} --help'.\n")
        return 2
    unsupported = _unsupported(args, command)
    if unsupported:
        sys.stderr.write(f"sandtable {command}: {unsupported}\n")
        return 2
    atomic.clear_termination()
    try:
        _check_inputs(args, command)
        # Output paths are checked before any work: a bad -o fails at once, not after rendering.
        for attr in ("output", "log"):
            target = getattr(args, attr, None)
            if isinstance(target, str) and (attr == "output" or command == "play"):
                atomic.check_target(target, force=force, folder=attr == "output" and command in FOLDER_OUTPUTS)
        with atomic.forcing(force):
            return args.run(args)
    except BrokenPipeError:  # e.g. piped into head
        return 0
    except KeyboardInterrupt:
        return 130
    except OutputError as exc:  # an output path that cannot be written: the user's to fix, not a bug
        sys.stderr.write(f"sandtable {command}: {exc}\n")
        return exc.exit_code
    except InputError as exc:  # a file named by the user that cannot be read as data
        sys.stderr.write(f"sandtable {command}: {exc}\n")
        return 2
    except rulesets.PluginError as exc:  # a third party's ruleset failed: its fault, said with its name
        sys.stderr.write(f"sandtable {command}: {exc}\n")
        return 1
    except MemoryError:
        sys.stderr.write(f"sandtable {command}: out of memory; the input is larger than this machine can handle "
                         "(see docs/limits.md)\n")
        return 1
    except Exception as exc:  # noqa: BLE001 - the last resort: one line, never a traceback
        signum = atomic.termination_received()
        if signum is not None:  # a library caught the Terminated a signal raised and raised another error
            return 128 + signum
        if debug:
            traceback.print_exc()
        sys.stderr.write(f"sandtable {command}: internal error ({type(exc).__name__}: {_short(exc)}). "
                         "This is a bug in sandtable: please report it with the command you ran"
                         + ("" if debug else " and the output of the same command with --debug") + ".\n")
        return 1


def _unsupported(args, command: str) -> str | None:
    """Why the ruleset of the packs named cannot serve this command (rulesets.COMMAND_NEEDS), or None.

    The ruleset is read from the first pack's manifest (a mod has its base's ruleset); when
    that cannot be read, the command runs and reports the pack's problems itself.
    """
    need = rulesets.COMMAND_NEEDS.get(command) or rulesets.COMMAND_NEEDS.get(command.split(" ")[0]
                                                                             if command != "export" else "")
    if need is None and command.startswith("export ") and command[7:] not in export_cmd.GENERIC_KINDS:
        need = f"export-{command[7:]}"  # a print part some ruleset declares
    packs = getattr(args, "pack", None)
    if not need or not isinstance(packs, list):
        return None
    from sandtable.rules.catalog import MANIFEST, bundled_pack
    from sandtable.rules.packsource import open_source
    first = packs[0] if packs else str(bundled_pack())
    try:
        source = open_source(first)
        data, problem = source.read(MANIFEST) if MANIFEST in source.members else (None, None)
        source.close()
        name = json.loads(data).get("ruleset") if data else None
    except (OSError, ValueError, AttributeError):
        return None
    ruleset = rulesets.get(name) if isinstance(name, str) else None
    if ruleset is None or ruleset.supports(need):
        return None
    can = ", ".join(sorted({c for c in ruleset.commands()})) or "none beyond validate and packs"
    return (f"the {ruleset.title} ruleset of {first} has no {rulesets.describe(need)}, so '{command}' cannot "
            f"run on it. Commands it supports besides validate and packs: {can}.")


def _option_problem(args) -> str | None:
    """The first numeric option outside its range (rules/limits.OPTION_RANGES), as a sentence."""
    for name, (low, high, unit) in OPTION_RANGES.items():
        value = getattr(args, name, None)
        for v in value if isinstance(value, list) else [value]:
            if isinstance(v, bool) or not isinstance(v, (int, float)):
                continue
            if not math.isfinite(v) or not low <= v <= high:
                flag = "--" + name.replace("_", "-")
                def show(x):
                    return f"{x:,}" if isinstance(x, int) else f"{x:g}"
                return f"{flag} must be between {show(low)} and {show(high)}{' ' + unit if unit else ''}, not {show(v)}"
    offset = getattr(args, "back_offset", None)
    if isinstance(offset, str):
        numbers = [n for n in offset.replace(" ", "").split(",")]
        try:
            if any(abs(float(n)) > BACK_OFFSET_MM or not math.isfinite(float(n)) for n in numbers):
                return f"--back-offset takes millimetres within ±{BACK_OFFSET_MM}, not {offset}"
        except ValueError:
            pass  # the command says how to write it
    return None


def _check_inputs(args, command: str) -> None:
    """Files the command will read, checked before any work: regular files within the size limit,
    and a printer profile whose values make sense (errors name the file)."""
    inputs = [getattr(args, "profile", None), getattr(args, "setup", None) if command in SETUP_FILE_OPTIONS else None,
              getattr(args, "log", None) if command == "replay" else None]
    for path in inputs:
        if isinstance(path, str):
            read_regular(path, what="file")
    profile = getattr(args, "profile", None)
    if isinstance(profile, str):
        from sandtable.rules.inputs import read_document
        doc, found = read_document(profile)
        if doc is None:
            raise InputError(f"printer profile {found[0].line_text().replace(' error ', ': ', 1)}")
        value = doc.value
        if not isinstance(value, dict) or value.get("kind") != "printer-profile":
            raise InputError(f'{profile}: not a printer profile (a JSON object with "kind": "printer-profile"; '
                             "make one with 'sandtable export profile')")
        off = value.get("back_offset_mm", [0, 0])
        if not (isinstance(off, list) and len(off) == 2 and all(isinstance(v, (int, float)) and not isinstance(
                v, bool) and abs(v) <= BACK_OFFSET_MM for v in off)):
            raise InputError(f"{profile}: back_offset_mm must be two numbers [x, y] within ±{BACK_OFFSET_MM} mm")
        for key, allowed in (("flip", ("long", "short")), ("marks", ("front", "both", "none"))):
            if value.get(key, allowed[0]) not in allowed:
                raise InputError(f"{profile}: {key} must be one of {', '.join(allowed)}, not {value.get(key)!r}")


def _short(exc: BaseException) -> str:
    text = " ".join(str(exc).split())
    return text if len(text) <= 200 else text[:199] + "\u2026"


if __name__ == "__main__":
    sys.exit(main())
