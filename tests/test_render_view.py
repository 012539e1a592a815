"""The networkx side of the explorer: the graph of things shown, and the parts drawn
(focus/depth, types, minimum degree, node budget, SPARQL CONSTRUCT subgraph)."""

from __future__ import annotations

import logging
from collections import Counter
from decimal import Decimal

import networkx as nx
import pytest
from render_graphs import enriched_seed, entity_node, expected_degrees, expected_links, expected_nodes, synthetic_graph

from scholarkg.errors import QueryError, UsageError
from scholarkg.graph.builder import add_all, new_graph, record_triples
from scholarkg.model import Author, Extraction, Field, Record, Result
from scholarkg.explorer.select import (
    construct_view,
    find_node,
    keep_min_degree,
    keep_types,
    most_connected,
    neighbourhood,
    parse_types,
    select_view,
)
from scholarkg.explorer.view import to_networkx, value_text

ALE = "Agents' Last Exam"


@pytest.fixture(scope="module")
def rich_rdf(seed_build):
    return enriched_seed(seed_build)


@pytest.fixture(scope="module")
def rich(rich_rdf):
    return to_networkx(rich_rdf)


def _by_label(graph: nx.MultiDiGraph, label: str, kind: str) -> str:
    (node,) = [n for n, a in graph.nodes(data=True) if a.get("label") == label and a["kind"] == kind]
    return node


def test_seed_graph_nodes_and_links(seed_graph):
    graph = to_networkx(seed_graph)
    # Every node and link the ontology says the explorer shows, and nothing else (no mentions,
    # no upper levels of the category scheme), each with its kind and relation.
    assert dict(graph.nodes(data="kind")) == expected_nodes(seed_graph)
    links = [(u, rel, v) for u, v, rel in graph.edges(data="relation")]
    assert len(links) == len(set(links)) and set(links) == expected_links(seed_graph)
    assert dict(graph.degree()) == expected_degrees(seed_graph)
    # The seed profile: 18 papers by one author, in 5 arXiv categories.
    kinds = Counter(kind for _, kind in graph.nodes(data="kind"))
    assert kinds["Paper"] == 18 and kinds["Author"] == 1 and kinds["Category"] == 5
    author = _by_label(graph, "Maojia Song", "Author")
    assert graph.in_degree(author) == 18 and graph.out_degree(author) == 0  # every paper -> author
    assert {rel for *_, rel in graph.in_edges(author, data="relation")} == {"author"}


def test_details_of_papers_entities_and_results(rich, rich_rdf):
    paper = next(a for _, a in rich.nodes(data=True) if a.get("title") == ALE and a["kind"] == "Paper")
    assert paper["year"] == 2026 and "ALE" in paper["abstract"] and paper["categories"]
    benchmark = rich.nodes[_by_label(rich, ALE, "Benchmark")]
    assert benchmark["aliases"] == "ALE"
    result = rich.nodes[_by_label(rich, "0.8%", "Result")]
    assert result["value"] == "0.8" and result["unit"] == "%" and "pass rate" in result["evidence"]
    # A model family: its variants link to it (variant -> family), as the RDF says.
    family = _by_label(rich, "Qwen3", "Model")
    assert family == entity_node("Qwen3")
    variant = _by_label(rich, "Qwen3-8B", "Model")
    assert rich.has_edge(variant, family, key="variantOf") and not rich.has_edge(family, variant)
    incoming = {(u, rel) for u, _, rel in rich.in_edges(family, data="relation")}
    assert incoming == {(s, rel) for s, rel, o in expected_links(rich_rdf) if o == family}


def test_result_labels_give_the_value_and_its_unit():
    """"0.8%" but "12.56 points": a unit that is a word is set off by a space."""
    graph = new_graph()
    abstract = "X reaches 0.8% on Y, gains 12.56 points on Z and fits with 0.998."
    results = tuple(
        Result(Decimal(value), abstract, None, None, None, unit, Field.ABSTRACT, 0, len(abstract), 0.8)
        for value, unit in (("0.8", "%"), ("12.56", "points"), ("0.998", None))
    )
    record = Record("units", "Units", abstract, 2025, ("cs.CL",), "cs.CL", (Author("Ada Example"),))
    add_all(graph, record_triples(record, Extraction(record.id, (), results, (), "test"), lambda _: None))
    view = to_networkx(graph)
    labels = sorted(a["label"] for _, a in view.nodes(data=True) if a["kind"] == "Result")
    assert labels == ["0.8%", "0.998", "12.56 points"]
    assert value_text("48.6", "%") == "48.6%" and value_text("3", "pp") == "3 pp" and value_text("7", None) == "7"
    assert value_text("2.3", "x") == "2.3x"  # a factor


@pytest.mark.parametrize("name", ["ALE", "ale", "agents' last exam", "Agents' Last Exam"])
def test_find_node_by_name_or_alias(rich, name, caplog, monkeypatch):
    # A paper has the same title as the benchmark it introduces: the entity wins, with a warning.
    monkeypatch.setattr(logging.getLogger("scholarkg"), "propagate", True)  # the CLI turns it off
    found = find_node(rich, name)
    assert rich.nodes[found]["kind"] == "Benchmark" and rich.nodes[found]["label"] == ALE
    ambiguous = "names 2 nodes (Benchmark, Paper)" in caplog.text
    assert ambiguous == (name.lower() != "ale")


def test_find_node_by_title_arxiv_id_and_iri(rich):
    hostile = find_node(rich, "2501.00002")
    assert rich.nodes[hostile]["kind"] == "Paper" and "Robust agents" in rich.nodes[hostile]["title"]
    assert find_node(rich, hostile) == hostile
    assert rich.nodes[find_node(rich, "maojia song")]["kind"] == "Author"


def test_find_node_unknown_suggests_close_names(rich):
    with pytest.raises(UsageError, match="no node named 'BrowseCmp'.*'BrowseComp'"):
        find_node(rich, "BrowseCmp")


def test_neighbourhood_depths(rich):
    ale = _by_label(rich, ALE, "Benchmark")
    assert set(neighbourhood(rich, ale, 0)) == {ale}
    one = neighbourhood(rich, ale, 1)
    kinds_one = Counter(kind for _, kind in one.nodes(data="kind"))
    assert kinds_one == Counter({"Benchmark": 1, "Paper": 2, "Result": 1})
    two = neighbourhood(rich, ale, 2)
    assert set(one) < set(two)
    # Depth 2 reaches the author and the model through the papers and the result.
    assert _by_label(rich, "Maojia Song", "Author") in two and _by_label(rich, "Qwen3-8B", "Model") in two
    assert _by_label(rich, "Qwen3", "Model") not in two  # three links away
    # Links among the kept nodes are kept; the view is a copy, not a live view.
    assert two.number_of_edges() == rich.subgraph(two.nodes).number_of_edges()
    two.remove_node(ale)
    assert ale in rich


def test_types(rich, rich_rdf):
    assert parse_types(["benchmark", " Model", "repository"]) == ["Benchmark", "Model", "CodeRepository"]
    kept = keep_types(rich, ["Benchmark", "Model"])
    # Exactly the benchmarks and models of the graph, with the links among them.
    wanted = {n for n, kind in expected_nodes(rich_rdf).items() if kind in ("Benchmark", "Model")}
    assert set(kept) == wanted and len(wanted) < len(rich)
    links = {(u, rel, v) for u, v, rel in kept.edges(data="relation")}
    assert links == {(s, rel, o) for s, rel, o in expected_links(rich_rdf) if s in wanted and o in wanted}
    assert (entity_node("Qwen3-8B"), "variantOf", entity_node("Qwen3")) in links
    # The focus node is kept whatever its kind.
    paper = _by_label(rich, ALE, "Paper")
    assert set(keep_types(rich, ["Benchmark", "Model"], keep=[paper])) == wanted | {paper}
    with pytest.raises(UsageError, match="unknown node type 'Gadget'"):
        parse_types(["Gadget"])


def test_min_degree_counts_links_before_removal(rich):
    kept = keep_min_degree(rich, 3)
    degree = dict(rich.degree())
    assert set(kept) == {n for n, d in degree.items() if d >= 3}
    assert len(kept) < len(rich)
    ada = _by_label(rich, "Ada Example", "Author")
    assert ada in keep_min_degree(rich, 3, keep=[ada])


def test_budget_keeps_the_most_connected_connected_part():
    graph = to_networkx(synthetic_graph(600, seed=3))
    view, hidden = most_connected(graph, 150)
    assert view.number_of_nodes() == 150 and hidden == graph.number_of_nodes() - 150
    assert nx.is_connected(view.to_undirected())
    hub = max(graph.nodes, key=lambda n: (graph.degree(n), n))
    assert hub in view
    # Taken by degree from the hub outwards: mean degree well above the graph's.
    mean = lambda nodes: sum(graph.degree(n) for n in nodes) / len(nodes)  # noqa: E731
    assert mean(view.nodes) > 1.5 * mean(graph.nodes)
    same, none_hidden = most_connected(graph, 0)
    assert none_hidden == 0 and same.number_of_nodes() == graph.number_of_nodes()


def test_budget_keeps_the_focus_node():
    graph = to_networkx(synthetic_graph(600, seed=3))
    lonely = min(graph.nodes, key=lambda n: (graph.degree(n), n))
    view, _ = most_connected(graph, 50, keep=[lonely])
    assert lonely in view and view.number_of_nodes() == 50


def test_budget_spans_components_largest_first():
    graph = nx.MultiDiGraph()
    for i in range(5):
        graph.add_edge("big", f"leaf{i}", key="uses", relation="uses")
    graph.add_edge("small", "other", key="uses", relation="uses")
    graph.add_node("alone")
    for node in graph:
        graph.nodes[node].update(kind="Model", label=node)
    view, hidden = most_connected(graph, 7)
    assert hidden == 2 and "alone" not in view
    assert {"big", "leaf0", "leaf1", "leaf2", "leaf3", "leaf4"} < set(view)
    assert len({"small", "other"} & set(view)) == 1  # equal degrees: the first by name


QUERY = """
PREFIX skg: <https://w3id.org/scholarkg/ontology#>
PREFIX dcterms: <http://purl.org/dc/terms/>
CONSTRUCT { ?paper skg:introduces ?entity . ?paper dcterms:title ?title }
WHERE { ?paper skg:introduces ?entity ; dcterms:title ?title }
"""


def _introduced(rdf) -> set[tuple[str, str, str]]:
    """The links QUERY constructs, found by a SELECT with the same pattern."""
    rows = rdf.query(
        "PREFIX skg: <https://w3id.org/scholarkg/ontology#> PREFIX dcterms: <http://purl.org/dc/terms/> "
        "SELECT ?paper ?entity WHERE { ?paper skg:introduces ?entity ; dcterms:title ?title }"
    )
    return {(str(row.paper), "introduces", str(row.entity)) for row in rows}


def test_query_subgraph_is_what_construct_returns(rich_rdf, rich):
    view = construct_view(rich_rdf, rich, QUERY)
    expected = _introduced(rich_rdf)
    assert {(u, rel, v) for u, v, rel in view.edges(data="relation")} == expected
    assert view.number_of_edges() == len(expected)
    # The nodes are the ends of those links; the titles (literals) are not nodes.
    assert set(view) == {s for s, _, _ in expected} | {o for _, _, o in expected}
    paper, entity = _by_label(rich, ALE, "Paper"), _by_label(rich, ALE, "Benchmark")
    assert view.has_edge(paper, entity, key="introduces")
    assert view.nodes[entity]["label"] == ALE and view.nodes[entity]["aliases"] == "ALE"
    assert view.nodes[paper]["kind"] == "Paper" and "abstract" in view.nodes[paper]  # details from the whole graph


def test_query_view_has_only_the_links_the_query_returns(rich_rdf, rich):
    query = (
        "PREFIX skg: <https://w3id.org/scholarkg/ontology#> "
        "CONSTRUCT { ?paper skg:reportsResult ?result . ?result skg:model ?model } "
        "WHERE { ?paper skg:reportsResult ?result . ?result skg:model ?model }"
    )
    view = construct_view(rich_rdf, rich, query)
    rows = rich_rdf.query(query.replace("CONSTRUCT { ?paper skg:reportsResult ?result . ?result skg:model ?model }",
                                        "SELECT ?paper ?result ?model"))
    expected = {link for r in rows for link in ((str(r.paper), "reportsResult", str(r.result)),
                                                (str(r.result), "model", str(r.model)))}
    assert {(u, rel, v) for u, v, rel in view.edges(data="relation")} == expected
    # The paper also uses the model: a link of the whole graph that the query did not return.
    paper, model = _by_label(rich, "Small models on Agents' Last Exam", "Paper"), _by_label(rich, "Qwen3-8B", "Model")
    assert paper in view and model in view and rich.has_edge(paper, model, key="uses")
    assert not view.has_edge(paper, model)


def test_query_must_construct_and_stay_inside(rich_rdf, rich):
    with pytest.raises(UsageError, match="CONSTRUCT or DESCRIBE"):
        construct_view(rich_rdf, rich, "SELECT * WHERE { ?s ?p ?o } LIMIT 1")
    with pytest.raises(QueryError, match="SERVICE"):
        construct_view(rich_rdf, rich, "CONSTRUCT { ?s ?p ?o } WHERE { SERVICE <http://example.org/> { ?s ?p ?o } }")


def test_select_view_composes_in_order(rich_rdf, rich):
    view = select_view(rich, focus="ALE", depth=2, types=["Paper", "Author"], max_nodes=3)
    focus = _by_label(rich, ALE, "Benchmark")
    assert view.focus == focus and focus in view.graph  # the focus survives the type filter
    assert view.graph.number_of_nodes() == 3 and view.hidden == view.total - 3
    assert {kind for _, kind in view.graph.nodes(data="kind")} <= {"Paper", "Author", "Benchmark"}
    assert "2 links around Agents' Last Exam" in view.description and "types Paper, Author" in view.description
    # The query first, then the degree counted in the query's subgraph (not in the whole graph).
    queried = select_view(rich, rdf=rich_rdf, query=QUERY, min_degree=2)
    degree = Counter(end for s, _, o in _introduced(rich_rdf) for end in (s, o))
    assert set(queried.graph) == {n for n, d in degree.items() if d >= 2} and queried.hidden == 0
    assert queried.total == queried.graph.number_of_nodes()
    # Agents' Last Exam is introduced once, though it has more links in the whole graph.
    assert focus not in queried.graph and rich.degree(focus) >= 2
    assert queried.description == "the query's subgraph; nodes with 2+ links"
