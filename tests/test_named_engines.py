"""Every named query gives the same rows from the on-disk store, from its in-memory copy and
from rdflib, for every parameter setting; every variant chosen in Python answers as the
query's general text does; answers come in the query's order and page cleanly."""

from __future__ import annotations

import itertools
import json

import pytest
from rdflib import Literal
from storekit import comparable

from scholarkg.pipeline import build, write_outputs
from scholarkg.named import ENGINES, named_queries, split_order
from scholarkg.sparql import order_rows, run_named, run_query
from scholarkg.store import build_store, open_for_query

PARAMETER_VALUES = {
    "author": ("", "maojia song", "Ada Lovelace", "Nobody Atall"),
    "entity": ("", "grpo", "BrowseComp", "ALE", "nothing"),
    "source": ("", "extracted", "curated"),
    "action": ("", "add", "rename"),
    "kind": ("", "name", "concept"),
    "paper": ("", "Agents' Last Exam", "2601.99999", "no such paper"),
    "category": ("", "cs.CL", "CS.AI", "math.XX"),
}
CASES = [(name, {param: value}) for name, q in sorted(named_queries().items()) for param in q.params
         for value in PARAMETER_VALUES[param]]
CASES += [(name, {}) for name, q in sorted(named_queries().items()) if not q.params]
CASES += [("author-entities", {"author": "maojia song", "source": "curated"}),
          ("entity-links", {"entity": "grpo", "source": "extracted"})]

# Co-authors, so that co-author pairs and their counts have something to count; and two papers
# with one title, year and abstract, so that the queries that select DISTINCT rows have
# repeated rows to drop.
EXTRA = [
    {"title": "Group Relative Policy Optimization for Agents", "year": 2024, "authors": ["Maojia Song", "Ada Lovelace"],
     "abstract": "We train agents with GRPO and evaluate them on BrowseComp, reaching 41.2% accuracy."},
    {"title": "Browsing Agents Revisited", "year": 2025, "authors": ["Ada Lovelace", "Alan Turing", "Maojia Song"],
     "abstract": "We introduce WebTrail, a benchmark for browsing agents, and compare GRPO with PPO on BrowseComp."},
    {"arxiv_id": "2503.00042", "title": "Browsing Agents Revisited", "year": 2025, "authors": ["Grace Hopper"],
     "abstract": "We introduce WebTrail, a benchmark for browsing agents, and compare GRPO with PPO on BrowseComp."},
]


@pytest.fixture(scope="module")
def sources(tmp_path_factory, seed_path, repo_root):
    """The seed with two co-authored records and the demo curation file: a store on disk, its
    in-memory copy, and the build folder read by rdflib."""
    folder = tmp_path_factory.mktemp("engines")
    extra = folder / "extra.jsonl"
    extra.write_text("".join(json.dumps(r) + "\n" for r in EXTRA), encoding="utf-8")
    curation = repo_root / "examples" / "maojia-song.curation.toml"
    store = folder / "s.store"
    build_store([seed_path, extra], store, curation=curation)
    result = build([seed_path, extra], curation=curation)
    write_outputs(result, folder / "out", html=False)
    from scholarkg import api

    disk = open_for_query(store, memory_budget=0)
    memory = open_for_query(store, memory_budget=1 << 30)
    assert not disk.in_memory and memory.in_memory
    yield {"disk": disk, "memory": memory, "rdflib": api.load(folder / "out")}
    disk.close()
    memory.close()


@pytest.mark.parametrize("name, values", CASES, ids=[f"{n}-{v}" for n, v in CASES])
def test_named_query_rows_agree_on_disk_in_memory_and_in_rdflib(sources, name, values):
    q = named_queries()[name]
    answers = {engine: run_named(source, name, values) for engine, source in sources.items()}
    rows = {engine: comparable(a.vars, a.rows, q.text) for engine, a in answers.items()}
    assert rows["disk"] == rows["memory"] == rows["rdflib"]
    # The variant chosen in Python answers as the general text does.
    bindings = q.bindings(values)
    general = run_query(sources["rdflib"], q.text, bindings, hidden=tuple(q.params))
    assert general.vars == answers["rdflib"].vars
    assert comparable(general.vars, general.rows, q.text) == rows["rdflib"]
    # In the query's order, on every engine (a key the answer does not show, such as the number
    # behind a value as written, is checked in test_rows_follow_the_number_they_show).
    _, keys = split_order(q.text)
    for answer in answers.values():
        shown = _shown_keys(answer.vars, keys)
        columns = [answer.vars.index(k) for k, _ in shown]

        def project(rows):
            return [tuple(row[i] for i in columns) for row in rows]
        assert project(answer.rows) == project(order_rows(answer.vars, list(answer.rows), shown))


def _shown_keys(names, keys):
    """The sort keys up to the first one that is not a column of the answer."""
    out = []
    for name, descending in keys:
        if name not in names:
            break
        out.append((name, descending))
    return out


@pytest.mark.parametrize("name", ["results", "author-results", "improvements"])
def test_rows_follow_the_number_they_show(sources, name):
    """These sort by the decimal value (DESC(?number)) and show it as the paper wrote it."""
    from decimal import Decimal

    for engine, source in sources.items():
        answer = run_named(source, name)
        assert "number" not in answer.vars and len(answer.rows) >= 2, engine
        rows = answer.to_dicts()
        for a, b in zip(rows, rows[1:]):
            if (a.get("year"), a["title"], a.get("benchmark")) == (b.get("year"), b["title"], b.get("benchmark")):
                assert Decimal(a["value"]) >= Decimal(b["value"]), (engine, a, b)


def test_the_answers_are_not_empty_where_the_data_has_something(sources):
    got = {name: len(run_named(sources["disk"], name).rows) for name in named_queries()}
    assert all(got[name] > 0 for name in got), got
    pairs = run_named(sources["memory"], "coauthors", {"author": "Ada Lovelace"}).to_dicts()
    assert {(r["coauthor"], r["sharedPapers"], r["papers"]) for r in pairs} == {("Maojia Song", "2", "2"), ("Alan Turing", "1", "2")}


def test_repeated_rows_are_dropped_where_the_query_selects_distinct_rows(sources):
    """The stores' engines run a named query's text without its DISTINCT and drop repeated
    rows while reading them; the two papers with one title repeat rows of ``evidence`` and
    ``entity-papers`` (the agreement with rdflib, which runs DISTINCT itself, is checked above)."""
    from scholarkg.named import prepare_named

    for name in ("evidence", "entity-papers"):
        values = {"entity": "WebTrail"}
        for engine in ("disk", "memory"):
            p = prepare_named(sources[engine], name, values)
            assert p.distinct and "DISTINCT" not in p.text.split("WHERE")[0], (engine, name)
            rows = run_named(sources[engine], name, values).rows
            assert rows and len(rows) == len(set(rows)), (engine, name)
        repeated = run_query(sources["rdflib"], p.text, p.bindings).rows
        assert len(repeated) > len(set(repeated)) == len(rows), name


def test_distinct_is_left_to_the_reader_only_where_dropping_repeated_lines_is_the_same():
    from scholarkg.named import distinct_in_python

    head = "PREFIX x: <urn:x#>\n"
    assert distinct_in_python(head + "SELECT DISTINCT ?a ?b WHERE { ?a x:p ?b }\n") == \
        (head + "SELECT ?a ?b WHERE { ?a x:p ?b }\n", True)
    assert distinct_in_python("select distinct ?a WHERE { ?a ?p ?o }") == ("select ?a WHERE { ?a ?p ?o }", True)
    for kept in ("SELECT DISTINCT ?a WHERE { ?a ?p ?o } LIMIT 5",  # DISTINCT comes before the page
                 "SELECT DISTINCT ?a WHERE { ?a ?p ?o } OFFSET 5",
                 "SELECT REDUCED ?a WHERE { ?a ?p ?o }",
                 "SELECT ?a WHERE { { SELECT DISTINCT ?a WHERE { ?a ?p ?o } } }",
                 "SELECT ?a WHERE { ?a ?p ?o }"):
        assert distinct_in_python(kept) == (kept, False), kept


def test_every_variant_is_used_by_some_parameter_setting():
    used = set()
    for name, values in CASES:
        q = named_queries()[name]
        exact = {param for param, value in values.items() if value and param in q.exact}
        for engine, resolved in itertools.product(ENGINES, (set(), exact)):
            text = q.text_for(q.bindings(values), engine, resolved)
            used |= {(name, i) for i, (_, _, variant) in enumerate(q.variants) if variant == text}
    every = {(name, i) for name, q in named_queries().items() for i in range(len(q.variants))}
    assert used == every


def test_pages_are_slices_of_the_ordered_answer(sources):
    whole = run_named(sources["disk"], "evidence").rows
    assert len(whole) > 30
    pages = [run_named(sources["disk"], "evidence", limit=10, offset=offset) for offset in range(0, len(whole), 10)]
    assert [row for p in pages for row in p.rows] == whole
    assert all(p.more for p in pages[:-1]) and not pages[-1].more


def test_query_command_pages_and_answers_from_memory_or_disk(sources, cli):
    store = sources["disk"].path
    first = cli("query", "--store", store, "--named", "evidence", "--limit", "5", "--format", "csv", "--memory-budget", "0")
    again = cli("query", "--store", store, "--named", "evidence", "--limit", "5", "--format", "csv", "--memory-budget", "100")
    assert first.exit_code == 0 and first.stdout == again.stdout
    assert len(first.stdout.splitlines()) == 6 and "--offset 5" in first.stderr


@pytest.mark.parametrize("name, values", [c for c in CASES if c[1]], ids=[f"{n}-{v}" for n, v in CASES if v])
def test_the_text_with_its_parameters_written_in_answers_as_the_bound_query(sources, name, values):
    """What the served workbench shows and sends: the chosen variant with its values inlined."""
    from scholarkg.named import inline_values
    from scholarkg.store.read import run_store_query

    q = named_queries()[name]
    bindings = q.bindings(values)
    text, _keys = split_order(q.text_for(bindings, "memory"))
    inlined = run_store_query(sources["memory"], inline_values(text, bindings))
    bound = run_named(sources["memory"], name, values)
    shown = [i for i, v in enumerate(inlined.vars) if v in bound.vars]
    assert [inlined.vars[i] for i in shown] == bound.vars
    assert comparable(bound.vars, [tuple(r[i] for i in shown) for r in inlined.rows], q.text) == \
        comparable(bound.vars, bound.rows, q.text)


def test_a_name_is_matched_as_the_graph_writes_it_when_it_is_written_one_way(sources):
    """``maojia song`` is written ``Maojia Song`` in the graph: the query then matches that
    exactly (from an index) and answers as the case-insensitive text does; a name written two
    ways, or not as a plain string, keeps the case-insensitive text."""
    from scholarkg.named import exact_values, get_named_query
    from scholarkg.store.read import run_store_query

    q = get_named_query("author-entities")

    def written(lookup, value):
        return [(str(v), plain.toPython()) for _, v, plain in run_store_query(sources["disk"], lookup, {"given": value}).rows]
    assert exact_values(q, q.bindings({"author": "maojia song"}), written) == (q.bindings({"author": "Maojia Song"}), {"author"})
    assert exact_values(q, q.bindings({"author": "Nobody Atall"}), written) == (q.bindings({"author": "Nobody Atall"}), {"author"})
    assert exact_values(q, q.bindings({}), written) == (q.bindings({}), set())
    two = exact_values(q, q.bindings({"author": "x"}), lambda *_: [("X", True), ("x", True)])
    tagged = exact_values(q, q.bindings({"author": "x"}), lambda *_: [("X", False)])
    assert two == tagged == (q.bindings({"author": "x"}), set())
    exact = q.text_for(q.bindings({"author": "Maojia Song"}), "disk", {"author"})
    assert "?person foaf:name ?author ." in exact and exact != q.text_for(q.bindings({"author": "Maojia Song"}), "disk")
    answer = run_named(sources["disk"], "author-entities", {"author": "maojia song"})
    assert answer.rows and {row[answer.vars.index("author")] for row in answer.rows} == {Literal("maojia song")}
