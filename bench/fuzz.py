"""Fuzz benchmark: malformed and adversarial records through every reader and the graph builder.

    python bench/fuzz.py                       # 20,000 records per reader, 100,000 in all
    python bench/fuzz.py --records 2000        # a quick run
    make fuzz                                  # the full run, report in bench/results/fuzz.md

Records are generated with hostile values (control characters, lone surrogates, NUL bytes,
bidirectional overrides, line separators, noncharacters, emoji, combining marks, TeX, HTML,
wrong types, missing fields, years that are not years, unknown categories, occasional
fields of megabytes), written in each of the five input formats, and then damaged as files
are in the wild (cut short, bytes flipped, garbage and invalid UTF-8 inserted, spans deleted
or repeated, line ends changed). Each damaged file goes through its reader, and every record
read goes, with a generated extraction derived from its own text (entity labels, results,
links), through the graph builder. The graph is written as Turtle, N-Triples and JSON-LD and
read back: by pyoxigraph's strict parsers, which must return exactly the statements built,
and, for Turtle and N-Triples, by Serd and Raptor, which must agree on the count. A sample of
the files also goes through the whole pipeline with the real extractor.

Counted as a crash: any exception other than scholarkg's own InputError for a file that
cannot be read at all. Counted as an output failure: any output a parser rejects or reads
back differently. Both must be zero. Problem lines must each be one printable line.
"""

from __future__ import annotations

import argparse
import random
import shutil
import subprocess
import sys
import tempfile
import time
import traceback
from decimal import Decimal
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(REPO / "src"), str(REPO / "tests")]

import pyoxigraph as ox  # noqa: E402
from rdflib import Literal  # noqa: E402

from formats import FORMATS, WRITERS  # noqa: E402  (tests/formats.py: one writer per input format)
from scholarkg.errors import InputError, Problems  # noqa: E402
from scholarkg.serialize import serialize  # noqa: E402
from scholarkg.graph import iri  # noqa: E402
from scholarkg.graph.builder import add_all, entity_triples, new_graph, record_triples  # noqa: E402
from scholarkg.model import Entity, EntityType, Extraction, Field, Link, LinkKind, Mention, Result, Role  # noqa: E402
from scholarkg.readers import read_records  # noqa: E402

WORDS = ["Deep", "learning", "BrowseComp", "GRPO", "benchmark", "Qwen-3", "LLaMA", "we", "propose", "the", "model",
         "P$^2$-MOPD", "\\emph{x}", "{BERT}", "Schr{\\\"o}dinger", "<i>nets</i>", "<script>alert(1)</script>", "&amp;",
         "https://github.com/a/b", "http://x y", "48.6%", "arXiv:2101.00001", "cs.CL", "@misc{", "}", "{", "\"", "arXiv2024"]
HOSTILE = ['"', "'", "\\", "\n", "\r\n", "\r", "\t", "\x00", "\x07", "\x1b[2J", "\x1c", "\x7f", "\x85", "\u200b", "\u200d",
           "\u200f", "\u202e", "\u2066", "\u2028", "\u2029", "\ufeff", "\ufffe", "\uffff", "\ufdd0", "\ue000", "\U0001fffe",
           "\ud800", "\udfff", "\ud83d", "%", "%zz", "<", ">", "|", "^", "`", "#", "@prefix", "\u0301", "e\u0301", "🚀",
           "\U0001f468\u200d\U0001f469", "名前", "שלום", "مرحبا", "\uff33ERVICE", '"""', "'''", "\\u0022", "&lt;", "]]>"]
CATEGORIES = ["cs.CL", "cs.AI", "cs.LG", "hep-th", "math.MP", "CS.cl", "cs.XX", "", " ", "stat.ML", "q-bio.NC"]
UNICODE_RANGES = [(0x0, 0x7F), (0x80, 0x24F), (0x300, 0x36F), (0x590, 0x6FF), (0x2000, 0x206F), (0xD800, 0xDFFF),
                  (0xE000, 0xF8FF), (0xFDD0, 0xFDEF), (0xFFF0, 0xFFFF), (0x1F300, 0x1F6FF), (0x10000, 0x10FFFF)]


def random_unicode(rng: random.Random, n: int) -> str:
    return "".join(chr(rng.randint(*rng.choice(UNICODE_RANGES))) for _ in range(n))


def text(rng: random.Random, pieces: int = 8) -> str:
    parts = []
    for _ in range(rng.randint(0, pieces)):
        r = rng.random()
        parts.append(rng.choice(WORDS) if r < 0.4 else rng.choice(HOSTILE) if r < 0.75 else random_unicode(rng, rng.randint(1, 6)))
    return (" " if rng.random() < 0.6 else "").join(parts)


def value(rng: random.Random, huge: float):
    r = rng.random()
    if r < huge:
        return (text(rng, 3) + " ") * rng.randint(100_000, 400_000)  # megabytes
    if r < 0.80:
        return text(rng)
    return rng.choice([None, "", 0, -1, 10**30, 3.5, float("nan"), True, [], [text(rng)], {"x": text(rng)}, " " * 200])


def record(rng: random.Random, huge: float) -> dict:
    rec = {
        "title": value(rng, huge),
        "abstract": value(rng, huge),
        "year": rng.choice([rng.randint(1990, 2026), str(rng.randint(1700, 2200)), "soon", "20x0", "", None, 2020.0, text(rng, 2)]),
        "categories": [rng.choice(CATEGORIES) if rng.random() < 0.7 else value(rng, 0) for _ in range(rng.randint(0, 3))],
        "authors": [text(rng, 3) if rng.random() < 0.85 else value(rng, 0) for _ in range(rng.randint(0, 4))],
    }
    for key in list(rec):
        if rng.random() < 0.08:
            del rec[key]
    return rec


def damage(rng: random.Random, data: bytes) -> bytes:
    """The ways files get broken in the wild, zero to three of them."""
    for _ in range(rng.choice([0, 0, 1, 1, 2, 3])):
        kind = rng.randrange(9)
        at = rng.randrange(len(data) + 1)
        if kind == 0:
            data = data[:at]  # cut short
        elif kind == 1:
            data = bytearray(data)
            for _ in range(rng.randint(1, 20)):
                if data:
                    data[rng.randrange(len(data))] = rng.randrange(256)
            data = bytes(data)
        elif kind == 2:
            data = data[:at] + rng.randbytes(rng.randint(1, 400)) + data[at:]  # binary garbage
        elif kind == 3:
            data = data[:at] + rng.choice([b"\xff\xfe", b"\xed\xa0\x80", b"\xc3", b"\x00\x00", b"\xef\xbb\xbf", b"\x80"]) + data[at:]
        elif kind == 4:
            data = data[:at] + data[at + rng.randint(1, 500):]  # a span lost
        elif kind == 5:
            end = min(len(data), at + rng.randint(1, 2000))
            data = data[:end] + data[at:end] + data[end:]  # a span repeated (duplicate records)
        elif kind == 6:
            data = data.replace(b"\n", b"\r\n")
        elif kind == 7:
            data = b"\xef\xbb\xbf" + data
        else:
            data = data[:at] + b"\n" + rng.choice([b"{not json", b"<entry>", b"@misc{x,", b"arXiv2020", b"</feed>", b"]]>"]) + b"\n" + data[at:]
    return data


def extraction_for(rng: random.Random, record) -> tuple[Extraction, dict]:
    """What an extractor could make of this record's own text: spans as entities, a result, links."""
    mentions, entities = [], {}
    for field, source in ((Field.TITLE, record.title), (Field.ABSTRACT, record.abstract)):
        for _ in range(rng.randint(0, 3)):
            if not source:
                break
            start = rng.randrange(len(source))
            end = min(len(source), start + rng.randint(1, 30))
            label = source[start:end].strip()
            if not label:
                continue
            kind = rng.choice(list(EntityType))
            mentions.append(Mention(source[start:end], label, kind, start, end, field, rng.choice(list(Role)), rng.random()))
            key = iri.normalise_key(label)
            entities.setdefault(key, Entity(key, kind, label, aliases=(label.upper(),)))
    labels = [m.label for m in mentions]
    results = ()
    if labels:
        results = (Result(Decimal(rng.choice(["48.6", "0.5", "-0", "1E+3", "99.99"])), record.abstract[:200] or record.title,
                          model=rng.choice(labels), benchmark=rng.choice(labels), metric=None,
                          unit=rng.choice([None, "%", record.abstract[-3:] or None])),)
    links = tuple(Link(url, rng.choice(list(LinkKind))) for url in (w for w in record.abstract.split()[:50] if "://" in w))
    return Extraction(record.id, tuple(mentions), results, links, "fuzz/1"), entities


def statements(graph) -> set:
    """The graph's statements as pyoxigraph terms (literals by lexical form), as parsers report them."""
    nodes: dict = {}

    def term(t):
        if t not in nodes:
            if isinstance(t, Literal):
                nodes[t] = (ox.Literal(str(t), language=t.language) if t.language else
                            ox.Literal(str(t), datatype=ox.NamedNode(str(t.datatype or XSD_STRING))))
            else:
                nodes[t] = ox.NamedNode(str(t))
        return nodes[t]

    return {ox.Triple(term(s), term(p), term(o)) for s, p, o in graph}


XSD_STRING = "http://www.w3.org/2001/XMLSchema#string"
STRICT = {"turtle": ox.RdfFormat.TURTLE, "ntriples": ox.RdfFormat.N_TRIPLES, "jsonld": ox.RdfFormat.JSON_LD}
C_PARSERS = {"serdi": lambda path, syntax: ["serdi", "-i", syntax, "-o", "ntriples", str(path)],
             "rapper": lambda path, syntax: ["rapper", "-i", syntax, "-c", str(path)]}


def check_outputs(graph, folder: Path, stats: dict, failures: list) -> None:
    expected = statements(graph)
    for fmt, ox_fmt in STRICT.items():
        data = serialize(graph, fmt)
        try:
            parsed = {q.triple for q in ox.parse(data, format=ox_fmt)}
        except SyntaxError as exc:
            parsed, error = None, str(exc)
        if parsed != expected:
            stats["output_failures"] += 1
            failures.append(f"{fmt}: " + (error if parsed is None else f"{len(parsed)} statements read back, {len(expected)} built"))
        stats["outputs_checked"] += 1
        if fmt == "jsonld":
            continue
        path = folder / f"out.{fmt}"
        path.write_bytes(data)
        for tool, command in C_PARSERS.items():
            if shutil.which(tool) is None:
                continue
            done = subprocess.run(command(path, "turtle" if fmt == "turtle" else "ntriples"), capture_output=True, timeout=600)
            count = done.stdout.count(b"\n") if tool == "serdi" else _rapper_count(done.stderr)
            if done.returncode != 0 or count != len(expected):
                stats["output_failures"] += 1
                kept = _keep(path)
                failures.append(f"{tool} {fmt}: exit {done.returncode}, {count} of {len(expected)} (kept as {kept}): {done.stderr[-300:]!r}")
            stats["outputs_checked"] += 1


def _keep(path: Path) -> Path:
    """Keep a file a parser rejected, for a look afterwards (bench/out/ is not committed)."""
    out = REPO / "bench" / "out"
    out.mkdir(parents=True, exist_ok=True)
    kept = out / f"{time.strftime('%H%M%S')}-{len(list(out.iterdir()))}-{path.name}"
    shutil.copyfile(path, kept)
    return kept


def _rapper_count(stderr: bytes) -> int:
    import re

    m = re.search(rb"returned (\d+) triple", stderr)
    return int(m.group(1)) if m else -1


def fuzz_format(fmt: str, args, rng: random.Random, folder: Path, failures: list, sample: list) -> dict:
    stats = dict.fromkeys(["records", "files", "files_refused", "records_read", "problems", "skipped", "bad_problem_lines",
                           "crashes", "outputs_checked", "output_failures", "triples"], 0)
    slowest = total = 0.0
    while stats["records"] < args.records:
        generated = [record(rng, args.huge) for _ in range(min(args.batch, args.records - stats["records"]))]
        stats["records"] += len(generated)
        data = damage(rng, WRITERS[fmt](generated)[0])
        path = folder / f"batch{stats['files']}.{fmt}"
        path.write_bytes(data)
        stats["files"] += 1
        problems = Problems(limit_logged=0)
        start = time.perf_counter()
        try:
            try:
                records = list(read_records([path], problems, format=fmt))
            except InputError:
                stats["files_refused"] += 1
                records = []
            graph = new_graph()
            for rec in records:
                extraction, entities = extraction_for(rng, rec)
                add_all(graph, record_triples(rec, extraction, lambda label, e=entities: e.get(iri.normalise_key(label))))
                for entity in entities.values():
                    add_all(graph, entity_triples(entity, known=set(entities)))
            check_outputs(graph, folder, stats, failures)
        except Exception:
            stats["crashes"] += 1
            failures.append(f"crash on {fmt} file {stats['files']} (kept as {path}):\n{traceback.format_exc()}")
            continue
        elapsed = time.perf_counter() - start
        slowest, total = max(slowest, elapsed), total + elapsed
        stats["records_read"] += len(records)
        stats["problems"] += len(problems.items)
        stats["skipped"] += problems.skipped_records
        stats["bad_problem_lines"] += sum(1 for p in problems.items if not str(p).isprintable())
        stats["triples"] += len(graph)
        if sum(f == fmt for f, _ in sample) < args.sample_files // len(args.formats) and stats["files"] % 5 == 1:
            kept = folder.parent / f"sample{len(sample)}.{fmt}"
            shutil.copyfile(path, kept)
            sample.append((fmt, kept))
        path.unlink()
    stats["seconds"], stats["slowest_file_seconds"] = round(total, 1), round(slowest, 2)
    return stats


def pipeline_sample(sample: list, folder: Path, failures: list) -> dict:
    """The whole pipeline, real extractor included, on a sample of the damaged files."""
    from scholarkg.pipeline import build

    stats = dict.fromkeys(["files", "records_read", "triples", "crashes", "outputs_checked", "output_failures"], 0)
    start = time.perf_counter()
    for fmt, path in sample:
        stats["files"] += 1
        try:
            try:
                result = build([path], format=fmt, problems=Problems(limit_logged=0))
            except InputError:
                continue
            stats["records_read"] += len(result.records)
            stats["triples"] += len(result.graph)
            check_outputs(result.graph, folder, stats, failures)
        except Exception:
            stats["crashes"] += 1
            failures.append(f"crash in the pipeline on {path}:\n{traceback.format_exc()}")
    stats["seconds"] = round(time.perf_counter() - start, 1)
    return stats


def report(args, results: dict, sample: dict, failures: list, seconds: float) -> str:
    keys = ["records", "files", "files_refused", "records_read", "skipped", "problems", "bad_problem_lines", "crashes",
            "outputs_checked", "output_failures", "triples", "seconds", "slowest_file_seconds"]
    total = {k: sum(r[k] for r in results.values()) for k in keys[:-1]}
    total["seconds"] = round(total["seconds"], 1)
    total["slowest_file_seconds"] = max(r["slowest_file_seconds"] for r in results.values())
    lines = [
        "# Fuzz benchmark", "",
        f"Command: `python bench/fuzz.py --records {args.records} --batch {args.batch} --seed {args.seed}`", "",
        f"Records tried: **{total['records']:,}** ({args.records:,} per reader), in {total['files']:,} damaged files of "
        f"{args.batch} records. Crashes: **{total['crashes'] + sample['crashes']}**. Outputs that fail to parse or read "
        f"back differently: **{total['output_failures'] + sample['output_failures']}** of "
        f"{total['outputs_checked'] + sample['outputs_checked']:,} checked. Problem lines that are not one printable line: "
        f"**{total['bad_problem_lines']}**. Wall time {seconds / 60:.1f} min.", "",
        "Each output is Turtle, N-Triples and JSON-LD read back by pyoxigraph (exactly the statements built), plus Turtle "
        "and N-Triples counted by Serd and Raptor: five checks per file.", "",
        "| reader | " + " | ".join(k.replace("_", " ") for k in keys) + " |",
        "|---|" + "---:|" * len(keys),
    ]
    for fmt, r in [*results.items(), ("total", total)]:
        lines.append(f"| {fmt} | " + " | ".join(f"{r[k]:,}" if isinstance(r[k], int) else f"{r[k]}" for k in keys) + " |")
    lines += ["", f"Whole pipeline with the real extractor on a sample of {sample['files']} damaged files: "
              f"{sample['records_read']:,} records read, {sample['triples']:,} statements, {sample['crashes']} crashes, "
              f"{sample['output_failures']} output failures of {sample['outputs_checked']} checked ({sample['seconds']} s).", ""]
    if failures:
        lines += ["## Failures", "", "```", *[f[:3000] for f in failures[:20]], "```", ""]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    import logging

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--records", type=int, default=20_000, help="records per reader (default 20,000: 100,000 in all)")
    parser.add_argument("--batch", type=int, default=500, help="records per file (default 500)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--huge", type=float, default=2e-5, help="share of fields that are megabytes long")
    parser.add_argument("--sample-files", type=int, default=10, help="damaged files run through the whole pipeline")
    parser.add_argument("--formats", nargs="*", default=list(FORMATS), choices=FORMATS)
    parser.add_argument("--report", type=Path, help="write the Markdown report here too")
    args = parser.parse_args(argv)
    logging.getLogger("scholarkg").addHandler(logging.NullHandler())
    logging.getLogger("scholarkg").propagate = False
    rng = random.Random(args.seed)
    failures: list[str] = []
    sample: list = []
    start = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="scholarkg-fuzz-") as tmp:
        folder = Path(tmp) / "work"
        folder.mkdir()
        results = {}
        for fmt in args.formats:
            results[fmt] = fuzz_format(fmt, args, rng, folder, failures, sample)
            print(f"{fmt}: {results[fmt]}", file=sys.stderr, flush=True)
        sampled = pipeline_sample(sample, folder, failures)
        print(f"pipeline sample: {sampled}", file=sys.stderr, flush=True)
    text = report(args, results, sampled, failures, time.perf_counter() - start)
    print(text)
    if args.report:
        args.report.parent.mkdir(parents=True, exist_ok=True)
        args.report.write_text(text, encoding="utf-8")
    bad = sum(r["crashes"] + r["output_failures"] + r["bad_problem_lines"] for r in results.values())
    return 1 if bad or sampled["crashes"] or sampled["output_failures"] else 0


if __name__ == "__main__":
    sys.exit(main())
