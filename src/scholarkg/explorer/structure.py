"""The explorer graph's shape without its details: node kinds and links as integer arrays.

A page draws a few thousand nodes, but choosing them (the most connected part, ``--types``,
``--min-degree``) needs every node and link. Held as a networkx graph with every node's
details, a graph of 100,000 papers takes gigabytes (about 1 KB per link). :class:`Structure`
holds one integer per node end of each link instead (numpy arrays, about 9 bytes per link), so
:func:`scholarkg.explorer.htmlpage.render_html` chooses the nodes here and reads details only
for the nodes drawn and their neighbours (:meth:`Structure.around`).

The choice is the one :func:`scholarkg.explorer.select.most_connected` makes on the networkx
graph, node for node and in the same order (the tests compare the two).
"""

from __future__ import annotations

import heapq
from array import array
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cached_property

import numpy as np
from rdflib.namespace import DCTERMS, RDF

from .layout import components
from .page import Details
from .view import _KIND_OF_CLASS, RELATIONS, rows, subjects

__all__ = ["Structure", "StructureDetails", "Choice", "read_structure"]

_RELATION_NAMES = tuple(RELATIONS.values())


@dataclass
class Choice:
    """The nodes to draw (in the order the view graph takes them) and how they were chosen."""

    nodes: list[str]
    total: int  # nodes before the budget was applied
    hidden: int  # nodes left out by the budget


class Structure:
    """Nodes (IRIs, in the order :func:`~scholarkg.explorer.view.to_networkx` adds them) with
    their kinds, and links as arrays ``src``, ``dst`` (node numbers) and ``rel`` (a number into
    the relation names), each link once, in the order ``to_networkx`` adds them."""

    def __init__(self, nodes: list[str], kinds: list[str], src: np.ndarray, dst: np.ndarray, rel: np.ndarray):
        self.nodes, self.kinds = nodes, kinds
        self.index = {node: i for i, node in enumerate(nodes)}
        self.src, self.dst, self.rel = src, dst, rel
        self.degree = np.bincount(src, minlength=len(nodes)) + np.bincount(dst, minlength=len(nodes))
        self.categories = [n for n, k in zip(nodes, kinds) if k == "Category"]

    def __len__(self) -> int:
        return len(self.nodes)

    def edges(self, keep: set[str] | None = None) -> Iterable[tuple[str, str, str]]:
        """(subject, object, relation) of every link, or of those between nodes in ``keep``."""
        nodes = self.nodes
        if keep is None:
            pairs = range(len(self.src))
        else:
            inside = self._mask(keep)
            pairs = np.flatnonzero(inside[self.src] & inside[self.dst]).tolist()
        src, dst, rel = self.src.tolist(), self.dst.tolist(), self.rel.tolist()
        return ((nodes[src[i]], nodes[dst[i]], _RELATION_NAMES[rel[i]]) for i in pairs)

    @cached_property
    def _out(self) -> tuple[np.ndarray, np.ndarray]:
        return _rows_by(self.src, len(self.nodes))

    @cached_property
    def _in(self) -> tuple[np.ndarray, np.ndarray]:
        return _rows_by(self.dst, len(self.nodes))

    def links(self, node: str) -> list[tuple[int, str, str]]:
        """A node's links as (side, relation, other): side 0 for links from it, 1 for links to it."""
        i, names, nodes = self.index[node], _RELATION_NAMES, self.nodes
        out, into = _edge_array(self._out, i), _edge_array(self._in, i)  # one gather each, not an index per link
        return ([(0, names[r], nodes[o]) for r, o in zip(self.rel[out].tolist(), self.dst[out].tolist())]
                + [(1, names[r], nodes[o]) for r, o in zip(self.rel[into].tolist(), self.src[into].tolist())])

    def out_links(self, node: str) -> list[tuple[str, str]]:
        """A node's links out as (relation, other) in the order networkx keeps them: by the
        first link to each other node, then in the order read."""
        edges = _edge_array(self._out, self.index[node])
        others, relations = self.dst[edges].tolist(), self.rel[edges].tolist()
        first: dict[int, int] = {}
        for k, other in enumerate(others):
            first.setdefault(other, k)
        ordered = sorted(range(len(others)), key=lambda k: first[others[k]])
        return [(_RELATION_NAMES[relations[k]], self.nodes[others[k]]) for k in ordered]

    def _results(self) -> np.ndarray:
        return np.fromiter((k in ("Result", "Improvement") for k in self.kinds), dtype=bool, count=len(self.kinds))

    def _mask(self, keep: Iterable[str]) -> np.ndarray:
        mask = np.zeros(len(self.nodes), dtype=bool)
        mask[[self.index[n] for n in keep if n in self.index]] = True
        return mask

    def pairs(self, relation: str) -> Iterable[tuple[str, str]]:
        """(subject, object) of each link of ``relation`` (its name, as in :data:`RELATIONS`)."""
        nodes = self.nodes
        number = _RELATION_NAMES.index(relation)
        chosen = np.flatnonzero(self.rel == number)
        return ((nodes[i], nodes[j]) for i, j in zip(self.src[chosen].tolist(), self.dst[chosen].tolist()))

    def degrees(self, nodes: Iterable[str]) -> dict[str, int]:
        """Links of each of ``nodes`` in the whole graph."""
        return {n: int(self.degree[self.index[n]]) for n in nodes}

    def choose(self, *, types: Iterable[str] | None = None, min_degree: int = 0, max_nodes: int = 0) -> Choice:
        """The nodes :func:`scholarkg.explorer.select.select_view` draws with these options and
        no focus or query: ``min_degree`` (links in the whole graph), then ``types``, then the
        most connected ``max_nodes`` of what is left (0 for all)."""
        from .select import parse_types

        keep = np.ones(len(self.nodes), dtype=bool)
        if min_degree > 0:
            keep &= self.degree >= min_degree
        if types:
            kinds = set(parse_types(types))
            keep &= np.fromiter((k in kinds for k in self.kinds), dtype=bool, count=len(self.kinds))
        members = np.flatnonzero(keep)
        total = len(members)
        if max_nodes <= 0 or total <= max_nodes:
            return Choice([self.nodes[i] for i in members.tolist()], total, 0)
        inside = keep[self.src] & keep[self.dst]
        src, dst = self.src[inside], self.dst[inside]
        degree = np.bincount(src, minlength=len(self.nodes)) + np.bincount(dst, minlength=len(self.nodes))
        chosen = self._most_connected(members, src, dst, degree, max_nodes)
        return Choice([self.nodes[i] for i in chosen], total, total - len(chosen))

    def _most_connected(self, members: np.ndarray, src: np.ndarray, dst: np.ndarray, degree: np.ndarray,
                        budget: int) -> list[int]:
        # Components largest first (ties: the smallest IRI); inside one, from its best-connected
        # node outwards, always the best-connected node next to those taken (ties: the IRI).
        nodes = self.nodes
        starts, neighbours = _adjacency(len(nodes), src, dst)
        label = components(len(nodes), src, dst)[members]
        order = np.argsort(label, kind="stable")
        groups = np.split(members[order], np.flatnonzero(np.diff(label[order])) + 1)
        ordered = sorted(((-len(g), min(nodes[i] for i in g.tolist()), g) for g in groups), key=lambda c: c[:2])
        chosen: list[int] = []
        for _, _, group in ordered:
            if len(chosen) >= budget:
                break
            start = min(group.tolist(), key=lambda i: (-degree[i], nodes[i]))
            heap = [(-int(degree[start]), nodes[start], start)]
            visited = {start}
            while heap and len(chosen) < budget:
                _, _, node = heapq.heappop(heap)
                chosen.append(node)
                for other in neighbours[starts[node]:starts[node + 1]].tolist():
                    if other not in visited:
                        visited.add(other)
                        heapq.heappush(heap, (-int(degree[other]), nodes[other], other))
        return chosen

    def around(self, nodes: Iterable[str]) -> set[str]:
        """What a page of ``nodes`` needs the details of: those nodes, their neighbours, what the
        results among the neighbours name (a related result is named by its model, benchmark and
        metric) and every category (the legend)."""
        inner = self._mask(nodes)
        near = inner.copy()
        near[self.dst[inner[self.src]]] = True
        near[self.src[inner[self.dst]]] = True
        results = near & self._results()
        near[self.dst[results[self.src]]] = True
        return {self.nodes[i] for i in np.flatnonzero(near).tolist()} | set(self.categories)


def _rows_by(ends: np.ndarray, n: int) -> tuple[np.ndarray, np.ndarray]:
    """(starts, links): the links (numbers) with end i are ``links[starts[i]:starts[i + 1]]``, in order."""
    order = np.argsort(ends, kind="stable")
    starts = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(np.bincount(ends, minlength=n), out=starts[1:])
    return starts, order


def _edge_array(rows: tuple[np.ndarray, np.ndarray], i: int) -> np.ndarray:
    starts, order = rows
    return order[starts[i]:starts[i + 1]]


class StructureDetails(Details):
    """:class:`~scholarkg.explorer.page.Details` from a :class:`Structure` and the attributes
    read for the nodes around a page (:meth:`Structure.around`)."""

    def __init__(self, structure: Structure, attrs: dict[str, dict]):
        self.structure, self.nodes = structure, attrs

    def links(self, node: str) -> list[tuple[int, str, str]]:
        return self.structure.links(node)

    def out_links(self, node: str) -> list[tuple[str, str]]:
        return self.structure.out_links(node)

    def degree(self, node: str) -> int:
        return int(self.structure.degree[self.structure.index[node]])


def _adjacency(n: int, src: np.ndarray, dst: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Compressed rows of the undirected links: the neighbours of node i are
    ``neighbours[starts[i]:starts[i + 1]]``."""
    ends = np.concatenate([src, dst])
    others = np.concatenate([dst, src])
    order = np.argsort(ends, kind="stable")
    starts = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(np.bincount(ends, minlength=n), out=starts[1:])
    return starts, others[order]


def read_structure(source) -> Structure:
    """The :class:`Structure` of ``source`` (an rdflib graph or a pyoxigraph store), read
    with one SPARQL query per relation."""
    kinds: dict[str, str] = {}
    for cls, kind in _KIND_OF_CLASS.items():
        for s in subjects(source, RDF.type, cls):
            # Entities are SKOS concepts too: their own class names their kind, not "Category".
            if kinds.get(s, "Category") == "Category":
                kinds[s] = kind
    # Categories are shown only when a paper uses them (not the archives and groups above).
    subject_rows = list(rows(source, DCTERMS.subject))  # read once: also the links to categories
    used = {o for _, o, is_iri in subject_rows if is_iri}
    kinds = {n: k for n, k in kinds.items() if k != "Category" or n in used}
    nodes = list(kinds)
    index = {node: i for i, node in enumerate(nodes)}
    src, dst, rel = array("q"), array("q"), array("q")
    for number, prop in enumerate(RELATIONS):
        for s, o, _ in subject_rows if prop == DCTERMS.subject else rows(source, prop):
            i, j = index.get(s), index.get(o)
            if i is not None and j is not None:
                src.append(i)
                dst.append(j)
                rel.append(number)
    src_a, dst_a, rel_a = (np.frombuffer(a, dtype=np.int64) for a in (src, dst, rel))
    if len(src_a):  # each link once, where it first appears (as networkx keeps it)
        key = (src_a * len(nodes) + dst_a) * len(RELATIONS) + rel_a
        _, first = np.unique(key, return_index=True)
        first.sort()
        src_a, dst_a, rel_a = src_a[first], dst_a[first], rel_a[first]
    return Structure(nodes, list(kinds.values()), src_a.copy(), dst_a.copy(), rel_a.copy())
