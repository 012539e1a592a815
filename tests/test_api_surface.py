"""The package's top-level functions stay functions whatever else has been imported."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap


def test_top_level_api_works_after_every_submodule_is_imported(tmp_path):
    records = tmp_path / "papers.jsonl"
    records.write_text(json.dumps({
        "title": "KAIROS: a benchmark of peer pressure",
        "abstract": "We introduce KAIROS, a benchmark. We train with GRPO and report accuracy.",
        "year": 2025, "categories": "cs.CL", "authors": ["Ada Lovelace"],
    }) + "\n", encoding="utf-8")
    script = textwrap.dedent(f"""
        import importlib, pkgutil, types
        import scholarkg

        for info in pkgutil.walk_packages(scholarkg.__path__, "scholarkg."):
            if info.name != "scholarkg.__main__":
                importlib.import_module(info.name)
        for name in scholarkg.__all__[:-1]:
            assert isinstance(getattr(scholarkg, name), types.FunctionType), (name, getattr(scholarkg, name))

        out = {str(tmp_path / "out")!r}
        scholarkg.build([{str(records)!r}], out=out)
        graph = scholarkg.load(out)
        rows = scholarkg.query(graph, named="benchmarks-introduced").to_dicts()
        print([row["label"] for row in rows])
        scholarkg.render(graph, {str(tmp_path / "view.html")!r})
        scholarkg.export(graph, "ntriples", {str(tmp_path / "g.nt")!r})
    """)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "KAIROS" in done.stdout
    assert (tmp_path / "view.html").read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
    assert "KAIROS" in (tmp_path / "g.nt").read_text(encoding="utf-8")


def test_query_answers_iterate_as_the_readme_shows(seed_graph):
    import scholarkg

    answer = scholarkg.query(seed_graph, named="benchmarks-introduced")
    rows = list(answer)
    assert len(answer) == len(rows) > 0 and answer
    assert {"label", "type", "year", "title"} <= set(rows[0])
    assert "Agents' Last Exam" in {row["label"] for row in rows}
    empty = scholarkg.query(seed_graph, "SELECT ?s WHERE { ?s a <https://example.org/Nothing> }")
    assert not empty and list(empty) == []
    ask = scholarkg.query(seed_graph, "ASK { ?s ?p ?o }")
    assert ask and ask.boolean is True
    graph = scholarkg.query(seed_graph, "CONSTRUCT { ?s ?p ?o } WHERE { ?s a <https://w3id.org/scholarkg/ontology#Author> ; ?p ?o }")
    assert len(graph) == len(list(graph)) > 0
