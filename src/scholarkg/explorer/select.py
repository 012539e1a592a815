"""Parts of the explorer graph worth drawing: neighbourhoods, types, degree, a node budget,
and the subgraph a SPARQL CONSTRUCT returns.

Every function takes the networkx graph of :func:`scholarkg.explorer.view.to_networkx` and
returns a new graph (never a view that changes with its source), so they compose::

    >>> import networkx as nx
    >>> g = nx.MultiDiGraph()
    >>> g.add_node("p", kind="Paper", label="A paper")
    >>> g.add_node("a", kind="Author", label="Ada")
    >>> g.add_node("b", kind="Benchmark", label="BrowseComp", aliases="BC")
    >>> g.add_edge("p", "a", key="author", relation="author")
    'author'
    >>> g.add_edge("p", "b", key="evaluatesOn", relation="evaluatesOn")
    'evaluatesOn'
    >>> find_node(g, "bc")
    'b'
    >>> sorted(neighbourhood(g, "a", depth=1))
    ['a', 'p']
    >>> sorted(keep_types(g, ["author", "benchmark"]))
    ['a', 'b']
    >>> view, hidden = most_connected(g, 2)
    >>> sorted(view), hidden
    (['a', 'p'], 1)
"""

from __future__ import annotations

import difflib
import heapq
import logging
from collections.abc import Iterable
from dataclasses import dataclass

import networkx as nx
from rdflib import Graph, URIRef

from ..errors import UsageError
from .view import NODE_KINDS, RELATIONS

__all__ = [
    "find_node",
    "neighbourhood",
    "parse_types",
    "keep_types",
    "keep_min_degree",
    "most_connected",
    "construct_view",
    "View",
    "select_view",
    "DEFAULT_MAX_NODES",
    "copy_subgraph",
    "describe",
]

log = logging.getLogger(__name__)

DEFAULT_MAX_NODES = 2000
_TYPE_ALIASES = {"repository": "CodeRepository", "repo": "CodeRepository", "code": "CodeRepository", "page": "ProjectPage"}
# When a name matches several nodes (a paper titled like the benchmark it introduces), the
# first kind listed here wins.
_KIND_RANK = {
    kind: i
    for i, kind in enumerate(("Author", "Benchmark", "Dataset", "Model", "Method", "Task", "Metric", "Paper", "Category"))
}


def _names(attrs: dict) -> list[str]:
    names = [attrs.get("label", ""), attrs.get("title", ""), attrs.get("arxiv_id", ""), attrs.get("url", "")]
    names += attrs.get("aliases", "").split("; ") if attrs.get("aliases") else []
    return [n for n in names if n]


def find_node(graph: nx.MultiDiGraph, name: str) -> str:
    """The node called ``name``: its IRI, label, paper title, alias, arXiv id or URL
    (case-insensitive). Raises :class:`UsageError` naming close matches when there is none."""
    if name in graph:
        return name
    wanted = name.casefold().strip()
    matches = [n for n, attrs in graph.nodes(data=True) if any(x.casefold() == wanted for x in _names(attrs))]
    if matches:
        matches.sort(key=lambda n: (_KIND_RANK.get(graph.nodes[n]["kind"], 99), n))
        if len(matches) > 1:
            kinds = ", ".join(graph.nodes[n]["kind"] for n in matches)
            log.warning("%r names %d nodes (%s); using the %s %s (give an IRI to choose another)",
                        name, len(matches), kinds, graph.nodes[matches[0]]["kind"], matches[0])
        return matches[0]
    labels = sorted({x for _, attrs in graph.nodes(data=True) for x in _names(attrs)})
    close = difflib.get_close_matches(name, labels, n=5, cutoff=0.6)
    hint = f"; did you mean {', '.join(repr(c) for c in close)}?" if close else ""
    raise UsageError(f"no node named {name!r} in the graph{hint}")


def copy_subgraph(graph: nx.MultiDiGraph, nodes: Iterable[str]) -> nx.MultiDiGraph:
    """The subgraph on ``nodes`` (in the order given) as a new graph: networkx's
    ``subgraph(nodes).copy()`` without its filtered views, which cost several times more."""
    out = nx.MultiDiGraph()
    out.add_nodes_from((n, graph.nodes[n]) for n in nodes if n in graph)
    keep = out.succ
    out.add_edges_from((u, v, key, attrs) for u in keep for v, links in graph.succ[u].items() if v in keep
                       for key, attrs in links.items())
    return out


def neighbourhood(graph: nx.MultiDiGraph, node: str, depth: int = 1) -> nx.MultiDiGraph:
    """Every node at most ``depth`` links from ``node`` (in either direction), with the links
    between them."""
    if depth < 0:
        raise UsageError("depth must be 0 or more")
    seen = {node}
    frontier = [node]
    for _ in range(depth):
        nxt = []
        for current in frontier:
            for other in (*graph.successors(current), *graph.predecessors(current)):
                if other not in seen:
                    seen.add(other)
                    nxt.append(other)
        frontier = nxt
    return copy_subgraph(graph, seen)


def parse_types(types: Iterable[str]) -> list[str]:
    """Node kinds from user spelling (``benchmark``, ``Model``, ``repository``)."""
    known = {k.casefold(): k for k in NODE_KINDS}
    out = []
    for raw in types:
        name = raw.strip()
        if not name:
            continue
        kind = known.get(name.casefold()) or _TYPE_ALIASES.get(name.casefold())
        if kind is None:
            raise UsageError(f"unknown node type {name!r} (known: {', '.join(NODE_KINDS)})")
        if kind not in out:
            out.append(kind)
    return out


def keep_types(graph: nx.MultiDiGraph, types: Iterable[str], keep: Iterable[str] = ()) -> nx.MultiDiGraph:
    """Only the nodes of the given kinds (and the links among them), plus the nodes in ``keep``."""
    kinds = set(parse_types(types))
    keep = set(keep)
    return copy_subgraph(graph, (n for n, kind in graph.nodes(data="kind") if kind in kinds or n in keep))


def keep_min_degree(graph: nx.MultiDiGraph, minimum: int, keep: Iterable[str] = ()) -> nx.MultiDiGraph:
    """Only the nodes with at least ``minimum`` links in ``graph`` (counted once, before any
    node is removed), plus the nodes in ``keep``."""
    keep = set(keep)
    return copy_subgraph(graph, (n for n, d in graph.degree() if d >= minimum or n in keep))


def most_connected(graph: nx.MultiDiGraph, budget: int, keep: Iterable[str] = ()) -> tuple[nx.MultiDiGraph, int]:
    """At most ``budget`` nodes: the most connected part of ``graph``, and how many were left out.

    Components are taken largest first; inside one, nodes are added from its best-connected
    node outwards, always taking the best-connected node next to those already taken. The
    part shown is therefore connected around the hubs, not a scatter of high-degree nodes.
    Nodes in ``keep`` (a focus node) are always included.
    """
    total = graph.number_of_nodes()
    if budget <= 0 or total <= budget:
        return graph.copy(), 0
    degree = dict(graph.degree())
    chosen: list[str] = [n for n in sorted(set(keep)) if n in graph][:budget]
    taken = set(chosen)
    undirected = graph.to_undirected(as_view=True)
    components = sorted((sorted(c) for c in nx.connected_components(undirected)), key=lambda c: (-len(c), c[0]))
    for members in components:
        if len(taken) >= budget:
            break
        start = min(members, key=lambda n: (-degree[n], n))
        heap = [(-degree[n], n) for n in members if n in taken] or [(-degree[start], start)]
        heapq.heapify(heap)
        visited = {n for _, n in heap}
        while heap and len(taken) < budget:
            _, node = heapq.heappop(heap)
            if node not in taken:
                taken.add(node)
                chosen.append(node)
            for other in undirected.neighbors(node):
                if other not in visited:
                    visited.add(other)
                    heapq.heappush(heap, (-degree[other], other))
    return copy_subgraph(graph, chosen), total - len(chosen)


def construct_view(rdf, graph: nx.MultiDiGraph, query: str) -> nx.MultiDiGraph:
    """The part of ``graph`` named by the triples a SPARQL CONSTRUCT (or DESCRIBE) returns on
    ``rdf`` (an rdflib graph, or a pyoxigraph store, asked through Oxigraph): its subjects and
    objects that are explorer nodes, and its triples that are explorer links. Node details come
    from ``graph``."""
    if isinstance(rdf, Graph):
        from ..sparql import run_query

        result = run_query(rdf, query)
    else:
        from ..store.read import run_store_query

        result = run_store_query(_Opened(rdf), query)
    if result.kind != "GRAPH":
        raise UsageError(f"--query needs a CONSTRUCT or DESCRIBE query; this one is {result.kind}")
    nodes = {str(t) for triple in result.graph for t in (triple[0], triple[2]) if isinstance(t, URIRef)}
    nodes &= set(graph.nodes)
    out = nx.MultiDiGraph()
    out.add_nodes_from((n, graph.nodes[n]) for n in sorted(nodes))
    for s, p, o in sorted(result.graph):
        relation = RELATIONS.get(p)
        if relation and str(s) in nodes and str(o) in nodes:
            out.add_edge(str(s), str(o), key=relation, relation=relation)
    log.info("the query named %d nodes and %d links of the explorer graph", out.number_of_nodes(), out.number_of_edges())
    return out


class _Opened:
    """A bare pyoxigraph store, as :func:`scholarkg.store.read.run_store_query` takes one."""

    def __init__(self, ox) -> None:
        self.ox, self.path = ox, "the graph"


class Drawn:
    """The nodes (IRI to attributes) and links (subject, object, relation) of a view chosen on
    a :class:`~scholarkg.explorer.structure.Structure`, with the part of networkx's graph
    interface that :func:`~scholarkg.explorer.page.page_data` and
    :func:`~scholarkg.explorer.layout.layout_positions` read. Each link is given once; a
    networkx graph of a 5,000-node view (42,000 links) costs a third of a second to build."""

    def __init__(self, nodes: dict[str, dict], links: list[tuple[str, str, str]]) -> None:
        self.nodes, self._links = nodes, links

    def number_of_nodes(self) -> int:
        return len(self.nodes)

    def edges(self, data: str | None = None) -> list[tuple]:
        if data is None:
            return [(s, o) for s, o, _ in self._links]
        if data != "relation":
            raise ValueError(f"links carry only their relation, not {data!r}")
        return self._links


@dataclass
class View:
    """The graph to draw and how it was chosen (for the notice on the page)."""

    graph: nx.MultiDiGraph | Drawn
    total: int  # nodes before the budget was applied
    hidden: int = 0  # nodes left out by the budget
    focus: str | None = None
    description: str = ""


def select_view(
    graph: nx.MultiDiGraph,
    *,
    rdf=None,
    query: str | None = None,
    focus: str | None = None,
    depth: int = 1,
    types: Iterable[str] | None = None,
    min_degree: int = 0,
    max_nodes: int = DEFAULT_MAX_NODES,
) -> View:
    """Apply, in this order: ``query`` (needs ``rdf``: an rdflib graph or a pyoxigraph store),
    ``focus``/``depth``, ``min_degree``
    (links counted in the graph so far), ``types``, then the node budget ``max_nodes``
    (0 for none). The focus node survives the degree, type and budget steps."""
    if max_nodes < 0 or min_degree < 0:
        raise UsageError("max_nodes and min_degree must be 0 or more")
    parts = []
    if query is not None:
        if rdf is None:
            raise UsageError("a query view needs the RDF graph")
        graph = construct_view(rdf, graph, query)
        parts.append("the query's subgraph")
    focus_node = None
    if focus is not None:
        focus_node = find_node(graph, focus)
        graph = neighbourhood(graph, focus_node, depth)
        label = graph.nodes[focus_node].get("label", focus_node)
        parts.append(f"{depth} link{'s' if depth != 1 else ''} around {label}")
    keep = [focus_node] if focus_node else []
    if min_degree > 0:
        graph = keep_min_degree(graph, min_degree, keep)
    if types:
        graph = keep_types(graph, types, keep)
    total = graph.number_of_nodes()
    graph, hidden = most_connected(graph, max_nodes, keep)
    parts.append(describe(min_degree=min_degree, types=types))
    return View(graph, total, hidden, focus_node, "; ".join(p for p in parts if p))


def describe(*, min_degree: int = 0, types: Iterable[str] | None = None) -> str:
    """What the degree and type steps kept, for the page's description."""
    parts = []
    if min_degree > 0:
        parts.append(f"nodes with {min_degree}+ links")
    if types:
        parts.append("types " + ", ".join(parse_types(types)))
    return "; ".join(parts)
