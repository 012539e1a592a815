"""Reading a store: SPARQL on Oxigraph, counts, exports, and an rdflib copy for small stores.

Queries see the union of the store's graphs (every statement lives in exactly one graph, so
the union has no duplicates) and go through :func:`scholarkg.sparql.check_query` like every
query: no SERVICE, LOAD or FROM unless allowed, and limits on size and nesting depth (very
deep nesting would crash the engine). Named-query parameters are passed as pyoxigraph
``substitutions``. A query runs with a time limit and a cap on the rows kept.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Mapping

from rdflib import Graph

from ..errors import QueryError, StoreError, UsageError
from ..sparql import QueryResult, check_query
from .disk import GraphStore
from .snapshot import COUNTED_CLASSES, kept_counts
from .terms import solution_rows, to_rdflib

__all__ = [
    "run_store_query",
    "evaluate",
    "store_summary",
    "store_graph",
    "export_store",
    "STORE_EXPORTS",
    "DEFAULT_TIMEOUT",
    "DEFAULT_MAX_ROWS",
]

log = logging.getLogger(__name__)

DEFAULT_TIMEOUT = 60.0  # seconds
DEFAULT_MAX_ROWS = 1_000_000
DEFAULT_MAX_TRIPLES = 5_000_000  # for copies into rdflib (render, JSON-LD, GraphML)
STORE_EXPORTS = ("turtle", "ntriples", "nquads", "trig", "jsonld")  # copied or written from the snapshot, or streamed by Oxigraph


def run_store_query(
    store,
    text: str,
    bindings: Mapping[str, str] | None = None,
    *,
    allow_remote: bool = False,
    hidden: tuple[str, ...] = (),
    timeout: float = DEFAULT_TIMEOUT,
    max_rows: int = DEFAULT_MAX_ROWS,
    distinct: bool = False,
) -> QueryResult:
    """Run SPARQL ``text`` on a store (a :class:`GraphStore`, or one opened by
    :func:`scholarkg.store.open_for_query`); same result type as :func:`scholarkg.sparql.run_query`.
    With ``distinct``, a SELECT answer's rows are made distinct here, for a text whose
    ``DISTINCT`` was taken out (:func:`scholarkg.named.distinct_in_python`)."""
    check_query(text, allow_remote=allow_remote)

    def work() -> QueryResult:
        try:
            return _collect(evaluate(store, text, bindings), max_rows, hidden, distinct)
        except SyntaxError as exc:
            raise QueryError(f"SPARQL error: {' '.join(str(exc).split())[:300]}") from exc
        except OSError as exc:
            raise StoreError(f"{store.path}: cannot read the store ({exc})") from exc

    return _with_timeout(work, timeout)


def evaluate(store, text: str, bindings: Mapping[str, str] | None = None):
    """pyoxigraph's answer to ``text`` on the union of the store's graphs, with ``bindings`` as
    plain string literals (solutions are read as they are iterated)."""
    import pyoxigraph as ox

    substitutions = {ox.Variable(name): ox.Literal(value) for name, value in (bindings or {}).items()}
    return store.ox.query(text, substitutions=substitutions, use_default_graph_as_union=True)


def _with_timeout(work, timeout: float):
    """Run ``work`` in a helper thread (Oxigraph releases the GIL) and give up after ``timeout``."""
    outcome: dict = {}

    def target():
        try:
            outcome["value"] = work()
        except BaseException as exc:  # handed to the caller's thread
            outcome["error"] = exc

    thread = threading.Thread(target=target, name="scholarkg-query", daemon=True)
    thread.start()
    thread.join(timeout)
    if thread.is_alive():
        raise QueryError(f"the query ran longer than {timeout:g} s and was abandoned (raise the limit with --timeout)")
    if "error" in outcome:
        raise outcome["error"]
    return outcome["value"]


def _collect(answer, max_rows: int, hidden: tuple[str, ...], distinct: bool = False) -> QueryResult:
    import pyoxigraph as ox

    if isinstance(answer, ox.QueryBoolean):
        return QueryResult("ASK", boolean=bool(answer))
    if isinstance(answer, ox.QuerySolutions):
        names = [v.value for v in answer.variables]
        rows, more = solution_rows(answer, max_rows, distinct)
        if more:
            log.warning("the result was cut at %d rows (see --max-rows)", max_rows)
        return QueryResult("SELECT", names, rows, hidden=hidden)
    from ..graph.builder import new_graph

    graph = new_graph()
    for n, triple in enumerate(answer):
        if n >= max_rows:
            log.warning("the result was cut at %d statements (see --max-rows)", max_rows)
            break
        graph.add((to_rdflib(triple.subject), to_rdflib(triple.predicate), to_rdflib(triple.object)))
    return QueryResult("GRAPH", graph=graph)


_COUNTS = f"""
PREFIX skg: <https://w3id.org/scholarkg/ontology#>
SELECT ?class (COUNT(?s) AS ?n) WHERE {{
  VALUES ?class {{ {" ".join("skg:" + name for name in COUNTED_CLASSES)} }}
  ?s a ?class
}} GROUP BY ?class
"""
_CATEGORIES = """
PREFIX dcterms: <http://purl.org/dc/terms/>
PREFIX skos: <http://www.w3.org/2004/02/skos/core#>
SELECT ?concept ?notation WHERE {
  { SELECT DISTINCT ?concept WHERE { ?paper dcterms:subject ?concept } }
  OPTIONAL { ?concept skos:notation ?notation }
}
"""  # each concept's notation looked up once, not once per paper filed under it (20 lookups, not 50,000)


def store_summary(store, statements: int | None = None) -> dict:
    """The counts of :func:`scholarkg.pipeline.summarise`, computed by Oxigraph (of a store on
    disk or in memory); ``statements``, when a build just counted them, saves counting them
    again (a second per million statements on disk). The subjects of each class of a store on
    disk are those its last build counted as it wrote the snapshot, where they are kept
    (:func:`scholarkg.store.snapshot.kept_counts`): counting them in the graph reads every
    typed subject (about 0.2 s at 6.8 million statements)."""
    from ..model import EntityType

    kept = kept_counts(store.path) if isinstance(store, GraphStore) else None
    if kept is not None:
        counted, counts = kept
        statements = counted if statements is None else statements
    else:
        counts = {}
        for row in store.ox.query(_COUNTS, use_default_graph_as_union=True):
            counts[row[0].value.rpartition("#")[2]] = int(row[1].value)
    categories = [(row[0].value, row[1].value if row[1] is not None else "None") for row in store.ox.query(_CATEGORIES, use_default_graph_as_union=True)]
    entities = {t.value: counts.get(t.value, 0) for t in EntityType}
    return {
        "papers": counts.get("Paper", 0),
        "authors": counts.get("Author", 0),
        "categories": len({c for c, _ in categories}),
        "entities": entities,
        "entities_total": sum(entities.values()),
        "results": counts.get("Result", 0),
        "improvements": counts.get("Improvement", 0),
        "code_repositories": counts.get("CodeRepository", 0),
        "project_pages": counts.get("ProjectPage", 0),
        "mentions": counts.get("Mention", 0),
        "triples": store.count() if statements is None else statements,
        "category_labels": sorted(n for _, n in categories),
    }


def store_graph(store: GraphStore, *, max_triples: int = DEFAULT_MAX_TRIPLES) -> Graph:
    """The whole store as an in-memory rdflib graph (for the explorer and rdflib-only formats)."""
    from ..graph.builder import new_graph

    size = store.count()
    if size > max_triples:
        raise UsageError(
            f"{store.path}: {size:,} statements are too many to load into memory (limit {max_triples:,}); "
            "query the store, or export it as turtle, ntriples, nquads or trig"
        )
    graph = new_graph()
    for quad in store.quads():
        graph.add((to_rdflib(quad.subject), to_rdflib(quad.predicate), to_rdflib(quad.object)))
    return graph


def export_store(store: GraphStore, format: str, output, progress=None) -> None:
    """Stream the store to ``output`` (a binary file object) as Turtle, N-Triples, N-Quads, TriG
    or JSON-LD.

    Turtle, N-Triples, N-Quads and JSON-LD are the sorted snapshot of the store's blocks
    (:mod:`scholarkg.store.snapshot`), streamed from its manifest: Turtle and N-Triples hold the
    union of the graphs, the same bytes as ``build --out`` writes for the same inputs; N-Quads
    keep one graph per record; JSON-LD is written subject by subject (the same bytes as the
    folder build's ``graph.jsonld``). TriG is written by Oxigraph from its indexes (whose order
    depends only on the content, so the same store gives the same bytes).

    After a SPARQL update, or a build that did not finish, the blocks are not the graph
    (:func:`scholarkg.store.snapshot.snapshot_is_graph`): every format is then written from the
    database (:func:`_export_database`), with ``progress(phase, done, total)`` called as each of
    its graphs is written.
    """
    import pyoxigraph as ox

    from .snapshot import SNAPSHOT_KINDS, snapshot_is_graph, store_snapshot, turtle_prefixes, write_jsonld

    if format not in STORE_EXPORTS:
        raise UsageError(f"format {format!r} is not streamed from a store (streamed: {', '.join(STORE_EXPORTS)})")
    try:
        if format != "trig" and not snapshot_is_graph(store.path):
            log.info("%s: exporting from the database (its last build did not finish, or a SPARQL update "
                     "changed it), not from the blocks builds keep", store.path)
            _export_database(store, format, output, progress)
            return
        if format == "jsonld":
            write_jsonld(store_snapshot(store.path, "ntriples"), output)
            return
        if format in SNAPSHOT_KINDS:
            for chunk in store_snapshot(store.path, format):
                output.write(chunk)
            return
        ox.serialize(store.quads(), output, ox.RdfFormat.TRIG, prefixes=turtle_prefixes())
    except BrokenPipeError:
        raise
    except OSError as exc:
        raise StoreError(f"cannot write the export ({exc})") from exc


def _export_database(store: GraphStore, format: str, output, progress=None) -> None:
    """Turtle, N-Triples, N-Quads or JSON-LD of a store's database itself (the search index left
    out), for a store whose blocks are not its graph, written graph by graph (the default graph,
    then the named graphs in IRI order) as Oxigraph reads each, so memory holds one graph at a
    time. A statement that an update put in a second graph is written once for each graph it is
    in. From a store of 1,016,600 statements on disk this takes 10-15 s, against 0.5-4 s from the
    blocks: Oxigraph reads the database at about 100,000 statements a second."""
    import io

    import pyoxigraph as ox

    from .search import SEARCH_GRAPH
    from .snapshot import turtle_body, turtle_header, write_jsonld

    names = [ox.DefaultGraph(), *sorted((g for g in store.ox.named_graphs() if g.value != SEARCH_GRAPH),
                                        key=lambda g: g.value)]

    def graphs():
        for done, name in enumerate(names, 1):
            piece = io.BytesIO()
            if format == "nquads":
                ox.serialize(store.ox.quads_for_pattern(None, None, None, name), piece, ox.RdfFormat.N_QUADS)
            else:
                store.ox.dump(piece, ox.RdfFormat.N_TRIPLES, from_graph=name)
            if progress is not None:
                progress("export", done, len(names))
            if piece.tell():
                yield piece.getvalue()

    if format in ("ntriples", "nquads"):
        for piece in graphs():
            output.write(piece)
    elif format == "turtle":
        output.write(turtle_header())
        for piece in graphs():
            output.write(turtle_body(piece))
    else:
        try:
            write_jsonld(graphs(), output)
        except ValueError as exc:  # a blank node: the JSON-LD written has none
            raise StoreError(f"{store.path}: cannot write JSON-LD of this graph ({exc}); a SPARQL update put "
                             "blank nodes in it: export it as turtle, ntriples, nquads or trig") from None
