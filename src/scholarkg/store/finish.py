"""The last step of a build: what depends on all records at once.

- entity descriptions (:func:`scholarkg.graph.builder.entity_triples`) of every entity a
  record refers to, with families and base methods, ``skg:paperCount``, first and latest year
  (counted again only for the entities of the records a build changed), and the corrections
  that changed them;
- co-occurring entity pairs (``skg:EntityPair``) and co-author pairs (``skg:CoauthorPair``),
  counted in the manifest with SQL: by a first build with one join each, by later builds
  from what the records they changed share before and after;
- per-author paper counts and years, beside each author's name in the shared graph;
- the curation activities (``skg:Curation``) of the corrections applied;
- the extractor's description, and removal of shared nodes (authors, web pages, ...) that no
  record refers to any more.

Each part is rewritten only where it changed, with the same protocol as records: the
manifest forgets the old digest, the graph changes, the manifest records the new digest. The
text of every part is kept in the manifest's ``blocks`` for the sorted snapshot.
"""

from __future__ import annotations

import hashlib
import itertools
from collections.abc import Callable, Iterable

from ..graph import iri
from ..graph.cooccurrence import MIN_SHARED, coauthor_ntriples, count_triples, pair_ntriples
from .batches import chunks
from .disk import FORMAT as STORE_FORMAT
from .emit import CURATIONS, ENTITIES, PAIRS, SHARED, as_nquads, ntriples

__all__ = ["write_aggregates", "remove_subjects", "unit_of"]

_CHUNK = 50_000
_SKG = "https://w3id.org/scholarkg/ontology#"
_AGGREGATES = (_SKG + "paperCount", _SKG + "firstYear", _SKG + "latestYear")
_NAMED = "AND x.named = 1 AND y.named = 1"  # entity pairs: of the entities papers name


def unit_of(subject: str) -> str:
    """The sort key of a subject's block inside a shared graph: its statements' common start,
    so that blocks in this order give the graph's lines in sorted order."""
    return f"<{subject}> "


def remove_subjects(ox, graph, subjects: Iterable[str], predicates: Iterable[str] | None = None) -> None:
    """Remove every statement of ``graph`` whose subject is one of ``subjects`` (IRIs), or only
    those with one of ``predicates``: one SPARQL update per thousand subjects, each a single
    transaction (removing statement by statement took 1.5 times as long on disk)."""
    wanted = "" if predicates is None else "VALUES ?p { " + " ".join(f"<{p}>" for p in predicates) + " } "
    for part in chunks(list(dict.fromkeys(map(str, subjects))), _REMOVED):
        values = " ".join(f"<{subject}>" for subject in part)
        ox.update(f"DELETE {{ GRAPH <{graph}> {{ ?s ?p ?o }} }} WHERE {{ VALUES ?s {{ {values} }} {wanted}"
                  f"GRAPH <{graph}> {{ ?s ?p ?o }} }}")


_REMOVED = 1_000  # subjects removed by one update


def _text(triples) -> bytes:
    return "".join(ntriples(triples)).encode("utf-8")


# Each record's year from the index on (key, year): the year is stored after the record's pickled
# blobs, and reading it from the table walks their overflow pages (2.5 times the time, counting
# the papers and years of the entities of 100 new records on a store of 20,000).
_YEARS = "records r INDEXED BY records_years"


def _digest(data: bytes) -> str:
    return hashlib.blake2b(data, digest_size=16).hexdigest()


def write_aggregates(store, linker, outcome, agents: set[str], written: set[str], load: Callable[[bytes], None], progress,
                     every_shared: bool = False) -> int:
    """Bring entities, pairs, authors, curations and shared nodes up to date; returns the entity
    descriptions written.

    ``linker`` resolves labels (the curated one when a curation file applies), ``agents`` are the
    versions of the extractors that made the extractions in the store, ``written`` the keys of
    the records rewritten by this build; ``every_shared`` keeps the text of every shared node
    again (after a build that stopped before keeping it).
    """
    incremental = not every_shared  # the build watches members from its start (Manifest.watch_members)
    count = _entities(store, linker, outcome, load, progress, incremental)
    for name, pairs in (("pairs", _pairs), ("co-authors", _coauthors)):
        progress(name, 0, None)
        pairs(store, load, incremental, lambda done, name=name: progress(name, done, None))
    progress("authors", 0, None)
    touched = _authors(store, load, incremental)
    _shared(store, agents, written, touched, load, every_shared)
    _curations(store, outcome, load)
    return count


class _Blocks:
    """Buffered writes of blocks to the manifest."""

    def __init__(self, manifest, graph: str):
        self.m, self.graph = manifest, graph
        self.put: list[tuple[str, str, bytes]] = []  # (graph, unit, N-Triples text)
        self.gone: list[tuple[str, str]] = []

    def set(self, subject: str, text: bytes) -> None:
        self.put.append((self.graph, unit_of(subject), text))

    def drop(self, subject: str) -> None:
        self.gone.append((self.graph, unit_of(subject)))

    def save(self) -> None:
        with self.m.transaction():
            self.m.drop_blocks(self.gone)
            self.m.put_blocks(self.put)
        self.put, self.gone = [], []


def _entities(store, linker, outcome, load, progress, incremental: bool) -> int:
    from ..graph.builder import entity_triples
    from ..pipeline import described_keys

    m = store.manifest
    by_key = {e.key: e for e in linker.entities()}
    used = {key for (key,) in m.rows("SELECT DISTINCT entity FROM record_entities") if key in by_key}
    keep = described_keys(by_key, used)
    counts = _entity_counts(m, incremental)
    stored = {key: (digest, inputs) for key, digest, inputs in m.rows("SELECT key, digest, inputs FROM entities")}
    gone = sorted(set(stored) - keep)
    blocks = _Blocks(m, ENTITIES)
    written = 0
    for chunk in chunks(sorted(keep), _CHUNK):
        rows, parts, noted = [], [], []
        for key in chunk:
            entity, kept = by_key[key], stored.get(key)
            inputs = None if outcome is not None else _inputs(entity, counts.get(key))
            if inputs is not None and kept is not None and kept[1] == inputs:
                continue  # described from the same inputs: the same text
            parts_of = [entity_triples(entity, known=keep)]
            if key in counts:
                parts_of.append(count_triples(iri.entity(key), *counts[key]))
            if outcome is not None:
                parts_of.append(outcome.entity_triples(key))
            data = _text(itertools.chain(*parts_of))
            digest = _digest(data)
            if kept is None or kept[0] != digest:
                rows.append((key, digest, inputs))
                parts.append(data)
                blocks.set(str(iri.entity(key)), data)
            elif kept[1] != inputs:
                noted.append((inputs, key))
        _replace(store, "DELETE FROM entities WHERE key = ?", "INSERT INTO entities VALUES (?, ?, ?)",
                 ENTITIES, [row[0] for row in rows if row[0] in stored], rows, as_nquads(b"".join(parts), ENTITIES), load,
                 iri.entity)
        if noted:
            with m.transaction() as db:
                db.executemany("UPDATE entities SET inputs = ? WHERE key = ?", noted)
        blocks.save()
        written += len(rows)
        progress("entities", written, None)
    for key in gone:
        blocks.drop(str(iri.entity(key)))
    _replace(store, "DELETE FROM entities WHERE key = ?", None, ENTITIES, gone, [], b"", load, iri.entity)
    _scheme(store, blocks, bool(keep), load)
    blocks.save()
    return written


def _inputs(entity, counts) -> str:
    """A digest of what an entity's description is made from without a curation file: the
    entity, its paper count and years, and the store's format (a change to how descriptions
    are written changes the format); its family and base are described whenever it is
    (:func:`scholarkg.pipeline.described_keys`). An entity whose inputs did not change since
    the last build is not described again: making the text of every entity to compare its
    digest grew with the store."""
    return _digest(repr((STORE_FORMAT["version"], entity, counts)).encode("utf-8", "surrogatepass"))


def _entity_counts(m, incremental: bool) -> dict[str, tuple[int, int | None, int | None]]:
    """Each named entity's papers, first and latest year (kept in ``entity_counts``).

    A first build counts every entity. A later one counts again only the entities of the
    records it wrote or removed (``temp.touched_entities``); while pairs are counted by what
    changed (``pair_counts`` has rows, so :meth:`Manifest.watch_members` kept each changed
    record's entities as they were), an entity that only gained records adds them to its
    count and years instead, and only one that lost a record, or kept one that was written
    again (its year may have changed), is counted again."""
    count = ("INSERT INTO entity_counts SELECT e.entity, COUNT(*), MIN(r.year), MAX(r.year) FROM record_entities e "
             f"JOIN {_YEARS} USING (key) WHERE e.named = 1 {{among}} GROUP BY e.entity")
    with m.transaction() as db:
        if incremental and _has_rows(db, "entity_counts"):
            touched = "SELECT member FROM temp.touched_entities"
            if _has_rows(db, "pair_counts"):
                _fold_gains(db)
                touched = "SELECT member FROM temp.recount"
            db.execute(f"DELETE FROM entity_counts WHERE entity IN ({touched})")
            db.execute(count.format(among=f"AND e.entity IN ({touched})"))
            db.execute("DROP TABLE IF EXISTS temp.recount")
        else:
            db.execute("DELETE FROM entity_counts")
            db.execute(count.format(among=""))
    return {key: (n, first, latest) for key, n, first, latest in m.rows("SELECT * FROM entity_counts")}


def _fold_gains(db) -> None:
    """Add to ``entity_counts`` the records each entity gained in this build, for the entities
    that only gained records; leave the others in ``temp.recount``."""
    db.execute("DROP TABLE IF EXISTS temp.recount")
    db.execute("CREATE TEMP TABLE recount AS SELECT DISTINCT b.member FROM temp.entities_before b")  # lost or kept a record
    db.execute("CREATE UNIQUE INDEX temp.recount_by_member ON recount (member)")
    db.execute(  # CROSS JOIN: from the few changed records (SQLite's plan otherwise reads every record's entities)
        "INSERT INTO entity_counts SELECT e.entity, COUNT(*), MIN(r.year), MAX(r.year) FROM temp.entity_keys k "
        f"CROSS JOIN record_entities e ON e.key = k.key CROSS JOIN {_YEARS} ON r.key = k.key "
        "WHERE e.named = 1 AND e.entity NOT IN (SELECT member FROM temp.recount) GROUP BY e.entity "
        "ON CONFLICT (entity) DO UPDATE SET papers = papers + excluded.papers, "
        "first = MIN(COALESCE(first, excluded.first), COALESCE(excluded.first, first)), "
        "latest = MAX(COALESCE(latest, excluded.latest), COALESCE(excluded.latest, latest))")


def _scheme(store, blocks: _Blocks, described: bool, load) -> None:
    """The concept scheme the entities are in, while there are entities (loading it again
    changes nothing)."""
    from ..graph.bibliographic import entity_scheme_triples

    scheme = str(iri.entity_scheme())
    if described:
        data = _text(entity_scheme_triples())
        blocks.set(scheme, data)
        load(as_nquads(data, ENTITIES))
    else:
        blocks.drop(scheme)
        remove_subjects(store.ox, ENTITIES, [scheme])


def _pairs(store, load, incremental: bool, written) -> None:
    """Entity pairs sharing ``MIN_SHARED`` papers or more. ``pair_counts`` keeps every pair's
    papers: a build adds what the records it changed share now and takes away what they shared
    before, so that it counts by what changed, not by the store's size."""
    db = store.manifest.db
    if incremental and _has_rows(db, "pair_counts"):
        _pair_changes(db, "record_entities", "entity", _NAMED, "temp.entity_keys", "temp.entities_before")
        db.execute("INSERT INTO pair_counts SELECT a, b, change FROM temp.pair_changes WHERE 1 "
                   "ON CONFLICT (a, b) DO UPDATE SET papers = papers + excluded.papers")
        db.execute("DELETE FROM pair_counts WHERE papers = 0 AND (a, b) IN (SELECT a, b FROM temp.pair_changes)")
        now = "SELECT c.a, c.b, c.papers FROM temp.pair_changes ch CROSS JOIN pair_counts c USING (a, b) WHERE c.papers >= ?"
        kept = "(SELECT p.a, p.b, p.papers FROM temp.pair_changes ch CROSS JOIN pairs p USING (a, b))"
    else:  # every pair (a first build, or one after a build that stopped half-way)
        db.execute("DELETE FROM pair_counts")
        db.execute("INSERT INTO pair_counts " + _every_pair("record_entities", "entity", _NAMED))
        now, kept = "SELECT a, b, papers FROM pair_counts WHERE papers >= ?", "pairs"
    _replace_pairs(store, "pairs", now, (MIN_SHARED,), kept, pair_ntriples, iri.entity_pair, load, written)


def _coauthors(store, load, incremental: bool, written) -> None:
    """Co-author pairs (``coauthors`` keeps every one), counted by what changed as entity pairs are."""
    db = store.manifest.db
    if incremental and _has_rows(db, "coauthors"):
        _pair_changes(db, "record_authors", "author", "", "temp.author_keys", "temp.authors_before")
        now = ("SELECT ch.a, ch.b, COALESCE(c.papers, 0) + ch.change AS papers FROM temp.pair_changes ch "
               "LEFT JOIN coauthors c USING (a, b) WHERE COALESCE(c.papers, 0) + ch.change > 0")
        kept = "(SELECT c.a, c.b, c.papers FROM temp.pair_changes ch CROSS JOIN coauthors c USING (a, b))"
    else:
        now, kept = _every_pair("record_authors", "author", ""), "coauthors"
    _replace_pairs(store, "coauthors", now, (), kept, coauthor_ntriples, iri.coauthor_pair, load, written)


def _has_rows(db, table: str) -> bool:
    return bool(db.execute(f"SELECT EXISTS (SELECT 1 FROM {table})").fetchone()[0])


def _every_pair(rows: str, member: str, named: str) -> str:
    """Every pair of members (a < b) of the same record in ``rows``, with the records they share."""
    return (f"SELECT x.{member} AS a, y.{member} AS b, COUNT(*) AS papers FROM {rows} x JOIN {rows} y "
            f"ON x.key = y.key AND x.{member} < y.{member} WHERE 1 {named} GROUP BY a, b")


def _pair_changes(db, rows: str, member: str, named: str, keys: str, before: str) -> None:
    """``temp.pair_changes`` (a, b, change): for each pair of members of the records whose rows
    this build changed (``keys``), the records it shares now minus those it shared before (as
    ``before`` kept them, :meth:`Manifest.watch_members`), where that is not 0."""
    db.execute("DROP TABLE IF EXISTS temp.pair_changes")
    db.execute(  # CROSS JOIN: from the few changed records (SQLite's plan otherwise reads every record's members)
        "CREATE TEMP TABLE pair_changes AS SELECT a, b, SUM(change) AS change FROM ("
        f"SELECT x.{member} AS a, y.{member} AS b, 1 AS change FROM {keys} k CROSS JOIN {rows} x ON x.key = k.key "
        f"CROSS JOIN {rows} y ON y.key = k.key AND x.{member} < y.{member} WHERE 1 {named} "
        f"UNION ALL SELECT x.member, y.member, -1 FROM {before} x JOIN {before} y ON x.key = y.key AND x.member < y.member"
        ") GROUP BY a, b HAVING SUM(change) != 0")
    db.execute("CREATE UNIQUE INDEX temp.pair_changes_by_pair ON pair_changes (a, b)")


def _replace_pairs(store, table: str, now: str, params: tuple, kept: str, describe, to_iri, load, written) -> None:
    """Replace the pairs in ``table`` (a, b, papers) whose papers differ between ``kept`` (the
    rows of ``table`` that may have changed, or the whole table) and ``now`` (a SELECT of those
    pairs as they are); ``describe`` gives a pair's IRI and N-Triples, ``to_iri`` its IRI, and
    ``written`` is told how many pairs have been written so far."""
    db = store.manifest.db
    db.execute("DROP TABLE IF EXISTS temp.new_pairs")
    db.execute(f"CREATE TEMP TABLE new_pairs AS {now}", params)
    stale = db.execute(f"SELECT a, b FROM (SELECT a, b, papers FROM {kept} EXCEPT SELECT a, b, papers FROM new_pairs)").fetchall()
    # The new and changed pairs wait in a table, not in memory (a first build of a large store
    # has millions of them).
    db.execute("DROP TABLE IF EXISTS temp.fresh_pairs")
    db.execute(f"CREATE TEMP TABLE fresh_pairs AS SELECT a, b, papers FROM new_pairs EXCEPT SELECT a, b, papers FROM {kept} ORDER BY a, b")
    db.execute("DROP TABLE temp.new_pairs")
    blocks = _Blocks(store.manifest, PAIRS)
    for a, b in stale:
        blocks.drop(str(to_iri(a, b)))
    _replace(store, f"DELETE FROM {table} WHERE a = ? AND b = ?", None, PAIRS, stale, [], b"", load, lambda ab: to_iri(*ab))
    blocks.save()
    last = done = 0
    while rows := db.execute("SELECT rowid, a, b, papers FROM temp.fresh_pairs WHERE rowid > ? ORDER BY rowid LIMIT ?",
                             (last, _CHUNK)).fetchall():
        last = rows[-1][0]
        chunk = [row[1:] for row in rows]
        parts = []
        for a, b, n in chunk:
            subject, data = describe(a, b, n)
            parts.append(data)
            blocks.set(subject, data)
        _replace(store, None, f"INSERT OR REPLACE INTO {table} VALUES (?, ?, ?)", PAIRS, [], chunk,
                 as_nquads(b"".join(parts), PAIRS), load, None)
        blocks.save()
        done += len(chunk)
        written(done)
    db.execute("DROP TABLE temp.fresh_pairs")
    db.execute("DROP TABLE IF EXISTS temp.pair_changes")


def _authors(store, load, incremental: bool) -> set[str]:
    """Per-author paper counts and years, in the shared graph beside the author's name; returns
    the authors whose statements changed. With counts from the last build, only the authors of
    the records this build wrote or removed (``temp.touched_authors``) are counted again."""
    db = store.manifest.db
    among, kept = "", "authors"
    if incremental and _has_rows(db, "authors"):
        among = "WHERE a.author IN (SELECT member FROM temp.touched_authors)"
        kept = "(SELECT * FROM authors WHERE subject IN (SELECT member FROM temp.touched_authors))"
    db.execute("DROP TABLE IF EXISTS temp.new_authors")
    db.execute(
        "CREATE TEMP TABLE new_authors AS SELECT a.author AS subject, COUNT(*) AS papers, MIN(r.year) AS first, "
        f"MAX(r.year) AS latest FROM record_authors a JOIN {_YEARS} USING (key) {among} GROUP BY a.author"
    )
    stale = [s for (s,) in db.execute(
        f"SELECT subject FROM (SELECT * FROM {kept} EXCEPT SELECT * FROM new_authors)").fetchall()]
    fresh = db.execute(f"SELECT * FROM new_authors EXCEPT SELECT * FROM {kept} ORDER BY subject").fetchall()
    db.execute("DROP TABLE temp.new_authors")
    if stale:
        remove_subjects(store.ox, SHARED, stale, _AGGREGATES)
        with store.manifest.transaction() as tx:
            tx.executemany("DELETE FROM authors WHERE subject = ?", ((s,) for s in stale))
    for chunk in chunks(fresh, _CHUNK):
        data = _text(itertools.chain.from_iterable(count_triples(s, n, first, latest) for s, n, first, latest in chunk))
        load(as_nquads(data, SHARED))
        with store.manifest.transaction() as tx:
            tx.executemany("INSERT OR REPLACE INTO authors VALUES (?, ?, ?, ?)", chunk)
    return set(stale) | {row[0] for row in fresh}


def _shared(store, agents: set[str], written: set[str], touched: set[str], load, every: bool = False) -> None:
    """Describe the extractors, drop shared nodes that no record refers to, and keep the text of
    every shared node that changed."""
    import pyoxigraph

    from ..graph.builder import extractor_triples

    m = store.manifest
    nodes = [str(iri.extractor(version)) for version in sorted(agents)]
    with m.transaction() as db:
        db.execute("DELETE FROM record_shared WHERE key = ''")
        db.executemany("INSERT INTO record_shared VALUES ('', ?)", ((n,) for n in nodes))
        db.executemany("INSERT OR IGNORE INTO shared VALUES (?)", ((n,) for n in nodes))
    load(as_nquads(_text(itertools.chain.from_iterable(extractor_triples(v) for v in sorted(agents))), SHARED))
    orphans = [s for (s,) in m.rows("SELECT subject FROM shared WHERE subject NOT IN (SELECT subject FROM record_shared)").fetchall()]
    blocks = _Blocks(m, SHARED)
    if orphans:
        remove_subjects(store.ox, SHARED, orphans)
        with m.transaction() as db:
            db.executemany("DELETE FROM shared WHERE subject = ?", ((s,) for s in orphans))
        for subject in orphans:
            blocks.drop(subject)
    changed = set(touched) | set(nodes)
    if every:
        changed.update(s for (s,) in m.rows("SELECT subject FROM shared"))
    for chunk in chunks(sorted(written), _CHUNK):
        marks = ",".join("?" * len(chunk))
        changed.update(s for (s,) in m.rows(f"SELECT DISTINCT subject FROM record_shared WHERE key IN ({marks})", tuple(chunk)))
    changed -= set(orphans)
    graph = pyoxigraph.NamedNode(SHARED)
    for subject in sorted(changed):
        quads = store.ox.quads_for_pattern(pyoxigraph.NamedNode(subject), None, None, graph)
        blocks.set(subject, _text((q.subject, q.predicate, q.object) for q in quads))
        if len(blocks.put) >= _CHUNK:
            blocks.save()
    blocks.save()


def _curations(store, outcome, load) -> None:
    """The curation activities of the corrections the build applied (none without a curation file)."""
    m = store.manifest
    by_subject: dict[str, list] = {}
    if outcome is not None:
        for triple in outcome.activity_triples():
            by_subject.setdefault(triple[0].value, []).append(triple)
    texts = {subject: _text(triples) for subject, triples in by_subject.items()}
    stored = dict(m.rows("SELECT subject, digest FROM curations"))
    stale = sorted(s for s in stored if s not in texts or stored[s] != _digest(texts[s]))
    fresh = sorted(s for s in texts if stored.get(s) != _digest(texts[s]))
    blocks = _Blocks(m, CURATIONS)
    if stale:
        remove_subjects(store.ox, CURATIONS, stale)
        with m.transaction() as db:
            db.executemany("DELETE FROM curations WHERE subject = ?", ((s,) for s in stale))
        for subject in stale:
            blocks.drop(subject)
    if fresh:
        load(as_nquads(b"".join(texts[s] for s in fresh), CURATIONS))
        with m.transaction() as db:
            db.executemany("INSERT OR REPLACE INTO curations VALUES (?, ?)", ((s, _digest(texts[s])) for s in fresh))
        for subject in fresh:
            blocks.set(subject, texts[subject])
    blocks.save()


def _replace(store, forget_sql, remember_sql, graph, old_keys, new_rows, data: bytes, load, to_iri) -> None:
    """Forget ``old_keys`` in the manifest, remove their statements, load ``data`` (N-Quads),
    remember ``new_rows``."""
    m = store.manifest
    if old_keys:
        with m.transaction() as db:
            db.executemany(forget_sql, (k if isinstance(k, tuple) else (k,) for k in old_keys))
        remove_subjects(store.ox, graph, (str(to_iri(k)) for k in old_keys))
    load(data)
    if new_rows and remember_sql:
        with m.transaction() as db:
            db.executemany(remember_sql, new_rows)
