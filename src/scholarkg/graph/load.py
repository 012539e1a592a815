"""Open a built graph: a folder written by ``build`` or a single RDF file.

Files are read with pyoxigraph's strict parsers and turned into an rdflib graph, rather than
read by rdflib's own parsers, because these:

- reject invalid RDF with a line and column instead of reading what they can;
- take time linear in the input (rdflib's N-Triples reader is quadratic in the length of a
  literal: one of 400,000 characters takes seconds, one of 10 MB most of an hour);
- never open a file or a network connection on the data's behalf: a JSON-LD ``@context``
  given by URL (which rdflib fetches, ``file:`` URLs included) is refused, and so are XML
  external entities.

RDF/XML files may declare entities in a DTD, which the parser expands. Declarations that
refer to other entities, to outside files, or that would expand the file to many times its
size (the "billion laughs") are refused before parsing.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pyoxigraph as ox
from rdflib import BNode, Graph, Literal, URIRef
from rdflib.namespace import XSD

from ..errors import InputError
from .builder import new_graph

__all__ = ["load_graph", "load_store", "RDF_SUFFIXES", "to_rdflib"]

RDF_SUFFIXES: dict[str, ox.RdfFormat] = {
    ".ttl": ox.RdfFormat.TURTLE,
    ".nt": ox.RdfFormat.N_TRIPLES,
    ".nq": ox.RdfFormat.N_QUADS,
    ".trig": ox.RdfFormat.TRIG,
    ".jsonld": ox.RdfFormat.JSON_LD,
    ".json": ox.RdfFormat.JSON_LD,
    ".rdf": ox.RdfFormat.RDF_XML,
    ".owl": ox.RdfFormat.RDF_XML,
}
_XSD_STRING = str(XSD.string)


def load_graph(path: str | Path) -> Graph:
    """An rdflib graph of ``path``: a build folder (its ``graph.nt`` or ``graph.ttl``), a store
    folder (copied into memory; see :func:`scholarkg.store.store_graph`) or an RDF file."""
    path = Path(path)
    if path.is_dir():
        from ..store.disk import is_store

        if is_store(path):
            from ..store import GraphStore, store_graph

            with GraphStore(path) as store:
                return store_graph(store)
    graph = new_graph()
    for quad in _parse(_file_of(path)):
        graph.add((to_rdflib(quad.subject), to_rdflib(quad.predicate), to_rdflib(quad.object)))
    return graph


def load_store(path: str | Path) -> ox.Store:
    """An in-memory Oxigraph store of a build folder (its ``graph.nt`` or ``graph.ttl``) or an
    RDF file, read with the same checks as :func:`load_graph` (for SPARQL without rdflib)."""
    store = ox.Store()
    file = _file_of(Path(path))
    if file.suffix.lower() == ".nt":  # no remote references possible: let Oxigraph read it
        try:
            store.bulk_load(path=str(file), format=ox.RdfFormat.N_TRIPLES)
            return store
        except (SyntaxError, ValueError, OSError) as exc:
            message = " ".join(str(exc).split())[:300]
            raise InputError(f"{file}: not valid N_TRIPLES: {message}") from None
    store.extend(ox.Quad(q.subject, q.predicate, q.object) for q in _parse(file))
    return store


def _file_of(path: Path) -> Path:
    """The RDF file a path names: itself, or the graph file of a build folder."""
    if path.is_dir():
        for name in ("graph.nt", "graph.ttl"):
            if (path / name).is_file():
                return path / name
        raise InputError(f"{path}: no graph.ttl or graph.nt in this folder (is it a build output folder?)")
    if not path.exists():
        raise InputError(f"{path}: no such file or folder")
    return path


def _parse(path: Path) -> list:
    """Every statement of an RDF file, strictly parsed (InputError naming the file if not)."""
    fmt = RDF_SUFFIXES.get(path.suffix.lower())
    if fmt is None:
        known = ", ".join(sorted(RDF_SUFFIXES))
        raise InputError(f"{path}: unknown RDF file type {path.suffix!r} (known: {known})")
    if fmt in (ox.RdfFormat.JSON_LD, ox.RdfFormat.RDF_XML):
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise InputError(f"{path}: cannot read as UTF-8 text ({exc})") from exc
        if fmt == ox.RdfFormat.JSON_LD:
            try:
                data = json.loads(text)
            except (ValueError, RecursionError) as exc:
                raise InputError(f"{path}: not valid JSON ({str(exc)[:200]})") from None
            _refuse_remote_contexts(path, data)
        else:
            _refuse_entity_expansion(path, text)
    try:
        return list(ox.parse(path=str(path), format=fmt))
    except (SyntaxError, ValueError, OSError) as exc:
        message = " ".join(str(exc).split())[:300]
        raise InputError(f"{path}: not valid {fmt.name}: {message}") from None


def to_rdflib(term: Any):
    """The rdflib term for a pyoxigraph term, keeping the lexical form of literals."""
    if isinstance(term, ox.NamedNode):
        return URIRef(term.value)
    if isinstance(term, ox.BlankNode):
        return BNode(term.value)
    if isinstance(term, ox.Literal):
        if term.language:
            return Literal(term.value, lang=term.language)
        if term.datatype.value == _XSD_STRING:
            return Literal(term.value)
        return Literal(term.value, datatype=URIRef(term.datatype.value))
    raise ValueError(f"unsupported RDF term {type(term).__name__} (RDF-star quoted triples are not read)")


def _refuse_remote_contexts(path: Path, data: Any) -> None:
    """JSON-LD may name a ``@context`` by URL, which parsers fetch (even ``file:`` ones).
    Only inline contexts are accepted."""
    stack = [data]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            for key, value in node.items():
                if key in ("@context", "@import") and _has_reference(value):
                    raise InputError(f"{path}: refers to a remote JSON-LD @context; only inline contexts are read")
                stack.append(value)
        elif isinstance(node, list):
            stack.extend(node)


def _has_reference(value: Any) -> bool:
    if isinstance(value, str):
        return True
    if isinstance(value, list):
        return any(_has_reference(v) for v in value)
    if isinstance(value, dict):
        return "@import" in value
    return False


_ENTITY = re.compile(r"""<!ENTITY\s+(%\s+)?([^\s"']+)\s+(?:"([^"]*)"|'([^']*)'|(\S+))""")
_ENTITY_REF = re.compile(r"&(?!#)")


def _refuse_entity_expansion(path: Path, text: str) -> None:
    """Refuse XML entity declarations that could make the parser read other files or expand
    the document far beyond its size. Plain ones (``<!ENTITY owl "http://...#">``) are fine."""
    declared = _ENTITY.findall(text)
    if len(declared) != text.count("<!ENTITY"):
        raise InputError(f"{path}: unreadable XML entity declaration")
    expanded = len(text)
    for parameter, name, double, single, other in declared:
        value = double or single
        if parameter or other:
            raise InputError(f"{path}: XML entity {name!r} refers to another file or is a parameter entity; not read")
        if _ENTITY_REF.search(value):
            raise InputError(f"{path}: XML entity {name!r} refers to other entities; not read")
        expanded += text.count(f"&{name};") * len(value)
    if expanded > 4 * len(text) + 1_000_000:
        raise InputError(f"{path}: XML entities would expand the file to {expanded:,} characters; not read")
