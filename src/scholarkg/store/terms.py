"""RDF terms between the builder (rdflib), N-Quads text and pyoxigraph.

The builder yields rdflib terms whose IRIs were all validated when minted (see
:mod:`scholarkg.graph.iri`), so writing them as N-Quads needs no IRI escaping; literals are
escaped as the N-Quads grammar asks. Oxigraph parses every shard it loads, so a bad term
can never slip into a store.

>>> from rdflib import Literal, URIRef
>>> s, p = URIRef("https://e.org/s"), URIRef("https://e.org/p")
>>> nquads([(s, p, Literal('say "hi"\\n', lang="en"))], lambda subject: "https://e.org/g")
['<https://e.org/s> <https://e.org/p> "say \\\\"hi\\\\"\\\\n"@en <https://e.org/g> .']
"""

from __future__ import annotations

from rdflib import BNode, Literal, URIRef
from rdflib.namespace import XSD

__all__ = ["nquads", "to_rdflib"]

_ESCAPES = str.maketrans({"\\": "\\\\", '"': '\\"', "\n": "\\n", "\r": "\\r"})
_XSD_STRING = str(XSD.string)


def _literal(term: Literal) -> str:
    text = '"' + str(term).translate(_ESCAPES) + '"'
    if term.language:
        return f"{text}@{term.language}"
    datatype = term.datatype
    if datatype is not None and datatype != _XSD_STRING:
        return f"{text}^^<{datatype}>"
    return text


def _term(term) -> str:
    if isinstance(term, URIRef):
        return f"<{term}>"
    if isinstance(term, Literal):
        return _literal(term)
    raise ValueError(f"cannot store the term {term!r}: the graph has no blank nodes")


def nquads(triples, graph_of) -> list[str]:
    """N-Quads statements of ``triples``, each in the graph ``graph_of(subject)`` names.

    Each IRI is formatted once, however many statements repeat it.
    """
    iris: dict[URIRef, str] = {}
    subjects: dict[URIRef, tuple[str, str]] = {}
    lines = []
    for s, p, o in triples:
        head = subjects.get(s)
        if head is None:
            head = subjects[s] = (f"<{s}> ", f" <{graph_of(s)}> .")
        predicate = iris.get(p)
        if predicate is None:
            predicate = iris[p] = f"<{p}> "
        if type(o) is URIRef:
            obj = iris.get(o)
            if obj is None:
                obj = iris[o] = f"<{o}>"
        else:
            obj = _term(o)
        lines.append(head[0] + predicate + obj + head[1])
    return lines


def to_rdflib(term):
    """A pyoxigraph term as the rdflib term the in-memory build would hold (``None`` stays ``None``).

    Plain strings come back without a datatype, as rdflib keeps them.
    """
    if term is None:
        return None
    import pyoxigraph as ox

    if isinstance(term, ox.NamedNode):
        return URIRef(term.value)
    if isinstance(term, ox.Literal):
        if term.language:
            return Literal(term.value, lang=term.language)
        datatype = term.datatype.value
        return Literal(term.value) if datatype == _XSD_STRING else Literal(term.value, datatype=URIRef(datatype))
    if isinstance(term, ox.BlankNode):
        return BNode(term.value)
    raise ValueError(f"unsupported term {term!r}")
