"""Command line: a thin layer over the library (``scholarkg --help``).

Library errors become one line on stderr and the exit code of their class
(see :mod:`scholarkg.errors`); a traceback is shown only with ``--debug``.
"""

from __future__ import annotations

import json
import logging
import sys
import time
from pathlib import Path

import click

from . import errors
from .errors import Problems, ScholarKGError

log = logging.getLogger("scholarkg")


class _Handler(logging.Handler):
    def emit(self, record: logging.LogRecord) -> None:
        prefix = {"WARNING": "warning: ", "ERROR": "error: "}.get(record.levelname, "")
        click.echo(prefix + record.getMessage(), err=True)


class Progress:
    """Shows how many records are done on stderr, at most a few times a second."""

    def __init__(self, label: str, enabled: bool):
        self.label = label
        self.enabled = enabled
        self.start = self.last = time.monotonic()
        self.count = 0

    def __call__(self, count: int) -> None:
        self.count = count
        now = time.monotonic()
        if self.enabled and now - self.last >= 0.5:
            self.last = now
            rate = count / max(now - self.start, 1e-9)
            click.echo(f"\r{self.label}: {count:,} records ({rate:,.0f}/s)", err=True, nl=False)

    def done(self) -> None:
        if self.enabled and self.last != self.start:
            click.echo("", err=True)


class _Group(click.Group):
    """Runs a command and turns errors into one-line messages and exit codes."""

    def invoke(self, ctx: click.Context):
        debug = ctx.params.get("debug", False)
        try:
            return super().invoke(ctx)
        except ScholarKGError as exc:
            if debug:
                raise
            click.echo(f"error: {exc}", err=True)
            ctx.exit(exc.exit_code)
        except KeyboardInterrupt:
            click.echo("\ninterrupted", err=True)
            ctx.exit(130)
        except (click.exceptions.Exit, click.ClickException, click.exceptions.Abort):
            raise
        except BrokenPipeError:
            ctx.exit(0)
        except Exception as exc:  # a bug: say so plainly, keep the traceback for --debug
            if debug:
                raise
            click.echo(
                f"internal error: {type(exc).__name__}: {exc} (run with --debug for the traceback "
                "and please report it)",
                err=True,
            )
            ctx.exit(errors.EXIT_INTERNAL)


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
@click.option("-v", "--verbose", is_flag=True, help="Say more about what is happening.")
@click.option("-q", "--quiet", is_flag=True, help="Only errors.")
@click.option("--debug", is_flag=True, help="Show tracebacks for errors.")
@click.version_option(package_name="scholarkg")
def main(verbose: bool, quiet: bool, debug: bool) -> None:
    """Build, query, explore and export knowledge graphs of scholarly records.

    \b
    Exit codes: 0 done; 1 done but records had problems (--fail-on-problems);
    2 bad command line; 3 unreadable input, no usable record, or a bad record with --strict;
    4 bad, refused or timed-out query; 5 output or store not writable, or locked by another build;
    6 network service failed; 70 internal error (a bug: please report it).
    """
    root = logging.getLogger("scholarkg")
    root.handlers[:] = [_Handler()]
    root.setLevel(logging.ERROR if quiet else logging.DEBUG if debug else logging.INFO if verbose else logging.WARNING)
    root.propagate = False


def _echo_summary(summary: dict) -> None:
    entities = ", ".join(f"{k} {v}" for k, v in summary["entities"].items())
    click.echo(f"papers      {summary['papers']}")
    click.echo(f"authors     {summary['authors']}")
    click.echo(f"categories  {summary['categories']} ({', '.join(summary['category_labels'])})")
    click.echo(f"entities    {summary['entities_total']} ({entities})")
    click.echo(f"results     {summary['results']}")
    click.echo(f"links       {summary['code_repositories']} code, {summary['project_pages']} project pages")
    click.echo(f"triples     {summary['triples']}")
    if "problems" in summary:
        click.echo(f"problems    {summary['problems']} ({summary['skipped_records']} records skipped)")
    for note in summary.get("notes", []):
        click.echo(f"note        {note}")


_format_option = click.option(
    "--format", "input_format", default=None,
    help="Input format (default: detected from content): profile, jsonl, arxiv-snapshot, arxiv-atom, bibtex.",
)
_strict_option = click.option("--strict", is_flag=True, help="Stop at the first bad record.")
_fail_option = click.option(
    "--fail-on-problems", is_flag=True, help="Exit with code 1 when any record had a problem."
)
_store_option = click.option(
    "--store", type=click.Path(file_okay=False, path_type=Path),
    help="An on-disk Oxigraph store folder (made by build --store or bulk) instead of GRAPH.",
)


def _graph_or_store(graph: Path | None, store: Path | None) -> Path:
    if (graph is None) == (store is None):
        raise click.UsageError("give either GRAPH or --store DIR")
    if store is not None:
        from .store.disk import check_store

        check_store(store)
    return graph if store is None else store


@main.command()
@click.argument("inputs", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("-o", "--out", type=click.Path(path_type=Path), help="Output folder.")
@click.option("--store", type=click.Path(file_okay=False, path_type=Path), help="Add to this on-disk Oxigraph store instead (incremental; for large inputs).")
@_format_option
@_strict_option
@_fail_option
@click.option("--no-html", is_flag=True, help="Do not write graph.html.")
@click.option("--curation", type=click.Path(dir_okay=False, path_type=Path),
              help="Curation file (default: <stem>.curation.toml or curation.toml beside the first input).")
@click.option("--no-curation", is_flag=True, help="Apply no curation file.")
@click.option("--enrichment", type=click.Path(dir_okay=False, path_type=Path),
              help="arXiv enrichment file (default: <stem>.enrichment.jsonl beside the first input).")
@click.option("--no-enrichment", is_flag=True, help="Merge no enrichment file.")
def build(inputs, out, store, input_format, strict, fail_on_problems, no_html, curation, no_curation, enrichment,
          no_enrichment):
    """Build the knowledge graph of INPUTS into the folder OUT, or into a --store.

    Writes graph.ttl, graph.nt, graph.jsonld, graph.html, extraction.jsonl, summary.json and
    build.json; applies the curation file and merges the enrichment file when there are any.
    With --store, adds the records to a persistent store: unchanged records are skipped,
    changed ones replaced; it reports what was added, updated and unchanged (curation and
    enrichment files apply to folder builds only).
    """
    if (out is None) == (store is None):
        raise click.UsageError("give either --out FOLDER or --store DIR")
    if store is not None:
        from .cli_store import build_into_store

        return build_into_store(inputs, store, input_format, strict, fail_on_problems)
    from .curate.file import find_curation
    from .enrich.overlay import default_enrichment_path
    from .fileio import locked
    from .pipeline import build as run_build
    from .pipeline import write_outputs

    if not no_curation and curation is None:
        curation = find_curation(inputs)
    if not no_enrichment and enrichment is None and default_enrichment_path(inputs[0]).is_file():
        enrichment = default_enrichment_path(inputs[0])
    progress = Progress("building", sys.stderr.isatty())
    problems = Problems(strict=strict)
    with locked(out):  # a second build into OUT fails at once instead of racing this one
        result = run_build(
            inputs, format=input_format, problems=problems, progress=progress,
            curation=None if no_curation else curation, enrichment=None if no_enrichment else enrichment,
        )
        progress.done()
        if not result.records:
            raise errors.InputError(
                f"no usable record in the input ({len(problems.items)} problems, "
                f"{problems.skipped_records} records skipped); {out} was left as it was"
            )
        write_outputs(result, out, html=not no_html)
    click.echo(f"wrote {out}/")
    _echo_summary(result.summary)
    if fail_on_problems and problems.items:
        sys.exit(errors.EXIT_PROBLEMS)


@main.command()
@click.argument("inputs", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("-o", "--output", required=True, type=click.Path(path_type=Path), help="JSON-lines file to write ('-' for stdout).")
@_format_option
@_strict_option
@_fail_option
def extract(inputs, output, input_format, strict, fail_on_problems):
    """Extract entities, results and links from INPUTS as JSON lines (one paper per line)."""
    from .extract import extract_many
    from .extract.jsonl import extraction_record
    from .fileio import atomic_write
    from .link import Linker
    from .pipeline import unique_records
    from .readers import read_records

    problems = Problems(strict=strict)
    progress = Progress("extracting", sys.stderr.isatty())
    pairs = []
    linker = Linker()
    records = unique_records(read_records(inputs, problems, format=input_format), problems)
    for record, extraction in extract_many(records):
        pairs.append((record, extraction))
        linker.add(extraction)
        progress(len(pairs))
    progress.done()
    lines = [json.dumps(extraction_record(r, e, linker), ensure_ascii=False, sort_keys=True) + "\n" for r, e in pairs]
    if str(output) == "-":
        click.echo("".join(lines), nl=False)
    else:
        with atomic_write(output, "w") as fh:
            fh.writelines(lines)
        click.echo(f"wrote {len(lines)} papers to {output} ({len(problems.items)} problems)", err=True)
    if fail_on_problems and problems.items:
        sys.exit(errors.EXIT_PROBLEMS)


def _parse_params(values: tuple[str, ...]) -> dict[str, str]:
    params = {}
    for item in values:
        name, sep, value = item.partition("=")
        if not sep or not name:
            raise click.BadParameter(f"expected NAME=VALUE, got {item!r}", param_hint="--param")
        params[name.strip()] = value
    return params


@main.command()
@click.argument("graph", required=False, type=click.Path(path_type=Path))
@click.argument("sparql", required=False)
@click.option("-f", "--file", "query_file", type=click.Path(exists=True, dir_okay=False, path_type=Path), help="Read the query from a .rq file.")
@click.option("-n", "--named", help="Run a named query (see --list).")
@click.option("-p", "--param", "params", multiple=True, metavar="NAME=VALUE", help="Value of a named query's parameter (repeatable).")
@click.option("--format", "fmt", type=click.Choice(["table", "csv", "tsv", "json"]), default="table", show_default=True)
@click.option("--list", "list_queries", is_flag=True, help="List the named queries and exit.")
@click.option("--allow-remote", is_flag=True, help="Allow SERVICE, LOAD and FROM (they read files or the network).")
@_store_option
@click.option("--timeout", type=click.FloatRange(min=0, min_open=True), help="Stop the query after this many seconds [default: 60].")
@click.option("--max-rows", type=click.IntRange(min=1), help="Keep at most this many rows [default: 1,000,000].")
def query(graph, sparql, query_file, named, params, fmt, list_queries, allow_remote, store, timeout, max_rows):
    """Run a SPARQL query on GRAPH (a build folder, a store folder or an RDF file).

    \b
    Examples:
      scholarkg query --list
      scholarkg query graphs/maojia-song --named benchmarks-introduced
      scholarkg query graphs/maojia-song --named papers-by-year -p author="Maojia Song"
      scholarkg query graphs/maojia-song 'SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }'
    """
    from .sparql import get_named_query, named_queries

    if list_queries:
        for q in named_queries().values():
            extra = f"  [params: {', '.join(q.params)}]" if q.params else ""
            click.echo(f"{q.name:24s} {q.description}{extra}")
        return
    if store is not None and graph is not None and sparql is None:
        graph, sparql = None, str(graph)  # `query --store DIR 'SELECT ...'`
    if graph is None and store is None:
        raise click.UsageError("GRAPH is required (a build folder, a store folder or an RDF file)")
    graph = _graph_or_store(graph, store)
    given = [x for x in (sparql, query_file, named) if x]
    if len(given) != 1:
        raise click.UsageError("give exactly one of: a QUERY text, -f FILE.rq, or --named NAME")
    from . import api

    bindings = _parse_params(params)
    if named:
        result = api.query(graph, named=named, allow_remote=allow_remote, timeout=timeout, max_rows=max_rows, **bindings)
        q = get_named_query(named)
        click.echo(f"# {q.title}: {q.description}", err=True)
    else:
        text = query_file.read_text(encoding="utf-8") if query_file else sparql
        result = api.query(graph, text, allow_remote=allow_remote, timeout=timeout, max_rows=max_rows, **bindings)
    click.echo(result.format(fmt), nl=False)


@main.command()
@click.argument("graph", required=False, type=click.Path(path_type=Path))
@click.option("-o", "--output", required=True, type=click.Path(path_type=Path), help="HTML file to write.")
@click.option("--title", default="scholarkg explorer", show_default=True, help="Page title and heading.")
@click.option("--focus", metavar="NAME", help="Draw the neighbourhood of one author, paper or entity (name, alias, title, arXiv id or IRI).")
@click.option("--depth", type=click.IntRange(0, 10), default=1, show_default=True, help="Links to follow from --focus.")
@click.option("--types", metavar="TYPE,...", help="Keep only these node types, e.g. Benchmark,Model,Paper.")
@click.option("--min-degree", type=click.IntRange(0), default=0, show_default=True, help="Drop nodes with fewer links.")
@click.option("--query", "query_file", type=click.Path(exists=True, dir_okay=False, path_type=Path), metavar="FILE.rq",
              help="Draw the subgraph a SPARQL CONSTRUCT (or DESCRIBE) query returns.")
@click.option("--max-nodes", type=click.IntRange(0), default=2000, show_default=True,
              help="Node budget: above it only the most connected part is drawn (0: no limit).")
@_store_option
def render(graph, output, title, focus, depth, types, min_degree, query_file, max_nodes, store):
    """Write an interactive HTML explorer of GRAPH (a build folder, store or RDF file) that works offline.

    \b
    Examples:
      scholarkg render graphs/maojia-song -o explorer.html
      scholarkg render graphs/maojia-song -o ale.html --focus "Agents' Last Exam" --depth 2
      scholarkg render graphs/maojia-song -o entities.html --types Benchmark,Model,Method --min-degree 2
      scholarkg render graphs/maojia-song -o part.html --query benchmarks.rq
    """
    from . import api

    graph = _graph_or_store(graph, store)
    query_text = query_file.read_text(encoding="utf-8") if query_file else None
    api.render(
        api.load(graph), output, title=title, focus=focus, depth=depth,
        types=types.split(",") if types else None, min_degree=min_degree, query=query_text, max_nodes=max_nodes,
    )
    click.echo(f"wrote {output}", err=True)


@main.command()
@click.argument("graph", required=False, type=click.Path(path_type=Path))
@click.option("--format", "fmt", type=click.Choice(["turtle", "ntriples", "nquads", "trig", "jsonld", "graphml"]), default="turtle", show_default=True)
@click.option("-o", "--output", type=click.Path(path_type=Path), help="File to write (default: stdout).")
@_store_option
def export(graph, fmt, output, store):
    """Write GRAPH in another serialisation."""
    from . import api

    graph = _graph_or_store(graph, store)
    from .store import STORE_EXPORTS, is_store

    if fmt in STORE_EXPORTS and is_store(graph):
        from .cli_store import export_from_store

        return export_from_store(graph, fmt, output)

    data = api.export(api.load(graph), fmt, output)
    if output is None:
        sys.stdout.buffer.write(data)
    else:
        click.echo(f"wrote {output} ({len(data):,} bytes)", err=True)


@main.command()
@click.argument("graph", required=False, type=click.Path(path_type=Path))
@click.option("--json", "as_json", is_flag=True, help="Print the counts as JSON.")
@_store_option
def stats(graph, as_json, store):
    """Counts of papers, authors, categories, entities by type, results and triples in GRAPH."""
    from . import api
    from .pipeline import summarise
    from .store import is_store

    graph = _graph_or_store(graph, store)
    if is_store(graph):
        from .store import GraphStore, store_summary

        with GraphStore(graph) as opened:
            summary = store_summary(opened)
    else:
        summary = summarise(api.load(graph))
    if as_json:
        click.echo(json.dumps(summary, indent=2, sort_keys=True))
    else:
        _echo_summary(summary)


@main.command(name="eval")
@click.argument("gold", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("-o", "--output", type=click.Path(path_type=Path), help="Keep the predictions (extraction JSON lines) here.")
@click.option("--json", "as_json", is_flag=True, help="Print the scores as JSON.")
def evaluate(gold, output, as_json):
    """Run the extractor on a document-level gold file and score it.

    GOLD has one paper per line (id, title, abstract, gold entities by type, introduces,
    results). Prints precision, recall and F1 per entity type, typed and untyped, for
    `introduces` roles and for results, matching names as the shared scorer does.
    """
    from .extract.evaluate import evaluate as run_evaluate
    from .extract.evaluate import format_report

    scores = run_evaluate(gold, out_path=output)
    click.echo(json.dumps(scores, indent=2, sort_keys=True) if as_json else format_report(scores))


@main.command()
@click.argument("graph", type=click.Path(path_type=Path))
def validate(graph):
    """Check GRAPH against the SHACL shapes of ontology/shapes.ttl; exit 1 if it does not conform."""
    from . import api
    from .graph.validate import validate as run_validate

    report = run_validate(api.load(graph))
    for violation in report.violations:
        click.echo(str(violation))
    click.echo("conforms" if report.conforms else f"{len(report.violations)} violations", err=True)
    if not report.conforms:
        sys.exit(errors.EXIT_PROBLEMS)


from . import cli_research  # noqa: E402,F401  (registers curate, enrich and profile)
from . import cli_store  # noqa: E402,F401  (registers serve, push and bulk)

if __name__ == "__main__":  # pragma: no cover
    from scholarkg.cli import main as registered  # the group cli_store added its commands to

    registered()
