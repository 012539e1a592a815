"""pyoxigraph terms as rdflib terms, for readers of a store that want rdflib's.

>>> import pyoxigraph as ox
>>> to_rdflib(ox.Literal("48.6", datatype=ox.NamedNode("http://www.w3.org/2001/XMLSchema#decimal")))
rdflib.term.Literal('48.6', datatype=rdflib.term.URIRef('http://www.w3.org/2001/XMLSchema#decimal'))
"""

from __future__ import annotations

from ..graph.terms import to_rdflib as _to_rdflib

__all__ = ["to_rdflib"]


def to_rdflib(term):
    """A pyoxigraph term as the rdflib term the in-memory build would hold (``None`` stays ``None``).

    Plain strings come back without a datatype, as rdflib keeps them.
    """
    if term is None:
        return None
    return _to_rdflib(term)
