"""Content negotiation: which media type answers a query, from the client's ``Accept`` header.

SELECT and ASK answers come as SPARQL results (JSON, XML, CSV, TSV); CONSTRUCT and DESCRIBE
answers as RDF (Turtle, N-Triples, RDF/XML, JSON-LD, N-Quads, TriG). Which of the two a query
gives is known only once it is parsed, so the engine picks the type with :func:`choose` after
parsing. ``Accept`` is read as RFC 9110 says: media ranges (``*/*``, ``text/*``) and ``q``
weights, the most specific range deciding a type's weight, ties going to the client's order.

>>> choose("text/csv, application/sparql-results+json;q=0.5", "results")
'text/csv'
>>> choose("application/sparql-results+json", "graph") is None
True
>>> choose("", "graph")
'text/turtle'
"""

from __future__ import annotations

__all__ = ["RESULTS", "GRAPHS", "FORMAT_NAMES", "choose", "parse_accept", "default_accept"]

# media type -> the pyoxigraph format's attribute name, first one the default of its kind
RESULTS = {
    "application/sparql-results+json": "JSON",
    "application/json": "JSON",
    "application/sparql-results+xml": "XML",
    "text/csv": "CSV",
    "text/tab-separated-values": "TSV",
    "application/xml": "XML",
    "text/xml": "XML",
}
GRAPHS = {
    "text/turtle": "TURTLE",
    "application/turtle": "TURTLE",
    "application/x-turtle": "TURTLE",
    "application/n-triples": "N_TRIPLES",
    "text/plain": "N_TRIPLES",
    "application/rdf+xml": "RDF_XML",
    "application/ld+json": "JSON_LD",
    "application/n-quads": "N_QUADS",
    "application/trig": "TRIG",
}
# ?format= and ?output= values (SPARQLWrapper and browsers send them) -> media type
FORMAT_NAMES = {
    "json": "application/sparql-results+json",
    "xml": "application/sparql-results+xml",
    "csv": "text/csv",
    "tsv": "text/tab-separated-values",
    "turtle": "text/turtle",
    "ttl": "text/turtle",
    "nt": "application/n-triples",
    "ntriples": "application/n-triples",
    "n-triples": "application/n-triples",
    "rdfxml": "application/rdf+xml",
    "jsonld": "application/ld+json",
}
_MAX_RANGES = 64  # an Accept header longer than this is read no further


def parse_accept(header: str) -> list[tuple[str, float, int]]:
    """``(media range, q, position)`` for each range of an ``Accept`` header; bad parts are left out."""
    out = []
    for position, part in enumerate(header.split(",")[:_MAX_RANGES]):
        fields = part.split(";")
        kind = fields[0].strip().lower()
        if kind.count("/") != 1 or not all(kind.split("/")):
            continue
        q = 1.0
        for parameter in fields[1:]:
            name, _, value = parameter.partition("=")
            if name.strip().lower() == "q":
                try:
                    q = float(value.strip())
                except ValueError:
                    q = 0.0
                q = min(max(q, 0.0), 1.0) if q == q else 0.0  # NaN counts as 0
        out.append((kind, q, position))
    return out


def _weight(media: str, ranges: list[tuple[str, float, int]]) -> tuple[float, int]:
    """The q the most specific matching range gives ``media``, and that range's position."""
    major = media.split("/")[0]
    best: tuple[int, float, int] | None = None
    for kind, q, position in ranges:
        if kind == media:
            specificity = 2
        elif kind == f"{major}/*":
            specificity = 1
        elif kind == "*/*":
            specificity = 0
        else:
            continue
        if best is None or specificity > best[0]:
            best = (specificity, q, position)
    return (0.0, 0) if best is None else (best[1], best[2])


def choose(header: str, kind: str) -> str | None:
    """The media type to answer with for a ``kind`` ("results" or "graph") answer; None: none acceptable."""
    table = RESULTS if kind == "results" else GRAPHS
    default = next(iter(table))
    ranges = parse_accept(header or "")
    if not ranges:
        return default
    scored = []
    for order, media in enumerate(table):
        q, position = _weight(media, ranges)
        if q > 0:
            exact = any(r[0] == media for r in ranges)
            # Highest q; then a type the client named over one a wildcard let in; then the
            # client's order; then ours (so */* gives the default).
            scored.append((-q, not exact, position if exact else 0, order, media))
    if not scored:
        return None
    best_q, media = -min(scored)[0], min(scored)[-1]
    canonical = next(m for m in table if table[m] == table[media])  # text/turtle for application/turtle
    return canonical if _weight(canonical, ranges)[0] == best_q else media


def default_accept(accept: str | None, format_name: str | None) -> str:
    """The Accept header to negotiate with: a ``?format=`` value counts when the header says nothing."""
    accept = (accept or "").strip()
    named = FORMAT_NAMES.get((format_name or "").strip().lower())
    if named and accept in ("", "*/*"):
        return named
    return accept
