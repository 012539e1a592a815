"""`scholarkg serve`: a real SPARQL client (SPARQLWrapper) against the endpoint, in every format."""

from __future__ import annotations

import contextlib
import csv
import io
import sys
import time
import urllib.error
import urllib.parse
import urllib.request

import pytest
from rdflib import Dataset, Graph, Literal, URIRef
from rdflib.namespace import SKOS
from rdflib.compare import isomorphic

from storekit import GRAPH_CONSTRUCT, GRAPH_COUNT, running

from scholarkg import api
from scholarkg.serve import free_port

pytestmark = pytest.mark.slow

PAPERS = """
PREFIX skg: <https://w3id.org/scholarkg/ontology#>
PREFIX dcterms: <http://purl.org/dc/terms/>
PREFIX fabio: <http://purl.org/spar/fabio/>
SELECT ?paper ?title ?year WHERE {
  ?paper a skg:Paper ; dcterms:title ?title . OPTIONAL { ?paper fabio:hasPublicationYear ?year }
} ORDER BY ?title
"""
HEAVY = "SELECT (COUNT(*) AS ?n) WHERE { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i }"  # 35 million rows on the seed


@contextlib.contextmanager
def serving(store, *options: str):
    """`scholarkg serve STORE OPTIONS` on a free port, as a separate process; stopped at the end."""
    port = free_port()
    url = f"http://127.0.0.1:{port}/query"
    command = [sys.executable, "-m", "scholarkg.cli", "serve", str(store), "--port", str(port), *options]
    with running(command, url + "?query=ASK%7B%7D"):
        yield url


@pytest.fixture(scope="module")
def endpoint(seed_store):
    with serving(seed_store, "--timeout", "1") as url:
        yield url


@pytest.fixture(scope="module")
def expected(seed_store):
    return api.query(seed_store, PAPERS).rows


def _client(url, fmt, method):
    from SPARQLWrapper import SPARQLWrapper

    client = SPARQLWrapper(url)
    client.setQuery(PAPERS)
    client.setReturnFormat(fmt)
    client.setMethod(method)
    return client


def _json_term(cell):
    if cell["type"] == "uri":
        return URIRef(cell["value"])
    return Literal(cell["value"], lang=cell.get("xml:lang"), datatype=cell.get("datatype"))


@pytest.mark.parametrize("method", ["GET", "POST"])
def test_select_answers_match_the_local_query_in_every_format(endpoint, expected, method):
    import pyoxigraph
    from SPARQLWrapper import CSV, JSON, TSV, XML

    from scholarkg.store.terms import to_rdflib

    assert len(expected) == 18
    data = _client(endpoint, JSON, method).query().convert()
    assert data["head"]["vars"] == ["paper", "title", "year"]
    rows = [tuple(_json_term(b[v]) if v in b else None for v in ("paper", "title", "year")) for b in data["results"]["bindings"]]
    assert rows == expected

    for fmt, kind in ((XML, pyoxigraph.QueryResultsFormat.XML), (TSV, pyoxigraph.QueryResultsFormat.TSV)):
        response = _client(endpoint, fmt, method).query()
        body = response.response.read()
        parsed = pyoxigraph.parse_query_results(body, kind)
        assert [tuple(to_rdflib(s[i]) for i in range(3)) for s in parsed] == expected, fmt

    text = _client(endpoint, CSV, method).query().convert().decode("utf-8")
    table = list(csv.reader(io.StringIO(text)))
    assert table[0] == ["paper", "title", "year"]
    assert table[1:] == [[str(v) if v is not None else "" for v in row] for row in expected]


def test_graphs_come_as_turtle_and_ntriples(endpoint, seed_graph):
    from SPARQLWrapper import TURTLE, SPARQLWrapper

    client = SPARQLWrapper(endpoint)
    client.setQuery(GRAPH_CONSTRUCT)
    client.setReturnFormat(TURTLE)
    turtle = client.query()
    assert "turtle" in turtle.response.headers["Content-Type"]
    assert isomorphic(Graph().parse(data=turtle.convert(), format="turtle"), seed_graph)

    grpo = next(seed_graph.subjects(SKOS.altLabel, Literal("GRPO")))
    client = SPARQLWrapper(endpoint)
    client.setQuery(f"DESCRIBE <{grpo}>")
    client.addCustomHttpHeader("Accept", "application/n-triples")
    response = client.query().response
    assert response.headers["Content-Type"].startswith("application/n-triples")
    described = Graph().parse(data=response.read(), format="nt")
    assert set(described) == set(seed_graph.triples((grpo, None, None)))
    assert len(described) >= 3


def _post(url, data: bytes, kind: str):
    request = urllib.request.Request(url, data=data, headers={"Content-Type": kind, "Accept": "text/csv"})
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read().decode()


def test_updates_and_unsafe_queries_are_refused(endpoint, seed_graph):
    update = urllib.parse.urlencode({"update": "INSERT DATA { <urn:a> <urn:b> <urn:c> }"}).encode()
    assert _post(endpoint, update, "application/x-www-form-urlencoded")[0] == 403
    assert _post(endpoint.replace("/query", "/update"), b"DROP ALL", "application/sparql-update")[0] == 403
    status, message = _post(endpoint, b"SELECT * WHERE { SERVICE <http://example.org/> { ?s ?p ?o } }", "application/sparql-query")
    assert (status, "SERVICE is refused" in message) == (400, True)
    deep = ("SELECT * WHERE " + "{" * 5000 + "}" * 5000).encode()
    status, message = _post(endpoint, deep, "application/sparql-query")
    assert (status, "more than 64 levels deep" in message) == (400, True)
    status, message = _post(endpoint, GRAPH_COUNT.encode(), "application/sparql-query")
    assert (status, message.split()) == (200, ["n", str(len(seed_graph))])  # still whole, still answering


def test_a_long_query_is_cancelled_at_the_timeout(endpoint):
    started = time.monotonic()
    status, message = _post(endpoint, HEAVY.encode(), "application/sparql-query")
    assert status == 503 and "cancelled" in message
    assert time.monotonic() - started < 10


def test_the_served_store_cannot_be_written_meanwhile(endpoint, seed_store, seed_path, cli):
    result = cli("build", seed_path, "--store", seed_store)
    assert result.exit_code == 5
    assert "in use by another process" in result.stderr


COUNT = GRAPH_COUNT.encode()


def _count(url) -> int:
    status, text = _post(url, COUNT, "application/sparql-query")
    assert status == 200, text
    return int(text.split()[1])


def test_a_read_write_endpoint_takes_updates_but_never_load(tmp_path, seed_path):
    from scholarkg.store import build_store

    store = tmp_path / "s"
    build_store([seed_path], store)
    with serving(store, "--allow-update") as url:
        before = _count(url)
        insert = "INSERT DATA { <urn:x:a> <urn:x:b> <urn:x:c> }".encode()
        assert _post(url.replace("/query", "/update"), insert, "application/sparql-update")[0] in (200, 204)
        assert _count(url) == before + 1
        status, message = _post(url.replace("/query", "/update"), b"LOAD <file:///etc/hostname>", "application/sparql-update")
        assert status == 400 and "LOAD is refused" in message
        assert _count(url) == before + 1


def test_what_an_update_changes_is_in_every_export_copy_and_later_build(tmp_path, seed_path, cli):
    from storekit import record, write_jsonl

    store = tmp_path / "s"
    assert cli("build", seed_path, "--store", store, "--no-curation").exit_code == 0
    assert cli("export", "--store", store, "--format", "ntriples", "-o", tmp_path / "built.nt").exit_code == 0
    built = Graph().parse(tmp_path / "built.nt", format="nt")
    gone = next(t for t in built if t[1] == URIRef("http://purl.org/dc/terms/title"))
    added = (URIRef("https://example.org/note"), URIRef("http://purl.org/dc/terms/title"), Literal("Added by an update"))
    update = (f"DELETE WHERE {{ GRAPH ?g {{ {gone[0].n3()} {gone[1].n3()} {gone[2].n3()} }} }} ;\n"
              f"INSERT DATA {{ GRAPH <https://example.org/notes> {{ {added[0].n3()} {added[1].n3()} {added[2].n3()} }} }}")
    with serving(store, "--allow-update") as url:
        assert _post(url.replace("/query", "/update"), update.encode(), "application/sparql-update")[0] in (200, 204)
    expected = set(built) - {gone} | {added}

    def exported(fmt: str, parse_as: str) -> set:
        out = tmp_path / f"graph.{fmt}"
        result = cli("export", "--store", store, "--format", fmt, "-o", out)
        assert result.exit_code == 0, result.output
        data = Dataset()
        data.parse(out, format=parse_as)
        return {(s, p, o) for s, p, o, _ in data.quads()}

    for fmt, parse_as in (("ntriples", "nt"), ("turtle", "turtle"), ("nquads", "nquads"), ("jsonld", "json-ld")):
        assert exported(fmt, parse_as) == expected, fmt
    answer = cli("query", "--store", store, "--format", "csv", f"SELECT ?s WHERE {{ ?s {added[1].n3()} {added[2].n3()} }}")
    assert answer.stdout.split() == ["s", str(added[0])]  # the default budget answers from an in-memory copy
    assert cli("query", "--store", store, "--format", "csv", GRAPH_COUNT).stdout.split() == ["n", str(len(expected))]
    with serving(store, "--in-memory") as url:
        assert _count(url) == len(expected)
    more = write_jsonl(tmp_path / "more.jsonl", [record(1, "A paper added after the update.")])
    result = cli("build", more, "--store", store)
    assert result.exit_code == 0 and "1 added" in result.stdout
    after = exported("ntriples", "nt")
    assert added in after and gone not in after and len(after) > len(expected)
    with serving(store, "--allow-update") as url:
        blank = b"INSERT DATA { GRAPH <https://example.org/notes> { [] <https://example.org/says> 'no IRI' } }"
        assert _post(url.replace("/query", "/update"), blank, "application/sparql-update")[0] in (200, 204)
    result = cli("export", "--store", store, "--format", "jsonld", "-o", tmp_path / "blank.jsonld")
    assert result.exit_code != 0 and "blank nodes" in result.stderr and "Traceback" not in result.stderr
    assert not (tmp_path / "blank.jsonld").exists()
    assert len(exported("turtle", "turtle")) == len(after) + 1
    shown = cli("export", "--store", store, "--format", "nquads", "-o", tmp_path / "shown.nq", "--progress").stderr
    graphs = len({line.rsplit(" ", 2)[-2] for line in (tmp_path / "shown.nq").read_text(encoding="utf-8").splitlines()})
    assert f"{graphs + 1:,}/{graphs + 1:,}" in shown  # written graph by graph, the (empty) default graph first


@pytest.mark.parametrize("budget_mb, in_memory", [("1024", True), ("0.001", False)], ids=["fits", "too-large"])
def test_a_memory_budget_serves_from_memory_only_a_store_that_fits(tmp_path, seed_path, seed_graph, cli, budget_mb, in_memory):
    from storekit import record, write_jsonl

    store = tmp_path / "s"
    assert cli("build", seed_path, "--store", store, "--no-curation").exit_code == 0
    with serving(store, "--memory-budget", budget_mb) as url:
        assert _count(url) == len(seed_graph)
        more = write_jsonl(tmp_path / "more.jsonl", [record(1, "A paper added while serving.")])
        result = cli("build", more, "--store", store)  # an in-memory copy leaves the store free; disk holds its lock
        assert (result.exit_code == 0) == in_memory, result.output
        assert _count(url) == len(seed_graph)


def test_an_in_memory_endpoint_serves_a_snapshot_and_leaves_the_store_free(tmp_path, seed_path, seed_graph, cli):
    from storekit import record, write_jsonl

    store = tmp_path / "s"
    assert cli("build", seed_path, "--store", store, "--no-curation").exit_code == 0  # as seed_graph is built
    with serving(store, "--in-memory") as url:
        assert _count(url) == len(seed_graph)
        more = write_jsonl(tmp_path / "more.jsonl", [record(1, "A paper added while serving.")])
        result = cli("build", more, "--store", store)  # the store is not locked by an in-memory server
        assert result.exit_code == 0 and "1 added" in result.stdout
        assert _count(url) == len(seed_graph)  # the endpoint keeps its snapshot
        assert _post(url, b"INSERT DATA { <urn:x:a> <urn:x:b> <urn:x:c> }", "application/sparql-update")[0] == 403
