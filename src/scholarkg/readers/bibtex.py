"""BibTeX files: ``@article{key, title = {...}, ...}`` entries.

A small parser of the BibTeX grammar: braced and quoted values (nested braces kept
balanced), numbers, ``@string`` macros and ``#`` concatenation. Fields used: title,
abstract, year, author (``and``-separated, ``Last, First`` or ``First Last``), eprint /
arxivid with primaryclass, doi, url, journal. ``@comment`` and ``@preamble`` are skipped.
An entry that cannot be parsed is reported and the parser resumes at the next ``@``.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator
from pathlib import Path

from ..errors import Problems
from ..model import Author, Record
from .base import Reader, RecordFields, read_text

__all__ = ["BibtexReader", "parse_entries", "BibtexSyntaxError"]

_ENTRY_START = re.compile(r"@\s*([A-Za-z]+)\s*([{(])")
_NAME = re.compile(r"\s*([A-Za-z0-9_:\-.+/]+)\s*")
_MONTHS = {m: m for m in ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")}
_TEX_ACCENTS = {
    "'": "\u0301", "`": "\u0300", "^": "\u0302", '"': "\u0308", "~": "\u0303",
    "=": "\u0304", ".": "\u0307", "c": "\u0327", "v": "\u030c", "u": "\u0306", "H": "\u030b",
}


class BibtexSyntaxError(ValueError):
    def __init__(self, message: str, offset: int, key: str = ""):
        super().__init__(message)
        self.offset = offset
        self.key = key


class _Source:
    """The text of a BibTeX file, prepared once so that parsing stays linear in its size.

    Every ``{`` is paired with its ``}`` in one pass, so reading a braced value is a lookup
    rather than a scan: a file with thousands of entries with unbalanced braces does not make
    each of them rescan the rest of the file. Quoted values are still scanned (skipping whole
    brace groups); all such scanning is charged to a budget proportional to the file size,
    and a file that exhausts it is read no further (reported, never a hang).
    """

    def __init__(self, text: str):
        self.text = text
        self.closing: dict[int, int] = {}
        stack: list[int] = []
        for m in _BRACES.finditer(text):
            ch = m.group()
            if ch == "{":
                stack.append(m.start())
            elif ch == "}" and stack:
                self.closing[stack.pop()] = m.start()
        self.budget = 4 * len(text) + 1_000_000
        self._line_at = (0, 1)

    def line_of(self, offset: int) -> int:
        """1-based line of ``offset``; counted on from the last answer (offsets mostly grow)."""
        last_offset, last_line = self._line_at
        if offset >= last_offset:
            line = last_line + self.text.count("\n", last_offset, offset)
        else:
            line = self.text.count("\n", 0, offset) + 1
        self._line_at = (offset, line)
        return line

    def braced(self, i: int) -> tuple[str, int]:
        """``text[i]`` is ``{``; return the content up to the matching ``}`` and the next index."""
        end = self.closing.get(i)
        if end is None:
            raise BibtexSyntaxError("unbalanced braces", i + 1)
        return self.text[i + 1 : end], end + 1

    def quoted(self, i: int) -> tuple[str, int]:
        """``text[i]`` is ``"``; return the content up to the closing quote and the next index."""
        text, start = self.text, i + 1
        pos = start
        while (m := _QUOTED_STOP.search(text, pos)) is not None:
            self._charge(m.end() - pos, start)
            ch = m.group()
            if ch == '"':
                return text[start : m.start()], m.end()
            if ch == "}":
                raise BibtexSyntaxError("unbalanced braces in quoted value", start)
            if ch == "{":
                end = self.closing.get(m.start())
                if end is None:
                    raise BibtexSyntaxError("unbalanced braces", start)
                pos = end + 1
            else:  # an escaped character
                pos = m.end()
        self._charge(len(text) - pos, start)
        raise BibtexSyntaxError("unterminated quoted value", start)

    def _charge(self, cost: int, offset: int) -> None:
        self.budget -= cost
        if self.budget < 0:
            raise _Exhausted(offset)

    def value(self, i: int, macros: dict[str, str]) -> tuple[str, int]:
        text = self.text
        parts: list[str] = []
        while True:
            i = _skip_space(text, i)
            if i >= len(text):
                raise BibtexSyntaxError("value expected", i)
            ch = text[i]
            if ch == "{":
                part, i = self.braced(i)
            elif ch == '"':
                part, i = self.quoted(i)
            else:
                m = _NAME.match(text, i)
                if not m or not m.group(1):
                    raise BibtexSyntaxError(f"unexpected {ch!r}", i)
                word = m.group(1)
                part = word if word.isdigit() else macros.get(word.lower(), _MONTHS.get(word.lower(), word))
                i = m.end()
            parts.append(part)
            i = _skip_space(text, i)
            if i < len(text) and text[i] == "#":
                i += 1
                continue
            return "".join(parts), i


class _Exhausted(Exception):
    """The scanning budget of a file ran out at ``offset``."""

    def __init__(self, offset: int):
        super().__init__(offset)
        self.offset = offset


_BRACES = re.compile(r"\\.|[{}]", re.DOTALL)
_QUOTED_STOP = re.compile(r'\\.|[{}"]', re.DOTALL)
_SPACE = re.compile(r"\s*")
_KEY = re.compile(r"\s*([^,\s{}()]*)\s*,")


def _skip_space(text: str, i: int) -> int:
    return _SPACE.match(text, i).end()


def detex(value: str) -> str:
    """Plain text from a BibTeX value: accents resolved, grouping braces and commands dropped.

    >>> detex(r"Schr{\\"o}dinger {BERT} \\emph{models}")
    'Schrödinger BERT models'
    """
    def accent(m: re.Match[str]) -> str:
        return m.group(2) + _TEX_ACCENTS[m.group(1)]

    value = re.sub(r"\\([`'^\"~=.])\s*\{?([A-Za-z])\}?", accent, value)
    value = re.sub(r"\\([cvuH])\s*\{([A-Za-z])\}", accent, value)
    value = re.sub(r"\\(?:emph|textit|textbf|textrm|texttt|mathrm|url)\s*\{", "{", value)
    value = value.replace(r"\&", "&").replace(r"\%", "%").replace(r"\_", "_").replace("~", " ")
    value = re.sub(r"(?<!\\)[{}]", "", value)
    return unicodedata.normalize("NFC", " ".join(value.split()))


def parse_entries(text: str) -> Iterator[tuple[int, str, str, dict[str, str]] | BibtexSyntaxError]:
    """Yield ``(line, type, key, fields)`` per entry, or a BibtexSyntaxError for a broken one.

    Its ``offset`` is the line of the entry. The time taken is linear in the size of ``text``.
    """
    src = _Source(text)
    macros: dict[str, str] = {}
    pos = 0
    while (m := _ENTRY_START.search(text, pos)) is not None:
        kind = m.group(1).lower()
        close = "}" if m.group(2) == "{" else ")"
        i = m.end()
        if kind in ("comment", "preamble"):
            try:
                _, pos = src.braced(m.end() - 1) if close == "}" else (None, text.index(")", i) + 1)
            except (BibtexSyntaxError, ValueError):
                pos = i
            continue
        try:
            fields: dict[str, str] = {}
            key = ""
            if kind != "string":
                km = _KEY.match(text, i)
                if not km:
                    raise BibtexSyntaxError("entry key expected", i)
                key, i = km.group(1), km.end()
            while True:
                while i < len(text) and (text[i].isspace() or text[i] == ","):
                    i += 1
                if i < len(text) and text[i] == close:
                    i += 1
                    break
                nm = _NAME.match(text, i)
                if not nm or not nm.group(1):
                    raise BibtexSyntaxError("field name expected", i)
                name = nm.group(1).lower()
                i = nm.end()
                if i >= len(text) or text[i] != "=":
                    raise BibtexSyntaxError(f"'=' expected after field {name!r}", i)
                value, i = src.value(i + 1, macros)
                fields[name] = value
            pos = i
            if kind == "string":
                macros.update(fields)
                continue
            yield src.line_of(m.start()), kind, key, fields
        except BibtexSyntaxError as exc:
            exc.offset, exc.key = src.line_of(m.start()), key
            yield exc
            nxt = text.find("@", m.end())
            pos = nxt if nxt != -1 else len(text)
        except _Exhausted as exc:
            line = src.line_of(exc.offset)
            yield BibtexSyntaxError(
                f"too many unterminated values to read further; the rest of the file from line {line} "
                "was not read", src.line_of(m.start()), key
            )
            return


def _authors(value: str) -> list[Author]:
    out = []
    for part in re.split(r"\s+and\s+", detex(value)):
        part = part.strip()
        if not part or part.lower() == "others":
            continue
        if "," in part:
            family, _, given = part.partition(",")
            family, given = family.strip(), given.strip()
            out.append(Author(f"{given} {family}".strip(), given or None, family or None))
        else:
            names = part.split()
            out.append(Author(part, " ".join(names[:-1]) or None, names[-1]))
    return out


class BibtexReader(Reader):
    name = "bibtex"
    description = "BibTeX (.bib) entries with title, abstract, year, author, eprint, ..."

    @classmethod
    def sniff(cls, head: str, path: Path) -> bool:
        return bool(re.search(r"^\s*@\s*[A-Za-z]+\s*[{(]", head, re.MULTILINE))

    def read(self, path: Path, problems: Problems) -> Iterator[Record]:
        text = read_text(path, problems)
        for item in parse_entries(text):
            if isinstance(item, BibtexSyntaxError):
                problems.skip(str(path), f"entry {item.key or '?'} at line {item.offset}", "syntax", str(item))
                continue
            line, _kind, key, f = item
            eprint = f.get("eprint") or f.get("arxivid") or f.get("arxiv")
            archive = (f.get("archiveprefix") or f.get("eprinttype") or "arxiv").lower()
            categories = [c for c in re.split(r"[\s,]+", f.get("primaryclass", "")) if c]
            links = [f["url"]] if f.get("url") else []
            fields = RecordFields(
                path=path,
                position=f"entry {key or '?'} at line {line}",
                format=self.name,
                title=detex(f["title"]) if "title" in f else None,
                abstract=detex(f["abstract"]) if "abstract" in f else None,
                year=f.get("year"),
                categories=categories,
                authors=_authors(f.get("author", "")),
                links=links,
                arxiv_id=eprint if eprint and archive == "arxiv" else None,
                doi=f.get("doi"),
                journal_ref=detex(f["journal"]) if "journal" in f else None,
            )
            record = fields.build(problems)
            if record is not None:
                yield record
