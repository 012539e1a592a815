"""The ontology files: strict syntax, the vocabulary mirrored both ways, standard namespaces
spelt exactly as published, the arXiv scheme complete, and the graph consistent under OWL RL."""

from __future__ import annotations

import re
import tomllib

import pyoxigraph as ox
import pytest
from rdflib import BNode, Graph, Literal, URIRef
from rdflib import namespace as rns
from rdflib.namespace import DCTERMS, FOAF, OWL, PROV, RDF, RDFS, SH, SKOS, VANN

from scholarkg.graph import iri
from scholarkg.graph.builder import LINK_CLASS, RESULT_PART_TYPES, ROLE_PROPERTY, TYPE_CLASS
from scholarkg.graph.vocab import BIBO, FABIO, ONTOLOGY_IRI, PREFIXES, SKG

NS = str(SKG)
KINDS = {OWL.Class, OWL.ObjectProperty, OWL.DatatypeProperty}
# Namespaces rdflib ships as closed term lists: a misspelt term is not one of their members.
CLOSED = {str(ns): ns for ns in (DCTERMS, FOAF, OWL, PROV, RDF, RDFS, rns.SDO, SH, SKOS, VANN, rns.XSD)}
# FaBiO and BIBO are open rdflib namespaces; these are the terms we use, each checked by hand
# against the published FaBiO and BIBO ontologies.
KNOWN_OPEN_TERMS = {
    FABIO.ScholarlyWork, FABIO.hasPublicationYear, FABIO.hasArXivId, BIBO.doi,
    FABIO.JournalArticle, FABIO.ConferencePaper, FABIO.Preprint, FABIO.Book, FABIO.BookChapter,
    FABIO.ConferenceProceedings, FABIO.DoctoralThesis, FABIO.MastersThesis, FABIO.Thesis, FABIO.ReportDocument,
    FABIO.Manuscript, BIBO.AcademicArticle, BIBO.Manuscript, BIBO.Book, BIBO.Chapter, BIBO.Proceedings,
    BIBO.Thesis, BIBO.Report, BIBO.Manual, BIBO.Document, BIBO.Journal, BIBO.Collection, BIBO.volume,
    BIBO.issue, BIBO.pages, BIBO.pageStart, BIBO.pageEnd,
}
EXPECTED_NAMESPACES = {
    "dcterms": "http://purl.org/dc/terms/",
    "foaf": "http://xmlns.com/foaf/0.1/",
    "skos": "http://www.w3.org/2004/02/skos/core#",
    "prov": "http://www.w3.org/ns/prov#",
    "schema": "https://schema.org/",
    "owl": "http://www.w3.org/2002/07/owl#",
    "rdf": "http://www.w3.org/1999/02/22-rdf-syntax-ns#",
    "rdfs": "http://www.w3.org/2000/01/rdf-schema#",
    "xsd": "http://www.w3.org/2001/XMLSchema#",
    "vann": "http://purl.org/vocab/vann/",
    "sh": "http://www.w3.org/ns/shacl#",
    "fabio": "http://purl.org/spar/fabio/",
    "bibo": "http://purl.org/ontology/bibo/",
    "skg": "https://w3id.org/scholarkg/ontology#",
    "skgsh": "https://w3id.org/scholarkg/shapes#",
    "arxivcat": "https://w3id.org/scholarkg/id/arxiv/category/",
    "arxivarch": "https://w3id.org/scholarkg/id/arxiv/archive/",
    "arxivgrp": "https://w3id.org/scholarkg/id/arxiv/group/",
}
ONTOLOGY = URIRef(ONTOLOGY_IRI)


def vocab_terms() -> set[URIRef]:
    return {SKG[name] for name in SKG.__annotations__}


@pytest.fixture(scope="module")
def ontology(repo_root) -> Graph:
    return Graph(bind_namespaces="none").parse(repo_root / "ontology" / "scholarkg.ttl", format="turtle")


@pytest.fixture(scope="module")
def taxonomy(repo_root) -> Graph:
    return Graph(bind_namespaces="none").parse(repo_root / "ontology" / "arxiv-categories.ttl", format="turtle")


@pytest.fixture(scope="module")
def rich():
    from rich_graph import rich_graph

    return rich_graph()


def iris(graph: Graph) -> set[URIRef]:
    return {term for triple in graph for term in triple if isinstance(term, URIRef)}


@pytest.mark.parametrize("name", ["scholarkg.ttl", "shapes.ttl", "arxiv-categories.ttl"])
def test_ontology_files_parse_with_a_strict_parser(repo_root, name):
    path = repo_root / "ontology" / name
    quads = list(ox.parse(path=str(path), format=ox.RdfFormat.TURTLE))
    assert quads, name
    assert len(set(quads)) == len(Graph().parse(path, format="turtle"))


def test_header(ontology, repo_root):
    assert set(ontology.subjects(RDF.type, OWL.Ontology)) == {ONTOLOGY}
    version = str(ontology.value(ONTOLOGY, OWL.versionInfo))
    with open(repo_root / "pyproject.toml", "rb") as handle:
        assert version == tomllib.load(handle)["project"]["version"]
    assert ontology.value(ONTOLOGY, OWL.versionIRI) == URIRef(f"{ONTOLOGY_IRI}/{version}")
    shapes = Graph().parse(repo_root / "ontology" / "shapes.ttl", format="turtle")
    assert str(shapes.value(URIRef("https://w3id.org/scholarkg/shapes"), OWL.versionInfo)) == version
    for prop in (DCTERMS.title, DCTERMS.description, RDFS.comment, VANN.usageNote):
        value = ontology.value(ONTOLOGY, prop)
        assert isinstance(value, Literal) and value.language == "en" and len(value) > 10, prop
    assert ontology.value(ONTOLOGY, DCTERMS.license) == URIRef("https://www.apache.org/licenses/LICENSE-2.0")
    assert ontology.value(ONTOLOGY, VANN.preferredNamespacePrefix) == Literal("skg")
    assert str(ontology.value(ONTOLOGY, VANN.preferredNamespaceUri)) == NS == ONTOLOGY_IRI + "#"


def test_every_vocab_term_is_declared_labelled_and_commented(ontology):
    for term in sorted(vocab_terms()):
        kinds = set(ontology.objects(term, RDF.type)) & KINDS
        assert len(kinds) == 1, f"{term} is declared as {kinds or 'nothing'}"
        if kinds == {OWL.Class}:
            assert term.fragment[0].isupper(), term
        else:
            assert term.fragment[0].islower(), term
        for prop in (RDFS.label, RDFS.comment):
            values = [v for v in ontology.objects(term, prop) if isinstance(v, Literal) and v.language == "en"]
            assert len(values) == 1 and values[0].strip(), f"{term} needs one {prop}@en"
        assert ontology.value(term, RDFS.isDefinedBy) == ONTOLOGY, term


def test_every_term_of_our_namespace_in_the_ontology_is_in_vocab(ontology):
    used = {term for term in iris(ontology) if str(term).startswith(NS)}
    assert used - vocab_terms() == set()
    declared = {s for s in ontology.subjects(RDF.type, None) if str(s).startswith(NS)}
    assert declared == vocab_terms()


@pytest.mark.parametrize("graph_name", ["seed", "rich"])
def test_every_term_a_built_graph_uses_is_declared(ontology, seed_graph, rich, graph_name):
    graph = seed_graph if graph_name == "seed" else rich
    ours = {term for term in iris(graph) if str(term).startswith(NS)}
    assert ours, "the graph uses no term of ours?"
    assert ours - set(ontology.subjects(RDF.type, None)) == set()
    # Standard terms the builder writes are declared too, and listed in the usage note.
    note = str(ontology.value(ONTOLOGY, VANN.usageNote))
    predicates = {p for p in graph.predicates() if not str(p).startswith(NS)} - {RDF.type}
    for prop in sorted(predicates):
        # rdfs:label, rdfs:seeAlso and owl:sameAs are built into OWL 2; every other one is declared.
        builtin = prop in (RDFS.label, RDFS.seeAlso, OWL.sameAs)
        kinds = set(ontology.objects(prop, RDF.type))
        assert builtin or kinds & {OWL.ObjectProperty, OWL.DatatypeProperty, OWL.AnnotationProperty}, prop
        assert re.search(rf"\b{re.escape(graph.namespace_manager.normalizeUri(prop))}\b", note), prop
    classes = {o for o in graph.objects(None, RDF.type) if not str(o).startswith(NS)}
    assert classes - set(ontology.subjects(RDF.type, OWL.Class)) == set()


@pytest.mark.shared
def test_every_term_a_graph_of_real_records_uses_is_declared(ontology, shared_data):
    """Real arXiv records carry what the seed does not: DOIs, journal references, dates."""
    from scholarkg.pipeline import build

    graph = build([shared_data / "arxiv-atom" / "query-100.atom.xml"]).graph
    predicates = {p for p in graph.predicates() if p != RDF.type}
    assert {BIBO.doi, DCTERMS.bibliographicCitation, DCTERMS.issued, DCTERMS.modified, SKG.arxivId} <= predicates
    note = str(ontology.value(ONTOLOGY, VANN.usageNote))
    for prop in predicates:
        assert prop in set(ontology.subjects(RDF.type, None)) | {RDFS.label, RDFS.seeAlso}, prop
        if not str(prop).startswith(NS):
            assert graph.namespace_manager.normalizeUri(prop) in note, prop


def test_standard_namespaces_are_the_published_ones(repo_root):
    for name in ("scholarkg.ttl", "shapes.ttl", "arxiv-categories.ttl"):
        graph = Graph(bind_namespaces="none").parse(repo_root / "ontology" / name, format="turtle")
        for prefix, namespace in graph.namespaces():
            assert EXPECTED_NAMESPACES.get(prefix) == str(namespace), f"{name}: @prefix {prefix}: <{namespace}>"
    for prefix, namespace in PREFIXES.items():
        if prefix != "id":
            assert EXPECTED_NAMESPACES[prefix] == namespace, prefix
    # The expected values themselves agree with rdflib's own definitions.
    for prefix, ns in (("dcterms", DCTERMS), ("foaf", FOAF), ("skos", SKOS), ("prov", PROV), ("schema", rns.SDO),
                       ("owl", OWL), ("rdf", RDF), ("rdfs", RDFS), ("xsd", rns.XSD), ("vann", VANN), ("sh", SH)):
        assert EXPECTED_NAMESPACES[prefix] == str(ns)
    assert (str(FABIO), str(BIBO)) == (EXPECTED_NAMESPACES["fabio"], EXPECTED_NAMESPACES["bibo"])


def test_standard_terms_exist_in_their_vocabularies(repo_root, ontology):
    shapes = Graph(bind_namespaces="none").parse(repo_root / "ontology" / "shapes.ttl", format="turtle")
    for term in sorted(iris(ontology) | iris(shapes)):
        text = str(term)
        if text.startswith((NS, "https://w3id.org/scholarkg/", "https://www.apache.org/")):
            continue
        namespace = next((ns for ns in CLOSED if text.startswith(ns)), None)
        if namespace is None:
            assert term in KNOWN_OPEN_TERMS, f"{term}: not a term of a known vocabulary"
            continue
        assert term in CLOSED[namespace], f"{term} is not defined in {namespace}"


def test_axioms_reuse_standard_vocabularies(ontology):
    def supers(term, prop):
        return set(ontology.objects(term, prop))

    for cls in TYPE_CLASS.values():
        assert supers(cls, RDFS.subClassOf) == {SKG.ResearchEntity}
    assert SKOS.Concept in supers(SKG.ResearchEntity, RDFS.subClassOf)
    assert FOAF.Person in supers(SKG.Author, RDFS.subClassOf)
    assert FABIO.ScholarlyWork in supers(SKG.Paper, RDFS.subClassOf)
    assert PROV.Entity in supers(SKG.Mention, RDFS.subClassOf)
    assert PROV.SoftwareAgent in supers(SKG.Extractor, RDFS.subClassOf)
    assert rns.SDO.CreativeWork in supers(SKG.WebResource, RDFS.subClassOf)
    assert SKG.WebResource in supers(SKG.CodeRepository, RDFS.subClassOf)
    assert SKG.WebResource in supers(SKG.ProjectPage, RDFS.subClassOf)
    for role in set(ROLE_PROPERTY.values()) - {SKG.mentions}:
        assert supers(role, RDFS.subPropertyOf) == {SKG.mentions}
    assert supers(SKG.derivedFrom, RDFS.subPropertyOf) == {PROV.wasDerivedFrom}
    assert supers(SKG.primaryCategory, RDFS.subPropertyOf) == {DCTERMS.subject}
    assert supers(SKG.arxivId, RDFS.subPropertyOf) == {FABIO.hasArXivId}
    assert supers(SKG.variantOf, RDFS.subPropertyOf) == {SKOS.broader}


def _members(graph: Graph, head) -> set:
    return set(graph.items(head))


def test_the_builder_uses_the_ontologys_classes_and_ranges(ontology):
    """Code and ontology agree: entity classes, roles, link classes and result part ranges."""
    union = ontology.value(next(ontology.objects(SKG.ResearchEntity, OWL.equivalentClass)), OWL.unionOf)
    assert _members(ontology, union) == set(TYPE_CLASS.values())
    role_range = ontology.value(ontology.value(SKG.role, RDFS.range), OWL.oneOf)
    assert _members(ontology, role_range) == set(ROLE_PROPERTY.values())
    for cls in LINK_CLASS.values():
        assert cls == SKG.WebResource or SKG.WebResource in set(ontology.objects(cls, RDFS.subClassOf))
    for prop, types in RESULT_PART_TYPES.items():
        rng = ontology.value(prop, RDFS.range)
        classes = _members(ontology, ontology.value(rng, OWL.unionOf)) if isinstance(rng, BNode) else {rng}
        assert classes == {TYPE_CLASS[t] for t in types}, prop


def test_top_level_classes_are_disjoint_but_entity_types_are_not(ontology):
    groups = [_members(ontology, ontology.value(node, OWL.members))
              for node in ontology.subjects(RDF.type, OWL.AllDisjointClasses)]
    top = {SKG.Paper, SKG.Author, SKG.ResearchEntity, SKG.Result, SKG.Mention, SKG.WebResource, SKG.Extractor}
    assert any(top <= group for group in groups)
    entity_types = set(TYPE_CLASS.values())
    for group in groups:
        assert len(group & entity_types) <= 1
    assert not any(cls in entity_types for cls in ontology.subjects(OWL.disjointWith, None))


# --- arXiv category scheme ------------------------------------------------------------------

SCHEME = iri.category_scheme()


def _level(graph: Graph, base: str) -> set[URIRef]:
    return {s for s in graph.subjects(RDF.type, SKOS.Concept) if str(s).startswith(base)}


def test_arxiv_scheme_has_every_category_archive_and_group(taxonomy):
    categories = _level(taxonomy, str(iri.category("x"))[:-1])
    archives = _level(taxonomy, str(iri.archive("x"))[:-1])
    groups = _level(taxonomy, str(iri.group("x"))[:-1])
    assert (len(categories), len(archives), len(groups)) == (185, 40, 10)
    assert categories | archives | groups == set(taxonomy.subjects(RDF.type, SKOS.Concept))
    assert (SCHEME, RDF.type, SKOS.ConceptScheme) in taxonomy
    for node in categories | archives | groups:
        notations = list(taxonomy.objects(node, SKOS.notation))
        labels = list(taxonomy.objects(node, SKOS.prefLabel))
        assert len(notations) == 1 and len(labels) == 1, node
        assert labels[0].language == "en" and labels[0].strip(), node
        assert taxonomy.value(node, SKOS.inScheme) == SCHEME, node
    for node in categories:
        assert iri.category(str(taxonomy.value(node, SKOS.notation))) == node
        assert set(taxonomy.objects(node, SKOS.broader)) <= archives and taxonomy.value(node, SKOS.broader), node
    for node in archives:
        assert iri.archive(str(taxonomy.value(node, SKOS.notation))) == node
        assert set(taxonomy.objects(node, SKOS.broader)) <= groups and taxonomy.value(node, SKOS.broader), node
    for node in groups:
        assert taxonomy.value(node, SKOS.broader) is None
        assert (node, SKOS.topConceptOf, SCHEME) in taxonomy and (SCHEME, SKOS.hasTopConcept, node) in taxonomy
    assert taxonomy.value(iri.category("cs.CL"), SKOS.prefLabel) == Literal("Computation and Language", lang="en")


# --- OWL RL: the ontology and what the builder writes stay consistent -----------------------

def _owl_rl_errors(*graphs: Graph) -> tuple[list[str], Graph]:
    import owlrl

    closure = Graph()
    for graph in graphs:
        for triple in graph:
            closure.add(triple)
    owlrl.DeductiveClosure(owlrl.OWLRL_Semantics).expand(closure)
    return sorted(str(m) for m in closure.objects(None, owlrl.Namespaces.ERRNS.error)), closure


def test_built_graphs_are_consistent_with_the_ontology(ontology, seed_graph, rich):
    errors, closure = _owl_rl_errors(ontology, seed_graph, rich)
    assert errors == []
    # The property chain hasMention/mentionOf entails skg:mentions; the builder states a role
    # (a sub-property of skg:mentions) for every such pair, so nothing new is entailed.
    chained = {(p, e) for p, m in closure.subject_objects(SKG.hasMention) for e in closure.objects(m, SKG.mentionOf)}
    direct = {(p, e) for prop in ROLE_PROPERTY.values() for p, e in seed_graph.subject_objects(prop)}
    direct |= {(p, e) for prop in ROLE_PROPERTY.values() for p, e in rich.subject_objects(prop)}
    assert chained and chained <= direct
    assert chained <= set(closure.subject_objects(SKG.mentions))


def test_owl_rl_check_detects_a_node_that_is_both_paper_and_author(ontology, seed_graph):
    broken = Graph()
    author = next(seed_graph.subjects(RDF.type, SKG.Author))
    broken.add((author, RDF.type, SKG.Paper))
    errors, _ = _owl_rl_errors(ontology, seed_graph, broken)
    assert len(errors) == 1 and "Disjoint classes" in errors[0] and str(author) in errors[0]
