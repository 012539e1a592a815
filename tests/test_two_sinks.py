"""One pipeline, two sinks: `build --out` and `build --store` give the same graph for the same
inputs, with and without a curation file and an enrichment file: the same N-Quads, the same
N-Triples and Turtle bytes, the same summary."""

from __future__ import annotations

import io
import json
import shutil

import pyoxigraph as ox
import pytest

from scholarkg.pipeline import build
from scholarkg.store import GraphStore, export_store, store_summary

# Corrections of every kind the seed's papers give something to act on.
CURATION = """
[[correction]]
action = "add"
paper = "Agents' Last Exam"
entity = "Agents' Last Exam"
type = "Benchmark"
role = "introduces"
aliases = ["ALE"]

[[correction]]
action = "add"
paper = "Agents' Last Exam"
entity = "Long-Horizon Agent Evaluation"
type = "Task"
role = "evaluatesOn"
note = "a link whose name is not in the text"

[[correction]]
action = "retype"
entity = "BrowseComp"
type = "Dataset"

[[correction]]
action = "alias"
entity = "GRPO"
alias = "Group Relative PO"

[[correction]]
action = "drop"
entity = "Qwen 3-4B"

[[correction]]
action = "paper"
paper = "Agents' Last Exam"
doi = "10.1000/ale"

[[correction]]
action = "rename"
entity = "No Such Entity Anywhere"
label = "Still Nothing"
note = "stale: reported at every build, the same in both"
"""


def _quads(quads) -> list[str]:
    buffer = io.BytesIO()
    ox.serialize(quads, buffer, ox.RdfFormat.N_QUADS)
    return sorted(buffer.getvalue().decode("utf-8").splitlines())


def _export(path, fmt) -> bytes:
    buffer = io.BytesIO()
    with GraphStore(path) as store:
        export_store(store, fmt, buffer)
    return buffer.getvalue()


def _inputs(tmp_path, seed_path, curation: bool, enrichment: bool):
    folder = tmp_path / "in"
    folder.mkdir()
    seed = shutil.copy(seed_path, folder / "papers.txt")
    if curation:
        (folder / "papers.curation.toml").write_text(CURATION, encoding="utf-8")
    if enrichment:
        entry = {"match": {"arxiv_id": None, "title": "Agents' Last Exam"}, "by": "title", "arxiv_id": "2601.99999",
                 "title": "Agents' Last Exam", "authors": ["Maojia Song", "Ada Lovelace", "Alan Turing"],
                 "categories": ["cs.AI", "cs.CL"], "primary_category": "cs.AI", "published": "2026-01-05",
                 "updated": "2026-01-07", "doi": None, "journal_ref": "Journal of Tests 1 (2026)"}
        (folder / "papers.enrichment.jsonl").write_text(json.dumps(entry, sort_keys=True) + "\n", encoding="utf-8")
    return seed


@pytest.mark.parametrize("curation, enrichment", [(False, False), (True, False), (True, True)],
                         ids=["extractor-only", "curated", "curated-enriched"])
def test_folder_and_store_builds_hold_the_same_graph(tmp_path, seed_path, cli, curation, enrichment):
    seed = _inputs(tmp_path, seed_path, curation, enrichment)
    out, store = tmp_path / "out", tmp_path / "s.store"
    folder = cli("build", seed, "--out", out)
    stored = cli("build", seed, "--store", store)
    assert folder.exit_code == 0 and stored.exit_code == 0, folder.output + stored.output

    # What each command printed about the graph is the same.
    def tail(text):
        return text[text.index("papers "):]
    assert tail(stored.stdout) == tail(folder.stdout)
    if curation:
        assert "correction 7" in stored.stdout and "stale" in stored.stdout

    # The same files, byte for byte, from the folder and from the store's export.
    assert _export(store, "ntriples") == (out / "graph.nt").read_bytes()
    assert _export(store, "turtle") == (out / "graph.ttl").read_bytes()

    # The same statements in the same named graphs: the in-memory sink and the on-disk one.
    in_memory = build([seed], curation=seed.with_name("papers.curation.toml") if curation else None,
                      enrichment=seed.with_name("papers.enrichment.jsonl") if enrichment else None)
    with GraphStore(store) as opened:
        on_disk = _quads(opened.quads())  # the graph, without the store's search index
        assert store_summary(opened)["triples"] == in_memory.summary["triples"] == len(on_disk)
    assert on_disk == _quads(in_memory.store.ox)
    assert len({line.rsplit(" ", 2)[0] for line in on_disk}) == len(on_disk)  # each statement in one graph
    nt_lines = (out / "graph.nt").read_text(encoding="utf-8").splitlines()
    assert sorted(nt_lines) == sorted(line.rsplit(" ", 2)[0] + " ." for line in on_disk)


# The "paper" correction pins a DOI, which changes the paper's identity (the profile's papers have
# no arXiv id, so the IRI is minted from the DOI once there is one): the store replaces the
# record kept under its old key, and takes it back when the correction goes.
SAME_IDENTITY = CURATION.replace("""[[correction]]
action = "paper"
paper = "Agents' Last Exam"
doi = "10.1000/ale"
""", "")


@pytest.mark.parametrize("corrections", [SAME_IDENTITY, CURATION], ids=["same-identity", "new-doi"])
def test_curation_changes_reach_a_store_and_leave_it_when_removed(tmp_path, seed_path, cli, corrections):
    seed = _inputs(tmp_path, seed_path, curation=True, enrichment=False)
    curation = seed.with_name("papers.curation.toml")
    curation.write_text(corrections, encoding="utf-8")
    store = tmp_path / "s.store"
    assert cli("build", seed, "--store", store, "--no-curation").exit_code == 0
    plain = _export(store, "ntriples")
    assert b"10.1000/ale" not in plain and b"Long-Horizon Agent Evaluation" not in plain

    assert cli("build", seed, "--store", store).exit_code == 0  # the curation file beside the input
    curated = _export(store, "ntriples")
    assert b"Long-Horizon Agent Evaluation" in curated and (b'"10.1000/ale"' in curated) == ("10.1000" in corrections)
    fresh = tmp_path / "fresh.store"
    assert cli("build", seed, "--store", fresh, "--curation", curation).exit_code == 0
    assert _export(fresh, "ntriples") == curated  # incremental or from scratch: one graph

    again = cli("build", seed, "--store", store)
    assert "0 added, 0 updated, 18 unchanged" in again.stdout and "relinked" not in again.stdout
    removed = cli("build", seed, "--store", store, "--no-curation")
    assert removed.exit_code == 0
    assert _export(store, "ntriples") == plain


def test_the_explorer_draws_the_same_page_from_a_folder_a_store_and_rdflib(tmp_path, seed_path, cli):
    from scholarkg import api

    seed = _inputs(tmp_path, seed_path, curation=True, enrichment=False)
    out, store = tmp_path / "out", tmp_path / "s.store"
    assert cli("build", seed, "--out", out).exit_code == 0
    assert cli("build", seed, "--store", store).exit_code == 0
    part = tmp_path / "introduced.rq"
    part.write_text("PREFIX skg: <https://w3id.org/scholarkg/ontology#>\n"
                    "CONSTRUCT { ?p skg:introduces ?e } WHERE { ?p skg:introduces ?e }\n", encoding="utf-8")
    for options in ([], ["--focus", "Agents' Last Exam", "--depth", "2"], ["--query", part]):
        pages = []
        for source in (["--store", store], [out], [out / "graph.ttl"]):
            html = tmp_path / "page.html"
            result = cli("render", *source, "-o", html, *options)
            assert result.exit_code == 0, result.output
            pages.append(html.read_bytes())
        api.render(api.load(out), tmp_path / "rdflib.html", **_api_options(options))
        pages.append((tmp_path / "rdflib.html").read_bytes())
        assert len(set(pages)) == 1, options
        if not options:
            assert (out / "graph.html").read_bytes() == pages[0]  # what the build drew itself
        assert b"Last Exam" in pages[0]


def _api_options(options) -> dict:
    if not options:
        return {}
    if options[0] == "--focus":
        return {"focus": options[1], "depth": int(options[3])}
    return {"query": options[1].read_text(encoding="utf-8")}


def test_json_ld_of_the_folder_and_the_store_is_the_same_document_of_the_same_graph(tmp_path, seed_path, cli):
    seed = _inputs(tmp_path, seed_path, curation=True, enrichment=False)
    out, store = tmp_path / "out", tmp_path / "s.store"
    assert cli("build", seed, "--out", out).exit_code == 0
    assert cli("build", seed, "--store", store).exit_code == 0
    document = (out / "graph.jsonld").read_bytes()
    assert _export(store, "jsonld") == document
    ids = [node["@id"] for node in json.loads(document)["@graph"]]
    assert len(ids) == len(set(ids))  # each subject once: the snapshot keeps its statements together
    parsed = sorted(f"{q.triple} ." for q in ox.parse(document, format=ox.RdfFormat.JSON_LD))
    assert parsed == sorted((out / "graph.nt").read_text(encoding="utf-8").splitlines())


def test_a_folder_build_past_its_memory_budget_goes_on_on_disk_and_writes_the_same_files(tmp_path, seed_path, cli, monkeypatch):
    seed = _inputs(tmp_path, seed_path, curation=True, enrichment=False)
    in_memory = cli("build", seed, "--out", tmp_path / "memory")
    monkeypatch.setenv("SCHOLARKG_BUILD_MEMORY_MB", "0.5")  # the seed's graph is about 2 MB in memory
    spilled = cli("build", seed, "--out", tmp_path / "disk")
    assert in_memory.exit_code == 0 and spilled.exit_code == 0, in_memory.output + spilled.output
    for name in ("graph.ttl", "graph.nt", "graph.jsonld", "graph.html", "extraction.jsonl", "summary.json"):
        assert (tmp_path / "disk" / name).read_bytes() == (tmp_path / "memory" / name).read_bytes(), name

    result = build([seed], curation=seed.with_name("papers.curation.toml"), memory_budget=500_000)
    try:
        assert result.store.on_disk  # it moved
        assert (result.store.path / "oxigraph").is_dir()
        assert _quads(result.store.ox) == _quads(build([seed], curation=seed.with_name("papers.curation.toml")).store.ox)
    finally:
        result.close()

    monkeypatch.setenv("SCHOLARKG_BUILD_MEMORY_MB", "lots")
    bad = cli("build", seed, "--out", tmp_path / "bad")
    assert bad.exit_code != 0 and "$SCHOLARKG_BUILD_MEMORY_MB must be a number of megabytes" in bad.output
    assert "Traceback" not in bad.output
