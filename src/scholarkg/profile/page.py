"""The profile as one offline HTML page: inline style, inline SVG charts, no scripts.

Every piece of record text is escaped; links go to arXiv, DOI and, with ``explorer``, to the
graph explorer beside the page (``graph.html#node=<IRI>`` selects a node there).
"""

from __future__ import annotations

from html import escape
from urllib.parse import quote

from . import charts

__all__ = ["profile_html"]

_STYLE = """
body { font-family: system-ui, -apple-system, "Segoe UI", sans-serif; margin: 0 auto; max-width: 1100px;
       padding: 1.5em; color: #222; line-height: 1.45; }
h1 { margin-bottom: .1em; } h2 { margin-top: 1.8em; border-bottom: 1px solid #ddd; padding-bottom: .2em; }
.lead { color: #555; margin-top: 0; }
.charts { display: grid; grid-template-columns: repeat(auto-fit, minmax(420px, 1fr)); gap: 1em; }
.charts figure { margin: 0; border: 1px solid #eee; border-radius: 6px; padding: .5em; }
svg.chart { width: 100%; height: auto; }
table { border-collapse: collapse; width: 100%; font-size: 14px; }
th, td { text-align: left; padding: .3em .5em; border-bottom: 1px solid #eee; vertical-align: top; }
th { background: #f6f6f6; }
th.num { text-align: right; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
.tag { display: inline-block; font-size: 12px; padding: 0 .4em; border-radius: 3px; background: #eef; margin-right: .3em; }
.curated { background: #fde9c8; }
.kind-name { background: #dcefdc; } .kind-concept { background: #eee; color: #555; }
.muted { color: #777; }
a { color: #2f5f9e; }
"""


def _e(value) -> str:
    return escape("" if value is None else str(value), quote=True)


class _Links:
    def __init__(self, explorer: str | None) -> None:
        self.explorer = explorer

    def node(self, iri: str, text: str) -> str:
        if not self.explorer:
            return _e(text)
        return f'<a href="{_e(self.explorer)}#node={_e(quote(iri, safe=""))}" title="show in the explorer">{_e(text)}</a>'


def _table(head: list[str], rows: list[list[str]], numeric: tuple[int, ...] = ()) -> str:
    th = "".join(f'<th class="num">{_e(h)}</th>' if i in numeric else f"<th>{_e(h)}</th>" for i, h in enumerate(head))
    body = "".join(
        "<tr>" + "".join(f'<td class="num">{c}</td>' if i in numeric else f"<td>{c}</td>" for i, c in enumerate(r)) + "</tr>"
        for r in rows
    )
    return f"<table><thead><tr>{th}</tr></thead><tbody>{body}</tbody></table>"


def _paper_links(paper: dict) -> str:
    parts = []
    if paper.get("arxiv_id"):
        parts.append(f'<a href="https://arxiv.org/abs/{_e(quote(paper["arxiv_id"], safe="./"))}">arXiv:{_e(paper["arxiv_id"])}</a>')
    if paper.get("doi"):
        parts.append(f'<a href="https://doi.org/{_e(quote(paper["doi"], safe="/.()-_;:"))}">doi:{_e(paper["doi"])}</a>')
    return " ".join(parts)


def _kind(entity: dict) -> str:
    """The kind of an entity as a tag: a name (GRPO, BrowseComp) or a concept (question answering)."""
    kind = entity.get("kind") or "name"
    return f'<span class="tag kind-{_e(kind)}">{_e(kind)}</span>'


CHART_ROWS = 14  # entities in a chart
TABLE_ROWS = 40  # names in the table of use
CONCEPT_ROWS = 15  # concepts after them


def _used(facts: dict) -> list[dict]:
    """Models, benchmarks, datasets and methods, most used first (tasks and metrics left out)."""
    return [e for e in facts["entities"] if e["type"] in ("Model", "Benchmark", "Dataset", "Method")]


def _names_then_concepts(entities: list[dict]) -> list[dict]:
    """The most used names, then the most used concepts (``entities`` is ordered that way)."""
    names = [e for e in entities if e.get("kind") != "concept"][:TABLE_ROWS]
    return names + [e for e in entities if e.get("kind") == "concept"][:CONCEPT_ROWS]


def _charts(facts: dict) -> str:
    figures = []
    if facts["papers_per_year"]:
        figures.append(charts.papers_per_year(facts["papers_per_year"]))
    if facts["categories_by_year"]:
        figures.append(charts.categories_by_year(facts["categories_by_year"]))
    used = _used(facts)
    if any(e["first"] is not None for e in used):
        figures.append(charts.timeline(used))
    ranked = [e for e in used if e["type"] != "Method"][:CHART_ROWS]
    if ranked:
        figures.append(charts.most_used(ranked, "Models and benchmarks used most", "most-used"))
    if not figures:
        return '<p class="muted">No dated papers to chart.</p>'
    return '<div class="charts">' + "".join(f"<figure>{svg}</figure>" for svg in figures) + "</div>"


def _lead(facts: dict) -> str:
    papers = facts["papers"]
    years = [p["year"] for p in papers if p["year"] is not None]
    span = f", {min(years)}–{max(years)}" if years else ""
    with_id = sum(1 for p in papers if p["arxiv_id"])
    cats = ", ".join(_e(c["category"]) for c in facts["categories"][:6])
    return (
        f'<p class="lead">{len(papers)} paper{"s" if len(papers) != 1 else ""}{span}; '
        f"{with_id} with an arXiv id; {len(facts['collaborators'])} collaborator(s) known"
        + (f"; mostly {cats}" if cats else "") + "</p>"
    )


def profile_html(facts: dict, *, explorer: str | None = "graph.html") -> str:
    """The page for ``facts`` from :func:`scholarkg.profile.author_profile`."""
    links = _Links(explorer)
    author = facts["author"]
    out = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{_e(author)} — research profile</title>",
        f"<style>{_STYLE}</style></head><body>",
        f"<h1>{_e(author)}</h1>",
        _lead(facts),
    ]
    if explorer:
        out.append(f'<p><a href="{_e(explorer)}">Open the graph explorer</a></p>')
    out += ["<h2>Overview</h2>", _charts(facts)]

    def introduced(types: tuple[str, ...], heading: str) -> None:
        rows = [[links.node(i["iri"], i["label"]), _kind(i), _e(i["type"]), _e(i["year"]), _e(i["title"])]
                for i in facts["introduced"] if i["type"] in types]
        out.append(f"<h2>{heading}</h2>")
        out.append(_table(["entity", "kind", "type", "year", "paper"], rows) if rows else '<p class="muted">None recorded.</p>')

    introduced(("Benchmark", "Dataset"), "Benchmarks and datasets introduced")
    introduced(("Method", "Model"), "Methods and models introduced")

    out.append("<h2>Models, benchmarks and methods used most, with first and latest use</h2>")
    out.append('<p class="muted">Names (GRPO, BrowseComp) come first, then concepts (term phrases such as '
               "reinforcement learning); each list is ordered by the number of papers.</p>")
    used = _used(facts)
    rows = [
        [links.node(e["iri"], e["label"]) + (' <span class="tag curated">curated</span>' if e["curated"] else ""),
         _kind(e), _e(e["type"]), str(e["papers"]), _e(e["first"]), _e(e["latest"]), str(e["introduced"])]
        for e in _names_then_concepts(used)
    ]
    out.append(_table(["entity", "kind", "type", "papers", "first", "latest", "introduced in"], rows,
                      numeric=(3, 4, 5, 6))
               if rows else '<p class="muted">No models, benchmarks or methods recorded.</p>')
    rest = len(facts["entities"]) - len(rows)
    if rest > 0:
        out.append(f'<p class="muted">{rest} more entities (tasks, metrics and the less used) are in '
                   "<code>--format json</code> and the named query <code>author-entities</code>.</p>")

    out.append("<h2>Collaborators</h2>")
    if facts["collaborators"]:
        out.append(_table(["co-author", "shared papers"],
                          [[_e(c["name"]), str(c["papers"])] for c in facts["collaborators"]], numeric=(1,)))
    else:
        out.append('<p class="muted">No co-authors are recorded for these papers (profile pages list only their '
                   "owner); <code>scholarkg enrich</code> adds every author from arXiv.</p>")

    out.append("<h2>Results</h2>")
    if facts["results"]:
        rows = [
            [_e(r["model"]), _e(r["benchmark"]), _e(r["metric"]), _e(r["value"]) + _e(r["unit"] or ""),
             _e(r["title"]) + (' <span class="tag curated">curated</span>' if r["source"] == "curated" else ""),
             f'<span class="muted">{_e(r["evidence"])}</span>']
            for r in facts["results"]
        ]
        out.append(_table(["model", "benchmark", "metric", "value", "paper", "evidence"], rows, numeric=(3,)))
    else:
        out.append('<p class="muted">No results recorded.</p>')

    out.append("<h2>Papers</h2>")
    rows = [
        [_e(p["year"]), links.node(p["iri"], p["title"]),
         " ".join(f'<span class="tag">{_e(c)}</span>' for c in p["categories"]), _paper_links(p)]
        for p in facts["papers"]
    ]
    out.append(_table(["year", "title", "categories", "links"], rows))
    out.append('<p class="muted">Made by scholarkg from the knowledge graph; the same facts come from the named '
               "queries " + ", ".join(f"<code>{_e(q)}</code>" for q in facts["queries"]) + ".</p>")
    out.append("</body></html>")
    return "\n".join(out) + "\n"
