"""Bulk builds on a Dask cluster (``scholarkg bulk``).

The build is :func:`scholarkg.store.build_store` with its two map steps sent to Dask workers:

    client                              workers
    read, dedupe, skip unchanged  --->  extract a partition of records        (extract_batch)
    stage; link all records (reduce)
    resolve each partition's labels --> emit the partition as N-Quads shards  (emit_batch)
    load the shards into the store

Only the client touches the store and the input files, so workers need no shared file
system, only the ``scholarkg`` package. Results come back in submission order, a bounded
number of partitions in flight, so memory stays flat however large the input; the graph is
the one the single-process build makes.

Without a scheduler address a :class:`distributed.LocalCluster` of worker processes is
started here and stopped at the end (or on Ctrl-C).
"""

from __future__ import annotations

import logging
from collections import deque
from collections.abc import Iterable, Iterator
from pathlib import Path

from .errors import NetworkError, Problems, UsageError
from .store.emit import emit_batch, extract_batch

__all__ = ["DaskMapper", "bulk_build"]

log = logging.getLogger(__name__)


class DaskMapper:
    """Runs the build's map steps on a ``distributed.Client``, results in order."""

    def __init__(self, client, *, partition_size: int = 500, in_flight: int | None = None):
        self.client = client
        self.partition_size = partition_size
        workers = max(len(client.scheduler_info().get("workers", {})), 1)
        self.in_flight = in_flight or 2 * workers + 1

    def _ordered(self, function, items: Iterable[tuple[tuple, object]]) -> Iterator[tuple[object, object]]:
        window: deque = deque()
        for args, context in items:
            window.append((self.client.submit(function, *args, pure=False), context))
            if len(window) >= self.in_flight:
                future, ctx = window.popleft()
                yield future.result(), ctx
        while window:
            future, ctx = window.popleft()
            yield future.result(), ctx

    def extract(self, records: Iterator, extractor) -> Iterator:
        def partitions():
            part = []
            for record in records:
                part.append(record)
                if len(part) >= self.partition_size:
                    yield (part, extractor), None
                    part = []
            if part:
                yield (part, extractor), None

        for pairs, _ in self._ordered(extract_batch, partitions()):
            yield from pairs

    def emit(self, batches: Iterable[tuple[list, dict, object]]) -> Iterator[tuple[list, object]]:
        return self._ordered(emit_batch, (((pairs, resolution), context) for pairs, resolution, context in batches))


def bulk_build(
    inputs: Iterable[str | Path],
    store: str | Path,
    *,
    scheduler: str | None = None,
    workers: int = 2,
    partition_size: int = 500,
    format: str | None = None,
    problems: Problems | None = None,
    extractor=None,
    extractor_version: str | None = None,
    progress=None,
):
    """Build ``inputs`` into ``store`` with Dask; returns a :class:`scholarkg.store.BuildReport`."""
    from .store import build_store

    if workers < 1 or partition_size < 1:
        raise UsageError("--workers and --partition-size must be at least 1")
    client, cluster = _connect(scheduler, workers)
    try:
        mapper = DaskMapper(client, partition_size=partition_size)
        return build_store(
            inputs, store, format=format, problems=problems, mapper=mapper, extractor=extractor,
            extractor_version=extractor_version, batch_size=partition_size, progress=progress,
        )
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


def _connect(scheduler: str | None, workers: int):
    from distributed import Client, LocalCluster

    if scheduler:
        try:
            return Client(scheduler, timeout="30s"), None
        except (OSError, TimeoutError) as exc:
            raise NetworkError(f"cannot reach the Dask scheduler at {scheduler} ({exc})") from exc
    cluster = LocalCluster(
        n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None, silence_logs=logging.ERROR
    )
    log.info("started a local Dask cluster of %d worker processes", workers)
    return Client(cluster), cluster
