"""Cross-paper linking: one canonical :class:`~scholarkg.model.Entity` per real thing.

Every extraction is :meth:`Linker.add`-ed; :meth:`Linker.entities` then merges the names:

- names with the same :func:`~scholarkg.extract.names.canonical_key` are one entity
  ("Group Relative Policy Optimisation" / "...Optimization", "BrowseComp-ZH" / "BrowseComp-zh",
  "LLaMA-3-8b" / "LLaMA-3-8B");
- a long form and its aliases are one entity (a mention labelled with the long form carries
  its short form as an alias);
- a short form written alone in another paper ("ALE") joins the one entity that defines it,
  and stays separate when two different entities define the same short form;
- an entity is a name ("GRPO", "Qwen 3-4B") or a concept ("question answering") as most of its
  mentions say, weighted by confidence; a tie makes it a name;
- model variants point to their family (``parent``), and every family up the chain is an
  entity (``Qwen 3-4B`` -> ``Qwen 3`` -> ``Qwen``); a method built on another points to it
  (``derived_from``), and that base is an entity too.

The result depends only on the set of extractions added, not on their order.

>>> from scholarkg.model import Extraction, Mention, EntityType, Field
>>> def m(text, label, aliases=()):
...     return Mention(text, label, EntityType.METHOD, 0, len(text), Field.ABSTRACT, aliases=aliases)
>>> linker = Linker()
>>> linker.add(Extraction("a", (m("Group Relative Policy Optimisation", "Group Relative Policy Optimisation", ("GRPO",)),)))
>>> linker.add(Extraction("b", (m("GRPO", "GRPO"),)))
>>> [(e.key, e.label) for e in linker.entities()]
[('group relative policy optimization', 'Group Relative Policy Optimization')]
>>> linker.resolve("GRPO").key
'group relative policy optimization'
"""

from __future__ import annotations

import logging
from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field, fields

from .model import Entity, EntityKind, EntityType, Extraction

__all__ = ["Linker"]

log = logging.getLogger(__name__)

_TYPE_ORDER = {t: i for i, t in enumerate(EntityType)}


@dataclass
class _Name:
    """Everything said about one label across papers.

    The tallies are plain dicts (value -> weight), not Counters, and :meth:`Linker.state` keeps
    each name as a tuple of its fields: pickle writes and reads dicts and tuples in C, but a
    Counter or a dataclass instance through Python calls. A store keeps every name so, and
    each build reads and writes them all once."""

    label: str
    types: dict = field(default_factory=dict)
    kinds: dict = field(default_factory=dict)
    surfaces: dict = field(default_factory=dict)
    aliases: set[str] = field(default_factory=set)
    parents: dict = field(default_factory=dict)
    bases: dict = field(default_factory=dict)
    papers: set[str] = field(default_factory=set)


def _tally(counts: dict, value, weight: float = 1) -> None:
    counts[value] = counts.get(value, 0) + weight


_FIELDS = tuple(f.name for f in fields(_Name))
_STATE_FORMAT = ("name tuples", *_FIELDS)


def _kind(kinds: Counter, label: str) -> EntityKind:
    """Names win ties; with no mention to say (a family or a result's name only), the label's
    shape decides: lower case without digits is a concept."""
    if kinds:
        return EntityKind.CONCEPT if kinds[EntityKind.CONCEPT] > kinds[EntityKind.NAME] else EntityKind.NAME
    plain = label == label.lower() and not any(c.isdigit() for c in label)
    return EntityKind.CONCEPT if plain else EntityKind.NAME


class _UnionFind:
    def __init__(self):
        self.up: dict[str, str] = {}

    def find(self, x: str) -> str:
        self.up.setdefault(x, x)
        while self.up[x] != x:
            self.up[x] = self.up[self.up[x]]
            x = self.up[x]
        return x

    def union(self, a: str, b: str) -> None:
        ra, rb = self.find(a), self.find(b)
        if ra != rb:
            # the smaller key is the root, so the outcome does not depend on insertion order
            lo, hi = sorted((ra, rb))
            self.up[hi] = lo


class Linker:
    """Collects the names of every paper and merges them into canonical entities."""

    def __init__(self):
        self._names: dict[str, _Name] = {}
        self._cache: tuple[list[Entity], dict[str, Entity]] | None = None

    # -- collecting ----------------------------------------------------------------------
    def add(self, extraction: Extraction) -> dict[str, tuple]:
        """Record the mentions and result names of one paper; returns what it says of each name
        (:meth:`said`)."""
        said = self.said(extraction)
        for key, facts in said.items():
            self.take(key, facts)
        return said

    @staticmethod
    def said(extraction: Extraction) -> dict[str, tuple]:
        """What one paper says of each name it speaks of, by the name's key: ``(record id,
        facts)``, each fact a mention's or a result's, in the paper's order (mentions first).

        What the linker collects for a name depends only on what the papers say of it, in the
        order they are added: a name can be forgotten (:meth:`forget`) and taken again from
        what each paper that speaks of it said of it (:meth:`take`), and the linker is as if
        every paper had been added again."""
        from .extract.names import canonical_key

        facts: dict[str, list] = {}
        for m in extraction.mentions:
            key = canonical_key(m.label)
            if key:
                aliases = tuple(a for a in m.aliases if canonical_key(a))
                facts.setdefault(key, []).append(
                    (m.label, m.type, m.kind, m.confidence, m.text, aliases, m.parent, m.derived_from))
        for r in extraction.results:
            for label, type_ in ((r.model, None), (r.benchmark, EntityType.BENCHMARK), (r.metric, EntityType.METRIC),
                                 (r.baseline, None)):
                key = canonical_key(label) if label else ""
                if key:
                    facts.setdefault(key, []).append((label, type_))
        return {key: (extraction.record_id, tuple(items)) for key, items in facts.items()}

    def take(self, key: str, said: tuple) -> None:
        """Add what one paper said of the name with ``key`` (an item of :meth:`said`)."""
        self._cache = None
        record_id, facts = said
        n = self._names.get(key)
        for fact in facts:
            if n is None:
                n = self._names[key] = _Name(fact[0])
            if len(fact) == 2:  # a result's name
                if fact[1] is not None and not n.types:
                    _tally(n.types, fact[1], 0.1)
            else:
                _, type_, kind, confidence, text, aliases, parent, derived_from = fact
                _tally(n.types, type_, confidence)
                _tally(n.kinds, kind, confidence)
                _tally(n.surfaces, text)
                n.aliases.update(aliases)
                if parent:
                    _tally(n.parents, parent)
                if derived_from:
                    _tally(n.bases, derived_from)
            n.papers.add(record_id)

    def forget(self, keys: Iterable[str]) -> None:
        """Drop what was collected for the names with ``keys``, to be taken again (:meth:`take`)."""
        for key in keys:
            self._names.pop(key, None)
        self._cache = None

    # -- keeping -------------------------------------------------------------------------
    def state(self) -> tuple:
        """What has been collected, to be picked up by :meth:`from_state` (pickles); adding to
        the restored linker is the same as adding everything to a new one in the same order."""
        return _STATE_FORMAT, {key: tuple(getattr(n, f) for f in _FIELDS) for key, n in self._names.items()}

    @classmethod
    def from_state(cls, state) -> Linker | None:
        """The linker :meth:`state` was taken from; None for a state another version kept."""
        if not (isinstance(state, tuple) and len(state) == 2 and state[0] == _STATE_FORMAT):
            return None
        linker = cls()
        linker._names = {key: _Name(*values) for key, values in state[1].items()}
        return linker

    # -- merging -------------------------------------------------------------------------
    def _build(self) -> tuple[list[Entity], dict[str, Entity]]:
        from .extract.concepts import concept_key
        from .extract.gazetteer import load_gazetteer
        from .extract.names import canonical_key, is_acronym

        gaz = load_gazetteer()
        names = dict(self._names)
        self._add_implied(names, gaz)
        uf = _UnionFind()
        for key in sorted(names):
            uf.find(key)
        # long forms and spelling variants merge; short forms are handled below
        short_owners: dict[str, set[str]] = defaultdict(set)
        for key in sorted(names):
            for alias in sorted(names[key].aliases):
                akey = canonical_key(alias)
                if is_acronym(alias):
                    short_owners[akey].add(key)
                    continue
                if akey in names:
                    uf.union(key, akey)
        for key in sorted(names):
            for alias in sorted(names[key].aliases):
                akey = canonical_key(alias)
                if is_acronym(alias) and akey in names and akey != key:
                    owners = {uf.find(k) for k in short_owners[akey]}
                    if len(owners) == 1 and not names[akey].aliases - names[key].aliases - {names[key].label}:
                        uf.union(key, akey)
        # morphological variants of one concept are one entity ("agentic foundation models" /
        # "agentic foundational models"); names keep their exact spelling key
        by_concept: dict[str, str] = {}
        for key in sorted(names):
            n = names[key]
            if n.kinds and n.kinds.get(EntityKind.CONCEPT, 0) > n.kinds.get(EntityKind.NAME, 0):
                ckey = concept_key(n.label)
                if ckey in by_concept:
                    uf.union(by_concept[ckey], key)
                else:
                    by_concept[ckey] = key
        groups: dict[str, list[str]] = defaultdict(list)
        for key in sorted(names):
            groups[uf.find(key)].append(key)
        entities: list[Entity] = []
        by_name: dict[str, Entity] = {}
        label_of_key: dict[str, str] = {}
        members: dict[str, tuple[list[str], str]] = {}  # entity key -> (its names' keys, its label)
        for root, keys in groups.items():
            label = self._choose_label([names[k] for k in keys], gaz)
            ekey = canonical_key(label)
            members[ekey] = (keys, label)
            for k in keys:
                label_of_key[k] = ekey
        for ekey, (keys, label) in sorted(members.items()):
            group = [names[k] for k in keys]
            types: Counter = Counter()
            kinds: Counter = Counter()
            surfaces: set[str] = set()
            parents: Counter = Counter()
            bases: Counter = Counter()
            for n in group:
                types.update(n.types)
                kinds.update(n.kinds)
                surfaces.update(n.surfaces)
                surfaces.update(n.aliases)
                surfaces.add(n.label)
                parents.update(n.parents)
                bases.update(n.bases)
            type_ = max(sorted(types, key=_TYPE_ORDER.get), key=lambda t: types[t]) if types else EntityType.METHOD
            parent = self._pick(parents, canonical_key, label_of_key, ekey)
            base = self._pick(bases, canonical_key, label_of_key, ekey)
            aliases = tuple(sorted(s for s in surfaces if s != label))
            kind = _kind(kinds, label)
            entity = Entity(key=ekey, type=type_, label=label, aliases=aliases, parent=parent, derived_from=base,
                            kind=kind)
            entities.append(entity)
            for k in keys:
                by_name[k] = entity
            for s in surfaces:
                by_name.setdefault(canonical_key(s), entity)
        entities.sort(key=lambda e: e.key)
        return entities, by_name

    @staticmethod
    def _pick(counter: Counter, canonical_key, label_of_key: dict[str, str], own: str) -> str | None:
        for label, _ in sorted(counter.items(), key=lambda kv: (-kv[1], kv[0])):
            key = label_of_key.get(canonical_key(label))
            if key is not None and key != own:
                return key
        return None

    @staticmethod
    def _choose_label(group: list[_Name], gaz) -> str:
        """The gazetteer's name if the entity is known, else the most used long label."""
        from .extract.names import is_acronym

        for n in sorted(group, key=lambda n: n.label):
            entry = None if is_acronym(n.label) else gaz.lookup(n.label)
            if entry is not None:
                return entry.canonical
        ranked = sorted(group, key=lambda n: (is_acronym(n.label), -len(n.papers), -sum(n.surfaces.values()), n.label))
        return ranked[0].label

    def _add_implied(self, names: dict[str, _Name], gaz) -> None:
        """Families of model variants and bases of derived methods become entities too."""
        from .extract.modelnames import parse_known_model, variant_base
        from .extract.names import canonical_key

        families = {name: e.canonical for e in gaz.of_type(EntityType.MODEL) for name in e.names}
        # in the order of the keys, so that the outcome does not depend on the order names were added in
        pending = [(n.label, n) for _, n in sorted(names.items(), reverse=True)]
        while pending:
            label, n = pending.pop()
            for parent in list(n.parents):
                # a family is the same kind of thing as its variants (a model, a benchmark, ...)
                chain_type = max(sorted(n.types, key=_TYPE_ORDER.get), key=lambda t: n.types[t]) if n.types else EntityType.MODEL
                pkey = canonical_key(parent)
                if pkey not in names:
                    pn = _Name(parent)
                    _tally(pn.types, chain_type, 0.1)
                    parsed = parse_known_model(parent, families)
                    if parsed is not None and parsed.parent:
                        _tally(pn.parents, parsed.parent)
                    else:
                        up = variant_base(parent)
                        if up is not None and up[1]:
                            _tally(pn.parents, up[0])
                    names[pkey] = pn
                    pending.append((parent, pn))
            for base in list(n.bases):
                bkey = canonical_key(base)
                if bkey not in names:
                    bn = _Name(base)
                    entry = gaz.lookup(base)
                    _tally(bn.types, entry.type if entry else EntityType.METHOD, 0.1)
                    if entry is not None:
                        bn.aliases.update(entry.aliases)
                    names[bkey] = bn

    # -- queries -------------------------------------------------------------------------
    def _built(self) -> tuple[list[Entity], dict[str, Entity]]:
        if self._cache is None:
            self._cache = self._build()
        return self._cache

    def entities(self) -> list[Entity]:
        """Canonical entities sorted by key (deterministic for the same extractions)."""
        return list(self._built()[0])

    def get(self, label: str) -> Entity | None:
        """Like :meth:`resolve`, but ``None`` for an unknown name."""
        from .extract.names import canonical_key

        return self._built()[1].get(canonical_key(label))

    def resolve(self, label: str) -> Entity:
        """The entity a mention label, alias or result name belongs to; KeyError if unknown."""
        from .extract.names import canonical_key

        try:
            return self._built()[1][canonical_key(label)]
        except KeyError:
            raise KeyError(f"no entity named {label!r}") from None
