"""Per-record emission: one record's statements as N-Triples text, and what a build keeps about them.

These functions are the map steps of a build. They take and return plain picklable values so
that Dask workers (see :mod:`scholarkg.bulk`) run the same code as a single-process build.
Statements come from :func:`scholarkg.graph.builder.record_triples` as pyoxigraph terms and are
written as N-Triples lines (``str()`` of a pyoxigraph term is its N-Triples form), sorted, so
a record's text is the same whatever order its statements were made in.

Which named graph holds a statement depends only on its subject:

- the paper, its mentions, results and authorships (IRIs minted from the paper's key) go in the
  record's own graph, :func:`scholarkg.graph.iri.record_graph`; replacing a record replaces
  that graph;
- authors, arXiv categories, web pages and the extractor are shared by many records and go
  in the ``shared`` graph, added once and removed only when no record refers to them;
- entity descriptions, counts, pairs and curation activities go in the ``entities``, ``pairs``
  and ``curations`` graphs (written by :mod:`scholarkg.store.finish` after linking).

So every statement lives in exactly one graph, every subject in one graph, and the union of the
graphs (what queries see) has no duplicates.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from ..graph import iri
from ..graph.terms import DCTERMS
from ..graph.vocab import ID_BASE
from ..model import Entity, Extraction, Record

__all__ = [
    "Emission",
    "Curated",
    "emit_record",
    "emit_batch",
    "extract_batch",
    "labels_of",
    "source_digest",
    "ntriples",
    "as_nquads",
    "SHARED",
    "ENTITIES",
    "PAIRS",
    "CURATIONS",
]

SHARED = str(iri.store_graph("shared"))
ENTITIES = str(iri.store_graph("entities"))
PAIRS = str(iri.store_graph("pairs"))
CURATIONS = str(iri.store_graph("curations"))
_OWNED_TEXT = ("<" + ID_BASE + "mention/", "<" + ID_BASE + "result/", "<" + ID_BASE + "authorship/")
_CREATOR_NODE = DCTERMS.creator
_LINE_END = re.compile(rb" \.\n")


@dataclass(frozen=True)
class Curated:
    """What a curation file changes in one record's statements (picklable, for workers).

    ``provenance`` maps each mention and result to its (predicate, object) IRI pairs;
    ``extra`` holds statements the curation adds about the paper (links without a span,
    the corrections that influenced the paper), as (subject, predicate, object) terms, and
    ``referenced`` the keys of the entities they link to.
    """

    provenance: dict
    extra: tuple = ()
    referenced: tuple[str, ...] = ()  # keys of the entities the extra statements point to


@dataclass(frozen=True)
class Emission:
    """One record's statements and the bookkeeping a build needs to replace them later."""

    key: str
    own: bytes  # sorted N-Triples lines of the record's own graph
    shared: bytes  # sorted N-Triples lines of its share of the shared graph
    digest: str  # of both: equal digests mean an unchanged record
    labels: tuple[str, ...]  # mention and result labels, as given to the linker's resolve
    named: tuple[str, ...]  # keys of the entities the paper names (its mentions)
    referenced: tuple[str, ...]  # keys of every entity its statements point to
    subjects: tuple[str, ...]  # subjects of its statements in the shared graph
    authors: tuple[str, ...]  # IRIs of the paper's authors
    year: int | None

    @property
    def graph(self) -> str:
        return str(iri.record_graph(self.key))

    def nquads(self) -> bytes:
        """The statements as N-Quads, each in its graph."""
        return as_nquads(self.own, self.graph) + as_nquads(self.shared, SHARED)


def as_nquads(lines: bytes, graph: str) -> bytes:
    """N-Triples lines as N-Quads lines in ``graph`` (a literal never holds a raw line break,
    so every ``" .\\n"`` is a statement's end)."""
    return _LINE_END.sub(f" <{graph}> .\n".encode("utf-8"), lines) if lines else b""


def ntriples(triples: Iterable[tuple]) -> list[str]:
    """N-Triples lines of pyoxigraph-term statements (no duplicates, sorted)."""
    return sorted({f"{s} {p} {o} .\n" for s, p, o in triples})


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


def emit_record(record: Record, extraction: Extraction, resolve, curated: Curated | None = None) -> Emission:
    """The statements about ``record`` (see :func:`scholarkg.graph.builder.record_triples`)."""
    import itertools

    from ..graph.builder import record_triples
    from ..graph.cooccurrence import paper_entity_keys

    key = iri.record_key(record)
    paper = f"<{iri.paper(key)}>"
    provenance = None
    extra: tuple = ()
    if curated is not None:
        table = curated.provenance
        provenance = lambda item: table.get(item, ())  # noqa: E731 - a lookup, named by its use
        extra = curated.extra
    own: list[str] = []
    shared: list[str] = []
    subjects: set[str] = set()
    authors: list[str] = []
    last = subject = owned = None
    for s, p, o in itertools.chain(record_triples(record, extraction, resolve, provenance), extra):
        if s is not last:  # a subject's statements come one after another (a mention has 13)
            last, subject = s, str(s)
            owned = subject == paper or subject.startswith(_OWNED_TEXT)
            if not owned:
                subjects.add(subject[1:-1])
        if owned:
            own.append(f"{subject} {p} {o} .\n")
            if p == _CREATOR_NODE:
                authors.append(o.value)
        else:
            shared.append(f"{subject} {p} {o} .\n")
    own_text = "".join(sorted(set(own))).encode("utf-8")
    shared_text = "".join(sorted(set(shared))).encode("utf-8")
    labels = labels_of(extraction)
    named = paper_entity_keys(extraction, resolve)
    referenced = {e.key for e in map(resolve, labels) if e is not None}
    if curated is not None:
        referenced.update(curated.referenced)
    digest = hashlib.blake2b(own_text, digest_size=16)
    digest.update(b"\x00")
    digest.update(shared_text)
    return Emission(
        key,
        own_text,
        shared_text,
        digest.hexdigest(),
        tuple(sorted(labels)),
        tuple(sorted(named)),
        tuple(sorted(referenced)),
        tuple(sorted(subjects)),
        tuple(sorted(set(authors))),
        record.year,
    )


def emit_batch(items: Iterable[tuple], resolution: Mapping[str, Entity | None]) -> list[Emission]:
    """Map step: emit every record of a batch with the labels resolved by the build's linker.

    ``items`` are ``(record, extraction)`` or ``(record, extraction, curated)`` tuples.
    """
    return [emit_record(item[0], item[1], resolution.get, item[2] if len(item) > 2 else None) for item in items]


def extract_batch(records: list[Record], extractor=None) -> list[tuple[Record, Extraction]]:
    """Map step: run the extractor (by default :func:`scholarkg.extract.extract_many`) on a batch."""
    if extractor is None:
        from ..extract import extract_many as extractor
    return list(extractor(records))
