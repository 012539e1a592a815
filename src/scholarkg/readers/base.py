"""What every reader shares: the reader interface and field validation.

A reader turns one file into :class:`~scholarkg.model.Record` values. It never raises for a
bad record: it reports the problem (file, record position, field) to a
:class:`~scholarkg.errors.Problems` collector and carries on. :class:`RecordFields` does the
checks common to all formats so each reader only maps its own layout onto them.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, ClassVar

from ..errors import InputError, Problems
from ..model import Author, PaperKind, Record, Source
from ..taxonomy import Taxonomy
from ..tex import to_plain
from ..text import clean, clean_line, strip_markup

__all__ = ["Reader", "RecordFields", "read_text", "decode", "ARXIV_ID", "parse_year", "shown", "orcid", "paper_kind"]

# New-style (2007+) ids like 2509.13310, with optional version; old-style like hep-th/9901001.
ARXIV_ID = re.compile(
    r"(?:arXiv:)?((?:\d{4}\.\d{4,5})|(?:[a-z\-]+(?:\.[A-Z]{2})?/\d{7}))(?:v\d+)?", re.IGNORECASE | re.ASCII
)
_DOI_PREFIX = re.compile(r"^(?:https?://(?:dx\.)?doi\.org/|doi:\s*)", re.IGNORECASE)
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
    r"""``data`` as text (see :mod:`.textio`: byte-order marks, LF line ends), with bytes that do not
    decode replaced by U+FFFD, and how many were.

    >>> decode(b"ok \xff\xfe \xef\xbf\xbd")
    ('ok \ufffd\ufffd \ufffd', 2)
    """
    from .textio import decode as decode_text

    decoded = decode_text(data, fallback=False)
    return decoded.text, decoded.replaced


def open_error(path: Path, exc: OSError) -> InputError:
    """The one-line error for a file that cannot be opened or read."""
    if isinstance(exc, FileNotFoundError):
        return InputError(f"{path}: no such file")
    if isinstance(exc, IsADirectoryError):
        return InputError(f"{path}: is a directory, not a file")
    return InputError(f"{path}: cannot read ({exc.strerror or exc})")


def read_text(path: Path, problems: Problems | None = None) -> str:
    """Read a whole file as text (:mod:`.textio`), or raise InputError. Bytes that do not decode
    are replaced by U+FFFD and, when ``problems`` is given, reported against the file; a file
    read as Latin-1 is noted."""
    from .textio import decode as decode_text

    try:
        data = path.read_bytes()
    except OSError as exc:
        raise open_error(path, exc) from None
    decoded = decode_text(data)
    if problems is not None:
        if decoded.replaced:
            problems.report(str(path), "", "encoding", f"{decoded.replaced:,} byte(s) that are not {_name(decoded.encoding)} replaced with U+FFFD")
        if decoded.latin1:
            problems.note(str(path), "not UTF-8: read as Latin-1 (Windows-1252)")
    return decoded.text


def _name(encoding: str) -> str:
    return encoding.upper().replace("-LE", "").replace("-BE", "")


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


_ORCID = re.compile(r"(?:https?://orcid\.org/)?(\d{4}-\d{4}-\d{4}-\d{3}[\dX])", re.ASCII | re.IGNORECASE)
_ARXIV_AUTHOR = re.compile(r"[a-z][a-z0-9_]{0,60}_\d{1,3}", re.ASCII)


def orcid(value: str) -> str | None:
    """The ORCID iD in ``value`` if it is one with a valid check digit (ISO 7064 11-2), else None.

    >>> orcid("https://orcid.org/0000-0002-1825-0097"), orcid("0000-0002-1825-0098")
    ('0000-0002-1825-0097', None)
    """
    m = _ORCID.fullmatch(value.strip())
    if not m:
        return None
    digits = m.group(1).replace("-", "").upper()
    total = 0
    for d in digits[:-1]:
        total = (total + int(d)) * 2
    check = (12 - total % 11) % 11
    return m.group(1).upper() if digits[-1] == ("X" if check == 10 else str(check)) else None


_KINDS: dict[str, PaperKind] = {
    **{k.value: k for k in PaperKind},
    "conference": PaperKind.CONFERENCE_PAPER, "inbook": PaperKind.CHAPTER, "inreference": PaperKind.CHAPTER,
    "report": PaperKind.REPORT, "collection": PaperKind.BOOK, "mvbook": PaperKind.BOOK,
    "journal-article": PaperKind.ARTICLE, "proceedings-article": PaperKind.CONFERENCE_PAPER,
    "book-chapter": PaperKind.CHAPTER, "dissertation": PaperKind.THESIS, "posted-content": PaperKind.PREPRINT,
}


def paper_kind(entry_type: Any, arxiv_id: str | None = None) -> PaperKind | None:
    """The kind of publication named by a BibTeX entry type (or a Crossref type); a record
    of no stated or a general kind with an arXiv id is a preprint.

    >>> paper_kind("InProceedings"), paper_kind("misc", "1810.04805"), paper_kind(None)
    (<PaperKind.CONFERENCE_PAPER: 'inproceedings'>, <PaperKind.PREPRINT: 'preprint'>, None)
    """
    kind = _KINDS.get(entry_type.strip().lower(), PaperKind.OTHER) if isinstance(entry_type, str) and entry_type.strip() else None
    if arxiv_id and kind in (None, PaperKind.OTHER, PaperKind.UNPUBLISHED):
        return PaperKind.PREPRINT
    return kind


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
    kind: PaperKind | None = None
    venue: Any = None
    volume: Any = None
    issue: Any = None
    pages: Any = None
    url: Any = None
    authors_ordered: bool = True
    tex: bool = False  # every text value is TeX source (BibTeX), decoded even without a macro in it
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
            # In TeX source "\<name>" is a macro call, not HTML: leave such a title to the TeX decoder.
            stripped = title.strip() if self.tex and "\\<" in title else strip_markup(title).strip()
            if stripped != title:
                problems.report(*where, "title", "removed HTML markup")
            title = stripped
        if not title:
            problems.skip(*where, "title", "missing or empty title")
            return None
        source_title, title = title, " ".join(to_plain(title, tex=self.tex).split())
        if not title:
            problems.skip(*where, "title", "title is empty once its TeX is decoded")
            return None

        abstract = text_field("abstract", self.abstract, line=False) or ""
        source_abstract, abstract = abstract, to_plain(abstract, tex=self.tex)
        if not abstract:  # normal for bibliographies: nothing to extract from, but no problem
            problems.tally("records without an abstract")

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
        from ..graph.iri import normalise_doi, record_key  # local: keeps readers free of rdflib at import

        def detail(name: str, value: Any) -> str | None:
            text = text_field(name, value, line=True)
            return " ".join(to_plain(text, tex=self.tex).split()) or None if text else None

        doi = text_field("doi", self.doi, line=True) or None
        if doi is not None and not normalise_doi(doi).startswith("10."):
            problems.report(*where, "doi", f"not a DOI: {shown(doi)}")
            doi = None
        record_id = text_field("id", self.id, line=True) if self.id is not None else None
        record = Record(
            id="",
            title=title,
            abstract=abstract,
            year=year,
            categories=categories,
            primary_category=primary,
            authors=authors,
            links=links,
            source=Source(str(self.path), self.position, self.format),
            arxiv_id=arxiv_id,
            doi=_DOI_PREFIX.sub("", doi.strip()) if doi else None,
            journal_ref=text_field("journal_ref", self.journal_ref, line=True) or None,
            published=text_field("published", self.published, line=True) or None,
            updated=text_field("updated", self.updated, line=True) or None,
            source_title=source_title if source_title != title else None,
            source_abstract=source_abstract if source_abstract != abstract else None,
            kind=self.kind,
            venue=detail("venue", self.venue),
            volume=detail("volume", self.volume),
            issue=detail("issue", self.issue),
            pages=detail("pages", self.pages),
            url=text_field("url", self.url, line=True) or None,
            authors_ordered=self.authors_ordered,
        )
        return replace(record, id=record_id or record_key(record))

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
                author = Author(value["name"], value.get("given"), value.get("family"), value.get("affiliation"),
                                value.get("orcid"), value.get("arxiv_id"))
            else:
                problems.report(*where, "authors", f"unreadable author entry {shown(value)}")
                continue
            name, notes = clean_line(author.name, limit=300)
            for note in notes:
                problems.report(*where, "authors", note)
            name = " ".join(to_plain(name, tex=self.tex).split())
            if not name:
                continue
            if name.casefold() in seen:
                continue
            seen.add(name.casefold())
            given, family, affiliation = (
                " ".join(to_plain(clean_line(part, limit=300)[0], tex=self.tex).split()) or None if isinstance(part, str) else None
                for part in (author.given, author.family, author.affiliation)
            )
            orcid_id = arxiv_author = None
            if author.orcid is not None:
                orcid_id = orcid(author.orcid) if isinstance(author.orcid, str) else None
                if orcid_id is None:
                    problems.report(*where, "authors", f"not an ORCID iD: {shown(author.orcid)}")
            if author.arxiv_id is not None:
                if isinstance(author.arxiv_id, str) and _ARXIV_AUTHOR.fullmatch(author.arxiv_id.strip()):
                    arxiv_author = author.arxiv_id.strip()
                else:
                    problems.report(*where, "authors", f"not an arXiv author identifier: {shown(author.arxiv_id)}")
            out.append(Author(name, given, family, affiliation, orcid_id, arxiv_author))
        return tuple(out)
