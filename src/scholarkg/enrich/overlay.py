"""The enrichment file: what arXiv says about each paper, merged into records on every build.

``scholarkg enrich`` writes it (default ``<stem>.enrichment.jsonl`` beside the first input,
next to the curation file) and every build merges it as records are read, so a rebuild keeps
the enrichment without asking arXiv again. One JSON object per line, sorted::

    {"match": {"arxiv_id": null, "title": "Tongyi DeepResearch Technical Report"},
     "by": "title", "arxiv_id": "2510.24701", "title": "Tongyi DeepResearch Technical Report",
     "authors": ["…", "Maojia Song", "…"], "categories": ["cs.CL", "cs.AI"],
     "primary_category": "cs.CL", "published": "2025-10-28", "updated": "2025-11-04",
     "doi": null, "journal_ref": null}

``match`` is how the entry finds its record (the record's own arXiv id, else its title,
compared ignoring case and punctuation). Merging fills in the arXiv id, DOI, journal
reference and dates, puts arXiv's author list first (keeping any other authors the record
had) and arXiv's categories with the primary one first. Title and abstract are never changed,
so extraction offsets and curation keys stay valid; facts pinned by the curation file win.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, replace
from pathlib import Path

from ..errors import InputError, Problems
from ..model import Author, Record
from ..curate.corrections import arxiv_id_of, title_key

__all__ = ["Entry", "Enrichment", "load_enrichment", "write_enrichment", "default_enrichment_path", "entry_from_record"]


@dataclass(frozen=True)
class Entry:
    match_title: str
    match_arxiv_id: str | None
    by: str  # "id" or "title"
    arxiv_id: str
    title: str
    authors: tuple[str, ...] = ()
    categories: tuple[str, ...] = ()
    primary_category: str | None = None
    published: str | None = None
    updated: str | None = None
    doi: str | None = None
    journal_ref: str | None = None

    def to_json(self) -> dict:
        data = asdict(self)
        data["match"] = {"title": data.pop("match_title"), "arxiv_id": data.pop("match_arxiv_id")}
        data["authors"], data["categories"] = list(self.authors), list(self.categories)
        return data

    def sort_key(self) -> tuple[str, str]:
        return (title_key(self.match_title), self.match_arxiv_id or "")


def entry_from_record(found: Record, record: Record, by: str) -> Entry:
    """The entry for ``record`` from the arXiv record ``found``."""
    return Entry(
        match_title=record.title,
        match_arxiv_id=record.arxiv_id,
        by=by,
        arxiv_id=found.arxiv_id or "",
        title=found.title,
        authors=tuple(a.name for a in found.authors),
        categories=found.categories,
        primary_category=found.primary_category,
        published=found.published,
        updated=found.updated,
        doi=found.doi,
        journal_ref=found.journal_ref,
    )


def default_enrichment_path(first_input: str | Path) -> Path:
    path = Path(first_input)
    return path.with_name(f"{path.stem}.enrichment.jsonl")


class Enrichment:
    def __init__(self, path: Path, entries: list[Entry]) -> None:
        self.path = path
        self.entries = sorted(entries, key=Entry.sort_key)
        self._by_id = {e.match_arxiv_id: e for e in self.entries if e.match_arxiv_id}
        self._by_title = {title_key(e.match_title): e for e in self.entries if not e.match_arxiv_id}

    def lookup(self, record: Record) -> Entry | None:
        if record.arxiv_id:
            return self._by_id.get(record.arxiv_id)
        return self._by_title.get(title_key(record.title))

    def apply(self, record: Record, pinned_id: str | None, problems: Problems) -> Record:
        """``record`` with the arXiv facts of its entry (``pinned_id``: the curation file's arXiv id, "" for none)."""
        entry = self.lookup(record)
        if entry is None:
            return record
        if pinned_id is not None and pinned_id != entry.arxiv_id:
            pin = f"arXiv:{pinned_id}" if pinned_id else "no arXiv id"
            problems.note(
                str(self.path),
                f"{record.title[:80]!r}: entry names arXiv:{entry.arxiv_id} but the curation file pins {pin} "
                "(entry not used; run `scholarkg enrich` again)",
            )
            return record
        return merge_entry(record, entry)


def merge_entry(record: Record, entry: Entry) -> Record:
    from ..graph.iri import normalise_key
    from ..readers.base import parse_year
    from ..taxonomy import Taxonomy

    taxonomy = Taxonomy.load()
    names = {normalise_key(n) for n in entry.authors}
    authors = [Author(n) for n in entry.authors] + [a for a in record.authors if normalise_key(a.name) not in names]
    codes: list[str] = []
    primary = taxonomy.lookup(entry.primary_category) if entry.primary_category else None
    for code in ([primary.code] if primary else []) + list(entry.categories) + list(record.categories):
        cat = taxonomy.lookup(code)
        if cat is not None and cat.code not in codes:
            codes.append(cat.code)
    return replace(
        record,
        arxiv_id=entry.arxiv_id,
        authors=tuple(authors),
        categories=tuple(codes),
        primary_category=primary.code if primary else record.primary_category,
        published=entry.published or record.published,
        updated=entry.updated or record.updated,
        doi=record.doi or entry.doi,
        journal_ref=record.journal_ref or entry.journal_ref,
        year=record.year if record.year is not None else parse_year(entry.published or ""),
    )


def _text(path: Path, line: int, data: dict, name: str, *, required: bool = False) -> str | None:
    value = data.get(name)
    if value is None and not required:
        return None
    if not isinstance(value, str) or not value.strip():
        raise InputError(f"{path}:{line} [{name}]: expected {'a non-empty string' if required else 'a string or null'}")
    return value


def load_enrichment(path: str | Path) -> Enrichment:
    """Read an enrichment file; a bad line raises InputError naming file, line and field."""
    path = Path(path)
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except FileNotFoundError:
        raise InputError(f"{path}: no such enrichment file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"{path}: cannot read ({exc})") from None
    entries = []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            data = json.loads(line)
        except ValueError as exc:
            raise InputError(f"{path}:{number}: not JSON ({exc})") from None
        if not isinstance(data, dict) or not isinstance(data.get("match"), dict):
            raise InputError(f"{path}:{number} [match]: expected an object with title and arxiv_id")
        match = data["match"]
        arxiv_id = _text(path, number, data, "arxiv_id", required=True)
        if arxiv_id_of(arxiv_id) != arxiv_id:
            raise InputError(f"{path}:{number} [arxiv_id]: not an arXiv id: {arxiv_id[:40]!r}")
        lists = {}
        for name in ("authors", "categories"):
            value = data.get(name, [])
            if not isinstance(value, list) or not all(isinstance(v, str) and v.strip() for v in value):
                raise InputError(f"{path}:{number} [{name}]: expected a list of strings")
            lists[name] = tuple(value)
        by = data.get("by")
        if by not in ("id", "title"):
            raise InputError(f"{path}:{number} [by]: expected \"id\" or \"title\"")
        entries.append(Entry(
            match_title=_text(path, number, match, "title", required=True),
            match_arxiv_id=_text(path, number, match, "arxiv_id"),
            by=by,
            arxiv_id=arxiv_id,
            title=_text(path, number, data, "title") or "",
            authors=lists["authors"],
            categories=lists["categories"],
            **{k: _text(path, number, data, k) for k in ("primary_category", "published", "updated", "doi", "journal_ref")},
        ))
    return Enrichment(path, entries)


def write_enrichment(path: str | Path, entries: list[Entry]) -> None:
    from ..fileio import write_text

    ordered = sorted(entries, key=Entry.sort_key)
    text = "".join(json.dumps(e.to_json(), ensure_ascii=False, sort_keys=True) + "\n" for e in ordered)
    write_text(path, text)
