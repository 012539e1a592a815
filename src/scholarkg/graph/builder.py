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
    id:result/…  a skg:Result ; skg:value 48.6 ; skg:valueText "48.6" ; skg:unit "%" ;
        skg:model id:entity/smtl ; skg:benchmark id:entity/browsecomp ;
        skg:evidence "BrowseComp (48.6%)" ; skg:field "abstract" ; skg:startOffset 975 ;
        skg:endOffset 994 ; skg:confidence 0.7 ; prov:wasAttributedTo id:agent/extractor/… .
    id:result/…  a skg:Improvement ; skg:change "increase" ; skg:baseline id:entity/front ; …
        (reported with skg:reportsImprovement; otherwise shaped like a result)

Every statement shape here is declared in ``ontology/scholarkg.ttl`` and checked by the SHACL
shapes in ``ontology/shapes.ttl`` (see :mod:`scholarkg.graph.validate`).
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Container, Iterable, Iterator
from datetime import date
from decimal import Decimal

from rdflib import Graph, Literal, URIRef
from rdflib.namespace import DCTERMS, FOAF, PROV, RDF, RDFS, SDO, SKOS, XSD

from ..model import Entity, EntityType, Extraction, LinkKind, Mention, Record, Result, Role
from ..taxonomy import Taxonomy
from . import iri
from .bibliographic import (
    authorship_triples,
    category_label,
    concept_triples,
    paper_kind_triples,
    person_triples,
    publication_triples,
)
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
    "RESULT_PART_TYPES",
]

Triple = tuple[URIRef, URIRef, URIRef | Literal]
Resolver = Callable[[str], Entity | None]
# (predicate, object) pairs stating where a mention or result came from.
Provenance = Callable[[Mention | Result], Iterable[tuple[URIRef, URIRef]]]

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
# The entity types each part of a result may have (the ranges in ontology/scholarkg.ttl).
RESULT_PART_TYPES: dict[URIRef, frozenset[EntityType]] = {
    SKG.model: frozenset({EntityType.MODEL, EntityType.METHOD}),
    SKG.baseline: frozenset({EntityType.MODEL, EntityType.METHOD}),
    SKG.benchmark: frozenset({EntityType.BENCHMARK, EntityType.DATASET}),
    SKG.metric: frozenset({EntityType.METRIC}),
}
_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")
_ARXIV_ABS = "https://arxiv.org/abs/"

log = logging.getLogger(__name__)


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


def _written(value: Decimal) -> str:
    """The number as the text wrote it, with its precision: ``Decimal("82.0")`` -> ``"82.0"``."""
    number = value if isinstance(value, Decimal) else Decimal(str(value))
    return format(number, "f")


def _is_date(text: str | None) -> bool:
    if not text or not _DATE.fullmatch(text):
        return False
    try:
        date.fromisoformat(text)
    except ValueError:
        return False
    return True


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
        yield category_label(node, label)
        if broader is not None:
            yield node, SKOS.broader, broader
    yield scheme, RDF.type, SKOS.ConceptScheme
    yield scheme, SKOS.prefLabel, Literal("arXiv category taxonomy", lang="en")
    yield iri.group(cat.group), SKOS.topConceptOf, scheme


def entity_triples(entity: Entity, known: Container[str] | None = None) -> Iterator[Triple]:
    """The description of one entity. With ``known`` (the keys of the entities that are
    described too), links to a family or base entity outside it are left out rather than
    pointing at a node with no type or name."""
    node = iri.entity(entity.key)
    yield node, RDF.type, TYPE_CLASS[entity.type]
    yield node, SKOS.prefLabel, Literal(entity.label)
    yield from concept_triples(entity, node)
    yield node, SKG.kind, Literal(entity.kind.value)
    for alias in entity.aliases:
        if alias != entity.label:
            yield node, SKOS.altLabel, Literal(alias)
    for prop, ref in ((SKG.variantOf, entity.parent), (SKG.derivedFrom, entity.derived_from)):
        if not ref or iri.entity(ref) == node or (known is not None and ref not in known):
            continue
        yield node, prop, iri.entity(ref)


def _paper_triples(record: Record, paper: URIRef) -> Iterator[Triple]:
    yield paper, RDF.type, SKG.Paper
    yield from paper_kind_triples(record, paper)
    yield paper, DCTERMS.title, Literal(record.title)
    yield paper, RDFS.label, Literal(record.title)
    if record.source_title:
        yield paper, SKG.sourceTitle, Literal(record.source_title)
    if record.abstract:
        yield paper, DCTERMS.abstract, Literal(record.abstract)
    if record.source_abstract:
        yield paper, SKG.sourceAbstract, Literal(record.source_abstract)
    if record.year is not None:
        yield paper, FABIO.hasPublicationYear, Literal(f"{record.year:04d}", datatype=XSD.gYear)
    if record.arxiv_id:
        yield paper, SKG.arxivId, Literal(record.arxiv_id)
        yield paper, FOAF.page, iri.validate(_ARXIV_ABS + record.arxiv_id)
    if record.doi:
        yield paper, BIBO.doi, Literal(record.doi)
    if record.journal_ref:
        yield paper, DCTERMS.bibliographicCitation, Literal(record.journal_ref)
    if _is_date(record.published):
        yield paper, DCTERMS.issued, Literal(record.published, datatype=XSD.date)
    if _is_date(record.updated):
        yield paper, DCTERMS.modified, Literal(record.updated, datatype=XSD.date)
    for author in record.authors:
        node = iri.author(author.name)
        yield paper, DCTERMS.creator, node
        yield node, RDF.type, SKG.Author
        yield node, FOAF.name, Literal(author.name)
        yield from person_triples(author, node)
    for code in record.categories:
        yield paper, DCTERMS.subject, iri.category(code)
        yield from category_triples(code)
    if record.primary_category:
        yield paper, SKG.primaryCategory, iri.category(record.primary_category)
    yield from publication_triples(record, paper)


def record_triples(
    record: Record, extraction: Extraction, resolve: Resolver, provenance: Provenance | None = None
) -> Iterator[Triple]:
    """Every statement about one record: the paper, its authors and categories, and what
    the extractor found in it (mentions with provenance, results, links).

    ``resolve`` maps a mention label to its canonical entity (see :class:`scholarkg.link.Linker`).
    Entity descriptions themselves come from :func:`entity_triples`. ``provenance`` gives the
    provenance of each mention and result (default: attributed to the extractor); curation
    uses it to mark what a correction made or changed.
    """
    key = iri.record_key(record)
    paper = iri.paper(key)
    agent = iri.extractor(extraction.extractor or "unknown")
    if provenance is None:
        def provenance(_item: Mention | Result) -> tuple[tuple[URIRef, URIRef], ...]:
            return ((PROV.wasAttributedTo, agent),)
    yield from _paper_triples(record, paper)
    yield from authorship_triples(record, paper, key)
    if extraction.mentions or extraction.results:
        # The agent statements are attributed to is always described, whatever its version.
        yield from extractor_triples(extraction.extractor or "unknown")

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
        for predicate, source in provenance(m):
            yield mention, predicate, source
    for node, role in strongest.items():
        yield paper, ROLE_PROPERTY[role], node

    for r in extraction.results:
        if not Decimal(str(r.value)).is_finite():
            log.debug("%s: result value %s is not a number; left out", record.id, r.value)
            continue
        parts = {}
        slots = [(SKG.model, r.model), (SKG.benchmark, r.benchmark), (SKG.metric, r.metric)]
        if r.is_improvement:
            slots.append((SKG.baseline, r.baseline))
        for prop, label in slots:
            try:
                entity = resolve(label) if label else None
            except KeyError:  # a name with no letters or digits ("$") names no entity
                entity = None
            if entity is None:
                continue
            if entity.type not in RESULT_PART_TYPES[prop]:
                log.debug("%s: %s %r is a %s; not linked as a result's %s",
                          record.id, prop.fragment, label, entity.type.value, prop.fragment)
                continue
            parts[prop] = entity
        if r.is_improvement:
            node = iri.improvement(key, r.value, *(parts[p].key if p in parts else None for p in (SKG.model, SKG.baseline)),
                                   r.start)
            yield paper, SKG.reportsImprovement, node
            yield node, RDF.type, SKG.Improvement
            yield node, SKG.change, Literal(r.change.value)
        else:
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
        yield node, SKG.valueText, Literal(_written(r.value))
        if r.unit:
            yield node, SKG.unit, Literal(r.unit)
        yield node, SKG.evidence, Literal(r.evidence)
        if (r.start, r.end) != (0, 0):  # (0, 0), the default, means the span is not known
            yield node, SKG.field, Literal(r.field.value)
            yield node, SKG.startOffset, Literal(r.start)
            yield node, SKG.endOffset, Literal(r.end)
        yield node, SKG.confidence, _confidence(r.confidence)
        for predicate, source in provenance(r):
            yield node, predicate, source

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
