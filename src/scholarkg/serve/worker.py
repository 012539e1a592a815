"""The engine processes behind an endpoint: a host that forks engines, and the engines themselves.

Run as ``python -m scholarkg.serve.worker CONFIG`` by :class:`~scholarkg.serve.engine.EnginePool`.

The **host** is started once. It imports pyoxigraph, loads the in-memory copy when there is
one (from the N-Quads stream the endpoint writes into a pipe), and then forks engines when
asked: each request on its control socket (a ``SOCK_SEQPACKET`` pair) carries one end of a
fresh socket pair, which becomes the new engine's only line to the endpoint. The host is
single-threaded and never opens the on-disk database itself, so forking it is safe; the
engines of an in-memory copy share the copy's pages. It also kills and reaps engines when
asked, so a process id is never reused while the endpoint may still name it.

An **engine** opens its store (see :mod:`scholarkg.serve.source`), says it is ready, and then
answers one job at a time: it runs the query, picks the media type from the job's ``Accept``
(:mod:`scholarkg.serve.negotiate`), and streams the serialised answer back in frames, stopping
as soon as it grows past the job's size limit. It knows nothing of time: the endpoint kills it
at the deadline.
"""

from __future__ import annotations

import contextlib
import errno
import importlib
import json
import os
import signal
import socket
import sys
from pathlib import Path

from . import wire
from .negotiate import GRAPHS, RESULTS, choose
from .source import StoreSource

__all__ = ["main"]

_CHUNK = 1 << 16


class _TooLarge(Exception):
    pass


class _Frames:
    """A binary file object that sends what is written as ``D`` frames, and counts it."""

    def __init__(self, sock: socket.socket, limit: int):
        self.sock, self.limit = sock, limit
        self.size = 0
        self.buffer = bytearray()

    def write(self, data) -> int:
        self.size += len(data)
        if self.size > self.limit:
            raise _TooLarge()
        self.buffer += data
        if len(self.buffer) >= _CHUNK:
            self.flush()
        return len(data)

    def flush(self) -> None:
        while self.buffer:
            piece = bytes(self.buffer[: wire.MAX_FRAME])
            del self.buffer[: wire.MAX_FRAME]
            wire.send(self.sock, b"D", piece)


def _size(n: int) -> str:
    return f"{n >> 20:,} MiB" if n >= 1 << 20 else f"{n >> 10:,} KiB"


def _graph_names(values):
    import pyoxigraph as ox

    return None if values is None else [ox.NamedNode(v) for v in values]


def _answer(store, job: dict, sock: socket.socket) -> dict:
    """Run one job and stream its answer; returns the ``E`` frame's content."""
    import pyoxigraph as ox

    if job.get("op") == "update":
        store.update(job["text"])
        return {"status": 204}
    if job.get("op") == "page":
        return _page(store, job, sock)
    default_graph = _graph_names(job.get("default_graph"))
    result = store.query(
        job["text"],
        use_default_graph_as_union=default_graph is None,
        default_graph=default_graph,
        named_graphs=_graph_names(job.get("named_graphs")),
    )
    kind = "graph" if isinstance(result, ox.QueryTriples) else "results"
    media = choose(job.get("accept", ""), kind)
    if media is None:
        offered = ", ".join(dict.fromkeys(RESULTS if kind == "results" else GRAPHS))
        what = "SELECT and ASK answers" if kind == "results" else "CONSTRUCT and DESCRIBE answers"
        return {"status": 406, "message": f"none of the accepted types can carry {what}; they come as {offered}"}
    table, formats = (RESULTS, ox.QueryResultsFormat) if kind == "results" else (GRAPHS, ox.RdfFormat)
    out = _Frames(sock, job["max_bytes"])
    result.serialize(out, getattr(formats, table[media]))
    out.flush()
    charset = "; charset=utf-8" if media.startswith("text/") else ""
    return {"status": 200, "type": media + charset, "size": out.size}


PAGE_ROWS = 1_000_000  # an answer of more rows is put in order and cut by the engine itself


def _page(store, job: dict, sock: socket.socket) -> dict:
    """Rows ``offset`` to ``offset + count`` (all from ``offset`` when ``count`` is None) of the
    SELECT ``text`` in the order of its ``ORDER BY``, as SPARQL JSON results.

    The text runs without its ``ORDER BY`` (and ``DISTINCT``), and the rows are made distinct
    and put in order here, as :func:`scholarkg.sparql.run_named` does: on a store on disk,
    Oxigraph's ``ORDER BY`` reads the text of the terms it compares from the database at each
    comparison, and a page of the largest named answers took 2 to 4 times as long so. An answer
    of more than ``PAGE_ROWS`` rows is left to the engine's ``ORDER BY``, ``LIMIT`` and ``OFFSET``.
    """
    import pyoxigraph as ox

    from ..named import distinct_in_python, order_in_python, with_page
    from ..sparql import QueryResult, page, put_in_order
    from ..store.terms import solution_rows

    text, keys, sort_only = order_in_python(job["text"])
    text, distinct = distinct_in_python(text)
    answer = store.query(text, use_default_graph_as_union=True)
    if not isinstance(answer, ox.QuerySolutions):
        raise ValueError("only a SELECT answer is sent a page at a time")
    names = [v.value for v in answer.variables]
    rows, more = solution_rows(answer, PAGE_ROWS, distinct)
    count, offset = job.get("count"), job.get("offset", 0)
    if more:
        return _answer(store, {**job, "op": "query", "text": with_page(job["text"], count, offset)}, sock)
    result = page(put_in_order(QueryResult("SELECT", names, rows), keys, sort_only), count, offset)
    out = _Frames(sock, job["max_bytes"])
    out.write(result.format("json").encode("utf-8"))
    out.flush()
    return {"status": 200, "type": "application/sparql-results+json", "size": out.size}


def _serve_jobs(source: StoreSource, store, sock: socket.socket) -> None:
    try:
        if store is None:
            store = source.open()
    except Exception as exc:
        wire.send_json(sock, b"R", {"ok": False, "message": f"{source.path}: cannot open the store ({exc})"})
        return
    wire.send_json(sock, b"R", {"ok": True})
    while True:
        try:
            kind, payload = wire.receive(sock)
        except wire.Gone:
            return
        if kind != b"Q":
            return
        job = json.loads(payload)
        try:
            end = _answer(store, job, sock)
        except _TooLarge:
            end = {"status": 507, "message": f"the answer is larger than {_size(job['max_bytes'])}; add a LIMIT"}
        except SyntaxError as exc:
            end = {"status": 400, "message": "SPARQL error: " + " ".join(str(exc).split())[:300]}
        except OSError as exc:
            if exc.errno in (errno.ENOSPC, errno.EDQUOT) or "No space left" in str(exc):
                end = {"status": 507, "message": f"the store's disk is full ({exc})"}
            else:
                end = {"status": 500, "message": f"the store cannot be read ({' '.join(str(exc).split())[:300]})"}
        except (ValueError, TypeError, RuntimeError) as exc:
            end = {"status": 400, "message": "SPARQL error: " + " ".join(str(exc).split())[:300]}
        except Exception as exc:
            end = {"status": 500, "message": f"query engine error: {type(exc).__name__}: {' '.join(str(exc).split())[:300]}"}
        wire.send_json(sock, b"E", end)


def _die_with_parent(parent: int) -> None:
    """Be killed when the parent process ends (Linux); elsewhere the closed socket ends us."""
    if sys.platform.startswith("linux"):
        import ctypes

        ctypes.CDLL(None).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    if os.getppid() != parent:  # the parent ended before the line above
        os._exit(0)


def _engine(source: StoreSource, memory, sock: socket.socket, control: socket.socket, host: int) -> None:
    """In a freshly forked engine: never return."""
    status = 0
    try:
        control.close()
        _die_with_parent(host)
        _serve_jobs(source, memory, sock)
    except BaseException:
        status = 70
    finally:
        os._exit(status)


def _reap() -> None:
    with contextlib.suppress(ChildProcessError):
        while os.waitpid(-1, os.WNOHANG)[0] > 0:
            pass


def _describe(status: int) -> str:
    if os.WIFSIGNALED(status):
        return f"died of {signal.Signals(os.WTERMSIG(status)).name}"
    return f"exited with status {os.WEXITSTATUS(status)}"


def _host(config: dict) -> None:
    source = StoreSource(Path(config["path"]), config["mode"])
    control = socket.socket(fileno=config["control"])
    memory = None
    try:
        if source.mode == "in-memory":
            with os.fdopen(config["copy"], "rb") as copy:
                memory = source.open(copy)
    except (OSError, SyntaxError) as exc:
        control.send(json.dumps({"ok": False, "message": f"cannot load the in-memory copy ({exc})"}).encode())
        return
    if memory is None:  # on disk, engines put pages in order (with rdflib terms): imported once, before they are forked
        importlib.import_module("..sparql", __package__)
    control.send(json.dumps({"ok": True, "statements": len(memory) if memory is not None else None}).encode())
    children: set[int] = set()  # reaped only when the endpoint orders a kill: a pid it names is never reused
    me = os.getpid()
    try:
        while True:
            message, fds, _flags, _address = socket.recv_fds(control, 4096, 1)
            if not message:
                return
            order = json.loads(message)
            if order["op"] == "spawn":
                (fd,) = fds
                pid = os.fork()
                if pid == 0:
                    _engine(source, memory, socket.socket(fileno=fd), control, me)
                os.close(fd)
                children.add(pid)
                control.send(json.dumps({"pid": pid}).encode())
            elif order["op"] == "kill":
                pid = order["pid"]
                how = "not running"
                if pid in children:
                    with contextlib.suppress(ProcessLookupError):
                        os.kill(pid, signal.SIGKILL)
                    _, status = os.waitpid(pid, 0)
                    children.discard(pid)
                    how = _describe(status)
                control.send(json.dumps({"pid": pid, "how": how}).encode())
    finally:
        for pid in children:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        _reap()


def main(argv: list[str]) -> int:
    config = json.loads(argv[1])
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C reaches the endpoint, which stops us
    _die_with_parent(config["parent"])
    _host(config)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
