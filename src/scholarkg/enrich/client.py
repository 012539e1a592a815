"""A polite client of the arXiv API (the export query endpoint), with an on-disk cache.

arXiv asks API users to make no more than one request every three seconds and to say who
they are; :class:`ArxivClient` waits between requests (also between retries), sends a
descriptive User-Agent, retries timeouts, broken connections and "try again later" answers
(HTTP 429 and 5xx, honouring ``Retry-After``), and keeps every answer on disk so later runs,
and ``--offline`` runs, ask nothing. The base URL is configurable (tests point it at a local
server).

Every request has a hard deadline (``timeout``: connecting, headers and body together), every
answer a size limit (``max_bytes``), and the whole run an optional deadline (``run_timeout``)
that also bounds the waits between requests. Redirects are followed only to the same host
(:mod:`~scholarkg.enrich.transport`). An answer that is not an Atom feed (an HTML page, XML
nested too deeply to be a feed) is a :class:`~scholarkg.errors.NetworkError`, like every other
failure of the service.
"""

from __future__ import annotations

import email.utils
import hashlib
import json
import logging
import os
import re
import time
import xml.etree.ElementTree as ET
from collections.abc import Callable
from datetime import datetime, timezone
from pathlib import Path
from urllib.parse import urlencode

from ..errors import InputError, NetworkError, Problems
from ..model import Record

__all__ = ["ArxivClient", "RateLimiter", "ResponseCache", "default_cache_dir", "DEFAULT_BASE_URL", "DEFAULT_INTERVAL",
           "DEFAULT_MAX_BYTES"]

log = logging.getLogger(__name__)

DEFAULT_BASE_URL = "https://export.arxiv.org/api/query"
DEFAULT_INTERVAL = 3.0  # seconds between requests, as arXiv's API terms ask
DEFAULT_MAX_BYTES = 20 << 20  # an answer of 20 entries is some 100 KB
_RETRY_CODES = {429, 500, 502, 503, 504}
_ATOM = "http://www.w3.org/2005/Atom"


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("scholarkg")
    except PackageNotFoundError:  # pragma: no cover - running from a plain checkout
        return "0"


def default_cache_dir() -> Path:
    """``$SCHOLARKG_CACHE``, else ``$XDG_CACHE_HOME/scholarkg``, else ``~/.cache/scholarkg``; plus ``arxiv``."""
    base = os.environ.get("SCHOLARKG_CACHE")
    if base:
        return Path(base) / "arxiv"
    xdg = os.environ.get("XDG_CACHE_HOME")
    return (Path(xdg) if xdg else Path.home() / ".cache") / "scholarkg" / "arxiv"


class RateLimiter:
    """Keeps ``interval`` seconds between the end of one request and the start of the next.

    Call :meth:`wait` before a request and :meth:`done` when its answer (or failure) is in;
    counting from the end makes the spacing hold as the server sees it, too.
    """

    def __init__(self, interval: float, clock: Callable[[], float] = time.monotonic, sleep=time.sleep) -> None:
        self.interval = interval
        self.clock, self.sleep = clock, sleep
        self.last: float | None = None

    def delay(self) -> float:
        """Seconds :meth:`wait` would sleep now."""
        return 0.0 if self.last is None else max(0.0, self.last + self.interval - self.clock())

    def wait(self) -> None:
        delay = self.delay()
        if delay > 0:
            self.sleep(delay)
        self.last = self.clock()

    def done(self) -> None:
        self.last = self.clock()


class ResponseCache:
    """API answers on disk, one file per query (``<hash>.xml`` and ``<hash>.json`` saying what was asked)."""

    def __init__(self, folder: str | Path) -> None:
        self.folder = Path(folder)

    @staticmethod
    def key(params: dict[str, str]) -> str:
        return hashlib.sha256(urlencode(sorted(params.items())).encode("utf-8")).hexdigest()[:32]

    def get(self, params: dict[str, str]) -> str | None:
        path = self.folder / f"{self.key(params)}.xml"
        try:
            return path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return None
        except (OSError, UnicodeDecodeError) as exc:
            log.warning("%s: unreadable cache entry ignored (%s)", path, exc)
            return None

    def put(self, params: dict[str, str], text: str) -> None:
        from ..fileio import write_text

        key = self.key(params)
        write_text(self.folder / f"{key}.xml", text)
        meta = {"query": dict(sorted(params.items())), "fetched": datetime.now(timezone.utc).isoformat(timespec="seconds")}
        write_text(self.folder / f"{key}.json", json.dumps(meta, indent=2) + "\n")


class ArxivClient:
    def __init__(
        self,
        base_url: str = DEFAULT_BASE_URL,
        *,
        interval: float = DEFAULT_INTERVAL,
        timeout: float = 30.0,
        retries: int = 3,
        max_wait: float = 120.0,
        max_bytes: int = DEFAULT_MAX_BYTES,
        run_timeout: float | None = None,
        contact: str | None = None,
        cache: ResponseCache | None = None,
        offline: bool = False,
        refresh: bool = False,
        sleep=time.sleep,
    ) -> None:
        if interval < 0 or timeout <= 0 or retries < 0 or max_bytes < 1 or (run_timeout is not None and run_timeout <= 0):
            raise ValueError("interval must be >= 0, timeout and run_timeout > 0, retries >= 0, max_bytes >= 1")
        self.base_url = base_url
        self.timeout, self.retries, self.max_wait, self.max_bytes = timeout, retries, max_wait, max_bytes
        self.run_timeout = run_timeout
        self.deadline = None if run_timeout is None else time.monotonic() + run_timeout
        self.cache, self.offline, self.refresh = cache, offline, refresh
        self.sleep = sleep
        self.limiter = RateLimiter(interval, sleep=sleep)
        agent = f"scholarkg/{_version()} (knowledge-graph builder; arXiv metadata lookup"
        self.user_agent = agent + (f"; mailto:{contact})" if contact else ")")
        self.requests = 0  # HTTP requests made (for reports and tests)
        self.missing: list[str] = []  # ids the last by_ids call could not look up offline

    # --- raw queries --------------------------------------------------------------------

    def query(self, params: dict[str, str]) -> str | None:
        """The feed arXiv answers ``params`` with (from the cache when there); None when offline and not cached."""
        if self.cache is not None and not self.refresh:
            text = self.cache.get(params)
            if text is not None:
                return text
        if self.offline:
            return None
        text = self._fetch(params)
        parse(text)  # an error answer raises here and is never cached
        if self.cache is not None:
            self.cache.put(params, text)
        return text

    def _left(self) -> float | None:
        """Seconds left of the run (None: no run deadline); raises when none are."""
        if self.deadline is None:
            return None
        left = self.deadline - time.monotonic()
        if left <= 0:
            raise NetworkError(f"arXiv API: the run's time limit of {self.run_timeout:g} s is reached")
        return left

    def _pause(self, seconds: float) -> None:
        left = self._left()
        if left is not None and seconds >= left:
            raise NetworkError(f"arXiv API: waiting {seconds:.0f} s more would pass the run's time limit of {self.run_timeout:g} s")
        self.sleep(seconds)

    def _fetch(self, params: dict[str, str]) -> str:
        from .transport import TransportError, get

        url = f"{self.base_url}?{urlencode(params)}"
        headers = {"User-Agent": self.user_agent, "Accept": "application/atom+xml"}
        problem = ""
        for attempt in range(self.retries + 1):
            turn = self.limiter.delay()
            if turn:
                self._pause(turn)
            self.limiter.wait()
            self.requests += 1
            left = self._left()
            try:
                reply = get(url, headers, timeout=self.timeout if left is None else min(self.timeout, left), max_bytes=self.max_bytes)
            except TransportError as exc:
                self.limiter.done()
                if not exc.retry:
                    raise NetworkError(f"arXiv API: {exc} ({url})") from None
                problem, wait = ("timed out" if exc.timed_out else str(exc)), None
            else:
                self.limiter.done()
                body = reply.body.decode("utf-8", errors="replace")
                if reply.status == 200:
                    if reply.media_type in ("text/html", "application/xhtml+xml") or not body.lstrip().startswith("<"):
                        kind = reply.media_type or "no type"
                        raise NetworkError(f"arXiv API: the answer is not an Atom feed ({kind}: {' '.join(body[:80].split())!r}) ({url})")
                    return body
                if reply.status not in _RETRY_CODES:
                    if "<feed" in body[:2000]:
                        parse(body)  # arXiv explains bad queries in an Atom error entry: raises with its words
                    raise NetworkError(f"arXiv API: HTTP {reply.status} {reply.reason} for {url}")
                problem = f"HTTP {reply.status}"
                wait = self._retry_after(reply.headers.get("Retry-After"))
                if wait is not None and wait > self.max_wait:
                    raise NetworkError(
                        f"arXiv API: HTTP {reply.status}, asked to wait {wait:.0f} s (more than {self.max_wait:.0f} s)"
                    )
            if attempt == self.retries:
                break
            wait = wait if wait is not None else self.limiter.interval * 2**attempt
            log.info("arXiv API: %s; trying again in %.1f s", problem, wait)
            self._pause(wait)
        raise NetworkError(f"arXiv API: {problem} after {self.retries + 1} attempt(s) ({url})")

    @staticmethod
    def _retry_after(value: str | None) -> float | None:
        if not value:
            return None
        value = value.strip()
        if value.isdigit():
            return float(value)
        try:
            when = email.utils.parsedate_to_datetime(value)
        except (TypeError, ValueError):
            return None
        if when.tzinfo is None:
            when = when.replace(tzinfo=timezone.utc)
        return max(0.0, (when - datetime.now(timezone.utc)).total_seconds())

    # --- lookups ------------------------------------------------------------------------

    def by_ids(self, ids: list[str], batch: int = 20) -> dict[str, Record | None]:
        """arXiv's record of each id (None when arXiv has none, or offline and not cached: see ``missing``).

        Answers are cached per id, so a later run with other ids still finds these offline.
        """
        out: dict[str, Record | None] = {}
        todo = []
        self.missing = []
        for arxiv_id in dict.fromkeys(ids):
            text = None if self.refresh or self.cache is None else self.cache.get(_id_params(arxiv_id))
            if text is not None:
                out[arxiv_id] = _first(parse(text))
            elif self.offline:
                self.missing.append(arxiv_id)
                out[arxiv_id] = None
            else:
                todo.append(arxiv_id)
        for start in range(0, len(todo), batch):
            chunk = todo[start : start + batch]
            params = {"id_list": ",".join(chunk), "start": "0", "max_results": str(len(chunk))}
            text = self._fetch(params)
            found = {r.arxiv_id: (r, xml) for r, xml in _entries(text)}
            for arxiv_id in chunk:
                record, xml = found.get(arxiv_id, (None, None))
                feed = _single_feed(xml)
                if self.cache is not None:
                    self.cache.put(_id_params(arxiv_id), feed)
                out[arxiv_id] = record
        return out

    def by_title(self, title: str, max_results: int = 10) -> list[Record] | None:
        """Records whose title contains the words of ``title`` as a phrase (None: offline, not cached)."""
        words = re.findall(r"[^\W_]+", title)
        params = {"search_query": f'ti:"{" ".join(words)}"', "start": "0", "max_results": str(max_results)}
        text = self.query(params)
        return None if text is None else parse(text)


def _id_params(arxiv_id: str) -> dict[str, str]:
    return {"id_list": arxiv_id, "start": "0", "max_results": "1"}


def parse(text: str) -> list[Record]:
    """Records of a feed; arXiv's error entries raise NetworkError with arXiv's message."""
    from ..readers.atom import parse_feed

    problems = Problems()
    try:
        records = list(parse_feed(text, Path("arXiv API answer"), problems))
    except InputError as exc:  # not XML, not a feed, nested too deeply: the service failed
        raise NetworkError(f"arXiv API: the answer is not a readable Atom feed ({str(exc).removeprefix('arXiv API answer: ')})") from None
    errors = [p.message for p in problems.items if p.field == "entry"]
    if errors and not records:
        raise NetworkError(f"arXiv API: {errors[0]}")
    return records


def _first(records: list[Record]) -> Record | None:
    return records[0] if records else None


def _entries(text: str) -> list[tuple[Record, str]]:
    """Each entry of a feed as (record, the entry's XML)."""
    from ..readers.atom import has_dtd, parse_xml

    if has_dtd(text):
        raise NetworkError("arXiv API: the answer is not a readable Atom feed (it has a document type declaration)")
    try:
        root = parse_xml(text)
    except ET.ParseError as exc:
        raise NetworkError(f"arXiv API: the answer is not a readable Atom feed ({exc})") from None
    out = []
    for entry in root.iter(f"{{{_ATOM}}}entry"):
        xml = ET.tostring(entry, encoding="unicode")
        for record in parse(_single_feed(xml)):
            out.append((record, xml))
    return out


def _single_feed(entry_xml: str | None) -> str:
    return f'<?xml version="1.0" encoding="UTF-8"?>\n<feed xmlns="{_ATOM}">{entry_xml or ""}</feed>\n'
