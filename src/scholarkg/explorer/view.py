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

import networkx as nx
from rdflib import Graph, Literal, URIRef
from rdflib.namespace import DCTERMS, FOAF, RDF, SDO, SKOS

from ..graph.vocab import FABIO, SKG

__all__ = ["to_networkx", "value_text", "NODE_KINDS", "RELATIONS"]

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


Row = tuple[str, str, bool]  # subject IRI, object (IRI or lexical form), whether it is an IRI


def _rows(source, predicate: URIRef, objects: tuple[URIRef, ...] = ()) -> list[Row]:
    """The (subject, object) pairs of ``predicate`` in ``source``: an rdflib graph, or a
    pyoxigraph store (on disk or in memory) asked with SPARQL over the union of its graphs."""
    if isinstance(source, Graph):
        wanted = set(objects)
        return [(str(s), str(o), not isinstance(o, Literal)) for s, o in source.subject_objects(predicate)
                if isinstance(s, URIRef) and (not wanted or o in wanted)]
    import pyoxigraph as ox

    values = f"VALUES ?o {{ {' '.join(f'<{o}>' for o in objects)} }} " if objects else ""
    answer = source.query(f"SELECT ?s ?o WHERE {{ {values}?s <{predicate}> ?o }}", use_default_graph_as_union=True)
    return [(row[0].value, row[1].value, isinstance(row[1], ox.NamedNode)) for row in answer
            if isinstance(row[0], ox.NamedNode)]


def _text(value: str, is_iri: bool) -> str:
    return "" if is_iri else value


def value_text(value: str, unit: str | None) -> str:
    """A result's value with its unit as read: ``0.8%``, ``12.56 points``, ``82.0``."""
    if not unit:
        return value
    return f"{value} {unit}" if unit[0].isalnum() else f"{value}{unit}"


def to_networkx(graph) -> nx.MultiDiGraph:
    """Nodes keyed by IRI string, with ``kind``, ``label`` and details; edges with ``relation``.

    ``graph`` is an rdflib graph or a pyoxigraph store; only the statements shown are read
    (not every triple: provenance statements are most of a large graph).
    """
    kinds: dict[str, str] = {}
    for s, o, _ in _rows(graph, RDF.type, tuple(_KIND_OF_CLASS)):
        # Entities are SKOS concepts too: their own class names their kind, not "Category".
        if kinds.get(s, "Category") == "Category":
            kinds[s] = _KIND_OF_CLASS[URIRef(o)]
    # Categories are shown only when a paper uses them (not the archives and groups above).
    subjects = _rows(graph, DCTERMS.subject)
    used_categories = {o for _, o, is_iri in subjects if is_iri}
    kinds = {n: k for n, k in kinds.items() if k != "Category" or n in used_categories}

    attrs: dict[str, dict] = {n: {"kind": k} for n, k in kinds.items()}
    aliases: dict[str, list[str]] = defaultdict(list)
    categories: dict[str, list[str]] = defaultdict(list)
    notation: dict[str, str] = {}
    for p, keys in _TEXT_ATTRIBUTES:
        for s, o, is_iri in _rows(graph, p):
            a = attrs.get(s)
            if a is not None:
                for key in keys:
                    a[key] = _text(o, is_iri)
    for s, o, _ in _rows(graph, FABIO.hasPublicationYear):
        if s in attrs:
            attrs[s]["year"] = int(o[:4])
    for p, key in ((FOAF.page, "url"), (SKG.value, "value"), (SKG.valueText, "value_text")):
        for s, o, _ in _rows(graph, p):
            if s in attrs:
                attrs[s][key] = o
    for s, o, is_iri in _rows(graph, SKOS.prefLabel):
        if s in attrs:
            attrs[s]["label"] = _text(o, is_iri)
            if kinds[s] == "Category":
                attrs[s]["name"] = _text(o, is_iri)
    for s, o, is_iri in _rows(graph, SKOS.notation):
        if s in attrs:
            notation[s] = _text(o, is_iri)
    for s, o, is_iri in _rows(graph, SKOS.altLabel):
        if s in attrs:
            aliases[s].append(_text(o, is_iri))
    for node, code in notation.items():
        if node in attrs:
            attrs[node]["label"] = code
    for paper, cat, _ in subjects:
        if cat in notation:
            categories[paper].append(notation[cat])

    nxg = nx.MultiDiGraph()
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
        nxg.add_node(node, **dict(sorted(a.items())))  # attributes in a fixed order
    nxg.add_edges_from(
        (s, o, relation, {"relation": relation})
        for prop, relation in RELATIONS.items()
        for s, o, _ in _rows(graph, prop)
        if s in attrs and o in attrs
    )
    return nxg
