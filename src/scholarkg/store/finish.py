"""The last step of a store build: what depends on all records at once.

- entity descriptions (:func:`scholarkg.graph.builder.entity_triples`) of every entity a
  record refers to, with families and base methods, and ``skg:paperCount``;
- co-occurring pairs (``skg:EntityPair``), counted in the manifest with one SQL join;
- the extractor's description, and removal of shared nodes (authors, web pages, ...) that no
  record refers to any more.

Each part is rewritten only where it changed, with the same protocol as records: the
manifest forgets the old digest, the graph changes, the manifest records the new digest.
"""

from __future__ import annotations

import hashlib
import itertools
from collections.abc import Callable, Iterable

from ..graph import iri
from ..graph.cooccurrence import MIN_SHARED, pair_triples, paper_count_triples
from .emit import ENTITIES, PAIRS, SHARED
from .terms import nquads

__all__ = ["write_aggregates", "remove_subjects"]

_CHUNK = 5000


def remove_subjects(ox, graph, subjects: Iterable[str]) -> None:
    """Remove every statement of ``graph`` whose subject is one of ``subjects`` (IRIs)."""
    import pyoxigraph

    node = pyoxigraph.NamedNode(str(graph))
    for subject in subjects:
        for quad in list(ox.quads_for_pattern(pyoxigraph.NamedNode(subject), None, None, node)):
            ox.remove(quad)


def _lines(triples, graph) -> bytes:
    return ("\n".join(sorted(set(nquads(triples, lambda _subject: graph)))) + "\n").encode("utf-8")


def write_aggregates(store, linker, agents: set[str], load: Callable[[bytes], None], progress) -> int:
    """Bring entities, pairs and shared nodes up to date; returns the entity descriptions written.

    ``agents`` are the versions of the extractors that made the extractions in the store.
    """
    written = _entities(store, linker, load, progress)
    _pairs(store, load)
    _shared(store, agents, load)
    return written


def _entities(store, linker, load, progress) -> int:
    from ..graph.builder import entity_triples
    from ..pipeline import described_keys

    m = store.manifest
    by_key = {e.key: e for e in linker.entities()}
    used = {key for (key,) in m.rows("SELECT DISTINCT entity FROM record_entities") if key in by_key}
    keep = described_keys(by_key, used)
    counts = dict(m.rows("SELECT entity, COUNT(*) FROM record_entities WHERE named = 1 GROUP BY entity"))
    stored = dict(m.rows("SELECT key, digest FROM entities"))
    gone = sorted(set(stored) - keep)
    written = 0
    for chunk in _chunks(sorted(keep), _CHUNK):
        rows, parts = [], []
        for key in chunk:
            triples = itertools.chain(entity_triples(by_key[key]), paper_count_triples(key, counts[key]) if key in counts else ())
            data = _lines(triples, ENTITIES)
            digest = hashlib.blake2b(data, digest_size=16).hexdigest()
            if stored.get(key) != digest:
                rows.append((key, digest))
                parts.append(data)
        _replace(store, "DELETE FROM entities WHERE key = ?", "INSERT INTO entities VALUES (?, ?)",
                 ENTITIES, [k for k, _ in rows if k in stored], rows, b"".join(parts), load, iri.entity)
        written += len(rows)
        progress("entities", written, None)
    _replace(store, "DELETE FROM entities WHERE key = ?", None, ENTITIES, gone, [], b"", load, iri.entity)
    if keep:
        from ..graph.bibliographic import entity_scheme_triples

        load(_lines(entity_scheme_triples(), ENTITIES))  # the scheme the entities are in (loading it again changes nothing)
    return written


def _pairs(store, load) -> None:
    db = store.manifest.db
    db.execute("DROP TABLE IF EXISTS temp.new_pairs")
    db.execute(
        "CREATE TEMP TABLE new_pairs AS SELECT a.entity AS a, b.entity AS b, COUNT(*) AS papers "
        "FROM record_entities a JOIN record_entities b ON a.key = b.key AND a.entity < b.entity "
        "WHERE a.named = 1 AND b.named = 1 GROUP BY a.entity, b.entity HAVING COUNT(*) >= ?",
        (MIN_SHARED,),
    )
    stale = db.execute("SELECT a, b FROM (SELECT a, b, papers FROM pairs EXCEPT SELECT a, b, papers FROM new_pairs)").fetchall()
    fresh = db.execute("SELECT a, b, papers FROM new_pairs EXCEPT SELECT a, b, papers FROM pairs ORDER BY a, b").fetchall()
    db.execute("DROP TABLE temp.new_pairs")
    _replace(store, "DELETE FROM pairs WHERE a = ? AND b = ?", None, PAIRS, stale, [], b"", load, lambda ab: iri.entity_pair(*ab))
    for chunk in _chunks(fresh, _CHUNK):
        data = b"".join(_lines(pair_triples(a, b, n), PAIRS) for a, b, n in chunk)
        _replace(store, None, "INSERT OR REPLACE INTO pairs VALUES (?, ?, ?)", PAIRS, [], chunk, data, load, None)


def _shared(store, agents: set[str], load) -> None:
    """Describe the extractors, and drop shared nodes that no record refers to."""
    from ..graph.builder import extractor_triples

    m = store.manifest
    nodes = [str(iri.extractor(version)) for version in sorted(agents)]
    with m.transaction() as db:
        db.execute("DELETE FROM record_shared WHERE key = ''")
        db.executemany("INSERT INTO record_shared VALUES ('', ?)", ((n,) for n in nodes))
        db.executemany("INSERT OR IGNORE INTO shared VALUES (?)", ((n,) for n in nodes))
    load(b"".join(_lines(extractor_triples(version), SHARED) for version in sorted(agents)))
    orphans = [s for (s,) in m.rows("SELECT subject FROM shared WHERE subject NOT IN (SELECT subject FROM record_shared)").fetchall()]
    if orphans:
        remove_subjects(store.ox, SHARED, orphans)
        with m.transaction() as db:
            db.executemany("DELETE FROM shared WHERE subject = ?", ((s,) for s in orphans))


def _replace(store, forget_sql, remember_sql, graph, old_keys, new_rows, data: bytes, load, to_iri) -> None:
    """Forget ``old_keys`` in the manifest, remove their statements, load ``data``, remember ``new_rows``."""
    m = store.manifest
    if old_keys:
        with m.transaction() as db:
            db.executemany(forget_sql, (k if isinstance(k, tuple) else (k,) for k in old_keys))
        remove_subjects(store.ox, graph, (str(to_iri(k)) for k in old_keys))
    load(data)
    if new_rows and remember_sql:
        with m.transaction() as db:
            db.executemany(remember_sql, new_rows)


def _chunks(items: list, size: int):
    for i in range(0, len(items), size):
        yield items[i : i + size]
