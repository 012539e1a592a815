"""Commands for research use: ``eval``, ``curate``, ``enrich`` and ``profile``. Like the rest of the
CLI, each command only parses arguments and calls the library."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from .. import errors
from ..errors import UsageError
from .common import format_option

_TYPES = ["Benchmark", "Dataset", "Model", "Method", "Task", "Metric"]
_ROLES = ["introduces", "evaluatesOn", "comparesWith", "uses", "mentions"]

_file_option = click.option(
    "-f", "--file", "path", required=True, type=click.Path(dir_okay=False, path_type=Path),
    help="Curation file to append to (created when missing), e.g. examples/maojia-song.curation.toml.",
)
_note_option = click.option("--note", default="", help="Why: kept with the correction and in the graph.")


def _append(path: Path, table: dict) -> None:
    from ..curate.file import append_correction

    correction = append_correction(path, table)
    click.echo(f"{path}: added {correction.id}: {correction.describe}")


def _pairs(values: tuple[str, ...], option: str) -> dict[str, str]:
    out = {}
    for item in values:
        name, sep, value = item.partition("=")
        if not sep or not name.strip():
            raise click.BadParameter(f"expected FIELD=VALUE, got {item!r}", param_hint=option)
        out[name.strip()] = value
    return out


@click.command(name="eval")
@click.argument("gold", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("-o", "--output", type=click.Path(path_type=Path), help="Keep the predictions (extraction JSON lines) here.")
@click.option("--json", "as_json", is_flag=True, help="Print the scores as JSON.")
def evaluate(gold, output, as_json):
    """Run the extractor on a document-level gold file and score it.

    GOLD has one paper per line (id, title, abstract, gold entities by type, introduces,
    results), or is a `.conll` file of tagged sentences (`token offset tag`, TDMSci's TASK,
    DATASET and METRIC tags), each sentence scored as a paper on the types it marks. Prints
    precision, recall and F1 per entity type, typed and untyped, per kind (names and
    concepts), the roles given, `introduces` and results (improvements are counted apart),
    matching names as the shared scorer does.
    """
    from ..extract.evaluate import evaluate as run_evaluate
    from ..extract.evaluate import format_report

    scores = run_evaluate(gold, out_path=output)
    click.echo(json.dumps(scores, indent=2, sort_keys=True) if as_json else format_report(scores))


@click.group()
def curate() -> None:
    """Append corrections to a curation file, list them, check them against a build.

    \b
    Corrections are applied on every build after extraction, so rebuilds keep them.
    Entities are named by label or alias, papers by arXiv id or title.
    Examples:
      scholarkg curate add -f examples/maojia-song.curation.toml "Agents' Last Exam" \\
          "Agents' Last Exam" --type Benchmark --role introduces --alias ALE
      scholarkg curate merge -f examples/maojia-song.curation.toml "BrowseComp ZH" BrowseComp-ZH
      scholarkg curate check examples/maojia-song.txt
    """


@curate.command("merge")
@_file_option
@click.argument("entity")
@click.argument("into")
@_note_option
def curate_merge(path, entity, into, note):
    """Merge ENTITY into INTO (ENTITY's names become aliases of INTO)."""
    _append(path, {"action": "merge", "entity": entity, "into": into, "note": note})


@curate.command("split")
@_file_option
@click.argument("entity")
@click.argument("new")
@click.option("--paper", "papers", multiple=True, required=True, help="A paper (arXiv id or title) where ENTITY is really NEW (repeatable).")
@click.option("--type", "type_", type=click.Choice(_TYPES), help="Type of NEW (default: ENTITY's).")
@_note_option
def curate_split(path, entity, new, papers, type_, note):
    """Split NEW off ENTITY: in the papers given, what was linked to ENTITY is NEW."""
    table = {"action": "split", "entity": entity, "new": new, "papers": list(papers), "note": note}
    if type_:
        table["type"] = type_
    _append(path, table)


@curate.command("rename")
@_file_option
@click.argument("entity")
@click.argument("label")
@_note_option
def curate_rename(path, entity, label, note):
    """Give ENTITY the canonical label LABEL (the old label stays an alias)."""
    _append(path, {"action": "rename", "entity": entity, "label": label, "note": note})


@curate.command("alias")
@_file_option
@click.argument("entity")
@click.argument("alias")
@_note_option
def curate_alias(path, entity, alias, note):
    """Add ALIAS as another name of ENTITY (an entity already called ALIAS is merged in)."""
    _append(path, {"action": "alias", "entity": entity, "alias": alias, "note": note})


@curate.command("retype")
@_file_option
@click.argument("entity")
@click.argument("type_", metavar="TYPE", type=click.Choice(_TYPES))
@_note_option
def curate_retype(path, entity, type_, note):
    """Change the type of ENTITY."""
    _append(path, {"action": "retype", "entity": entity, "type": type_, "note": note})


@curate.command("drop")
@_file_option
@click.argument("entity")
@click.option("--paper", "papers", multiple=True, help="Drop it only from this paper (repeatable; default: everywhere).")
@_note_option
def curate_drop(path, entity, papers, note):
    """Drop a false ENTITY, everywhere or from some papers."""
    table = {"action": "drop", "entity": entity, "note": note}
    if papers:
        table["papers"] = list(papers)
    _append(path, table)


@curate.command("add")
@_file_option
@click.argument("paper")
@click.argument("entity")
@click.option("--type", "type_", required=True, type=click.Choice(_TYPES))
@click.option("--role", type=click.Choice(_ROLES), default="mentions", show_default=True)
@click.option("--alias", "aliases", multiple=True, help="Another name of the entity (repeatable).")
@_note_option
def curate_add(path, paper, entity, type_, role, aliases, note):
    """Link ENTITY to PAPER (arXiv id or title) with a role, creating the entity when needed."""
    table = {"action": "add", "paper": paper, "entity": entity, "type": type_, "role": role, "note": note}
    if aliases:
        table["aliases"] = list(aliases)
    _append(path, table)


@curate.command("result")
@_file_option
@click.argument("paper")
@click.option("--match", "match", multiple=True, metavar="FIELD=VALUE", help="Which extracted result to fix or drop (model, benchmark, metric, value, unit).")
@click.option("--set", "set_", multiple=True, metavar="FIELD=VALUE", help="New values; without --match, a result to add (needs value=).")
@click.option("--drop", is_flag=True, help="Remove the matched result.")
@click.option("--evidence", help="Sentence stating the result (default: found in the abstract).")
@_note_option
def curate_result(path, paper, match, set_, drop, evidence, note):
    """Fix, remove or add a result reported by PAPER.

    \b
    Examples:
      scholarkg curate result -f F.toml "Tongyi DeepResearch Technical Report" \\
          --set model="Tongyi DeepResearch" --set benchmark=BrowseComp --set value=43.4 --set unit=%
      scholarkg curate result -f F.toml 2509.13310 --match value=43.4 --set value=45.3
    """
    table = {"action": "result", "paper": paper, "note": note}
    if match:
        table["match"] = _pairs(match, "--match")
    if set_:
        table["set"] = _pairs(set_, "--set")
    if drop:
        table["drop"] = True
    if evidence:
        table["evidence"] = evidence
    _append(path, table)


@curate.command("paper")
@_file_option
@click.argument("paper")
@click.option("--arxiv-id", help="The paper's arXiv id (enrichment then looks up this one).")
@click.option("--not-on-arxiv", is_flag=True, help="The paper has no arXiv record; enrichment leaves it alone.")
@click.option("--year", type=int)
@click.option("--doi")
@_note_option
def curate_paper(path, paper, arxiv_id, not_on_arxiv, year, doi, note):
    """Pin facts of PAPER that enrichment must never change."""
    if arxiv_id and not_on_arxiv:
        raise UsageError("give --arxiv-id or --not-on-arxiv, not both")
    table = {"action": "paper", "paper": paper, "note": note}
    if arxiv_id or not_on_arxiv:
        table["arxiv_id"] = "" if not_on_arxiv else arxiv_id
    if year is not None:
        table["year"] = year
    if doi:
        table["doi"] = doi
    _append(path, table)


@curate.command("list")
@click.argument("path", type=click.Path(dir_okay=False, path_type=Path))
def curate_list(path):
    """List the corrections in the curation file PATH, in the order they apply."""
    from ..curate.file import load_curation

    for number, c in enumerate(load_curation(path).corrections, start=1):
        note = f"  # {c.note}" if c.note else ""
        click.echo(f"{number:3d}  {c.id}  {c.describe}{note}")


@curate.command("check")
@click.argument("inputs", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("-f", "--file", "path", type=click.Path(dir_okay=False, path_type=Path), help="Curation file (default: the one the build would use).")
@format_option
def curate_check(inputs, path, input_format):
    """Build INPUTS in memory and say what became of each correction.

    Exit code 1 when a correction is stale (matches nothing any more).
    """
    from ..curate.file import find_curation
    from ..enrich.overlay import default_enrichment_path
    from ..errors import Problems
    from ..pipeline import build

    path = path or find_curation(inputs)
    if path is None:
        raise UsageError(f"no curation file found beside {inputs[0]}; pass -f FILE")
    enrichment = default_enrichment_path(inputs[0])
    result = build(inputs, format=input_format, problems=Problems(), curation=path,
                   enrichment=enrichment if enrichment.is_file() else None)
    for status in result.statuses:
        click.echo(str(status))
    stale = sum(1 for s in result.statuses if s.state == "stale")
    click.echo(f"{len(result.statuses)} corrections: {len(result.statuses) - stale} in effect, {stale} stale ({path})")
    if stale:
        sys.exit(errors.EXIT_PROBLEMS)


@click.command()
@click.argument("graph", type=click.Path(path_type=Path))
@click.option("--offline", is_flag=True, help="Use only cached answers; make no request.")
@click.option("--cache", type=click.Path(file_okay=False, path_type=Path), help="Cache folder (default: ~/.cache/scholarkg/arxiv, or $SCHOLARKG_CACHE/arxiv).")
@click.option("--refresh", is_flag=True, help="Ask arXiv again even when an answer is cached.")
@click.option("--enrichment", type=click.Path(dir_okay=False, path_type=Path), help="Enrichment file to write (default: <stem>.enrichment.jsonl beside the first input).")
@click.option("--base-url", default=None, help="arXiv API query endpoint (default: arXiv's export API).")
@click.option("--interval", type=float, default=3.0, show_default=True, help="Seconds between requests (arXiv asks for 3 or more).")
@click.option("--timeout", type=float, default=30.0, show_default=True, help="Seconds each request may take, answer included.")
@click.option("--max-time", type=float, default=3600.0, show_default=True, help="Seconds the whole run may take; what was found by then is kept.")
@click.option("--retries", type=int, default=3, show_default=True, help="Retries after a timeout or 'try later' answer.")
@click.option("--contact", help="E-mail address sent in the User-Agent, as arXiv suggests.")
@click.option("--no-rebuild", is_flag=True, help="Only write the enrichment file.")
def enrich(graph, offline, cache, refresh, enrichment, base_url, interval, timeout, max_time, retries, contact, no_rebuild):
    """Add arXiv ids, all authors, categories, dates, DOI and journal references to GRAPH.

    \b
    GRAPH is a build folder. Papers are looked up by arXiv id where known, else by exact
    title; answers are cached, so --offline repeats a run without the network. What is
    found is kept in the enrichment file, which every later build merges, and GRAPH is
    rebuilt. Facts pinned by the curation file are never changed.
    """
    from ..enrich.client import (
        DEFAULT_BASE_URL,
        DEFAULT_INTERVAL,
        ArxivClient,
        ResponseCache,
        default_cache_dir,
    )
    from ..enrich.run import enrich_graph

    url = base_url or DEFAULT_BASE_URL
    if url == DEFAULT_BASE_URL and interval < DEFAULT_INTERVAL:
        raise UsageError(f"arXiv's API terms ask for at least {DEFAULT_INTERVAL:g} s between requests")
    if interval < 0 or timeout <= 0 or max_time <= 0 or retries < 0:
        raise UsageError("--interval must be >= 0, --timeout and --max-time > 0, --retries >= 0")
    client = ArxivClient(
        url, interval=interval, timeout=timeout, run_timeout=max_time, retries=retries, contact=contact,
        cache=ResponseCache(cache or default_cache_dir()), offline=offline, refresh=refresh,
    )
    report = enrich_graph(graph, client, enrichment=enrichment, rebuild=not no_rebuild)
    for line in report.lines():
        click.echo(line)
    written = f"wrote {report.enrichment_file}" if report.enrichment_file.is_file() else "nothing found to keep"
    click.echo(written + ("" if no_rebuild else f"; rebuilt {graph}/"))


@click.command()
@click.argument("graph", type=click.Path(path_type=Path))
@click.argument("author")
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path), default="-", show_default=True, help="File to write ('-' for stdout).")
@click.option("--format", "fmt", type=click.Choice(["html", "json"]), default="html", show_default=True)
@click.option("--explorer", help="Link target of the explorer page (default: graph.html of GRAPH, relative to the output).")
def profile(graph, author, output, fmt, explorer):
    """Write a research profile of AUTHOR in GRAPH: an offline HTML page or JSON.

    \b
    Papers per year, categories over time, benchmarks and methods introduced, models and
    benchmarks used most with their first and latest use, collaborators and results.
    Example: scholarkg profile graphs/maojia-song "Maojia Song" -o graphs/maojia-song/profile.html
    """
    from ..profile import author_profile, profile_html, profile_json

    facts = author_profile(graph, author)
    if fmt == "json":
        text = profile_json(facts)
    else:
        text = profile_html(facts, explorer=_explorer_link(graph, output, explorer))
    if str(output) == "-":
        click.echo(text, nl=False)
    else:
        from ..fileio import write_text

        write_text(output, text)
        click.echo(f"wrote {output}", err=True)


def _explorer_link(graph: Path, output: Path, explorer: str | None) -> str | None:
    import os

    if explorer is not None:
        return explorer or None
    target = Path(graph) / "graph.html"
    if not target.is_file():
        return None
    base = Path(output).parent if str(output) != "-" else Path.cwd()
    return Path(os.path.relpath(target.resolve(), base.resolve())).as_posix()
