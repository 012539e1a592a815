"""Hazard: SPARQL is safe.

Each trap is first shown to be real with the engine alone (rdflib opens the socket or reads the
file; pyoxigraph dies with SIGSEGV), so these tests would fail if the guard stopped working;
then the same query through scholarkg is refused with a clear message and nothing happens.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import threading
import time

import pytest
import rdflib

from scholarkg import api
from scholarkg.errors import InputError, QueryError
from scholarkg.sparql import run_query
from scholarkg.sparql_check import MAX_NESTING, MAX_OPERATOR_RUN, MAX_OPERATORS, check_query


class Listener:
    """A TCP server on 127.0.0.1 that counts connections and answers nothing useful."""

    def __init__(self):
        self.sock = socket.create_server(("127.0.0.1", 0))
        self.port = self.sock.getsockname()[1]
        self.connections = 0
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self):
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            self.connections += 1
            conn.close()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/sparql"


@pytest.fixture
def listener():
    server = Listener()
    yield server
    server.sock.close()


@pytest.fixture(scope="module")
def graph(seed_graph):
    return seed_graph


REMOTE_FORMS = {  # each reaches {url} through SERVICE, FROM or FROM NAMED
    "service": "SELECT * WHERE { SERVICE <{url}> { ?s ?p ?o } }",
    "lowercase": "select * where { service <{url}> { ?s ?p ?o } }",
    "unicode escape": "SELECT * WHERE { \\u0053ERVICE <{url}> { ?s ?p ?o } }",
    "long s": "SELECT * WHERE { \u017fERVICE <{url}> { ?s ?p ?o } }",
    "glued prefix": "PREFIX : <{url}#> SELECT * WHERE { SERVICE:x { ?s ?p ?o } }",
    "comment ended by CR": "SELECT * WHERE { # note\rSERVICE <{url}> { ?s ?p ?o } }",
    "silent": "SELECT * WHERE { OPTIONAL { SERVICE SILENT <{url}> { ?s ?p ?o } } }",
    "from": "SELECT * FROM <{url}> WHERE { ?s ?p ?o }",
    "from named": "SELECT * FROM NAMED <{url}> WHERE { GRAPH ?g { ?s ?p ?o } }",
    "from after comment": "SELECT * #\n FROM <{url}> WHERE { ?s ?p ?o }",
}


def _raw_rdflib(text: str) -> None:
    try:
        rdflib.Dataset().query(text).bindings
    except Exception:
        pass


def _raw_oxigraph(text: str) -> None:
    import pyoxigraph as ox

    try:
        list(ox.Store().query(text))
    except Exception:
        pass


@pytest.fixture
def rdflib_defaults(monkeypatch):
    """rdflib as it comes: FROM and LOAD read what they name (scholarkg turns this off)."""
    import rdflib.plugins.sparql

    monkeypatch.setattr(rdflib.plugins.sparql, "SPARQL_LOAD_GRAPHS", True)


def test_the_engines_alone_do_open_connections(listener, rdflib_defaults):
    """The control: without scholarkg each form reaches the network in at least one engine."""
    for name, form in REMOTE_FORMS.items():
        before = listener.connections
        text = form.replace("{url}", listener.url)
        _raw_rdflib(text)
        _raw_oxigraph(text)
        time.sleep(0.05)
        assert listener.connections > before, name


@pytest.mark.parametrize("name", REMOTE_FORMS)
def test_remote_forms_are_refused_and_nothing_connects(listener, graph, name):
    text = REMOTE_FORMS[name].replace("{url}", listener.url)
    with pytest.raises(QueryError, match=r"(SERVICE|FROM) is refused: .*--allow-remote"):
        check_query(text)
    with pytest.raises(QueryError, match="is refused"):
        run_query(graph, text)
    time.sleep(0.05)
    assert listener.connections == 0


def test_remote_forms_pass_only_when_allowed():
    check_query("SELECT * WHERE { SERVICE <http://example.org/sparql> { ?s ?p ?o } }", allow_remote=True)
    check_query("SELECT * FROM <http://example.org/g> WHERE { ?s ?p ?o }", allow_remote=True)
    for text in ("LOAD <http://example.org/g>", "INSERT DATA { <urn:a> <urn:b> <urn:c> }"):
        with pytest.raises(QueryError, match="read-only"):
            check_query(text, allow_remote=True)


def test_local_files_are_not_read(tmp_path, graph, cli, seed_out, rdflib_defaults):
    secret = tmp_path / "secret.ttl"
    secret.write_text('<urn:x:s> <urn:x:p> "the secret" .\n')
    text = f"SELECT ?o FROM <{secret.as_uri()}> WHERE {{ ?s ?p ?o }}"
    rows = list(rdflib.Dataset().query(text))  # the control: rdflib alone reads the file
    assert [str(r[0]) for r in rows] == ["the secret"]
    with pytest.raises(QueryError, match="FROM is refused"):
        run_query(graph, text)
    result = cli("query", seed_out, text)
    assert result.exit_code == 4 and "the secret" not in result.stdout
    for update in (f"LOAD <{secret.as_uri()}>", "INSERT DATA { <urn:a> <urn:b> <urn:c> }", "DROP ALL",
                   "CLEAR DEFAULT", "DELETE WHERE { ?s ?p ?o }", "with <urn:g> delete { ?s ?p ?o } where { ?s ?p ?o }"):
        with pytest.raises(QueryError, match="refused"):
            run_query(graph, update)


def test_jsonld_contexts_are_never_fetched(tmp_path, listener):
    local_context = tmp_path / "ctx.jsonld"
    local_context.write_text(json.dumps({"@context": {"name": "http://xmlns.com/foaf/0.1/name"}}))
    documents = {
        "remote.jsonld": {"@context": f"http://127.0.0.1:{listener.port}/ctx.jsonld", "@id": "urn:a", "name": "x"},
        "file.jsonld": {"@context": local_context.as_uri(), "@id": "urn:a", "name": "x"},
        "nested.jsonld": {"@graph": [{"@context": [{"@vocab": "urn:v#"}, local_context.as_uri()], "@id": "urn:a", "name": "x"}]},
        "import.jsonld": {"@context": {"@import": local_context.as_uri()}, "@id": "urn:a", "name": "x"},
    }
    for name, doc in documents.items():
        path = tmp_path / name
        path.write_text(json.dumps(doc))
        with pytest.raises(InputError, match="remote JSON-LD @context"):
            api.load(path)
    # The control: rdflib alone fetches the file context and the remote one.
    fetched = rdflib.Graph().parse(tmp_path / "file.jsonld", format="json-ld")
    assert (rdflib.URIRef("urn:a"), rdflib.URIRef("http://xmlns.com/foaf/0.1/name"), rdflib.Literal("x")) in fetched
    with pytest.raises(Exception):
        rdflib.Graph().parse(tmp_path / "remote.jsonld", format="json-ld")
    assert listener.connections >= 1
    connections = listener.connections
    with pytest.raises(InputError):
        api.load(tmp_path / "remote.jsonld")
    assert listener.connections == connections


def test_rdfxml_entities_cannot_expand_or_read_files(tmp_path):
    head = '<?xml version="1.0"?>\n<!DOCTYPE rdf:RDF [{decl}]>\n'
    body = ('<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns:ex="http://example.org/">'
            '<rdf:Description rdf:about="http://example.org/a"><ex:p>{use}</ex:p></rdf:Description></rdf:RDF>\n')
    laughs = '<!ENTITY l0 "lol">' + "".join(f'<!ENTITY l{i} "{"&l%d;" % (i - 1) * 10}">' for i in range(1, 10))
    cases = {
        "nested": (laughs, "&l9;", "refers to other entities"),
        "external": ('<!ENTITY x SYSTEM "file:///etc/passwd">', "&x;", "refers to another file"),
        "wide": ('<!ENTITY w "' + "w" * 5000 + '">', "&w;" * 2000, "would expand the file"),
    }
    for name, (decl, use, message) in cases.items():
        path = tmp_path / f"{name}.rdf"
        path.write_text(head.format(decl=decl) + body.format(use=use))
        start = time.monotonic()
        with pytest.raises(InputError, match=message):
            api.load(path)
        assert time.monotonic() - start < 2, name
    plain = tmp_path / "plain.owl"
    plain.write_text(head.format(decl='<!ENTITY ex "http://example.org/">') + body.format(use="&ex;"))
    assert [str(o) for o in api.load(plain).objects()] == ["http://example.org/"]


# --- crashes: pyoxigraph dies with SIGSEGV on some queries --------------------------------------

CRASHERS = {  # each killed pyoxigraph 0.5.13 with SIGSEGV when handed to it directly
    "5,000 nested parentheses": "SELECT * WHERE { FILTER(" + "(" * 5000 + "1" + ")" * 5000 + ") }",
    "5,000 nested braces": "SELECT * WHERE " + "{" * 5000 + "}" * 5000,
    "1,000 nested calls": "SELECT * WHERE { BIND(" + "STR(" * 1000 + "1" + ")" * 1000 + " AS ?x) }",
    "20,000 negations": "SELECT * WHERE { FILTER(" + "!" * 20000 + "true) }",
    "20,000 additions": "SELECT * WHERE { BIND(" + "+".join(["1"] * 20000) + " AS ?x) }",
    "20,000 unions": "SELECT * WHERE { " + " UNION ".join(["{}"] * 20000) + " }",
    "5,000 nested blank nodes": "SELECT * WHERE { ?s <p:a> " + "[<p:a> " * 5000 + "1" + "]" * 5000 + " }",
}
AT_THE_LIMITS = {  # the largest query of each shape that the check lets through
    "parentheses": "SELECT * WHERE { FILTER(" + "(" * (MAX_NESTING - 2) + "1" + ")" * (MAX_NESTING - 2) + ") }",
    "braces": "SELECT * WHERE " + "{" * MAX_NESTING + "}" * MAX_NESTING,
    "calls": "SELECT * WHERE { BIND(" + "STR(" * (MAX_NESTING - 2) + "1" + ")" * (MAX_NESTING - 2) + " AS ?x) }",
    "blank nodes": "SELECT * WHERE { ?s <p:a> " + "[<p:a> " * (MAX_NESTING - 1) + "1" + "]" * (MAX_NESTING - 1) + " }",
    "negations": "SELECT * WHERE { FILTER(" + "!" * MAX_OPERATOR_RUN + "true) }",
    "additions": "SELECT * WHERE { BIND(" + "+".join(["1"] * (MAX_OPERATORS - 10)) + " AS ?x) }",
    "unions": "SELECT * WHERE { " + " UNION ".join(["{}"] * ((MAX_OPERATORS - 10) // 2)) + " }",
    "optionals": "SELECT * WHERE { " + " ".join(["OPTIONAL {?s ?p ?o}"] * ((MAX_OPERATORS - 10) // 2)) + " }",
    "binds": "SELECT * WHERE { " + " ".join(f"BIND(1 AS ?x{i})" for i in range(MAX_OPERATORS - 10)) + " }",
}
_RUN_RAW = """
import sys, pyoxigraph as ox
result = ox.Store().query(sys.stdin.read())
print(len(list(result)))
"""
_RUN_GUARDED = """
import json, sys, pyoxigraph as ox
from scholarkg.sparql_check import check_query
from scholarkg.errors import QueryError
outcomes = []
for text in json.loads(sys.stdin.read()):
    try:
        check_query(text)
    except QueryError as exc:
        outcomes.append("refused: " + str(exc))
        continue
    outcomes.append("ran: %d" % len(list(ox.Store().query(text))))
print(json.dumps(outcomes))
"""


def _python(script: str, stdin: str, timeout: float = 60) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    return subprocess.run([sys.executable, "-c", script], input=stdin, capture_output=True, text=True, timeout=timeout, env=env)


def test_the_crashing_queries_do_crash_pyoxigraph_alone():
    for name, text in CRASHERS.items():
        assert _python(_RUN_RAW, text).returncode == -11, name  # SIGSEGV


def test_pyoxigraph_is_never_handed_a_crashing_query():
    done = _python(_RUN_GUARDED, json.dumps(list(CRASHERS.values())))
    assert done.returncode == 0, done.stderr[-500:]
    outcomes = json.loads(done.stdout)
    assert all(o.startswith("refused: query ") for o in outcomes), outcomes


def test_queries_at_the_limits_are_accepted_and_do_not_crash_pyoxigraph():
    done = _python(_RUN_GUARDED, json.dumps(list(AT_THE_LIMITS.values())))
    assert done.returncode == 0, done.stderr[-500:]
    outcomes = json.loads(done.stdout)
    assert len(outcomes) == len(AT_THE_LIMITS) and all(o.startswith("ran: ") for o in outcomes), outcomes


# --- limits: size, time and rows ----------------------------------------------------------------

def test_size_limit_has_a_clear_message(graph):
    with pytest.raises(QueryError, match=r"query is 100,0\d\d characters long; the limit is 100,000"):
        run_query(graph, "SELECT * WHERE { ?s ?p ?o }" + " " * 100_000)


def _children() -> set[int]:
    """This process's child processes (running, or exited and not yet reaped)."""
    found: set[int] = set()
    for task in os.listdir("/proc/self/task"):
        with open(f"/proc/self/task/{task}/children") as handle:
            found.update(int(pid) for pid in handle.read().split())
    return found


def test_a_runaway_regex_is_stopped_at_the_timeout(graph):
    # Catastrophic backtracking inside Python's C regex engine: no thread could interrupt it.
    text = 'SELECT * WHERE { BIND(REGEX("' + "a" * 40 + '!", "^(a+)+$") AS ?x) }'
    before = _children()  # servers other tests started may still be running
    start = time.monotonic()
    with pytest.raises(QueryError, match=r"ran longer than 1 s and was stopped \(raise the limit with --timeout\)"):
        run_query(graph, text, timeout=1)
    assert time.monotonic() - start < 3
    assert _children() <= before
    assert run_query(graph, "ASK { ?s ?p ?o }").boolean is True  # the caller carries on


def test_the_result_cap_keeps_the_first_rows_and_says_so(graph, caplog):
    result = run_query(graph, "SELECT ?s ?p ?o WHERE { ?s ?p ?o }", max_rows=7)
    assert len(result.rows) == 7 and result.truncated
    assert "the result was cut at 7 rows (see --max-rows)" in caplog.text
    constructed = run_query(graph, "CONSTRUCT WHERE { ?s ?p ?o }", max_rows=5)
    assert len(constructed.graph) == 5 and constructed.truncated
    full = run_query(graph, "SELECT ?s WHERE { ?s a <https://w3id.org/scholarkg/ontology#Paper> }", max_rows=100)
    assert len(full.rows) == 18 and not full.truncated


def test_cli_timeout_and_row_cap(cli, seed_out):
    capped = cli("query", seed_out, "SELECT ?s WHERE { ?s ?p ?o }", "--max-rows", "3", "--format", "csv")
    assert capped.exit_code == 0 and capped.stdout.splitlines() == ["s"] + capped.stdout.splitlines()[1:4] and len(capped.stdout.splitlines()) == 4
    assert "warning: the result was cut at 3 rows (see --max-rows)" in capped.stderr
    slow = cli("query", seed_out, "SELECT (COUNT(*) AS ?n) WHERE { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i }", "--timeout", "0.5")
    assert slow.exit_code == 4 and "error: the query ran longer than 0.5 s and was stopped" in slow.stderr


def test_values_reach_queries_only_as_bindings(graph):
    everyone = api.query(graph, named="papers-by-year").to_dicts()
    assert len(everyone) == 18
    for hostile in ('" || true || "', '") } SELECT * WHERE { ?s ?p ?o } #', "x' . ?s ?p ?o . FILTER('a", "\\u0022) || (\\u0022"):
        assert api.query(graph, named="papers-by-year", author=hostile).to_dicts() == [], hostile
    assert len(api.query(graph, named="papers-by-year", author="maojia song").to_dicts()) == 18


def _disguises(text: str) -> list[str]:
    """The same query written in ways a naive keyword check would miss."""
    out = [text, text.lower(), text.replace(" ", "\t"), text.replace(" ", " #c\r"), text.replace("{", "{#}\n")]
    for word in ("SERVICE", "FROM", "LOAD", "INSERT", "DROP"):
        if word in text:
            out.append(text.replace(word, "\\u%04X%s" % (ord(word[0]), word[1:])))
            out.append(text.replace(word, word[0].lower() + word[1:]))
    return out


def test_a_thousand_hostile_queries_in_a_row(graph):
    """Refused, failed or stopped: each one ends with a QueryError, and the process carries on."""
    refused = [d for form in REMOTE_FORMS.values() for d in _disguises(form.replace("{url}", "http://127.0.0.1:9/x"))]
    refused += [d for text in ("LOAD <file:///etc/passwd>", "DROP ALL", "INSERT DATA { <urn:a> <urn:b> <urn:c> }")
                for d in _disguises(text)]
    refused += list(CRASHERS.values()) + ['"unterminated', "SELECT * WHERE { ?s ?p ?o } \ud800", "ASK { " * 70,
                                          "SELECT * WHERE { ?s ?p ?o }" + " " * 100_001]
    run = ["SELECT * WHERE { ?s ?p }", "SELECT * WHERE { ?s ?p ?o FILTER(REGEX(?o, \"(\")) }",
           "SELECT * WHERE { BIND(REGEX('" + "a" * 30 + "!', '^(a+)+$') AS ?x) }",
           "SELECT (COUNT(*) AS ?n) WHERE { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i }"]
    queries = [run[(n // 25) % len(run)] if n % 25 == 0 else refused[n % len(refused)] for n in range(1000)]
    fds, children = len(os.listdir("/proc/self/fd")), _children()
    outcomes = {"refused": 0, "stopped": 0, "failed": 0, "answered": 0}
    start = time.monotonic()
    for text in queries:
        try:
            run_query(graph, text, timeout=0.1, max_rows=10)
            outcomes["answered"] += 1
        except QueryError as exc:
            message = str(exc)
            kind = "stopped" if "ran longer" in message else "failed" if message.startswith("SPARQL error") else "refused"
            outcomes[kind] += 1
    # The 960 refusals are decided by the check alone; of the 40 that run, the runaway ones are
    # always stopped, and the syntax errors fail (or, on a loaded machine, may also be stopped).
    assert outcomes["refused"] == 960 and outcomes["answered"] == 0, outcomes
    assert outcomes["stopped"] >= 20 and outcomes["stopped"] + outcomes["failed"] == 40, outcomes
    assert time.monotonic() - start < 30
    assert len(os.listdir("/proc/self/fd")) == fds and _children() <= children
    assert len(run_query(graph, "SELECT ?s WHERE { ?s a <https://w3id.org/scholarkg/ontology#Paper> }").rows) == 18
