"""The main job: input files -> records -> extraction -> linked entities -> RDF graph -> files.

::

    readers.read_records   file -> Record              (problems reported, good records kept)
    extract.extract_many   Record -> Extraction        (spaCy pipeline, streamed)
    link.Linker            Extraction -> Entity        (one entity per real thing across papers)
    graph.builder          Record + Entity -> triples  (IRIs minted in graph.iri)
    export / render        graph -> Turtle, JSON-LD, HTML, summary
"""

from __future__ import annotations

import json
import logging
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

from rdflib import Graph
from rdflib.namespace import DCTERMS, RDF, SKOS

from .errors import Problems
from .graph import iri
from .graph.bibliographic import entity_scheme_triples
from .graph.builder import add_all, entity_triples, new_graph, record_triples
from .graph.cooccurrence import cooccurrence_triples, paper_entity_keys
from .graph.vocab import SKG
from .identity import merge_records, unique_records
from .model import Entity, EntityType, Extraction, Record

__all__ = ["Build", "build", "unique_records", "merge_records", "described_keys", "summarise", "write_outputs",
           "OUTPUT_FILES"]

log = logging.getLogger(__name__)

OUTPUT_FILES = ("graph.ttl", "graph.jsonld", "graph.nt", "graph.html", "extraction.jsonl", "summary.json", "problems.jsonl")
# write_outputs also writes build.json (scholarkg.manifest): how the folder was built, with
# paths relative to the folder, so it is left out of the graph outputs above.


@dataclass
class Build:
    """Everything one build produced."""

    graph: Graph
    records: list[Record]
    extractions: list[Extraction]
    entities: list[Entity]
    problems: Problems
    linker: object = None
    inputs: list[str] = field(default_factory=list)
    format: str | None = None
    curation: str | Path | None = None  # the curation file applied, if any
    enrichment: str | Path | None = None  # the enrichment file merged, if any
    statuses: list = field(default_factory=list)  # what became of each correction

    @property
    def summary(self) -> dict:
        return summarise(self.graph, self.problems)


def build(
    inputs: Iterable[str | Path],
    *,
    format: str | None = None,
    strict: bool = False,
    problems: Problems | None = None,
    nlp=None,
    progress: Callable[[int], None] | None = None,
    curation: str | Path | None = None,
    enrichment: str | Path | None = None,
) -> Build:
    """Build the knowledge graph of the records in ``inputs`` (files), in memory.

    Bad records are reported to ``problems`` and skipped; ``strict=True`` makes the first
    one raise :class:`~scholarkg.errors.RecordError`. ``curation`` names a curation file
    whose corrections are applied after extraction (:mod:`scholarkg.curate`); ``enrichment``
    an arXiv enrichment file merged into the records as they are read (:mod:`scholarkg.enrich`).
    """
    from .extract import extract_many
    from .link import Linker
    from .readers import read_records

    problems = problems if problems is not None else Problems(strict=strict)
    paths = [str(p) for p in inputs]
    curator = _curator(curation, enrichment)
    records: list[Record] = []
    extractions: list[Extraction] = []
    linker = Linker()
    stream = read_records(paths, problems, format=format)
    if curator is not None:
        stream = curator.prepare(stream, problems)
    for record, extraction in extract_many(merge_records(stream, problems), nlp=nlp):
        records.append(record)
        extractions.append(extraction)
        linker.add(extraction)
        if progress is not None:
            progress(len(records))

    outcome = curator.apply(records, extractions, linker, problems) if curator is not None else None
    if outcome is not None:
        extractions, linker = outcome.extractions, outcome.linker
    graph = new_graph()
    for index, (record, extraction) in enumerate(zip(records, extractions)):
        hook = outcome.provenance(index) if outcome is not None else None
        add_all(graph, record_triples(record, extraction, linker.resolve, hook))
    if outcome is not None:
        add_all(graph, outcome.link_triples())
    entities = linker.entities()
    used = set(graph.objects(None, SKG.mentionOf)) | {
        o for p in (SKG.model, SKG.benchmark, SKG.metric, SKG.baseline) for o in graph.objects(None, p)
    }
    by_key = {e.key: e for e in entities}
    keep = described_keys(by_key, {e.key for e in entities if iri.entity(e.key) in used})
    for entity in entities:
        if entity.key in keep:
            add_all(graph, entity_triples(entity, known=keep))
    if keep:
        add_all(graph, entity_scheme_triples())
    if outcome is not None:
        add_all(graph, list(outcome.curation_triples(graph)))
    add_all(graph, cooccurrence_triples(paper_entity_keys(e, linker.resolve) for e in extractions))
    log.info("built %d records into %d triples", len(records), len(graph))
    result = Build(graph, records, extractions, [by_key[k] for k in sorted(keep)], problems, linker, paths)
    result.format, result.curation, result.enrichment = format, curation, enrichment
    result.statuses = outcome.statuses if outcome is not None else []
    return result


def described_keys(by_key: dict[str, Entity], used: set[str]) -> set[str]:
    """Keys of the entities a graph describes: those used, with their families and base methods."""
    keep = set(used)
    queue = [by_key[k] for k in used if k in by_key]
    while queue:
        e = queue.pop()
        for ref in (e.parent, e.derived_from):
            if ref and ref not in keep and ref in by_key:
                keep.add(ref)
                queue.append(by_key[ref])
    return keep


def _curator(curation, enrichment):
    """What applies the curation and enrichment files of a build, or None when there are neither."""
    if curation is None and enrichment is None:
        return None
    from .curate.apply import Curator
    from .curate.file import load_curation
    from .enrich.overlay import load_enrichment

    return Curator(
        load_curation(curation) if curation is not None else None,
        load_enrichment(enrichment) if enrichment is not None else None,
    )


def summarise(graph: Graph, problems: Problems | None = None) -> dict:
    """Counts shown after a build and by ``scholarkg stats``."""
    by_type: Counter[str] = Counter()
    for t in EntityType:
        by_type[t.value] = sum(1 for _ in graph.subjects(RDF.type, SKG[t.value]))
    papers = set(graph.subjects(RDF.type, SKG.Paper))
    summary = {
        "papers": len(papers),
        "authors": sum(1 for _ in graph.subjects(RDF.type, SKG.Author)),
        "categories": len({o for o in graph.objects(None, DCTERMS.subject)}),
        "entities": dict(by_type),
        "entities_total": sum(by_type.values()),
        "results": sum(1 for _ in graph.subjects(RDF.type, SKG.Result)),
        "improvements": sum(1 for _ in graph.subjects(RDF.type, SKG.Improvement)),
        "code_repositories": sum(1 for _ in graph.subjects(RDF.type, SKG.CodeRepository)),
        "project_pages": sum(1 for _ in graph.subjects(RDF.type, SKG.ProjectPage)),
        "mentions": sum(1 for _ in graph.subjects(RDF.type, SKG.Mention)),
        "triples": len(graph),
        "category_labels": sorted(
            str(graph.value(c, SKOS.notation)) for c in set(graph.objects(None, DCTERMS.subject))
        ),
    }
    if problems is not None:
        summary["problems"] = len(problems.items)
        summary["skipped_records"] = problems.skipped_records
        summary["notes"] = problems.summary_notes()
        summary["problems_file"] = "problems.jsonl"
    return summary


def write_outputs(result: Build, out_dir: str | Path, *, html: bool = True) -> dict[str, Path]:
    """Write the build's files into ``out_dir`` all at once (old or new set, never a mix)."""
    from .serialize import serialize
    from .extract.jsonl import extraction_record
    from .fileio import replace_directory

    files: dict[str, bytes] = {
        "graph.ttl": serialize(result.graph, "turtle"),
        "graph.nt": serialize(result.graph, "ntriples"),
        "graph.jsonld": serialize(result.graph, "jsonld"),
    }
    lines = [
        json.dumps(extraction_record(r, e, result.linker), ensure_ascii=False, sort_keys=True)
        for r, e in zip(result.records, result.extractions)
    ]
    files["extraction.jsonl"] = ("\n".join(lines) + "\n").encode("utf-8") if lines else b""
    if html:
        from .explorer import render_html

        files["graph.html"] = render_html(result.graph, title="scholarkg explorer").encode("utf-8")
    summary = summarise(result.graph, result.problems)
    summary["notes"] = [_relative_note(n) for n in summary.get("notes", [])]
    files["summary.json"] = (json.dumps(summary, indent=2, sort_keys=True) + "\n").encode("utf-8")
    files["problems.jsonl"] = result.problems.jsonl(file_name=lambda path: Path(path).name)
    from .manifest import manifest_bytes

    files["build.json"] = manifest_bytes(result, out_dir, html=html)
    replace_directory(out_dir, files)
    return {name: Path(out_dir) / name for name in files}


def _relative_note(note: str) -> str:
    """Notes name input files; keep only the file name so outputs do not depend on the cwd."""
    path, sep, rest = note.partition(": ")
    return f"{Path(path).name}{sep}{rest}" if sep else note
