"""Open a built graph: a folder written by ``build`` or a single RDF file."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from rdflib import Dataset, Graph

from ..errors import InputError
from .builder import new_graph

__all__ = ["load_graph", "RDF_SUFFIXES"]

RDF_SUFFIXES = {
    ".ttl": "turtle",
    ".nt": "nt",
    ".nq": "nquads",
    ".trig": "trig",
    ".jsonld": "json-ld",
    ".json": "json-ld",
    ".rdf": "xml",
    ".owl": "xml",
}


def load_graph(path: str | Path) -> Graph:
    """An rdflib graph of ``path``: a build folder (its ``graph.nt`` or ``graph.ttl``), a store
    folder (copied into memory; see :func:`scholarkg.store.store_graph`) or an RDF file."""
    path = Path(path)
    if path.is_dir():
        from ..store.disk import is_store

        if is_store(path):
            from ..store import GraphStore, store_graph

            with GraphStore(path) as store:
                return store_graph(store)
        for name in ("graph.nt", "graph.ttl"):
            if (path / name).is_file():
                return load_graph(path / name)
        raise InputError(f"{path}: no graph.ttl or graph.nt in this folder (is it a build output folder?)")
    if not path.exists():
        raise InputError(f"{path}: no such file or folder")
    fmt = RDF_SUFFIXES.get(path.suffix.lower())
    if fmt is None:
        known = ", ".join(sorted(RDF_SUFFIXES))
        raise InputError(f"{path}: unknown RDF file type {path.suffix!r} (known: {known})")
    graph = new_graph()
    try:
        if fmt in ("nquads", "trig"):
            ds = Dataset()
            ds.parse(path, format=fmt)
            for s, p, o, _g in ds.quads((None, None, None, None)):
                graph.add((s, p, o))
        elif fmt == "json-ld":
            text = path.read_text(encoding="utf-8")
            _refuse_remote_contexts(path, json.loads(text))
            graph.parse(data=text, format="json-ld")
        else:
            graph.parse(path, format=fmt)
    except (OSError, ValueError, SyntaxError) as exc:
        message = " ".join(str(exc).split())[:300]
        raise InputError(f"{path}: cannot parse as {fmt}: {message}") from exc
    except Exception as exc:  # rdflib parsers raise their own exception types
        message = " ".join(str(exc).split())[:300]
        raise InputError(f"{path}: cannot parse as {fmt}: {message}") from exc
    return graph


def _refuse_remote_contexts(path: Path, data: Any) -> None:
    """JSON-LD may name a ``@context`` by URL, which parsers fetch (even ``file:`` ones).
    Only inline contexts are accepted."""
    stack = [data]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            for key, value in node.items():
                if key in ("@context", "@import") and _has_reference(value):
                    raise InputError(f"{path}: refers to a remote JSON-LD @context; only inline contexts are read")
                stack.append(value)
        elif isinstance(node, list):
            stack.extend(node)


def _has_reference(value: Any) -> bool:
    if isinstance(value, str):
        return True
    if isinstance(value, list):
        return any(_has_reference(v) for v in value)
    if isinstance(value, dict):
        return "@import" in value
    return False
