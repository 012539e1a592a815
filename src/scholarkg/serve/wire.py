"""Frames between the endpoint and its engine processes, over a private socket pair.

A frame is one kind byte, a 4-byte big-endian length and that many bytes. Kinds: ``R`` the
engine is ready (JSON), ``Q`` a job (JSON), ``D`` a piece of an answer (bytes), ``E`` the end
of an answer (JSON: status, media type or message).
"""

from __future__ import annotations

import json
import socket
import struct
import time

__all__ = ["send", "send_json", "receive", "Gone", "Late", "MAX_FRAME"]

MAX_FRAME = 1 << 20
_HEAD = struct.Struct(">cI")


class Gone(Exception):
    """The other side closed the socket (or sent something that is not a frame)."""


class Late(Exception):
    """The deadline passed before a whole frame came."""


def send(sock: socket.socket, kind: bytes, payload: bytes) -> None:
    sock.sendall(_HEAD.pack(kind, len(payload)) + payload)


def send_json(sock: socket.socket, kind: bytes, value: dict) -> None:
    send(sock, kind, json.dumps(value).encode("utf-8"))


def _exactly(sock: socket.socket, size: int, deadline: float | None) -> bytes:
    data = bytearray()
    while len(data) < size:
        if deadline is not None:
            left = deadline - time.monotonic()
            if left <= 0:
                raise Late()
            sock.settimeout(left)
        try:
            chunk = sock.recv(min(size - len(data), 1 << 20))
        except TimeoutError:
            raise Late() from None
        except OSError as exc:
            raise Gone(str(exc)) from None
        if not chunk:
            raise Gone("closed")
        data += chunk
    return bytes(data)


def receive(sock: socket.socket, deadline: float | None = None) -> tuple[bytes, bytes]:
    """The next frame as (kind, payload); raises Late at ``deadline`` (monotonic) and Gone at EOF."""
    kind, size = _HEAD.unpack(_exactly(sock, _HEAD.size, deadline))
    if size > MAX_FRAME:
        raise Gone(f"a frame of {size:,} bytes")
    return kind, _exactly(sock, size, deadline)
