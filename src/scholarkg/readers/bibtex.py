"""BibTeX files: ``@article{key, title = {...}, ...}`` entries.

A small parser of the BibTeX grammar: braced and quoted values (nested braces kept
balanced), numbers, ``@string`` macros and ``#`` concatenation. Fields used: title,
abstract, year, author (``and``-separated, ``Last, First`` or ``First Last``), eprint /
arxivid with primaryclass, doi, url, journal. ``@comment`` and ``@preamble`` are skipped.
An entry that cannot be parsed is reported and the parser resumes at the next ``@``.
"""

from __future__ import annotations

import re
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
    def __init__(self, message: str, offset: int):
        super().__init__(message)
        self.offset = offset


def _line_of(text: str, offset: int) -> int:
    return text.count("\n", 0, offset) + 1


def _read_braced(text: str, i: int) -> tuple[str, int]:
    """``text[i]`` is ``{``; return the content up to the matching ``}`` and the next index."""
    depth = 0
    start = i + 1
    while i < len(text):
        ch = text[i]
        if ch == "\\":
            i += 2
            continue
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
            if depth == 0:
                return text[start:i], i + 1
        i += 1
    raise BibtexSyntaxError("unbalanced braces", start)


def _read_quoted(text: str, i: int) -> tuple[str, int]:
    depth = 0
    start = i + 1
    i += 1
    while i < len(text):
        ch = text[i]
        if ch == "\\":
            i += 2
            continue
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
        elif ch == '"' and depth == 0:
            return text[start:i], i + 1
        i += 1
    raise BibtexSyntaxError("unterminated quoted value", start)


def _read_value(text: str, i: int, macros: dict[str, str]) -> tuple[str, int]:
    parts: list[str] = []
    while True:
        while i < len(text) and text[i].isspace():
            i += 1
        if i >= len(text):
            raise BibtexSyntaxError("value expected", i)
        ch = text[i]
        if ch == "{":
            part, i = _read_braced(text, i)
        elif ch == '"':
            part, i = _read_quoted(text, i)
        else:
            m = _NAME.match(text, i)
            if not m or not m.group(1):
                raise BibtexSyntaxError(f"unexpected {ch!r}", i)
            word = m.group(1)
            part = word if word.isdigit() else macros.get(word.lower(), _MONTHS.get(word.lower(), word))
            i = m.end()
        parts.append(part)
        while i < len(text) and text[i].isspace():
            i += 1
        if i < len(text) and text[i] == "#":
            i += 1
            continue
        return "".join(parts), i


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
    return re.sub(r"\s+", " ", value).strip()


def parse_entries(text: str) -> Iterator[tuple[int, str, str, dict[str, str]] | BibtexSyntaxError]:
    """Yield ``(line, type, key, fields)`` per entry, or a BibtexSyntaxError for a broken one."""
    macros: dict[str, str] = {}
    pos = 0
    while (m := _ENTRY_START.search(text, pos)) is not None:
        kind = m.group(1).lower()
        close = "}" if m.group(2) == "{" else ")"
        i = m.end()
        if kind in ("comment", "preamble"):
            try:
                _, pos = _read_braced(text, m.end() - 1) if close == "}" else (None, text.index(")", i) + 1)
            except (BibtexSyntaxError, ValueError):
                pos = i
            continue
        try:
            fields: dict[str, str] = {}
            key = ""
            if kind != "string":
                km = re.compile(r"\s*([^,\s{}()]*)\s*,").match(text, i)
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
                value, i = _read_value(text, i + 1, macros)
                fields[name] = value
            pos = i
            if kind == "string":
                macros.update(fields)
                continue
            yield _line_of(text, m.start()), kind, key, fields
        except BibtexSyntaxError as exc:
            exc.offset = _line_of(text, exc.offset)
            yield exc
            nxt = text.find("@", m.end())
            pos = nxt if nxt != -1 else len(text)


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
        text = read_text(path)
        for item in parse_entries(text):
            if isinstance(item, BibtexSyntaxError):
                problems.skip(str(path), f"entry at line {item.offset}", "syntax", str(item))
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
