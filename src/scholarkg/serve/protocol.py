"""The SPARQL 1.1 Protocol over the routes of :mod:`scholarkg.serve.http`.

- ``/query`` (and ``/sparql``): a query by GET (``?query=``) or POST (a form with ``query``, or
  an ``application/sparql-query`` body); the answer's type is negotiated from ``Accept``, or
  ``?format=`` when ``Accept`` says nothing;
- ``/update``: an update by POST (a form with ``update``, or ``application/sparql-update``),
  refused (403) unless the endpoint takes updates. An update sent to ``/query`` is an update.

Every query and update is checked with :func:`scholarkg.sparql_check.check_query` before an
engine sees it: no ``SERVICE``, ``LOAD`` or ``FROM`` unless remote access is allowed, and
limits on size and nesting (deep nesting would crash the engine). ``default-graph-uri`` and
``named-graph-uri`` are accepted only with remote access allowed, like ``FROM``.
"""

from __future__ import annotations

from urllib.parse import parse_qs

from ..errors import QueryError, StoreError
from ..sparql_check import check_query
from ..store.snapshot import mark_updated
from .engine import Answer, EnginePool
from .negotiate import default_accept
from .routes import Request, Response, Router

__all__ = ["SparqlProtocol"]

_QUERY_PATHS = ("/query", "/sparql")
_INDEX = ("scholarkg SPARQL endpoint: send SPARQL 1.1 queries to /query (GET ?query= or POST), "
          "updates (when allowed) to /update")


class SparqlProtocol:
    def __init__(self, engine: EnginePool, *, allow_update: bool, allow_remote: bool):
        self.engine = engine
        self.allow_update, self.allow_remote = allow_update, allow_remote

    def install(self, router: Router) -> None:
        router.add("/", self.index)
        for path in _QUERY_PATHS:
            router.add(path, self.query, methods=("GET", "POST"))
        router.add("/update", self.update, methods=("GET", "POST"))

    def index(self, request: Request) -> Response:
        return Response.text(200, _INDEX)

    # --- requests ---------------------------------------------------------------------------

    def query(self, request: Request) -> Response:
        params = dict(request.query)
        kind = request.content_type
        if request.method == "POST":
            if kind == "application/x-www-form-urlencoded":
                params.update(_form(request.body))
            elif kind == "application/sparql-update":
                return self._update_text(_text(request.body))
            elif kind == "application/sparql-query":
                return self._run("query", _text(request.body), params, request)
            elif "query" not in params:
                return Response.text(415, "send the query as ?query=, a form field, or an application/sparql-query body")
        if "update" in params:
            return self._update_params(params)
        if "query" not in params:
            if request.method == "GET":
                return self.index(request)
            return Response.text(400, "no query: send one as ?query=, a form field or an application/sparql-query body")
        if len(params["query"]) != 1:
            return Response.text(400, "give exactly one query")
        return self._run("query", params["query"][0], params, request)

    def update(self, request: Request) -> Response:
        if not self.allow_update:
            return _read_only()
        if request.method != "POST":
            return Response.text(405, "updates are sent by POST", Allow="POST")
        if request.content_type == "application/x-www-form-urlencoded":
            return self._update_params({**request.query, **_form(request.body)})
        if request.content_type == "application/sparql-update":
            return self._update_text(_text(request.body))
        return Response.text(415, "send the update as a form field 'update' or an application/sparql-update body")

    def _update_params(self, params: dict) -> Response:
        if not self.allow_update:
            return _read_only()
        if len(params.get("update", [])) != 1:
            return Response.text(400, "give exactly one update")
        return self._update_text(params["update"][0])

    def _update_text(self, text: str) -> Response:
        if not self.allow_update:
            return _read_only()
        try:
            check_query(text, allow_update=True, allow_remote=self.allow_remote)
        except QueryError as exc:
            return Response.text(400, str(exc))
        if self.engine.source.writable:  # the store's blocks will no longer be its graph
            try:
                mark_updated(self.engine.source.path)
            except StoreError as exc:
                return Response.text(500, str(exc))
        return _response(self.engine.run({"op": "update", "text": text}))

    def _run(self, op: str, text: str, params: dict, request: Request) -> Response:
        graphs = {name: params.get(name) for name in ("default-graph-uri", "named-graph-uri")}
        if any(graphs.values()) and not self.allow_remote:
            return Response.text(400, "default-graph-uri and named-graph-uri are not accepted here (see --allow-remote)")
        try:
            check_query(text, allow_remote=self.allow_remote)
        except QueryError as exc:
            return Response.text(400, str(exc))
        wanted = (params.get("format") or params.get("output") or [None])[0]
        job = {"op": op, "text": text, "accept": default_accept(request.headers.get("Accept"), wanted),
               "default_graph": graphs["default-graph-uri"], "named_graphs": graphs["named-graph-uri"]}
        return _response(self.engine.run(job))


def _read_only() -> Response:
    return Response.text(403, "updates are refused: this endpoint is read-only")


def _text(body: bytes) -> str:
    try:
        return body.decode("utf-8")
    except UnicodeDecodeError:
        raise ValueError("the body is not UTF-8 text") from None


def _form(body: bytes) -> dict[str, list[str]]:
    return parse_qs(_text(body), keep_blank_values=True, max_num_fields=1000)


def _response(answer: Answer) -> Response:
    return Response(answer.status, answer.body, answer.type, answer.size, answer.headers)
