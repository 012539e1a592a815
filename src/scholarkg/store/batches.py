"""Work on a store a part at a time: N-Quads loaded the cheapest way for their size, lists in chunks.

Statements a build wrote itself are parsed leniently (pyoxigraph's ``lenient``: IRIs and
language tags are not checked again). Each of their IRIs and language tags was checked by
pyoxigraph when it was made (a term, or an IRI minted through :func:`scholarkg.graph.iri.validate`),
and checking them a second time was a quarter to a third of loading them into memory. A user's
files are always parsed strictly.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

__all__ = ["BULK_LOAD_BYTES", "OWN_TEXT", "load_nquads", "chunks"]

BULK_LOAD_BYTES = 4 << 20  # below this a transactional load; above, Oxigraph's bulk loader
OWN_TEXT = {"lenient": True}  # parser options for statements a build wrote (see above)


def load_nquads(store, data: bytes) -> None:
    """Load N-Quads ``data`` that a build wrote into ``store`` (a :class:`pyoxigraph.Store`): a
    small part in a transaction, a large one with the bulk loader (which costs more to start,
    less per statement)."""
    import pyoxigraph as ox

    if data:
        (store.bulk_load if len(data) >= BULK_LOAD_BYTES else store.load)(data, ox.RdfFormat.N_QUADS, **OWN_TEXT)


def chunks(items: Sequence, size: int) -> Iterator[Sequence]:
    """``items`` in consecutive slices of ``size`` (the last one shorter)."""
    for i in range(0, len(items), size):
        yield items[i : i + size]
