"""Helpers for the print-kit tests: an odd mod pack, PDF geometry, rendering to pixels."""
from __future__ import annotations

import io
import json
import re
import shutil
import subprocess
from pathlib import Path

from pypdf import PdfReader
from pypdf.generic import ContentStream

LONG_NAME = "Panzerkampfwagen III Ausführung J mit langer Kanone und Schürzen"
LONG_DESIGNATION = "Kampfgruppe Außergewöhnlich"
ACCENTED = "Éclaireurs de la Légion étrangère"


def _prov(note: str) -> dict:
    return {"": {"source": "reconstructed", "note": note}}


def write_odd_mod(root: Path) -> Path:
    """A mod over the bundled pack with odd data: a very long unit name, a card with many unit types
    and a long designation, accents, a unit that cannot fire; both added to scenario XIII."""
    mod = root / "odd-mod"
    mod.mkdir(parents=True, exist_ok=True)
    (mod / "pack.json").write_text(json.dumps({
        "kind": "pack", "id": "odd-mod", "name": "Odd data for the print kit", "version": "1.0",
        "ruleset": "desert-steel", "depends_on": [{"id": "desert-steel"}]}), encoding="utf-8")
    (mod / "units.json").write_text(json.dumps({"kind": "unit-types", "units": [
        {"id": "de-very-long", "name": LONG_NAME, "nationality": "german", "class": "vehicle", "movement": 5,
         "range": 8, "anti_vehicle": 6, "defense": 4, "anti_infantry": 3, "provenance": _prov("test")},
        {"id": "gb-balloon", "name": "Ballon d'observation", "nationality": "british", "class": "forward-observer",
         "anti_vehicle": "cannot-fire", "defense": 0, "anti_infantry": "cannot-fire", "spotter": True,
         "provenance": _prov("test")},
    ]}, ensure_ascii=False), encoding="utf-8")
    many = [{"type": t, "count": n} for t, n in (
        ("de-very-long", 3), ("de-pz-ii-f", 2), ("de-pz-iii-h", 2), ("de-pz-iii-j", 2), ("de-pz-iv-e", 1),
        ("de-pz-iv-f2", 1), ("de-sdkfz-222", 2), ("de-infantry", 3), ("de-mg", 2), ("de-fo", 1))]
    (mod / "cards.json").write_text(json.dumps({"kind": "formation-cards", "cards": [
        {"number": 900, "type": "combat", "designation": LONG_DESIGNATION,
         "name": "Kampfgruppe Außergewöhnlich mit einem sehr, sehr langen Namen, der nicht auf eine Karte passt, "
                 "weil er viel zu lang ist und immer weiter geht",
         "nationality": "german", "formation": "battle-group", "years": {"from": 1942, "to": 1942},
         "variants": {"1942": {"units": many, "experience": "veteran", "c3": "B", "morale": 10,
                               "loss_modifier": 0.5}},
         "provenance": _prov("test")},
        {"number": 901, "type": "combat", "designation": "É/1", "name": ACCENTED, "nationality": "british",
         "formation": "company", "years": {"from": 1942, "to": 1942},
         "variants": {"1942": {"units": [{"type": "gb-balloon", "count": 2}, {"type": "gb-infantry", "count": 3}],
                               "experience": "green", "c3": "D", "morale": 8, "loss_modifier": 1}},
         "provenance": _prov("test")},
    ]}, ensure_ascii=False), encoding="utf-8")
    (mod / "overrides.json").write_text(json.dumps({"kind": "overrides", "overrides": [{
        "target": {"kind": "scenario", "id": "lightfoot"},
        "patch": [{"op": "add", "path": "/sides/axis/formations/0/cards/-", "value": 900},
                  {"op": "add", "path": "/sides/allied/formations/0/cards/-", "value": 901}]},
        # the sample setup of XIII does not place the new cards' units: this mod leaves it out
        {"target": {"kind": "setup", "id": "lightfoot-sample"}, "remove": True}]}), encoding="utf-8")
    return mod


def produce_print_text_too_small(tmp: Path) -> list:
    """Runtime case for the finding-code table: a counter whose name cannot fit (tests/test_finding_codes)."""
    from sandtable.exports.desert_steel import counters
    from sandtable.rules.catalog import load_catalog
    model = load_catalog([write_odd_mod(tmp)]).model
    return counters.counters_pdf(model, model.scenario("XIII"))[1]


def produce_print_counter_over_hex(tmp: Path) -> list:
    """Runtime case: 3/4 in counters are wider than the true-scale hex (tests/test_finding_codes)."""
    from sandtable.exports.desert_steel import counters
    from sandtable.rules.catalog import load_catalog
    model = load_catalog().model
    return counters.counters_pdf(model, model.scenario("I"), size="3/4")[1]


PRINT_RUNTIME_CASES = {"print-text-too-small": produce_print_text_too_small,
                       "print-counter-over-hex": produce_print_counter_over_hex}


# --- PDF geometry ----------------------------------------------------------------------------

def reader(data: bytes) -> PdfReader:
    return PdfReader(io.BytesIO(data))


def rects(page, op: str = "S") -> list[tuple[float, float, float, float]]:
    """Rectangles drawn with `re` and then painted by op (S: stroked cut lines), in page coordinates.

    Only rectangles drawn without a transform (the sheets draw cut lines in page coordinates)."""
    ops = ContentStream(page.get_contents(), page.pdf).operations
    out = []
    depth_cm = 0
    for i, (operands, operator) in enumerate(ops):
        if operator == b"cm" and [float(v) for v in operands] != [1, 0, 0, 1, 0, 0]:
            depth_cm += 1
        elif operator == b"Q":
            depth_cm = 0
        if operator == b"re" and i + 1 < len(ops) and ops[i + 1][1] == op.encode() and depth_cm == 0:
            out.append(tuple(round(float(v), 2) for v in operands))
    return out


def page_text(data: bytes) -> str:
    return "\n".join(p.extract_text() or "" for p in reader(data).pages)


# --- pixels ------------------------------------------------------------------------------------

def have_pdftoppm() -> bool:
    return shutil.which("pdftoppm") is not None


def render(data: bytes, page: int = 1, dpi: int = 24) -> tuple[int, int, bytes]:
    """A page as 8-bit grey pixels (pdftoppm -gray, PGM): width, height, rows top to bottom."""
    # the PDF on stdin; with -singlefile and no output root, the image goes to stdout
    out = subprocess.run(["pdftoppm", "-gray", "-r", str(dpi), "-f", str(page), "-l", str(page), "-singlefile", "-"],
                         input=data, capture_output=True, check=True).stdout
    m = re.match(rb"P5\s+(\d+)\s+(\d+)\s+(\d+)\s", out)
    assert m, out[:40]
    w, h = int(m.group(1)), int(m.group(2))
    pixels = out[m.end():]
    assert len(pixels) == w * h
    return w, h, pixels


def ink(img, box_pt, page_h_pt: float, dpi: int = 24) -> float:
    """Share of non-white pixels inside a box given in PDF points (x0, y0, x1, y1, y up)."""
    w, h, px = img
    s = dpi / 72.0
    x0, y0, x1, y1 = box_pt
    c0, c1 = max(0, int(x0 * s)), min(w, int(x1 * s))
    r0, r1 = max(0, int((page_h_pt - y1) * s)), min(h, int((page_h_pt - y0) * s))
    total = dark = 0
    for r in range(r0, r1):
        row = px[r * w + c0:r * w + c1]
        total += len(row)
        dark += sum(1 for v in row if v < 235)
    return dark / total if total else 0.0
