"""JSON pointers over immutable-by-convention JSON values (no Qt).

The editor never mutates a JSON value in place: an edit copies the containers along the
pointer's path and shares everything else (path copying). A snapshot of the whole pack is
then a dict of references, taken in microseconds on the UI thread and handed to the
validation thread without a deep copy.
"""
from __future__ import annotations

from typing import Any

MISSING = object()  # "no value here": setting MISSING removes a key


def escape(token: str) -> str:
    return token.replace("~", "~0").replace("/", "~1")


def unescape(token: str) -> str:
    return token.replace("~1", "/").replace("~0", "~")


def split(pointer: str) -> list[str]:
    if not pointer:
        return []
    if not pointer.startswith("/"):
        raise ValueError(f"not a JSON pointer: {pointer!r}")
    return [unescape(t) for t in pointer[1:].split("/")]


def join(tokens) -> str:
    return "".join(f"/{escape(str(t))}" for t in tokens)


def child(pointer: str, token) -> str:
    return f"{pointer}/{escape(str(token))}"


def get(value: Any, pointer: str, default: Any = MISSING) -> Any:
    cur = value
    for tok in split(pointer):
        if isinstance(cur, dict):
            if tok not in cur:
                return default
            cur = cur[tok]
        elif isinstance(cur, list):
            try:
                i = int(tok)
            except ValueError:
                return default
            if not 0 <= i < len(cur):
                return default
            cur = cur[i]
        else:
            return default
    return cur


def set_in(value: Any, pointer: str, new: Any) -> Any:
    """A copy of ``value`` with ``new`` at ``pointer`` (MISSING removes it); missing parent
    objects are created. Containers off the path are shared, never copied."""
    tokens = split(pointer)
    if not tokens:
        return new
    return _set(value, tokens, new)


def _set(cur: Any, tokens: list[str], new: Any) -> Any:
    tok, rest = tokens[0], tokens[1:]
    if isinstance(cur, list):
        out = list(cur)
        i = len(out) if tok == "-" else int(tok)
        if rest:
            out[i] = _set(out[i], rest, new)
        elif new is MISSING:
            del out[i]
        elif i == len(out):
            out.append(new)
        else:
            out[i] = new
        return out
    out = dict(cur) if isinstance(cur, dict) else {}
    if rest:
        out[tok] = _set(out.get(tok, {}), rest, new)
    elif new is MISSING:
        out.pop(tok, None)
    else:
        out[tok] = new
    return out


def is_prefix(prefix: str, pointer: str) -> bool:
    return prefix == "" or pointer == prefix or pointer.startswith(prefix + "/")
