"""Helpers for the store tests: small JSON-lines corpora, a tiny extractor and an acronym linker.

The store tests pass this extractor to the builds they compare, so what they check (what is
added, replaced, relinked) does not move when the project's extractor improves.
"""

from __future__ import annotations

import contextlib
import json
import re
import subprocess
import time
import urllib.request
from pathlib import Path

from scholarkg.graph.iri import normalise_key
from scholarkg.model import Entity, EntityType, Extraction, Field, Mention, Role

NAMES = {"GRPO": EntityType.METHOD, "PPO": EntityType.METHOD, "MMLU": EntityType.BENCHMARK, "ALE": EntityType.BENCHMARK}
_NAME = re.compile(r"\b(" + "|".join(NAMES) + r")\b")
_DEFINITION = re.compile(r"([A-Z][a-z']+(?: [A-Z][a-z']+)+) \(([A-Z]{2,})\)")


def record(n: int, abstract: str, authors=("Ada Lovelace",), **extra) -> dict:
    return {"arxiv_id": f"2501.{n:05d}", "title": f"Paper number {n}", "abstract": abstract,
            "year": 2025, "categories": ["cs.CL"], "authors": list(authors), **extra}


def write_jsonl(path: Path, records: list[dict]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return path


def extract(records, nlp=None):
    """Finds the names in NAMES and definitions like 'Agents Last Exam (ALE)' in abstracts."""
    for r in records:
        mentions = []
        for m in _DEFINITION.finditer(r.abstract):
            mentions.append(Mention(m.group(1), m.group(1), EntityType.BENCHMARK, m.start(1), m.end(1),
                                    Field.ABSTRACT, Role.INTRODUCES, 0.9, (m.group(2),)))
        for m in _NAME.finditer(r.abstract):
            if r.abstract[m.start() - 1: m.start()] != "(":
                mentions.append(Mention(m.group(1), m.group(1), NAMES[m.group(1)], m.start(), m.end(),
                                        Field.ABSTRACT, Role.USES, 0.8))
        yield r, Extraction(r.id, tuple(mentions), (), (), "test-extractor-1")


class AcronymLinker:
    """Merges an acronym with the long form some record defines it by, across records."""

    def __init__(self):
        self.known: dict[str, Entity] = {}
        self.alias: dict[str, str] = {}

    def add(self, extraction: Extraction) -> None:
        for m in extraction.mentions:
            key = normalise_key(m.label)
            self.known.setdefault(key, Entity(key, m.type, m.label, tuple(m.aliases)))
            for a in m.aliases:
                self.alias[normalise_key(a)] = key

    def get(self, label: str) -> Entity | None:
        key = normalise_key(label)
        return self.known.get(self.alias.get(key, key))

    def resolve(self, label: str) -> Entity:
        entity = self.get(label)
        if entity is None:
            raise KeyError(label)
        return entity

    def entities(self) -> list[Entity]:
        return sorted(self.known.values(), key=lambda e: e.key)

    def state(self):
        return dict(self.known), dict(self.alias)

    @classmethod
    def from_state(cls, state):
        linker = cls()
        linker.known, linker.alias = (dict(part) for part in state)
        return linker


def store_graph(path):
    from scholarkg.store import GraphStore
    from scholarkg.store import store_graph as copy

    with GraphStore(path) as store:
        return copy(store)


# Statements of the knowledge graph in a store: every graph but the search index.
_NOT_INDEX = "MINUS { GRAPH <https://w3id.org/scholarkg/id/graph/search> { ?s ?p ?o } }"
GRAPH_COUNT = "SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o " + _NOT_INDEX + " }"
GRAPH_CONSTRUCT = "CONSTRUCT { ?s ?p ?o } WHERE { ?s ?p ?o " + _NOT_INDEX + " }"


def exported(path, fmt: str) -> bytes:
    """What ``export --store`` writes of the store at ``path`` in format ``fmt``."""
    import io

    from scholarkg.store import GraphStore, export_store

    buffer = io.BytesIO()
    with GraphStore(path) as store:
        export_store(store, fmt, buffer)
    return buffer.getvalue()


def quads(path) -> set[str]:
    """Every statement of a store with its graph, as N-Quads lines."""
    return set(exported(path, "nquads").decode("utf-8").splitlines())


def comparable(names, rows, query_text: str) -> list[tuple]:
    """Rows in a form to compare across engines: sorted, and GROUP_CONCAT values as sorted parts
    (SPARQL leaves row order among ties and the order inside GROUP_CONCAT to the engine)."""
    concatenated = set(re.findall(r"GROUP_CONCAT\(.*?\)\s+AS\s+\?(\w+)", query_text))
    out = []
    for row in rows:
        out.append(tuple(" | ".join(sorted(str(v).split(" | "))) if n in concatenated and v is not None else repr(v)
                         for n, v in zip(names, row)))
    return sorted(out)


def oxigraph_command() -> str:
    """Path of the Oxigraph server program (the ``oxigraph`` package), used as a remote SPARQL server."""
    import shutil
    import sys

    beside = Path(sys.executable).with_name("oxigraph")
    found = str(beside) if beside.is_file() else shutil.which("oxigraph")
    if not found:
        raise AssertionError("the oxigraph server program is not installed (pip install oxigraph)")
    return found


@contextlib.contextmanager
def running(command: list[str], ready_url: str, timeout: float = 60):
    """Run a server process until the block ends; wait until ``ready_url`` answers first."""
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + timeout
        while True:
            if process.poll() is not None:
                raise AssertionError(f"{command[:3]} exited at start: {process.stderr.read().decode()[-500:]}")
            try:
                urllib.request.urlopen(ready_url, timeout=5).close()
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise AssertionError(f"{command[:3]} did not answer within {timeout:g} s") from None
                time.sleep(0.2)
        yield process
    finally:
        process.terminate()
        try:
            process.wait(20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        process.stderr.close()
