"""The store's search index, and named queries with their parameters written into the text
(what the served app runs and shows), checked against the real store of the seed."""

from __future__ import annotations

import pytest
from storekit import comparable
from test_store import PARAMETER_VALUES

from scholarkg.sparql import inline_values, named_queries, run_query
from scholarkg.store import GraphStore
from scholarkg.store.read import run_store_query
from scholarkg.store.search import SEARCH_GRAPH, bucket, fold, prefixes, search_key

SEARCH = """PREFIX skg: <https://w3id.org/scholarkg/ontology#>
SELECT ?node ?type ?rank WHERE {
  GRAPH <%s> { ?e skg:searchPrefix "%s" ; skg:searchKey ?key ; skg:searchFor ?node ; skg:searchType ?type ; skg:searchRank ?rank }
  FILTER(CONTAINS(?key, "%s"))
}"""


def _search(store, typed):
    text = SEARCH % (SEARCH_GRAPH, bucket(typed), " " + fold(typed))
    return {(r[0].value, r[1].value, int(r[2].value)) for r in store.ox.query(text, use_default_graph_as_union=True)}


def test_folding_makes_words_of_letters_and_digits():
    assert fold("BrowseComp-ZH") == "browsecomp zh"
    assert fold("  Agents’ Last   Exam ") == "agents last exam"
    assert fold("Ré-ranking (RÉSUMÉ)") == "re ranking resume"
    assert search_key("GSM8K") == " gsm8k"
    assert prefixes("Qwen 3-4B and R1") == {"qwe", "3", "4b", "and", "r1"}
    assert bucket("  graph neural") == "gra" and bucket("--") is None


def test_every_author_paper_entity_and_category_is_found_by_what_people_type(seed_store, seed_graph):
    with GraphStore(seed_store) as store:
        rows = [(r[0].value, r[1].value, r[2].value) for r in store.ox.query(
            f"SELECT ?node ?type ?text WHERE {{ GRAPH <{SEARCH_GRAPH}> {{ ?e <https://w3id.org/scholarkg/ontology#searchFor> ?node ;"
            " <https://w3id.org/scholarkg/ontology#searchType> ?type } ?node <http://www.w3.org/2000/01/rdf-schema#label> ?text }",
            use_default_graph_as_union=True)]
        assert {t for _, t, _ in rows} >= {"Author", "Paper", "Category", "Benchmark", "Method", "Task"}
        for node, kind, text in rows:
            words = fold(text).split()
            if not words:
                continue
            found = _search(store, " ".join(words[:2]))  # the first words of a name, as typed
            assert (node, kind) in {(n, k) for n, k, _ in found}, text
        # an alias, an arXiv-less title word in mid-title, and case do not matter
        assert any(n.endswith("/entity/group-relative-policy-optimization") for n, _, _ in _search(store, "grpo"))
        assert any(k == "Paper" for _, k, _ in _search(store, "last exam"))
        assert _search(store, "zzqx") == set()


def test_the_index_is_no_part_of_the_knowledge_graph(seed_store, seed_graph, tmp_path):
    with GraphStore(seed_store) as store:
        assert store.index_count() > 0
        assert store.count() == len(seed_graph)
        assert all(getattr(q.graph_name, "value", None) != SEARCH_GRAPH for q in store.quads())
        entity = next(iter(_search(store, "grpo")))[0]
        described = list(store.ox.query(f"DESCRIBE <{entity}>", use_default_graph_as_union=True))
        assert described and not [t for t in described if "search" in t.predicate.value]


@pytest.mark.parametrize("name, values", [
    (name, values)
    for name, query in sorted(named_queries().items())
    for values in [{}] + [{param: value} for param in query.params for value in PARAMETER_VALUES[param]]
])
def test_parameters_written_into_the_text_answer_as_bound_parameters(name, values, seed_graph, seed_store):
    query = named_queries()[name]
    bindings = query.bindings(values)
    text = inline_values(query.text, bindings)
    expected = run_query(seed_graph, query.text, bindings, hidden=tuple(query.params))
    with GraphStore(seed_store) as store:
        got = run_store_query(store, text, {}, hidden=tuple(query.params))
    assert comparable(got.vars, got.rows, query.text) == comparable(expected.vars, expected.rows, query.text)


def test_written_parameters_are_escaped():
    query = named_queries()["papers-by-year"]
    text = inline_values(query.text, {"author": 'x" } ; DROP ALL ; "\\\n'})
    assert 'VALUES (?author) { ("x\\" } ; DROP ALL ; \\"\\\\\\n") }' in text
