"""The README's Turtle examples are valid Turtle, and every statement in them is in the graph
they describe (the seed graph in graphs/, and the graph of tests/test_jsonld.py's .bib)."""

from __future__ import annotations

import re

import pyoxigraph as ox


def _turtle_blocks(repo_root) -> list[str]:
    text = (repo_root / "README.md").read_text(encoding="utf-8")
    return re.findall(r"```turtle\n(.*?)```", text, re.DOTALL)


def _statements(data: bytes, fmt) -> set[str]:
    return {f"{q.subject} {q.predicate} {q.object}" for q in ox.parse(data, format=fmt)}


def test_readme_turtle_is_in_the_graphs_it_shows(repo_root, tmp_path):
    from test_jsonld import BIB

    from scholarkg.pipeline import build
    from scholarkg.serialize import serialize

    seed_block, bib_block = _turtle_blocks(repo_root)
    seed = _statements((repo_root / "graphs" / "maojia-song" / "graph.nt").read_bytes(), ox.RdfFormat.N_TRIPLES)
    shown = _statements(seed_block.encode("utf-8"), ox.RdfFormat.TURTLE)
    assert shown and shown <= seed, sorted(shown - seed)
    path = tmp_path / "refs.bib"
    path.write_text(BIB, encoding="utf-8")
    graph = _statements(serialize(build([path]).graph, "ntriples"), ox.RdfFormat.N_TRIPLES)
    shown = _statements(bib_block.encode("utf-8"), ox.RdfFormat.TURTLE)
    assert shown and shown <= graph, sorted(shown - graph)


def test_readme_demo_output_is_what_the_demo_prints(repo_root, cli):
    """Every line of the Quick start's sample output (but the '...' that stand for lines left
    out) is a line `make demo` prints: the build summary (the committed graph's `stats`, which
    CI checks `make demo` reproduces) and the named query's table."""
    text = (repo_root / "README.md").read_text(encoding="utf-8")
    block = re.search(r"prints a\nsummary and the answer of the `benchmarks-introduced` query:\n\n```\n(.*?)```", text, re.DOTALL)
    assert block, "the Quick start's sample output is missing"
    graph = repo_root / "graphs" / "maojia-song"
    stats = cli("stats", graph)
    answer = cli("query", graph, "--named", "benchmarks-introduced")
    printed = {"wrote graphs/maojia-song/"} | set(stats.stdout.splitlines()) | set(answer.stdout.splitlines())
    shown = [line for line in block.group(1).splitlines() if line != "..."]
    assert shown and [line for line in shown if line not in printed] == []
