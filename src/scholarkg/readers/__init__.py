"""Readers: one module per input format, all yielding :class:`~scholarkg.model.Record`.

The registry maps a format name to ``module:Class`` and imports a reader only when it is
first used. :func:`detect` picks the format from the file's content; ``--format`` overrides.

>>> sorted(FORMATS)
['arxiv-atom', 'arxiv-snapshot', 'bibtex', 'jsonl', 'profile']
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable, Iterator
from pathlib import Path

from ..errors import InputError, Problems
from ..model import Record
from .base import Reader, open_error

__all__ = ["FORMATS", "get_reader", "detect", "read_records", "Reader"]

# Order matters for detection: the most specific layouts are tried first.
FORMATS: dict[str, str] = {
    "arxiv-snapshot": "scholarkg.readers.arxiv_snapshot:ArxivSnapshotReader",
    "jsonl": "scholarkg.readers.jsonl:JsonLinesReader",
    "arxiv-atom": "scholarkg.readers.atom:AtomReader",
    "bibtex": "scholarkg.readers.bibtex:BibtexReader",
    "profile": "scholarkg.readers.profile:ProfileReader",
}

_SNIFF_BYTES = 16_384


def get_reader(name: str) -> type[Reader]:
    try:
        target = FORMATS[name]
    except KeyError:
        known = ", ".join(sorted(FORMATS))
        raise InputError(f"unknown input format {name!r} (known: {known})") from None
    module, _, cls = target.partition(":")
    return getattr(importlib.import_module(module), cls)


def detect(path: Path) -> str:
    """Name of the format ``path`` is written in, judged from its first bytes."""
    try:
        with path.open("rb") as fh:
            head_bytes = fh.read(_SNIFF_BYTES)
    except OSError as exc:
        raise open_error(path, exc) from None
    from .textio import decode_head

    head = decode_head(head_bytes)  # byte-order marks, LF line ends: as the readers will read it
    if not head.strip():
        raise InputError(f"{path}: file is empty")
    for name in FORMATS:
        if get_reader(name).sniff(head, path):
            return name
    raise InputError(
        f"{path}: cannot tell the input format from its content; "
        f"pass --format ({', '.join(sorted(FORMATS))})"
    )


def read_records(
    paths: Iterable[str | Path],
    problems: Problems,
    *,
    format: str | None = None,
) -> Iterator[Record]:
    """Read every record of every file, reporting bad records to ``problems``.

    A file that cannot be read at all is reported and the other files are still read; only
    when no file could be read (or in strict mode) is it an error. A file that yields no
    record, and had no problem that says why, is reported too.
    """
    paths = [Path(p) for p in paths]
    failures: list[InputError] = []
    for path in paths:
        try:
            reader = get_reader(format or detect(path))()
            count, reported = 0, len(problems.items)
            for record in reader.read(path, problems):
                count += 1
                yield record
            if count == 0 and len(problems.items) == reported:
                problems.report(str(path), "", "records", "no records found in this file")
        except InputError as exc:
            if problems.strict or len(paths) == 1:
                raise
            failures.append(exc)
            problems.report(str(path), "", "file", str(exc).removeprefix(f"{path}: ") + " (file skipped)")
    if failures and len(failures) == len(paths):
        raise InputError(f"none of the {len(paths)} input files could be read; first: {failures[0]}")
