"""Counters and formation cards drawn as printed (§2.11, §6.2), for the editors' previews.

Front of a unit counter: formation designation top left, range box top right (bold
lower edge when the unit fires indirectly; a second box for infantry's anti-vehicle
range), the unit type in the middle under a pictogram, T / star / CS / engineer sign on
the left, and the factors along the bottom: anti-vehicle – defense – anti-infantry
(defense in white for lightly armoured vehicles, "•" for cannot fire), movement at the
right. Back: designation, facing arrow, nationality. Colours follow §2.11: German grey,
Italian yellow-orange, British brown, US green.
"""
from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, QSize, Qt
from PySide6.QtGui import QColor, QFont, QPainter, QPainterPath, QPen, QPolygonF
from PySide6.QtWidgets import QSizePolicy, QWidget

NATION_COLOURS = {
    "german": QColor("#9ea3a8"),
    "italian": QColor("#f0a830"),
    "british": QColor("#b0835a"),
    "us": QColor("#7f9a4a"),
}


def _national_marking(p: QPainter, r: QRectF, nationality: str | None) -> None:
    """A simple national marking standing in for the printed flag (§2.11)."""
    p.save()
    p.setRenderHint(QPainter.Antialiasing)
    c = r.center()
    h = r.height()
    if nationality == "german":  # the Balkenkreuz of German vehicles
        for colour, k in (("white", 0.5), ("black", 0.32)):
            p.setPen(Qt.NoPen)
            p.setBrush(QColor(colour))
            p.drawRect(QRectF(c.x() - h * k, c.y() - h * k / 3.2, 2 * h * k, 2 * h * k / 3.2))
            p.drawRect(QRectF(c.x() - h * k / 3.2, c.y() - h * k, 2 * h * k / 3.2, 2 * h * k))
    elif nationality == "italian":
        for i, colour in enumerate(("#009246", "#ffffff", "#ce2b37")):
            p.setPen(Qt.NoPen)
            p.setBrush(QColor(colour))
            p.drawRect(QRectF(r.left() + i * r.width() / 3, r.top(), r.width() / 3, h))
        p.setPen(QPen(QColor("#303030"), 1))
        p.setBrush(Qt.NoBrush)
        p.drawRect(r)
    elif nationality == "british":  # a simplified Union flag
        p.setPen(Qt.NoPen)
        p.setBrush(QColor("#012169"))
        p.drawRect(r)
        p.setPen(QPen(QColor("white"), h * 0.2))
        p.drawLine(r.topLeft(), r.bottomRight())
        p.drawLine(r.bottomLeft(), r.topRight())
        p.setPen(QPen(QColor("#c8102e"), h * 0.07))
        p.drawLine(r.topLeft(), r.bottomRight())
        p.drawLine(r.bottomLeft(), r.topRight())
        p.setPen(Qt.NoPen)
        p.setBrush(QColor("white"))
        p.drawRect(QRectF(c.x() - h * 0.17, r.top(), h * 0.34, h))
        p.drawRect(QRectF(r.left(), c.y() - h * 0.17, r.width(), h * 0.34))
        p.setBrush(QColor("#c8102e"))
        p.drawRect(QRectF(c.x() - h * 0.1, r.top(), h * 0.2, h))
        p.drawRect(QRectF(r.left(), c.y() - h * 0.1, r.width(), h * 0.2))
    elif nationality == "us":  # the white star of US vehicles
        p.setPen(Qt.NoPen)
        p.setBrush(QColor("#1f3a70"))
        p.drawEllipse(c, h * 0.5, h * 0.5)
        star = QPolygonF()
        import math
        for i in range(10):
            rad = h * (0.42 if i % 2 == 0 else 0.17)
            a = math.radians(-90 + i * 36)
            star.append(QPointF(c.x() + rad * math.cos(a), c.y() + rad * math.sin(a)))
        p.setBrush(QColor("white"))
        p.drawPolygon(star)
    p.restore()


def factor_text(v) -> str:
    if v == "cannot-fire" or v is None:
        return "•"
    return str(v)


def _font(size: float, bold: bool = False) -> QFont:
    f = QFont("DejaVu Sans")
    f.setPixelSize(max(6, int(size)))
    f.setBold(bold)
    return f


def _fit(p: QPainter, rect: QRectF, text: str, size: float, bold: bool = False, align=Qt.AlignCenter) -> None:
    """Draw text in rect, shrinking the font until it fits (like the print kit's preflight)."""
    while size > 6:
        p.setFont(_font(size, bold))
        if p.fontMetrics().horizontalAdvance(text) <= rect.width():
            break
        size -= 0.5
    p.drawText(rect, align, text)


def _pictogram(p: QPainter, r: QRectF, unit: dict) -> None:
    cls = unit.get("class", "vehicle")
    role = unit.get("role", "")
    p.save()
    p.setPen(QPen(QColor("#202020"), max(1.0, r.width() / 40)))
    p.setBrush(QColor(0, 0, 0, 40))
    cx, cy, w, h = r.center().x(), r.center().y(), r.width(), r.height()
    if cls == "forward-observer":
        tri = QPolygonF([QPointF(cx, cy - h * 0.42), QPointF(cx - w * 0.3, cy + h * 0.38), QPointF(cx + w * 0.3, cy + h * 0.38)])
        p.drawPolygon(tri)
        p.setBrush(QColor("#202020"))
        p.drawEllipse(QPointF(cx, cy + h * 0.08), w * 0.04, w * 0.04)
    elif cls == "infantry":
        box = QRectF(cx - w * 0.32, cy - h * 0.35, w * 0.64, h * 0.7)
        p.drawRect(box)
        p.drawLine(box.topLeft(), box.bottomRight())
        p.drawLine(box.bottomLeft(), box.topRight())
    elif cls == "artillery":
        p.drawEllipse(QPointF(cx - w * 0.12, cy + h * 0.18), h * 0.18, h * 0.18)
        p.drawLine(QPointF(cx - w * 0.12, cy + h * 0.18), QPointF(cx + w * 0.38, cy - h * 0.3))
        p.drawLine(QPointF(cx - w * 0.12, cy + h * 0.18), QPointF(cx - w * 0.4, cy + h * 0.36))
    elif cls == "transport" or role in ("truck", "motorcycle"):
        p.drawRect(QRectF(cx - w * 0.38, cy - h * 0.25, w * 0.5, h * 0.45))
        p.drawRect(QRectF(cx + w * 0.12, cy - h * 0.05, w * 0.24, h * 0.25))
        p.setBrush(QColor("#202020"))
        for x in (-0.25, 0.0, 0.25):
            p.drawEllipse(QPointF(cx + w * x, cy + h * 0.3), h * 0.1, h * 0.1)
    else:  # tanks and other vehicles: hull, turret, gun, tracks
        hull = QRectF(cx - w * 0.4, cy - h * 0.05, w * 0.8, h * 0.3)
        p.drawRoundedRect(hull, h * 0.12, h * 0.12)
        if role not in ("recon", "halftrack", "sp-artillery", "assault-gun", "tank-destroyer"):
            p.drawRect(QRectF(cx - w * 0.18, cy - h * 0.3, w * 0.34, h * 0.25))
            p.drawLine(QPointF(cx + w * 0.16, cy - h * 0.18), QPointF(cx + w * 0.48, cy - h * 0.2))
        else:
            p.drawLine(QPointF(cx + w * 0.1, cy - h * 0.02), QPointF(cx + w * 0.48, cy - h * 0.14))
    p.restore()


def paint_counter(p: QPainter, rect: QRectF, unit: dict, designation: str = "") -> None:
    s = rect.width()
    nat = NATION_COLOURS.get(unit.get("nationality"), QColor("#cccccc"))
    p.save()
    p.setRenderHint(QPainter.Antialiasing)
    p.setPen(QPen(QColor("#303030"), max(1.0, s / 80)))
    p.setBrush(nat)
    p.drawRoundedRect(rect, s * 0.06, s * 0.06)
    ink = QColor("#111111")
    p.setPen(ink)
    pad = s * 0.06
    # designation, top left
    _fit(p, QRectF(rect.left() + pad, rect.top() + pad * 0.6, s * 0.55, s * 0.17), designation, s * 0.13, True,
         Qt.AlignLeft | Qt.AlignVCenter)
    # range boxes, top right
    boxes = []
    if unit.get("range") is not None:
        boxes.append((unit["range"], bool(unit.get("indirect_fire"))))
    if unit.get("anti_vehicle_range") is not None:
        boxes.append((unit["anti_vehicle_range"], False))
    bw = s * 0.22
    for i, (val, indirect) in enumerate(boxes):
        br = QRectF(rect.right() - pad - bw, rect.top() + pad * 0.6 + i * (bw * 0.85), bw, bw * 0.8)
        p.setBrush(Qt.NoBrush)
        p.setPen(QPen(ink, max(1.0, s / 90)))
        p.drawRect(br)
        if indirect:
            p.setPen(QPen(ink, max(2.0, s / 25)))
            p.drawLine(br.bottomLeft(), br.bottomRight())
        p.setPen(ink)
        _fit(p, br, str(val), s * 0.14, True)
    # pictogram and type name
    pic = QRectF(rect.left() + s * 0.24, rect.top() + s * 0.22, s * 0.52, s * 0.3)
    _pictogram(p, pic, unit)
    p.setPen(ink)
    label = (unit.get("art") or {}).get("front_label") or unit.get("name", "")
    _fit(p, QRectF(rect.left() + pad, rect.top() + s * 0.53, s - 2 * pad, s * 0.15), label, s * 0.12, True)
    # special symbols, left column
    marks = []
    if unit.get("towed"):
        marks.append("T")
    if unit.get("spotter"):
        marks.append("★")
    if unit.get("close_support"):
        marks.append("CS")
    y = rect.top() + s * 0.24
    for m in marks:
        _fit(p, QRectF(rect.left() + pad * 0.7, y, s * 0.2, s * 0.12), m, s * 0.11, True, Qt.AlignLeft | Qt.AlignVCenter)
        y += s * 0.12
    if unit.get("engineer"):  # an E turned 90° right
        p.save()
        p.translate(rect.left() + pad + s * 0.06, y + s * 0.06)
        p.rotate(90)
        p.setFont(_font(s * 0.12, True))
        p.drawText(QRectF(-s * 0.06, -s * 0.06, s * 0.12, s * 0.12), Qt.AlignCenter, "E")
        p.restore()
    # factors along the bottom
    fy = rect.top() + s * 0.70
    fh = s * 0.24
    av, df, ai = factor_text(unit.get("anti_vehicle")), str(unit.get("defense", "")), factor_text(unit.get("anti_infantry"))
    mv = unit.get("movement")
    p.setFont(_font(s * 0.19, True))
    fm = p.fontMetrics()
    parts = [(av, ink), ("-", ink), (df, QColor("white") if unit.get("lightly_armored") else ink), ("-", ink), (ai, ink)]
    total = sum(fm.horizontalAdvance(t) for t, _ in parts)
    x = rect.left() + (s * (0.78 if mv is not None else 1.0) - total) / 2
    for text, colour in parts:
        if colour == QColor("white"):  # white defense: draw a thin dark outline so it reads on light colours
            path = QPainterPath()
            path.addText(QPointF(x, fy + fh * 0.78), p.font(), text)
            p.setPen(QPen(QColor("#202020"), max(1.0, s / 100)))
            p.setBrush(QColor("white"))
            p.drawPath(path)
        else:
            p.setPen(colour)
            p.drawText(QRectF(x, fy, fm.horizontalAdvance(text) + 1, fh), Qt.AlignLeft | Qt.AlignVCenter, text)
        x += fm.horizontalAdvance(text)
    if mv is not None:
        p.setPen(ink)
        _fit(p, QRectF(rect.right() - pad - s * 0.2, fy, s * 0.2, fh), str(mv), s * 0.19, True)
    p.restore()


def paint_counter_back(p: QPainter, rect: QRectF, unit: dict, designation: str = "") -> None:
    s = rect.width()
    nat = NATION_COLOURS.get(unit.get("nationality"), QColor("#cccccc"))
    p.save()
    p.setRenderHint(QPainter.Antialiasing)
    p.setPen(QPen(QColor("#303030"), max(1.0, s / 80)))
    p.setBrush(nat.darker(115))
    p.drawRoundedRect(rect, s * 0.06, s * 0.06)
    p.setPen(QColor("#111111"))
    _fit(p, QRectF(rect.left(), rect.top() + s * 0.06, s, s * 0.2), designation, s * 0.15, True)
    # facing arrow at the counter's top
    cx = rect.center().x()
    arrow = QPolygonF([QPointF(cx, rect.top() + s * 0.3), QPointF(cx - s * 0.1, rect.top() + s * 0.45),
                       QPointF(cx + s * 0.1, rect.top() + s * 0.45)])
    p.setBrush(QColor("#111111"))
    p.drawPolygon(arrow)
    p.drawRect(QRectF(cx - s * 0.03, rect.top() + s * 0.45, s * 0.06, s * 0.15))
    _national_marking(p, QRectF(cx - s * 0.21, rect.top() + s * 0.66, s * 0.42, s * 0.24), unit.get("nationality"))
    p.restore()


class CounterPreview(QWidget):
    """Front and back of a counter, redrawn whenever the unit type changes."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.unit: dict = {}
        self.designation = ""
        self.setMinimumSize(QSize(360, 210))
        self.setSizePolicy(QSizePolicy.Preferred, QSizePolicy.Fixed)

    def show_unit(self, unit: dict, designation: str = "") -> None:
        self.unit, self.designation = dict(unit or {}), designation
        self.update()

    def paintEvent(self, event) -> None:
        p = QPainter(self)
        s = min(160.0, (self.width() - 40) / 2)
        top = 24.0
        p.setFont(_font(11))
        p.drawText(QRectF(10, 2, s, 20), Qt.AlignCenter, "front")
        p.drawText(QRectF(30 + s, 2, s, 20), Qt.AlignCenter, "back")
        paint_counter(p, QRectF(10, top, s, s), self.unit, self.designation)
        paint_counter_back(p, QRectF(30 + s, top, s, s), self.unit, self.designation)
        p.end()


def paint_card(p: QPainter, rect: QRectF, card: dict, year: str | None, units: dict[str, dict],
               cards: dict[str, dict] | None = None) -> None:
    """A formation card, poker size proportions: header, dates, the year's values and units."""
    w, h = rect.width(), rect.height()
    nat = NATION_COLOURS.get(card.get("nationality"), QColor("#cccccc"))
    p.save()
    p.setRenderHint(QPainter.Antialiasing)
    p.setPen(QPen(QColor("#444"), 1.2))
    p.setBrush(QColor("#fbf7ee"))
    p.drawRoundedRect(rect, w * 0.04, w * 0.04)
    head = QRectF(rect.left(), rect.top(), w, h * 0.16)
    p.setBrush(nat)
    p.setPen(Qt.NoPen)
    path = QPainterPath()
    path.addRoundedRect(head, w * 0.04, w * 0.04)
    p.drawPath(path)
    ink = QColor("#111")
    p.setPen(ink)
    pad = w * 0.05
    _fit(p, QRectF(rect.left() + pad, rect.top() + h * 0.01, w * 0.3, h * 0.08), str(card.get("number", "")),
         h * 0.06, True, Qt.AlignLeft | Qt.AlignVCenter)
    _fit(p, QRectF(rect.left() + w * 0.3, rect.top() + h * 0.01, w * 0.65, h * 0.08), card.get("designation", ""),
         h * 0.065, True, Qt.AlignRight | Qt.AlignVCenter)
    _fit(p, QRectF(rect.left() + pad, rect.top() + h * 0.085, w - 2 * pad, h * 0.06), card.get("name", ""), h * 0.038,
         False, Qt.AlignLeft | Qt.AlignVCenter)
    y = rect.top() + h * 0.18
    years = card.get("years", {})
    line = h * 0.05
    p.setFont(_font(h * 0.036))
    kind = "Command" if card.get("type") == "command" else (card.get("formation") or "").capitalize()
    p.drawText(QRectF(rect.left() + pad, y, w - 2 * pad, line), Qt.AlignLeft | Qt.AlignVCenter,
               f"{kind} · {card.get('nationality', '').capitalize()} · {years.get('from', '?')}–{years.get('to', '?')}")
    y += line * 1.2
    if card.get("type") == "command":
        _fit(p, QRectF(rect.left() + pad, y, w - 2 * pad, line * 1.3), f"C3 {card.get('c3', '?')}", h * 0.05, True,
             Qt.AlignLeft | Qt.AlignVCenter)
        y += line * 1.5
        p.setFont(_font(h * 0.034, True))
        p.drawText(QRectF(rect.left() + pad, y, w, line), Qt.AlignLeft | Qt.AlignVCenter, "Subordinates")
        y += line
        for n in card.get("subordinates", []):
            sub = (cards or {}).get(str(n), {})
            hq = " (HQ)" if card.get("hq") == n else ""
            _fit(p, QRectF(rect.left() + pad * 1.5, y, w - 3 * pad, line),
                 f"{n}  {sub.get('designation', '?')}{hq}", h * 0.034, False, Qt.AlignLeft | Qt.AlignVCenter)
            y += line
            if y > rect.bottom() - line:
                break
        p.restore()
        return
    variant = (card.get("variants") or {}).get(str(year)) if year else None
    if variant is None:
        p.setFont(_font(h * 0.04))
        p.drawText(QRectF(rect.left() + pad, y, w - 2 * pad, line * 2), Qt.AlignLeft | Qt.AlignVCenter,
                   f"no {year} variant" if year else "no variant")
        p.restore()
        return
    lm = variant.get("loss_modifier", 0)
    lm_text = ("+½" if lm == 0.5 else f"+{int(lm)}½" if float(lm) % 1 else f"+{int(lm)}")
    stats = [("Year", str(year)), ("Exp.", str(variant.get("experience", "")).capitalize()),
             ("C3", variant.get("c3", "")), ("Morale", f"{variant.get('morale', '')} ({lm_text}/loss)")]
    cw = (w - 2 * pad) / 2
    for i, (k, v) in enumerate(stats):
        cx = rect.left() + pad + (i % 2) * cw
        cy = y + (i // 2) * line * 1.1
        p.setFont(_font(h * 0.032))
        p.setPen(QColor("#555"))
        p.drawText(QRectF(cx, cy, cw * 0.38, line), Qt.AlignLeft | Qt.AlignVCenter, k)
        p.setPen(ink)
        _fit(p, QRectF(cx + cw * 0.38, cy, cw * 0.62, line), v, h * 0.036, True, Qt.AlignLeft | Qt.AlignVCenter)
    y += line * 2.5
    p.setPen(QPen(QColor("#999"), 1))
    p.drawLine(QPointF(rect.left() + pad, y), QPointF(rect.right() - pad, y))
    y += line * 0.3
    cs = min(h * 0.11, (rect.bottom() - y - pad) / max(1, len(variant.get("units", []))) * 0.9)
    for u in variant.get("units", []):
        unit = units.get(u.get("type"), {"name": u.get("type"), "nationality": card.get("nationality")})
        paint_counter(p, QRectF(rect.left() + pad, y, cs, cs), unit, card.get("designation", ""))
        p.setPen(ink)
        _fit(p, QRectF(rect.left() + pad + cs * 1.2, y, w - 2 * pad - cs * 1.2, cs),
             f"{u.get('count', '?')} × {unit.get('name', u.get('type'))}", h * 0.045, True, Qt.AlignLeft | Qt.AlignVCenter)
        y += cs * 1.08
        if y > rect.bottom() - cs:
            break
    p.restore()


class CardPreview(QWidget):
    def __init__(self, parent=None):
        super().__init__(parent)
        self.card: dict = {}
        self.year: str | None = None
        self.units: dict = {}
        self.cards: dict = {}
        self.setMinimumSize(QSize(250, 350))
        self.setSizePolicy(QSizePolicy.Fixed, QSizePolicy.Preferred)

    def show_card(self, card: dict, year: str | None, units: dict, cards: dict | None = None) -> None:
        self.card, self.year, self.units, self.cards = card or {}, year, units, cards or {}
        self.update()

    def paintEvent(self, event) -> None:
        p = QPainter(self)
        w = self.width() - 12
        h = min(self.height() - 12, w * 88 / 63)
        w = h * 63 / 88
        paint_card(p, QRectF(6, 6, w, h), self.card, self.year, self.units, self.cards)
        p.end()
