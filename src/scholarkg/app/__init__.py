"""The browser app that ``scholarkg serve`` serves beside its SPARQL endpoint, on the same port.

::

    /app/           the page: Explore (search, neighbourhoods, filters, panels) and Workbench
    /app/static/*   its files, shipped in the package: the app's scripts and styles, the explorer's
                    graph view (the same drawing as the static explorer page), vis-network
                    (from pyvis) and the Ace editor with its SPARQL mode (from django-ace)
    /app/named      a named query with its parameters, as JSON: the text that ran and its answer
    /               a browser (Accept: text/html) is sent to /app/; any other client gets the
                    endpoint's own index

Every request the page makes is a SPARQL query: sent to ``/query`` like any client's, or, for
named queries, composed here (:func:`scholarkg.named.inline_values` binds the parameters in
the text) and then run through the same checker, engines, timeout and answer limit. The page
is read-only whatever the endpoint allows; record text is only ever inserted as text (the
scripts never build HTML from strings), and the Content-Security-Policy allows nothing from
another origin.
"""

from __future__ import annotations

import html
import importlib.util
import json
import logging
from functools import lru_cache
from pathlib import Path

from ..errors import QueryError, UsageError

__all__ = ["install", "page_config", "static_files", "PAGE_POLICY"]

log = logging.getLogger(__name__)

_HERE = Path(__file__).resolve().parent
PAGE_SIZE_MAX = 1000

PAGE_POLICY = (
    "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
    "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
)
_HEADERS = {
    "Content-Security-Policy": PAGE_POLICY,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-cache",
}
_TYPES = {".js": "text/javascript; charset=utf-8", ".css": "text/css; charset=utf-8", ".html": "text/html; charset=utf-8"}


def _package_folder(name: str) -> Path:
    """A package's folder found without importing it (django-ace would import Django)."""
    spec = importlib.util.find_spec(name)
    if spec is None or not spec.submodule_search_locations:
        raise UsageError(f"the served app needs the package {name!r}, which is not installed")
    return Path(next(iter(spec.submodule_search_locations)))


@lru_cache(maxsize=1)
def static_files() -> dict[str, Path]:
    """Every file the page may load, by its name under ``/app/static/``; nothing else is served."""
    explorer = _HERE.parent / "explorer"
    ace = _package_folder("django_ace") / "static" / "django_ace" / "ace"
    vis = _package_folder("pyvis") / "templates" / "lib" / "vis-9.1.2" / "vis-network.min.js"
    files = {
        "vis-network.min.js": vis,
        "graphview.js": explorer / "graphview.js",
        "details.js": explorer / "details.js",
        "explorer.css": explorer / "explorer.css",
        "ace/ace.js": ace / "ace.js",
        "ace/mode-sparql.js": ace / "mode-sparql.js",
        "ace/theme-textmate.js": ace / "theme-textmate.js",
    }
    for name in ("app.css", "client.js", "explore.js", "panels.js", "workbench.js"):
        files[name] = _HERE / name
    return files


def _named_catalogue() -> list[dict]:
    from ..named import named_queries

    return [{"name": q.name, "title": q.title, "description": q.description,
             "params": [{"name": p, "default": d, "help": h} for p, (d, h) in q.params.items()]}
            for q in sorted(named_queries().values(), key=lambda q: q.title.casefold())]


def page_config(endpoint) -> dict:
    """What the page script is told: where to ask, the endpoint's limits, the legend, the named queries."""
    from ..explorer.page import KIND_STYLE, RELATION_STYLE, RELATION_TEXT, app_options
    from ..explorer.view import RELATIONS
    from ..store.search import PREFIX_LETTERS, SEARCH_GRAPH

    return {
        "query_url": "/query",
        "named_url": "/app/named",
        "timeout": endpoint.timeout,
        "store": endpoint.store.name,
        "search_graph": SEARCH_GRAPH,
        "prefix_letters": PREFIX_LETTERS,
        "kinds": [{"kind": k, "color": c, "shape": s, "text": t} for k, (c, s, t) in KIND_STYLE.items()],
        "relations": [{"relation": r, "color": c, "dashes": d, "text": RELATION_TEXT[r]} for r, (c, d) in RELATION_STYLE.items()],
        "predicates": {str(p): r for p, r in RELATIONS.items()},
        "options": app_options(),
        "named": _named_catalogue(),
    }


class App:
    def __init__(self, endpoint):
        self.endpoint = endpoint
        self._fallback = endpoint.router.match("/")

    def install(self, router) -> None:
        router.add("/", self.root)
        router.add("/app", lambda request: self._redirect("/app/"))
        router.add("/app/", self.page)
        router.add("/app/static/", self.static, prefix=True)
        router.add("/app/named", self.named)

    # --- routes ---------------------------------------------------------------------------

    def root(self, request):
        if "text/html" in (request.headers.get("Accept") or "") and self._fallback is not None:
            return self._redirect("/app/")
        return self._fallback.handler(request) if self._fallback else self._redirect("/app/")

    def page(self, request):
        from ..explorer.htmlpage import script_json
        from ..serve import Response

        text = _page_template().replace("@@title@@", html.escape(f"scholarkg · {self.endpoint.store.name}"))
        text = text.replace("@@config@@", script_json(page_config(self.endpoint)))
        return Response(200, text.encode("utf-8"), _TYPES[".html"], headers=dict(_HEADERS))

    def static(self, request):
        from ..serve import Response

        name = request.path[len("/app/static/"):]
        path = static_files().get(name)
        if path is None:
            return Response.text(404, f"not found: {request.path[:200]}")
        return Response(200, _read(path), _TYPES.get(path.suffix, "application/octet-stream"),
                        headers={"X-Content-Type-Options": "nosniff", "Cache-Control": "max-age=300"})

    def named(self, request):
        from ..serve import Response

        try:
            text, limit, offset = self._named_text(request.query)
        except (UsageError, QueryError, ValueError) as exc:
            return Response.text(400, str(exc))
        return self._answer(text, limit, offset)

    # --- named queries ----------------------------------------------------------------------

    def _named_text(self, query: dict[str, list[str]]) -> tuple[str, int | None, int]:
        """The named query's text for these values and this engine (with its ORDER BY, without
        a page's LIMIT and OFFSET), the page's size and its offset."""
        from ..named import exact_values, get_named_query, inline_values

        values = {key: items[-1] for key, items in query.items()}
        name = values.pop("name", "")
        if not name:
            raise UsageError("give the named query as ?name=")
        limit = _count(values.pop("limit", None), "limit")
        offset = _count(values.pop("offset", None), "offset") or 0
        q = get_named_query(name)
        bindings, exact = exact_values(q, q.bindings(values), self._written)
        engine = "memory" if self.endpoint.source.mode == "in-memory" else "disk"
        return inline_values(q.text_for(bindings, engine, exact), bindings), limit, offset

    def _written(self, lookup: str, value: str) -> list[tuple[str, bool]]:
        """The values a lookup of :func:`scholarkg.named.exact_values` finds, as (text, whether
        a plain string); an engine's error counts as a value that is not one, so the query keeps
        its case-insensitive text."""
        from ..named import inline_values

        answer = self.endpoint.engine.run({"op": "query", "text": inline_values(lookup, {"given": value}),
                                           "accept": "application/sparql-results+json", "default_graph": None, "named_graphs": None})
        body = answer.body if isinstance(answer.body, bytes) else _drain(answer.body)
        if answer.status != 200:
            return [("", False)]
        return [(row["value"]["value"], row["plain"]["value"] == "true") for row in json.loads(body)["results"]["bindings"]]

    def _answer(self, text: str, limit: int | None, offset: int):
        """The page of ``text``'s answer from ``offset``, one row more than ``limit`` asked to
        tell whether there are more. On disk an engine puts the rows in order itself (see
        :func:`scholarkg.serve.worker._page`); in memory Oxigraph's ``ORDER BY`` with the page's
        ``LIMIT`` is the quicker. Either way the text sent back is the query with its page."""
        from ..named import with_page
        from ..serve import Response
        from ..sparql import check_query

        count = None if limit is None else limit + 1
        paged = with_page(text, count, offset)
        try:
            check_query(paged, allow_remote=False)
        except QueryError as exc:
            return Response.text(400, str(exc))
        job = {"op": "query", "text": paged, "accept": "application/sparql-results+json", "default_graph": None, "named_graphs": None}
        if self.endpoint.source.mode != "in-memory":
            job.update(op="page", text=text, count=count, offset=offset)
        answer = self.endpoint.engine.run(job)
        body = answer.body if isinstance(answer.body, bytes) else _drain(answer.body)
        if answer.status != 200:
            return Response(answer.status, body, answer.type, headers=answer.headers)
        result = json.loads(body)
        more = False
        bindings = result.get("results", {}).get("bindings")
        if limit is not None and bindings is not None and len(bindings) > limit:
            del bindings[limit:]
            more = True
        payload = json.dumps({"query": paged, "answer": result, "more": more}, ensure_ascii=False)
        return Response(200, payload.encode("utf-8"), "application/json; charset=utf-8",
                        headers={"X-Content-Type-Options": "nosniff", "Cache-Control": "no-store"})

    def _redirect(self, where: str):
        from ..serve import Response

        return Response(303, f"see {where}\n".encode(), headers={"Location": where})


def _count(value: str | None, name: str) -> int | None:
    if value in (None, ""):
        return None
    if not value.isdigit() or int(value) > 1_000_000:
        raise UsageError(f"{name} must be a whole number from 0 to 1000000, not {value[:40]!r}")
    return min(int(value), PAGE_SIZE_MAX) if name == "limit" else int(value)


def _drain(body) -> bytes:
    try:
        return body.read()
    finally:
        body.close()


@lru_cache(maxsize=None)
def _read(path: Path) -> bytes:
    return path.read_bytes()


@lru_cache(maxsize=1)
def _page_template() -> str:
    return (_HERE / "page.html").read_text(encoding="utf-8")


def install(endpoint) -> App:
    """Add the app's routes to ``endpoint`` (before it starts)."""
    app = App(endpoint)
    app.install(endpoint.router)
    return app
