"""What a build costs on a large store when it adds, repeats or changes a few records.

    python bench/bench_incremental.py                              # 20,000 records
    python bench/bench_incremental.py --baseline 9998350           # and an older revision, in the same run
    python bench/bench_incremental.py --baseline 9998350 --report bench/results/incremental.md

A store of ``--records`` synthetic records (``bench/synthetic.py``, the corpus ``bench_targets.py``
uses) is built once with the project's extractor through the real CLI, by the baseline revision
when one is given (a store an older version wrote is what an upgrade meets). Each revision then
works on its own copy of it: one build of one new record first (not measured: a store another
version wrote is brought up to date there), then, each through ``scholarkg build FILE --store
STORE`` in a fresh process, ``--repeat`` times:

- one new record (another one each time);
- 100 new records (another 100 each time);
- the last 100 again (nothing changes);
- one stored record with a changed abstract (another one each time).

The same one and 100 new records are also built into an empty store by this checkout: the cost
of the records themselves, with nothing stored. Figures are CPU-seconds of the build process
(user + system, so that other work on a shared machine does not count), medians; wall seconds
beside them.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path[:0] = [str(HERE), str(REPO / "src")]


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def build(src: Path, inputs: Path, store: Path) -> dict:
    """``scholarkg build INPUTS --store STORE`` with the package at ``src``, in a fresh process."""
    cpu, wall = _children_cpu(), time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "scholarkg.cli", "build", str(inputs), "--store", str(store)],
                          env={**os.environ, "PYTHONPATH": str(src)}, capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"build of {inputs} into {store} failed: {done.stderr.strip()[-500:]}")
    return {"cpu": _children_cpu() - cpu, "wall": time.perf_counter() - wall}


def _jsonl(path: Path, records: list[dict]) -> Path:
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records), encoding="utf-8")
    return path


def scenarios(corpus: list[dict], extra: list[dict], repeat: int) -> dict[str, list[list[dict]]]:
    """The inputs of each measured build, ``repeat`` of each; ``extra[0]`` is the warm-up."""
    changed = [dict(corpus[10 * (i + 1)], abstract=corpus[10 * (i + 1)]["abstract"] + " We also report results on MMLU.")
               for i in range(repeat)]
    hundreds = [extra[1 + repeat + 100 * i: 1 + repeat + 100 * (i + 1)] for i in range(repeat)]
    return {
        "one new record": [[extra[1 + i]] for i in range(repeat)],
        "100 new records": hundreds,
        "the last 100 again": [hundreds[-1]] * repeat,
        "one changed record": [[r] for r in changed],
    }


def measure(name: str, src: Path, base: Path, work: Path, plan: dict, warm_up: list[dict], log) -> dict:
    store = work / f"{name.replace(' ', '-')}.store"
    shutil.rmtree(store, ignore_errors=True)
    shutil.copytree(base, store)
    log(f"{name}: warm-up build")
    build(src, _jsonl(work / "warm-up.jsonl", warm_up), store)
    out: dict = {}
    for scenario, runs in plan.items():
        times = [build(src, _jsonl(work / f"in-{i}.jsonl", records), store) for i, records in enumerate(runs)]
        out[scenario] = {"cpu": statistics.median(t["cpu"] for t in times), "wall": statistics.median(t["wall"] for t in times),
                         "runs": [round(t["cpu"], 2) for t in times]}
        log(f"{name}: {scenario}: {out[scenario]['cpu']:.2f} CPU-s (runs {out[scenario]['runs']})")
    shutil.rmtree(store, ignore_errors=True)
    return out


def fresh(src: Path, work: Path, plan: dict, log) -> dict:
    out: dict = {}
    for scenario in ("one new record", "100 new records"):
        times = []
        for i, records in enumerate(plan[scenario]):
            store = work / "empty.store"
            shutil.rmtree(store, ignore_errors=True)
            times.append(build(src, _jsonl(work / f"fresh-{i}.jsonl", records), store))
        out[scenario] = {"cpu": statistics.median(t["cpu"] for t in times), "wall": statistics.median(t["wall"] for t in times),
                         "runs": [round(t["cpu"], 2) for t in times]}
        log(f"empty store: {scenario}: {out[scenario]['cpu']:.2f} CPU-s")
    shutil.rmtree(work / "empty.store", ignore_errors=True)
    return out


def _revision(rev: str = "HEAD") -> str:
    return subprocess.run(["git", "-C", str(REPO), "rev-parse", "--short", rev], check=True, capture_output=True,
                          text=True).stdout.strip()


def report(result: dict) -> str:
    names = list(result["revisions"])
    ours = names[-1]
    head = ["| build on the store | " + " | ".join(f"{n} CPU s (wall)" for n in names) + " | empty store, this checkout |"
            + (f" {names[0]} / this checkout |" if len(names) > 1 else ""),
            "|---|" + "---:|" * (len(names) + 1 + (len(names) > 1))]
    rows = []
    for scenario in result["revisions"][ours]:
        cells = [f"{result['revisions'][n][scenario]['cpu']:.2f} ({result['revisions'][n][scenario]['wall']:.1f})" for n in names]
        empty = result["empty"].get(scenario)
        cells.append(f"{empty['cpu']:.2f} ({empty['wall']:.1f})" if empty else "")
        if len(names) > 1:
            cells.append(f"{result['revisions'][names[0]][scenario]['cpu'] / result['revisions'][ours][scenario]['cpu']:.2f}x")
        rows.append(f"| {scenario} | " + " | ".join(cells) + " |")
    return "\n".join([
        f"# Builds on a store of {result['records']:,} records ({result['statements']:,} statements)",
        "",
        f"`{result['command']}`, {result['machine']}. The base store was built by {result['base_built_by']} "
        f"in {result['base_cpu']:.0f} CPU-s. Medians of {result['repeat']} builds, each through the CLI in a fresh "
        "process; CPU-seconds (user + system), wall seconds in brackets. The last column but one builds the same "
        "new records into an empty store: what they cost with nothing stored.",
        "",
        *head, *rows, "",
    ])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--records", type=int, default=20_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--baseline", help="a git revision to measure too (checked out with git archive)")
    parser.add_argument("--work", type=Path, default=HERE / "out")
    parser.add_argument("--report", type=Path, help="write the report here (and its figures beside it, .json)")
    args = parser.parse_args(argv)
    import synthetic
    from bench_store import write_corpus

    started = time.monotonic()

    def log(message: str) -> None:
        print(f"[{time.monotonic() - started:7.0f}s] {message}", file=sys.stderr, flush=True)

    args.work.mkdir(parents=True, exist_ok=True)
    corpus_path = write_corpus(args.work / f"corpus-{args.records}.jsonl", args.records, seed=13)
    corpus = [json.loads(line) for line in corpus_path.read_text(encoding="utf-8").splitlines()]
    extra = list(synthetic.generate(args.records + 1 + 101 * args.repeat, seed=13))[args.records:]  # after the corpus
    plan = scenarios(corpus, extra, args.repeat)
    with tempfile.TemporaryDirectory(prefix="scholarkg-bench-incremental-", dir=args.work) as tmp:
        work = Path(tmp)
        sources = {f"this checkout ({_revision()})": REPO / "src"}
        if args.baseline:
            old = work / "baseline"
            old.mkdir()
            archive = subprocess.run(["git", "-C", str(REPO), "archive", args.baseline], check=True, capture_output=True).stdout
            subprocess.run(["tar", "-x", "-C", str(old)], input=archive, check=True)
            sources = {f"{_revision(args.baseline)}": old / "src", **sources}
        first = next(iter(sources))
        base = work / "base.store"
        log(f"building the base store of {args.records:,} records with {first}")
        built = build(sources[first], corpus_path, base)
        from scholarkg.store.snapshot import statement_count

        result = {"records": args.records, "statements": statement_count(base), "repeat": args.repeat,
                  "base_built_by": first, "base_cpu": built["cpu"],
                  "machine": f"Python {platform.python_version()}, {platform.machine()}",
                  "command": "python bench/bench_incremental.py" + (f" --records {args.records}" if args.records != 20_000 else "")
                  + (f" --repeat {args.repeat}" if args.repeat != 3 else "")
                  + (f" --baseline {args.baseline}" if args.baseline else ""),
                  "revisions": {}}
        for name, src in sources.items():
            result["revisions"][name] = measure(name, src, base, work, plan, [extra[0]], log)
        result["empty"] = fresh(REPO / "src", work, plan, log)
    text = report(result)
    print(text)
    if args.report:
        args.report.write_text(text, encoding="utf-8")
        args.report.with_suffix(".json").write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
