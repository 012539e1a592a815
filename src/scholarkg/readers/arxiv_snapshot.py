"""arXiv's bulk metadata snapshot: JSON lines with ``authors_parsed`` and ``versions``.

Authors come from ``authors_parsed`` (``[last, first, suffix]``), which arXiv derives from the
free-text ``authors`` field; the year from the first version's date, else from the id.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from email.utils import parsedate_to_datetime
from pathlib import Path
from typing import Any

from ..errors import Problems
from ..model import Author, PaperKind, Record
from ..text import unwrap
from .base import Reader, RecordFields, shown
from .jsonl import iter_json_lines, split_names

__all__ = ["ArxivSnapshotReader"]


def _author(parts: Any) -> Author | None:
    if not isinstance(parts, list) or not parts or not all(isinstance(p, str) for p in parts):
        return None
    family = parts[0].strip()
    given = parts[1].strip() if len(parts) > 1 else ""
    suffix = parts[2].strip() if len(parts) > 2 else ""
    name = " ".join(p for p in (given, family, suffix) if p)
    return Author(name, given or None, family or None) if name else None


def _first_version_date(versions: Any) -> tuple[str | None, str | None]:
    """The date of the first version (ISO), or None and why not (None when there is no date)."""
    if versions is None or versions == []:
        return None, None
    if not isinstance(versions, list) or not isinstance(versions[0], dict):
        return None, "expected a list of versions"
    created = versions[0].get("created")
    if not isinstance(created, str):
        return None, "the first version has no creation date"
    try:
        return parsedate_to_datetime(created).date().isoformat(), None
    except (TypeError, ValueError, IndexError, OverflowError):
        return None, f"unreadable creation date {shown(created)}"


def _year_from_id(arxiv_id: str) -> int | None:
    m = re.match(r"(\d{2})(\d{2})\.\d{4,5}$", arxiv_id, re.ASCII) or re.search(r"/(\d{2})(\d{2})\d{3}$", arxiv_id, re.ASCII)
    if not m:
        return None
    yy = int(m.group(1))
    return (1900 if yy >= 91 else 2000) + yy


class ArxivSnapshotReader(Reader):
    name = "arxiv-snapshot"
    description = "arXiv metadata snapshot JSON lines (authors_parsed, versions, categories)"

    @classmethod
    def sniff(cls, head: str, path: Path) -> bool:
        return head.lstrip("\ufeff").lstrip().startswith("{") and '"authors_parsed"' in head

    def read(self, path: Path, problems: Problems) -> Iterator[Record]:
        for number, obj in iter_json_lines(path, problems):
            raw_id = obj.get("id")
            notes: list[tuple[str, str]] = []
            authors: list[Any] = []
            parsed = obj.get("authors_parsed")
            if isinstance(parsed, list) and parsed:
                for parts in parsed:
                    author = _author(parts)
                    if author is None:
                        notes.append(("authors_parsed", f"unreadable entry {shown(parts)}"))
                    else:
                        authors.append(author)
            else:
                authors = split_names(obj.get("authors"))
            published, why = _first_version_date(obj.get("versions"))
            if why:
                notes.append(("versions", why))
            year: Any = published[:4] if published else None
            if year is None and isinstance(raw_id, str):
                year = _year_from_id(raw_id)
            categories = obj.get("categories")
            fields = RecordFields(
                path=path,
                position=f"line {number}",
                format=self.name,
                title=obj.get("title"),
                abstract=unwrap(obj["abstract"]) if isinstance(obj.get("abstract"), str) else obj.get("abstract"),
                year=year,
                categories=categories.split() if isinstance(categories, str) else [],
                authors=authors,
                arxiv_id=raw_id if isinstance(raw_id, str) else None,
                doi=obj.get("doi"),
                journal_ref=obj.get("journal-ref"),
                published=published,
                updated=obj.get("update_date"),
                kind=PaperKind.PREPRINT,
                extra_notes=notes,
            )
            if not isinstance(raw_id, str):
                fields.extra_notes.append(("id", "missing arXiv id"))
            record = fields.build(problems)
            if record is not None:
                yield record
