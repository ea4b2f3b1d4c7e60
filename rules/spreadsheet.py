"""Cells of the CSV files sandtable writes (a sweep's summary.csv, the editor's bulk export).

A spreadsheet runs a cell that starts with ``=``, ``+``, ``-`` or ``@`` as a formula
(``=HYPERLINK(...)`` in a unit's name is CSV injection), and some also a tab or carriage
return: OWASP's rule is to prefix such a text cell with a single quote, which the
spreadsheet shows as text. Numbers are written as numbers (``-3`` stays a number);
booleans as ``true``/``false`` as in JSON, not Python's ``True``.
"""
from __future__ import annotations

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def safe_text(text: str) -> str:
    """A text cell a spreadsheet will not run as a formula."""
    return "'" + text if text.startswith(FORMULA_STARTS) else text


def is_neutralised(text: str) -> bool:
    """Whether a cell read back was written by safe_text (its quote is to be dropped)."""
    return text.startswith("'") and text[1:].startswith(FORMULA_STARTS)


def restore(text: str) -> str:
    """The text safe_text was given (for a CSV sandtable wrote and the user imports again)."""
    return text[1:] if is_neutralised(text) else text


def cell(value) -> object:
    """A value as a CSV cell: numbers as they are, booleans as JSON's words, text neutralised."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)) or value is None:
        return "" if value is None else value
    return safe_text(str(value))
