"""Counts precomputed at build time, so that queries never need an all-pairs self-join.

Two kinds of statement::

    id:entity/grpo  skg:paperCount 12 .                       # papers that name the entity
    id:pair/…  a skg:EntityPair ; skg:pairMember id:entity/grpo , id:entity/gsm8k ;
        skg:sharedPapers 5 .                                  # papers that name both

A paper "names" an entity when one of its mentions resolves to it (the entities a paper is
linked to by ``skg:introduces``, ``skg:evaluatesOn``, ``skg:uses``, ``skg:comparesWith`` or
``skg:mentions``). Pairs named together by fewer than :data:`MIN_SHARED` papers are left out:
they are most of all pairs and say little.

The in-memory build counts with :func:`cooccurrence_triples`; the persistent store keeps the
per-paper entity sets in its manifest and counts there, emitting the same statements with
:func:`paper_count_triples` and :func:`pair_triples`.

>>> sorted(count_pairs([{"a", "b", "c"}, {"a", "b"}]).items())
[(('a', 'b'), 2)]
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from itertools import combinations

from rdflib import Literal
from rdflib.namespace import RDF, XSD

from ..model import Entity, Extraction
from . import iri
from .vocab import SKG

__all__ = [
    "MIN_SHARED",
    "paper_entity_keys",
    "count_pairs",
    "paper_count_triples",
    "pair_triples",
    "cooccurrence_triples",
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


def paper_count_triples(key: str, papers: int):
    yield iri.entity(key), SKG.paperCount, Literal(papers, datatype=XSD.integer)


def pair_triples(key_a: str, key_b: str, papers: int):
    node = iri.entity_pair(key_a, key_b)
    yield node, RDF.type, SKG.EntityPair
    yield node, SKG.pairMember, iri.entity(key_a)
    yield node, SKG.pairMember, iri.entity(key_b)
    yield node, SKG.sharedPapers, Literal(papers, datatype=XSD.integer)


def cooccurrence_triples(entity_sets: Iterable[Iterable[str]], min_shared: int = MIN_SHARED) -> Iterator:
    """Paper counts of every named entity and the pairs named together by ``min_shared`` papers."""
    sets = [set(keys) for keys in entity_sets]
    counts: Counter[str] = Counter(key for keys in sets for key in keys)
    for key, papers in sorted(counts.items()):
        yield from paper_count_triples(key, papers)
    for (a, b), papers in sorted(count_pairs(sets, min_shared).items()):
        yield from pair_triples(a, b, papers)
