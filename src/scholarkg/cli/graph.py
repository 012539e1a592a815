"""Commands that build a graph and write it out: ``build``, ``extract``, ``export``, ``stats``, ``validate``."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from .. import errors
from ..errors import Problems
from .common import (
    echo_summary,
    fail_option,
    format_option,
    graph_or_store,
    phase_progress,
    progress_option,
    store_option,
    strict_option,
)


@click.command()
@click.argument("inputs", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("-o", "--out", type=click.Path(path_type=Path), help="Output folder.")
@click.option("--store", type=click.Path(file_okay=False, path_type=Path), help="Add to this on-disk Oxigraph store instead (incremental; for large inputs).")
@format_option
@strict_option
@fail_option
@click.option("--no-html", is_flag=True, help="Do not write graph.html.")
@click.option("--curation", type=click.Path(dir_okay=False, path_type=Path),
              help="Curation file (default: <stem>.curation.toml or curation.toml beside the first input).")
@click.option("--no-curation", is_flag=True, help="Apply no curation file.")
@click.option("--enrichment", type=click.Path(dir_okay=False, path_type=Path),
              help="arXiv enrichment file (default: <stem>.enrichment.jsonl beside the first input).")
@click.option("--no-enrichment", is_flag=True, help="Merge no enrichment file.")
@progress_option
def build(inputs, out, store, input_format, strict, fail_on_problems, no_html, curation, no_curation, enrichment,
          no_enrichment, progress):
    """Build the knowledge graph of INPUTS into the folder OUT, or into a --store.

    Writes graph.ttl, graph.nt, graph.jsonld, graph.html, extraction.jsonl, summary.json and
    build.json; applies the curation file and merges the enrichment file when there are any.
    With --store, adds the records to a persistent store instead: unchanged records are
    skipped, changed ones replaced, and the same curation and enrichment files are applied,
    so the store holds the same graph as the folder would; it reports what was added,
    updated and unchanged.
    """
    if (out is None) == (store is None):
        raise click.UsageError("give either --out FOLDER or --store DIR")
    from ..curate.file import find_curation
    from ..enrich.overlay import default_enrichment_path

    if no_curation:
        curation = None
    elif curation is None:
        curation = find_curation(inputs)
    if no_enrichment:
        enrichment = None
    elif enrichment is None and default_enrichment_path(inputs[0]).is_file():
        enrichment = default_enrichment_path(inputs[0])
    if store is not None:
        from .store import build_into_store

        return build_into_store(inputs, store, input_format, strict, fail_on_problems, progress,
                                curation=curation, enrichment=enrichment)
    from ..fileio import locked
    from ..pipeline import build as run_build
    from ..pipeline import write_outputs
    bar = phase_progress(progress)
    problems = Problems(strict=strict)
    with locked(out):  # a second build into OUT fails at once instead of racing this one
        try:
            result = run_build(inputs, format=input_format, problems=problems, phases=bar,
                               curation=curation, enrichment=enrichment)
            if not result.report.records:
                raise errors.InputError(
                    f"no usable record in the input ({len(problems.items)} problems, "
                    f"{problems.skipped_records} records skipped); {out} was left as it was"
                )
            write_outputs(result, out, html=not no_html, progress=bar)
        finally:
            bar.done()
    click.echo(f"wrote {out}/")
    echo_summary(result.summary, problems_file=out / "problems.jsonl")
    if fail_on_problems and problems.items:
        sys.exit(errors.EXIT_PROBLEMS)


@click.command()
@click.argument("inputs", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("-o", "--output", required=True, type=click.Path(path_type=Path), help="JSON-lines file to write ('-' for stdout).")
@format_option
@strict_option
@fail_option
def extract(inputs, output, input_format, strict, fail_on_problems):
    """Extract entities, results and links from INPUTS as JSON lines (one paper per line)."""
    from ..extract import extract_many
    from ..extract.jsonl import extraction_record
    from ..fileio import atomic_write
    from ..link import Linker
    from ..identity import merge_records
    from ..readers import read_records

    problems = Problems(strict=strict)
    bar = phase_progress(None)
    pairs = []
    linker = Linker()
    records = merge_records(read_records(inputs, problems, format=input_format), problems)
    for record, extraction in extract_many(records):
        pairs.append((record, extraction))
        linker.add(extraction)
        bar("extracting", len(pairs), None)
    bar.done()
    lines = [json.dumps(extraction_record(r, e, linker), ensure_ascii=False, sort_keys=True) + "\n" for r, e in pairs]
    if str(output) == "-":
        click.echo("".join(lines), nl=False)
    else:
        with atomic_write(output, "w") as fh:
            fh.writelines(lines)
        click.echo(f"wrote {len(lines)} papers to {output} ({len(problems.items)} problems)", err=True)
    if fail_on_problems and problems.items:
        sys.exit(errors.EXIT_PROBLEMS)


@click.command()
@click.argument("graph", required=False, type=click.Path(path_type=Path))
@click.option("--format", "fmt", type=click.Choice(["turtle", "ntriples", "nquads", "trig", "jsonld", "graphml"]), default="turtle", show_default=True)
@click.option("-o", "--output", type=click.Path(path_type=Path), help="File to write (default: stdout).")
@store_option
@progress_option
def export(graph, fmt, output, store, progress):
    """Write GRAPH in another serialisation."""
    from .. import api

    graph = graph_or_store(graph, store)
    from ..store import STORE_EXPORTS, is_store

    if fmt in STORE_EXPORTS and is_store(graph):
        from .store import export_from_store

        return export_from_store(graph, fmt, output, progress)

    data = api.export(api.load(graph), fmt, output)
    if output is None:
        sys.stdout.buffer.write(data)
    else:
        click.echo(f"wrote {output} ({len(data):,} bytes)", err=True)


@click.command()
@click.argument("graph", required=False, type=click.Path(path_type=Path))
@click.option("--json", "as_json", is_flag=True, help="Print the counts as JSON.")
@store_option
def stats(graph, as_json, store):
    """Counts of papers, authors, categories, entities by type, results and triples in GRAPH."""
    from .. import api
    from ..pipeline import summarise
    from ..store import is_store

    graph = graph_or_store(graph, store)
    if is_store(graph):
        from ..store import GraphStore, store_summary

        with GraphStore(graph) as opened:
            summary = store_summary(opened)
    else:
        summary = summarise(api.load(graph))
    if as_json:
        click.echo(json.dumps(summary, indent=2, sort_keys=True))
    else:
        echo_summary(summary)


@click.command()
@click.argument("graph", type=click.Path(path_type=Path))
def validate(graph):
    """Check GRAPH against the SHACL shapes of ontology/shapes.ttl; exit 1 if it does not conform."""
    from .. import api
    from ..graph.validate import validate as run_validate

    report = run_validate(api.load(graph))
    for violation in report.violations:
        click.echo(str(violation))
    click.echo("conforms" if report.conforms else f"{len(report.violations)} violations", err=True)
    if not report.conforms:
        sys.exit(errors.EXIT_PROBLEMS)


