"""A local stand-in for the arXiv API query endpoint that replays recorded answers.

It serves the entries of the recorded feeds in ``../shared/data/arxiv-atom/`` (plus entries a
test adds): ``id_list`` lookups return those entries (the recorded id-list answer verbatim
when the same ids are asked for), ``search_query=ti:"..."`` returns the entries whose title
contains the phrase. ``script`` queues misbehaviour for the next requests: ``("status", 503,
retry_after)``, ``("sleep", seconds)``, ``("empty",)``. Every request is logged with its
arrival time and headers.
"""

from __future__ import annotations

import re
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
                if action and action[0] == "sleep":
                    time.sleep(action[1])
                if action and action[0] == "status":
                    self.send_response(action[1])
                    if action[2] is not None:
                        self.send_header("Retry-After", str(action[2]))
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                    return
                status, body = (200, replay.feed([])) if action and action[0] == "empty" else replay.answer(parse_qs(urlsplit(self.path).query))
                data = body.encode("utf-8")
                try:
                    self.send_response(status)
                    self.send_header("Content-Type", "application/atom+xml; charset=utf-8")
                    self.send_header("Content-Length", str(len(data)))
                    self.end_headers()
                    self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):  # the client gave up (a timeout test)
                    pass

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
