"""Small vector symbols: national emblems, the spotter star, the engineer sign, arrows."""
from __future__ import annotations

import math

from reportlab.lib.colors import Color, HexColor, black, white
from reportlab.pdfgen.canvas import Canvas

_BLUE = HexColor("#1f3f8f")
_RED = HexColor("#c8202a")
_GREEN = HexColor("#0b8a3e")


def star(c: Canvas, cx: float, cy: float, r: float, fill: Color = black) -> None:
    """Five-pointed star of outer radius r (the spotter star, §13.22)."""
    p = c.beginPath()
    for i in range(10):
        rr = r if i % 2 == 0 else r * 0.42
        a = math.pi / 2 + i * math.pi / 5
        x, y = cx + rr * math.cos(a), cy + rr * math.sin(a)
        if i == 0:
            p.moveTo(x, y)
        else:
            p.lineTo(x, y)
    p.close()
    c.setFillColor(fill)
    c.drawPath(p, stroke=0, fill=1)


def engineer(c: Canvas, x: float, y: float, w: float, h: float, colour: Color = black) -> None:
    """The engineer sign (§15.4): a bridge, a bar with three legs down, in a box."""
    lw = max(0.35, h * 0.12)
    c.setStrokeColor(colour)
    c.setLineWidth(lw * 0.8)
    c.rect(x, y, w, h, stroke=1, fill=0)
    c.setLineWidth(lw)
    top = y + h * 0.68
    low = y + h * 0.28
    left, right = x + w * 0.22, x + w * 0.78
    c.line(left, top, right, top)
    for fx in (left, (left + right) / 2, right):
        c.line(fx, top, fx, low)


def arrow(c: Canvas, cx: float, y0: float, y1: float, shaft: float, head_w: float, head_h: float,
          fill: Color = black) -> None:
    """Arrow from y0 up to y1 at x = cx (the facing arrow on counter backs, §2.11)."""
    p = c.beginPath()
    p.moveTo(cx - shaft / 2, y0)
    p.lineTo(cx + shaft / 2, y0)
    p.lineTo(cx + shaft / 2, y1 - head_h)
    p.lineTo(cx + head_w / 2, y1 - head_h)
    p.lineTo(cx, y1)
    p.lineTo(cx - head_w / 2, y1 - head_h)
    p.lineTo(cx - shaft / 2, y1 - head_h)
    p.close()
    c.setFillColor(fill)
    c.drawPath(p, stroke=0, fill=1)


def emblem(c: Canvas, nationality: str, cx: float, cy: float, r: float) -> None:
    """The nation's mark on counter and card backs: Balkenkreuz, tricolour, roundel, star."""
    if nationality == "german":
        arm = r * 0.95
        c.setFillColor(white)
        c.rect(cx - arm, cy - arm * 0.36, 2 * arm, arm * 0.72, stroke=0, fill=1)
        c.rect(cx - arm * 0.36, cy - arm, arm * 0.72, 2 * arm, stroke=0, fill=1)
        c.setFillColor(black)
        a = arm * 0.82
        c.rect(cx - a, cy - a * 0.2, 2 * a, a * 0.4, stroke=0, fill=1)
        c.rect(cx - a * 0.2, cy - a, a * 0.4, 2 * a, stroke=0, fill=1)
    elif nationality == "italian":
        w, h = r * 1.9, r * 1.3
        x, y = cx - w / 2, cy - h / 2
        for i, col in enumerate((_GREEN, white, _RED)):
            c.setFillColor(col)
            c.rect(x + i * w / 3, y, w / 3, h, stroke=0, fill=1)
        c.setStrokeColor(black)
        c.setLineWidth(max(0.2, r * 0.05))
        c.rect(x, y, w, h, stroke=1, fill=0)
    elif nationality == "british":
        for rr, col in ((r, _BLUE), (r * 0.66, white), (r * 0.33, _RED)):
            c.setFillColor(col)
            c.circle(cx, cy, rr, stroke=0, fill=1)
    elif nationality == "us":
        c.setFillColor(_BLUE)
        c.circle(cx, cy, r, stroke=0, fill=1)
        star(c, cx, cy, r * 0.9, white)
    else:
        c.setStrokeColor(black)
        c.setLineWidth(0.4)
        c.circle(cx, cy, r, stroke=1, fill=0)
