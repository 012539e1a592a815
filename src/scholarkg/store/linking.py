"""The link stage of a build: one linker that has seen every extraction of the store, in the
order of the records' ``seq``.

The plain way reads every stored extraction again. Two shorter ways end with the same linker:

- a build that only adds records adds their extractions to what the last build's linker had
  collected (kept in the manifest's ``linked``): new records come after every stored one;
- a build that reads stored records again with another content, or replaces some, takes up
  that state too and takes again only the names those records speak of, as they were and as
  they are. What the linker collects for a name depends only on what the records say of that
  name, in ``seq`` order (:meth:`scholarkg.link.Linker.said`), and the manifest keeps that
  for every record and name (``record_facts``): the linker forgets those names and takes
  again, in ``seq`` order, what each record said of them. When more than half the stored
  records changed, reading everything is cheaper, and is done.

The state is kept with a count of the extractions of each extractor version, so that a
version no extraction has any more is dropped from the graph as a fresh build would drop it.
"""

from __future__ import annotations

import logging
import pickle
from collections import Counter
from collections.abc import Callable

from ..errors import StoreError
from .manifest import pack, unpack

__all__ = ["link_records", "keep_state"]

log = logging.getLogger(__name__)

_FORMAT = 3  # (format, the linker's state, Counter of extractor versions); record_facts kept beside it
_CHUNK = 50_000
_STAGED = "SELECT key, seq, extraction FROM staged ORDER BY seq"
_EVERY = ("SELECT key, seq, extraction FROM staged UNION ALL "
          "SELECT key, seq, extraction FROM records WHERE key NOT IN (SELECT key FROM staged) ORDER BY seq")
_FACTS = "SELECT name, facts FROM record_facts WHERE name IN (SELECT name FROM temp.taken_again) ORDER BY name, seq"


def keep_state(linker, agents: Counter) -> bytes:
    """What :func:`link_records` takes up in the next build (:func:`scholarkg.store.manifest.pack`-ed)."""
    return pack((_FORMAT, linker.state(), agents))


def _restore(linked: bytes | None):
    from ..link import Linker

    if linked is None:
        return None, None
    try:
        kept = unpack(linked)
    except StoreError:
        return None, None
    if not (isinstance(kept, tuple) and len(kept) == 3 and kept[0] == _FORMAT and isinstance(kept[2], Counter)):
        return None, None  # kept by another version
    linker = Linker.from_state(kept[1])
    return (linker, kept[2]) if linker is not None else (None, None)


def link_records(m, linked: bytes | None, *, appends_only: bool, gone: list[bytes], keep: bool,
                 progress: Callable[[str, int, int | None], None]) -> tuple[object, Counter, str]:
    """The linker over every record of manifest ``m`` (its stored records, the staged ones in
    place of their stored versions), the count of extractions by extractor version, and how
    the linker was made: "adding", "taking again" or "reading everything".

    ``linked``: the state the last build kept (:func:`keep_state`), if any; ``appends_only``:
    no record read in this build was stored before; ``gone``: the extractions of the stored
    records this build removed; ``keep``: keep ``record_facts`` for the next build (a state
    is kept only with them, so a build that takes one up finds them).
    """
    from ..link import Linker

    linker, agents = _restore(linked)
    staged = m.one("SELECT COUNT(*) FROM staged")
    if linker is not None and appends_only and not gone:
        log.info("linking the new records onto what the last build linked")
        _add(m, linker, agents, _STAGED, keep, progress, staged)
        return linker, agents, "adding"
    stored = m.one("SELECT COUNT(*) FROM records")
    changed = m.one("SELECT COUNT(*) FROM staged WHERE key IN (SELECT key FROM records)")
    # (a linker that cannot forget names, as tests plug in, reads everything)
    if linker is not None and hasattr(linker, "forget") and 2 * (changed + len(gone)) <= stored + len(gone):
        _take_again(m, linker, agents, gone, progress, staged)
        return linker, agents, "taking again"
    linker, agents = Linker(), Counter()
    if keep:
        m.db.execute("DELETE FROM record_facts")
    _add(m, linker, agents, _EVERY, keep, progress, staged + stored - changed)
    return linker, agents, "reading everything"


def _take_again(m, linker, agents: Counter, gone: list[bytes], progress, staged: int) -> None:
    """Take again the names the changed and removed records speak of (see the module docstring)."""
    names: set[str] = set()
    before = [blob for (blob,) in m.rows("SELECT r.extraction FROM records r JOIN staged s USING (key)")]
    for blob in before + gone:
        extraction = unpack(blob)
        names.update(linker.said(extraction))
        if extraction.extractor:
            agents[extraction.extractor] -= 1
    for (blob,) in m.rows("SELECT s.extraction FROM staged s JOIN records r USING (key)"):
        names.update(linker.said(unpack(blob)))
    log.info("linking again the %d names that %d changed or removed records speak of", len(names), len(before) + len(gone))
    linker.forget(names)
    _add(m, linker, agents, _STAGED, True, progress, staged, names)
    db = m.db
    db.execute("DROP TABLE IF EXISTS temp.taken_again")
    db.execute("CREATE TEMP TABLE taken_again (name TEXT PRIMARY KEY) WITHOUT ROWID")
    db.executemany("INSERT INTO temp.taken_again VALUES (?)", ((n,) for n in names))
    for name, facts in db.execute(_FACTS):
        linker.take(name, pickle.loads(facts))
    db.execute("DROP TABLE temp.taken_again")
    for version in [v for v, n in agents.items() if n <= 0]:
        del agents[version]


def _add(m, linker, agents: Counter, sql: str, keep: bool, progress, total: int, later: set[str] = frozenset()) -> None:
    """Add the extractions ``sql`` gives (key, seq, extraction) to ``linker``, but for what
    they say of the names in ``later`` (taken after, from ``record_facts``); count their
    extractor versions, and keep what they say of each name in ``record_facts``."""
    db = m.db
    rows: list[tuple[str, int, str, bytes]] = []

    def save() -> None:
        with m.transaction():
            db.executemany("INSERT INTO record_facts VALUES (?, ?, ?, ?)", rows)
        rows.clear()

    if keep:
        with m.transaction():
            db.execute("DELETE FROM record_facts WHERE key IN (SELECT key FROM staged)")
    done = 0
    for key, seq, blob in db.execute(sql):
        extraction = unpack(blob)
        if later:
            said = linker.said(extraction)
            for name, facts in said.items():
                if name not in later:
                    linker.take(name, facts)
        else:
            said = linker.add(extraction)
        if extraction.extractor:
            agents[extraction.extractor] += 1
        done += 1
        if keep and said:
            rows.extend((name, seq, key, pickle.dumps(facts, protocol=pickle.HIGHEST_PROTOCOL)) for name, facts in said.items())
            if len(rows) >= _CHUNK:
                save()
        if done % 10_000 == 0:
            progress("linking", done, total)
    if keep and rows:
        save()
    progress("linking", total, total)
