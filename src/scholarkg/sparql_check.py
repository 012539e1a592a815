"""The check every SPARQL query passes before any engine sees it (the CLI, the API, the endpoint).

Refused unless explicitly allowed, because the engines act on them (checked with rdflib 7.6 and
pyoxigraph 0.5.13):

- ``SERVICE``: both engines open a network connection to the named endpoint;
- ``FROM`` / ``FROM NAMED`` and ``LOAD``: rdflib reads the named file or URL (``file:`` too);
- updates (``INSERT``, ``DELETE``, ``CLEAR``, ``DROP``, ``CREATE``, ``ADD``, ``MOVE``, ``COPY``,
  ``WITH``, ``LOAD``): graphs are read-only here.

Refused always, because a query can crash the engine rather than fail (pyoxigraph recurses over
the query and dies with SIGSEGV, which no caller can catch): more than :data:`MAX_NESTING`
nested brackets (5,000 parentheses or 1,000 nested function calls crash it), more than
:data:`MAX_OPERATORS` operators, separators and pattern keywords (20,000 ``+``, ``||`` or
``UNION``, 5,000 ``OPTIONAL`` or ``BIND`` crash it), or a run of more than
:data:`MAX_OPERATOR_RUN` operators in a row (20,000 ``!``). Each limit has a margin of five or
more below the smallest crash found. Queries over :data:`MAX_QUERY_CHARS` characters, and text
that is not valid Unicode, are refused too.

The check reads tokens as the engines' lexers do, so words inside strings, IRIs, comments,
variables and prefixed names do not count, and it is not fooled by:

- case, including Unicode case mappings (rdflib reads ``ſERVICE`` as ``SERVICE``);
- ``\\u`` escapes, which rdflib expands anywhere in a query (``\\u0053ERVICE``); every
  expansion the engines make is checked as well as the raw text;
- a comment ended by a carriage return (pyoxigraph ends comments at ``\\r``);
- a keyword glued to a name: ``SERVICE:x`` is ``SERVICE :x`` to both engines.

It is a lexical check, so it errs on the side of refusing (a prefix named ``from:`` is refused);
run time is linear in the length of the query.

>>> check_query("SELECT ?from WHERE { ?s <http://x/load> 'SERVICE' }  # FROM")
>>> check_query("SELECT * WHERE { \\\\u0053ERVICE <http://example.org/> { ?s ?p ?o } }")
Traceback (most recent call last):
...
scholarkg.errors.QueryError: SERVICE is refused: it would read other files or open network connections (pass --allow-remote to permit it)
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator

from .errors import QueryError

__all__ = ["check_query", "MAX_QUERY_CHARS", "MAX_NESTING", "MAX_OPERATORS", "MAX_OPERATOR_RUN", "REMOTE", "UPDATE"]

MAX_QUERY_CHARS = 100_000
MAX_NESTING = 64
MAX_OPERATORS = 1_000
MAX_OPERATOR_RUN = 32

REMOTE = frozenset({"SERVICE", "LOAD", "FROM"})
UPDATE = frozenset({"INSERT", "DELETE", "CLEAR", "DROP", "CREATE", "ADD", "MOVE", "COPY", "WITH", "LOAD"})
_PATTERN_WORDS = frozenset({"UNION", "OPTIONAL", "MINUS", "FILTER", "BIND", "SELECT", "GRAPH", "EXISTS", "SERVICE", "VALUES"})

_TOKEN = re.compile(
    r"""
      (?P<space>\s+)
    | (?P<comment>\#[^\r\n]*)
    | (?P<long>\"\"\"(?:[^"\\]|\\.|"(?!""))*(?:\"\"\"|\Z)|'''(?:[^'\\]|\\.|'(?!''))*(?:'''|\Z))
    | (?P<short>"(?:[^"\\\r\n]|\\.)*(?:"|(?=[\r\n])|\Z)|'(?:[^'\\\r\n]|\\.)*(?:'|(?=[\r\n])|\Z))
    | (?P<iri><[^<>"{}|^`\\\x00-\x20]*>)
    | (?P<var>[?$]\w+)
    | (?P<bnode>_:(?:[\w\-]|\.(?=[\w\-]))*)
    | (?P<pname>(?:[^\W\d_](?:[\w\-]|\.(?=[\w\-]))*)?:(?:[\w\-:%]|\\.|\.(?=[\w\-:%]))*)
    | (?P<word>[^\W\d]\w*)
    | (?P<number>\d+(?:\.\d*)?(?:[eE][+-]?\d+)?|\.\d+(?:[eE][+-]?\d+)?)
    | (?P<op>\|\||&&|!=|<=|>=|\^\^|[-+*/!^|=<>?])
    | (?P<open>[({\[])
    | (?P<close>[)}\]])
    | (?P<punct>[.;,@])
    | (?P<other>.)
    """,
    re.VERBOSE | re.DOTALL,
)
# rdflib's own expansion (re.I: \U too; 8 hex digits when there are 8) and the standard one.
_RDFLIB_ESCAPE = re.compile(r"\\u([0-9a-f]{4}(?:[0-9a-f]{4})?)", re.IGNORECASE)
_STANDARD_ESCAPE = re.compile(r"\\u([0-9A-Fa-f]{4})|\\U([0-9A-Fa-f]{8})")
_SURROGATE = re.compile(r"[\ud800-\udfff]")


def check_query(text: str, *, allow_remote: bool = False, allow_update: bool = False) -> None:
    """Raise :class:`~scholarkg.errors.QueryError` if ``text`` must not reach an engine."""
    if not isinstance(text, str):
        raise QueryError("a query must be text")
    if len(text) > MAX_QUERY_CHARS:
        raise QueryError(f"query is {len(text):,} characters long; the limit is {MAX_QUERY_CHARS:,}")
    if _SURROGATE.search(text):
        raise QueryError("query is not valid Unicode text (it holds a lone surrogate)")
    for variant in _variants(text):
        _check_tokens(variant, allow_remote=allow_remote, allow_update=allow_update)


def _variants(text: str) -> list[str]:
    """``text`` and every text an engine may read it as after expanding ``\\u`` escapes."""
    seen = [text]
    for pattern in (_RDFLIB_ESCAPE, _STANDARD_ESCAPE):
        current = text
        for _ in range(4):  # an expansion can form a new escape; follow it a few times
            expanded = pattern.sub(_expand, current)
            if expanded == current:
                break
            if len(expanded) > MAX_QUERY_CHARS + 8:  # cannot grow, but be sure
                raise QueryError("query escapes expand beyond the size limit")
            current = expanded
            if current not in seen:
                seen.append(current)
    return seen


def _expand(m: re.Match[str]) -> str:
    code = int(next(g for g in m.groups() if g), 16)
    return chr(code) if code <= 0x10FFFF else "\ufffd"


def _tokens(text: str) -> Iterator[tuple[str, str, int]]:
    for m in _TOKEN.finditer(text):
        kind = m.lastgroup
        if kind not in ("space", "comment"):
            yield kind, m.group(), m.start()


def _keyword(word: str) -> set[str]:
    """The keyword(s) an engine may read ``word`` as."""
    return {word.upper(), word.casefold().upper(), unicodedata.normalize("NFKC", word).upper()}


def _check_tokens(text: str, *, allow_remote: bool, allow_update: bool) -> None:
    depth = deepest = operators = run = longest_run = 0
    for kind, value, start in _tokens(text):
        if kind == "short" and (len(value) < 2 or value[-1] != value[0] or value.endswith("\\" + value[0]) and _odd_backslashes(value)):
            raise QueryError(f"unterminated string at line {text.count(chr(10), 0, start) + 1}")
        if kind == "long" and (len(value) < 6 or not value.endswith(value[:3])):
            raise QueryError(f"unterminated string at line {text.count(chr(10), 0, start) + 1}")
        if kind == "open":
            depth += 1
            deepest = max(deepest, depth)
            if deepest > MAX_NESTING:
                raise QueryError(f"query nests brackets more than {MAX_NESTING} levels deep; the limit protects the query engine")
        elif kind == "close":
            depth -= 1
        if kind in ("op", "punct") or kind == "open" and value == "{":
            operators += 1
        run = run + 1 if kind == "op" else 0
        longest_run = max(longest_run, run)
        words: set[str] = set()
        if kind == "word":
            words = _keyword(value)
        elif kind == "pname" and not value.startswith(":"):
            words = _keyword(value.split(":", 1)[0])
        if words & _PATTERN_WORDS:
            operators += 1
        if forbidden := words & (REMOTE | UPDATE):
            _refuse(min(forbidden), allow_remote=allow_remote, allow_update=allow_update)
    if operators > MAX_OPERATORS:
        raise QueryError(f"query has {operators:,} operators and pattern keywords; the limit is {MAX_OPERATORS:,}")
    if longest_run > MAX_OPERATOR_RUN:
        raise QueryError(f"query has {longest_run:,} operators in a row; the limit is {MAX_OPERATOR_RUN}")


def _odd_backslashes(value: str) -> bool:
    """True if the closing quote of ``value`` is escaped (an odd run of backslashes before it)."""
    body = value[1:-1]
    return (len(body) - len(body.rstrip("\\"))) % 2 == 1


def _refuse(word: str, *, allow_remote: bool, allow_update: bool) -> None:
    if (word not in REMOTE or allow_remote) and (word not in UPDATE or allow_update):
        return
    if word in REMOTE and not allow_remote and (word not in UPDATE or allow_update):
        raise QueryError(
            f"{word} is refused: it would read other files or open network connections "
            "(pass --allow-remote to permit it)"
        )
    raise QueryError(f"{word} is refused: the graph is read-only here")
