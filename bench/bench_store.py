"""Benchmark of the persistent store: build throughput, query latency, export throughput, memory.

    python bench/bench_store.py                       # everything, writes bench/results/store.{json,md}
    python bench/bench_store.py --sizes 2000 --query-records 1500 --parts build,query   # a quick run

Parts (each run in fresh processes, figures from this one run):

build   end-to-end ``build --store`` throughput (records/s) for each size, single process and
        with Dask on a LocalCluster of ``--workers`` processes, and peak resident memory; with
        the tree's extractor, and with the synthetic gazetteer extractor (the entity, mention
        and result density of real extraction output) for sizes up to ``--synthetic-max``.
query   median latency of every named query on a store of at least one million statements
        (synthetic corpus, gazetteer extractor), Oxigraph vs rdflib's in-memory graph, as a ratio.
export  Turtle and N-Triples of that graph: pyoxigraph's writers vs rdflib's serializers, and
        memory per statement of rdflib's in-memory graph vs pyoxigraph's in-memory store.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import platform
import resource
import signal
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent / "src")]


def _rss_mb() -> float:
    import psutil

    return psutil.Process().memory_info().rss / 2**20


def _peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux


def _child(*args: str, timeout: float | None = None) -> dict:
    """Run ``bench_store.py _child ARGS`` in a fresh process; it prints one JSON object."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(HERE.parent / "src"), str(HERE), os.environ.get("PYTHONPATH", "")]))
    done = subprocess.run([sys.executable, __file__, "_child", *args], capture_output=True, text=True, timeout=timeout, env=env)
    if done.returncode != 0:
        raise RuntimeError(f"child {args[0]} failed:\n{done.stderr[-3000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


# -- children -------------------------------------------------------------------------------------

def child_build(corpus: str, store: str, mode: str, extractor: str, workers: str) -> dict:
    import logging

    logging.getLogger("scholarkg").setLevel(logging.ERROR)
    from scholarkg.store import GraphStore, build_store

    extract = None
    if extractor == "synthetic":
        import synthetic

        extract = synthetic.extract_many
    started = time.perf_counter()
    out: dict = {}
    if mode == "single":
        report = build_store([corpus], store, extractor=extract)
    else:
        from distributed import Client, LocalCluster

        from scholarkg.bulk import DaskMapper

        with LocalCluster(n_workers=int(workers), threads_per_worker=1, processes=True, dashboard_address=None,
                          silence_logs=logging.ERROR) as cluster, Client(cluster) as client:
            out["cluster_start_seconds"] = time.perf_counter() - started
            report = build_store([corpus], store, extractor=extract, mapper=DaskMapper(client, partition_size=500), batch_size=500)
            peaks = client.run(lambda: resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)
            out["worker_peak_mb"] = max(peaks.values())
            out["workers_total_peak_mb"] = sum(peaks.values())
    seconds = time.perf_counter() - started
    with GraphStore(store) as opened:
        triples = opened.count()
    out.update(seconds=seconds, records=report.added + report.updated + report.unchanged, added=report.added,
               triples=triples, peak_mb=_peak_mb(), records_per_second=report.added / seconds)
    return out


def _named():
    from scholarkg.named import named_queries

    return named_queries()


def child_oxigraph_queries(store: str, repeat: str) -> dict:
    import pyoxigraph as ox

    from scholarkg.store import GraphStore, run_store_query

    results = {}
    with GraphStore(store) as opened:
        for name, q in _named().items():
            bindings = q.bindings({})
            substitutions = {ox.Variable(k): ox.Literal(v) for k, v in bindings.items()}
            engine, api, rows = [], [], 0
            for _ in range(int(repeat)):
                t = time.perf_counter()
                rows = sum(1 for _ in opened.ox.query(q.text, substitutions=substitutions, use_default_graph_as_union=True))
                engine.append(time.perf_counter() - t)
                t = time.perf_counter()
                run_store_query(opened, q.text, bindings, hidden=tuple(q.params), timeout=3600)
                api.append(time.perf_counter() - t)
            results[name] = {"rows": rows, "engine_median": statistics.median(engine), "api_median": statistics.median(api),
                             "engine_runs": engine, "api_runs": api}
        triples = opened.count()
        dump = Path(store).parent / "query-graph.nq"
        with open(dump, "wb") as fh:
            opened.ox.dump(fh, ox.RdfFormat.N_QUADS)
    memory = ox.Store()  # the same statements in pyoxigraph's in-memory store: the engine without RocksDB
    memory.load(path=str(dump), format=ox.RdfFormat.N_QUADS)
    for name, q in _named().items():
        substitutions = {ox.Variable(k): ox.Literal(v) for k, v in q.bindings({}).items()}
        runs = []
        for _ in range(int(repeat)):
            t = time.perf_counter()
            sum(1 for _ in memory.query(q.text, substitutions=substitutions, use_default_graph_as_union=True))
            runs.append(time.perf_counter() - t)
        results[name]["memory_median"] = statistics.median(runs)
    return {"triples": triples, "queries": results}


def _rdflib_runs(graph, text, bindings, repeat, conn, long: float = 60.0) -> None:
    from scholarkg.sparql import run_query

    os.setpgrp()  # the query runs in a worker process of its own: stop both together
    for _ in range(repeat):
        t = time.perf_counter()
        result = run_query(graph, text, bindings, timeout=86400)
        conn.send((time.perf_counter() - t, len(result.rows)))
        if time.perf_counter() - t > long:
            break  # one run of a query this slow is measurement enough
    conn.close()


def child_rdflib(ntriples: str, repeat: str, timeout: str, skip_queries: str) -> dict:
    """Parse the graph into rdflib, run every named query (forked, with a time limit), serialise."""
    import multiprocessing

    from rdflib import Graph

    before = _rss_mb()
    t = time.perf_counter()
    graph = Graph()
    graph.parse(ntriples, format="nt")
    out = {"parse_seconds": time.perf_counter() - t, "triples": len(graph)}
    out["rss_mb_per_million"] = (_rss_mb() - before) / len(graph) * 1e6
    out["bytes_per_triple"] = (_rss_mb() - before) * 2**20 / len(graph)
    out["queries"] = {}
    context = multiprocessing.get_context("fork")
    for name, q in ({} if skip_queries == "1" else _named()).items():
        receive, send = context.Pipe(duplex=False)
        process = context.Process(target=_rdflib_runs, args=(graph, q.text, q.bindings({}), int(repeat), send))
        process.start()
        send.close()
        runs, rows, timed_out = [], None, False
        for _ in range(int(repeat)):
            if not receive.poll(float(timeout)):
                timed_out = True
                break
            try:
                seconds, rows = receive.recv()
            except EOFError:
                break
            runs.append(seconds)
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        process.join()
        out["queries"][name] = {"runs": runs, "rows": rows, "timed_out": timed_out,
                                "median": statistics.median(runs) if runs and not timed_out else None}
    out["serialize"] = {}
    for fmt in ("nt", "turtle"):
        t = time.perf_counter()
        data = graph.serialize(format=fmt, encoding="utf-8")
        out["serialize"][fmt] = {"seconds": time.perf_counter() - t, "bytes": len(data)}
    return out


def child_oxigraph_export(store: str, folder: str, repeat: str) -> dict:
    import pyoxigraph as ox

    from scholarkg.store import GraphStore, export_store

    out = {}
    with GraphStore(store) as opened:
        triples = opened.count()
        for fmt in ("ntriples", "turtle"):
            runs = []
            for _ in range(int(repeat)):
                path = Path(folder) / f"export.{fmt}"
                t = time.perf_counter()
                with open(path, "wb") as fh:
                    export_store(opened, fmt, fh)
                runs.append(time.perf_counter() - t)
            out[fmt] = {"median": statistics.median(runs), "runs": runs, "bytes": path.stat().st_size}
    before = _rss_mb()
    memory = ox.Store()
    memory.load(path=str(Path(folder) / "export.ntriples"), format=ox.RdfFormat.N_TRIPLES)
    out["memory_store_bytes_per_triple"] = (_rss_mb() - before) * 2**20 / len(memory)
    for fmt, kind in (("ntriples", ox.RdfFormat.N_TRIPLES), ("turtle", ox.RdfFormat.TURTLE)):
        runs = []
        for _ in range(int(repeat)):
            t = time.perf_counter()
            memory.dump(Path(folder) / f"memory.{fmt}", kind, from_graph=ox.DefaultGraph())
            runs.append(time.perf_counter() - t)
        out[fmt]["memory_median"] = statistics.median(runs)
    out["triples"] = triples
    return out


CHILDREN = {"build": child_build, "oxq": child_oxigraph_queries, "rdflib": child_rdflib, "oxexport": child_oxigraph_export}


# -- driver ---------------------------------------------------------------------------------------

def write_corpus(path: Path, n: int, seed: int) -> Path:
    import synthetic

    if not path.exists():
        tmp = path.with_suffix(".tmp")
        with open(tmp, "w", encoding="utf-8") as fh:
            for record in synthetic.generate(n, seed):
                fh.write(json.dumps(record, ensure_ascii=False) + "\n")
        tmp.rename(path)
    return path


def fresh(path: Path) -> str:
    import shutil

    shutil.rmtree(path, ignore_errors=True)
    return str(path)


def run_build(args, work: Path, log) -> list[dict]:
    rows = []
    for size in args.sizes:
        corpus = write_corpus(work / f"corpus-{size}.jsonl", size, seed=size)
        extractors = ["tree"] + (["synthetic"] if size <= args.synthetic_max else [])
        for extractor in extractors:
            for mode in ("single", "dask"):
                store = fresh(work / f"build-{size}-{extractor}-{mode}.store")
                log(f"build {size:,} records, {extractor} extractor, {mode} ...")
                result = _child("build", str(corpus), store, mode, extractor, str(args.workers))
                result.update(size=size, extractor=extractor, mode=mode, workers=args.workers if mode == "dask" else 1)
                log(f"  {result['records_per_second']:.0f} records/s, {result['seconds']:.1f} s, peak {result['peak_mb']:.0f} MiB, {result['triples']:,} statements")
                rows.append(result)
            single, dask = (work / f"build-{size}-{extractor}-{m}.store" for m in ("single", "dask"))
            rows[-1]["same_graph_as_single"] = _same_quads(single, dask)
    return rows


def _same_quads(a: Path, b: Path) -> bool:
    import hashlib
    import io

    from scholarkg.store import GraphStore, export_store

    digests = []
    for path in (a, b):
        buffer = io.BytesIO()
        with GraphStore(path) as store:
            export_store(store, "nquads", buffer)
        digests.append(hashlib.sha256(buffer.getvalue()).hexdigest())
    return digests[0] == digests[1]


def query_store(args, work: Path, log) -> Path:
    store = work / f"query-{args.query_records}.store"
    if not (store / "scholarkg-store.json").exists() or args.rebuild:
        corpus = write_corpus(work / f"corpus-q{args.query_records}.jsonl", args.query_records, seed=7)
        log(f"building the query graph from {args.query_records:,} records ...")
        _child("build", str(corpus), fresh(store), "single", "synthetic", "1")
    return store


def run_query(args, work: Path, store: Path, log) -> dict:
    log("named queries on Oxigraph ...")
    ox = _child("oxq", str(store), str(args.repeat))
    log(f"  {ox['triples']:,} statements")
    nt = work / "query-graph.nt"
    _child("oxexport", str(store), str(work), "1")
    (work / "export.ntriples").replace(nt)
    log("named queries on rdflib (in memory) ...")
    rd = _child("rdflib", str(nt), str(args.rdflib_repeat), str(args.rdflib_timeout), "0")
    return {"oxigraph": ox, "rdflib": rd}


def run_export(args, work: Path, store: Path, log, rdflib: dict | None) -> dict:
    log("exports ...")
    ox = _child("oxexport", str(store), str(work), str(args.repeat))
    if rdflib is None:  # no query part in this run: rdflib only parses and serialises
        rdflib = _child("rdflib", str(work / "export.ntriples"), "1", "1", "1")
    return {"oxigraph": ox, "rdflib": {k: rdflib[k] for k in ("serialize", "bytes_per_triple", "parse_seconds", "triples")}}


def main(argv: list[str]) -> None:
    if argv and argv[0] == "_child":
        print(json.dumps(CHILDREN[argv[1]](*argv[2:])))
        return
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="10000,100000", help="record counts for build throughput")
    parser.add_argument("--synthetic-max", type=int, default=10000, help="largest size also built with the gazetteer extractor")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--query-records", type=int, default=5500, help="records of the query graph (>= 1M statements)")
    parser.add_argument("--repeat", type=int, default=5, help="runs per Oxigraph measurement (median)")
    parser.add_argument("--rdflib-repeat", type=int, default=3)
    parser.add_argument("--rdflib-timeout", type=float, default=600, help="seconds allowed per rdflib query run")
    parser.add_argument("--parts", default="build,query,export")
    parser.add_argument("--work", type=Path, default=HERE / "out")
    parser.add_argument("--results", type=Path, default=HERE / "results")
    parser.add_argument("--rebuild", action="store_true", help="rebuild the query graph even if present")
    args = parser.parse_args(argv)
    args.sizes = [int(s) for s in args.sizes.split(",") if s]
    parts = set(args.parts.split(","))
    args.work.mkdir(parents=True, exist_ok=True)
    args.results.mkdir(parents=True, exist_ok=True)
    started = time.time()

    def log(message: str) -> None:
        print(f"[{time.time() - started:7.0f}s] {message}", file=sys.stderr, flush=True)

    from scholarkg.extract import EXTRACTOR_VERSION

    results: dict = {"machine": {"python": platform.python_version(), "cpus": os.cpu_count(), "platform": platform.platform()},
                     "tree_extractor": EXTRACTOR_VERSION, "settings": {k: (str(v) if isinstance(v, Path) else v) for k, v in vars(args).items()}}
    def save() -> None:  # after every part, so an interrupted run keeps what it measured
        from report import markdown

        results["seconds"] = time.time() - started
        (args.results / "store.json").write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
        (args.results / "store.md").write_text(markdown(results), encoding="utf-8")
        log(f"wrote {args.results / 'store.md'}")

    if "build" in parts:
        results["build"] = run_build(args, args.work, log)
        save()
    store = query_store(args, args.work, log) if parts & {"query", "export"} else None
    rdflib = None
    if "query" in parts:
        results["query"] = run_query(args, args.work, store, log)
        rdflib = results["query"]["rdflib"]
        save()
    if "export" in parts:
        results["export"] = run_export(args, args.work, store, log, rdflib)
        save()


if __name__ == "__main__":
    main(sys.argv[1:])
