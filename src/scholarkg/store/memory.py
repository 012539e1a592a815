"""The sink of a folder build: an Oxigraph store with a scratch manifest, in memory while it fits.

It has what :mod:`scholarkg.store.build` needs of a store (``ox``, ``manifest``, ``path``), so
a folder build runs the same stages as ``build --store``; the manifest (records, extractions,
the text of every part of the graph) lives in a temporary folder that is removed when the
build is closed or collected. :mod:`scholarkg.pipeline` writes the files from it.

The statements stay in an in-memory Oxigraph store while they fit in the build's memory
budget (``$SCHOLARKG_BUILD_MEMORY_MB``, default 512 MB: about 1.3 million statements at
:data:`~scholarkg.store.open.BYTES_PER_STATEMENT`). Past it, they move once to an on-disk
Oxigraph database in the same temporary folder and the build goes on there: loading into the
database costs more CPU (about 7 s per million statements), but its memory stays bounded, so a
folder build of hundreds of thousands of records does not hold tens of millions of statements
in RAM. The outputs are the same either way; they are written from the manifest's sorted text.
"""

from __future__ import annotations

import itertools
import logging
import tempfile
from pathlib import Path

__all__ = ["MemoryStore", "DEFAULT_BUILD_BUDGET", "build_budget_from_env"]

log = logging.getLogger(__name__)

DEFAULT_BUILD_BUDGET = 512 << 20  # bytes of in-memory statements a folder build holds before moving to disk
_MOVE_SLICE = 100_000  # statements moved to disk at a time
ENV_BUILD_BUDGET = "SCHOLARKG_BUILD_MEMORY_MB"


def build_budget_from_env(default: int = DEFAULT_BUILD_BUDGET) -> int:
    """The folder build's budget in bytes from ``$SCHOLARKG_BUILD_MEMORY_MB`` when set, else ``default``."""
    from .open import budget_from_env

    return budget_from_env(ENV_BUILD_BUDGET, default)


class MemoryStore:
    """A :class:`pyoxigraph.Store` (in memory until ``budget`` bytes, then on disk) and a
    manifest, both in a temporary folder."""

    writable = True

    def __init__(self, budget: int | None = None) -> None:
        import pyoxigraph

        from .manifest import Manifest

        self._folder = tempfile.TemporaryDirectory(prefix="scholarkg-build-")
        self.path = Path(self._folder.name)
        self.ox = pyoxigraph.Store()
        self.manifest = Manifest(self.path / "manifest.sqlite")
        self.budget = build_budget_from_env() if budget is None else budget
        self.on_disk = False
        self._loaded = 0  # statements loaded so far (removals not subtracted: an upper bound)

    def loaded(self, statements: int) -> None:
        """Count ``statements`` just loaded; move everything to disk once past the budget."""
        from .open import BYTES_PER_STATEMENT

        self._loaded += statements
        if not self.on_disk and self._loaded * BYTES_PER_STATEMENT > self.budget:
            self._move_to_disk()

    def _move_to_disk(self) -> None:
        import pyoxigraph

        log.info("folder build: %d statements pass the memory budget (%d MB); going on in a database in %s",
                 self._loaded, self.budget >> 20, self.path)
        disk = pyoxigraph.Store(str(self.path / "oxigraph"))
        quads = iter(self.ox)
        # in slices: Oxigraph's bulk loader holds what it is given in memory while it sorts
        while chunk := list(itertools.islice(quads, _MOVE_SLICE)):
            disk.bulk_extend(chunk)
        del quads, chunk
        self.ox = disk
        self.on_disk = True

    def count(self) -> int:
        return len(self.ox)

    def close(self) -> None:
        if self.manifest is not None:
            self.manifest.close()
            self.manifest = None
        self.ox = None
        self._folder.cleanup()

    def __enter__(self) -> MemoryStore:
        return self

    def __exit__(self, *exc) -> None:
        self.close()
