"""Charts (matplotlib, PNG and SVG) and a one-file HTML report of a sweep.

Only matplotlib's object API with the Agg canvas is used (no pyplot, no global backend), so
drawing works the same in a terminal, a worker, a test and inside the Qt editor. SVGs get a
fixed hash salt and no date, so the same sweep draws the same files.
"""
from __future__ import annotations

import base64
import json
from pathlib import Path

ALLIED, AXIS, DRAW = "#b5442e", "#3b5b92", "#888888"
SIDE_COLOURS = {"allied": ALLIED, "axis": AXIS}


def _figure(width=7.0, height=4.2):
    import matplotlib
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure
    matplotlib.rcParams["svg.hashsalt"] = "sandtable-sweep"  # stable ids in the SVG
    # Labels are the user's text (values, pack paths): "$\\frac{$" is not mathtext to parse.
    matplotlib.rcParams["text.parse_math"] = False
    fig = Figure(figsize=(width, height), dpi=100, layout="constrained")
    FigureCanvasAgg(fig)
    return fig


def _save(fig, folder: Path, name: str) -> list[str]:
    """Rendered in memory, then saved atomically: a kill leaves the old chart or the new one (never
    a truncated SVG), and a planted link is replaced, not written through (atomic.write_bytes)."""
    import io

    from ..atomic import write_bytes
    for ext, kw in (("png", {"dpi": 120, "metadata": {"Software": None}}),
                    ("svg", {"metadata": {"Date": None, "Creator": None}})):
        buf = io.BytesIO()
        fig.savefig(buf, format=ext, **kw)
        write_bytes(folder / f"{name}.{ext}", buf.getvalue())
    return [f"{name}.png", f"{name}.svg"]


def _numeric(values: list) -> bool:
    return all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in values)


def _played(summary: list, varies: list | None = None) -> list[dict]:
    """The points that were played; with one numeric --vary, in the order of the value."""
    rows = [r for r in summary if r["valid"] and r["games"]]
    if varies and len(varies) == 1 and _numeric([r["values"].get(varies[0]) for r in rows]):
        rows.sort(key=lambda r: r["values"][varies[0]])
    return rows


def _title(meta: dict) -> str:
    return f"{meta['scenario_name']}: {meta['games']} games a point, bots {meta['bots'][0]} vs {meta['bots'][1]}"


def winrate_chart(folder: Path, varies: list, summary: list, meta: dict) -> list[str]:
    """Win rate of each side with its 95 % band against the varied value (one --vary), or per
    point (--packs, several --vary, values that are not numbers)."""
    rows = _played(summary)
    if not rows:
        return []
    fig = _figure()
    ax = fig.add_subplot()
    one = len(varies) == 1
    xs = [r["values"].get(varies[0]) for r in rows] if one else []
    if one and _numeric(xs):
        order = sorted(range(len(rows)), key=lambda i: xs[i])
        x = [xs[i] for i in order]
        for side in ("allied", "axis"):
            s = [rows[i]["sides"][side] for i in order]
            ax.plot(x, [v["win_rate"] for v in s], "o-", color=SIDE_COLOURS[side], label=f"{side} wins")
            ax.fill_between(x, [v["win_rate_95"][0] for v in s], [v["win_rate_95"][1] for v in s],
                            color=SIDE_COLOURS[side], alpha=0.18, linewidth=0)
        base = next((r for r in rows if r["baseline"]), None)
        if base is not None:
            bx = base["values"].get(varies[0])
            if isinstance(bx, (int, float)):
                ax.axvline(bx, color="#444", linestyle=":", linewidth=1)
                right = bx == max(x)  # at the right edge the note goes to the left of the line
                ax.annotate("pack as it is", (bx, 1.0), xytext=(-3 if right else 3, -12), textcoords="offset points",
                            fontsize=8, color="#444", ha="right" if right else "left")
        for r in summary:
            if not r["valid"]:
                v = r["values"].get(varies[0])
                if isinstance(v, (int, float)):
                    ax.plot([v], [0.0], "x", color="black", markersize=8)
                    ax.annotate("invalid", (v, 0.0), xytext=(4, 4), textcoords="offset points", fontsize=8)
        ax.set_xlabel(varies[0])
        if all(isinstance(v, int) for v in x):
            ax.set_xticks(sorted(set(x + [r["values"].get(varies[0]) for r in summary
                                          if isinstance(r["values"].get(varies[0]), int)])))
    else:
        labels = [_short(r["label"]) for r in rows]
        pos = list(range(len(rows)))
        for k, side in enumerate(("allied", "axis")):
            s = [r["sides"][side] for r in rows]
            y = [v["win_rate"] for v in s]
            err = [[v["win_rate"] - v["win_rate_95"][0] for v in s], [v["win_rate_95"][1] - v["win_rate"] for v in s]]
            ax.errorbar([p + (k - 0.5) * 0.18 for p in pos], y, yerr=err, fmt="o", capsize=4,
                        color=SIDE_COLOURS[side], label=f"{side} wins")
        ax.set_xticks(pos, labels, rotation=20 if len(rows) > 3 else 0, ha="right" if len(rows) > 3 else "center",
                      fontsize=8)
    ax.axhline(0.5, color="#999", linewidth=0.8, linestyle="--")
    ax.set_ylim(-0.02, 1.02)
    ax.set_ylabel("win rate (95 % interval)")
    ax.set_title(_title(meta), fontsize=10)
    ax.legend(fontsize=8, loc="best")
    ax.grid(alpha=0.3)
    return _save(fig, folder, "winrate")


def difference_chart(folder: Path, varies: list, summary: list, meta: dict, side: str = "allied") -> list[str]:
    """Each point's paired difference to the baseline, with its 95 % interval: in one side's win
    rate, and in the victory-point margin (allied - axis), which still moves when a win rate is
    pinned at 0 or 100 %."""
    rows = [r for r in _played(summary, varies) if not r["baseline"]]
    if not rows:
        return []
    fig = _figure(8.0, 1.1 + 0.38 * len(rows))
    axes = fig.subplots(1, 2, sharey=True)
    y = list(range(len(rows)))[::-1]
    panels = ((axes[0], [r["sides"][side] for r in rows], 100, f"{side} win rate (points of %)"),
              (axes[1], [r["margin"] for r in rows], 1, "victory-point margin, allied − axis"))
    for ax, stats, scale, label in panels:
        for yi, s in zip(y, stats):
            a, b = (scale * v for v in s["difference_95"])
            c = SIDE_COLOURS[side] if (a > 0 or b < 0) else "#999"
            ax.plot([a, b], [yi, yi], color=c, linewidth=2)
            ax.plot([scale * s["difference_to_baseline"]], [yi], "o", color=c)
        ax.axvline(0, color="#444", linewidth=0.8)
        ax.set_xlabel(f"Δ {label}", fontsize=9)
        ax.grid(alpha=0.3, axis="x")
    axes[0].set_yticks(y, [_short(r["label"]) for r in rows], fontsize=8)
    fig.suptitle("Difference to the pack as it is, same seeds and setups (95 %; grey: within dice noise)",
                 fontsize=10)
    return _save(fig, folder, "difference")


def heatmap_chart(folder: Path, varies: list, summary: list, meta: dict, side: str = "allied") -> list[str]:
    """For a two-value grid: one side's win rate in every cell, with its interval."""
    if len(varies) != 2:
        return []
    rows = [r for r in summary if not r["baseline"] or all(v in r["values"] for v in varies)]
    xs = _unique([r["values"].get(varies[1]) for r in rows])
    ys = _unique([r["values"].get(varies[0]) for r in rows])
    if _numeric(xs):
        xs.sort()
    if _numeric(ys):
        ys.sort()
    import numpy as np
    grid = np.full((len(ys), len(xs)), np.nan)
    text = {}
    for r in rows:
        i, j = _index(ys, r["values"].get(varies[0])), _index(xs, r["values"].get(varies[1]))
        if i is None or j is None:
            continue
        if r["valid"] and r["games"]:
            s = r["sides"][side]
            grid[i, j] = s["win_rate"]
            text[(i, j)] = f"{100 * s['win_rate']:.0f}%\n{100 * s['win_rate_95'][0]:.0f}-{100 * s['win_rate_95'][1]:.0f}"
        elif not r["valid"]:
            text[(i, j)] = "invalid"
    fig = _figure(1.6 + 0.9 * len(xs), 1.4 + 0.6 * len(ys))
    ax = fig.add_subplot()
    im = ax.imshow(grid, vmin=0, vmax=1, cmap="RdBu_r" if side == "allied" else "RdBu", origin="lower",
                   aspect="auto")
    for (i, j), t in text.items():
        v = grid[i, j]
        dark = not np.isnan(v) and (v < 0.2 or v > 0.8)  # the colour map's ends are dark: white text there
        ax.text(j, i, t, ha="center", va="center", fontsize=7, color="white" if dark else "black")
    ax.set_xticks(range(len(xs)), [_fmt(v) for v in xs])
    ax.set_yticks(range(len(ys)), [_fmt(v) for v in ys])
    ax.set_xlabel(varies[1])
    ax.set_ylabel(varies[0])
    ax.set_title(f"{meta['scenario_name']}: {side} win rate (95 % interval)", fontsize=10)
    fig.colorbar(im, ax=ax, shrink=0.8)
    return _save(fig, folder, "heatmap")


def points_chart(folder: Path, varies: list, summary: list, meta: dict) -> list[str]:
    """The distribution of each side's victory points at every point (box plots)."""
    rows = _played(summary, varies)
    if not rows:
        return []
    fig = _figure(7.0, 4.2)
    axes = fig.subplots(1, 2, sharey=False)
    for ax, side in zip(axes, ("allied", "axis")):
        data = []
        for r in rows:
            pts = []
            for value, count in r["sides"][side]["points"].items():
                pts += [float(value)] * count
            data.append(pts)
        import matplotlib
        flat = {"orientation": "horizontal"} if tuple(map(int, matplotlib.__version__.split(".")[:2])) >= (3, 10) \
            else {"vert": False}
        bp = ax.boxplot(data, patch_artist=True, widths=0.6, **flat)
        for box in bp["boxes"]:
            box.set_facecolor(SIDE_COLOURS[side])
            box.set_alpha(0.35)
        ax.set_yticks(range(1, len(rows) + 1), [_short(r["label"], 22) for r in rows] if side == "allied" else
                      [""] * len(rows), fontsize=8)
        ax.set_xlabel(f"{side} victory points")
        ax.grid(alpha=0.3, axis="x")
    fig.suptitle("Victory points per game at each point", fontsize=10)
    return _save(fig, folder, "points")


def _unique(values: list) -> list:
    out = []
    for v in values:
        if v is not None and not any(type(v) is type(u) and v == u for u in out):
            out.append(v)
    return out


def _index(values: list, v):
    return next((i for i, u in enumerate(values) if type(u) is type(v) and u == v), None)


def _fmt(v) -> str:
    return v if isinstance(v, str) else json.dumps(v)


def _short(text: str, n: int = 30) -> str:
    return text if len(text) <= n else text[: n - 1] + "…"


def draw_all(folder: Path, varies: list, summary: list, meta: dict) -> list[str]:
    files = []
    files += winrate_chart(folder, varies, summary, meta)
    files += heatmap_chart(folder, varies, summary, meta)
    files += difference_chart(folder, varies, summary, meta)
    files += points_chart(folder, varies, summary, meta)
    return files


# --- the HTML report ---------------------------------------------------------------------
# Jinja2 with autoescape: every value shown (labels, values, findings, paths) comes from the
# user or a results folder, so none is written into the page as markup.

_CSS = """body{font-family:DejaVu Sans,Helvetica,Arial,sans-serif;margin:2em;max-width:70em;color:#222}
table{border-collapse:collapse;font-size:.9em}td,th{border:1px solid #ccc;padding:.25em .5em;text-align:right}
th{background:#f2f2f2}td.l,th.l{text-align:left}tr.base{background:#fbf6e4}tr.bad{color:#999}
.sig{font-weight:bold}.chart{margin:1.5em 0}.chart svg{max-width:100%;height:auto}code{background:#f4f4f4}
.finding{font-family:monospace;font-size:.85em;color:#a00}"""

_PAGE = """<!DOCTYPE html><html lang=en><head><meta charset=utf-8><title>Sweep: {{ meta.scenario_name }}</title>
<style>{{ css }}</style></head><body>
<h1>Balance sweep: {{ meta.scenario_name }}</h1>
<p>{{ plan.games }} games at each point (seed {{ plan.seed }}, setups: {{ plan.setups }}), bots {{ plan.bots[0] }}
(allied) vs {{ plan.bots[1] }} (axis). Every point plays the same seeds and setups (common random numbers), so the
difference to the baseline is measured game by game; its 95 % interval is that of a paired difference. Win rates carry
Wilson 95 % intervals. <b>Bold</b>: the difference is larger than dice noise (its interval excludes 0).</p>
{% if varies %}<p>Varied: {% for v in varies %}<code>{{ v }}</code>{{ ", " if not loop.last }}{% endfor %}</p>{% endif %}
<table><tr>{% for h in head %}<th{{ " class=l" if loop.index0 < left }}>{{ h }}</th>{% endfor %}</tr>
{% for row in rows %}<tr class="{{ row.cls }}">{% for c in row.cells %}<td{% if c.cls %} class="{{ c.cls }}"{% endif %}
{%- if c.span %} colspan="{{ c.span }}"{% endif %}>{{ c.text }}</td>{% endfor %}</tr>
{% endfor %}</table>
{% if bad %}<h2>Invalid points (not played)</h2>
{% for r in bad %}<p><b>{{ r.label }}</b></p>
{% for f in r.findings %}<div class=finding>{{ f.severity }} {{ f.code }}: {{ f.message }}{% if f.file %} — {{ f.file }}
{%- endif %}{% if f.pointer %} at {{ f.pointer }}{% endif %}</div>
{% endfor %}{% endfor %}{% endif %}
{% for svg in svgs %}<div class=chart>{{ svg }}</div>
{% endfor %}{% for name, data in pngs %}<div class=chart><img alt="{{ name }}" src="data:image/png;base64,{{ data }}"></div>
{% endfor %}<p style="color:#777;font-size:.8em">sandtable {{ meta.version }} — remake with <code>{{ meta.command }}</code></p>
</body></html>
"""


def _pct(x) -> str:
    return f"{100 * x:.1f}"


def _cell(text, cls: str = "", span: int = 0) -> dict:
    return {"text": str(text), "cls": cls, "span": span}


def _row_cells(r: dict, varies: list, width: int) -> list[dict]:
    cells = [_cell(r["label"], "l")] + [_cell(_fmt(r["values"].get(c)), "l") for c in (varies or ["pack"])]
    if not r["valid"]:
        return cells + [_cell(f"invalid: not played ({len(r['findings'])} finding(s) below)", "l", width)]
    cells.append(_cell(f"{r['games']}" + (f" (+{r['errors']} errors)" if r["errors"] else "")))
    for side in ("allied", "axis"):
        s = r["sides"][side]
        cells.append(_cell(f"{_pct(s['win_rate'])} ({_pct(s['win_rate_95'][0])}–{_pct(s['win_rate_95'][1])})"))
        lo, hi = s["difference_95"]
        cells.append(_cell("—") if r["baseline"] else _cell(
            f"{100 * s['difference_to_baseline']:+.1f} ({100 * lo:+.1f} to {100 * hi:+.1f})",
            "sig" if (lo > 0 or hi < 0) else ""))
    cells.append(_cell(r["draws"]))
    cells.append(_cell(f"{r['sides']['allied']['mean_points']:g} / {r['sides']['axis']['mean_points']:g}"))
    m = r["margin"]
    cells.append(_cell("—") if r["baseline"] else _cell(
        f"{m['difference_to_baseline']:+.2f} ({m['difference_95'][0]:+.2f} to {m['difference_95'][1]:+.2f})",
        "sig" if (m["difference_95"][0] > 0 or m["difference_95"][1] < 0) else ""))
    return cells


def _template():
    import jinja2
    env = jinja2.Environment(autoescape=True, undefined=jinja2.StrictUndefined, keep_trailing_newline=True)
    return env.from_string(_PAGE)


def report_html(folder: Path, plan_json: dict, summary: list, meta: dict, charts: list[str]) -> str:
    """One self-contained page: the sweep, the table, invalid points, every chart inline (SVG)."""
    from markupsafe import Markup
    varies = plan_json["varies"]
    head = ["point", *(varies or ["pack"]), "games", "allied wins % (95 %)", "Δ allied vs baseline (95 %)",
            "axis wins % (95 %)", "Δ axis vs baseline (95 %)", "draws", "mean points allied / axis",
            "Δ margin allied − axis (95 %)"]
    left = 1 + max(1, len(varies))
    rows = [{"cls": "base" if r["baseline"] else ("bad" if not r["valid"] else ""),
             "cells": _row_cells(r, varies, len(head) - left)} for r in summary]
    bad = [{"label": r["label"], "findings": [{"severity": f.get("severity", "error"), "code": f.get("code", ""),
                                               "message": f.get("message", ""), "file": f.get("file") or "",
                                               "pointer": f.get("pointer") or ""} for f in r["findings"]]}
           for r in summary if not r["valid"]]
    # The SVGs are the ones just drawn by matplotlib (which escapes its text); they go in as markup.
    svgs = []
    for name in charts:
        if name.endswith(".svg"):
            svg = (folder / name).read_text(encoding="utf-8")
            svgs.append(Markup(svg[svg.index("<svg"):]))  # inline: drop the XML prolog and doctype
    pngs = [] if svgs else [(name, base64.b64encode((folder / name).read_bytes()).decode())
                            for name in charts if name.endswith(".png")]
    page_meta = {"scenario_name": meta.get("scenario_name", ""), "version": meta.get("version", ""),
                 "command": meta.get("command", "sandtable sweep --resume DIR")}
    return _template().render(css=Markup(_CSS), meta=page_meta, plan=plan_json, varies=varies, head=head, left=left,
                              rows=rows, bad=bad, svgs=svgs, pngs=pngs)
