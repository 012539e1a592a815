"""A full disk is exit code 5 with one line, whichever layer finds it (Python, SQLite, RocksDB), and
the store stays readable and buildable once there is space again.

The disks are real: small tmpfs file systems mounted in a private mount namespace
(``unshare --user --map-root-user --mount``), where each command runs; skipped where the
system does not allow that.
"""

from __future__ import annotations

import shlex
import shutil
import subprocess
import sys

import pytest
from storekit import GRAPH_COUNT

from scholarkg.errors import disk_full

pytestmark = pytest.mark.slow


def _namespaces_work() -> bool:
    if shutil.which("unshare") is None:
        return False
    done = subprocess.run(["unshare", "--user", "--map-root-user", "--mount", "sh", "-c",
                           "mount -t tmpfs -o size=64k tmpfs /mnt && touch /mnt/x"], capture_output=True)
    return done.returncode == 0


needs_namespaces = pytest.mark.skipif(not _namespaces_work(), reason="cannot mount a small file system here")


def _on_small_disk(tmp_path, size: str, steps: list[list[str]], grow_to: str | None = None) -> list[tuple[int, str, str]]:
    """Run ``scholarkg`` commands (``{disk}`` is the small disk) in one mount namespace; then exit
    code, stderr and stdout of each. With ``grow_to``, the disk grows to that size after the first step."""
    disk = tmp_path / "disk"
    disk.mkdir()
    script = [f"mount -t tmpfs -o size={size} tmpfs {shlex.quote(str(disk))} || exit 99"]
    for n, step in enumerate(steps):
        if n == 1 and grow_to:
            script.append(f"mount -o remount,size={grow_to} {shlex.quote(str(disk))}")
        words = " ".join(shlex.quote(a.replace("{disk}", str(disk))) for a in step)
        script.append(f"{shlex.quote(sys.executable)} -m scholarkg.cli {words} >{tmp_path}/out{n} 2>{tmp_path}/err{n}; "
                      f"echo $? >{tmp_path}/rc{n}")
    done = subprocess.run(["unshare", "--user", "--map-root-user", "--mount", "sh", "-c", "\n".join(script)],
                          capture_output=True, timeout=600)
    assert done.returncode != 99, done.stderr
    return [(int((tmp_path / f"rc{n}").read_text()), (tmp_path / f"err{n}").read_text(), (tmp_path / f"out{n}").read_text())
            for n in range(len(steps))]


def _one_error_line(stderr: str) -> str:
    errors = [line for line in stderr.splitlines() if line.startswith("error:")]
    assert len(errors) == 1 and "Traceback" not in stderr and "internal error" not in stderr, stderr
    return errors[0]


@needs_namespaces
@pytest.mark.parametrize("size", ["64k", "300k", "1m", "2m", "4m"])
def test_a_store_build_on_a_full_disk_is_exit_5_at_whatever_point_it_fills(tmp_path, seed_path, size):
    ((code, stderr, _out),) = _on_small_disk(tmp_path, size, [["-q", "build", str(seed_path), "--store", "{disk}/s"]])
    assert code == 5, stderr
    line = _one_error_line(stderr).lower()
    assert "no space left on device" in line or "database or disk is full" in line  # RocksDB's words or SQLite's


@needs_namespaces
def test_after_a_full_disk_the_store_is_readable_and_the_next_build_completes_it(tmp_path, seed_path, seed_store):
    from scholarkg.store import GraphStore

    with GraphStore(seed_store) as store:
        expected = store.count()
    steps = [["-q", "build", str(seed_path), "--store", "{disk}/s"],
             ["stats", "--store", "{disk}/s"],
             ["-q", "build", str(seed_path), "--store", "{disk}/s"],
             ["query", "--store", "{disk}/s", GRAPH_COUNT, "--format", "csv"]]
    results = _on_small_disk(tmp_path, "4m", steps, grow_to="64m")
    assert results[0][0] == 5
    assert [code for code, _err, _out in results[1:]] == [0, 0, 0], results
    assert results[3][2].split() == ["n", str(expected)]  # the same graph as a build that never ran out


@needs_namespaces
def test_a_folder_build_on_a_full_disk_is_exit_5(tmp_path, seed_path):
    ((code, stderr, _out),) = _on_small_disk(tmp_path, "256k", [["-q", "build", str(seed_path), "--out", "{disk}/g"]])
    assert code == 5 and "No space left on device" in _one_error_line(stderr)


def test_writing_to_a_full_device_is_exit_5(seed_out):
    with open("/dev/full", "wb") as full:
        done = subprocess.run([sys.executable, "-m", "scholarkg.cli", "export", str(seed_out), "--format", "turtle"],
                              stdout=full, stderr=subprocess.PIPE, text=True)
    assert done.returncode == 5
    assert "no space left on device" in _one_error_line(done.stderr)


def test_quota_and_sqlite_wordings_are_recognised():
    import errno
    import sqlite3

    assert disk_full(OSError(errno.EDQUOT, "Disk quota exceeded")) == "disk quota exceeded"
    try:
        raise RuntimeError("while writing") from OSError(errno.ENOSPC, "No space left on device")
    except RuntimeError as exc:
        assert disk_full(exc) == "no space left on device"
    assert disk_full(sqlite3.OperationalError("database or disk is full")) == "no space left on device"
    assert disk_full(OSError("IO error: No space left on device: While appending to file: 000008.log")) is not None
    assert disk_full(ValueError("No space left on device")) is None  # only errors of the system and its libraries
