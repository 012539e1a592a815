"""The facts of an author's research profile, gathered by running named queries.

Every figure and table of the profile page comes from one of the package's named SPARQL
queries run with ``author`` bound, so the same facts are available from
``scholarkg query GRAPH --named NAME -p author=...``:

=======================  ===================================================
facts                    named query
=======================  ===================================================
papers, papers per year  ``author-papers``
categories over time     ``author-categories-by-year``
introduced               ``benchmarks-introduced``, ``methods-introduced`` (kind from ``author-entities``)
entities, first/latest   ``author-entities`` (names before concepts)
collaborators            ``coauthors``
results                  ``author-results``
=======================  ===================================================
"""

from __future__ import annotations

import difflib
import json
from collections import Counter, defaultdict
from pathlib import Path

from rdflib import Graph
from rdflib.namespace import FOAF, RDF

from ..errors import UsageError
from ..graph.vocab import SKG

__all__ = ["author_profile", "profile_json", "find_author", "QUERIES"]

QUERIES = ("author-papers", "author-categories-by-year", "benchmarks-introduced", "methods-introduced",
           "author-entities", "coauthors", "author-results")
MOST_USED = 10
_KIND_ORDER = {"name": 0, "concept": 1}  # names (GRPO, BrowseComp) before concepts (question answering)


def find_author(graph: Graph, name: str) -> str:
    """The author's name as the graph spells it (matched ignoring case); UsageError with suggestions."""
    names = sorted({str(n) for a in graph.subjects(RDF.type, SKG.Author) for n in graph.objects(a, FOAF.name)})
    wanted = " ".join(name.split()).casefold()
    for candidate in names:
        if " ".join(candidate.split()).casefold() == wanted:
            return candidate
    close = difflib.get_close_matches(name, names, n=3, cutoff=0.6)
    hint = f"; did you mean {', '.join(repr(c) for c in close)}?" if close else f" ({len(names)} authors in the graph)"
    raise UsageError(f"no author named {name!r} in the graph{hint}")


def _run(graph: Graph, name: str, **params: str) -> list[dict[str, str]]:
    from ..named import get_named_query
    from ..sparql import run_query

    q = get_named_query(name)
    return run_query(graph, q.text, q.bindings(params), hidden=tuple(q.params)).to_dicts()


def _int(value: str | None) -> int | None:
    try:
        return int(value) if value not in (None, "") else None
    except ValueError:
        return None


def author_profile(graph: str | Path | Graph, author: str) -> dict:
    """Every fact of ``author``'s profile as plain JSON-ready data (deterministic order)."""
    from ..api import load

    g = load(graph)
    name = find_author(g, author)

    papers = [
        {
            "title": r["title"], "year": _int(r.get("year")), "arxiv_id": r.get("arxivId"), "doi": r.get("doi"),
            "primary_category": r.get("primary"), "categories": sorted(r.get("categories", "").split()),
            "iri": r["paper"],
        }
        for r in _run(g, "author-papers", author=name)
    ]
    papers.sort(key=lambda p: (-(p["year"] or 0), p["title"].casefold(), p["iri"]))
    per_year = Counter(p["year"] for p in papers if p["year"] is not None)

    by_year: dict[int, dict[str, int]] = defaultdict(dict)
    category_names: dict[str, str] = {}
    totals: Counter[str] = Counter()
    primary: Counter[str] = Counter()
    for r in _run(g, "author-categories-by-year", author=name):
        year, code = _int(r.get("year")), r["category"]
        category_names[code] = r["name"]
        totals[code] += int(r["papers"])
        primary[code] += int(r["asPrimary"])
        if year is not None:
            by_year[year][code] = by_year[year].get(code, 0) + int(r["papers"])

    introduced = []
    for query in ("benchmarks-introduced", "methods-introduced"):
        for r in _run(g, query, author=name):
            introduced.append({"label": r["label"], "type": r["type"], "year": _int(r.get("year")),
                               "title": r["title"], "iri": r["entity"]})

    entities = [
        {
            "label": r["label"], "type": r["type"], "kind": r.get("entityKind") or "name", "papers": int(r["papers"]),
            "first": _int(r.get("first")), "latest": _int(r.get("latest")), "introduced": int(r["introduced"]),
            "curated": r.get("curatedLinks") == "1", "iri": r["entity"],
        }
        for r in _run(g, "author-entities", author=name)
    ]
    entities.sort(key=lambda e: (_KIND_ORDER.get(e["kind"], 1), -e["papers"], e["label"].casefold(), e["type"]))
    kinds = {e["iri"]: e["kind"] for e in entities}
    for i in introduced:
        i["kind"] = kinds.get(i["iri"], "name")
    introduced = sorted({(i["label"], i["type"], i["year"] or 0, i["title"], i["iri"]): i for i in introduced}.values(),
                        key=lambda i: (_KIND_ORDER.get(i["kind"], 1), -(i["year"] or 0), i["label"].casefold(), i["title"]))
    most_used = {
        kind: [e for e in entities if e["type"] in types][:MOST_USED]
        for kind, types in (("models", ("Model",)), ("benchmarks", ("Benchmark", "Dataset")), ("methods", ("Method",)))
    }

    collaborators = [
        {"name": r["coauthor"], "papers": int(r["sharedPapers"])}
        for r in _run(g, "coauthors", author=name) if r.get("coauthor")
    ]
    collaborators.sort(key=lambda c: (-c["papers"], c["name"].casefold()))

    results = [
        {
            "model": r.get("model"), "benchmark": r.get("benchmark"), "metric": r.get("metric"), "value": r["value"],
            "unit": r.get("unit"), "year": _int(r.get("year")), "title": r["title"], "evidence": r["evidence"],
            "source": r["origin"], "iri": r["result"], "paper": r["paper"],
        }
        for r in _run(g, "author-results", author=name)
    ]
    results.sort(key=lambda r: (-(r["year"] or 0), r["title"], r["benchmark"] or "", r["model"] or "", r["value"], r["iri"]))

    years = sorted(per_year)
    return {
        "author": name,
        "papers": papers,
        "papers_per_year": [{"year": y, "papers": per_year[y]} for y in years],
        "categories": [
            {"category": c, "name": category_names[c], "papers": totals[c], "as_primary": primary[c]}
            for c in sorted(totals, key=lambda c: (-totals[c], c))
        ],
        "categories_by_year": [
            {"year": y, "category": c, "papers": n} for y in sorted(by_year) for c, n in sorted(by_year[y].items())
        ],
        "introduced": introduced,
        "entities": entities,
        "most_used": most_used,
        "collaborators": collaborators,
        "results": results,
        "queries": list(QUERIES),
    }


def profile_json(facts: dict) -> str:
    return json.dumps(facts, indent=2, ensure_ascii=False, sort_keys=True) + "\n"
