"""Hazard: nothing half-written.

Builds are killed with SIGKILL at random moments, many times. After every kill the output
folder holds, byte for byte, either the complete old outputs or the complete new ones (never
a mix, never a truncated file, never a missing folder), and the next build completes and
leaves no temporary files. Two builds into the same folder at once: one lands, the other
gets a clear "locked" error, or both land one after the other; nothing is lost.

The many kills hit forked copies of this test process that run the real writing code
(:func:`~scholarkg.pipeline.write_outputs`, :func:`~scholarkg.fileio.replace_directory`)
with both builds already in memory, so each attempt costs milliseconds; a few more kill the
real ``scholarkg build`` command at random points of its whole run.
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from scholarkg import fileio
from scholarkg.errors import LockedError
from scholarkg.fileio import recover_directory, replace_directory
from scholarkg.pipeline import build, write_outputs

RECORDS_B = [
    {"title": "Alpha Paper", "abstract": "We train with GRPO and evaluate on BrowseComp.", "year": 2024, "categories": ["cs.CL"]},
    {"title": "Beta Paper", "abstract": "A new benchmark for agents.", "year": 2023, "categories": ["cs.AI"]},
]


def snapshot(folder: Path) -> dict[str, bytes] | None:
    return {p.name: p.read_bytes() for p in folder.iterdir()} if folder.exists() else None


def leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.parent.iterdir() if p.name.startswith(f".{folder.name}.") and not p.name.endswith(".lock"))


@pytest.fixture(scope="module")
def builds(tmp_path_factory, demo_build):
    """Two different builds and the exact bytes each writes.

    ``build.json`` names the inputs relative to the output folder, so every output folder of
    these tests sits beside the reference folders (``target()`` gives a fresh one)."""
    folder = tmp_path_factory.mktemp("refs")
    seed_build = demo_build  # what `scholarkg build examples/maojia-song.txt` makes
    small = folder / "small.jsonl"
    small.write_text("".join(json.dumps(r) + "\n" for r in RECORDS_B), encoding="utf-8")
    other = build([small])
    refs = {}
    for name, result in (("A", seed_build), ("B", other)):
        write_outputs(result, folder / name)
        refs[name] = snapshot(folder / name)
    assert refs["A"] != refs["B"] and set(refs["A"]) == set(refs["B"])
    counter = iter(range(1_000_000))
    return {"A": seed_build, "B": other, "files": refs, "small": small,
            "target": lambda: folder / f"out-{next(counter)}"}


def _fork(work) -> int:
    """Run ``work()`` in a forked child that exits 0 if it returns, 1 if it raises; its pid."""
    pid = os.fork()
    if pid == 0:
        code = 1
        try:
            work()
            code = 0
        finally:
            os._exit(code)
    return pid


def _kill_after(delay: float, work) -> int:
    """Run ``work()`` in a forked child, SIGKILL it after ``delay`` s; return its wait status."""
    pid = _fork(work)
    time.sleep(delay)
    try:
        os.kill(pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    return os.waitpid(pid, 0)[1]


def _child_seconds(work) -> float:
    """How long ``work()`` takes in a forked child, from fork to exit (what a kill races)."""
    start = time.monotonic()
    pid = _fork(work)
    assert os.waitpid(pid, 0)[1] == 0
    return time.monotonic() - start


def _kill_loop(target: Path, attempts: int, work_for, delay_for, rng: random.Random, refs) -> dict[str, int]:
    counts = {"killed": 0, "finished": 0}
    current = snapshot(target)
    for n in range(attempts):
        name = "AB"[n % 2]
        status = _kill_after(delay_for(), work_for(name))
        after = snapshot(target)
        if after is None:  # only possible without an atomic exchange: the old set is kept aside
            recover_directory(target)
            after = snapshot(target)
        assert after in (current, refs[name]), f"attempt {n}: a mix of old and new outputs"
        counts["killed" if os.WIFSIGNALED(status) else "finished"] += 1
        current = after
    return counts


def _kill_writing_until(target: Path, whole: float, rng: random.Random, refs, killed: int, finished: int) -> dict[str, int]:
    """Kill ``replace_directory`` into ``target`` in rounds of 50 until both outcomes were seen.

    ``whole`` is one rough timing of the writing; on a shared machine it can be far off, so the
    spread of kill moments is narrowed or widened between rounds (at most 8) until at least
    ``killed`` attempts were killed and ``finished`` ran to the end."""
    counts, spread = {"killed": 0, "finished": 0}, 1.3
    for _round in range(8):
        if counts["killed"] >= killed and counts["finished"] >= finished:
            break
        got = _kill_loop(target, 50, lambda name: (lambda: replace_directory(target, refs[name])),
                         lambda s=spread: rng.uniform(0, s) * whole, rng, refs)
        counts = {k: counts[k] + got[k] for k in counts}
        spread *= 0.6 if got["killed"] < 10 else 1.6 if got["finished"] < 3 else 1.0
    return counts


def test_kill_while_writing_outputs(tmp_path, builds):
    target = builds["target"]()
    write_outputs(builds["A"], target)
    rng = random.Random(7)
    # The whole of write_outputs (serialising, then writing): kills spread over it and past its end.
    full = _child_seconds(lambda: write_outputs(builds["B"], builds["target"]()))
    counts = _kill_loop(target, 6, lambda name: (lambda: write_outputs(builds[name], target)),
                        lambda: rng.uniform(0.5, 1.1) * full, rng, builds["files"])
    assert counts["killed"] >= 2, counts
    whole = _child_seconds(lambda: replace_directory(builds["target"](), builds["files"]["A"]))
    # The writing itself, many times: kills spread over the few milliseconds it takes.
    counts = _kill_writing_until(target, whole, rng, builds["files"], killed=20, finished=5)
    assert counts["killed"] >= 20 and counts["finished"] >= 5, counts
    replace_directory(target, builds["files"]["B"])  # the next build completes and cleans up
    assert snapshot(target) == builds["files"]["B"] and leftovers(target) == []


def test_kill_while_writing_without_atomic_exchange(tmp_path, builds, monkeypatch):
    """Where two renames are needed, a kill between them is repaired by the next build."""
    monkeypatch.setattr(fileio, "_exchange", lambda a, b: False)
    target = builds["target"]()
    replace_directory(target, builds["files"]["A"])
    whole = _child_seconds(lambda: replace_directory(builds["target"](), builds["files"]["B"]))
    rng = random.Random(11)
    counts = _kill_writing_until(target, whole, rng, builds["files"], killed=10, finished=3)
    assert counts["killed"] >= 10 and counts["finished"] >= 3, counts
    replace_directory(target, builds["files"]["A"])
    assert snapshot(target) == builds["files"]["A"] and leftovers(target) == []


def _cli(*args: str | Path) -> subprocess.Popen:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    return subprocess.Popen([sys.executable, "-m", "scholarkg.cli", *map(str, args)], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def _writing_started(out: Path, proc: subprocess.Popen, limit: float) -> bool:
    """Wait until ``proc`` starts writing its new output folder (or ends, or ``limit`` s pass)."""
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline and proc.poll() is None:
        if any(p.name.startswith(f".{out.name}.new-") for p in out.parent.iterdir()):
            return True
        time.sleep(0.001)
    return False


def test_kill_the_build_command_at_random_points(tmp_path, builds):
    out = builds["target"]()
    write_outputs(builds["A"], out)
    rng = random.Random(3)
    # Once at a random moment of its start (reading, extracting), once as it writes its outputs.
    early = _cli("build", builds["small"], "--out", out)
    time.sleep(rng.uniform(0.2, 2.0))
    early.send_signal(signal.SIGKILL)
    early.wait(timeout=30)
    assert snapshot(out) in (builds["files"]["A"], builds["files"]["B"])
    current = snapshot(out)
    late = _cli("build", builds["small"], "--out", out)
    writing = _writing_started(out, late, limit=120)
    time.sleep(rng.uniform(0, 0.01))
    late.send_signal(signal.SIGKILL)
    late.wait(timeout=30)
    assert snapshot(out) in (current, builds["files"]["B"])
    assert writing or late.returncode == 0, "the build neither started writing nor finished"
    write_outputs(builds["B"], out)  # the next build completes (same code as the command's last step)
    assert snapshot(out) == builds["files"]["B"] and leftovers(out) == []


def test_two_builds_into_one_folder(tmp_path, builds, seed_path):
    out = builds["target"]()
    first, second = _cli("build", seed_path, "--out", out), _cli("build", builds["small"], "--out", out)
    codes = (first.wait(timeout=180), second.wait(timeout=180))
    errors = first.stderr.read() + second.stderr.read()
    assert sorted(codes) in ([0, 0], [0, 5]), (codes, errors)
    if 5 in codes:
        loser = "AB"[codes.index(5)]
        assert f"error: {out}: locked by another running build; try again when it ends" in errors
        assert snapshot(out) == builds["files"]["B" if loser == "A" else "A"]
    else:
        assert snapshot(out) in (builds["files"]["A"], builds["files"]["B"])
    assert leftovers(out) == []


def test_concurrent_writers_never_mix(tmp_path, builds):
    """Many pairs of writers racing on one folder: each lands whole or is told it is locked."""
    target = builds["target"]()
    replace_directory(target, builds["files"]["A"])
    outcomes = []
    for _ in range(20):
        pids = []
        for name in "AB":
            pid = os.fork()
            if pid == 0:
                code = 1
                try:
                    replace_directory(target, builds["files"][name])
                    code = 0
                except LockedError:
                    code = 5
                finally:
                    os._exit(code)
            pids.append(pid)
        codes = tuple(os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]) for pid in pids)
        assert sorted(codes) in ([0, 0], [0, 5]), codes
        outcomes.append(codes)
        assert snapshot(target) in (builds["files"]["A"], builds["files"]["B"])
    assert leftovers(target) == []
