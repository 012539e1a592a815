"""The sink of a folder build: an in-memory Oxigraph store with a scratch manifest.

It has what :mod:`scholarkg.store.build` needs of a store (``ox``, ``manifest``, ``path``), so
a folder build runs the same stages as ``build --store``; the manifest (records, extractions,
the text of every part of the graph) lives in a temporary folder that is removed when the
build is closed or collected. :mod:`scholarkg.pipeline` writes the files from it.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

__all__ = ["MemoryStore"]


class MemoryStore:
    """An in-memory :class:`pyoxigraph.Store` and a manifest in a temporary folder."""

    writable = True

    def __init__(self) -> None:
        import pyoxigraph

        from .manifest import Manifest

        self._folder = tempfile.TemporaryDirectory(prefix="scholarkg-build-")
        self.path = Path(self._folder.name)
        self.ox = pyoxigraph.Store()
        self.manifest = Manifest(self.path / "manifest.sqlite")

    def count(self) -> int:
        return len(self.ox)

    def close(self) -> None:
        if self.manifest is not None:
            self.manifest.close()
            self.manifest = None
        self._folder.cleanup()

    def __enter__(self) -> MemoryStore:
        return self

    def __exit__(self, *exc) -> None:
        self.close()
