"""Markdown summary of a ``bench_store.py`` run (``bench/results/store.md``)."""

from __future__ import annotations

import statistics

__all__ = ["markdown"]


def _s(seconds: float | None) -> str:
    if seconds is None:
        return "—"
    return f"{seconds * 1000:.0f} ms" if seconds < 1 else f"{seconds:.2f} s"


def markdown(results: dict) -> str:
    lines = ["# Store benchmark", ""]
    m = results["machine"]
    lines += [f"Python {m['python']} on {m['platform']}, {m['cpus']} logical CPUs (they behave like about one core).",
              f"Tree extractor: `{results['tree_extractor']}`. Whole run: {results['seconds'] / 60:.0f} min.", ""]
    if "build" in results:
        lines += ["## Build throughput (end to end: read, extract, link, emit, write, finish)", "",
                  "| records | extractor | mode | records/s | time | statements | peak RSS (client) | peak RSS per worker | same graph as single |",
                  "|---:|---|---|---:|---:|---:|---:|---:|---|"]
        for r in results["build"]:
            worker = f"{r['worker_peak_mb']:.0f} MiB" if "worker_peak_mb" in r else "—"
            same = {True: "yes (identical N-Quads)", False: "NO"}.get(r.get("same_graph_as_single"), "")
            mode = "single process" if r["mode"] == "single" else f"Dask, {r['workers']} workers"
            lines.append(f"| {r['size']:,} | {r['extractor']} | {mode} | {r['records_per_second']:.0f} | {r['seconds']:.1f} s | "
                         f"{r['triples']:,} | {r['peak_mb']:.0f} MiB | {worker} | {same} |")
        lines.append("")
    if "query" in results:
        q = results["query"]
        ox, rd = q["oxigraph"], q["rdflib"]
        lines += [f"## Named queries on {ox['triples']:,} statements", "",
                  "Median of runs, default parameters (every author, every entity). Oxigraph on disk: the store "
                  "(`query --store`, union of its named graphs); engine = evaluate and read every solution, API = "
                  "the `scholarkg.query` result with rdflib terms. Oxigraph in memory: the same statements in "
                  f"pyoxigraph's in-memory store. rdflib: in-memory `Graph` (parsed in {rd['parse_seconds']:.0f} s).", "",
                  "| query | rows | Oxigraph on disk | on disk, API | Oxigraph in memory | rdflib | rdflib / on disk | rdflib / in memory |",
                  "|---|---:|---:|---:|---:|---:|---:|---:|"]
        ratios, memory_ratios = [], []
        limit = results["settings"]["rdflib_timeout"]
        for name, o in ox["queries"].items():
            r = rd["queries"].get(name, {})
            if r.get("median"):
                ratio, memory_ratio, rd_time = r["median"] / o["engine_median"], r["median"] / o["memory_median"], _s(r["median"])
                shown, memory_shown = f"{ratio:.1f}x", f"{memory_ratio:.0f}x"
            elif r.get("timed_out"):
                ratio = memory_ratio = float("inf")
                rd_time = f"> {limit:.0f} s (stopped)"
                shown, memory_shown = f"> {limit / o['engine_median']:.0f}x", f"> {limit / o['memory_median']:.0f}x"
            else:
                continue
            ratios.append(ratio)
            memory_ratios.append(memory_ratio)
            mismatch = "" if r.get("rows") in (None, o["rows"]) else f" (rdflib: {r['rows']})"
            lines.append(f"| {name} | {o['rows']:,}{mismatch} | {_s(o['engine_median'])} | {_s(o['api_median'])} | "
                         f"{_s(o['memory_median'])} | {rd_time} | {shown} | {memory_shown} |")
        disk = [o["engine_median"] for o in ox["queries"].values()]
        memory = [o["memory_median"] for o in ox["queries"].values()]
        rdl = [r["median"] if r.get("median") else float("inf") for r in rd["queries"].values()]
        median_rd = statistics.median(rdl)
        lines += ["", f"Median query: Oxigraph on disk {_s(statistics.median(disk))}, in memory {_s(statistics.median(memory))}, "
                  f"rdflib {_s(median_rd) if median_rd != float('inf') else 'stopped'}. Median of the per-query ratios: "
                  f"{statistics.median(ratios):.1f}x (on disk), {statistics.median(memory_ratios):.0f}x (in memory). "
                  f"Queries over 1 s: {sum(t > 1 for t in disk)} on disk (slowest {_s(max(disk))}), "
                  f"{sum(t > 1 for t in memory)} in memory (slowest {_s(max(memory))}).", ""]
    if "export" in results:
        e = results["export"]
        ox, rd = e["oxigraph"], e["rdflib"]
        n = ox["triples"]
        lines += [f"## Export of {n:,} statements", "",
                  "pyoxigraph's writers fed from the on-disk store (`export --store`) and from its in-memory store; "
                  "rdflib's serializers from its in-memory graph.", "",
                  "| format | pyoxigraph, store on disk | statements/s | pyoxigraph, in memory | statements/s | rdflib | statements/s | rdflib / disk | rdflib / memory |",
                  "|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
        for fmt, key in (("N-Triples", ("ntriples", "nt")), ("Turtle", ("turtle", "turtle"))):
            o, m, r = ox[key[0]]["median"], ox[key[0]]["memory_median"], rd["serialize"][key[1]]["seconds"]
            lines.append(f"| {fmt} | {_s(o)} | {n / o:,.0f} | {_s(m)} | {n / m:,.0f} | {_s(r)} | {n / r:,.0f} | {r / o:.1f}x | {r / m:.0f}x |")
        lines += ["", f"Memory per statement: rdflib in-memory graph {rd['bytes_per_triple']:.0f} bytes, "
                  f"pyoxigraph in-memory store {ox['memory_store_bytes_per_triple']:.0f} bytes.", ""]
    return "\n".join(lines) + "\n"
