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

The graph is an index, not part of the knowledge graph: each build brings it up to date,
rewriting the entries whose text or rank changed (the manifest keeps a digest of each), and it
is left out of exports, pushes and statement counts; a query over every graph sees it, in its
own graph.
"""

from __future__ import annotations

import hashlib
import itertools
import logging
import re
import unicodedata
from collections import Counter
from collections.abc import Iterable, Iterator
from operator import itemgetter

from ..graph import iri
from ..graph.terms import DCTERMS, RDF, SKG, Literal, node
from ..graph.vocab import ID_BASE, ONTOLOGY_IRI
from .batches import chunks, load_nquads

__all__ = ["SEARCH_GRAPH", "PREFIX_LETTERS", "fold", "search_key", "prefixes", "bucket", "write_search_index"]

log = logging.getLogger(__name__)

SEARCH_GRAPH = str(iri.store_graph("search"))
PREFIX_LETTERS = 3

_NOT_WORD = re.compile(r"[^0-9a-z]+")

_SKG = ONTOLOGY_IRI + "#"
_ENTRY = ID_BASE + "search/"

# explorer node type -> the class that makes a node one (entities: their own class)
_ENTITY_TYPES = ("Benchmark", "Dataset", "Model", "Method", "Task", "Metric")

_INDEXED_CLASSES = frozenset(_SKG + name for name in ("Author", "Paper", *_ENTITY_TYPES))

_TEXTS = f"""
PREFIX skg: <{_SKG}>
PREFIX dcterms: <http://purl.org/dc/terms/>
PREFIX foaf: <http://xmlns.com/foaf/0.1/>
PREFIX skos: <http://www.w3.org/2004/02/skos/core#>
PREFIX rdfs: <http://www.w3.org/2000/01/rdf-schema#>
PREFIX bibo: <http://purl.org/ontology/bibo/>
SELECT DISTINCT ?node ?type ?text WHERE {{
  {{values}}
  {{ ?node a skg:Author ; foaf:name ?text . BIND("Author" AS ?type) }}
  UNION {{ ?node a skg:Paper . BIND("Paper" AS ?type)
           {{ ?node dcterms:title ?text }} UNION {{ ?node skg:arxivId ?text }} UNION {{ ?node bibo:doi ?text }} }}
  UNION {{ VALUES (?class ?type) {{ {" ".join(f'(skg:{t} "{t}")' for t in _ENTITY_TYPES)} }}
           ?node a ?class . {{ ?node rdfs:label ?text }} UNION {{ ?node skos:altLabel ?text }} }}
  UNION {{ {{ ?node skos:notation ?text }} UNION {{ ?node skos:prefLabel ?text }}
           FILTER EXISTS {{ ?paper dcterms:subject ?node }} BIND("Category" AS ?type) }}
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


def _entry_iri(found: str) -> str:
    return _ENTRY + hashlib.sha1(found.encode("utf-8")).hexdigest()[:20]


def _entries(rows: Iterable[tuple[str, str, str]], ranks: Counter) -> Iterator[tuple[str, str]]:
    """``(node, its entry as N-Quads text)`` for the nodes of ``rows`` (node, type, text), which
    come sorted by node; a node none of whose texts has a word gets no entry."""
    graph = str(node(SEARCH_GRAPH))
    for found, group in itertools.groupby(rows, key=itemgetter(0)):
        subject = node(_entry_iri(found))
        lines, kind = [], None
        for _, row_kind, text in group:
            key = search_key(text)
            if key == " ":
                continue
            kind = kind or row_kind
            lines.append(f"{subject} {SKG.searchKey} {Literal(key)} {graph} .\n")
            lines.extend(f"{subject} {SKG.searchPrefix} {Literal(prefix)} {graph} .\n" for prefix in sorted(prefixes(text)))
        if kind is not None:
            lines.append(f"{subject} {SKG.searchFor} {node(found)} {graph} .\n")
            lines.append(f"{subject} {SKG.searchType} {Literal(kind)} {graph} .\n")
            lines.append(f"{subject} {SKG.searchRank} {Literal(ranks.get(found, 0))} {graph} .\n")
            yield found, "".join(lines)


def _ranks(ox, nodes: Iterable[str] | None = None) -> Counter:
    """Papers per author and per category, and each entity's paper count: of every node, or
    of ``nodes`` (IRIs) only."""
    import pyoxigraph

    ranks: Counter = Counter()
    if nodes is None:
        for predicate in (DCTERMS.creator, DCTERMS.subject):
            for quad in ox.quads_for_pattern(None, predicate, None, None):
                ranks[quad.object.value] += 1
        for quad in ox.quads_for_pattern(None, SKG.paperCount, None, None):
            ranks[quad.subject.value] = int(quad.object.value)
        return ranks
    for found in sorted(nodes):
        # each statement counted once, in whichever graph it is (as the loop above reads them),
        # by Oxigraph: a category names thousands of papers
        patterns = [f"{{ ?x {p} <{found}> }}" for p in (DCTERMS.creator, DCTERMS.subject)]
        union = " UNION ".join(patterns + [f"{{ GRAPH ?g {p} }}" for p in patterns])
        count = int(next(iter(ox.query(f"SELECT (COUNT(*) AS ?n) WHERE {{ {union} }}")))[0].value)
        if count:
            ranks[found] = count
        for quad in ox.quads_for_pattern(pyoxigraph.NamedNode(found), SKG.paperCount, None, None):
            ranks[found] = int(quad.object.value)
    return ranks


def _texts(ox, nodes: Iterable[str] | None = None) -> set[tuple[str, str, str]]:
    """(node, type, text) of every node, or of ``nodes`` (IRIs) only."""
    if nodes is None:
        return {(s["node"].value, s["type"].value, s["text"].value)
                for s in ox.query(_TEXTS.replace("{values}", ""), use_default_graph_as_union=True)}
    rows: set[tuple[str, str, str]] = set()
    for part in chunks(sorted(nodes), _VALUES):
        values = "VALUES ?node { " + " ".join(f"<{found}>" for found in part) + " }"
        rows.update((s["node"].value, s["type"].value, s["text"].value)
                    for s in ox.query(_TEXTS.replace("{values}", values), use_default_graph_as_union=True))
    return rows


def _touched_nodes(manifest, limit: int) -> set[str] | None:
    """The nodes the blocks touched since the index was last brought up to date name, in their
    text now and in the text they had, that may have an entry (:data:`_TEXTS`): authors,
    papers and entities (subjects typed so), and the authors and categories a paper names
    (whose ranks count those papers). None past ``limit`` of them. The blocks of entity and
    co-author pairs are left out: they type no such node and name no author or category (a
    build that adds a hundred records to a popular field changes thousands of them)."""
    import pyoxigraph

    from .emit import PAIRS
    from .manifest import unpack_text

    typed, named = RDF.type.value, (DCTERMS.creator.value, DCTERMS.subject.value)
    nodes: set[str] = set()
    texts = manifest.rows(
        "SELECT t.old, b.text FROM search_touched t LEFT JOIN blocks b ON b.graph = t.graph AND b.unit = t.unit "
        "WHERE t.graph != ?", (PAIRS,))
    for old, new in texts:
        for packed in (old, new):
            if packed is None:
                continue
            for quad in pyoxigraph.parse(unpack_text(packed), format=pyoxigraph.RdfFormat.N_TRIPLES):
                predicate = quad.predicate.value
                if predicate == typed and quad.object.value in _INDEXED_CLASSES:
                    nodes.add(quad.subject.value)
                elif predicate in named and type(quad.object) is pyoxigraph.NamedNode:
                    nodes.add(quad.object.value)
        if len(nodes) > limit:
            return None
    return nodes


def _stored_digests(manifest, nodes: set[str]) -> dict[str, str]:
    found: dict[str, str] = {}
    for part in chunks(sorted(nodes), _VALUES):
        found.update(manifest.rows(f"SELECT entry, digest FROM search WHERE entry IN ({','.join('?' * len(part))})", part))
    return found


def _format() -> str:
    """A digest of what makes an entry: the query for the texts and the entry of a sample node
    (folding, buckets, the entry's IRI and properties); an index made otherwise is rewritten."""
    sample = next(_entries([("urn:x:node", "Paper", "Ré-ranking QA-R1 (Études)")], Counter({"urn:x:node": 3})))[1]
    return _digest(_TEXTS + sample)


_PART = 20_000  # entries loaded at once
_VALUES = 1_000  # nodes looked up per query
_CANDIDATES = 2  # past twice as many IRIs named as indexed nodes, the index is rewritten whole
_REWRITE_SHARE = 4  # past 1/4 of the entries changed, the index is rewritten whole


def write_search_index(ox, manifest=None, *, whole: bool = False) -> int:
    """Bring the search index of the open, writable :class:`pyoxigraph.Store` ``ox`` up to date;
    returns the number of statements it loaded.

    With ``manifest`` (a store build's), whose ``search`` table keeps a digest of each node's
    entry and whose ``search_touched`` table the blocks changed since, only the nodes those
    blocks name (before and after the change) are looked at again, and only the entries that
    changed are removed and written again: a build that adds a few records to a large store
    reads and writes a few entries instead of the whole graph. Without it, with ``whole``
    (after a build that stopped half-way), for an index made by another version of this module,
    or when many entries changed, the graph is rewritten whole.
    """
    stored = manifest.one("SELECT COUNT(*) FROM search") if manifest is not None else 0
    if not stored or whole or manifest.get_meta("search format") != _format():
        return _rewrite(ox, manifest)
    nodes = _touched_nodes(manifest, limit=_CANDIDATES * stored)
    if nodes is None:
        return _rewrite(ox, manifest)
    rows = sorted(_texts(ox, nodes))
    ranks = _ranks(ox, {row[0] for row in rows})
    digests = _stored_digests(manifest, nodes)
    current = dict(_entries(rows, ranks))
    gone = [found for found in sorted(digests) if found not in current]
    entries = [(found, text) for found, text in current.items() if digests.get(found) != _digest(text)]
    stale = gone + [found for found, _ in entries if found in digests]
    if max(len(stale), len(entries)) * _REWRITE_SHARE > stored:
        return _rewrite(ox, manifest)
    # Statements go before their digests, and digests are kept only after their statements are
    # in: a build stopped between the two leaves an entry the next build writes again.
    from .finish import remove_subjects

    remove_subjects(ox, SEARCH_GRAPH, (_entry_iri(found) for found in stale))
    with manifest.transaction() as db:
        db.executemany("DELETE FROM search WHERE entry = ?", ((found,) for found in stale))
    _, statements = _load(ox, manifest, iter(entries))
    with manifest.transaction() as db:
        db.execute("DELETE FROM search_touched")
    count = manifest.one("SELECT COUNT(*) FROM search")
    log.info("search index: %s nodes, %s entries written, %s removed", f"{count:,}", f"{len(entries):,}", f"{len(gone):,}")
    return statements


def _rewrite(ox, manifest) -> int:
    ranks = _ranks(ox)
    rows = sorted(_texts(ox))
    ox.remove_graph(node(SEARCH_GRAPH))
    if manifest is not None:
        with manifest.transaction() as db:
            db.execute("DELETE FROM search")
            db.execute("DELETE FROM search_touched")
    count, statements = _load(ox, manifest, _entries(rows, ranks))
    if manifest is not None:
        manifest.set_meta("search format", _format())
    log.info("search index: %s nodes", f"{count:,}")
    return statements


def _load(ox, manifest, entries: Iterable[tuple[str, str]]) -> tuple[int, int]:
    """Load entries a part at a time (the whole index as text would take more memory than the
    rest of a large build), each part's digests kept once it is in; returns the entries and
    their statements."""
    count = statements = 0
    while part := list(itertools.islice(entries, _PART)):
        data = "".join(text for _, text in part).encode("utf-8")
        load_nquads(ox, data)
        if manifest is not None:
            with manifest.transaction() as db:
                db.executemany("INSERT OR REPLACE INTO search VALUES (?, ?)", ((found, _digest(text)) for found, text in part))
        count += len(part)
        statements += data.count(b"\n")
    return count, statements


def _digest(text: str) -> str:
    return hashlib.blake2b(text.encode("utf-8"), digest_size=16).hexdigest()
