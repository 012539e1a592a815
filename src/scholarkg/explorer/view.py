"""The knowledge graph as a networkx graph of the things people look at.

Papers, authors, categories, entities, results and web resources become nodes; the
relations between them (authorship, category, the paper-entity roles, result parts,
variants) become edges labelled with the relation name. Provenance nodes (mentions) and the
category scheme's upper levels are left out. Each node carries the attributes the explorer
and the GraphML export show: ``kind``, ``label`` and kind-specific details.

The graph is read from an rdflib graph or straight from a pyoxigraph store (a store on disk,
or the in-memory store of a build) with one SPARQL query per property shown, so a store is
never copied into rdflib to draw it.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator

import networkx as nx
from rdflib import Graph, Literal, URIRef
from rdflib.namespace import DCTERMS, FOAF, SDO, SKOS

from ..graph.vocab import FABIO, SKG

__all__ = ["to_networkx", "node_attributes", "rows", "value_text", "NODE_KINDS", "RELATIONS"]

NODE_KINDS = (
    "Author", "Paper", "Category", "Benchmark", "Dataset", "Model", "Method",
    "Task", "Metric", "Result", "Improvement", "CodeRepository", "ProjectPage", "WebResource",
)

_KIND_OF_CLASS = {SKG[k]: k for k in NODE_KINDS if k not in ("Category",)}
_KIND_OF_CLASS[SKOS.Concept] = "Category"

RELATIONS: dict[URIRef, str] = {
    DCTERMS.creator: "author",
    DCTERMS.subject: "category",
    SKG.introduces: "introduces",
    SKG.evaluatesOn: "evaluatesOn",
    SKG.uses: "uses",
    SKG.comparesWith: "comparesWith",
    SKG.mentions: "mentions",
    SKG.reportsResult: "reportsResult",
    SKG.reportsImprovement: "reportsImprovement",
    SKG.baseline: "baseline",
    SKG.model: "model",
    SKG.benchmark: "benchmark",
    SKG.metric: "metric",
    SKG.variantOf: "variantOf",
    SKG.derivedFrom: "derivedFrom",
    SKG.hasCodeRepository: "codeRepository",
    SKG.hasProjectPage: "projectPage",
}


# Literal-valued details: predicate -> the attributes it sets.
_TEXT_ATTRIBUTES = (
    (DCTERMS.title, ("label", "title")),
    (DCTERMS.abstract, ("abstract",)),
    (SKG.arxivId, ("arxiv_id",)),
    (FOAF.name, ("label",)),
    (SKG.unit, ("unit",)),
    (SKG.evidence, ("evidence",)),
    (SKG.kind, ("entity_kind",)),
    (SKG.change, ("change",)),
    (SDO.url, ("url", "label")),
)


_NAMING = {"label", "title"}  # what a node listed by name needs (with its kind)

Row = tuple[str, str, bool]  # subject IRI, object (IRI or lexical form), whether it is an IRI


def rows(source, predicate: URIRef, objects: tuple[URIRef, ...] = ()) -> Iterator[Row]:
    """The (subject, object) pairs of ``predicate`` in ``source``, one at a time: an rdflib
    graph, or a pyoxigraph store (on disk or in memory) asked with SPARQL over the union of its
    graphs."""
    if isinstance(source, Graph):
        wanted = set(objects)
        return ((str(s), str(o), not isinstance(o, Literal)) for s, o in source.subject_objects(predicate)
                if isinstance(s, URIRef) and (not wanted or o in wanted))
    import pyoxigraph as ox

    values = f"VALUES ?o {{ {' '.join(f'<{o}>' for o in objects)} }} " if objects else ""
    answer = source.query(f"SELECT ?s ?o WHERE {{ {values}?s <{predicate}> ?o }}", use_default_graph_as_union=True)
    return ((row[0].value, row[1].value, isinstance(row[1], ox.NamedNode)) for row in answer
            if isinstance(row[0], ox.NamedNode))


def subjects(source, predicate: URIRef, obj: URIRef) -> Iterator[str]:
    """The IRIs that have ``obj`` as their ``predicate`` in ``source`` (as :func:`rows` reads
    it). One column costs half what two do when a store hands rows to Python."""
    if isinstance(source, Graph):
        return (str(s) for s in source.subjects(predicate, obj) if isinstance(s, URIRef))
    import pyoxigraph as ox

    answer = source.query(f"SELECT ?s WHERE {{ ?s <{predicate}> <{obj}> }}", use_default_graph_as_union=True)
    return (row[0].value for row in answer if isinstance(row[0], ox.NamedNode))


def _text(value: str, is_iri: bool) -> str:
    return "" if is_iri else value


def value_text(value: str, unit: str | None) -> str:
    """A result's value with its unit as read: ``0.8%``, ``12.56 points``, ``2.3x``, ``82.0``."""
    if not unit:
        return value
    return f"{value} {unit}" if unit[0].isalnum() and unit != "x" else f"{value}{unit}"


def to_networkx(graph, *, structure=None) -> nx.MultiDiGraph:
    """Nodes keyed by IRI string, with ``kind``, ``label`` and details; edges with ``relation``.

    ``graph`` is an rdflib graph or a pyoxigraph store; only the statements shown are read
    (not every triple: provenance statements are most of a large graph). ``structure`` is the
    graph's :class:`~scholarkg.explorer.structure.Structure` when it was read already.
    """
    from .structure import read_structure

    structure = structure if structure is not None else read_structure(graph)
    nxg = nx.MultiDiGraph()
    nxg.add_nodes_from(node_attributes(graph, structure).items())
    nxg.add_edges_from((s, o, relation, {"relation": relation}) for s, o, relation in structure.edges())
    return nxg


def node_attributes(graph, structure, *, only: set[str] | None = None, details: set[str] | None = None) -> dict[str, dict]:
    """The attributes of each node of ``structure`` (in its order), or of each node in ``only``.

    With ``details``, the nodes outside it carry only what names them (kind, label, title;
    results keep everything, since their label is made of their value): the neighbours of a
    page's nodes, listed by name in its details panel.
    """
    attrs: dict[str, dict] = {n: {"kind": k} for n, k in zip(structure.nodes, structure.kinds)
                              if only is None or n in only}
    kinds = {n: a["kind"] for n, a in attrs.items()}
    named_only = set() if details is None else {n for n, k in kinds.items()
                                                if n not in details and k not in ("Result", "Improvement")}
    aliases: dict[str, list[str]] = defaultdict(list)
    categories: dict[str, list[str]] = defaultdict(list)
    notation: dict[str, str] = {}
    for p, keys in _TEXT_ATTRIBUTES:
        naming = tuple(k for k in keys if k in _NAMING)
        for s, o, is_iri in rows(graph, p):
            a = attrs.get(s)
            if a is not None:
                for key in naming if s in named_only else keys:
                    a[key] = _text(o, is_iri)
    for s, o, _ in rows(graph, FABIO.hasPublicationYear):
        if s in attrs and s not in named_only:
            attrs[s]["year"] = int(o[:4])
    for p, key in ((FOAF.page, "url"), (SKG.value, "value"), (SKG.valueText, "value_text")):
        for s, o, _ in rows(graph, p):
            if s in attrs and s not in named_only:
                attrs[s][key] = o
    for s, o, is_iri in rows(graph, SKOS.prefLabel):
        if s in attrs:
            attrs[s]["label"] = _text(o, is_iri)
            if kinds[s] == "Category":
                attrs[s]["name"] = _text(o, is_iri)
    for s, o, is_iri in rows(graph, SKOS.notation):
        if s in attrs:
            notation[s] = _text(o, is_iri)
    for s, o, is_iri in rows(graph, SKOS.altLabel):
        if s in attrs and s not in named_only:
            aliases[s].append(_text(o, is_iri))
    for node, code in notation.items():
        attrs[node]["label"] = code
    for paper, cat in structure.pairs("category"):  # the links to categories, as read already
        if paper in attrs and paper not in named_only and cat in notation:
            categories[paper].append(notation[cat])

    out = {}
    for node, a in attrs.items():
        if node in aliases:
            a["aliases"] = "; ".join(sorted(aliases[node]))
        if node in categories:
            a["categories"] = " ".join(sorted(categories[node]))
        if a["kind"] in ("Result", "Improvement"):
            written = a.pop("value_text", None) or a.get("value", "?")  # as the paper wrote it: "82.0"
            sign = {"increase": "+", "decrease": "−"}.get(a.get("change", ""), "") if a["kind"] == "Improvement" else ""
            a["label"] = sign + value_text(written, a.get("unit"))
        a.setdefault("label", node.rsplit("/", 1)[-1])
        out[node] = dict(sorted(a.items()))  # attributes in a fixed order
    return out
