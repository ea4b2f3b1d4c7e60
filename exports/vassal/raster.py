"""Images for a module from the print drawing code: each face drawn with ReportLab on a page of its
own, the pages rasterised by poppler's ``pdftoppm`` (the same renderer the tests look with), then
reduced to a 256-colour palette PNG (flat print colours survive; a module of the whole pack stays
small). One pdftoppm run per image size: it scales every page of a file alike."""
from __future__ import annotations

import io
import os
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from reportlab.lib.colors import Color

_CHUNK = 120  # pages a pdftoppm run
Draw = Callable[[object, float, float], None]  # (doc, x, y): draws a face whose lower left is (x, y)


class RasterError(RuntimeError):
    """The images cannot be made (poppler's pdftoppm missing or failing); the message says what to do."""


@dataclass(frozen=True)
class Face:
    """One image to make: a page of ``size`` points, filled with ``colour``, drawn by ``draw``, and
    rasterised to ``pixels``."""

    size: tuple[float, float]
    pixels: tuple[int, int]
    draw: Draw
    colour: Color | None = None
    border: Color | None = None


def pdftoppm() -> str:
    found = shutil.which("pdftoppm")
    if found is None:
        raise RasterError("pdftoppm (Debian's poppler-utils) is needed to draw the module's images: "
                          "apt-get install poppler-utils")
    return found


def render(faces: list[Face], title: str = "sandtable VASSAL images") -> list[bytes]:
    """PNG bytes for each face, in order. Pages go to pdftoppm in chunks, run side by side."""
    from concurrent.futures import ThreadPoolExecutor
    from sandtable.exports.page import Doc
    groups: dict[tuple[int, int], list[int]] = {}
    for i, f in enumerate(faces):
        groups.setdefault(f.pixels, []).append(i)
    chunks = [(pixels, indices[n:n + _CHUNK]) for pixels, indices in groups.items()
              for n in range(0, len(indices), _CHUNK)]
    tool = pdftoppm()
    out: list[bytes | None] = [None] * len(faces)
    with tempfile.TemporaryDirectory(prefix="sandtable-vassal-") as tmp:
        jobs = []
        for g, (pixels, indices) in enumerate(chunks):  # drawing stays in this thread: ReportLab is not shared
            doc = Doc(title)
            for i in indices:
                f = faces[i]
                doc.begin(size=f.size)
                c = doc.c
                if f.colour is not None:
                    c.setFillColor(f.colour)
                    c.rect(0, 0, f.size[0], f.size[1], stroke=0, fill=1)
                f.draw(doc, 0, 0)
                if f.border is not None:
                    c.setStrokeColor(f.border)
                    c.setLineWidth(max(0.5, f.size[0] / 90))
                    c.rect(0, 0, f.size[0], f.size[1], stroke=1, fill=0)
                doc.end()
            pdf = Path(tmp) / f"g{g}.pdf"
            pdf.write_bytes(doc.save())
            jobs.append((g, pixels, indices, pdf))

        def rasterise(job):
            g, pixels, indices, pdf = job
            stem = Path(tmp) / f"g{g}"
            done = subprocess.run([tool, "-png", "-scale-to-x", str(pixels[0]), "-scale-to-y", str(pixels[1]),
                                   str(pdf), str(stem)], capture_output=True, text=True)
            if done.returncode != 0:
                raise RasterError(f"pdftoppm failed: {done.stderr.strip() or done.returncode}")
            pngs = sorted(Path(tmp).glob(f"g{g}-*.png"), key=lambda p: int(p.stem.rsplit("-", 1)[1]))
            if len(pngs) != len(indices):
                raise RasterError(f"pdftoppm made {len(pngs)} images of {len(indices)} pages")
            return [(i, _palette(png.read_bytes())) for i, png in zip(indices, pngs)]

        with ThreadPoolExecutor(max_workers=max(1, min(4, os.cpu_count() or 1))) as pool:
            for done in pool.map(rasterise, jobs):
                for i, png in done:
                    out[i] = png
    return out  # type: ignore[return-value]


def _palette(png: bytes) -> bytes:
    """The image as a palette PNG of at most 256 colours (flat print colours, anti-aliased edges)."""
    from PIL import Image
    with Image.open(io.BytesIO(png)) as im:
        small = im.convert("RGB").quantize(colors=256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
        buf = io.BytesIO()
        small.save(buf, format="PNG")
    return buf.getvalue()


def pdf_pages(pdf: bytes, dpi: int) -> list[bytes]:
    """Each page of a PDF (a play aid) as a palette PNG at ``dpi``."""
    tool = pdftoppm()
    with tempfile.TemporaryDirectory(prefix="sandtable-vassal-") as tmp:
        src = Path(tmp) / "in.pdf"
        src.write_bytes(pdf)
        done = subprocess.run([tool, "-png", "-r", str(dpi), str(src), str(Path(tmp) / "p")], capture_output=True,
                              text=True)
        if done.returncode != 0:
            raise RasterError(f"pdftoppm failed: {done.stderr.strip() or done.returncode}")
        pngs = sorted(Path(tmp).glob("p-*.png"), key=lambda p: int(p.stem.rsplit("-", 1)[1]))
        return [_palette(p.read_bytes()) for p in pngs]
