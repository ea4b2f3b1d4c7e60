"""Error texts for users: what was wrong with what they typed, in their words, never
Python's (``invalid literal for int() with base 10``, ``Expecting value: line 1 column 1
(char 0)``, ``ValueError: …``)."""
from __future__ import annotations

import json
import sys
import traceback

# json's messages, said the way a designer typing in a field would understand them
_JSON_REASONS = (
    ("Expecting property name enclosed in double quotes", "a field name needs \"double quotes\""),
    ("Expecting value", "a value is missing here, or a text lacks its \"quotes\""),
    ("Expecting ',' delimiter", "a comma is missing between two values"),
    ("Expecting ':' delimiter", "a colon is missing after a field name"),
    ("Unterminated string", "a text is not closed with \""),
    ("Extra data", "there is more text after the value (two values, or a stray bracket)"),
    ("Invalid control character", "a text holds a line break or tab: write \\n or \\t instead"),
    ("Invalid \\escape", "a backslash starts an unknown escape (write \\\\ for a backslash)"),
)


def json_error(exc: ValueError) -> str:
    """"not valid JSON (line 2, column 5): a comma is missing between two values"."""
    if isinstance(exc, json.JSONDecodeError):
        reason = next((say for msg, say in _JSON_REASONS if exc.msg.startswith(msg)), exc.msg.lower())
        return f"not valid JSON (line {exc.lineno}, column {exc.colno}): {reason}"
    return "not valid JSON"


def number_error(text: str, whole: bool) -> str:
    return f"“{text}” is not a {'whole number' if whole else 'number'}"


def parse_int(text: str) -> int:
    """An integer as typed (spaces and a leading + allowed); ValueError with a user's message."""
    t = text.strip().replace(" ", "").replace("\u2212", "-")
    try:
        return int(t)
    except ValueError:
        try:
            v = float(t.replace(",", "."))
        except ValueError:
            raise ValueError(number_error(text.strip(), True)) from None
        if v.is_integer() and abs(v) < 1e15:
            return int(v)
        raise ValueError(number_error(text.strip(), True)) from None


def parse_number(text: str) -> int | float:
    t = text.strip().replace(" ", "").replace("\u2212", "-").replace(",", ".")
    try:
        v = float(t)
    except ValueError:
        raise ValueError(number_error(text.strip(), False)) from None
    if v != v or v in (float("inf"), float("-inf")):
        raise ValueError(number_error(text.strip(), False))
    return int(v) if v.is_integer() and abs(v) < 1e15 else v


def internal_error(what: str, exc: BaseException) -> str:
    """For a bug, not bad input: a sentence for the user; the traceback goes to stderr."""
    traceback.print_exception(type(exc), exc, exc.__traceback__, file=sys.stderr)
    return f"{what} stopped on an internal error (a bug: please report it with the details printed in the terminal)"
