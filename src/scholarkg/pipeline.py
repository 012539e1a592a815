"""The main job: input files -> records -> extraction -> linked entities -> RDF graph -> files.

::

    readers.read_records   file -> Record              (problems reported, good records kept)
    extract.extract_many   Record -> Extraction        (spaCy pipeline, streamed)
    link.Linker            Extraction -> Entity        (one entity per real thing across papers)
    curate.Curator         corrections and enrichment  (a curation file, an enrichment file)
    graph.builder          Record + Entity -> triples  (IRIs minted in graph.iri)
    write_outputs          graph -> Turtle, N-Triples, JSON-LD, HTML, summary

A folder build runs the stages of :mod:`scholarkg.store.build` into an in-memory Oxigraph
store (:class:`scholarkg.store.memory.MemoryStore`); ``build --store`` runs the same stages into
an on-disk store. The two differ only in where the statements go, so the same inputs give the
same graph either way.
"""

from __future__ import annotations

import copy
import json
import logging
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from functools import cached_property
from pathlib import Path

from .errors import Problems
from .graph.vocab import SKG
from .identity import merge_records, unique_records
from .model import Entity, EntityType, Extraction, Record

__all__ = ["Build", "build", "unique_records", "merge_records", "described_keys", "summarise", "write_outputs",
           "OUTPUT_FILES"]

log = logging.getLogger(__name__)

OUTPUT_FILES = ("graph.ttl", "graph.jsonld", "graph.nt", "graph.html", "extraction.jsonl", "summary.json", "problems.jsonl")
# write_outputs also writes build.json (scholarkg.manifest): how the folder was built, with
# paths relative to the folder, so it is left out of the graph outputs above.


class Build:
    """Everything one build produced: the statements in an in-memory Oxigraph store
    (``store.ox``), the records and extractions in its scratch manifest, and the problems.

    ``graph`` is an rdflib copy of the statements, made on first use (for the Python API and
    SHACL); :meth:`statements` gives them in snapshot order as pyoxigraph triples.
    """

    def __init__(self, store, report, inputs: list[str], format: str | None):
        self.store = store
        self.report = report
        self.problems: Problems = report.problems
        self.linker = report.linker
        self.statuses = report.statuses
        self.inputs = inputs
        self.format = format
        self.curation = report.curation
        self.enrichment = report.enrichment

    @cached_property
    def records(self) -> list[Record]:
        from .store.manifest import unpack

        return [unpack(r) for (r,) in self.store.manifest.rows("SELECT record FROM records ORDER BY seq")]

    @cached_property
    def extractions(self) -> list[Extraction]:
        """The extractions as the graph has them (corrected, when a curation file applied)."""
        if self.report.outcome is not None:
            return list(self.report.outcome.extractions)
        from .store.manifest import unpack

        return [unpack(e) for (e,) in self.store.manifest.rows("SELECT extraction FROM records ORDER BY seq")]

    def records_and_extractions(self) -> Iterator[tuple[Record, Extraction]]:
        """Each record with its extraction as the graph has it, in input order, read one at a
        time from the manifest (a large build does not hold them all)."""
        from .store.manifest import unpack

        rows = self.store.manifest.rows("SELECT record, extraction FROM records ORDER BY seq")
        if self.report.outcome is not None:  # corrected extractions are in memory already
            return zip((unpack(r) for r, _ in rows), self.report.outcome.extractions)
        return ((unpack(r), unpack(e)) for r, e in rows)

    @cached_property
    def entities(self) -> list[Entity]:
        """The entities the graph describes, by key."""
        keys = [k for (k,) in self.store.manifest.rows("SELECT key FROM entities ORDER BY key")]
        by_key = {e.key: e for e in self.linker.entities()}
        return [by_key[k] for k in keys if k in by_key]

    @cached_property
    def graph(self):
        """The statements as an rdflib graph."""
        from .graph.builder import new_graph
        from .graph.terms import to_rdflib

        graph = new_graph()
        for quad in self.store.ox:
            graph.add((to_rdflib(quad.subject), to_rdflib(quad.predicate), to_rdflib(quad.object)))
        return graph

    def ntriples_path(self) -> Path:
        """The sorted N-Triples snapshot of the build (written once, in its scratch folder)."""
        path = self.store.path / "graph.nt"
        if not path.exists():
            from .store.snapshot import write_ntriples

            with open(path, "wb") as fh:
                write_ntriples(self.store.manifest, fh)
        return path

    def statements(self) -> Iterator:
        """Every statement once, in snapshot order (graph by graph, sorted), as pyoxigraph triples."""
        from .store.snapshot import sorted_statements

        return sorted_statements(self.ntriples_path())

    @cached_property
    def _counts(self) -> dict:
        from .store.read import store_summary

        return store_summary(self.store)

    @property
    def summary(self) -> dict:
        """The build's counts (:func:`summarise`) and problems: a new dict each time, from counts
        made once (each count reads the whole graph: on a build past its memory budget, a
        second or more per ten million statements)."""
        return with_problems(copy.deepcopy(self._counts), self.problems)

    def close(self) -> None:
        self.store.close()


def build(
    inputs: Iterable[str | Path],
    *,
    format: str | None = None,
    strict: bool = False,
    problems: Problems | None = None,
    nlp=None,
    progress: Callable[[int], None] | None = None,
    phases: Callable[[str, int, int | None], None] | None = None,
    curation: str | Path | None = None,
    enrichment: str | Path | None = None,
    extractor=None,
    memory_budget: int | None = None,
) -> Build:
    """Build the knowledge graph of the records in ``inputs`` (files), in memory.

    Bad records are reported to ``problems`` and skipped; ``strict=True`` makes the first
    one raise :class:`~scholarkg.errors.RecordError`. ``curation`` names a curation file
    whose corrections are applied after extraction (:mod:`scholarkg.curate`); ``enrichment``
    an arXiv enrichment file merged into the records as they are read (:mod:`scholarkg.enrich`).
    ``extractor`` replaces :func:`scholarkg.extract.extract_many` (same interface).
    ``progress`` is called with the number of records extracted so far; ``phases`` with each
    stage's name, what it has done and its total when known (``("writing", 500, 2800)``), as
    a store build reports them.
    The statements are held in memory up to ``memory_budget`` bytes (default
    ``$SCHOLARKG_BUILD_MEMORY_MB`` or 512 MB) and in a temporary database on disk past it
    (:class:`scholarkg.store.memory.MemoryStore`).
    """
    from .store.build import run_stages
    from .store.memory import MemoryStore

    problems = problems if problems is not None else Problems(strict=strict)
    paths = [str(p) for p in inputs]
    if extractor is None and nlp is not None:
        from .extract import extract_many

        def extractor(records):
            return extract_many(records, nlp=nlp)

    def stage_progress(phase: str, done: int, total: int | None) -> None:
        if progress is not None and phase == "extracting":
            progress(done)
        if phases is not None:
            phases(phase, done, total)

    target = MemoryStore(memory_budget)
    try:
        report = run_stages(target, paths, format=format, problems=problems, extractor=extractor,
                            progress=stage_progress, curation=curation, enrichment=enrichment)
    except BaseException:
        target.close()
        raise
    result = Build(target, report, paths, format)
    result.curation, result.enrichment = curation, enrichment
    if log.isEnabledFor(logging.INFO):  # the count reads every statement
        log.info("built %d records into %d triples", report.added, target.count())
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


def with_problems(summary: dict, problems: Problems | None) -> dict:
    if problems is not None:
        summary["problems"] = len(problems.items)
        summary["skipped_records"] = problems.skipped_records
        summary["notes"] = problems.summary_notes()
        summary["problems_file"] = "problems.jsonl"
    return summary


def summarise(graph, problems: Problems | None = None) -> dict:
    """Counts shown after a build and by ``scholarkg stats``, of an rdflib graph."""
    from rdflib.namespace import DCTERMS, RDF, SKOS

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
    return with_problems(summary, problems)


def write_outputs(result: Build, out_dir: str | Path, *, html: bool = True,
                  progress: Callable[[str, int, int | None], None] | None = None) -> dict[str, Path]:
    """Write the build's files into ``out_dir`` all at once (old or new set, never a mix).
    ``progress`` is called as each file is begun: ``("files", files done, files in all)``."""
    from .extract.jsonl import extraction_record
    from .fileio import replace_directory
    from .store.snapshot import copy_file, write_jsonld, write_turtle

    nt = result.ntriples_path()
    files: dict = {
        "graph.ttl": lambda fh: write_turtle(nt, fh),
        "graph.nt": lambda fh: copy_file(nt, fh),
        "graph.jsonld": lambda fh: write_jsonld(nt, fh),
    }

    def extraction_lines(fh) -> None:
        for r, e in result.records_and_extractions():
            line = json.dumps(extraction_record(r, e, result.linker), ensure_ascii=False, sort_keys=True)
            fh.write((line + "\n").encode("utf-8"))

    files["extraction.jsonl"] = extraction_lines
    if html:
        from .explorer import render_html

        files["graph.html"] = lambda fh: fh.write(render_html(result.store.ox, title="scholarkg explorer").encode("utf-8"))
    summary = result.summary
    summary["notes"] = [_relative_note(n) for n in summary.get("notes", [])]
    files["summary.json"] = (json.dumps(summary, indent=2, sort_keys=True) + "\n").encode("utf-8")
    files["problems.jsonl"] = result.problems.jsonl(file_name=lambda path: Path(path).name)
    from .manifest import manifest_bytes

    files["build.json"] = manifest_bytes(result, out_dir, html=html)
    if progress is not None:
        files = _reporting(files, progress)
    replace_directory(out_dir, files)
    return {name: Path(out_dir) / name for name in files}


def _reporting(files: dict, progress: Callable[[str, int, int | None], None]) -> dict:
    """``files`` (see :func:`scholarkg.fileio.replace_directory`), each telling ``progress``
    when it is begun, and the last when it is done."""
    total = len(files)

    def writer(n: int, data):
        def write(fh) -> None:
            progress("files", n, total)
            if callable(data):
                data(fh)
            else:
                fh.write(data)
            if n + 1 == total:
                progress("files", total, total)
        return write

    return {name: writer(n, data) for n, (name, data) in enumerate(files.items())}


def _relative_note(note: str) -> str:
    """Notes name input files; keep only the file name so outputs do not depend on the cwd."""
    path, sep, rest = note.partition(": ")
    return f"{Path(path).name}{sep}{rest}" if sep else note
