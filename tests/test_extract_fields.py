"""Abstracts from other fields, written for these tests (no evaluation text is paraphrased):
a theory paper that names no entity, biomedicine, speech, control, vision, LaTeX-heavy text and
a results table written in the text."""

from __future__ import annotations

from decimal import Decimal

from extract_support import extract_nlp  # noqa: F401

from scholarkg.extract import extract
from scholarkg.model import Record, Role


def _run(nlp, title, abstract):
    return extract(Record(id="f", title=title, abstract=abstract), nlp)


def _types(ex):
    return {m.label: m.type.value for m in ex.mentions}


def _results(ex, improvements=False):
    return {(r.model, r.benchmark, r.metric, str(r.value)) for r in ex.results if r.is_improvement == improvements}


def test_a_theory_abstract_names_no_entity(extract_nlp):
    ex = _run(extract_nlp, "On the Number of Perfect Matchings in Regular Bipartite Graphs",
              "We study the number of perfect matchings in d-regular bipartite graphs on 2n vertices. We prove a "
              "lower bound that is tight up to a factor of two for every fixed d, and show that the bound is attained "
              "only by disjoint unions of complete bipartite graphs. Our argument combines an entropy inequality "
              "with a simple counting lemma. As a consequence we settle a conjecture on the permanent of doubly "
              "stochastic matrices in the regime where d grows slowly with n. We also discuss why the approach "
              "does not extend to non-bipartite graphs.")
    assert ex.mentions == () and ex.results == ()


def test_biomedical_abstract(extract_nlp):
    ex = _run(extract_nlp, "Predicting Protein Stability Changes with Graph Attention",
              "Mutations that destabilise proteins are a major cause of disease. We present StabGAT, a graph "
              "attention network that predicts the change in folding free energy caused by single point mutations. "
              "StabGAT is trained on the MegaScale dataset and evaluated on the independent S669 test set, where it "
              "reaches a Pearson correlation of 0.61, compared with 0.52 for ThermoNet.")
    types = _types(ex)
    assert types["MegaScale"] == "Dataset" and types["S669"] == "Dataset"
    roles = {m.label: m.role for m in ex.mentions}
    assert roles["StabGAT"] is Role.INTRODUCES
    assert roles["GAT"] is not Role.INTRODUCES  # what StabGAT is, not what the paper introduces
    assert roles["MegaScale"] is Role.USES and roles["S669"] is Role.EVALUATES_ON
    assert roles["ThermoNet"] is Role.COMPARES_WITH
    assert _results(ex) == {("StabGAT", "S669", "Pearson correlation", "0.61"),
                            ("ThermoNet", "S669", "Pearson correlation", "0.52")}


def test_speech_abstract(extract_nlp):
    ex = _run(extract_nlp, "Streaming Speech Recognition with Chunked Conformers",
              "We propose ChunkFormer, a streaming variant of the Conformer encoder that processes audio in "
              "fixed-size chunks. Trained with the RNN-T loss on LibriSpeech, ChunkFormer achieves a word error "
              "rate of 2.9% with a latency of 320 ms. On the multilingual Common Voice benchmark it outperforms a "
              "chunked Transformer baseline by 1.2 points WER on average.")
    assert ("ChunkFormer", "LibriSpeech", "word error rate", "2.9") in _results(ex)
    gains = [r for r in ex.results if r.is_improvement]
    assert [(r.model, r.benchmark, r.value, r.baseline) for r in gains] == [
        ("ChunkFormer", "Common Voice", Decimal("1.2"), "Transformer")]


def test_control_abstract(extract_nlp):
    ex = _run(extract_nlp, "Value-Guided Exploration for Sparse-Reward Control",
              "Exploration remains difficult in continuous control when rewards are sparse. We introduce VGE, an "
              "exploration bonus derived from the disagreement of an ensemble of value functions. Combined with "
              "soft actor-critic, VGE solves 9 of the 12 sparse-reward tasks in the DeepMind Control Suite and "
              "improves the average return over SAC by 35%.")
    labels = {m.label for m in ex.mentions}
    assert "Soft Actor-Critic" in labels and "sparse-reward" not in labels
    assert {m.role for m in ex.mentions if m.label == "VGE"} == {Role.INTRODUCES}
    assert _results(ex) == set()  # "9 of the 12 tasks" is a count
    assert {(r.model, r.value, r.baseline) for r in ex.results if r.is_improvement} == {
        ("VGE", Decimal("35"), "Soft Actor-Critic")}


def test_vision_abstract_pairs_each_score_with_its_own_benchmark(extract_nlp):
    ex = _run(extract_nlp, "Sparse Queries for Open-Vocabulary Detection",
              "We present SQ-DETR, a detector that matches learned queries against text embeddings. On LVIS, "
              "SQ-DETR reaches 31.4 mask AP on rare categories, and on COCO it obtains 47.2 box AP, outperforming "
              "ViLD and RegionCLIP.")
    assert _results(ex) == {("SQ-DETR", "LVIS", "mask AP", "31.4"), ("SQ-DETR", "MS COCO", "box AP", "47.2")}
    assert {m.label: m.role for m in ex.mentions}["RegionCLIP"] is Role.COMPARES_WITH


def test_latex_heavy_abstract(extract_nlp):
    ex = _run(extract_nlp, "Low-Rank Adapters with $\\ell_1$ Sparsity",
              "We propose \\textsc{SparseLoRA}, which adds an $\\ell_1$ penalty $\\lambda \\|A\\|_1$ to the "
              "low-rank adapters of a frozen transformer. On \\emph{GLUE}, \\textsc{SparseLoRA} improves over LoRA "
              "by $+1.3$ points on average, reaching $88.9$ on MNLI and $94.1\\%$ accuracy on SST-2. The weight "
              "$\\lambda = 10^{-3}$ is chosen on the development set.")
    sparse = [m for m in ex.mentions if m.label == "SparseLoRA"]
    assert sparse and all(m.role is Role.INTRODUCES for m in sparse)
    assert {m.derived_from for m in sparse} == {"Low-Rank Adaptation"}
    assert _results(ex) == {("SparseLoRA", "MultiNLI", None, "88.9"), ("SparseLoRA", "SST-2", "accuracy", "94.1")}
    assert {(r.benchmark, str(r.value)) for r in ex.results if r.is_improvement} == {("GLUE", "1.3")}


def test_results_table_written_in_text(extract_nlp):
    ex = _run(extract_nlp, "TinyCoder: Small Models for Code Generation",
              "We train TinyCoder, a 1.3B code model, on permissively licensed repositories. Results (pass@1): "
              "HumanEval: TinyCoder 48.2, CodeLlama-7B 33.5, StarCoder 30.4; MBPP: TinyCoder 52.0, CodeLlama-7B "
              "41.4, StarCoder 43.6.")
    got = {(m, b, v) for m, b, metric, v in _results(ex) if metric == "Pass@1"}
    assert got == {("TinyCoder", "HumanEval", "48.2"), ("Code Llama-7B", "HumanEval", "33.5"),
                   ("StarCoder", "HumanEval", "30.4"), ("TinyCoder", "MBPP", "52.0"),
                   ("Code Llama-7B", "MBPP", "41.4"), ("StarCoder", "MBPP", "43.6")}
    assert "StarCoder 30.4" not in {m.text for m in ex.mentions}
