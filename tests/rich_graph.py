"""A graph that uses every statement shape the builder can emit, built from the seed records.

The extractor in the tree finds few entities and no results, so the seed graph alone leaves most
of the ontology unexercised. Here hand-written extractions of five seed papers (offsets computed
from the real text) go through the builder's own functions: all six entity types, the five
roles, title and abstract mentions, aliases, model families and derived methods, results with
and without a known span, with an integral value and with a part of the wrong type, and the
three kinds of link; one paper also has the bibliographic details a .bib entry gives (kind,
venue, volume, issue, pages, URL, ordered authors with ORCID and arXiv author ids). It is also attributed to an extractor version the pipeline does not
describe itself.
"""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path

from rdflib import Graph

from scholarkg.errors import Problems
from scholarkg.graph.builder import add_all, entity_triples, new_graph, record_triples
from scholarkg.graph.iri import normalise_key
from scholarkg.model import (
    Entity,
    EntityType,
    Extraction,
    Field,
    Link,
    LinkKind,
    Mention,
    Record,
    Result,
    Role,
)
from scholarkg.readers import read_records

SEED = Path(__file__).resolve().parents[1] / "examples" / "maojia-song.txt"
EXTRACTOR = "0.0-rich-fixture"

B, D, MO, ME, T, MT = (EntityType.BENCHMARK, EntityType.DATASET, EntityType.MODEL,
                       EntityType.METHOD, EntityType.TASK, EntityType.METRIC)

ENTITIES = [
    # label, type, aliases, parent label, derived-from label
    ("SMTL", ME, ("Search More, Think Less",), None, None),
    ("BrowseComp", B, (), None, None),
    ("GAIA", B, (), None, None),
    ("MiroThinker", MO, (), None, None),
    ("MiroThinker-v1.0", MO, ("Mirothinker-v1.0",), "MiroThinker", None),
    ("reinforcement learning", ME, (), None, None),
    ("question answering", T, (), None, None),
    ("agentic search", T, (), None, None),
    ("accuracy", MT, (), None, None),
    ("Trust-Score", MT, (), None, None),
    ("Trust-Align", ME, (), None, None),
    ("ASQA", D, (), None, None),
    ("LLaMA", MO, (), None, None),
    ("LLaMA-3-8B", MO, ("LLaMA-3-8b",), "LLaMA", None),
    ("FRONT", ME, (), None, None),
    ("retrieval-augmented generation", ME, ("RAG",), None, None),
    ("GRPO", ME, ("Group Relative Policy Optimization",), None, None),
    ("E-GRPO", ME, ("Entity-aware Group Relative Policy Optimization",), None, "GRPO"),
    ("Agents' Last Exam", B, ("ALE",), None, None),
    # A variant whose family no extraction names: it must not point at an undescribed node.
    ("Qwen3-4B", MO, ("Qwen 3-4B",), "Qwen3", None),
]

# title prefix -> (mentions as (anchor, label, role, field, nth occurrence), results, links)
PLAN = {
    "Search More, Think Less": (
        [
            ("Agentic Search", "agentic search", Role.MENTIONS, Field.TITLE, 0),
            ("Search More, Think Less", "SMTL", Role.INTRODUCES, Field.ABSTRACT, 0),
            ("SMTL", "SMTL", Role.INTRODUCES, Field.ABSTRACT, 0),
            ("question answering", "question answering", Role.MENTIONS, Field.ABSTRACT, 0),
            ("reinforcement learning", "reinforcement learning", Role.USES, Field.ABSTRACT, 0),
            ("BrowseComp", "BrowseComp", Role.EVALUATES_ON, Field.ABSTRACT, 0),
            ("BrowseComp", "BrowseComp", Role.MENTIONS, Field.ABSTRACT, 1),
            ("GAIA", "GAIA", Role.EVALUATES_ON, Field.ABSTRACT, 0),
            ("Mirothinker-v1.0", "MiroThinker-v1.0", Role.COMPARES_WITH, Field.ABSTRACT, 0),
            ("accuracy", "accuracy", Role.MENTIONS, Field.ABSTRACT, 0),
        ],
        [
            # value, evidence, model, benchmark, metric, unit, span known
            (Decimal("48.6"), "BrowseComp (48.6%)", "SMTL", "BrowseComp", None, "%", True),
            (Decimal("75.7"), "GAIA (75.7%)", "SMTL", "GAIA", "accuracy", "%", True),
            (82.0, "Xbench (82.0%)", "SMTL", None, None, "%", True),  # integral float value
            (Decimal("70.7"), "by 70.7%", "SMTL", "BrowseComp", None, "%", False),
            # "question answering" is a task: not linked as the result's model.
            (Decimal("45.9"), "DeepResearch Bench (45.9%)", "question answering", None, None, "%", True),
        ],
        [],
    ),
    "Measuring and Enhancing Trustworthiness": (
        [
            ("Trust-Score", "Trust-Score", Role.INTRODUCES, Field.ABSTRACT, 0),
            ("Trust-Align", "Trust-Align", Role.INTRODUCES, Field.ABSTRACT, 0),
            ("retrieval-augmented generation", "retrieval-augmented generation", Role.USES, Field.ABSTRACT, 0),
            ("RAG", "retrieval-augmented generation", Role.MENTIONS, Field.TITLE, 0),
            ("ASQA", "ASQA", Role.EVALUATES_ON, Field.ABSTRACT, 0),
            ("LLaMA-3-8b", "LLaMA-3-8B", Role.USES, Field.ABSTRACT, 0),
            ("FRONT", "FRONT", Role.COMPARES_WITH, Field.ABSTRACT, 0),
        ],
        [(Decimal("12.56"), "ASQA (up 12.56)", "Trust-Align", "ASQA", "Trust-Score", None, True)],
        [("https://github.com/declare-lab/trust-align", LinkKind.CODE)],
    ),
    "Repurposing Synthetic Data": (
        [
            ("GRPO", "GRPO", Role.COMPARES_WITH, Field.ABSTRACT, 0),
            ("E-GRPO", "E-GRPO", Role.INTRODUCES, Field.ABSTRACT, 0),
            ("Entity-aware Group Relative Policy Optimization", "E-GRPO", Role.INTRODUCES, Field.ABSTRACT, 0),
        ],
        [],
        [],
    ),
    "Agents' Last Exam": (
        [
            ("Agents' Last Exam", "Agents' Last Exam", Role.INTRODUCES, Field.TITLE, 0),
            ("ALE", "Agents' Last Exam", Role.INTRODUCES, Field.ABSTRACT, 0),
        ],
        [],
        [("https://www.onetonline.org/", LinkKind.WEB)],
    ),
    "From Perception to Action": (
        [],
        [],
        [("https://social-ai-studio.github.io/CHAIN/", LinkKind.PROJECT)],
    ),
    "Epistemic Context Learning": (
        [("Qwen 3-4B", "Qwen3-4B", Role.USES, Field.ABSTRACT, 0)],
        [],
        [],
    ),
}


def seed_records() -> list[Record]:
    return list(read_records([SEED], Problems()))


def _span(text: str, anchor: str, nth: int) -> tuple[int, int]:
    start = -1
    for _ in range(nth + 1):
        start = text.find(anchor, start + 1)
        if start < 0:
            raise AssertionError(f"{anchor!r} (occurrence {nth}) is not in the text")
    return start, start + len(anchor)


def extraction_for(record: Record) -> Extraction | None:
    plan = next((p for prefix, p in PLAN.items() if record.title.startswith(prefix)), None)
    if plan is None:
        return None
    mentions, results, links = plan
    by_label = {label: (etype, aliases) for label, etype, aliases, _, _ in ENTITIES}
    out_mentions = []
    for anchor, label, role, field, nth in mentions:
        text = record.title if field is Field.TITLE else record.abstract
        start, end = _span(text, anchor, nth)
        out_mentions.append(Mention(anchor, label, by_label[label][0], start, end, field, role, 0.8))
    out_results = []
    for value, evidence, model, benchmark, metric, unit, known in results:
        start, end = _span(record.abstract, evidence, 0) if known else (0, 0)
        out_results.append(Result(value, evidence, model, benchmark, metric, unit, Field.ABSTRACT, start, end, 0.7))
    out_links = [Link(url, kind) for url, kind in links]
    return Extraction(record.id, tuple(out_mentions), tuple(out_results), tuple(out_links), EXTRACTOR)


def entities() -> dict[str, Entity]:
    out = {}
    for label, etype, aliases, parent, derived in ENTITIES:
        key = normalise_key(label)
        out[key] = Entity(
            key, etype, label, aliases,
            normalise_key(parent) if parent else None,
            normalise_key(derived) if derived else None,
        )
    return out


def rich_graph() -> Graph:
    """The seed papers, five of them with the extractions above, as the builder writes them."""
    from dataclasses import replace

    from scholarkg.graph.bibliographic import entity_scheme_triples
    from scholarkg.model import Author, PaperKind

    known = entities()
    records = seed_records()
    # One record as a bibliography describes it: kind, venue, volume, pages, URL, and an
    # ordered author list with given and family names and author identifiers.
    records[1] = replace(
        records[1], kind=PaperKind.ARTICLE, venue="Journal of Agent Research", volume="12", issue="3",
        pages="100–117", url="https://example.org/papers/42", authors_ordered=True,
        authors=(Author("Maojia Song", "Maojia", "Song", arxiv_id="song_m_1"),
                 Author("Josiah Carberry", "Josiah", "Carberry", orcid="0000-0002-1825-0097")),
    )
    planned = [r for r in records if extraction_for(r) is not None]
    assert len(planned) == len(PLAN), "a planned paper is missing from the seed"
    graph = new_graph()
    for record in records:
        extraction = extraction_for(record) or Extraction(record.id)
        add_all(graph, record_triples(record, extraction, lambda label: known.get(normalise_key(label))))
    for entity in known.values():
        add_all(graph, entity_triples(entity, known=known))
    add_all(graph, entity_scheme_triples())
    return graph
