"""The browser harness of the page tests: Debian's chromium driven by Playwright, offline.

Pages are opened with the context offline and every request that is not ``file:``, ``data:``
or ``about:`` (or to a local server the test names) aborted and recorded, so a test can assert
that none was attempted and that the console logged no error. The fixtures ``browser_context``
and ``open_page`` are registered in ``conftest.py``.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path

import pytest

CHROMIUM = Path("/usr/bin/chromium")
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--no-first-run", "--disable-sync", "--disable-quic"]
LOCAL_SCHEMES = ("file", "data", "about")
READY = "body[data-state=ready]"


@dataclass
class Opened:
    page: object
    outside: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    seconds: float = 0.0

    def js(self, script: str, arg=None):
        return self.page.evaluate(script, arg)

    def wait(self, script: str, timeout: float = 10.0):
        """Poll ``script`` (a JS function) until it returns a truthy value."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            value = self.js(script)
            if value:
                return value
            time.sleep(0.05)
        raise AssertionError(f"timed out waiting for {script}")


def launch_context(tmp_path_factory, *, offline: bool = True, **options):
    """A persistent chromium context (a generator: the fixture yields it and closes it); pages
    that talk to a local server need ``offline=False`` (outside requests are still aborted)."""
    if not CHROMIUM.exists():
        pytest.skip("browser tests need Debian's chromium at /usr/bin/chromium (apt-get install chromium)")
    sync_api = pytest.importorskip("playwright.sync_api", reason="browser tests need the playwright package")
    with sync_api.sync_playwright() as pw:
        ctx = pw.chromium.launch_persistent_context(
            str(tmp_path_factory.mktemp("chromium-profile")), executable_path=str(CHROMIUM), args=ARGS,
            headless=True, offline=offline, accept_downloads=True, **{"viewport": {"width": 1400, "height": 860}, **options},
        )
        yield ctx
        ctx.close()


def page_opener(context, pages: list, allowed: tuple[str, ...] = ()):
    """``open(url_or_path, timeout=, ready=)`` for ``context``; ``allowed`` URL prefixes may load."""

    def local(url: str) -> bool:
        return url.split(":", 1)[0] in LOCAL_SCHEMES or url.startswith(allowed)

    def _open(target, *, timeout: float = 60.0, ready: bool = True) -> Opened:
        page = context.new_page()
        pages.append(page)
        opened = Opened(page)

        def route(r):
            if local(r.request.url):
                r.continue_()
            else:
                opened.outside.append(r.request.url)
                r.abort()

        page.route("**/*", route)
        page.on("request", lambda req: None if local(req.url) else opened.outside.append(req.url))
        page.on("console", lambda msg: opened.errors.append(msg.text) if msg.type == "error" else None)
        page.on("pageerror", lambda exc: opened.errors.append(str(exc)))
        start = time.perf_counter()
        page.goto(target.as_uri() if isinstance(target, Path) else str(target))
        if ready:
            page.wait_for_selector(READY, state="attached", timeout=timeout * 1000)
        opened.seconds = time.perf_counter() - start
        return opened

    return _open


def assert_clean(opened: Opened) -> None:
    assert opened.outside == [], f"requests to the outside: {opened.outside}"
    assert opened.errors == [], f"console errors: {opened.errors}"
