"""Records, extractions and linked entities become RDF triples.

Statements are produced per record (:func:`record_triples`), per entity
(:func:`entity_triples`) and per arXiv category (:func:`category_triples`), so the same code
feeds an in-memory rdflib graph, one named graph per record in a persistent store, or N-Quads
shards written by parallel workers.

Shape of a paper (prefixes as in :data:`~scholarkg.graph.vocab.PREFIXES`)::

    id:paper/t-…  a skg:Paper ; dcterms:title "…" ; dcterms:abstract "…" ;
        fabio:hasPublicationYear "2026"^^xsd:gYear ; dcterms:creator id:author/… ;
        dcterms:subject arxivcat:cs.CL ; skg:primaryCategory arxivcat:cs.CL ;
        skg:introduces id:entity/… ; skg:hasMention id:mention/… ;
        skg:reportsResult id:result/… ; skg:hasCodeRepository id:web/… .
    id:mention/…  a skg:Mention ; skg:mentionOf id:entity/… ; skg:role skg:introduces ;
        skg:field "abstract" ; skg:startOffset 17 ; skg:endOffset 34 ; skg:anchorText "…" ;
        skg:confidence 0.9 ; prov:wasAttributedTo id:agent/extractor/… .
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator
from decimal import Decimal

from rdflib import Graph, Literal, URIRef
from rdflib.namespace import DCTERMS, FOAF, PROV, RDF, RDFS, SDO, SKOS, XSD

from ..model import Entity, EntityType, Extraction, LinkKind, Record, Role
from ..taxonomy import Taxonomy
from . import iri
from .vocab import BIBO, FABIO, PREFIXES, SKG

__all__ = [
    "Triple",
    "new_graph",
    "record_triples",
    "entity_triples",
    "category_triples",
    "extractor_triples",
    "add_all",
    "ROLE_PROPERTY",
    "TYPE_CLASS",
]

Triple = tuple[URIRef, URIRef, URIRef | Literal]
Resolver = Callable[[str], Entity | None]

ROLE_PROPERTY: dict[Role, URIRef] = {
    Role.INTRODUCES: SKG.introduces,
    Role.EVALUATES_ON: SKG.evaluatesOn,
    Role.COMPARES_WITH: SKG.comparesWith,
    Role.USES: SKG.uses,
    Role.MENTIONS: SKG.mentions,
}
TYPE_CLASS: dict[EntityType, URIRef] = {t: SKG[t.value] for t in EntityType}
LINK_CLASS = {LinkKind.CODE: SKG.CodeRepository, LinkKind.PROJECT: SKG.ProjectPage, LinkKind.WEB: SKG.WebResource}
LINK_PROPERTY = {LinkKind.CODE: SKG.hasCodeRepository, LinkKind.PROJECT: SKG.hasProjectPage, LinkKind.WEB: RDFS.seeAlso}
_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")
_ARXIV_ABS = "https://arxiv.org/abs/"


def new_graph() -> Graph:
    """An empty rdflib graph with the project's prefixes bound (and no others)."""
    g = Graph(bind_namespaces="none")
    for prefix, namespace in PREFIXES.items():
        g.bind(prefix, namespace)
    g.bind("arxivcat", str(iri.category("x"))[:-1])
    return g


def _decimal(value: float | Decimal) -> Literal:
    """An xsd:decimal in canonical form (``0.6``, ``100``), the form RDF stores keep it in."""
    number = value if isinstance(value, Decimal) else Decimal(str(value))
    text = format(number.normalize(), "f")
    return Literal("0" if text in ("-0", "0") else text, datatype=XSD.decimal)


def _confidence(value: float) -> Literal:
    return _decimal(Decimal(f"{min(max(value, 0.0), 1.0):.3f}"))


def extractor_triples(version: str) -> Iterator[Triple]:
    agent = iri.extractor(version)
    yield agent, RDF.type, SKG.Extractor
    yield agent, RDFS.label, Literal(f"scholarkg extractor {version}")
    yield agent, SDO.softwareVersion, Literal(version)


def category_triples(code: str) -> Iterator[Triple]:
    """The SKOS concept of an arXiv category with its archive and group, as in the ontology."""
    cat = Taxonomy.load().lookup(code)
    if cat is None:
        return
    scheme = iri.category_scheme()
    nodes = (
        (iri.category(cat.code), cat.code, cat.label, iri.archive(cat.archive)),
        (iri.archive(cat.archive), cat.archive, cat.archive_label, iri.group(cat.group)),
        (iri.group(cat.group), cat.group, cat.group_label, None),
    )
    for node, notation, label, broader in nodes:
        yield node, RDF.type, SKOS.Concept
        yield node, SKOS.inScheme, scheme
        yield node, SKOS.notation, Literal(notation)
        yield node, SKOS.prefLabel, Literal(label, lang="en")
        if broader is not None:
            yield node, SKOS.broader, broader
    yield scheme, RDF.type, SKOS.ConceptScheme
    yield scheme, SKOS.prefLabel, Literal("arXiv category taxonomy", lang="en")
    yield iri.group(cat.group), SKOS.topConceptOf, scheme


def entity_triples(entity: Entity) -> Iterator[Triple]:
    node = iri.entity(entity.key)
    yield node, RDF.type, TYPE_CLASS[entity.type]
    yield node, SKOS.prefLabel, Literal(entity.label)
    for alias in entity.aliases:
        if alias != entity.label:
            yield node, SKOS.altLabel, Literal(alias)
    if entity.parent:
        yield node, SKG.variantOf, iri.entity(entity.parent)
    if entity.derived_from:
        yield node, SKG.derivedFrom, iri.entity(entity.derived_from)


def _paper_triples(record: Record, paper: URIRef) -> Iterator[Triple]:
    yield paper, RDF.type, SKG.Paper
    yield paper, DCTERMS.title, Literal(record.title)
    if record.abstract:
        yield paper, DCTERMS.abstract, Literal(record.abstract)
    if record.year is not None:
        yield paper, FABIO.hasPublicationYear, Literal(f"{record.year:04d}", datatype=XSD.gYear)
    if record.arxiv_id:
        yield paper, SKG.arxivId, Literal(record.arxiv_id)
        yield paper, FOAF.page, iri.validate(_ARXIV_ABS + record.arxiv_id)
    if record.doi:
        yield paper, BIBO.doi, Literal(record.doi)
    if record.journal_ref:
        yield paper, DCTERMS.bibliographicCitation, Literal(record.journal_ref)
    if record.published and _DATE.fullmatch(record.published):
        yield paper, DCTERMS.issued, Literal(record.published, datatype=XSD.date)
    if record.updated and _DATE.fullmatch(record.updated):
        yield paper, DCTERMS.modified, Literal(record.updated, datatype=XSD.date)
    for author in record.authors:
        node = iri.author(author.name)
        yield paper, DCTERMS.creator, node
        yield node, RDF.type, SKG.Author
        yield node, FOAF.name, Literal(author.name)
    for code in record.categories:
        yield paper, DCTERMS.subject, iri.category(code)
        yield from category_triples(code)
    if record.primary_category:
        yield paper, SKG.primaryCategory, iri.category(record.primary_category)


def record_triples(record: Record, extraction: Extraction, resolve: Resolver) -> Iterator[Triple]:
    """Every statement about one record: the paper, its authors and categories, and what
    the extractor found in it (mentions with provenance, results, links).

    ``resolve`` maps a mention label to its canonical entity (see :class:`scholarkg.link.Linker`).
    Entity descriptions themselves come from :func:`entity_triples`.
    """
    key = iri.paper_key(record.arxiv_id, record.title)
    paper = iri.paper(key)
    agent = iri.extractor(extraction.extractor or "unknown")
    yield from _paper_triples(record, paper)

    strongest: dict[URIRef, Role] = {}
    for m in extraction.mentions:
        entity = resolve(m.label)
        if entity is None:
            continue
        node = iri.entity(entity.key)
        if node not in strongest or m.role.rank < strongest[node].rank:
            strongest[node] = m.role
        mention = iri.mention(key, entity.key, m.field.value, m.start, m.end)
        yield paper, SKG.hasMention, mention
        yield mention, RDF.type, SKG.Mention
        yield mention, SKG.mentionOf, node
        yield mention, SKG.role, ROLE_PROPERTY[m.role]
        yield mention, SKG.field, Literal(m.field.value)
        yield mention, SKG.startOffset, Literal(m.start)
        yield mention, SKG.endOffset, Literal(m.end)
        yield mention, SKG.anchorText, Literal(m.text)
        yield mention, SKG.confidence, _confidence(m.confidence)
        yield mention, PROV.wasAttributedTo, agent
    for node, role in strongest.items():
        yield paper, ROLE_PROPERTY[role], node

    for r in extraction.results:
        parts = {}
        for prop, label in ((SKG.model, r.model), (SKG.benchmark, r.benchmark), (SKG.metric, r.metric)):
            entity = resolve(label) if label else None
            if entity is not None:
                parts[prop] = entity
        node = iri.result(
            key,
            r.value,
            *(parts[p].key if p in parts else None for p in (SKG.model, SKG.benchmark, SKG.metric)),
            r.start,
        )
        yield paper, SKG.reportsResult, node
        yield node, RDF.type, SKG.Result
        for prop, entity in parts.items():
            yield node, prop, iri.entity(entity.key)
        yield node, SKG.value, _decimal(r.value)
        if r.unit:
            yield node, SKG.unit, Literal(r.unit)
        yield node, SKG.evidence, Literal(r.evidence)
        yield node, SKG.field, Literal(r.field.value)
        yield node, SKG.startOffset, Literal(r.start)
        yield node, SKG.endOffset, Literal(r.end)
        yield node, SKG.confidence, _confidence(r.confidence)
        yield node, PROV.wasAttributedTo, agent

    for link in extraction.links:
        try:
            node = iri.web_resource(link.url)
            url = iri.validate(link.url)
        except ValueError:
            continue
        yield paper, LINK_PROPERTY[link.kind], node
        yield node, RDF.type, LINK_CLASS[link.kind]
        yield node, SDO.url, Literal(str(url), datatype=XSD.anyURI)


def add_all(graph: Graph, triples: Iterable[Triple]) -> None:
    for triple in triples:
        graph.add(triple)
