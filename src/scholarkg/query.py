"""SPARQL over a built graph: named queries shipped with the package, and safe execution.

Named queries live in ``scholarkg/queries/*.rq``. Their header comments give a title, a
one-line description and parameters::

    # title: Papers by year
    # description: An author's papers, newest first.
    # param: author = "" : author name, case-insensitive; empty for all authors

Parameter values are passed to the engine as bindings (rdflib ``initBindings``, pyoxigraph
``substitutions``), never pasted into the query text. Every parameter is always bound (to
its default when not given) and appears in the query's projection, which pyoxigraph needs.

Queries from users are checked before they run: no ``SERVICE``, ``LOAD`` or ``FROM`` (which
would read files or open network connections) unless explicitly allowed, a size limit, and a
limit on nesting depth.
"""

from __future__ import annotations

import csv
import io
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from rdflib import Graph, Literal
from rdflib.term import Node

from .errors import QueryError, UsageError
from .resources import package_dir

__all__ = [
    "NamedQuery",
    "named_queries",
    "get_named_query",
    "QueryResult",
    "check_query",
    "run_query",
    "MAX_QUERY_CHARS",
    "MAX_NESTING",
    "RESULT_FORMATS",
]

MAX_QUERY_CHARS = 100_000
MAX_NESTING = 200
RESULT_FORMATS = ("table", "csv", "tsv", "json")

_HEADER = re.compile(r"#\s*(title|description|param)\s*:\s*(.*)")
_PARAM = re.compile(r'(\w+)\s*=\s*"([^"]*)"\s*(?::\s*(.*))?')


@dataclass(frozen=True)
class NamedQuery:
    name: str
    title: str
    description: str
    text: str
    params: dict[str, tuple[str, str]] = field(default_factory=dict)  # name -> (default, help)

    def bindings(self, values: Mapping[str, str] | None = None) -> dict[str, str]:
        """Every parameter bound: given values, else defaults; unknown names are refused."""
        values = dict(values or {})
        unknown = sorted(set(values) - set(self.params))
        if unknown:
            known = ", ".join(sorted(self.params)) or "none"
            raise UsageError(f"query {self.name!r} has no parameter {unknown[0]!r} (parameters: {known})")
        return {name: values.get(name, default) for name, (default, _help) in self.params.items()}


def _parse_named(path: Path) -> NamedQuery:
    text = path.read_text(encoding="utf-8")
    meta: dict[str, str] = {}
    params: dict[str, tuple[str, str]] = {}
    for line in text.splitlines():
        m = _HEADER.match(line.strip())
        if not m:
            if line.strip() and not line.startswith("#"):
                break
            continue
        key, value = m.group(1), m.group(2).strip()
        if key == "param":
            pm = _PARAM.match(value)
            if pm:
                params[pm.group(1)] = (pm.group(2), (pm.group(3) or "").strip())
        else:
            meta[key] = value
    return NamedQuery(path.stem, meta.get("title", path.stem), meta.get("description", ""), text, params)


@lru_cache(maxsize=1)
def named_queries() -> dict[str, NamedQuery]:
    """Every named query shipped with the package, by name."""
    folder = package_dir() / "queries"
    return {q.name: q for q in (_parse_named(p) for p in sorted(folder.glob("*.rq")))}


def get_named_query(name: str) -> NamedQuery:
    queries = named_queries()
    if name not in queries:
        raise UsageError(f"no named query {name!r}; `scholarkg query --list` shows them all")
    return queries[name]


@dataclass
class QueryResult:
    """A query's answer: ``vars`` and ``rows`` for SELECT, ``graph`` for CONSTRUCT/DESCRIBE,
    ``boolean`` for ASK. Rows hold rdflib terms (or None for unbound)."""

    kind: str
    vars: list[str] = field(default_factory=list)
    rows: list[tuple[Node | None, ...]] = field(default_factory=list)
    graph: Graph | None = None
    boolean: bool | None = None
    hidden: tuple[str, ...] = ()  # parameter columns left out of displays

    def visible(self) -> tuple[list[str], list[tuple]]:
        keep = [i for i, v in enumerate(self.vars) if v not in self.hidden]
        return [self.vars[i] for i in keep], [tuple(r[i] for i in keep) for r in self.rows]

    def to_dicts(self) -> list[dict[str, str]]:
        names, rows = self.visible()
        return [{n: _plain(v) for n, v in zip(names, row) if v is not None} for row in rows]

    def format(self, fmt: str = "table") -> str:
        if self.kind == "ASK":
            return ("true" if self.boolean else "false") + "\n"
        if self.kind == "GRAPH":
            from .export import serialize

            return serialize(self.graph, "turtle").decode("utf-8")
        names, rows = self.visible()
        if fmt == "json":
            return json.dumps(_sparql_json(names, rows), indent=2, ensure_ascii=False) + "\n"
        if fmt in ("csv", "tsv"):
            buffer = io.StringIO()
            writer = csv.writer(buffer, delimiter="," if fmt == "csv" else "\t", lineterminator="\n")
            writer.writerow(names)
            for row in rows:
                writer.writerow(["" if v is None else _plain(v) for v in row])
            return buffer.getvalue()
        if fmt == "table":
            return _table(names, rows)
        raise UsageError(f"unknown result format {fmt!r} (known: {', '.join(RESULT_FORMATS)})")


def _plain(value: Node | None) -> str:
    return "" if value is None else str(value)


def _sparql_json(names: list[str], rows: list[tuple]) -> dict:
    from rdflib import BNode, URIRef

    def term(value):
        if isinstance(value, URIRef):
            return {"type": "uri", "value": str(value)}
        if isinstance(value, BNode):
            return {"type": "bnode", "value": str(value)}
        out = {"type": "literal", "value": str(value)}
        if isinstance(value, Literal):
            if value.language:
                out["xml:lang"] = value.language
            elif value.datatype is not None:
                out["datatype"] = str(value.datatype)
        return out

    bindings = [{n: term(v) for n, v in zip(names, row) if v is not None} for row in rows]
    return {"head": {"vars": names}, "results": {"bindings": bindings}}


def _table(names: list[str], rows: list[tuple], width: int = 60) -> str:
    def cell(value) -> str:
        text = " ".join(_plain(value).split())
        return text if len(text) <= width else text[: width - 1] + "…"

    cells = [[cell(v) for v in row] for row in rows]
    widths = [max([len(n)] + [len(r[i]) for r in cells]) for i, n in enumerate(names)]
    lines = ["  ".join(n.ljust(w) for n, w in zip(names, widths)).rstrip()]
    lines.append("  ".join("-" * w for w in widths))
    lines += ["  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip() for r in cells]
    lines.append(f"({len(rows)} row{'s' if len(rows) != 1 else ''})")
    return "\n".join(lines) + "\n"


_STRINGS = re.compile(r'"""(?:[^"\\]|\\.|"(?!""))*"""|\'\'\'(?:[^\'\\]|\\.|\'(?!\'\'))*\'\'\'|"(?:[^"\\\n]|\\.)*"|\'(?:[^\'\\\n]|\\.)*\'|<[^<>"{}|^`\\\s]*>|#[^\n]*')
_FORBIDDEN = re.compile(
    r"(?<![?$:\w.-])(SERVICE|LOAD|FROM|INSERT|DELETE|CLEAR|DROP|CREATE|ADD|MOVE|COPY|WITH)(?![:\w-])",
    re.IGNORECASE,
)


def check_query(text: str, *, allow_remote: bool = False, allow_update: bool = False) -> None:
    """Refuse queries that are too large, too deeply nested, or reach outside the graph."""
    if len(text) > MAX_QUERY_CHARS:
        raise QueryError(f"query is {len(text):,} characters long; the limit is {MAX_QUERY_CHARS:,}")
    code = _STRINGS.sub(" ", text)  # keywords inside strings, IRIs and comments do not count
    depth = deepest = 0
    for ch in code:
        if ch in "({[":
            depth += 1
            deepest = max(deepest, depth)
        elif ch in ")}]":
            depth -= 1
    if deepest > MAX_NESTING:
        raise QueryError(f"query nests {deepest} levels deep; the limit is {MAX_NESTING}")
    for m in _FORBIDDEN.finditer(code):
        word = m.group(1).upper()
        if word in ("SERVICE", "LOAD", "FROM") and allow_remote:
            continue
        if word in ("INSERT", "DELETE", "CLEAR", "DROP", "CREATE", "ADD", "MOVE", "COPY", "WITH") and allow_update:
            continue
        if word in ("SERVICE", "LOAD", "FROM"):
            raise QueryError(
                f"{word} is refused: it would read other files or open network connections "
                "(pass --allow-remote to permit it)"
            )
        raise QueryError(f"{word} is refused: the graph is read-only here")


def run_query(
    graph: Graph,
    text: str,
    bindings: Mapping[str, str] | None = None,
    *,
    allow_remote: bool = False,
    hidden: tuple[str, ...] = (),
) -> QueryResult:
    """Run SPARQL ``text`` on an rdflib graph with ``bindings`` as initial variable values."""
    import rdflib.plugins.sparql as rdflib_sparql

    check_query(text, allow_remote=allow_remote)
    if not allow_remote:
        rdflib_sparql.SPARQL_LOAD_GRAPHS = False
    init = {name: Literal(value) for name, value in (bindings or {}).items()}
    try:
        result = graph.query(text, initBindings=init)
    except Exception as exc:  # rdflib raises pyparsing and assorted errors for bad queries
        message = " ".join(str(exc).split())[:300]
        raise QueryError(f"SPARQL error: {message}") from exc
    if result.type == "SELECT":
        names = [str(v) for v in result.vars]
        return QueryResult("SELECT", names, [tuple(row) for row in result], hidden=hidden)
    if result.type == "ASK":
        return QueryResult("ASK", boolean=bool(result.askAnswer))
    out = Graph(bind_namespaces="none")
    for prefix, namespace in graph.namespaces():
        out.bind(prefix, namespace)
    for triple in result:
        out.add(triple)
    return QueryResult("GRAPH", graph=out)
