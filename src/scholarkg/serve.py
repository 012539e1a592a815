"""A SPARQL 1.1 Protocol endpoint over a store (``scholarkg serve``).

The answering engine is the Oxigraph server (the ``oxigraph`` command), started on a private
loopback port over the store's database with ``--union-default-graph`` and a query timeout it
enforces itself (a query that runs too long is cancelled, not left running). In front of it,
this module's HTTP server is what clients talk to. It

- accepts queries by GET (``?query=``) and POST (``application/sparql-query`` or a form) at
  ``/query`` (and ``/sparql``), and passes the client's ``Accept`` header on, so results come
  as JSON, XML, CSV or TSV and graphs as Turtle or N-Triples, as the client asks;
- checks every query with :func:`scholarkg.sparql.check_query` first (no SERVICE, LOAD or
  FROM unless allowed; size and nesting limits, since deep nesting crashes the engine);
- refuses updates unless started with ``allow_update`` (the backend is then read-write);
- with ``in_memory``, answers from an in-memory copy of the store (queries are several times
  faster; it costs about 0.3 KB of memory per statement and a load at start), and leaves the
  store free for builds: the copy is a snapshot;
- keeps the whole answer before replying, so a query cancelled half-way becomes a clean
  ``503`` instead of a truncated ``200``, and caps its size.

While it runs on the store itself, the server holds the store's lock (shared when read-only),
so no build can write underneath it.
"""

from __future__ import annotations

import http.client
import logging
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

from .errors import NetworkError, QueryError, StoreError, UsageError

__all__ = ["Endpoint", "oxigraph_command", "free_port", "wait_for_port"]

log = logging.getLogger(__name__)

_CANCELLED = b"The SPARQL operation has been cancelled"  # how the Oxigraph server ends a timed-out answer
_FORMATS = {  # ?format= / ?output= values (sent by SPARQLWrapper and browsers) -> media type
    "json": "application/sparql-results+json",
    "xml": "application/sparql-results+xml",
    "csv": "text/csv",
    "tsv": "text/tab-separated-values",
    "turtle": "text/turtle",
    "nt": "application/n-triples",
    "ntriples": "application/n-triples",
    "n-triples": "application/n-triples",
}


def oxigraph_command() -> str:
    """Path of the ``oxigraph`` server program (installed with the ``scale`` extra)."""
    beside = Path(sys.executable).with_name("oxigraph")
    found = str(beside) if beside.is_file() else shutil.which("oxigraph")
    if not found:
        raise StoreError("the oxigraph server program is not installed (pip install 'scholarkg[scale]')")
    return found


def free_port(host: str = "127.0.0.1") -> int:
    with socket.socket() as s:
        s.bind((host, 0))
        return s.getsockname()[1]


def wait_for_port(host: str, port: int, timeout: float, process: subprocess.Popen | None = None) -> None:
    """Wait until something accepts connections on ``host:port`` (or ``process`` exits)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process is not None and process.poll() is not None:
            raise StoreError(f"the server exited at start (code {process.returncode})")
        try:
            socket.create_connection((host, port), timeout=1).close()
            return
        except OSError:
            time.sleep(0.1)
    raise StoreError(f"nothing answered on {host}:{port} within {timeout:g} s")


class Endpoint:
    """The endpoint of one store. ``start()`` returns once it answers; ``stop()`` ends everything."""

    def __init__(self, store: str | Path, *, host: str = "127.0.0.1", port: int = 7878, timeout: int = 30,
                 allow_update: bool = False, allow_remote: bool = False, max_bytes: int = 512 << 20,
                 in_memory: bool = False):
        if in_memory and allow_update:
            raise UsageError("updates to an in-memory copy would be lost: give --allow-update or --in-memory, not both")
        self.store = Path(store)
        self.in_memory = in_memory
        self.host, self.port = host, port
        self.timeout = max(1, int(timeout))
        self.allow_update, self.allow_remote = allow_update, allow_remote
        self.max_bytes = max_bytes
        self._lock_fd = None
        self._backend: subprocess.Popen | None = None
        self._server: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}/query"

    def start(self) -> Endpoint:
        from .store.disk import check_store, lock_store

        check_store(self.store)
        self._lock_fd = lock_store(self.store, writable=self.allow_update)
        try:
            self._start_backend()
            if self.in_memory:
                self._copy_into_backend()
                os.close(self._lock_fd)  # a snapshot: builds may go on
                self._lock_fd = None
            self._server = _Server((self.host, self.port), _Handler, self)
            self.port = self._server.server_address[1]
        except OSError as exc:
            self.stop()
            raise NetworkError(f"cannot listen on {self.host}:{self.port} ({exc.strerror or exc})") from exc
        except BaseException:
            self.stop()
            raise
        self._thread = threading.Thread(target=self._server.serve_forever, name="scholarkg-endpoint", daemon=True)
        self._thread.start()
        log.info("SPARQL endpoint of %s at %s", self.store, self.url)
        return self

    def _start_backend(self) -> None:
        self.backend_port = free_port()
        if self.in_memory:
            where = ["serve"]  # no --location: in memory
        else:
            where = ["serve" if self.allow_update else "serve-read-only", "--location", str(self.store / "oxigraph")]
        command = [oxigraph_command(), *where, "--bind", f"127.0.0.1:{self.backend_port}",
                   "--union-default-graph", "--timeout-s", str(self.timeout)]
        self._log = tempfile.TemporaryFile()
        self._backend = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=self._log, stderr=subprocess.STDOUT,
                                         preexec_fn=_die_with_parent if sys.platform == "linux" else None)
        try:
            wait_for_port("127.0.0.1", self.backend_port, 60, self._backend)
        except StoreError as exc:
            self._log.seek(0)
            detail = " ".join(self._log.read().decode("utf-8", "replace").split())[-300:]
            raise StoreError(f"{self.store}: the Oxigraph server did not start ({exc}): {detail}") from exc

    def _copy_into_backend(self) -> None:
        """Load every statement of the store into the in-memory backend (N-Quads, one request)."""
        from .store import GraphStore

        with tempfile.TemporaryFile() as dump:
            with GraphStore(self.store) as store:
                store.ox.dump(dump, _nquads())
            size = dump.tell()
            dump.seek(0)
            connection = http.client.HTTPConnection("127.0.0.1", self.backend_port, timeout=3600)
            try:
                connection.request("POST", "/store", body=dump, headers={
                    "Content-Type": "application/n-quads", "Content-Length": str(size)})
                response = connection.getresponse()
                detail = response.read()[:300].decode("utf-8", "replace")
            finally:
                connection.close()
        if response.status not in (200, 201, 204):
            raise StoreError(f"{self.store}: loading the in-memory copy failed ({response.status}): {detail}")
        log.info("loaded %s into memory (%d bytes of N-Quads)", self.store, size)

    def wait(self) -> None:
        """Block until interrupted (Ctrl-C) or the backend dies."""
        while self._backend is not None and self._backend.poll() is None:
            time.sleep(0.5)
        if self._backend is not None:
            raise StoreError(f"the Oxigraph server stopped unexpectedly (code {self._backend.returncode})")

    def stop(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None
        if self._backend is not None:
            if self._backend.poll() is None:
                self._backend.terminate()
                try:
                    self._backend.wait(10)
                except subprocess.TimeoutExpired:
                    self._backend.kill()
                    self._backend.wait()
            self._backend = None
            self._log.close()
        if self._lock_fd is not None:
            os.close(self._lock_fd)
            self._lock_fd = None

    def __enter__(self) -> Endpoint:
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()


def _nquads():
    import pyoxigraph

    return pyoxigraph.RdfFormat.N_QUADS


def _die_with_parent() -> None:
    """In the backend process, before exec: be terminated when the endpoint's process dies."""
    import ctypes
    import signal

    ctypes.CDLL(None).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG


class _Server(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, address, handler, endpoint: Endpoint):
        self.endpoint = endpoint
        super().__init__(address, handler)


class _Handler(BaseHTTPRequestHandler):
    server_version = "scholarkg"
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args) -> None:
        log.debug("%s %s", self.address_string(), format % args)

    @property
    def endpoint(self) -> Endpoint:
        return self.server.endpoint

    def do_GET(self) -> None:
        url = urlsplit(self.path)
        params = parse_qs(url.query, keep_blank_values=True)
        if url.path in ("/query", "/sparql") and "query" in params:
            return self._query(params["query"][0], params)
        if url.path in ("/", "/query", "/sparql"):
            return self._reply(200, "text/plain; charset=utf-8", b"scholarkg SPARQL endpoint: send SPARQL 1.1 queries to /query (GET ?query= or POST)\n")
        if url.path == "/update":
            return self._update_refused()
        self._reply(404, "text/plain; charset=utf-8", b"not found: queries go to /query\n")

    def do_POST(self) -> None:
        url = urlsplit(self.path)
        params = parse_qs(url.query, keep_blank_values=True)
        length = int(self.headers.get("Content-Length") or 0)
        if length > 1_000_000:
            return self._reply(413, "text/plain; charset=utf-8", b"request too large\n")
        body = self.rfile.read(length)
        kind = (self.headers.get("Content-Type") or "").split(";")[0].strip().lower()
        if kind == "application/x-www-form-urlencoded":
            params.update(parse_qs(body.decode("utf-8", "replace"), keep_blank_values=True))
        if url.path == "/update" or "update" in params or kind == "application/sparql-update":
            if not self.endpoint.allow_update:
                return self._update_refused()
            text = params["update"][0] if "update" in params else body.decode("utf-8", "replace")
            return self._forward("/update", text, "application/sparql-update",
                                 check=dict(allow_update=True, allow_remote=self.endpoint.allow_remote))
        if url.path not in ("/query", "/sparql"):
            return self._reply(404, "text/plain; charset=utf-8", b"not found: queries go to /query\n")
        if kind == "application/sparql-query":
            return self._query(body.decode("utf-8", "replace"), params)
        if "query" in params:
            return self._query(params["query"][0], params)
        self._reply(400, "text/plain; charset=utf-8", b"no query: send one as ?query=, a form field or application/sparql-query\n")

    def _update_refused(self) -> None:
        self._reply(403, "text/plain; charset=utf-8", b"updates are refused: this endpoint is read-only\n")

    def _query(self, text: str, params: dict) -> None:
        if ("default-graph-uri" in params or "named-graph-uri" in params) and not self.endpoint.allow_remote:
            return self._reply(400, "text/plain; charset=utf-8", b"default-graph-uri and named-graph-uri are not accepted here\n")
        self._forward("/query", text, "application/sparql-query", check=dict(allow_remote=self.endpoint.allow_remote), params=params)

    def _accept(self, params: dict) -> str:
        accept = self.headers.get("Accept") or ""
        wanted = (params.get("format") or params.get("output") or [""])[0].lower()
        if wanted in _FORMATS and (not accept or accept.strip() == "*/*"):
            return _FORMATS[wanted]
        return accept or "application/sparql-results+json, text/turtle;q=0.9"

    def _forward(self, path: str, text: str, kind: str, *, check: dict, params: dict | None = None) -> None:
        from .sparql import check_query

        try:
            check_query(text, **check)
        except QueryError as exc:
            return self._reply(400, "text/plain; charset=utf-8", f"{exc}\n".encode())
        endpoint = self.endpoint
        headers = {"Content-Type": kind, "Accept": self._accept(params or {})}
        try:
            connection = http.client.HTTPConnection("127.0.0.1", endpoint.backend_port, timeout=endpoint.timeout + 30)
            connection.request("POST", path, body=text.encode("utf-8"), headers=headers)
            response = connection.getresponse()
        except OSError as exc:
            return self._reply(502, "text/plain; charset=utf-8", f"the query engine failed: {exc}\n".encode())
        with tempfile.SpooledTemporaryFile(max_size=8 << 20) as answer:
            size, tail = 0, b""
            while chunk := response.read(1 << 16):
                size += len(chunk)
                if size > endpoint.max_bytes:
                    connection.close()
                    return self._reply(507, "text/plain; charset=utf-8", f"the answer is larger than {endpoint.max_bytes >> 20} MiB; add a LIMIT\n".encode())
                answer.write(chunk)
                tail = (tail + chunk)[-len(_CANCELLED) :]
            connection.close()
            if tail == _CANCELLED:
                return self._reply(503, "text/plain; charset=utf-8", f"the query ran longer than {endpoint.timeout} s and was cancelled\n".encode())
            answer.seek(0)
            self._reply(response.status, response.getheader("Content-Type") or "application/octet-stream", answer, size)

    def _reply(self, status: int, kind: str, body, size: int | None = None) -> None:
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body) if size is None else size))
        self.end_headers()
        if self.command == "HEAD":
            return
        if isinstance(body, bytes):
            self.wfile.write(body)
        else:
            shutil.copyfileobj(body, self.wfile, 1 << 16)
