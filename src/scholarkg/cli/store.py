"""Commands for persistent stores: ``serve``, ``push`` and ``bulk``, and the ``--store`` paths of
``build`` and ``export``."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import click

from .. import errors
from ..errors import Problems
from .common import (
    echo_store_report,
    fail_option,
    format_option,
    phase_progress,
    progress_option,
    strict_option,
)


def build_into_store(inputs, store: Path, input_format, strict: bool, fail_on_problems: bool, progress=None, *,
                     curation=None, enrichment=None) -> None:
    """``scholarkg build INPUTS --store DIR``."""
    from ..store import build_store

    problems = Problems(strict=strict)
    bar = phase_progress(progress)
    try:
        report = build_store(inputs, store, format=input_format, problems=problems, progress=bar,
                             curation=curation, enrichment=enrichment)
    finally:
        bar.done()
    _report(report, store)
    if fail_on_problems and problems.items:
        sys.exit(errors.EXIT_PROBLEMS)


def _report(report, store: Path) -> None:
    """Keep the build's problems beside its statements (``STORE/problems.jsonl``), and show the summary."""
    from ..fileio import write_bytes

    write_bytes(store / "problems.jsonl", report.problems.jsonl())
    echo_store_report(report, store)


def export_from_store(store: Path, fmt: str, output: Path | None, progress: bool | None = None) -> None:
    """``scholarkg export --store DIR``: streamed by Oxigraph's writers, to a file or stdout."""
    from ..fileio import atomic_write
    from ..store import GraphStore, export_store
    from .common import phase_progress

    bar = phase_progress(progress)
    with GraphStore(store) as opened:
        try:
            if output is None:
                export_store(opened, fmt, sys.stdout.buffer, bar)
                sys.stdout.buffer.flush()
                return
            with atomic_write(output, "wb") as fh:
                export_store(opened, fmt, fh, bar)
                size = fh.tell()
        finally:
            bar.done()
    click.echo(f"wrote {output} ({size:,} bytes)", err=True)


@click.command()
@click.argument("store", type=click.Path(file_okay=False, path_type=Path))
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option("--port", default=7878, show_default=True, type=click.IntRange(0, 65535), help="Port to listen on (0: any free port).")
@click.option("--timeout", default=30, show_default=True, type=click.IntRange(min=1), help="Seconds a query may run before it is cancelled.")
@click.option("--allow-update", is_flag=True, help="Accept SPARQL updates (refused by default: the endpoint is read-only).")
@click.option("--allow-remote", is_flag=True, help="Allow SERVICE, LOAD and FROM, and dataset parameters.")
@click.option("--max-result-mb", default=512, show_default=True, type=click.IntRange(min=1), help="Largest answer sent.")
@click.option("--in-memory", is_flag=True, help="Answer from an in-memory copy: faster queries, about 0.3 KB of memory per statement.")
@click.option("--engines", type=click.IntRange(1, 64), help="Query engine processes (default: the number of CPUs, 2 to 8).")
@click.option("--threads", default=16, show_default=True, type=click.IntRange(1, 1024), help="Connections served at once.")
@click.option("--backlog", default=64, show_default=True, type=click.IntRange(1, 65536), help="Connections waiting for a thread; more are answered 503.")
@click.option("--memory-budget", "memory_mb", type=click.FloatRange(min=0), metavar="MB",
              help="Answer from an in-memory copy when the store fits in this many megabytes (default: $SCHOLARKG_MEMORY_BUDGET_MB, else disk).")
@click.option("--no-app", is_flag=True, help="Serve the SPARQL endpoint only, without the browser app at /app/.")
def serve(store, host, port, timeout, allow_update, allow_remote, max_result_mb, in_memory, engines, threads, backlog, memory_mb,
          no_app):
    """Serve STORE as a SPARQL 1.1 Protocol endpoint at http://HOST:PORT/query, and a browser
    app at http://HOST:PORT/app/ (search, neighbourhoods, panels and a query workbench).

    \b
    Results as JSON, XML, CSV or TSV and graphs as Turtle, N-Triples, RDF/XML or JSON-LD, by the
    Accept header. Queries run in separate engine processes, each stopped at --timeout; when
    every thread is busy and the queue is full, clients get 503 with Retry-After. Ctrl-C stops.
    Example:
      scholarkg serve papers.store --port 7878
      curl -H 'Accept: text/csv' --data-urlencode 'query=SELECT * WHERE { ?s ?p ?o } LIMIT 5' http://127.0.0.1:7878/query
    """
    import signal

    from ..serve import Endpoint

    signal.signal(signal.SIGTERM, lambda signum, frame: sys.exit(0))  # stop cleanly when terminated
    endpoint = Endpoint(store, host=host, port=port, timeout=timeout, allow_update=allow_update,
                        allow_remote=allow_remote, max_bytes=max_result_mb << 20, in_memory=in_memory,
                        engines=engines, threads=threads, backlog=backlog,
                        memory_budget=None if memory_mb is None else int(memory_mb * (1 << 20)))
    if not no_app:
        from ..app import install

        install(endpoint)
    endpoint.start()
    mode = {"read-write": "read-write", "in-memory": "read-only, in-memory copy"}.get(endpoint.source.mode, "read-only")
    click.echo(f"SPARQL endpoint at {endpoint.url} ({mode}, {endpoint.engine.size} engines, queries stop after "
               f"{timeout} s); Ctrl-C to stop", err=True)
    if not no_app:
        click.echo(f"explorer and workbench at http://{endpoint.host}:{endpoint.port}/app/", err=True)
    try:
        endpoint.wait()
    finally:
        endpoint.stop()


@click.command()
@click.argument("store", type=click.Path(file_okay=False, path_type=Path))
@click.option("--endpoint", required=True, help="Graph Store Protocol URL, e.g. http://host:7878/store (Oxigraph) or http://host:3030/DATASET/data (Fuseki).")
@click.option("--graph", "target_graph", help="Put everything in this named graph (default: the server's default graph).")
@click.option("--named-graphs", is_flag=True, help="Keep one named graph per record, each replaced on the server.")
@click.option("--replace", is_flag=True, help="Replace what the target graph holds (default: add to it).")
@click.option("--user", help="User for HTTP basic authentication; the password is read from $SCHOLARKG_PASSWORD.")
@click.option("--batch", default=100_000, show_default=True, type=click.IntRange(min=1), help="Statements per request.")
@click.option("--timeout", default=300, show_default=True, type=click.IntRange(min=1), help="Seconds to wait for each request.")
@progress_option
def push(store, endpoint, target_graph, named_graphs, replace, user, batch, timeout, progress):
    """Upload STORE to a SPARQL server over the SPARQL 1.1 Graph Store HTTP Protocol.

    \b
    Works with Oxigraph server, Fuseki, Virtuoso and GraphDB. Pushing again is harmless.
    Example:
      scholarkg push papers.store --endpoint http://127.0.0.1:7878/store --replace
    """
    from ..push import push_store

    bar = phase_progress(progress)
    try:
        report = push_store(store, endpoint, graph=target_graph, named_graphs=named_graphs, replace=replace, user=user,
                            password=os.environ.get("SCHOLARKG_PASSWORD"), batch=batch, timeout=timeout, progress=bar)
    finally:
        bar.done()
    click.echo(f"pushed {report.statements:,} statements in {report.requests:,} requests ({report.graphs:,} graphs) to {endpoint}")


@click.command()
@click.argument("inputs", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("--store", required=True, type=click.Path(file_okay=False, path_type=Path), help="Store folder to build into (created if missing).")
@click.option("--scheduler", help="Address of a running Dask scheduler, e.g. tcp://10.0.0.5:8786 (default: a local cluster).")
@click.option("--workers", default=2, show_default=True, type=click.IntRange(min=1), help="Worker processes of the local cluster.")
@click.option("--partition-size", default=500, show_default=True, type=click.IntRange(min=1), help="Records per task.")
@format_option
@strict_option
@fail_option
@progress_option
def bulk(inputs, store, scheduler, workers, partition_size, input_format, strict, fail_on_problems, progress):
    """Build INPUTS into a store with Dask: extraction and N-Quads emission run on workers.

    \b
    Same graph as `build --store`, and as incremental. Without --scheduler a local cluster of
    --workers processes is started for the run.
    Example:
      scholarkg bulk arxiv-snapshot.jsonl --store arxiv.store --scheduler tcp://10.0.0.5:8786
    """
    from ..bulk import bulk_build

    problems = Problems(strict=strict)
    bar = phase_progress(progress)
    try:
        report = bulk_build(inputs, store, scheduler=scheduler, workers=workers, partition_size=partition_size,
                            format=input_format, problems=problems, progress=bar)
    finally:
        bar.done()
    _report(report, store)
    if fail_on_problems and problems.items:
        sys.exit(errors.EXIT_PROBLEMS)
