"""A local stand-in for the arXiv API query endpoint that replays recorded answers.

It serves the entries of the recorded feeds in ``../shared/data/arxiv-atom/`` (plus entries a
test adds): ``id_list`` lookups return those entries (the recorded id-list answer verbatim
when the same ids are asked for), ``search_query=ti:"..."`` returns the entries whose title
contains the phrase. ``script`` queues misbehaviour for the next requests, one action per
request (see ``FAILURES``): a status with ``Retry-After``, a delay, an empty feed, a body or
headers dripped byte by byte, a huge or deeply nested answer, redirects, an HTML page, a body
cut short, a reset connection, a broken status line, garbage, an entity bomb. Every request is
logged with its arrival time and headers; ``sent`` counts the bytes of answers written.
"""

from __future__ import annotations

import re
import socket
import struct
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

ATOM_HEAD = ('<?xml version="1.0" encoding="UTF-8"?>\n<feed xmlns="http://www.w3.org/2005/Atom" '
             'xmlns:arxiv="http://arxiv.org/schemas/atom" xmlns:opensearch="http://a9.com/-/spec/opensearch/1.1/">\n'
             '  <title>arXiv Query (replay)</title>\n  <id>http://arxiv.org/api/replay</id>\n'
             '  <opensearch:totalResults>{n}</opensearch:totalResults>\n')
ERROR_FEED = ('<?xml version="1.0" encoding="UTF-8"?>\n<feed xmlns="http://www.w3.org/2005/Atom">\n'
              '  <entry><id>http://arxiv.org/api/errors#incorrect_id_format_for_{bad}</id><title>Error</title>'
              '<summary>incorrect id format for {bad}</summary></entry>\n</feed>\n')


def words(text: str) -> list[str]:
    return re.findall(r"[^\W_]+", text.casefold())


def entry_xml(arxiv_id: str, title: str, authors: list[str], categories: list[str], published: str = "2025-10-28T17:00:00Z",
              doi: str | None = None) -> str:
    """A small entry in arXiv's layout, for feeds the tests write."""
    from xml.sax.saxutils import escape

    parts = [f"<entry><id>http://arxiv.org/abs/{arxiv_id}v1</id><updated>{published}</updated>",
             f"<published>{published}</published><title>{escape(title)}</title><summary>Abstract.</summary>"]
    parts += [f"<author><name>{escape(a)}</name></author>" for a in authors]
    if doi:
        parts.append(f"<arxiv:doi>{escape(doi)}</arxiv:doi>")
    parts.append(f'<arxiv:primary_category term="{categories[0]}" scheme="http://arxiv.org/schemas/atom"/>')
    parts += [f'<category term="{c}" scheme="http://arxiv.org/schemas/atom"/>' for c in categories]
    parts.append("</entry>")
    return "".join(parts)


FAILURES = {
    "status": "(status, retry_after): an empty answer with that status",
    "sleep": "(seconds,): wait, then answer normally",
    "empty": "(): a feed without entries",
    "drip": "(seconds_per_byte,): the normal answer, one byte at a time",
    "drip-headers": "(seconds_per_byte,): the status line and headers one byte at a time",
    "huge": "(bytes,): a 200 answer of that many bytes (a feed padded with a comment)",
    "nested": "(depth,): a feed whose entry nests that many elements",
    "redirect": "(status, location): a redirect",
    "html": "(): a 200 HTML page",
    "truncate": "(): Content-Length larger than the body, then the connection closed",
    "reset": "(): the connection reset without an answer",
    "bad-status": "(): a status line that is not HTTP",
    "garbage": "(): a 200 Atom answer of bytes that are not XML",
    "bomb": "(): a feed with an entity-expansion DTD",
}
BOMB = ('<?xml version="1.0"?>\n<!DOCTYPE feed [<!ENTITY a "aaaaaaaaaa">' +
        "".join(f'<!ENTITY {chr(98 + n)} "{("&" + chr(97 + n) + ";") * 10}">' for n in range(8)) +
        ']>\n<feed xmlns="http://www.w3.org/2005/Atom"><entry><id>http://arxiv.org/abs/2101.00001v1</id>'
        '<title>&i;</title></entry></feed>\n')


class Replay:
    def __init__(self, recorded: Path, extra_entries: list[str] = ()) -> None:
        self.verbatim: dict[str, str] = {}
        self.entries: list[tuple[str, list[str], str]] = []  # (id, title words, entry xml)
        for path in sorted(recorded.glob("*.atom.xml")):
            text = path.read_text(encoding="utf-8")
            for xml in re.findall(r"<entry>.*?</entry>", text, re.DOTALL):
                self._add(xml)
            m = re.search(r"id_list%3D([^%&]+)%26", text)
            if m:
                self.verbatim[m.group(1)] = text
        for xml in extra_entries:
            self._add(xml)
        self.script: list[tuple] = []
        self.log: list[tuple[float, str, dict[str, str]]] = []
        self.sent = 0
        self.server: ThreadingHTTPServer | None = None

    def _add(self, xml: str) -> None:
        arxiv_id = re.search(r"<id>http://arxiv.org/abs/([^<]+?)(v\d+)?</id>", xml).group(1)
        title = re.search(r"<title>(.*?)</title>", xml, re.DOTALL).group(1)
        self.entries.append((arxiv_id, words(title), xml))

    @property
    def url(self) -> str:
        host, port = self.server.server_address[:2]
        return f"http://{host}:{port}/api/query"

    def answer(self, query: dict[str, list[str]]) -> tuple[int, str]:
        ids = [i for i in query.get("id_list", [""])[0].split(",") if i]
        if ids:
            if ",".join(ids) in self.verbatim:
                return 200, self.verbatim[",".join(ids)]
            bad = [i for i in ids if not re.fullmatch(r"\d{4}\.\d{4,5}(v\d+)?|[a-z\-]+(\.[A-Z]{2})?/\d{7}", i)]
            if bad:
                return 400, ERROR_FEED.format(bad=bad[0])
            wanted = {re.sub(r"v\d+$", "", i) for i in ids}
            return 200, self.feed([xml for i, _w, xml in self.entries if i in wanted])
        search = query.get("search_query", [""])[0]
        m = re.fullmatch(r'ti:"(.*)"', search)
        if not m:
            return 400, ERROR_FEED.format(bad="query")
        phrase = words(m.group(1))
        hits = [xml for _i, w, xml in self.entries
                if any(w[k:k + len(phrase)] == phrase for k in range(len(w) - len(phrase) + 1))]
        return 200, self.feed(hits[: int(query.get("max_results", ["10"])[0])])

    @staticmethod
    def feed(entries: list[str]) -> str:
        return ATOM_HEAD.format(n=len(entries)) + "\n".join(entries) + "\n</feed>\n"

    def __enter__(self) -> Replay:
        replay = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self):  # noqa: N802 - the http.server API
                replay.log.append((time.monotonic(), self.path, dict(self.headers)))
                action = replay.script.pop(0) if replay.script else None
                try:
                    self._act(action)
                except (BrokenPipeError, ConnectionResetError):  # the client gave up (a timeout, a size limit)
                    self.close_connection = True

            def _send(self, status: int, body: bytes, kind="application/atom+xml; charset=utf-8", length=None, **headers):
                self.send_response(status)
                self.send_header("Content-Type", kind)
                self.send_header("Content-Length", str(len(body) if length is None else length))
                for name, value in headers.items():
                    self.send_header(name, value)
                self.end_headers()
                self.wfile.write(body)
                replay.sent += len(body)

            def _normal(self) -> tuple[int, bytes]:
                status, body = replay.answer(parse_qs(urlsplit(self.path).query))
                return status, body.encode("utf-8")

            def _act(self, action) -> None:
                name = action[0] if action else None
                if name == "sleep":
                    time.sleep(action[1])
                if name == "status":
                    return self._send(action[1], b"", **({"Retry-After": str(action[2])} if action[2] is not None else {}))
                if name == "empty":
                    return self._send(200, replay.feed([]).encode("utf-8"))
                if name == "drip":
                    status, body = self._normal()
                    self.send_response(status)
                    self.send_header("Content-Length", str(len(body)))
                    self.end_headers()
                    self.wfile.flush()
                    for byte in body:
                        self.wfile.write(bytes([byte]))
                        self.wfile.flush()
                        time.sleep(action[1])
                    return
                if name == "drip-headers":
                    status, body = self._normal()
                    head = f"HTTP/1.1 {status} OK\r\nContent-Length: {len(body)}\r\n" + "X-Padding: y\r\n" * 100 + "\r\n"
                    for byte in head.encode():
                        self.wfile.write(bytes([byte]))
                        self.wfile.flush()
                        time.sleep(action[1])
                    self.wfile.write(body)
                    return
                if name == "huge":
                    head = replay.feed([]).encode()[:-len("</feed>\n")] + b"<!--"
                    self.send_response(200)
                    self.send_header("Content-Length", str(action[1]))
                    self.end_headers()
                    self.wfile.write(head)
                    left = action[1] - len(head)
                    while left > 0:
                        piece = b"x" * min(left, 1 << 16)
                        self.wfile.write(piece)
                        replay.sent += len(piece)
                        left -= len(piece)
                    return
                if name == "nested":
                    depth = action[1]
                    entry = ("<entry><id>http://arxiv.org/abs/2101.00001v1</id><title>Deep</title>" + "<x>" * depth
                             + "</x>" * depth + "</entry>")
                    return self._send(200, replay.feed([entry]).encode())
                if name == "redirect":
                    return self._send(action[1], b"", Location=action[2])
                if name == "html":
                    return self._send(200, b"<!DOCTYPE html><html><body><h1>Rate limited</h1></body></html>",
                                      kind="text/html; charset=utf-8")
                if name == "truncate":
                    status, body = self._normal()
                    self._send(status, body[: len(body) // 2], length=len(body))
                    self.close_connection = True
                    return
                if name == "reset":
                    self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
                    self.close_connection = True
                    return
                if name == "bad-status":
                    self.wfile.write(b"SPDY/9 what\r\n\r\n")
                    self.close_connection = True
                    return
                if name == "garbage":
                    return self._send(200, bytes(range(256)) * 4)
                if name == "bomb":
                    return self._send(200, BOMB.encode())
                status, body = self._normal()
                self._send(status, body)

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        return self

    def __exit__(self, *exc) -> None:
        self.server.shutdown()
        self.server.server_close()

    def queries(self) -> list[dict[str, list[str]]]:
        return [parse_qs(urlsplit(path).query) for _t, path, _h in self.log]
