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
    store: str | Path | None = None,
):
    """Build the graph of ``inputs``; with ``out``, also write the output folder.

    ``curation`` names a curation file to apply, ``enrichment`` an arXiv enrichment file to
    merge (the command line finds both beside the first input by default).
    Returns a :class:`scholarkg.pipeline.Build` (``.graph``, ``.summary``, ``.problems``, ...).
    With ``store``, adds the records to that on-disk store instead (incrementally, with the
    same curation and enrichment) and returns a :class:`scholarkg.store.BuildReport`.
    """
    from .pipeline import build as run_build
    from .pipeline import write_outputs

    if isinstance(inputs, str | Path):
        inputs = [inputs]
    if store is not None:
        from .store import build_store

        return build_store(inputs, store, format=format, problems=Problems(strict=strict),
                           curation=curation, enrichment=enrichment)
    result = run_build(inputs, format=format, problems=Problems(strict=strict), curation=curation, enrichment=enrichment)
    if out is not None:
        write_outputs(result, out, html=html)
    return result


def load(path: str | Path | Graph) -> Graph:
    """Open a build folder, a store folder or an RDF file as an rdflib graph."""
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
    limit: int | None = None,
    offset: int = 0,
    memory_budget: int | None = None,
    **params: str,
):
    """Run SPARQL ``text``, or the named query ``named`` with its parameters, on ``graph``.

    On a build folder, RDF file or graph the query runs on rdflib in a child process; on a
    store folder it runs on Oxigraph, from an in-memory copy when the store fits in
    ``memory_budget`` bytes and on disk otherwise (:func:`scholarkg.store.open_for_query`).
    Either way it is stopped after ``timeout`` seconds and cut at ``max_rows`` rows (defaults
    in :mod:`scholarkg.sparql` and :mod:`scholarkg.store.read`). ``limit`` and ``offset`` page
    the answer (named queries: in their order).
    """
    from .sparql import page, run_named, run_query

    if (text is None) == (named is None):
        raise UsageError("give either a query text or a named query")
    if _is_store(graph):
        from .store import DEFAULT_MAX_ROWS, DEFAULT_TIMEOUT, open_for_query, run_store_query

        with open_for_query(graph, memory_budget=memory_budget) as store:
            if named is not None:
                return run_named(store, named, params, allow_remote=allow_remote, timeout=timeout,
                                 max_rows=max_rows, limit=limit, offset=offset)
            result = run_store_query(store, text, params, allow_remote=allow_remote,
                                     timeout=timeout or DEFAULT_TIMEOUT, max_rows=max_rows or DEFAULT_MAX_ROWS)
            return page(result, limit, offset)
    if named is not None:
        return run_named(load(graph), named, params, allow_remote=allow_remote, timeout=timeout,
                         max_rows=max_rows, limit=limit, offset=offset)
    result = run_query(load(graph), text, params, allow_remote=allow_remote, timeout=timeout, max_rows=max_rows)
    return page(result, limit, offset)


def render(graph: str | Path | Graph, path: str | Path, **options) -> Path:
    """Write the interactive HTML explorer of ``graph`` to ``path``.

    A store is read with SPARQL, from an in-memory copy when it fits the memory budget
    (:func:`scholarkg.store.open_for_query`), never copied into rdflib; a build folder or an
    RDF file is read into an in-memory Oxigraph store first.
    """
    from .explorer import write_html

    if isinstance(graph, Graph):
        return write_html(graph, path, **options)
    if _is_store(graph):
        from .store import open_for_query

        with open_for_query(graph) as store:
            return write_html(store.ox, path, **options)
    from .graph.load import load_store

    return write_html(load_store(graph), path, **options)


def export(graph: str | Path | Graph, format: str = "turtle", path: str | Path | None = None) -> bytes:
    """Serialise ``graph`` (turtle, ntriples, nquads, trig, jsonld, graphml); write to ``path`` if given.

    A store folder is written by Oxigraph's own writers for turtle, ntriples, nquads and trig
    (nquads and trig keep one named graph per record).
    """
    from .serialize import export as run_export

    if _is_store(graph):
        import io

        from .fileio import write_bytes
        from .store import STORE_EXPORTS, GraphStore, export_store

        if format in STORE_EXPORTS:
            buffer = io.BytesIO()
            with GraphStore(graph) as store:
                export_store(store, format, buffer)
            if path is not None:
                write_bytes(path, buffer.getvalue())
            return buffer.getvalue()
    return run_export(load(graph), format, path)


def _is_store(graph) -> bool:
    if isinstance(graph, Graph):
        return False
    from .store import is_store

    return is_store(graph)
