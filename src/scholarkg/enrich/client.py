"""A polite client of the arXiv API (the export query endpoint), with an on-disk cache.

arXiv asks API users to make no more than one request every three seconds and to say who
they are; :class:`ArxivClient` waits between requests (also between retries), sends a
descriptive User-Agent, retries timeouts and "try again later" answers (HTTP 429 and 5xx,
honouring ``Retry-After``), and keeps every answer on disk so later runs, and ``--offline``
runs, ask nothing. The base URL is configurable (tests point it at a local server).
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

from ..errors import NetworkError, Problems
from ..model import Record

__all__ = ["ArxivClient", "RateLimiter", "ResponseCache", "default_cache_dir", "DEFAULT_BASE_URL", "DEFAULT_INTERVAL"]

log = logging.getLogger(__name__)

DEFAULT_BASE_URL = "https://export.arxiv.org/api/query"
DEFAULT_INTERVAL = 3.0  # seconds between requests, as arXiv's API terms ask
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

    def wait(self) -> None:
        if self.last is not None:
            delay = self.last + self.interval - self.clock()
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
        contact: str | None = None,
        cache: ResponseCache | None = None,
        offline: bool = False,
        refresh: bool = False,
        sleep=time.sleep,
    ) -> None:
        if interval < 0 or timeout <= 0 or retries < 0:
            raise ValueError("interval must be >= 0, timeout > 0 and retries >= 0")
        self.base_url = base_url
        self.timeout, self.retries, self.max_wait = timeout, retries, max_wait
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

    def _fetch(self, params: dict[str, str]) -> str:
        import urllib.error
        import urllib.request

        url = f"{self.base_url}?{urlencode(params)}"
        request = urllib.request.Request(url, headers={"User-Agent": self.user_agent, "Accept": "application/atom+xml"})
        problem = ""
        for attempt in range(self.retries + 1):
            self.limiter.wait()
            self.requests += 1
            try:
                with urllib.request.urlopen(request, timeout=self.timeout) as response:
                    body = response.read().decode("utf-8", errors="replace")
                self.limiter.done()
                return body
            except urllib.error.HTTPError as exc:
                body = exc.read().decode("utf-8", errors="replace")
                self.limiter.done()
                if exc.code not in _RETRY_CODES:
                    if "<feed" in body[:2000]:
                        parse(body)  # arXiv explains bad queries in an Atom error entry: raises with its words
                    raise NetworkError(f"arXiv API: HTTP {exc.code} {exc.reason} for {url}") from None
                problem = f"HTTP {exc.code}"
                wait = self._retry_after(exc.headers.get("Retry-After"))
                if wait is not None and wait > self.max_wait:
                    raise NetworkError(
                        f"arXiv API: HTTP {exc.code}, asked to wait {wait:.0f} s (more than {self.max_wait:.0f} s)"
                    ) from None
            except (urllib.error.URLError, TimeoutError, ConnectionError, OSError) as exc:
                self.limiter.done()
                reason = getattr(exc, "reason", exc)
                problem = "timed out" if isinstance(reason, TimeoutError) or "timed out" in str(reason) else str(reason)
                wait = None
            if attempt == self.retries:
                break
            wait = wait if wait is not None else self.limiter.interval * 2**attempt
            log.info("arXiv API: %s; trying again in %.1f s", problem, wait)
            self.sleep(wait)
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
    records = list(parse_feed(text, Path("arXiv API answer"), problems))
    errors = [p.message for p in problems.items if p.field == "entry"]
    if errors and not records:
        raise NetworkError(f"arXiv API: {errors[0]}")
    return records


def _first(records: list[Record]) -> Record | None:
    return records[0] if records else None


def _entries(text: str) -> list[tuple[Record, str]]:
    """Each entry of a feed as (record, the entry's XML)."""
    try:
        root = ET.fromstring(text)
    except ET.ParseError as exc:
        raise NetworkError(f"arXiv API: answer is not XML ({exc})") from None
    out = []
    for entry in root.iter(f"{{{_ATOM}}}entry"):
        xml = ET.tostring(entry, encoding="unicode")
        for record in parse(_single_feed(xml)):
            out.append((record, xml))
    return out


def _single_feed(entry_xml: str | None) -> str:
    return f'<?xml version="1.0" encoding="UTF-8"?>\n<feed xmlns="{_ATOM}">{entry_xml or ""}</feed>\n'
