"""Every named query gives a sensible, non-empty answer on the seed graph."""

from __future__ import annotations

from decimal import Decimal

import pytest

from scholarkg import api
from scholarkg.errors import QueryError
from scholarkg.named import named_queries
from scholarkg.sparql import check_query


def rows(graph, name, **params):
    return api.query(graph, named=name, **params).to_dicts()


def test_at_least_ten_named_queries_with_descriptions():
    queries = named_queries()
    assert len(queries) >= 10
    for q in queries.values():
        assert q.title and q.description, q.name
        assert all(f"?{p}" in q.text for p in q.params), q.name


def test_papers_by_year(seed_graph):
    found = rows(seed_graph, "papers-by-year", author="maojia SONG")
    assert len(found) == 18
    years = [int(r["year"]) for r in found]
    assert years == sorted(years, reverse=True)
    assert rows(seed_graph, "papers-by-year", author="Nobody Here") == []


def test_categories(seed_graph):
    found = {r["category"]: r for r in rows(seed_graph, "categories")}
    assert set(found) == {"cs.AI", "cs.CL", "cs.CV", "cs.LG", "cs.SE"}
    assert found["cs.CL"]["papers"] == "9" and found["cs.CL"]["name"] == "Computation and Language"


def test_benchmarks_introduced(seed_graph):
    found = {r["label"]: r for r in rows(seed_graph, "benchmarks-introduced", author="Maojia Song")}
    assert "Agents' Last Exam" in found
    assert found["Agents' Last Exam"]["title"] == "Agents' Last Exam"
    assert len(found) >= 4


def test_methods_introduced(seed_graph):
    labels = {r["label"] for r in rows(seed_graph, "methods-introduced")}
    assert any("E-GRPO" == label or "Entity-aware Group Relative Policy Optimization" == label for label in labels)


def test_models_used(seed_graph):
    models = {r["model"] for r in rows(seed_graph, "models-used")}
    assert {"Qwen 3-4B", "Qwen 3-30B"} <= models


def test_benchmarks_ranked(seed_graph):
    ranked = rows(seed_graph, "benchmarks-ranked")
    top = {r["benchmark"]: int(r["papers"]) for r in ranked}
    assert top.get("BrowseComp", 0) >= 2 and "BrowseComp-en" in top  # a variant, named as written
    counts = [int(r["papers"]) for r in ranked]
    assert counts == sorted(counts, reverse=True)


def test_shared_entities(seed_graph):
    shared = {r["label"]: int(r["papers"]) for r in rows(seed_graph, "shared-entities")}
    assert all(n >= 2 for n in shared.values())
    assert any(label in shared for label in ("GRPO", "Group Relative Policy Optimization"))


def test_shared_entities_names_first_and_by_kind(seed_graph):
    shared = rows(seed_graph, "shared-entities")
    kinds = [r["entityKind"] for r in shared]
    assert set(kinds) <= {"name", "concept"} and "name" in kinds
    assert kinds == sorted(kinds, key=lambda k: k != "name")  # every name before every concept
    names = rows(seed_graph, "shared-entities", kind="name")
    assert names and {r["entityKind"] for r in names} == {"name"}
    assert {r["label"] for r in names} | {r["label"] for r in rows(seed_graph, "shared-entities", kind="concept")} == \
        {r["label"] for r in shared}


def test_author_entities_by_kind(seed_graph):
    concepts = rows(seed_graph, "author-entities", author="Maojia Song", kind="concept")
    assert {r["entityKind"] for r in concepts} <= {"concept"}
    names = {r["label"] for r in rows(seed_graph, "author-entities", author="Maojia Song", kind="name")}
    assert "Agents' Last Exam" in names and not names & {r["label"] for r in concepts}


def test_results_table(seed_graph):
    results = rows(seed_graph, "results")
    browsecomp = [r for r in results if r.get("benchmark") == "BrowseComp" and Decimal(r["value"]) == Decimal("48.6")]
    assert browsecomp and browsecomp[0]["title"].startswith("Search More, Think Less")
    # values are shown as written ("82.0", not "82") and appear in their evidence
    assert all(r["value"] in r["evidence"] for r in results)


def test_improvements_are_not_results(seed_graph):
    improvements = rows(seed_graph, "improvements")
    assert improvements and all(r["change"] in {"increase", "decrease"} for r in improvements)
    assert all(r["value"] in r["evidence"] for r in improvements)
    scores = {(r.get("model"), r["value"], r["evidence"]) for r in rows(seed_graph, "results")}
    assert not scores & {(r.get("model"), r["value"], r["evidence"]) for r in improvements}


def test_code_repositories(seed_graph):
    urls = {r["url"]: r["kind"] for r in rows(seed_graph, "code-repositories")}
    assert urls["https://github.com/FoundationAgents/AutoEnv"] == "code"
    assert urls["https://social-ai-studio.github.io/CHAIN/"] == "project page"


def test_coauthors(seed_graph):
    found = rows(seed_graph, "coauthors", author="Maojia Song")
    assert found[0]["authorName"] == "Maojia Song" and found[0]["papers"] == "18"


def test_entity_papers_finds_alias(seed_graph):
    found = rows(seed_graph, "entity-papers", entity="ALE")
    assert {(r["label"], r["role"]) for r in found} >= {("Agents' Last Exam", "introduces")}


def test_every_query_taking_an_entity_resolves_aliases(seed_graph):
    for name in ("entity-papers", "evidence", "entity-links"):
        by_alias = {r["label"] for r in rows(seed_graph, name, entity="ALE")}
        by_name = {r["label"] for r in rows(seed_graph, name, entity="agents' last exam")}
        assert by_alias == by_name == {"Agents' Last Exam"}, name


def test_evidence(seed_graph):
    found = rows(seed_graph, "evidence", entity="BrowseComp")
    assert found and all(r["text"].lower().startswith("browsecomp") for r in found)
    assert all(0 <= int(r["start"]) < int(r["end"]) for r in found)


@pytest.mark.parametrize("text", [
    "SELECT * WHERE { SERVICE <http://example.org/sparql> { ?s ?p ?o } }",
    "LOAD <file:///etc/passwd>",
    "SELECT * FROM NAMED <file:///etc/passwd> WHERE { ?s ?p ?o }",
    "INSERT DATA { <a:b> <a:c> <a:d> }",
    "SELECT * WHERE { " + "(" * 300 + "1" + ")" * 300 + " }",
    "SELECT * WHERE { ?s ?p ?o }" + " " * 200_000,
])
def test_unsafe_queries_are_refused(seed_graph, text):
    with pytest.raises(QueryError):
        api.query(seed_graph, text)


def test_keywords_inside_strings_and_names_are_fine():
    check_query('SELECT ?from WHERE { ?s <http://x/load> "SERVICE FROM LOAD" . ?s ?from ?o }  # LOAD')


def _reference_order(names, rows, keys):
    """The order SPARQL's ORDER BY asks for, written as a comparison: the key columns in turn,
    each ascending or descending, then the whole row ascending."""
    from functools import cmp_to_key

    from scholarkg.sparql import _sort_key

    def compare(a, b):
        for name, descending in keys:
            i = names.index(name)
            x, y = _sort_key(a[i]), _sort_key(b[i])
            if x != y:
                return (1 if x > y else -1) * (-1 if descending else 1)
        x, y = tuple(map(_sort_key, a)), tuple(map(_sort_key, b))
        return (x > y) - (x < y)
    return sorted(rows, key=cmp_to_key(compare))


def test_rows_are_ordered_by_their_keys_and_ties_by_their_values():
    from hypothesis import given, settings
    from hypothesis import strategies as st
    from rdflib import Literal, URIRef

    from scholarkg.sparql import order_rows

    terms = st.one_of(st.none(), st.sampled_from([URIRef("http://x/a"), URIRef("http://x/b")]),
                      st.integers(-3, 3).map(Literal), st.sampled_from(["a", "B", "b", ""]).map(Literal),
                      st.sampled_from(["1.5", "2", "-0.5"]).map(lambda v: Literal(v, datatype=URIRef("http://www.w3.org/2001/XMLSchema#decimal"))))
    names = ["p", "q", "r"]
    keys = st.lists(st.tuples(st.sampled_from(names + ["absent"]), st.booleans()), max_size=3, unique_by=lambda k: k[0])

    @settings(max_examples=300, deadline=None)
    @given(st.lists(st.tuples(terms, terms, terms), max_size=25), keys)
    def check(rows, keys):
        shown = [(n, d) for n, d in keys if n in names]
        assert order_rows(names, list(rows), keys) == _reference_order(names, rows, shown)
    check()


def test_the_garbage_collector_is_paused_only_while_rows_are_made_and_ordered():
    import gc

    from rdflib import Literal

    from scholarkg.gcpause import paused_gc
    from scholarkg.sparql import order_rows

    seen = []
    rows = [(Literal(n % 3), Literal(n)) for n in range(10)]
    with paused_gc():
        seen.append(gc.isenabled())
        with paused_gc():
            seen.append(gc.isenabled())
        seen.append(gc.isenabled())
    assert seen == [False, False, False] and gc.isenabled()
    assert order_rows(["a", "b"], rows, [("a", True)])[0] == (Literal(2), Literal(2)) and gc.isenabled()
    gc.disable()
    try:
        order_rows(["a", "b"], rows, [("a", False)])
        assert not gc.isenabled()  # left as it was
    finally:
        gc.enable()


def test_a_variant_written_for_an_engine_is_chosen_only_there(tmp_path):
    from scholarkg.named import _parse_named

    path = tmp_path / "q.rq"
    path.write_text('# title: t\n# description: d\n# param: who = "" : a name\nSELECT ?who WHERE { ?s ?p ?who } # general\n'
                    '#-- variant: who=""\nSELECT ?who WHERE { ?s ?p ?o } # empty\n'
                    '#-- variant: who="" engine=disk\nSELECT ?who WHERE { { SELECT ?s WHERE { ?s ?p ?o } } } # empty on disk\n'
                    '#-- variant: who engine=oxigraph\nSELECT ?who WHERE { ?s ?p ?who } # given, on Oxigraph\n', encoding="utf-8")
    q = _parse_named(path)
    chosen = {(who, engine): q.text_for({"who": who}, engine).rstrip().rpartition("# ")[2]
              for who in ("", "x") for engine in ("disk", "memory", "rdflib")}
    assert chosen == {("", "disk"): "empty on disk", ("", "memory"): "empty", ("", "rdflib"): "empty",
                      ("x", "disk"): "given, on Oxigraph", ("x", "memory"): "given, on Oxigraph", ("x", "rdflib"): "general"}
    path.write_text(path.read_text(encoding="utf-8").replace("engine=disk", "engine=postgres"), encoding="utf-8")
    with pytest.raises(ValueError, match="unknown engine 'postgres'"):
        _parse_named(path)


_EVERY_KIND = """
PREFIX skg: <https://w3id.org/scholarkg/ontology#>
PREFIX dcterms: <http://purl.org/dc/terms/>
PREFIX fabio: <http://purl.org/spar/fabio/>
SELECT ?paper ?absent ?title ?year ?tagged ?odd ?blank WHERE {
  ?paper a skg:Paper ; dcterms:title ?title ; fabio:hasPublicationYear ?year .
  BIND(STRLANG(STR(?year), "en") AS ?tagged)
  BIND(CONCAT("a \\"quoted\\"\\n\\tline é ", STR(?year), " \\\\ 😀", ?title, ?title) AS ?odd)
  BIND(BNODE(STR(?paper)) AS ?blank)
  OPTIONAL { ?paper <urn:scholarkg:nothing> ?absent }
}"""


def test_a_json_answer_is_read_back_by_rdflib_as_the_same_terms(seed_graph):
    import io

    from rdflib.query import Result

    from scholarkg.sparql import run_query

    answer = run_query(seed_graph, _EVERY_KIND)
    read = Result.parse(io.StringIO(answer.format("json")), format="json")
    assert [str(v) for v in read.vars] == answer.vars
    assert len(answer.rows) == 18
    kinds = {type(t).__name__ for row in answer.rows for t in row}
    assert kinds == {"URIRef", "Literal", "BNode", "NoneType"}
    assert [tuple(row) for row in read] == answer.rows
    empty = run_query(seed_graph, "SELECT ?s WHERE { ?s <urn:scholarkg:nothing> ?o }")
    assert list(Result.parse(io.StringIO(empty.format("json")), format="json")) == []


def test_a_table_shows_each_value_on_one_line_under_its_column(seed_graph):
    import re

    from scholarkg.sparql import run_query

    answer = run_query(seed_graph, _EVERY_KIND)
    header, rule, *lines, count = answer.format("table").splitlines()
    assert count == "(18 rows)" and len(lines) == 18
    spans = [m.span() for m in re.finditer("-+", rule)]
    assert rule == "  ".join("-" * (b - a) for a, b in spans)
    assert [header[a:b].strip() for a, b in spans] == answer.vars
    for line, row in zip(lines, answer.rows):
        for (a, b), value in zip(spans, row):
            text = " ".join(("" if value is None else str(value)).split())
            shown = text if len(text) <= 60 else text[:59] + "…"
            assert line[a:b].rstrip() == shown
            assert b - a >= len(shown)
