"""The ``sandtable`` command: everything but editing, without a display."""
from __future__ import annotations

import argparse
import sys

from sandtable import __version__

from . import (board_cmds, codes_cmd, edit_cmd, game_cmds, packs_cmd, provenance_cmd, scenario_cmds, setup_cmd,
               validate_cmd)
from . import supply_cmd
from . import export_cmd
from . import sweep_cmd

COMMANDS = (validate_cmd, packs_cmd, scenario_cmds, provenance_cmd, setup_cmd, board_cmds, game_cmds, codes_cmd,
            edit_cmd, supply_cmd, export_cmd, sweep_cmd)


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # usage errors exit 2, as argparse does, but say how to get help
        self.print_usage(sys.stderr)
        self.exit(2, f"{self.prog}: error: {message}\nTry '{self.prog} --help'.\n")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="sandtable", description="A workbench for Tank Leader hex-and-counter wargames (Desert Steel): "
                                                    "validate packs and mods, check setups, play test games, print the kit, edit.")
    parser.add_argument("--version", action="version", version=f"sandtable {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for module in COMMANDS:
        module.register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    for stream in (sys.stdout, sys.stderr):  # a file name that is not valid text must not crash a report
        if hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="backslashreplace")
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "run", None):
        parser.print_help()
        return 2
    try:
        return args.run(args)
    except BrokenPipeError:  # e.g. piped into head
        return 0
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
