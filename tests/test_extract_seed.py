"""End-to-end checks on the seed profile (18 papers of one author)."""

from __future__ import annotations

from decimal import Decimal

from scholarkg.model import EntityType, Field, LinkKind, Role

from extract_support import extract_nlp, paper, seed_linker, seed_pairs  # noqa: F401


def _mentions(extraction, label):
    return [m for m in extraction.mentions if m.label == label]


def test_offsets_are_exact(seed_pairs):
    for record, extraction in seed_pairs:
        for m in extraction.mentions:
            text = record.title if m.field is Field.TITLE else record.abstract
            assert text[m.start : m.end] == m.text, (record.title, m)
        for r in extraction.results:
            text = record.title if r.field is Field.TITLE else record.abstract
            assert str(r.value) in text[r.start : r.end].replace(",", "")


def test_agents_last_exam_is_an_introduced_benchmark_with_alias(seed_pairs):
    _, ex = paper(seed_pairs, "Agents' Last Exam")
    ale = _mentions(ex, "Agents' Last Exam")
    assert ale and all(m.type is EntityType.BENCHMARK for m in ale)
    assert all(m.role is Role.INTRODUCES for m in ale)
    assert any(m.text == "ALE" for m in ale)
    assert any("ALE" in m.aliases for m in ale)


def test_grpo_is_one_method_across_two_papers(seed_linker, seed_pairs):
    entity = seed_linker.resolve("GRPO")
    assert entity.type is EntityType.METHOD
    spelled = {seed_linker.resolve("Group Relative Policy Optimisation"),
               seed_linker.resolve("Group Relative Policy Optimization")}
    assert spelled == {entity}
    papers = {ex.record_id for _, ex in seed_pairs
              if any(seed_linker.resolve(m.label) == entity for m in ex.mentions)}
    assert len(papers) == 2


def test_e_grpo_is_derived_from_grpo(seed_linker):
    e_grpo = seed_linker.resolve("E-GRPO")
    assert e_grpo.derived_from == seed_linker.resolve("GRPO").key


def test_qwen_models_and_family(seed_linker):
    small, large = seed_linker.resolve("Qwen 3-4B"), seed_linker.resolve("Qwen 3-30B")
    assert small.type is large.type is EntityType.MODEL
    assert small.parent == large.parent == seed_linker.resolve("Qwen 3").key
    keys = {e.key for e in seed_linker.entities()}
    assert small.parent in keys and seed_linker.resolve("Qwen 3").parent in keys


def test_browsecomp_is_a_benchmark(seed_linker):
    assert seed_linker.resolve("BrowseComp").type is EntityType.BENCHMARK
    assert seed_linker.resolve("BrowseComp-zh") == seed_linker.resolve("BrowseComp-ZH")


def test_links_have_kinds(seed_pairs):
    links = {link.url: link.kind for _, ex in seed_pairs for link in ex.links}
    assert links["https://github.com/FoundationAgents/AutoEnv"] is LinkKind.CODE
    assert links["https://social-ai-studio.github.io/CHAIN/"] is LinkKind.PROJECT
    assert links["https://github.com/declare-lab/trust-align"] is LinkKind.CODE


def test_search_more_think_less_scores(seed_pairs, seed_linker):
    _, ex = paper(seed_pairs, "Search More, Think Less")
    scores = [r for r in ex.results if not r.is_improvement]
    got = {(seed_linker.resolve(r.benchmark).label, r.value) for r in scores}
    assert got == {("BrowseComp", Decimal("48.6")), ("GAIA", Decimal("75.7")),
                   ("xbench", Decimal("82.0")), ("DeepResearch Bench", Decimal("45.9"))}
    assert {str(r.value) for r in scores} >= {"82.0"}  # as written
    assert {seed_linker.resolve(r.model) for r in scores} == {seed_linker.resolve("SMTL")}
    assert all(r.unit == "%" for r in scores)
    # "reduces the average number of reasoning steps on BrowseComp by 70.7%" is a reduction
    (fewer,) = [r for r in ex.results if r.is_improvement]
    assert (fewer.value, fewer.change.value, seed_linker.resolve(fewer.model)) == (
        Decimal("70.7"), "decrease", seed_linker.resolve("SMTL"))


def test_continual_pretraining_scores(seed_pairs, seed_linker):
    _, ex = paper(seed_pairs, "Scaling Agents via Continual Pre-training")
    got = {(seed_linker.resolve(r.benchmark).label, r.value, r.metric) for r in ex.results}
    assert got == {("BrowseComp-en", Decimal("39.9"), None), ("BrowseComp-ZH", Decimal("43.3"), None),
                   ("Humanity's Last Exam", Decimal("31.5"), "Pass@1")}
    assert {r.model for r in ex.results} == {"AgentFounder-30B"}


def test_introduced_entities(seed_pairs):
    expected = {
        "Agents' Last Exam": "Agents' Last Exam",
        "HarnessDev": "HarnessDev",
        "EdgeBench": "EdgeBench",
        "Foundation Protocol": "Foundation Protocol",
        "Tongyi DeepResearch": "Tongyi DeepResearch",
        "Harnessing Agentic Evolution": "AEvo",
        "Search More, Think Less": "SMTL",
        "Repurposing Synthetic Data": "Entity-aware Group Relative Policy Optimization",
        "From Perception to Action": "Causal Hierarchy of Actions and Interactions",
        "Epistemic Context Learning": "Epistemic Context Learning",
        "Demystifying deep search": "WebDetective",
        "LLMs Can't Handle Peer Pressure": "KAIROS",
        "AutoEnv": "AutoEnv",
        "Scaling Agents": "AgentFounder",
        "Measuring and Enhancing": "Trust-Align",
        "PromptDistill": "PromptDistill",
        "P²-MOPD": "P²-MOPD",
    }
    for title, label in expected.items():
        _, ex = paper(seed_pairs, title)
        roles = {m.role for m in ex.mentions if m.label == label}
        assert Role.INTRODUCES in roles, (title, label, roles)


def test_no_noise_mentions(seed_pairs):
    for _, ex in seed_pairs:
        for m in ex.mentions:
            assert m.text.lower() not in {"our approach", "a model", "the model", "we", "this paper"}
            assert not m.text.replace(".", "").replace("%", "").isdigit()
