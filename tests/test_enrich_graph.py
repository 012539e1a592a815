"""`scholarkg enrich GRAPH` end to end: a build enriched through the replay server, kept by
rebuilds, repeatable offline, respectful of curated facts, and clear when arXiv fails."""

from __future__ import annotations

import json

import pytest
from arxiv_replay import Replay, entry_xml
from rdflib import Literal
from rdflib.namespace import DCTERMS, FOAF

from scholarkg.graph import iri
from scholarkg.graph.load import load_graph
from scholarkg.graph.vocab import BIBO, FABIO, SKG

pytestmark = pytest.mark.shared

BETHE = "Quantum Criticality for Extended Nodes on a Bethe Lattice in the Large Connectivity Limit"
NANO = "Local Superfluidity at the Nanoscale"
MELT = "Thermal melting of density waves on the square lattice"
ENTANGLED = "Particle partition entanglement of bosonic Luttinger liquids"
ABSENT = "A Paper That Is Not On arXiv"
TWIN = "Scaling Agents via Continual Pre-training"
RECORDS = [
    {"title": BETHE, "arxiv_id": "1111.2011", "authors": ["Adrian Del Maestro"], "year": 2011},
    {"title": NANO, "authors": ["Adrian Del Maestro"], "year": 2013},
    {"title": MELT, "authors": ["Adrian Del Maestro"], "year": 2011},
    {"title": ENTANGLED, "authors": ["Adrian Del Maestro"], "year": 2014},
    {"title": ABSENT, "authors": ["Adrian Del Maestro"], "year": 2020},
    {"title": TWIN, "authors": ["Maojia Song"], "year": 2025},
]
CURATION = f"""
[[correction]]
action = "paper"
paper = "{MELT}"
year = 1999
note = "the year of the version we cite"

[[correction]]
action = "paper"
paper = "{ENTANGLED}"
arxiv_id = ""
"""
TWINS = [
    entry_xml("2601.00001", TWIN, ["Maojia Song", "Ada Lovelace"], ["cs.CL", "cs.AI"], doi="10.1000/twin"),
    entry_xml("2601.00002", TWIN, ["Someone Else"], ["cs.LG"]),
]


@pytest.fixture
def project(tmp_path):
    inputs = tmp_path / "papers.jsonl"
    inputs.write_text("".join(json.dumps({**r, "abstract": f"About {r['title']}."}) + "\n" for r in RECORDS), encoding="utf-8")
    (tmp_path / "papers.curation.toml").write_text(CURATION, encoding="utf-8")
    return inputs


def _year(graph, paper):
    return str(graph.value(paper, FABIO.hasPublicationYear))


def test_enrich_adds_arxiv_facts_and_rebuilds_keep_them(project, tmp_path, cli, shared_data):
    out, cache = tmp_path / "out", tmp_path / "cache"
    assert cli("build", project, "-o", out).exit_code == 0
    assert list(load_graph(out).objects(None, SKG.arxivId)) == [Literal("1111.2011")]  # only the record's own id

    with Replay(shared_data / "arxiv-atom", TWINS) as replay:
        done = cli("enrich", out, "--base-url", replay.url, "--interval", "0.05", "--cache", cache)
        assert done.exit_code == 0, done.output
        queries = replay.queries()
    assert "found       4" in done.output and "not found   1" in done.output and "pinned off  1" in done.output
    assert len(queries) == 5 and [q["id_list"] for q in queries if "id_list" in q] == [["1111.2011"]]
    assert not any("entanglement" in q.get("search_query", [""])[0] for q in queries)  # pinned: never asked

    from rdflib.namespace import XSD

    g = load_graph(out)
    bethe = iri.paper("arxiv:1111.2011")
    assert (bethe, BIBO.doi, Literal("10.1103/PhysRevB.85.115117")) in g
    assert (bethe, DCTERMS.bibliographicCitation, Literal("Phys. Rev. B 85, 115117 (2012)")) in g
    assert (bethe, DCTERMS.issued, Literal("2011-11-08", datatype=XSD.date)) in g
    assert (bethe, SKG.primaryCategory, iri.category("cond-mat.str-el")) in g
    assert (bethe, DCTERMS.subject, iri.category("cond-mat.stat-mech")) in g
    names = {str(n) for n in g.objects(None, FOAF.name)}
    assert {"James M. Murray", "Zlatko Tesanovic", "Ada Lovelace"} <= names
    nano = iri.paper("arxiv:1303.6954")
    assert (nano, DCTERMS.title, Literal(NANO)) in g  # the record's own title is kept
    melt = [p for p in g.subjects(DCTERMS.title, Literal(MELT))][0]
    assert _year(g, melt) == "1999" and (melt, SKG.arxivId, None) in g  # pinned year wins over arXiv's
    entangled = [p for p in g.subjects(DCTERMS.title, Literal(ENTANGLED))][0]
    assert (entangled, SKG.arxivId, None) not in g
    assert (iri.paper("arxiv:2601.00001"), BIBO.doi, Literal("10.1000/twin")) in g
    absent = [p for p in g.subjects(DCTERMS.title, Literal(ABSENT))][0]
    assert (absent, SKG.arxivId, None) not in g

    coauthors = cli("query", out, "-n", "coauthors", "-p", "author=adrian del maestro", "--format", "csv").output
    assert "James M. Murray" in coauthors
    assert json.loads((out / "build.json").read_text())["enrichment"] == "../papers.enrichment.jsonl"
    assert (tmp_path / "papers.enrichment.jsonl").is_file()

    enriched = (out / "graph.nt").read_bytes()
    assert cli("build", project, "-o", out).exit_code == 0  # a plain rebuild merges the enrichment file
    assert (out / "graph.nt").read_bytes() == enriched

    # Offline, from the cache alone: no server is running, so any request would fail.
    again = cli("enrich", out, "--offline", "--cache", cache, "--base-url", "http://127.0.0.1:9/none")
    assert again.exit_code == 0 and "requests    0" in again.output
    assert (out / "graph.nt").read_bytes() == enriched


def test_offline_with_an_empty_cache_keeps_what_was_found(project, tmp_path, cli, shared_data):
    out = tmp_path / "out"
    assert cli("build", project, "-o", out).exit_code == 0
    with Replay(shared_data / "arxiv-atom", TWINS) as replay:
        assert cli("enrich", out, "--base-url", replay.url, "--interval", "0", "--cache", tmp_path / "c1").exit_code == 0
    found = (tmp_path / "papers.enrichment.jsonl").read_text()
    result = cli("enrich", out, "--offline", "--cache", tmp_path / "empty")
    assert result.exit_code == 0 and "not cached  5" in result.output
    assert (tmp_path / "papers.enrichment.jsonl").read_text() == found


def test_arxiv_failing_is_a_one_line_error_and_keeps_the_folder_consistent(project, tmp_path, cli, shared_data):
    out = tmp_path / "out"
    assert cli("build", project, "-o", out).exit_code == 0
    with Replay(shared_data / "arxiv-atom", TWINS) as replay:
        replay.script = [("status", 503, 0)] * 10
        result = cli("enrich", out, "--base-url", replay.url, "--interval", "0", "--retries", "1", "--cache", tmp_path / "c")
    assert result.exit_code == 6
    (line,) = [l for l in result.stderr.splitlines() if l.startswith("error:")]
    assert "HTTP 503 after 2 attempt(s)" in line and "5 paper(s) not looked up" in line
    assert "Traceback" not in result.output
    assert not (tmp_path / "papers.enrichment.jsonl").exists()  # nothing was found, so nothing is kept
    assert load_graph(out)  # the folder was rebuilt and still loads


def test_enrich_needs_a_build_folder_and_a_polite_interval(tmp_path, cli):
    result = cli("enrich", tmp_path)
    assert result.exit_code == 3 and "build.json: missing" in result.output
    result = cli("enrich", tmp_path, "--interval", "1")
    assert result.exit_code == 2 and "at least 3 s" in result.output
