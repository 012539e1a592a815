"""Routes of the endpoint's HTTP server: what a handler gets and gives, and how paths find it.

An application adds pages, files and JSON endpoints beside the SPARQL protocol with
:meth:`Router.add`::

    endpoint.router.add("/api/stats", lambda request: Response(200, b'{"ok": true}', "application/json"))
    endpoint.router.add("/app/", serve_file, prefix=True)
"""

from __future__ import annotations

import email.message
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import BinaryIO

__all__ = ["Request", "Response", "Route", "Router", "DEFAULT_MAX_BODY"]

DEFAULT_MAX_BODY = 1_000_000


@dataclass
class Request:
    method: str
    path: str
    query: dict[str, list[str]]
    headers: email.message.Message
    body: bytes
    client: str

    @property
    def content_type(self) -> str:
        return (self.headers.get("Content-Type") or "").split(";")[0].strip().lower()


@dataclass
class Response:
    status: int
    body: bytes | BinaryIO = b""
    type: str = "text/plain; charset=utf-8"
    size: int | None = None  # needed when body is a file
    headers: dict[str, str] = field(default_factory=dict)

    @classmethod
    def text(cls, status: int, message: str, **headers: str) -> Response:
        return cls(status, (message.rstrip("\n") + "\n").encode("utf-8"), headers=headers)


Handler = Callable[[Request], Response]


@dataclass(frozen=True)
class Route:
    path: str
    handler: Handler
    methods: frozenset[str]
    prefix: bool
    max_body: int


class Router:
    """Routes by path: exact paths first, then the longest matching prefix."""

    def __init__(self) -> None:
        self._exact: dict[str, Route] = {}
        self._prefixes: list[Route] = []

    def add(self, path: str, handler: Handler, *, methods=("GET",), prefix: bool = False,
            max_body: int = DEFAULT_MAX_BODY) -> None:
        """Answer ``path`` (every path under it with ``prefix``) with ``handler``; GET implies HEAD."""
        names = {m.upper() for m in methods}
        if "GET" in names:
            names.add("HEAD")
        route = Route(path, handler, frozenset(names), prefix, max_body)
        if prefix:
            self._prefixes = sorted([*self._prefixes, route], key=lambda r: -len(r.path))
        else:
            self._exact[path] = route

    def match(self, path: str) -> Route | None:
        if path in self._exact:
            return self._exact[path]
        return next((r for r in self._prefixes if path.startswith(r.path)), None)
