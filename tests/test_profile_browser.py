"""The profile page in a real headless chromium: offline, outside requests blocked, no console
errors, the charts drawn, explorer links pointing at the explorer file beside it."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest

from scholarkg.pipeline import build, write_outputs
from scholarkg.profile import author_profile, profile_html

pytestmark = pytest.mark.browser

CHROMIUM = Path("/usr/bin/chromium")
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--no-first-run", "--disable-sync", "--disable-quic"]


@pytest.fixture(scope="module")
def page_file(repo_root, tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("profile") / "maojia-song"
    result = build([repo_root / "examples" / "maojia-song.txt"], curation=repo_root / "tests" / "data" / "seed.curation.toml")
    write_outputs(result, out)
    path = out / "profile.html"
    path.write_text(profile_html(author_profile(result.graph, "Maojia Song"), explorer="graph.html"), encoding="utf-8")
    return path


def test_profile_page_in_chromium(page_file):
    playwright = pytest.importorskip("playwright.sync_api")
    if not CHROMIUM.exists():
        pytest.skip("chromium is not installed at /usr/bin/chromium")
    outside, problems = [], []
    with playwright.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            context = browser.new_context(offline=True)

            def route(r):
                if r.request.url.startswith("file://"):
                    r.continue_()
                else:
                    outside.append(r.request.url)
                    r.abort()

            context.route("**/*", route)
            page = context.new_page()
            page.on("console", lambda m: problems.append(f"console {m.type}: {m.text}") if m.type in ("error", "warning") else None)
            page.on("pageerror", lambda e: problems.append(f"page error: {e}"))
            page.on("requestfailed", lambda r: problems.append(f"failed: {r.url}"))
            page.goto(page_file.as_uri(), wait_until="load")
            assert page.locator("h1").inner_text() == "Maojia Song"
            boxes = page.eval_on_selector_all("svg.chart", "els => els.map(e => e.getBoundingClientRect().width)")
            assert len(boxes) == 4 and all(w > 200 for w in boxes), boxes
            bars = page.eval_on_selector_all("svg.chart path", "els => els.length")
            assert bars > 20
            hrefs = page.eval_on_selector_all("a[href*='#node=']", "els => els.map(e => e.href)")
            assert len(hrefs) > 20
            targets = {Path(unquote(urlsplit(h).path)) for h in hrefs}
            assert targets == {page_file.parent / "graph.html"} and (page_file.parent / "graph.html").is_file()
            nodes = {unquote(urlsplit(h).fragment) for h in hrefs}
            assert "node=https://w3id.org/scholarkg/id/entity/kairos" in nodes
            # every list of entities shows each one's kind, names before concepts
            tables = page.eval_on_selector_all("h2 + table, h2 + p + table", """tables => tables.map(t => ({
                heading: (t.previousElementSibling.tagName === 'P' ? t.previousElementSibling.previousElementSibling
                          : t.previousElementSibling).innerText,
                head: [...t.querySelectorAll('th')].map(th => th.innerText),
                kinds: [...t.querySelectorAll('tbody tr')].map(tr => {
                    const tag = tr.querySelector('span.tag[class*="kind-"]');
                    const box = tag ? tag.getBoundingClientRect() : null;
                    return tag && box.width > 0 && box.height > 0 ? tag.innerText : null;
                })}))""")
            listed = [t for t in tables if t["head"][:2] == ["entity", "kind"]]
            assert [t["heading"] for t in listed] == ["Benchmarks and datasets introduced", "Methods and models introduced",
                                                      "Models, benchmarks and methods used most, with first and latest use"]
            for table in listed:
                kinds = table["kinds"]
                assert kinds and None not in kinds and set(kinds) <= {"name", "concept"}, table
                assert kinds == sorted(kinds, key=lambda k: k != "name"), table  # names first
            assert set(listed[-1]["kinds"]) == {"name", "concept"}
        finally:
            browser.close()
    assert outside == [] and problems == []
