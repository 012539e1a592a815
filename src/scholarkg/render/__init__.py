"""Interactive HTML views of a graph (vis-network, as shipped inside pyvis, inlined)."""

from __future__ import annotations

import html
import json
from pathlib import Path

from rdflib import Graph

__all__ = ["render_html", "write_html", "KIND_STYLE"]

KIND_STYLE: dict[str, tuple[str, str]] = {
    "Author": ("#e15759", "star"),
    "Paper": ("#4e79a7", "box"),
    "Category": ("#9c755f", "diamond"),
    "Benchmark": ("#f28e2b", "triangle"),
    "Dataset": ("#edc948", "triangle"),
    "Model": ("#59a14f", "dot"),
    "Method": ("#76b7b2", "dot"),
    "Task": ("#b07aa1", "square"),
    "Metric": ("#ff9da7", "square"),
    "Result": ("#bab0ac", "ellipse"),
    "CodeRepository": ("#333333", "hexagon"),
    "ProjectPage": ("#666666", "hexagon"),
    "WebResource": ("#999999", "hexagon"),
}


def _vis_assets() -> tuple[str, str]:
    import pyvis

    lib = Path(pyvis.__file__).parent / "templates" / "lib" / "vis-9.1.2"
    return (lib / "vis-network.min.js").read_text(encoding="utf-8"), (lib / "vis-network.css").read_text(encoding="utf-8")


def _script_json(data) -> str:
    """JSON safe to place inside a <script> element."""
    text = json.dumps(data, ensure_ascii=False, sort_keys=True)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026").replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")


def render_html(graph: Graph, *, title: str = "scholarkg explorer") -> str:
    """A self-contained HTML page drawing ``graph``; every script and style is inline."""
    from .view import to_networkx

    nxg = to_networkx(graph)
    degree = dict(nxg.degree())
    nodes = []
    for node, attrs in sorted(nxg.nodes(data=True)):
        color, shape = KIND_STYLE.get(attrs["kind"], ("#cccccc", "dot"))
        details = [f"{attrs['kind']}: {attrs.get('label', '')}"]
        for key in ("year", "categories", "aliases", "url", "evidence"):
            if attrs.get(key):
                details.append(f"{key}: {attrs[key]}")
        nodes.append({
            "id": node, "label": str(attrs.get("label", ""))[:60], "group": attrs["kind"],
            "color": color, "shape": shape, "size": 8 + 3 * min(degree.get(node, 0), 12),
            "title": "\n".join(details),
        })
    edges = [
        {"from": u, "to": v, "label": attrs["relation"], "arrows": "to"}
        for u, v, attrs in sorted(nxg.edges(data=True), key=lambda e: (e[0], e[1], e[2]["relation"]))
    ]
    js, css = _vis_assets()
    legend = "".join(
        f'<span class="legend-item"><span class="swatch" style="background:{color}"></span>{kind}</span>'
        for kind, (color, _shape) in KIND_STYLE.items()
    )
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{html.escape(title)}</title>
<style>{css}
body {{ font-family: system-ui, sans-serif; margin: 0; }}
#graph {{ width: 100vw; height: calc(100vh - 3em); }}
#legend {{ padding: .5em; font-size: 13px; }}
.legend-item {{ margin-right: 1em; white-space: nowrap; }}
.swatch {{ display: inline-block; width: .9em; height: .9em; margin-right: .3em; vertical-align: middle; }}
</style>
<script>{js}</script></head>
<body><div id="legend"><strong>{html.escape(title)}</strong> &nbsp; {legend}</div><div id="graph"></div>
<script>
const nodes = new vis.DataSet({_script_json(nodes)});
const edges = new vis.DataSet({_script_json(edges)});
const network = new vis.Network(document.getElementById("graph"), {{nodes, edges}}, {{
  edges: {{font: {{size: 9}}, smooth: false}},
  physics: {{stabilization: {{iterations: 300}}, barnesHut: {{springLength: 120}}}},
}});
network.once("stabilizationIterationsDone", () => network.setOptions({{physics: false}}));
</script></body></html>
"""


def write_html(graph: Graph, path: str | Path, **options) -> Path:
    from ..fileio import write_text

    write_text(path, render_html(graph, **options))
    return Path(path)
