"""Named queries: the ``.rq`` files shipped with the package, their parameters and variants,
and the text and bindings each engine is given for a parameter set (:func:`prepare_named`).

Named queries live in ``scholarkg/queries/*.rq``. Their header comments give a title, a
one-line description and parameters::

    # title: Papers by year
    # description: An author's papers, newest first.
    # param: author = "" : author name, case-insensitive; empty for all authors

Parameter values are passed to the engine as bindings (rdflib ``initBindings``, pyoxigraph
``substitutions``), never pasted into the query text. Every parameter is always bound (to
its default when not given) and appears in the query's projection, which pyoxigraph needs.

A file's first query answers for every parameter value. It may be followed by variants, each
after a line ``#-- variant: author=""`` (applies when ``author`` is empty) or ``#-- variant:
author`` (when it is given), that give the same answer for those values with a cheaper shape
(no ``OPTIONAL`` block filtering on an absent parameter, materialised facts instead of joins);
:meth:`NamedQuery.text_for` chooses the most specific one that applies, and a test checks that
every variant answers as the first query does.

A variant may also name the engines it is written for: ``engine=disk`` (Oxigraph on a store on
disk), ``engine=memory`` (Oxigraph on a store's in-memory copy), ``engine=oxigraph`` (both) or
``engine=rdflib``, as in ``#-- variant: entity="" engine=disk``. The engines join differently.
Oxigraph joins a group's patterns by looking each solution's next pattern up in an index; on a
store on disk every such look-up is a seek in RocksDB, so an answer of 47,000 mentions with ten
properties each costs half a million seeks. Written with one subquery per pattern, each pattern
is read once, in one scan of its index, and Oxigraph joins the parts by hashing (1.2 to 2.2
times faster on disk at a million statements). In memory a look-up is cheap, and the same text
is faster for some queries and slower for others (from half the time to 1.2 times it), so each
query names where its text pays. rdflib joins such subqueries by nested loops (40 times slower
than the plain group on ``related-entities``), so it keeps the plain text.

A parameter that names something case-insensitively can say which property's values it names
(``# exact: author = foaf:name``). On a store, :func:`exact_values` first looks up how the given
value is written in the graph (``maojia song`` is ``Maojia Song``); when it is written one way,
or not at all, a variant for ``author=exact`` matches that form exactly. The engines then start
from the property's index instead of reading every name, and the answer is the same: a value
that equals the given one but for case is that one form. On 1,016,600 statements this takes an
author's panels from 0.2 to 3 s on disk (0.1 to 0.9 s in memory) to a few milliseconds each.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from .errors import UsageError
from .resources import package_dir

__all__ = [
    "NamedQuery",
    "PreparedNamed",
    "named_queries",
    "get_named_query",
    "prepare_named",
    "split_order",
    "with_sort_columns",
    "order_in_python",
    "distinct_in_python",
    "with_page",
    "inline_values",
    "sparql_string",
    "exact_lookup",
    "exact_values",
    "ENGINES",
]

_HEADER = re.compile(r"#\s*(title|description|param|exact)\s*:\s*(.*)")
_EXACT = re.compile(r"(\w+)\s*=\s*(\S+)$")
_PARAM = re.compile(r'(\w+)\s*=\s*"([^"]*)"\s*(?::\s*(.*))?')
_VARIANT = re.compile(r"^#-- variant:(.*)$", re.M)
_CONDITION = re.compile(r'(\w+)(="")?(=exact\b)?')
_ENGINE = re.compile(r"\bengine=(\w+)")
ENGINES = ("disk", "memory", "rdflib")
_ENGINE_NAMES = {"oxigraph": ("disk", "memory"), "disk": ("disk",), "memory": ("memory",), "rdflib": ("rdflib",)}
_ORDER = re.compile(r"\bORDER\s+BY((?:\s+(?:\?\w+|(?:ASC|DESC)\s*\(\s*\?\w+\s*\)))+)\s*$", re.I)
_KEY = re.compile(r"(?:(ASC|DESC)\s*\(\s*)?\?(\w+)", re.I)


@dataclass(frozen=True)
class NamedQuery:
    name: str
    title: str
    description: str
    text: str
    params: dict[str, tuple[str, str]] = field(default_factory=dict)  # name -> (default, help)
    # (conditions, engines, text): conditions map a parameter to True (given), False (empty) or
    # "exact" (given as the one way it is written in the graph); engines are those the text is
    # written for (empty: any)
    variants: tuple[tuple[dict[str, bool | str], tuple[str, ...], str], ...] = ()
    exact: dict[str, str] = field(default_factory=dict)  # parameter -> the property whose values it names

    def text_for(self, bindings: Mapping[str, str], engine: str | None = None, exact: Collection[str] = ()) -> str:
        """The cheapest text that answers for these parameter values on ``engine`` (one of
        :data:`ENGINES`; ``None`` takes no engine's own variant), with the parameters in
        ``exact`` given as written in the graph (:func:`exact_values`); see the module docstring."""
        best, best_size = self.text, 0
        for conditions, engines, text in self.variants:
            if (not engines or engine in engines) and all(
                    name in exact if given == "exact" else bool(bindings.get(name, "")) == given
                    for name, given in conditions.items()):
                size = len(conditions) + bool(engines) + sum(given == "exact" for given in conditions.values())
                if size > best_size:
                    best, best_size = text, size
        return best

    def bindings(self, values: Mapping[str, str] | None = None) -> dict[str, str]:
        """Every parameter bound: given values, else defaults; unknown names are refused."""
        values = dict(values or {})
        unknown = sorted(set(values) - set(self.params))
        if unknown:
            known = ", ".join(sorted(self.params)) or "none"
            raise UsageError(f"query {self.name!r} has no parameter {unknown[0]!r} (parameters: {known})")
        return {name: values.get(name, default) for name, (default, _help) in self.params.items()}


def _parse_named(path: Path) -> NamedQuery:
    whole = path.read_text(encoding="utf-8")
    sections = _VARIANT.split(whole)
    text = sections[0]
    prefixes = _prefixes(text)
    variants = []
    for spec, body in zip(sections[1::2], sections[2::2]):
        engine = _ENGINE.search(spec)
        if engine is not None and engine.group(1) not in _ENGINE_NAMES:
            raise ValueError(f"{path}: a variant names an unknown engine {engine.group(1)!r} (known: {', '.join(_ENGINE_NAMES)})")
        conditions = {m.group(1): "exact" if m.group(3) else m.group(2) is None for m in _CONDITION.finditer(_ENGINE.sub("", spec))}
        engines = _ENGINE_NAMES[engine.group(1)] if engine is not None else ()
        variants.append((conditions, engines, prefixes + body.strip() + "\n"))
    meta: dict[str, str] = {}
    params: dict[str, tuple[str, str]] = {}
    exact: dict[str, str] = {}
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
        elif key == "exact":
            em = _EXACT.match(value)
            if em is None:
                raise ValueError(f"{path}: '# exact:' takes a parameter and a property, as in 'author = foaf:name'")
            exact[em.group(1)] = em.group(2)
        else:
            meta[key] = value
    unknown = ({name for conditions, _, _ in variants for name in conditions} | set(exact)) - set(params)
    if unknown:
        raise ValueError(f"{path}: a variant names unknown parameters {sorted(unknown)}")
    return NamedQuery(path.stem, meta.get("title", path.stem), meta.get("description", ""), text, params, tuple(variants), exact)


def _prefixes(text: str) -> str:
    """The ``PREFIX`` lines of a query text."""
    return "".join(line + "\n" for line in text.splitlines() if line.upper().startswith("PREFIX "))


def split_order(text: str) -> tuple[str, list[tuple[str, bool]]]:
    """A query without its final ``ORDER BY`` clause, and that clause's keys as (variable,
    descending) pairs; the text unchanged and no keys when it has no such clause."""
    body = text.rstrip()
    m = _ORDER.search(body)
    if m is None:
        return text, []
    keys = [(k.group(2), (k.group(1) or "").upper() == "DESC") for k in _KEY.finditer(m.group(1))]
    return body[: m.start()] + "\n", keys


_WHERE = re.compile(r"^(?!\s*#).*?\bWHERE\s*\{", re.M)


def sparql_string(value: str) -> str:
    """``value`` as a SPARQL string literal: its N-Triples form, which SPARQL reads the same
    (quotes, backslashes, line breaks and other control characters escaped)."""
    from .graph.terms import Literal

    return str(Literal(str(value)))


def _group_end(text: str, start: int) -> int:
    """The index of the ``}`` closing the group whose ``{`` is at ``start`` (strings, IRIs and
    comments skipped)."""
    depth, i = 0, start
    while i < len(text):
        c = text[i]
        if c in "\"'":
            i += 1
            while i < len(text) and text[i] != c:
                i += 2 if text[i] == "\\" else 1
        elif c == "<" and re.match(r"<[^\s<>\"{}|^`\\]*>", text[i:]):
            i = text.index(">", i)
        elif c == "#":
            i = text.find("\n", i) % (len(text) + 1)
        elif c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
            if depth == 0:
                return i
        i += 1
    raise ValueError("the query's WHERE group is not closed")


def inline_values(text: str, bindings: Mapping[str, str]) -> str:
    """``text`` with its parameters written in: a query any client can send as it is (the
    served workbench shows and runs this text), answering as the query does with ``bindings``
    passed to the engine. Inside the outer ``WHERE`` group each parameter variable becomes its
    value (so nested groups see it, as they see a bound parameter), and a ``VALUES`` row at the
    group's start binds the variables for the projection."""
    if not bindings:
        return text
    m = _WHERE.search(text)
    if m is None:
        raise ValueError("the query has no WHERE group to bind parameters in")
    end = _group_end(text, m.end() - 1)
    body = text[m.end():end]
    for name, value in bindings.items():
        body = re.sub(rf"\?{re.escape(name)}\b", lambda _m, v=str(value): sparql_string(v), body)
    names = " ".join(f"?{name}" for name in bindings)
    values = " ".join(sparql_string(str(value)) for value in bindings.values())
    row = f"\n  VALUES ({names}) {{ ({values}) }}"
    return text[: m.end()] + row + body + text[end:]


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


@dataclass(frozen=True)
class PreparedNamed:
    """What :func:`scholarkg.sparql.run_named` sends to an engine for a named query and
    parameter values."""

    query: NamedQuery
    engine: str  # one of ENGINES
    given: dict[str, str]  # every parameter, as given or by default
    bindings: dict[str, str]  # as passed to the engine (exact values as written in the graph)
    exact: set[str]  # the parameters matched exactly (see exact_values)
    text: str  # the variant for these values and this engine, without its ORDER BY
    keys: list[tuple[str, bool]]  # that ORDER BY, applied in Python (scholarkg.sparql.order_rows)
    sort_only: list[str]  # variables added to the projection only to sort on
    distinct: bool = False  # the text's DISTINCT left to the reader of the rows (distinct_in_python)


def prepare_named(source, name: str, values: Mapping[str, str] | None = None, *, timeout: float | None = None) -> PreparedNamed:
    """The text and bindings :func:`scholarkg.sparql.run_named` gives ``source``'s engine for
    ``name`` (on a store, looking up how each ``# exact:`` parameter is written in the graph
    first)."""
    q = get_named_query(name)
    given = bindings = q.bindings(values)
    on_store = hasattr(source, "ox")
    engine = ("memory" if getattr(source, "in_memory", False) else "disk") if on_store else "rdflib"
    exact: set[str] = set()
    if on_store:
        from .store.read import DEFAULT_TIMEOUT as STORE_TIMEOUT
        from .store.read import run_store_query

        def written(lookup: str, value: str) -> list[tuple[str, bool]]:
            rows = run_store_query(source, lookup, {"given": value}, timeout=timeout or STORE_TIMEOUT).rows
            return [(str(v), plain.toPython()) for _, v, plain in rows]

        bindings, exact = exact_values(q, bindings, written)
    text, keys, sort_only = order_in_python(q.text_for(bindings, engine, exact))
    distinct = False
    if on_store:
        text, distinct = distinct_in_python(text)
    return PreparedNamed(q, engine, given, bindings, exact, text, keys, sort_only, distinct)


def order_in_python(text: str) -> tuple[str, list[tuple[str, bool]], list[str]]:
    """A query to run without its ``ORDER BY``, that clause's keys, and the variables added to
    its projection only to sort on (:func:`split_order`, :func:`with_sort_columns`); the rows
    are then put in order by :func:`scholarkg.sparql.put_in_order`."""
    text, keys = split_order(text)
    text, sort_only = with_sort_columns(text, keys)
    return text, keys, sort_only


def distinct_in_python(text: str) -> tuple[str, bool]:
    """A query whose ``SELECT DISTINCT`` is left to whoever reads its rows: the text without
    that ``DISTINCT``, and whether it had one (the reader then keeps each row once, as
    :func:`scholarkg.store.terms.solution_rows` does with ``distinct``).

    Oxigraph makes an answer distinct by hashing the terms of each row; dropping repeated lines
    of its TSV text costs less. At 2,800 records, in paired runs, the whole answer came 1.32
    times as fast so for ``entity-links`` in memory (1.19 on disk), 1.06 for ``entity-papers``
    and 1.01-1.05 for ``evidence``. A query with its own ``LIMIT`` or ``OFFSET`` keeps its
    ``DISTINCT``, which comes before them; so do ``REDUCED`` and a subquery's ``DISTINCT``."""
    m = _SELECT.search(text)
    if m is None or (m.group("modifier") or "").strip().upper() != "DISTINCT" or _PAGED.search(text[text.rfind("}"):]):
        return text, False
    return text[: m.start("modifier")] + text[m.end("modifier"):], True


def with_page(text: str, count: int | None, offset: int = 0) -> str:
    """``text`` with ``LIMIT count`` and ``OFFSET offset`` added (nothing added for the whole
    answer from its first row)."""
    parts = ([f"LIMIT {count}"] if count is not None else []) + ([f"OFFSET {offset}"] if offset else [])
    return text.rstrip() + "\n" + " ".join(parts) + "\n" if parts else text


def exact_lookup(q: NamedQuery, name: str) -> str:
    """The query for the ways the value bound to ``?given`` of parameter ``name`` is written in
    the graph (the values of its property equal to it but for case), at most two of them, each
    with ``?plain``: whether it is a plain string (no language tag, no other datatype)."""
    return (f"{_prefixes(q.text)}SELECT DISTINCT ?given ?value ?plain WHERE {{ ?node {q.exact[name]} ?value . "
            "FILTER(LCASE(STR(?value)) = LCASE(STR(?given))) "
            "BIND(isLITERAL(?value) && DATATYPE(?value) = <http://www.w3.org/2001/XMLSchema#string> AS ?plain) } LIMIT 2\n")


def exact_values(q: NamedQuery, bindings: Mapping[str, str], written) -> tuple[dict[str, str], set[str]]:
    """``bindings`` with each parameter that names a value case-insensitively (``# exact:``)
    replaced by the one way that value is written in the graph, and the names so replaced.

    ``written(query, value)`` runs :func:`exact_lookup`'s query with ``?given`` bound to
    ``value`` and gives its ``?value`` and ``?plain`` columns as (text, bool). A parameter written one way, or not at all, can be matched exactly, which
    the engines answer from an index; one written several ways keeps the case-insensitive text.
    """
    out, exact = dict(bindings), set()
    for name in q.exact:
        if out.get(name):
            found = written(exact_lookup(q, name), out[name])
            if len(found) <= 1 and all(plain for _, plain in found):
                exact.add(name)
                if found:
                    out[name] = found[0][0]
    return out, exact


_SELECT = re.compile(r"^\s*SELECT\s+(?P<modifier>DISTINCT\s+|REDUCED\s+)?(?P<clause>.*?)\bWHERE\b", re.S | re.I | re.M)
_PAGED = re.compile(r"\b(LIMIT|OFFSET)\b", re.I)
_GROUPED = re.compile(r"^GROUP\s+BY\b", re.M | re.I)
_PARENTHESES = re.compile(r"\([^()]*\)")
_AS = re.compile(r"\bAS\s+\?(\w+)", re.I)


def with_sort_columns(text: str, keys: list[tuple[str, bool]]) -> tuple[str, list[str]]:
    """The query with the ``ORDER BY`` variables it does not select added to its projection
    (``ORDER BY DESC(?number)`` sorts by a value the table shows as written), and those names,
    to be dropped after the rows are ordered. A query whose extra column would change its
    answer (``DISTINCT``, ``GROUP BY``) is left as it is."""
    m = _SELECT.search(text)
    if m is None or not keys or m.group("modifier") or _GROUPED.search(text):
        return text, []
    clause = m.group("clause")
    if clause.strip() == "*":
        return text, []
    projected = set(_AS.findall(clause))
    bare = clause
    while _PARENTHESES.search(bare):
        bare = _PARENTHESES.sub(" ", bare)
    projected.update(re.findall(r"\?(\w+)", bare))
    extra = [name for name, _desc in keys if name not in projected]
    if not extra:
        return text, []
    end = m.end("clause")
    return text[:end] + " ".join("?" + name for name in extra) + " " + text[end:], extra
