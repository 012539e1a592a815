"""A small threaded HTTP/1.1 server with bounded resources, and routes to add pages to it.

The standard library parses each request (:class:`http.server.BaseHTTPRequestHandler`); this
module adds what it leaves to the application:

- **Bounded threads and queue.** One thread accepts connections and puts them in a queue of
  ``backlog`` places; ``threads`` handler threads take them from there. When the queue is
  full, the connection is answered ``503 Service Unavailable`` with ``Retry-After`` by a
  separate thread, which then reads what the client sends until it closes (or 2 s pass), so
  the client reads the answer instead of a connection reset. Idle keep-alive connections are
  closed (with ``Connection: close`` on the last answer) while others wait in the queue.
- **Request bodies within a limit.** ``Content-Length`` must be one non-negative decimal
  number: a negative, non-numeric or repeated one is ``400``, a missing one on a request that
  has a body is ``411``, one over the route's limit ``413``, all without reading the body.
  Chunked bodies are refused (``411``; ``400`` together with ``Content-Length``). The
  connection is then closed, after the client has been given the time to read the answer.
- **Routes** (:mod:`.routes`): a path or path prefix, the methods it takes and its body limit,
  and a function from :class:`~.routes.Request` to :class:`~.routes.Response`.

A handler that raises gets a one-line ``500`` and a one-line log entry (the traceback only at
debug level).
"""

from __future__ import annotations

import contextlib
import logging
import queue
import re
import selectors
import shutil
import socket
import socketserver
import threading
import time
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler
from urllib.parse import parse_qs, urlsplit

from .routes import DEFAULT_MAX_BODY, Request, Response, Router

__all__ = ["HttpServer"]

log = logging.getLogger(__name__)

_LENGTH = re.compile(r"[0-9]{1,18}")
_BODY_METHODS = frozenset({"POST", "PUT", "PATCH"})
_METHODS = ("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS")


class _Refusal(Exception):
    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status = status


class _Handler(BaseHTTPRequestHandler):
    server_version = "scholarkg"
    protocol_version = "HTTP/1.1"
    server: HttpServer._Listener

    def setup(self) -> None:
        self.timeout = self.server.owner.request_timeout
        self._linger = False
        super().setup()

    def handle(self) -> None:
        """Requests on one connection; between two, wait at most ``idle_timeout`` for the next."""
        owner = self.server.owner
        self.close_connection = True
        self.handle_one_request()
        while not self.close_connection:
            self.connection.settimeout(owner.idle_timeout)
            try:
                if not self.rfile.peek(1):
                    return
            except (TimeoutError, OSError):
                return
            self.connection.settimeout(owner.request_timeout)
            self.handle_one_request()

    def log_message(self, format: str, *args) -> None:
        log.debug("%s %s", self.address_string(), format % args)

    def log_error(self, format: str, *args) -> None:
        log.debug("%s %s", self.address_string(), format % args)

    def parse_request(self) -> bool:
        if not super().parse_request():
            return False
        if self.request_version == "HTTP/0.9":  # no status line, no headers: nothing to say errors with
            self.send_error(505, "this endpoint speaks HTTP/1.0 and HTTP/1.1, not HTTP/0.9")
            return False
        return True

    def send_error(self, code: int, message: str | None = None, explain: str | None = None) -> None:
        """Errors found while parsing the request (bad request line, headers too long): plain text,
        always with an HTTP/1.1 status line (the standard library leaves it out when the request
        line could not be read)."""
        self.request_version = "HTTP/1.1"
        self.close_connection = True
        self._linger = True
        reason = message or HTTPStatus(code).phrase
        self._send(Response.text(code, reason.lower()))

    # The usual methods all go through one place, where a route that does not take one answers
    # 405; the standard library answers any other method 501.
    def __getattr__(self, name: str):
        if name.startswith("do_") and name[3:] in _METHODS:
            return self._dispatch
        raise AttributeError(name)

    def handle_expect_100(self) -> bool:
        try:
            self._body_length()
        except _Refusal as refusal:
            self.close_connection = self._linger = True
            self._send(Response.text(refusal.status, str(refusal)))
            return False
        return super().handle_expect_100()

    def _body_length(self) -> int:
        if self.headers.get_all("Transfer-Encoding"):
            if self.headers.get_all("Content-Length"):
                raise _Refusal(400, "a request may not have both Transfer-Encoding and Content-Length")
            raise _Refusal(411, "chunked request bodies are not accepted; send the body with a Content-Length")
        values = self.headers.get_all("Content-Length") or []
        if len(values) > 1:
            raise _Refusal(400, "more than one Content-Length")
        if not values:
            if self.command in _BODY_METHODS:
                raise _Refusal(411, "a Content-Length is required")
            return 0
        value = values[0].strip()
        if not _LENGTH.fullmatch(value):
            raise _Refusal(400, "Content-Length must be a non-negative decimal number")
        length = int(value)
        route = self.server.owner.router.match(urlsplit(self.path).path)
        limit = route.max_body if route is not None else DEFAULT_MAX_BODY
        if length > limit:
            raise _Refusal(413, f"the request body is {length:,} bytes; the limit is {limit:,}")
        return length

    def _read_body(self, length: int) -> bytes:
        deadline = time.monotonic() + self.server.owner.request_timeout
        data = bytearray()
        while len(data) < length:
            if time.monotonic() > deadline:
                raise _Refusal(408, "the request body did not arrive in time")
            chunk = self.rfile.read1(min(length - len(data), 1 << 16))
            if not chunk:
                raise ConnectionError("the client closed the connection mid-body")
            data += chunk
        return bytes(data)

    def _dispatch(self) -> None:
        owner = self.server.owner
        try:
            length = self._body_length()
        except _Refusal as refusal:
            self.close_connection = self._linger = True
            return self._send(Response.text(refusal.status, str(refusal)))
        url = urlsplit(self.path)
        route = owner.router.match(url.path)
        try:
            body = self._read_body(length)
        except _Refusal as refusal:
            self.close_connection = self._linger = True
            return self._send(Response.text(refusal.status, str(refusal)))
        except (ConnectionError, TimeoutError):
            self.close_connection = True
            return
        if route is None:
            return self._send(Response.text(404, f"not found: {url.path[:200]}"))
        if self.command not in route.methods:
            allowed = ", ".join(sorted(route.methods))
            return self._send(Response.text(405, f"{self.command} is not accepted here (use {allowed})", Allow=allowed))
        request = Request(self.command, url.path, parse_qs(url.query, keep_blank_values=True, max_num_fields=1000),
                          self.headers, body, self.client_address[0])
        try:
            response = route.handler(request)
        except ValueError as exc:  # parse_qs beyond max_num_fields, undecodable text
            response = Response.text(400, f"bad request: {exc}")
        except Exception as exc:
            log.error("internal error answering %s %s: %s: %s", self.command, url.path[:200], type(exc).__name__, exc)
            log.debug("traceback", exc_info=True)
            response = Response.text(500, "internal error; the endpoint's log says more")
        self._send(response)

    def _send(self, response: Response) -> None:
        owner = self.server.owner
        if not self.close_connection and owner._pending.qsize() > 0:
            self.close_connection = True  # others are waiting for a thread: do not keep this one idle
        body = response.body
        size = len(body) if isinstance(body, bytes) else response.size
        try:
            self.send_response(response.status)
            self.send_header("Content-Type", response.type)
            if response.status not in (204, 304):
                self.send_header("Content-Length", str(size))
            for name, value in response.headers.items():
                self.send_header(name, value)
            if self.close_connection:
                self.send_header("Connection", "close")
            self.end_headers()
            if self.command != "HEAD" and response.status not in (204, 304):
                if isinstance(body, bytes):
                    self.wfile.write(body)
                else:
                    shutil.copyfileobj(body, self.wfile, 1 << 16)
            self.wfile.flush()
        except (BrokenPipeError, ConnectionError, TimeoutError):
            self.close_connection = True
        finally:
            if not isinstance(body, bytes):
                body.close()

    def finish(self) -> None:
        with contextlib.suppress(OSError):
            super().finish()
        if self._linger:
            _linger(self.connection)


def _linger(sock: socket.socket, seconds: float = 2.0, limit: int = 4 << 20) -> None:
    """Half-close and read what the client still sends, so closing does not reset the connection
    before the client has read the answer."""
    with contextlib.suppress(OSError):
        sock.shutdown(socket.SHUT_WR)
        deadline = time.monotonic() + seconds
        drained = 0
        while drained < limit and (left := deadline - time.monotonic()) > 0:
            sock.settimeout(left)
            chunk = sock.recv(1 << 16)
            if not chunk:
                break
            drained += len(chunk)


def _busy_reply() -> bytes:
    body = b"the endpoint is busy; try again in a second\n"
    head = ("HTTP/1.1 503 Service Unavailable\r\nServer: scholarkg\r\nContent-Type: text/plain; charset=utf-8\r\n"
            f"Retry-After: 1\r\nContent-Length: {len(body)}\r\nConnection: close\r\n\r\n")
    return head.encode("ascii") + body


class _Turnaway:
    """One thread that answers 503 to connections no handler can take, then drains and closes them."""

    LIMIT = 1024  # connections being turned away at once; beyond it they are closed at once

    def __init__(self) -> None:
        self._selector = selectors.DefaultSelector()
        self._new: queue.SimpleQueue[socket.socket] = queue.SimpleQueue()
        self._wake_r, self._wake_w = socket.socketpair()
        self._wake_r.setblocking(False)
        self._selector.register(self._wake_r, selectors.EVENT_READ)
        self._open: dict[socket.socket, float] = {}
        self._stop = False
        self._thread = threading.Thread(target=self._loop, name="scholarkg-turnaway", daemon=True)
        self._thread.start()

    def add(self, sock: socket.socket) -> None:
        self._new.put(sock)
        with contextlib.suppress(OSError):
            self._wake_w.send(b"x")

    def stop(self) -> None:
        self._stop = True
        with contextlib.suppress(OSError):
            self._wake_w.send(b"x")
        self._thread.join(5)

    def _loop(self) -> None:
        reply = _busy_reply()
        while not self._stop:
            for key, _ in self._selector.select(timeout=0.5):
                sock = key.fileobj
                if sock is self._wake_r:
                    with contextlib.suppress(OSError):
                        self._wake_r.recv(4096)
                    continue
                try:
                    data = sock.recv(1 << 16)
                except (BlockingIOError, InterruptedError):
                    continue
                except OSError:
                    data = b""
                if not data:
                    self._close(sock)
            while True:
                try:
                    sock = self._new.get_nowait()
                except queue.Empty:
                    break
                if len(self._open) >= self.LIMIT:
                    sock.close()
                    continue
                try:
                    sock.setblocking(False)
                    sock.send(reply)  # a few hundred bytes into an empty buffer: never blocks
                    sock.shutdown(socket.SHUT_WR)
                except OSError:
                    sock.close()
                    continue
                self._open[sock] = time.monotonic() + 2.0
                self._selector.register(sock, selectors.EVENT_READ)
            now = time.monotonic()
            for sock, until in list(self._open.items()):
                if until < now:
                    self._close(sock)
        for sock in list(self._open):
            self._close(sock)

    def _close(self, sock: socket.socket) -> None:
        with contextlib.suppress(KeyError, ValueError):
            self._selector.unregister(sock)
        self._open.pop(sock, None)
        sock.close()


class HttpServer:
    """Serves ``router`` on ``host:port`` with ``threads`` handler threads and ``backlog`` queued connections."""

    class _Listener(socketserver.TCPServer):
        allow_reuse_address = True
        request_queue_size = 512  # the kernel's own queue, in front of ours

        def __init__(self, address, owner: HttpServer):
            self.owner = owner
            super().__init__(address, _Handler)

        def process_request(self, request, client_address) -> None:
            try:
                self.owner._pending.put_nowait((request, client_address))
            except queue.Full:
                self.owner._turnaway.add(request)

    def __init__(self, host: str, port: int, router: Router, *, threads: int = 16, backlog: int = 64,
                 request_timeout: float = 20.0, idle_timeout: float = 5.0):
        self.router = router
        self.request_timeout, self.idle_timeout = request_timeout, idle_timeout
        self._stopped = False
        self._pending: queue.Queue = queue.Queue(maxsize=max(1, backlog))
        self._listener = HttpServer._Listener((host, port), self)
        self._turnaway = _Turnaway()
        self._threads = [threading.Thread(target=self._work, name=f"scholarkg-http-{n}", daemon=True)
                         for n in range(max(1, threads))]
        self._accepting: threading.Thread | None = None

    @property
    def address(self) -> tuple[str, int]:
        return self._listener.server_address[:2]

    def start(self) -> HttpServer:
        for thread in self._threads:
            thread.start()
        self._accepting = threading.Thread(target=self._listener.serve_forever, name="scholarkg-accept", daemon=True)
        self._accepting.start()
        return self

    def _work(self) -> None:
        while not self._stopped:
            try:
                request, address = self._pending.get(timeout=0.5)
            except queue.Empty:
                continue
            try:
                self._listener.finish_request(request, address)
            except Exception as exc:  # a broken connection; the handler logs its own errors
                log.debug("connection from %s ended: %s", address[0], exc)
            finally:
                self._listener.shutdown_request(request)

    def stop(self) -> None:
        if self._accepting is not None:
            self._listener.shutdown()
            self._accepting = None
        self._listener.server_close()
        self._stopped = True
        while True:
            try:
                self._pending.get_nowait()[0].close()
            except queue.Empty:
                break
        self._turnaway.stop()
