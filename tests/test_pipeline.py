"""The build pipeline end to end: records in, one consistent graph and output folder out."""

from __future__ import annotations

import json

import pytest
from rdflib import URIRef
from rdflib.namespace import DCTERMS, RDF, SKOS

from scholarkg import api
from scholarkg.errors import LockedError, RecordError
from scholarkg.fileio import locked, replace_directory
from scholarkg.graph.vocab import SKG
from scholarkg.pipeline import build


def test_seed_graph_core_counts(seed_graph):
    assert len(set(seed_graph.subjects(RDF.type, SKG.Paper))) == 18
    assert len(set(seed_graph.subjects(RDF.type, SKG.Author))) == 1
    cats = set(seed_graph.objects(None, DCTERMS.subject))
    assert {str(seed_graph.value(c, SKOS.notation)) for c in cats} == {"cs.AI", "cs.CL", "cs.CV", "cs.LG", "cs.SE"}
    for c in cats:  # linked into the SKOS scheme: category -> archive -> group
        archive = seed_graph.value(c, SKOS.broader)
        assert seed_graph.value(archive, SKOS.broader) is not None
        assert (c, SKOS.inScheme, URIRef("https://w3id.org/scholarkg/id/arxiv/taxonomy")) in seed_graph


def test_no_blank_nodes(seed_graph):
    from rdflib import BNode

    assert not any(isinstance(term, BNode) for triple in seed_graph for term in triple)


def test_duplicate_records_are_merged_and_noted(tmp_path):
    path = tmp_path / "dup.jsonl"
    rec = {"title": "Same Paper", "year": 2024, "authors": ["Ada Lovelace"]}
    path.write_text(json.dumps(rec) + "\n" + json.dumps({**rec, "abstract": "We evaluate on BrowseComp.",
                                                          "doi": "10.1000/same"}) + "\n", encoding="utf-8")
    result = build([path])
    (record,) = result.records
    assert record.abstract == "We evaluate on BrowseComp." and record.doi == "10.1000/same"  # fields combined
    assert result.problems.items == [] and result.problems.skipped_records == 0
    assert [str(p) for p in result.problems.record_notes] == [
        f"{path}:line 2 [id]: same paper as line 1 in dup.jsonl; fields combined"]


def test_strict_build_stops_at_bad_record(tmp_path):
    path = tmp_path / "bad.jsonl"
    path.write_text('{"title": "T", "abstract": "A", "year": "someday"}\n', encoding="utf-8")
    with pytest.raises(RecordError):
        api.build(path, strict=True)


def test_api_build_writes_folder(tmp_path, seed_path):
    out = tmp_path / "g"
    result = api.build(seed_path, out=out)
    assert result.summary["papers"] == 18
    graph = api.load(out)
    assert len(graph) == len(result.graph)
    assert api.query(graph, named="categories").to_dicts()


def test_a_builds_summary_is_a_new_dict_each_time(tmp_path):
    path = tmp_path / "two.jsonl"
    path.write_text(json.dumps({"title": "A", "year": 2024, "authors": ["Ada Lovelace"]}) + "\n"
                    + json.dumps({"title": "B", "year": "someday", "authors": ["Ada Lovelace"]}) + "\n", encoding="utf-8")
    result = build([path])
    first = result.summary
    assert first["papers"] == 2 and first["problems"] == 1 and first["triples"] == result.store.count()
    first["entities"]["Model"] = -1  # what write_outputs does to its copy (the notes) reaches no other
    first["notes"].append("changed")
    again = result.summary
    assert again["entities"]["Model"] == 0 and "changed" not in again["notes"]
    assert again == {**first, "entities": {**first["entities"], "Model": 0}, "notes": first["notes"][:-1]}


def test_replace_directory_swaps_whole_folder(tmp_path):
    target = tmp_path / "out"
    replace_directory(target, {"a.txt": b"1", "b.txt": b"1"})
    replace_directory(target, {"a.txt": b"2"})
    assert sorted(p.name for p in target.iterdir()) == ["a.txt"]
    assert (target / "a.txt").read_bytes() == b"2"
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".out.") and not p.name.endswith(".lock")] == []


def test_concurrent_writer_gets_locked_error(tmp_path):
    from concurrent.futures import ThreadPoolExecutor

    target = tmp_path / "out"
    with locked(target):
        replace_directory(target, {"a.txt": b"mine"})  # the holder itself may write
        with ThreadPoolExecutor(1) as pool:
            with pytest.raises(LockedError, match="locked by another running build"):
                pool.submit(replace_directory, target, {"a.txt": b"x"}).result()
    assert (target / "a.txt").read_bytes() == b"mine"
