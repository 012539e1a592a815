"""`scholarkg push`: upload into a real Oxigraph server, then ask it the same questions."""

from __future__ import annotations

import urllib.request

import pytest
from storekit import GRAPH_COUNT, comparable, oxigraph_command, quads, running

from scholarkg import api
from scholarkg.named import named_queries
from scholarkg.serve import free_port
from scholarkg.store import GraphStore

pytestmark = pytest.mark.slow

PAPERS = """
PREFIX skg: <https://w3id.org/scholarkg/ontology#>
PREFIX dcterms: <http://purl.org/dc/terms/>
SELECT ?paper ?title WHERE { ?paper a skg:Paper ; dcterms:title ?title } ORDER BY ?title
"""


@pytest.fixture
def server(tmp_path):
    """A read-write Oxigraph server on a free port over an empty database; stopped afterwards."""
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    command = [oxigraph_command(), "serve", "--location", str(tmp_path / "remote"), "--bind", f"127.0.0.1:{port}"]
    with running(command, base + "/query?query=ASK%7B%7D"):
        yield base


def _remote(base: str, text: str):
    """Rows of a SELECT sent to the server with SPARQLWrapper, as rdflib terms."""
    from rdflib import Literal, URIRef
    from SPARQLWrapper import JSON, SPARQLWrapper

    client = SPARQLWrapper(base + "/query")
    client.setQuery(text)
    client.setReturnFormat(JSON)
    data = client.query().convert()
    names = data["head"]["vars"]

    def term(cell):
        if cell is None:
            return None
        if cell["type"] == "uri":
            return URIRef(cell["value"])
        return Literal(cell["value"], lang=cell.get("xml:lang"), datatype=cell.get("datatype"))

    return names, [tuple(term(b.get(n)) for n in names) for b in data["results"]["bindings"]]


def test_pushed_graph_answers_like_the_local_store(cli, seed_store, server):
    result = cli("push", seed_store, "--endpoint", server + "/store", "--replace", "--batch", "100")
    assert result.exit_code == 0, result.output
    local = api.query(seed_store, PAPERS)
    names, rows = _remote(server, PAPERS)
    assert names == local.vars and rows == local.rows and len(rows) == 18

    for name, query in sorted(named_queries().items()):
        if query.params:
            continue  # parameters are bound locally; a remote server gets plain text
        expected = api.query(seed_store, named=name)
        names, rows = _remote(server, query.text)
        assert comparable(names, rows, query.text) == comparable(expected.vars, expected.rows, query.text), name

    count = "SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }"
    before = _remote(server, count)[1]
    assert cli("push", seed_store, "--endpoint", server + "/store").exit_code == 0  # again: a set, nothing changes
    assert _remote(server, count)[1] == before == api.query(seed_store, GRAPH_COUNT).rows  # the search index stays home


def test_named_graphs_are_kept_one_per_record(cli, seed_store, server):
    result = cli("push", seed_store, "--endpoint", server + "/store", "--named-graphs")
    assert result.exit_code == 0, result.output
    request = urllib.request.Request(server + "/store", headers={"Accept": "application/n-quads"})
    with urllib.request.urlopen(request, timeout=60) as response:
        remote = {line for line in response.read().decode("utf-8").splitlines() if line.strip()}
    assert remote == quads(seed_store)
    with GraphStore(seed_store) as store:
        graphs = [g.value for g in store.ox.named_graphs() if not g.value.endswith("/graph/search")]
    assert sum("/id/graph/paper/" in g for g in graphs) == 18  # one per paper, and the shared ones
    assert f"({len(graphs)} graphs)" in result.stdout


def test_an_unreachable_server_is_a_one_line_error(cli, seed_store):
    result = cli("push", seed_store, "--endpoint", f"http://127.0.0.1:{free_port()}/store")
    assert result.exit_code == 6
    assert result.stderr.startswith("error: cannot reach http://127.0.0.1:")
    assert len(result.stderr.strip().splitlines()) == 1
