"""Pausing Python's cyclic garbage collector while an answer's rows are made and ordered.

Reading an answer of tens of thousands of rows makes as many tuples, and ordering it as many
keys. None of them is garbage yet, but each few hundred new objects start a collection that
walks every young object, and the older generations are walked too as they fill: making the
rows of the largest named answers at 2,800 records from their TSV text took about twice as
long with the collector running as with it paused, and whole answers of
:func:`scholarkg.sparql.run_named` up to 1.2 times as long (paired runs). Reference counting
still frees what is dropped meanwhile; only cycles wait until the collector runs again.
"""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Iterator

__all__ = ["paused_gc"]


@contextlib.contextmanager
def paused_gc() -> Iterator[None]:
    """Pause the cyclic garbage collector for the block, if it is running (it is left paused
    when it was paused before, so blocks can nest)."""
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()
