"""The Python API, for notebooks and scripts (the CLI calls the same functions).

>>> import scholarkg
>>> result = scholarkg.build(["examples/maojia-song.txt"], out="graphs/maojia-song")  # doctest: +SKIP
>>> graph = scholarkg.load("graphs/maojia-song")                                      # doctest: +SKIP
>>> scholarkg.query(graph, named="results").to_dicts()[:1]                           # doctest: +SKIP
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from rdflib import Graph

from .errors import Problems, UsageError

__all__ = ["build", "load", "query", "render", "export"]


def build(
    inputs: Iterable[str | Path] | str | Path,
    out: str | Path | None = None,
    *,
    format: str | None = None,
    strict: bool = False,
    html: bool = True,
    curation: str | Path | None = None,
    enrichment: str | Path | None = None,
):
    """Build the graph of ``inputs``; with ``out``, also write the output folder.

    ``curation`` names a curation file to apply, ``enrichment`` an arXiv enrichment file to
    merge (the command line finds both beside the first input by default).
    Returns a :class:`scholarkg.pipeline.Build` (``.graph``, ``.summary``, ``.problems``, ...).
    """
    from .pipeline import build as run_build
    from .pipeline import write_outputs

    if isinstance(inputs, str | Path):
        inputs = [inputs]
    result = run_build(inputs, format=format, problems=Problems(strict=strict), curation=curation, enrichment=enrichment)
    if out is not None:
        write_outputs(result, out, html=html)
    return result


def load(path: str | Path | Graph) -> Graph:
    """Open a build folder or an RDF file as an rdflib graph."""
    if isinstance(path, Graph):
        return path
    from .graph.load import load_graph

    return load_graph(path)


def query(
    graph: str | Path | Graph,
    text: str | None = None,
    *,
    named: str | None = None,
    allow_remote: bool = False,
    timeout: float | None = None,
    max_rows: int | None = None,
    **params: str,
):
    """Run SPARQL ``text``, or the named query ``named`` with its parameters, on ``graph``.

    The query is stopped after ``timeout`` seconds and cut at ``max_rows`` rows (defaults in
    :mod:`scholarkg.query`)."""
    from .query import get_named_query, run_query

    if (text is None) == (named is None):
        raise UsageError("give either a query text or a named query")
    g = load(graph)
    if named is not None:
        q = get_named_query(named)
        bindings = q.bindings(params)
        return run_query(g, q.text, bindings, hidden=tuple(q.params), timeout=timeout, max_rows=max_rows)
    return run_query(g, text, params, allow_remote=allow_remote, timeout=timeout, max_rows=max_rows)


def render(graph: str | Path | Graph, path: str | Path, **options) -> Path:
    """Write the interactive HTML explorer of ``graph`` to ``path``."""
    from .render import write_html

    return write_html(load(graph), path, **options)


def export(graph: str | Path | Graph, format: str = "turtle", path: str | Path | None = None) -> bytes:
    """Serialise ``graph`` (turtle, ntriples, nquads, trig, jsonld, graphml); write to ``path`` if given."""
    from .export import export as run_export

    return run_export(load(graph), format, path)
