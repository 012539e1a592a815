"""`scholarkg serve` under hostile and heavy use: request framing, one listening port, load, a full
queue, engines killed at the deadline or crashing, and routes added by an application.

Every server here is real, on 127.0.0.1; raw requests go through plain sockets so that the bytes
on the wire are exactly the ones a hostile client sends.
"""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import signal
import socket
import sys
import threading
import time
import urllib.parse

import pytest
from storekit import GRAPH_COUNT, running

from scholarkg.serve import Endpoint, Response, free_port
from scholarkg.serve.negotiate import choose, default_accept

pytestmark = pytest.mark.slow

COUNT = GRAPH_COUNT.encode()  # the graph, its search index left out
HEAVY = b"SELECT (COUNT(*) AS ?n) WHERE { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i }"  # minutes on the seed store


@contextlib.contextmanager
def serving(store, *options: str):
    """`scholarkg serve STORE OPTIONS` as a separate process on a free port: (port, process)."""
    port = free_port()
    command = [sys.executable, "-m", "scholarkg.cli", "serve", str(store), "--port", str(port), *options]
    with running(command, f"http://127.0.0.1:{port}/query?query=ASK%7B%7D") as process:
        yield port, process


def _response(sock: socket.socket, timeout: float = 10) -> tuple[int, dict[str, str], bytes]:
    """Read one HTTP response from ``sock``: status, headers (lower-case names), body."""
    sock.settimeout(timeout)
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(65536)
        if not chunk:
            break
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split()[1])
    headers = {k.strip().lower(): v.strip() for k, _, v in (line.partition(":") for line in lines[1:])}
    length = int(headers.get("content-length", "0"))
    while len(body) < length:
        chunk = sock.recv(65536)
        if not chunk:
            break
        body += chunk
    return status, headers, body


def _raw(port: int, data: bytes) -> tuple[int, dict[str, str], bytes]:
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(data)
        return _response(sock)


def _post(port: int, body: bytes = COUNT, path: str = "/query", **headers: str) -> tuple[int, bytes]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    try:
        connection.request("POST", path, body=body, headers={"Content-Type": "application/sparql-query",
                                                             "Accept": "text/csv", **headers})
        response = connection.getresponse()
        return response.status, response.read()
    finally:
        connection.close()


def _rss_kib(pid: int) -> int:
    with open(f"/proc/{pid}/status") as fh:
        return next(int(line.split()[1]) for line in fh if line.startswith("VmRSS:"))


def _process_tree(pid: int) -> list[int]:
    parents: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            with contextlib.suppress(OSError, IndexError, ValueError):
                with open(f"/proc/{entry}/stat") as fh:
                    parents[int(entry)] = int(fh.read().rsplit(")", 1)[1].split()[1])
    tree, todo = [], [pid]
    while todo:
        current = todo.pop()
        tree.append(current)
        todo += [child for child, parent in parents.items() if parent == current]
    return tree


def _listening_ports(pids: list[int]) -> set[int]:
    """TCP ports that any of ``pids`` listens on (from /proc: socket inodes against /proc/net/tcp*)."""
    inodes = set()
    for pid in pids:
        with contextlib.suppress(OSError):
            for fd in os.listdir(f"/proc/{pid}/fd"):
                with contextlib.suppress(OSError):
                    target = os.readlink(f"/proc/{pid}/fd/{fd}")
                    if target.startswith("socket:["):
                        inodes.add(target[8:-1])
    ports = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        with contextlib.suppress(OSError), open(table) as fh:
            for line in list(fh)[1:]:
                fields = line.split()
                if fields[3] == "0A" and fields[9] in inodes:  # 0A: LISTEN
                    ports.add(int(fields[1].rsplit(":", 1)[1], 16))
    return ports


@pytest.fixture(scope="module")
def endpoint(seed_store):
    with serving(seed_store, "--timeout", "2") as served:
        yield served


# --- request framing -----------------------------------------------------------------------

FRAMING = [
    ("negative", b"Content-Length: -1\r\n", 400),
    ("not a number", b"Content-Length: abc\r\n", 400),
    ("exponent", b"Content-Length: 1e3\r\n", 400),
    ("signed", b"Content-Length: +5\r\n", 400),
    ("two headers", b"Content-Length: 5\r\nContent-Length: 5\r\n", 400),
    ("list", b"Content-Length: 5, 5\r\n", 400),
    ("missing", b"", 411),
    ("chunked", b"Transfer-Encoding: chunked\r\n", 411),
    ("chunked and length", b"Transfer-Encoding: chunked\r\nContent-Length: 5\r\n", 400),
    ("too large", b"Content-Length: 2000000\r\n", 413),
]


@pytest.mark.parametrize("case, header, status", FRAMING, ids=[c[0] for c in FRAMING])
def test_bad_content_length_is_answered_at_once_without_reading_the_body(endpoint, case, header, status):
    port, _process = endpoint
    request = b"POST /query HTTP/1.1\r\nHost: x\r\nContent-Type: application/sparql-query\r\n" + header + b"\r\n"
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(request)  # and nothing more: the answer must not wait for a body
        got, headers, body = _response(sock)
    assert got == status, body
    assert headers.get("connection") == "close" and headers["content-type"].startswith("text/plain")
    assert b"Traceback" not in body and body.count(b"\n") == 1


def test_expect_continue_with_a_body_over_the_limit_gets_413_not_100(endpoint):
    port, _process = endpoint
    status, _headers, body = _raw(port, b"POST /query HTTP/1.1\r\nHost: x\r\nContent-Length: 5000000\r\n"
                                        b"Content-Type: application/sparql-query\r\nExpect: 100-continue\r\n\r\n")
    assert status == 413 and b"limit is 1,000,000" in body


def test_too_many_headers_and_a_long_request_line_are_refused_in_plain_text(endpoint):
    port, _process = endpoint
    many = b"".join(b"X-%d: y\r\n" % n for n in range(200))
    status, _headers, body = _raw(port, b"GET /query HTTP/1.1\r\nHost: x\r\n" + many + b"\r\n")
    assert status == 431 and body.startswith(b"too many headers")
    status, _headers, _body = _raw(port, b"GET /" + b"a" * 70_000 + b" HTTP/1.1\r\n\r\n")
    assert status == 414


@pytest.mark.parametrize("request_line, status", [(b"GARBAGE", 400), (b"GET /query HTTP/2.0", 505),
                                                  (b"GET /query", 505), (b"G\x00T /query HTTP/1.1", 501)])
def test_a_broken_request_line_gets_an_http_1_1_answer(endpoint, request_line, status):
    port, _process = endpoint
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(request_line + b"\r\n\r\n")
        data = sock.recv(65536)
    assert data.startswith(b"HTTP/1.1 %d " % status), data[:100]


def test_a_negative_content_length_with_a_flood_after_it_keeps_memory_flat(endpoint):
    port, process = endpoint
    before = _rss_kib(process.pid)
    sent = 0
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(b"POST /query HTTP/1.1\r\nHost: x\r\nContent-Type: application/sparql-query\r\nContent-Length: -1\r\n\r\n")
        status, _headers, _body = _response(sock)
        chunk = b"x" * (1 << 20)
        with contextlib.suppress(OSError):  # the server closes the connection: sending then fails
            for _ in range(128):
                sock.sendall(chunk)
                sent += len(chunk)
    assert status == 400
    assert sent < 128 << 20  # the server stopped taking the flood
    assert _rss_kib(process.pid) - before < 16 * 1024
    assert _post(port)[0] == 200


def test_after_every_refusal_the_endpoint_still_answers(endpoint, seed_graph):
    port, _process = endpoint
    status, body = _post(port)
    assert status == 200 and body.split()[1] == str(len(seed_graph)).encode()
    status, body = _post(port, b"SELECT * WHERE { \\u0053ERVICE <http://127.0.0.1:9/> { ?s ?p ?o } }")
    assert status == 400 and b"SERVICE is refused" in body
    status, body = _post(port, "SELECT * WHERE { ?s ?p 'caf\u00e9' }".encode("latin-1"))
    assert status == 400 and b"not UTF-8" in body


# --- one listening port, no backend --------------------------------------------------------

def test_the_endpoint_and_its_engines_listen_on_one_port_only(seed_store, tmp_path):
    import shutil

    private = shutil.copytree(seed_store, tmp_path / "store")  # --allow-update needs the store to itself
    for options in ((), ("--in-memory",), ("--allow-update",)):
        with serving(private, "--engines", "2", *options) as (port, process):
            tree = _process_tree(process.pid)
            assert len(tree) >= 3, tree  # the endpoint, the engines' host, at least one engine
            assert _listening_ports(tree) == {port}, options


# --- load ----------------------------------------------------------------------------------

def _load(port: int, expected: int, threads: int = 20, queries: int = 50) -> tuple[list[str], float]:
    """``threads`` clients sending ``queries`` queries each: GET and POST, new and kept-alive connections."""
    failures: list[str] = []
    query = urllib.parse.quote(COUNT.decode())

    def client(number: int) -> None:
        keep = number % 2 == 0
        connection = None
        for n in range(queries):
            try:
                if connection is None:
                    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
                if n % 2:
                    connection.request("GET", f"/query?query={query}", headers={"Accept": "text/csv"})
                else:
                    connection.request("POST", "/query", body=COUNT, headers={"Content-Type": "application/sparql-query",
                                                                              "Accept": "text/csv"})
                response = connection.getresponse()
                body = response.read()
                if response.status != 200 or body.split()[1] != str(expected).encode():
                    failures.append(f"{response.status} {body[:80]!r}")
                if not keep or response.getheader("Connection") == "close":
                    connection.close()
                    connection = None
            except Exception as exc:  # a reset, a timeout: what this test is about
                failures.append(f"{type(exc).__name__}: {exc}")
                connection = None
        if connection is not None:
            connection.close()

    workers = [threading.Thread(target=client, args=(n,)) for n in range(threads)]
    started = time.monotonic()
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(120)
    return failures, time.monotonic() - started


@pytest.mark.parametrize("options", [(), ("--in-memory",)], ids=["on disk", "in memory"])
def test_twenty_clients_fifty_queries_each_and_not_one_fails(seed_store, seed_graph, options):
    with serving(seed_store, *options) as (port, _process):
        failures, seconds = _load(port, len(seed_graph))
    assert failures == [], (len(failures), failures[:5])
    print(f"1,000 queries from 20 clients {options or 'on disk'}: {seconds:.2f} s")


def test_when_every_thread_and_queue_place_is_taken_clients_get_503_with_retry_after(seed_store):
    with serving(seed_store, "--threads", "1", "--backlog", "1", "--engines", "1", "--timeout", "3") as (port, _p):
        heavy = threading.Thread(target=_post, args=(port, HEAVY))
        heavy.start()  # holds the only thread until the deadline
        time.sleep(0.5)
        queued = socket.create_connection(("127.0.0.1", port), timeout=20)
        queued.sendall(b"POST /query HTTP/1.1\r\nHost: x\r\nContent-Type: application/sparql-query\r\n"
                       b"Accept: text/csv\r\nContent-Length: %d\r\n\r\n" % len(COUNT) + COUNT)
        time.sleep(0.3)
        turned_away = []
        for _ in range(5):
            with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
                sock.sendall(b"POST /query HTTP/1.1\r\nHost: x\r\nContent-Type: application/sparql-query\r\n"
                             b"Content-Length: %d\r\n\r\n" % len(COUNT) + COUNT)
                turned_away.append(_response(sock))  # a reset would raise here
        assert [(s, h.get("retry-after")) for s, h, _b in turned_away] == [(503, "1")] * 5
        heavy.join()
        status, _headers, body = _response(queued, timeout=20)
        queued.close()
        assert status == 200 and body.split()[0] == b"n"  # the queued one was answered after all


# --- engines: deadline, crash, busy ---------------------------------------------------------

def _engines(endpoint: Endpoint) -> set[int]:
    host = endpoint.engine._host.pid
    return set(_process_tree(host)) - {host}


def test_a_query_past_the_deadline_has_its_engine_killed_and_replaced(seed_store):
    with Endpoint(seed_store, port=0, timeout=1, engines=2) as endpoint:
        before = _engines(endpoint)
        assert len(before) == 2
        started = time.monotonic()
        status, body = _post(endpoint.port, HEAVY)
        assert status == 503 and b"longer than 1 s and was cancelled" in body
        assert time.monotonic() - started < 8
        after = _engines(endpoint)
        assert len(after) == 2 and len(before - after) == 1  # one engine killed, one new
        assert all(not os.path.exists(f"/proc/{pid}") for pid in before - after)
        assert _post(endpoint.port)[0] == 200


def test_an_engine_that_crashes_gives_500_and_the_endpoint_goes_on(seed_store):
    with Endpoint(seed_store, port=0, timeout=30, engines=1) as endpoint:
        (engine,) = _engines(endpoint)
        outcome = {}
        heavy = threading.Thread(target=lambda: outcome.update(answer=_post(endpoint.port, HEAVY)))
        heavy.start()
        time.sleep(1.0)
        os.kill(engine, signal.SIGSEGV)  # what a native crash of the engine looks like
        heavy.join(20)
        status, body = outcome["answer"]
        assert status == 500 and b"died of SIGSEGV" in body
        assert _post(endpoint.port)[0] == 200


def test_when_every_engine_is_busy_a_query_gets_503_with_retry_after(seed_store):
    with Endpoint(seed_store, port=0, timeout=2, engines=1) as endpoint:
        endpoint.engine.wait = 0.5
        heavy = threading.Thread(target=_post, args=(endpoint.port, HEAVY))
        heavy.start()
        time.sleep(0.5)
        connection = http.client.HTTPConnection("127.0.0.1", endpoint.port, timeout=10)
        connection.request("POST", "/query", body=COUNT, headers={"Content-Type": "application/sparql-query"})
        response = connection.getresponse()
        assert response.status == 503 and response.getheader("Retry-After") == "2"
        assert b"busy" in response.read()
        connection.close()
        heavy.join()


def test_an_answer_over_the_size_limit_is_refused_whole(seed_store):
    with Endpoint(seed_store, port=0, max_bytes=1 << 16) as endpoint:
        status, body = _post(endpoint.port, b"CONSTRUCT WHERE { ?s ?p ?o }", Accept="application/n-triples")
        assert status == 507 and b"larger than 64 KiB; add a LIMIT" in body
        status, body = _post(endpoint.port, b"CONSTRUCT WHERE { ?s ?p ?o } LIMIT 3", Accept="application/n-triples")
        assert status == 200 and body.count(b"\n") == 3


# --- routes an application adds --------------------------------------------------------------

def test_routes_added_by_an_application_are_served_beside_the_protocol(seed_store):
    endpoint = Endpoint(seed_store, port=0)
    endpoint.router.add("/api/stats", lambda request: Response(200, json.dumps({"engines": endpoint.engine.size}).encode(),
                                                                "application/json"))
    endpoint.router.add("/app/", lambda request: Response.text(200, f"page {request.path}"), prefix=True)
    with endpoint:
        connection = http.client.HTTPConnection("127.0.0.1", endpoint.port, timeout=10)
        connection.request("GET", "/api/stats")
        response = connection.getresponse()
        assert (response.status, response.getheader("Content-Type")) == (200, "application/json")
        assert json.loads(response.read()) == {"engines": endpoint.engine.size}
        connection.request("GET", "/app/deep/page.html")
        response = connection.getresponse()
        assert (response.status, response.read()) == (200, b"page /app/deep/page.html\n")
        connection.request("DELETE", "/api/stats")
        response = connection.getresponse()
        assert (response.status, response.getheader("Allow")) == (405, "GET, HEAD")
        response.read()
        connection.request("HEAD", "/api/stats")
        response = connection.getresponse()
        assert response.status == 200 and response.read() == b""
        connection.request("GET", "/nothing-here")
        response = connection.getresponse()
        assert response.status == 404 and response.read().startswith(b"not found")
        connection.close()
        assert _post(endpoint.port)[0] == 200


# --- content negotiation -------------------------------------------------------------------

@pytest.mark.parametrize("accept, kind, expected", [
    ("", "results", "application/sparql-results+json"),
    ("*/*", "graph", "text/turtle"),
    ("text/csv", "results", "text/csv"),
    ("text/csv;q=0.4, application/sparql-results+xml", "results", "application/sparql-results+xml"),
    ("application/sparql-results+json,application/json,text/javascript,application/javascript", "results",
     "application/sparql-results+json"),
    ("application/turtle,text/turtle", "graph", "text/turtle"),
    ("text/*", "results", "text/csv"),
    ("text/*;q=0.5, application/n-triples", "graph", "application/n-triples"),
    ("application/n-triples;q=0", "graph", None),
    ("image/png", "results", None),
    ("application/sparql-results+json", "graph", None),
    ("garbage;;;,,,/,q=", "results", "application/sparql-results+json"),  # nothing readable: as if absent
])
def test_the_answer_type_follows_accept(accept, kind, expected):
    assert choose(accept, kind) == expected


def test_format_parameter_counts_only_when_accept_says_nothing():
    assert default_accept("", "csv") == "text/csv"
    assert default_accept("*/*", "turtle") == "text/turtle"
    assert default_accept("application/sparql-results+xml", "csv") == "application/sparql-results+xml"


def test_no_acceptable_type_gets_406(endpoint):
    port, _process = endpoint
    status, body = _post(port, b"ASK {}", Accept="image/png")
    assert status == 406 and b"application/sparql-results+json" in body
