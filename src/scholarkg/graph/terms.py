"""RDF terms as the builder makes them: pyoxigraph terms, with rdflib's spelling.

The builder (:mod:`scholarkg.graph.builder`) yields statements whose parts are
:class:`pyoxigraph.NamedNode` and :class:`pyoxigraph.Literal`, so that they go straight into an
Oxigraph store or out as N-Quads text (``str()`` of a pyoxigraph term is its N-Triples form)
without rdflib terms on the way. The names here mirror rdflib's so that statements read the
same: ``DCTERMS.title``, ``Literal(record.title)``, ``Literal("2026", datatype=XSD.gYear)``.

Namespaces check their terms the way the rdflib namespaces they mirror do: a misspelt term of
a closed vocabulary (``SKG``, ``DCTERMS``, ``FOAF``, ...) is an ``AttributeError``.

>>> str(DCTERMS.title)
'<http://purl.org/dc/terms/title>'
>>> str(Literal(17)), str(Literal(Decimal("0.50"))), str(Literal("Qwen", lang="en"))
('"17"^^<http://www.w3.org/2001/XMLSchema#integer>', '"0.5"^^<http://www.w3.org/2001/XMLSchema#decimal>', '"Qwen"@en')
>>> SKG.paperCuont
Traceback (most recent call last):
...
AttributeError: term 'paperCuont' not in namespace 'https://w3id.org/scholarkg/ontology#'
"""

from __future__ import annotations

from decimal import Decimal

import pyoxigraph as ox
from rdflib import BNode as RdflibBNode
from rdflib import Literal as RdflibLiteral
from rdflib import URIRef
from rdflib import namespace as rdflib_namespace

from . import vocab

__all__ = [
    "NamedNode",
    "Literal",
    "node",
    "decimal",
    "Namespace",
    "SKG",
    "FABIO",
    "BIBO",
    "DCTERMS",
    "FOAF",
    "OWL",
    "PROV",
    "RDF",
    "RDFS",
    "SDO",
    "SKOS",
    "XSD",
    "to_rdflib",
]

NamedNode = ox.NamedNode


class Namespace:
    """Attribute access gives a :class:`pyoxigraph.NamedNode`, made once per term (then kept
    as an instance attribute).

    ``source`` is the rdflib namespace mirrored: a closed one (``DefinedNamespace``) refuses
    terms it does not define.
    """

    def __init__(self, source) -> None:
        self._source = source
        self._base = str(source)

    def __getattr__(self, name: str) -> ox.NamedNode:
        if name.startswith("_"):
            raise AttributeError(name)
        term = ox.NamedNode(str(getattr(self._source, name)))
        setattr(self, name, term)  # later lookups find it without calling __getattr__
        return term

    def __getitem__(self, name: str) -> ox.NamedNode:
        return self.__getattr__(name)

    def __str__(self) -> str:
        return self._base


SKG = Namespace(vocab.SKG)
FABIO = Namespace(vocab.FABIO)
BIBO = Namespace(vocab.BIBO)
DCTERMS = Namespace(rdflib_namespace.DCTERMS)
FOAF = Namespace(rdflib_namespace.FOAF)
OWL = Namespace(rdflib_namespace.OWL)
PROV = Namespace(rdflib_namespace.PROV)
RDF = Namespace(rdflib_namespace.RDF)
RDFS = Namespace(rdflib_namespace.RDFS)
SDO = Namespace(rdflib_namespace.SDO)
SKOS = Namespace(rdflib_namespace.SKOS)
XSD = Namespace(rdflib_namespace.XSD)

_DECIMAL = XSD.decimal


def node(iri) -> ox.NamedNode:
    """A NamedNode of an IRI minted by :mod:`scholarkg.graph.iri` (an rdflib URIRef or a str)."""
    return ox.NamedNode(iri)


def decimal(value) -> ox.Literal:
    """An xsd:decimal in canonical form (``0.6``, ``100``), the form RDF stores keep it in."""
    number = value if isinstance(value, Decimal) else Decimal(str(value))
    text = format(number.normalize(), "f")
    return ox.Literal("0" if text in ("-0", "0") else text, datatype=_DECIMAL)


def Literal(value, *, datatype: ox.NamedNode | None = None, lang: str | None = None) -> ox.Literal:  # noqa: N802 - rdflib's name
    """A literal as rdflib's ``Literal`` would type it: ``str`` plain (or with ``lang``), ``int``
    xsd:integer, ``bool`` xsd:boolean, ``float`` xsd:double, ``Decimal`` canonical xsd:decimal;
    with ``datatype`` the lexical form is ``str(value)``."""
    if datatype is not None:
        return ox.Literal(str(value), datatype=datatype)
    if lang is not None:
        return ox.Literal(value, language=lang)
    if isinstance(value, Decimal):
        return decimal(value)
    return ox.Literal(value)


def to_rdflib(term):
    """The rdflib term of a pyoxigraph term (rdflib terms are returned as they are)."""
    if isinstance(term, ox.NamedNode):
        return URIRef(term.value)
    if isinstance(term, ox.Literal):
        if term.language:
            return RdflibLiteral(term.value, lang=term.language)
        datatype = term.datatype.value
        if datatype == "http://www.w3.org/2001/XMLSchema#string":
            return RdflibLiteral(term.value)
        return RdflibLiteral(term.value, datatype=URIRef(datatype))
    if isinstance(term, ox.BlankNode):
        return RdflibBNode(term.value)
    return term

