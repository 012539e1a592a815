"""The store's search index, and named queries with their parameters written into the text
(what the served app runs and shows), checked against the real store of the seed."""

from __future__ import annotations

import logging
import re

import pytest
from storekit import comparable, extract, record, write_jsonl
from test_store import PARAMETER_VALUES

from scholarkg.named import inline_values, named_queries
from scholarkg.sparql import run_query
from scholarkg.store import GraphStore, build_store
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


def _index(store_path) -> set:
    import pyoxigraph

    with GraphStore(store_path) as store:
        return {str(q) for q in store.ox.quads_for_pattern(None, None, None, pyoxigraph.NamedNode(SEARCH_GRAPH))}


def _rebuilt(tmp_path, caplog, old: list[dict], new: list[dict]):
    """A store built from ``old``, then from ``new``: checks that its index is the one a fresh
    build of ``new`` makes; returns the store and the search index's log line of the second build."""
    store = tmp_path / "s"
    build_store([write_jsonl(tmp_path / "old.jsonl", old)], store, extractor=extract)
    with caplog.at_level(logging.INFO, logger="scholarkg.store.search"):
        build_store([write_jsonl(tmp_path / "new.jsonl", new)], store, extractor=extract)
    fresh = tmp_path / "fresh"
    build_store([tmp_path / "new.jsonl"], fresh, extractor=extract)
    assert _index(store) == _index(fresh)
    return store, next(r.getMessage() for r in caplog.records if r.name == "scholarkg.store.search")


def test_a_build_rewrites_only_the_index_entries_that_changed_and_ends_where_a_fresh_build_does(tmp_path, caplog):
    """Adding a record, renaming a paper and dropping an author rewrite the entries of the
    nodes that changed and of those whose rank moved (the shared author, the entities), remove
    the entry of the author no paper names any more, and leave the index a fresh build of the
    same records makes."""
    papers = [record(i, "We train with GRPO on MMLU.", authors=(f"Author {i}", "Ada Lovelace")) for i in range(30)]
    changed = [*papers[:3], dict(papers[3], title="Sparse retrieval without labels"), papers[4],
               dict(papers[5], authors=["Ada Lovelace"]), *papers[6:],
               record(99, "PPO on ALE.", authors=("Grace Hopper", "Ada Lovelace"))]
    store, message = _rebuilt(tmp_path, caplog, papers, changed)
    counts = re.fullmatch(r"search index: ([\d,]+) nodes, ([\d,]+) entries written, ([\d,]+) removed", message)
    assert counts, message
    nodes, written, removed = (int(n.replace(",", "")) for n in counts.groups())
    assert 0 < written < nodes / 4 and removed == 1, message
    with GraphStore(store) as s:
        assert _search(s, "sparse retrieval") and _search(s, "grace hopper")
        assert not _search(s, "paper number 3")  # the old title
        assert not _search(s, "author 5")


def test_a_build_that_changes_most_entries_rewrites_the_index_whole_and_ends_where_a_fresh_build_does(tmp_path, caplog):
    papers = [record(i, "We train with GRPO on MMLU.", authors=(f"Author {i}",)) for i in range(12)]
    renamed = [dict(p, title=f"Renamed study {i}", authors=[f"Writer {i}"]) for i, p in enumerate(papers)]
    _, message = _rebuilt(tmp_path, caplog, papers, renamed)
    assert re.fullmatch(r"search index: [\d,]+ nodes", message), message


def test_an_index_made_another_way_is_rewritten_whole_then_kept_up_to_date(tmp_path, caplog):
    """A store whose index another version made (its entries may be made otherwise) gets a whole
    new index at its next build; the build after that looks again only at what changed."""
    import sqlite3

    papers = [record(i, "We train with GRPO on MMLU.", authors=(f"Author {i}",)) for i in range(12)]
    store = tmp_path / "s"
    build_store([write_jsonl(tmp_path / "a.jsonl", papers)], store, extractor=extract)
    with sqlite3.connect(store / "manifest.sqlite") as db:
        db.execute("UPDATE meta SET value = 'older' WHERE name = 'search format'")
    messages = []
    for n, extra in enumerate((record(50, "PPO on ALE."), record(51, "DPO on GSM8K."))):
        caplog.clear()
        with caplog.at_level(logging.INFO, logger="scholarkg.store.search"):
            build_store([write_jsonl(tmp_path / f"b{n}.jsonl", [extra])], store, extractor=extract)
        messages.append(next(r.getMessage() for r in caplog.records if r.name == "scholarkg.store.search"))
        with sqlite3.connect(store / "manifest.sqlite") as db:
            assert db.execute("SELECT COUNT(*) FROM search_touched").fetchone() == (0,)
    assert re.fullmatch(r"search index: [\d,]+ nodes", messages[0]), messages
    assert re.fullmatch(r"search index: [\d,]+ nodes, [1-9]\d* entries written, 0 removed", messages[1]), messages
    fresh = tmp_path / "fresh"
    build_store([tmp_path / "a.jsonl", tmp_path / "b0.jsonl", tmp_path / "b1.jsonl"], fresh, extractor=extract)
    assert _index(store) == _index(fresh)
