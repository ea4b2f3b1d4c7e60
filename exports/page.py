"""What every printed document shares: page sizes, fonts, metadata, marks, printer profiles.

A document is drawn on one ReportLab canvas held by ``Doc``: created with
``invariant=1`` (fixed dates and ids, so identical input gives identical bytes), with
DejaVu fonts embedded (French accents), title/subject/author metadata and an outline
(one bookmark per part). Units are PDF points (1/72 in); ``MM`` converts millimetres.

Documents with backs (counters, cards) print a front page then its back page; the back
puts each piece behind its front: for a duplex that flips on the long edge, a piece at
x on the front is at page width - x - w on the back; on the short edge, at page height
- y - h, drawn upside down. A ``PrinterProfile`` adds the back-page offset a calibration
sheet measured (``exports/calibration.py``).

Preflight: ``Doc.fit`` shrinks a text to its box down to a minimum legible size; below
that the text is cut with an ellipsis and a ``print-text-too-small`` finding names the
piece. Nothing is ever drawn over a box edge.
"""
from __future__ import annotations

import contextlib
import io
import json
import math
import os
from dataclasses import dataclass, field
from pathlib import Path

from reportlab import rl_config
from reportlab.lib.colors import Color, HexColor, black, white
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas

from sandtable.rules.findings import Finding, finding
from sandtable.rules import board_style as _board_style

MM = 72.0 / 25.4
INCH = 72.0
PAGE_SIZES = {"a4": (595.2756, 841.8898), "letter": (612.0, 792.0),
              # the large sizes, for map tiles (fewer seams): A3 and US Tabloid (11 x 17 in)
              "a3": (841.8898, 1190.5512), "tabloid": (792.0, 1224.0)}
COUNTER_SIZES = {"1/2": 0.5 * INCH, "5/8": 0.625 * INCH, "3/4": 0.75 * INCH}
POKER = (2.5 * INCH, 3.5 * INCH)  # poker card, 63.5 x 88.9 mm
DEFAULT_MARGIN = 10 * MM
PRINT_NOTE = "Print at actual size (100 %), not \u201cfit to page\u201d"
PRODUCER = "sandtable"

# Minimum legible sizes (points) by kind of piece: below them a text is reported.
MIN_SIZE = {"counter": 4.0, "card": 5.2, "sheet": 6.0}
# Under this a text is hard to read in print: a part with such texts gets a finding naming the
# smallest (a counter text shrinks to MIN_SIZE["counter"] before it is cut)
LEGIBLE = 5.0
# Texts keep this far inside a cut line: a cut a little off never takes a letter
CUT_INSET = 1.5 * MM

# --- colours --------------------------------------------------------------------------

# §2.11: German grey, Italian yellow-orange, British brown, US green. Light enough that
# black values read on them; the white defense of lightly armoured units is outlined.
NATIONALITY_COLOUR = {
    "german": HexColor("#a3a8ad"),
    "italian": HexColor("#f0b040"),
    "british": HexColor("#bf9464"),
    "us": HexColor("#9bb273"),
}
NATIONALITY_DARK = {
    "german": HexColor("#4d5359"),
    "italian": HexColor("#9a5d00"),
    "british": HexColor("#6b4522"),
    "us": HexColor("#3f5a22"),
}
NATIONALITY_NAME = {"german": "German", "italian": "Italian", "british": "British", "us": "US"}
SIDE_NAME = {"allied": "Allied", "axis": "Axis"}
SIDE_COLOUR = {"allied": HexColor("#2f6db5"), "axis": HexColor("#c0392b")}
INK = HexColor("#1a1a1a")
GREY = HexColor("#6d6d6d")
LIGHT = HexColor("#d8d8d8")
CUT = HexColor("#505050")
# Map colour bands (§3.4).
# the style table the screen board uses too (rules/board_style.py), so print and screen agree
TERRAIN_COLOUR = {name: HexColor(value) for name, value in _board_style.TERRAIN_COLOURS.items()}

# --- fonts ----------------------------------------------------------------------------

FONT_FILES = {
    "Sans": "DejaVuSans.ttf",
    "Sans-Bold": "DejaVuSans-Bold.ttf",
    "Sans-Oblique": "DejaVuSans-Oblique.ttf",
    "Sans-BoldOblique": "DejaVuSans-BoldOblique.ttf",
    "Cond": "DejaVuSansCondensed.ttf",
    "Cond-Bold": "DejaVuSansCondensed-Bold.ttf",
}
FONT_DIRS = (
    "/usr/share/fonts/truetype/dejavu",
    "/usr/share/fonts/dejavu",
    "/usr/share/fonts/TTF",
    "/usr/local/share/fonts",
    "/Library/Fonts",
    os.path.expanduser("~/Library/Fonts"),
    os.path.expanduser("~/.fonts"),
    os.path.expanduser("~/.local/share/fonts"),
    "C:/Windows/Fonts",
)


class FontError(RuntimeError):
    """The DejaVu fonts (needed for French accents and the symbols) are not installed."""


_registered = False


def font_dirs() -> list[str]:
    env = os.environ.get("SANDTABLE_FONT_DIR")
    return ([env] if env else []) + list(FONT_DIRS)


def register_fonts() -> None:
    """Register the DejaVu family once (embedded as subsets in every PDF)."""
    global _registered
    if _registered:
        return
    found = {}
    for name, file in FONT_FILES.items():
        for folder in font_dirs():
            path = Path(folder) / file
            if path.is_file():
                found[name] = path
                break
    missing = sorted(set(FONT_FILES) - set(found))
    if missing:
        raise FontError(
            "the DejaVu fonts are missing (" + ", ".join(FONT_FILES[m] for m in missing) + "); install Debian's "
            "fonts-dejavu-core (apt-get install fonts-dejavu-core), or set SANDTABLE_FONT_DIR to a folder "
            "holding them. Searched: " + ", ".join(font_dirs()))
    for name, path in found.items():
        pdfmetrics.registerFont(TTFont(name, str(path)))
    pdfmetrics.registerFontFamily("Sans", normal="Sans", bold="Sans-Bold", italic="Sans-Oblique",
                                  boldItalic="Sans-BoldOblique")
    pdfmetrics.registerFontFamily("Cond", normal="Cond", bold="Cond-Bold", italic="Cond", boldItalic="Cond-Bold")
    _registered = True


def width(text: str, font: str, size: float) -> float:
    return pdfmetrics.stringWidth(text, font, size)


# --- printer profiles -----------------------------------------------------------------

@dataclass(frozen=True)
class PrinterProfile:
    """How a printer's duplex lands: the offset to give back pages, and the flip edge.

    ``back_offset_mm`` is added to everything on a back page (x to the right, y up, as
    seen on the back page); the calibration sheet's scales read it directly. ``flip`` is
    the duplex setting: ``long`` (long-edge binding, the usual default) or ``short``.
    ``marks``: crop and registration marks on the ``front`` only, on ``both`` sides, or
    ``none``. ``safe_margin_mm``: the strip along each paper edge the printer cannot print
    (most home printers: 4-5 mm); nothing that must print goes there, crop marks included.
    """

    name: str = "default"
    back_offset_mm: tuple[float, float] = (0.0, 0.0)
    flip: str = "long"
    marks: str = "front"
    safe_margin_mm: float = 5.0

    def __post_init__(self):
        if self.flip not in ("long", "short"):
            raise ValueError(f"flip must be 'long' or 'short', not {self.flip!r}")
        if self.marks not in ("front", "both", "none"):
            raise ValueError(f"marks must be 'front', 'both' or 'none', not {self.marks!r}")
        dx, dy = self.back_offset_mm
        if not (math.isfinite(dx) and math.isfinite(dy)) or abs(dx) > 20 or abs(dy) > 20:
            raise ValueError("a back offset is a few millimetres (at most 20 mm each way)")
        m = self.safe_margin_mm
        if not isinstance(m, (int, float)) or not math.isfinite(m) or not 0 <= m <= 8:
            raise ValueError("safe_margin_mm (the strip the printer cannot print) is 0 to 8 mm")

    @property
    def safe(self) -> float:
        """The unprintable strip along each paper edge, in points."""
        return self.safe_margin_mm * MM

    @property
    def offset(self) -> tuple[float, float]:
        return self.back_offset_mm[0] * MM, self.back_offset_mm[1] * MM

    def back_rect(self, x: float, y: float, w: float, h: float, page_w: float, page_h: float
                  ) -> tuple[float, float]:
        """Lower-left corner, on the back page, of the piece whose front is at (x, y, w, h)."""
        dx, dy = self.offset
        if self.flip == "long":
            return page_w - x - w + dx, y + dy
        return x + dx, page_h - y - h + dy

    @property
    def upside_down(self) -> bool:
        """Short-edge flips turn the back over top-to-bottom: backs are drawn rotated 180°."""
        return self.flip == "short"

    def to_json(self) -> dict:
        return {"kind": "printer-profile", "name": self.name, "back_offset_mm": list(self.back_offset_mm),
                "flip": self.flip, "marks": self.marks, "safe_margin_mm": self.safe_margin_mm}

    @classmethod
    def from_json(cls, value: dict) -> "PrinterProfile":
        if not isinstance(value, dict) or value.get("kind") != "printer-profile":
            raise ValueError('a printer profile is a JSON object with "kind": "printer-profile"')
        off = value.get("back_offset_mm", [0, 0])
        if not (isinstance(off, list) and len(off) == 2 and all(isinstance(v, (int, float)) for v in off)):
            raise ValueError("back_offset_mm must be two numbers [x, y] in millimetres")
        margin = value.get("safe_margin_mm", 5.0)
        if isinstance(margin, bool) or not isinstance(margin, (int, float)):
            raise ValueError("safe_margin_mm must be a number of millimetres")
        return cls(str(value.get("name", "default")), (float(off[0]), float(off[1])),
                   value.get("flip", "long"), value.get("marks", "front"), float(margin))

    @classmethod
    def load(cls, path: str | Path) -> "PrinterProfile":
        try:
            return cls.from_json(json.loads(Path(path).read_text(encoding="utf-8")))
        except json.JSONDecodeError as exc:
            raise ValueError(f"{path}: not JSON ({exc})") from None

    def save(self, path: str | Path) -> None:
        from sandtable.rules import atomic
        atomic.write_json(path, self.to_json())


# --- the document ---------------------------------------------------------------------

@dataclass
class Doc:
    """One PDF being drawn: canvas, page size, findings, outline, printer profile."""

    title: str
    subject: str = ""
    page: str = "a4"
    profile: PrinterProfile = field(default_factory=PrinterProfile)
    lang: str = "en"
    keywords: str = "Desert Steel, Tank Leader, sandtable"
    duplex: bool = False  # pages with backs: the viewer is asked for a duplex on the profile's edge

    def __post_init__(self):
        register_fonts()
        if self.page not in PAGE_SIZES:
            raise ValueError(f"page must be one of {', '.join(PAGE_SIZES)}")
        self.size = PAGE_SIZES[self.page]
        self.buffer = io.BytesIO()
        # the canvas's own first font is DejaVu: no page refers to an unembedded Helvetica
        self.c = Canvas(self.buffer, pagesize=self.size, invariant=1, pageCompression=1, initialFontName="Sans",
                        initialFontSize=8)
        self.c.setTitle(self.title)
        self.c.setAuthor(PRODUCER)
        self.c.setCreator(PRODUCER)
        self.c.setSubject(self.subject or self.title)
        self.c.setKeywords(self.keywords)
        self.c.setProducer(PRODUCER)
        self.findings: list[Finding] = []
        self.pages = 0  # pages finished
        self._open = False
        self._bookmarks = 0
        self._reported: set[tuple[str, str]] = set()
        self._muted = 0
        self.small: list[tuple[float, str, str, str]] = []  # (size, what, text, subject) under LEGIBLE

    @property
    def duplex_mode(self) -> str:
        """The PDF /Duplex viewer preference of this document."""
        if not self.duplex:
            return "Simplex"
        return "DuplexFlipShortEdge" if self.profile.flip == "short" else "DuplexFlipLongEdge"

    # pages
    @property
    def w(self) -> float:
        return self.c._pagesize[0]

    @property
    def h(self) -> float:
        return self.c._pagesize[1]

    def begin(self, landscape: bool = False, size: tuple[float, float] | None = None) -> None:
        """Start a page (portrait by default; of another paper size than the document's if given)."""
        if self._open:
            self.end()
        pw, ph = size or self.size
        self.c.setPageSize((ph, pw) if landscape else (pw, ph))
        self.set_trim()
        self._open = True

    def set_trim(self, trim: tuple[float, float, float, float] | None = None, bleed: float = 0.0) -> None:
        """The page's TrimBox (x0, y0, x1, y1: where it is cut; the whole page by default) and its
        BleedBox (the trim grown by the bleed, within the page)."""
        w, h = self.c._pagesize
        x0, y0, x1, y1 = trim or (0, 0, w, h)
        self.c.setTrimBox((x0, y0, x1, y1))
        self.c.setBleedBox((max(0, x0 - bleed), max(0, y0 - bleed), min(w, x1 + bleed), min(h, y1 + bleed)))

    def end(self) -> None:
        if self._open:
            self.c.showPage()
            self.pages += 1
            self._open = False

    def t(self, text_: str, **fields) -> str:
        """A heading or label in the document's language (exports/lang.py)."""
        from .lang import tr
        return tr(self.lang, text_, **fields)

    def to_odd_page(self) -> None:
        """Make the next page an odd (front) page: a duplex pairs page 2k+1 with 2k+2."""
        if self._open:
            self.end()
        if self.pages % 2 == 1:
            self.begin()
            self.c.setFont("Sans", 8)
            self.c.setFillColor(GREY)
            self.c.drawCentredString(self.w / 2, self.h / 2, self.t(
                "This page is intentionally blank: it keeps the fronts and backs that follow on the two sides of "
                "one sheet."))
            self.end()

    def bookmark(self, title: str, level: int = 0) -> None:
        """Outline entry pointing at the current (open) page."""
        key = f"b{self._bookmarks}"
        self._bookmarks += 1
        self.c.bookmarkPage(key)
        self.c.addOutlineEntry(title, key, level=level, closed=level > 0)

    def save(self) -> bytes:
        if self._open:
            self.end()
        if self.pages == 0:
            self.begin()
            self.end()
        self.c.showOutline()
        # Acrobat's default "Fit" shrinks every piece: ask for actual size, and for the duplex (or
        # not) the job needs, so the print dialog opens right (the print guide says the same)
        self.c.setViewerPreference("PrintScaling", "None")
        self.c.setViewerPreference("Duplex", self.duplex_mode)
        previous = rl_config.useA85
        rl_config.useA85 = 0  # binary compressed streams: smaller, and no slow ASCII85 pass
        try:
            self.c.save()
        finally:
            rl_config.useA85 = previous
        return self.buffer.getvalue()

    # findings
    @contextlib.contextmanager
    def muted(self):
        """Draw without reporting (miniatures of pieces reported at full size elsewhere)."""
        self._muted += 1
        try:
            yield
        finally:
            self._muted -= 1

    def report(self, code: str, message: str, subject: str) -> None:
        if self._muted or (subject, message) in self._reported:
            return
        self._reported.add((subject, message))
        self.findings.append(finding(code, message, file=self.title, subject=subject))

    def note_size(self, size: float, what: str, text_: str, subject: str) -> float:
        """Record a text's size when it is under LEGIBLE (see report_small); returns the size."""
        if size < LEGIBLE - 1e-9 and not self._muted:
            self.small.append((size, what, text_, subject))
        return size

    def report_small(self, what_pieces: str) -> None:
        """One finding for the texts under LEGIBLE drawn since the last call."""
        if not self.small:
            return
        size, what, text_, subject = min(self.small)
        self.report("print-text-too-small", f"{len(self.small)} texts of the {what_pieces} print under {LEGIBLE:g} pt "
                    f"(the smallest: {what} {text_!r} at {size:.2f} pt); a larger size keeps them legible",
                    subject)
        self.small.clear()

    # text fitting (preflight)
    def fit(self, text: str, font: str, size: float, box_w: float, subject: str, kind: str = "counter",
            what: str = "text") -> tuple[str, float]:
        """The text and the size to draw it in box_w: shrunk down to MIN_SIZE[kind], then cut."""
        if not text:
            return text, size
        w = width(text, font, size)
        if w <= box_w:
            return text, size
        minimum = MIN_SIZE[kind]
        shrunk = size * box_w / w
        if shrunk >= minimum:
            size = math.floor(shrunk * 20) / 20  # a twentieth of a point, stable across runs
            return text, self.note_size(size, what, text, subject)
        self.report("print-text-too-small", f"{what} {text!r} does not fit its {box_w / MM:.1f} mm box even at "
                    f"{minimum:g} pt, the smallest legible size; it was cut", subject)
        return ellipsize(text, font, minimum, box_w), minimum

    def fit_font(self, text: str, fonts: tuple[str, ...], size: float, box_w: float, subject: str,
                 kind: str = "counter", what: str = "text") -> tuple[str, float, str]:
        """As fit, in the first font that keeps the text legible (a bold face, then its lighter,
        narrower one); the last font when none does."""
        for font in fonts[:-1]:
            w = width(text, font, size)
            if w <= box_w or size * box_w / w >= LEGIBLE:
                t, s = self.fit(text, font, size, box_w, subject, kind, what)
                return t, s, font
        t, s = self.fit(text, fonts[-1], size, box_w, subject, kind, what)
        return t, s, fonts[-1]

    def fit_lines_font(self, lines: list[str], fonts: tuple[str, ...], size: float, box_w: float, box_h: float,
                       subject: str, kind: str = "counter", what: str = "text", leading: float = 1.1
                       ) -> tuple[list[str], float, str]:
        """As fit_lines, in the first font that keeps the lines legible (see fit_font)."""
        for font in fonts[:-1]:
            widest = max(width(t, font, size) for t in lines)
            s = min(size * min(1.0, box_w / widest), box_h / (len(lines) * leading))
            if s >= LEGIBLE:
                out, s = self.fit_lines(lines, font, size, box_w, box_h, subject, kind, what, leading)
                return out, s, font
        out, s = self.fit_lines(lines, fonts[-1], size, box_w, box_h, subject, kind, what, leading)
        return out, s, fonts[-1]

    def fit_lines(self, lines: list[str], font: str, size: float, box_w: float, box_h: float, subject: str,
                  kind: str = "counter", what: str = "text", leading: float = 1.1) -> tuple[list[str], float]:
        """Several lines in a box: one size for all, shrunk to the widest and to the height."""
        if not lines:
            return lines, size
        widest = max(width(t, font, size) for t in lines)
        s = size
        if widest > box_w:
            s = size * box_w / widest
        s = min(s, box_h / (len(lines) * leading))
        minimum = MIN_SIZE[kind]
        if s >= minimum:
            s = math.floor(s * 20) / 20
            return lines, self.note_size(s, what, " ".join(lines), subject)
        self.report("print-text-too-small", f"{what} {' '.join(lines)!r} does not fit its "
                    f"{box_w / MM:.1f} x {box_h / MM:.1f} mm box even at {minimum:g} pt; it was cut", subject)
        fit_count = max(1, int(box_h // (minimum * leading)))
        kept = [ellipsize(t, font, minimum, box_w) for t in lines[:fit_count]]
        return kept, minimum


def ellipsize(text: str, font: str, size: float, box_w: float) -> str:
    if width(text, font, size) <= box_w:
        return text
    while text and width(text + "\u2026", font, size) > box_w:
        text = text[:-1]
    return text + "\u2026" if text else ""


def wrap(text: str, font: str, size: float, box_w: float) -> list[str]:
    """Greedy word wrap (a word longer than the box stays on its own line)."""
    lines: list[str] = []
    current = ""
    for word in text.split():
        trial = f"{current} {word}" if current else word
        if current and width(trial, font, size) > box_w:
            lines.append(current)
            current = word
        else:
            current = trial
    if current:
        lines.append(current)
    return lines


# --- drawing helpers ------------------------------------------------------------------

def text(c: Canvas, x: float, y: float, s: str, font: str, size: float, colour: Color = INK,
         align: str = "left") -> None:
    if c._fontname != font or c._fontsize != size:  # the text state persists: set it only when it changes
        c.setFont(font, size)
    if c._fillColorObj is not colour:
        c.setFillColor(colour)
    if align == "center":
        c.drawCentredString(x, y, s)
    elif align == "right":
        c.drawRightString(x, y, s)
    else:
        c.drawString(x, y, s)


def outlined_text(c: Canvas, x: float, y: float, s: str, font: str, size: float, fill: Color = white,
                  stroke: Color = black, stroke_width: float = 0.3, align: str = "center") -> None:
    """Text filled in one colour and outlined in another (white defense values, §13.12)."""
    w = width(s, font, size)
    if align == "center":
        x -= w / 2
    elif align == "right":
        x -= w
    c.saveState()  # the text render mode is graphics state: keep it to this text
    t = c.beginText(x, y)
    t.setFont(font, size)
    t.setTextRenderMode(2)
    c.setFillColor(fill)
    c.setStrokeColor(stroke)
    c.setLineWidth(stroke_width)
    t.textOut(s)
    c.drawText(t)
    c.restoreState()


def crop_marks(c: Canvas, xs: list[float], ys: list[float], bleed: float, length: float = 4 * MM,
               gap: float = 1 * MM) -> None:
    """Short cut guides in the margin, in line with each cut line of a grid."""
    x0, x1, y0, y1 = min(xs), max(xs), min(ys), max(ys)
    c.setStrokeColor(black)
    c.setLineWidth(0.3)
    off = bleed + gap
    for x in xs:
        c.line(x, y1 + off, x, y1 + off + length)
        c.line(x, y0 - off, x, y0 - off - length)
    for y in ys:
        c.line(x0 - off, y, x0 - off - length, y)
        c.line(x1 + off, y, x1 + off + length, y)


def registration_mark(c: Canvas, x: float, y: float, r: float = 2.2 * MM) -> None:
    """A circle with a cross through it: front and back marks line up when the duplex is true."""
    c.setStrokeColor(black)
    c.setLineWidth(0.35)
    c.circle(x, y, r * 0.55, stroke=1, fill=0)
    c.line(x - r, y, x + r, y)
    c.line(x, y - r, x, y + r)


def scale_bar(c: Canvas, x: float, y: float, length_mm: float = 50, label: bool = True, lang: str = "en") -> None:
    """A bar of known length, to check the page was printed at 100 %."""
    L = length_mm * MM
    c.setStrokeColor(black)
    c.setLineWidth(0.5)
    c.line(x, y, x + L, y)
    for i in range(0, int(length_mm) + 1, 10):
        h = 1.6 * MM if i % 50 == 0 else 1.0 * MM
        c.line(x + i * MM, y, x + i * MM, y + h)
    if label:
        from .lang import tr
        text(c, x + L + 1.5 * MM, y - 0.3 * MM, tr(lang, "{mm} mm at 100 %", mm=f"{length_mm:g}"), "Sans", 5.5, GREY)


# The page notes sit just inside the printer's safe margin: the head line's ascenders (7 pt bold)
# and the foot line's descenders (and the scale bar's label) stay out of it.
HEAD_ASCENT = 2.9 * MM
FOOT_DESCENT = 1.3 * MM
# the band the side notes of a tight sheet take in each side margin, from the safe margin in
SIDE_NOTE_BAND = 3.4 * MM


def page_note(doc: Doc, heading: str, page_label: str = "", y_top: float | None = None,
              scale: bool = True, side: bool = False) -> None:
    """The head-of-page line (title, the 100 % note) and the foot line (page, scale bar).

    ``side``: the page has no room above and below its content (nine poker cards on Letter),
    so the two lines run up the left and right margins instead, turned a quarter."""
    c = doc.c
    label = page_label or doc.t("page {n}", n=doc.pages + 1)
    note = doc.t(PRINT_NOTE)
    safe = doc.profile.safe
    if side:
        c.saveState()
        c.translate(safe + HEAD_ASCENT, 0)  # the head line up the left margin, read from the bottom
        c.rotate(90)
        text(c, 10 * MM, 0, heading, "Sans-Bold", 7)
        text(c, doc.h - 10 * MM, 0, note, "Sans", 6.5, GREY, align="right")
        c.restoreState()
        c.saveState()
        c.translate(doc.w - safe - FOOT_DESCENT, 0)  # the foot line up the right margin
        c.rotate(90)
        if scale:
            scale_bar(c, 10 * MM, 0.6 * MM, 50, lang=doc.lang)
        text(c, doc.h - 10 * MM, 0, f"{doc.title} \u2014 {label}", "Sans", 5.5, GREY, align="right")
        c.restoreState()
        return
    top = doc.h - safe - HEAD_ASCENT if y_top is None else y_top
    heading, size = doc.fit(heading, "Sans-Bold", 7, doc.w - 24 * MM - width(note, "Sans", 6.5), "page heading",
                            "sheet", "page heading")  # never over the 100 % note
    text(c, 10 * MM, top, heading, "Sans-Bold", size)
    text(c, doc.w - 10 * MM, top, note, "Sans", 6.5, GREY, align="right")
    foot = safe + FOOT_DESCENT
    if scale:
        scale_bar(c, 10 * MM, foot + 0.6 * MM, 50, lang=doc.lang)
    text(c, doc.w - 10 * MM, foot, f"{doc.title} \u2014 {label}", "Sans", 5.5, GREY, align="right")


def lang_text(value, lang: str = "en") -> str:
    """A data text ({"en", "fr"}) in the chosen language, falling back to the other."""
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    return value.get(lang) or value.get("en") or value.get("fr") or ""


def thaw(value):
    """Plain JSON (dicts, lists) from the model's read-only mappings and tuples."""
    from collections.abc import Mapping
    if isinstance(value, Mapping):
        return {k: thaw(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [thaw(v) for v in value]
    return value

