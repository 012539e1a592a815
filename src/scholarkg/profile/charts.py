"""The profile's charts as inline SVG, drawn with matplotlib's SVG backend.

Output is deterministic: a fixed ``svg.hashsalt`` (one per chart, so element ids never
clash inside one page), no creation date in the metadata, and text kept as SVG text
(``svg.fonttype = none``) rather than glyph outlines. Mathtext is off: labels arrive as plain
Unicode (TeX is decoded on reading) and a ``$`` left in them is drawn as written. Labels are
escaped by matplotlib's XML writer.
"""

from __future__ import annotations

import io
import re

__all__ = ["papers_per_year", "categories_by_year", "most_used", "timeline"]

_PALETTE = ("#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac")
_TYPE_COLOUR = {"Benchmark": "#f28e2b", "Dataset": "#edc948", "Model": "#59a14f", "Method": "#76b7b2",
                "Task": "#b07aa1", "Metric": "#ff9da7"}


def _rc(name: str) -> dict:
    return {
        "svg.hashsalt": f"scholarkg-{name}",
        "svg.id": "chart",
        "svg.fonttype": "none",
        "text.parse_math": False,
        "font.family": "DejaVu Sans",
        "font.size": 9,
        "axes.spines.top": False,
        "axes.spines.right": False,
    }


def _render(name: str, draw, size: tuple[float, float], title: str) -> str:
    import matplotlib
    from matplotlib.backends.backend_svg import FigureCanvasSVG
    from matplotlib.figure import Figure

    with matplotlib.rc_context(_rc(name)):
        fig = Figure(figsize=size, layout="constrained")
        FigureCanvasSVG(fig)
        draw(fig)
        buffer = io.StringIO()
        fig.savefig(buffer, format="svg", metadata={"Date": None, "Title": title})
    svg = buffer.getvalue()
    svg = svg[svg.index("<svg"):]  # drop the XML declaration and DOCTYPE: the SVG sits inside HTML
    # matplotlib numbers its element ids per figure (figure_1, axes_1, ...): prefix them so
    # several charts in one page never share an id, and keep the references pointing right.
    svg = re.sub(r'\b(id="|href="#|url\(#)', lambda m: f"{m.group(1)}{name}-", svg)
    svg = re.sub(r'<svg ([^>]*?)width="[^"]*" height="[^"]*"', r'<svg \1', svg, count=1)
    return svg.replace("<svg ", f'<svg role="img" aria-label="{_attr(title)}" class="chart" ', 1)


def _attr(text: str) -> str:
    from html import escape

    return escape(text, quote=True)


def _short(text: str, size: int = 38) -> str:
    return text if len(text) <= size else text[: size - 1] + "…"


def papers_per_year(rows: list[dict]) -> str:
    years = [r["year"] for r in rows]
    counts = [r["papers"] for r in rows]

    def draw(fig):
        ax = fig.subplots()
        ax.bar([str(y) for y in years], counts, color=_PALETTE[0])
        ax.set_ylabel("papers")
        ax.set_title("Papers per year")
        ax.yaxis.get_major_locator().set_params(integer=True)
        for i, n in enumerate(counts):
            ax.annotate(str(n), (i, n), ha="center", va="bottom", fontsize=8)

    return _render("papers-per-year", draw, (4.2, 2.6), "Papers per year")


def categories_by_year(rows: list[dict]) -> str:
    years = sorted({r["year"] for r in rows})
    codes = sorted({r["category"] for r in rows})
    counts = {(r["year"], r["category"]): r["papers"] for r in rows}

    def draw(fig):
        ax = fig.subplots()
        bottom = [0] * len(years)
        for i, code in enumerate(codes):
            values = [counts.get((y, code), 0) for y in years]
            ax.bar([str(y) for y in years], values, bottom=bottom, label=code, color=_PALETTE[i % len(_PALETTE)])
            bottom = [b + v for b, v in zip(bottom, values)]
        ax.set_ylabel("papers")
        ax.set_title("arXiv categories per year")
        ax.yaxis.get_major_locator().set_params(integer=True)
        ax.legend(loc="upper left", bbox_to_anchor=(1.0, 1.0), fontsize=8, frameon=False)

    return _render("categories-by-year", draw, (4.8, 2.6), "arXiv categories per year")


def most_used(entities: list[dict], title: str, name: str) -> str:
    rows = list(reversed(entities))

    def draw(fig):
        ax = fig.subplots()
        ax.barh([_short(e["label"]) for e in rows], [e["papers"] for e in rows],
                color=[_TYPE_COLOUR.get(e["type"], "#999999") for e in rows])
        ax.set_xlabel("papers")
        fig.suptitle(title)
        ax.xaxis.get_major_locator().set_params(integer=True)

    return _render(name, draw, (4.6, 0.6 + 0.28 * max(len(rows), 2)), title)


def timeline(entities: list[dict], limit: int = 14) -> str:
    """First and latest use of ``entities`` (most used first): a segment from first to latest year."""
    rows = list(reversed([e for e in entities if e["first"] is not None][:limit]))

    def draw(fig):
        ax = fig.subplots()
        for i, e in enumerate(rows):
            colour = _TYPE_COLOUR.get(e["type"], "#999999")
            ax.plot([e["first"], e["latest"]], [i, i], color=colour, linewidth=3, solid_capstyle="round")
            ax.plot([e["first"], e["latest"]], [i, i], "o", color=colour, markersize=5)
        ax.set_yticks(range(len(rows)), [_short(e["label"]) for e in rows])
        years = [y for e in rows for y in (e["first"], e["latest"])]
        low, high = (min(years), max(years)) if years else (0, 1)
        ax.set_xlim(low - 0.5, high + 0.5)
        ax.set_xticks(range(low, high + 1), [str(y) for y in range(low, high + 1)])
        fig.suptitle("First and latest use")

    return _render("timeline", draw, (4.6, 0.6 + 0.28 * max(len(rows), 2)), "First and latest use of entities")
