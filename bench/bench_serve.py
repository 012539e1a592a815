"""Serve benchmark: `scholarkg serve` under load and under a negative Content-Length flood.

    python bench/bench_serve.py                              # this checkout
    python bench/bench_serve.py --baseline b3a41b7           # and an older revision, in the same run
    python bench/bench_serve.py --baseline b3a41b7 --report bench/results/serve.md

The endpoint is started as users start it (``python -m scholarkg.cli serve STORE``) over the
seed profile built into a store, on disk and with ``--in-memory``. Load: ``--rounds`` rounds of
20 client threads sending 50 queries each (plain urllib, a new connection per query), every
answer checked; failures are counted by kind (resets, timeouts, HTTP errors). Flood: one client
sends ``Content-Length: -1`` and then up to 400 MiB; the memory of the endpoint's whole process
tree (proportional set size: pages shared by forked processes count once) is sampled before,
at the peak and after. A baseline revision is checked out with
``git archive`` into a temporary folder and run with the same Python.
"""

from __future__ import annotations

import argparse
import collections
import contextlib
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
QUERY = b"SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def tree_pss_mib(pid: int) -> float:
    """Memory of ``pid`` and all its descendants, in MiB: the proportional set size, so pages that
    forked processes share are counted once."""
    parents = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            with contextlib.suppress(OSError, IndexError, ValueError):
                with open(f"/proc/{entry}/stat") as fh:
                    parents[int(entry)] = int(fh.read().rsplit(")", 1)[1].split()[1])
    todo, total = [pid], 0
    while todo:
        current = todo.pop()
        with contextlib.suppress(OSError, StopIteration):
            with open(f"/proc/{current}/smaps_rollup") as fh:
                total += next(int(line.split()[1]) for line in fh if line.startswith("Pss:"))
        todo += [child for child, parent in parents.items() if parent == current]
    return total / 1024


@contextlib.contextmanager
def serving(src: Path, store: Path, *options: str):
    port = free_port()
    env = {**os.environ, "PYTHONPATH": str(src)}
    process = subprocess.Popen([sys.executable, "-m", "scholarkg.cli", "serve", str(store), "--port", str(port), *options],
                               env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/query?query=ASK%7B%7D", timeout=5).close()
                break
            except OSError:
                if process.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError("the endpoint did not start") from None
                time.sleep(0.2)
        yield port, process
    finally:
        process.terminate()
        try:
            process.wait(20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def load_round(port: int, expected: int, threads: int = 20, queries: int = 50) -> tuple[collections.Counter, list[float], float]:
    outcomes: collections.Counter = collections.Counter()
    latencies: list[float] = []
    guard = threading.Lock()
    url = f"http://127.0.0.1:{port}/query"

    def client() -> None:
        for _ in range(queries):
            started = time.perf_counter()
            try:
                request = urllib.request.Request(url, data=QUERY, headers={"Content-Type": "application/sparql-query",
                                                                           "Accept": "text/csv"})
                with urllib.request.urlopen(request, timeout=60) as response:
                    body = response.read()
                kind = "ok" if body.split()[1:] == [str(expected).encode()] else "wrong answer"
            except urllib.error.HTTPError as exc:
                kind = f"HTTP {exc.code}"
            except Exception as exc:  # resets and timeouts are what is counted here
                kind = type(getattr(exc, "reason", exc)).__name__
            with guard:
                outcomes[kind] += 1
                latencies.append(time.perf_counter() - started)

    workers = [threading.Thread(target=client) for _ in range(threads)]
    started = time.perf_counter()
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    return outcomes, latencies, time.perf_counter() - started


def flood(port: int, pid: int, mib: int = 400) -> dict:
    before = tree_pss_mib(pid)
    peak = before
    sent = 0
    status = "no answer"
    with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:
        sock.sendall(b"POST /query HTTP/1.1\r\nHost: x\r\nContent-Type: application/sparql-query\r\nContent-Length: -1\r\n\r\n")
        chunk = b"x" * (1 << 20)
        try:
            for n in range(mib):
                sock.sendall(chunk)
                sent += len(chunk)
                if n % 16 == 0:
                    peak = max(peak, tree_pss_mib(pid))
            sock.shutdown(socket.SHUT_WR)
        except OSError:
            pass
        with contextlib.suppress(OSError):
            sock.settimeout(30)
            answer = sock.recv(200)
            status = answer.split(b"\r\n")[0].decode("latin-1") if answer else "closed without an answer"
    time.sleep(1.0)
    after = tree_pss_mib(pid)
    return {"before": before, "peak": max(peak, after), "after": after, "sent": sent >> 20, "status": status}


def measure(src: Path, store: Path, rounds: int, expected: int) -> dict:
    out = {}
    for mode, options in (("on disk", ()), ("in memory", ("--in-memory",))):
        with serving(src, store, *options) as (port, _process):
            totals: collections.Counter = collections.Counter()
            failing_rounds, latencies, walls = 0, [], []
            for _ in range(rounds):
                outcomes, lat, wall = load_round(port, expected)
                totals += outcomes
                failing_rounds += sum(v for k, v in outcomes.items() if k != "ok") > 0
                latencies += lat
                walls.append(wall)
            latencies.sort()
            out[mode] = {"outcomes": dict(totals), "failing_rounds": failing_rounds, "rounds": rounds,
                         "qps": 1000 / statistics.median(walls), "median_ms": statistics.median(latencies) * 1000,
                         "p99_ms": latencies[int(len(latencies) * 0.99)] * 1000}
            print(f"{src}: load {mode}: {out[mode]}", file=sys.stderr, flush=True)
    with serving(src, store) as (port, process):
        out["flood"] = flood(port, process.pid)
        print(f"{src}: flood: {out['flood']}", file=sys.stderr, flush=True)
    return out


def report(args, results: dict[str, dict]) -> str:
    lines = ["# Serve benchmark", "",
             f"Command: `python bench/bench_serve.py --rounds {args.rounds}" + (f" --baseline {args.baseline}`" if args.baseline else "`"),
             "", "The seed profile in a store; `scholarkg serve` as users start it. Each load round: 20 client threads x 50 "
             "queries (`SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }`, urllib, a new connection per query), every answer "
             "checked.", "",
             "| code | store | queries | failed | rounds with failures | failures by kind | queries/s (median round) | median ms | p99 ms |",
             "|---|---|---:|---:|---:|---|---:|---:|---:|"]
    for name, result in results.items():
        for mode in ("on disk", "in memory"):
            r = result[mode]
            failed = {k: v for k, v in r["outcomes"].items() if k != "ok"}
            kinds = ", ".join(f"{k} {v}" for k, v in sorted(failed.items())) or "none"
            lines.append(f"| {name} | {mode} | {sum(r['outcomes'].values()):,} | {sum(failed.values())} | {r['failing_rounds']} of "
                         f"{r['rounds']} | {kinds} | {r['qps']:.0f} | {r['median_ms']:.1f} | {r['p99_ms']:.1f} |")
    lines += ["", "Negative `Content-Length` followed by a flood of up to 400 MiB (memory of the endpoint's whole "
              "process tree, proportional set size):", "", "| code | answer | MiB sent before the endpoint stopped reading | MiB before | peak | after |",
              "|---|---|---:|---:|---:|---:|"]
    for name, result in results.items():
        f = result["flood"]
        lines.append(f"| {name} | {f['status']} | {f['sent']} | {f['before']:.0f} | {f['peak']:.0f} | {f['after']:.0f} |")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--baseline", help="a git revision to measure too (checked out with git archive)")
    parser.add_argument("--report", type=Path)
    args = parser.parse_args(argv)
    sys.path.insert(0, str(REPO / "src"))
    from scholarkg.store import GraphStore, build_store

    with tempfile.TemporaryDirectory(prefix="scholarkg-bench-serve-") as tmp:
        store = Path(tmp) / "seed.store"
        build_store([REPO / "examples" / "maojia-song.txt"], store)
        with GraphStore(store) as opened:
            expected = opened.count()
        sources = {"this checkout": REPO / "src"}
        if args.baseline:
            old = Path(tmp) / "baseline"
            old.mkdir()
            archive = subprocess.run(["git", "-C", str(REPO), "archive", args.baseline], check=True, capture_output=True).stdout
            subprocess.run(["tar", "-x", "-C", str(old)], input=archive, check=True)
            sources = {f"baseline {args.baseline}": old / "src", **sources}
        results = {name: measure(src, store, args.rounds, expected) for name, src in sources.items()}
    text = report(args, results)
    print(text)
    if args.report:
        args.report.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
