"""BibTeX files (``.bib``), read with bibtexparser v2.

bibtexparser's splitter does the grammar: entries, ``@string``, ``@comment`` and
``@preamble`` blocks, braced and quoted values, line numbers, and recovery after a broken
entry (the entries after it are still read). Its name functions split the ``author`` field
into persons and each person into first, von, last and jr parts, on the TeX source, where
braces protect ("{Barnes and Noble}", "{\\L}ukasz"). Each part is then decoded to Unicode by
the project's one TeX decoder (:func:`scholarkg.tex.to_plain`, as every reader's text is).

Written here, because bibtexparser v2 does not do them: ``#`` concatenation and macros used
inside ``@string`` definitions, with bounded expansion (:mod:`scholarkg.readers.bibvalues`),
and ``crossref`` (an entry takes the fields it lacks from the entry it names, and that
entry's title as its ``booktitle``).

Fields used: title, abstract, year (or biblatex's date), author, journal or booktitle (the
venue), volume, number, pages, doi, url, eprint with archivePrefix / eprinttype and
primaryClass, and an arXiv id wherever people put one: ``journal = {arXiv preprint
arXiv:1810.04805}`` (Google Scholar), ``volume = {abs/1810.04805}`` (DBLP's CoRR), note,
howpublished, an arxiv.org URL or an arXiv DOI (10.48550/arXiv....). ORCID iDs are taken
from Web of Science's ``orcid-numbers`` field. The entry type gives the record's kind.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterator
from pathlib import Path

from ..errors import InputError, Problems
from ..model import Author, PaperKind, Record
from .base import Reader, RecordFields, normalise_arxiv_id, paper_kind, read_text
from .bibvalues import BadValue, Macros

__all__ = ["BibtexReader"]

_NEW_ID = r"\d{4}\.\d{4,5}(?:v\d+)?"
_OLD_ID = r"[a-z][a-z\-]+(?:\.[A-Z]{2})?/\d{7}(?:v\d+)?"
_ID = f"(?:{_NEW_ID}|{_OLD_ID})"
# "arXiv:1810.04805", "arXiv preprint arXiv:1810.04805", "ArXiv abs/1810.04805", "arXiv 1810.04805"
_ARXIV_IN_TEXT = re.compile(rf"\barxiv(?:\s+preprint)?\s*(?:arxiv)?\s*[:\s]\s*(?:abs/)?({_ID})", re.IGNORECASE)
_ARXIV_URL = re.compile(rf"arxiv\.org/(?:abs|pdf)/({_ID})", re.IGNORECASE)
_ARXIV_DOI = re.compile(rf"^10\.48550/arxiv\.({_ID})$", re.IGNORECASE)
_CORR_VOLUME = re.compile(rf"^abs/({_ID})$", re.IGNORECASE)
# A journal field that says only "arXiv preprint" (with or without the id) names no venue.
_ARXIV_ONLY = re.compile(rf"^\s*(?:arxiv|corr)(?:\s+preprint)?(?:\s*(?:arxiv)?\s*[:\s]?\s*(?:abs/)?{_ID})?"
                         r"(?:\s*\[[A-Za-z.\-]+\])?\s*$", re.IGNORECASE)
_KEY_OF_RAW = re.compile(r"@\s*\w+\s*[{(]\s*([^,\s{}()=]*)")
_ESCAPED = re.compile(r"\\([_&%#$~])")
_ORCID_PAIR = re.compile(r"([^/;\n]+?)\s*/\s*(\d{4}-\d{4}-\d{4}-\d{3}[\dXx])")
_AND_MACRO = re.compile(r"(\s[aA][nN][dD]\s+)\\")
_CROSSREF_DEPTH = 4
_NAME_FIELDS = ("author",)

log = logging.getLogger(__name__)


def _raw(value: str | None) -> str | None:
    """A value that is not prose (DOI, URL, eprint): braces dropped, ``\\_`` read as ``_``."""
    if value is None:
        return None
    return " ".join(_ESCAPED.sub(r"\1", value).replace("{", "").replace("}", "").split()) or None


def _arxiv_id(fields: dict[str, str]) -> str | None:
    archive = (fields.get("archiveprefix") or fields.get("eprinttype") or "arxiv").strip().lower()
    for name in ("eprint", "arxivid", "arxiv"):
        value = _raw(fields.get(name))
        if value and (archive == "arxiv" or name != "eprint"):
            found = normalise_arxiv_id(value.removeprefix("arXiv:").removeprefix("arxiv:"))
            if found:
                return found
    if (fields.get("journal") or "").strip().lower() in ("corr", "arxiv"):
        m = _CORR_VOLUME.match(_raw(fields.get("volume")) or "")
        if m:
            return normalise_arxiv_id(m.group(1))
    for name in ("journal", "note", "howpublished", "booktitle", "publisher", "number", "eprint"):
        m = _ARXIV_IN_TEXT.search(fields.get(name) or "")
        if m:
            return normalise_arxiv_id(m.group(1))
    for name in ("url", "howpublished", "note"):
        m = _ARXIV_URL.search(fields.get(name) or "")
        if m:
            return normalise_arxiv_id(m.group(1))
    m = _ARXIV_DOI.match(_raw(fields.get("doi")) or "")
    return normalise_arxiv_id(m.group(1)) if m else None


def _authors(value: str, orcids: str | None) -> list[Author]:
    from bibtexparser.middlewares.names import parse_single_name_into_parts, split_multiple_persons_names

    ids = {}
    for name, number in _ORCID_PAIR.findall(orcids or ""):
        family = name.split(",")[0].strip().casefold()
        ids.setdefault(family, number)
    out = []
    # bibtexparser 2.1 drops the backslash of a name that starts with a macro after "and"
    # ("A and \rlap{B}" gives "rlap{B}"); an empty group before it changes nothing in TeX.
    value = _AND_MACRO.sub(r"\1{}\\", value)
    for person in split_multiple_persons_names(value):
        person = person.strip()
        if not person or person.lower() == "others":
            continue
        parts = parse_single_name_into_parts(person, strict=False)
        first, von, last, jr = (" ".join(p) for p in (parts.first, parts.von, parts.last, parts.jr))
        name = " ".join(p for p in (first, von, last, jr) if p)
        if not name:
            continue
        family = " ".join(p for p in (von, last) if p) or None
        out.append(Author(name, first or None, family, orcid=ids.get((last or "").strip().casefold())))
    return out


def _position(key: str, line: int | None) -> str:
    return f"entry {key or '?'} at line {line if line is not None else '?'}"


class BibtexReader(Reader):
    name = "bibtex"
    description = "BibTeX (.bib) entries with title, abstract, year, author, journal, doi, eprint, ..."

    @classmethod
    def sniff(cls, head: str, path: Path) -> bool:
        return bool(re.search(r"^\s*@\s*[A-Za-z]+\s*[{(]", head, re.MULTILINE))

    def read(self, path: Path, problems: Problems) -> Iterator[Record]:
        for fields in self._entries(path, problems):
            record = fields.build(problems)
            if record is not None:
                yield record

    def _entries(self, path: Path, problems: Problems) -> list[RecordFields]:
        from bibtexparser import model
        from bibtexparser.splitter import Splitter

        text = read_text(path, problems)
        logging.getLogger("bibtexparser").setLevel(logging.ERROR)  # broken entries are reported below
        try:
            library = Splitter(text).split()
        except Exception as exc:  # the splitter's own invalid-state errors: say so, without a traceback
            raise InputError(f"{path}: cannot be read as BibTeX ({exc})") from None
        macros = Macros(budget=8 * len(text) + 1_000_000)
        where = str(path)
        entries: list[tuple[str, str, int | None, dict[str, str]]] = []
        for block in library.blocks:
            line = block.start_line + 1 if block.start_line is not None else None
            if isinstance(block, model.DuplicateBlockKeyBlock):
                block = block.ignore_error_block  # a repeated key: read it all the same
            if isinstance(block, model.DuplicateFieldKeyBlock):
                entry = block.ignore_error_block
                for name in sorted(block.duplicate_keys):
                    problems.report(where, _position(entry.key, line), name.lower(), "given twice; the first value is used")
                block = entry
            if isinstance(block, model.String):
                try:
                    macros.define(block.key, block.value)
                except BadValue as exc:
                    problems.report(where, f"@string {block.key} at line {line}", "string", str(exc))
            elif isinstance(block, model.Entry):
                entries.append((block.key, block.entry_type.lower(), line, self._fields(block, macros, problems, where, line)))
            elif isinstance(block, model.ParsingFailedBlock):
                raw = block.raw or ""
                m = _KEY_OF_RAW.match(raw)
                kind = raw[1:].split("{", 1)[0].split("(", 1)[0].strip().lower()
                if kind in ("comment", "preamble"):
                    continue
                reason = getattr(block.error, "abort_reason", None) or str(block.error)
                problems.skip(where, _position(m.group(1) if m else "", line), "syntax", f"cannot be parsed: {reason.strip()}")
        by_key = {key.lower(): fields for key, _type, _line, fields in entries}
        return [self._record(path, key, kind, line, self._with_crossref(fields, by_key, problems, where, _position(key, line)))
                for key, kind, line, fields in entries]

    @staticmethod
    def _fields(entry, macros: Macros, problems: Problems, where: str, line: int | None) -> dict[str, str]:
        fields: dict[str, str] = {}
        for field in entry.fields:
            name = field.key.strip().lower()
            if name in fields or not name:
                continue
            try:
                value, undefined = macros.expand(field.value)
            except BadValue as exc:
                problems.report(where, _position(entry.key, line), name, f"{exc}; field left out")
                continue
            for macro in undefined:
                problems.report(where, _position(entry.key, line), name, f"@string {macro!r} is not defined; kept as written")
            fields[name] = value
        return fields

    @staticmethod
    def _with_crossref(fields: dict[str, str], by_key: dict, problems: Problems, where: str, position: str) -> dict[str, str]:
        seen: set[str] = set()
        current = fields
        for _ in range(_CROSSREF_DEPTH):
            target = (_raw(current.get("crossref")) or "").lower()
            if not target or target in seen:
                break
            seen.add(target)
            parent = by_key.get(target)
            if parent is None:
                problems.report(where, position, "crossref", f"no entry with key {target!r} in this file")
                break
            inherited = {k: v for k, v in parent.items() if k not in fields and k != "crossref"}
            if "title" in parent and "booktitle" not in fields:
                inherited["booktitle"] = parent["title"]
            fields = {**fields, **inherited}
            current = parent
        return fields

    def _record(self, path: Path, key: str, entry_type: str, line: int | None, f: dict[str, str]) -> RecordFields:
        arxiv_id = _arxiv_id(f)
        kind = paper_kind(entry_type, arxiv_id)
        journal = f.get("journal")
        if journal is not None and _ARXIV_ONLY.match(journal):
            journal = None
            if kind is PaperKind.ARTICLE:
                kind = PaperKind.PREPRINT
        # A book's or proceedings' own booktitle is its title, not where it appeared.
        venue = journal if kind in (PaperKind.BOOK, PaperKind.PROCEEDINGS) else journal or f.get("booktitle")
        return RecordFields(
            path=path,
            position=_position(key, line),
            format=self.name,
            title=f.get("title"),
            abstract=f.get("abstract"),
            year=f.get("year") if f.get("year") is not None else f.get("date"),
            categories=[c for c in re.split(r"[\s,]+", _raw(f.get("primaryclass")) or "") if c],
            authors=_authors(f.get("author", ""), f.get("orcid-numbers")),
            arxiv_id=arxiv_id,
            doi=_raw(f.get("doi")),
            kind=kind,
            venue=venue,
            volume=None if arxiv_id and _CORR_VOLUME.match(_raw(f.get("volume")) or "") else f.get("volume"),
            issue=f.get("number"),
            pages=f.get("pages"),
            url=_raw(f.get("url")),
            tex=True,
        )
