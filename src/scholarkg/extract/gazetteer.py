"""The project's gazetteer: well-known research entities by type, read from package data.

Files under ``resources/gazetteer/`` hold one entity per line, ``canonical | alias | ...``,
one file per type. They were written for this project from general knowledge of the field.
A name with any upper-case letter is matched exactly; an all-lower-case name is matched
whatever its case (so "In-Context Learning" in a title finds ``in-context learning``).

>>> gaz = load_gazetteer()
>>> gaz.lookup("Group Relative Policy Optimisation").canonical
'Group Relative Policy Optimization'
>>> gaz.lookup("GRPO").type.value
'Method'
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources

from ..model import EntityType
from .names import canonical_key, singular

__all__ = ["GazetteerEntry", "Gazetteer", "load_gazetteer", "FILES"]

log = logging.getLogger(__name__)

FILES: dict[str, EntityType] = {
    "benchmarks.txt": EntityType.BENCHMARK,
    "datasets.txt": EntityType.DATASET,
    "models.txt": EntityType.MODEL,
    "methods.txt": EntityType.METHOD,
    "tasks.txt": EntityType.TASK,
    "metrics.txt": EntityType.METRIC,
}


@dataclass(frozen=True, slots=True)
class GazetteerEntry:
    """One known entity: its canonical name, type and every way of writing it."""

    canonical: str
    type: EntityType
    names: tuple[str, ...]
    aliases: tuple[str, ...] = ()  # every name but the canonical one (filled in from ``names``)

    def __post_init__(self) -> None:
        object.__setattr__(self, "aliases", tuple(n for n in self.names if n != self.canonical))


@dataclass(slots=True)
class Gazetteer:
    """All entries, with a lookup by :func:`~scholarkg.extract.names.canonical_key`."""

    entries: list[GazetteerEntry] = field(default_factory=list)
    by_key: dict[str, GazetteerEntry] = field(default_factory=dict)

    def add(self, entry: GazetteerEntry) -> None:
        self.entries.append(entry)
        for name in entry.names:
            key = canonical_key(name)
            known = self.by_key.get(key)
            if known is not None and known is not entry:
                # The first file wins (files are read in FILES order); note the clash once.
                log.debug("gazetteer name %r is listed twice (%s, %s)", name, known.type, entry.type)
                continue
            self.by_key[key] = entry

    def lookup(self, name: str) -> GazetteerEntry | None:
        """The entry ``name`` writes, in the singular too ("accuracies", "BLEU scores")."""
        key = canonical_key(name)
        entry = self.by_key.get(key)
        if entry is None and key.endswith("s"):
            head, _, last = key.rpartition(" ")
            one = singular(last)
            if one != last and len(one) > 2:
                entry = self.by_key.get(f"{head} {one}" if head else one)
        return entry

    def of_type(self, type_: EntityType) -> list[GazetteerEntry]:
        return [e for e in self.entries if e.type is type_]


def parse_lines(lines: list[str], type_: EntityType) -> list[GazetteerEntry]:
    """Entries from the lines of one gazetteer file."""
    out = []
    for raw in lines:
        line = raw.split("#", 1)[0].strip() if raw.lstrip().startswith("#") else raw.strip()
        if not line:
            continue
        names = tuple(dict.fromkeys(n.strip() for n in line.split("|") if n.strip()))
        if names:
            out.append(GazetteerEntry(names[0], type_, names))
    return out


@lru_cache(maxsize=1)
def load_gazetteer() -> Gazetteer:
    """The gazetteer shipped with the package (read once per process)."""
    gaz = Gazetteer()
    folder = resources.files("scholarkg.extract") / "resources" / "gazetteer"
    for name, type_ in FILES.items():
        text = (folder / name).read_text(encoding="utf-8")
        for entry in parse_lines(text.splitlines(), type_):
            gaz.add(entry)
    log.debug("gazetteer: %d entries", len(gaz.entries))
    return gaz
