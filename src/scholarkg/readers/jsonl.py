"""JSON lines of records: one JSON object per line.

Recognised keys (all but ``title`` optional)::

    {"id": "...", "title": "...", "abstract": "...", "year": 2025,
     "categories": ["cs.CL", "cs.AI"] | "cs.CL cs.AI", "primary_category": "cs.CL",
     "category": "cs.CL", "authors": ["Ada Lovelace", {"name": "..."}] | "A and B",
     "links": ["https://..."], "arxiv_id": "2509.13310", "doi": "...", "journal_ref": "...",
     "type": "article" (a BibTeX entry type), "venue": "..." | "journal": "...", "volume": "12",
     "issue": "3" | "number": "3", "pages": "100--117", "url": "https://..."}

An author object may carry ``given``, ``family``, ``orcid`` ("0000-0002-1825-0097") and
``arxiv_id`` (an arXiv author identifier such as "song_m_1").

The document-level gold files of the evaluation sets use this layout too.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from ..errors import Problems
from ..model import Record
from .base import Reader, RecordFields, open_error, paper_kind

__all__ = ["JsonLinesReader", "iter_json_lines", "split_names"]


def iter_json_lines(path: Path, problems: Problems) -> Iterator[tuple[int, dict[str, Any]]]:
    """Yield (line number, object) for each valid JSON object line; report the others.

    Lines end at LF, CR LF or CR alone; the encoding comes from a byte-order mark, else UTF-8,
    and a line that is not UTF-8 at all is read as Latin-1 (see :mod:`.textio`)."""
    from .textio import iter_lines

    try:
        fh = path.open("rb")
    except OSError as exc:
        raise open_error(path, exc) from None
    single_byte: list[int] = []
    with fh:
        try:
            for number, line, replaced, latin1 in iter_lines(fh):
                line = line.strip()
                if not line:
                    continue
                if replaced:
                    problems.report(str(path), f"line {number}", "encoding", f"{replaced:,} byte(s) that do not decode replaced with U+FFFD")
                if latin1:
                    single_byte.append(number)
                yield from _object(path, number, line, problems)
        except OSError as exc:  # a read error part-way (an I/O error, a file that went away)
            raise open_error(path, exc) from None
    if single_byte:
        problems.note(str(path), f"{len(single_byte):,} line(s) not UTF-8, read as Latin-1 (Windows-1252); first: line {single_byte[0]}")


def _object(path: Path, number: int, line: str, problems: Problems) -> Iterator[tuple[int, dict[str, Any]]]:
    try:
        obj = json.loads(line)
    except json.JSONDecodeError as exc:
        problems.skip(str(path), f"line {number}", "json", f"invalid JSON ({exc.msg} at column {exc.colno})")
        return
    except RecursionError:
        problems.skip(str(path), f"line {number}", "json", "JSON nested too deeply")
        return
    except ValueError as exc:  # e.g. a number with more digits than Python converts
        problems.skip(str(path), f"line {number}", "json", f"invalid JSON ({exc})")
        return
    if not isinstance(obj, dict):
        problems.skip(str(path), f"line {number}", "json", f"expected an object, got {type(obj).__name__}")
        return
    yield number, obj


def split_names(value: Any) -> list[Any]:
    """Authors as a list: accepts a list, or one string joined by ``and``/``;``/``,``."""
    if isinstance(value, list):
        return value
    if isinstance(value, str):
        parts = re.split(r"\s+and\s+|;|,(?![^()]*\))", value)
        return [p.strip() for p in parts if p.strip()]
    return []


def _scalar(value: Any) -> Any:
    """A number given where text is expected (``"volume": 12``) as its text."""
    return str(value) if isinstance(value, int) and not isinstance(value, bool) else value


def _as_list(value: Any) -> list[Any]:
    if value is None:
        return []
    if isinstance(value, str):
        return value.split()
    if isinstance(value, list):
        return value
    return [value]


class JsonLinesReader(Reader):
    name = "jsonl"
    description = "JSON lines, one record object per line (title, abstract, year, categories, authors, ...)"

    @classmethod
    def sniff(cls, head: str, path: Path) -> bool:
        first = head.lstrip("\ufeff").lstrip()
        return first.startswith("{") and '"title"' in head

    def read(self, path: Path, problems: Problems) -> Iterator[Record]:
        for number, obj in iter_json_lines(path, problems):
            categories = _as_list(obj.get("categories")) or _as_list(obj.get("category"))
            fields = RecordFields(
                path=path,
                position=f"line {number}",
                format=self.name,
                id=obj.get("id") if isinstance(obj.get("id"), str) else None,
                title=obj.get("title"),
                abstract=obj.get("abstract"),
                year=obj.get("year"),
                categories=categories,
                primary_category=obj.get("primary_category"),
                authors=split_names(obj.get("authors")),
                links=_as_list(obj.get("links")),
                arxiv_id=obj.get("arxiv_id"),
                doi=obj.get("doi"),
                journal_ref=obj.get("journal_ref"),
                published=obj.get("published"),
                kind=paper_kind(obj.get("type"), obj.get("arxiv_id") if isinstance(obj.get("arxiv_id"), str) else None),
                venue=obj.get("venue", obj.get("journal")),
                volume=_scalar(obj.get("volume")),
                issue=_scalar(obj.get("issue", obj.get("number"))),
                pages=_scalar(obj.get("pages")),
                url=obj.get("url"),
            )
            record = fields.build(problems)
            if record is not None:
                yield record
