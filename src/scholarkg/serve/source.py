"""What an endpoint answers from, decided and opened in this one place.

Three ways to serve a store:

``read-only``
    the on-disk database, opened read-only by each engine process; the endpoint holds the
    store's shared lock for as long as it runs, so no build writes underneath it;
``read-write``
    the on-disk database opened for writing by a single engine process (``--allow-update``);
    the endpoint holds the store's exclusive lock;
``in-memory``
    a copy in memory (``--in-memory``): the store is dumped once as N-Quads into the process
    that forks the engines, which then share the copy's pages; the lock is held only while
    the copy is made, so builds may go on, and the endpoint keeps its snapshot.

With a memory budget (``serve --memory-budget MB`` or ``$SCHOLARKG_MEMORY_BUDGET_MB``), a
read-only endpoint answers from an in-memory copy when the store fits in it
(:func:`scholarkg.store.open.fits_in_memory`, as ``query --store`` decides), from disk otherwise;
the copy is the sorted N-Quads snapshot the last build left, read as it is.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from ..errors import UsageError

__all__ = ["StoreSource", "choose_source", "MODES"]

MODES = ("read-only", "read-write", "in-memory")


@dataclass(frozen=True)
class StoreSource:
    path: Path
    mode: str

    @property
    def location(self) -> Path:
        return self.path / "oxigraph"

    @property
    def writable(self) -> bool:
        return self.mode == "read-write"

    def lock(self) -> int:
        """Check the folder is a store and take its lock; returns the descriptor holding it."""
        from ..store.disk import check_store, lock_store, warn_if_unfinished

        check_store(self.path)
        fd = lock_store(self.path, writable=self.writable)
        if self.mode != "in-memory":  # the copy's dump says so as it opens the store
            warn_if_unfinished(self.path)
        return fd

    def dump(self, output: BinaryIO) -> None:
        """Write every statement of the store to ``output`` as N-Quads (for the in-memory copy):
        the snapshot of the blocks the last build left when there is one, else the database's
        statements."""
        import pyoxigraph

        from ..store import GraphStore
        from ..store.snapshot import statement_count, store_snapshot

        with GraphStore(self.path) as store:  # its lock: no build changes the blocks meanwhile
            if statement_count(self.path) is not None:
                from ..store.search import SEARCH_GRAPH

                for chunk in store_snapshot(self.path, "nquads"):
                    output.write(chunk)
                index = store.ox.quads_for_pattern(None, None, None, pyoxigraph.NamedNode(SEARCH_GRAPH))
                pyoxigraph.serialize(index, output, pyoxigraph.RdfFormat.N_QUADS)  # the search index, not in the snapshot
            else:
                store.ox.dump(output, pyoxigraph.RdfFormat.N_QUADS)

    def open(self, copy: BinaryIO | None = None):
        """The :class:`pyoxigraph.Store` an engine process answers from.

        For ``in-memory``, ``copy`` is the N-Quads stream :meth:`dump` writes; the others open
        the database folder themselves (in the engine process, never before a fork).
        """
        import pyoxigraph

        if self.mode == "in-memory":
            store = pyoxigraph.Store()
            if copy is not None:  # the store's own statements (see dump)
                from ..store.batches import OWN_TEXT

                store.bulk_load(copy, format=pyoxigraph.RdfFormat.N_QUADS, **OWN_TEXT)
            return store
        if self.mode == "read-write":
            return pyoxigraph.Store(os.fspath(self.location))
        return pyoxigraph.Store.read_only(os.fspath(self.location))


def choose_source(store: str | Path, *, in_memory: bool = False, allow_update: bool = False,
                  memory_budget: int | None = None) -> StoreSource:
    """How to serve ``store`` given the command-line choices; ``memory_budget`` (bytes, else
    ``$SCHOLARKG_MEMORY_BUDGET_MB`` when set) serves a store that fits from memory."""
    from ..store.open import ENV_BUDGET, fits_in_memory, memory_budget_from_env

    if in_memory and allow_update:
        raise UsageError("updates to an in-memory copy would be lost: give --allow-update or --in-memory, not both")
    if memory_budget is None and os.environ.get(ENV_BUDGET, "").strip():
        memory_budget = memory_budget_from_env()
    if not in_memory and not allow_update and memory_budget is not None:
        in_memory = fits_in_memory(store, memory_budget)
    mode = "in-memory" if in_memory else "read-write" if allow_update else "read-only"
    return StoreSource(Path(store), mode)
