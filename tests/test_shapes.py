"""SHACL shapes: every graph the tool builds conforms, and each kind of mistake is reported
by exactly the rule written for it."""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal

import pytest
from rdflib import BNode, Graph, Literal, URIRef
from rdflib.namespace import DCTERMS, FOAF, OWL, PROV, RDF, RDFS, SH, SKOS, XSD

from scholarkg.graph import iri
from scholarkg.graph.validate import SHAPES, ontology_graph, shapes_graph, validate
from scholarkg.graph.vocab import FABIO, SKG

SDO_URL = URIRef("https://schema.org/url")


@pytest.fixture(scope="module")
def rich() -> Graph:
    from rich_graph import rich_graph

    return rich_graph()


def rules(report) -> set[str]:
    return {str(rule).removeprefix(SHAPES) for rule in report.rules}


# --- graphs the tool builds conform ---------------------------------------------------------

@pytest.mark.parametrize("with_ontology", [False, True])
def test_seed_graph_conforms(seed_graph, with_ontology):
    report = validate(seed_graph, with_ontology=with_ontology)
    assert report.conforms, "\n".join(map(str, report.violations))


def test_seed_output_files_conform(seed_out):
    from scholarkg.graph.load import load_graph

    for name in ("graph.ttl", "graph.nt", "graph.jsonld"):
        report = validate(load_graph(seed_out / name))
        assert report.conforms, f"{name}: " + "\n".join(map(str, report.violations))


def test_graph_with_every_statement_shape_conforms(rich):
    kinds = {o for o in rich.objects(None, RDF.type)}
    assert {SKG.Benchmark, SKG.Dataset, SKG.Model, SKG.Method, SKG.Task, SKG.Metric, SKG.Result,
            SKG.CodeRepository, SKG.ProjectPage, SKG.WebResource, SKG.Mention} <= kinds
    report = validate(rich)
    assert report.conforms, "\n".join(map(str, report.violations))


@pytest.mark.parametrize("name", ["seed", "rich"])
def test_graphs_conform_under_rdfs_entailment_too(seed_graph, rich, name):
    graph = seed_graph if name == "seed" else rich
    report = validate(graph, inference="rdfs")
    assert report.conforms, "\n".join(map(str, report.violations))


SHARED_INPUTS = [
    "arxiv-kaggle-sample/arxiv-metadata-oai-snapshot.json",
    "arxiv-atom/query-100.atom.xml",
    "arxiv-atom/author-query.atom.xml",
    "arxiv-atom/id-list.atom.xml",
    "scirex/abstracts.gold.jsonl",
]


@pytest.mark.shared
@pytest.mark.parametrize("name", SHARED_INPUTS)
def test_graphs_built_from_real_files_conform(shared_data, name):
    from scholarkg.pipeline import build

    path = shared_data / name
    if not path.is_file():
        pytest.skip(f"{name} is not in ../shared/data")
    result = build([path])
    assert len(result.records) > 0
    report = validate(result.graph, with_ontology=False)
    assert report.conforms, "\n".join(map(str, report.violations[:20]))


# --- each mistake is reported by exactly its rule -------------------------------------------

Mutation = Callable[[Graph], tuple[set[str], set]]


def _sorted(nodes) -> list:
    return sorted(set(nodes), key=str)


def _first(nodes, what: str):
    nodes = _sorted(nodes)
    if not nodes:
        pytest.skip(f"this graph has no {what}")
    return nodes[0]


def _papers_without_title_mentions(g: Graph) -> list:
    return [p for p in _sorted(g.subjects(RDF.type, SKG.Paper))
            if not any(str(g.value(m, SKG.field)) == "title" for m in g.objects(p, SKG.hasMention))]


def _set(g: Graph, node, prop, value) -> None:
    g.remove((node, prop, None))
    g.add((node, prop, value))


def remove_title(g):
    paper = _first(_papers_without_title_mentions(g), "paper")
    g.remove((paper, DCTERMS.title, None))
    return {"Paper-title"}, {paper}


def add_second_title(g):
    paper = _first(_papers_without_title_mentions(g), "paper")
    g.add((paper, DCTERMS.title, Literal("Another title")))
    return {"Paper-title"}, {paper}


def year_as_plain_string(g):
    paper = _first(g.subjects(FABIO.hasPublicationYear, None), "paper with a year")
    _set(g, paper, FABIO.hasPublicationYear, Literal(str(g.value(paper, FABIO.hasPublicationYear))))
    return {"Paper-year"}, {paper}


def mention_start_equals_end(g):
    mention = _first(g.subjects(RDF.type, SKG.Mention), "mention")
    _set(g, mention, SKG.startOffset, g.value(mention, SKG.endOffset))
    return {"Mention-startOffset"}, {mention}


def mention_start_after_end(g):
    mention = _first(g.subjects(RDF.type, SKG.Mention), "mention")
    start, end = g.value(mention, SKG.startOffset), g.value(mention, SKG.endOffset)
    _set(g, mention, SKG.startOffset, end)
    _set(g, mention, SKG.endOffset, start)
    return {"Mention-startOffset"}, {mention}


def confidence_above_one(g):
    mention = _first(g.subjects(RDF.type, SKG.Mention), "mention")
    _set(g, mention, SKG.confidence, Literal(Decimal("1.5")))
    return {"Mention-confidence"}, {mention}


def result_without_value(g):
    result = _first(g.subjects(RDF.type, SKG.Result), "result")
    g.remove((result, SKG.value, None))
    return {"Result-value"}, {result}


def anchor_off_by_one(g):
    mention = _first(g.subjects(RDF.type, SKG.Mention), "mention")
    start, end = (g.value(mention, p).toPython() for p in (SKG.startOffset, SKG.endOffset))
    _set(g, mention, SKG.startOffset, Literal(start + 1))
    _set(g, mention, SKG.endOffset, Literal(end + 1))
    return {"Mention-anchorMatchesSpan"}, {mention}


def field_unknown(g):
    mention = _first((m for m in g.subjects(RDF.type, SKG.Mention) if str(g.value(m, SKG.field)) == "abstract"),
                     "abstract mention")
    _set(g, mention, SKG.field, Literal("body"))
    return {"Mention-field"}, {mention}


def mention_by_unknown_extractor(g):
    mention = _first(g.subjects(RDF.type, SKG.Mention), "mention")
    agent = iri.extractor("never-described")
    _set(g, mention, PROV.wasAttributedTo, agent)
    return {"Mention-extractor", "Extractor-type", "Extractor-version"}, {mention, agent}


def mention_stronger_than_link(g):
    pairs = [(p, m) for p, m in g.subject_objects(SKG.hasMention)
             if g.value(m, SKG.role) != SKG.introduces and (p, SKG.introduces, g.value(m, SKG.mentionOf)) not in g]
    paper, mention = _first(pairs, "mention")
    _set(g, mention, SKG.role, SKG.introduces)
    return {"Paper-rolesAgreeWithMentions"}, {paper}


def mentioned_but_not_linked(g):
    paper, mention = _first(g.subject_objects(SKG.hasMention), "mention")
    entity = g.value(mention, SKG.mentionOf)
    for prop in (SKG.introduces, SKG.evaluatesOn, SKG.comparesWith, SKG.uses, SKG.mentions):
        g.remove((paper, prop, entity))
    return {"Paper-rolesAgreeWithMentions"}, {paper}


def two_roles_for_one_entity(g):
    paper, entity = _first(g.subject_objects(SKG.uses), "'uses' link")
    g.add((paper, SKG.evaluatesOn, entity))
    return {"Paper-evaluatesOn"}, {paper}


def primary_not_among_subjects(g):
    for paper in _sorted(g.subjects(RDF.type, SKG.Paper)):
        others = set(g.objects(None, DCTERMS.subject)) - set(g.objects(paper, DCTERMS.subject))
        if others and g.value(paper, SKG.primaryCategory) is not None:
            _set(g, paper, SKG.primaryCategory, _sorted(others)[0])
            return {"Paper-primaryAmongSubjects"}, {paper}
    pytest.skip("every paper has the same categories")


def unknown_category(g):
    paper = _first(g.subjects(RDF.type, SKG.Paper), "paper")
    category = iri.category("cs.XX")
    g.add((paper, DCTERMS.subject, category))
    return {"ArxivCategory-type", "ArxivCategory-scheme", "ArxivCategory-notation", "ArxivCategory-label",
            "ArxivCategory-rdfsLabel", "ArxivCategory-hierarchy"}, {category}


def creator_is_a_blank_node(g):
    paper = _first(g.subjects(RDF.type, SKG.Paper), "paper")
    author = BNode()
    g.add((author, RDF.type, SKG.Author))
    g.add((author, FOAF.name, Literal("Anonymous")))
    _set(g, paper, DCTERMS.creator, author)
    return {"Paper-creator", "Author", "Author-person", "Author-label"}, {paper, author}


def entity_with_two_types(g):
    entity = _first(g.subjects(RDF.type, SKG.Benchmark), "benchmark")
    g.add((entity, RDF.type, SKG.Dataset))
    return {"ResearchEntity-type"}, {entity}


def entity_with_two_names(g):
    entity = _first(g.objects(None, SKG.mentionOf), "entity")
    g.add((entity, SKOS.prefLabel, Literal("Another name")))
    return {"ResearchEntity-prefLabel", "ResearchEntity-label"}, {entity}


def alias_equal_to_name(g):
    entity = _first(g.objects(None, SKG.mentionOf), "entity")
    g.add((entity, SKOS.altLabel, g.value(entity, SKOS.prefLabel)))
    return {"ResearchEntity-altLabel"}, {entity}


def variant_of_undescribed_family(g):
    entity = _first(g.objects(None, SKG.mentionOf), "entity")
    family = iri.entity("no such family")
    _set(g, entity, SKG.variantOf, family)
    return {"ResearchEntity-type", "ResearchEntity-kind", "ResearchEntity-prefLabel", "ResearchEntity-concept",
            "ResearchEntity-label", "ResearchEntity-scheme"}, {family}


def result_benchmark_is_a_task(g):
    result = _first(g.subjects(SKG.benchmark, None), "result with a benchmark")
    task = _first(g.subjects(RDF.type, SKG.Task), "task")
    _set(g, result, SKG.benchmark, task)
    return {"Result-benchmark"}, {result}


def result_span_without_end(g):
    result = _first((r for r in g.subjects(RDF.type, SKG.Result) if g.value(r, SKG.endOffset) is not None),
                    "result with a span")
    g.remove((result, SKG.endOffset, None))
    return {"Result"}, {result}


def url_as_plain_string(g):
    web = _first(g.subjects(SDO_URL, None), "web resource")
    _set(g, web, SDO_URL, Literal(str(g.value(web, SDO_URL))))
    return {"WebResource-url"}, {web}


def two_authors_in_one_place(g):
    paper, first = _first(((p, a) for p, a in g.subject_objects(SKG.hasAuthorship)
                           if g.value(a, SKG.authorPosition) == Literal(1)), "first authorship")
    second = _first((a for a in g.objects(paper, SKG.hasAuthorship) if a != first), "second authorship")
    _set(g, second, SKG.authorPosition, Literal(1))
    return {"Paper-positionsAreDistinct"}, {paper}


def listed_author_not_a_creator(g):
    paper, authorship = _first(g.subject_objects(SKG.hasAuthorship), "authorship")
    g.remove((paper, DCTERMS.creator, g.value(authorship, SKG.author)))
    return {"Paper-authorshipsAreCreators"}, {paper}


def authorship_without_position(g):
    _paper, authorship = _first(g.subject_objects(SKG.hasAuthorship), "authorship")
    g.remove((authorship, SKG.authorPosition, None))
    return {"Authorship-position"}, {authorship}


def venue_without_name(g):
    _paper, venue = _first(g.subject_objects(DCTERMS.isPartOf), "venue")
    g.remove((venue, DCTERMS.title, None))
    return {"Venue-title", "Venue-label"}, {venue}


def orcid_as_a_name(g):
    author = _first(g.subjects(OWL.sameAs, None), "author with an ORCID iD")
    _set(g, author, OWL.sameAs, URIRef("https://orcid.org/Josiah-Carberry"))
    return {"Author-sameAs"}, {author}


def paper_not_a_scholarly_article(g):
    paper = _first(g.subjects(RDF.type, SKG.Paper), "paper")
    g.remove((paper, RDF.type, URIRef("https://schema.org/ScholarlyArticle")))
    return {"Paper-schemaType"}, {paper}


# Broken in the seed graph as built, and in the graph that has every statement shape.
SEED_MUTATIONS: list[Mutation] = [
    remove_title, add_second_title, mention_start_equals_end, confidence_above_one,
    year_as_plain_string, result_without_value,
]
MUTATIONS: list[Mutation] = SEED_MUTATIONS + [
    mention_start_after_end, anchor_off_by_one, field_unknown, mention_by_unknown_extractor,
    mention_stronger_than_link, mentioned_but_not_linked, two_roles_for_one_entity,
    primary_not_among_subjects, unknown_category, creator_is_a_blank_node, entity_with_two_types,
    entity_with_two_names, alias_equal_to_name, variant_of_undescribed_family,
    result_benchmark_is_a_task, result_span_without_end, url_as_plain_string,
    two_authors_in_one_place, listed_author_not_a_creator, authorship_without_position, venue_without_name,
    orcid_as_a_name, paper_not_a_scholarly_article,
]


def _check_mutation(base: Graph, mutation: Mutation) -> None:
    graph = Graph()
    for triple in base:
        graph.add(triple)
    expected_rules, expected_focus = mutation(graph)
    report = validate(graph, with_ontology=False)
    assert not report.conforms
    assert rules(report) == expected_rules, "\n".join(map(str, report.violations))
    assert {v.focus for v in report.violations} == expected_focus


@pytest.mark.parametrize("mutation", SEED_MUTATIONS, ids=lambda m: m.__name__)
def test_each_mistake_in_the_seed_graph_is_reported_by_exactly_its_rule(seed_graph, mutation):
    _check_mutation(seed_graph, mutation)


@pytest.mark.parametrize("mutation", MUTATIONS, ids=lambda m: m.__name__)
def test_each_mistake_is_reported_by_exactly_its_rule(rich, mutation):
    _check_mutation(rich, mutation)


# --- the shapes agree with the ontology -----------------------------------------------------

def test_shapes_use_only_declared_terms_and_named_property_shapes():
    shapes, ontology = shapes_graph(), ontology_graph()
    declared = set(ontology.subjects(RDF.type, None))
    used = {t for triple in shapes for t in triple if isinstance(t, URIRef) and str(t).startswith(str(SKG))}
    assert used and used <= declared
    for shape, prop_shape in shapes.subject_objects(SH.property):
        assert isinstance(shape, URIRef) and str(shape).startswith(SHAPES), shape
        assert isinstance(prop_shape, URIRef) and str(prop_shape).startswith(str(shape) + "-"), prop_shape
        assert shapes.value(prop_shape, SH.path) is not None, prop_shape
    for constraint in shapes.objects(None, SH.sparql):
        assert isinstance(constraint, URIRef) and shapes.value(constraint, SH.message), constraint


def test_shape_datatypes_match_ontology_ranges():
    shapes, ontology = shapes_graph(), ontology_graph()
    checked = 0
    for prop_shape, datatype in shapes.subject_objects(SH.datatype):
        path = shapes.value(prop_shape, SH.path)
        if not str(path).startswith(str(SKG)):
            continue
        declared = ontology.value(path, RDFS.range)
        if isinstance(declared, BNode):  # a restricted datatype, e.g. confidence in [0, 1]
            declared = ontology.value(declared, OWL.onDatatype)
        assert declared == datatype, path
        checked += 1
    assert checked >= 10


# --- what the builder does so that every graph conforms -------------------------------------

def test_builder_describes_the_extractor_of_every_mention(rich):
    from rich_graph import EXTRACTOR

    agent = iri.extractor(EXTRACTOR)
    assert set(rich.objects(None, PROV.wasAttributedTo)) == {agent}
    assert (agent, RDF.type, SKG.Extractor) in rich
    assert rich.value(agent, URIRef("https://schema.org/softwareVersion")) == Literal(EXTRACTOR)


def test_builder_leaves_out_result_parts_of_the_wrong_type(rich):
    result = next(rich.subjects(SKG.evidence, Literal("DeepResearch Bench (45.9%)")))
    assert rich.value(result, SKG.model) is None  # "question answering" is a task
    assert rich.value(result, SKG.value) == Literal("45.9", datatype=XSD.decimal)


def test_builder_gives_no_span_for_a_result_whose_span_is_unknown(rich):
    result = next(rich.subjects(SKG.evidence, Literal("by 70.7%")))
    assert {rich.value(result, p) for p in (SKG.field, SKG.startOffset, SKG.endOffset)} == {None}


def test_builder_does_not_link_a_variant_to_an_undescribed_family(rich):
    variant = iri.entity("Qwen3-4B")
    assert (variant, SKOS.prefLabel, Literal("Qwen3-4B")) in rich
    assert rich.value(variant, SKG.variantOf) is None
    assert rich.value(iri.entity("LLaMA-3-8B"), SKG.variantOf) == iri.entity("LLaMA")
    assert rich.value(iri.entity("E-GRPO"), SKG.derivedFrom) == iri.entity("GRPO")
