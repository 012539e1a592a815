"""Every RDF file committed under graphs/ is read by independent parsers that agree.

- every file: pyoxigraph's strict parser for its format (Turtle, N-Triples, N-Quads, TriG,
  JSON-LD, RDF/XML);
- Turtle, N-Triples, N-Quads and TriG also by the C parsers Serd (``serdi``) and Raptor
  (``rapper``); RDF/XML by Raptor; JSON-LD also by rdflib's own reader;
- all parsers report the same number of statements for a file, and the files of one build
  folder (graph.ttl, graph.nt, graph.jsonld) hold the same graph, with as many statements as
  its summary.json says.

serdi and rapper are installed by ``make system-deps``; where they are missing the comparison
with them is skipped, except in CI (``CI`` set), where a missing parser is a failure.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pyoxigraph as ox
import pytest
from rdflib import Graph
from rdflib.compare import isomorphic

from scholarkg.graph.load import to_rdflib

GRAPHS = Path(__file__).resolve().parents[1] / "graphs"
FORMATS = {  # suffix -> (pyoxigraph format, serdi syntax, rapper syntax)
    ".ttl": (ox.RdfFormat.TURTLE, "turtle", "turtle"),
    ".nt": (ox.RdfFormat.N_TRIPLES, "ntriples", "ntriples"),
    ".nq": (ox.RdfFormat.N_QUADS, "nquads", "nquads"),
    ".trig": (ox.RdfFormat.TRIG, "trig", "trig"),
    ".jsonld": (ox.RdfFormat.JSON_LD, None, None),
    ".rdf": (ox.RdfFormat.RDF_XML, None, "rdfxml"),
    ".owl": (ox.RdfFormat.RDF_XML, None, "rdfxml"),
}
FILES = sorted(p for p in GRAPHS.rglob("*") if p.is_file() and p.suffix in FORMATS) if GRAPHS.is_dir() else []
FOLDERS = sorted({p.parent for p in FILES if p.name.startswith("graph.")})


def _name(path: Path) -> str:
    return str(path.relative_to(GRAPHS)) if path.is_relative_to(GRAPHS) else path.name


def _tool(name: str) -> str:
    found = shutil.which(name)
    if found is None:
        if os.environ.get("CI"):
            pytest.fail(f"{name} is not installed; CI must validate graphs/ with it (make system-deps)")
        pytest.skip(f"{name} is not installed")
    return found


def strict_count(path: Path) -> int:
    quads = list(ox.parse(path=str(path), format=FORMATS[path.suffix][0]))
    return len(set(quads))


def serdi_count(path: Path, syntax: str) -> int:
    done = subprocess.run([_tool("serdi"), "-i", syntax, "-o", "nquads", str(path)], capture_output=True, timeout=300)
    assert done.returncode == 0, f"serdi rejects {_name(path)}: {done.stderr.decode(errors='replace')[-500:]}"
    return len({line for line in done.stdout.decode("utf-8").split("\n") if line.strip()})


def rapper_count(path: Path, syntax: str) -> int:
    done = subprocess.run([_tool("rapper"), "-i", syntax, "-c", str(path)], capture_output=True, timeout=300)
    message = done.stderr.decode(errors="replace")
    assert done.returncode == 0 and "Error" not in message, f"rapper rejects {_name(path)}: {message[-500:]}"
    match = re.search(r"returned (\d+) (?:triple|statement)s?\b", message)
    assert match, message
    return int(match.group(1))


def test_graphs_folder_has_rdf_files_or_is_skipped():
    if not FILES:
        pytest.skip("graphs/ holds no RDF files yet")
    assert all(p.stat().st_size > 0 for p in FILES), [_name(p) for p in FILES if p.stat().st_size == 0]


@pytest.mark.parametrize("path", FILES, ids=_name)
def test_strict_parser_reads_every_file(path):
    assert strict_count(path) > 0


@pytest.mark.parametrize("path", [p for p in FILES if FORMATS[p.suffix][1]], ids=_name)
def test_serd_agrees(path):
    assert serdi_count(path, FORMATS[path.suffix][1]) == strict_count(path)


@pytest.mark.parametrize("path", [p for p in FILES if FORMATS[p.suffix][2]], ids=_name)
def test_raptor_agrees(path):
    # Raptor counts the statements it reads; our outputs never repeat a statement.
    assert rapper_count(path, FORMATS[path.suffix][2]) == strict_count(path)


@pytest.mark.parametrize("path", [p for p in FILES if p.suffix == ".jsonld"], ids=_name)
def test_rdflib_agrees_on_jsonld(path):
    data = json.loads(path.read_text(encoding="utf-8"))
    context = data.get("@context") if isinstance(data, dict) else None
    assert context is None or isinstance(context, dict), "only an inline @context (rdflib fetches remote ones)"
    assert len(Graph().parse(path, format="json-ld")) == strict_count(path)


@pytest.mark.parametrize("folder", FOLDERS, ids=_name)
def test_serialisations_of_one_build_hold_the_same_graph(folder):
    graphs = {}
    for path in sorted(folder.glob("graph.*")):
        if path.suffix in FORMATS:
            graph = Graph()
            for quad in ox.parse(path=str(path), format=FORMATS[path.suffix][0]):
                graph.add((to_rdflib(quad.subject), to_rdflib(quad.predicate), to_rdflib(quad.object)))
            graphs[path.name] = graph
    assert len(graphs) >= 2, f"{_name(folder)}: fewer than two serialisations to compare"
    (first_name, first), *others = graphs.items()
    for name, graph in others:
        assert len(graph) == len(first), (first_name, name)
        assert isomorphic(graph, first), (first_name, name)
    summary = folder / "summary.json"
    if summary.is_file():
        assert json.loads(summary.read_text())["triples"] == len(first)


def test_the_checks_reject_broken_files(tmp_path):
    """The helpers above fail on invalid RDF. A literal split by a raw line break (what an
    exporter that cut N-Triples lines at U+2028 once wrote) is caught by pyoxigraph and Serd;
    Raptor reads it without complaint, which is why every file goes through all three."""
    split = tmp_path / "split.nt"
    split.write_text('<http://example.org/a> <http://example.org/b> "one\ntwo" .\n', encoding="utf-8")
    cut = tmp_path / "cut.nt"
    cut.write_text("<http://example.org/a> <http://example.org/b> .\n", encoding="utf-8")
    for broken in (split, cut):
        with pytest.raises(SyntaxError):
            strict_count(broken)
        with pytest.raises(AssertionError):
            serdi_count(broken, "ntriples")
    assert rapper_count(split, "ntriples") == 1
    with pytest.raises(AssertionError):
        rapper_count(cut, "ntriples")
