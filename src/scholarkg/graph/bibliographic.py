"""Standard bibliographic statements: what generic RDF tools understand without our ontology.

The builder (:mod:`scholarkg.graph.builder`) calls these beside its own statements:

- :func:`paper_kind_triples`: every paper is also a ``schema:ScholarlyArticle``, and the FaBiO
  and BIBO classes of its kind (``fabio:JournalArticle``, ``fabio:ConferencePaper``,
  ``fabio:Preprint``, ``bibo:Thesis``, ...);
- :func:`publication_triples`: where it appeared (``dcterms:isPartOf`` a venue node, typed
  ``bibo:Journal``, ``bibo:Proceedings``, ``bibo:Book`` or ``bibo:Collection``), ``bibo:volume``,
  ``bibo:issue``, ``bibo:pages`` (with ``bibo:pageStart``/``bibo:pageEnd`` for a range) and
  ``foaf:page`` (the URL the input gives);
- :func:`authorship_triples`: the author order, one ``skg:Authorship`` per author with
  ``skg:author`` and ``skg:authorPosition`` (1, 2, ...), so that ``ORDER BY ?position`` lists a
  paper's authors as printed; only for records that give the full list in order;
- :func:`person_triples`: authors as ``foaf:Person`` with ``rdfs:label``, ``foaf:givenName``,
  ``foaf:familyName``, ``owl:sameAs`` their ORCID iD and ``skg:arxivAuthorId``;
- :func:`concept_triples` and :func:`entity_scheme_triples`: entities as ``skos:Concept`` with
  ``rdfs:label``, in one ``skos:ConceptScheme`` per graph (``id:scheme/entities``);
- :func:`category_label`: arXiv categories, archives and groups with an ``rdfs:label``.

Querying authors in order::

    SELECT ?name WHERE {
      ?paper skg:hasAuthorship ?a . ?a skg:author/foaf:name ?name ; skg:authorPosition ?n .
    } ORDER BY ?n
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from functools import lru_cache

import pyoxigraph as ox

from ..model import Author, Entity, PaperKind, Record
from . import iri
from .terms import BIBO, DCTERMS, FABIO, FOAF, OWL, RDF, RDFS, SDO, SKG, SKOS, Literal, node

__all__ = [
    "KIND_CLASSES",
    "paper_kind_triples",
    "publication_triples",
    "authorship_triples",
    "person_triples",
    "concept_triples",
    "entity_scheme_triples",
    "category_label",
]

# Statements are made of pyoxigraph terms, as the builder's are (see scholarkg.graph.terms).
Triple = tuple[ox.NamedNode, ox.NamedNode, ox.NamedNode | ox.Literal]

# FaBiO and BIBO classes per kind (checked against the published FaBiO 2.1 and BIBO 1.3).
KIND_CLASSES: dict[PaperKind, tuple[ox.NamedNode, ...]] = {
    PaperKind.ARTICLE: (FABIO.JournalArticle, BIBO.AcademicArticle),
    PaperKind.CONFERENCE_PAPER: (FABIO.ConferencePaper, BIBO.AcademicArticle),
    PaperKind.PREPRINT: (FABIO.Preprint, BIBO.Manuscript),
    PaperKind.BOOK: (FABIO.Book, BIBO.Book),
    PaperKind.CHAPTER: (FABIO.BookChapter, BIBO.Chapter),
    PaperKind.PROCEEDINGS: (FABIO.ConferenceProceedings, BIBO.Proceedings),
    PaperKind.PHD_THESIS: (FABIO.DoctoralThesis, BIBO.Thesis),
    PaperKind.MASTERS_THESIS: (FABIO.MastersThesis, BIBO.Thesis),
    PaperKind.THESIS: (FABIO.Thesis, BIBO.Thesis),
    PaperKind.REPORT: (FABIO.ReportDocument, BIBO.Report),
    PaperKind.MANUAL: (BIBO.Manual,),
    PaperKind.UNPUBLISHED: (FABIO.Manuscript, BIBO.Manuscript),
    PaperKind.OTHER: (BIBO.Document,),
}
# The kind of container a paper of each kind appears in.
_VENUE_CLASS = {
    PaperKind.ARTICLE: BIBO.Journal,
    PaperKind.CONFERENCE_PAPER: BIBO.Proceedings,
    PaperKind.CHAPTER: BIBO.Book,
}
_RANGE = re.compile(r"\s*([0-9A-Za-z]+)\s*[-\u2010-\u2015]+\s*([0-9A-Za-z]+)\s*")
_ORCID_BASE = "https://orcid.org/"
_ARXIV_AUTHOR_BASE = "https://arxiv.org/a/"


def paper_kind_triples(record: Record, paper: ox.NamedNode) -> Iterator[Triple]:
    yield paper, RDF.type, SDO.ScholarlyArticle
    if record.kind is not None:
        for cls in KIND_CLASSES[record.kind]:
            yield paper, RDF.type, cls


def publication_triples(record: Record, paper: ox.NamedNode) -> Iterator[Triple]:
    if record.venue:
        venue = node(iri.venue(record.venue))
        yield paper, DCTERMS.isPartOf, venue
        yield venue, RDF.type, _VENUE_CLASS.get(record.kind, BIBO.Collection)
        yield venue, DCTERMS.title, Literal(record.venue)
        yield venue, RDFS.label, Literal(record.venue)
    if record.volume:
        yield paper, BIBO.volume, Literal(record.volume)
    if record.issue:
        yield paper, BIBO.issue, Literal(record.issue)
    if record.pages:
        yield paper, BIBO.pages, Literal(record.pages)
        m = _RANGE.fullmatch(record.pages)
        if m:
            yield paper, BIBO.pageStart, Literal(m.group(1))
            yield paper, BIBO.pageEnd, Literal(m.group(2))
    if record.url:
        try:
            yield paper, FOAF.page, node(iri.validate(record.url.strip()))
        except ValueError:
            pass  # not an IRI: nothing a browser could open


def authorship_triples(record: Record, paper: ox.NamedNode, key: str) -> Iterator[Triple]:
    """One ``skg:Authorship`` per author, numbered from 1, when the record gives the order."""
    if not record.authors_ordered:
        return
    for position, author in enumerate(record.authors, start=1):
        authorship = node(iri.authorship(key, position))
        yield paper, SKG.hasAuthorship, authorship
        yield authorship, RDF.type, SKG.Authorship
        yield authorship, SKG.author, node(iri.author(author.name))
        yield authorship, SKG.authorPosition, Literal(position)


def person_triples(author: Author, person: ox.NamedNode) -> Iterator[Triple]:
    yield person, RDF.type, FOAF.Person
    yield person, RDFS.label, Literal(author.name)
    if author.given:
        yield person, FOAF.givenName, Literal(author.given)
    if author.family:
        yield person, FOAF.familyName, Literal(author.family)
    if author.orcid:
        yield person, OWL.sameAs, node(iri.validate(_ORCID_BASE + author.orcid))
    if author.arxiv_id:
        yield person, SKG.arxivAuthorId, Literal(author.arxiv_id)
        yield person, FOAF.page, node(iri.validate(_ARXIV_AUTHOR_BASE + author.arxiv_id))


@lru_cache(maxsize=1)
def _entity_scheme() -> ox.NamedNode:
    return node(iri.entity_scheme())


def concept_triples(entity: Entity, concept: ox.NamedNode) -> Iterator[Triple]:
    yield concept, RDF.type, SKOS.Concept
    yield concept, RDFS.label, Literal(entity.label)
    yield concept, SKOS.inScheme, _entity_scheme()


def entity_scheme_triples() -> Iterator[Triple]:
    scheme = _entity_scheme()
    yield scheme, RDF.type, SKOS.ConceptScheme
    yield scheme, SKOS.prefLabel, Literal("Research entities named in the papers", lang="en")
    yield scheme, RDFS.label, Literal("Research entities named in the papers", lang="en")


def category_label(concept: ox.NamedNode, label: str) -> Triple:
    """The ``rdfs:label`` of an arXiv category, archive or group (its English name)."""
    return concept, RDFS.label, Literal(label, lang="en")

