"""Serialisations of a graph: Turtle, N-Triples, N-Quads, JSON-LD, TriG and GraphML.

Output is deterministic: the same graph gives the same bytes on every run (statements and
prefixes sorted). Files are written atomically (see :mod:`scholarkg.fileio`).

>>> sorted(EXPORTERS)
['graphml', 'jsonld', 'nquads', 'ntriples', 'trig', 'turtle']
"""

from __future__ import annotations

import io
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from rdflib import Dataset, Graph, Literal
from rdflib.namespace import XSD

from .errors import UsageError
from .fileio import write_bytes

__all__ = ["Exporter", "EXPORTERS", "serialize", "export", "jsonld_context"]


@dataclass(frozen=True)
class Exporter:
    name: str
    suffix: str
    media_type: str
    write: Callable[[Graph], bytes]


def jsonld_context() -> dict:
    """The JSON-LD ``@context`` used in exports: ``ontology/context.jsonld``, embedded, nothing remote."""
    from .jsonld import context

    return context()


_LONG_STRING = re.compile(rb'"""(?:[^"\\]|\\.|"(?!""))*"""', re.DOTALL)
_QUOTES_BEFORE_BACKSLASH = re.compile(rb'\\.|"+(?=\\)', re.DOTALL)


def _serd_safe(data: bytes) -> bytes:
    r"""Escape the quotes that come right before a backslash inside a triple-quoted string.

    rdflib writes a literal with a line break between triple quotes and leaves the quotes in it
    as they are. After such a quote, Serd 0.30 reads a backslash as a plain character instead
    of the start of an escape: it rejects ``"\\`` as an invalid escape and reads ``"\t`` as a
    backslash and a ``t``, so a two-line abstract saying ``the "\alpha" term`` could not be
    read by Serd-based tools. An escaped quote means the same to every parser.
    """

    def escape_quotes(e: re.Match[bytes]) -> bytes:
        return e.group() if e.group().startswith(b"\\") else e.group().replace(b'"', b'\\"')

    def fix(m: re.Match[bytes]) -> bytes:
        return b'"""' + _QUOTES_BEFORE_BACKSLASH.sub(escape_quotes, m.group()[3:-3]) + b'"""'

    return _LONG_STRING.sub(fix, data) if b'"\\' in data else data


def _exact_decimals(serializer_class):
    """A Turtle-family serializer that writes an ``xsd:decimal`` without a point (the canonical
    form of a whole number, ``"82"``) in long form: rdflib's shorthand would write ``82.0``,
    which reads back as a different literal."""
    from rdflib.plugins.serializers.turtle import _GEN_QNAME_FOR_DT

    class Exact(serializer_class):
        def label(self, node, position):
            if isinstance(node, Literal) and node.datatype == XSD.decimal and "." not in str(node):
                return node._literal_n3(use_plain=False, qname_callback=lambda dt: self.get_pname(dt, _GEN_QNAME_FOR_DT))
            return super().label(node, position)

    return Exact


def _serialize_with(serializer_class, graph: Graph) -> bytes:
    buffer = io.BytesIO()
    _exact_decimals(serializer_class)(graph).serialize(buffer, encoding="utf-8")
    return buffer.getvalue()


def _turtle(graph: Graph) -> bytes:
    from rdflib.plugins.serializers.turtle import TurtleSerializer

    return _serd_safe(_serialize_with(TurtleSerializer, graph))


def _lines_sorted(data: bytes) -> bytes:
    # split("\n"), not splitlines(): a literal may hold U+2028, U+0085 or U+001C, which
    # N-Triples writes as they are and splitlines() would treat as line ends.
    lines = sorted({line for line in data.decode("utf-8").split("\n") if line.strip()})
    return ("\n".join(lines) + "\n").encode("utf-8") if lines else b""


def _ntriples(graph: Graph) -> bytes:
    return _lines_sorted(graph.serialize(format="nt", encoding="utf-8"))


def _nquads(graph: Graph) -> bytes:
    if isinstance(graph, Dataset):
        return _lines_sorted(graph.serialize(format="nquads", encoding="utf-8"))
    return _ntriples(graph)


def _trig(graph: Graph) -> bytes:
    from rdflib.plugins.serializers.trig import TrigSerializer

    if not isinstance(graph, Dataset):  # a plain graph is written as the default graph
        dataset = Dataset()
        for prefix, namespace in graph.namespaces():
            dataset.bind(prefix, namespace)
        for triple in graph:
            dataset.add(triple)
        graph = dataset
    return _serd_safe(_serialize_with(TrigSerializer, graph))


def _jsonld(graph: Graph) -> bytes:
    from .jsonld import jsonld_bytes

    if isinstance(graph, Dataset):  # named graphs are merged: JSON-LD here is one graph
        return jsonld_bytes(graph.triples((None, None, None)))
    return jsonld_bytes(graph)


def _graphml(graph: Graph) -> bytes:
    import networkx as nx

    from .explorer.view import to_networkx

    nxg = to_networkx(graph)
    simple = nx.MultiDiGraph()
    for node, attrs in sorted(nxg.nodes(data=True)):
        simple.add_node(node, **{k: v for k, v in attrs.items() if isinstance(v, str | int | float)})
    for u, v, attrs in sorted(nxg.edges(data=True), key=lambda e: (e[0], e[1], e[2].get("relation", ""))):
        simple.add_edge(u, v, relation=attrs.get("relation", ""))
    buffer = io.BytesIO()
    nx.write_graphml(simple, buffer, encoding="utf-8")
    return buffer.getvalue()


EXPORTERS: dict[str, Exporter] = {
    e.name: e
    for e in (
        Exporter("turtle", ".ttl", "text/turtle", _turtle),
        Exporter("ntriples", ".nt", "application/n-triples", _ntriples),
        Exporter("nquads", ".nq", "application/n-quads", _nquads),
        Exporter("trig", ".trig", "application/trig", _trig),
        Exporter("jsonld", ".jsonld", "application/ld+json", _jsonld),
        Exporter("graphml", ".graphml", "application/graphml+xml", _graphml),
    )
}


def _exporter(format: str) -> Exporter:
    try:
        return EXPORTERS[format]
    except KeyError:
        raise UsageError(f"unknown export format {format!r} (known: {', '.join(sorted(EXPORTERS))})") from None


def serialize(graph: Graph, format: str = "turtle") -> bytes:
    """The graph in ``format`` as bytes."""
    return _exporter(format).write(graph)


def export(graph: Graph, format: str = "turtle", path: str | Path | None = None) -> bytes:
    """Serialise ``graph``; when ``path`` is given, also write it there atomically."""
    data = serialize(graph, format)
    if path is not None:
        write_bytes(path, data)
    return data
