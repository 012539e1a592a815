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

from rdflib import Graph, Literal, URIRef
from rdflib.namespace import DCTERMS, PROV, RDF, RDFS, XSD

from ..graph import iri
from ..graph.builder import ROLE_PROPERTY
from ..graph.vocab import SKG
from ..model import Entity, Extraction, Mention, Result
from .actions import STALE
from .state import Item, State, entity_key

__all__ = ["Outcome", "CuratedLinker"]

Pairs = tuple[tuple[URIRef, URIRef], ...]


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
    """Corrected extractions and linker, plus the provenance hooks the builder calls."""

    def __init__(self, curator, state: State, original: list[Extraction]) -> None:
        self.curator = curator
        self.statuses = curator.statuses
        self.state = state
        self.linker = CuratedLinker(state.entities)
        self._provenance: list[dict[Mention | Result, list[tuple[URIRef, URIRef]]]] = []
        self.extractions: list[Extraction] = []
        entities = state.entities
        for i, extraction in enumerate(original):
            agent = iri.extractor(extraction.extractor or "unknown")
            prov: dict[Mention | Result, list[tuple[URIRef, URIRef]]] = {}
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
    def _pairs(item: Item, agent: URIRef) -> list[tuple[URIRef, URIRef]]:
        out = [] if item.generated else [(PROV.wasAttributedTo, agent)]
        predicate = PROV.wasGeneratedBy if item.generated else PROV.wasInfluencedBy
        out += [(predicate, iri.curation(c)) for c in dict.fromkeys(item.curations)]
        return out

    def provenance(self, index: int) -> Callable[[Mention | Result], Pairs]:
        """The provenance hook for record ``index`` (see :func:`scholarkg.graph.builder.record_triples`)."""
        table = self._provenance[index]
        return lambda item: tuple(table[item])

    def link_triples(self) -> Iterator[tuple]:
        """Links the curation file adds where the entity's name is not in the paper's text."""
        for i, key, role, cid in self.state.unanchored:
            entity = self.state.entities.get(key)
            if entity is None:
                continue
            record = self.state.records[i]
            paper_key = iri.record_key(record)
            paper, node = iri.paper(paper_key), iri.entity(key)
            mention = iri.mention(paper_key, key, "curation", 0, 0)
            yield paper, SKG.hasMention, mention
            yield paper, ROLE_PROPERTY[role], node
            yield mention, RDF.type, SKG.Mention
            yield mention, SKG.mentionOf, node
            yield mention, SKG.role, ROLE_PROPERTY[role]
            yield mention, SKG.confidence, Literal(Decimal("1.000"), datatype=XSD.decimal)
            yield mention, PROV.wasGeneratedBy, iri.curation(cid)

    def curation_triples(self, graph: Graph) -> Iterator[tuple]:
        """The curation activities, and the entities and papers they changed (those in ``graph``)."""
        for status in self.statuses:
            if status.state == STALE:
                continue
            c = status.correction
            node = iri.curation(c.id)
            yield node, RDF.type, SKG.Curation
            yield node, DCTERMS.identifier, Literal(c.id)
            yield node, SKG.curationAction, Literal(c.action.value)
            yield node, RDFS.label, Literal(c.describe)
            if c.note:
                yield node, RDFS.comment, Literal(c.note)
        applied = {s.correction.id for s in self.statuses if s.state != STALE}
        influenced = [(iri.entity(key), cid) for key, cids in sorted(self.state.influenced.items()) for cid in cids]
        influenced += [(iri.paper(iri.record_key(r)), cid) for r, cid, _f in self.curator.paper_statements]
        for subject, cid in influenced:
            if cid in applied and (subject, RDF.type, None) in graph:
                yield subject, PROV.wasInfluencedBy, iri.curation(cid)
