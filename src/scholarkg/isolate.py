"""Run a function in a child process with a time limit: used for SPARQL queries.

rdflib has no query timeout, and a Python thread cannot be stopped: a query that runs too long
would keep its CPU and memory after the caller gave up, and a ``REGEX`` filter with a
catastrophic pattern runs inside C code that even an asynchronous exception cannot interrupt.
A native crash (pyoxigraph dies with SIGSEGV on some queries) would take the whole process down.
So the work runs in a forked child: it starts in milliseconds and sees the graph already loaded
in memory (copy-on-write, nothing is reloaded); the parent waits for the pickled answer until
the deadline and then kills the child with SIGKILL. A timeout or a crash becomes an exception
in the parent, which carries on.

Where ``os.fork`` does not exist (Windows), the work runs in a daemon thread: the caller still
gets its answer or a timeout at the deadline, but the abandoned work runs on in the background.
"""

from __future__ import annotations

import contextlib
import gc
import os
import pickle
import select
import signal
import threading
import time
from collections.abc import Callable
from typing import Any, TypeVar

__all__ = ["run_isolated", "TimedOut", "Crashed"]

T = TypeVar("T")


class TimedOut(Exception):
    """The work did not finish before the deadline (and was stopped)."""


class Crashed(Exception):
    """The child process died without an answer (a signal, or out of memory)."""


def run_isolated(func: Callable[..., T], *args: Any, timeout: float | None) -> T:
    """``func(*args)`` computed in a forked child; its return value or exception comes back.

    Both must be picklable. Raises :class:`TimedOut` after ``timeout`` seconds (None: no limit)
    and :class:`Crashed` if the child dies without answering.
    """
    if not hasattr(os, "fork"):  # pragma: no cover - Windows
        return _run_in_thread(func, args, timeout)
    read_fd, write_fd = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: compute, send, and leave without running the parent's cleanup
        status = 0
        try:
            # A collection would visit every object inherited from the parent and so copy
            # every memory page; the child lives for one call, so it does without.
            gc.disable()
            os.close(read_fd)
            signal.signal(signal.SIGINT, signal.SIG_DFL)
            try:
                payload = pickle.dumps(("value", func(*args)), protocol=pickle.HIGHEST_PROTOCOL)
            except BaseException as exc:  # every failure goes back to the parent
                try:
                    payload = pickle.dumps(("error", exc), protocol=pickle.HIGHEST_PROTOCOL)
                except Exception:
                    payload = pickle.dumps(("error", RuntimeError(f"{type(exc).__name__}: {exc}")))
            with os.fdopen(write_fd, "wb") as out:
                out.write(payload)
        except BaseException:
            status = 70
        finally:
            os._exit(status)
    os.close(write_fd)
    try:
        data = _read_until(read_fd, None if timeout is None else time.monotonic() + timeout)
    except TimedOut:
        _kill(pid)
        raise
    except BaseException:  # e.g. KeyboardInterrupt: do not leave the child running
        _kill(pid)
        raise
    finally:
        os.close(read_fd)
    _, status = os.waitpid(pid, 0)
    if not data:
        if os.WIFSIGNALED(status):
            name = signal.Signals(os.WTERMSIG(status)).name
            raise Crashed(f"the process running it died of {name}")
        raise Crashed(f"the process running it exited with status {os.WEXITSTATUS(status)} and no answer")
    kind, value = pickle.loads(data)
    if kind == "error":
        raise value
    return value


def _read_until(fd: int, deadline: float | None) -> bytes:
    chunks: list[bytes] = []
    while True:
        wait = None if deadline is None else deadline - time.monotonic()
        if wait is not None and wait <= 0:
            raise TimedOut()
        ready, _, _ = select.select([fd], [], [], wait)
        if not ready:
            raise TimedOut()
        chunk = os.read(fd, 1 << 20)
        if not chunk:
            return b"".join(chunks)
        chunks.append(chunk)


def _kill(pid: int) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, signal.SIGKILL)
    with contextlib.suppress(ChildProcessError):
        os.waitpid(pid, 0)


def _run_in_thread(func: Callable[..., T], args: tuple, timeout: float | None) -> T:  # pragma: no cover
    outcome: dict[str, Any] = {}

    def target() -> None:
        try:
            outcome["value"] = func(*args)
        except BaseException as exc:
            outcome["error"] = exc

    thread = threading.Thread(target=target, name="scholarkg-isolated", daemon=True)
    thread.start()
    thread.join(timeout)
    if thread.is_alive():
        raise TimedOut()
    if "error" in outcome:
        raise outcome["error"]
    return outcome["value"]
