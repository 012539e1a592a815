"""One pipeline for every build: into an on-disk store, or into memory for a build folder.

::

    read + prepare       records, with the enrichment file and the curation file's pinned facts
    dedupe               one record per paper, repeats combined into the first
                         (:func:`scholarkg.identity.merge_records`, spooled in the manifest);
                         records whose content and extractor are unchanged are skipped
    extract   (map)      new and changed records -> extractions, staged in the manifest
    link      (reduce)   one Linker over every record of the store, in order of arrival,
                         taking up what the last build collected (:mod:`.linking`)
    curate               the curation file's corrections over every record, when there is one
    emit      (map)      records -> N-Triples text, with labels resolved by that one linker
    write                replace the graphs of records whose statements changed
    finish               entities, authors, counts, pairs, curations, shared nodes; snapshot

The target is a :class:`~scholarkg.store.disk.GraphStore` (``build --store``: incremental,
resumable) or a :class:`~scholarkg.store.memory.MemoryStore` (``build --out``: an in-memory
Oxigraph store and a scratch manifest, written out as files by :mod:`scholarkg.pipeline`). Both
run exactly these stages, so both hold the same statements for the same inputs.

Linking is the reduce step because the linker merges names across all records (an acronym
in one paper, its long form in another): a record's entity IRIs depend on the others. After
linking, the labels whose entity changed since the last build point at the records to
rewrite, even those that are not in this build's input ("relinked"). A curation file acts on
every record, so a build that applies one (or applied one last time) emits every record again;
only those whose statements changed are rewritten. The map steps take and return plain values,
so :mod:`scholarkg.bulk` runs them on a Dask cluster and gets the same graph as this process.
"""

from __future__ import annotations

import hashlib
import logging
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import Problems, ScholarKGError, StoreError, disk_full
from ..graph import iri
from ..model import Record
from .batches import load_nquads
from .disk import GraphStore
from .emit import Curated, emit_batch, labels_of, source_digest
from .linking import keep_state
from .manifest import origin_of, unpack
from .snapshot import database_updated, snapshot_count

__all__ = ["BuildReport", "LocalMapper", "build_store", "run_stages", "curator_for"]

log = logging.getLogger(__name__)

Progress = Callable[[str, int, "int | None"], None]
_COMPACT_SHARE = 20  # a build that loads 1/20 of the store's statements or more compacts the database
BATCH_SIZE = 500  # records emitted and loaded together: a batch's statements are held at once
# The records a build emits, a page after a given ``seq`` at a time: staged ones, then the other
# records to rewrite. Each page is read from the manifest's index on ``seq``, so a build of n
# records reads them once; sorting the whole table for every page made it n^2 / BATCH_SIZE.
PAGE_QUERIES = (
    "SELECT key, seq, source, record, extraction, 1 FROM staged WHERE seq > ? ORDER BY seq LIMIT ?",
    "SELECT r.key, r.seq, r.source, r.record, r.extraction, 0 FROM targets t JOIN records r USING (key) "
    "WHERE r.seq > ? ORDER BY r.seq LIMIT ?",
)


@dataclass
class BuildReport:
    """What a build did to a store."""

    store: Path
    added: int = 0  # records new to the store
    updated: int = 0  # records whose statements changed
    unchanged: int = 0  # records given again with the same statements
    relinked: int = 0  # other records rewritten because linking or curation changed them
    replaced: int = 0  # stored records removed: records read now have them under another identity
    entities: int = 0  # entity descriptions written or rewritten
    seconds: float = 0.0
    problems: Problems = field(default_factory=Problems)
    curation: Path | None = None  # the curation file applied, if any
    enrichment: Path | None = None  # the enrichment file merged, if any
    statuses: list = field(default_factory=list)  # what became of each correction
    outcome: object = None  # the curation's outcome (corrected extractions and linker), if any
    linker: object = None  # the linker the statements were resolved with
    cpu: dict = field(default_factory=dict)  # CPU seconds of this process by stage
    statements: int | None = None  # statements of the knowledge graph after the build (its snapshot's count)

    @property
    def records(self) -> int:
        """Records read from the input (after removing duplicates)."""
        return self.added + self.updated + self.unchanged


class LocalMapper:
    """Runs the map steps in this process (:class:`scholarkg.bulk.DaskMapper` runs them on a cluster)."""

    def extract(self, records: Iterator[Record], extractor):
        return extractor(records)

    def emit(self, batches: Iterable[tuple[list, dict, object]]) -> Iterator[tuple[list, object]]:
        for items, resolution, context in batches:
            yield emit_batch(items, resolution), context


def curator_for(curation: str | Path | None, enrichment: str | Path | None):
    """What applies a build's curation and enrichment files, or None when there are neither."""
    if curation is None and enrichment is None:
        return None
    from ..curate.apply import Curator
    from ..curate.file import load_curation
    from ..enrich.overlay import load_enrichment

    return Curator(
        load_curation(curation) if curation is not None else None,
        load_enrichment(enrichment) if enrichment is not None else None,
    )


def build_store(
    inputs: Iterable[str | Path],
    store: str | Path,
    *,
    format: str | None = None,
    problems: Problems | None = None,
    mapper=None,
    extractor=None,
    extractor_version: str | None = None,
    batch_size: int = BATCH_SIZE,
    progress: Progress | None = None,
    curation: str | Path | None = None,
    enrichment: str | Path | None = None,
) -> BuildReport:
    """Add the records of ``inputs`` (files) to the store at ``store``, creating it if needed.

    ``curation`` names a curation file and ``enrichment`` an arXiv enrichment file, applied as
    :func:`scholarkg.pipeline.build` applies them. ``extractor`` replaces
    :func:`scholarkg.extract.extract_many` (same interface); records are extracted again when
    ``extractor_version`` differs from the one that made them.
    """
    problems = problems if problems is not None else Problems()
    try:
        with GraphStore(store, writable=True) as graph_store:
            report = run_stages(
                graph_store, inputs, format=format, problems=problems, mapper=mapper, extractor=extractor,
                extractor_version=extractor_version, batch_size=batch_size, progress=progress,
                curation=curation, enrichment=enrichment, snapshot=True,
            )
    except ScholarKGError:
        raise
    except Exception as exc:  # a full disk, from Python, SQLite or RocksDB alike, is exit 5
        if (reason := disk_full(exc)) is None:
            raise
        raise StoreError(f"{store}: {reason} while building; the store keeps what the last finished build wrote, "
                         "and the next build, with space freed, completes it") from exc
    return report


def run_stages(
    target,
    inputs: Iterable[str | Path],
    *,
    format: str | None = None,
    problems: Problems,
    mapper=None,
    extractor=None,
    extractor_version: str | None = None,
    batch_size: int = BATCH_SIZE,
    progress: Progress | None = None,
    curation: str | Path | None = None,
    enrichment: str | Path | None = None,
    snapshot: bool = False,
) -> BuildReport:
    """Run every stage of a build into ``target`` (a GraphStore or a MemoryStore)."""
    from ..identity import merge_records
    from ..readers import read_records
    from .manifest import RecordSpool

    curator = curator_for(curation, enrichment)
    stream = read_records([str(p) for p in inputs], problems, format=format)
    if curator is not None:
        stream = curator.prepare(stream, problems)
    builder = _Builder(target, mapper or LocalMapper(), extractor, extractor_version, batch_size,
                       progress or _no_progress, curator, problems)
    with RecordSpool(target.manifest.db) as spool:
        # Repeats are combined into the first record before anything is extracted (the records
        # wait in the manifest's scratch table, not in memory).
        records = iter(merge_records(stream, problems, kept=spool))
        report = builder.run(records, snapshot=snapshot)
    report.problems = problems
    report.curation = Path(curation) if curation is not None else None
    report.enrichment = Path(enrichment) if enrichment is not None else None
    return report


def _no_progress(phase: str, done: int, total: int | None) -> None:
    pass


class _Builder:
    def __init__(self, target, mapper, extractor, version: str | None, batch_size: int, progress: Progress,
                 curator, problems: Problems):
        from ..extract import EXTRACTOR_VERSION, extract_many

        self.store, self.m = target, target.manifest
        self.mapper = mapper
        self.extractor = extractor or extract_many
        self.version = version or (EXTRACTOR_VERSION if extractor is None else "custom")
        self.agent_counts: Counter = Counter()  # extractions in the store by extractor version
        self.gone: list[bytes] = []  # the extractions of the stored records this build removed
        self.linked_by = ""  # how the linker was made: "adding", "taking again" or "reading everything"
        self.batch_size = batch_size
        self.progress = progress
        self.curator = curator
        self.problems = problems
        self.seen: set[str] = set()  # keys of the records read in this build
        self.origins: list[tuple[str, str]] = []  # (origin, key) of the records read in this build
        self.written: set[str] = set()  # keys of the records whose statements were rewritten
        self.appends_only = True  # no record read now was stored before (so none is read again)
        self.loaded = 0  # statements loaded into the store by this build
        self.report = BuildReport(target.path)

    @property
    def ox(self):
        return self.store.ox  # a folder build's store may move from memory to disk as it grows

    def _timed(self, stage: str, work, *args):
        started = time.process_time()
        try:
            return work(*args)
        finally:
            self.report.cpu[stage] = self.report.cpu.get(stage, 0.0) + time.process_time() - started

    def run(self, records: Iterator[Record], *, snapshot: bool) -> BuildReport:
        start = time.monotonic()
        self.m.db.executescript("DELETE FROM staged; DROP TABLE IF EXISTS temp.targets;")
        # A build that stopped (a full disk, a kill) may have changed shared nodes without keeping
        # their text for the snapshot; the next one then keeps the text of every shared node again.
        self.resumed = self.m.get_meta("unfinished") == "1"
        self.m.set_meta("unfinished", "1")
        self.m.describe_blocks = snapshot  # a store keeps each block's Turtle: made as the block is put
        linked = self.m.take_linked_state()
        self.m.watch_members()
        self._timed("read and extract", self._extract, records)
        self._timed("read and extract", self._drop_superseded)
        linker = self._timed("link", self._link, linked, snapshot)
        if snapshot and self.linked_by == "adding" and self._nothing_new():
            # The store is as the last build left it (its linker's state is kept only by a build
            # that finished) and this one read nothing new: nothing to write or count.
            outcome = None
            self.m.keep_linked_state(linked)
            self.report.statements = self._statements(snapshot_count(self.store.path))
            self.m.set_meta("unfinished", "")
            log.info("nothing new was read: the store is as the last build left it")
        else:
            # what the linker has seen, kept for the next build (taken before curation adds to it)
            kept = self._timed("link", keep_state, linker, self.agent_counts) if snapshot else None
            outcome = self._timed("curate", self._curate, linker)
            self._timed("emit and write", self._emit, outcome.linker if outcome is not None else linker, outcome)
            self._timed("finish", self._finish, outcome.linker if outcome is not None else linker, outcome, snapshot)
            if kept is not None:
                self.m.keep_linked_state(kept)
        self.report.seconds = time.monotonic() - start
        self.report.outcome = outcome
        self.report.linker = outcome.linker if outcome is not None else linker
        self.report.statuses = outcome.statuses if outcome is not None else []
        log.info("store %s: %d added, %d updated, %d unchanged, %d relinked", self.store.path,
                 self.report.added, self.report.updated, self.report.unchanged, self.report.relinked)
        return self.report

    def _nothing_new(self) -> bool:
        """Whether this build read no new or changed record, replaced none, applies no curation
        file (nor did the last build) and follows a build that finished with a snapshot (the
        linker took up the state it kept)."""
        return (not self.resumed and self.appends_only and not self.report.replaced
                and not self.m.one("SELECT COUNT(*) FROM staged")
                and (self.curator is None or self.curator.curation is None) and not self.m.get_meta("curation")
                and self.m.snapshot_current() and snapshot_count(self.store.path) is not None)

    # extract ----------------------------------------------------------------------------------

    def _extract(self, records: Iterator[Record]) -> None:
        pending: dict[str, tuple[int, str]] = {}
        next_seq = self.m.next_seq()
        seen = 0

        def todo() -> Iterator[Record]:
            nonlocal next_seq, seen
            for record in records:
                seen += 1
                key = iri.record_key(record)
                self.seen.add(key)
                self.origins.append((origin_of(record), key))
                source = source_digest(record, self.version)
                known = self.m.known(key)
                if known and known[1] == source and known[2] is not None:
                    self.report.unchanged += 1
                    continue
                if known:
                    pending[key] = (known[0], source)
                    self.appends_only = False
                else:
                    pending[key] = (next_seq, source)
                    next_seq += 1
                yield record

        batch: list = []
        done = 0
        for record, extraction in self.mapper.extract(todo(), self.extractor):
            key = iri.record_key(record)
            seq, source = pending.pop(key)
            batch.append((key, seq, source, record, extraction))
            if len(batch) >= self.batch_size:
                self.m.stage(batch)
                done += len(batch)
                batch = []
                self.progress("extracting", done, None)
        if batch:
            self.m.stage(batch)
            done += len(batch)
        self.progress("extracting", done, done)
        log.info("read %d records, %d new or changed", seen, done)

    def _drop_superseded(self) -> None:
        """Remove the stored records that records read now replace under a new key (a correction
        or an enrichment gave the paper another identity, or no longer does). First their
        statements digest is cleared, so that a build stopped half-way rewrites them if they
        are still wanted, then their graph goes, then what the manifest kept about them."""
        gone = self.m.superseded(self.origins)
        self.origins = []
        if not gone:
            return
        self.gone = [blob for key in gone for blob in (self.m.one("SELECT extraction FROM records WHERE key = ?", (key,)),)
                     if blob is not None]  # what the linker had from them
        with self.m.transaction() as db:
            db.executemany("UPDATE records SET digest = NULL WHERE key = ?", ((k,) for k in gone))
        for key in gone:
            graph = _node(iri.record_graph(key))
            if self.ox.contains_named_graph(graph):
                self.ox.remove_graph(graph)
        self.m.forget(gone)
        self.report.replaced += len(gone)
        log.info("%d stored records replaced under a new identity: %s", len(gone), ", ".join(gone[:5]))

    # link -------------------------------------------------------------------------------------

    def _link(self, linked: bytes | None, keep: bool):
        """The linker, having seen every extraction of the store in ``seq`` order
        (:func:`scholarkg.store.linking.link_records`, which takes up ``linked``, what the last
        build's linker had collected); ``keep``: keep what the next build needs to do the same."""
        from .linking import link_records

        linker, self.agent_counts, self.linked_by = link_records(
            self.m, linked, appends_only=self.appends_only, gone=self.gone, keep=keep, progress=self.progress)
        return linker

    # curate -----------------------------------------------------------------------------------

    def _curation_digest(self) -> str:
        curation = self.curator.curation if self.curator is not None else None
        if curation is None:
            return ""
        text = "\n".join(repr(c) for c in curation.corrections)
        return hashlib.blake2b(text.encode("utf-8"), digest_size=16).hexdigest()

    def _curate(self, linker):
        """Apply the curation file to every record of the store; None when there is none."""
        if self.curator is None or self.curator.curation is None:
            return None
        order = self.m.rows(
            "SELECT key, seq, record, extraction FROM staged UNION ALL "
            "SELECT key, seq, record, extraction FROM records WHERE key NOT IN (SELECT key FROM staged) ORDER BY seq"
        ).fetchall()
        records = [unpack(r[2]) for r in order]
        extractions = [unpack(r[3]) for r in order]
        for key, record in zip((r[0] for r in order), records):
            if key not in self.seen:  # stored, not read again: its pinned facts are already in it
                self.curator.remember(record)
        outcome = self.curator.apply(records, extractions, linker, self.problems)
        outcome.keys = [r[0] for r in order]
        return outcome

    def _choose_targets(self, resolver, everything: bool) -> None:
        """The records to emit besides the staged ones: all of them when a curation file acts now or
        did last time; otherwise those whose labels now resolve differently, and those an
        interrupted build left half-written."""
        db = self.m.db
        db.executescript("CREATE TEMP TABLE targets (key TEXT PRIMARY KEY);")
        with self.m.transaction():
            if everything:
                db.execute("INSERT OR IGNORE INTO targets SELECT key FROM records")
            else:
                changed = []
                for label, entity in self.m.rows("SELECT label, entity FROM resolution").fetchall():
                    resolved = resolver(label)
                    if (resolved.key if resolved else "") != entity:
                        changed.append((label,))
                db.execute("CREATE TEMP TABLE changed (label TEXT PRIMARY KEY)")
                db.executemany("INSERT INTO changed VALUES (?)", changed)
                db.execute("INSERT OR IGNORE INTO targets SELECT key FROM record_labels WHERE label IN (SELECT label FROM changed)")
                db.execute("INSERT OR IGNORE INTO targets SELECT key FROM records WHERE digest IS NULL")
                db.execute("DROP TABLE temp.changed")
            db.execute("DELETE FROM targets WHERE key IN (SELECT key FROM staged)")

    # emit and write ---------------------------------------------------------------------------

    def _pages(self) -> Iterator[list[tuple]]:
        """Staged records, then the other records to rewrite, a page at a time (by ``seq``)."""
        for sql in PAGE_QUERIES:
            last = -1
            while True:
                rows = self.m.rows(sql, (last, self.batch_size)).fetchall()
                if not rows:
                    break
                last = rows[-1][1]
                yield rows

    def _batches(self, resolver, outcome) -> Iterator[tuple[list, dict, dict]]:
        index = {key: i for i, key in enumerate(outcome.keys)} if outcome is not None else {}
        for rows in self._pages():
            items = []
            for r in rows:
                if outcome is not None:
                    i = index[r[0]]
                    items.append((outcome.state.records[i], outcome.extractions[i],
                                  Curated(outcome.provenance_table(i), tuple(outcome.record_triples(i)),
                                          tuple(outcome.linked_keys(i)))))
                else:
                    items.append((unpack(r[3]), unpack(r[4])))
            labels = set().union(*(labels_of(item[1]) for item in items))
            resolution = {label: resolver(label) for label in labels}
            context = {r[0]: (r[1], r[2], r[3], r[4], bool(r[5])) for r in rows}
            yield items, resolution, (context, resolution)

    def _emit(self, linker, outcome) -> None:
        digest = self._curation_digest()
        everything = bool(digest) or bool(self.m.get_meta("curation"))
        self._choose_targets(linker.get, everything)
        total = self.m.one("SELECT COUNT(*) FROM staged") + self.m.one("SELECT COUNT(*) FROM targets")
        done = 0
        with self.m.bulk_writing(total):
            for emissions, (context, resolution) in self.mapper.emit(self._batches(linker.get, outcome)):
                self._write(emissions, context, resolution)
                done += len(emissions)
                self.progress("writing", done, total)
        self.m.set_meta("curation", digest)

    def _write(self, emissions, context: dict, resolution: dict) -> None:
        changed = []
        for e in emissions:
            seq, source, record, extraction, staged = context[e.key]
            known = self.m.known(e.key)
            if known and known[2] == e.digest:
                if staged:
                    self.report.unchanged += 1
                    self.m.keep_payload(e.key, (seq, source, record, extraction))
                continue
            changed.append(e)
            if not known:
                self.report.added += 1
            elif staged:
                self.report.updated += 1
            else:
                self.report.relinked += 1
        if not changed:
            return
        payloads = {e.key: context[e.key][:4] for e in changed}
        self.m.begin_rewrite(changed, payloads)
        for e in changed:
            graph = _node(e.graph)
            if self.ox.contains_named_graph(graph):
                self.ox.remove_graph(graph)
        self._load(b"".join(e.nquads() for e in changed))
        self.m.end_rewrite(changed)
        self.written.update(e.key for e in changed)
        with self.m.transaction() as db:
            db.executemany(
                "INSERT OR REPLACE INTO resolution VALUES (?, ?)",
                ((label, resolution[label].key if resolution[label] else "") for label in {x for e in changed for x in e.labels}),
            )

    def _load(self, data: bytes) -> None:
        if not data:
            return
        started = time.process_time()
        load_nquads(self.ox, data)
        statements = data.count(b"\n")
        self.store.loaded(statements)
        self.loaded += statements
        self.report.cpu["of which loading"] = self.report.cpu.get("of which loading", 0.0) + time.process_time() - started

    # finish -----------------------------------------------------------------------------------

    def _finish(self, linker, outcome, snapshot: bool) -> None:
        from .finish import write_aggregates

        self.report.entities = write_aggregates(self.store, linker, outcome, set(self.agent_counts), self.written,
                                                self._load, self.progress, every_shared=self.resumed)
        if snapshot:
            from .search import write_search_index
            from .snapshot import write_store_snapshot

            if self.resumed or not self.m.snapshot_current() or snapshot_count(self.store.path) is None:
                # a store's own index, not part of the graph (nor of its snapshot)
                self.loaded += write_search_index(self.ox, self.m, whole=self.resumed)
                self.progress("snapshot", 0, None)
                written = write_store_snapshot(self.store, self.progress)
                self.m.snapshot_written()
                self.report.statements = self._statements(written)
                if self.loaded * _COMPACT_SHARE >= written:
                    self._compact()
            else:  # both are made from the graph alone
                log.info("the graph did not change: its search index and snapshot are current")
                self.report.statements = self._statements(snapshot_count(self.store.path))
        self.m.set_meta("unfinished", "")

    def _statements(self, in_snapshot: int | None) -> int | None:
        """The statements of the graph after the build: its snapshot's, unless a SPARQL update
        changed the database (then counted there)."""
        return self.store.count() if database_updated(self.store.path) else in_snapshot

    def _compact(self) -> None:
        """Compact the whole database once after a build that wrote much of it (a first build,
        a rewrite of the search index). Left to itself, RocksDB compacts such writes in the
        background of later processes, and a build or query process that ends before the
        compaction does throws its work away: on a store of 6.8 million statements every later
        one-record build spent about 3 CPU-s so, until a process lived long enough."""
        started = time.process_time()
        self.progress("compacting", 0, None)
        self.ox.optimize()
        log.info("compacted the store's database after %s statements were loaded (%.1f CPU-s)", f"{self.loaded:,}",
                 time.process_time() - started)


def _node(term):
    import pyoxigraph as ox

    return ox.NamedNode(str(term))
