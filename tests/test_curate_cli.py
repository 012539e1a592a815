"""The curate, enrich and profile commands: every curate subcommand appends what it says,
check reports stale corrections with exit code 1, build finds (or skips) the curation file,
bad input gives one-line errors, and every command has help text."""

from __future__ import annotations

import json

import pytest
from curation_support import V1, use_extractor, write_inputs

from scholarkg.curate import load_curation
from scholarkg.enrich.overlay import load_enrichment
from scholarkg.errors import InputError
from scholarkg.manifest import read_manifest

T = "Tongyi DeepResearch Technical Report"


def test_every_curate_subcommand_appends_its_correction(tmp_path, cli):
    f = tmp_path / "c.toml"
    commands = [
        (["merge", "-f", f, "BrowseComp ZH", "BrowseComp"], {"action": "merge", "entity": "BrowseComp ZH", "into": "BrowseComp"}),
        (["split", "-f", f, "GRPO", "GRPO-2", "--paper", T, "--type", "Method"], {"action": "split", "papers": (T,), "new": "GRPO-2"}),
        (["rename", "-f", f, "GRPO", "Group Relative Policy Optimization"], {"action": "rename", "label": "Group Relative Policy Optimization"}),
        (["alias", "-f", f, "GRPO", "G.R.P.O."], {"action": "alias", "alias": "G.R.P.O."}),
        (["retype", "-f", f, "KAIROS", "Benchmark"], {"action": "retype", "entity": "KAIROS"}),
        (["drop", "-f", f, "ReAct", "--paper", T], {"action": "drop", "papers": (T,)}),
        (["add", "-f", f, T, "FRAMES", "--type", "Benchmark", "--role", "evaluatesOn", "--alias", "Frames"],
         {"action": "add", "paper": T, "entity": "FRAMES", "aliases": ("Frames",)}),
        (["result", "-f", f, T, "--match", "value=43.4", "--set", "unit=%"], {"action": "result", "match": {"value": "43.4"}, "set": {"unit": "%"}}),
        (["result", "-f", f, T, "--match", "benchmark=BrowseComp ZH", "--drop"], {"action": "result", "drop": True}),
        (["paper", "-f", f, T, "--not-on-arxiv", "--year", "2025"], {"action": "paper", "arxiv_id": "", "year": 2025}),
    ]
    for args, _expected in commands:
        result = cli("curate", *args, "--note", f"via {args[0]}")
        assert result.exit_code == 0 and result.output.startswith(f"{f}: added c"), result.output
    corrections = load_curation(f).corrections
    assert len(corrections) == len(commands)
    for correction, (args, expected) in zip(corrections, commands):
        for key, value in expected.items():
            got = getattr(correction, key)
            assert (got.value if hasattr(got, "value") else got) == value, (args, key)
        assert correction.note == f"via {args[0]}"
    listing = cli("curate", "list", f).output.splitlines()
    assert len(listing) == len(commands) and listing[0].startswith("  1  c") and "# via merge" in listing[0]


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["retype", "KAIROS", "Gadget"], "Invalid value for 'TYPE'"),
        (["result", "T", "--match", "value"], "expected FIELD=VALUE"),
        (["result", "T", "--set", "value=many"], "bad correction [set.value]: not a number"),
        (["paper", "T", "--arxiv-id", "2501.00001", "--not-on-arxiv"], "not both"),
        (["add", "T", "X", "--type", "Model", "--role", "likes"], "Invalid value for '--role'"),
    ],
)
def test_bad_curate_input_is_one_line_and_writes_nothing(tmp_path, cli, args, words):
    f = tmp_path / "c.toml"
    result = cli("curate", args[0], "-f", f, *args[1:])
    assert result.exit_code == 2 and words in result.output
    assert not f.exists()


def test_check_reports_stale_corrections_with_exit_code_1(tmp_path, monkeypatch, cli):
    use_extractor(monkeypatch, V1, "fake-1")
    inputs = write_inputs(tmp_path)
    f = tmp_path / "papers.curation.toml"
    assert cli("curate", "alias", "-f", f, "GRPO", "Group Relative Policy Optimization").exit_code == 0
    good = cli("curate", "check", inputs)
    assert good.exit_code == 0 and "1 corrections: 1 in effect, 0 stale" in good.output
    assert cli("curate", "drop", "-f", f, "Some Entity Nobody Named").exit_code == 0
    bad = cli("curate", "check", inputs)
    assert bad.exit_code == 1
    assert "correction 2 (" in bad.output and "stale: no entity named 'Some Entity Nobody Named'" in bad.output
    built = cli("build", inputs, "-o", tmp_path / "out")
    assert built.exit_code == 0 and "papers.curation.toml: correction 2" in built.output
    summary = json.loads((tmp_path / "out" / "summary.json").read_text())
    assert any("correction 2" in note and "stale" in note for note in summary["notes"])


def test_build_curation_options(tmp_path, monkeypatch, cli):
    use_extractor(monkeypatch, V1, "fake-1")
    inputs = write_inputs(tmp_path)
    other = tmp_path / "elsewhere.toml"
    assert cli("curate", "drop", "-f", other, "ReAct").exit_code == 0
    (tmp_path / "curation.toml").write_text('[[correction]]\naction = "drop"\nentity = "DPO"\n', encoding="utf-8")

    def labels(out):
        return (out / "graph.ttl").read_text(encoding="utf-8")

    assert cli("build", inputs, "-o", tmp_path / "a").exit_code == 0  # curation.toml beside the input
    assert '"ReAct"' in labels(tmp_path / "a") and '"DPO"' not in labels(tmp_path / "a")
    assert read_manifest(tmp_path / "a").curation.resolve() == (tmp_path / "curation.toml").resolve()
    assert cli("build", inputs, "-o", tmp_path / "b", "--curation", other).exit_code == 0
    assert '"ReAct"' not in labels(tmp_path / "b") and '"DPO"' in labels(tmp_path / "b")
    assert cli("build", inputs, "-o", tmp_path / "c", "--no-curation").exit_code == 0
    assert '"ReAct"' in labels(tmp_path / "c") and '"DPO"' in labels(tmp_path / "c")
    assert read_manifest(tmp_path / "c").curation is None
    broken = tmp_path / "broken.toml"
    broken.write_text('[[correction]]\naction = "drop"\n', encoding="utf-8")
    result = cli("build", inputs, "-o", tmp_path / "d", "--curation", broken)
    assert result.exit_code == 3 and result.output == f"error: {broken}: correction 1 [entity]: missing (a drop correction needs entity)\n"


def test_bad_manifest_and_enrichment_files_are_named(tmp_path):
    folder = tmp_path / "g"
    folder.mkdir()
    (folder / "build.json").write_text('{"inputs": []}', encoding="utf-8")
    with pytest.raises(InputError, match=r"build.json \[inputs\]: expected a non-empty list"):
        read_manifest(folder)
    bad = tmp_path / "x.enrichment.jsonl"
    bad.write_text('{"match": {"title": "T", "arxiv_id": null}, "by": "title", "arxiv_id": "2501.00001"}\n'
                   '{"match": {"title": "U"}, "by": "title", "arxiv_id": "not-an-id"}\n', encoding="utf-8")
    with pytest.raises(InputError, match=r"x.enrichment.jsonl:2 \[arxiv_id\]: not an arXiv id"):
        load_enrichment(bad)


def test_every_new_command_has_help(cli):
    from scholarkg.cli import main

    assert {"curate", "enrich", "profile"} <= set(main.commands)
    for name in ("enrich", "profile"):
        assert main.commands[name].help and cli(name, "--help").exit_code == 0
    for name, command in main.commands["curate"].commands.items():
        assert command.help, name
        assert cli("curate", name, "--help").exit_code == 0
