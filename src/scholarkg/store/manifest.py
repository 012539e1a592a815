"""The store's manifest: what the build knows about each record, in SQLite next to the graph.

Oxigraph holds the statements; the manifest holds what incremental builds need to decide
what to rewrite without reading the graph back:

- ``records``: per record key its order of arrival (``seq``, the order the linker sees the
  records in), a digest of its source content, the digest of its statements as written
  (``digest``; NULL while they are being rewritten), the record and its extraction
  (pickled, compressed) so that linking can be redone over the whole store, and its year
  (also in the index ``records_years``, which the paper counts read: in the table it lies past
  the blobs);
- ``record_labels``, ``resolution``: the labels each record's mentions carry and the entity
  each label resolved to when last written, to find the records a new linking affects;
- ``record_entities``: the entities each record names or refers to (paper counts, pairs,
  and which entity descriptions the graph needs);
- ``record_shared``, ``shared``: subjects in the shared graph and the records that refer to
  them, so that an author no record names any more is removed;
- ``record_authors``: the authors of each paper (paper counts, years, co-author pairs);
- ``entities``, ``pairs``, ``coauthors``, ``authors``, ``curations``: digests or counts of what
  the last build wrote for entities, entity pairs, co-author pairs, authors and curations
  (with, for each entity, a digest of what its description was made from);
  ``entity_counts``: each named entity's papers, first and latest year; ``pair_counts``: the
  papers of every pair of named entities that share one or more (``pairs`` holds those the
  graph describes, sharing two or more), so that a build counts pairs by what it changed;
- ``blocks``: the sorted N-Triples text of every part of the graph (a record's graph, or one
  subject of a shared graph), compressed, with its Turtle and its number of statements (made
  as a store build puts the block, or by the snapshot step for a block without them): the
  sorted snapshot exports stream (:mod:`scholarkg.store.snapshot`) without reading the graph
  back; ``block_lines``: the sum of the blocks' statements, kept by triggers on ``blocks`` (a
  build reads the graph's size from it instead of summing every block); ``block_types``: how
  many subjects of each class a build reports each block types, and ``type_totals`` their
  sums, kept by triggers as blocks change (the counts a build reports, without counting the
  whole graph);
- ``search``: a digest of each node's entry in the search index (:mod:`scholarkg.store.search`);
  ``search_touched``: the blocks added, changed or dropped since the index was last brought up
  to date (with the text a changed or dropped block had), kept by triggers on ``blocks`` while
  there is an index, so that the next build looks again only at the nodes they name;
- ``linked``: what the linker had collected from every stored extraction at the end of the
  last build (pickled, compressed), so that a build links only what changed onto it
  (:mod:`scholarkg.store.linking`); removed when a build starts and written again when it
  ends; ``record_facts``: what each record's extraction says of each name it speaks of
  (pickled), kept with it;
- ``meta``: facts about the last build (the curation file it applied, whether a block changed
  since the last snapshot).

A record's statements are rewritten in three steps: its row is written with ``digest`` NULL,
the graph is changed, and ``digest`` is set. An interruption anywhere leaves rows whose
``digest`` is NULL, and the next build rewrites exactly those records.
"""

from __future__ import annotations

import contextlib
import functools
import pickle
import sqlite3
import zlib
from collections.abc import Iterable, Iterator
from pathlib import Path

import lz4.frame

from ..errors import StoreError

__all__ = ["Manifest", "RecordSpool", "origin_of", "pack", "unpack", "pack_text", "unpack_text"]

# The indexes of a record's rows by the member they name (a label, an entity, a shared subject,
# an author). Each row goes to a random place in them: a build that writes as many records as
# the store holds drops them while it writes and makes them again (:meth:`Manifest.bulk_writing`).
_MEMBER_INDEXES = (
    ("record_labels_by_label", "record_labels", "label"),
    ("record_entities_by_entity", "record_entities", "entity"),
    ("record_shared_by_subject", "record_shared", "subject"),
    ("record_authors_by_author", "record_authors", "author"),
)
_MAKE_MEMBER_INDEXES = tuple(f"CREATE INDEX IF NOT EXISTS {name} ON {table} ({column})"
                             for name, table, column in _MEMBER_INDEXES)

_SCHEMA = """
CREATE TABLE IF NOT EXISTS records (
    key TEXT PRIMARY KEY, seq INTEGER NOT NULL, source TEXT NOT NULL, digest TEXT,
    record BLOB NOT NULL, extraction BLOB NOT NULL, year INTEGER);
CREATE INDEX IF NOT EXISTS records_by_seq ON records (seq);
CREATE INDEX IF NOT EXISTS records_years ON records (key, year);
CREATE TABLE IF NOT EXISTS record_labels (key TEXT NOT NULL, label TEXT NOT NULL, PRIMARY KEY (key, label)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS record_facts (
    name TEXT NOT NULL, seq INTEGER NOT NULL, key TEXT NOT NULL, facts BLOB NOT NULL, PRIMARY KEY (name, seq, key)) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS record_facts_by_key ON record_facts (key);
CREATE TABLE IF NOT EXISTS resolution (label TEXT PRIMARY KEY, entity TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS record_entities (
    key TEXT NOT NULL, entity TEXT NOT NULL, named INTEGER NOT NULL, PRIMARY KEY (key, entity)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS record_shared (key TEXT NOT NULL, subject TEXT NOT NULL, PRIMARY KEY (key, subject)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS record_authors (key TEXT NOT NULL, author TEXT NOT NULL, PRIMARY KEY (key, author)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS shared (subject TEXT PRIMARY KEY) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS entities (key TEXT PRIMARY KEY, digest TEXT NOT NULL, inputs TEXT) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS entity_counts (entity TEXT PRIMARY KEY, papers INTEGER NOT NULL, first INTEGER, latest INTEGER) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS pairs (a TEXT NOT NULL, b TEXT NOT NULL, papers INTEGER NOT NULL, PRIMARY KEY (a, b)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS pair_counts (a TEXT NOT NULL, b TEXT NOT NULL, papers INTEGER NOT NULL, PRIMARY KEY (a, b)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS coauthors (a TEXT NOT NULL, b TEXT NOT NULL, papers INTEGER NOT NULL, PRIMARY KEY (a, b)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS authors (subject TEXT PRIMARY KEY, papers INTEGER NOT NULL, first INTEGER, latest INTEGER) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS curations (subject TEXT PRIMARY KEY, digest TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS blocks (
    graph TEXT NOT NULL, unit TEXT NOT NULL, text BLOB NOT NULL, turtle BLOB, lines INTEGER, PRIMARY KEY (graph, unit)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS search (entry TEXT PRIMARY KEY, digest TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS search_touched (graph TEXT NOT NULL, unit TEXT NOT NULL, old BLOB);
CREATE TRIGGER IF NOT EXISTS blocks_added AFTER INSERT ON blocks WHEN EXISTS (SELECT 1 FROM search)
BEGIN INSERT INTO search_touched VALUES (new.graph, new.unit, NULL); END;
CREATE TRIGGER IF NOT EXISTS blocks_changed AFTER UPDATE OF text ON blocks WHEN EXISTS (SELECT 1 FROM search)
BEGIN INSERT INTO search_touched VALUES (old.graph, old.unit, old.text); END;
CREATE TRIGGER IF NOT EXISTS blocks_dropped AFTER DELETE ON blocks WHEN EXISTS (SELECT 1 FROM search)
BEGIN INSERT INTO search_touched VALUES (old.graph, old.unit, old.text); END;
CREATE TABLE IF NOT EXISTS meta (name TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS block_lines (one INTEGER PRIMARY KEY CHECK (one = 0), total INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS linked (one INTEGER PRIMARY KEY CHECK (one = 0), records INTEGER NOT NULL, state BLOB NOT NULL);
CREATE TABLE IF NOT EXISTS record_origins (key TEXT PRIMARY KEY, origin TEXT NOT NULL) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS record_origins_by_origin ON record_origins (origin);
CREATE TEMP TABLE IF NOT EXISTS staged (
    key TEXT PRIMARY KEY, seq INTEGER NOT NULL, source TEXT NOT NULL, record BLOB NOT NULL, extraction BLOB NOT NULL);
CREATE INDEX IF NOT EXISTS temp.staged_by_seq ON staged (seq);
""" + "".join(sql + ";\n" for sql in _MAKE_MEMBER_INDEXES)


# Columns added to tables after stores were first built with them
_ADDED_COLUMNS = (("blocks", "turtle BLOB"), ("blocks", "lines INTEGER"), ("entities", "inputs TEXT"))


# What a build notes of the records whose rows it changes (see Manifest.watch_members), for
# one kind of member: the members, as they were and as they are, while their counts are kept;
# the records' keys, and their members as they were before their rows first changed, while
# the pairs of every two members are counted (``counted`` has rows).
_WATCH = """
CREATE TEMP TABLE IF NOT EXISTS touched_{kinds} (member TEXT PRIMARY KEY) WITHOUT ROWID;
CREATE TEMP TABLE IF NOT EXISTS {kind}_keys (key TEXT PRIMARY KEY) WITHOUT ROWID;
CREATE TEMP TABLE IF NOT EXISTS {kinds}_before (key TEXT NOT NULL, member TEXT NOT NULL, PRIMARY KEY (key, member)) WITHOUT ROWID;
DELETE FROM temp.touched_{kinds}; DELETE FROM temp.{kind}_keys; DELETE FROM temp.{kinds}_before;
CREATE TEMP TRIGGER IF NOT EXISTS {kinds}_added AFTER INSERT ON main.{rows}
WHEN EXISTS (SELECT 1 FROM main.{counted}) OR EXISTS (SELECT 1 FROM main.{counts})
BEGIN INSERT OR IGNORE INTO touched_{kinds} VALUES (new.{member}); END;
CREATE TEMP TRIGGER IF NOT EXISTS {kinds}_removed AFTER DELETE ON main.{rows}
WHEN EXISTS (SELECT 1 FROM main.{counted}) OR EXISTS (SELECT 1 FROM main.{counts})
BEGIN INSERT OR IGNORE INTO touched_{kinds} VALUES (old.{member}); END;
CREATE TEMP TRIGGER IF NOT EXISTS {rows}_before_insert BEFORE INSERT ON main.{rows}
WHEN EXISTS (SELECT 1 FROM main.{counted}) AND NOT EXISTS (SELECT 1 FROM {kind}_keys WHERE key = new.key)
BEGIN INSERT INTO {kinds}_before SELECT key, {member} FROM main.{rows} WHERE key = new.key {named};
INSERT INTO {kind}_keys VALUES (new.key); END;
CREATE TEMP TRIGGER IF NOT EXISTS {rows}_before_delete BEFORE DELETE ON main.{rows}
WHEN EXISTS (SELECT 1 FROM main.{counted}) AND NOT EXISTS (SELECT 1 FROM {kind}_keys WHERE key = old.key)
BEGIN INSERT INTO {kinds}_before SELECT key, {member} FROM main.{rows} WHERE key = old.key {named};
INSERT INTO {kind}_keys VALUES (old.key); END;
"""


# The blocks whose Turtle is still to be made, the sum of the blocks' statements, and the
# subjects of each class, kept as blocks change: a build that changed a few blocks then reads
# a few rows, not the whole table. A block's classes are counted when its Turtle is made
# (scholarkg.store.snapshot.described_blocks, or write_store_snapshot for a block put without
# it) and forgotten when its text changes.
_BLOCK_LINES = """
CREATE INDEX IF NOT EXISTS blocks_unwritten ON blocks (graph, unit) WHERE turtle IS NULL;
CREATE TRIGGER IF NOT EXISTS block_lines_added AFTER INSERT ON blocks WHEN new.lines IS NOT NULL
BEGIN UPDATE block_lines SET total = total + new.lines; END;
CREATE TRIGGER IF NOT EXISTS block_lines_changed AFTER UPDATE OF lines ON blocks WHEN new.lines IS NOT old.lines
BEGIN UPDATE block_lines SET total = total - COALESCE(old.lines, 0) + COALESCE(new.lines, 0); END;
CREATE TRIGGER IF NOT EXISTS block_lines_dropped AFTER DELETE ON blocks WHEN old.lines IS NOT NULL
BEGIN UPDATE block_lines SET total = total - old.lines; END;
CREATE TABLE IF NOT EXISTS block_types (
    graph TEXT NOT NULL, unit TEXT NOT NULL, class TEXT NOT NULL, n INTEGER NOT NULL, PRIMARY KEY (graph, unit, class)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS type_totals (class TEXT PRIMARY KEY, total INTEGER NOT NULL) WITHOUT ROWID;
CREATE TRIGGER IF NOT EXISTS block_types_changed AFTER UPDATE OF text ON blocks WHEN new.text IS NOT old.text
BEGIN DELETE FROM block_types WHERE graph = old.graph AND unit = old.unit; END;
CREATE TRIGGER IF NOT EXISTS block_types_dropped AFTER DELETE ON blocks
BEGIN DELETE FROM block_types WHERE graph = old.graph AND unit = old.unit; END;
CREATE TRIGGER IF NOT EXISTS type_totals_added AFTER INSERT ON block_types
BEGIN INSERT INTO type_totals VALUES (new.class, new.n) ON CONFLICT (class) DO UPDATE SET total = total + excluded.total; END;
CREATE TRIGGER IF NOT EXISTS type_totals_dropped AFTER DELETE ON block_types
BEGIN UPDATE type_totals SET total = total - old.n WHERE class = old.class; END;
"""


_CACHE_KB = 128 * 1024  # the manifest's page cache (only builds open it)


# Blobs are compressed as LZ4 frames: zlib at its fastest level, used before, compresses eight
# to eleven times slower (blocks' text, pickles); with LZ4 a build of 2,800 records (1,016,600
# statements) takes 1.9 CPU-s less for a store and 1.2 s less for a folder, and the manifest is
# 15% larger (91 MB against 79 MB). A store an earlier version built still holds zlib streams,
# told apart by the frame's magic number (a zlib stream starts with 0x78).
_LZ4_MAGIC = b"\x04\x22\x4d\x18"


def _compress(data: bytes) -> bytes:
    return lz4.frame.compress(data)


def _decompress(data: bytes) -> bytes:
    return lz4.frame.decompress(data) if data[:4] == _LZ4_MAGIC else zlib.decompress(data)


def pack(value) -> bytes:
    return _compress(pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL))


def pack_text(text: bytes) -> bytes:
    return _compress(text)


def unpack_text(data: bytes) -> bytes:
    return _decompress(data)


_RECORD_PARTS = ("record_labels", "record_entities", "record_shared", "record_authors")  # rewritten with a record


def origin_of(record) -> str:
    """Which input record ``record`` is: its file (resolved) and the id the reader gave it (the
    input's own id, or the key of the record as read, before corrections or enrichment)."""
    return f"{_resolved(record.source.path)}\x1f{record.id}" if record.source else f"\x1f{record.id}"


@functools.lru_cache(maxsize=256)
def _resolved(path: str) -> str:
    return str(Path(path).resolve())


def unpack(data: bytes):
    try:
        return pickle.loads(_decompress(data))
    except Exception as exc:  # pickles from another version of the model classes
        raise StoreError(f"the store was written by an incompatible version of scholarkg ({exc}); rebuild it") from exc


class RecordSpool:
    """A list of records kept in a temporary table of the manifest's database instead of in
    memory: what :func:`scholarkg.identity.merge_records` needs (``append``, ``len``, reading and
    replacing by position, iteration in order) for a store build's whole input.

    Writes go in one transaction, committed when iteration starts; iteration reads in chunks,
    so the build may use the database meanwhile.
    """

    _CHUNK = 512

    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db
        self._size = 0
        db.execute("DROP TABLE IF EXISTS temp.spool")
        db.execute("CREATE TEMP TABLE spool (slot INTEGER PRIMARY KEY, record BLOB NOT NULL)")

    def _writing(self) -> None:
        if not self.db.in_transaction:
            self.db.execute("BEGIN")

    def append(self, record) -> None:
        self._writing()
        self.db.execute("INSERT INTO temp.spool VALUES (?, ?)", (self._size, pack(record)))
        self._size += 1

    def __len__(self) -> int:
        return self._size

    def __getitem__(self, slot: int):
        row = self.db.execute("SELECT record FROM temp.spool WHERE slot = ?", (slot,)).fetchone()
        if row is None:
            raise IndexError(slot)
        return unpack(row[0])

    def __setitem__(self, slot: int, record) -> None:
        self._writing()
        self.db.execute("UPDATE temp.spool SET record = ? WHERE slot = ?", (pack(record), slot))

    def __iter__(self) -> Iterator:
        if self.db.in_transaction:
            self.db.execute("COMMIT")
        slot = -1
        while True:
            rows = self.db.execute("SELECT slot, record FROM temp.spool WHERE slot > ? ORDER BY slot LIMIT ?",
                                   (slot, self._CHUNK)).fetchall()
            if not rows:
                return
            for slot, blob in rows:
                yield unpack(blob)

    def __enter__(self) -> RecordSpool:
        return self

    def __exit__(self, *exc) -> None:
        try:
            if self.db.in_transaction:
                self.db.execute("COMMIT" if exc[0] is None else "ROLLBACK")
            self.db.execute("DROP TABLE IF EXISTS temp.spool")
        except sqlite3.Error:
            if exc[0] is None:
                raise


class Manifest:
    """SQLite bookkeeping of one store (see the module docstring)."""

    def __init__(self, path: Path):
        # whether put_blocks makes each block's Turtle, statements and classes as it keeps its
        # text (a store build, which keeps a snapshot), or leaves them to the snapshot step
        self.describe_blocks = False
        try:
            self.db = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False)
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=NORMAL")
            self.db.execute("PRAGMA temp_store=FILE")
            # SQLite's default page cache is 2 MB; a build's per-record rows land all over the
            # tables' indexes, so with it each batch re-read them from the file system.
            self.db.execute(f"PRAGMA cache_size=-{_CACHE_KB}")
            self.db.executescript(_SCHEMA)
            for table, column in _ADDED_COLUMNS:  # a store built before the table kept them
                if column.split()[0] not in {row[1] for row in self.db.execute(f"PRAGMA table_info({table})")}:
                    self.db.execute(f"ALTER TABLE {table} ADD COLUMN {column}")
            self.db.executescript(_BLOCK_LINES)  # the triggers first: the sum then counts every change
            if self.db.execute("SELECT NOT EXISTS (SELECT 1 FROM block_lines)").fetchone()[0]:
                # a new store, or one built before the sum was kept
                self.db.execute("INSERT OR IGNORE INTO block_lines SELECT 0, COALESCE(SUM(lines), 0) FROM blocks")
            if self.db.execute("SELECT NOT EXISTS (SELECT 1 FROM blocks)").fetchone()[0]:
                # no block to count the classes of (a store with blocks an earlier version wrote
                # has them counted once, by the next snapshot)
                self.db.execute("INSERT OR REPLACE INTO meta VALUES ('block_types', 'kept')")
        except sqlite3.Error as exc:
            raise StoreError(f"{path}: cannot open the store manifest ({exc})") from exc

    def close(self) -> None:
        self.db.close()

    def transaction(self):
        """``with manifest.transaction():`` commits on success and rolls back on any error."""
        return _Transaction(self.db)

    def one(self, sql: str, params: tuple = ()):
        row = self.db.execute(sql, params).fetchone()
        return row[0] if row else None

    def rows(self, sql: str, params: tuple = ()) -> Iterator[tuple]:
        return self.db.execute(sql, params)

    # records -------------------------------------------------------------------------------

    def known(self, key: str) -> tuple[int, str, str | None] | None:
        """``(seq, source digest, statements digest)`` of a stored record, or None."""
        return self.db.execute("SELECT seq, source, digest FROM records WHERE key = ?", (key,)).fetchone()

    def next_seq(self) -> int:
        return max(self.one("SELECT MAX(seq) FROM records") or 0, self.one("SELECT MAX(seq) FROM staged") or 0) + 1

    def stage(self, rows: Iterable[tuple[str, int, str, object, object]]) -> None:
        """Keep new or changed records (key, seq, source digest, record, extraction) for this build."""
        with self.transaction():
            self.db.executemany(
                "INSERT OR REPLACE INTO staged VALUES (?, ?, ?, ?, ?)",
                ((k, seq, src, pack(r), pack(e)) for k, seq, src, r, e in rows),
            )

    # identities that change ----------------------------------------------------------------

    def superseded(self, read: Iterable[tuple[str, str]]) -> list[str]:
        """Stored records that records of this build replace under another key: ``read`` holds
        (origin, key) of every record read (:func:`origin_of`); a stored record with one of those
        origins, under a key no record read has, is the same input record before a correction or
        an enrichment changed its identity (or after one was taken back)."""
        db = self.db
        self._backfill_origins()
        with self.transaction():
            db.execute("CREATE TEMP TABLE IF NOT EXISTS read_origins (origin TEXT NOT NULL, key TEXT NOT NULL)")
            db.execute("DELETE FROM temp.read_origins")
            db.executemany("INSERT INTO temp.read_origins VALUES (?, ?)", read)
            db.execute("INSERT OR REPLACE INTO record_origins SELECT key, origin FROM temp.read_origins")
        gone = [k for (k,) in db.execute(
            "SELECT DISTINCT o.key FROM record_origins o JOIN temp.read_origins r USING (origin) "
            "WHERE o.key NOT IN (SELECT key FROM temp.read_origins) ORDER BY o.key")]
        db.execute("DROP TABLE temp.read_origins")
        return gone

    def _backfill_origins(self) -> None:
        """Origins of the records of a store built before they were kept (once)."""
        if self.get_meta("origins") == "1":
            return
        with self.transaction():
            self.db.executemany("INSERT OR IGNORE INTO record_origins VALUES (?, ?)", (
                (key, origin_of(unpack(record))) for key, record in self.db.execute("SELECT key, record FROM records").fetchall()))
            self.set_meta("origins", "1")

    def forget(self, keys: list[str]) -> None:
        """Remove stored records and everything kept about them (their graph is removed by the caller)."""
        from ..graph import iri

        with self.transaction():
            for key in keys:
                for table in ("records", "record_origins", "record_facts", *_RECORD_PARTS):
                    self.db.execute(f"DELETE FROM {table} WHERE key = ?", (key,))
            self.drop_blocks((str(iri.record_graph(key)), "") for key in keys)

    def begin_rewrite(self, emissions, payloads: dict[str, tuple[int, str, bytes, bytes]]) -> None:
        """Step 1 of a rewrite: rows written, digests NULL, references replaced (one statement
        per table for the whole batch: each emission is of another record)."""
        db = self.db
        with self.transaction():
            db.executemany("INSERT OR REPLACE INTO records VALUES (?, ?, ?, NULL, ?, ?, ?)",
                           ((e.key, *payloads[e.key], e.year) for e in emissions))
            for table in _RECORD_PARTS:
                db.executemany(f"DELETE FROM {table} WHERE key = ?", ((e.key,) for e in emissions))
            db.executemany("INSERT INTO record_labels VALUES (?, ?)", ((e.key, x) for e in emissions for x in e.labels))
            db.executemany("INSERT INTO record_entities VALUES (?, ?, ?)",
                           ((e.key, x, int(x in named)) for e in emissions for named in (set(e.named),) for x in e.referenced))
            db.executemany("INSERT INTO record_shared VALUES (?, ?)", ((e.key, x) for e in emissions for x in e.subjects))
            db.executemany("INSERT INTO record_authors VALUES (?, ?)", ((e.key, x) for e in emissions for x in e.authors))

    def end_rewrite(self, emissions) -> None:
        """Step 3 of a rewrite: the statements are in the graph; their text is kept for snapshots."""
        with self.transaction():
            self.db.executemany("UPDATE records SET digest = ? WHERE key = ?", ((e.digest, e.key) for e in emissions))
            self.db.executemany("INSERT OR IGNORE INTO shared VALUES (?)", ((s,) for e in emissions for s in e.subjects))
            self.put_blocks((e.graph, "", e.own) for e in emissions)

    # blocks (call inside a transaction) ----------------------------------------------------

    def put_blocks(self, rows: Iterable[tuple[str, str, bytes]]) -> None:
        """Keep the text of parts of the graph: (graph, unit, N-Triples text). A text that
        differs from the one kept marks the snapshot stale, in the same transaction. With
        :attr:`describe_blocks`, each block's Turtle, statements and classes are kept with it
        (a block whose text is unchanged and already has them is left as it is)."""
        before = self.db.total_changes
        if self.describe_blocks:
            from .snapshot import described_blocks

            blocks, typed = described_blocks(rows)
            self.db.executemany("INSERT INTO blocks (graph, unit, text, turtle, lines) VALUES (?, ?, ?, ?, ?) "
                                "ON CONFLICT (graph, unit) DO UPDATE SET text = excluded.text, turtle = excluded.turtle, "
                                "lines = excluded.lines WHERE text != excluded.text OR turtle IS NULL", blocks)
            # a block's classes were forgotten when its text changed (trigger block_types_changed)
            self.db.executemany("INSERT OR IGNORE INTO block_types VALUES (?, ?, ?, ?)", typed)
        else:
            self.db.executemany("INSERT INTO blocks (graph, unit, text) VALUES (?, ?, ?) ON CONFLICT (graph, unit) "
                                "DO UPDATE SET text = excluded.text, turtle = NULL, lines = NULL WHERE text != excluded.text",
                                ((graph, unit, pack_text(text)) for graph, unit, text in rows))
        if self.db.total_changes != before:
            self.set_meta("snapshot", "stale")

    def drop_blocks(self, keys: Iterable[tuple[str, str]]) -> None:
        """Forget the text of parts of the graph: (graph, unit); one that was kept marks the
        snapshot stale."""
        before = self.db.total_changes
        self.db.executemany("DELETE FROM blocks WHERE graph = ? AND unit = ?", keys)
        if self.db.total_changes != before:
            self.set_meta("snapshot", "stale")

    def snapshot_current(self) -> bool:
        """Whether the graph's text is as the last snapshot written from it (see
        :meth:`snapshot_written`): no block changed since."""
        return self.get_meta("snapshot") == "current"

    def snapshot_written(self) -> None:
        self.set_meta("snapshot", "current")

    # members of changed records ---------------------------------------------------------------

    @contextlib.contextmanager
    def bulk_writing(self, records: int) -> Iterator[None]:
        """Around the writing of ``records`` records' rows: when they are as many as the store
        holds or more (a first build), the member indexes are dropped first and made again
        after, one sort each instead of putting every row at a random place in each (a store
        build of 28,000 records, 9.5 million statements, spent 21.1 CPU-s writing the rows with
        them and 8.1 s without; making them again took 0.8 s). A build that stops in between
        leaves them out until the manifest is next opened for writing: they are part of its schema."""
        bulk = records >= self.one("SELECT COUNT(*) FROM records")
        if bulk:
            with self.transaction() as db:
                for name, _, _ in _MEMBER_INDEXES:
                    db.execute(f"DROP INDEX IF EXISTS {name}")
        yield
        if bulk:
            with self.transaction() as db:
                for sql in _MAKE_MEMBER_INDEXES:
                    db.execute(sql)

    def watch_members(self) -> None:
        """From now on (on this connection), note in ``temp.touched_entities`` and
        ``temp.touched_authors`` the entities and authors of every record whose rows are
        written or removed, as they were and as they are: the only members whose paper
        counts and years a build can change. Also note the keys of those records
        (``temp.entity_keys``, ``temp.author_keys``) and, before a record's rows first change,
        its named entities and its authors as they were (``temp.entities_before``,
        ``temp.authors_before``): what the last build counted pairs from. Nothing is noted
        while none is counted (a first build)."""
        self.db.executescript(
            _WATCH.format(kind="entity", kinds="entities", rows="record_entities", member="entity", named="AND named = 1",
                          counted="pair_counts", counts="entity_counts")
            + _WATCH.format(kind="author", kinds="authors", rows="record_authors", member="author", named="",
                            counted="coauthors", counts="authors"))

    # the linker's state ---------------------------------------------------------------------

    def take_linked_state(self) -> bytes | None:
        """What the linker collected at the end of the last build (packed), if it is kept and
        still counts the stored records; it is no longer kept (a build takes it when it starts,
        so one that stops half-way leaves none)."""
        row = self.db.execute("SELECT records, state FROM linked").fetchone()
        self.db.execute("DELETE FROM linked")
        if row is None or row[0] != self.one("SELECT COUNT(*) FROM records"):
            return None
        return row[1]

    def keep_linked_state(self, packed: bytes) -> None:
        """Keep the linker's state (:func:`pack`-ed) as it stands for the stored records."""
        self.db.execute("INSERT OR REPLACE INTO linked VALUES (0, (SELECT COUNT(*) FROM records), ?)", (packed,))

    def get_meta(self, name: str, default: str = "") -> str:
        value = self.one("SELECT value FROM meta WHERE name = ?", (name,))
        return default if value is None else value

    def set_meta(self, name: str, value: str) -> None:
        self.db.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (name, value))

    def keep_payload(self, key: str, payload: tuple[int, str, bytes, bytes]) -> None:
        """A record whose source changed but whose statements did not: keep the new content."""
        seq, source, record, extraction = payload
        self.db.execute("UPDATE records SET seq = ?, source = ?, record = ?, extraction = ? WHERE key = ?", (seq, source, record, extraction, key))


class _Transaction:
    def __init__(self, db: sqlite3.Connection):
        self.db = db

    def __enter__(self):
        self.db.execute("BEGIN")
        return self.db

    def __exit__(self, kind, exc, tb):
        if kind is None:
            self.db.execute("COMMIT")
        else:
            self.db.execute("ROLLBACK")
        return False
