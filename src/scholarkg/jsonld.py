"""JSON-LD that JSON users can read: the published context and a streaming writer.

The context (``ontology/context.jsonld``) gives a term for every class and property the graph
uses: ``title``, ``creator``, ``introduces``, ``Paper``, ``Person``, ... Object properties are
``"@type": "@id"`` and typed values carry their datatype in the context, so a paper reads::

    {"@id": "id:paper/arxiv/2509.13310", "@type": ["Paper", "Preprint", "ScholarlyArticle"],
     "title": "...", "year": "2025", "creator": "id:author/maojia-song", "introduces": [...]}

A value that does not fit its term's definition (an IRI where the context expects text, a
literal with another datatype) is written in full under the property's compact IRI
(``"dcterms:title": {"@value": ..., "@type": ...}``), so nothing is lost or changed: the
document expands to exactly the graph it was written from. Each output embeds the context, so
it can be read offline; the file in ``ontology/`` is the same context for documents that
refer to it by its address.

The writer is written here rather than taken from rdflib because rdflib's JSON-LD serializer
builds the whole document in memory from a sorted copy of the graph and compacts it term by
term; at a million statements that took over a third of a folder build. This one takes the
statements grouped by subject, in subject order, and writes one node object per line as each
subject completes, in time linear in the statements (plus the sort of subjects) and with
bytes that depend only on the graph.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Iterable, Iterator
from typing import Any

__all__ = ["context", "context_document", "write_jsonld", "write_nodes", "node_object", "place", "assemble",
           "literal_parts", "compactor", "jsonld_bytes", "subject_groups"]

_RDF_TYPE = "http://www.w3.org/1999/02/22-rdf-syntax-ns#type"
_XSD = "http://www.w3.org/2001/XMLSchema#"
_XSD_STRING = _XSD + "string"
_XSD_INTEGER = _XSD + "integer"
_LANG_STRING = "http://www.w3.org/1999/02/22-rdf-syntax-ns#langString"
_NO_TERM = (None, None)
# One encoder for every node: json.dumps with options makes a new one per call, which took a
# seventh of the writer's time at a million statements.
_ENCODE = json.JSONEncoder(ensure_ascii=False, sort_keys=True).encode


@functools.cache
def context_document() -> dict:
    """The published context document (``{"@context": {...}}``) from ``ontology/context.jsonld``."""
    from .resources import ontology_path

    with open(ontology_path("context.jsonld"), encoding="utf-8") as fh:
        return json.load(fh)


def context() -> dict:
    """The ``@context`` object itself: prefixes, class terms and property terms."""
    return context_document()["@context"]


class _Compactor:
    """What the writer needs from the context: prefixes, and the term of each class and property."""

    def __init__(self, ctx: dict):
        self.prefixes = sorted(
            ((iri, name) for name, iri in ctx.items() if isinstance(iri, str) and iri.endswith(("/", "#"))),
            key=lambda item: -len(item[0]),
        )
        self.classes: dict[str, str] = {}
        self.properties: dict[str, tuple[str, str | None]] = {}  # IRI -> (term, "@id" | datatype IRI | None)
        for name, definition in ctx.items():
            if isinstance(definition, str):
                if not definition.endswith(("/", "#")):  # a class, or a property with plain values
                    self.classes[self.expand(definition)] = name
                    self.properties[self.expand(definition)] = (name, None)
                continue
            coercion = definition.get("@type")
            self.properties[self.expand(definition["@id"])] = (
                name, coercion if coercion in (None, "@id") else self.expand(coercion))
        # the properties whose values :func:`place` writes as the bare text of an IRI or literal
        # (rdf:type's IRIs are classes, under "@type")
        self.iri_terms = {p: term for p, (term, coercion) in self.properties.items()
                          if coercion == "@id" and p != _RDF_TYPE}
        self.text_terms = {p: term for p, (term, coercion) in self.properties.items() if coercion is None}

    def expand(self, compact: str) -> str:
        prefix, sep, rest = compact.partition(":")
        for iri, name in self.prefixes:
            if name == prefix and sep:
                return iri + rest
        return compact

    @functools.lru_cache(maxsize=1 << 16)
    def compact(self, iri: str) -> str:
        for namespace, name in self.prefixes:
            if iri.startswith(namespace) and len(iri) > len(namespace) and not iri[len(namespace):].startswith("//"):
                return f"{name}:{iri[len(namespace):]}"
        return iri


@functools.cache
def compactor() -> _Compactor:
    """The compactor of the published context (for :func:`node_object`)."""
    return _Compactor(context())


def _term_parts(term) -> tuple[str, str | None, str | None, bool]:
    """``(text, datatype IRI, language, is_iri)`` of an rdflib or pyoxigraph term."""
    kind = type(term).__name__
    if kind in ("URIRef", "NamedNode"):
        return (term.value if kind == "NamedNode" else str(term)), None, None, True
    if kind == "Literal":
        if hasattr(term, "value") and hasattr(term.datatype, "value"):  # pyoxigraph
            return literal_parts(term.value, term.datatype.value, term.language)
        datatype = str(term.datatype) if term.datatype is not None else None
        return str(term), (None if datatype == _XSD_STRING else datatype), term.language, False
    raise ValueError(f"cannot write {term!r} as JSON-LD: the graph has no blank nodes")


def literal_parts(text: str, datatype: str | None, language: str | None) -> tuple[str, str | None, str | None, bool]:
    """The parts of a literal given as its text, datatype IRI and language (``None`` for none)."""
    return text, (None if datatype in (_XSD_STRING, _LANG_STRING) else datatype), language, False


_NEEDS_ESCAPE = re.compile(r'[\x00-\x1f\\"]')


def _order_key(value) -> str:
    """The text ``json.dumps`` gives a value (what orders several values of one property),
    made without the encoder for a string it writes unchanged between quotes."""
    if isinstance(value, str) and _NEEDS_ESCAPE.search(value) is None:
        return '"' + value + '"'
    return _ENCODE(value)


def _node(subject, pairs: Iterable[tuple[Any, Any]], c: _Compactor) -> dict:
    return node_object(_term_parts(subject)[0], ((_term_parts(p)[0], *_term_parts(o)) for p, o in pairs), c)


def node_object(subject: str, statements: Iterable[tuple[str, str, str | None, str | None, bool]], c: _Compactor) -> dict:
    """The node object of ``subject`` (an IRI) from its statements as ``(predicate IRI, *parts)``
    (see :func:`_term_parts`)."""
    types: list[str] = []
    values: dict[str, list] = {}
    for statement in statements:
        place(c, types, values, *statement)
    return assemble(c.compact(subject), types, values)


def place(c: _Compactor, types: list, values: dict, p: str, text: str, datatype: str | None, language: str | None,
          is_iri: bool) -> None:
    """Put one statement of a node (its predicate and object's parts) among its ``types`` or
    under its property's key in ``values`` (see :func:`assemble`)."""
    if is_iri:
        if p == _RDF_TYPE:
            types.append(c.classes.get(text) or c.compact(text))
            return
        term, coercion = c.properties.get(p, _NO_TERM)
        if coercion == "@id":
            values.setdefault(term, []).append(c.compact(text))
            return
    else:
        term, coercion = c.properties.get(p, _NO_TERM)
        if term is not None and language is None and datatype == coercion:
            if coercion is None:
                values.setdefault(term, []).append(text)
                return
            if coercion != "@id":
                values.setdefault(term, []).append(
                    int(text) if coercion == _XSD_INTEGER and text.lstrip("-").isdigit() and str(int(text)) == text
                    else text)
                return
        elif term is not None and coercion is None and datatype is None:
            values.setdefault(term, []).append({"@language": language, "@value": text})
            return
    # Does not fit a term: the property's compact IRI with the value written in full.
    if is_iri:
        value: Any = {"@id": c.compact(text)}
    elif language is not None:
        value = {"@language": language, "@value": text}
    elif datatype is not None:
        value = {"@type": c.compact(datatype), "@value": text}
    else:
        value = {"@value": text}
    values.setdefault(c.compact(p), []).append(value)


def assemble(subject: str, types: list[str], values: dict[str, list]) -> dict:
    """The node object of a subject (its compact IRI) from what :func:`place` put in ``types``
    and ``values``: one class or value as itself, several sorted."""
    node: dict[str, Any] = {"@id": subject}
    if types:
        types = sorted(set(types))
        node["@type"] = types[0] if len(types) == 1 else types
    for key, items in values.items():
        if len(items) > 1:
            items = sorted(items, key=_order_key)
        node[key] = items[0] if len(items) == 1 else items
    return node


def subject_groups(triples: Iterable[tuple[Any, Any, Any]]) -> Iterator[tuple[Any, list[tuple[Any, Any]]]]:
    """Any triples as ``(subject, [(predicate, object), ...])`` in subject order (IRI text)."""
    by_subject: dict[str, tuple[Any, list]] = {}
    for s, p, o in triples:
        key = _term_parts(s)[0]
        entry = by_subject.get(key)
        if entry is None:
            entry = by_subject[key] = (s, [])
        entry[1].append((p, o))
    for key in sorted(by_subject):
        yield by_subject[key]


def write_jsonld(groups: Iterable[tuple[Any, Iterable[tuple[Any, Any]]]], write) -> None:
    """Write a JSON-LD document with the embedded context to ``write`` (called with ``str``).

    ``groups`` are ``(subject, statements)`` pairs in subject order, each subject once
    (:func:`subject_groups` makes them from any triples; a store can give them as it reads).
    """
    c = compactor()
    write_nodes((_node(subject, pairs, c) for subject, pairs in groups), write)


def write_nodes(nodes: Iterable[dict], write) -> None:
    """Write the JSON-LD document of ``nodes`` (node objects, in subject order) to ``write``."""
    write('{"@context": ' + json.dumps(context(), ensure_ascii=False, sort_keys=True, indent=1) + ',\n"@graph": [')
    first = True
    for node in nodes:
        write(("\n" if first else ",\n") + _ENCODE(node))
        first = False
    write("\n]}\n")


def jsonld_bytes(triples: Iterable[tuple[Any, Any, Any]]) -> bytes:
    """The JSON-LD document of ``triples`` (any order) as UTF-8 bytes."""
    chunks: list[str] = []
    write_jsonld(subject_groups(triples), chunks.append)
    return "".join(chunks).encode("utf-8")
