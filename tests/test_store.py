"""The persistent store: same graph as the in-memory build, incremental and idempotent builds,
relinking, recovery from interruption, locking, and guarded queries on Oxigraph."""

from __future__ import annotations

import logging
import shutil
import time
from collections import Counter

import pytest
from rdflib import Literal
from rdflib.compare import isomorphic
from rdflib.namespace import SDO
from storekit import NAMES, AcronymLinker, comparable, exported, extract, quads, record, store_graph, write_jsonl

from scholarkg.errors import LockedError, QueryError
from scholarkg.graph import iri
from scholarkg.graph.vocab import SKG
from scholarkg.pipeline import summarise
from scholarkg.named import named_queries
from scholarkg.sparql import run_query
from scholarkg.store import GraphStore, build_store, export_store, run_store_query, store_summary


def test_store_holds_the_same_graph_as_the_in_memory_build(seed_graph, seed_store):
    copy = store_graph(seed_store)
    assert len(copy) == len(seed_graph) > 300
    assert isomorphic(copy, seed_graph)
    with GraphStore(seed_store) as store:
        assert store_summary(store) == summarise(seed_graph)


def test_every_statement_lives_in_one_graph_and_papers_in_their_own(seed_store):
    lines = quads(seed_store)
    triples = [line.rsplit(" ", 2)[0] for line in lines]
    assert len(triples) == len(set(triples))  # no statement in two graphs: the union has no duplicates
    with GraphStore(seed_store) as store:
        answer = store.ox.query(
            "SELECT ?paper ?g WHERE { GRAPH ?g { ?paper a <https://w3id.org/scholarkg/ontology#Paper> } }"
        )
        placed = [(row["paper"].value, row["g"].value) for row in answer]
    assert len(placed) == 18
    for paper, graph in placed:
        assert graph == paper.replace("/id/paper/", "/id/graph/paper/")


@pytest.mark.parametrize("name", sorted(named_queries()))
def test_named_queries_answer_the_same_on_rdflib_and_oxigraph(name, seed_graph, seed_store):
    query = named_queries()[name]
    bindings = query.bindings({})
    expected = run_query(seed_graph, query.text, bindings, hidden=tuple(query.params))
    with GraphStore(seed_store) as store:
        got = run_store_query(store, query.text, bindings, hidden=tuple(query.params))
    assert got.vars == expected.vars
    assert comparable(got.vars, got.rows, query.text) == comparable(expected.vars, expected.rows, query.text)


PARAMETER_VALUES = {
    "author": ("maojia song", "Nobody Atall"),
    "entity": ("grpo", "BrowseComp", "nothing"),
    "source": ("extracted", "curated"),
    "action": ("merge", "rename"),
    "kind": ("name", "concept"),
    "paper": ("Agents' Last Exam", "2601.00001"),
    "category": ("cs.CL", "CS.ai"),
}


@pytest.mark.parametrize("name, values", [
    (name, {param: value})
    for name, query in sorted(named_queries().items())
    for param in query.params
    for value in PARAMETER_VALUES[param]
])
def test_named_queries_with_parameters_answer_the_same_on_both_backends(name, values, seed_graph, seed_store):
    query = named_queries()[name]
    bindings = query.bindings(values)
    expected = run_query(seed_graph, query.text, bindings, hidden=tuple(query.params))
    with GraphStore(seed_store) as store:
        got = run_store_query(store, query.text, bindings, hidden=tuple(query.params))
    assert comparable(got.vars, got.rows, query.text) == comparable(expected.vars, expected.rows, query.text)


def test_named_query_parameters_are_bound_on_oxigraph(seed_graph, seed_store):
    query = named_queries()["papers-by-year"]
    bindings = query.bindings({"author": "maojia song"})
    expected = run_query(seed_graph, query.text, bindings, hidden=("author",))
    with GraphStore(seed_store) as store:
        got = run_store_query(store, query.text, bindings, hidden=("author",))
        nobody = run_store_query(store, query.text, query.bindings({"author": "Nobody Atall"}))
    assert len(got.rows) == len(expected.rows) == 18
    assert nobody.rows == []


def test_adding_the_same_records_again_changes_nothing(tmp_path, caplog):
    """A build that reads nothing new stops after reading: nothing is linked, written or counted
    again, and its report counts what the store holds. The next build that brings a new record
    goes through every stage again."""
    corpus = write_jsonl(tmp_path / "in.jsonl", [record(i, "We train with GRPO on MMLU.") for i in range(4)])
    store = tmp_path / "s"
    first = build_store([corpus], store, extractor=extract)
    before = quads(store)
    with caplog.at_level(logging.INFO, logger="scholarkg.store.build"):
        again = build_store([corpus], store, extractor=extract)
    assert (first.added, first.updated, first.unchanged) == (4, 0, 0)
    assert (again.added, again.updated, again.unchanged, again.relinked) == (0, 0, 4, 0)
    assert quads(store) == before
    assert any(r.getMessage().startswith("nothing new was read") for r in caplog.records)
    with GraphStore(store) as opened:
        assert again.statements == first.statements == opened.count()
    assert again.linker.get("GRPO") == first.linker.get("GRPO") is not None
    more = build_store([write_jsonl(tmp_path / "more.jsonl", [record(9, "PPO on MMLU.")])], store, extractor=extract)
    fresh = tmp_path / "fresh"
    build_store([corpus, tmp_path / "more.jsonl"], fresh, extractor=extract)
    assert more.added == 1 and quads(store) == quads(fresh)


def test_a_changed_record_replaces_its_statements_and_shared_entities_survive(tmp_path):
    store = tmp_path / "s"
    old = [record(1, "We train with GRPO on MMLU.", authors=("Ada Lovelace", "Grace Hopper")),
           record(2, "GRPO again, without benchmarks.")]
    new = [record(1, "Now we use PPO only.", authors=("Ada Lovelace",)), old[1]]
    build_store([write_jsonl(tmp_path / "old.jsonl", old)], store, extractor=extract)
    report = build_store([write_jsonl(tmp_path / "new.jsonl", new)], store, extractor=extract)
    assert (report.added, report.updated, report.unchanged) == (0, 1, 1)

    fresh = tmp_path / "fresh"
    build_store([tmp_path / "new.jsonl"], fresh, extractor=extract)
    got = store_graph(store)
    assert isomorphic(got, store_graph(fresh))
    grpo, mmlu = iri.entity("GRPO"), iri.entity("MMLU")
    assert (grpo, SKG.paperCount, None) in got  # still named by record 2
    assert int(got.value(grpo, SKG.paperCount)) == 1
    assert (mmlu, None, None) not in got  # named only by the old version of record 1
    assert (iri.author("Grace Hopper"), None, None) not in got  # no paper of hers is left
    assert (None, None, iri.author("Grace Hopper")) not in got
    agent = iri.extractor("test-extractor-1")  # the extractor that made the extractions is described
    assert (agent, SDO.softwareVersion, Literal("test-extractor-1")) in got


def _entry(title: str, **extra) -> dict:
    return {"id": "lovelace-1843", "title": title, "abstract": "We train with GRPO on MMLU.", "year": 1843,
            "authors": ["Ada Lovelace"], **extra}


def test_a_record_whose_identity_changes_replaces_its_old_self_and_other_files_keep_theirs(tmp_path):
    # Without an arXiv id or DOI a paper is known by its title: fixing a typo in it gives the
    # paper a new identity, and the record (same file, same id) replaces its old self; giving
    # it a DOI does the same again.
    store, fresh = tmp_path / "s", tmp_path / "fresh"
    mine = write_jsonl(tmp_path / "mine.jsonl", [_entry("Notes on the Analytical Engnie")])
    other = write_jsonl(tmp_path / "other.jsonl", [_entry("Sketch of the Analytical Engine")])  # same id, another file
    build_store([mine, other], store, extractor=extract)
    for fixed in (_entry("Notes on the Analytical Engine"), _entry("Notes on the Analytical Engine", doi="10.1000/ae")):
        write_jsonl(mine, [fixed])
        report = build_store([mine, other], store, extractor=extract)
        assert (report.added, report.unchanged, report.replaced) == (1, 1, 1)
        shutil.rmtree(fresh, ignore_errors=True)
        build_store([mine, other], fresh, extractor=extract)
        assert quads(store) == quads(fresh)
    with GraphStore(store) as opened:
        titles = {str(row[0]) for row in run_store_query(
            opened, "PREFIX dcterms: <http://purl.org/dc/terms/> SELECT ?t WHERE { ?p dcterms:title ?t }").rows}
    assert titles == {"Notes on the Analytical Engine", "Sketch of the Analytical Engine"}
    # The other file's record with the same id is another paper: given alone, it leaves the
    # first file's record where it is.
    alone = build_store([other], store, extractor=extract)
    assert (alone.unchanged, alone.replaced) == (1, 0)
    assert quads(store) == quads(fresh)


def test_a_new_long_form_relinks_records_that_only_had_the_acronym(tmp_path, monkeypatch):
    monkeypatch.setattr("scholarkg.link.Linker", AcronymLinker)
    store = tmp_path / "s"
    first = [record(1, "We evaluate on ALE with GRPO.")]
    second = [record(2, "We introduce Agents Last Exam (ALE), a benchmark.")]
    build_store([write_jsonl(tmp_path / "a.jsonl", first)], store, extractor=extract)
    assert (None, None, iri.entity("ALE")) in store_graph(store)

    report = build_store([write_jsonl(tmp_path / "b.jsonl", second)], store, extractor=extract)
    assert (report.added, report.relinked) == (1, 1)
    got = store_graph(store)
    fresh = tmp_path / "fresh"
    build_store([write_jsonl(tmp_path / "ab.jsonl", first + second)], fresh, extractor=extract)
    assert isomorphic(got, store_graph(fresh))
    long_form = iri.entity("Agents Last Exam")
    assert int(got.value(long_form, SKG.paperCount)) == 2
    assert (iri.entity("ALE"), None, None) not in got and (None, None, iri.entity("ALE")) not in got


def test_a_build_links_only_what_changed_onto_what_the_last_build_linked(tmp_path, caplog):
    """The stored extractions are not read again when a build only adds records: the linker
    takes up what the last build had collected, and the store ends as a fresh build of every
    record (here a new long form relinks a stored record that had only the acronym). A build
    that reads a stored record again with another text takes it up too and takes again only
    the names that record speaks of, before and after, from every record that speaks of them
    (here the long form gains a second short form, then loses the first, and the records that
    had only that acronym are relinked again).
    One that finds the kept state made by another version links everything again, and ends
    there too. Entity and co-author pairs are counted from what the records a build changed
    share before and after, and end as a fresh build's too; so do the author's counts, and
    the number of statements the store keeps as its blocks change."""
    import sqlite3

    from scholarkg.store.manifest import pack
    from scholarkg.store.snapshot import statement_count

    store = tmp_path / "s"
    batches = [[record(1, "We evaluate on ALE with GRPO.", authors=("Ada Lovelace", "Alan Turing"))],
               [record(2, "We introduce Agents Last Exam (ALE), a benchmark, and use PPO.")],
               [record(1, "We extend Agents Last Exam (ALX) with PPO."), record(3, "GRPO on MMLU.")],
               [record(4, "PPO and GRPO on ALE.")],
               [record(2, "We introduce a benchmark, and use PPO and ALE.")],  # ALE's long form is gone
               [record(5, "MMLU with GRPO.")]]
    ways, latest = [], {}
    for n, batch in enumerate(batches):
        latest.update((r["arxiv_id"], r) for r in batch)
        if n == 5:  # the kept state as another version would have kept it
            with sqlite3.connect(store / "manifest.sqlite") as db:
                db.execute("UPDATE linked SET state = ?", (pack(("another format", {}), ),))
        caplog.clear()
        with caplog.at_level(logging.INFO, logger="scholarkg.store"):
            report = build_store([write_jsonl(tmp_path / f"{n}.jsonl", batch)], store, extractor=extract)
        said = " ".join(r.getMessage() for r in caplog.records)
        ways.append("adding" if "onto what the last build linked" in said else
                    "taking again" if "linking again the" in said else "everything")
        if n == 1:
            assert (report.added, report.relinked) == (1, 1)
        fresh = tmp_path / f"fresh{n}"
        build_store([write_jsonl(tmp_path / f"fresh{n}.jsonl", list(latest.values()))], fresh, extractor=extract)
        assert quads(store) == quads(fresh), n
        assert statement_count(store) == len(quads(store)) == statement_count(fresh), n  # the kept sum of block lines
        assert _kept_linker(store) == _kept_linker(fresh), n  # what each name collected, and the versions
    assert ways == ["everything", "adding", "taking again", "adding", "taking again", "everything"]


def _kept_linker(store):
    """The linker's names and the extractor versions' counts a store keeps for its next build."""
    import sqlite3

    from scholarkg.store.manifest import unpack

    with sqlite3.connect(store / "manifest.sqlite") as db:
        _, (_, names), agents = unpack(db.execute("SELECT state FROM linked").fetchone()[0])
    return names, agents


def test_an_authors_paper_count_and_years_follow_every_build_when_no_paper_has_two_authors(tmp_path):
    """Authors' counts are counted again only for the authors of the records a build wrote,
    which must be noted even in a store with no co-author pair at all: each build (a new paper
    of a stored author, a paper moved to another year and author) ends as a fresh build."""
    store = tmp_path / "s"
    batches = [[record(1, "GRPO on MMLU."), record(2, "PPO on MMLU.", authors=("Alan Turing",))],
               [record(3, "PPO and GRPO.", year=2023)],
               [record(2, "PPO on MMLU.", authors=("Ada Lovelace",), year=2021)]]
    latest = {}
    for n, batch in enumerate(batches):
        latest.update((r["arxiv_id"], r) for r in batch)
        build_store([write_jsonl(tmp_path / f"{n}.jsonl", batch)], store, extractor=extract)
        fresh = tmp_path / f"fresh{n}"
        build_store([write_jsonl(tmp_path / f"fresh{n}.jsonl", list(latest.values()))], fresh, extractor=extract)
        assert quads(store) == quads(fresh), n
    counts = {line for line in quads(store) if "paperCount" in line or "Year>" in line}
    assert any('"3"' in line for line in counts), counts  # Ada Lovelace's three papers


def test_an_extractor_version_no_stored_record_has_any_more_leaves_the_graph(tmp_path, caplog):
    """Records read again by another extractor version, one build at a time: the linker takes
    only their names again, and the version the last of them had is gone, as from a fresh build."""
    import dataclasses

    def newer(records, nlp=None):
        for r, extraction in extract(records):
            yield r, dataclasses.replace(extraction, extractor="test-extractor-2")

    store = tmp_path / "s"
    build_store([write_jsonl(tmp_path / "a.jsonl", [record(i, f"GRPO on MMLU, take {i}.") for i in range(1, 4)])],
                store, extractor=extract)
    for i in range(1, 4):
        with caplog.at_level(logging.INFO, logger="scholarkg.store"):
            build_store([write_jsonl(tmp_path / f"b{i}.jsonl", [record(i, f"PPO on MMLU, take {i}.")])], store,
                        extractor=newer)
        assert any("linking again the" in r.getMessage() for r in caplog.records)
        caplog.clear()
    fresh = tmp_path / "fresh"
    build_store([write_jsonl(tmp_path / "c.jsonl", [record(i, f"PPO on MMLU, take {i}.") for i in range(1, 4)])],
                fresh, extractor=newer)
    assert quads(store) == quads(fresh)
    assert not any("test-extractor-1" in line for line in quads(store))


def test_cooccurring_pairs_are_counted_at_build_time(tmp_path):
    corpus = [record(i, "GRPO on MMLU.") for i in range(3)] + [record(9, "PPO on MMLU.")]
    store = tmp_path / "s"
    build_store([write_jsonl(tmp_path / "in.jsonl", corpus)], store, extractor=extract)
    with GraphStore(store) as opened:
        rows = run_store_query(opened, """
            PREFIX skg: <https://w3id.org/scholarkg/ontology#>
            PREFIX skos: <http://www.w3.org/2004/02/skos/core#>
            SELECT ?a ?b ?n WHERE { ?pair a skg:EntityPair ; skg:sharedPapers ?n ;
              skg:pairMember ?x , ?y . ?x skos:prefLabel ?a . ?y skos:prefLabel ?b . FILTER(STR(?a) < STR(?b)) }""").rows
    assert [(str(a), str(b), int(n)) for a, b, n in rows] == [("GRPO", "MMLU", 3)]  # PPO-MMLU: one paper, below the threshold


def _counted(store) -> dict[str, list[tuple]]:
    import sqlite3

    with sqlite3.connect(store / "manifest.sqlite") as db:
        counted = {table: db.execute(f"SELECT * FROM {table} ORDER BY a, b").fetchall()
                   for table in ("pair_counts", "pairs", "coauthors")}
        counted["entity_counts"] = db.execute("SELECT * FROM entity_counts ORDER BY entity").fetchall()
        return counted


def test_pairs_are_counted_by_what_each_build_changed_and_end_as_a_fresh_count(tmp_path):
    """A build on a store counts entity and co-author pairs from what the records it wrote
    share now and shared before, and adds new records to the paper counts and years of the
    entities that only gained some. Over builds that rewrite records with other names,
    authors and years (pairs crossing the two-paper threshold both ways, pairs gone), every
    count, the pairs the graph describes and the graph itself end as a fresh build's. A store
    whose counts of every pair are missing (one an older version built) is counted whole once."""
    import random
    import sqlite3

    rng = random.Random(7)
    names, people = sorted(NAMES), ("Ada Lovelace", "Alan Turing", "Grace Hopper", "Kurt Goedel")
    store, latest, crossed = tmp_path / "s", {}, set()  # what the builds showed
    for n in range(9):
        batch = []
        for k in rng.sample(range(1, 8), rng.randint(1, 4)):
            named = rng.sample(names, rng.randint(0, 3))
            batch.append(record(k, (" and ".join(named) or "Nothing named") + ".",
                                authors=tuple(rng.sample(people, rng.randint(1, 3))), year=rng.choice((2021, 2023, 2025))))
        if n == 6:  # as a store built before the counts of every pair were kept
            with sqlite3.connect(store / "manifest.sqlite") as db:
                db.execute("DELETE FROM pair_counts")
        before = _counted(store) if n else {"pair_counts": [], "pairs": []}
        latest.update((r["arxiv_id"], r) for r in batch)
        build_store([write_jsonl(tmp_path / f"{n}.jsonl", batch)], store, extractor=extract)
        fresh = tmp_path / f"fresh{n}"
        build_store([write_jsonl(tmp_path / f"fresh{n}.jsonl", list(latest.values()))], fresh, extractor=extract)
        counted = _counted(store)
        assert counted == _counted(fresh), n
        assert quads(store) == quads(fresh), n
        assert all(papers >= 2 for *_, papers in counted["pairs"]), n
        crossed.update(_moves(before["pairs"], counted["pairs"]))
        crossed.update("single" for *_, papers in counted["pair_counts"] if papers == 1)
        crossed.update("gone" for move in _moves(before["pair_counts"], counted["pair_counts"]) if move == "down")
    assert crossed == {"up", "down", "single", "gone"}


def _moves(before: list[tuple], after: list[tuple]) -> set[str]:
    """"up" when a pair is in ``after`` only, "down" when it is in ``before`` only."""
    was, now = {row[:2] for row in before}, {row[:2] for row in after}
    return ({"up"} if now - was else set()) | ({"down"} if was - now else set())


HOSTILE_TYPING = "> <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> <https://w3id.org/scholarkg/ontology#Paper> ."


def _classes_in_graph(store) -> dict[str, int]:
    """The subjects of each class a build counts, counted in the store's graph by Oxigraph."""
    from scholarkg.store.snapshot import COUNTED_CLASSES

    with GraphStore(store) as opened:
        answer = opened.ox.query(
            "SELECT ?c (COUNT(DISTINCT ?s) AS ?n) WHERE { ?s a ?c FILTER(STRSTARTS(STR(?c), STR(skg:))) } GROUP BY ?c",
            prefixes={"skg": "https://w3id.org/scholarkg/ontology#"}, use_default_graph_as_union=True)
        counted = {row["c"].value.rpartition("#")[2]: int(row["n"].value) for row in answer}
    return {name: n for name, n in counted.items() if name in COUNTED_CLASSES}


def test_the_classes_a_build_reports_are_kept_as_blocks_change_and_are_the_graphs(tmp_path):
    """A store build counts the subjects of each class in the blocks it writes and keeps the
    sums as blocks change; over builds that add and rewrite records they equal a count of the
    graph. A store an earlier version built (no counts kept) is counted whole by its next build,
    and counts are not trusted while a build is unfinished."""
    import json
    import random
    import sqlite3

    from scholarkg.store.snapshot import kept_counts

    rng = random.Random(11)
    names = sorted(NAMES)
    store, seen = tmp_path / "s", set()
    for n in range(6):
        batch = [record(k, (" and ".join(rng.sample(names, rng.randint(0, 3))) or "Nothing named") + ".",
                        authors=tuple(rng.sample(("Ada Lovelace", "Alan Turing", "Grace Hopper"), rng.randint(1, 2))))
                 for k in rng.sample(range(1, 9), rng.randint(1, 4))]
        if n == 0:  # a literal holding what a typing statement says after its subject
            batch.append(record(20, "We write x" + HOSTILE_TYPING + " in our notes."))
        if n == 3:  # as a store an earlier version built: no classes counted
            with sqlite3.connect(store / "manifest.sqlite") as db:
                db.execute("DELETE FROM block_types")
                db.execute("DELETE FROM type_totals")
                db.execute("DELETE FROM meta WHERE name = 'block_types'")
            info = store / "snapshot" / "info.json"
            info.write_text(json.dumps({"statements": json.loads(info.read_text())["statements"]}))
            assert kept_counts(store) is None
        build_store([write_jsonl(tmp_path / f"{n}.jsonl", batch)], store, extractor=extract)
        counted = _classes_in_graph(store)
        assert kept_counts(store)[1] == counted, n
        seen.update(counted)
        with GraphStore(store) as opened:
            assert store_summary(opened)["mentions"] == counted.get("Mention", 0)
    assert {"Paper", "Author", "Mention"} <= seen and seen & {"Benchmark", "Method", "Dataset", "Model"}
    assert any(HOSTILE_TYPING in line for line in quads(store))
    with sqlite3.connect(store / "manifest.sqlite") as db:
        db.execute("UPDATE meta SET value = '1' WHERE name = 'unfinished'")
    assert kept_counts(store) is None


def test_entities_are_described_again_only_when_what_describes_them_changed(tmp_path):
    """A build describes again the entities whose inputs (the entity, its counts) changed, and
    notes the inputs of the others where a store an earlier version built has none; the graph
    is a fresh build's either way."""
    import sqlite3

    store, fresh = tmp_path / "s", tmp_path / "fresh"
    first = [record(1, "GRPO and MMLU."), record(2, "GRPO and PPO.")]
    build_store([write_jsonl(tmp_path / "1.jsonl", first)], store, extractor=extract)
    with sqlite3.connect(store / "manifest.sqlite") as db:
        before = dict(db.execute("SELECT key, inputs FROM entities"))
        db.execute("UPDATE entities SET inputs = NULL WHERE key = 'mmlu'")  # as an earlier version left it
    later = [record(3, "GRPO again.")]
    build_store([write_jsonl(tmp_path / "2.jsonl", later)], store, extractor=extract)
    with sqlite3.connect(store / "manifest.sqlite") as db:
        after = dict(db.execute("SELECT key, inputs FROM entities"))
    assert after["mmlu"] == before["mmlu"]  # noted again, unchanged
    assert after["ppo"] == before["ppo"] and after["grpo"] != before["grpo"]  # one more paper
    build_store([write_jsonl(tmp_path / "f.jsonl", first + later)], fresh, extractor=extract)
    assert quads(store) == quads(fresh)


def _interrupted_build(corpus, store, monkeypatch, at: int = 2, loaded: bool = False) -> None:
    """A build of ``corpus`` into ``store`` stopped by Ctrl-C as it loads its ``at``-th batch
    (with ``loaded``, just after the batch is in the database)."""
    from scholarkg.store import build as build_module

    real_load = build_module._Builder._load
    calls = {"n": 0}

    def failing_load(self, data):
        calls["n"] += 1
        if calls["n"] == at and not loaded:
            raise KeyboardInterrupt
        real_load(self, data)
        if calls["n"] == at:
            raise KeyboardInterrupt

    monkeypatch.setattr(build_module._Builder, "_load", failing_load)
    with pytest.raises(KeyboardInterrupt):
        build_store([corpus], store, extractor=extract, batch_size=2)
    monkeypatch.setattr(build_module._Builder, "_load", real_load)


def test_an_interrupted_build_leaves_a_readable_store_that_the_next_build_completes(tmp_path, monkeypatch):
    corpus = write_jsonl(tmp_path / "in.jsonl", [record(i, f"GRPO number {i} on MMLU.") for i in range(6)])
    store = tmp_path / "s"
    _interrupted_build(corpus, store, monkeypatch)

    with GraphStore(store) as opened:  # opens, answers queries
        run_store_query(opened, "SELECT * WHERE { ?s ?p ?o } LIMIT 1")
    import sqlite3

    with sqlite3.connect(store / "manifest.sqlite") as db:
        pending = db.execute("SELECT COUNT(*) FROM records WHERE digest IS NULL").fetchone()[0]
    assert pending == 2  # the batch being written when it stopped

    report = build_store([corpus], store, extractor=extract, batch_size=2)
    assert report.added + report.updated == 4 and report.unchanged == 2
    fresh = tmp_path / "fresh"
    build_store([corpus], fresh, extractor=extract)
    assert quads(store) == quads(fresh)


def test_a_store_whose_last_build_stopped_is_read_from_its_database_with_a_warning(tmp_path, monkeypatch, caplog, cli):
    """After a stopped build the database may hold statements whose blocks are not kept yet:
    exports and in-memory copies are made from the database, so they agree with answers from
    disk, and every reader is told the build did not finish, until the next build completes it."""
    from rdflib import Dataset

    from scholarkg.store import open_for_query
    from scholarkg.store.snapshot import statement_count

    store = tmp_path / "s"
    build_store([write_jsonl(tmp_path / "first.jsonl", [record(9, "PPO on GSM8K.")])], store, extractor=extract)
    corpus = write_jsonl(tmp_path / "in.jsonl", [record(i, f"GRPO number {i} on MMLU.") for i in range(6)])
    _interrupted_build(corpus, store, monkeypatch, at=1, loaded=True)
    with GraphStore(store) as opened:
        stopped_at = opened.count()
    assert "did not finish" in caplog.text and statement_count(store) is None

    result = cli("export", "--store", store, "--format", "nquads", "-o", tmp_path / "graph.nq")
    assert result.exit_code == 0 and "did not finish" in result.stderr
    with open_for_query(store, memory_budget=1 << 30) as memory, GraphStore(store) as disk:
        assert memory.in_memory and len(memory.ox) == len(disk.ox)
    read = Dataset()
    read.parse(tmp_path / "graph.nq", format="nquads")
    with GraphStore(store) as opened:
        assert len(set(read.quads())) == opened.count()

    caplog.clear()
    build_store([corpus], store, extractor=extract, batch_size=2)
    fresh = tmp_path / "fresh"
    build_store([tmp_path / "first.jsonl", corpus], fresh, extractor=extract)
    assert quads(store) == quads(fresh) and statement_count(store) == statement_count(fresh)
    result = cli("export", "--store", store, "--format", "nquads", "-o", tmp_path / "after.nq")
    assert result.exit_code == 0 and "did not finish" not in result.stderr
    assert stopped_at < len(quads(store))


def test_a_build_of_as_many_records_as_the_store_holds_makes_the_member_indexes_after_the_rows(tmp_path, monkeypatch):
    """A build that writes at least as many records as the store holds writes their rows
    without the indexes by member and makes those again after; a smaller one keeps them. The
    store ends with them either way and equals a fresh build; a build stopped while they are
    gone leaves them to the next opening of the manifest."""
    import sqlite3

    from scholarkg.store.manifest import _MEMBER_INDEXES, Manifest

    member = {name for name, _, _ in _MEMBER_INDEXES}

    def indexes(db) -> set[str]:
        return {name for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'index'")}

    seen: list[bool] = []
    real = Manifest.begin_rewrite

    def watched(self, emissions, payloads):
        seen.append(member <= indexes(self.db))
        if len(seen) == 99:
            raise KeyboardInterrupt
        real(self, emissions, payloads)

    monkeypatch.setattr(Manifest, "begin_rewrite", watched)
    inputs = [write_jsonl(tmp_path / f"{n}.jsonl", [record(n * 100 + i, f"GRPO number {i} on MMLU by Ada.") for i in range(size)])
              for n, size in enumerate((6, 2, 10))]
    store = tmp_path / "s"
    build_store(inputs[:1], store, extractor=extract, batch_size=2)
    assert seen == [False, False, False]
    with sqlite3.connect(store / "manifest.sqlite") as db:
        assert member <= indexes(db)
    build_store(inputs[1:2], store, extractor=extract, batch_size=2)
    assert seen[3:] == [True]
    with sqlite3.connect(store / "manifest.sqlite") as db:
        assert member <= indexes(db)
        assert db.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    seen[:] = [True] * 97  # the second batch of the next build stops it
    with pytest.raises(KeyboardInterrupt):
        build_store(inputs[2:], store, extractor=extract, batch_size=2)
    assert seen[97:] == [False, False]
    with sqlite3.connect(store / "manifest.sqlite") as db:
        assert not member & indexes(db)
    monkeypatch.setattr(Manifest, "begin_rewrite", real)
    build_store(inputs[2:], store, extractor=extract, batch_size=2)
    with sqlite3.connect(store / "manifest.sqlite") as db:
        assert member <= indexes(db)
    fresh = tmp_path / "fresh"
    build_store(inputs, fresh, extractor=extract)
    assert quads(store) == quads(fresh)


def test_a_writer_excludes_readers_and_other_writers(seed_store, tmp_path):
    store = tmp_path / "s"
    with GraphStore(store, writable=True):
        with pytest.raises(LockedError, match="a build is writing"):
            GraphStore(store)
        with pytest.raises(LockedError, match="in use"):
            GraphStore(store, writable=True)
    with GraphStore(seed_store), GraphStore(seed_store):  # readers share
        pass


@pytest.mark.parametrize("text, message", [
    ("SELECT * WHERE " + "{" * 5000 + "}" * 5000, "nests brackets more than 64 levels deep"),
    ("SELECT * WHERE { SERVICE <http://example.org/sparql> { ?s ?p ?o } }", "SERVICE is refused"),
    ("SELECT * FROM <file:///etc/passwd> WHERE { ?s ?p ?o }", "FROM is refused"),
    ("DELETE WHERE { ?s ?p ?o }", "DELETE is refused"),
    ("SELECT * WHERE { ?s ?p", "SPARQL error"),
])
def test_store_queries_are_checked_before_oxigraph_sees_them(seed_store, text, message):
    with GraphStore(seed_store) as store, pytest.raises(QueryError, match=message):
        run_store_query(store, text)


def test_store_queries_stop_at_the_timeout_and_the_row_cap(seed_store):
    heavy = "SELECT (COUNT(*) AS ?n) WHERE { ?a ?b ?c . ?d ?e ?f . ?g a ?i }"  # 5 million rows
    with GraphStore(seed_store) as store:
        started = time.monotonic()
        with pytest.raises(QueryError, match="longer than 0.1 s"):
            run_store_query(store, heavy, timeout=0.1)
        assert time.monotonic() - started < 1.0
        capped = run_store_query(store, "SELECT * WHERE { ?s ?p ?o }", max_rows=7)
    assert len(capped.rows) == 7


def test_store_exports_parse_back_to_the_graph_and_do_not_depend_on_build_order(tmp_path, seed_graph, seed_store):
    from rdflib import Dataset, Graph

    outputs = {}
    for fmt in ("turtle", "ntriples", "nquads", "trig"):
        path = tmp_path / f"out.{fmt}"
        with GraphStore(seed_store) as store, open(path, "wb") as fh:
            export_store(store, fmt, fh)
        outputs[fmt] = path.read_bytes()
        if fmt in ("turtle", "ntriples"):
            parsed = Graph().parse(path, format={"turtle": "turtle", "ntriples": "nt"}[fmt])
        else:
            dataset = Dataset()
            dataset.parse(path, format=fmt)
            parsed = Graph()
            for s, p, o, _g in dataset.quads((None, None, None, None)):
                parsed.add((s, p, o))
        assert isomorphic(parsed, seed_graph), fmt

    records = [record(i, "GRPO on MMLU." if i % 2 else "PPO only.", authors=(f"Author {i % 3}",)) for i in range(8)]
    forward, backward = tmp_path / "f", tmp_path / "b"
    build_store([write_jsonl(tmp_path / "f.jsonl", records)], forward, extractor=extract)
    build_store([write_jsonl(tmp_path / "b.jsonl", records[::-1])], backward, extractor=extract)
    for fmt in ("turtle", "ntriples"):
        a, b = tmp_path / "a.out", tmp_path / "b.out"
        with GraphStore(forward) as s1, open(a, "wb") as fa:
            export_store(s1, fmt, fa)
        with GraphStore(backward) as s2, open(b, "wb") as fb:
            export_store(s2, fmt, fb)
        assert a.read_bytes() == b.read_bytes()


def test_records_and_extractions_kept_in_a_manifest_read_back_equal_in_either_pickle_form(seed_build):
    """The manifest keeps every record and extraction pickled; they pickle as constructor
    arguments, and pickles of the older field-by-field form (stores built before) still load."""
    import copyreg
    import io
    import pickle

    from scholarkg.store.manifest import pack, unpack

    class OlderForm(pickle.Pickler):
        def reducer_override(self, obj):
            if hasattr(type(obj), "__dataclass_fields__"):
                return copyreg.__newobj__, (type(obj),), obj.__getstate__()
            return NotImplemented

    def older(value) -> bytes:
        buffer = io.BytesIO()
        OlderForm(buffer, protocol=pickle.HIGHEST_PROTOCOL).dump(value)
        return buffer.getvalue()

    pairs = list(seed_build.records_and_extractions())
    assert len(pairs) == 18 and sum(len(e.mentions) + len(e.results) for _, e in pairs) > 100
    for stored, extraction in pairs:
        for value in (stored, extraction):
            assert unpack(pack(value)) == value
            assert pickle.loads(older(value)) == value
            assert older(value) != pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)


def test_a_store_whose_manifest_an_earlier_version_compressed_with_zlib_reads_and_builds_on(tmp_path):
    """Blobs in the manifest are LZ4 frames; a store an earlier version built holds zlib
    streams instead. Such a store exports the same bytes, and a build that adds a record to it
    exports what a fresh build of all its records does."""
    import sqlite3
    import zlib

    import lz4.frame

    corpus = write_jsonl(tmp_path / "in.jsonl", [record(i, "We train with GRPO on MMLU.") for i in range(3)])
    store = tmp_path / "s"
    build_store([corpus], store, extractor=extract)

    before = {fmt: exported(store, fmt) for fmt in ("turtle", "nquads")}
    converted: Counter = Counter()

    def to_zlib(value):  # an LZ4 frame as the zlib stream an earlier version wrote
        if isinstance(value, bytes) and value[:4] == b"\x04\x22\x4d\x18":
            converted["blobs"] += 1
            return zlib.compress(lz4.frame.decompress(value), 1)
        return value

    with sqlite3.connect(store / "manifest.sqlite") as db:
        db.create_function("to_zlib", 1, to_zlib, deterministic=True)
        triggers = db.execute("SELECT sql FROM sqlite_master WHERE type = 'trigger'").fetchall()
        db.executescript("".join(f"DROP TRIGGER {name};" for (name,) in
                                 db.execute("SELECT name FROM sqlite_master WHERE type = 'trigger'")))
        for (table,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'").fetchall():
            for column in [row[1] for row in db.execute(f"PRAGMA table_info({table})")]:
                was = converted["blobs"]
                db.execute(f"UPDATE {table} SET {column} = to_zlib({column}) WHERE typeof({column}) = 'blob'")
                if converted["blobs"] > was:
                    converted[f"{table}.{column}"] = converted["blobs"] - was
        for (sql,) in triggers:
            db.execute(sql)
    assert {"records.record", "records.extraction", "blocks.text", "blocks.turtle"} <= set(converted), converted
    assert {fmt: exported(store, fmt) for fmt in before} == before
    more = write_jsonl(tmp_path / "more.jsonl", [record(7, "PPO on ALE.")])
    build_store([more], store, extractor=extract)
    fresh = tmp_path / "fresh"
    build_store([corpus, more], fresh, extractor=extract)
    for fmt in ("turtle", "ntriples", "nquads"):
        assert exported(store, fmt) == exported(fresh, fmt), fmt


def test_a_build_reads_each_page_of_records_from_the_manifest_index(tmp_path):
    """The records a build emits are read a page at a time after a ``seq``; each page must come
    from the index on ``seq``, not from sorting the whole table again (which made a build of n
    records read n^2 / page-size rows)."""
    from scholarkg.store.build import PAGE_QUERIES
    from scholarkg.store.manifest import Manifest

    m = Manifest(tmp_path / "manifest.sqlite")
    m.db.execute("CREATE TEMP TABLE targets (key TEXT PRIMARY KEY)")
    for sql in PAGE_QUERIES:
        plan = " | ".join(row[-1] for row in m.db.execute("EXPLAIN QUERY PLAN " + sql, (0, 500)))
        assert "TEMP B-TREE" not in plan and "_by_seq (seq>?)" in plan, plan
    m.close()


def test_a_build_keeps_what_did_not_change_and_exports_what_a_fresh_build_exports(tmp_path, caplog):
    """The snapshot and the search index are made from the graph alone: a build that leaves
    every part of the graph as it was keeps them, one that adds a record makes the Turtle of the
    blocks that changed, and every export then equals a fresh build's. A block without Turtle
    (kept by a store built before blocks had it) exports the same bytes."""
    import logging
    import sqlite3

    records = [record(i, "We train with GRPO on MMLU.") for i in range(3)]
    corpus = write_jsonl(tmp_path / "in.jsonl", records)
    store = tmp_path / "s"
    build_store([corpus], store, extractor=extract)
    # without the linker's kept state (a store an older version wrote) the build goes through
    # every stage and finds that the graph did not change; with it, it stops after reading
    with sqlite3.connect(store / "manifest.sqlite") as db:
        db.execute("DELETE FROM linked")
    for expected in ("the graph did not change", "nothing new was read"):
        caplog.clear()
        with caplog.at_level(logging.INFO, logger="scholarkg.store.build"):
            build_store([corpus], store, extractor=extract)
        assert any(m.startswith(expected) for m in caplog.messages), expected
    more = write_jsonl(tmp_path / "more.jsonl", [record(7, "PPO on ALE.")])
    build_store([more], store, extractor=extract)
    fresh = tmp_path / "fresh"
    build_store([corpus, more], fresh, extractor=extract)

    for fmt in ("turtle", "ntriples", "nquads", "jsonld"):
        assert exported(store, fmt) == exported(fresh, fmt), fmt
    turtle = exported(store, "turtle")
    assert b"2501.00007" in turtle and turtle.startswith(b"@prefix")
    with sqlite3.connect(store / "manifest.sqlite") as db:
        db.execute("UPDATE blocks SET turtle = NULL, lines = NULL")
    assert exported(store, "turtle") == turtle
    with GraphStore(store) as s:
        assert run_store_query(s, 'ASK { ?e <https://w3id.org/scholarkg/ontology#searchKey> " ppo" }').boolean


def _blocks(store) -> list[tuple]:
    import sqlite3

    with sqlite3.connect(store / "manifest.sqlite") as db:
        return db.execute("SELECT graph, unit, text, turtle, lines FROM blocks ORDER BY graph, unit").fetchall()


def test_a_store_build_makes_each_blocks_turtle_as_it_puts_it_and_completes_blocks_without_one(tmp_path):
    """A store build keeps each block's Turtle, statements and classes as it puts the block,
    the same that the snapshot step makes from the block's text. Blocks an earlier version left
    without them (its builds left every block so until their snapshot step, here one that
    stopped before it) are completed by the next build, which then exports what a fresh build
    exports."""
    import sqlite3

    from scholarkg.store.emit import ENTITIES, PAIRS, SHARED
    from scholarkg.store.manifest import unpack_text
    from scholarkg.store.snapshot import kept_counts, turtle_body

    papers = {i: record(i, f"We train GRPO and PPO on MMLU and ALE ({i}).", authors=("Ada Lovelace", f"Author {i}"))
              for i in range(1, 6)}
    first = write_jsonl(tmp_path / "a.jsonl", list(papers.values()))
    store = tmp_path / "s"
    build_store([first], store, extractor=extract)
    blocks = _blocks(store)
    assert {ENTITIES, PAIRS, SHARED} <= {graph for graph, *_ in blocks} and len(blocks) > 10
    for graph, unit, text, turtle, lines in blocks:
        assert turtle is not None and unpack_text(turtle) == turtle_body(unpack_text(text)), (graph, unit)
        assert lines == unpack_text(text).count(b"\n")
    assert sum(lines for *_, lines in blocks) == len(quads(store))
    assert kept_counts(store)[1] == _classes_in_graph(store)

    with sqlite3.connect(store / "manifest.sqlite") as db:  # as an earlier version's build left them, stopped
        db.execute("UPDATE blocks SET turtle = NULL, lines = NULL")  # before its snapshot step: the next build
        db.execute("DELETE FROM block_types")  # puts every shared block again, most with the text they have
        db.execute("UPDATE meta SET value = '1' WHERE name = 'unfinished'")
    papers.update({3: record(3, "We train DPO on MMLU."), 9: record(9, "PPO on ALE.")})  # one changed, one new
    build_store([write_jsonl(tmp_path / "b.jsonl", [papers[3], papers[9]])], store, extractor=extract)
    fresh = tmp_path / "fresh"
    build_store([write_jsonl(tmp_path / "all.jsonl", list(papers.values()))], fresh, extractor=extract)
    assert all(turtle is not None and lines is not None for *_, turtle, lines in _blocks(store))
    for fmt in ("turtle", "ntriples", "nquads"):
        assert exported(store, fmt) == exported(fresh, fmt), fmt
    assert kept_counts(store) == kept_counts(fresh)
    assert kept_counts(store)[1] == _classes_in_graph(store)


def test_the_turtle_of_many_blocks_made_at_once_is_each_blocks_own_even_when_a_block_holds_the_end_line(tmp_path):
    """Blocks' Turtle is made in one writer call and cut at a line ending each block; every
    piece is the block's own Turtle: blocks with one or many subjects, an empty block, and a
    block holding that very line (then each block is written alone)."""
    from scholarkg.store.manifest import unpack_text
    from scholarkg.store.snapshot import _BLOCK_END, turtle_bodies, turtle_body

    store = tmp_path / "s"
    papers = [record(i, "We train GRPO and PPO on MMLU and ALE.", authors=("Ada Lovelace", f"Author {i}")) for i in range(4)]
    build_store([write_jsonl(tmp_path / "a.jsonl", papers)], store, extractor=extract)
    texts = [unpack_text(text) for _, _, text, _, _ in _blocks(store)]
    assert len(texts) > 10 and max(t.count(b"\n") for t in texts) > 50 and min(t.count(b"\n") for t in texts) < 10
    texts.insert(3, b"")
    own = [turtle_body(t) for t in texts]
    assert turtle_bodies(texts) == own and all(own[i] for i in range(len(texts)) if i != 3)
    odd = texts[:5] + [_BLOCK_END + texts[5]] + texts[6:]
    assert turtle_bodies(odd) == [turtle_body(t) for t in odd]
    assert turtle_bodies(texts[:1]) == own[:1] and turtle_bodies([]) == []


def test_a_build_that_writes_much_of_the_store_compacts_its_database_and_a_small_one_does_not(tmp_path, caplog):
    store = tmp_path / "s"
    papers = [record(i, "We train with GRPO on MMLU.", authors=(f"Author {i}", "Ada Lovelace")) for i in range(60)]
    compacted = []
    for n, batch in enumerate((papers, [record(99, "PPO on ALE.")])):
        caplog.clear()
        with caplog.at_level(logging.INFO, logger="scholarkg.store.build"):
            build_store([write_jsonl(tmp_path / f"{n}.jsonl", batch)], store, extractor=extract)
        compacted.append(any(r.getMessage().startswith("compacted the store's database") for r in caplog.records))
    assert compacted == [True, False]
    with GraphStore(store) as opened:
        assert opened.count() > 0 and len(list(opened.ox.quads_for_pattern(None, None, None, None))) > opened.count()
