"""Fuzz benchmark: malformed and adversarial records through every reader and the graph builder.

    python bench/fuzz.py                       # 20,000 records per reader, 100,000 in all
    python bench/fuzz.py --records 2000        # a quick run
    make fuzz                                  # the full run, report in bench/results/fuzz.md

Records are generated with hostile values (control characters, lone surrogates, NUL bytes,
bidirectional overrides, line separators, noncharacters, emoji, combining marks, TeX, HTML,
wrong types, missing fields, years that are not years, unknown categories, occasional
fields of megabytes), written in each of the five input formats, and then damaged as files
are in the wild (cut short, bytes flipped, garbage and invalid UTF-8 inserted, spans deleted
or repeated, line ends changed to CR LF or CR alone, re-encoded as UTF-16 or UTF-32 with a
byte-order mark or as Latin-1, an unreadable record count put in front). Each damaged file goes through its reader, and every record
read goes, with a generated extraction derived from its own text (entity labels, results,
links), through the graph builder. The graph is written as Turtle, N-Triples and JSON-LD and
read back: by pyoxigraph's strict parsers, which must return exactly the statements built,
and, for Turtle and N-Triples, by Serd and Raptor, which must agree on the count. A sample of
the files also goes through the whole pipeline with the real extractor. Last, hostile HTTP
requests go to a running `scholarkg serve`: every one must get an answer or a clean close,
never a reset, a hang or an internal error, and the endpoint must keep answering.

Counted as a crash: any exception other than scholarkg's own InputError for a file that
cannot be read at all. Counted as an output failure: any output a parser rejects or reads
back differently. Both must be zero. Problem lines must each be one printable line.
"""

from __future__ import annotations

import argparse
import contextlib
import random
import shutil
import socket
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
        kind = rng.randrange(13)
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
        elif kind == 8:
            data = data[:at] + b"\n" + rng.choice([b"{not json", b"<entry>", b"@misc{x,", b"arXiv2020", b"</feed>", b"]]>"]) + b"\n" + data[at:]
        elif kind == 9:  # another encoding, announced by its byte-order mark (bad bytes become lone surrogates)
            codec, bom = rng.choice([("utf-16-le", b"\xff\xfe"), ("utf-16-be", b"\xfe\xff"),
                                     ("utf-32-le", b"\xff\xfe\x00\x00"), ("utf-32-be", b"\x00\x00\xfe\xff")])
            data = bom + data.decode("utf-8", "surrogateescape").encode(codec, "surrogatepass")
        elif kind == 10:
            data = data.replace(b"\r\n", b"\n").replace(b"\n", b"\r")  # old Mac line ends
        elif kind == 11:
            data = data.decode("utf-8", "replace").encode("cp1252", "replace")  # written as Latin-1
        else:  # a record count no one can read, where a profile page has its header
            claim = rng.choice([b"9" * 5000, b",,,", b"1,2,3", b"", b"12345678901234567890", b"\xff\xfe"])
            data = b"At least " + claim + b" records\n" + data
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


# --- hostile HTTP requests against `scholarkg serve` ------------------------------------------

METHODS = [b"GET", b"POST", b"HEAD", b"PUT", b"DELETE", b"OPTIONS", b"PATCH", b"TRACE", b"CONNECT", b"G\x00T", b"", b"get",
           b"POST" * 3000]
PATHS = [b"/query", b"/sparql", b"/update", b"/", b"/query?query=ASK%7B%7D", b"/query?query=%ZZ", b"/query?query=a&query=b",
         b"/query?format=csv&query=SELECT%20*%20WHERE%20%7B%3Fs%20%3Fp%20%3Fo%7D%20LIMIT%201", b"*",
         b"http://127.0.0.1/query?query=ASK%7B%7D", b"/%00", b"/../../etc/passwd", b"/" + b"a" * 70_000, b"/query?" + b"x=1&" * 2000]
VERSIONS = [b"HTTP/1.1", b"HTTP/1.0", b"HTTP/0.9", b"HTTP/2.0", b"HTTP/1.1 x", b"", b"HTTP/1.1\x00", b"FTP/1.0"]
QUERIES = [b"SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }", b"ASK {}", b"CONSTRUCT WHERE { ?s ?p ?o } LIMIT 5",
           b"SELECT * WHERE { SERVICE <http://127.0.0.1:9/> { ?s ?p ?o } }", b"SELECT * WHERE { \\u0053ERVICE <x:> {} }",
           b"SELECT * WHERE " + b"{" * 5000 + b"}" * 5000, b"LOAD <file:///etc/passwd>", b"INSERT DATA { <a:> <b:> <c:> }",
           b"DROP ALL", b"SELECT * FROM <file:///etc/passwd> WHERE { ?s ?p ?o }", b"SELECT ?x WHERE { BIND(" + b"1+" * 20_000 + b"1 AS ?x) }",
           b"SELECT * WHERE { ?s ?p '\xff\xfe' }", b"\x00\x01\x02", b"SELECT * WHERE { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i }",
           "SELECT * WHERE { ?s ?p 'caf\u00e9 \u202e' }".encode(), b"query=" + b"%41" * 1000, b"update=DROP%20ALL"]
TYPES = [b"application/sparql-query", b"application/sparql-update", b"application/x-www-form-urlencoded", b"text/plain",
         b"multipart/form-data; boundary=x", b"application/sparql-query; charset=latin-1", b"\xff"]
ACCEPTS = [b"*/*", b"text/csv", b"application/sparql-results+json;q=abc", b"image/png", b"text/*;q=0.5, */*;q=0.1",
           b",,,;;;", b"application/n-triples", b"a/" * 500]


def hostile_request(rng: random.Random) -> bytes:
    """One HTTP request a hostile or broken client might send, as bytes: half are well-formed
    requests carrying hostile queries and headers, half are broken at every level."""
    if rng.random() < 0.5:
        return _well_formed(rng)
    if rng.random() < 0.1:
        return rng.randbytes(rng.randint(0, 600))
    body = rng.choice(QUERIES) if rng.random() < 0.85 else rng.randbytes(rng.randint(0, 3000))
    if rng.random() < 0.04:
        body = b"x" * rng.randint(1_000_001, 3_000_000)
    line = b" ".join(part for part in (rng.choice(METHODS), rng.choice(PATHS), rng.choice(VERSIONS)) if part)
    headers = [b"Host: fuzz"]
    if rng.random() < 0.7:
        headers.append(b"Content-Type: " + rng.choice(TYPES))
    if rng.random() < 0.6:
        headers.append(b"Accept: " + rng.choice(ACCEPTS))
    length = rng.random()
    if length < 0.45:
        headers.append(b"Content-Length: %d" % len(body))
    elif length < 0.7:
        headers.append(b"Content-Length: " + rng.choice([b"-1", b"abc", b"1e3", b"+5", b"10" * 20, b"5, 5", b" ", b"0x10",
                                                          b"%d" % max(0, len(body) - rng.randint(1, 50)),
                                                          b"%d" % (len(body) + rng.randint(1, 50))]))
    elif length < 0.8:
        headers += [b"Content-Length: %d" % len(body)] * 2
    elif length < 0.9:
        headers.append(b"Transfer-Encoding: " + rng.choice([b"chunked", b"identity", b"gzip, chunked", b"\x00"]))
    for _ in range(rng.choice([0, 0, 0, 1, 2])):
        headers.append(rng.choice([b"Expect: 100-continue", b"Connection: keep-alive", b"Connection: close", b"X: " + b"y" * 70_000,
                                   b"no colon here", b" folded: line", b"X-\x00: nul", *[b"X-%d: y" % n for n in range(3)]]))
    if rng.random() < 0.03:
        headers += [b"X-%d: y" % n for n in range(150)]
    ending = rng.choice([b"\r\n", b"\r\n", b"\n", b"\r"])
    return line + ending + ending.join(headers) + ending + ending + body


def _well_formed(rng: random.Random) -> bytes:
    """A request whose framing is right, carrying a hostile query, form, Accept or Content-Type."""
    from urllib.parse import quote_from_bytes

    query = rng.choice(QUERIES) if rng.random() < 0.8 else rng.randbytes(rng.randint(0, 300))
    accept = b"Accept: " + rng.choice(ACCEPTS) + b"\r\n" if rng.random() < 0.7 else b""
    path = rng.choice([b"/query", b"/sparql", b"/update"])
    kind = rng.randrange(3)
    if kind == 0:
        target = path + b"?query=" + quote_from_bytes(query).encode() + rng.choice([b"", b"&format=csv", b"&output=xml",
                                                                                    b"&default-graph-uri=x:g", b"&query=ASK%7B%7D"])
        return b"GET " + target + b" HTTP/1.1\r\nHost: fuzz\r\n" + accept + b"\r\n"
    if kind == 1:
        body, content_type = query, rng.choice(TYPES[:2] + [b"application/sparql-query; charset=utf-8"])
    else:
        body = rng.choice([b"query=", b"update=", b"query=a&query=", b""]) + quote_from_bytes(query).encode()
        content_type = b"application/x-www-form-urlencoded"
    return (b"POST " + path + b" HTTP/1.1\r\nHost: fuzz\r\nContent-Type: " + content_type + b"\r\n" + accept
            + b"Content-Length: %d\r\n\r\n" % len(body) + body)


def _exchange(port: int, data: bytes) -> str:
    """Send ``data``, half-close, and say how the endpoint answered."""
    answer = b""
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:
            try:
                sock.sendall(data)
                sock.shutdown(socket.SHUT_WR)
            except (BrokenPipeError, ConnectionResetError):
                pass  # the endpoint answered and closed before taking everything: read what it said
            answer = b""
            while chunk := sock.recv(65536):
                answer += chunk
    except ConnectionResetError:
        return "reset" if not answer else _status(answer) + " then reset"
    except TimeoutError:
        return "no answer in 30 s"
    return _status(answer) if answer else "closed without an answer"


def _bad(outcome: str) -> bool:
    """A reset, a hang or an internal error; 503 (busy, or a query cancelled at the timeout) is an answer."""
    return "reset" in outcome or outcome.startswith(("no answer", "500", "502"))


def _status(answer: bytes) -> str:
    while answer.startswith(b"HTTP/1.1 100 "):  # an interim answer to Expect: 100-continue
        answer = answer.partition(b"\r\n\r\n")[2]
    if not answer:
        return "100 only"
    first = answer.split(b"\r\n", 1)[0].split()
    if len(first) >= 2 and first[0].startswith(b"HTTP/") and first[1].isdigit():
        return first[1].decode()
    return "answer without a status line"


def fuzz_serve(args, rng: random.Random, folder: Path, failures: list) -> dict:
    """``args.requests`` hostile requests from 8 clients at once against `scholarkg serve` run as users run it."""
    import collections
    import threading

    from scholarkg.store import GraphStore, build_store

    store = folder / "serve.store"
    build_store([REPO / "examples" / "maojia-song.txt"], store, problems=Problems(limit_logged=0))
    with GraphStore(store) as opened:
        expected = opened.count()
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    log = (folder / "serve.log").open("w+b")
    process = subprocess.Popen([sys.executable, "-m", "scholarkg.cli", "serve", str(store), "--port", str(port), "--timeout", "2"],
                               stdout=subprocess.DEVNULL, stderr=log, env={**__import__("os").environ, "PYTHONPATH": str(REPO / "src")})
    outcomes: collections.Counter = collections.Counter()
    start = time.perf_counter()
    try:
        for _ in range(600):
            with contextlib.suppress(OSError):
                if _exchange(port, b"GET /query?query=ASK%7B%7D HTTP/1.1\r\nHost: x\r\n\r\n") == "200":
                    break
            time.sleep(0.1)
        requests = [hostile_request(rng) for _ in range(args.requests)]
        guard = threading.Lock()

        def client(part: list[bytes]) -> None:
            for data in part:
                outcome = _exchange(port, data)
                with guard:
                    outcomes[outcome] += 1
                    if _bad(outcome):
                        if len(failures) < 20:
                            failures.append(f"serve: {outcome} for {data[:300]!r}")

        threads = [threading.Thread(target=client, args=(requests[n::8],)) for n in range(8)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        count = _exchange(port, b"POST /query HTTP/1.1\r\nHost: x\r\nContent-Type: application/sparql-query\r\nAccept: text/csv\r\n"
                                b"Content-Length: %d\r\n\r\n" % len(QUERIES[0]) + QUERIES[0])
        alive = process.poll() is None and count == "200"
    finally:
        process.terminate()
        process.wait(30)
    log.seek(0)
    text = log.read().decode("utf-8", "replace")
    log.close()
    tracebacks = text.count("Traceback")
    internal = sum(1 for line in text.splitlines() if "internal error" in line)
    return {"requests": args.requests, "outcomes": dict(outcomes), "alive": alive, "tracebacks": tracebacks,
            "internal_errors": internal, "seconds": round(time.perf_counter() - start, 1), "statements": expected}


def report(args, results: dict, sample: dict, served: dict | None, failures: list, seconds: float) -> str:
    keys = ["records", "files", "files_refused", "records_read", "skipped", "problems", "bad_problem_lines", "crashes",
            "outputs_checked", "output_failures", "triples", "seconds", "slowest_file_seconds"]
    total = {k: sum(r[k] for r in results.values()) for k in keys[:-1]}
    total["seconds"] = round(total["seconds"], 1)
    total["slowest_file_seconds"] = max(r["slowest_file_seconds"] for r in results.values())
    lines = [
        "# Fuzz benchmark", "",
        f"Command: `python bench/fuzz.py --records {args.records} --batch {args.batch} --seed {args.seed} --requests {args.requests}`", "",
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
    if served is not None:
        bad = sum(n for outcome, n in served["outcomes"].items() if _bad(outcome))
        lines += [f"Hostile HTTP requests against `scholarkg serve` (run as users run it, `--timeout 2`, over the seed "
                  f"profile's {served['statements']:,} statements): **{served['requests']:,}** requests from 8 clients at "
                  "once. Half are well-formed requests carrying hostile queries (refused, crashing, endless, not UTF-8), "
                  "forms, dataset parameters and `Accept` headers; half are broken at every level (request lines, methods, "
                  "paths and versions; negative, non-numeric, repeated, short and long `Content-Length`; chunked bodies; "
                  "bodies over the limit; oversized and malformed headers; bare CR or LF line ends; random bytes). "
                  "Resets, hangs and internal errors: "
                  f"**{bad}**; tracebacks in the endpoint's log: **{served['tracebacks']}**; the endpoint answered a "
                  f"normal query afterwards: **{'yes' if served['alive'] else 'no'}** ({served['seconds']} s).", "",
                  "| outcome | requests |", "|---|---:|"]
        for outcome, n in sorted(served["outcomes"].items(), key=lambda item: (-item[1], item[0])):
            lines.append(f"| {outcome} | {n:,} |")
        lines.append("")
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
    parser.add_argument("--requests", type=int, default=2_000, help="hostile HTTP requests against `scholarkg serve` (0: none)")
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
        served = fuzz_serve(args, rng, folder, failures) if args.requests else None
        print(f"serve: {served}", file=sys.stderr, flush=True)
    text = report(args, results, sampled, served, failures, time.perf_counter() - start)
    print(text)
    if args.report:
        args.report.parent.mkdir(parents=True, exist_ok=True)
        args.report.write_text(text, encoding="utf-8")
    bad = sum(r["crashes"] + r["output_failures"] + r["bad_problem_lines"] for r in results.values())
    if served is not None:
        bad += sum(n for outcome, n in served["outcomes"].items() if _bad(outcome)) + served["tracebacks"] + (not served["alive"])
    return 1 if bad or sampled["crashes"] or sampled["output_failures"] else 0


if __name__ == "__main__":
    sys.exit(main())
