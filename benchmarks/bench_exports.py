"""Print-kit benchmark: countersheets of the whole pack, a full scenario kit, peak memory, and the
floor (a bare ReportLab script drawing the same number of boxes and strings).

Run: python benchmarks/bench_exports.py  (after the README's install; pdftoppm not needed).
Prints medians of several repetitions (pinned to one core where the OS allows) and writes
benchmarks/.generated/exports.json.
"""
from __future__ import annotations

import argparse
import io
import json
import os
import statistics
import tempfile
import time
import tracemalloc
from pathlib import Path

from reportlab.pdfgen.canvas import Canvas

from sandtable.exports.desert_steel import counters
from sandtable.exports.desert_steel.kit import build_kit
from sandtable.exports.page import COUNTER_SIZES, PAGE_SIZES, Doc, register_fonts
from sandtable.rules.catalog import load_catalog

HERE = Path(__file__).resolve().parent


def median_time(fn, repeat: int) -> tuple[float, float]:
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times), min(times)


def peak_memory(fn) -> float:
    tracemalloc.start()
    try:
        fn()
        return tracemalloc.get_traced_memory()[1] / 2**20
    finally:
        tracemalloc.stop()


class Census:
    """Counts the boxes (rects, paths, lines) and strings a document draws."""

    BOXES = ("rect", "roundRect", "circle", "drawPath", "line", "addLiteral")
    STRINGS = ("drawString", "drawCentredString", "drawRightString", "drawText")

    def __init__(self):
        self.boxes = self.strings = 0
        self.pages = 0

    def __enter__(self):
        self.saved = {}
        for name in self.BOXES + self.STRINGS + ("showPage",):
            original = getattr(Canvas, name)
            self.saved[name] = original

            def wrapped(canvas, *a, _n=name, _o=original, **k):
                if _n in self.BOXES:
                    self.boxes += 1
                elif _n in self.STRINGS:
                    self.strings += 1
                else:
                    self.pages += 1
                return _o(canvas, *a, **k)
            setattr(Canvas, name, wrapped)
        return self

    def __exit__(self, *exc):
        for name, original in self.saved.items():
            setattr(Canvas, name, original)


def bare_reportlab(boxes: int, strings: int, pages: int) -> bytes:
    """The floor: the same number of filled boxes and strings, in the same embedded font, no layout logic."""
    register_fonts()
    buf = io.BytesIO()
    w, h = PAGE_SIZES["a4"]
    c = Canvas(buf, pagesize=(w, h), invariant=1, pageCompression=1)
    per_page_b = -(-boxes // pages)
    per_page_s = -(-strings // pages)
    for p in range(pages):
        c.setFillColorRGB(0.6, 0.65, 0.7)  # one colour and one font a page: nothing but the drawing
        for i in range(min(per_page_b, boxes - p * per_page_b)):
            c.rect(30 + (i % 13) * 41, 30 + (i // 13) * 41 % 760, 40, 40, stroke=1, fill=1)
        c.setFont("Sans-Bold", 7)
        for i in range(min(per_page_s, strings - p * per_page_s)):
            c.drawString(32 + (i % 13) * 41, 40 + (i // 13) * 11 % 760, "A/15 7-5-6")
        c.showPage()
    c.save()
    return buf.getvalue()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--scenario", default="XV", help="the kit's scenario (default XV, the largest board)")
    ap.add_argument("--out", default=str(HERE / ".generated" / "exports.json"))
    args = ap.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    register_fonts()
    catalog = load_catalog()
    model = catalog.model
    specs = counters.pack_counters(model)
    size = COUNTER_SIZES["5/8"]

    def countersheets() -> bytes:
        doc = Doc("bench", page="a4")
        counters.draw_countersheets(doc, specs, size, "bench")
        return doc.save()

    countersheets()  # warm: fonts parsed, caches filled
    with Census() as census:
        data = countersheets()
    results = {"counters": len(specs), "countersheet_pages": census.pages, "countersheet_boxes": census.boxes,
               "countersheet_strings": census.strings, "countersheet_bytes": len(data)}
    results["countersheets_s"] = median_time(countersheets, args.reps)
    results["countersheets_peak_mib"] = peak_memory(countersheets)
    floor = lambda: bare_reportlab(census.boxes, census.strings, census.pages)  # noqa: E731
    results["floor_s"] = median_time(floor, args.reps)
    results["countersheets_over_floor"] = results["countersheets_s"][0] / results["floor_s"][0]

    scenario = model.scenario(args.scenario)
    with tempfile.TemporaryDirectory() as tmp:
        def kit():
            return build_kit(model, scenario, tmp, catalog=catalog)
        kit()
        with Census() as kc:
            r = kit()
        results["kit_scenario"] = scenario.id
        results["kit_files"] = len(r.files)
        results["kit_pages_combined"] = sum(n for _, _, n in r.jobs)  # both print jobs, guides included
        results["kit_s"] = median_time(kit, max(3, args.reps // 2))
        # CPU time too: on a shared, loaded machine the wall clock measures the neighbours
        cpu = []
        for _ in range(max(3, args.reps // 2)):
            t0 = time.process_time()
            kit()
            cpu.append(time.process_time() - t0)
        results["kit_cpu_s"] = statistics.median(cpu)
        results["kit_peak_mib"] = peak_memory(kit)
        kfloor = lambda: bare_reportlab(kc.boxes, kc.strings, kc.pages)  # noqa: E731
        results["kit_boxes"], results["kit_strings"], results["kit_pages_drawn"] = kc.boxes, kc.strings, kc.pages
        results["kit_floor_s"] = median_time(kfloor, max(3, args.reps // 2))
        results["kit_over_floor"] = results["kit_s"][0] / results["kit_floor_s"][0]
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps(results, indent=2) + "\n")
    print(f"countersheets, whole pack: {results['counters']} counters, fronts and backs, {census.pages} pages, "
          f"{census.boxes} boxes, {census.strings} strings")
    print(f"  {results['countersheets_s'][0]:.3f} s median ({results['countersheets_s'][1]:.3f} min), goal < 2 s; "
          f"peak {results['countersheets_peak_mib']:.1f} MiB")
    print(f"  bare ReportLab, same boxes and strings: {results['floor_s'][0]:.3f} s -> ratio "
          f"{results['countersheets_over_floor']:.2f}")
    print(f"kit {scenario.number} {scenario.name}: {results['kit_files']} files, {results['kit_pages_combined']} pages "
          f"in the two print jobs ({kc.pages} pages drawn in all)")
    print(f"  {results['kit_s'][0]:.3f} s median ({results['kit_s'][1]:.3f} min), goal < 3 s; "
          f"{results['kit_cpu_s']:.3f} s CPU median; peak {results['kit_peak_mib']:.1f} MiB")
    print(f"  bare ReportLab, same boxes and strings: {results['kit_floor_s'][0]:.3f} s -> ratio "
          f"{results['kit_over_floor']:.2f}")


if __name__ == "__main__":
    main()
