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
these statements with :func:`count_triples`, :func:`pair_triples` and :func:`coauthor_triples`.

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
    "pair_triples",
    "coauthor_triples",
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


def pair_triples(key_a: str, key_b: str, papers: int) -> Iterator[tuple]:
    pair = node(iri.entity_pair(key_a, key_b))
    yield pair, RDF.type, SKG.EntityPair
    yield pair, SKG.pairMember, node(iri.entity(key_a))
    yield pair, SKG.pairMember, node(iri.entity(key_b))
    yield pair, SKG.sharedPapers, Literal(papers)


def coauthor_triples(author_a: str, author_b: str, papers: int) -> Iterator[tuple]:
    """Two authors (their IRIs) and the number of papers they wrote together."""
    pair = node(iri.coauthor_pair(author_a, author_b))
    yield pair, RDF.type, SKG.CoauthorPair
    yield pair, SKG.coauthor, node(author_a)
    yield pair, SKG.coauthor, node(author_b)
    yield pair, SKG.sharedPapers, Literal(papers)
