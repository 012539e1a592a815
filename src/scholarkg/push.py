"""Publish a store to a shared server over the SPARQL 1.1 Graph Store HTTP Protocol.

``endpoint`` is the server's graph store URL, for instance ``http://host:7878/store``
(Oxigraph server), ``http://host:3030/DATASET/data`` (Fuseki),
``http://host:8890/sparql-graph-crud-auth`` (Virtuoso) or
``http://host:7200/repositories/REPO/rdf-graphs/service`` (GraphDB).

Two layouts on the server:

- merged (default): every statement goes into one graph, the server's default graph or the
  named graph ``graph``; queries on any server see it without configuration. The statements
  are sent as N-Triples in batches: ``PUT`` for the first with ``replace`` (the target graph
  is replaced), ``POST`` (add) otherwise.
- ``named_graphs``: one graph per record, as in the store, each replaced with ``PUT``; the
  server then needs its default graph to be the union of the named graphs to answer plain
  queries (Oxigraph: ``--union-default-graph``; Fuseki: ``unionDefaultGraph``).

Statements are sets, so pushing the same store twice changes nothing on the server; an
interrupted push is completed by running it again.
"""

from __future__ import annotations

import base64
import http.client
import logging
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote, urlsplit

from .errors import NetworkError, UsageError

__all__ = ["PushReport", "push_store"]

log = logging.getLogger(__name__)


@dataclass
class PushReport:
    statements: int = 0
    requests: int = 0
    graphs: int = 0


class _Target:
    """One HTTP connection to the graph store, reused for every request."""

    def __init__(self, endpoint: str, user: str | None, password: str | None, timeout: float):
        url = urlsplit(endpoint)
        if url.scheme not in ("http", "https") or not url.hostname:
            raise UsageError(f"--endpoint must be an http or https URL, not {endpoint!r}")
        self.endpoint = endpoint
        self.path = url.path or "/"
        self.query = url.query
        kind = http.client.HTTPSConnection if url.scheme == "https" else http.client.HTTPConnection
        self.connection = kind(url.hostname, url.port, timeout=timeout)
        self.headers = {"Content-Type": "application/n-triples"}
        if user:
            token = base64.b64encode(f"{user}:{password or ''}".encode()).decode("ascii")
            self.headers["Authorization"] = f"Basic {token}"

    def send(self, method: str, graph: str | None, body: bytes) -> None:
        selector = "default" if graph is None else "graph=" + quote(graph, safe="")
        target = f"{self.path}?{self.query + '&' if self.query else ''}{selector}"
        try:
            self.connection.request(method, target, body=body, headers=self.headers)
            response = self.connection.getresponse()
            detail = response.read()[:300].decode("utf-8", "replace")
        except OSError as exc:
            self.connection.close()
            raise NetworkError(f"cannot reach {self.endpoint} ({exc})") from exc
        if response.status not in (200, 201, 204):
            line = " ".join(detail.split())
            raise NetworkError(f"{self.endpoint}: the server refused {method} ({response.status} {response.reason}){': ' + line if line else ''}")

    def close(self) -> None:
        self.connection.close()


def _batches(triples: Iterable, size: int) -> Iterator[bytes]:
    import pyoxigraph as ox

    batch = []
    for triple in triples:
        batch.append(triple)
        if len(batch) >= size:
            yield ox.serialize(batch, format=ox.RdfFormat.N_TRIPLES)
            batch = []
    if batch:
        yield ox.serialize(batch, format=ox.RdfFormat.N_TRIPLES)


def push_store(
    store: str | Path,
    endpoint: str,
    *,
    graph: str | None = None,
    named_graphs: bool = False,
    replace: bool = False,
    user: str | None = None,
    password: str | None = None,
    batch: int = 100_000,
    timeout: float = 300.0,
    progress: Callable[[str, int, int | None], None] | None = None,
) -> PushReport:
    """Upload every statement of ``store`` to the graph store at ``endpoint``."""
    from .graph.iri import validate
    from .store import GraphStore

    if graph is not None and named_graphs:
        raise UsageError("give either --graph or --named-graphs, not both")
    if graph is not None:
        try:
            validate(graph)
        except ValueError:
            raise UsageError(f"--graph must be an absolute IRI, not {graph!r}") from None
    from .store.search import SEARCH_GRAPH

    report = PushReport()
    progress = progress or (lambda phase, done, total: None)
    target = _Target(endpoint, user, password, timeout)
    try:
        with GraphStore(store) as opened:
            total = opened.count()
            if named_graphs:
                parts = ((g.value, opened.ox.quads_for_pattern(None, None, None, g))
                         for g in opened.ox.named_graphs() if g.value != SEARCH_GRAPH)
            else:
                parts = iter([(graph, opened.quads())])
            for name, quads in parts:
                first = True
                for data in _batches((q.triple for q in quads), batch):
                    target.send("PUT" if first and (replace or named_graphs) else "POST", name, data)
                    first = False
                    report.requests += 1
                    report.statements += data.count(b"\n")
                    progress("pushing", report.statements, total)
                if first and replace and not named_graphs:
                    target.send("PUT", name, b"")  # an empty store empties the target graph
                    report.requests += 1
                report.graphs += 1
    finally:
        target.close()
    log.info("pushed %d statements in %d requests to %s", report.statements, report.requests, endpoint)
    return report
