"""VASSAL export benchmark: the module of the whole bundled pack (every scenario a predefined setup),
its time by stage and its size (bytes, images, the share of images).

Run: python benchmarks/bench_vassal.py [--repeat N]  (needs poppler-utils' pdftoppm, as the export).
Prints the median of N runs and writes benchmarks/.generated/vassal.json.
"""
from __future__ import annotations

import argparse
import json
import statistics
import time
import zipfile
import io
from pathlib import Path

from sandtable.exports.desert_steel import vassal as desert_steel
from sandtable.exports.vassal import module
from sandtable.rules.catalog import load_catalog

HERE = Path(__file__).resolve().parent


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    catalog = load_catalog()
    runs = []
    for _ in range(args.repeat):
        t0 = time.perf_counter()
        chosen = desert_steel.scenario_setups(catalog, [])
        t1 = time.perf_counter()
        mod = desert_steel.build_module(catalog, chosen)
        t2 = time.perf_counter()
        data = module.write_module(mod)
        t3 = time.perf_counter()
        runs.append((t1 - t0, t2 - t1, t3 - t2, t3 - t0))
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        images = sum(i.file_size for i in z.infolist() if i.filename.startswith("images/"))
    result = {"setups_s": statistics.median(r[0] for r in runs), "build_s": statistics.median(r[1] for r in runs),
              "write_s": statistics.median(r[2] for r in runs), "total_s": statistics.median(r[3] for r in runs),
              "bytes": len(data), "image_bytes": images, "images": len(mod.images), "setups": len(mod.setups),
              "pieces": sum(len(p.pieces) for p in mod.setups)}
    print(f"VASSAL module of the whole pack: {result['total_s']:.1f} s (setups {result['setups_s']:.1f}, images and "
          f"contents {result['build_s']:.1f}, archive {result['write_s']:.1f}), {len(data) / 1e6:.2f} MB "
          f"({images / len(data):.0%} images, {len(mod.images)} of them), {result['setups']} setups, "
          f"{result['pieces']} pieces placed")
    out = HERE / ".generated"
    out.mkdir(exist_ok=True)
    (out / "vassal.json").write_text(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
