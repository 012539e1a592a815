"""pyoxigraph terms as rdflib terms, for readers of a store that want rdflib's.

>>> import pyoxigraph as ox
>>> to_rdflib(ox.Literal("48.6", datatype=ox.NamedNode("http://www.w3.org/2001/XMLSchema#decimal")))
rdflib.term.Literal('48.6', datatype=rdflib.term.URIRef('http://www.w3.org/2001/XMLSchema#decimal'))

:func:`solution_rows` reads a SELECT answer as rows of rdflib terms. It has Oxigraph write the
answer as SPARQL TSV results and splits the text, instead of taking a pyoxigraph object for
every term of every solution and reading its parts: an answer of tens of thousands of rows
repeats a few thousand terms, and the cells of a term are the same text, so each term is made
once, from its text. On the largest answers of the named queries at a million statements, in
paired runs, this took 0.79 to 0.91 of the time in memory and 0.90 to 0.99 on disk. The cells
are read by hand, since pyoxigraph's parser would make an object per cell again and rdflib's
parses far slower, but only the two plainest forms: an IRI and a literal without escapes
(``<…>``, ``"…"``, ``"…"@lang``, ``"…"^^<…>``). Any other cell (numbers written bare,
booleans, blank nodes, escapes) is read by pyoxigraph's TSV parser, once per distinct cell.
"""

from __future__ import annotations

from rdflib import Literal, URIRef

from ..gcpause import paused_gc
from ..graph.terms import to_rdflib as _to_rdflib

__all__ = ["to_rdflib", "solution_rows"]


def to_rdflib(term):
    """A pyoxigraph term as the rdflib term the in-memory build would hold (``None`` stays ``None``).

    Plain strings come back without a datatype, as rdflib keeps them.
    """
    if term is None:
        return None
    return _to_rdflib(term)


class _Enough(Exception):
    """Raised into the TSV writer to stop it once the rows wanted have been written."""


class _Lines:
    """A binary output for pyoxigraph's writer that keeps what it is given, up to ``limit``
    lines after the header."""

    def __init__(self, limit: int) -> None:
        self.parts: list[bytes] = []
        self.lines = 0
        self.limit = limit
        self.full = False

    def write(self, data) -> int:
        piece = bytes(data)
        self.parts.append(piece)
        self.lines += piece.count(b"\n")
        if self.lines > self.limit + 1:
            self.full = True
            raise _Enough
        return len(data)

    def flush(self) -> None:
        pass


class _Terms(dict):
    """The rdflib term of each TSV cell, made on first use."""

    def __missing__(self, cell: str):
        term = self[cell] = _cell_term(cell)
        return term


def _cell_term(cell: str):
    if not cell:
        return None  # unbound
    if "\\" not in cell:
        if cell[0] == "<" and cell[-1] == ">":
            return URIRef(cell[1:-1])
        if cell[0] == '"':
            end = cell.rindex('"')
            lexical, rest = cell[1:end], cell[end + 1:]
            if not rest:
                return Literal(lexical)
            if rest[0] == "@":
                return Literal(lexical, lang=rest[1:])
            if rest.startswith("^^<") and rest[-1] == ">":
                return Literal(lexical, datatype=URIRef(rest[3:-1]))
    return _parsed(cell)


def _parsed(cell: str):
    """A cell read by pyoxigraph's TSV parser, as a one-column answer."""
    import pyoxigraph as ox

    answer = ox.parse_query_results(b"?x\n" + cell.encode("utf-8") + b"\n", format=ox.QueryResultsFormat.TSV)
    (solution,) = list(answer)
    return to_rdflib(solution[0])


def solution_rows(answer, max_rows: int, distinct: bool = False) -> tuple[list[tuple], bool]:
    """The rows of a pyoxigraph SELECT answer as tuples of rdflib terms (None where unbound),
    at most ``max_rows`` of them, and whether there were more; with ``distinct``, each row once,
    where it first comes (a term's TSV text is the same wherever it comes, so equal rows are
    equal lines). ``max_rows`` counts the rows as the engine gave them, repeats included."""
    import pyoxigraph as ox

    width = len(answer.variables)
    out = _Lines(max_rows)
    try:
        answer.serialize(out, ox.QueryResultsFormat.TSV)
    except Exception:
        if not out.full:  # stopped by _Enough, however pyoxigraph passes it on
            raise
    data = b"".join(out.parts)
    data = data[: data.rfind(b"\n") + 1]  # whole lines: the writer may have stopped inside one
    lines = data.decode("utf-8").split("\n")[1:-1][:max_rows]  # after the header, before the last break
    if distinct:
        lines = list(dict.fromkeys(lines))
    if not width:
        return [()] * len(lines), out.full
    cell = _Terms().__getitem__
    with paused_gc():
        return [tuple(map(cell, line.split("\t"))) for line in lines], out.full
