"""The speed targets of a build and its queries, measured with the project's own extractor.

    python bench/bench_targets.py                    # 5,000 records, writes bench/results/targets.{json,md}
    python bench/bench_targets.py --records 1000     # a quicker run

Every figure comes from this one run, each measurement in a fresh process, on the same
synthetic corpus (``bench/synthetic.py``: abstracts with the name, mention and result density of
real papers) read and extracted by the project's real extractor:

- ``extract`` alone (read + extract, what ``scholarkg extract`` does minus writing), ``build
  --store`` and ``build --out`` (every output file, the explorer page included), in CPU-seconds
  (user + system of the process, so that other work on a shared machine does not count), median
  of ``--repeat`` runs, and each build's ratio to extraction alone; peak resident memory; the
  part of each build's CPU-seconds spent outside its main thread (scholarkg starts no thread in
  a build: those are Oxigraph's bulk loader and RocksDB's background work);
- Oxigraph alone bulk-loading the statements of a store build (on disk, in the build's batch
  slices, and in memory): the floor under each build's ratio that no change to scholarkg's own
  code removes;
- every named query (default parameters) on that store: on disk, from the in-memory copy
  (:func:`scholarkg.store.open_for_query`) and on rdflib's in-memory graph of the same
  statements (``--rdflib-timeout`` per run; slower runs are reported as more than it), median of
  ``--repeat`` runs (rdflib: ``--rdflib-repeat``); beside each store figure, Oxigraph alone: the
  text and bindings the query sends (:func:`scholarkg.named.prepare_named`), evaluated with
  the whole answer written by pyoxigraph as SPARQL TSV text in memory (the form scholarkg reads
  it in), the floor under that answer for any Python caller of the engine;
- Turtle and N-Triples export from the store (statements per second), and ``render`` of a view
  of ``--view-nodes`` nodes from the store.

The targets checked are those of the project's speed goals (see the report's table).

``--peak-only`` runs just the two builds, once each, and reports their peak resident memory
(``make bench-peak``: 100,000 records, against the 2 GiB goal), in ``bench/results/peak.md``;
a build whose memory passes ``--rss-cap-mb`` is stopped there and reported as more than it.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent / "src")]


def _cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def _peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux


def _child(*args: str, timeout: float | None = None, rss_cap_mb: float | None = None) -> dict:
    """Run ``bench_targets.py _child ARGS`` in a fresh process; it prints one JSON object.

    With ``rss_cap_mb`` the child is stopped once its resident memory passes the cap (so that
    a build far over its goal does not take the machine with it); the result then says so."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(HERE.parent / "src"), str(HERE), os.environ.get("PYTHONPATH", "")]))
    started = _cpu_children()
    with subprocess.Popen([sys.executable, __file__, "_child", *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          text=True, env=env) as child:
        if rss_cap_mb is not None:
            while child.poll() is None:
                if _rss_mb(child.pid) > rss_cap_mb:
                    child.kill()
                    child.wait()
                    return {"stopped_at_mb": rss_cap_mb, "cpu": _cpu_children() - started}
                time.sleep(0.5)
        out, err = child.communicate(timeout=timeout)
    if child.returncode != 0:
        raise RuntimeError(f"child {args[0]} failed:\n{err[-3000:]}")
    return json.loads(out.strip().splitlines()[-1])


def _cpu_children() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _rss_mb(pid: int) -> float:
    try:
        with open(f"/proc/{pid}/status", encoding="ascii") as fh:
            for line in fh:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


# -- children ---------------------------------------------------------------------------------

def child_extract(corpus: str) -> dict:
    from scholarkg.errors import Problems
    from scholarkg.extract import extract_many
    from scholarkg.readers import read_records

    import scholarkg.extract  # noqa: F401 - loaded before the clock starts, as a build loads it

    started = _cpu()
    n = sum(1 for _ in extract_many(read_records([corpus], Problems())))
    return {"records": n, "cpu": _cpu() - started, "peak_mb": _peak_mb()}


def child_build_store(corpus: str, store: str) -> dict:
    from scholarkg.store import build_store, open_for_query

    import scholarkg.extract  # noqa: F401

    started, main_started = _cpu(), time.thread_time()
    report = build_store([corpus], store)
    cpu, main = _cpu() - started, time.thread_time() - main_started
    with open_for_query(store, memory_budget=0) as opened:
        statements = opened.count()
    return {"records": report.records, "cpu": cpu, "main_cpu": main, "statements": statements, "peak_mb": _peak_mb(),
            "stages": report.cpu}


def child_load(store: str, target: str, slices: str) -> dict:
    """Oxigraph alone, no scholarkg code timed: bulk-load the statements a store build wrote (its
    N-Quads export, made first) into a fresh on-disk store, in ``slices`` parts as a build loads
    its batches, and into an in-memory store, as a folder build does, with the parser options a
    build loads its own statements with (:data:`scholarkg.store.batches.OWN_TEXT`); the part of
    a build's time that no change to scholarkg's own code can remove."""
    import io

    import pyoxigraph as ox

    from scholarkg.store import GraphStore, export_store
    from scholarkg.store.batches import OWN_TEXT

    dump = io.BytesIO()
    with GraphStore(store) as opened:
        export_store(opened, "nquads", dump)
    lines = dump.getvalue().splitlines(keepends=True)
    del dump
    step = -(-len(lines) // int(slices))
    parts = [b"".join(lines[i:i + step]) for i in range(0, len(lines), step)]
    del lines
    out = {}
    for name in ("disk", "memory"):
        started = _cpu()
        store = ox.Store(target) if name == "disk" else ox.Store()
        for part in parts:
            store.bulk_load(part, ox.RdfFormat.N_QUADS, **OWN_TEXT)
        store.flush()
        out[name] = _cpu() - started
        del store
    return out


def child_build_out(corpus: str, out: str) -> dict:
    from scholarkg.pipeline import build, write_outputs

    import scholarkg.extract  # noqa: F401

    started, main_started = _cpu(), time.thread_time()
    result = build([corpus])
    write_outputs(result, out)
    cpu, main = _cpu() - started, time.thread_time() - main_started
    return {"records": len(result.records), "cpu": cpu, "main_cpu": main, "statements": result.summary["triples"],
            "peak_mb": _peak_mb()}


def child_queries(store: str, engine: str, repeat: str) -> dict:
    import pyoxigraph as ox

    from scholarkg.named import named_queries, prepare_named
    from scholarkg.sparql import run_named
    from scholarkg.store import open_for_query
    from scholarkg.store.read import evaluate

    started = time.perf_counter()
    opened = open_for_query(store, memory_budget=0 if engine == "disk" else 1 << 34)
    load = time.perf_counter() - started
    out, one = {}, {}
    for name in sorted(named_queries()):
        times, rows = [], 0
        for _ in range(int(repeat)):
            t = time.perf_counter()
            rows = len(run_named(opened, name, max_rows=10_000_000).rows)
            times.append(time.perf_counter() - t)
        # the engine alone: the same text and bindings run_named sends, the answer written as
        # TSV text in memory (scholarkg reads it from that text), not read into terms nor ordered
        prepared = prepare_named(opened, name)
        alone = []
        for _ in range(int(repeat)):
            t = time.perf_counter()
            evaluate(opened, prepared.text, prepared.bindings).serialize(format=ox.QueryResultsFormat.TSV)
            alone.append(time.perf_counter() - t)
        out[name] = {"median": statistics.median(times), "rows": rows, "engine": statistics.median(alone)}
    # one thing asked about, as the served explorer's panels ask: an author (in lower case, as
    # typed), an entity and a paper, each the first of its answer above
    given = {"author": run_named(opened, "coauthors", limit=1).to_dicts()[0]["authorName"].lower(),
             "entity": run_named(opened, "shared-entities", limit=1).to_dicts()[0]["label"],
             "paper": run_named(opened, "papers-by-year", limit=1).to_dicts()[0]["title"]}
    for name, q in sorted(named_queries().items()):
        for param in (p for p in q.params if p in given):
            times, rows = [], 0
            for _ in range(int(repeat)):
                t = time.perf_counter()
                rows = len(run_named(opened, name, {param: given[param]}, max_rows=10_000_000).rows)
                times.append(time.perf_counter() - t)
            one[f"{name} {param}"] = {"median": statistics.median(times), "rows": rows, "value": given[param]}
    opened.close()
    return {"load_seconds": load, "queries": out, "one": one}


def child_rdflib(ntriples: str, repeat: str, timeout: str) -> dict:
    from scholarkg.errors import QueryError
    from scholarkg.graph.builder import new_graph
    from scholarkg.named import named_queries
    from scholarkg.sparql import run_named

    started = time.perf_counter()
    graph = new_graph()
    graph.parse(ntriples, format="nt")
    load = time.perf_counter() - started
    out = {}
    for name in sorted(named_queries()):
        times, rows = [], None
        for _ in range(int(repeat)):
            t = time.perf_counter()
            try:  # each run in a forked child, stopped at the timeout (scholarkg.isolate)
                rows = len(run_named(graph, name, max_rows=10_000_000, timeout=float(timeout)).rows)
            except QueryError:
                times.append(None)
                break
            times.append(time.perf_counter() - t)
        done = [x for x in times if x is not None]
        out[name] = {"median": statistics.median(done) if done and len(done) == len(times) else None, "rows": rows,
                     "timeout": float(timeout)}
    return {"load_seconds": load, "queries": out}


def child_export(store: str, folder: str, repeat: str) -> dict:
    from scholarkg.store import GraphStore, export_store

    out = {}
    with GraphStore(store) as opened:
        statements = opened.count()
        for fmt in ("turtle", "ntriples"):
            times = []
            for _ in range(int(repeat)):
                path = Path(folder) / f"export.{fmt}"
                t = time.perf_counter()
                with open(path, "wb") as fh:
                    export_store(opened, fmt, fh)
                times.append(time.perf_counter() - t)
            out[fmt] = {"median": statistics.median(times), "per_second": statistics.median([statements / x for x in times])}
    return {"statements": statements, "exports": out}


def child_render(store: str, folder: str, nodes: str, repeat: str) -> dict:
    from scholarkg import api

    times = []
    path = Path(folder) / "view.html"
    for _ in range(int(repeat)):
        t = time.perf_counter()
        api.render(store, path, max_nodes=int(nodes))
        times.append(time.perf_counter() - t)
    return {"median": statistics.median(times), "bytes": path.stat().st_size}


CHILDREN = {"extract": child_extract, "build_store": child_build_store, "build_out": child_build_out, "load": child_load,
            "queries": child_queries, "rdflib": child_rdflib, "export": child_export, "render": child_render}


# -- driver -----------------------------------------------------------------------------------

def _fresh(path: Path) -> str:
    import shutil

    shutil.rmtree(path, ignore_errors=True)
    return str(path)


def _median(runs: list[dict], key: str) -> float:
    return statistics.median(r[key] for r in runs)


def main(argv: list[str]) -> None:
    if argv[:1] == ["_child"]:
        print(json.dumps(CHILDREN[argv[1]](*argv[2:])))
        return
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--records", type=int, default=5000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--rdflib-repeat", type=int, default=1)
    parser.add_argument("--rdflib-timeout", type=float, default=60)
    parser.add_argument("--view-nodes", type=int, default=5000)
    parser.add_argument("--work", type=Path, default=HERE / "out")
    parser.add_argument("--results", type=Path, default=HERE / "results")
    parser.add_argument("--name", default=None, help="report name (default targets, or peak with --peak-only)")
    parser.add_argument("--peak-only", action="store_true", help="only the two builds, once each: peak memory")
    parser.add_argument("--rss-cap-mb", type=float, default=4096, help="with --peak-only: stop a build past this much memory")
    parser.add_argument("--report-only", action="store_true", help="write the report again from the last run's JSON, measuring nothing")
    args = parser.parse_args(argv)
    args.name = args.name or ("peak" if args.peak_only else "targets")
    if args.report_only:
        result = json.loads((args.results / f"{args.name}.json").read_text(encoding="utf-8"))
        _save(result, (render_peak if args.peak_only else render_report)(result, args), args)
        return
    from bench_store import write_corpus

    work = args.work
    work.mkdir(parents=True, exist_ok=True)
    corpus = str(write_corpus(work / f"corpus-{args.records}.jsonl", args.records, seed=13))

    def log(message: str) -> None:
        print(f"[{time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)

    result: dict = {"records": args.records, "repeat": args.repeat, "rdflib_timeout": args.rdflib_timeout,
                    "view_nodes": args.view_nodes, "python": platform.python_version(),
                    "machine": f"{platform.machine()}, {os.cpu_count()} CPUs"}
    if args.peak_only:
        for name, target in (("build_store", work / "p.store"), ("build_out", work / "p-out")):
            log(f"{name} of {args.records:,} records")
            result[name] = _child(name, corpus, _fresh(target), rss_cap_mb=args.rss_cap_mb)
            log(f"{name}: {result[name]['cpu']:.0f} CPU s, peak {result[name].get('peak_mb', args.rss_cap_mb):.0f} MB")
            _fresh(target)
        _save(result, render_peak(result), args)
        return
    from scholarkg.store.build import BATCH_SIZE

    runs: dict[str, list] = {"extract": [], "build_store": [], "build_out": []}
    loads: list[dict] = []
    slices = -(-args.records // BATCH_SIZE)
    for i in range(args.repeat):  # interleaved, so that slow spells of the machine hit all of them
        runs["extract"].append(_child("extract", corpus))
        runs["build_store"].append(_child("build_store", corpus, _fresh(work / "t.store")))
        runs["build_out"].append(_child("build_out", corpus, _fresh(work / "t-out")))
        loads.append(_child("load", str(work / "t.store"), _fresh(work / "t-load"), str(slices)))
        _fresh(work / "t-load")
        log(f"round {i + 1}: " + ", ".join(f"{k} {v[-1]['cpu']:.1f} CPU s" for k, v in runs.items())
            + f", bulk load alone {loads[-1]['disk']:.1f} (disk) {loads[-1]['memory']:.1f} (memory)")
    builds = {}
    for name, rs in runs.items():
        cpu = _median(rs, "cpu")
        builds[name] = {"cpu": cpu, "records_per_cpu_second": rs[0]["records"] / cpu, "peak_mb": max(r["peak_mb"] for r in rs),
                        "statements": rs[0].get("statements"), "runs": [r["cpu"] for r in rs]}
    for name in ("build_store", "build_out"):
        builds[name]["ratio_to_extract"] = builds[name]["cpu"] / builds["extract"]["cpu"]
        builds[name]["other_threads_cpu"] = statistics.median(r["cpu"] - r["main_cpu"] for r in runs[name])
    builds["build_store"]["stages"] = runs["build_store"][-1]["stages"]
    result["builds"] = builds
    result["load"] = {name: {"cpu": statistics.median(x[name] for x in loads), "slices": slices} for name in ("disk", "memory")}
    result["load"]["lenient"] = True  # loaded as a build loads its own statements (see child_load)
    store = work / "t.store"
    log(f"{builds['build_store']['statements']:,} statements; queries on disk")
    result["disk"] = _child("queries", str(store), "disk", str(args.repeat))
    log("queries in memory")
    result["memory"] = _child("queries", str(store), "memory", str(args.repeat))
    log("queries on rdflib")
    result["rdflib"] = _child("rdflib", str(work / "t-out" / "graph.nt"), str(args.rdflib_repeat), str(args.rdflib_timeout))
    log("export and render")
    result["export"] = _child("export", str(store), str(work), str(args.repeat))
    result["render"] = _child("render", str(store), str(work), str(args.view_nodes), str(args.repeat))
    _save(result, render_report(result, args), args)


def _save(result: dict, report: str, args) -> None:
    args.results.mkdir(parents=True, exist_ok=True)
    (args.results / f"{args.name}.json").write_text(json.dumps(result, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    (args.results / f"{args.name}.md").write_text(report, encoding="utf-8")
    print(report)


def render_peak(r: dict, args=None) -> str:
    lines = [
        f"# Peak memory of a build: {r['records']:,} records, the project's extractor",
        "",
        f"`python bench/bench_targets.py --peak-only --records {r['records']}` (`make bench-peak`), Python {r['python']}, "
        f"{r['machine']}; each build once, in a fresh process (peak resident memory of that process).",
        "",
        "| | statements | CPU s | records per CPU-second | peak RSS | <= 2 GiB |",
        "|---|---|---|---|---|---|",
    ]
    stopped = []
    for name, label in (("build_store", "`build --store`"), ("build_out", "`build --out`")):
        x = r[name]
        if "stopped_at_mb" in x:
            stopped.append(label)
            lines.append(f"| {label} | (stopped) | {x['cpu']:.0f} (until stopped) | | more than {x['stopped_at_mb']:,.0f} MB | NOT met |")
            continue
        lines.append(f"| {label} | {x['statements']:,} | {x['cpu']:.0f} | {x['records'] / x['cpu']:.0f} | "
                     f"{x['peak_mb']:,.0f} MB | {_mark(x['peak_mb'] <= 2048)} |")
    if stopped:
        lines += ["", f"{' and '.join(stopped)} passed `--rss-cap-mb` and {'was' if len(stopped) == 1 else 'were'} stopped there."]
    stages = r["build_store"].get("stages")
    if stages:
        lines += ["", "`build --store` CPU-seconds by stage: " + _stages(stages, 0)]
    return "\n".join(lines + [""])


_STAGE_ORDER = ("read and extract", "link", "curate", "emit and write", "of which loading", "finish")


def _stages(stages: dict, digits: int) -> str:
    """A build's CPU-seconds by stage, in the order the stages run."""
    names = sorted(stages, key=lambda k: _STAGE_ORDER.index(k) if k in _STAGE_ORDER else len(_STAGE_ORDER))
    return ", ".join(f"{k} {stages[k]:.{digits}f}" for k in names)


def _mark(ok: bool) -> str:
    return "met" if ok else "NOT met"


def render_report(r: dict, args) -> str:
    b = r["builds"]
    statements = b["build_store"]["statements"]
    lines = [
        f"# Speed targets: {r['records']:,} records, {statements:,} statements, the project's extractor",
        "",
        f"`python bench/bench_targets.py --records {r['records']} --rdflib-timeout {r.get('rdflib_timeout', args.rdflib_timeout):g}` (`make bench-store`), Python {r['python']}, {r['machine']}; "
        f"CPU-seconds are medians of {r['repeat']} runs, each in a fresh process, all ratios from this run.",
        "",
        "| | CPU s | records per CPU-second | ratio to extract | peak RSS |",
        "|---|---|---|---|---|",
    ]
    for name, label in (("extract", "extract alone"), ("build_store", "`build --store`"), ("build_out", "`build --out`")):
        x = b[name]
        ratio = f"{x['ratio_to_extract']:.2f}x" if "ratio_to_extract" in x else "1"
        lines.append(f"| {label} | {x['cpu']:.1f} | {x['records_per_cpu_second']:.0f} | {ratio} | {x['peak_mb']:.0f} MB |")
    lines += ["", "`build --store` CPU-seconds by stage (last run): " + _stages(b["build_store"]["stages"], 1), ""]
    if "other_threads_cpu" in b["build_store"]:
        ext, store, out = b["extract"]["cpu"], b["build_store"], b["build_out"]
        lines += [f"Of those CPU-seconds, threads other than the main one took {store['other_threads_cpu']:.1f} in `build --store` "
                  f"and {out['other_threads_cpu']:.1f} in `build --out` (medians): Oxigraph's bulk loader and RocksDB's background "
                  "work (scholarkg starts no thread in a build). The main thread alone took "
                  f"{(store['cpu'] - store['other_threads_cpu']) / ext:.2f}x extract and {(out['cpu'] - out['other_threads_cpu']) / ext:.2f}x.", ""]
    if "load" in r:
        ext = b["extract"]["cpu"]
        disk, memory = r["load"]["disk"]["cpu"], r["load"]["memory"]["cpu"]
        lenient = " (both without checking IRIs again, as a build loads its own statements)" if r["load"].get("lenient") else ""
        lines += [f"Oxigraph alone (no scholarkg code), bulk-loading the {statements:,} statements a store build wrote: "
                  f"{disk:.1f} CPU s into a fresh on-disk store in {r['load']['disk']['slices']} part{'s' if r['load']['disk']['slices'] != 1 else ''} as a build loads "
                  f"its batches, {memory:.1f} CPU s into memory{lenient}. With extraction, that floor is "
                  f"{(ext + disk) / ext:.2f}x extract for `build --store` and {(ext + memory) / ext:.2f}x for `build --out` "
                  "before anything else a build does.", ""]
    engine_alone = "engine" in next(iter(r["disk"]["queries"].values()))
    if engine_alone:
        lines += ["Oxigraph alone: the text and bindings `scholarkg` sends for the query, evaluated by pyoxigraph "
                  "with the whole answer written as SPARQL TSV text in memory (the text scholarkg reads its rows "
                  "from), not read into terms nor ordered.", ""]
        lines += ["| named query | rows | on disk | Oxigraph alone, on disk | in memory | Oxigraph alone, in memory | rdflib | rdflib / memory |",
                  "|---|---|---|---|---|---|---|---|"]
    else:
        lines += ["| named query | rows | on disk | in memory | rdflib | rdflib / memory |", "|---|---|---|---|---|---|"]
    over_disk, over_memory, under_ten = [], [], []
    engine_over_disk, engine_over_memory = [], []
    for name in sorted(r["disk"]["queries"]):
        d, m, f = r["disk"]["queries"][name], r["memory"]["queries"][name], r["rdflib"]["queries"][name]
        rd = f"{f['median'] * 1000:.0f} ms" if f["median"] is not None else f"> {f['timeout']:.0f} s"
        ratio = (f["median"] if f["median"] is not None else f["timeout"]) / max(m["median"], 1e-6)
        shown = f"{ratio:.1f}x" if ratio < 20 else f"{ratio:.0f}x"  # a decimal near the 10x goal
        ratio_text = shown if f["median"] is not None else f"> {shown}"
        if engine_alone:
            lines.append(f"| {name} | {d['rows']:,} | {d['median'] * 1000:.0f} ms | {d['engine'] * 1000:.0f} ms "
                         f"| {m['median'] * 1000:.0f} ms | {m['engine'] * 1000:.0f} ms | {rd} | {ratio_text} |")
            if d["median"] > 1.0 and d["engine"] > 1.0:
                engine_over_disk.append(name)
            if m["median"] > 0.2 and m["engine"] > 0.2:
                engine_over_memory.append(name)
        else:
            lines.append(f"| {name} | {d['rows']:,} | {d['median'] * 1000:.0f} ms | {m['median'] * 1000:.0f} ms | {rd} | {ratio_text} |")
        if d["median"] > 1.0:
            over_disk.append(name)
        if m["median"] > 0.2:
            over_memory.append(name)
        if ratio < 10:
            under_ten.append(name)
    if "one" in r["disk"]:
        lines += ["", "With one thing given, as the served explorer's panels ask (the values: the first answer of "
                  "`coauthors` in lower case, of `shared-entities` and of `papers-by-year`):", "",
                  "| named query | parameter | rows | on disk | in memory |", "|---|---|---|---|---|"]
        for key in sorted(r["disk"]["one"]):
            d, m = r["disk"]["one"][key], r["memory"]["one"][key]
            name, param = key.split(" ")
            lines.append(f"| {name} | {param} = {d['value'][:40]!r} | {d['rows']:,} | {d['median'] * 1000:.1f} ms | {m['median'] * 1000:.1f} ms |")
            if d["median"] > 1.0:
                over_disk.append(key)
            if m["median"] > 0.2:
                over_memory.append(key)
    lines += ["", f"In-memory copy loaded in {r['memory']['load_seconds']:.1f} s; rdflib graph parsed in "
              f"{r['rdflib']['load_seconds']:.1f} s.", ""]
    e = r["export"]["exports"]
    lines += ["| export from the store | seconds | statements/s |", "|---|---|---|"]
    for fmt in ("turtle", "ntriples"):
        lines.append(f"| {fmt} | {e[fmt]['median']:.2f} | {e[fmt]['per_second']:,.0f} |")
    lines += ["", f"`render` of a {r.get('view_nodes', args.view_nodes):,}-node view from the store: {r['render']['median']:.2f} s, "
              f"{r['render']['bytes'] / 1e6:.2f} MB.", ""]
    million = statements >= 1_000_000
    lines += ["## Targets", "", "| target | measured | |", "|---|---|---|",
              f"| `build --store` <= 2x extract | {b['build_store']['ratio_to_extract']:.2f}x | {_mark(b['build_store']['ratio_to_extract'] <= 2)} |",
              f"| `build --out` <= 2.5x extract | {b['build_out']['ratio_to_extract']:.2f}x | {_mark(b['build_out']['ratio_to_extract'] <= 2.5)} |",
              f"| every named query <= 1 s on disk | {len(over_disk)} over ({', '.join(over_disk) or 'none'}) | {_mark(not over_disk)} |",
              f"| every named query <= 200 ms in memory | {len(over_memory)} over ({', '.join(over_memory) or 'none'}) | {_mark(not over_memory)} |",
              f"| each >= 10x faster than rdflib (in memory) | {len(under_ten)} under ({', '.join(under_ten) or 'none'}) | {_mark(not under_ten)} |",
              f"| Turtle export >= 1M statements/s | {e['turtle']['per_second']:,.0f}/s | {_mark(e['turtle']['per_second'] >= 1e6)} |",
              f"| N-Triples export >= 1M statements/s | {e['ntriples']['per_second']:,.0f}/s | {_mark(e['ntriples']['per_second'] >= 1e6)} |",
              f"| `render` of a {r.get('view_nodes', args.view_nodes):,}-node view <= 3 s | {r['render']['median']:.2f} s | {_mark(r['render']['median'] <= 3)} |",
              ""]
    if engine_alone and (over_disk or over_memory):
        lines += [f"Of the answers over their target, Oxigraph alone is over it too for {len(engine_over_disk)} of "
                  f"{len(over_disk)} on disk ({', '.join(engine_over_disk) or 'none'}) and {len(engine_over_memory)} of "
                  f"{len(over_memory)} in memory ({', '.join(engine_over_memory) or 'none'}).", ""]
    if not million:
        lines += [f"The query targets are stated at >= 1M statements; this run has {statements:,}, so the query rows "
                  "above do not yet show them at that size.", ""]
    return "\n".join(lines)


if __name__ == "__main__":
    main(sys.argv[1:])
