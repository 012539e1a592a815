"""The link stage of a build: one linker that has seen every extraction of the store, in the
order of the records' ``seq``.

The plain way reads every stored extraction again. Two shorter ways end with the same linker:

- a build that only adds records adds their extractions to what the last build's linker had
  collected (kept in the manifest's ``linked``): new records come after every stored one;
- a build that reads stored records again with another content, or replaces some, takes up
  that state too and folds again only the names those records speak of, as they were and as
  they are. What the linker collects for a name depends only on what the records say of that
  name, in ``seq`` order (:meth:`scholarkg.link.Linker.add`), so it forgets those names and
  adds again just what each record that speaks of them says of them; ``record_names`` lists
  the names each stored record speaks of. When more than half the stored records changed,
  reading everything is cheaper, and is done.

The state is kept with a count of the extractions of each extractor version, so that a
version no extraction has any more is dropped from the graph as a fresh build would drop it.
"""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Callable

from ..errors import StoreError
from .manifest import pack, unpack

__all__ = ["link_records", "keep_state"]

log = logging.getLogger(__name__)

_FORMAT = 2  # (format, the linker's state, Counter of extractor versions); record_names kept beside it
_NAMES_CHUNK = 50_000
# (key, seq, extraction, whole): ``whole`` rows are added entirely, the others only for the
# names being folded again
_STAGED = "SELECT key, seq, extraction, 1 FROM staged ORDER BY seq"
_EVERY = ("SELECT key, seq, extraction, 1 FROM staged UNION ALL "
          "SELECT key, seq, extraction, 1 FROM records WHERE key NOT IN (SELECT key FROM staged) ORDER BY seq")
_SPEAKING = ("SELECT key, seq, extraction, 1 FROM staged UNION ALL "
             "SELECT key, seq, extraction, 0 FROM records WHERE key IN "
             "(SELECT key FROM record_names WHERE name IN (SELECT name FROM temp.refold)) "
             "AND key NOT IN (SELECT key FROM staged) ORDER BY seq")


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
    the linker was made: "adding", "folding again" or "reading everything".

    ``linked``: the state the last build kept (:func:`keep_state`), if any; ``appends_only``:
    no record read in this build was stored before; ``gone``: the extractions of the stored
    records this build removed; ``keep``: keep ``record_names`` for the next build.
    """
    from ..link import Linker

    linker, agents = _restore(linked)
    staged = m.one("SELECT COUNT(*) FROM staged")
    if linker is not None and appends_only and not gone:
        log.info("linking the new records onto what the last build linked")
        _fold(m, linker, agents, _STAGED, None, keep, progress, staged)
        return linker, agents, "adding"
    stored = m.one("SELECT COUNT(*) FROM records")
    changed = m.one("SELECT COUNT(*) FROM staged WHERE key IN (SELECT key FROM records)")
    if linker is not None and hasattr(linker, "forget") and 2 * (changed + len(gone)) <= stored + len(gone):
        _refold(m, linker, agents, gone, keep, progress, staged)
        return linker, agents, "folding again"
    linker, agents = Linker(), Counter()
    if keep:
        m.db.execute("DELETE FROM record_names")
    _fold(m, linker, agents, _EVERY, None, keep, progress, staged + stored - changed)
    return linker, agents, "reading everything"


def _refold(m, linker, agents: Counter, gone: list[bytes], keep: bool, progress, staged: int) -> None:
    """Fold again the names the changed and removed records speak of (see the module docstring)."""
    names: set[str] = set()
    before = [blob for (blob,) in m.rows("SELECT r.extraction FROM records r JOIN staged s USING (key)")]
    for blob in before + gone:
        extraction = unpack(blob)
        names |= linker.said_by(extraction)
        if extraction.extractor:
            agents[extraction.extractor] -= 1
    for (blob,) in m.rows("SELECT s.extraction FROM staged s JOIN records r USING (key)"):
        names |= linker.said_by(unpack(blob))
    log.info("linking again the %d names that %d changed or removed records speak of", len(names), len(before) + len(gone))
    linker.forget(names)
    db = m.db
    db.execute("DROP TABLE IF EXISTS temp.refold")
    db.execute("CREATE TEMP TABLE refold (name TEXT PRIMARY KEY) WITHOUT ROWID")
    db.executemany("INSERT INTO temp.refold VALUES (?)", ((n,) for n in names))
    _fold(m, linker, agents, _SPEAKING, names, keep, progress, staged)
    db.execute("DROP TABLE temp.refold")
    for version in [v for v, n in agents.items() if n <= 0]:
        del agents[version]


def _fold(m, linker, agents: Counter, sql: str, only: set[str] | None, keep: bool, progress, total: int) -> None:
    """Add the extractions ``sql`` gives to ``linker``: ``whole`` rows entirely (counting their
    extractor versions, and keeping the names they speak of), the others for ``only``. While
    the records speaking of ``only`` are read, their names wait in a scratch table."""
    db = m.db
    target = "record_names" if only is None else "temp.said"
    rows: list[tuple[str, str]] = []

    def save() -> None:
        with m.transaction():
            db.executemany(f"INSERT OR IGNORE INTO {target} VALUES (?, ?)", rows)
        rows.clear()

    if keep:
        with m.transaction():
            db.execute("DELETE FROM record_names WHERE key IN (SELECT key FROM staged)")
            db.execute("DROP TABLE IF EXISTS temp.said")
            db.execute("CREATE TEMP TABLE said (key TEXT NOT NULL, name TEXT NOT NULL)")
    done = 0
    for key, _seq, blob, whole in db.execute(sql):
        extraction = unpack(blob)
        said = linker.add(extraction) if whole else linker.add(extraction, only)
        if not whole:
            continue
        if extraction.extractor:
            agents[extraction.extractor] += 1
        done += 1
        if keep:
            rows.extend((key, name) for name in said or ())
            if len(rows) >= _NAMES_CHUNK:
                save()
        if done % 10_000 == 0:
            progress("linking", done, total)
    if keep:
        save()
        with m.transaction():
            db.execute("INSERT OR IGNORE INTO record_names SELECT key, name FROM temp.said")
            db.execute("DROP TABLE temp.said")
    progress("linking", total, total)
