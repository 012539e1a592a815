"""The served app's routes over HTTP, against a real `scholarkg serve`: the page and its
headers, the files it may load and nothing else, named queries as JSON with their errors."""

from __future__ import annotations

import json
import urllib.error
import urllib.request

import pytest
from storekit import comparable
from test_app_browser import _serve

from scholarkg import api
from scholarkg.named import inline_values, named_queries
from scholarkg.sparql import run_named
from scholarkg.store import open_for_query


def _get(url, accept="*/*"):
    request = urllib.request.Request(url, headers={"Accept": accept})
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read()


@pytest.fixture(scope="module")
def base(seed_store):
    url, server = _serve(seed_store)
    with server:
        yield url


def test_the_page_allows_no_outside_origin(base):
    status, headers, body = _get(base + "/app/")
    assert status == 200 and headers["Content-Type"].startswith("text/html")
    policy = headers["Content-Security-Policy"]
    assert "default-src 'none'" in policy and "script-src 'self';" in policy and "connect-src 'self'" in policy
    assert "http" not in policy and "*" not in policy
    assert headers["X-Content-Type-Options"] == "nosniff" and headers["Referrer-Policy"] == "no-referrer"
    page = body.decode()
    assert "//" not in "".join(part.split('"')[0] for part in page.split('src="')[1:])  # scripts from this server only
    config = json.loads(page.split('id="skg-config">')[1].split("</script>")[0])
    assert config["query_url"] == "/query" and {q["name"] for q in config["named"]} >= {"author-papers", "related-entities"}


def test_browsers_are_sent_to_the_app_and_clients_get_the_endpoint(base):
    request = urllib.request.Request(base + "/", headers={"Accept": "text/html"})
    opener = urllib.request.build_opener(type("NoRedirect", (urllib.request.HTTPRedirectHandler,), {"redirect_request": lambda *a: None}))
    with pytest.raises(urllib.error.HTTPError) as seen:
        opener.open(request, timeout=10)
    assert seen.value.code == 303 and seen.value.headers["Location"] == "/app/"
    status, _, body = _get(base + "/", accept="application/sparql-results+json")
    assert status == 200 and b"SPARQL endpoint" in body


@pytest.mark.parametrize("name", ["ace/ace.js", "ace/mode-sparql.js", "vis-network.min.js", "graphview.js", "details.js", "explore.js"])
def test_the_pages_files_are_served(base, name):
    status, headers, body = _get(base + "/app/static/" + name)
    assert status == 200 and headers["Content-Type"].startswith("text/javascript") and len(body) > 1000


@pytest.mark.parametrize("path", ["/app/static/../__init__.py", "/app/static/%2e%2e/__init__.py", "/app/static/app/__init__.py",
                                  "/app/static/ace/ext-searchbox.js", "/app/static/"])
def test_nothing_else_is(base, path):
    assert _get(base + path)[0] == 404


def test_named_queries_answer_as_json_with_the_text_that_ran_and_pages(base, seed_store):
    status, _, body = _get(base + "/app/named?name=author-papers&author=Maojia%20Song&limit=5&offset=3")
    answer = json.loads(body)
    assert status == 200 and answer["more"] is True
    expected = [r["title"] for r in api.query(seed_store, named="author-papers", author="Maojia Song")][3:8]
    assert [b["title"]["value"] for b in answer["answer"]["results"]["bindings"]] == expected
    assert 'VALUES (?author) { ("Maojia Song") }' in answer["query"] and answer["query"].rstrip().endswith("LIMIT 6 OFFSET 3")


@pytest.mark.parametrize("query, words", [
    ("name=no-such-query", "no named query 'no-such-query'"),
    ("name=author-papers&colour=red", "has no parameter 'colour'"),
    ("name=author-papers&limit=-1", "limit must be a whole number"),
    ("", "give the named query"),
])
def test_named_query_mistakes_are_one_line_errors(base, query, words):
    status, _, body = _get(base + "/app/named?" + query)
    assert status == 400 and words in body.decode() and body.decode().count("\n") == 1


def test_without_the_app_only_the_endpoint_answers(seed_store):
    url, server = _serve(seed_store, "--no-app")
    with server:
        assert _get(url + "/app/")[0] == 404
        assert _get(url + "/", accept="text/html")[0] == 200


@pytest.fixture(scope="module")
def base_on_disk(seed_store):
    url, server = _serve(seed_store, "--memory-budget", "0")
    with server:
        yield url


@pytest.mark.parametrize("name", sorted(named_queries()))
def test_named_queries_served_from_disk_answer_as_the_store_does(base_on_disk, seed_store, name):
    """The endpoint on disk sends each named query's text for the disk engine (some written
    for it alone): the same rows as the query run on the store from Python."""
    q = named_queries()[name]
    status, _, body = _get(base_on_disk + "/app/named?name=" + name)
    assert status == 200, body[:300]
    answer = json.loads(body)
    bindings = q.bindings({})
    assert answer["query"] == inline_values(q.text_for(bindings, "disk"), bindings)
    with open_for_query(seed_store, memory_budget=0) as store:
        expected = run_named(store, name)
    shown = [v for v in expected.vars if v not in expected.hidden]
    served = [tuple(b[v]["value"] if v in b else None for v in shown) for b in answer["answer"]["results"]["bindings"]]
    names, rows = expected.visible()
    assert comparable(shown, served, q.text) == comparable(names, [tuple(None if x is None else str(x) for x in r) for r in rows], q.text)


def test_a_name_given_in_another_case_is_sent_as_the_graph_writes_it(base_on_disk, seed_store):
    status, _, body = _get(base_on_disk + "/app/named?name=author-entities&author=maojia%20song")
    answer = json.loads(body)
    assert status == 200 and '?person foaf:name "Maojia Song" .' in answer["query"]
    served = {b["label"]["value"] for b in answer["answer"]["results"]["bindings"]}
    assert served and served == {r["label"] for r in api.query(seed_store, named="author-entities", author="maojia song")}


@pytest.mark.parametrize("name", sorted(named_queries()))
def test_paging_through_a_served_answer_on_disk_gives_the_stores_ordered_answer(base_on_disk, seed_store, name):
    """On disk an engine puts the rows in order itself, as `run_named` does (ties by their
    whole values), so that pages of 50 are exactly the whole answer's rows in that order."""
    with open_for_query(seed_store, memory_budget=0) as store:
        whole = run_named(store, name)
    served, offset, more = [], 0, True
    while more:
        status, _, body = _get(base_on_disk + f"/app/named?name={name}&limit=50&offset={offset}")
        assert status == 200, body[:300]
        answer = json.loads(body)
        assert answer["query"].rstrip().endswith("LIMIT 51" + (f" OFFSET {offset}" if offset else ""))
        served += [tuple(b[v]["value"] if v in b else None for v in whole.vars) for b in answer["answer"]["results"]["bindings"]]
        offset, more = offset + 50, answer["more"]
    assert served == [tuple(None if x is None else str(x) for x in row) for row in whole.rows]


def _page_job(store, text: str, count: int, offset: int) -> list[tuple]:
    """The rows of an engine's `page` job on ``store`` (a pyoxigraph store), as plain values."""
    import socket

    from scholarkg.serve import wire, worker

    job = {"op": "page", "text": text, "count": count, "offset": offset, "accept": "application/sparql-results+json",
           "default_graph": None, "named_graphs": None, "max_bytes": 1 << 24}
    ours, theirs = socket.socketpair()
    with ours, theirs:
        assert worker._answer(store, job, ours)["status"] == 200
        theirs.setblocking(False)
        data = b""
        while True:
            try:
                data += wire.receive(theirs)[1]
            except wire.Gone:  # nothing more was sent
                break
    names = json.loads(data)["head"]["vars"]
    return [tuple(b[v]["value"] if v in b else None for v in names) for b in json.loads(data)["results"]["bindings"]]


def _by_oxigraph(store, text: str) -> list[tuple]:
    return [tuple(None if t is None else t.value for t in row) for row in store.query(text, use_default_graph_as_union=True)]


def test_an_answer_too_long_to_order_in_an_engine_is_paged_by_oxigraph(seed_store, monkeypatch):
    """Past `PAGE_ROWS` rows an engine leaves the order and the page to Oxigraph's own ORDER BY,
    LIMIT and OFFSET: the rows the named query's text with that page gives."""
    from scholarkg.named import get_named_query, with_page
    from scholarkg.serve import worker

    monkeypatch.setattr(worker, "PAGE_ROWS", 3)
    text = inline_values(get_named_query("author-papers").text_for({"author": ""}, "disk"), {"author": ""})
    with open_for_query(seed_store, memory_budget=0) as opened:
        paged = _page_job(opened.ox, text, 4, 2)
        assert len(paged) == 4 and paged == _by_oxigraph(opened.ox, with_page(text, 4, 2))


def test_an_engine_pages_distinct_rows_as_oxigraph_does():
    """An engine runs the text without its DISTINCT and drops the repeated rows itself, before
    it cuts the page."""
    import pyoxigraph as ox

    from scholarkg.named import with_page

    store = ox.Store()
    store.load(b"".join(b"<urn:s%d> <urn:t> \"title %d\" .\n" % (n, n % 3) for n in range(9)), ox.RdfFormat.N_TRIPLES)
    text = "SELECT DISTINCT ?t WHERE { ?s <urn:t> ?t } ORDER BY DESC(?t)\n"
    assert _page_job(store, text, 2, 1) == _by_oxigraph(store, with_page(text, 2, 1)) == [("title 1",), ("title 0",)]
