"""The project's own RDF terms, mirrored from ``ontology/scholarkg.ttl``.

A test checks that every term here is declared, labelled and commented in the ontology
file and the other way round. ``_fail = True`` makes a misspelt term an error.
Standard vocabularies come from :mod:`rdflib.namespace`.
"""

from __future__ import annotations

from rdflib import Namespace, URIRef
from rdflib.namespace import DCTERMS, FOAF, OWL, PROV, RDF, RDFS, SDO, SKOS, XSD, DefinedNamespace

__all__ = ["SKG", "FABIO", "BIBO", "ONTOLOGY_IRI", "ID_BASE", "PREFIXES"]

ONTOLOGY_IRI = "https://w3id.org/scholarkg/ontology"
ID_BASE = "https://w3id.org/scholarkg/id/"

# Not in rdflib.namespace; IRIs as published by SPAR and the Bibliographic Ontology.
FABIO = Namespace("http://purl.org/spar/fabio/")
BIBO = Namespace("http://purl.org/ontology/bibo/")


class SKG(DefinedNamespace):
    """scholarkg ontology terms."""

    _NS = Namespace(ONTOLOGY_IRI + "#")
    _fail = True

    # classes
    Paper: URIRef
    Author: URIRef
    Authorship: URIRef
    ResearchEntity: URIRef
    Benchmark: URIRef
    Dataset: URIRef
    Model: URIRef
    Method: URIRef
    Task: URIRef
    Metric: URIRef
    Result: URIRef
    Improvement: URIRef
    WebResource: URIRef
    CodeRepository: URIRef
    ProjectPage: URIRef
    Mention: URIRef
    Extractor: URIRef
    Curation: URIRef
    EntityPair: URIRef

    # paper -> entity, by role
    mentions: URIRef
    introduces: URIRef
    evaluatesOn: URIRef
    uses: URIRef
    comparesWith: URIRef

    # paper
    arxivId: URIRef
    sourceTitle: URIRef
    sourceAbstract: URIRef
    primaryCategory: URIRef
    hasMention: URIRef
    reportsResult: URIRef
    reportsImprovement: URIRef
    hasCodeRepository: URIRef
    hasProjectPage: URIRef
    hasAuthorship: URIRef

    # authorship (an author's place in a paper's author list) and author
    author: URIRef
    authorPosition: URIRef
    arxivAuthorId: URIRef

    # mention (qualified paper-entity link with provenance)
    mentionOf: URIRef
    role: URIRef
    field: URIRef
    startOffset: URIRef
    endOffset: URIRef
    anchorText: URIRef
    confidence: URIRef

    # result
    model: URIRef
    benchmark: URIRef
    metric: URIRef
    value: URIRef
    unit: URIRef
    evidence: URIRef
    valueText: URIRef
    baseline: URIRef
    change: URIRef

    # entity
    variantOf: URIRef
    derivedFrom: URIRef
    kind: URIRef
    paperCount: URIRef

    # curation
    curationAction: URIRef

    # precomputed co-occurrence
    pairMember: URIRef
    sharedPapers: URIRef

    # a store's search index (scholarkg.store.search)
    searchFor: URIRef
    searchKey: URIRef
    searchPrefix: URIRef
    searchType: URIRef
    searchRank: URIRef


PREFIXES: dict[str, str] = {
    "skg": str(SKG),
    "id": ID_BASE,
    "dcterms": str(DCTERMS),
    "foaf": str(FOAF),
    "skos": str(SKOS),
    "prov": str(PROV),
    "schema": str(SDO),
    "fabio": str(FABIO),
    "bibo": str(BIBO),
    "owl": str(OWL),
    "rdf": str(RDF),
    "rdfs": str(RDFS),
    "xsd": str(XSD),
}
