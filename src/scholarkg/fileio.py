"""Writing output files so that a crash never leaves a half-written file behind.

Every output goes to a temporary file in the target's own folder, is flushed and fsynced,
and then renamed over the target (an atomic step on POSIX file systems). A reader of the
target sees either the old file or the new one, never a mix or a truncated file.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import IO

from .errors import StoreError

__all__ = ["atomic_write", "write_bytes", "write_text", "locked", "replace_directory", "recover_directory"]


@contextlib.contextmanager
def atomic_write(path: str | Path, mode: str = "wb") -> Iterator[IO]:
    """Open a temporary file next to ``path``; on success rename it over ``path``."""
    target = Path(path)
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    except OSError as exc:
        raise StoreError(f"{target}: cannot write ({exc.strerror or exc})") from exc
    try:
        encoding = None if "b" in mode else "utf-8"
        with os.fdopen(fd, mode, encoding=encoding, newline=None if "b" in mode else "") as fh:
            yield fh
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, 0o644)
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    with contextlib.suppress(OSError):
        dir_fd = os.open(target.parent, os.O_RDONLY)
        try:
            os.fsync(dir_fd)
        finally:
            os.close(dir_fd)


def write_bytes(path: str | Path, data: bytes) -> None:
    with atomic_write(path, "wb") as fh:
        fh.write(data)


def write_text(path: str | Path, text: str) -> None:
    write_bytes(path, text.encode("utf-8"))


@contextlib.contextmanager
def locked(target: str | Path) -> Iterator[None]:
    """Hold an exclusive lock on ``target`` (a file or folder) or raise LockedError at once."""
    import fcntl

    from .errors import LockedError

    target = Path(target)
    lock_path = target.parent / f".{target.name}.lock"
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        fh = open(lock_path, "a+")
    except OSError as exc:
        raise StoreError(f"{target}: cannot create lock file ({exc.strerror or exc})") from exc
    with fh:
        try:
            fcntl.flock(fh.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise LockedError(f"{target}: locked by another running build; try again when it ends") from None
        try:
            yield
        finally:
            fcntl.flock(fh.fileno(), fcntl.LOCK_UN)


def _fsync_dir(path: Path) -> None:
    with contextlib.suppress(OSError):
        fd = os.open(path, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def recover_directory(target: str | Path) -> None:
    """Finish or undo a directory swap that a crash interrupted (see :func:`replace_directory`)."""
    import shutil

    target = Path(target)
    parent = target.parent
    if not parent.is_dir():
        return
    olds = sorted(parent.glob(f".{target.name}.old-*"))
    if not target.exists() and olds:
        os.replace(olds[-1], target)  # crash between the two renames: bring the old set back
        olds = olds[:-1]
    for stale in [*olds, *parent.glob(f".{target.name}.new-*")]:
        shutil.rmtree(stale, ignore_errors=True)


def replace_directory(target: str | Path, files: dict[str, bytes]) -> None:
    """Make ``target`` a folder holding exactly ``files``, replacing it as one step.

    The new files are written and fsynced in a sibling folder, which then takes the place of
    the old one. A crash at any moment leaves the old set or the new set; the next call (or
    :func:`recover_directory`) cleans up what a crash left behind.
    """
    import shutil

    target = Path(target)
    with locked(target):
        recover_directory(target)
        try:
            new = Path(tempfile.mkdtemp(prefix=f".{target.name}.new-", dir=target.parent))
        except OSError as exc:
            raise StoreError(f"{target}: cannot write ({exc.strerror or exc})") from exc
        try:
            for name, data in files.items():
                with open(new / name, "wb") as fh:
                    fh.write(data)
                    fh.flush()
                    os.fsync(fh.fileno())
            os.chmod(new, 0o755)
            _fsync_dir(new)
            if target.exists():
                if not target.is_dir():
                    raise StoreError(f"{target}: exists and is not a folder")
                old = Path(tempfile.mkdtemp(prefix=f".{target.name}.old-", dir=target.parent))
                os.rmdir(old)
                os.replace(target, old)
                os.replace(new, target)
                _fsync_dir(target.parent)
                shutil.rmtree(old, ignore_errors=True)
            else:
                os.replace(new, target)
                _fsync_dir(target.parent)
        except BaseException:
            shutil.rmtree(new, ignore_errors=True)
            recover_directory(target)
            raise
