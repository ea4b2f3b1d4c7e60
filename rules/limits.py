"""Every limit sandtable sets on what it reads and on the work one command may do: one place.

Packs, setups, logs and printer profiles come from strangers. Each limit here is checked
*before* the work it protects (a size before reading, a count of values before parsing,
a patch's growth before applying it, a scenario's counts before anything is printed or
played), and a breach is a finding naming the file, line and JSON pointer with the code
``limit-exceeded`` — never a hang, a ``MemoryError`` or a traceback.

docs/limits.md lists each limit with its value, why it exists and how a pack author
meets it; ``tests/test_limits_doc.py`` keeps the two in step. The values are far above
anything the bundled packs need (the largest bundled document has under 2,000 JSON
values, the longest string under 3,000 characters, the largest number 1943).
"""
from __future__ import annotations

import math
import os
import stat
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Limit:
    key: str  # as named in findings and docs/limits.md
    value: int | float
    unit: str
    why: str
    meet: str  # how a pack author stays within it


LIMITS: dict[str, Limit] = {}


def _limit(key: str, value, unit: str, why: str, meet: str):
    LIMITS[key] = Limit(key, value, unit, why, meet)
    return value


# --- reading files -------------------------------------------------------------------------

DOCUMENT_BYTES = _limit(
    "document-bytes", 32 * 1024 * 1024, "bytes",
    "A document is read whole into memory; its size is checked with stat before reading.",
    "Split a large collection over several documents of the same kind.")
DEPTH = _limit(
    "depth", 64, "levels of nesting",
    "Deeply nested JSON exhausts the parser's and validator's recursion.",
    "Pack data nests a handful of levels; flatten structures that nest deeper.")
DOCUMENT_VALUES = _limit(
    "document-values", 1_000_000, "JSON values (objects, arrays, strings, numbers...) per document",
    "Each value costs tens of bytes once parsed: counted before parsing, so a file of many empty "
    "lists cannot take gigabytes.",
    "Split the document; a whole map is a few thousand values.")
PACK_BYTES = _limit(
    "pack-bytes", 256 * 1024 * 1024, "bytes in all the documents of one pack",
    "Read from the zip's directory or with stat before any document is read, so a pack of hundreds of "
    "large documents is refused at once instead of scanned for minutes.",
    "The bundled pack's documents hold under 1 MB; leave generated bulk data out of packs.")
LOAD_VALUES = _limit(
    "load-values", 5_000_000, "JSON values in all the documents one command loads",
    "Bounds the memory of a load made of many documents or many packs.",
    "Load fewer packs at once, or trim unused objects.")
STRING_CHARS = _limit(
    "string-chars", 100_000, "characters in one string",
    "Texts are printed on cards and sheets; a megabyte of text in one field is an accident or an attack.",
    "Keep background and rule texts to a few pages; the longest bundled text is under 3,000 characters.")
LIST_ITEMS = _limit(
    "list-items", 100_000, "items in one list",
    "Lists are iterated by checks and exports; their length bounds the work.",
    "Split long lists over several objects or documents.")
INT_DIGITS = _limit(
    "int-digits", 16, "digits in an integer",
    "Python refuses to convert integers of 4,300+ digits and arithmetic on huge ones is slow; "
    "no game value needs more than a few digits.",
    "Write ordinary numbers; seeds and counts fit in 16 digits (and under number-magnitude).")
NUMBER_MAGNITUDE = _limit(
    "number-magnitude", 1e15, "absolute value of any number",
    "1e400 reads as infinity and overflows page and map arithmetic.",
    "Use real-world magnitudes (centimetres, metres, points).")

# --- pack archives (see packsource) --------------------------------------------------------

ZIP_MEMBERS = _limit(
    "zip-members", 20_000, "members in a pack zip",
    "The member table is read before anything else; a zip of millions of members is a bomb.",
    "A pack has tens of documents; zip the pack folder only.")
ZIP_TOTAL_BYTES = _limit(
    "zip-total-bytes", 512 * 1024 * 1024, "bytes unpacked from one zip",
    "Bounds the reading of a whole archive.",
    "Leave images and other large non-data files out of the pack.")
ZIP_RATIO = _limit(
    "zip-ratio", 200, "compression ratio of a zip member larger than 1 MiB",
    "JSON compresses well, but not 200:1 unless it is a zip bomb.",
    "Zip ordinary JSON with the default compression.")

# --- overrides (RFC 6902 patches) ----------------------------------------------------------

PATCH_OPS = _limit(
    "patch-ops", 10_000, "operations in one override's patch",
    "Each operation is applied and, when a test fails, located; the count bounds that work.",
    "Replace the whole object when a patch would need thousands of operations.")
PATCH_VALUES = _limit(
    "patch-values", 200_000, "JSON values one patch may add (values of add/replace, subtrees copied)",
    "A patch that copies a subtree onto itself doubles it each time: 30 copies are a billion values.",
    "Copy small subtrees; replace the object instead of rebuilding it by copies.")

# --- counts per scenario and map sizes (checked when a pack is loaded) ----------------------

TRANSPORT_COUNT = _limit(
    "transport-count", 100, "transports of one entry of a scenario side (count)",
    "Each transport becomes a counter to print and a unit to play.",
    "The rulebook's scenarios give at most a dozen of each kind.")
FORTIFICATION_COUNT = _limit(
    "fortification-count", 200, "fortifications of one kind for a scenario side (count)",
    "Each minefield, wire, bunker or entrenchment is placed, printed and checked every move.",
    "The rulebook's scenarios give at most a few dozen.")
RAID_COUNT = _limit(
    "raid-count", 100, "air strikes or bombardments of a scenario side (count)",
    "Each raid is a card drawn and resolved in play.",
    "The rulebook's scenarios give at most a handful.")
SMOKE_COUNT = _limit(
    "smoke-count", 1_000, "smoke markers of a scenario side",
    "Markers are printed and tracked per turn.",
    "The rulebook's scenarios give at most a few dozen.")
MAP_CM = _limit(
    "map-cm", 1_000, "centimetres of a map's printed width or height, or of a miniatures table",
    "Maps are printed at true scale, tiled over pages: the size bounds the pages.",
    "A geomorphic map is under a metre; a table a few metres at most.")
HEX_METRES = _limit(
    "hex-metres", 100_000, "metres of ground per hex",
    "Ground scales feed range and movement arithmetic.",
    "Desert Steel uses 150 m.")

# --- commands -------------------------------------------------------------------------------

SIM_GAMES = _limit(
    "sim-games", 1_000_000_000, "games in one simulate batch",
    "Results are streamed and only the totals kept, so memory does not grow with the games; the count "
    "bounds time only.",
    "Run batches of thousands; use --seed to continue a series.")
SEARCH_ROLLOUTS = _limit(
    "search-rollouts", 10_000, "rollouts a decision of the search bot (--bots search:N)",
    "Each rollout plays the game on to its end; N multiplies the time of every decision, so a typo of "
    "a few extra digits would run for years.",
    "The default is 16; a few hundred is already a slow, strong bot.")
OUTPUT_PATH_BYTES = _limit(
    "output-path-bytes", 4096, "bytes of an output path (255 per name)",
    "Longer paths are refused by the system with an unhelpful error.",
    "Write to a shorter folder.")


BACK_OFFSET_MM = _limit(
    "back-offset-mm", 20, "millimetres of a printer profile's back offset, each way",
    "A duplex printer drifts by a few millimetres; more is a typo that would print backs off the sheet.",
    "Measure the drift on the calibration sheet; it is read in millimetres.")

# --- what a user types ---------------------------------------------------------------------

LABEL_CHARS = _limit(
    "label-chars", 1_000, "characters in a name typed on the command line (a --vary target, a label)",
    "Names become chart labels, table cells and file contents; a longer one is a paste gone wrong.",
    "Name objects by their ids; values have their own limits (string-chars, int-digits...).")
CSV_BYTES = _limit(
    "csv-bytes", 8 * 1024 * 1024, "bytes of a CSV file imported into the editor's bulk grid",
    "A CSV is read whole and every cell checked like pack data; its size is checked with stat before reading.",
    "Import one collection at a time; a collection of thousands of rows is well under a megabyte.")


# Numeric command-line options: name (as argparse stores it) -> (lowest, highest, unit). Checked for
# every command before it runs (sandtable/cli), so a negative bleed or a huge overlap is a usage error.
OPTION_RANGES: dict[str, tuple[float, float, str]] = {
    "bleed": (0, 10, "mm"),
    "overlap": (0, 50, "mm"),
    "year": (1900, 2100, ""),
    "card": (1, 99_999, ""),
    "seed": (0, 2 ** 63 - 1, ""),
    "games": (1, SIM_GAMES, "games"),
    "jobs": (1, 4096, "processes (capped at the CPUs and games)"),
    "setups": (0, 10_000, "setups"),
    "turn": (1, 1_000, ""),
    "chunk": (1, 100_000, "games"),
    "connect_timeout": (0.1, 3_600, "seconds"),
}
_limit("option-ranges", len(OPTION_RANGES), "numeric command-line options with a range",
       "Bleed, overlap, games, jobs, seeds... outside their range are usage errors (exit 2), not silent "
       "nonsense or exhaustion: see the table below.",
       "Not a pack limit.")


@dataclass(frozen=True)
class CountLimit:
    """A number in a pack document that multiplies later work, and its maximum (a ruleset
    declares its own: rulesets.Ruleset.limits)."""

    kind: str  # the document's "kind"
    path: tuple[str, ...]  # keys; "*" any member or item
    limit: str  # key in LIMITS


def count_breaches(ruleset, kind: str, value) -> list[tuple[str, object, Limit]]:
    """(pointer, number, limit) of each count of a document over its limit (the ruleset's, or by name)."""
    if isinstance(ruleset, str):
        from . import rulesets
        ruleset = rulesets.get(ruleset)
    out = []
    for rule in getattr(ruleset, "limits", ()) or ():
        if not isinstance(rule, CountLimit) or rule.kind != kind or rule.limit not in LIMITS:
            continue
        for pointer, number in _walk(value, rule.path, ""):
            lim = LIMITS[rule.limit]
            if isinstance(number, (int, float)) and not isinstance(number, bool) and number > lim.value:
                out.append((pointer, number, lim))
    return out


def _walk(value, path: tuple[str, ...], pointer: str):
    if not path:
        yield pointer, value
        return
    head, rest = path[0], path[1:]
    if head == "*":
        children = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
        for k, child in children:
            yield from _walk(child, rest, f"{pointer}/{str(k).replace('~', '~0').replace('/', '~1')}")
    elif isinstance(value, dict) and head in value:
        yield from _walk(value[head], rest, f"{pointer}/{head}")


# --- numbers and values ----------------------------------------------------------------------

def number_problem(literal: str) -> str | None:
    """Why a JSON number literal is refused, or None (checked on the text, before conversion)."""
    digits = literal.lstrip("-")
    if digits.isdigit():
        if len(digits) > INT_DIGITS:
            return f"an integer of {len(digits):,} digits; the limit is {INT_DIGITS} (limit int-digits)"
        if int(digits) > NUMBER_MAGNITUDE:
            return f"{literal} is larger than {NUMBER_MAGNITUDE:g} (limit number-magnitude)"
        return None
    try:
        number = float(literal)
    except (ValueError, OverflowError):
        return f"{literal[:40]} is not a usable number"
    if not math.isfinite(number) or abs(number) > NUMBER_MAGNITUDE:
        return f"{literal[:40]} is larger than {NUMBER_MAGNITUDE:g} (limit number-magnitude)"
    return None


def _over(value) -> bool:
    """Whether any string, key or list of a parsed value is over its limit (the fast pass: no pointers)."""
    stack = [value]
    pop, push = stack.pop, stack.append
    while stack:
        v = pop()
        if type(v) is dict:
            if v and max(map(len, v)) > STRING_CHARS:
                return True
            items = v.values()
        else:
            if len(v) > LIST_ITEMS:
                return True
            items = v
        for x in items:
            t = type(x)
            if t is str:
                if len(x) > STRING_CHARS:
                    return True
            elif t is dict or t is list:
                push(x)
    return False


def value_problem(value) -> tuple[str, str] | None:
    """(pointer, why) of the first string or list over its limit in a parsed value; linear, no recursion."""
    if isinstance(value, str):
        if len(value) <= STRING_CHARS:
            return None
    elif not isinstance(value, (dict, list)) or not _over(value):
        return None  # the common case, found without building a pointer per value
    stack = [(value, "")]
    while stack:
        v, ptr = stack.pop()
        if isinstance(v, str):
            if len(v) > STRING_CHARS:
                return ptr, f"a string of {len(v):,} characters; the limit is {STRING_CHARS:,} (limit string-chars)"
        elif isinstance(v, list):
            if len(v) > LIST_ITEMS:
                return ptr, f"a list of {len(v):,} items; the limit is {LIST_ITEMS:,} (limit list-items)"
            stack.extend((x, f"{ptr}/{i}") for i, x in enumerate(v) if isinstance(x, (str, list, dict)))
        elif isinstance(v, dict):
            for k, x in v.items():
                key = k.replace("~", "~0").replace("/", "~1")
                if len(k) > STRING_CHARS:
                    return f"{ptr}/{key[:40]}", f"a key of {len(k):,} characters; the limit is {STRING_CHARS:,} " \
                                                "(limit string-chars)"
                if isinstance(x, (str, list, dict)):
                    stack.append((x, f"{ptr}/{key}"))
    return None


def user_json(text: str) -> tuple[object, str | None]:
    """A JSON value typed by a user (a --vary value, a CSV cell): (value, None), or (None, why)
    when it breaks a limit pack data must keep — checked before or while parsing, so a deep
    nest, a 4,300-digit integer, NaN or 1e309 is a sentence, not a RecursionError or inf."""
    import json
    if len(text) > STRING_CHARS + 2:
        return None, f"{len(text):,} characters; the limit is {STRING_CHARS:,} (limit string-chars)"
    depth = deepest = 0
    in_str = escaped = False
    for ch in text:  # nesting counted on the text: json.loads would recurse first
        if in_str:
            escaped = not escaped and ch == "\\"
            if ch == '"' and not escaped:
                in_str = False
            continue
        if ch == '"':
            in_str, escaped = True, False
        elif ch in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif ch in "]}":
            depth -= 1
    if deepest > DEPTH:
        return None, f"nests {deepest} levels deep; the limit is {DEPTH} (limit depth)"

    def number(literal: str):
        why = number_problem(literal)
        if why:
            raise ValueError(why)
        return int(literal) if literal.lstrip("-").isdigit() else float(literal)

    def constant(name: str):
        raise ValueError(f"{name} is not a number JSON allows (finite numbers only)")
    try:
        value = json.loads(text, parse_int=number, parse_float=number, parse_constant=constant)
    except json.JSONDecodeError as exc:
        return None, f"not a JSON value ({exc.msg})"
    except (ValueError, RecursionError) as exc:
        return None, str(exc)[:200]
    problem = value_problem(value)
    if problem:
        return None, (f"at {problem[0]}: " if problem[0] else "") + problem[1]
    if count_values(value, DOCUMENT_VALUES) > DOCUMENT_VALUES:
        return None, f"more than {DOCUMENT_VALUES:,} JSON values (limit document-values)"
    return value, None


def text_problem(text: str, limit: int = LABEL_CHARS, what: str = "text") -> str | None:
    """Why a name typed by a user is refused: too long, or holding control characters."""
    if len(text) > limit:
        key = "label-chars" if limit == LABEL_CHARS else "string-chars"
        return f"the {what} is {len(text):,} characters long; the limit is {limit:,} (limit {key})"
    bad = next((c for c in text if ord(c) < 32 or 0x7f <= ord(c) < 0xa0 or 0xd800 <= ord(c) < 0xe000), None)
    if bad is not None:
        return f"the {what} holds the control character U+{ord(bad):04X}"
    return None


def count_values(value, budget: int) -> int:
    """How many JSON values a parsed value holds, counting no further than budget + 1 (linear in that)."""
    n = 0
    stack = [value]
    while stack and n <= budget:
        v = stack.pop()
        n += 1
        if isinstance(v, dict):
            stack.extend(v.values())
        elif isinstance(v, list):
            stack.extend(v)
    return n


# --- reading regular files only --------------------------------------------------------------

class InputError(Exception):
    """A file named by the user cannot be read as data: not there, not a regular file, too large..."""


def read_regular(path: str | Path, limit: int | None = None, what: str = "file") -> bytes:
    """The bytes of a regular file no larger than limit, checked before reading.

    FIFOs, devices (``/dev/zero``), sockets and folders are refused without being read: a
    FIFO would block forever and a device never ends. The size comes from fstat of the
    open file (so a file swapped after the check cannot be read past the limit either).
    Raises InputError with a sentence that names the file.
    """
    limit = DOCUMENT_BYTES if limit is None else limit
    shown = str(path)
    try:
        st = os.stat(path)
    except FileNotFoundError:
        raise InputError(f"{shown}: no such {what}") from None
    except OSError as exc:
        raise InputError(f"{shown}: cannot read: {exc.strerror or exc}") from None
    if stat.S_ISDIR(st.st_mode):
        raise InputError(f"{shown}: is a folder, not a {what}")
    if not stat.S_ISREG(st.st_mode):
        raise InputError(f"{shown}: is a {file_kind(st.st_mode)}, not a regular file; only regular files are read")
    if st.st_size > limit:
        raise InputError(f"{shown}: {st.st_size:,} bytes is over the {limit:,}-byte limit (limit document-bytes)")
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as exc:
        raise InputError(f"{shown}: cannot read: {exc.strerror or exc}") from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):  # swapped between stat and open
            raise InputError(f"{shown}: is a {file_kind(st.st_mode)}, not a regular file")
        with os.fdopen(fd, "rb", closefd=False) as fh:
            data = fh.read(limit + 1)
    except OSError as exc:
        raise InputError(f"{shown}: cannot read: {exc.strerror or exc}") from None
    finally:
        os.close(fd)
    if len(data) > limit:
        raise InputError(f"{shown}: more than {limit:,} bytes (limit document-bytes)")
    return data


def file_kind(mode: int) -> str:
    """What a non-regular file is, in words ("FIFO (named pipe)", "folder"...), for refusals."""
    if stat.S_ISLNK(mode):
        return "symbolic link"
    if stat.S_ISFIFO(mode):
        return "FIFO (named pipe)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "device"
    if stat.S_ISSOCK(mode):
        return "socket"
    if stat.S_ISDIR(mode):
        return "folder"
    return "special file"
