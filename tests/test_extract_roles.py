"""Roles: introduces / evaluatesOn / comparesWith / uses / mentions."""

from __future__ import annotations

from extract_support import extract_nlp  # noqa: F401

from scholarkg.extract import extract
from scholarkg.model import Record, Role


def _roles(nlp, abstract, title="A study"):
    ex = extract(Record(id="r", title=title, abstract=abstract), nlp)
    out: dict[str, Role] = {}
    for m in ex.mentions:
        if m.label not in out or m.role.rank < out[m.label].rank:
            out[m.label] = m.role
    return out


def test_we_propose_introduces(extract_nlp):
    roles = _roles(extract_nlp, "We propose ZetaNet, a network for parsing. ZetaNet outperforms BERT on SQuAD.")
    assert roles["ZetaNet"] is Role.INTRODUCES
    assert roles["BERT"] is Role.COMPARES_WITH
    assert roles["SQuAD"] is Role.EVALUATES_ON


def test_title_subject_introduces(extract_nlp):
    roles = _roles(extract_nlp, "It plans with search and is evaluated on GSM8K.", title="PlanForge: Planning with Search")
    assert roles["PlanForge"] is Role.INTRODUCES
    assert roles["GSM8K"] is Role.EVALUATES_ON


def test_uses(extract_nlp):
    roles = _roles(extract_nlp, "We fine-tune models using LoRA and train them via GRPO.")
    assert roles["Low-Rank Adaptation"] is Role.USES
    assert roles["Group Relative Policy Optimization"] is Role.USES


def test_a_name_that_modifies_what_is_proposed_is_used(extract_nlp):
    roles = _roles(extract_nlp, "In this work we propose a new ResNet-like encoder and a BERT-based reranker for "
                                "long documents.")
    assert roles["ResNet"] is Role.USES and roles["BERT"] is Role.USES


def test_objects_of_prepositions_are_not_introduced(extract_nlp):
    roles = _roles(extract_nlp, "We introduce Trust-Score, a metric that evaluates the trustworthiness of LLMs.")
    assert roles["Trust-Score"] is Role.INTRODUCES
    assert roles["large language model"] is not Role.INTRODUCES


def test_generic_concepts_are_never_introduced(extract_nlp):
    roles = _roles(extract_nlp, "We present in-context learning baselines.")
    assert roles["in-context learning"] is not Role.INTRODUCES


def test_prior_methods_are_compared(extract_nlp):
    roles = _roles(extract_nlp, "Unlike previous methods such as H2O and SnapKV, our method keeps all tokens.")
    assert roles["H2O"] is Role.COMPARES_WITH
    assert roles["SnapKV"] is Role.COMPARES_WITH


def test_naming_verbs_introduce(extract_nlp):
    assert _roles(extract_nlp, "We name this dataset TinyDocs.")["TinyDocs"] is Role.INTRODUCES
    assert _roles(extract_nlp, "A new retriever, dubbed SparkRet, is trained on MS MARCO.")["SparkRet"] is Role.INTRODUCES
    assert _roles(extract_nlp, "We call our method FlowTune.")["FlowTune"] is Role.INTRODUCES


def test_cues_after_the_name_introduce(extract_nlp):
    assert _roles(extract_nlp, "We build KiloBench, which we release to the community.")["KiloBench"] is Role.INTRODUCES
    assert _roles(extract_nlp, "Results for QuarkNet (ours) are shown on GSM8K.")["QuarkNet"] is Role.INTRODUCES
    assert _roles(extract_nlp, "We use BERT, which we fine-tune on SQuAD.")["BERT"] is Role.USES


def test_a_known_name_is_introduced_when_the_text_says_so(extract_nlp):
    assert _roles(extract_nlp, "We introduce GAIA, a benchmark for general assistants.")["GAIA"] is Role.INTRODUCES


def test_what_a_new_system_is_built_on_is_used(extract_nlp):
    text = ("This paper presents KiteDet, a compact detector built on PlankNet-3, and a tracker that builds "
            "upon FooTrack.")
    ex = extract(Record(id="b", title="T", abstract=text), extract_nlp)
    roles = {m.text: m.role.value for m in ex.mentions}
    assert roles.get("PlankNet-3") == "uses" and roles.get("FooTrack") == "uses", roles
