"""Helpers shared by the sub-commands: printing findings and verdicts, JSON output."""
from __future__ import annotations

import json
import sys

from sandtable.rules.findings import Finding, Severity


def add_pack_option(parser) -> None:
    parser.add_argument("--pack", action="append", default=[], metavar="PACK",
                        help="pack folder or zip (repeatable); default: the bundled pack")


def usage_error(message: str) -> int:
    """A usage problem: say it on stderr and exit 2."""
    sys.stderr.write(f"sandtable: {message}\n")
    return 2


def add_json_flags(parser) -> None:
    parser.add_argument("--format", choices=("text", "json"), default="text", help="output format")
    parser.add_argument("--json", dest="format", action="store_const", const="json", help="same as --format json")


def print_json(value) -> None:
    json.dump(value, sys.stdout, indent=2, ensure_ascii=False)
    sys.stdout.write("\n")


def verdict(files: int, findings: list[Finding]) -> str:
    errors = sum(1 for f in findings if f.severity == Severity.ERROR)
    warnings = sum(1 for f in findings if f.severity == Severity.WARNING)
    word = "FAILED" if errors else "OK"
    return f"{word}: {files} file(s) checked, {errors} error(s), {warnings} warning(s)"


def print_findings(findings: list[Finding], stream=None) -> None:
    stream = stream or sys.stdout
    for f in findings:
        stream.write(f.line_text() + "\n")
