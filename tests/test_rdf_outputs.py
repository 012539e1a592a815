"""The serialised graph: strict and independent parsers read it, every export reads back as the
same graph, the bytes do not depend on the run or the hash seed, and there are no blank nodes."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from decimal import Decimal
from pathlib import Path

import pyoxigraph as ox
import pytest
from rdflib import BNode, Graph, Literal, URIRef
from rdflib.compare import isomorphic
from rdflib.namespace import XSD

from scholarkg.serialize import serialize

TESTS = Path(__file__).resolve().parent
FORMATS = {"turtle": ox.RdfFormat.TURTLE, "ntriples": ox.RdfFormat.N_TRIPLES, "jsonld": ox.RdfFormat.JSON_LD}
RDFLIB_FORMATS = {"turtle": "turtle", "ntriples": "nt", "jsonld": "json-ld"}


@pytest.fixture(scope="module")
def rich() -> Graph:
    from rich_graph import rich_graph

    return rich_graph()


@pytest.fixture(scope="module")
def graphs(seed_graph, rich) -> dict[str, Graph]:
    return {"seed": seed_graph, "rich": rich}


def _term(term):
    """A pyoxigraph term as the rdflib term with the same lexical form."""
    if isinstance(term, ox.NamedNode):
        return URIRef(term.value)
    if isinstance(term, ox.BlankNode):
        return BNode(term.value)
    if term.language:
        return Literal(term.value, lang=term.language)
    if term.datatype.value == str(XSD.string):
        return Literal(term.value)
    return Literal(term.value, datatype=URIRef(term.datatype.value))


def strict_parse(data: bytes, fmt: str) -> Graph:
    graph = Graph()
    for quad in ox.parse(data, format=FORMATS[fmt]):
        graph.add((_term(quad.subject), _term(quad.predicate), _term(quad.object)))
    return graph


def test_seed_turtle_file_parses_strictly_with_the_same_triple_count(seed_out, seed_graph):
    data = (seed_out / "graph.ttl").read_bytes()
    quads = list(ox.parse(data, format=ox.RdfFormat.TURTLE))
    assert len(quads) == len(set(quads)) == len(Graph().parse(data=data, format="turtle")) == len(seed_graph)


@pytest.mark.parametrize("name", ["seed", "rich"])
@pytest.mark.parametrize("fmt", ["turtle", "ntriples", "jsonld"])
def test_exports_read_back_as_the_same_graph(graphs, name, fmt):
    graph = graphs[name]
    data = serialize(graph, fmt)
    # rdflib and pyoxigraph (strict, and keeping every literal's lexical form) both read it back.
    assert isomorphic(Graph().parse(data=data, format=RDFLIB_FORMATS[fmt]), graph)
    assert isomorphic(strict_parse(data, fmt), graph)


def test_decimals_are_canonical_and_keep_that_form_through_turtle():
    # Canonical xsd:decimal (XSD 1.1): what Oxigraph keeps, so a store and a file agree.
    from scholarkg.graph.builder import _decimal

    for value, lexical in ((82.0, "82"), (Decimal("1E+3"), "1000"), (Decimal("48.60"), "48.6"),
                           (0.1, "0.1"), (1e-7, "0.0000001"), (Decimal("-0"), "0"), (12, "12")):
        literal = _decimal(value)
        assert (str(literal), literal.datatype) == (lexical, XSD.decimal)
        graph = Graph()
        graph.add((URIRef("https://example.org/r"), URIRef("https://example.org/v"), literal))
        assert isomorphic(strict_parse(serialize(graph, "turtle"), "turtle"), graph), value


def test_no_blank_nodes_anywhere(graphs, seed_out):
    for name, graph in graphs.items():
        assert not [t for t in graph if any(isinstance(x, BNode) for x in t)], name
    for file in ("graph.ttl", "graph.nt", "graph.jsonld"):
        fmt = {"ttl": "turtle", "nt": "ntriples", "jsonld": "jsonld"}[file.rsplit(".", 1)[1]]
        quads = ox.parse((seed_out / file).read_bytes(), format=FORMATS[fmt])
        assert not [q for q in quads if isinstance(q.subject, ox.BlankNode) or isinstance(q.object, ox.BlankNode)]
    text = (seed_out / "graph.ttl").read_text(encoding="utf-8")
    assert "_:" not in text and not re.search(r"^\s*\[", text, re.M)


def test_turtle_is_byte_identical_across_builds():
    from scholarkg.pipeline import build

    first, second = (serialize(build([TESTS.parent / "examples" / "maojia-song.txt"]).graph, "turtle")
                     for _ in range(2))
    assert first == second


_PRINT_OUTPUTS = """
import hashlib, sys
sys.path.insert(0, {tests!r})
from rich_graph import rich_graph
from scholarkg.serialize import serialize
from scholarkg.pipeline import build
seed = build([{seed!r}]).graph
for graph in (seed, rich_graph()):
    for fmt in ("turtle", "ntriples", "jsonld"):
        print(fmt, hashlib.sha256(serialize(graph, fmt)).hexdigest())
"""


def test_outputs_are_byte_identical_across_processes_and_hash_seeds(repo_root):
    script = _PRINT_OUTPUTS.format(tests=str(TESTS), seed=str(repo_root / "examples" / "maojia-song.txt"))
    outputs = []
    for seed in ("0", "1234567"):
        env = {**os.environ, "PYTHONHASHSEED": seed, "PYTHONPATH": os.pathsep.join(sys.path)}
        done = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True,
                              timeout=120, cwd=repo_root)
        assert done.returncode == 0, done.stderr[-2000:]
        outputs.append(done.stdout)
    assert outputs[0].count("\n") == 6
    assert outputs[0] == outputs[1]


# --- independent parsers from Debian (skipped where not installed) --------------------------

def _serdi_count(path: Path, syntax: str) -> int:
    done = subprocess.run(["serdi", "-i", syntax, "-o", "ntriples", str(path)], capture_output=True, timeout=60)
    assert done.returncode == 0, done.stderr.decode()[-500:]
    return sum(1 for line in done.stdout.decode("utf-8").splitlines() if line.strip())


def _rapper_count(path: Path, syntax: str) -> int:
    done = subprocess.run(["rapper", "-i", syntax, "-c", str(path)], capture_output=True, timeout=60)
    assert done.returncode == 0, done.stderr.decode()[-500:]
    match = re.search(r"returned (\d+) triples", done.stderr.decode())
    assert match, done.stderr.decode()
    return int(match.group(1))


@pytest.mark.parametrize("tool", ["serdi", "rapper"])
@pytest.mark.parametrize("name", ["seed", "rich"])
def test_debian_parsers_read_turtle_and_ntriples(tmp_path, graphs, tool, name):
    if shutil.which(tool) is None:
        pytest.skip(f"{tool} is not installed")
    graph = graphs[name]
    count = _serdi_count if tool == "serdi" else _rapper_count
    for fmt, suffix, syntax in (("turtle", "ttl", "turtle"), ("ntriples", "nt", "ntriples")):
        path = tmp_path / f"graph.{suffix}"
        path.write_bytes(serialize(graph, fmt))
        assert count(path, syntax) == len(graph), (tool, fmt)


def test_pair_blocks_are_sorted_ntriples_even_where_member_iris_sort_unlike_their_keys():
    from scholarkg.graph import iri
    from scholarkg.graph.cooccurrence import coauthor_ntriples, pair_ntriples

    skg = "https://w3id.org/scholarkg/ontology#"
    # "f" sorts before "é" as a key, but é's IRI is an ASCII slug with a digest ("e_..."), before f's
    subject, data = pair_ntriples("f", "é", 3)
    assert str(iri.entity("é")) < str(iri.entity("f"))
    lines = data.decode("utf-8").splitlines(keepends=True)
    assert lines == sorted(lines) and len(lines) == 4
    triples = {(t.subject.value, t.predicate.value, str(t.object))
               for t in ox.parse(data, format=ox.RdfFormat.N_TRIPLES)}
    assert subject == str(iri.entity_pair("é", "f"))
    assert triples == {
        (subject, "http://www.w3.org/1999/02/22-rdf-syntax-ns#type", f"<{skg}EntityPair>"),
        (subject, skg + "pairMember", f"<{iri.entity('é')}>"),
        (subject, skg + "pairMember", f"<{iri.entity('f')}>"),
        (subject, skg + "sharedPapers", '"3"^^<http://www.w3.org/2001/XMLSchema#integer>'),
    }
    a, b = str(iri.author("Zoë Ng")), str(iri.author("Ada Lovelace"))  # given in the other order
    subject, data = coauthor_ntriples(a, b, 2)
    lines = data.decode("utf-8").splitlines(keepends=True)
    assert lines == sorted(lines) and subject == str(iri.coauthor_pair(b, a))
    assert {str(t.object) for t in ox.parse(data, format=ox.RdfFormat.N_TRIPLES)} == {
        f"<{skg}CoauthorPair>", f"<{a}>", f"<{b}>", '"2"^^<http://www.w3.org/2001/XMLSchema#integer>'}
