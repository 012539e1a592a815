"""The command line as users run it: help everywhere, real runs, one-line errors."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from scholarkg.cli import main


def test_every_command_has_help(cli):
    top = cli("--help")
    assert top.exit_code == 0
    for name, command in main.commands.items():
        assert command.help, f"{name} has no help text"
        assert name in top.stdout
        result = cli(name, "--help")
        assert result.exit_code == 0 and "Usage:" in result.stdout


def test_build_seed_writes_outputs_and_summary(cli, seed_path, tmp_path):
    out = tmp_path / "seed"
    result = cli("build", seed_path, "--out", out)
    assert result.exit_code == 0, result.stderr
    for name in ("graph.ttl", "graph.nt", "graph.jsonld", "graph.html", "extraction.jsonl", "summary.json"):
        assert (out / name).stat().st_size > 0, name
    assert "papers      18" in result.stdout
    assert "authors     1" in result.stdout
    assert "categories  5 (cs.AI, cs.CL, cs.CV, cs.LG, cs.SE)" in result.stdout
    assert "claims at least 19 records; 18 were read" in result.stdout
    summary = json.loads((out / "summary.json").read_text())
    assert summary["papers"] == 18 and summary["triples"] > 0
    assert summary["notes"] == ["maojia-song.txt: the profile claims at least 19 records; 18 were read"]


def test_stats_and_export(cli, seed_out, tmp_path):
    stats = cli("stats", seed_out, "--json")
    assert stats.exit_code == 0
    assert json.loads(stats.stdout)["papers"] == 18
    for fmt, marker in (("turtle", b"@prefix skg:"), ("ntriples", b"<https://w3id.org/scholarkg/id/"),
                        ("jsonld", b'"@context"'), ("graphml", b"<graphml"), ("nquads", b" .\n"), ("trig", b"@prefix")):
        target = tmp_path / f"out.{fmt}"
        result = cli("export", seed_out, "--format", fmt, "-o", target)
        assert result.exit_code == 0, result.stderr
        assert marker in target.read_bytes(), fmt


def test_query_list_and_formats(cli, seed_out):
    listing = cli("query", "--list")
    assert listing.exit_code == 0 and len(listing.stdout.splitlines()) >= 10
    csv_out = cli("query", seed_out, "--named", "categories", "--format", "csv")
    assert csv_out.stdout.splitlines()[0] == "category,name,papers,asPrimary"
    assert "cs.CL,Computation and Language,9,9" in csv_out.stdout
    as_json = json.loads(cli("query", seed_out, "SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }", "--format", "json").stdout)
    assert int(as_json["results"]["bindings"][0]["n"]["value"]) > 100


@pytest.mark.parametrize("args,code,message", [
    (["query", "{out}", "SELECT * FROM <file:///etc/passwd> WHERE { ?s ?p ?o }"], 4, "FROM is refused"),
    (["query", "{out}", "SELECT * WHERE { ?s ?p }"], 4, "SPARQL error"),
    (["query", "{out}", "--named", "nope"], 2, "no named query 'nope'"),
    (["query", "{out}", "--named", "categories", "-p", "colour=red"], 2, "has no parameter 'colour'"),
    (["stats", "/nonexistent/graph.ttl"], 3, "no such file or folder"),
    (["build", "/nonexistent.jsonl", "--out", "{tmp}/x"], 3, "no such file"),
])
def test_errors_are_one_line_with_exit_code(cli, seed_out, tmp_path, args, code, message):
    args = [a.replace("{out}", str(seed_out)).replace("{tmp}", str(tmp_path)) for a in args]
    result = cli(*args)
    assert result.exit_code == code
    assert message in result.stderr
    assert "Traceback" not in result.stderr
    assert len([line for line in result.stderr.splitlines() if line.startswith("error:")]) == 1


def _records(n: int) -> str:
    return "".join(json.dumps({"id": f"2501.{i:05d}", "title": f"Sparse Attention Study {i}", "year": 2025,
                               "abstract": "We evaluate LoRA on ImageNet and report 81.2% top-1 accuracy.",
                               "authors": [f"Author {i}"], "categories": ["cs.LG"]}) + "\n" for i in range(n))


@pytest.mark.parametrize("target", ["--out", "--store"])
def test_build_shows_each_stage_on_a_terminal_and_warnings_start_a_line(tmp_path, target):
    source = tmp_path / "records.jsonl"
    source.write_text(_records(1200), encoding="utf-8")  # a paper and an author each: over 2,000 nodes to draw
    run = [sys.executable, "-m", "scholarkg.cli", "build", str(source), target, str(tmp_path / "built")]
    shown = subprocess.run([*run, "--progress"], capture_output=True)  # bytes: text mode would turn \r into \n
    stderr = shown.stderr.decode("utf-8")
    assert shown.returncode == 0, stderr
    lines = stderr.split("\n")
    last = {}  # each stage's last state, in the order the stages were shown
    for line in lines:
        if line.startswith("\r"):
            state = line.rpartition("\r")[2]
            last[state.split()[0]] = state
    stages = ["extracting", "linking", "writing", "entities", "pairs", "co-authors", "authors"] + (
        ["files"] if target == "--out" else ["snapshot"])
    assert [stage for stage in last if stage in stages] == stages, stderr
    assert last["extracting"].endswith("1,200/1,200") and last["writing"].endswith("1,200/1,200")
    assert "extracting  500" in stderr  # counted a batch at a time before the total is known
    if target == "--out":
        assert last["files"].endswith("8/8")
        # the explorer's warning comes while the files are written, on a line of its own
        warning = next(line for line in lines if "most connected" in line)
        assert warning.startswith("warning: explorer: drawing the 2,000 most connected"), stderr
        assert "files       [" in stderr.split(warning)[0]
    quiet = subprocess.run(run, capture_output=True)  # stderr is no terminal here: no progress
    assert quiet.returncode == 0 and b"\r" not in quiet.stderr


def test_a_stage_ends_on_its_last_count_however_fast_it_came(capsys):
    from scholarkg.cli.common import PhaseProgress

    bar = PhaseProgress(True)
    for n in range(1, 1001):  # far faster than the bar is redrawn
        bar("pairs", n, None)
    bar("authors", 0, None)
    for n in range(1, 301):
        bar("writing", n, 300)
    bar.done()
    lines = capsys.readouterr().err.split("\n")
    assert [line.rpartition("\r")[2] for line in lines if line] == [
        "pairs       1,000", "authors     0", "writing     [##############################] 300/300"]


def test_installed_console_script_runs(seed_out):
    done = subprocess.run([sys.executable, "-m", "scholarkg.cli", "stats", str(seed_out)], capture_output=True, text=True)
    assert done.returncode == 0 and "papers      18" in done.stdout


def test_validate_command(cli, seed_out, tmp_path):
    good = cli("validate", seed_out)
    assert good.exit_code == 0 and "conforms" in good.stderr
    broken = tmp_path / "broken.ttl"
    text = (seed_out / "graph.ttl").read_text(encoding="utf-8")
    broken.write_text(text.replace('dcterms:title "Agents\' Last Exam"', 'dcterms:title "A", "B"'), encoding="utf-8")
    bad = cli("validate", broken)
    assert bad.exit_code == 1 and "Paper-title" in bad.stdout


def test_unknown_input_format_is_a_command_line_error(cli, seed_path, tmp_path):
    result = cli("build", seed_path, "--format", "pdf", "--out", tmp_path / "x")
    assert result.exit_code == 2
    assert "'pdf' is not one of" in result.stderr and "bibtex" in result.stderr
    assert not (tmp_path / "x").exists()


def test_cli_format_names_are_the_reader_registry():
    from scholarkg.cli.common import INPUT_FORMATS
    from scholarkg.readers import FORMATS

    assert sorted(INPUT_FORMATS) == sorted(FORMATS)


def test_cli_modules_import_without_cycles():
    """Each command module imports only the shared options (and the library), never the entry
    module or another command module, so any of them can be imported on its own first."""
    import ast
    from pathlib import Path

    import scholarkg.cli as package

    folder = Path(package.__file__).parent
    commands = {"graph", "query", "research", "store"}
    for path in folder.glob("*.py"):
        imported = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.level == 1:
                imported |= {node.module} if node.module else {alias.name for alias in node.names}
        if path.stem in commands:
            allowed = {"common", "store"} if path.stem == "graph" else {"common"}  # build/export --store
            assert imported <= allowed, (path.name, imported)
        if path.stem == "common":
            assert not imported, imported
    for name in ["common", *sorted(commands), "app"]:  # each importable first, in a fresh interpreter
        done = subprocess.run([sys.executable, "-c", f"import scholarkg.cli.{name}"], capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
