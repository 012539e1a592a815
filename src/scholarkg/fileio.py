"""Writing output files so that a crash never leaves a half-written file behind.

Every output goes to a temporary file in the target's own folder, is flushed and fsynced,
and then renamed over the target (an atomic step on POSIX file systems). A reader of the
target sees either the old file or the new one, never a mix or a truncated file.

A build's output folder is replaced as a whole (:func:`replace_directory`): on Linux the
new folder and the old one are exchanged in one step (``renameat2(RENAME_EXCHANGE)``), so
the folder is never missing, even for an instant; elsewhere two renames are used and a
crash between them is repaired by the next build (:func:`recover_directory`).

Builds into the same output hold an exclusive lock (:func:`locked`) for as long as they run:
a second build gets :class:`~scholarkg.errors.LockedError` at once instead of racing.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import sys
import tempfile
import threading
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


_held: set[tuple[int, Path]] = set()  # (thread, lock file) pairs held now
_held_guard = threading.Lock()


@contextlib.contextmanager
def locked(target: str | Path) -> Iterator[None]:
    """Hold an exclusive lock on ``target`` (a file or folder) or raise LockedError at once.

    The lock lives in ``.<name>.lock`` next to the target and is released by the operating
    system when the process ends, however it ends. It is re-entrant within one thread.
    """
    import fcntl

    from .errors import LockedError

    target = Path(target)
    lock_path = (target.parent / f".{target.name}.lock").absolute()
    key = (threading.get_ident(), lock_path)
    with _held_guard:
        reentered = key in _held
    if reentered:
        yield
        return
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
        with _held_guard:
            _held.add(key)
        try:
            yield
        finally:
            with _held_guard:
                _held.discard(key)
            fcntl.flock(fh.fileno(), fcntl.LOCK_UN)


def _fsync_dir(path: Path) -> None:
    with contextlib.suppress(OSError):
        fd = os.open(path, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def _exchange(a: Path, b: Path) -> bool:
    """Swap the paths ``a`` and ``b`` in one atomic step; False where the system cannot."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        renameat2 = ctypes.CDLL(None, use_errno=True).renameat2
    except (OSError, AttributeError):
        return False
    renameat2.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_uint]
    at_fdcwd, rename_exchange = -100, 2
    if renameat2(at_fdcwd, os.fsencode(a), at_fdcwd, os.fsencode(b), rename_exchange) == 0:
        return True
    errno = ctypes.get_errno()
    if errno in (22, 38, 95):  # EINVAL, ENOSYS, EOPNOTSUPP: this file system cannot exchange
        return False
    raise OSError(errno, os.strerror(errno), str(b))


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


def replace_directory(target: str | Path, files: dict) -> None:
    """Make ``target`` a folder holding exactly ``files``, replacing it as one step.

    Each value is the file's bytes, or a function that writes them to the binary file it is
    given (for files too large to hold in memory).

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
                    if callable(data):
                        data(fh)
                    else:
                        fh.write(data)
                    fh.flush()
                    os.fsync(fh.fileno())
            os.chmod(new, 0o755)
            _fsync_dir(new)
            if target.exists():
                if not target.is_dir():
                    raise StoreError(f"{target}: exists and is not a folder")
                if _exchange(new, target):  # `new` now holds the old files
                    _fsync_dir(target.parent)
                    shutil.rmtree(new, ignore_errors=True)
                    return
                old = Path(tempfile.mkdtemp(prefix=f".{target.name}.old-", dir=target.parent))
                os.rmdir(old)
                os.replace(target, old)
                os.replace(new, target)
                _fsync_dir(target.parent)
                shutil.rmtree(old, ignore_errors=True)
            else:
                os.replace(new, target)
                _fsync_dir(target.parent)
        except BaseException as exc:
            shutil.rmtree(new, ignore_errors=True)
            recover_directory(target)
            if isinstance(exc, OSError):
                raise StoreError(f"{target}: cannot write ({exc.strerror or exc})") from exc
            raise
