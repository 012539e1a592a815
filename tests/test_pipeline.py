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


def test_duplicate_records_are_reported_and_skipped(tmp_path):
    path = tmp_path / "dup.jsonl"
    rec = {"title": "Same Paper", "abstract": "We evaluate on BrowseComp.", "year": 2024}
    path.write_text(json.dumps(rec) + "\n" + json.dumps(rec) + "\n", encoding="utf-8")
    result = build([path])
    assert len(result.records) == 1
    assert [str(p) for p in result.problems.items] == [
        f"{path}:line 2 [id]: duplicate of the record at {path}:line 1 (skipped)"
    ]


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


def test_replace_directory_swaps_whole_folder(tmp_path):
    target = tmp_path / "out"
    replace_directory(target, {"a.txt": b"1", "b.txt": b"1"})
    replace_directory(target, {"a.txt": b"2"})
    assert sorted(p.name for p in target.iterdir()) == ["a.txt"]
    assert (target / "a.txt").read_bytes() == b"2"
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".out.") and not p.name.endswith(".lock")] == []


def test_concurrent_writer_gets_locked_error(tmp_path):
    target = tmp_path / "out"
    with locked(target):
        with pytest.raises(LockedError, match="locked by another running build"):
            replace_directory(target, {"a.txt": b"x"})
