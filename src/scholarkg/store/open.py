"""Opening a store to answer queries: from an in-memory copy when it fits, from disk otherwise.

Oxigraph answers a query several times faster from memory than from its on-disk database
(each triple pattern there is a RocksDB lookup), and an in-memory copy takes about 300 bytes
per statement. :func:`open_for_query` makes the copy when the store's statements fit in the
memory budget, loading the sorted N-Quads snapshot of the blocks the last build left (so the
copy has the same named graphs) and the store's search index, or the database itself when the
blocks are not the graph (after a SPARQL update, or a build that did not finish), and reads
the database on disk otherwise.
Loading costs about 3 s per million statements, which a long-running server pays once; a single
``query`` pays it on every run, so its default budget is smaller than a server's.

>>> from scholarkg.store import open_for_query                             # doctest: +SKIP
>>> with open_for_query("papers.store", memory_budget=2 << 30) as store:   # doctest: +SKIP
...     store.in_memory, store.ox.query("ASK { ?s ?p ?o }")
"""

from __future__ import annotations

import logging
import os
from pathlib import Path

__all__ = ["QueryStore", "open_for_query", "fits_in_memory", "BYTES_PER_STATEMENT", "DEFAULT_MEMORY_BUDGET",
           "memory_budget_from_env"]

log = logging.getLogger(__name__)

BYTES_PER_STATEMENT = 400  # an in-memory Oxigraph store, with a margin (300 measured)
DEFAULT_MEMORY_BUDGET = 256 << 20  # bytes; a server passes its own
ENV_BUDGET = "SCHOLARKG_MEMORY_BUDGET_MB"


def memory_budget_from_env(default: int = DEFAULT_MEMORY_BUDGET) -> int:
    """The budget in bytes from ``$SCHOLARKG_MEMORY_BUDGET_MB`` when set, else ``default``."""
    return budget_from_env(ENV_BUDGET, default)


def budget_from_env(name: str, default: int) -> int:
    """A budget in bytes from the environment variable ``name`` (megabytes) when set, else ``default``."""
    value = os.environ.get(name, "").strip()
    if not value:
        return default
    try:
        return max(0, int(float(value) * (1 << 20)))
    except ValueError:
        from ..errors import UsageError

        raise UsageError(f"${name} must be a number of megabytes, not {value!r}") from None


def fits_in_memory(path: str | Path, budget: int) -> bool:
    """Whether an in-memory copy of the store at ``path`` fits in ``budget`` bytes (its
    statement count is known from its last build's snapshot; after a SPARQL update, or a build
    that did not finish, that count is taken as near enough)."""
    from .snapshot import snapshot_count

    count = snapshot_count(path)
    return (count is not None and budget > 0 and count * BYTES_PER_STATEMENT <= budget
            and (Path(path) / "manifest.sqlite").is_file())


def load_snapshot(path: Path, into) -> None:
    """Load the sorted N-Quads snapshot of the store at ``path`` (its blocks, read from its
    manifest) into the :class:`pyoxigraph.Store` ``into``, about 16 MB at a time."""
    from .batches import load_nquads
    from .snapshot import store_snapshot

    pending: list[bytes] = []
    for chunk in store_snapshot(path, "nquads"):
        pending.append(chunk)
        if len(pending) >= 16:
            load_nquads(into, b"".join(pending))
            pending = []
    load_nquads(into, b"".join(pending))


class QueryStore:
    """A store opened for queries: ``ox`` is the in-memory copy or the on-disk database."""

    def __init__(self, path: Path, ox, in_memory: bool, statements: int | None, disk=None):
        self.path = path
        self.ox = ox
        self.in_memory = in_memory
        self.statements = statements
        self._disk = disk

    def count(self) -> int:
        return self.statements if self.statements is not None else len(self.ox)

    def close(self) -> None:
        if self._disk is not None:
            self._disk.close()
            self._disk = None
        self.ox = None

    def __enter__(self) -> QueryStore:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def open_for_query(path: str | Path, *, memory_budget: int | None = None) -> QueryStore:
    """Open the store at ``path`` for querying, in memory when its statements fit in
    ``memory_budget`` bytes (default :data:`DEFAULT_MEMORY_BUDGET`, or
    ``$SCHOLARKG_MEMORY_BUDGET_MB``; 0 always reads from disk).

    The copy is a snapshot: the store's lock is held only while it is made. On disk, the
    store's shared lock is held until the returned object is closed.
    """
    import pyoxigraph

    from .disk import GraphStore
    from .snapshot import statement_count

    budget = memory_budget_from_env() if memory_budget is None else memory_budget
    path = Path(path)
    disk = GraphStore(path)
    try:
        count = statement_count(path)
        if fits_in_memory(path, budget):
            from .search import SEARCH_GRAPH

            memory = pyoxigraph.Store()
            if count is None:  # the snapshot is not the graph (an update, a build that did not finish)
                memory.bulk_extend(disk.ox)
                count = disk.count()
            else:
                load_snapshot(path, memory)
                # the store's search index, which the snapshot leaves out
                memory.extend(disk.ox.quads_for_pattern(None, None, None, pyoxigraph.NamedNode(SEARCH_GRAPH)))
            log.info("%s: answering from an in-memory copy (%d statements)", path, count)
            disk.close()
            return QueryStore(path, memory, True, count)
    except BaseException:
        disk.close()
        raise
    log.info("%s: answering from disk", path)
    return QueryStore(path, disk.ox, False, count, disk)
