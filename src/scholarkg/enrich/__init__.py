"""Enrichment from arXiv: ids, all authors, categories, dates, DOI and journal references.

:mod:`~scholarkg.enrich.client` talks to the arXiv API politely and caches its answers;
:mod:`~scholarkg.enrich.overlay` is the enrichment file every build merges;
:mod:`~scholarkg.enrich.run` is ``scholarkg enrich GRAPH``.
"""

from __future__ import annotations

__all__ = ["ArxivClient", "ResponseCache", "enrich_graph", "load_enrichment", "default_enrichment_path"]


def __getattr__(name: str):
    if name in ("ArxivClient", "ResponseCache"):
        from . import client

        return getattr(client, name)
    if name in ("load_enrichment", "default_enrichment_path"):
        from . import overlay

        return getattr(overlay, name)
    if name == "enrich_graph":
        from .run import enrich_graph

        return enrich_graph
    raise AttributeError(name)
