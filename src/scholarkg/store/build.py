"""Incremental, idempotent builds into a store.

::

    read + dedupe        records; those whose content and extractor are unchanged are skipped
    extract   (map)      new and changed records -> extractions, staged in the manifest
    link      (reduce)   one Linker over every record of the store, in order of arrival
    emit      (map)      records -> N-Quads, with labels resolved by that one linker
    write                replace the graphs of records whose statements changed
    finish               entity descriptions, paper counts and pairs, unreferenced shared nodes

Linking is the reduce step because the linker merges names across all records (an acronym
in one paper, its long form in another): a record's entity IRIs depend on the others. After
linking, the labels whose entity changed since the last build point at the records to
rewrite, even those that are not in this build's input ("relinked"). The map steps take and
return plain values, so :mod:`scholarkg.bulk` runs them on a Dask cluster and gets the same
graph as this single process.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import Problems, ScholarKGError, StoreError, disk_full
from ..graph import iri
from ..model import Record
from .disk import GraphStore
from .emit import emit_batch, labels_of, source_digest
from .manifest import unpack

__all__ = ["BuildReport", "LocalMapper", "build_store"]

log = logging.getLogger(__name__)

Progress = Callable[[str, int, "int | None"], None]
_BULK_LOAD_BYTES = 4 << 20  # below this a transactional load; above, Oxigraph's bulk loader


@dataclass
class BuildReport:
    """What a build did to a store."""

    store: Path
    added: int = 0  # records new to the store
    updated: int = 0  # records whose statements changed
    unchanged: int = 0  # records given again with the same statements
    relinked: int = 0  # other records rewritten because linking changed their entities
    entities: int = 0  # entity descriptions written or rewritten
    seconds: float = 0.0
    problems: Problems = field(default_factory=Problems)

    @property
    def records(self) -> int:
        """Records read from the input (after removing duplicates)."""
        return self.added + self.updated + self.unchanged


class LocalMapper:
    """Runs the map steps in this process (:class:`scholarkg.bulk.DaskMapper` runs them on a cluster)."""

    def extract(self, records: Iterator[Record], extractor):
        return extractor(records)

    def emit(self, batches: Iterable[tuple[list, dict, object]]) -> Iterator[tuple[list, object]]:
        for pairs, resolution, context in batches:
            yield emit_batch(pairs, resolution), context


def build_store(
    inputs: Iterable[str | Path],
    store: str | Path,
    *,
    format: str | None = None,
    problems: Problems | None = None,
    mapper=None,
    extractor=None,
    extractor_version: str | None = None,
    batch_size: int = 2000,
    progress: Progress | None = None,
) -> BuildReport:
    """Add the records of ``inputs`` (files) to the store at ``store``, creating it if needed.

    ``extractor`` replaces :func:`scholarkg.extract.extract_many` (same interface); records
    are extracted again when ``extractor_version`` differs from the one that made them.
    """
    from ..identity import unique_records
    from ..readers import read_records

    problems = problems if problems is not None else Problems()
    records = unique_records(read_records([str(p) for p in inputs], problems, format=format), problems)
    try:
        with GraphStore(store, writable=True) as graph_store:
            builder = _Builder(graph_store, mapper or LocalMapper(), extractor, extractor_version, batch_size, progress or _no_progress)
            report = builder.run(records)
    except ScholarKGError:
        raise
    except Exception as exc:  # a full disk, from Python, SQLite or RocksDB alike, is exit 5
        if (reason := disk_full(exc)) is None:
            raise
        raise StoreError(f"{store}: {reason} while building; the store keeps what the last finished build wrote, "
                         "and the next build, with space freed, completes it") from exc
    report.problems = problems
    return report


def _no_progress(phase: str, done: int, total: int | None) -> None:
    pass


class _Builder:
    def __init__(self, store: GraphStore, mapper, extractor, version: str | None, batch_size: int, progress: Progress):
        from ..extract import EXTRACTOR_VERSION, extract_many

        self.store, self.ox, self.m = store, store.ox, store.manifest
        self.mapper = mapper
        self.extractor = extractor or extract_many
        self.version = version or (EXTRACTOR_VERSION if extractor is None else "custom")
        self.agents: set[str] = set()  # extractor versions of the extractions in the store
        self.batch_size = batch_size
        self.progress = progress
        self.report = BuildReport(store.path)

    def run(self, records: Iterator[Record]) -> BuildReport:
        start = time.monotonic()
        self.m.db.executescript("DELETE FROM staged; DROP TABLE IF EXISTS temp.targets;")
        self._extract(records)
        linker = self._link()
        self._emit(linker)
        self._finish(linker)
        self.report.seconds = time.monotonic() - start
        log.info("store %s: %d added, %d updated, %d unchanged, %d relinked", self.store.path,
                 self.report.added, self.report.updated, self.report.unchanged, self.report.relinked)
        return self.report

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
                source = source_digest(record, self.version)
                known = self.m.known(key)
                if known and known[1] == source and known[2] is not None:
                    self.report.unchanged += 1
                    continue
                if known:
                    pending[key] = (known[0], source)
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

    # link -------------------------------------------------------------------------------------

    def _link(self):
        from ..link import Linker

        linker = Linker()
        total = self.m.one("SELECT COUNT(*) FROM records WHERE key NOT IN (SELECT key FROM staged)") + self.m.one("SELECT COUNT(*) FROM staged")
        for n, blob in enumerate(self.m.linking_order(), start=1):
            extraction = unpack(blob)
            linker.add(extraction)
            if extraction.extractor:
                self.agents.add(extraction.extractor)
            if n % 10_000 == 0:
                self.progress("linking", n, total)
        self.progress("linking", total, total)
        # Records not given again whose labels now resolve differently, and records an
        # interrupted build left half-written, are emitted again.
        changed = []
        for label, entity in self.m.rows("SELECT label, entity FROM resolution").fetchall():
            resolved = linker.get(label)
            if (resolved.key if resolved else "") != entity:
                changed.append((label,))
        db = self.m.db
        db.executescript("CREATE TEMP TABLE targets (key TEXT PRIMARY KEY); CREATE TEMP TABLE changed (label TEXT PRIMARY KEY);")
        with self.m.transaction():
            db.executemany("INSERT INTO changed VALUES (?)", changed)
            db.execute("INSERT OR IGNORE INTO targets SELECT key FROM record_labels WHERE label IN (SELECT label FROM changed)")
            db.execute("INSERT OR IGNORE INTO targets SELECT key FROM records WHERE digest IS NULL")
            db.execute("DELETE FROM targets WHERE key IN (SELECT key FROM staged)")
        db.execute("DROP TABLE temp.changed")
        return linker

    # emit and write ---------------------------------------------------------------------------

    def _pages(self) -> Iterator[list[tuple]]:
        """Staged records, then the other records to rewrite, a page at a time (by ``seq``)."""
        queries = (
            ("SELECT key, seq, source, record, extraction, 1 FROM staged WHERE seq > ? ORDER BY seq LIMIT ?"),
            ("SELECT r.key, r.seq, r.source, r.record, r.extraction, 0 FROM targets t JOIN records r USING (key) "
             "WHERE r.seq > ? ORDER BY r.seq LIMIT ?"),
        )
        for sql in queries:
            last = -1
            while True:
                rows = self.m.rows(sql, (last, self.batch_size)).fetchall()
                if not rows:
                    break
                last = rows[-1][1]
                yield rows

    def _batches(self, linker) -> Iterator[tuple[list, dict, dict]]:
        for rows in self._pages():
            pairs = [(unpack(r[3]), unpack(r[4])) for r in rows]
            labels = set().union(*(labels_of(e) for _, e in pairs))
            resolution = {label: linker.get(label) for label in labels}
            context = {r[0]: (r[1], r[2], r[3], r[4], bool(r[5])) for r in rows}
            yield pairs, resolution, (context, resolution)

    def _emit(self, linker) -> None:
        total = self.m.one("SELECT COUNT(*) FROM staged") + self.m.one("SELECT COUNT(*) FROM targets")
        done = 0
        for emissions, (context, resolution) in self.mapper.emit(self._batches(linker)):
            self._write(emissions, context, resolution)
            done += len(emissions)
            self.progress("writing", done, total)

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
            graph = _node(iri.record_graph(e.key))
            if self.ox.contains_named_graph(graph):
                self.ox.remove_graph(graph)
        self._load(b"".join(e.nquads for e in changed))
        self.m.end_rewrite(changed)
        with self.m.transaction() as db:
            db.executemany(
                "INSERT OR REPLACE INTO resolution VALUES (?, ?)",
                ((label, resolution[label].key if resolution[label] else "") for label in {x for e in changed for x in e.labels}),
            )

    def _load(self, data: bytes) -> None:
        import pyoxigraph as ox

        if not data:
            return
        if len(data) >= _BULK_LOAD_BYTES:
            self.ox.bulk_load(data, ox.RdfFormat.N_QUADS)
        else:
            self.ox.load(data, ox.RdfFormat.N_QUADS)

    # finish -----------------------------------------------------------------------------------

    def _finish(self, linker) -> None:
        from .finish import write_aggregates

        from .search import write_search_index

        self.report.entities = write_aggregates(self.store, linker, self.agents, self._load, self.progress)
        write_search_index(self.ox)


def _node(term):
    import pyoxigraph as ox

    return ox.NamedNode(str(term))

