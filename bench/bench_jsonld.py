"""Benchmark of the folder build's JSON-LD: the streaming writer against rdflib's serializer.

    python bench/bench_jsonld.py                   # 20,000 synthetic records, writes bench/results/jsonld.md
    python bench/bench_jsonld.py --records 2000    # a quick run

The graph is built by the folder build (``scholarkg.pipeline.build``) from the synthetic corpus,
with the synthetic gazetteer extractor standing in for the tree's extractor (same entity,
mention and result density at any size, in a fraction of the time). Then, in this one process,
medians of ``--repeat`` runs of: the JSON-LD the build writes now (:mod:`scholarkg.jsonld`), the
JSON-LD it wrote before (rdflib's serializer on a sorted copy of the graph with the prefix
context, keys re-sorted: the baseline, reproduced here), and the Turtle and N-Triples the build
also writes, for scale. Times are in seconds; ratios are against the baseline in the same run.
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent / "src")]


def _baseline_jsonld(graph) -> bytes:
    """The writer the build used before: rdflib's JSON-LD serializer on a sorted copy."""
    from rdflib import Graph

    from scholarkg.graph.vocab import PREFIXES

    copy = Graph(bind_namespaces="none")
    for prefix, namespace in graph.namespaces():
        copy.bind(prefix, namespace)
    for triple in sorted(graph):
        copy.add(triple)
    text = copy.serialize(format="json-ld", context=dict(sorted(PREFIXES.items())), auto_compact=True)
    data = json.loads(text)
    if isinstance(data, dict) and isinstance(data.get("@graph"), list):
        data["@graph"].sort(key=lambda node: str(node.get("@id", "")))
    return (json.dumps(data, ensure_ascii=False, indent=1, sort_keys=True) + "\n").encode("utf-8")


def _median(fn, repeat: int) -> tuple[float, bytes]:
    times, out = [], b""
    for _ in range(repeat):
        start = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times), out


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--records", type=int, default=20_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--report", type=Path, default=HERE / "results" / "jsonld.md")
    args = parser.parse_args(argv)

    import scholarkg.extract as extract
    import synthetic
    from scholarkg.jsonld import jsonld_bytes
    from scholarkg.pipeline import build
    from scholarkg.serialize import serialize

    with tempfile.TemporaryDirectory() as tmp:
        corpus = Path(tmp) / "corpus.jsonl"
        corpus.write_text("".join(json.dumps(r) + "\n" for r in synthetic.generate(args.records, seed=7)), encoding="utf-8")
        extract.extract_many = synthetic.extract_many  # the stand-in extractor (see the docstring)
        start = time.perf_counter()
        graph = build([corpus]).graph
        build_seconds = time.perf_counter() - start
    statements = len(graph)
    new, new_bytes = _median(lambda: jsonld_bytes(graph), args.repeat)
    old, old_bytes = _median(lambda: _baseline_jsonld(graph), args.repeat)
    turtle, _ = _median(lambda: serialize(graph, "turtle"), args.repeat)
    ntriples, _ = _median(lambda: serialize(graph, "ntriples"), args.repeat)
    rows = [
        ("JSON-LD, streaming writer (now)", new, len(new_bytes)),
        ("JSON-LD, rdflib on a sorted copy (before)", old, len(old_bytes)),
        ("Turtle (rdflib)", turtle, None),
        ("N-Triples (rdflib, sorted)", ntriples, None),
    ]
    lines = [
        "# JSON-LD writer benchmark",
        "",
        f"`python bench/bench_jsonld.py --records {args.records} --repeat {args.repeat}` on "
        f"{platform.machine()} / Python {platform.python_version()}: {args.records:,} synthetic records "
        f"(synthetic gazetteer extractor standing in for the tree's), {statements:,} statements; "
        f"the folder build's graph took {build_seconds:.1f} s. Medians of {args.repeat} runs.",
        "",
        "| output | seconds | bytes | ratio to the previous JSON-LD writer |",
        "|---|---|---|---|",
    ]
    for name, seconds, size in rows:
        lines.append(f"| {name} | {seconds:.2f} | {f'{size:,}' if size else '—'} | {seconds / old:.2f} |")
    lines.append("")
    text = "\n".join(lines)
    print(text)
    args.report.parent.mkdir(parents=True, exist_ok=True)
    args.report.write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main(sys.argv[1:])
