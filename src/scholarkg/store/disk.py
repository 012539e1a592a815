"""A store folder: Oxigraph's on-disk database and the manifest, behind one lock.

Layout of ``STORE/``::

    scholarkg-store.json   marks the folder as a store (format version)
    oxigraph/              the Oxigraph (RocksDB) database; ``oxigraph serve --location`` reads it
    manifest.sqlite        what incremental builds know about each record (see manifest.py)
    snapshot/              info.json (the counts a build made), and ``updated`` once a SPARQL
                           update changed the database (see snapshot.py)
    .lock                  readers hold it shared, a build holds it exclusively

Oxigraph allows one writing process, and reading while another process writes is undefined,
so a build waits for no one: it fails at once with :class:`~scholarkg.errors.LockedError`
while anything else has the store open, and readers fail the same way while a build runs.
"""

from __future__ import annotations

import json
import logging
import os
from pathlib import Path

from ..errors import InputError, LockedError, StoreError

__all__ = ["GraphStore", "is_store", "check_store", "lock_store", "warn_if_unfinished", "MARKER"]

log = logging.getLogger(__name__)

MARKER = "scholarkg-store.json"
FORMAT = {"format": "scholarkg-store", "version": 2}


def is_store(path: str | Path) -> bool:
    """True if ``path`` is a store folder."""
    return (Path(path) / MARKER).is_file()


def lock_store(path: Path, *, writable: bool) -> int:
    """Take the store's lock (exclusive for writing, shared for reading) without waiting.

    Returns the file descriptor holding it; closing the descriptor releases the lock.
    """
    import fcntl

    try:
        fd = os.open(Path(path) / ".lock", os.O_RDWR | os.O_CREAT, 0o644)
    except OSError as exc:
        raise StoreError(f"{path}: cannot create the lock file ({exc.strerror or exc})") from exc
    try:
        fcntl.flock(fd, (fcntl.LOCK_EX if writable else fcntl.LOCK_SH) | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        if writable:
            raise LockedError(f"{path}: in use by another process (a build, a query or a server); try again when it ends") from None
        raise LockedError(f"{path}: a build is writing this store; try again when it ends") from None
    return fd


def check_store(path: Path) -> None:
    """Raise unless ``path`` is a store folder of the format this version reads."""
    path = Path(path)
    if not is_store(path):
        if not path.exists():
            raise InputError(f"{path}: no such store")
        raise InputError(f"{path}: not a scholarkg store (no {MARKER}); make one with `scholarkg build ... --store {path}`")
    try:
        found = json.loads((path / MARKER).read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise StoreError(f"{path / MARKER}: unreadable ({exc})") from exc
    if not isinstance(found, dict) or found.get("format") != FORMAT["format"] or found.get("version") != FORMAT["version"]:
        raise StoreError(f"{path / MARKER}: a store of another format or version ({found!r}); rebuild it")


def warn_if_unfinished(path: Path) -> None:
    """Say so when the store's last build stopped before it finished: the store answers with
    part of that build until the next one completes it."""
    from .snapshot import unfinished_build

    if unfinished_build(path):
        log.warning("%s: its last build did not finish, so the store holds only part of it; "
                    "run the build again to complete it", path)


class GraphStore:
    """An open store. Use as a context manager; ``writable=True`` creates the folder if needed.

    ``ox`` is the :class:`pyoxigraph.Store`; ``manifest`` is only open for writing.
    """

    def __init__(self, path: str | Path, *, writable: bool = False):
        import pyoxigraph

        self.path = Path(path)
        self.writable = writable
        self.manifest = None
        self._lock_fd: int | None = None
        if writable:
            self._create()
        check_store(self.path)
        self._lock()
        try:
            location = str(self.path / "oxigraph")
            self.ox = pyoxigraph.Store(location) if writable else pyoxigraph.Store.read_only(location)
            if writable:
                from .manifest import Manifest

                self.manifest = Manifest(self.path / "manifest.sqlite")
            else:
                warn_if_unfinished(self.path)
        except OSError as exc:
            self._unlock()
            raise StoreError(f"{self.path}: cannot open the store ({exc})") from exc
        except BaseException:
            self._unlock()
            raise

    @property
    def location(self) -> Path:
        """The Oxigraph database folder (for ``oxigraph serve --location``)."""
        return self.path / "oxigraph"

    def _create(self) -> None:
        if self.path.exists() and not self.path.is_dir():
            raise StoreError(f"{self.path}: exists and is not a folder")
        if self.path.is_dir() and not is_store(self.path) and any(self.path.iterdir()):
            raise StoreError(f"{self.path}: exists and is not a scholarkg store; give a new or empty folder")
        if not is_store(self.path):
            from ..fileio import write_text

            write_text(self.path / MARKER, json.dumps(FORMAT, indent=2) + "\n")

    def _lock(self) -> None:
        self._lock_fd = lock_store(self.path, writable=self.writable)

    def _unlock(self) -> None:
        if self._lock_fd is not None:
            os.close(self._lock_fd)  # closing the descriptor releases the lock
            self._lock_fd = None

    def loaded(self, statements: int) -> None:
        """Told of each load by a build; a database on disk holds any number, so nothing to do."""

    def count(self) -> int:
        """Number of statements of the knowledge graph (every statement lives in exactly one
        graph; the search index, :mod:`scholarkg.store.search`, is not counted)."""
        return len(self.ox) - self.index_count()

    def index_count(self) -> int:
        """Number of statements of the search index (counted by Oxigraph: iterating them in
        Python took 17 times as long)."""
        from .search import SEARCH_GRAPH

        answer = self.ox.query(f"SELECT (COUNT(*) AS ?n) WHERE {{ GRAPH <{SEARCH_GRAPH}> {{ ?s ?p ?o }} }}")
        return int(next(iter(answer))[0].value)

    def quads(self):
        """Every statement of the knowledge graph, the search index left out (for exports)."""
        from .search import SEARCH_GRAPH

        return (q for q in self.ox if getattr(q.graph_name, "value", None) != SEARCH_GRAPH)

    def close(self) -> None:
        if self.manifest is not None:
            self.manifest.close()
            self.manifest = None
        if getattr(self, "ox", None) is not None:
            if self.writable:
                self.ox.flush()
            self.ox = None  # dropping the last reference closes the database
        self._unlock()

    def __enter__(self) -> GraphStore:
        return self

    def __exit__(self, *exc) -> None:
        self.close()
