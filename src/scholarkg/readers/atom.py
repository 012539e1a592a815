"""arXiv API responses: Atom feeds with arXiv's own extension elements.

Each ``<entry>`` gives the arXiv id (from ``<id>``, version dropped), title, summary,
authors, published and updated dates, the primary category, all categories, DOI and
journal reference. An ``<entry>`` arXiv uses to report a query error is reported, not read.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path

from ..errors import InputError, Problems
from ..model import Author, PaperKind, Record
from ..text import unwrap
from .base import Reader, RecordFields, read_text

__all__ = ["AtomReader", "parse_feed", "parse_xml", "has_dtd", "TooDeep", "MAX_DEPTH"]

ATOM = "{http://www.w3.org/2005/Atom}"
ARXIV = "{http://arxiv.org/schemas/atom}"


def _text(element: ET.Element, tag: str) -> str | None:
    child = element.find(tag)
    return child.text if child is not None and child.text is not None else None


MAX_DEPTH = 64  # Atom entries nest four levels deep; the limit keeps recursive tree walks safe
_FEED_CHARS = 1 << 14


class TooDeep(ET.ParseError):
    """The document nests elements more than :data:`MAX_DEPTH` levels deep."""


def parse_xml(text: str) -> ET.Element:
    """``text`` parsed into an element tree, refusing (with :class:`TooDeep`) trees deeper than
    :data:`MAX_DEPTH`, so nothing that walks the tree recursively (serialising it, copying it)
    can exhaust the stack. Raises :class:`xml.etree.ElementTree.ParseError` for bad XML.

    >>> parse_xml("<a><b/></a>").tag
    'a'
    """
    parser = ET.XMLPullParser(events=("start", "end"))
    root, depth = None, 0
    for offset in range(0, max(len(text), 1), _FEED_CHARS):
        parser.feed(text[offset : offset + _FEED_CHARS])
        for event, element in parser.read_events():
            if event == "start":
                root = element if root is None else root
                depth += 1
                if depth > MAX_DEPTH:
                    line = text.count("\n", 0, offset + _FEED_CHARS) + 1
                    error = TooDeep(f"XML nested more than {MAX_DEPTH} levels deep")
                    error.position = (line, 0)
                    raise error
            else:
                depth -= 1
    parser.close()
    return root


def has_dtd(text: str) -> bool:
    """True if ``text`` declares a DTD or entities: they can expand enormously or name outside
    files, and Atom feeds have none."""
    return _DTD.search(text) is not None


def parse_feed(text: str, path: Path, problems: Problems) -> Iterator[Record]:
    """Records of every entry in an Atom feed given as text."""
    if has_dtd(text):
        raise InputError(f"{path}: XML document type declarations are not accepted")
    try:
        root = parse_xml(text)
    except ET.ParseError as exc:
        line, column = exc.position
        what = str(exc) if isinstance(exc, TooDeep) else "invalid XML"
        salvage = Problems()  # held back so the file-level message comes first
        entries = list(_salvage_entries(text, path, salvage))
        if not entries:
            raise InputError(f"{path}: {what} at line {line}, column {column}") from None
        message = f"{what} at line {line}, column {column}; reading the entries that parse"
        if salvage.items:  # the broken entries are the problems; this only explains them
            problems.note(str(path), message)
        else:
            problems.report(str(path), f"line {line}", "xml", f"{what} at column {column}; reading the entries that parse")
        for item in salvage.items:
            problems.skip(item.path, item.position, item.field, item.message.removesuffix(" (record skipped)"))
    else:
        if root.tag != f"{ATOM}feed":
            raise InputError(f"{path}: not an Atom feed (root element {root.tag!r})")
        entries = list(enumerate(root.iter(f"{ATOM}entry"), start=1))
    for position, entry in entries:
        where = f"entry {position}"
        entry_id = _text(entry, f"{ATOM}id") or ""
        if "/api/errors" in entry_id:
            problems.report(str(path), where, "entry", f"arXiv reported an error: {_text(entry, f'{ATOM}summary') or ''}".strip())
            continue
        arxiv_id = entry_id.rsplit("/abs/", 1)[-1] if "/abs/" in entry_id else None
        primary = entry.find(f"{ARXIV}primary_category")
        authors = []
        for author in entry.findall(f"{ATOM}author"):
            name = _text(author, f"{ATOM}name")
            if name:
                authors.append(Author(name, affiliation=_text(author, f"{ARXIV}affiliation")))
        links = [
            link.get("href", "")
            for link in entry.findall(f"{ATOM}link")
            if link.get("rel") == "alternate" and link.get("href")
        ]
        published = _text(entry, f"{ATOM}published")
        fields = RecordFields(
            path=path,
            position=where,
            format="arxiv-atom",
            title=_text(entry, f"{ATOM}title"),
            abstract=unwrap(_text(entry, f"{ATOM}summary")),
            year=published[:4] if published else None,
            categories=[c.get("term", "") for c in entry.findall(f"{ATOM}category")],
            primary_category=primary.get("term") if primary is not None else None,
            authors=authors,
            links=links,
            arxiv_id=arxiv_id,
            doi=_text(entry, f"{ARXIV}doi"),
            journal_ref=_text(entry, f"{ARXIV}journal_ref"),
            published=published[:10] if published else None,
            updated=(_text(entry, f"{ATOM}updated") or "")[:10] or None,
            kind=PaperKind.PREPRINT,
        )
        record = fields.build(problems)
        if record is not None:
            yield record


_DTD = re.compile(r"<!\s*(?:DOCTYPE|ENTITY)", re.IGNORECASE)
_ENTRY_BLOCK = re.compile(r"<entry\b.*?(?:</entry>|(?=<entry\b)|\Z)", re.DOTALL)
_NAMESPACES = ' xmlns="http://www.w3.org/2005/Atom" xmlns:arxiv="http://arxiv.org/schemas/atom"'


def _salvage_entries(text: str, path: Path, problems: Problems):
    """Entries of a broken feed, each parsed on its own; the broken ones are reported."""
    line, counted = 1, 0
    for position, m in enumerate(_ENTRY_BLOCK.finditer(text), start=1):
        block = m.group(0)
        line += text.count("\n", counted, m.start())  # counted on, not from the start: linear
        counted = m.start()
        if not block.endswith("</entry>"):
            problems.skip(str(path), f"entry {position} (line {line})", "xml", "truncated entry")
            continue
        try:
            yield position, parse_xml(block.replace("<entry", "<entry" + _NAMESPACES, 1))
        except TooDeep:
            problems.skip(str(path), f"entry {position} (line {line})", "xml", f"XML nested more than {MAX_DEPTH} levels deep")
        except ET.ParseError:
            problems.skip(str(path), f"entry {position} (line {line})", "xml", "invalid XML in this entry")


class AtomReader(Reader):
    name = "arxiv-atom"
    description = "arXiv API Atom feed (export API query results)"

    @classmethod
    def sniff(cls, head: str, path: Path) -> bool:
        start = head.lstrip("\ufeff").lstrip()
        return start.startswith("<") and "http://www.w3.org/2005/Atom" in head

    def read(self, path: Path, problems: Problems) -> Iterator[Record]:
        text = read_text(path, problems)
        if text.strip():  # an empty file has no entries (reported by read_records), not bad XML
            yield from parse_feed(text, path, problems)
