"""What every reader shares: the reader interface and field validation.

A reader turns one file into :class:`~scholarkg.model.Record` values. It never raises for a
bad record: it reports the problem (file, record position, field) to a
:class:`~scholarkg.errors.Problems` collector and carries on. :class:`RecordFields` does the
checks common to all formats so each reader only maps its own layout onto them.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

from ..errors import InputError, Problems
from ..model import Author, Record, Source
from ..taxonomy import Taxonomy
from ..tex import to_plain
from ..text import clean, clean_line, strip_markup

__all__ = ["Reader", "RecordFields", "read_text", "decode", "ARXIV_ID", "parse_year", "shown"]

# New-style (2007+) ids like 2509.13310, with optional version; old-style like hep-th/9901001.
ARXIV_ID = re.compile(
    r"(?:arXiv:)?((?:\d{4}\.\d{4,5})|(?:[a-z\-]+(?:\.[A-Z]{2})?/\d{7}))(?:v\d+)?", re.IGNORECASE | re.ASCII
)
_YEAR = re.compile(r"(1[89]\d\d|2[01]\d\d)", re.ASCII)
_MIN_YEAR, _MAX_YEAR = 1800, 2100


class Reader:
    """Base class of a format reader; subclasses set ``name`` and implement ``read``."""

    name: ClassVar[str] = ""
    description: ClassVar[str] = ""

    @classmethod
    def sniff(cls, head: str, path: Path) -> bool:
        """True if ``head`` (the first few KB of the file, decoded) looks like this format."""
        return False

    def read(self, path: Path, problems: Problems) -> Iterator[Record]:
        raise NotImplementedError


def decode(data: bytes) -> tuple[str, int]:
    r"""``data`` as UTF-8 text with undecodable bytes replaced by U+FFFD, and how many were.

    >>> decode(b"ok \xff\xfe \xef\xbf\xbd")
    ('ok \ufffd\ufffd \ufffd', 2)
    """
    text = data.decode("utf-8", errors="replace")
    if "\ufffd" not in text:
        return text, 0
    return text, text.count("\ufffd") - data.count(b"\xef\xbf\xbd")


def open_error(path: Path, exc: OSError) -> InputError:
    """The one-line error for a file that cannot be opened or read."""
    if isinstance(exc, FileNotFoundError):
        return InputError(f"{path}: no such file")
    if isinstance(exc, IsADirectoryError):
        return InputError(f"{path}: is a directory, not a file")
    return InputError(f"{path}: cannot read ({exc.strerror or exc})")


def read_text(path: Path, problems: Problems | None = None) -> str:
    """Read a whole file as UTF-8, or raise InputError. Bytes that are not UTF-8 are replaced
    by U+FFFD and, when ``problems`` is given, reported against the file."""
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise open_error(path, exc) from None
    text, replaced = decode(data)
    if replaced and problems is not None:
        problems.report(str(path), "", "encoding", f"{replaced:,} byte(s) that are not UTF-8 replaced with U+FFFD")
    return text


def shown(value: Any, limit: int = 40) -> str:
    """A short quoted form of any value for a problem message (never raises)."""
    try:
        text = value if isinstance(value, str) else str(value)
    except Exception:  # e.g. an integer too long to convert to text
        text = f"<{type(value).__name__}>"
    return repr(text[:limit] + ("…" if len(text) > limit else ""))


def parse_year(value: Any) -> int | None:
    """A plausible publication year from an int or text, else None.

    >>> parse_year("2021-03-04"), parse_year(2020.0), parse_year("soon"), parse_year(True)
    (2021, 2020, None, None)
    """
    if isinstance(value, bool):
        return None
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, int):
        return value if _MIN_YEAR <= value <= _MAX_YEAR else None
    if isinstance(value, str):
        text = value.strip()
        if re.fullmatch(r"\d{4}", text, re.ASCII):
            year = int(text)
            return year if _MIN_YEAR <= year <= _MAX_YEAR else None
        m = re.match(r"(\d{4})-\d{2}(?:-\d{2})?", text, re.ASCII) or _YEAR.search(text)
        if m and len(text) <= 40:
            return int(m.group(1))
    return None


def normalise_arxiv_id(value: str) -> str | None:
    m = ARXIV_ID.fullmatch(value.strip())
    return m.group(1) if m else None


@dataclass
class RecordFields:
    """Raw field values of one record, checked and cleaned by :meth:`build`."""

    path: Path
    position: str
    format: str
    title: Any = None
    abstract: Any = None
    year: Any = None
    categories: Iterable[Any] = ()
    primary_category: Any = None
    authors: Iterable[Any] = ()
    links: Iterable[Any] = ()
    id: Any = None
    arxiv_id: Any = None
    doi: Any = None
    journal_ref: Any = None
    published: Any = None
    updated: Any = None
    extra_notes: list[tuple[str, str]] = field(default_factory=list)

    def build(self, problems: Problems) -> Record | None:
        """Return the record, or None (after reporting why) if it is unusable."""
        where = (str(self.path), self.position)

        def text_field(name: str, value: Any, *, line: bool) -> str | None:
            if value is None:
                return None
            if not isinstance(value, str):
                problems.report(*where, name, f"expected text, got {type(value).__name__}")
                return None
            cleaned, notes = (clean_line if line else clean)(value)
            for note in notes:
                problems.report(*where, name, note)
            return cleaned

        for name, message in self.extra_notes:
            problems.report(*where, name, message)

        title = text_field("title", self.title, line=True)
        if title:
            stripped = strip_markup(title).strip()
            if stripped != title:
                problems.report(*where, "title", "removed HTML markup")
            title = stripped
        if not title:
            problems.skip(*where, "title", "missing or empty title")
            return None
        source_title, title = title, to_plain(title)
        if not title:
            problems.skip(*where, "title", "title is empty once its TeX is decoded")
            return None

        abstract = text_field("abstract", self.abstract, line=False) or ""
        source_abstract, abstract = abstract, to_plain(abstract)
        if not abstract:
            problems.report(*where, "abstract", "missing or empty abstract")

        year = None
        if self.year is not None and self.year != "":
            year = parse_year(self.year)
            if year is None:
                problems.report(*where, "year", f"not a year: {shown(self.year)}")
        elif self.published:
            year = parse_year(self.published)
        else:
            problems.report(*where, "year", "missing year")

        categories, primary = self._categories(problems, where)
        authors = self._authors(problems, where)
        arxiv_id = None
        if self.arxiv_id:
            arxiv_id = normalise_arxiv_id(str(self.arxiv_id))
            if arxiv_id is None:
                problems.report(*where, "arxiv_id", f"not an arXiv id: {shown(self.arxiv_id)}")
        links = tuple(dict.fromkeys(filter(None, (text_field("links", u, line=True) for u in self.links))))
        from ..graph.iri import paper_key  # local: keeps readers free of rdflib at import

        record_id = text_field("id", self.id, line=True) if self.id is not None else None
        return Record(
            id=record_id or paper_key(arxiv_id, title),
            title=title,
            abstract=abstract,
            year=year,
            categories=categories,
            primary_category=primary,
            authors=authors,
            links=links,
            source=Source(str(self.path), self.position, self.format),
            arxiv_id=arxiv_id,
            doi=text_field("doi", self.doi, line=True) or None,
            journal_ref=text_field("journal_ref", self.journal_ref, line=True) or None,
            published=text_field("published", self.published, line=True) or None,
            updated=text_field("updated", self.updated, line=True) or None,
            source_title=source_title if source_title != title else None,
            source_abstract=source_abstract if source_abstract != abstract else None,
        )

    def _categories(self, problems: Problems, where: tuple[str, str]):
        taxonomy = Taxonomy.load()
        codes: list[str] = []
        raw = list(self.categories)
        primary_raw = self.primary_category
        if primary_raw and primary_raw not in raw:
            raw.insert(0, primary_raw)
        primary = None
        for value in raw:
            if not isinstance(value, str):
                problems.report(*where, "categories", f"expected a category code, got {type(value).__name__}")
                continue
            if not value.strip():
                continue
            cat = taxonomy.lookup(value.strip())
            if cat is None:
                problems.report(*where, "categories", f"unknown arXiv category {shown(value.strip())}")
                continue
            if cat.code not in codes:
                codes.append(cat.code)
            if value == primary_raw:
                primary = cat.code
        if primary is None and codes and primary_raw is None:
            primary = codes[0]  # arXiv lists the primary category first
        elif primary is not None:
            codes.remove(primary)
            codes.insert(0, primary)
        return tuple(codes), primary

    def _authors(self, problems: Problems, where: tuple[str, str]) -> tuple[Author, ...]:
        out: list[Author] = []
        seen: set[str] = set()
        for value in self.authors:
            if isinstance(value, Author):
                author = value
            elif isinstance(value, str):
                author = Author(value)
            elif isinstance(value, dict) and isinstance(value.get("name"), str):
                author = Author(value["name"], value.get("given"), value.get("family"), value.get("affiliation"))
            else:
                problems.report(*where, "authors", f"unreadable author entry {shown(value)}")
                continue
            name, notes = clean_line(author.name, limit=300)
            for note in notes:
                problems.report(*where, "authors", note)
            name = to_plain(name)
            if not name:
                continue
            if name.casefold() in seen:
                continue
            seen.add(name.casefold())
            given, family, affiliation = (
                to_plain(clean_line(part, limit=300)[0]) or None if isinstance(part, str) else None
                for part in (author.given, author.family, author.affiliation)
            )
            out.append(Author(name, given, family, affiliation))
        return tuple(out)
