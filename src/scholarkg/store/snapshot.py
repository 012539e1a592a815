"""Sorted snapshots of a graph: the N-Triples, N-Quads and Turtle a store exports.

A build keeps the text of each part of its graph in the manifest's ``blocks`` (a record's
graph, or one subject of a shared graph, as sorted N-Triples lines). Read one after the
other, in the order of their graph's IRI and then their subject, they give every statement
once, graph by graph and sorted inside each graph, with all the statements of a subject
together. The same blocks give the same bytes, whatever the order the records were read in.

- N-Triples: the blocks themselves (``str()`` of pyoxigraph terms, the form pyoxigraph's
  N-Triples writer writes);
- Turtle: those statements, in that order, as pyoxigraph's Turtle writer writes them with the
  project's prefixes. A block's subjects are its own, so the Turtle of the whole is the
  prefixes followed by the Turtle of each block: a store build keeps each block's Turtle beside
  its text, made as it puts a new or changed block (:func:`described_blocks`);
- N-Quads (stores only): the same lines, each in its named graph.

``build --out`` writes N-Triples and Turtle as ``graph.nt`` and ``graph.ttl``. A store keeps
no copy: ``export --store`` streams the blocks from its manifest (and ``STORE/snapshot/info.json``
holds the number of statements and of the subjects of each class a build reports), so a build
that changes a few blocks rewrites only those.

The blocks are the graph only as builds made it. A SPARQL update (``serve --allow-update``)
changes the database and not the blocks, so it first leaves ``STORE/snapshot/updated``
(:func:`mark_updated`). Builds keep the mark: the statements an update added stay in the
database whatever a build does with its own blocks. Nor are the blocks the graph while a build
is unfinished (stopped, or still running): the database may hold statements whose blocks are
not yet kept. In both cases (:func:`snapshot_is_graph`) :func:`statement_count` gives None, so
in-memory and served copies are made from the database, and exports are written from it
(:func:`scholarkg.store.read.export_store`).
"""

from __future__ import annotations

import functools
import re
import shutil
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import IO

from .batches import OWN_TEXT

__all__ = [
    "write_ntriples",
    "write_turtle",
    "write_jsonld",
    "turtle_prefixes",
    "turtle_header",
    "turtle_body",
    "turtle_bodies",
    "described_blocks",
    "snapshot_chunks",
    "store_snapshot",
    "write_store_snapshot",
    "statement_count",
    "snapshot_count",
    "mark_updated",
    "database_updated",
    "snapshot_is_graph",
    "unfinished_build",
    "kept_counts",
    "sorted_statements",
    "copy_file",
    "SNAPSHOT_KINDS",
]

SNAPSHOT_KINDS = ("ntriples", "nquads", "turtle")
INFO = "info.json"
UPDATED = "updated"  # STORE/snapshot/updated: the database was changed by a SPARQL update
_OLD_FILES = ("graph.nt", "graph.nq", "graph.ttl")  # the copies stores kept before streaming from blocks
_CHUNK = 1 << 20  # bytes handed on at once


def turtle_prefixes() -> dict[str, str]:
    """The prefixes Turtle is written with: the project's, and ``arxivcat`` for categories."""
    return dict(_prefixes())


@functools.cache
def _writer_prefixes() -> dict[str, str]:
    return turtle_prefixes()  # one dict for every writer call (the writer does not change it)


@functools.cache
def _prefixes() -> tuple[tuple[str, str], ...]:
    # made once: the Turtle writer is called for every write of blocks a build makes
    from ..graph import iri
    from ..graph.vocab import PREFIXES

    prefixes = dict(PREFIXES)
    prefixes["arxivcat"] = str(iri.category("x"))[:-1]
    return tuple(sorted(prefixes.items()))


def _turtle(ntriples: bytes) -> bytes:
    """pyoxigraph's Turtle of N-Triples, with the project's prefixes."""
    import io

    import pyoxigraph as ox

    out = io.BytesIO()
    ox.serialize(ox.parse(ntriples, format=ox.RdfFormat.N_TRIPLES, **OWN_TEXT), out, ox.RdfFormat.TURTLE,
                 prefixes=_writer_prefixes())
    return out.getvalue()


@functools.cache
def turtle_header() -> bytes:
    """The prefix lines pyoxigraph's writer puts before the first statement."""
    text = _turtle(b"<urn:x:s> <urn:x:p> <urn:x:o> .\n")
    return text[: text.index(b"<urn:x:s>")]


def turtle_body(ntriples: bytes) -> bytes:
    """The Turtle of a block's N-Triples without the prefix lines (empty for no statements)."""
    if not ntriples:
        return b""
    text, header = _turtle(ntriples), turtle_header()
    if not text.startswith(header):
        raise ValueError("pyoxigraph's Turtle writer did not start with the expected prefix lines")
    return text[len(header):]


# Ends each block in the text :func:`turtle_bodies` writes in one call (a block holding this
# very line is not cut wrongly: the pieces do not come out one per block, and each block is
# then written alone).
_BLOCK_END = b"<urn:scholarkg:block-end> <urn:scholarkg:block-end> \"\" .\n"


def turtle_bodies(blocks: list[bytes]) -> list[bytes]:
    """:func:`turtle_body` of each block of N-Triples, from one writer call for all of them:
    the writer's own start (its prefix lines, which are most of a small block's Turtle) came
    to four fifths of the time when each of the 28,495 co-author and entity pairs of a
    1,016,600-statement store (four statements each) was one call. A line that no block holds
    ends each block in the text written, and the Turtle is cut there: the writer ends a
    subject's statements before a new subject, so each piece is what the block alone gives."""
    text = turtle_body(b"".join(b + _BLOCK_END for b in blocks))
    pieces = text.split(_BLOCK_END)
    if len(pieces) != len(blocks) + 1 or pieces[-1]:  # the marker in a block after all: one call each
        return [turtle_body(b) for b in blocks]
    return pieces[:-1]


def write_ntriples(manifest, output: IO[bytes]) -> int:
    """Write every block of ``manifest`` to ``output`` in snapshot order; returns the bytes written."""
    size = 0
    for data in snapshot_chunks(manifest.db, "ntriples"):
        output.write(data)
        size += len(data)
    return size


def snapshot_chunks(db, kind: str) -> Iterator[bytes]:
    """The snapshot of the blocks in SQLite connection ``db`` as ``kind`` (N-Triples, N-Quads or
    Turtle), in pieces of about a megabyte that end at a block's end. Turtle comes from each
    block's kept Turtle, or is made from its text when a block has none yet (a store built
    before blocks kept it)."""
    from .emit import as_nquads
    from .manifest import unpack_text

    if kind not in SNAPSHOT_KINDS:
        raise ValueError(f"no snapshot as {kind!r}")
    turtle = kind == "turtle"
    column = "turtle" if turtle and _has_turtle(db) else "NULL"
    rows = db.execute(f"SELECT graph, text, {column} FROM blocks ORDER BY graph, unit")
    pending: list[bytes] = []
    size = 0
    started = False
    for graph, text, kept in rows:
        if turtle:
            data = unpack_text(kept) if kept is not None else turtle_body(unpack_text(text))
            if data and not started:
                pending.insert(0, turtle_header())
                started = True
        else:
            data = unpack_text(text)
            if kind == "nquads":
                data = as_nquads(data, graph)
        pending.append(data)
        size += len(data)
        if size >= _CHUNK:
            yield b"".join(pending)
            pending, size = [], 0
    if pending:
        yield b"".join(pending)


def _has_turtle(db) -> bool:
    return any(row[1] == "turtle" for row in db.execute("PRAGMA table_info(blocks)"))


def store_snapshot(store_path: str | Path, kind: str) -> Iterator[bytes]:
    """:func:`snapshot_chunks` of the store at ``store_path``, its manifest opened read-only
    for as long as the pieces are read (exports, in-memory and served copies)."""
    import sqlite3

    from ..errors import StoreError

    path = Path(store_path) / "manifest.sqlite"
    if not path.is_file():
        raise StoreError(f"{store_path}: the store has no manifest; build it again with build --store")
    try:
        db = _read_only(store_path)
        try:
            yield from snapshot_chunks(db, kind)
        finally:
            db.close()
    except sqlite3.Error as exc:
        raise StoreError(f"{path}: cannot read the store manifest ({exc})") from exc


def _read_only(store_path: str | Path):
    """The store's manifest, opened read-only."""
    import sqlite3

    return sqlite3.connect((Path(store_path) / "manifest.sqlite").absolute().as_uri() + "?mode=ro", uri=True,
                           check_same_thread=False)


def _info(store_path: str | Path) -> dict:
    """``STORE/snapshot/info.json`` ({} when it is missing or unreadable)."""
    import json

    try:
        info = json.loads((Path(store_path) / "snapshot" / INFO).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return info if isinstance(info, dict) else {}


def snapshot_count(store_path: str | Path) -> int | None:
    """Statements in a store's snapshot, as its last build counted them (None for a store
    without a snapshot)."""
    try:
        return int(_info(store_path)["statements"])
    except (KeyError, TypeError, ValueError):
        return None


def statement_count(store_path: str | Path) -> int | None:
    """Statements in a store, as its last build counted them; None while the snapshot is not
    the graph (:func:`snapshot_is_graph`), since then only the database knows."""
    return snapshot_count(store_path) if snapshot_is_graph(store_path) else None


def snapshot_is_graph(store_path: str | Path) -> bool:
    """Whether the store's snapshot (its blocks) holds exactly the statements of its database:
    its last build finished and wrote the snapshot, and no SPARQL update changed the database
    since. Otherwise exports and in-memory copies are read from the database."""
    if database_updated(store_path):
        return False
    meta = _meta(store_path)
    return meta.get("snapshot") == "current" and not meta.get("unfinished")


def unfinished_build(store_path: str | Path) -> bool:
    """Whether the last build of the store stopped before it finished (the next one completes it)."""
    return bool(_meta(store_path).get("unfinished"))


def _meta(store_path: str | Path) -> dict[str, str]:
    """The manifest's facts about the last build that decide what the snapshot is ({} without a manifest)."""
    import sqlite3

    if not (Path(store_path) / "manifest.sqlite").is_file():
        return {}
    try:
        db = _read_only(store_path)
        try:
            return dict(db.execute("SELECT name, value FROM meta WHERE name IN ('unfinished', 'snapshot')").fetchall())
        finally:
            db.close()
    except sqlite3.Error:
        return {}


def database_updated(store_path: str | Path) -> bool:
    """Whether a SPARQL update changed the store's database since it was made (see :func:`mark_updated`)."""
    return (Path(store_path) / "snapshot" / UPDATED).is_file()


def mark_updated(store_path: str | Path) -> None:
    """Note, before a SPARQL update runs on the store's database, that its snapshot may no
    longer be its graph. The mark stays: builds change only their own blocks."""
    from ..errors import StoreError
    from ..fileio import write_text

    if database_updated(store_path):
        return
    try:
        (Path(store_path) / "snapshot").mkdir(exist_ok=True)
        write_text(Path(store_path) / "snapshot" / UPDATED,
                   "A SPARQL update changed this store's database: exports and in-memory copies are "
                   "written from the database, not from the blocks of its builds.\n")
    except OSError as exc:
        raise StoreError(f"{store_path}: cannot mark the store as updated ({exc.strerror or exc})") from exc


def write_turtle(ntriples: str | Path, output: IO[bytes]) -> None:
    """The statements of the N-Triples file ``ntriples`` that a build wrote, in its order, as
    Turtle (streamed)."""
    import pyoxigraph as ox

    ox.serialize(ox.parse(path=str(ntriples), format=ox.RdfFormat.N_TRIPLES, **OWN_TEXT), output, ox.RdfFormat.TURTLE,
                 prefixes=turtle_prefixes())


def sorted_statements(ntriples: str | Path) -> Iterator:
    """The statements of a snapshot (a build folder's ``graph.nt``), in snapshot order, as
    pyoxigraph triples."""
    import pyoxigraph as ox

    for quad in ox.parse(path=str(ntriples), format=ox.RdfFormat.N_TRIPLES, **OWN_TEXT):
        yield quad.triple


def write_jsonld(ntriples, output: IO[bytes]) -> None:
    """The statements of a snapshot as JSON-LD (:mod:`scholarkg.jsonld`), one node object per
    subject in snapshot order: a snapshot holds each subject's statements together, so nothing
    but the current subject is held in memory. ``ntriples`` is an N-Triples file's path, or
    pieces of N-Triples that end at a line's end (:func:`snapshot_chunks`)."""
    from ..jsonld import write_nodes

    buffer: list[str] = []
    size = 0

    def write(text: str) -> None:
        nonlocal size
        buffer.append(text)
        size += len(text)
        if size >= _CHUNK:
            output.write("".join(buffer).encode("utf-8"))
            buffer.clear()
            size = 0

    write_nodes(_snapshot_nodes(ntriples), write)
    output.write("".join(buffer).encode("utf-8"))


def _snapshot_nodes(ntriples) -> Iterator[dict]:
    """The node objects of a snapshot's subjects, in its order (a snapshot has no blank nodes:
    every subject and object is an IRI or a literal).

    A snapshot's lines are the N-Triples pyoxigraph writes (``<s> <p> o .``, one space apart),
    so they are split here rather than parsed: making pyoxigraph terms of every statement and
    reading their values back took a sixth of the writer's time. An IRI holds no space; a
    literal no raw line break. Each statement is put in its node as its line is read, and an
    IRI or plain text under a property whose term takes it as it is, without the general
    :func:`~scholarkg.jsonld.place`: at a million statements, 1.6 CPU-s for the nodes against
    1.9-2.0 when lines, their parts and nodes were three steps.
    """
    from ..jsonld import assemble, compactor, literal_parts, place

    c = compactor()
    compact = c.compact
    by_id = {f"<{p}>": term for p, term in c.iri_terms.items()}  # by the predicate as written
    by_text = {f"<{p}>": term for p, term in c.text_terms.items()}
    subject, types, values = None, [], {}
    for line in _lines(ntriples):
        if line[:1] != "<" or line[-2:] != " .":
            raise ValueError(f"not a snapshot line: {line[:200]!r}")
        s, p, o = line[:-2].split(" ", 2)
        if s != subject:
            if subject is not None:
                yield assemble(compact(subject[1:-1]), types, values)
            subject, types, values = s, [], {}
        if o[0] == "<":
            if (term := by_id.get(p)) is not None:  # the common case, as place() would put it
                values.setdefault(term, []).append(compact(o[1:-1]))
            else:
                place(c, types, values, p[1:-1], o[1:-1], None, None, True)
        elif o[0] == '"':
            close = o.rindex('"')  # what follows a literal's text (a datatype IRI, a language) has no quote
            tail = o[close + 1:]
            text = o[1:close]
            if "\\" in text:
                text = _unescape(text)
            if not tail:
                if (term := by_text.get(p)) is not None:
                    values.setdefault(term, []).append(text)
                else:
                    place(c, types, values, p[1:-1], text, None, None, False)
            else:
                place(c, types, values, p[1:-1], *literal_parts(
                    text, tail[3:-1] if tail[:3] == "^^<" else None, tail[1:] if tail[:1] == "@" else None))
        else:
            raise ValueError(f"cannot write {o} as JSON-LD: a snapshot has no blank nodes")
    if subject is not None:
        yield assemble(compact(subject[1:-1]), types, values)


_ESCAPE = re.compile(r"\\(?:u([0-9A-Fa-f]{4})|U([0-9A-Fa-f]{8})|(.))")
_ECHAR = {"t": "\t", "b": "\b", "n": "\n", "r": "\r", "f": "\f", '"': '"', "'": "'", "\\": "\\"}


def _unescape(text: str) -> str:
    """The text of an N-Triples string literal's escaped form."""
    if "\\" not in text:
        return text
    return _ESCAPE.sub(lambda m: _ECHAR.get(m.group(3), m.group(0)) if m.group(3) else chr(int(m.group(1) or m.group(2), 16)), text)


def _lines(ntriples) -> Iterator[str]:
    """The lines of a snapshot: an N-Triples file's path, or pieces of N-Triples that end at a
    line's end."""
    if isinstance(ntriples, str | Path):
        ntriples = _file_pieces(ntriples)
    for piece in ntriples:
        yield from filter(None, piece.decode("utf-8").split("\n"))


def _file_pieces(path: str | Path) -> Iterator[bytes]:
    """A file in pieces of about a megabyte that end at a line's end."""
    with open(path, "rb") as fh:
        left = b""
        while data := fh.read(_CHUNK):
            data = left + data
            cut = data.rfind(b"\n") + 1
            left = data[cut:]
            if cut:
                yield data[:cut]
        if left:
            yield left


def write_store_snapshot(store, progress=None) -> int:
    """Bring a store's snapshot up to date after a build: the Turtle and the classes of every
    block that has none yet (a store build makes them as it puts a block; these are blocks an
    earlier version put), and ``STORE/snapshot/info.json``, the number of statements and of
    the subjects of each class; returns the number of statements."""
    import json

    from ..fileio import write_text

    m = store.manifest
    if m.get_meta("block_types") != "kept":  # a store an earlier version built: count every block once
        with m.transaction() as db:
            db.execute("DELETE FROM block_types")
            db.execute("DELETE FROM type_totals")
        _write_blocks(m, "turtle IS NOT NULL", None)
        m.set_meta("block_types", "kept")
    _write_blocks(m, "turtle IS NULL", progress)
    count = m.one("SELECT total FROM block_lines")
    types = dict(m.rows("SELECT class, total FROM type_totals WHERE total > 0 ORDER BY class"))
    folder = Path(store.path) / "snapshot"
    folder.mkdir(exist_ok=True)
    write_text(folder / INFO, json.dumps({"statements": count, "types": types}) + "\n")
    for name in _OLD_FILES:
        (folder / name).unlink(missing_ok=True)
    return count


# The classes whose subjects a build counts (what a build reports, :func:`scholarkg.store.read.store_summary`).
COUNTED_CLASSES = ("Paper", "Author", "Benchmark", "Dataset", "Model", "Method", "Task", "Metric", "Result",
                   "Improvement", "CodeRepository", "ProjectPage", "Mention")
_TYPED = b"> <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> <https://w3id.org/scholarkg/ontology#"
_COUNTED = frozenset(name.encode("ascii") for name in COUNTED_CLASSES)


def _classes(data: bytes) -> Counter:
    """How many subjects of each counted class N-Triples lines type, found by the text between
    a subject and its class (a regular expression over every line took six times as long).
    A literal may hold that text too, but its line cannot end in a class's name and ``> .``
    right after it: a literal's line ends in its closing quote, language or datatype."""
    found: Counter = Counter()
    start = 0
    while (at := data.find(_TYPED, start)) != -1:
        end = data.find(b"\n", at)
        end = len(data) if end == -1 else end
        start = end + 1
        name = data[at + len(_TYPED):end - 3]
        if data[end - 3:end] == b"> ." and name in _COUNTED:
            found[name.decode("ascii")] += 1
    return found


def described_blocks(rows) -> tuple[list[tuple], list[tuple]]:
    """The rows of ``blocks`` for (graph, unit, N-Triples text): (graph, unit, packed text,
    packed Turtle, statements); and the rows of ``block_types`` for their classes: (graph,
    unit, class, subjects)."""
    from .manifest import pack_text

    rows = list(rows)
    blocks, typed = [], []
    for (graph, unit, data), turtle in zip(rows, turtle_bodies([row[2] for row in rows])):
        blocks.append((graph, unit, pack_text(data), pack_text(turtle), data.count(b"\n")))
        typed.extend((graph, unit, name, n) for name, n in _classes(data).items())
    return blocks, typed


def _write_blocks(m, which: str, progress) -> None:
    """Make the Turtle, number of statements and classes of the blocks ``which`` selects (the
    Turtle only where a block has none): the blocks of a store an earlier version built, or of
    a build that did not describe its blocks as it put them."""
    from .manifest import pack_text, unpack_text

    last: tuple[str, str] = ("", "")
    done = 0
    while rows := m.rows(f"SELECT graph, unit, text, turtle IS NULL FROM blocks WHERE {which} AND (graph, unit) > (?, ?) "
                         "ORDER BY graph, unit LIMIT 5000", last).fetchall():
        last = rows[-1][:2]
        unwritten, typed = [], []
        for graph, unit, text, no_turtle in rows:
            data = unpack_text(text)
            if no_turtle:
                unwritten.append((data, graph, unit))
            typed.extend((graph, unit, name, n) for name, n in _classes(data).items())
        made = [(pack_text(turtle), data.count(b"\n"), graph, unit)
                for (data, graph, unit), turtle in zip(unwritten, turtle_bodies([u[0] for u in unwritten]))]
        with m.transaction() as db:
            db.executemany("UPDATE blocks SET turtle = ?, lines = ? WHERE graph = ? AND unit = ?", made)
            db.executemany("INSERT INTO block_types VALUES (?, ?, ?, ?)", typed)
        done += len(rows)
        if progress is not None:
            progress("snapshot", done, None)


def kept_counts(store_path: str | Path) -> tuple[int, dict[str, int]] | None:
    """The statements of a store and the subjects of each class of :data:`COUNTED_CLASSES`, as
    its last build counted them, or None when they may not be the store's (a store an earlier
    version built, one whose last build did not finish, or one a SPARQL update changed)."""
    info = _info(store_path)
    types = info.get("types")
    if not isinstance(types, dict) or "statements" not in info or not snapshot_is_graph(store_path):
        return None
    try:
        return int(info["statements"]), {str(k): int(v) for k, v in types.items()}
    except (TypeError, ValueError):
        return None


def copy_file(path: str | Path, output: IO[bytes]) -> int:
    """Copy a file to ``output`` as it is; returns its size."""
    with open(path, "rb") as fh:
        shutil.copyfileobj(fh, output, 1 << 20)
    return Path(path).stat().st_size
