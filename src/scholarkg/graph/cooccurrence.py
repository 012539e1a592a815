"""Counts precomputed at build time, so that queries never need an all-pairs self-join.

Statements (prefixes as in :data:`~scholarkg.graph.vocab.PREFIXES`)::

    id:entity/grpo  skg:paperCount 12 ; skg:firstYear 2024 ; skg:latestYear 2026 .
    id:author/ada-lovelace  skg:paperCount 3 ; skg:firstYear 2025 ; skg:latestYear 2026 .
    id:pair/…  a skg:EntityPair ; skg:pairMember id:entity/grpo , id:entity/gsm8k ;
        skg:sharedPapers 5 .                                  # papers that name both
    id:coauthors/…  a skg:CoauthorPair ; skg:coauthor id:author/a , id:author/b ;
        skg:sharedPapers 2 .                                  # papers both wrote

A paper "names" an entity when one of its mentions resolves to it (the entities a paper is
linked to by ``skg:introduces``, ``skg:evaluatesOn``, ``skg:uses``, ``skg:comparesWith`` or
``skg:mentions``). Entity pairs named together by fewer than :data:`MIN_SHARED` papers are left
out: they are most of all pairs and say little. Every pair of co-authors is kept.

Both builds count in the build's manifest with SQL (:mod:`scholarkg.store.finish`) and emit
these statements with :func:`count_triples`, :func:`pair_ntriples` and :func:`coauthor_ntriples`.

>>> sorted(count_pairs([{"a", "b", "c"}, {"a", "b"}]).items())
[(('a', 'b'), 2)]
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from itertools import combinations

from ..model import Entity, Extraction
from . import iri
from .terms import RDF, SKG, Literal, node

__all__ = [
    "MIN_SHARED",
    "paper_entity_keys",
    "count_pairs",
    "count_triples",
    "paper_count_triples",
    "pair_ntriples",
    "coauthor_ntriples",
]

MIN_SHARED = 2


def paper_entity_keys(extraction: Extraction, resolve: Callable[[str], Entity | None]) -> set[str]:
    """Keys of the entities a paper's mentions resolve to."""
    keys = set()
    for mention in extraction.mentions:
        entity = resolve(mention.label)
        if entity is not None:
            keys.add(entity.key)
    return keys


def count_pairs(entity_sets: Iterable[Iterable[str]], min_shared: int = MIN_SHARED) -> dict[tuple[str, str], int]:
    """Papers naming both entities of each pair (keys sorted within the pair), at least ``min_shared``."""
    pairs: Counter[tuple[str, str]] = Counter()
    for keys in entity_sets:
        pairs.update(combinations(sorted(set(keys)), 2))
    return {pair: n for pair, n in pairs.items() if n >= min_shared}


def count_triples(subject, papers: int, first: int | None = None, latest: int | None = None) -> Iterator[tuple]:
    """How many papers name an entity (or an author wrote), and their first and latest year."""
    subject = node(subject)
    yield subject, SKG.paperCount, Literal(papers)
    if first is not None:
        yield subject, SKG.firstYear, Literal(first)
    if latest is not None:
        yield subject, SKG.latestYear, Literal(latest)


def paper_count_triples(key: str, papers: int, first: int | None = None, latest: int | None = None):
    """:func:`count_triples` of the entity ``key``."""
    return count_triples(iri.entity(key), papers, first, latest)


def pair_ntriples(key_a: str, key_b: str, papers: int) -> tuple[str, bytes]:
    """The IRI of the pair of entities ``key_a`` and ``key_b`` named together by ``papers``
    papers, and its statements as sorted N-Triples lines."""
    pair = str(iri.entity_pair(key_a, key_b))
    return pair, _pair_block(pair, _ENTITY_PAIR, _PAIR_MEMBER, str(iri.entity(key_a)), str(iri.entity(key_b)), papers)


def coauthor_ntriples(author_a: str, author_b: str, papers: int) -> tuple[str, bytes]:
    """The IRI of the pair of authors ``author_a`` and ``author_b`` (their IRIs) who wrote
    ``papers`` papers together, and its statements as sorted N-Triples lines."""
    pair = str(iri.coauthor_pair(author_a, author_b))
    return pair, _pair_block(pair, _COAUTHOR_PAIR, _COAUTHOR, author_a, author_b, papers)


_TYPE = str(RDF.type)
_ENTITY_PAIR, _PAIR_MEMBER = str(SKG.EntityPair), str(SKG.pairMember)
_COAUTHOR_PAIR, _COAUTHOR = str(SKG.CoauthorPair), str(SKG.coauthor)
_SHARED = str(SKG.sharedPapers)


def _pair_block(pair: str, kind: str, member: str, a: str, b: str, papers: int) -> bytes:
    """A pair's four statements, written from their parts' N-Triples forms rather than through
    terms: a build writes tens of thousands of pairs, and making terms of each and writing them
    out again cost nearly four times as much. The lines are sorted, as the snapshot keeps every block."""
    subject = f"<{pair}> "
    lines = sorted((
        f"{subject}{_TYPE} {kind} .\n",
        f"{subject}{member} {node(a)} .\n",
        f"{subject}{member} {node(b)} .\n",
        f"{subject}{_SHARED} {Literal(int(papers))} .\n",
    ))
    return "".join(lines).encode("utf-8")
