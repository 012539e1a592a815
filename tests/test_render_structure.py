"""The explorer chooses its nodes on the graph's compact structure and reads details only
around them: the page is the one the whole networkx graph gives, from rdflib and from a store."""

from __future__ import annotations

import networkx as nx
import pyoxigraph as ox
import pytest
from render_graphs import synthetic_graph

from scholarkg.explorer.htmlpage import _HINT, choose_view
from scholarkg.explorer.page import page_data
from scholarkg.explorer.select import most_connected, select_view
from scholarkg.explorer.structure import read_structure
from scholarkg.explorer.view import to_networkx


@pytest.fixture(scope="module")
def synthetic():
    return synthetic_graph(2500, seed=5)


@pytest.fixture(scope="module")
def synthetic_store(synthetic):
    store = ox.Store()
    store.load(synthetic.serialize(format="nt", encoding="utf-8"), ox.RdfFormat.N_TRIPLES)
    return store


OPTIONS = [
    {},  # the default budget hides part of the graph
    {"max_nodes": 300},
    {"max_nodes": 0},
    {"max_nodes": 60, "types": ["Author", "Benchmark", "Metric"]},  # many components, most of one node
    {"min_degree": 4, "max_nodes": 250},
    {"min_degree": 2, "types": ["Paper", "Model"]},
]


@pytest.mark.parametrize("options", OPTIONS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()) or "default")
@pytest.mark.parametrize("source", ["rdflib", "store"])
def test_the_page_is_the_one_the_whole_graph_gives(synthetic, synthetic_store, source, options):
    graph = synthetic if source == "rdflib" else synthetic_store
    whole = to_networkx(graph)
    expected = page_data(whole, select_view(whole, **options), hint=_HINT)
    details, view = choose_view(graph, **options)
    assert page_data(details, view, hint=_HINT) == expected
    if view.hidden and view.graph.number_of_nodes() <= 300:
        assert len(details.nodes) < 0.8 * whole.number_of_nodes()  # attributes read only around the view


def test_the_structure_chooses_what_most_connected_chooses(synthetic):
    whole = to_networkx(synthetic)
    structure = read_structure(synthetic)
    assert structure.nodes == list(whole.nodes)
    assert structure.degrees(structure.nodes) == dict(whole.degree())
    links = list(structure.edges())
    assert len(links) == len(set(links)) and set(links) == set(whole.edges(keys=True))
    for budget in (1, 17, 500, 2000):
        view, hidden = most_connected(whole, budget)
        choice = structure.choose(max_nodes=budget)
        assert choice.nodes == list(view.nodes) and choice.hidden == hidden and choice.total == len(whole)


def test_components_and_ties_follow_the_same_rules():
    # A small graph written as RDF: components of several sizes, equal degrees everywhere.
    from rdflib import Graph, URIRef
    from rdflib.namespace import RDF

    from scholarkg.graph.vocab import SKG

    g = Graph()
    node = lambda name: URIRef(f"https://example.org/{name}")
    for name in ("p1", "p2", "p3", "p4", "p5", "p6", "p7"):
        g.add((node(name), RDF.type, SKG.Paper))
    for name in ("m1", "m2", "m3"):
        g.add((node(name), RDF.type, SKG.Model))
    for paper, model in (("p1", "m1"), ("p2", "m1"), ("p3", "m2"), ("p4", "m2"), ("p5", "m3"), ("p3", "m3")):
        g.add((node(paper), SKG.uses, node(model)))
    g.add((node("p6"), SKG.uses, node("p6")))  # a link to itself counts twice, as in networkx
    whole = to_networkx(g)
    structure = read_structure(g)
    assert structure.degrees(structure.nodes) == dict(whole.degree())
    components = [sorted(c) for c in nx.connected_components(whole.to_undirected())]
    assert len(components) == 4  # p1-p2-m1, p3-p4-p5-m2-m3, p6, p7
    for budget in range(1, len(whole) + 1):
        view, _ = most_connected(whole, budget)
        assert structure.choose(max_nodes=budget).nodes == list(view.nodes), budget
