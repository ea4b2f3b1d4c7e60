"""Reading JSON documents safely, and mapping JSON pointers back to line and column.

The C json parser gives no positions, and jsonschema reports JSON pointers only, so
positions come from a second, lazy pass: ``SourceMap`` scans the text once, the first
time a finding in that document needs a line. Documents without findings never pay for it.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from . import limits
from .findings import Finding, finding

MAX_BYTES = limits.DOCUMENT_BYTES
MAX_DEPTH = limits.DEPTH

# Possessive quantifiers (Python 3.11+): a string is matched in one pass and never re-scanned,
# so an unterminated string of escaped quotes ('"\\"\\"\\"...') costs linear time, not quadratic.
_STRING = re.compile(r'"[^"\\]*+(?:\\.[^"\\]*+)*+"', re.S)
# A string, or an unterminated one running to the end of the text: what the skeleton scan removes.
_STRING_OR_REST = re.compile(r'"[^"\\]*+(?:\\.[^"\\]*+)*+(?:"|\\?\Z)', re.S)
_SKELETON = str.maketrans("", "", "".join(chr(c) for c in range(128) if chr(c) not in "[]{},"))


class _Reject(Exception):
    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code
        self.message = message


def _no_constants(name: str):
    raise _Reject("json-constant", f"{name} is not a JSON value (write a number or null)")


def _suspect(literal: str) -> bool:
    """Whether a number literal could break a limit: long, or with an exponent (the common path skips the check)."""
    return len(literal) > 8 or "e" in literal or "E" in literal


def _int(literal: str) -> int:
    problem = limits.number_problem(literal) if _suspect(literal) else None
    if problem:
        raise _Reject("limit-exceeded", problem)
    return int(literal)


def _float(literal: str) -> float:
    problem = limits.number_problem(literal) if _suspect(literal) else None
    if problem:
        raise _Reject("limit-exceeded", problem)
    return float(literal)


def _pairs(pairs):
    obj = dict(pairs)
    if len(obj) != len(pairs):
        seen = set()
        for k, _ in pairs:
            if k in seen:
                raise _Reject("json-duplicate-key", f"key {k!r} appears twice in the same object")
            seen.add(k)
    return obj


def scan(text: str) -> tuple[int, int]:
    """(deepest bracket nesting, an upper bound of the number of values), outside strings.

    One linear pass in C-speed regex and translate calls, no recursion: safe on hostile input,
    and run before parsing so that neither depth nor count can exhaust the parser.
    """
    skeleton = _STRING_OR_REST.sub("", text)
    skeleton = skeleton.encode("ascii", "ignore").decode("ascii").translate(_SKELETON)
    values = skeleton.count(",") + skeleton.count("[") + skeleton.count("{") + 1
    skeleton = skeleton.replace(",", "")
    depth = best = 0
    for ch in skeleton:
        if ch in "[{":
            depth += 1
            if depth > best:
                best = depth
        else:
            depth -= 1
    return best, values


def max_depth(text: str) -> int:
    """Deepest bracket nesting outside strings, without recursion (so hostile input is safe)."""
    return scan(text)[0]


@dataclass
class Document:
    """One JSON document of a pack: its path (as shown to users), text and parsed value."""

    path: str
    text: str
    value: Any = None
    _map: "SourceMap | None" = field(default=None, repr=False)
    size: int = 0  # about how many JSON values it holds (from the scan before parsing; limit load-values)

    @property
    def source_map(self) -> "SourceMap":
        if self._map is None:
            self._map = SourceMap(self.text)
        return self._map

    def locate(self, pointer: str) -> tuple[int, int]:
        if self._map is None and self.size > _FULL_MAP_VALUES:
            # A large document: walk to this one value (siblings skipped at C speed) instead of
            # mapping every value, which would cost seconds and a pointer string per value.
            return _line_col(self.text, locate_offset(self.text, pointer))
        return self.source_map.position(pointer)

    def finding(self, code: str, message: str, pointer: str = "", **kw) -> Finding:
        line, col = self.locate(pointer)
        return finding(code, message, file=self.path, pointer=pointer or None, line=line, column=col, **kw)


def parse(path: str, data: bytes) -> tuple[Document | None, list[Finding]]:
    """Decode and parse one document. Returns (document or None, findings); never raises."""
    findings: list[Finding] = []
    if len(data) > MAX_BYTES:
        return None, [finding("file-too-large",
                              f"{len(data):,} bytes is over the {MAX_BYTES:,}-byte limit for a document",
                              file=path)]
    if data.startswith(b"\xef\xbb\xbf"):
        findings.append(finding("json-bom", "starts with a UTF-8 byte-order mark", file=path, line=1, column=1))
        data = data[3:]
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        col = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
        return None, findings + [finding("json-encoding",
                                         f"byte 0x{data[exc.start]:02x} is not UTF-8 (save the file as UTF-8)",
                                         file=path, line=line, column=col)]
    depth, values = scan(text)
    if depth > MAX_DEPTH:
        return None, findings + [finding("json-too-deep", f"nests {depth} levels deep; the limit is {MAX_DEPTH}",
                                         file=path, line=1, column=1)]
    if values > limits.DOCUMENT_VALUES:
        return None, findings + [finding("limit-exceeded", f"holds about {values:,} JSON values; the limit is "
                                         f"{limits.DOCUMENT_VALUES:,} a document (limit document-values)",
                                         file=path, line=1, column=1)]
    try:
        value = json.loads(text, object_pairs_hook=_pairs, parse_constant=_no_constants,
                           parse_int=_int, parse_float=_float)
    except json.JSONDecodeError as exc:
        return None, findings + [finding("json-syntax", exc.msg, file=path, line=exc.lineno, column=exc.colno)]
    except _Reject as exc:
        doc = Document(path, text)
        line, col = doc.source_map.problem or (1, 1)
        return None, findings + [finding(exc.code, exc.message, file=path, line=line, column=col)]
    except RecursionError:  # defensive: scan should have caught it
        return None, findings + [finding("json-too-deep", "nests too deeply to read", file=path)]
    except ValueError as exc:  # defensive: a conversion limit of Python's own
        return None, findings + [finding("limit-exceeded", f"cannot read a value: {exc}", file=path)]
    problem = limits.value_problem(value)
    if problem is not None:
        pointer, why = problem
        doc = Document(path, text, value, size=values)
        return None, findings + [doc.finding("limit-exceeded", why, pointer)]
    lone = _lone_surrogate(text)
    if lone is not None:  # JSON allows "\ud800"; no UTF-8 text (or terminal, or saved file) can hold it
        line = text.count("\n", 0, lone) + 1
        col = lone - (text.rfind("\n", 0, lone) + 1) + 1
        return None, findings + [finding("json-encoding", f"{text[lone:lone + 6]} is half of a UTF-16 surrogate pair, "
                                         "not a character", file=path, line=line, column=col)]
    return Document(path, text, value, size=values), findings


_SURROGATE = re.compile(r"\\u[dD][89a-fA-F][0-9a-fA-F]{2}")
_PAIR = re.compile(r"\\u[dD][89abAB][0-9a-fA-F]{2}\\u[dD][c-fC-F][0-9a-fA-F]{2}")


def _lone_surrogate(text: str) -> int | None:
    """Offset of the first \\u escape of an unpaired surrogate in (well-formed) JSON text."""
    i = 0
    while (m := _SURROGATE.search(text, i)) is not None:
        start = k = m.start()
        while k > 0 and text[k - 1] == "\\":
            k -= 1
        if (start - k) % 2:  # an escaped backslash followed by the letters "ud800"
            i = m.end()
        elif _PAIR.match(text, start):
            i = start + 12
        else:
            return start
    return None


# --- positions ---------------------------------------------------------------------------

_WS = re.compile(r"[ \t\n\r]*")
_NUMBER = re.compile(r"-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?")
_LITERAL = re.compile(r"true|false|null|NaN|-?Infinity")


_FULL_MAP_VALUES = 50_000
_DECODER = json.JSONDecoder()


def _line_col(text: str, offset: int) -> tuple[int, int]:
    line = text.count("\n", 0, offset) + 1
    return line, offset - (text.rfind("\n", 0, offset) + 1) + 1


def locate_offset(text: str, pointer: str) -> int:
    """Offset of the value at pointer (of its nearest existing ancestor otherwise), walking
    only the path: each sibling before it is skipped by the C decoder. Never raises."""
    parts = [p.replace("~1", "/").replace("~0", "~") for p in pointer.split("/")[1:]] if pointer else []
    ws = lambda k: _WS.match(text, k).end()  # noqa: E731
    i = best = ws(0)
    try:
        for part in parts:
            if text[i] == "{":
                i = ws(i + 1)
                while text[i] != "}":
                    m = _STRING.match(text, i)
                    key = json.loads(m.group())
                    i = ws(ws(m.end()) + 1)  # past the colon
                    if key == part:
                        break
                    i = ws(_DECODER.raw_decode(text, i)[1])
                    if text[i] == ",":
                        i = ws(i + 1)
                else:
                    return best
            elif text[i] == "[" and part.isdigit():
                i = ws(i + 1)
                for _ in range(int(part)):
                    if text[i] == "]":
                        return best
                    i = ws(_DECODER.raw_decode(text, i)[1])
                    if text[i] == ",":
                        i = ws(i + 1)
                if text[i] == "]":
                    return best
            else:
                return best
            best = i
    except (IndexError, ValueError, AttributeError):
        return best
    return best


def escape(token: str) -> str:
    return token.replace("~", "~0").replace("/", "~1")


class SourceMap:
    """Pointer -> (line, column) of each value; key positions for object members.

    It also remembers the first NaN/Infinity, duplicate key or number over the limits it
    meets (``problem``), so those rejections can be reported at their line. Depth was bounded before this runs.
    """

    def __init__(self, text: str):
        self.text = text
        self.values: dict[str, int] = {}
        self.keys: dict[str, int] = {}
        self.problem: tuple[int, int] | None = None
        self._line_starts = [0] + [m.end() for m in re.finditer("\n", text)]
        try:
            self._value(_WS.match(text, 0).end(), "")
        except (IndexError, ValueError):
            pass  # malformed text: keep whatever positions were found

    def _ws(self, i: int) -> int:
        return _WS.match(self.text, i).end()

    def _flag(self, i: int) -> None:
        if self.problem is None:
            self.problem = self.line_col(i)

    def _value(self, i: int, ptr: str) -> int:
        self.values[ptr] = i
        ch = self.text[i]
        if ch == "{":
            i = self._ws(i + 1)
            seen: set[str] = set()
            duplicate = None  # json.loads rejects a duplicate key when its object closes
            if self.text[i] == "}":
                return i + 1
            while True:
                m = self._string(i)
                key = json.loads(m.group())
                child = f"{ptr}/{escape(key)}"
                if key in seen and duplicate is None:
                    duplicate = i
                seen.add(key)
                self.keys[child] = i
                i = self._ws(m.end())
                i = self._ws(i + 1)  # the colon
                i = self._ws(self._value(i, child))
                if self.text[i] == "}":
                    if duplicate is not None:
                        self._flag(duplicate)
                    return i + 1
                i = self._ws(i + 1)  # the comma
        if ch == "[":
            i = self._ws(i + 1)
            n = 0
            if self.text[i] == "]":
                return i + 1
            while True:
                i = self._ws(self._value(i, f"{ptr}/{n}"))
                n += 1
                if self.text[i] == "]":
                    return i + 1
                i = self._ws(i + 1)
        if ch == '"':
            return self._string(i).end()
        m = _LITERAL.match(self.text, i)
        if m:
            if m.group() in ("NaN", "Infinity", "-Infinity"):
                self._flag(i)
            return m.end()
        m = _NUMBER.match(self.text, i)
        if not m:
            raise ValueError(i)
        if _suspect(m.group()) and limits.number_problem(m.group()):
            self._flag(i)
        return m.end()

    def _string(self, i: int) -> re.Match:
        m = _STRING.match(self.text, i)
        if m is None:  # malformed text (scanned after a NaN or duplicate key was rejected)
            raise ValueError(i)
        return m

    def line_col(self, offset: int) -> tuple[int, int]:
        import bisect
        line = bisect.bisect_right(self._line_starts, offset) - 1
        return line + 1, offset - self._line_starts[line] + 1

    def position(self, pointer: str) -> tuple[int, int]:
        """Line and column of the value at pointer; of its nearest existing ancestor otherwise."""
        p = pointer
        while True:
            if p in self.values:
                return self.line_col(self.values[p])
            if not p:
                return 1, 1
            p = p.rsplit("/", 1)[0]

    def key_position(self, pointer: str) -> tuple[int, int]:
        if pointer in self.keys:
            return self.line_col(self.keys[pointer])
        return self.position(pointer)


def pointer_of(path) -> str:
    """JSON pointer from a sequence of keys and indices (as jsonschema's error.path)."""
    return "".join(f"/{escape(str(p))}" for p in path)
