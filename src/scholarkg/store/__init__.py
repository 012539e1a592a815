"""Persistent graphs: an on-disk Oxigraph store built incrementally, queried with Oxigraph.

::

    disk.py       the store folder: Oxigraph database, manifest, lock
    manifest.py   SQLite bookkeeping that makes builds incremental and resumable
    memory.py     the folder build's sink: an in-memory Oxigraph store and a scratch manifest
    emit.py       per-record N-Triples text (the map steps, also run by Dask workers)
    build.py      read -> extract -> link -> curate -> emit -> write, only what changed
    finish.py     entities, authors, counts, pairs, curations, clean-up of shared nodes
    snapshot.py   the sorted N-Triples, Turtle and N-Quads snapshot of the blocks, streamed by exports
    open.py       opening a store for queries: an in-memory copy when it fits, else the disk
    read.py       SPARQL, counts, exports and rdflib copies of a store
    terms.py      pyoxigraph terms as rdflib terms

>>> from scholarkg.store import build_store, GraphStore, run_store_query   # doctest: +SKIP
>>> report = build_store(["papers.jsonl"], "papers.store")                  # doctest: +SKIP
>>> with GraphStore("papers.store") as store:                              # doctest: +SKIP
...     run_store_query(store, "SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }").rows
"""

from __future__ import annotations

from .build import BuildReport, LocalMapper, build_store
from .disk import GraphStore, is_store
from .memory import MemoryStore
from .open import DEFAULT_MEMORY_BUDGET, QueryStore, open_for_query
from .read import DEFAULT_MAX_ROWS, DEFAULT_TIMEOUT, STORE_EXPORTS, export_store, run_store_query, store_graph, store_summary

__all__ = [
    "BuildReport",
    "LocalMapper",
    "build_store",
    "GraphStore",
    "MemoryStore",
    "QueryStore",
    "open_for_query",
    "DEFAULT_MEMORY_BUDGET",
    "is_store",
    "run_store_query",
    "store_summary",
    "store_graph",
    "export_store",
    "STORE_EXPORTS",
    "DEFAULT_TIMEOUT",
    "DEFAULT_MAX_ROWS",
]
