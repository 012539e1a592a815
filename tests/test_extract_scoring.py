"""Our scorer, the evaluate entry point, and agreement with the shared scorer."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

from scholarkg.extract.scoring import coarse_type, norm, score_documents

from extract_support import SHARED, extract_nlp, shared_data  # noqa: F401

DATA = Path(__file__).resolve().parent / "data" / "extract_gold_small.jsonl"


def _gold():
    return [json.loads(line) for line in DATA.read_text(encoding="utf-8").splitlines() if line.strip()]


def test_norm_and_types():
    assert norm("Pass@1") == "pass1" and norm("BrowseComp-ZH") == "browsecompzh" and norm(None) == ""
    assert coarse_type("Benchmark") == coarse_type("https://w3id.org/x#Dataset") == "DATA"
    assert coarse_type("Model") == "MODEL"


def test_perfect_and_empty_predictions():
    gold = _gold()
    perfect = []
    for g in gold:
        ents = [{"text": aliases[0], "type": types.split("|")[0].title().replace("Data", "Dataset"),
                 "role": "introduces" if aliases[0] in g["introduces"] else "mentions"}
                for types, groups in g["gold"].items() for aliases in groups]
        perfect.append({"title": g["title"], "entities": ents, "results": g["results"]})
    scores = score_documents(gold, perfect)
    assert scores["typed"]["f1"] == 1.0 and scores["introduces"]["f1"] == 1.0 and scores["results"]["f1"] == 1.0
    empty = score_documents(gold, [])
    assert empty["typed"]["tp"] == 0 and empty["missing_documents"] == 2
    assert empty["typed"]["fn"] == sum(len(v) for g in gold for v in g["gold"].values())


def test_optional_names_are_neither_rewarded_nor_punished():
    gold = _gold()[:1]
    pred = [{"title": gold[0]["title"], "entities": [{"text": "network", "type": "Method"},
                                                     {"text": "sparse attention", "type": "Task"}]}]
    scores = score_documents(gold, pred)
    assert scores["typed"]["fp"] == 1  # the mistyped "sparse attention"; "network" is optional
    assert scores["untyped"]["tp"] == 1 and scores["untyped"]["fp"] == 0


def test_evaluate_on_a_small_gold_file(tmp_path, extract_nlp):
    from scholarkg.extract.evaluate import evaluate

    out = tmp_path / "pred.jsonl"
    scores = evaluate(DATA, out_path=out, nlp=extract_nlp)
    assert scores["records"] == 2 and scores["missing_documents"] == 0
    assert scores["typed"]["tp"] >= 6
    assert scores["introduces"]["tp"] == 1
    assert scores["results"]["tp"] == 1
    lines = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert [line["id"] for line in lines] == ["g1", "g2"]


def _shared_scorer():
    path = SHARED / "tools" / "score_extraction.py"
    if not path.is_file():
        pytest.skip("../shared/tools/score_extraction.py is not present")
    spec = importlib.util.spec_from_file_location("shared_score_extraction", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.shared
def test_figures_equal_the_shared_scorer(tmp_path, extract_nlp, capsys):
    """Same prediction file, same gold: our figures are the shared scorer's."""
    from scholarkg.extract.evaluate import evaluate

    data = shared_data()
    shared = _shared_scorer()
    for gold in (DATA, data / "scierc" / "dev.gold.jsonl"):
        pred = tmp_path / (gold.stem + ".pred.jsonl")
        ours = evaluate(gold, out_path=pred, nlp=extract_nlp)
        f, fu, fi, fr, missing = shared.score(str(gold), str(pred))
        capsys.readouterr()
        assert ours["typed"]["f1"] == pytest.approx(f, abs=1e-12)
        assert ours["untyped"]["f1"] == pytest.approx(fu, abs=1e-12)
        assert ours["introduces"]["f1"] == pytest.approx(fi, abs=1e-12)
        assert ours["results"]["f1"] == pytest.approx(fr, abs=1e-12)
        assert ours["missing_documents"] == missing


@pytest.mark.shared
def test_edge_cases_equal_the_shared_scorer(tmp_path, capsys):
    """Hand-made predictions with the awkward cases: IRI types, aliases, duplicates, bad values."""
    from scholarkg.extract.scoring import score_files

    shared = _shared_scorer()
    preds = [
        {"title": "ZetaNet: Fast Parsing with Sparse Attention", "entities": [
            {"text": "ZetaNet", "type": "https://w3id.org/scholarkg#Model", "role": "introduces"},
            {"text": "zetanet", "label": "ZetaNet", "type": "Method", "role": "introduces"},
            {"text": "PTB", "aliases": ["Penn Treebank"], "type": "Dataset"},
            {"text": "BERT", "type": "Task"},
            {"text": "network", "type": "Method", "role": "introduces"},
            {"text": "novel thing", "type": "Weird", "role": "introduces"}],
         "results": [{"model": "ZetaNet", "benchmark": "PTB", "value": 91.24},
                     {"model": "ZetaNet", "benchmark": "Penn Treebank", "value": "n/a"},
                     {"model": None, "benchmark": "Penn Treebank", "value": 91.2}]},
        {"title": "learning to route tokens!", "entities": [{"canonical": "MoE", "type": "Method"}]},
    ]
    pred = tmp_path / "edge.jsonl"
    pred.write_text("\n".join(json.dumps(p) for p in preds) + "\n", encoding="utf-8")
    ours = score_files(DATA, pred)
    f, fu, fi, fr, missing = shared.score(str(DATA), str(pred))
    capsys.readouterr()
    assert (ours["typed"]["f1"], ours["untyped"]["f1"], ours["introduces"]["f1"], ours["results"]["f1"]) == \
        pytest.approx((f, fu, fi, fr), abs=1e-12)
    assert ours["missing_documents"] == missing


_CONLL = """We\t0\tO
tag\t3\tO
part\t7\tB-TASK
-\t11\tI-TASK
of\t12\tI-TASK
-\t14\tI-TASK
speech\t15\tI-TASK
on\t22\tO
the\t25\tO
Brown\t29\tB-DATASET
corpus\t35\tI-DATASET
by\t42\tO
accuracy\t45\tB-METRIC
.\t53\tO

Parsers\t55\tO
use\t63\tO
beam\t67\tO
search\t72\tO
.\t78\tO

Scores\t80\tO
use\t87\tO
word\t91\tB-METRIC
error\t96\tI-METRIC
rate\t102\tI-METRIC
(\t107\tI-METRIC
WER\t108\tI-METRIC
)\t111\tI-METRIC
.\t112\tO
"""


def test_conll_sentences_become_gold_papers_with_the_types_they_mark(tmp_path):
    from scholarkg.extract.evaluate import conll_documents

    path = tmp_path / "small.conll"
    path.write_text(_CONLL, encoding="utf-8")
    first, second, third = conll_documents(path)
    assert first["abstract"] == "We tag part-of-speech on the Brown corpus by accuracy."
    assert first["gold"] == {"TASK": [["part-of-speech"]], "DATA": [["Brown corpus"]], "METRIC": [["accuracy"]]}
    assert second["abstract"] == "Parsers use beam search." and second["gold"] == {}
    assert first["types"] == ["DATA", "METRIC", "TASK"] and first["title"] != second["title"]
    assert third["abstract"] == "Scores use word error rate (WER)."
    assert third["gold"] == {"METRIC": [["word error rate (WER)", "word error rate", "WER"]]}  # either name


def test_types_the_annotators_did_not_mark_are_neither_right_nor_wrong():
    gold = [{"title": "Sentence 1", "gold": {"TASK": [["parsing"]]}, "types": ["TASK", "DATA", "METRIC"]}]
    pred = [{"title": "Sentence 1", "entities": [{"text": "beam search", "type": "Method"},
                                                 {"text": "tagging", "type": "Task"},
                                                 {"text": "parsing", "type": "Method"}]}]
    scores = score_documents(gold, pred)
    assert scores["typed"]["fp"] == 1 and scores["typed"]["fn"] == 1  # "tagging"; "parsing" mistyped
    assert scores["untyped"]["tp"] == 1 and scores["untyped"]["fp"] == 1  # "beam search" counts for nothing
    unmarked = score_documents([{k: v for k, v in gold[0].items() if k != "types"}], pred)
    assert unmarked["typed"]["fp"] == 3


def test_eval_reads_a_conll_file_and_names_a_bad_line(tmp_path, cli):
    path = tmp_path / "small.conll"
    path.write_text(_CONLL, encoding="utf-8")
    result = cli("eval", path, "--json")
    assert result.exit_code == 0
    scores = json.loads(result.stdout)
    assert scores["documents"] == 3 and set(scores["by_type"]) <= {"TASK", "DATA", "METRIC"}
    assert scores["by_type"]["METRIC"]["tp"] == 2  # "accuracy", and "word error rate" by its long form
    bad = tmp_path / "bad.conll"
    bad.write_text("We\t0\tO\nno offset here\n", encoding="utf-8")
    result = cli("eval", bad)
    assert result.exit_code != 0 and f"{bad}:2: expected 'token offset tag'" in result.stderr
