"""Helpers shared by the sub-commands: printing findings and verdicts, JSON output."""
from __future__ import annotations

import json
import sys

from sandtable.rules.findings import Finding, Severity


def add_pack_option(parser) -> None:
    parser.add_argument("--pack", action="append", default=[], metavar="PACK",
                        help="pack folder or zip (repeatable); default: the bundled pack")


def load_pack(packs: list) -> "object":
    """The catalog of the --pack arguments (default: the bundled pack). Its errors, if any, are
    printed on stderr, every command alike (stdout stays clean for --json); each command decides
    what a broken pack means for its exit status (``catalog.errors``)."""
    from pathlib import Path

    from sandtable.rules.catalog import load_catalog
    catalog = load_catalog([Path(p) for p in packs] or None)
    if catalog.errors:
        print_findings([f for f in catalog.findings if f.severity == Severity.ERROR], sys.stderr)
    return catalog


def usage_error(message: str) -> int:
    """A usage problem: say it on stderr and exit 2."""
    sys.stderr.write(f"sandtable: {message}\n")
    return 2


def add_json_flags(parser) -> None:
    parser.add_argument("--format", choices=("text", "json"), default="text", help="output format")
    parser.add_argument("--json", dest="format", action="store_const", const="json", help="same as --format json")


def jsonable(value):
    """What ``json`` cannot write, as plain JSON values: read-only mappings (the model hands out
    ``mappingproxy``s), sets, tuples, paths, enums, dataclasses and objects with ``to_json``.
    Every --json output goes through this one place, so a new kind of value is taught here once."""
    import dataclasses
    import enum
    from collections.abc import Mapping, Set
    from os import PathLike

    if value is None or isinstance(value, (bool, int, str)):
        return value
    if isinstance(value, float):  # NaN and infinities are not JSON: --json stays parseable
        return value if value == value and value not in (float("inf"), float("-inf")) else None
    if isinstance(value, enum.Enum):
        return jsonable(value.value)
    if isinstance(value, Mapping):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, Set):  # a set has no order: sorted, so the output is the same run after run
        return sorted((jsonable(v) for v in value), key=lambda v: json.dumps(v, sort_keys=True))
    if isinstance(value, (list, tuple)):
        return [jsonable(v) for v in value]
    if isinstance(value, PathLike):
        return str(value)
    if callable(getattr(value, "to_json", None)):
        return jsonable(value.to_json())
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return jsonable(dataclasses.asdict(value))
    raise TypeError(f"no JSON form for {type(value).__name__}")


def json_text(value) -> str:
    """The one JSON writer of the command line (see ``jsonable``)."""
    return json.dumps(jsonable(value), indent=2, ensure_ascii=False, allow_nan=False)


def print_json(value) -> None:
    sys.stdout.write(json_text(value) + "\n")


def verdict(files: int, findings: list[Finding]) -> str:
    errors = sum(1 for f in findings if f.severity == Severity.ERROR)
    warnings = sum(1 for f in findings if f.severity == Severity.WARNING)
    word = "FAILED" if errors else "OK"
    return f"{word}: {files} file(s) checked, {errors} error(s), {warnings} warning(s)"


def print_findings(findings: list[Finding], stream=None) -> None:
    stream = stream or sys.stdout
    for f in findings:
        stream.write(f.line_text() + "\n")
