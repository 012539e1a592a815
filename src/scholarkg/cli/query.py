"""Commands that read a graph: ``query`` and ``render``."""

from __future__ import annotations

from pathlib import Path

import click

from .common import graph_or_store, parse_params, store_option


@click.command()
@click.argument("graph", required=False)  # a path, or the query itself after --store
@click.argument("sparql", required=False)
@click.option("-f", "--file", "query_file", type=click.Path(exists=True, dir_okay=False, path_type=Path), help="Read the query from a .rq file.")
@click.option("-n", "--named", help="Run a named query (see --list).")
@click.option("-p", "--param", "params", multiple=True, metavar="NAME=VALUE", help="Value of a named query's parameter (repeatable).")
@click.option("--format", "fmt", type=click.Choice(["table", "csv", "tsv", "json"]), default="table", show_default=True)
@click.option("--list", "list_queries", is_flag=True, help="List the named queries and exit.")
@click.option("--allow-remote", is_flag=True, help="Allow SERVICE, LOAD and FROM (they read files or the network).")
@store_option
@click.option("--timeout", type=click.FloatRange(min=0, min_open=True), help="Stop the query after this many seconds [default: 60].")
@click.option("--max-rows", type=click.IntRange(min=1), help="Keep at most this many rows [default: 1,000,000].")
@click.option("--limit", type=click.IntRange(min=0), help="Show this many rows (a page; named queries in their order).")
@click.option("--offset", type=click.IntRange(min=0), default=0, help="Skip this many rows first (the next page).")
@click.option("--memory-budget", "memory_mb", type=click.FloatRange(min=0), metavar="MB",
              help="Answer from an in-memory copy of a store that fits in this many MB, else from disk "
                   "[default: $SCHOLARKG_MEMORY_BUDGET_MB or 256; 0: always from disk].")
def query(graph, sparql, query_file, named, params, fmt, list_queries, allow_remote, store, timeout, max_rows,
          limit, offset, memory_mb):
    """Run a SPARQL query on GRAPH (a build folder, a store folder or an RDF file).

    \b
    Examples:
      scholarkg query --list
      scholarkg query graphs/maojia-song --named benchmarks-introduced
      scholarkg query graphs/maojia-song --named papers-by-year -p author="Maojia Song"
      scholarkg query graphs/maojia-song 'SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }'
      scholarkg query --store papers.store --named evidence --limit 100 --offset 100
    """
    from ..named import get_named_query, named_queries

    if list_queries:
        for q in named_queries().values():
            extra = f"  [params: {', '.join(q.params)}]" if q.params else ""
            click.echo(f"{q.name:24s} {q.description}{extra}")
        return
    if store is not None and graph is not None and sparql is None:
        graph, sparql = None, graph  # `query --store DIR 'SELECT ...'`: the text as typed
    if graph is None and store is None:
        raise click.UsageError("GRAPH is required (a build folder, a store folder or an RDF file)")
    graph = graph_or_store(Path(graph) if graph is not None else None, store)
    given = [x for x in (sparql, query_file, named) if x]
    if len(given) != 1:
        raise click.UsageError("give exactly one of: a QUERY text, -f FILE.rq, or --named NAME")
    from .. import api

    bindings = parse_params(params)
    options = dict(allow_remote=allow_remote, timeout=timeout, max_rows=max_rows, limit=limit, offset=offset,
                   memory_budget=None if memory_mb is None else int(memory_mb * (1 << 20)))
    if named:
        result = api.query(graph, named=named, **options, **bindings)
        q = get_named_query(named)
        click.echo(f"# {q.title}: {q.description}", err=True)
    else:
        text = query_file.read_text(encoding="utf-8") if query_file else sparql
        result = api.query(graph, text, **options, **bindings)
    click.echo(result.format(fmt), nl=False)
    if result.more:
        click.echo(f"# more rows follow: --offset {offset + (limit or 0)}", err=True)


@click.command()
@click.argument("graph", required=False)  # a path, or the query itself after --store
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
@store_option
def render(graph, output, title, focus, depth, types, min_degree, query_file, max_nodes, store):
    """Write an interactive HTML explorer of GRAPH (a build folder, store or RDF file) that works offline.

    \b
    Examples:
      scholarkg render graphs/maojia-song -o explorer.html
      scholarkg render graphs/maojia-song -o ale.html --focus "Agents' Last Exam" --depth 2
      scholarkg render graphs/maojia-song -o entities.html --types Benchmark,Model,Method --min-degree 2
      scholarkg render graphs/maojia-song -o part.html --query benchmarks.rq
    """
    from .. import api

    graph = graph_or_store(graph, store)
    query_text = query_file.read_text(encoding="utf-8") if query_file else None
    api.render(
        graph, output, title=title, focus=focus, depth=depth,
        types=types.split(",") if types else None, min_degree=min_degree, query=query_text, max_nodes=max_nodes,
    )
    click.echo(f"wrote {output}", err=True)


