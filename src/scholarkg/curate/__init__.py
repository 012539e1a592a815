"""Curation: corrections to the graph that survive every rebuild.

A curation file (TOML, kept beside the inputs) lists corrections; the build applies them
after extraction, so a new extractor version or new records never undo them. See
:mod:`scholarkg.curate.corrections` for the actions and :mod:`scholarkg.curate.file` for
where the build finds the file.

>>> from scholarkg.curate import Correction
>>> Correction.from_table({"action": "retype", "entity": "KAIROS", "type": "Benchmark"}).describe
"retype 'KAIROS' as Benchmark"
"""

from __future__ import annotations

from .corrections import Action, Correction, title_key
from .file import CurationFile, append_correction, default_curation_path, find_curation, load_curation

__all__ = [
    "Action",
    "Correction",
    "CurationFile",
    "load_curation",
    "find_curation",
    "default_curation_path",
    "append_correction",
    "title_key",
    "Curator",
]


def __getattr__(name: str):
    if name == "Curator":  # imports rdflib-backed modules only when a build needs them
        from .apply import Curator

        return Curator
    raise AttributeError(name)
