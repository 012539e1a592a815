"""The explorer page as a file: self-contained, deterministic, escaped, and the views the
``render`` command draws. (What it does in a browser is in test_render_browser.py.)"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import re
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path

import pytest
from rdflib import Literal, URIRef
from render_graphs import (
    XSS_ABSTRACT,
    XSS_IMG,
    XSS_SCRIPT,
    XSS_TITLE,
    enriched_seed,
    expected_degrees,
    expected_links,
    expected_nodes,
    synthetic_graph,
)

from scholarkg import api
from scholarkg.explorer import render_html, script_json
from scholarkg.explorer.page import PHYSICS_MAX_NODES
from scholarkg.explorer.view import to_networkx

DATA = re.compile(r'<script type="application/json" id="skg-data">(.*?)</script>', re.S)


def page_data(html: str) -> dict:
    (text,) = DATA.findall(html)
    return json.loads(text)


class _Tags(HTMLParser):
    def __init__(self):
        super().__init__()
        self.tags: list[tuple[str, dict]] = []
        self.scripts: list[str] = []
        self._in_script: dict | None = None

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))
        if tag == "script":
            self._in_script = dict(attrs)
            self.scripts.append("")

    def handle_data(self, data):
        if self._in_script is not None:
            self.scripts[-1] += data

    def handle_endtag(self, tag):
        if tag == "script":
            self._in_script = None


@pytest.fixture(scope="module")
def rich_rdf(seed_build):
    return enriched_seed(seed_build)


@pytest.fixture(scope="module")
def rich_html(rich_rdf):
    return render_html(rich_rdf)


def test_page_is_one_self_contained_file(seed_out):
    html = (seed_out / "graph.html").read_text(encoding="utf-8")
    parser = _Tags()
    parser.feed(html)
    names = [tag for tag, _ in parser.tags]
    assert "link" not in names and "iframe" not in names and "img" not in names
    assert not [attrs for _, attrs in parser.tags if "src" in attrs or "href" in attrs]
    assert names.count("script") == 5 and names.count("style") == 1  # data, vis, graph view, details, page
    data, vis, graphview, details, explorer = parser.scripts
    assert "vis-network" in vis and len(vis) > 100_000  # vis-network itself, inline
    assert "SkgGraph" in graphview and "SkgDetails" in details and "skgExplorer" in explorer
    assert json.loads(data)["nodes"]


def test_render_writes_only_the_page(cli, seed_out, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = cli("render", seed_out, "-o", "out/page.html")
    assert result.exit_code == 0, result.output
    assert sorted(p.relative_to(tmp_path).as_posix() for p in tmp_path.rglob("*")) == ["out", "out/page.html"]


def test_content_security_policy_admits_exactly_the_page_scripts(rich_html):
    parser = _Tags()
    parser.feed(rich_html)
    (csp,) = [a["content"] for t, a in parser.tags if t == "meta" and a.get("http-equiv") == "Content-Security-Policy"]
    allowed = set(re.findall(r"'(sha256-[^']+)'", csp))
    executable = [s for (t, a), s in zip([x for x in parser.tags if x[0] == "script"], parser.scripts) if "type" not in a]
    digests = {"sha256-" + base64.b64encode(hashlib.sha256(s.encode("utf-8")).digest()).decode() for s in executable}
    assert allowed == digests and len(digests) == 4
    assert "default-src 'none'" in csp and "unsafe-inline" not in csp.split("style-src")[0]


def test_same_graph_same_bytes(seed_graph, seed_out):
    first = render_html(seed_graph)
    assert render_html(seed_graph) == first
    # What `build` wrote is the same page.
    assert (seed_out / "graph.html").read_text(encoding="utf-8") == first


def test_same_bytes_in_other_processes(seed_out):
    """Hash randomisation and import order do not reach the page."""
    code = (
        "import sys; from scholarkg import api; from scholarkg.explorer import render_html; "
        "sys.stdout.buffer.write(render_html(api.load(sys.argv[1])).encode())"
    )
    outputs = set()
    for seed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        run = subprocess.run([sys.executable, "-c", code, str(seed_out)], capture_output=True, env=env, check=True)
        outputs.add(run.stdout)
    assert len(outputs) == 1
    assert outputs.pop() == render_html(api.load(seed_out)).encode()


def test_record_text_never_becomes_markup(rich_html):
    for payload in (XSS_IMG, XSS_SCRIPT, "<img", "<script>window"):
        assert payload not in rich_html
    data = page_data(rich_html)
    names = {n["name"] for n in data["nodes"]}
    assert XSS_TITLE in names and f"Mallory {XSS_SCRIPT}" in names  # intact as text
    assert any(n.get("abstract") == XSS_ABSTRACT for n in data["nodes"])


def test_script_json_escapes_what_could_end_a_script():
    text = script_json({"a": "</script><!-- & \u2028\u2029 >"})
    assert not re.search(r"[<>&\u2028\u2029]", text)
    assert json.loads(text) == {"a": "</script><!-- & \u2028\u2029 >"}


def test_title_is_escaped(seed_graph):
    html = render_html(seed_graph, title=XSS_TITLE)
    assert XSS_IMG not in html
    assert "<title>Robust agents &lt;img src=x onerror=&quot;window.__skgPwned = 1&quot;&gt; &amp; friends</title>" in html


def test_links_only_for_http_urls(rich_rdf):
    from rdflib.namespace import RDF, SDO

    from scholarkg.graph.vocab import SKG

    graph = rich_rdf.__class__()
    for triple in rich_rdf:
        graph.add(triple)
    paper = next(graph.subjects(SKG.arxivId, Literal("2501.00002")))
    bad = URIRef("https://w3id.org/scholarkg/id/web/bad")
    graph.add((paper, SKG.hasCodeRepository, bad))
    graph.add((bad, RDF.type, SKG.CodeRepository))
    graph.add((bad, SDO.url, Literal("javascript:alert(1)")))
    nodes = {n["iri"]: n for n in page_data(render_html(graph))["nodes"]}
    assert "url" not in nodes[str(bad)]
    assert nodes[str(paper)]["url"] == "https://arxiv.org/abs/2501.00002"
    assert all(n["url"].startswith(("http://", "https://")) for n in nodes.values() if "url" in n)


def test_every_kind_and_relation_has_a_style():
    from scholarkg.explorer.page import KIND_STYLE, RELATION_STYLE, RELATION_TEXT
    from scholarkg.explorer.view import NODE_KINDS, RELATIONS

    assert set(KIND_STYLE) == set(NODE_KINDS)
    assert set(RELATION_STYLE) == set(RELATIONS.values()) == set(RELATION_TEXT)
    assert len({colour for colour, _, _ in KIND_STYLE.values()}) == len(KIND_STYLE)
    assert len({shape for _, shape, _ in KIND_STYLE.values()}) == len(KIND_STYLE)  # told apart without colour
    script = (Path(__file__).resolve().parents[1] / "src/scholarkg/explorer/graphview.js").read_text(encoding="utf-8")
    for _, shape, _ in KIND_STYLE.values():  # and the page script can draw each of them
        assert re.search(rf"\b{shape}: |\"{shape}\"", script), shape


def _page_links(data: dict) -> set[tuple[str, str, str]]:
    iris = [n["iri"] for n in data["nodes"]]
    return {(iris[e["from"]], e["relation"], iris[e["to"]]) for e in data["edges"]}


def test_page_data_matches_the_graph(rich_rdf, rich_html):
    data = page_data(rich_html)
    graph = to_networkx(rich_rdf)
    assert len(data["nodes"]) == graph.number_of_nodes() and len(data["edges"]) == graph.number_of_edges()
    # Every node and link of the graph is on the page (the default budget is not reached).
    nodes, links = expected_nodes(rich_rdf), expected_links(rich_rdf)
    assert {n["iri"]: n["kind"] for n in data["nodes"]} == nodes
    assert _page_links(data) == links and len(data["edges"]) == len(links)
    assert data["counts"] == {"nodes": len(nodes), "edges": len(links), "total": len(nodes), "hidden": 0}
    assert all(n["degree"] == expected_degrees(rich_rdf)[n["iri"]] for n in data["nodes"])
    assert [n["id"] for n in data["nodes"]] == list(range(len(nodes)))
    legend = {k["kind"] for k in data["kinds"]}
    assert legend == set(nodes.values())
    nodes = {(n["kind"], n["name"]): n for n in data["nodes"]}
    ale = nodes[("Benchmark", "Agents' Last Exam")]
    assert ale["aliases"] == ["ALE"]
    headings = {heading: items for heading, items, _more in ale["related"]}
    assert set(headings) == {"Introduced by", "Papers evaluating on it", "Results (on this benchmark)"}
    (result_id,) = headings["Results (on this benchmark)"]
    assert data["nodes"][result_id]["name"] == "0.8% · Qwen3-8B on Agents' Last Exam (pass rate)"
    paper = nodes[("Paper", "Agents' Last Exam")]
    assert paper["year"] == 2026 and "ALE" in paper["abstract"] and paper["categories"]
    assert "url" not in paper  # the seed profile gives no arXiv id
    small = nodes[("Paper", "Small models on Agents' Last Exam")]
    assert small["url"] == "https://arxiv.org/abs/2601.00001" and small["arxiv_id"] == "2601.00001"
    years = [int(str(row.year)[:4]) for row in rich_rdf.query(
        "PREFIX fabio: <http://purl.org/spar/fabio/> SELECT ?year WHERE { ?paper fabio:hasPublicationYear ?year }")]
    assert data["years"] == [min(years), max(years)]
    codes = {str(row.code) for row in rich_rdf.query(
        "PREFIX dcterms: <http://purl.org/dc/terms/> PREFIX skos: <http://www.w3.org/2004/02/skos/core#> "
        "SELECT ?code WHERE { ?paper dcterms:subject ?category . ?category skos:notation ?code }")}
    assert [c["code"] for c in data["categories"]] == sorted(codes)
    assert {"code": "cs.CR", "name": "Cryptography and Security"} in data["categories"]


def test_large_page_has_positions_and_physics_off():
    graph = synthetic_graph(900, seed=1)
    small = page_data(render_html(graph, max_nodes=PHYSICS_MAX_NODES))
    assert small["options"]["physics"]["enabled"] is True and 0 < small["stabilization"] <= 200
    big = page_data(render_html(graph, max_nodes=0))
    assert big["options"]["physics"]["enabled"] is False and big["stabilization"] == 0
    assert big["counts"]["nodes"] == 900 and big["notice"] == ""
    assert len({(n["x"], n["y"]) for n in big["nodes"]}) == 900
    assert "label" not in big["edges"][0]  # many links: told apart by colour


def test_budget_notice_says_what_is_hidden():
    data = page_data(render_html(synthetic_graph(600, seed=2), max_nodes=100))
    assert data["counts"] == {"nodes": 100, "edges": data["counts"]["edges"], "total": 600, "hidden": 500}
    assert "Showing the 100 most connected of 600 nodes; 500 are hidden" in data["notice"]
    assert "--max-nodes 600" in data["notice"] and "--focus NAME" in data["notice"]


@pytest.fixture(scope="module")
def rich_file(rich_rdf, tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("rich") / "graph.ttl"
    rich_rdf.serialize(path, format="turtle")
    return path


def _cli_page(cli, tmp_path, *args) -> dict:
    out = tmp_path / "page.html"
    result = cli("render", *args, "-o", out)
    assert result.exit_code == 0, result.output
    return page_data(out.read_text(encoding="utf-8"))


def test_cli_focus_and_depth(cli, rich_file, tmp_path):
    data = _cli_page(cli, tmp_path, rich_file, "--focus", "ALE", "--depth", "1")
    kinds = sorted(n["kind"] for n in data["nodes"])
    assert kinds == ["Benchmark", "Paper", "Paper", "Result"]
    assert data["nodes"][data["focus"]]["name"] == "Agents' Last Exam" and data["nodes"][data["focus"]]["kind"] == "Benchmark"
    assert data["description"] == "1 link around Agents' Last Exam"


def test_cli_types_and_min_degree(cli, rich_rdf, rich_file, tmp_path):
    data = _cli_page(cli, tmp_path, rich_file, "--types", "Benchmark,Model,Paper", "--min-degree", "3")
    # The benchmarks, models and papers with 3 or more links in the whole graph, and only them.
    degree, kinds = expected_degrees(rich_rdf), expected_nodes(rich_rdf)
    of_kinds = {n for n, kind in kinds.items() if kind in ("Benchmark", "Model", "Paper")}
    wanted = {n for n in of_kinds if degree[n] >= 3}
    assert {n["iri"] for n in data["nodes"]} == wanted and wanted < of_kinds
    assert {n["kind"] for n in data["nodes"]} == {"Benchmark", "Model", "Paper"}
    assert all(n["degree"] >= 3 for n in data["nodes"])
    assert _page_links(data) == {(s, rel, o) for s, rel, o in expected_links(rich_rdf) if s in wanted and o in wanted}
    names = {n["name"] for n in data["nodes"] if n["kind"] != "Paper"}
    assert {"Agents' Last Exam", "BrowseComp", "Qwen3-8B"} <= names
    assert data["description"] == "nodes with 3+ links; types Benchmark, Model, Paper"


def test_cli_query(cli, rich_rdf, rich_file, tmp_path):
    query = tmp_path / "introduced.rq"
    query.write_text(
        "PREFIX skg: <https://w3id.org/scholarkg/ontology#>\n"
        "CONSTRUCT { ?paper skg:introduces ?entity } WHERE { ?paper skg:introduces ?entity }\n",
        encoding="utf-8",
    )
    data = _cli_page(cli, tmp_path, rich_file, "--query", query)
    introduced = {(s, rel, o) for s, rel, o in expected_links(rich_rdf) if rel == "introduces"}
    assert _page_links(data) == introduced
    assert {n["iri"] for n in data["nodes"]} == {s for s, _, _ in introduced} | {o for _, _, o in introduced}
    papers = {s for s, _, _ in introduced}
    assert all((n["kind"] == "Paper") == (n["iri"] in papers) for n in data["nodes"])
    ale = [n for n in data["nodes"] if n["name"] == "Agents' Last Exam"]
    assert sorted(n["kind"] for n in ale) == ["Benchmark", "Paper"]


def test_cli_max_nodes(cli, rich_rdf, rich_file, tmp_path):
    data = _cli_page(cli, tmp_path, rich_file, "--max-nodes", "10")
    total = len(expected_nodes(rich_rdf))
    hidden = total - 10
    assert data["counts"]["nodes"] == len(data["nodes"]) == 10
    assert data["counts"]["total"] == total and data["counts"]["hidden"] == hidden
    assert f"Showing the 10 most connected of {total} nodes; {hidden} are hidden" in data["notice"]
    # A most connected node of the graph is among them.
    degree = expected_degrees(rich_rdf)
    assert max(n["degree"] for n in data["nodes"]) == max(degree.values())


def test_cli_empty_view_says_so(cli, rich_file, tmp_path):
    query = tmp_path / "none.rq"
    query.write_text("CONSTRUCT { ?s <http://example.org/p> ?o } WHERE { ?s <http://example.org/none> ?o }\n")
    out = tmp_path / "page.html"
    result = cli("render", rich_file, "--query", query, "-o", out)
    assert result.exit_code == 0 and "the view has no nodes" in result.output
    data = page_data(out.read_text(encoding="utf-8"))
    assert data["nodes"] == [] and data["notice"].startswith("Nothing to draw")
    assert data["options"]["physics"]["enabled"] is False  # nothing to stabilise: ready at once


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--types", "Gadget"], "unknown node type 'Gadget'"),
        (["--focus", "Nobody Atall"], "no node named 'Nobody Atall'"),
        (["--max-nodes", "-1"], "-1 is not in the range"),
    ],
)
def test_cli_bad_options_are_one_line_errors(cli, rich_file, tmp_path, args, message):
    result = cli("render", rich_file, "-o", tmp_path / "x.html", *args)
    assert result.exit_code == 2
    assert message in result.output and "Traceback" not in result.output
    assert not (tmp_path / "x.html").exists()


def test_cli_render_help_lists_the_views(cli):
    from scholarkg.cli import main
    from scholarkg.explorer import DEFAULT_MAX_NODES

    text = cli("render", "--help").output
    for option in ("--focus", "--depth", "--types", "--min-degree", "--query", "--max-nodes"):
        assert option in text
    (budget,) = [p.default for p in main.commands["render"].params if p.name == "max_nodes"]
    assert budget == DEFAULT_MAX_NODES


def test_committed_build_pages_are_current(repo_root):
    """A graph.html committed under graphs/ is what the renderer makes of the graph beside it."""
    pages = sorted((repo_root / "graphs").glob("*/graph.html"))
    if not pages:
        pytest.skip("no build output is committed under graphs/")
    for page in pages:
        expected = render_html(api.load(page.parent), title="scholarkg explorer")
        assert page.read_text(encoding="utf-8") == expected, f"{page} is stale: rebuild it"
