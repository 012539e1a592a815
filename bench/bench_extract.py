"""Speed of the full extraction against a bare spaCy tokenizer on the same texts.

    python bench/bench_extract.py [--repeats 3] [--synthetic 10000] [--batch-size 64]

Corpora: the SciREX abstracts (when ``../shared/data`` is present) and a synthetic corpus
from ``bench/synthetic.py``. For each corpus it times, in this one process:

- ``bare``: ``spacy.blank("en")`` tokenizing every text (``nlp.pipe``);
- ``extract``: :func:`scholarkg.extract.extract_many` (tokenizer, every component, conversion
  to the typed ``Extraction``), streaming with ``nlp.pipe``.

It prints records/s and tokens/s (tokens as the bare tokenizer counts them), medians of the
repeats, and the ratio extract/bare; the targets are a ratio of at least 1/25 on the SciREX
abstracts and 1/40 on the synthetic corpus. On a shared machine
wall-clock rates swing with other load, so the same figures are also given per CPU-second of
this process (``cpu``). Results are also written to ``bench/out/bench_extract.json``.
"""

from __future__ import annotations

import argparse
import json
import logging
import statistics
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(REPO / "src"))
sys.path.insert(0, str(HERE))

from synthetic import generate  # noqa: E402

SCIREX = REPO.parent / "shared" / "data" / "scirex" / "abstracts.gold.jsonl"
TARGETS = {"scirex-abstracts": 1 / 25, "synthetic": 1 / 40}


def target(corpus: str) -> float:
    return TARGETS["scirex-abstracts"] if corpus.startswith("scirex") else TARGETS["synthetic"]


def _records(rows):
    from scholarkg.model import Record

    return [Record(id=str(r["id"]), title=r["title"], abstract=r.get("abstract", ""), year=r.get("year")) for r in rows]


def _time(fn, repeats: int) -> tuple[float, float]:
    """Median wall-clock and CPU seconds of ``repeats`` runs of ``fn``."""
    wall, cpu = [], []
    for _ in range(repeats):
        w, c = time.perf_counter(), time.process_time()
        fn()
        wall.append(time.perf_counter() - w)
        cpu.append(time.process_time() - c)
    return statistics.median(wall), statistics.median(cpu)


def bench_corpus(name: str, records, repeats: int, batch_size: int) -> dict:
    import spacy

    from scholarkg.extract import extract_many, load_pipeline
    from scholarkg.extract.convert import record_text

    texts = [record_text(r) for r in records]
    bare = spacy.blank("en")
    tokens = sum(len(d) for d in bare.pipe(texts, batch_size=batch_size))
    nlp = load_pipeline()
    list(extract_many(records[:50], nlp=nlp))  # warm up

    bare_wall, bare_cpu = _time(lambda: [None for _ in bare.pipe(texts, batch_size=batch_size)], repeats)
    full_wall, full_cpu = _time(lambda: [None for _ in extract_many(records, nlp=nlp, batch_size=batch_size)], repeats)
    n = len(records)
    row = {
        "corpus": name,
        "records": n,
        "tokens": tokens,
        "bare_records_per_s": n / bare_wall,
        "bare_tokens_per_s": tokens / bare_wall,
        "extract_records_per_s": n / full_wall,
        "extract_tokens_per_s": tokens / full_wall,
        "ratio": bare_wall / full_wall,
        "bare_records_per_cpu_s": n / bare_cpu,
        "extract_records_per_cpu_s": n / full_cpu,
        "ratio_cpu": bare_cpu / full_cpu,
        "repeats": repeats,
    }
    row["target"] = target(name)
    row["meets_target"] = row["ratio"] >= row["target"]
    return row


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--synthetic", type=int, default=10_000, help="size of the synthetic corpus")
    parser.add_argument("--batch-size", type=int, default=64)
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.WARNING)

    corpora = []
    if SCIREX.is_file():
        with SCIREX.open(encoding="utf-8") as fh:
            corpora.append(("scirex-abstracts", _records(json.loads(line) for line in fh if line.strip())))
    corpora.append((f"synthetic-{args.synthetic}", _records(generate(args.synthetic, seed=0))))

    rows = [bench_corpus(name, recs, args.repeats, args.batch_size) for name, recs in corpora]
    header = (f"{'corpus':22s} {'records':>8s} {'bare rec/s':>11s} {'bare tok/s':>11s} {'extract rec/s':>14s} "
              f"{'extract tok/s':>14s} {'ratio':>8s} {'cpu: bare':>10s} {'extract':>8s} {'ratio':>8s}")
    print(header)
    for r in rows:
        print(f"{r['corpus']:22s} {r['records']:8d} {r['bare_records_per_s']:11.0f} {r['bare_tokens_per_s']:11.0f} "
              f"{r['extract_records_per_s']:14.1f} {r['extract_tokens_per_s']:14.0f} {'1/%.1f' % (1 / r['ratio']):>8s} "
              f"{r['bare_records_per_cpu_s']:10.0f} {r['extract_records_per_cpu_s']:8.1f} {'1/%.1f' % (1 / r['ratio_cpu']):>8s}")
    targets = ", ".join(f"{r['corpus']} >= 1/{1 / r['target']:.0f}" for r in rows)
    print(f"targets: {targets}; medians of {args.repeats} repeats, one process")
    report = HERE / "results" / "extract.md"
    report.parent.mkdir(exist_ok=True)
    lines = ["# Extraction speed (`make bench`)", "",
             f"Medians of {args.repeats} repeats, one process; ratio to a bare `spacy.blank(\"en\")` tokenizer over the same texts.", "",
             "| corpus | records | extract records/s | extract records/CPU-s | ratio | target | met |", "|---|---|---|---|---|---|---|"]
    lines += [f"| {r['corpus']} | {r['records']:,} | {r['extract_records_per_s']:.0f} | {r['extract_records_per_cpu_s']:.0f} | "
              f"1/{1 / r['ratio']:.1f} | 1/{1 / r['target']:.0f} | {'met' if r['meets_target'] else 'NOT met'} |" for r in rows]
    report.write_text("\n".join(lines) + "\n", encoding="utf-8")
    out = HERE / "out"
    out.mkdir(exist_ok=True)
    (out / "bench_extract.json").write_text(json.dumps(rows, indent=2) + "\n", encoding="utf-8")
    return 0 if all(r["meets_target"] for r in rows) else 1


if __name__ == "__main__":
    raise SystemExit(main())
