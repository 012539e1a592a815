"""The data behind an explorer page: nodes with positions and details, links, legend, options.

Nodes and links are collected in a pyvis :class:`~pyvis.network.Network` (filling its
``nodes`` and ``edges`` lists directly; ``add_edge`` checks every existing edge for a
duplicate and ``from_nx`` is quadratic) and pyvis's option objects set the vis-network
physics. The page itself is the project's template (see :mod:`scholarkg.explorer.htmlpage`).

Details shown for a node (related papers, results, aliases) come from the whole graph, so a
node in a small view still lists everything it is linked to; the related nodes that are on
the page can be clicked.
"""

from __future__ import annotations

import json
import math
from collections import defaultdict
from collections.abc import Iterable

import networkx as nx

from .layout import EDGE_LENGTH, layout_positions
from .select import View

__all__ = ["KIND_STYLE", "RELATION_STYLE", "RELATION_TEXT", "page_data", "Details", "GraphDetails", "app_options", "PHYSICS_MAX_NODES", "EDGE_LABEL_MAX"]

# kind -> (colour, shape, legend text). Every kind has a shape of its own (drawn by the page
# script, the same on the canvas and in the legend), so types stay apart without colour.
KIND_STYLE: dict[str, tuple[str, str, str]] = {
    "Author": ("#e15759", "star", "Author"),
    "Paper": ("#4e79a7", "square", "Paper"),
    "Category": ("#9c755f", "diamond", "arXiv category"),
    "Benchmark": ("#f28e2b", "triangle", "Benchmark"),
    "Dataset": ("#d4a017", "triangleDown", "Dataset"),
    "Model": ("#59a14f", "dot", "Model"),
    "Method": ("#76b7b2", "hexagon", "Method"),
    "Task": ("#b07aa1", "pentagon", "Task"),
    "Metric": ("#ff9da7", "plus", "Metric"),
    "Result": ("#8c8c8c", "ring", "Result"),
    "Improvement": ("#5f9e6e", "arrow", "Improvement"),
    "CodeRepository": ("#2f2f2f", "octagon", "Code repository"),
    "ProjectPage": ("#6b6b6b", "house", "Project page"),
    "WebResource": ("#a0a0a0", "parallelogram", "Web page"),
}

# relation -> (colour, dashed)
RELATION_STYLE: dict[str, tuple[str, bool]] = {
    "author": ("#e8a3a4", False),
    "category": ("#c9b29f", False),
    "introduces": ("#d62728", False),
    "evaluatesOn": ("#f28e2b", False),
    "uses": ("#59a14f", False),
    "comparesWith": ("#b07aa1", True),
    "mentions": ("#b8b8b8", True),
    "reportsResult": ("#8c8c8c", False),
    "reportsImprovement": ("#5f9e6e", False),
    "baseline": ("#b07aa1", True),
    "model": ("#59a14f", True),
    "benchmark": ("#f28e2b", True),
    "metric": ("#ff9da7", True),
    "variantOf": ("#76b7b2", False),
    "derivedFrom": ("#4e79a7", True),
    "codeRepository": ("#2f2f2f", False),
    "projectPage": ("#6b6b6b", False),
}

# relation -> (heading on the source node, heading on the target node)
RELATION_TEXT: dict[str, tuple[str, str]] = {
    "author": ("Authors", "Papers"),
    "category": ("Categories", "Papers"),
    "introduces": ("Introduces", "Introduced by"),
    "evaluatesOn": ("Evaluates on", "Papers evaluating on it"),
    "uses": ("Uses", "Used by"),
    "comparesWith": ("Compares with", "Papers comparing with it"),
    "mentions": ("Mentions", "Mentioned by"),
    "reportsResult": ("Results", "Reported by"),
    "reportsImprovement": ("Improvements", "Reported by"),
    "baseline": ("Over the baseline", "Improved on in"),
    "model": ("Model", "Results (as model)"),
    "benchmark": ("Benchmark", "Results (on this benchmark)"),
    "metric": ("Metric", "Results (in this metric)"),
    "variantOf": ("Variant of", "Variants"),
    "derivedFrom": ("Derived from", "Basis of"),
    "codeRepository": ("Code", "Code of"),
    "projectPage": ("Project page", "Project page of"),
}
_RELATION_ORDER = {rel: i for i, rel in enumerate(RELATION_TEXT)}

PHYSICS_MAX_NODES = 400  # above this the positions from Python are final (physics off)
EDGE_LABEL_MAX = 400  # above this many links, links are told apart by colour only
RELATED_MAX = 60  # items listed per heading in the details
LABEL_CHARS = 32


def _short(text: str, size: int = LABEL_CHARS) -> str:
    text = " ".join(text.split())
    return text if len(text) <= size else text[: size - 1].rstrip() + "…"


def _short_title(title: str) -> str:
    """A paper's label: the name before a colon when the title has one ("HarnessDev: Can LLMs
    ..." -> "HarnessDev"), else the title cut to fit."""
    head, sep, _ = title.partition(": ")
    return head.strip() if sep and 2 <= len(head.strip()) <= LABEL_CHARS else _short(title)


# Label tiers: 0 always drawn and drawn first (authors, papers, what papers introduce),
# 1 always drawn (the names of what papers evaluate on, use or compare with, categories), 2
# drawn once the zoom leaves room (the rest, term-phrase concepts among them). Within a tier,
# names come before concepts.
_TIER1_KINDS = {"Benchmark", "Dataset", "Model", "Category"}
_KIND_RANK = {"Author": 0, "Paper": 2}  # introduced entities rank 1, between them


def _tier(nodes, node: str, kind: str, links: list[tuple[int, str, str]]) -> tuple[int, int]:
    """(tier, order within the tier) of a node's label (``links`` as :meth:`Details.links` gives them)."""
    if kind == "Paper" and _named_after_what_it_introduces(nodes, node, links):
        return 1, 1  # "HarnessDev: ..." beside the benchmark HarnessDev: one name drawn is enough at first
    if kind in _KIND_RANK:
        return 0, _KIND_RANK[kind]
    concept = nodes[node].get("entity_kind") == "concept"
    roles = {rel for side, rel, _ in links if side == 1}
    if "introduces" in roles:
        return 0, 1
    if kind == "Category" or (kind in _TIER1_KINDS and not concept and roles & {"evaluatesOn", "uses", "comparesWith"}):
        return 1, 0
    return 2, 1 if concept else 0


def _named_after_what_it_introduces(nodes, paper: str, links: list[tuple[int, str, str]]) -> bool:
    short = _short_title(nodes[paper].get("label", "")).casefold()
    return any(side == 0 and rel == "introduces" and nodes[other].get("label", "").casefold() == short
               for side, rel, other in links)


def _unique_aliases(aliases: list[str], label: str) -> list[str]:
    """Aliases without those that differ from the label or each other only in case."""
    seen = {label.casefold()}
    out = []
    for alias in aliases:
        if alias.casefold() not in seen:
            seen.add(alias.casefold())
            out.append(alias)
    return out


def _http(url: str | None) -> str | None:
    return url if url and url.lower().startswith(("http://", "https://")) else None


def _result_name(details: Details, node: str) -> str:
    attrs = details.nodes[node]
    parts = {rel: details.nodes[v].get("label", v) for rel, v in details.out_links(node)}
    text = attrs.get("label", "")
    if "model" in parts:
        text += f" · {parts['model']}"
    if "benchmark" in parts:
        text += f" on {parts['benchmark']}"
    if "metric" in parts:
        text += f" ({parts['metric']})"
    if "baseline" in parts:
        text += f" over {parts['baseline']}"
    return text


def _name(details: Details, node: str) -> str:
    attrs = details.nodes[node]
    return _result_name(details, node) if attrs["kind"] in ("Result", "Improvement") else attrs.get("title") or attrs.get("label", node)


class _Order(dict):
    """The order of a node among related ones, made on first use: nodes on the page first,
    then by name (case-folded) and IRI."""

    def __init__(self, name, index: dict[str, int]):
        super().__init__()
        self.name, self.index = name, index

    def __missing__(self, node: str) -> tuple:
        key = self[node] = (node not in self.index, self.name(node).casefold(), node)
        return key


def _namer(details: Details, index: dict[str, int]):
    """:func:`_name`, remembered (hubs list the same neighbours again and again), with
    ``name.order``, the :class:`_Order` of nodes among related ones."""
    cache: dict[str, str] = {}

    def name(node: str) -> str:
        if node not in cache:
            cache[node] = _name(details, node)
        return cache[node]

    name.order = _Order(name, index)
    return name


class Details:
    """What a page reads of the whole graph about its nodes.

    ``nodes`` maps each node the page names (its own and their neighbours) to its attributes;
    :meth:`links` gives a page node's links as (side, relation, other), side 0 for links from
    it and 1 for links to it; :meth:`out_links` a result's links out as (relation, other), in
    the order networkx keeps them; :meth:`degree` a page node's links in the whole graph.
    """

    nodes: dict

    def links(self, node: str) -> list[tuple[int, str, str]]:
        raise NotImplementedError

    def out_links(self, node: str) -> list[tuple[str, str]]:
        raise NotImplementedError

    def degree(self, node: str) -> int:
        raise NotImplementedError


class GraphDetails(Details):
    """:class:`Details` from the whole graph as networkx holds it; the links of ``nodes``
    come from one pass over the edges."""

    def __init__(self, full: nx.MultiDiGraph, nodes: Iterable[str]):
        self.full, self.nodes = full, full.nodes
        self._links: dict[str, list] = {node: [] for node in nodes}
        for u, v, rel in full.edges(data="relation"):
            if u in self._links:
                self._links[u].append((0, rel, v))
            if v in self._links:
                self._links[v].append((1, rel, u))

    def links(self, node: str) -> list[tuple[int, str, str]]:
        return self._links[node]

    def out_links(self, node: str) -> list[tuple[str, str]]:
        return [(rel, v) for _, v, rel in self.full.out_edges(node, data="relation")]

    def degree(self, node: str) -> int:
        return self.full.degree(node)


def _related(links: list[tuple[int, str, str]], index: dict[str, int], name) -> list[list]:
    """[[heading, items, more], ...]: an item is a page node's index, or the name of a node not on the page."""
    groups: dict[tuple[int, str], set[str]] = defaultdict(set)
    for side, rel, other in links:
        groups[(2 * _RELATION_ORDER.get(rel, 99) + side, RELATION_TEXT.get(rel, (rel, rel))[side])].add(other)
    out = []
    for (_, heading), others in sorted(groups.items()):
        ranked = sorted(others, key=name.order.__getitem__)
        items = [index[n] if n in index else name(n) for n in ranked[:RELATED_MAX]]
        out.append([heading, items, max(0, len(ranked) - RELATED_MAX)])
    return out


def _node_record(nodes, node: str, index: dict[str, int], pos, degree: int, name, links) -> dict:
    attrs = nodes[node]
    kind = attrs["kind"]
    label = attrs.get("label", node)
    tier, within = _tier(nodes, node, kind, links)
    record = {
        "id": index[node],
        "kind": kind,
        "label": label if kind in ("Result", "Improvement") else _short_title(label) if kind == "Paper" else _short(label),
        "tier": tier,
        "order": within,
        "name": name(node),
        "iri": node,
        "x": pos[0],
        "y": pos[1],
        "size": round(min(50.0, 7 + 3 * math.sqrt(degree)), 1),
        "degree": degree,
        "related": _related(links, index, name),
    }
    for key in ("abstract", "evidence", "unit", "value", "arxiv_id", "entity_kind"):
        if attrs.get(key):
            record[key] = attrs[key]
    if "year" in attrs:
        record["year"] = attrs["year"]
    if attrs.get("categories"):
        record["categories"] = attrs["categories"].split(" ")
    if attrs.get("aliases"):
        aliases = _unique_aliases(attrs["aliases"].split("; "), attrs.get("label", ""))
        if aliases:
            record["aliases"] = aliases
    if _http(attrs.get("url")):
        record["url"] = attrs["url"]
    return record


def _options(n_nodes: int) -> tuple[dict, int]:
    """vis-network options (physics through pyvis's option objects) and the stabilisation cap."""
    from pyvis.network import Network

    net = Network(directed=True, cdn_resources="in_line")
    net.barnes_hut(gravity=-6000, central_gravity=0.08, spring_length=int(EDGE_LENGTH), spring_strength=0.03, damping=0.4, overlap=0.6)
    physics = 0 < n_nodes <= PHYSICS_MAX_NODES
    # Few steps are needed from the positions computed in Python; the cap bounds the wait.
    iterations = 150 if physics else 0
    net.toggle_physics(physics)
    net.toggle_stabilization(physics)
    net.options.physics.stabilization.iterations = iterations
    net.options.physics.stabilization.updateInterval = 10
    net.options.edges.smooth.enabled = False
    net.options.edges.color.inherit = False
    net.toggle_hide_edges_on_drag(n_nodes > PHYSICS_MAX_NODES)
    options = json.loads(net.options.to_json())
    options.pop("configure", None)
    options["physics"]["maxVelocity"] = 30
    options["physics"]["minVelocity"] = 1.0
    options["layout"] = {"improvedLayout": False, "randomSeed": 7}
    options["interaction"].update({"hover": True, "tooltipDelay": 150, "keyboard": False, "multiselect": False})
    options["nodes"] = {"borderWidth": 1, "font": {"size": 13, "face": "system-ui, sans-serif", "strokeWidth": 3, "strokeColor": "#ffffff"}}
    options["edges"].update({"width": 1, "arrows": {"to": {"enabled": True, "scaleFactor": 0.45}},
                             "font": {"size": 9, "align": "middle", "color": "#555555", "strokeWidth": 2}})
    return options, iterations


def app_options() -> dict:
    """vis-network options for the served explorer, which draws neighbourhoods of up to a few
    hundred nodes as they are opened, with physics on (the static page's options at that size)."""
    options, _ = _options(PHYSICS_MAX_NODES // 2)
    options["physics"]["stabilization"] = {"enabled": True, "iterations": 120, "updateInterval": 20, "fit": False}
    return options


def page_data(full: nx.MultiDiGraph | Details, view: View, *, hint: str) -> dict:
    """Everything the page script needs, as plain JSON-ready values (deterministic order).

    ``full`` is the whole graph, or the :class:`Details` of it around the view, ``view`` the
    part drawn, ``hint`` the command the budget notice tells the reader to run.
    """
    from pyvis.network import Network

    graph = view.graph
    nodes = sorted(graph.nodes)
    index = {node: i for i, node in enumerate(nodes)}
    positions = layout_positions(graph)
    details = full if isinstance(full, Details) else GraphDetails(full, nodes)
    net = Network(directed=True, cdn_resources="in_line")
    name = _namer(details, index)
    net.nodes = [_node_record(details.nodes, node, index, positions[node], details.degree(node), name, details.links(node))
                 for node in nodes]
    # the order labels are placed in: tier, then kind within the tier, then most links first
    ranked = sorted(net.nodes, key=lambda n: (n["tier"], n.pop("order"), -n["degree"], n["id"]))
    for rank, record in enumerate(ranked):
        record["rank"] = rank
    edges = sorted((index[u], index[v], rel) for u, v, rel in graph.edges(data="relation"))
    with_labels = len(edges) <= EDGE_LABEL_MAX
    net.edges = [{"from": u, "to": v, "relation": rel, **({"label": rel} if with_labels else {})} for u, v, rel in edges]
    options, iterations = _options(len(nodes))

    kinds = sorted({graph.nodes[n]["kind"] for n in nodes}, key=list(KIND_STYLE).index)
    categories = {}
    for node in details.nodes:
        attrs = details.nodes[node]
        if attrs["kind"] == "Category":
            categories[attrs.get("label", "")] = attrs.get("name", "")
    used = sorted({c for n in net.nodes for c in n.get("categories", ())})
    years = [n["year"] for n in net.nodes if n["kind"] == "Paper" and "year" in n]
    relations = sorted({rel for *_, rel in edges}, key=list(RELATION_STYLE).index)
    notice = ""
    if not nodes:
        notice = "Nothing to draw: no node of the graph is in this view (check --focus, --types, --min-degree or --query)."
    elif view.hidden:
        notice = (
            f"Showing the {len(nodes):,} most connected of {view.total:,} nodes; {view.hidden:,} are hidden. "
            f"To see them, render with a larger budget ({hint} --max-nodes {view.total}) "
            "or draw a part: --focus NAME --depth 2, --types Benchmark,Model, --min-degree 3."
        )
    return {
        "description": view.description,
        "notice": notice,
        "focus": index.get(view.focus) if view.focus else None,
        "nodes": net.nodes,
        "edges": net.edges,
        "options": options,
        "stabilization": iterations,
        "kinds": [{"kind": k, "color": KIND_STYLE[k][0], "shape": KIND_STYLE[k][1], "text": KIND_STYLE[k][2]} for k in kinds],
        "relations": [{"relation": r, "color": RELATION_STYLE[r][0], "dashes": RELATION_STYLE[r][1]} for r in relations],
        "categories": [{"code": c, "name": categories.get(c, "")} for c in used],
        "years": [min(years), max(years)] if years else None,
        "counts": {"nodes": len(nodes), "edges": len(edges), "total": view.total, "hidden": view.hidden},
    }
