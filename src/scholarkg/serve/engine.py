"""The pool of engine processes that answer an endpoint's queries, and their deadlines.

pyoxigraph has no way to stop a query it is evaluating: a ``COUNT(*)`` over a cross product
runs inside Rust until it is done, whatever the calling thread does, and a thread that is given
up on keeps its CPU and memory. So queries never run in the endpoint's own process. They run in
a fixed number of engine processes (:mod:`scholarkg.serve.worker`), forked from one host
process and each holding the store open (read-only on disk, or the shared in-memory copy).
A request thread takes an idle engine (waiting at most ``wait`` seconds, else the endpoint is
busy), sends it the query and reads the answer in frames until the deadline; at the deadline
the engine is killed with SIGKILL and a fresh one forked in its place, which takes
milliseconds. A crash of the engine (a signal) becomes an error answer the same way. Engines
talk to the endpoint only over anonymous socket pairs: there is no second listening port, and
nothing but the endpoint can send them a query.

The answer is kept whole (in memory up to 8 MiB, then in a temporary file) before it is
returned, so a query stopped half-way becomes a clean error rather than a truncated answer.
"""

from __future__ import annotations

import json
import logging
import os
import queue
import socket
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from typing import Any, BinaryIO

from ..errors import StoreError
from . import wire
from .source import StoreSource

__all__ = ["EnginePool", "Answer"]

log = logging.getLogger(__name__)

_SPOOL = 8 << 20


@dataclass
class Answer:
    """What an engine answered: a status, and a body (bytes or a file positioned at its start)."""

    status: int
    type: str = "text/plain; charset=utf-8"
    body: bytes | BinaryIO = b""
    size: int = 0
    headers: dict[str, str] = field(default_factory=dict)

    @classmethod
    def text(cls, status: int, message: str, **headers: str) -> Answer:
        data = (message.rstrip("\n") + "\n").encode("utf-8")
        return cls(status, body=data, size=len(data), headers=headers)

    def close(self) -> None:
        if not isinstance(self.body, bytes):
            self.body.close()


class _Engine:
    def __init__(self, pid: int, sock: socket.socket):
        self.pid, self.sock = pid, sock
        self.ready = False


class EnginePool:
    """``size`` engine processes over ``source``; :meth:`run` answers one job with a deadline."""

    def __init__(self, source: StoreSource, *, size: int, timeout: float, max_bytes: int, wait: float = 10.0):
        self.source = source
        self.size = 1 if source.writable else max(1, size)  # one writer: updates and reads stay in order
        self.timeout, self.max_bytes, self.wait = timeout, max_bytes, wait
        self._idle: queue.LifoQueue[_Engine] = queue.LifoQueue()
        self._control: socket.socket | None = None
        self._control_lock = threading.Lock()
        self._host: subprocess.Popen | None = None
        self._stopping = False
        self.statements: int | None = None

    # --- life cycle -------------------------------------------------------------------------

    def start(self) -> EnginePool:
        """Start the host (and load the in-memory copy through it), then the engines."""
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        copy_read = copy_write = None
        if self.source.mode == "in-memory":
            copy_read, copy_write = os.pipe()
        config = {"path": str(self.source.path), "mode": self.source.mode, "control": theirs.fileno(),
                  "copy": copy_read, "parent": os.getpid()}
        fds = [theirs.fileno()] + ([copy_read] if copy_read is not None else [])
        try:
            self._host = subprocess.Popen([sys.executable, "-m", "scholarkg.serve.worker", json.dumps(config)],
                                          stdin=subprocess.DEVNULL, pass_fds=fds)
        finally:
            theirs.close()
            if copy_read is not None:
                os.close(copy_read)
        self._control = ours
        if copy_write is not None:
            try:
                with os.fdopen(copy_write, "wb") as pipe:
                    self.source.dump(pipe)
            except BrokenPipeError:
                pass  # the host stopped reading: its message says why
        ready = self._receive_control(timeout=None)
        if not ready.get("ok"):
            self.stop()
            raise StoreError(f"{self.source.path}: {ready.get('message', 'the query engine did not start')}")
        self.statements = ready.get("statements")
        for _ in range(self.size):
            self._idle.put(self._spawn())
        return self

    def alive(self) -> bool:
        return self._host is not None and self._host.poll() is None

    def stop(self) -> None:
        self._stopping = True
        if self._control is not None:
            self._control.close()  # the host kills its engines and ends
            self._control = None
        while True:
            try:
                self._idle.get_nowait().sock.close()
            except queue.Empty:
                break
        if self._host is not None:
            try:
                self._host.wait(10)
            except subprocess.TimeoutExpired:
                self._host.kill()
                self._host.wait()
            self._host = None

    # --- the host's orders ------------------------------------------------------------------

    def _receive_control(self, timeout: float | None) -> dict[str, Any]:
        self._control.settimeout(timeout)
        try:
            data = self._control.recv(4096)
        except OSError as exc:
            raise StoreError(f"the query engine host does not answer ({exc})") from None
        if not data:
            raise StoreError("the query engine host stopped")
        return json.loads(data)

    def _order(self, order: dict, fds: list[int] = ()) -> dict[str, Any]:
        with self._control_lock:
            if self._control is None:
                raise StoreError("the endpoint is stopping")
            socket.send_fds(self._control, [json.dumps(order).encode()], list(fds))
            return self._receive_control(timeout=30)

    def _spawn(self) -> _Engine:
        ours, theirs = socket.socketpair()
        try:
            pid = self._order({"op": "spawn"}, [theirs.fileno()])["pid"]
        finally:
            theirs.close()
        return _Engine(pid, ours)

    def _discard(self, engine: _Engine) -> str:
        """Kill ``engine`` and put a fresh one in its place; returns how the old one ended."""
        engine.sock.close()
        how = "stopped"
        try:
            how = self._order({"op": "kill", "pid": engine.pid})["how"]
            if not self._stopping:
                self._idle.put(self._spawn())
        except (StoreError, OSError) as exc:
            log.error("the query engine cannot be replaced (%s)", exc)
        return how

    # --- jobs -------------------------------------------------------------------------------

    def run(self, job: dict[str, Any]) -> Answer:
        """Answer ``job`` (``op``, ``text``, ``accept``, graphs); never raises for the query's sake."""
        try:
            engine = self._idle.get(timeout=self.wait)
        except queue.Empty:
            return Answer.text(503, "every query engine is busy; try again shortly", **{"Retry-After": "2"})
        if self._stopping:
            return Answer.text(503, "the endpoint is stopping")
        deadline = time.monotonic() + self.timeout
        spool = tempfile.SpooledTemporaryFile(max_size=_SPOOL)
        keep = False
        try:
            if not engine.ready:
                kind, payload = wire.receive(engine.sock, deadline)
                opened = json.loads(payload)
                if kind != b"R" or not opened.get("ok"):
                    raise wire.Gone(opened.get("message", "the engine did not start"))
                engine.ready = True
            wire.send_json(engine.sock, b"Q", {**job, "max_bytes": self.max_bytes})
            size = 0
            while True:
                kind, payload = wire.receive(engine.sock, deadline)
                if kind == b"D":
                    size += len(payload)
                    spool.write(payload)
                    continue
                end = json.loads(payload)
                break
            keep = True
        except wire.Late:
            spool.close()
            self._discard(engine)
            return Answer.text(503, f"the query ran longer than {self.timeout:g} s and was cancelled")
        except (wire.Gone, OSError, ValueError) as exc:
            spool.close()
            how = self._discard(engine)
            log.error("a query engine %s while answering (%s)", how, exc)
            return Answer.text(500, f"the query engine failed ({how}); the query was not answered")
        finally:
            if keep:
                self._idle.put(engine)
        if end.get("status") != 200:
            spool.close()
            return Answer.text(end["status"], end["message"]) if "message" in end else Answer(end["status"])
        spool.seek(0)
        return Answer(200, end["type"], spool, size)
