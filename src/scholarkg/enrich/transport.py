"""One HTTP GET with a hard deadline, a size limit and a redirect policy.

Written on :mod:`http.client` because the standard ``urllib`` cannot do these: its timeout
applies to each socket operation, so a server sending a byte a second never times out; it
reads an answer whole, whatever its size; and it follows redirects to any host. Here:

- the whole exchange (connecting, headers, body, redirects) ends at ``timeout`` seconds: the
  socket's timeout is what is left of it, and a watchdog shuts the socket at the deadline, so
  even a server that drips its headers byte by byte is cut off;
- the body is read in pieces and refused past ``max_bytes``;
- redirects are followed (at most five) only to the same host over http or https;
- every failure is a :class:`TransportError` that says whether trying again may help.
"""

from __future__ import annotations

import http.client
import socket
import threading
import time
from dataclasses import dataclass
from email.message import Message
from urllib.parse import urljoin, urlsplit

__all__ = ["Reply", "TransportError", "get", "MAX_REDIRECTS"]

MAX_REDIRECTS = 5
_REDIRECTS = {301, 302, 303, 307, 308}


class TransportError(Exception):
    def __init__(self, message: str, *, retry: bool, timed_out: bool = False):
        super().__init__(message)
        self.retry, self.timed_out = retry, timed_out


@dataclass
class Reply:
    status: int
    reason: str
    headers: Message
    body: bytes
    url: str

    @property
    def media_type(self) -> str:
        return (self.headers.get("Content-Type") or "").split(";")[0].strip().lower()


def _connection(url: str, timeout: float) -> tuple[http.client.HTTPConnection, str]:
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise TransportError(f"not an http(s) URL: {url}", retry=False)
    kind = http.client.HTTPSConnection if parts.scheme == "https" else http.client.HTTPConnection
    try:
        connection = kind(parts.hostname, parts.port, timeout=timeout)
    except ValueError as exc:  # a bad port
        raise TransportError(f"bad URL {url} ({exc})", retry=False) from None
    target = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    return connection, target


def _watchdog(sock: socket.socket, seconds: float) -> threading.Timer:
    def cut() -> None:
        try:
            socket.socket.shutdown(sock, socket.SHUT_RDWR)  # the plain socket's call, also under TLS
        except OSError:
            pass

    timer = threading.Timer(max(seconds, 0.0), cut)
    timer.daemon = True
    timer.start()
    return timer


def get(url: str, headers: dict[str, str], *, timeout: float, max_bytes: int) -> Reply:
    """GET ``url``; any status comes back as a :class:`Reply` (redirects to the same host followed)."""
    deadline = time.monotonic() + timeout
    first_host = urlsplit(url).hostname
    for _hop in range(MAX_REDIRECTS + 1):
        reply = _get_once(url, headers, deadline, timeout, max_bytes)
        location = reply.headers.get("Location")
        if reply.status not in _REDIRECTS or not location:
            return reply
        target = urljoin(url, location.strip())
        parts = urlsplit(target)
        if parts.scheme not in ("http", "https") or (parts.hostname or "").lower() != (first_host or "").lower():
            raise TransportError(f"redirected to {target[:200]}, which is not {first_host} over http(s); not followed",
                                 retry=False)
        url = target
    raise TransportError(f"more than {MAX_REDIRECTS} redirects", retry=False)


def _get_once(url: str, headers: dict[str, str], deadline: float, timeout: float, max_bytes: int) -> Reply:
    def left() -> float:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise TransportError(f"no whole answer within {timeout:g} s", retry=True, timed_out=True)
        return remaining

    connection, target = _connection(url, left())
    watchdog = None
    try:
        connection.connect()
        sock = connection.sock  # the connection lets go of it once the answer says it will close
        watchdog = _watchdog(sock, left())
        connection.request("GET", target, headers=headers)
        sock.settimeout(left())
        response = connection.getresponse()
        body = bytearray()
        while True:
            sock.settimeout(left())
            piece = response.read1(1 << 16)
            if not piece:
                break
            body += piece
            if len(body) > max_bytes:
                raise TransportError(f"the answer is larger than {max_bytes >> 20} MiB", retry=False)
        left()  # a watchdog cut looks like the end of the body: check the clock
        if response.length:  # fewer bytes than Content-Length said, then the end
            raise TransportError(f"the answer was cut short ({len(body):,} of {len(body) + response.length:,} bytes)", retry=True)
        return Reply(response.status, response.reason, response.headers, bytes(body), url)
    except TransportError:
        raise
    except (TimeoutError, socket.timeout):
        raise TransportError(f"no whole answer within {timeout:g} s", retry=True, timed_out=True) from None
    except (OSError, http.client.HTTPException, ValueError) as exc:
        if time.monotonic() >= deadline:
            raise TransportError(f"no whole answer within {timeout:g} s", retry=True, timed_out=True) from None
        detail = f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
        raise TransportError(" ".join(detail.split())[:200], retry=True) from None
    finally:
        if watchdog is not None:
            watchdog.cancel()
        connection.close()
