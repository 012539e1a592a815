"""The knowledge graph as a networkx graph of the things people look at.

Papers, authors, categories, entities, results and web resources become nodes; the
relations between them (authorship, category, the paper-entity roles, result parts,
variants) become edges labelled with the relation name. Provenance nodes (mentions) and the
category scheme's upper levels are left out. Each node carries the attributes the explorer
and the GraphML export show: ``kind``, ``label`` and kind-specific details.
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


def _text(value) -> str:
    return str(value) if isinstance(value, Literal) else ""


def value_text(value: str, unit: str | None) -> str:
    """A result's value with its unit as read: ``0.8%``, ``12.56 points``, ``82.0``."""
    if not unit:
        return value
    return f"{value} {unit}" if unit[0].isalnum() else f"{value}{unit}"


def to_networkx(graph: Graph) -> nx.MultiDiGraph:
    """Nodes keyed by IRI string, with ``kind``, ``label`` and details; edges with ``relation``."""
    kinds: dict[URIRef, str] = {}
    for s, o in graph.subject_objects(RDF.type):
        kind = _KIND_OF_CLASS.get(o)
        # Entities are SKOS concepts too: their own class names their kind, not "Category".
        if kind and isinstance(s, URIRef) and kinds.get(s, "Category") == "Category":
            kinds[s] = kind
    # Categories are shown only when a paper uses them (not the archives and groups above).
    used_categories = {o for o in graph.objects(None, DCTERMS.subject) if isinstance(o, URIRef)}
    kinds = {n: k for n, k in kinds.items() if k != "Category" or n in used_categories}

    attrs: dict[URIRef, dict] = {n: {"kind": k} for n, k in kinds.items()}
    aliases: dict[URIRef, list[str]] = defaultdict(list)
    categories: dict[URIRef, list[str]] = defaultdict(list)
    notation: dict[URIRef, str] = {}
    # Reading only the predicates shown (not every triple) skips the provenance statements,
    # which are most of a large graph.
    for p, keys in _TEXT_ATTRIBUTES:
        for s, o in graph.subject_objects(p):
            a = attrs.get(s)
            if a is not None:
                for key in keys:
                    a[key] = _text(o)
    for s, o in graph.subject_objects(FABIO.hasPublicationYear):
        if s in attrs:
            attrs[s]["year"] = int(str(o)[:4])
    for p, key in ((FOAF.page, "url"), (SKG.value, "value"), (SKG.valueText, "value_text")):
        for s, o in graph.subject_objects(p):
            if s in attrs:
                attrs[s][key] = str(o)
    for s, o in graph.subject_objects(SKOS.prefLabel):
        if s in attrs:
            attrs[s]["label"] = _text(o)
            if kinds[s] == "Category":
                attrs[s]["name"] = _text(o)
    for s, o in graph.subject_objects(SKOS.notation):
        if s in attrs:
            notation[s] = _text(o)
    for s, o in graph.subject_objects(SKOS.altLabel):
        if s in attrs:
            aliases[s].append(_text(o))
    for node, code in notation.items():
        if node in attrs:
            attrs[node]["label"] = code
    for paper, cat in graph.subject_objects(DCTERMS.subject):
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
        a.setdefault("label", str(node).rsplit("/", 1)[-1])
        nxg.add_node(str(node), **dict(sorted(a.items())))  # attributes in a fixed order
    nxg.add_edges_from(
        (str(s), str(o), relation, {"relation": relation})
        for prop, relation in RELATIONS.items()
        for s, o in graph.subject_objects(prop)
        if s in attrs and o in attrs
    )
    return nxg
