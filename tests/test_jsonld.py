"""JSON-LD: a published context with a term for everything the graph uses, compact node
objects JSON users can read, and a document that expands to exactly the graph it came from."""

from __future__ import annotations

import io
import json
import random

import pyoxigraph as ox
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from rdflib import Graph, Literal, URIRef
from rdflib.namespace import DCTERMS, OWL, RDF, SKOS, XSD

from scholarkg.graph.vocab import SKG
from scholarkg.jsonld import context, jsonld_bytes
from scholarkg.serialize import serialize

BIB = r"""
@article{a, title = {{BERT} for {N}orwegian}, author = {L{\o}fstedt, Per and Fu{\ss}, Anna}, year = 2021,
  journal = {J. Nordic Lang.}, volume = 3, number = {2}, pages = {1--20}, doi = {10.1000/x}, url = {https://example.org/a},
  abstract = {We introduce NorBench, a benchmark for Norwegian question answering.}}
@inproceedings{b, title = {Second}, author = {Ada Lovelace}, booktitle = {Proc. Conf.}, year = 2020, eprint = {2001.01234},
  archivePrefix = {arXiv}, primaryClass = {cs.CL}}
"""


@pytest.fixture(scope="module")
def rich():
    from rich_graph import rich_graph

    return rich_graph()


@pytest.fixture(scope="module")
def bib_graph(tmp_path_factory):
    from scholarkg.pipeline import build

    path = tmp_path_factory.mktemp("bib") / "refs.bib"
    path.write_text(BIB, encoding="utf-8")
    return build([path]).graph


def _expand(ctx: dict, compact: str) -> str:
    prefix, _, rest = compact.partition(":")
    return ctx[prefix] + rest if prefix in ctx and isinstance(ctx[prefix], str) and ctx[prefix].endswith(("/", "#")) else compact


def _nt(graph_or_quads) -> set[str]:
    """Statements as canonical N-Triples lines (parsed by pyoxigraph, so literal forms agree)."""
    if isinstance(graph_or_quads, Graph):
        data = graph_or_quads.serialize(format="nt", encoding="utf-8")
        graph_or_quads = ox.parse(data, format=ox.RdfFormat.N_TRIPLES)
    return {f"{q.subject} {q.predicate} {q.object} ." for q in graph_or_quads}


@pytest.mark.parametrize("name", ["seed", "rich", "bib"])
def test_the_context_has_a_term_for_every_class_and_property_used(seed_graph, rich, bib_graph, name, repo_root):
    graph = {"seed": seed_graph, "rich": rich, "bib": bib_graph}[name]
    ctx = context()
    defined = {}
    for term, definition in ctx.items():
        iri = definition if isinstance(definition, str) else definition["@id"]
        defined[_expand(ctx, iri)] = (term, definition)
    predicates = {str(p) for p in graph.predicates()} - {str(RDF.type)}
    classes = {str(o) for o in graph.objects(None, RDF.type)}
    assert predicates - set(defined) == set()
    assert classes - set(defined) == set()
    # Object properties are coerced to IRIs; typed values carry their datatype.
    ontology = Graph().parse(repo_root / "ontology" / "scholarkg.ttl")
    for p in predicates:
        term, definition = defined[p]
        coercion = None if isinstance(definition, str) else definition.get("@type")
        objects = {type(o) for o in graph.objects(None, URIRef(p))}
        if objects == {URIRef}:
            assert coercion == "@id", term
        if (URIRef(p), RDF.type, OWL.ObjectProperty) in ontology:
            assert coercion == "@id", term
        if (URIRef(p), RDF.type, OWL.DatatypeProperty) in ontology and coercion is not None:
            assert coercion != "@id", term
    assert json.loads((repo_root / "ontology" / "context.jsonld").read_text(encoding="utf-8")) == {"@context": ctx}


def test_nodes_read_as_plain_json(bib_graph):
    doc = json.loads(serialize(bib_graph, "jsonld"))
    assert doc["@context"] == context()
    papers = [n for n in doc["@graph"] if "Paper" in n.get("@type", [])]
    first = next(n for n in papers if n["title"] == "BERT for Norwegian")
    assert first["@type"] == ["AcademicArticle", "JournalArticle", "Paper", "ScholarlyArticle"]
    assert first["year"] == "2021" and first["volume"] == "3" and first["pages"] == "1–20"
    assert first["doi"] == "10.1000/x" and first["page"] == "https://example.org/a"
    assert first["isPartOf"].startswith("id:venue/") and isinstance(first["creator"], list)
    authorships = [n for n in doc["@graph"] if n.get("@type") == "Authorship"]
    assert sorted(a["authorPosition"] for a in authorships) == [1, 1, 2]  # JSON numbers
    person = next(n for n in doc["@graph"] if n.get("familyName") == "Løfstedt")
    assert person["givenName"] == "Per" and "Person" in person["@type"]
    # No key is a compact IRI: every statement found a term.
    assert not [k for n in doc["@graph"] for k in n if ":" in k]


@pytest.mark.parametrize("name", ["seed", "rich", "bib"])
def test_pyld_expands_it_to_the_same_graph_as_the_turtle(seed_graph, rich, bib_graph, name):
    from pyld import jsonld

    graph = {"seed": seed_graph, "rich": rich, "bib": bib_graph}[name]
    doc = json.loads(serialize(graph, "jsonld"))
    nquads = jsonld.to_rdf(jsonld.expand(doc), {"format": "application/n-quads"})
    from_pyld = _nt(ox.parse(nquads.encode("utf-8"), format=ox.RdfFormat.N_QUADS))
    turtle = serialize(graph, "turtle")
    from_turtle = _nt(ox.parse(turtle, format=ox.RdfFormat.TURTLE))
    assert from_pyld == from_turtle
    assert len(from_turtle) == len(graph)
    from_oxigraph = _nt(ox.parse(serialize(graph, "jsonld"), format=ox.RdfFormat.JSON_LD))
    assert from_oxigraph == from_turtle
    assert _nt(Graph().parse(data=serialize(graph, "jsonld"), format="json-ld")) == from_turtle


def test_values_that_fit_no_term_are_kept_exactly():
    from pyld import jsonld

    s = URIRef("https://w3id.org/scholarkg/id/paper/t-0")
    triples = [
        (s, DCTERMS.title, Literal("Titre", lang="fr")),  # a language on a plain term
        (s, DCTERMS.creator, Literal("not an IRI")),  # a literal where an IRI is expected
        (s, SKG.startOffset, Literal("007", datatype=XSD.integer)),  # not in canonical form
        (s, SKG.startOffset, Literal("3.5", datatype=XSD.decimal)),  # another datatype
        (s, DCTERMS.subject, URIRef("urn:isbn:0451450523")),
        (s, URIRef("https://example.org/vocab#unknown"), Literal("x")),
        (s, RDF.type, URIRef("https://example.org/vocab#Thing")),
        (s, SKG.arxivId, URIRef("https://arxiv.org/abs/1")),  # an IRI where text is expected
    ]
    g = Graph()
    for t in triples:
        g.add(t)
    data = jsonld_bytes(triples)
    doc = json.loads(data)
    nquads = jsonld.to_rdf(jsonld.expand(doc), {"format": "application/n-quads"})
    assert _nt(ox.parse(nquads.encode("utf-8"), format=ox.RdfFormat.N_QUADS)) == _nt(g)
    assert _nt(ox.parse(data, format=ox.RdfFormat.JSON_LD)) == _nt(g)


def test_bytes_depend_only_on_the_graph(bib_graph):
    triples = list(bib_graph)
    first = jsonld_bytes(triples)
    random.Random(7).shuffle(triples)
    assert jsonld_bytes(triples) == first == serialize(bib_graph, "jsonld")


def test_several_values_of_a_property_are_in_the_order_of_their_json_text():
    s = URIRef("https://w3id.org/scholarkg/id/entity/t-0")
    names = ["ab", "ab!", "ab c", "ab\tc", 'ab"c', "ab\\c", "abc", "Ab", "ab\u00e9", "a"]
    triples = [(s, SKOS.altLabel, Literal(n)) for n in names]
    triples.append((s, SKOS.altLabel, Literal("ab", lang="en")))  # written as an object among the strings
    node = json.loads(jsonld_bytes(triples))["@graph"][0]
    (values,) = [v for k, v in node.items() if not k.startswith("@")]
    assert len(values) == len(names) + 1
    assert values == sorted(values, key=lambda v: json.dumps(v, ensure_ascii=False, sort_keys=True))


_ANY = st.text(st.characters(blacklist_categories=("Cs",)), max_size=12)  # any text but lone surrogates
_OBJECTS = st.one_of(
    _ANY.map(ox.Literal),
    st.tuples(_ANY, st.sampled_from(["en", "de-CH"])).map(lambda x: ox.Literal(x[0], language=x[1])),
    st.tuples(_ANY, st.sampled_from([XSD.integer, XSD.gYear, XSD.decimal, "https://example.org/type"])).map(
        lambda x: ox.Literal(x[0], datatype=ox.NamedNode(str(x[1])))),
    st.integers(-10**6, 10**6).map(lambda n: ox.Literal(str(n), datatype=ox.NamedNode(str(XSD.integer)))),
    st.sampled_from(["https://example.org/a", "https://w3id.org/scholarkg/id/entity/x"]).map(ox.NamedNode),
)


@settings(max_examples=150, deadline=None)
@example(statements=[("a", DCTERMS.title, ox.Literal('a\tb\x08c\x0cd\x01e\x7ff\u2028g\x85h"i\\j\nk\rl'))])  # every escape
@given(statements=st.lists(st.tuples(st.sampled_from("ab"), st.sampled_from([SKOS.altLabel, DCTERMS.title, SKG.paperCount, DCTERMS.creator, RDF.type]),
                                     _OBJECTS), min_size=1, max_size=8))
def test_a_snapshot_is_written_as_the_json_ld_of_its_statements(statements):
    # a snapshot (sorted N-Triples lines as pyoxigraph writes them: escapes, language tags,
    # datatypes) read line by line gives the same document as the statements themselves
    from scholarkg.store.snapshot import write_jsonld

    triples = list(dict.fromkeys(  # a graph: each statement once
        (ox.NamedNode("https://w3id.org/scholarkg/id/paper/t-" + s), ox.NamedNode(str(p)), o) for s, p, o in statements))
    lines = sorted({f"{s} {p} {o} .\n" for s, p, o in triples})
    out = io.BytesIO()
    write_jsonld([("".join(lines[:3])).encode("utf-8"), ("".join(lines[3:])).encode("utf-8")], out)
    assert out.getvalue() == jsonld_bytes(triples)
