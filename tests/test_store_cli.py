"""The command line with stores: build --store, and query/stats/export/render on a store."""

from __future__ import annotations

import json

import pytest
from rdflib import Graph
from rdflib.compare import isomorphic
from storekit import GRAPH_COUNT, record, write_jsonl

from scholarkg.pipeline import summarise
from scholarkg.store import GraphStore


def test_build_into_a_store_reports_added_updated_and_unchanged(cli, tmp_path):
    store = tmp_path / "s"
    corpus = write_jsonl(tmp_path / "in.jsonl", [record(i, f"Abstract {i} mentions GRPO.") for i in range(3)])
    first = cli("build", corpus, "--store", store)
    assert first.exit_code == 0, first.output
    assert "3 added, 0 updated, 0 unchanged" in first.stdout
    changed = write_jsonl(tmp_path / "in2.jsonl", [record(0, "A new abstract."), record(1, "Abstract 1 mentions GRPO."), record(7, "New.")])
    second = cli("build", changed, "--store", store)
    assert "1 added, 1 updated, 1 unchanged" in second.stdout
    assert "papers      4" in second.stdout
    again = cli("build", changed, "--store", store)  # nothing changes: the count is the last build's
    with GraphStore(store) as opened:
        statements = opened.count()
    for result in (second, again):
        assert f"triples     {statements}\n" in result.stdout, result.stdout


def test_a_store_build_lists_its_problems_and_notes_beside_the_store(cli, tmp_path):
    store = tmp_path / "s"
    corpus = write_jsonl(tmp_path / "in.jsonl", [record(0, "One."), {"title": "Soon", "year": "soon"}, record(0, "One.")])
    result = cli("build", corpus, "--store", store)
    assert result.exit_code == 0, result.output
    assert f"all listed in {store}/problems.jsonl" in result.stdout
    listed = [json.loads(line) for line in (store / "problems.jsonl").read_text(encoding="utf-8").splitlines()]
    assert [(p["severity"], p["record"], p["field"]) for p in listed] == [("problem", "line 2", "year"), ("note", "line 3", "id")]
    # A store build combines a repeat into the first record, as a folder build does.
    assert "same paper as line 1 in in.jsonl; fields combined" in listed[1]["message"]


def test_query_stats_export_and_render_accept_a_store(cli, seed_store, seed_graph, tmp_path):
    named = cli("query", "--store", seed_store, "--named", "papers-by-year", "--format", "json")
    assert named.exit_code == 0, named.output
    assert len(json.loads(named.stdout)["results"]["bindings"]) == 18

    text = cli("query", "--store", seed_store, GRAPH_COUNT, "--format", "csv")
    assert text.stdout.splitlines() == ["n", str(len(seed_graph))]
    positional = cli("query", seed_store, GRAPH_COUNT, "--format", "csv")
    assert positional.stdout == text.stdout

    stats = cli("stats", "--store", seed_store, "--json")
    assert json.loads(stats.stdout) == summarise(seed_graph)

    out = tmp_path / "g.ttl"
    exported = cli("export", "--store", seed_store, "--format", "turtle", "-o", out)
    assert exported.exit_code == 0 and "wrote" in exported.stderr
    assert isomorphic(Graph().parse(out, format="turtle"), seed_graph)
    jsonld = cli("export", "--store", seed_store, "--format", "jsonld", "-o", tmp_path / "g.jsonld")
    assert jsonld.exit_code == 0
    assert isomorphic(Graph().parse(tmp_path / "g.jsonld", format="json-ld"), seed_graph)

    page = tmp_path / "g.html"
    assert cli("render", "--store", seed_store, "-o", page).exit_code == 0
    assert "<html" in page.read_text(encoding="utf-8").lower()


@pytest.mark.parametrize("args, code, message", [
    (("query", "--store", "{missing}", "--named", "results"), 3, "no such store"),
    (("query", "--store", "{tmp}", "--named", "results"), 3, "not a scholarkg store"),
    (("query", "--store", "{seed}", "SELECT * WHERE { ?s ?p ?o"), 4, "SPARQL error"),
    (("query", "--store", "{seed}", "--timeout", "0.05", "SELECT (COUNT(*) AS ?n) WHERE { ?a ?b ?c . ?d ?e ?f . ?g a ?i }"), 4, "longer than 0.05 s"),
    (("build", "{seed_input}", "--out", "{tmp}/o", "--store", "{tmp}/s"), 2, "either --out FOLDER or --store DIR"),
    (("export", "--store", "{tmp}", "--format", "turtle"), 3, "not a scholarkg store"),
])
def test_store_errors_are_one_line_with_the_right_exit_code(cli, seed_store, seed_path, tmp_path, args, code, message):
    (tmp_path / "junk.txt").write_text("x")
    values = {"missing": tmp_path / "nope", "tmp": tmp_path, "seed": seed_store, "seed_input": seed_path}
    def fill(arg: str) -> str:
        for name, value in values.items():
            arg = arg.replace("{" + name + "}", str(value))
        return arg

    result = cli(*map(fill, args))
    assert result.exit_code == code
    assert message in result.stderr
    assert "Traceback" not in result.output


def test_a_folder_that_is_not_a_store_is_not_overwritten(cli, tmp_path, seed_path):
    (tmp_path / "mine").mkdir()
    (tmp_path / "mine" / "notes.txt").write_text("keep me")
    result = cli("build", seed_path, "--store", tmp_path / "mine")
    assert result.exit_code == 5
    assert "not a scholarkg store" in result.stderr
    assert (tmp_path / "mine" / "notes.txt").read_text() == "keep me"


@pytest.mark.parametrize("command", ["serve", "push", "bulk"])
def test_new_commands_have_help(cli, command):
    result = cli(command, "--help")
    assert result.exit_code == 0
    assert "Example" in result.stdout
