"""Interactive HTML views of a graph: one self-contained, offline explorer page.

::

    view.to_networkx     rdflib graph -> networkx MultiDiGraph of papers, authors, entities, ...
    select               the part to draw: --focus/--depth, --types, --min-degree, --query, budget
    layout               node positions computed with numpy (physics off for large graphs)
    page                 page data: nodes with details, links, legend, vis-network options
    htmlpage             the HTML: template.html + explorer.js + explorer.css + vis-network inline
"""

from __future__ import annotations

from .htmlpage import render_html, script_json, write_html
from .page import KIND_STYLE, RELATION_STYLE
from .select import DEFAULT_MAX_NODES

__all__ = ["render_html", "write_html", "script_json", "KIND_STYLE", "RELATION_STYLE", "DEFAULT_MAX_NODES"]
