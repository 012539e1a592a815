"""Locate files shipped with the package: ontology, named queries, patterns, trained models.

In a wheel the ``ontology/`` folder is packed as ``scholarkg/_ontology``; in a source checkout
(editable install) it is read from the repository's top-level ``ontology/``.
"""

from __future__ import annotations

from pathlib import Path

__all__ = ["package_dir", "ontology_path"]

_PACKAGE = Path(__file__).resolve().parent


def package_dir() -> Path:
    return _PACKAGE


def ontology_path(name: str) -> Path:
    """Path of ``ontology/<name>`` (``scholarkg.ttl``, ``arxiv-categories.ttl``, ``shapes.ttl``)."""
    for candidate in (_PACKAGE / "_ontology" / name, _PACKAGE.parents[1] / "ontology" / name):
        if candidate.is_file():
            return candidate
    raise FileNotFoundError(f"ontology file {name!r} is missing from this installation")
