"""The explorer page: one self-contained HTML file (every script and style inline).

The page is the project's template (``template.html``, ``explorer.js``, ``explorer.css`` in
this package) with vis-network as bundled in pyvis's package files. pyvis's own HTML
template is not used: it loads scripts from CDNs even with ``cdn_resources="local"``, shows a
node title containing ``href`` with ``innerHTML`` and puts the heading in unescaped.

Safety: record text never becomes markup. The page data is JSON inside
``<script type="application/json">`` with ``<``, ``>``, ``&``, U+2028 and U+2029 escaped; the
page script writes text with ``textContent`` and makes links only of http(s) URLs. A
Content-Security-Policy admits only the page's own three scripts (by hash), so an injected
``onerror=`` attribute or ``<script>`` would not run even if it reached the DOM, and the page
can load nothing from the network.
"""

from __future__ import annotations

import base64
import hashlib
import html
import json
import logging
import re
from functools import lru_cache
from pathlib import Path

from ..errors import UsageError
from .page import page_data
from .select import DEFAULT_MAX_NODES, Drawn, View, describe, select_view
from .structure import StructureDetails, read_structure
from .view import node_attributes, to_networkx

__all__ = ["render_html", "write_html", "script_json"]

log = logging.getLogger(__name__)

_HERE = Path(__file__).resolve().parent
_SLOT = re.compile(r"@@([a-z_]+)@@")
_HINT = "scholarkg render GRAPH -o FILE.html"


def script_json(data) -> str:
    """JSON safe to place inside a ``<script>`` element (deterministic: keys sorted)."""
    text = json.dumps(data, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    for char, escaped in (("<", "\\u003c"), (">", "\\u003e"), ("&", "\\u0026"), ("\u2028", "\\u2028"), ("\u2029", "\\u2029")):
        text = text.replace(char, escaped)
    return text


@lru_cache(maxsize=1)
def _assets() -> dict[str, str]:
    import pyvis

    vis = Path(pyvis.__file__).parent / "templates" / "lib" / "vis-9.1.2" / "vis-network.min.js"
    assets = {
        "vis_js": vis.read_text(encoding="utf-8"),
        "graphview_js": (_HERE / "graphview.js").read_text(encoding="utf-8"),
        "details_js": (_HERE / "details.js").read_text(encoding="utf-8"),
        "explorer_js": (_HERE / "explorer.js").read_text(encoding="utf-8"),
        "css": (_HERE / "explorer.css").read_text(encoding="utf-8"),
        "template": (_HERE / "template.html").read_text(encoding="utf-8"),
    }
    for name in ("vis_js", "graphview_js", "details_js", "explorer_js"):
        if re.search(r"</script|<!--", assets[name], re.IGNORECASE):
            raise RuntimeError(f"{name} cannot be placed inline: it contains '</script' or '<!--'")
    if "</style" in assets["css"].lower():
        raise RuntimeError("explorer.css cannot be placed inline: it contains '</style'")
    return assets


def _hash(script: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(script.encode("utf-8")).digest()).decode("ascii") + "'"


def render_html(
    graph,
    *,
    title: str = "scholarkg explorer",
    focus: str | None = None,
    depth: int = 1,
    types: list[str] | None = None,
    min_degree: int = 0,
    query: str | None = None,
    max_nodes: int = DEFAULT_MAX_NODES,
) -> str:
    """A self-contained HTML explorer of ``graph`` (an rdflib graph or a pyoxigraph store,
    read with SPARQL), or of a part of it.

    ``focus``/``depth``: the neighbourhood of one author, paper or entity (by name, alias,
    title, arXiv id or IRI); ``types``: node kinds to keep; ``min_degree``: drop nodes with
    fewer links; ``query``: a SPARQL CONSTRUCT whose result is the part drawn; ``max_nodes``:
    above this budget only the most connected part is drawn and the page says what is hidden
    (0 draws everything). The same graph and options always give the same bytes.
    """
    full, view = choose_view(graph, focus=focus, depth=depth, types=types, min_degree=min_degree,
                             query=query, max_nodes=max_nodes)
    if view.hidden:
        log.warning("explorer: drawing the %s most connected of %s nodes (--max-nodes %d draws all)",
                    f"{view.graph.number_of_nodes():,}", f"{view.total:,}", view.total)
    elif not view.graph.number_of_nodes():
        log.warning("explorer: the view has no nodes; the page will be empty")
    data = page_data(full, view, hint=_HINT)
    assets = _assets()
    policy = (
        "default-src 'none'; "
        f"script-src {_hash(assets['vis_js'])} {_hash(assets['graphview_js'])} {_hash(assets['details_js'])} {_hash(assets['explorer_js'])}; "
        "style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'"
    )
    values = {
        "title": html.escape(title),
        "csp": html.escape(policy),
        "css": assets["css"],
        "vis_js": assets["vis_js"],
        "graphview_js": assets["graphview_js"],
        "details_js": assets["details_js"],
        "explorer_js": assets["explorer_js"],
        "data": script_json(data),
    }
    return _SLOT.sub(lambda m: values[m.group(1)], assets["template"])


def choose_view(graph, *, focus=None, depth=1, types=None, min_degree=0, query=None, max_nodes=DEFAULT_MAX_NODES):
    """(what the page reads of the graph: the whole networkx graph or its
    :class:`~scholarkg.explorer.page.Details` around the view, the :class:`View`).

    Without a focus or a query, the nodes are chosen on the graph's
    :class:`~scholarkg.explorer.structure.Structure` and attributes are read only for them and
    their neighbours, so drawing 2,000 nodes of a graph of millions does not hold all of it.
    """
    structure = read_structure(graph)
    if focus is not None or query is not None:
        full = to_networkx(graph, structure=structure)
        return full, select_view(full, rdf=graph, query=query, focus=focus, depth=depth, types=types,
                                 min_degree=min_degree, max_nodes=max_nodes)
    if max_nodes < 0 or min_degree < 0:
        raise UsageError("max_nodes and min_degree must be 0 or more")
    choice = structure.choose(types=types, min_degree=min_degree, max_nodes=max_nodes)
    drawn = set(choice.nodes)
    attrs = node_attributes(graph, structure, only=structure.around(choice.nodes), details=drawn)
    view = Drawn({node: attrs[node] for node in choice.nodes}, list(structure.edges(drawn)))
    return StructureDetails(structure, attrs), View(view, choice.total, choice.hidden, None,
                                                    describe(min_degree=min_degree, types=types))


def write_html(graph, path: str | Path, **options) -> Path:
    """Write :func:`render_html` of ``graph`` to ``path`` (atomically)."""
    from ..fileio import write_text

    write_text(path, render_html(graph, **options))
    return Path(path)
