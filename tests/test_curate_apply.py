"""Applying corrections: the round trip through rebuilds, each action, stale reporting, provenance."""

from __future__ import annotations

import json

import pytest
from curation_support import PAPERS, V1, V2, use_extractor, write_inputs
from rdflib import Literal, URIRef
from rdflib.namespace import DCTERMS, PROV, RDF, SKOS

from scholarkg.curate import append_correction
from scholarkg.curate.state import entity_key
from scholarkg.errors import Problems
from scholarkg.graph import iri
from scholarkg.graph.load import load_graph
from scholarkg.graph.vocab import SKG
from scholarkg.pipeline import build
from scholarkg.named import get_named_query
from scholarkg.sparql import run_query


def _build(tmp_path, monkeypatch, corrections, table=V1, version="fake-1", papers=PAPERS):
    use_extractor(monkeypatch, table, version)
    inputs = write_inputs(tmp_path, papers)
    path = tmp_path / "papers.curation.toml"
    path.unlink(missing_ok=True)
    for c in corrections:
        append_correction(path, c)
    problems = Problems()
    return build([inputs], curation=path, problems=problems), problems


def _entity(graph, label):
    nodes = [s for s in graph.subjects(SKOS.prefLabel, Literal(label)) if (s, RDF.type, None) in graph]
    assert len(nodes) <= 1
    return nodes[0] if nodes else None


def _links(graph) -> set[tuple[str, str, str]]:
    out = set()
    for role in ("introduces", "evaluatesOn", "uses", "comparesWith", "mentions"):
        for paper, node in graph.subject_objects(SKG[role]):
            out.add((str(graph.value(paper, DCTERMS.title)), role, str(graph.value(node, SKOS.prefLabel))))
    return out


def _named(graph, name, **params):
    q = get_named_query(name)
    return run_query(graph, q.text, q.bindings(params), hidden=tuple(q.params)).to_dicts()


ALE = "Agents' Last Exam"
TONGYI = "Tongyi DeepResearch Technical Report"
HARNESS = "Harnessing Agentic Evolution"


def test_round_trip_curate_rebuild_with_changed_extractor(tmp_path, monkeypatch, cli):
    """Corrections made with `scholarkg curate` hold after a rebuild with another extractor and new records."""
    use_extractor(monkeypatch, V1, "fake-1")
    inputs = write_inputs(tmp_path)
    f = tmp_path / "papers.curation.toml"  # the default curation file of papers.jsonl
    for args in (
        ["add", "-f", f, ALE, ALE, "--type", "Benchmark", "--role", "introduces", "--alias", "ALE"],
        ["merge", "-f", f, "BrowseComp ZH", "BrowseComp", "--note", "same benchmark, Chinese split"],
        ["drop", "-f", f, "ReAct"],
        ["retype", "-f", f, "GPT-4o", "Model"],
        ["result", "-f", f, TONGYI, "--match", "value=43.4", "--set", "metric=accuracy", "--set", "unit=%"],
    ):
        assert cli("curate", *args).exit_code == 0
    out = tmp_path / "out"
    first = cli("build", inputs, "-o", out)
    assert first.exit_code == 0 and "stale" not in first.output

    def check(graph, version):
        links = _links(graph)
        assert (ALE, "introduces", ALE) in links
        assert not any(label in ("ALE", "ReAct", "BrowseComp ZH") for _t, _r, label in links)
        assert _entity(graph, "ALE") is None and _entity(graph, "ReAct") is None
        assert (_entity(graph, "GPT-4o"), RDF.type, SKG.Model) in graph
        assert (_entity(graph, "GPT-4o"), RDF.type, SKG.Method) not in graph
        assert (_entity(graph, "BrowseComp"), SKOS.altLabel, Literal("BrowseComp ZH")) in graph
        (fixed,) = [r for r in _named(graph, "author-results") if r["value"] == "43.4"]
        assert (fixed["metric"], fixed["unit"], fixed["origin"]) == ("accuracy", "%", "curated")
        assert {str(v) for v in graph.objects(None, URIRef(str(PROV) + "wasAttributedTo"))} == {str(iri.extractor(version))}

    check(load_graph(out), "fake-1")
    assert _entity(load_graph(out), ALE) == iri.entity(entity_key(ALE))
    use_extractor(monkeypatch, V2, "fake-2")
    more = [*PAPERS, {"title": "A New Paper on ALE", "abstract": "We revisit ALE with GRPO.", "year": 2026,
                      "authors": ["Maojia Song"]}]
    write_inputs(tmp_path, more)
    second = cli("build", inputs, "-o", out)
    assert second.exit_code == 0 and "stale" not in second.output, second.output
    graph = load_graph(out)
    check(graph, "fake-2")
    assert _entity(graph, ALE) == iri.entity(entity_key(ALE))  # the same IRI whichever extractor found it
    # The new paper's mention of "ALE" resolves to the curated entity (ALE is its alias).
    assert ("A New Paper on ALE", "mentions", ALE) in _links(graph)
    assert json.loads((out / "build.json").read_text())["curation"] == "../papers.curation.toml"


def test_merge_moves_mentions_and_results_and_keeps_names(tmp_path, monkeypatch):
    result, problems = _build(tmp_path, monkeypatch, [{"action": "merge", "entity": "BrowseComp ZH", "into": "BrowseComp"}])
    g = result.graph
    node = _entity(g, "BrowseComp")
    assert _entity(g, "BrowseComp ZH") is None and (iri.entity(entity_key("BrowseComp ZH")), None, None) not in g
    assert (node, SKOS.altLabel, Literal("BrowseComp ZH")) in g
    moved = [m for m in g.subjects(SKG.mentionOf, node) if str(g.value(m, SKG.anchorText)) == "BrowseComp ZH"]
    assert len(moved) == 1 and (moved[0], PROV.wasInfluencedBy, None) in g and (moved[0], PROV.wasAttributedTo, None) in g
    assert {str(g.value(r, SKG.value)) for r in g.subjects(SKG.benchmark, node)} == {"43.4", "46.7"}
    assert not problems.notes


def test_split_moves_only_the_listed_papers(tmp_path, monkeypatch):
    result, _ = _build(tmp_path, monkeypatch, [
        {"action": "split", "entity": "GRPO", "new": "GRPO-variant", "papers": [HARNESS], "type": "Method"}])
    links = _links(result.graph)
    assert (HARNESS, "uses", "GRPO-variant") in links and (HARNESS, "uses", "GRPO") not in links
    assert (TONGYI, "uses", "GRPO") in links
    assert (_entity(result.graph, "GRPO-variant"), RDF.type, SKG.Method) in result.graph


def test_rename_changes_label_and_iri_and_keeps_the_old_name(tmp_path, monkeypatch):
    result, _ = _build(tmp_path, monkeypatch, [{"action": "rename", "entity": "grpo", "label": "Group Relative Policy Optimization"}])
    g = result.graph
    node = _entity(g, "Group Relative Policy Optimization")
    assert node == iri.entity(entity_key("Group Relative Policy Optimization"))
    assert (node, SKOS.altLabel, Literal("GRPO")) in g and _entity(g, "GRPO") is None
    assert (TONGYI, "uses", "Group Relative Policy Optimization") in _links(g)


def test_alias_adds_a_name_and_merges_an_entity_called_so(tmp_path, monkeypatch):
    result, _ = _build(tmp_path, monkeypatch, [
        {"action": "alias", "entity": "GRPO", "alias": "Group Relative Policy Optimization"},
        {"action": "alias", "entity": "DPO", "alias": "ReAct"},  # deliberately odd: ReAct is merged into DPO
    ])
    g = result.graph
    assert (_entity(g, "GRPO"), SKOS.altLabel, Literal("Group Relative Policy Optimization")) in g
    # ReAct's mention now names DPO, so the paper's strongest role for DPO is comparesWith.
    assert _entity(g, "ReAct") is None and (HARNESS, "comparesWith", "DPO") in _links(g)
    assert (_entity(g, "DPO"), SKOS.altLabel, Literal("ReAct")) in g


def test_retype_replaces_the_type(tmp_path, monkeypatch):
    result, _ = _build(tmp_path, monkeypatch, [{"action": "retype", "entity": "BrowseComp", "type": "Dataset"}])
    node = _entity(result.graph, "BrowseComp")
    assert set(result.graph.objects(node, RDF.type)) == {SKG.Dataset, SKOS.Concept}


def test_drop_everywhere_or_in_some_papers(tmp_path, monkeypatch):
    result, _ = _build(tmp_path, monkeypatch, [
        {"action": "drop", "entity": "ReAct"},
        {"action": "drop", "entity": "GRPO", "papers": [HARNESS]},
    ])
    links = _links(result.graph)
    assert _entity(result.graph, "ReAct") is None
    assert (HARNESS, "uses", "GRPO") not in links and (TONGYI, "uses", "GRPO") in links


def test_add_anchors_in_text_when_it_can_and_overrides_roles(tmp_path, monkeypatch):
    result, _ = _build(tmp_path, monkeypatch, [
        {"action": "add", "paper": ALE, "entity": ALE, "type": "Benchmark", "role": "introduces", "aliases": ["ALE"]},
        {"action": "add", "paper": HARNESS, "entity": "Evolution Strategies", "type": "Method", "role": "uses"},
        {"action": "add", "paper": TONGYI, "entity": "BrowseComp", "type": "Benchmark", "role": "introduces"},
    ])
    g = result.graph
    links = _links(g)
    assert {(ALE, "introduces", ALE), (HARNESS, "uses", "Evolution Strategies"), (TONGYI, "introduces", "BrowseComp")} <= links
    assert (TONGYI, "evaluatesOn", "BrowseComp") not in links  # one role per paper and entity
    (anchored,) = g.subjects(SKG.mentionOf, _entity(g, ALE))
    text = str(g.value(anchored, SKG.anchorText))
    start, end = int(g.value(anchored, SKG.startOffset)), int(g.value(anchored, SKG.endOffset))
    assert text == ALE and PAPERS[0]["title"][start:end] == text
    assert (anchored, PROV.wasGeneratedBy, None) in g and (anchored, PROV.wasAttributedTo, None) not in g
    (loose,) = g.subjects(SKG.mentionOf, _entity(g, "Evolution Strategies"))
    assert (loose, SKG.startOffset, None) not in g and (loose, PROV.wasGeneratedBy, None) in g
    assert (_entity(g, ALE), SKOS.altLabel, Literal("ALE")) in g


def test_result_fix_remove_and_add(tmp_path, monkeypatch):
    result, problems = _build(tmp_path, monkeypatch, [
        {"action": "result", "paper": TONGYI, "match": {"value": "43.4"}, "set": {"value": "43.5", "unit": "%"}},
        {"action": "result", "paper": TONGYI, "match": {"benchmark": "BrowseComp ZH"}, "drop": True},
        {"action": "result", "paper": ALE, "set": {"model": "GPT-4o", "benchmark": ALE, "value": "12.5", "unit": "%"}},
    ])
    rows = {(r.get("title"), r.get("model"), r.get("benchmark"), r["value"], r.get("unit"), r["origin"])
            for r in _named(result.graph, "author-results")}
    assert rows == {
        (TONGYI, "Tongyi DeepResearch", "BrowseComp", "43.5", "%", "curated"),
        (ALE, "GPT-4o", ALE, "12.5", "%", "curated"),
    }
    (added,) = [r for r in _named(result.graph, "author-results") if r["value"] == "12.5"]
    assert added["evidence"] == "GPT-4o reaches 12.5% on ALE."  # the sentence stating it
    assert not problems.notes


def test_paper_pins_arxiv_id_and_year(tmp_path, monkeypatch):
    result, _ = _build(tmp_path, monkeypatch, [{"action": "paper", "paper": ALE, "arxiv_id": "2601.01234", "year": 2025}])
    paper = iri.paper("arxiv:2601.01234")
    assert (paper, SKG.arxivId, Literal("2601.01234")) in result.graph
    (row,) = _named(result.graph, "curations", action="paper")
    assert (row["node"], row["change"], row["label"]) == (str(paper), "changed paper", ALE)


STALE = [
    {"action": "merge", "entity": "Nothing Like It", "into": "BrowseComp"},
    {"action": "split", "entity": "GRPO", "new": "G2", "papers": ["No Such Paper"]},
    {"action": "rename", "entity": "Nothing Like It", "label": "Something"},
    {"action": "alias", "entity": "Nothing Like It", "alias": "x"},
    {"action": "retype", "entity": "Nothing Like It", "type": "Task"},
    {"action": "drop", "entity": "ReAct", "papers": [TONGYI]},
    {"action": "add", "paper": "No Such Paper", "entity": "X", "type": "Task"},
    {"action": "result", "paper": TONGYI, "match": {"value": "99.9"}, "set": {"value": "1"}},
    {"action": "paper", "paper": "No Such Paper", "year": 2020},
]


@pytest.mark.parametrize("correction", STALE, ids=[c["action"] for c in STALE])
def test_a_correction_that_matches_nothing_is_reported(tmp_path, monkeypatch, correction):
    result, problems = _build(tmp_path, monkeypatch, [correction])
    (status,) = result.statuses
    assert status.state == "stale"
    (note,) = problems.notes
    assert note.startswith(str(tmp_path / "papers.curation.toml") + ": correction 1 (")
    assert "stale" in note and "no longer matches" in note
    assert (iri.curation(status.correction.id), None, None) not in result.graph


def test_done_work_is_unchanged_not_stale(tmp_path, monkeypatch):
    result, problems = _build(tmp_path, monkeypatch, [
        {"action": "retype", "entity": "GRPO", "type": "Method"},
        {"action": "add", "paper": TONGYI, "entity": "GRPO", "type": "Method", "role": "uses"},
        {"action": "rename", "entity": "Old Name", "label": "GRPO"},
    ])
    assert [s.state for s in result.statuses] == ["unchanged"] * 3
    assert not problems.notes


def test_source_filter_tells_curated_from_extracted(tmp_path, monkeypatch):
    import pyoxigraph as ox

    result, _ = _build(tmp_path, monkeypatch, [
        {"action": "add", "paper": ALE, "entity": ALE, "type": "Benchmark", "role": "introduces"},
        {"action": "merge", "entity": "BrowseComp ZH", "into": "BrowseComp"},
    ])
    g = result.graph
    curated = {(r["title"], r["label"]) for r in _named(g, "entity-links", source="curated")}
    extracted = {(r["title"], r["label"]) for r in _named(g, "entity-links", source="extracted")}
    everything = {(r["title"], r["label"]) for r in _named(g, "entity-links")}
    assert curated == {(ALE, ALE), (TONGYI, "BrowseComp")}
    assert curated | extracted == everything and not curated & extracted
    assert (HARNESS, "GRPO") in extracted
    # The same answer from Oxigraph, which needs every parameter bound and projected.
    store = ox.Store()
    store.load(g.serialize(format="nt").encode("utf-8"), ox.RdfFormat.N_TRIPLES)
    q = get_named_query("entity-links")
    rows = store.query(q.text, substitutions={ox.Variable(k): ox.Literal(v) for k, v in q.bindings({"source": "curated"}).items()})
    assert {(r["title"].value, r["label"].value) for r in rows} == curated


def test_split_takes_a_name_away_from_the_entity_it_leaves(tmp_path, monkeypatch):
    result, _ = _build(tmp_path, monkeypatch, [
        {"action": "alias", "entity": "DPO", "alias": "Direct Policy Optimisation"},
        {"action": "split", "entity": "DPO", "new": "Direct Policy Optimisation", "papers": [HARNESS]},
    ])
    g = result.graph
    assert (HARNESS, "uses", "Direct Policy Optimisation") in _links(g)
    assert (_entity(g, "Direct Policy Optimisation"), RDF.type, SKG.Method) in g
    assert _entity(g, "DPO") is None  # DPO was only named in that paper


EVERY_KIND = [
    {"action": "add", "paper": ALE, "entity": ALE, "type": "Benchmark", "role": "introduces", "aliases": ["ALE"]},
    {"action": "add", "paper": HARNESS, "entity": "Evolution Strategies", "type": "Method", "role": "uses"},
    {"action": "merge", "entity": "BrowseComp ZH", "into": "BrowseComp"},
    {"action": "split", "entity": "GRPO", "new": "GRPO-variant", "papers": [HARNESS]},
    {"action": "rename", "entity": "DPO", "label": "Direct Preference Optimization"},
    {"action": "alias", "entity": "GPT-4o", "alias": "GPT 4 omni"},
    {"action": "retype", "entity": "ReAct", "type": "Model"},
    {"action": "drop", "entity": "BrowseComp", "papers": [ALE]},
    {"action": "result", "paper": TONGYI, "match": {"value": "43.4"}, "set": {"unit": "%"}},
    {"action": "result", "paper": HARNESS, "set": {"model": "GRPO-variant", "value": "7.7"}, "evidence": "Table 2."},
    {"action": "result", "paper": ALE, "set": {"model": "GPT-4o", "benchmark": ALE, "value": "12.5", "unit": "%"}},
    {"action": "paper", "paper": ALE, "arxiv_id": "2601.01234", "doi": "10.1000/ale"},
]


@pytest.mark.parametrize("with_ontology", [False, True])
def test_a_graph_with_every_kind_of_correction_conforms_to_the_shapes(tmp_path, monkeypatch, with_ontology):
    from scholarkg.graph.validate import validate

    result, problems = _build(tmp_path, monkeypatch, EVERY_KIND)
    assert [s.state for s in result.statuses] == ["applied"] * len(EVERY_KIND), [str(s) for s in result.statuses]
    assert not problems.notes
    g = result.graph
    kinds = {str(g.value(c, SKG.curationAction)) for c in g.subjects(RDF.type, SKG.Curation)}
    assert kinds == {"add", "merge", "split", "rename", "alias", "retype", "drop", "result", "paper"}
    # A link without a span, and a result without one, are both in this graph.
    assert any((m, SKG.startOffset, None) not in g for m in g.subjects(PROV.wasGeneratedBy, None) if (m, RDF.type, SKG.Mention) in g)
    assert any((r, SKG.startOffset, None) not in g for r in g.subjects(PROV.wasGeneratedBy, None) if (r, RDF.type, SKG.Result) in g)
    report = validate(g, with_ontology=with_ontology)
    assert report.conforms, "\n".join(map(str, report.violations))


def test_the_shapes_tell_curated_from_extracted(tmp_path, monkeypatch):
    from scholarkg.graph.validate import validate

    result, _ = _build(tmp_path, monkeypatch, EVERY_KIND)
    g = result.graph
    generated = sorted(m for m in g.subjects(PROV.wasGeneratedBy, None) if (m, RDF.type, SKG.Mention) in g)[0]
    g.add((generated, PROV.wasAttributedTo, iri.extractor("fake-1")))  # claims both sources
    report = validate(g, with_ontology=False)
    assert not report.conforms and {v.focus for v in report.violations} == {generated}
    assert "https://w3id.org/scholarkg/shapes#Mention" in {str(v.rule) for v in report.violations}
    g.remove((generated, PROV.wasAttributedTo, None))
    g.remove((generated, PROV.wasGeneratedBy, None))  # claims none
    report = validate(g, with_ontology=False)
    assert not report.conforms and {v.focus for v in report.violations} == {generated}
