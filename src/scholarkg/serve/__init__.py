"""A SPARQL 1.1 Protocol endpoint over a store (``scholarkg serve``), in one listening process.

::

    source.py     what is served (read-only, read-write or an in-memory copy), opened in one place
    http.py       the HTTP server: bounded threads and queue, request limits
    routes.py     requests, responses and the router that more pages are added to
    protocol.py   the SPARQL 1.1 Protocol routes (/query, /sparql, /update)
    negotiate.py  the answer's media type from Accept
    engine.py     the pool of engine processes, deadlines, answer size limit
    worker.py     the engine processes themselves (pyoxigraph)
    wire.py       frames between the endpoint and its engines

Queries are answered by pyoxigraph in a pool of engine processes that the endpoint alone talks
to, over anonymous socket pairs; a query still running at ``timeout`` has its engine killed and
replaced (:mod:`scholarkg.serve.engine` says why in-process evaluation cannot be stopped).
More routes (pages, files, JSON) are added with ``endpoint.router.add(path, handler)`` before
:meth:`Endpoint.start`.

>>> with Endpoint("papers.store", port=0) as endpoint:                   # doctest: +SKIP
...     print(endpoint.url)
"""

from __future__ import annotations

import logging
import os
import socket
import time
from pathlib import Path

from ..errors import NetworkError, StoreError
from .engine import EnginePool
from .http import HttpServer
from .protocol import SparqlProtocol
from .routes import Request, Response, Router
from .source import StoreSource, choose_source

__all__ = ["Endpoint", "Request", "Response", "Router", "StoreSource", "free_port"]

log = logging.getLogger(__name__)


def free_port(host: str = "127.0.0.1") -> int:
    """A port nothing listens on now (for tests and tools that start servers)."""
    with socket.socket() as s:
        s.bind((host, 0))
        return s.getsockname()[1]


def default_engines() -> int:
    return max(2, min(8, os.cpu_count() or 2))


class Endpoint:
    """The endpoint of one store. ``start()`` returns once it answers; ``stop()`` ends everything."""

    def __init__(self, store: str | Path, *, host: str = "127.0.0.1", port: int = 7878, timeout: float = 30,
                 allow_update: bool = False, allow_remote: bool = False, max_bytes: int = 512 << 20,
                 in_memory: bool = False, engines: int | None = None, threads: int = 16, backlog: int = 64,
                 memory_budget: int | None = None):
        self.source: StoreSource = choose_source(store, in_memory=in_memory, allow_update=allow_update,
                                                 memory_budget=memory_budget)
        self.store = self.source.path
        self.host, self.port = host, port
        self.timeout = max(1.0, float(timeout))
        self.allow_update, self.allow_remote = allow_update, allow_remote
        self.max_bytes = max_bytes
        self.threads, self.backlog = threads, backlog
        self.engine = EnginePool(self.source, size=engines or default_engines(), timeout=self.timeout,
                                 max_bytes=max_bytes)
        self.router = Router()
        SparqlProtocol(self.engine, allow_update=allow_update, allow_remote=allow_remote).install(self.router)
        self._lock_fd: int | None = None
        self._http: HttpServer | None = None

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}/query"

    def start(self) -> Endpoint:
        self._lock_fd = self.source.lock()
        try:
            self.engine.start()
            if self.source.mode == "in-memory":
                self._unlock()  # a snapshot: builds may go on
            try:
                self._http = HttpServer(self.host, self.port, self.router, threads=self.threads, backlog=self.backlog)
            except OSError as exc:
                raise NetworkError(f"cannot listen on {self.host}:{self.port} ({exc.strerror or exc})") from exc
            self.port = self._http.address[1]
            self._http.start()
        except BaseException:
            self.stop()
            raise
        log.info("SPARQL endpoint of %s at %s", self.store, self.url)
        return self

    def wait(self) -> None:
        """Block until interrupted (Ctrl-C) or the engines' host process ends."""
        while self.engine.alive():
            time.sleep(0.5)
        raise StoreError("the query engines stopped unexpectedly")

    def stop(self) -> None:
        if self._http is not None:
            self._http.stop()
            self._http = None
        self.engine.stop()
        self._unlock()

    def _unlock(self) -> None:
        if self._lock_fd is not None:
            os.close(self._lock_fd)
            self._lock_fd = None

    def __enter__(self) -> Endpoint:
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()
