"""The search index of a store: what the served explorer's search box looks things up in.

Made at the end of every store build, in a named graph of its own (:data:`SEARCH_GRAPH`),
from the names people type: authors' names, papers' titles, arXiv ids and DOIs, entities'
labels and aliases, categories' codes and names. Each node gets an entry of its own (so that
``DESCRIBE`` of the node says nothing of the index)::

    id:search/…  skg:searchFor <node> ;
        skg:searchKey " graph neural networks for molecules" ;   # each text folded, after a space
        skg:searchPrefix "gra" , "neu" , "net" , "mol" , ... ;   # first three letters of each word
        skg:searchType "Paper" ;                                 # the explorer's node type
        skg:searchRank 12 .                                      # papers linked to it (0 for papers)

A query finds the bucket of its first word's prefix through the store's predicate-object
index, then keeps the keys that contain `` <what was typed>`` (a word prefix, or a phrase of
them): the cost is the size of one bucket, not of the store, which a ``REGEX`` or
``CONTAINS`` over every label would be. Words of one or two letters are their own bucket,
so ``QA`` and ``R1`` are found when typed whole.

The graph is an index, not part of the knowledge graph: it is rewritten whole at each build
(a few seconds per million statements) and left out of exports, pushes and statement counts;
a query over every graph sees it, in its own graph.
"""

from __future__ import annotations

import hashlib
import itertools
import logging
import re
import unicodedata
from collections import Counter
from collections.abc import Iterable, Iterator

from ..graph import iri
from ..graph.terms import DCTERMS, SKG, Literal, node
from ..graph.vocab import ID_BASE, ONTOLOGY_IRI

__all__ = ["SEARCH_GRAPH", "PREFIX_LETTERS", "fold", "search_key", "prefixes", "bucket", "write_search_index"]

log = logging.getLogger(__name__)

SEARCH_GRAPH = str(iri.store_graph("search"))
PREFIX_LETTERS = 3

_NOT_WORD = re.compile(r"[^0-9a-z]+")

_SKG = ONTOLOGY_IRI + "#"
_ENTRY = ID_BASE + "search/"

# explorer node type -> the class that makes a node one (entities: their own class)
_ENTITY_TYPES = ("Benchmark", "Dataset", "Model", "Method", "Task", "Metric")

_TEXTS = f"""
PREFIX skg: <{_SKG}>
PREFIX dcterms: <http://purl.org/dc/terms/>
PREFIX foaf: <http://xmlns.com/foaf/0.1/>
PREFIX skos: <http://www.w3.org/2004/02/skos/core#>
PREFIX rdfs: <http://www.w3.org/2000/01/rdf-schema#>
PREFIX bibo: <http://purl.org/ontology/bibo/>
SELECT DISTINCT ?node ?type ?text WHERE {{
  {{ ?node a skg:Author ; foaf:name ?text . BIND("Author" AS ?type) }}
  UNION {{ ?node a skg:Paper . BIND("Paper" AS ?type)
           {{ ?node dcterms:title ?text }} UNION {{ ?node skg:arxivId ?text }} UNION {{ ?node bibo:doi ?text }} }}
  UNION {{ VALUES (?class ?type) {{ {" ".join(f'(skg:{t} "{t}")' for t in _ENTITY_TYPES)} }}
           ?node a ?class . {{ ?node rdfs:label ?text }} UNION {{ ?node skos:altLabel ?text }} }}
  UNION {{ ?paper dcterms:subject ?node . BIND("Category" AS ?type)
           {{ ?node skos:notation ?text }} UNION {{ ?node skos:prefLabel ?text }} }}
}}
"""


def fold(text: str) -> str:
    """``text`` as the index compares it: case and accents folded, words of letters and digits
    joined by single spaces (``"BrowseComp-ZH"`` -> ``"browsecomp zh"``)."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    plain = "".join(c for c in decomposed if not unicodedata.combining(c))
    return " ".join(_NOT_WORD.sub(" ", plain).split())


def search_key(text: str) -> str:
    """The key stored for ``text``: its folded words after one leading space."""
    return " " + fold(text)


def prefixes(text: str) -> set[str]:
    """The buckets a text is in: the first letters of each of its words."""
    return {word[:PREFIX_LETTERS] for word in fold(text).split()}


def bucket(query: str) -> str | None:
    """The bucket a typed query is looked up in (its first word's first letters), or None."""
    words = fold(query).split()
    return words[0][:PREFIX_LETTERS] if words else None


def _lines(rows: Iterable[tuple[str, str, str]], ranks: Counter) -> Iterator[str]:
    graph = str(node(SEARCH_GRAPH))
    seen_nodes: set[str] = set()
    for found, kind, text in rows:
        key = search_key(text)
        if key == " ":
            continue
        subject = node(_ENTRY + hashlib.sha1(found.encode("utf-8")).hexdigest()[:20])
        yield f"{subject} {SKG.searchKey} {Literal(key)} {graph} ."
        for prefix in sorted(prefixes(text)):
            yield f"{subject} {SKG.searchPrefix} {Literal(prefix)} {graph} ."
        if found not in seen_nodes:
            seen_nodes.add(found)
            yield f"{subject} {SKG.searchFor} {node(found)} {graph} ."
            yield f"{subject} {SKG.searchType} {Literal(kind)} {graph} ."
            yield f"{subject} {SKG.searchRank} {Literal(ranks.get(found, 0))} {graph} ."


def _ranks(ox) -> Counter:
    """Papers per author and per category, and each entity's paper count."""
    ranks: Counter = Counter()
    for predicate in (DCTERMS.creator, DCTERMS.subject):
        for quad in ox.quads_for_pattern(None, predicate, None, None):
            ranks[quad.object.value] += 1
    for quad in ox.quads_for_pattern(None, SKG.paperCount, None, None):
        ranks[quad.subject.value] = int(quad.object.value)
    return ranks


_LOAD_LINES = 200_000  # index statements loaded at once


def write_search_index(ox) -> int:
    """Rewrite the search index of the open, writable :class:`pyoxigraph.Store` ``ox``; returns
    the number of nodes indexed."""
    import pyoxigraph as ox_

    ox.remove_graph(node(SEARCH_GRAPH))
    ranks = _ranks(ox)
    rows = sorted({(s["node"].value, s["type"].value, s["text"].value)
                   for s in ox.query(_TEXTS, use_default_graph_as_union=True)})
    nodes = {row[0] for row in rows}
    # Loaded a part at a time: the whole index as text would take more memory than the rest
    # of a large build (repeated lines are one statement in the store).
    lines = _lines(rows, ranks)
    while part := list(itertools.islice(lines, _LOAD_LINES)):
        ox.bulk_load(("\n".join(part) + "\n").encode("utf-8"), ox_.RdfFormat.N_QUADS)
    log.info("search index: %s nodes", f"{len(nodes):,}")
    return len(nodes)
