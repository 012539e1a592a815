"""``scholarkg enrich GRAPH``: look the papers of a build up on arXiv and rebuild with what is found.

1. ``GRAPH/build.json`` names the inputs, options and curation file of the build.
2. Each paper is looked up by arXiv id when known (its own, or one the curation file pins),
   else by exact title; a paper the curation file pins as "not on arXiv" is left alone.
   A title search counts only a result whose title is the same (ignoring case and
   punctuation) and, when several are, the one sharing an author with the record.
3. What is found goes to the enrichment file (default ``<stem>.enrichment.jsonl`` beside the
   first input), which every later build merges, so rebuilds keep it.
4. The folder is rebuilt from the same inputs, curation file and enrichment file.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import NetworkError, Problem, Problems
from ..graph.iri import normalise_key
from ..model import Record
from .client import ArxivClient
from .overlay import Entry, default_enrichment_path, entry_from_record, load_enrichment, write_enrichment

__all__ = ["EnrichReport", "enrich_graph", "choose"]

log = logging.getLogger(__name__)


@dataclass
class EnrichReport:
    enrichment_file: Path
    found: list[str] = field(default_factory=list)  # titles
    not_found: list[str] = field(default_factory=list)
    ambiguous: list[str] = field(default_factory=list)
    not_cached: list[str] = field(default_factory=list)  # offline and not in the cache
    pinned_off: list[str] = field(default_factory=list)  # the curation file says: not on arXiv
    requests: int = 0
    error: str | None = None

    def lines(self) -> list[str]:
        out = [f"found       {len(self.found)}", f"not found   {len(self.not_found)}"]
        for name, items in (("ambiguous", self.ambiguous), ("not cached", self.not_cached), ("pinned off", self.pinned_off)):
            if items:
                out.append(f"{name:11s} {len(items)}")
        out.append(f"requests    {self.requests}")
        return out


class _Unreported(Problems):
    """Problems of the lookup pass over the inputs: the rebuild that follows reports them."""

    def report(self, path: str, position: str, field: str, message: str) -> None:
        self.items.append(Problem(str(path), str(position), field, message))

    def note(self, path: str, message: str) -> None:
        self.notes.append(f"{path}: {message}")


def _same_person(a: str, b: str) -> bool:
    a_parts, b_parts = normalise_key(a).replace(".", " ").split(), normalise_key(b).replace(".", " ").split()
    if not a_parts or not b_parts:
        return False
    return a_parts == b_parts or (a_parts[-1] == b_parts[-1] and a_parts[0][0] == b_parts[0][0])


def _shares_author(record: Record, found: Record) -> bool:
    return any(_same_person(a.name, b.name) for a in record.authors for b in found.authors)


def choose(record: Record, candidates: list[Record]) -> tuple[Record | None, str]:
    """The arXiv record a title search found for ``record``: (record, "") or (None, why not)."""
    from ..curate.corrections import title_key

    same = [c for c in candidates if c.arxiv_id and title_key(c.title) == title_key(record.title)]
    if not same:
        return None, "not found"
    if record.authors:
        sharing = [c for c in same if _shares_author(record, c)]
        if len(sharing) == 1:
            return sharing[0], ""
        if not sharing:
            ids = ", ".join(c.arxiv_id or "?" for c in same)
            return None, f"ambiguous: same title ({ids}) but no author in common"
        same = sharing
    if len(same) == 1:
        return same[0], ""
    return None, "ambiguous: " + ", ".join(sorted(c.arxiv_id or "?" for c in same))


def enrich_graph(
    graph: str | Path,
    client: ArxivClient,
    *,
    enrichment: str | Path | None = None,
    rebuild: bool = True,
) -> EnrichReport:
    """Enrich the build folder ``graph`` (see the module docstring); raises NetworkError after
    writing what was found when arXiv stops answering."""
    from ..curate.apply import Curator
    from ..curate.file import load_curation
    from ..manifest import read_manifest
    from ..readers import read_records

    manifest = read_manifest(graph)
    path = Path(enrichment) if enrichment else manifest.enrichment or default_enrichment_path(manifest.inputs[0])
    report = EnrichReport(path)
    curation = load_curation(manifest.curation) if manifest.curation and manifest.curation.is_file() else None
    curator = Curator(curation)
    existing = load_enrichment(path) if path.is_file() else None

    records: dict[str, tuple[Record, str | None]] = {}
    for record in read_records(manifest.inputs, _Unreported(), format=manifest.format):
        pins = curator.pins_for(record)
        pinned = next((c.arxiv_id for c in reversed(pins) if c.arxiv_id is not None), None)
        records.setdefault(record.arxiv_id or normalise_key(record.title), (record, pinned))

    entries: dict[int, Entry] = {}
    by_id: dict[str, list[int]] = {}
    by_title: list[int] = []
    ordered = list(records.values())
    for index, (record, pinned) in enumerate(ordered):
        if pinned == "":
            report.pinned_off.append(record.title)
        elif pinned or record.arxiv_id:
            by_id.setdefault(pinned or record.arxiv_id, []).append(index)
        else:
            by_title.append(index)
    try:
        if by_id:
            found = client.by_ids(sorted(by_id))
            for arxiv_id, indices in by_id.items():
                for index in indices:
                    record = ordered[index][0]
                    if found.get(arxiv_id) is not None:
                        entries[index] = entry_from_record(found[arxiv_id], record, "id")
                        report.found.append(record.title)
                    elif arxiv_id in client.missing:
                        report.not_cached.append(record.title)
                    else:
                        report.not_found.append(record.title)
        for index in by_title:
            record = ordered[index][0]
            candidates = client.by_title(record.title)
            if candidates is None:
                report.not_cached.append(record.title)
                continue
            match, why = choose(record, candidates)
            if match is None:
                (report.ambiguous if why.startswith("ambiguous") else report.not_found).append(record.title)
                log.info("%s: %s", record.title[:80], why)
            else:
                entries[index] = entry_from_record(match, record, "title")
                report.found.append(record.title)
    except NetworkError as exc:
        report.error = str(exc)
    finally:
        report.requests = client.requests

    # Keep earlier entries of papers not looked up now (offline misses, an interrupted run).
    if existing is not None:
        for index, (record, pinned) in enumerate(ordered):
            old = existing.lookup(record)
            if index not in entries and old is not None and pinned != "" and (not pinned or old.arxiv_id == pinned):
                entries[index] = old
    if entries or path.is_file():
        write_enrichment(path, list(entries.values()))
        log.info("%s: %d entries", path, len(entries))
    if rebuild:
        from ..pipeline import build, write_outputs

        result = build(
            manifest.inputs,
            format=manifest.format,
            curation=manifest.curation if curation is not None else None,
            enrichment=path if path.is_file() else None,
        )
        write_outputs(result, manifest.folder, html=manifest.html)
    if report.error:
        left = len(ordered) - len(report.found) - len(report.not_found) - len(report.ambiguous) - len(report.pinned_off)
        raise NetworkError(f"{report.error}; {left} paper(s) not looked up (what was found is kept; run enrich again)")
    return report
