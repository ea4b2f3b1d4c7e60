"""Findings: the one way every part of sandtable reports a problem with user data.

Loading and checking never raise on bad data; they return findings. Each code is listed
once in CODES with its default severity and a sentence for the docs, so the list of codes
is the documentation (``sandtable codes`` prints it) and tests can prove every code is
reachable.
"""
from __future__ import annotations

import enum
from dataclasses import dataclass, field, replace


class Severity(enum.IntEnum):
    INFO = 0
    WARNING = 1
    ERROR = 2

    def __str__(self) -> str:  # "error", as printed in compiler-style lines
        return self.name.lower()


@dataclass(frozen=True)
class Code:
    code: str
    severity: Severity
    summary: str


def _codes(*rows: tuple[str, Severity, str]) -> dict[str, Code]:
    return {c: Code(c, s, t) for c, s, t in rows}


E, W, I = Severity.ERROR, Severity.WARNING, Severity.INFO

_SHARED: dict[str, Code] = _codes(
    # reading files
    ("file-missing", E, "A file or folder named on the command line or in a pack does not exist."),
    ("file-unreadable", E, "A file exists but cannot be read."),
    ("file-too-large", E, "A document is larger than the size limit and was not read."),
    ("json-encoding", E, "A document is not valid UTF-8 text."),
    ("json-bom", W, "A document starts with a byte-order mark; it was read, but save it without one."),
    ("json-syntax", E, "A document is not well-formed JSON."),
    ("json-constant", E, "A document uses NaN or Infinity, which JSON does not allow."),
    ("json-duplicate-key", E, "An object names the same key twice; only one value could survive."),
    ("json-too-deep", E, "A document nests deeper than the limit."),
    ("not-data", W, "A pack holds a file that is not a JSON document; it is ignored, never executed."),
    ("limit-exceeded", E, "A document, pack or patch goes over one of sandtable's limits (size, values, strings, "
                          "numbers, lists, patch growth, counts per scenario, map size): see docs/limits.md."),
    # schemas
    ("schema-broken", E, "A schema shipped with sandtable or a ruleset is itself invalid."),
    ("unknown-kind", E, "A document's \"kind\" is not one the pack's ruleset knows."),
    ("ruleset-plugin", E, "A third party's ruleset plug-in failed: its check raised, exited or returned something "
                          "other than findings, or it claimed a built-in ruleset's name (the built-in is used). "
                          "The finding names the plug-in and its distribution."),
    ("schema", E, "A document does not follow its schema (wrong type, missing or unknown field...)."),
    # packs and layering
    ("pack-manifest-missing", E, "A pack folder or zip has no pack.json."),
    ("pack-duplicate", E, "Two packs on the search path have the same id."),
    ("pack-shadowed", W, "A pack id is found in more than one place; the bundled pack (or the one named first) "
                         "is used and the other ignored."),
    ("pack-dependency-missing", E, "A pack depends on a pack that is not available."),
    ("pack-dependency-version", E, "A pack depends on a version range its dependency does not satisfy."),
    ("pack-dependency-cycle", E, "Packs depend on each other in a cycle."),
    ("pack-ruleset-mismatch", E, "A mod pack names another ruleset than the pack it extends."),
    ("duplicate-id", E, "Two objects of the same kind have the same id (a mod must override explicitly)."),
    ("override-target-missing", E, "An override or removal names an object that no earlier pack defines."),
    ("override-conflict", W, "Two mod packs override or remove the same object; the later one wins."),
    ("override-stale", E, "An override's test of the base value failed: it was made for another version of its base."),
    ("override-patch", E, "An override's JSON Patch cannot be applied to its target."),
    ("override-invalid", E, "An override leaves its object invalid against the schema."),
    # pack archives
    ("zip-corrupt", E, "A pack archive cannot be read as a zip file."),
    ("zip-unsafe-path", E, "A zip member's path is absolute or climbs out of the pack (path traversal)."),
    ("pack-link", E, "A pack member is a symbolic link or special file; it is not followed."),
    ("zip-duplicate", E, "A zip holds two members with the same name."),
    ("zip-too-many", E, "A zip holds more members than the limit."),
    ("zip-too-large", E, "A zip member, or the whole archive, unpacks larger than the limit."),
    ("zip-bomb", E, "A zip member is compressed far more than data can be (a zip bomb)."),
    # references and content
    ("unknown-reference", E, "A reference names an object that does not exist."),
    ("card-year-missing", E, "A formation card has no variant for the year a scenario uses it."),
    ("card-year-outside-dates", E, "A card variant's year lies outside the card's dates of use."),
    ("card-side-mismatch", E, "A command card's subordinate belongs to the other side."),
    ("card-wrong-kind", E, "A card is used where the other kind of card is required."),
    ("card-number-in-use", E, "A formation card number is used by two cards."),
    ("scenario-side-mismatch", E, "A scenario gives a side a formation of the other side."),
    ("hex-unknown", E, "A hex id does not exist on its map."),
    ("road-gap", E, "Two consecutive hexes of a road or track are not adjacent."),
    ("map-configuration-invalid", E, "A map configuration's layout is not a proper grid of maps."),
    ("provenance-missing", W, "A value has no provenance (rulebook + section, example + section, or reconstructed)."),
    ("provenance-pointer", E, "A provenance entry points at a field that does not exist."),
    ("table-gap", E, "A rule table's ranges overlap or leave a gap."),
    # setups (§18.4) and zones
    ("zone-invalid", E, "A zone expression cannot be evaluated on the scenario's board."),
    ("board-invalid", E, "The maps of a configuration cannot be joined into one board."),
    ("scenario-unplayable", E, "The engine would refuse to play the scenario: e.g. a basic-rules scenario with a card "
                               "that has no fighting vehicle, only infantry, guns, FOs or carriers (§2.11), or special "
                               "rules that disagree."),
    ("setup-unplayable", E, "The engine would not start a game from the setup for a reason the other setup rules do "
                             "not cover (raids planned beyond the scenario's, §16.21, §16.31; units loaded at set-up)."),
    ("setup-hex", E, "A unit, fortification or transport is placed on a hex that cannot be used (half hex, off the board)."),
    ("setup-zone", E, "A unit is placed outside its formation's setup zone."),
    ("setup-formation", E, "A unit is placed for a formation that does not set up on the map at the start."),
    ("setup-units", E, "The units placed differ from the card's units for the scenario year less the undermanned removals."),
    ("setup-stacking", E, "More than the stacking limit of one side's units in a hex."),
    ("setup-separated", E, "A formation starts with units outside its doctrine radius of any centre hex."),
    ("setup-hidden", E, "A hidden unit where the scenario allows none, or one that is not a forward observer."),
    ("setup-fortification", E, "Fortifications beyond the scenario's allowance, outside their zone, or against their rules."),
    ("setup-obstacle", E, "A unit set up in a wire or minefield hex."),
    ("setup-transport", E, "Transports beyond the scenario's counts, or loaded beyond their capacity."),
    ("setup-special-rule", E, "A setup breaks one of the scenario's special rules."),
    # <- each ruleset's own codes come here (declared with the ruleset: rulesets.Ruleset.codes)
    # the print kit (exports/)
    ("print-text-too-small", W, "A text on a printed counter, card or sheet does not fit its box even at the smallest legible size; it was cut."),
    ("print-counter-over-hex", W, "The chosen counter size is wider than a true-scale hex across its flats: counters will overlap the hex sides and their neighbours."),
    # the balance lab (rules/lab/)
    ("sweep-point-unplayable", E, "A sweep point changes the pack so that the engine cannot play the scenario (no "
                                  "victory conditions it can evaluate, or a rule it refuses); the point is skipped."),
)


_ANCHOR = "setup-special-rule"
# Every code a finding may carry: the shared ones above, with the codes each loaded ruleset
# declares (``declare``) listed after _ANCHOR in ruleset-name order, so ``sandtable codes``
# reads the same whichever order the rulesets loaded in.
CODES: dict[str, Code] = dict(_SHARED)
_DECLARED: dict[str, tuple[Code, ...]] = {}  # ruleset name -> its codes


def declare(owner: str, codes) -> list[str]:
    """Add a ruleset's own codes; returns why any was refused (a code another owner defines)."""
    problems, mine = [], []
    taken = {c: o for o, cs in _DECLARED.items() if o != owner for c in (x.code for x in cs)}
    for code in codes:
        if not isinstance(code, Code) or not isinstance(code.severity, Severity):
            problems.append(f"{code!r} is not a finding Code")
        elif code.code in _SHARED or code.code in taken:
            problems.append(f"code {code.code!r} is already defined by "
                            f"{'sandtable' if code.code in _SHARED else 'ruleset ' + repr(taken[code.code])}")
        else:
            mine.append(code)
    _DECLARED[owner] = tuple(mine)
    _rebuild()
    return problems


def withdraw(owner: str) -> None:
    """Forget a ruleset's codes (a plug-in unloaded, in tests)."""
    if _DECLARED.pop(owner, None) is not None:
        _rebuild()


def _rebuild() -> None:
    rows = list(_SHARED.values())
    at = next(i for i, c in enumerate(rows) if c.code == _ANCHOR) + 1
    declared = [c for owner in sorted(_DECLARED) for c in _DECLARED[owner]]
    CODES.clear()  # in place: modules hold this dict
    CODES.update((c.code, c) for c in rows[:at] + declared + rows[at:])


@dataclass(frozen=True)
class Location:
    """Where a finding points: the file, a JSON pointer inside it, and line/column (1-based)."""

    file: str = ""
    pointer: str | None = None
    line: int | None = None
    column: int | None = None

    def __str__(self) -> str:
        if not self.file:
            return "<pack>"
        if self.line is None:
            return self.file
        return f"{self.file}:{self.line}:{self.column or 1}"


@dataclass(frozen=True)
class Finding:
    code: str
    message: str
    location: Location = field(default_factory=Location)
    severity: Severity = Severity.ERROR
    subject: str | None = None  # the object it is about, e.g. "card 163", "scenario beda-fomm"
    section: str | None = None  # rulebook section, e.g. "8.5" (printed as [§8.5])

    def __post_init__(self) -> None:
        if self.code not in CODES:
            raise ValueError(f"undocumented finding code {self.code!r}")

    def at(self, **changes) -> "Finding":
        return replace(self, location=replace(self.location, **changes))

    def line_text(self) -> str:
        """Compiler-style line: ``path:line:col: error CODE message [§8.5]``."""
        tail = "" if not self.section else f" [{self.section}]" if "§" in self.section else f" [§{self.section}]"
        about = f" ({self.subject})" if self.subject else ""
        where = f" at {self.location.pointer}" if self.location.pointer else ""
        return f"{self.location}: {self.severity} {self.code} {self.message}{about}{where}{tail}"

    def to_json(self) -> dict:
        return {
            "code": self.code,
            "severity": str(self.severity),
            "message": self.message,
            "file": self.location.file or None,
            "line": self.location.line,
            "column": self.location.column,
            "pointer": self.location.pointer,
            "subject": self.subject,
            "section": self.section,
        }


def finding(code: str, message: str, *, file: str = "", pointer: str | None = None,
            line: int | None = None, column: int | None = None, subject: str | None = None,
            section: str | None = None, severity: Severity | None = None) -> Finding:
    """Build a finding with the code's default severity."""
    return Finding(code=code, message=message,
                   location=Location(file, pointer, line, column),
                   severity=CODES[code].severity if severity is None else severity,
                   subject=subject, section=section)


def count(findings, severity: Severity) -> int:
    return sum(1 for f in findings if f.severity == severity)


def sort_key(f: Finding):
    loc = f.location
    return (loc.file, loc.line or 0, loc.column or 0, f.code, f.message)
