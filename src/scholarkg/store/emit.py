"""Per-record emission: one record's statements as N-Quads, and what the store keeps about them.

These functions are the map steps of a build. They take and return plain picklable values so
that Dask workers (see :mod:`scholarkg.bulk`) run the same code as a single-process build.

Which named graph holds a statement depends only on its subject:

- the paper, its mentions, results and authorships (IRIs minted from the paper's key) go in the
  record's own graph, :func:`scholarkg.graph.iri.record_graph`; replacing a record replaces
  that graph;
- authors, arXiv categories, web pages and the extractor are shared by many records and go
  in the ``shared`` graph, added once and removed only when no record refers to them;
- entity descriptions and precomputed counts go in the ``entities`` and ``pairs`` graphs
  (written by :mod:`scholarkg.store.build` after linking).

So every statement lives in exactly one graph, and the union of the graphs (what queries
see) has no duplicates.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from ..graph import iri
from ..graph.vocab import ID_BASE
from ..model import Entity, Extraction, Record
from .terms import nquads

__all__ = ["Emission", "emit_record", "emit_batch", "extract_batch", "labels_of", "source_digest", "SHARED", "ENTITIES", "PAIRS"]

SHARED = iri.store_graph("shared")
ENTITIES = iri.store_graph("entities")
PAIRS = iri.store_graph("pairs")
_OWNED = (ID_BASE + "mention/", ID_BASE + "result/", ID_BASE + "authorship/")


@dataclass(frozen=True)
class Emission:
    """One record's statements and the bookkeeping the store needs to replace them later."""

    key: str
    nquads: bytes  # sorted N-Quads lines: the record's graph and its share of the shared graph
    digest: str  # of ``nquads``: equal digests mean an unchanged record
    labels: tuple[str, ...]  # mention and result labels, as given to the linker's resolve
    named: tuple[str, ...]  # keys of the entities the paper names (its mentions)
    referenced: tuple[str, ...]  # keys of every entity its statements point to
    shared: tuple[str, ...]  # subjects of its statements in the shared graph


def labels_of(extraction: Extraction) -> set[str]:
    """Every label of ``extraction`` that the builder resolves to an entity."""
    labels = {m.label for m in extraction.mentions}
    for r in extraction.results:
        labels.update(x for x in (r.model, r.benchmark, r.metric, r.baseline) if x)
    return labels


def source_digest(record: Record, extractor: str) -> str:
    """Digest of a record's content (not where it was read from) and the extractor version."""
    fields = [f for f in record.__slots__ if f != "source"]
    text = repr([extractor] + [getattr(record, f) for f in fields])
    return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=16).hexdigest()


def emit_record(record: Record, extraction: Extraction, resolve) -> Emission:
    """The statements about ``record`` (see :func:`scholarkg.graph.builder.record_triples`)."""
    from ..graph.builder import record_triples
    from ..graph.cooccurrence import paper_entity_keys

    key = iri.record_key(record)
    paper = str(iri.paper(key))
    own = iri.record_graph(key)
    shared: set[str] = set()

    def graph_of(subject) -> str:
        text = str(subject)  # rdflib's URIRef never equals a str
        if text == paper or text.startswith(_OWNED):
            return own
        shared.add(text)
        return SHARED

    lines = sorted(set(nquads(record_triples(record, extraction, resolve), graph_of)))
    data = ("\n".join(lines) + "\n").encode("utf-8")
    labels = labels_of(extraction)
    named = paper_entity_keys(extraction, resolve)
    referenced = {e.key for e in map(resolve, labels) if e is not None}
    return Emission(
        key,
        data,
        hashlib.blake2b(data, digest_size=16).hexdigest(),
        tuple(sorted(labels)),
        tuple(sorted(named)),
        tuple(sorted(referenced)),
        tuple(sorted(shared)),
    )


def emit_batch(pairs: Iterable[tuple[Record, Extraction]], resolution: Mapping[str, Entity | None]) -> list[Emission]:
    """Map step: emit every record of a batch with the labels resolved by the global linker."""
    return [emit_record(record, extraction, resolution.get) for record, extraction in pairs]


def extract_batch(records: list[Record], extractor=None) -> list[tuple[Record, Extraction]]:
    """Map step: run the extractor (by default :func:`scholarkg.extract.extract_many`) on a batch."""
    if extractor is None:
        from ..extract import extract_many as extractor
    return list(extractor(records))
