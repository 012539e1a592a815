"""Records, extractions and linked entities become RDF triples.

Statements are produced per record (:func:`record_triples`), per entity
(:func:`entity_triples`) and per arXiv category (:func:`category_triples`), so the same code
feeds an in-memory Oxigraph store, one named graph per record in a persistent store, or N-Quads
shards written by parallel workers. Their parts are pyoxigraph terms (see
:mod:`scholarkg.graph.terms`): they go into a store or out as N-Quads text as they are.
:func:`add_all` puts them into an rdflib graph where one is wanted.

Shape of a paper (prefixes as in :data:`~scholarkg.graph.vocab.PREFIXES`)::

    id:paper/t-…  a skg:Paper ; dcterms:title "…" ; dcterms:abstract "…" ;
        fabio:hasPublicationYear "2026"^^xsd:gYear ; dcterms:creator id:author/… ;
        dcterms:subject arxivcat:cs.CL ; skg:primaryCategory arxivcat:cs.CL ;
        skg:introduces id:entity/… ; skg:hasMention id:mention/… ;
        skg:reportsResult id:result/… ; skg:hasCodeRepository id:web/… .
    id:mention/…  a skg:Mention ; skg:mentionOf id:entity/… ; skg:role skg:introduces ;
        skg:field "abstract" ; skg:startOffset 17 ; skg:endOffset 34 ; skg:anchorText "…" ;
        skg:confidence 0.9 ; prov:wasAttributedTo id:agent/extractor/… ;
        skg:roleName "introduces" ; skg:extractorVersion "0.2.0" .
    id:result/…  a skg:Result ; skg:value 48.6 ; skg:valueText "48.6" ; skg:unit "%" ;
        skg:model id:entity/smtl ; skg:benchmark id:entity/browsecomp ;
        skg:evidence "BrowseComp (48.6%)" ; skg:field "abstract" ; skg:startOffset 975 ;
        skg:endOffset 994 ; skg:confidence 0.7 ; prov:wasAttributedTo id:agent/extractor/… ;
        skg:modelLabel "SMTL" ; skg:benchmarkLabel "BrowseComp" ; skg:extractorVersion "0.2.0" .
    id:result/…  a skg:Improvement ; skg:change "increase" ; skg:baseline id:entity/front ;
        skg:baselineLabel "FRONT" ; … (reported with skg:reportsImprovement; otherwise shaped
        like a result)

``skg:roleName``, ``skg:extractorVersion`` and the ``skg:…Label`` statements repeat what the
graph says elsewhere (the role's name, the extractor's version, the entities' labels) on the
node queries read them from, so that a query answers from one node instead of joining.

Every statement shape here is declared in ``ontology/scholarkg.ttl`` and checked by the SHACL
shapes in ``ontology/shapes.ttl`` (see :mod:`scholarkg.graph.validate`).
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Container, Iterable, Iterator
from datetime import date
from decimal import Decimal
from functools import lru_cache

import pyoxigraph as ox
from rdflib import URIRef
from rdflib import namespace as _rdf

from ..model import Entity, EntityType, Extraction, LinkKind, Mention, Record, Result, Role
from ..taxonomy import Taxonomy
from . import iri
from . import vocab
from .bibliographic import (
    authorship_triples,
    category_label,
    concept_triples,
    paper_kind_triples,
    person_triples,
    publication_triples,
)
from .terms import BIBO, DCTERMS, FABIO, FOAF, PROV, RDF, RDFS, SDO, SKG, SKOS, XSD, Literal, decimal, node, to_rdflib
from .vocab import PREFIXES

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

Term = ox.NamedNode | ox.Literal
Triple = tuple[ox.NamedNode, ox.NamedNode, Term]
Resolver = Callable[[str], Entity | None]
# (predicate, object) pairs stating where a mention or result came from.
Provenance = Callable[[Mention | Result], Iterable[tuple[ox.NamedNode, ox.NamedNode]]]

# The classes and properties the graph uses, as rdflib terms (for readers of the graph).
ROLE_PROPERTY: dict[Role, URIRef] = {
    Role.INTRODUCES: vocab.SKG.introduces,
    Role.EVALUATES_ON: vocab.SKG.evaluatesOn,
    Role.COMPARES_WITH: vocab.SKG.comparesWith,
    Role.USES: vocab.SKG.uses,
    Role.MENTIONS: vocab.SKG.mentions,
}
TYPE_CLASS: dict[EntityType, URIRef] = {t: vocab.SKG[t.value] for t in EntityType}
LINK_CLASS = {LinkKind.CODE: vocab.SKG.CodeRepository, LinkKind.PROJECT: vocab.SKG.ProjectPage, LinkKind.WEB: vocab.SKG.WebResource}
LINK_PROPERTY = {LinkKind.CODE: vocab.SKG.hasCodeRepository, LinkKind.PROJECT: vocab.SKG.hasProjectPage, LinkKind.WEB: _rdf.RDFS.seeAlso}
# The entity types each part of a result may have (the ranges in ontology/scholarkg.ttl).
RESULT_PART_TYPES: dict[URIRef, frozenset[EntityType]] = {
    vocab.SKG.model: frozenset({EntityType.MODEL, EntityType.METHOD}),
    vocab.SKG.baseline: frozenset({EntityType.MODEL, EntityType.METHOD}),
    vocab.SKG.benchmark: frozenset({EntityType.BENCHMARK, EntityType.DATASET}),
    vocab.SKG.metric: frozenset({EntityType.METRIC}),
}

# The same tables as pyoxigraph terms, for the statements made here.
_ROLE = {role: node(p) for role, p in ROLE_PROPERTY.items()}
_ROLE_NAME = {role: Literal(p.rpartition("#")[2]) for role, p in ROLE_PROPERTY.items()}
_TYPE = {t: node(c) for t, c in TYPE_CLASS.items()}
_LINK_CLASS = {k: node(c) for k, c in LINK_CLASS.items()}
_LINK_PROPERTY = {k: node(p) for k, p in LINK_PROPERTY.items()}
# result part -> (property, label property, entity types allowed)
_PARTS = (
    ("model", SKG.model, SKG.modelLabel, RESULT_PART_TYPES[vocab.SKG.model]),
    ("benchmark", SKG.benchmark, SKG.benchmarkLabel, RESULT_PART_TYPES[vocab.SKG.benchmark]),
    ("metric", SKG.metric, SKG.metricLabel, RESULT_PART_TYPES[vocab.SKG.metric]),
    ("baseline", SKG.baseline, SKG.baselineLabel, RESULT_PART_TYPES[vocab.SKG.baseline]),
)
_FIELD = {}  # Field -> its literal, made on first use
_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")
_ARXIV_ABS = "https://arxiv.org/abs/"

log = logging.getLogger(__name__)


def new_graph():
    """An empty rdflib graph with the project's prefixes bound (and no others)."""
    from rdflib import Graph

    g = Graph(bind_namespaces="none")
    for prefix, namespace in PREFIXES.items():
        g.bind(prefix, namespace)
    g.bind("arxivcat", str(iri.category("x"))[:-1])
    return g


def add_all(graph, triples: Iterable[tuple]) -> None:
    """Add statements (pyoxigraph or rdflib terms) to an rdflib graph."""
    for s, p, o in triples:
        graph.add((to_rdflib(s), to_rdflib(p), to_rdflib(o)))


def _decimal(value: float | Decimal):
    """An rdflib xsd:decimal literal in canonical form (see :func:`scholarkg.graph.terms.decimal`)."""
    return to_rdflib(decimal(value))


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


@lru_cache(maxsize=4096)
def _confidence(value: float) -> ox.Literal:
    return decimal(Decimal(f"{min(max(value, 0.0), 1.0):.3f}"))


@lru_cache(maxsize=1 << 16)
def _entity_node(key: str) -> ox.NamedNode:
    return node(iri.entity(key))


@lru_cache(maxsize=1 << 14)
def _author_node(name: str) -> ox.NamedNode:
    return node(iri.author(name))


def _as_node(term) -> ox.NamedNode:
    return term if isinstance(term, ox.NamedNode) else node(term)


@lru_cache(maxsize=16)
def _kind(value: str) -> ox.Literal:
    return Literal(value)


def _field(value: str) -> ox.Literal:
    literal = _FIELD.get(value)
    if literal is None:
        literal = _FIELD[value] = Literal(value)
    return literal


def extractor_triples(version: str) -> Iterator[Triple]:
    agent = node(iri.extractor(version))
    yield agent, RDF.type, SKG.Extractor
    yield agent, RDFS.label, Literal(f"scholarkg extractor {version}")
    yield agent, SDO.softwareVersion, Literal(version)


_CATEGORY_CACHE: dict[str, tuple[Triple, ...]] = {}


def category_triples(code: str) -> Iterator[Triple]:
    """The SKOS concept of an arXiv category with its archive and group, as in the ontology."""
    known = _CATEGORY_CACHE.get(code)
    if known is None:
        known = _CATEGORY_CACHE[code] = tuple(_category_triples(code))
    yield from known


def _category_triples(code: str) -> Iterator[Triple]:
    cat = Taxonomy.load().lookup(code)
    if cat is None:
        return
    scheme = node(iri.category_scheme())
    nodes = (
        (node(iri.category(cat.code)), cat.code, cat.label, node(iri.archive(cat.archive))),
        (node(iri.archive(cat.archive)), cat.archive, cat.archive_label, node(iri.group(cat.group))),
        (node(iri.group(cat.group)), cat.group, cat.group_label, None),
    )
    for subject, notation, label, broader in nodes:
        yield subject, RDF.type, SKOS.Concept
        yield subject, SKOS.inScheme, scheme
        yield subject, SKOS.notation, Literal(notation)
        yield subject, SKOS.prefLabel, Literal(label, lang="en")
        yield category_label(subject, label)
        if broader is not None:
            yield subject, SKOS.broader, broader
    yield scheme, RDF.type, SKOS.ConceptScheme
    yield scheme, SKOS.prefLabel, Literal("arXiv category taxonomy", lang="en")
    yield node(iri.group(cat.group)), SKOS.topConceptOf, scheme


def entity_triples(entity: Entity, known: Container[str] | None = None) -> Iterator[Triple]:
    """The description of one entity. With ``known`` (the keys of the entities that are
    described too), links to a family or base entity outside it are left out rather than
    pointing at a node with no type or name."""
    subject = node(iri.entity(entity.key))
    yield subject, RDF.type, _TYPE[entity.type]
    yield subject, SKOS.prefLabel, Literal(entity.label)
    yield from concept_triples(entity, subject)
    yield subject, SKG.kind, _kind(entity.kind.value)
    for alias in entity.aliases:
        if alias != entity.label:
            yield subject, SKOS.altLabel, Literal(alias)
    for prop, ref in ((SKG.variantOf, entity.parent), (SKG.derivedFrom, entity.derived_from)):
        if not ref or ref == entity.key or (known is not None and ref not in known):
            continue
        target = node(iri.entity(ref))
        if target != subject:
            yield subject, prop, target


def _paper_triples(record: Record, paper: ox.NamedNode) -> Iterator[Triple]:
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
        yield paper, FOAF.page, node(iri.validate(_ARXIV_ABS + record.arxiv_id))
    if record.doi:
        yield paper, BIBO.doi, Literal(record.doi)
    if record.journal_ref:
        yield paper, DCTERMS.bibliographicCitation, Literal(record.journal_ref)
    if _is_date(record.published):
        yield paper, DCTERMS.issued, Literal(record.published, datatype=XSD.date)
    if _is_date(record.updated):
        yield paper, DCTERMS.modified, Literal(record.updated, datatype=XSD.date)
    for author in record.authors:
        person = _author_node(author.name)
        yield paper, DCTERMS.creator, person
        yield person, RDF.type, SKG.Author
        yield person, FOAF.name, Literal(author.name)
        yield from person_triples(author, person)
    for code in record.categories:
        yield paper, DCTERMS.subject, node(iri.category(code))
        yield from category_triples(code)
    if record.primary_category:
        yield paper, SKG.primaryCategory, node(iri.category(record.primary_category))
    yield from publication_triples(record, paper)


def record_triples(
    record: Record, extraction: Extraction, resolve: Resolver, provenance: Provenance | None = None
) -> Iterator[Triple]:
    """Every statement about one record: the paper, its authors and categories, and what
    the extractor found in it (mentions with provenance, results, links).

    ``resolve`` maps a mention label to its canonical entity (see :class:`scholarkg.link.Linker`).
    Entity descriptions themselves come from :func:`entity_triples`. ``provenance`` gives the
    provenance of each mention and result (default: attributed to the extractor); curation
    uses it to mark what a correction made or changed. A mention or result attributed to the
    extractor also carries the extractor's version.
    """
    key = iri.record_key(record)
    paper = node(iri.paper(key))
    version = extraction.extractor or "unknown"
    agent = node(iri.extractor(version))
    version_literal = Literal(version)
    attributed = ((PROV.wasAttributedTo, agent),)
    if provenance is None:
        def provenance(_item: Mention | Result) -> tuple[tuple[ox.NamedNode, ox.NamedNode], ...]:
            return attributed

    def where_from(subject: ox.NamedNode, item: Mention | Result) -> Iterator[Triple]:
        for predicate, source in provenance(item):
            predicate, source = _as_node(predicate), _as_node(source)
            yield subject, predicate, source
            if predicate == PROV.wasAttributedTo and source == agent:
                yield subject, SKG.extractorVersion, version_literal

    yield from _paper_triples(record, paper)
    yield from authorship_triples(record, paper, key)
    if extraction.mentions or extraction.results:
        # The agent statements are attributed to is always described, whatever its version.
        yield from extractor_triples(version)

    strongest: dict[str, tuple[ox.NamedNode, Role]] = {}
    for m in extraction.mentions:
        entity = resolve(m.label)
        if entity is None:
            continue
        target = _entity_node(entity.key)
        known = strongest.get(entity.key)
        if known is None or m.role.rank < known[1].rank:
            strongest[entity.key] = (target, m.role)
        mention = node(iri.mention(key, entity.key, m.field.value, m.start, m.end))
        yield paper, SKG.hasMention, mention
        yield mention, RDF.type, SKG.Mention
        yield mention, SKG.mentionOf, target
        yield mention, SKG.role, _ROLE[m.role]
        yield mention, SKG.roleName, _ROLE_NAME[m.role]
        yield mention, SKG.field, _field(m.field.value)
        yield mention, SKG.startOffset, Literal(m.start)
        yield mention, SKG.endOffset, Literal(m.end)
        yield mention, SKG.anchorText, Literal(m.text)
        yield mention, SKG.confidence, _confidence(m.confidence)
        yield from where_from(mention, m)
    for target, role in strongest.values():
        yield paper, _ROLE[role], target

    for r in extraction.results:
        if not Decimal(str(r.value)).is_finite():
            log.debug("%s: result value %s is not a number; left out", record.id, r.value)
            continue
        parts = {}
        for part, prop, label_prop, types in _PARTS:
            if part == "baseline" and not r.is_improvement:
                continue
            label = getattr(r, part)
            try:
                entity = resolve(label) if label else None
            except KeyError:  # a name with no letters or digits ("$") names no entity
                entity = None
            if entity is None:
                continue
            if entity.type not in types:
                log.debug("%s: %s %r is a %s; not linked as a result's %s", record.id, part, label, entity.type.value, part)
                continue
            parts[part] = (prop, label_prop, entity)

        def part_key(name: str) -> str | None:
            return parts[name][2].key if name in parts else None

        if r.is_improvement:
            result = node(iri.improvement(key, r.value, part_key("model"), part_key("baseline"), r.start))
            yield paper, SKG.reportsImprovement, result
            yield result, RDF.type, SKG.Improvement
            yield result, SKG.change, Literal(r.change.value)
        else:
            result = node(iri.result(key, r.value, part_key("model"), part_key("benchmark"), part_key("metric"), r.start))
            yield paper, SKG.reportsResult, result
            yield result, RDF.type, SKG.Result
        for prop, label_prop, entity in parts.values():
            yield result, prop, _entity_node(entity.key)
            yield result, label_prop, Literal(entity.label)
        yield result, SKG.value, decimal(r.value)
        yield result, SKG.valueText, Literal(_written(r.value))
        if r.unit:
            yield result, SKG.unit, Literal(r.unit)
        yield result, SKG.evidence, Literal(r.evidence)
        if (r.start, r.end) != (0, 0):  # (0, 0), the default, means the span is not known
            yield result, SKG.field, _field(r.field.value)
            yield result, SKG.startOffset, Literal(r.start)
            yield result, SKG.endOffset, Literal(r.end)
        yield result, SKG.confidence, _confidence(r.confidence)
        yield from where_from(result, r)

    for link in extraction.links:
        try:
            page = node(iri.web_resource(link.url))
            url = iri.validate(link.url)
        except ValueError:
            continue
        yield paper, _LINK_PROPERTY[link.kind], page
        yield page, RDF.type, _LINK_CLASS[link.kind]
        yield page, SDO.url, Literal(str(url), datatype=XSD.anyURI)
