"""Graphs for the explorer tests, built with the project's own graph builder, and what the
explorer should make of a graph, read from the RDF with SPARQL.

``enriched_seed`` adds to the seed graph a few facts the tests rely on whatever the extractor
finds (a benchmark with an alias introduced by its paper, a result on it, a model family) and
records whose text carries script payloads; ``synthetic_graph`` makes a graph of about ``n``
explorer nodes with the shape of a real build.

``expected_nodes`` and ``expected_links`` give the explorer's nodes and links of an RDF graph
by SPARQL queries written here from the ontology, not through ``scholarkg.explorer``, so the
tests can compare the explorer with the graph whatever the extractor finds in the seed.
"""

from __future__ import annotations

import random
from decimal import Decimal

from rdflib import Graph
from rdflib.namespace import RDF, SKOS

from scholarkg.extract.names import canonical_key as normalise_key
from scholarkg.graph import iri
from scholarkg.graph.builder import add_all, entity_triples, new_graph, record_triples
from scholarkg.graph.vocab import SKG
from scholarkg.model import (
    Author,
    Entity,
    EntityType,
    Extraction,
    Field,
    Link,
    LinkKind,
    Mention,
    Record,
    Result,
    Role,
)

XSS_IMG = '<img src=x onerror="window.__skgPwned = 1">'
XSS_SCRIPT = "<script>window.__skgPwned = 2</script>"
XSS_TITLE = f"Robust agents {XSS_IMG} & friends"
XSS_ABSTRACT = f"We study {XSS_SCRIPT} injection and {XSS_IMG} payloads in BrowseComp."


def _entity(label: str, type_: EntityType, aliases: tuple[str, ...] = (), parent: str | None = None) -> Entity:
    return Entity(normalise_key(label), type_, label, aliases, normalise_key(parent) if parent else None)


def _mention(text: str, abstract: str, type_: EntityType, role: Role, label: str | None = None) -> Mention:
    start = abstract.index(text)
    return Mention(text, label or text, type_, start, start + len(text), Field.ABSTRACT, role, 0.9)


def _resolver(entities: list[Entity]):
    by_key = {e.key: e for e in entities}
    return lambda label: by_key.get(normalise_key(label))


def entity_node(label: str) -> str:
    """The IRI (as a string) of the entity named ``label``, keyed as the linker keys it."""
    return str(iri.entity(normalise_key(label)))


def _describe(graph: Graph, entity: Entity) -> None:
    """Add ``entity`` to ``graph``. Where the graph already has it (the seed's extractor found
    it), its type, name and aliases, and its family and base if ``entity`` gives them, are
    replaced, so the node is described once, as the linker describes it; its links to papers
    and results stay."""
    node = iri.entity(entity.key)
    for prop in (RDF.type, SKOS.prefLabel, SKOS.altLabel):
        graph.remove((node, prop, None))
    if entity.parent:
        graph.remove((node, SKG.variantOf, None))
    if entity.derived_from:
        graph.remove((node, SKG.derivedFrom, None))
    add_all(graph, entity_triples(entity))


def enriched_seed(seed_build) -> Graph:
    """The seed graph with: the seed's "Agents' Last Exam" record introducing that benchmark,
    with its acronym ALE (as the extractor finds it); a record reporting a result on ALE with
    Qwen3-8B, a model of the Qwen3 family; and a record whose title, abstract and author name
    carry script payloads. The entities named here are as described here, whatever the
    extractor made of them; those the seed has keep their links to its papers."""
    graph = new_graph()
    for triple in seed_build.graph:
        graph.add(triple)
    entities = [
        _entity("Agents' Last Exam", EntityType.BENCHMARK, ("ALE",)),
        _entity("BrowseComp", EntityType.BENCHMARK),
        _entity("Qwen3-8B", EntityType.MODEL, ("Qwen3 8B",), parent="Qwen3"),
        _entity("Qwen3", EntityType.MODEL),
        _entity("pass rate", EntityType.METRIC),
    ]
    resolve = _resolver(entities)
    ale = next(r for r in seed_build.records if r.title == "Agents' Last Exam")
    ale_extraction = Extraction(
        ale.id,
        (
            _mention("Agents' Last Exam", ale.abstract, EntityType.BENCHMARK, Role.INTRODUCES),
            _mention("ALE", ale.abstract, EntityType.BENCHMARK, Role.INTRODUCES, label="Agents' Last Exam"),
        ),
        extractor="test",
    )
    qwen_abstract = "On ALE, Qwen3-8B reaches a full pass rate of 0.8%, far below experts."
    qwen = Record(
        "qwen-ale", "Small models on Agents' Last Exam", qwen_abstract, 2026, ("cs.CL",), "cs.CL",
        (Author("Maojia Song"), Author("Ada Example")), arxiv_id="2601.00001",
    )
    evidence = "Qwen3-8B reaches a full pass rate of 0.8%"
    qwen_extraction = Extraction(
        qwen.id,
        (
            _mention("ALE", qwen_abstract, EntityType.BENCHMARK, Role.EVALUATES_ON, label="Agents' Last Exam"),
            _mention("Qwen3-8B", qwen_abstract, EntityType.MODEL, Role.USES),
            _mention("pass rate", qwen_abstract, EntityType.METRIC, Role.MENTIONS),
        ),
        (Result(Decimal("0.8"), evidence, "Qwen3-8B", "Agents' Last Exam", "pass rate", "%", Field.ABSTRACT,
                qwen_abstract.index(evidence), qwen_abstract.index(evidence) + len(evidence), 0.8),),
        (Link("https://github.com/example/small-ale", LinkKind.CODE),),
        "test",
    )
    hostile = Record(
        "hostile-2025", XSS_TITLE, XSS_ABSTRACT, 2025, ("cs.CR",), "cs.CR",
        (Author(f"Mallory {XSS_SCRIPT}"), Author("Maojia Song")), arxiv_id="2501.00002",
    )
    hostile_extraction = Extraction(
        hostile.id,
        (_mention("BrowseComp", XSS_ABSTRACT, EntityType.BENCHMARK, Role.EVALUATES_ON),),
        (),
        (Link("https://example.org/x?a=<b>", LinkKind.PROJECT),),
        "test",
    )
    for record, extraction in ((ale, ale_extraction), (qwen, qwen_extraction), (hostile, hostile_extraction)):
        add_all(graph, record_triples(record, extraction, resolve))
    for entity in entities:
        _describe(graph, entity)
    return graph


_CATEGORIES = ("cs.CL", "cs.AI", "cs.LG", "cs.CV", "cs.IR", "cs.SE", "cs.RO", "stat.ML", "cs.CR", "cs.DB")
_TYPES = tuple(EntityType)
_ROLES = (Role.INTRODUCES, Role.EVALUATES_ON, Role.USES, Role.USES, Role.COMPARES_WITH, Role.MENTIONS)


def synthetic_graph(n: int, *, seed: int = 0) -> Graph:
    """A graph of about ``n`` explorer nodes: papers, authors, entities, results, categories.

    Authors and entities are reused with a skew (a few very common, most rare), as in real
    collections, so degrees follow a long tail.
    """
    rng = random.Random(seed)
    n_papers = max(1, int(n * 0.36))
    n_authors = max(1, int(n * 0.3))
    n_entities = max(1, int(n * 0.24))
    n_results = max(0, n - n_papers - n_authors - n_entities - len(_CATEGORIES))
    authors = [Author(f"Author {i:05d}") for i in range(n_authors)]
    entities = [_entity(f"Entity {i:05d}", _TYPES[i % len(_TYPES)], (f"E{i}",)) for i in range(n_entities)]
    resolve = _resolver(entities)
    graph = new_graph()

    def skewed(items: list, k: int, first: int) -> list:
        picks = {items[first % len(items)]}
        while len(picks) < min(k, len(items)):
            picks.add(items[min(int(rng.paretovariate(1.2)) - 1, len(items) - 1) if rng.random() < 0.4 else rng.randrange(len(items))])
        return sorted(picks, key=lambda x: str(x))

    results_left = n_results
    for p in range(n_papers):
        cats = tuple(skewed(list(_CATEGORIES), rng.randint(1, 2), p))
        paper_authors = tuple(skewed(authors, rng.randint(1, 4), p))
        paper_entities = skewed(entities, rng.randint(1, 4), p)
        abstract = " ".join(f"We study {e.label}." for e in paper_entities)
        mentions = []
        for e in paper_entities:
            start = abstract.index(e.label)
            mentions.append(Mention(e.label, e.label, e.type, start, start + len(e.label), Field.ABSTRACT, rng.choice(_ROLES), 0.7))
        results = []
        quota = results_left // max(1, n_papers - p)
        if results_left and (quota or rng.random() < results_left / max(1, n_papers - p)):
            results.append(Result(Decimal(f"{rng.randint(100, 999) / 10}"), f"{paper_entities[0].label} scores", paper_entities[0].label,
                                  paper_entities[-1].label, None, "%", Field.ABSTRACT, 0, 10, 0.6))
            results_left -= 1
        record = Record(f"p{p}", f"Synthetic paper {p:05d}", abstract, 2015 + p % 11, cats, cats[0], paper_authors,
                        arxiv_id=f"{2000 + p % 11:04d}.{p:05d}")
        add_all(graph, record_triples(record, Extraction(record.id, tuple(mentions), tuple(results), (), "synthetic"), resolve))
    for entity in entities:
        add_all(graph, entity_triples(entity))
    return graph


# What the explorer shows, by the ontology: the typed things people look at (a category only
# when a paper is in it; not mentions, extractors or the upper levels of the category scheme)
# and the relations between them, under the explorer's names.
_PREFIXES = """
PREFIX skg: <https://w3id.org/scholarkg/ontology#>
PREFIX skos: <http://www.w3.org/2004/02/skos/core#>
PREFIX dcterms: <http://purl.org/dc/terms/>
"""
_NODES = _PREFIXES + """
SELECT DISTINCT ?node ?kind WHERE {
  {
    VALUES (?class ?kind) {
      (skg:Author "Author") (skg:Paper "Paper") (skg:Benchmark "Benchmark") (skg:Dataset "Dataset")
      (skg:Model "Model") (skg:Method "Method") (skg:Task "Task") (skg:Metric "Metric")
      (skg:Result "Result") (skg:Improvement "Improvement") (skg:CodeRepository "CodeRepository") (skg:ProjectPage "ProjectPage")
      (skg:WebResource "WebResource")
    }
    ?node a ?class .
  } UNION {
    ?paper dcterms:subject ?node . ?node a skos:Concept . BIND("Category" AS ?kind)
  }
  FILTER(isIRI(?node))
}
"""
_LINKS = _PREFIXES + """
SELECT DISTINCT ?s ?relation ?o WHERE {
  VALUES (?p ?relation) {
    (dcterms:creator "author") (dcterms:subject "category") (skg:introduces "introduces")
    (skg:evaluatesOn "evaluatesOn") (skg:uses "uses") (skg:comparesWith "comparesWith")
    (skg:mentions "mentions") (skg:reportsResult "reportsResult") (skg:reportsImprovement "reportsImprovement") (skg:baseline "baseline") (skg:model "model")
    (skg:benchmark "benchmark") (skg:metric "metric") (skg:variantOf "variantOf")
    (skg:derivedFrom "derivedFrom") (skg:hasCodeRepository "codeRepository")
    (skg:hasProjectPage "projectPage")
  }
  ?s ?p ?o .
}
"""


def expected_nodes(graph: Graph) -> dict[str, str]:
    """The explorer's nodes of ``graph``: IRI -> kind."""
    return {str(row.node): str(row.kind) for row in graph.query(_NODES)}


def expected_links(graph: Graph) -> set[tuple[str, str, str]]:
    """The explorer's links of ``graph``: (source IRI, relation, target IRI), both ends nodes."""
    nodes = expected_nodes(graph)
    links = {(str(row.s), str(row.relation), str(row.o)) for row in graph.query(_LINKS)}
    return {(s, rel, o) for s, rel, o in links if s in nodes and o in nodes}


def expected_degrees(graph: Graph) -> dict[str, int]:
    """How many explorer links each explorer node of ``graph`` has (in and out)."""
    degree = dict.fromkeys(expected_nodes(graph), 0)
    for s, _, o in expected_links(graph):
        degree[s] += 1
        degree[o] += 1
    return degree
