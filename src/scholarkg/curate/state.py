"""The working state corrections act on: entities, and each paper's mentions and results.

Mentions and results are held with the key of the entity they resolve to, so corrections
move them between entities by changing a key. Every change remembers the corrections
behind it; :mod:`scholarkg.curate.apply` turns that into provenance.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace

from ..graph.iri import normalise_key
from ..model import Entity, Extraction, Field, Mention, Record, Result, Role
from .corrections import arxiv_id_of, title_key

__all__ = ["State", "Item", "PARTS", "entity_key", "linked"]

PARTS = ("model", "benchmark", "metric")


def entity_key(name: str) -> str:
    """The key the linker gives an entity called ``name`` (so a curated entity gets the IRI an
    extracted one of that name would); the normalised name when no linker key function exists."""
    try:
        from ..extract.names import canonical_key
    except ImportError:  # pragma: no cover - an extractor without its own keys
        return normalise_key(name)
    return canonical_key(name) or normalise_key(name)


def linked(linker, label: str | None) -> Entity | None:
    """The entity ``linker`` resolves ``label`` to, or None (linkers raise KeyError or return None)."""
    if not label:
        return None
    try:
        return linker.resolve(label)
    except KeyError:
        return None


@dataclass
class Item:
    """A mention or result of one paper, with the entity keys it refers to."""

    value: Mention | Result
    keys: dict[str, str | None]  # "entity" for a mention; model/benchmark/metric for a result
    curations: list[str] = field(default_factory=list)  # ids of corrections that changed it
    generated: bool = False  # made by a correction rather than found by the extractor


class State:
    def __init__(self, records: list[Record], extractions: list[Extraction], linker) -> None:
        self.records = records
        self.linker = linker
        self.entities: dict[str, Entity] = {e.key: e for e in linker.entities()}
        self.forward: dict[str, str] = {}  # old entity key -> the key it became
        self.influenced: dict[str, list[str]] = {}  # entity key -> correction ids
        self.unanchored: list[tuple[int, str, Role, str]] = []  # (record index, key, role, correction id)
        self.mentions: list[list[Item]] = []
        self.results: list[list[Item]] = []
        for extraction in extractions:
            ms = []
            for m in extraction.mentions:
                entity = linked(linker, m.label)
                if entity is not None and entity.key in self.entities:
                    ms.append(Item(m, {"entity": entity.key}))
            self.mentions.append(ms)
            self.results.append([Item(r, {p: self._resolve_key(getattr(r, p)) for p in PARTS}) for r in extraction.results])
        self._index: dict[str, set[str]] | None = None
        self._papers_by_title: dict[str, list[int]] = {}
        self._papers_by_arxiv: dict[str, list[int]] = {}
        for i, record in enumerate(records):
            self._papers_by_title.setdefault(title_key(record.title), []).append(i)
            if record.arxiv_id:
                self._papers_by_arxiv.setdefault(record.arxiv_id, []).append(i)

    # --- finding things ---------------------------------------------------------------

    def _resolve_key(self, label: str | None) -> str | None:
        entity = linked(self.linker, label)
        return entity.key if entity is not None and entity.key in self.entities else None

    def names(self) -> dict[str, set[str]]:
        if self._index is None:
            index: dict[str, set[str]] = {}
            for e in self.entities.values():
                for name in (e.label, *e.aliases):
                    index.setdefault(entity_key(name), set()).add(e.key)
            self._index = index
        return self._index

    def find(self, name: str) -> list[str]:
        """Keys of the entities called ``name`` (label or alias), else what the linker resolves it to."""
        keys = self.names().get(entity_key(name))
        if keys:
            return sorted(keys)
        entity = linked(self.linker, name)
        if entity is None:
            return []
        key = self.current(entity.key)
        return [key] if key in self.entities else []

    def papers(self, name: str) -> list[int]:
        """Indices of the records ``name`` (an arXiv id or a title) refers to."""
        arxiv_id = arxiv_id_of(name)
        if arxiv_id and arxiv_id in self._papers_by_arxiv:
            return list(self._papers_by_arxiv[arxiv_id])
        return list(self._papers_by_title.get(title_key(name), []))

    def mentions_of(self, key: str, papers: list[int] | None = None) -> list[tuple[int, Item]]:
        scope = range(len(self.mentions)) if papers is None else papers
        return [(i, item) for i in scope for item in self.mentions[i] if item.keys["entity"] == key]

    # --- changing things --------------------------------------------------------------

    def put(self, entity: Entity) -> None:
        self.entities[entity.key] = entity
        self._index = None

    def current(self, key: str) -> str:
        """The key entity ``key`` has now (after merges and renames)."""
        while key in self.forward:
            key = self.forward[key]
        return key

    def touch(self, key: str, cid: str) -> None:
        ids = self.influenced.setdefault(key, [])
        if cid not in ids:
            ids.append(cid)

    def add_aliases(self, key: str, names: list[str] | tuple[str, ...]) -> list[str]:
        """Add ``names`` as aliases of ``key``; returns those that were new."""
        entity = self.entities[key]
        known = {normalise_key(n) for n in (entity.label, *entity.aliases)}
        added = []
        for name in names:
            if normalise_key(name) not in known:
                known.add(normalise_key(name))
                added.append(name)
        if added:
            self.put(replace(entity, aliases=(*entity.aliases, *added)))
        return added

    def rekey(self, old: str, new: str, cid: str | None = None) -> int:
        """Point everything that refers to entity ``old`` at ``new``; returns the items moved."""
        moved = 0
        for items in (*self.mentions, *self.results):
            for item in items:
                for part, key in item.keys.items():
                    if key == old:
                        item.keys[part] = new
                        moved += 1
                        if cid and cid not in item.curations:
                            item.curations.append(cid)
        self.unanchored = [(i, new if k == old else k, role, c) for i, k, role, c in self.unanchored]
        for key, entity in list(self.entities.items()):
            if entity.parent == old or entity.derived_from == old:
                self.entities[key] = replace(
                    entity,
                    parent=new if entity.parent == old else entity.parent,
                    derived_from=new if entity.derived_from == old else entity.derived_from,
                )
        if old in self.influenced:
            for c in self.influenced.pop(old):
                self.touch(new, c)
        self.forward[old] = new
        return moved

    def merge(self, source: str, target: str, cid: str) -> tuple[int, list[str]]:
        """Merge entity ``source`` into ``target``: its names become aliases, its mentions move."""
        gone = self.entities.pop(source)
        self._index = None
        added = self.add_aliases(target, [gone.label, *gone.aliases])
        moved = self.rekey(source, target, cid)
        self.touch(target, cid)
        return moved, added

    def remove(self, key: str, papers: list[int] | None = None) -> int:
        """Drop the mentions of ``key`` (in ``papers`` or everywhere) and its parts in results."""
        removed = 0
        scope = range(len(self.mentions)) if papers is None else papers
        for i in scope:
            before = len(self.mentions[i])
            self.mentions[i] = [m for m in self.mentions[i] if m.keys["entity"] != key]
            removed += before - len(self.mentions[i])
            for item in self.results[i]:
                for part, k in item.keys.items():
                    if k == key:
                        item.keys[part] = None
                        removed += 1
        self.unanchored = [u for u in self.unanchored if not (u[1] == key and (papers is None or u[0] in papers))]
        if papers is None:
            self.entities.pop(key, None)
            self._index = None
            for k, entity in list(self.entities.items()):
                if key in (entity.parent, entity.derived_from):
                    self.entities[k] = replace(
                        entity,
                        parent=None if entity.parent == key else entity.parent,
                        derived_from=None if entity.derived_from == key else entity.derived_from,
                    )
        return removed


def locate(record: Record, names: list[str]) -> tuple[Field, int, int, str] | None:
    """Where one of ``names`` first appears as a whole word in the title, else the abstract."""
    ordered = sorted({n for n in names if n.strip()}, key=len, reverse=True)
    for fld, text in ((Field.TITLE, record.title), (Field.ABSTRACT, record.abstract)):
        for name in ordered:
            m = re.search(r"(?<!\w)" + re.escape(name) + r"(?!\w)", text, re.IGNORECASE)
            if m:
                return fld, m.start(), m.end(), m.group(0)
    return None


def find_value(record: Record, value: str) -> tuple[Field, int, int, str] | None:
    """Where the number ``value`` appears, with the sentence around it as evidence."""
    for fld, text in ((Field.ABSTRACT, record.abstract), (Field.TITLE, record.title)):
        m = re.search(r"(?<![\w.])" + re.escape(value) + r"(?![\d])", text)
        if m:
            starts = [s.end() for s in re.finditer(r"[.!?]\s+", text[: m.start()])]
            begin = starts[-1] if starts else 0
            end_match = re.search(r"[.!?](\s|$)", text[m.end():])
            end = m.end() + end_match.start() + 1 if end_match else len(text)
            return fld, m.start(), m.end(), text[begin:end].strip()
    return None
