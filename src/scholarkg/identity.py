"""Which records describe the same paper, and how repeats are combined.

Two records are the same paper when they share an identifier and nothing tells them apart:
the same arXiv id, or the same DOI, or the same normalised title with the same year and first
author's family name (:func:`scholarkg.graph.iri.record_key`) — unless their arXiv ids or
their DOIs differ, or, for a match by title, both give a venue, volume, issue, pages or author
list and these differ. So "Calendar" of 2001 and "Calendar" of 2002, two columns "Greetings from
the Editor" on different pages of one issue, or two articles "From the President" with
different DOIs stay apart, while the same article listed in two bibliographies, or by several
authors' profile pages, is one.

:func:`merge_records` (the folder build, which holds every record anyway) combines a repeat
into the first record: fields the first lacks are taken from the repeat, authors the first
does not name are added. :func:`unique_records` (the streaming store build) keeps the first
and drops the repeat. Either way each repeat is one note (not a problem) naming both records.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, MutableSequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from .errors import Problems
from .graph import iri
from .model import Record

__all__ = ["Identities", "merge_records", "unique_records", "combine"]

# Fields a repeat may fill in when the first record lacks them (title and source stay the first's).
_FILLED = ("year", "arxiv_id", "doi", "journal_ref", "published", "updated", "kind", "venue", "volume",
           "issue", "pages", "url", "primary_category")


@dataclass
class _Group:
    arxiv: set[str] = field(default_factory=set)
    doi: set[str] = field(default_factory=set)
    details: dict[str, object] = field(default_factory=dict)  # what a match by title must agree with


_NOT_ALNUM = re.compile(r"[\W_]+")


def _details(record: Record) -> dict[str, object]:
    """Where in a venue the record is, normalised: two records of one title that differ here differ."""
    out: dict[str, object] = {}
    for name in ("venue", "volume", "issue", "pages"):
        value = getattr(record, name)
        if value:
            out[name] = _NOT_ALNUM.sub("", iri.normalise_key(value))
    if record.authors_ordered and record.authors:
        out["authors"] = tuple(iri.normalise_key(a.family or a.name.split()[-1]) for a in record.authors)
    return out


def _agree(a: dict[str, object], b: dict[str, object]) -> bool:
    for key in a.keys() & b.keys():
        x, y = a[key], b[key]
        if key == "authors":  # a list cut short ("and others") agrees with the full one
            n = min(len(x), len(y))
            if x[:n] != y[:n]:
                return False
        elif x != y:
            return False
    return True


def _identifiers(record: Record) -> list[tuple[str, str]]:
    out = []
    if record.arxiv_id:
        out.append(("arxiv", record.arxiv_id))
    if record.doi and iri.normalise_doi(record.doi):
        out.append(("doi", iri.normalise_doi(record.doi)))
    family = None
    if record.authors and record.authors_ordered:
        family = record.authors[0].family or record.authors[0].name.split()[-1]
    # By title, year and first author only: the details are compared when a match is found.
    out.append(("title", iri.paper_key(None, record.title, year=record.year, family=family)))
    return out


class Identities:
    """The papers seen so far, found by any of their identifiers."""

    def __init__(self) -> None:
        self._index: dict[tuple[str, str], list[int]] = {}
        self._groups: list[_Group] = []

    def find(self, record: Record) -> int | None:
        """The number of the earlier paper ``record`` repeats, or None."""
        arxiv = record.arxiv_id
        doi = iri.normalise_doi(record.doi) if record.doi else None
        details = None
        for ident in _identifiers(record):
            for number in self._index.get(ident, ()):
                group = self._groups[number]
                if arxiv and group.arxiv and arxiv not in group.arxiv:
                    continue
                if doi and group.doi and doi not in group.doi:
                    continue
                if ident[0] == "title":
                    details = _details(record) if details is None else details
                    if not _agree(details, group.details):
                        continue
                return number
        return None

    def add(self, record: Record, number: int | None = None) -> int:
        """Note ``record``'s identifiers as those of paper ``number`` (a new paper when None)."""
        if number is None:
            number = len(self._groups)
            self._groups.append(_Group())
        group = self._groups[number]
        for key, value in _details(record).items():
            group.details.setdefault(key, value)
        for kind, value in _identifiers(record):
            numbers = self._index.setdefault((kind, value), [])
            if number not in numbers:
                numbers.append(number)
            if kind == "arxiv":
                group.arxiv.add(value)
            elif kind == "doi":
                group.doi.add(value)
        return number


def combine(first: Record, repeat: Record) -> Record:
    """``first`` with what only ``repeat`` says: missing fields, categories and authors."""
    changes = {name: getattr(repeat, name) for name in _FILLED if not getattr(first, name) and getattr(repeat, name)}
    if not first.abstract and repeat.abstract:
        changes.update(abstract=repeat.abstract, source_abstract=repeat.source_abstract)
    extra_categories = tuple(c for c in repeat.categories if c not in first.categories)
    if extra_categories:
        changes["categories"] = first.categories + extra_categories
    links = tuple(dict.fromkeys(first.links + repeat.links))
    if links != first.links:
        changes["links"] = links
    # Authors: an ordered list wins; authors it lacks are added, and then no order is claimed.
    main, other = (first, repeat) if first.authors_ordered or not repeat.authors_ordered else (repeat, first)
    if not main.authors:
        main, other = other, main
    known = {iri.author_key(a.name) for a in main.authors}
    extra = tuple(a for a in other.authors if iri.author_key(a.name) not in known)
    authors = main.authors + extra
    ordered = main.authors_ordered and not extra
    if authors != first.authors or ordered != first.authors_ordered:
        changes.update(authors=authors, authors_ordered=ordered)
    if not changes:
        return first
    merged = replace(first, **changes)
    if first.id == iri.record_key(first):  # an id the reader derived, not one the input gave
        merged = replace(merged, id=iri.record_key(merged))
    return merged


def _where(record: Record) -> tuple[str, str]:
    if record.source is None:
        return record.id, ""
    return record.source.path, record.source.position


def _named(record: Record) -> str:
    """The record as a note names it: its position and file name (outputs do not depend on the cwd)."""
    if record.source is None:
        return record.id
    name = Path(record.source.path).name
    return f"{record.source.position} in {name}" if record.source.position else name


def merge_records(
    records: Iterable[Record], problems: Problems, kept: MutableSequence[Record] | None = None
) -> MutableSequence[Record]:
    """Every paper once, in order of first appearance, each repeat combined into it.

    ``kept`` is where the papers wait until the last record is read (a list by default; a
    store build passes :class:`scholarkg.store.manifest.RecordSpool`, which keeps them on disk).
    """
    identities = Identities()
    kept = [] if kept is None else kept
    for record in records:
        number = identities.find(record)
        if number is None:
            kept.append(record)
            identities.add(record)
            continue
        first = kept[number]
        problems.note_record(*_where(record), "id", f"same paper as {_named(first)}; fields combined")
        kept[number] = combine(first, record)
        identities.add(record, number)
        identities.add(kept[number], number)
    return kept


def unique_records(records: Iterable[Record], problems: Problems) -> Iterator[Record]:
    """Each paper's first record, as they stream; each repeat is noted and left out."""
    identities = Identities()
    first_seen: dict[int, Record] = {}
    for record in records:
        number = identities.find(record)
        if number is not None:
            problems.note_record(*_where(record), "id", f"same paper as {_named(first_seen[number])}; the first is kept")
            continue
        number = identities.add(record)
        first_seen[number] = record
        yield record
