"""Sorted snapshots of a graph: the N-Triples and Turtle files every build writes.

A build keeps the text of each part of its graph in the manifest's ``blocks`` (a record's
graph, or one subject of a shared graph, as sorted N-Triples lines). Written one after the
other, in the order of their graph's IRI and then their subject, they give every statement
once, graph by graph and sorted inside each graph, with all the statements of a subject
together. The same blocks give the same bytes, whatever the order the records were read in.

- N-Triples: the blocks themselves (``str()`` of pyoxigraph terms, the form pyoxigraph's
  N-Triples writer writes);
- Turtle: those statements, in that order, written by pyoxigraph's Turtle writer with the
  project's prefixes;
- N-Quads (stores only): the same lines, each in its named graph.

``build --out`` writes them as ``graph.nt`` and ``graph.ttl``; ``build --store`` writes them
into ``STORE/snapshot/`` at the end of each build (with ``graph.nq`` and ``info.json``, the
number of statements), and ``export --store`` copies them.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import IO

__all__ = [
    "write_ntriples",
    "write_turtle",
    "write_nquads",
    "statement_count",
    "write_store_snapshot",
    "snapshot_path",
    "snapshot_complete",
    "sorted_statements",
    "turtle_prefixes",
    "copy_file",
    "SNAPSHOT_FILES",
]

SNAPSHOT_FILES = {"ntriples": "graph.nt", "turtle": "graph.ttl", "nquads": "graph.nq"}
INFO = "info.json"


def turtle_prefixes() -> dict[str, str]:
    """The prefixes Turtle is written with: the project's, and ``arxivcat`` for categories."""
    from ..graph import iri
    from ..graph.vocab import PREFIXES

    prefixes = dict(PREFIXES)
    prefixes["arxivcat"] = str(iri.category("x"))[:-1]
    return dict(sorted(prefixes.items()))


def write_ntriples(manifest, output: IO[bytes]) -> int:
    """Write every block of ``manifest`` to ``output`` in snapshot order; returns the bytes written."""
    from .manifest import unpack_text

    size = 0
    for (text,) in manifest.rows("SELECT text FROM blocks ORDER BY graph, unit"):
        data = unpack_text(text)
        output.write(data)
        size += len(data)
    return size


def write_nquads(manifest, output: IO[bytes], ntriples: IO[bytes] | None = None) -> int:
    """The blocks of ``manifest`` as N-Quads, in snapshot order, and as N-Triples to
    ``ntriples`` when given (each block read once for both); returns the statements written."""
    from .emit import as_nquads
    from .manifest import unpack_text

    count = 0
    for graph, text in manifest.rows("SELECT graph, text FROM blocks ORDER BY graph, unit"):
        data = unpack_text(text)
        count += data.count(b"\n")
        output.write(as_nquads(data, graph))
        if ntriples is not None:
            ntriples.write(data)
    return count


def statement_count(store_path: str | Path) -> int | None:
    """Statements in a store, as its last build counted them (None for a store without a snapshot)."""
    import json

    try:
        return int(json.loads((Path(store_path) / "snapshot" / INFO).read_text(encoding="utf-8"))["statements"])
    except (OSError, ValueError, KeyError, TypeError):
        return None


def write_turtle(ntriples: str | Path, output: IO[bytes]) -> None:
    """The statements of the N-Triples file ``ntriples``, in its order, as Turtle."""
    import pyoxigraph as ox

    ox.serialize(ox.parse(path=str(ntriples), format=ox.RdfFormat.N_TRIPLES), output, ox.RdfFormat.TURTLE,
                 prefixes=turtle_prefixes())


def sorted_statements(ntriples: str | Path) -> Iterator:
    """The statements of a snapshot (a build folder's ``graph.nt`` or a store's snapshot), in
    snapshot order, as pyoxigraph triples."""
    import pyoxigraph as ox

    for quad in ox.parse(path=str(ntriples), format=ox.RdfFormat.N_TRIPLES):
        yield quad.triple


def write_jsonld(ntriples: str | Path, output: IO[bytes]) -> None:
    """The statements of the N-Triples file ``ntriples`` as JSON-LD (:mod:`scholarkg.jsonld`),
    one node object per subject in snapshot order: a snapshot holds each subject's statements
    together, so nothing but the current subject is held in memory."""
    from ..jsonld import write_nodes

    buffer: list[str] = []
    size = 0

    def write(text: str) -> None:
        nonlocal size
        buffer.append(text)
        size += len(text)
        if size >= 1 << 20:
            output.write("".join(buffer).encode("utf-8"))
            buffer.clear()
            size = 0

    write_nodes(_snapshot_nodes(ntriples), write)
    output.write("".join(buffer).encode("utf-8"))


def _snapshot_nodes(ntriples: str | Path) -> Iterator[dict]:
    """The node objects of a snapshot's subjects, in its order, read straight from the parser's
    terms (a snapshot has no blank nodes: every subject and object is an IRI or a literal)."""
    import pyoxigraph as ox

    from ..jsonld import compactor, literal_parts, node_object

    c = compactor()
    subject, statements = None, []
    for quad in ox.parse(path=str(ntriples), format=ox.RdfFormat.N_TRIPLES):
        s = quad.subject.value
        if s != subject:
            if subject is not None:
                yield node_object(subject, statements, c)
            subject, statements = s, []
        o = quad.object
        if type(o) is ox.NamedNode:
            statements.append((quad.predicate.value, o.value, None, None, True))
        elif type(o) is ox.Literal:
            statements.append((quad.predicate.value, *literal_parts(o.value, o.datatype.value, o.language)))
        else:
            raise ValueError(f"{ntriples}: cannot write {o} as JSON-LD: a snapshot has no blank nodes")
    if subject is not None:
        yield node_object(subject, statements, c)


def snapshot_complete(store_path: str | Path) -> bool:
    """Whether a store's snapshot has every file a build writes."""
    return statement_count(store_path) is not None and all(
        snapshot_path(store_path, format).is_file() for format in SNAPSHOT_FILES)


def snapshot_path(store_path: str | Path, format: str) -> Path:
    return Path(store_path) / "snapshot" / SNAPSHOT_FILES[format]


def write_store_snapshot(store) -> None:
    """Rewrite ``STORE/snapshot/`` (N-Triples, Turtle, N-Quads, count) from the store's manifest."""
    import json

    from ..fileio import atomic_write, write_text

    folder = Path(store.path) / "snapshot"
    folder.mkdir(exist_ok=True)
    nt = folder / SNAPSHOT_FILES["ntriples"]
    with atomic_write(nt, "wb") as triples, atomic_write(folder / SNAPSHOT_FILES["nquads"], "wb") as quads:
        count = write_nquads(store.manifest, quads, triples)
    with atomic_write(folder / SNAPSHOT_FILES["turtle"], "wb") as fh:
        write_turtle(nt, fh)
    write_text(folder / INFO, json.dumps({"statements": count}) + "\n")


def copy_file(path: str | Path, output: IO[bytes]) -> int:
    """Copy a file to ``output`` as it is; returns its size."""
    with open(path, "rb") as fh:
        shutil.copyfileobj(fh, output, 1 << 20)
    return Path(path).stat().st_size
