"""Helpers for the curation and profile tests: small inputs and a stand-in extractor whose
output the tests choose, so they do not depend on what the real extractor finds."""

from __future__ import annotations

import json
import re
from decimal import Decimal
from pathlib import Path

from scholarkg.model import EntityKind, EntityType, Extraction, Field, Mention, Result, Role

PAPERS = [
    {
        "title": "Agents' Last Exam",
        "abstract": "This paper introduces Agents' Last Exam (ALE), a benchmark of long tasks. "
                    "We evaluate GPT-4o and Qwen3 on ALE and on BrowseComp. GPT-4o reaches 12.5% on ALE.",
        "year": 2026, "authors": ["Maojia Song"], "categories": ["cs.AI"],
    },
    {
        "title": "Tongyi DeepResearch Technical Report",
        "abstract": "Tongyi DeepResearch reaches 43.4 on BrowseComp and 46.7 on BrowseComp ZH. "
                    "It is trained with GRPO.",
        "year": 2025, "authors": ["Maojia Song"], "categories": ["cs.CL"],
    },
    {
        "title": "Harnessing Agentic Evolution",
        "abstract": "We use GRPO and DPO to evolve agents, and compare with ReAct.",
        "year": 2026, "authors": ["Maojia Song"], "categories": ["cs.AI", "cs.CL"],
    },
]

# name -> (type, role): what the stand-in extractor finds wherever the name occurs.
V1 = {
    "GRPO": (EntityType.METHOD, Role.USES),
    "DPO": (EntityType.METHOD, Role.USES),
    "BrowseComp": (EntityType.BENCHMARK, Role.EVALUATES_ON),
    "BrowseComp ZH": (EntityType.BENCHMARK, Role.EVALUATES_ON),
    "GPT-4o": (EntityType.MODEL, Role.EVALUATES_ON),
    "ReAct": (EntityType.METHOD, Role.COMPARES_WITH),
}
# A later extractor: finds ALE on its own, misses DPO, types GPT-4o differently.
V2 = {**{k: v for k, v in V1.items() if k != "DPO"}, "ALE": (EntityType.DATASET, Role.MENTIONS),
      "GPT-4o": (EntityType.METHOD, Role.USES), "Qwen3": (EntityType.MODEL, Role.EVALUATES_ON)}
# title -> results: (model, benchmark, value text)
RESULTS = {"Tongyi DeepResearch Technical Report": [("Tongyi DeepResearch", "BrowseComp", "43.4"),
                                                     ("Tongyi DeepResearch", "BrowseComp ZH", "46.7")]}


def write_inputs(folder: Path, papers=PAPERS, name: str = "papers.jsonl") -> Path:
    path = folder / name
    path.write_text("".join(json.dumps(p) + "\n" for p in papers), encoding="utf-8")
    return path


def stand_in(table: dict, version: str, results: dict = RESULTS):
    """An ``extract_many`` that finds the names in ``table`` (whole words) and the ``results``."""

    def extract_many(records, nlp=None, batch_size=64):
        for record in records:
            mentions = []
            for fld, text in ((Field.TITLE, record.title), (Field.ABSTRACT, record.abstract)):
                for name, (etype, role) in table.items():
                    for m in re.finditer(r"(?<![\w-])" + re.escape(name) + r"(?![\w-]| ZH)", text):
                        kind = EntityKind.CONCEPT if name == name.lower() else EntityKind.NAME
                        mentions.append(Mention(name, name, etype, m.start(), m.end(), fld, role, 0.8, kind=kind))
            found = []
            for model, benchmark, value in results.get(record.title, []):
                start = record.abstract.find(value)
                if start >= 0 and benchmark in table:
                    found.append(Result(Decimal(value), record.abstract.split(". ")[0], model, benchmark, None, None,
                                        Field.ABSTRACT, start, start + len(value), 0.7))
            yield record, Extraction(record.id, tuple(mentions), tuple(found), (), version)

    return extract_many


def use_extractor(monkeypatch, table: dict, version: str, results: dict = RESULTS) -> None:
    """Make builds use the stand-in; ``table`` values may be enum members or their values."""
    import scholarkg.extract

    table = {name: (EntityType(t), Role(r)) for name, (t, r) in table.items()}
    monkeypatch.setattr(scholarkg.extract, "extract_many", stand_in(table, version, results))
    monkeypatch.setattr(scholarkg.extract, "EXTRACTOR_VERSION", version)
