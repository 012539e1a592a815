"""What applying a curation file gives the graph builder, and the provenance triples.

Provenance (prefixes as in :data:`scholarkg.graph.vocab.PREFIXES`)::

    id:curation/c9f6dfe8d17  a skg:Curation ; dcterms:identifier "c9f6dfe8d17" ;
        skg:curationAction "alias" ; rdfs:label "alias 'Group Relative …' for 'GRPO'" ;
        rdfs:comment "<the correction's note>" .
    id:mention/…  prov:wasGeneratedBy id:curation/…      # a link the curation file added
    id:mention/…  prov:wasAttributedTo id:agent/extractor/… ;
                  prov:wasInfluencedBy id:curation/…     # an extracted link a correction changed
    id:result/…   (the same two ways)                     # a result added, or fixed
    id:entity/…   prov:wasInfluencedBy id:curation/…     # an entity a correction named, typed, merged…
    id:paper/…    prov:wasInfluencedBy id:curation/…     # a paper whose facts a correction pins

Extracted statements carry only ``prov:wasAttributedTo`` the extractor, so the two are told
apart by whether a ``skg:Curation`` generated or influenced them. A link the curation file
adds is a ``skg:Mention`` like an extracted one, with the span of the entity's name when the
paper's text names it and without a span when it does not.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import replace
from decimal import Decimal

import pyoxigraph as ox

from ..graph import iri
from ..graph.builder import ROLE_PROPERTY
from ..graph.terms import DCTERMS, PROV, RDF, RDFS, SKG, Literal, decimal, node
from ..model import Entity, Extraction, Mention, Result
from .actions import STALE
from .state import Item, State, entity_key

__all__ = ["Outcome", "CuratedLinker"]

Pairs = tuple[tuple[ox.NamedNode, ox.NamedNode], ...]


class CuratedLinker:
    """The linker interface (``entities``, ``resolve``) over the corrected entities."""

    def __init__(self, entities: dict[str, Entity]) -> None:
        self._entities = dict(entities)
        self._index: dict[str, Entity] = {}
        for e in sorted(entities.values(), key=lambda e: e.key):
            for name in e.aliases:
                self._index.setdefault(entity_key(name), e)
        for e in entities.values():  # labels win over aliases
            self._index[entity_key(e.label)] = e

    def entities(self) -> list[Entity]:
        return sorted(self._entities.values(), key=lambda e: e.key)

    def resolve(self, label: str) -> Entity:
        """The entity called ``label``; KeyError if none (as :meth:`scholarkg.link.Linker.resolve`)."""
        try:
            return self._index[entity_key(label)]
        except KeyError:
            raise KeyError(f"no entity named {label!r}") from None

    def get(self, label: str) -> Entity | None:
        return self._index.get(entity_key(label))

    def add(self, extraction: Extraction) -> None:  # pragma: no cover - corrected entities are final
        raise TypeError("a curated linker is read-only")


class Outcome:
    """Corrected extractions and linker, plus the provenance and the statements a build adds.

    Statements are pyoxigraph terms, as :mod:`scholarkg.graph.builder` makes them. Records are
    numbered as in the list given to :meth:`scholarkg.curate.apply.Curator.apply`.
    """

    def __init__(self, curator, state: State, original: list[Extraction]) -> None:
        self.curator = curator
        self.statuses = curator.statuses
        self.state = state
        self.linker = CuratedLinker(state.entities)
        self.keys: list[str] = []  # the records' keys, when the caller numbers them (store builds)
        self._provenance: list[dict[Mention | Result, list[tuple[ox.NamedNode, ox.NamedNode]]]] = []
        self.extractions: list[Extraction] = []
        entities = state.entities
        for i, extraction in enumerate(original):
            agent = node(iri.extractor(extraction.extractor or "unknown"))
            prov: dict[Mention | Result, list[tuple[ox.NamedNode, ox.NamedNode]]] = {}
            roles = {k: r for j, k, r, _c in state.unanchored if j == i}
            mentions = []
            for item in state.mentions[i]:
                key = item.keys["entity"]
                if key not in entities:
                    continue
                m = replace(item.value, label=entities[key].label, type=entities[key].type)
                if key in roles and m.role is not roles[key]:
                    m = replace(m, role=roles[key])
                    item.curations.extend(c for j, k, _r, c in state.unanchored if j == i and k == key)
                mentions.append(m)
                prov.setdefault(m, []).extend(self._pairs(item, agent))
            results = []
            for item in state.results[i]:
                labels = {p: entities[k].label if k in entities else None for p, k in item.keys.items()}
                r = replace(item.value, **labels)
                results.append(r)
                prov.setdefault(r, []).extend(self._pairs(item, agent))
            self.extractions.append(replace(extraction, mentions=tuple(mentions), results=tuple(results)))
            self._provenance.append({k: list(dict.fromkeys(v)) for k, v in prov.items()})

    @staticmethod
    def _pairs(item: Item, agent: ox.NamedNode) -> list[tuple[ox.NamedNode, ox.NamedNode]]:
        out = [] if item.generated else [(PROV.wasAttributedTo, agent)]
        predicate = PROV.wasGeneratedBy if item.generated else PROV.wasInfluencedBy
        out += [(predicate, node(iri.curation(c))) for c in dict.fromkeys(item.curations)]
        return out

    def provenance_table(self, index: int) -> dict[Mention | Result, Pairs]:
        """Record ``index``'s mentions and results with their provenance (picklable)."""
        return {item: tuple(pairs) for item, pairs in self._provenance[index].items()}

    def provenance(self, index: int) -> Callable[[Mention | Result], Pairs]:
        """The provenance hook for record ``index`` (see :func:`scholarkg.graph.builder.record_triples`)."""
        table = self._provenance[index]
        return lambda item: tuple(table[item])

    def _applied(self) -> set[str]:
        return {s.correction.id for s in self.statuses if s.state != STALE}

    def record_triples(self, index: int) -> Iterator[tuple]:
        """What the curation file adds to record ``index``'s statements: links where the
        entity's name is not in the paper's text, and the corrections that pinned its facts."""
        record = self.state.records[index]
        paper_key = iri.record_key(record)
        paper = node(iri.paper(paper_key))
        for i, key, role, cid in self.state.unanchored:
            entity = self.state.entities.get(key)
            if i != index or entity is None:
                continue
            target = node(iri.entity(key))
            mention = node(iri.mention(paper_key, key, "curation", 0, 0))
            role_property = node(ROLE_PROPERTY[role])
            yield paper, SKG.hasMention, mention
            yield paper, role_property, target
            yield mention, RDF.type, SKG.Mention
            yield mention, SKG.mentionOf, target
            yield mention, SKG.role, role_property
            yield mention, SKG.roleName, Literal(role_property.value.rpartition("#")[2])
            yield mention, SKG.confidence, decimal(Decimal("1.000"))
            yield mention, PROV.wasGeneratedBy, node(iri.curation(cid))
        applied = self._applied()
        for r, cid, _field in self.curator.paper_statements:
            if cid in applied and iri.record_key(r) == paper_key:
                yield paper, PROV.wasInfluencedBy, node(iri.curation(cid))

    def linked_keys(self, index: int) -> list[str]:
        """Keys of the entities the links of :meth:`record_triples` point to."""
        return [key for i, key, _role, _cid in self.state.unanchored if i == index and key in self.state.entities]

    def entity_triples(self, key: str) -> Iterator[tuple]:
        """The corrections that changed entity ``key`` (to add to its description)."""
        applied = self._applied()
        for cid in self.state.influenced.get(key, ()):
            if cid in applied:
                yield node(iri.entity(key)), PROV.wasInfluencedBy, node(iri.curation(cid))

    def activity_triples(self) -> Iterator[tuple]:
        """The curation activities: every correction that is not stale."""
        for status in self.statuses:
            if status.state == STALE:
                continue
            c = status.correction
            subject = node(iri.curation(c.id))
            yield subject, RDF.type, SKG.Curation
            yield subject, DCTERMS.identifier, Literal(c.id)
            yield subject, SKG.curationAction, Literal(c.action.value)
            yield subject, RDFS.label, Literal(c.describe)
            if c.note:
                yield subject, RDFS.comment, Literal(c.note)
