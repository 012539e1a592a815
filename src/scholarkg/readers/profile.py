"""Author-profile pages: a researcher's publication list copied from a profile site.

Layout (blocks separated by blank lines)::

    arXiv subjects
    <author name>
    Publications and source records attributed to <author name>.
    At least <N> recordsLinked to original sources
    arXiv<year>
    <title>
    <abstract, one or more paragraphs>
    <category>↗ [<category>↗ ...]
    arXiv<year>
    ...

Every record gets the profile's author. The page's own count ("At least N records") is
compared with what was parsed and the difference is reported as a note.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

from ..errors import Problems
from ..model import Author, PaperKind, Record
from .base import Reader, RecordFields, read_text, shown

__all__ = ["ProfileReader"]

_YEAR_LINE = re.compile(r"arXiv\s*(\S.*)?")
_CATEGORY_LINE = re.compile(r"(?:[A-Za-z][\w.\-]*\s*↗\s*)+")
_CATEGORY = re.compile(r"([A-Za-z][\w.\-]*)\s*↗")
_ATTRIBUTED = re.compile(r"Publications and source records attributed to (.+?)\.?$")
_CLAIMED = re.compile(r"At least ([\d,]+) records?", re.IGNORECASE)
_COUNT = re.compile(r"\d{1,3}(?:,\d{3}){0,2}|\d{1,9}")  # up to 999,999,999 records, with or without commas


class ProfileReader(Reader):
    name = "profile"
    description = "author-profile page (arXiv<year> / title / abstract / category↗ blocks)"

    @classmethod
    def sniff(cls, head: str, path: Path) -> bool:
        return bool(re.search(r"^arXiv\s*\d{4}\s*$", head, re.MULTILINE)) and "↗" in head

    def read(self, path: Path, problems: Problems) -> Iterator[Record]:
        lines = read_text(path, problems).split("\n")
        author, claimed = self._header(lines)
        if author is None:
            problems.report(str(path), "header", "author", "no author name found in the profile header")
        if isinstance(claimed, str):
            problems.note(str(path), f"the record count {shown(claimed)} cannot be read; nothing to compare with")
            claimed = None
        count = 0
        for fields in self._blocks(path, lines, author):
            if not fields.categories and fields.title:
                # Every block of a profile page ends with its category line; a block without
                # one is most often the last block of a page that was cut short.
                fields.extra_notes.append(("categories", "no category line; the record may be cut short"))
            record = fields.build(problems)
            if record is not None:
                count += 1
                yield record
        if claimed is not None and claimed != count:
            problems.note(
                str(path),
                f"the profile claims at least {claimed} records; {count} were read",
            )
        if count == 0:
            problems.report(str(path), "", "records", "no publication blocks found")

    @staticmethod
    def _header(lines: list[str]) -> tuple[str | None, int | str | None]:
        """The profile's author, and its record count (the text itself when it is no number)."""
        author = claimed = None
        texts = [line.strip() for line in lines[:40] if line.strip()]
        for i, text in enumerate(texts):
            if m := _ATTRIBUTED.match(text):
                author = m.group(1).strip()
            elif (m := _CLAIMED.match(text)) and claimed is None:
                claimed = int(m.group(1).replace(",", "")) if _COUNT.fullmatch(m.group(1)) else text
            elif _YEAR_LINE.fullmatch(text) and text != "arXiv subjects":
                break
        if author is None and len(texts) > 1 and texts[0] == "arXiv subjects":
            author = texts[1]
        return author, claimed

    @staticmethod
    def _blocks(path: Path, lines: list[str], author: str | None) -> Iterator[RecordFields]:
        current: RecordFields | None = None
        body: list[str] = []
        paragraph: list[str] = []

        def finish() -> RecordFields | None:
            if current is None:
                return None
            if paragraph:
                body.append(" ".join(paragraph))
            if body:
                current.title = body[0]
                current.abstract = "\n\n".join(body[1:])
            return current

        for number, raw in enumerate(lines, start=1):
            text = raw.strip()
            year_match = _YEAR_LINE.fullmatch(text)
            # A block starts at "arXiv<year>"; before the first block only a line with a year
            # after "arXiv" counts (the header's own "arXiv" lines do not), so a page without
            # a header keeps its first record.
            if year_match and text != "arXiv subjects" and (current is not None or year_match.group(1)):
                done = finish()
                if done is not None:
                    yield done
                current = RecordFields(
                    path=path,
                    position=f"record at line {number}",
                    format="profile",
                    year=year_match.group(1) or "",
                    authors=[Author(author)] if author else [],
                    authors_ordered=False,  # the page's author, wherever they are in the list
                    kind=PaperKind.PREPRINT,
                )
                body, paragraph = [], []
            elif current is None:
                continue
            elif _CATEGORY_LINE.fullmatch(text):
                current.categories = [*current.categories, *_CATEGORY.findall(text)]
            elif not text:
                if paragraph:
                    body.append(" ".join(paragraph))
                    paragraph = []
            else:
                paragraph.append(text)
        done = finish()
        if done is not None:
            yield done
